"""Is invented content fair? Every deck (or character) against every other, in both seats, on
duplicate deals; or every difficulty level's clear rate. ``yokai balance`` is the CLI.

A content pair (A, B) plays the same deals twice, A in seat 0 then B in seat 0, with the same
agent spec in every seat, so the luck of the deal and the seat cancel between the two halves.
The game names its content with its ``balance_axis`` (decks, Characters, levels) and its
endings with its ``outcome_facts`` (optional hooks, :mod:`yokai_envs.core.protocols`); games are
played by the arena (``run_match``), so the results depend only on the seed, not on the number
of workers.

Several agent specs on a level axis (``--agents heuristic,heuristic:selfish=true``) play the
same deals at every level (the deal seeds depend only on the seed and the game's index), so
:func:`compare_levels` gives, per level, the paired difference of each spec's clear rate from the
first spec's, with a 95% interval over those deals.
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from yokai_envs.core.protocols import BalanceAxis, outcome_facts
from yokai_envs.registry import game_class, make_game

from .match import run_match
from .stats import correlation, deal_interval, paired_interval, wilson_interval


@dataclass
class BalanceResult:
    env_id: str
    env_options: dict[str, Any]
    agent: str
    axis: str
    choices: list[Any]
    per_seat: bool
    games: int  # deals per matchup (each played in both seat orders) or games per level
    seed: int
    rows: list[dict[str, Any]] = field(default_factory=list)   # per matchup (or per level)
    field_rows: list[dict[str, Any]] = field(default_factory=list)  # per choice against the field
    overall: dict[str, Any] = field(default_factory=dict)  # seat and first-mover shares, endings, length
    # Level axes: level -> {deal index: team credit} (what compare_levels pairs; not in summary()).
    deal_credits: dict[Any, dict[int, float]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {"env_id": self.env_id, "env_options": self.env_options, "agent": self.agent, "axis": self.axis,
                "choices": self.choices, "per_seat": self.per_seat, "games": self.games, "seed": self.seed,
                "matchups" if self.per_seat else "levels": self.rows, "field": self.field_rows,
                "overall": self.overall}


#: Seats a game's ``outcome_facts`` may name as moving first, with their label: the share of the
#: wins that seat took (over the games where the fact applies) is the first mover's edge.
FIRST_MOVER_FACTS = {"first_player": "First player (took the first turn)",
                     "final_first": "First mover of the Final",
                     "final_last_first": "First mover of the Final's last turn"}


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"games": games, "win_rate": wins / games if games else 0.0, "ci_low": low, "ci_high": high}


def _facts(env_id: str, options: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    game = make_game(env_id, **options)
    game.replay(record["deal_seed"], record["actions"])
    return outcome_facts(game)


def resolve_axis(env_id: str, env_options: dict[str, Any],
                 choices: list[str] | None) -> tuple[str, list[Any], bool]:
    cls = game_class(env_id)
    axis = cls.balance_axis(env_options) if isinstance(cls, BalanceAxis) else None
    if axis is None:
        hook = "" if isinstance(cls, BalanceAxis) else "; the game has no balance_axis hook"
        raise ValueError(f"{env_id} has no invented content to balance (no decks, characters or levels{hook})")
    name, known, per_seat = axis
    if choices is None:
        return name, list(known), per_seat
    if not choices:  # an empty --choices would silently mean "all of them"
        raise ValueError(f"choices: give at least one of the {name} to compare ({', '.join(map(str, known))}), "
                         "or leave the option out for all of them")
    by_text = {str(k): k for k in known}
    unknown = [c for c in choices if str(c) not in by_text]
    if unknown:
        raise ValueError(f"unknown {name} {unknown}; valid: {', '.join(map(str, known))}")
    picked = [by_text[str(c)] for c in choices]
    if per_seat and len(picked) < 2:
        raise ValueError(f"give at least two {name} to compare")
    return name, picked, per_seat


def run_balance(env_id: str, agent: str, games: int = 100, seed: int = 0, env_options: dict[str, Any] | None = None,
                choices: list[str] | None = None, workers: int = 1, progress: bool = False) -> BalanceResult:
    env_options = dict(env_options or {})
    axis, picked, per_seat = resolve_axis(env_id, env_options, choices)
    if axis in env_options:
        raise ValueError(f"--env-kwargs sets {axis!r}, the option a balance run varies; leave it out")
    result = BalanceResult(env_id, env_options, agent, axis, picked, per_seat, games, seed)
    jobs = list(itertools.combinations(picked, 2)) if per_seat else [(level,) for level in picked]
    from tqdm.auto import tqdm

    records: list[tuple[tuple[Any, ...], dict[str, Any], dict[str, Any]]] = []  # (seat -> choice, record, facts)
    for job in tqdm(jobs, unit="matchup" if per_seat else "level", disable=not progress, desc=f"balance {agent}"):
        orders = [job, job[::-1]] if per_seat else [job]
        for order in orders:
            options = {**env_options, axis: tuple(order) if per_seat else order[0]}
            match = run_match(env_id, [agent], games=games, seed=seed, env_options=options, workers=workers)
            records += [(order, r, _facts(env_id, options, r)) for r in match.records]
    if per_seat:
        _versus_tables(result, records)
    else:
        _level_table(result, records)
    _overall(result, records)
    return result


def _versus_tables(result: BalanceResult, records: list) -> None:
    wins: Counter[tuple[Any, Any]] = Counter()
    played: Counter[tuple[Any, Any]] = Counter()
    for order, record, _ in records:
        for seat, choice in enumerate(order):
            opponent = order[1 - seat]
            wins[choice, opponent] += record["credits"][seat]
            played[choice, opponent] += 1
    for a, b in itertools.permutations(result.choices, 2):
        if played[a, b]:
            result.rows.append({"choice": a, "against": b, **_rate(wins[a, b], played[a, b])})
    for a in result.choices:
        total = sum(wins[a, b] for b in result.choices if b != a)
        result.field_rows.append({"choice": a, **_rate(total, sum(played[a, b] for b in result.choices if b != a))})


def _level_table(result: BalanceResult, records: list) -> None:
    for level in result.choices:
        mine = [r for order, r, _ in records if order[0] == level]
        cleared = sum(r["credits"][0] for r in mine)
        result.rows.append({"choice": level, **_rate(cleared, len(mine))})
        # Every seat of a level game shares one result (Solo, or the Co-op team): seat 0's credit.
        result.deal_credits[level] = {r["deal"]: float(r["credits"][0]) for r in mine}


def compare_levels(results: list[BalanceResult]) -> list[dict[str, Any]]:
    """Per level, each later spec's clear rate against the first spec's on the same deals: the
    rates, their difference (first minus other) and its 95% paired interval (MOVER over deals,
    :func:`agents.arena.stats.paired_interval`). Empty for fewer than two runs or content axes;
    ValueError when the runs did not play the same deals (other game, options, seed or games)."""
    levels = [r for r in results if not r.per_seat]
    if len(levels) < 2:
        return []
    base = levels[0]
    rows: list[dict[str, Any]] = []
    for other in levels[1:]:
        same = (other.env_id, other.env_options, other.seed, other.games, other.choices)
        if same != (base.env_id, base.env_options, base.seed, base.games, base.choices):
            raise ValueError(f"cannot pair {other.agent!r} with {base.agent!r}: they did not play the same deals "
                             "(same game, options, levels, seed and games are needed)")
        for level in base.choices:
            a, b = base.deal_credits[level], other.deal_credits[level]
            deals = sorted(set(a) & set(b))
            xa, xb = [a[d] for d in deals], [b[d] for d in deals]
            ia, ib = deal_interval(xa, len(xa)), deal_interval(xb, len(xb))
            low, high = paired_interval(ia, ib, correlation(xa, xb))
            rows.append({"choice": level, "a": base.agent, "b": other.agent, "deals": len(deals),
                         "rate_a": ia["mean"], "rate_b": ib["mean"], "difference": ia["mean"] - ib["mean"],
                         "low": low, "high": high})
    return rows


def _overall(result: BalanceResult, records: list) -> None:
    total = len(records)
    overall: dict[str, Any] = {"games": total}
    if result.per_seat:
        overall["first_seat"] = _rate(sum(r["credits"][0] for _, r, _ in records), total)
        for fact in FIRST_MOVER_FACTS:
            movers = [(r, f[fact]) for _, r, f in records if fact in f]
            if movers:
                overall[fact] = _rate(sum(r["credits"][p] for r, p in movers), len(movers))
    ends = Counter(f.get("end", "end") for _, _, f in records)
    overall["endings"] = {cause: {"games": n, "share": n / total} for cause, n in ends.most_common()}
    steps = [r["steps"] for _, r, _ in records]
    overall["length"] = {"mean_steps": statistics.fmean(steps), "median_steps": statistics.median(steps),
                         "truncated": sum(1 for _, r, _ in records if r["truncated"])}
    result.overall = overall


# ---------------------------------------------------------------------- output
def _options_label(result: BalanceResult) -> str:
    """The options the games ran with, the rule variant always among them for a game that has
    variants (the book's game and a variant are different games)."""
    options = dict(result.env_options)
    default_variant = game_class(result.env_id).OPTIONS.get("variant")
    if default_variant is not None:
        options.setdefault("variant", default_variant)
    return " " + ", ".join(f"{k}={v!r}" for k, v in options.items()) if options else ""


def markdown(result: BalanceResult) -> str:
    head = (f"## {result.env_id}{_options_label(result)} balance: {result.axis} ({result.agent}, {result.games} "
            f"{'deals per pairing, both seat orders' if result.per_seat else 'games per level'}, seed {result.seed})")
    lines = [head, ""]

    def cell(row: dict[str, Any]) -> str:
        return f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"

    if result.per_seat:
        lines += [f"| {result.axis} | against the field | games |", "|---|---|---:|"]
        for row in sorted(result.field_rows, key=lambda r: -r["win_rate"]):
            lines.append(f"| {row['choice']} | {cell(row)} | {row['games']} |")
        lines += ["", "Matchups (row's win rate against the column):", "",
                  "| | " + " | ".join(map(str, result.choices)) + " |",
                  "|---" * (len(result.choices) + 1) + "|"]
        by_pair = {(r["choice"], r["against"]): r for r in result.rows}
        for a in result.choices:
            cells = ["-" if a == b else f"{by_pair[a, b]['win_rate']:.2f}" for b in result.choices]
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        lines += ["", f"First seat: {cell(result.overall['first_seat'])}"]
        for fact, label in FIRST_MOVER_FACTS.items():
            if fact in result.overall:
                lines.append(f"{label}: {cell(result.overall[fact])} over {result.overall[fact]['games']} games")
    else:
        lines += [f"| {result.axis} | clear rate | games |", "|---|---|---:|"]
        lines += [f"| {row['choice']} | {cell(row)} | {row['games']} |" for row in result.rows]
    endings = ", ".join(f"{cause} {v['share']:.1%}" for cause, v in result.overall["endings"].items())
    length = result.overall["length"]
    lines += ["", f"Endings: {endings}. Length: mean {length['mean_steps']:.0f} steps "
              f"(median {length['median_steps']:.0f}), {length['truncated']} hit the step cap."]
    return "\n".join(lines)


def comparison_markdown(rows: list[dict[str, Any]], axis: str) -> str:
    """The table of :func:`compare_levels` (one block per compared spec)."""
    lines: list[str] = []
    for b in dict.fromkeys(r["b"] for r in rows):
        mine = [r for r in rows if r["b"] == b]
        a = mine[0]["a"]
        lines += [f"Paired on the same deals: {a} minus {b} (95% interval over deals)", "",
                  f"| {axis} | {a} | {b} | difference | deals |", "|---|---:|---:|---|---:|"]
        lines += [f"| {r['choice']} | {r['rate_a']:.3f} | {r['rate_b']:.3f} | "
                  f"{r['difference']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}] | {r['deals']} |" for r in mine]
        lines.append("")
    return "\n".join(lines).rstrip()


def write_outputs(results: list[BalanceResult], out_dir: str) -> list[str]:
    """results.json (with the paired ``comparisons`` of several specs on levels), results.csv and
    one PNG per agent (a heatmap, or a clear-rate curve)."""
    import csv
    import json
    from pathlib import Path

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "results.csv"]
    summaries = [r.summary() for r in results]
    comparisons = compare_levels(results)
    if comparisons:
        for summary in summaries[1:]:
            summary["comparisons"] = [row for row in comparisons if row["b"] == summary["agent"]]
    paths[0].write_text(json.dumps(summaries, indent=2, default=str) + "\n")
    with paths[1].open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["agent", "axis", "choice", "against", "games", "win_rate", "ci_low", "ci_high"])
        for r in results:
            for row in r.rows + [{**f, "against": "field"} for f in r.field_rows]:
                writer.writerow([r.agent, r.axis, row["choice"], row.get("against", ""), row["games"],
                                 f"{row['win_rate']:.4f}", f"{row['ci_low']:.4f}", f"{row['ci_high']:.4f}"])
    for index, r in enumerate(results):
        png = out / f"balance_{index}.png"
        (_heatmap if r.per_seat else _curve)(r, png)
        paths.append(png)
    return [str(p) for p in paths]


def _heatmap(result: BalanceResult, path: Any) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = [str(c) for c in result.choices]
    grid = np.full((len(names), len(names)), np.nan)
    for row in result.rows:
        grid[result.choices.index(row["choice"]), result.choices.index(row["against"])] = row["win_rate"]
    size = max(4.0, 1.5 + 0.6 * len(names))
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i, j in itertools.product(range(len(names)), repeat=2):
        if not np.isnan(grid[i, j]):
            ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{result.env_id} {result.axis}: row's win rate against column\n({result.agent}, "
                 f"{result.games} deals per pairing, both seat orders)", fontsize=9)
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _curve(result: BalanceResult, path: Any) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [row["choice"] for row in result.rows]
    ys = [row["win_rate"] for row in result.rows]
    errors = [[y - row["ci_low"] for y, row in zip(ys, result.rows)],
              [row["ci_high"] - y for y, row in zip(ys, result.rows)]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3)
    ax.set_ylim(0, 1)
    ax.set_xlabel(result.axis)
    ax.set_ylabel("clear rate (95% Wilson interval)")
    ax.set_title(f"{result.env_id} {result.env_options}: {result.agent}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
