"""Arena outputs: results.json, results.csv, games.jsonl, results.md, results.tex,
ratings.png, head_to_head.png, and the markdown printed by ``yokai evaluate``."""

from __future__ import annotations

import csv
import json
import os
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .match import MatchResult

CSV_FIELDS = ["table", "agent", "opponents", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high",
              "deals", "ci_basis", "ci_games_low", "ci_games_high", "mean_reward", "truncated", "self_play"]
LABEL_WIDTH = 28  # plot labels longer than this wrap onto more lines (use ALIAS=SPEC for short ones)


def package_version() -> str:
    import yokai_envs

    return getattr(yokai_envs, "__version__", "unknown")


def write_outputs(result: MatchResult, out_dir: str | Path) -> dict[str, Path]:
    """Write every output file into ``out_dir``; returns name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "csv": out / "results.csv", "games": out / "games.jsonl",
             "md": out / "results.md", "tex": out / "results.tex", "png": out / "ratings.png"}
    with paths["csv"].open("w", newline="") as handle:
        seat_fields = [f"mean_reward_seat{s}" for s in range(result.num_players)]
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS + seat_fields)
        writer.writeheader()
        for row in result.rows:
            flat = {k: row[k] for k in CSV_FIELDS}
            flat.update({f: ("" if v is None else v) for f, v in zip(seat_fields, row["mean_reward_by_seat"])})
            writer.writerow(flat)
    temporary = paths["games"].with_suffix(".jsonl.tmp")
    with temporary.open("w") as handle:  # one game per line, in index order: seeds + actions rebuild it
        for record in result.records:
            handle.write(json.dumps(record) + "\n")
    os.replace(temporary, paths["games"])  # never a half-written games.jsonl, even if killed here
    paths["md"].write_text(markdown(result) + "\n")
    paths["tex"].write_text(latex(result))
    plot_ratings(result, paths["png"])
    if result.head_to_head:
        paths["matrix"] = out / "head_to_head.png"
        plot_head_to_head(result, paths["matrix"])
    # Last: a results.json marks the run finished (a journal folder without it is a cut run).
    paths["json"].write_text(json.dumps(result.summary(), indent=2) + "\n")
    return paths


def _wrap(label: str) -> str:
    return "\n".join(textwrap.wrap(label, LABEL_WIDTH, break_on_hyphens=False)) or label


def plot_ratings(result: MatchResult, path: Path) -> None:
    """Ratings with their 95% intervals (or win rates with CIs when there are no ratings)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if result.ratings:
        labels = list(result.ratings)
        values = [result.ratings[x]["rating"] for x in labels]
        lows = [result.ratings[x]["low"] for x in labels]
        highs = [result.ratings[x]["high"] for x in labels]
        xlabel = {"elo": "Elo (Bradley-Terry MLE, 95% bootstrap interval)",
                  "openskill": "openskill mu (Plackett-Luce, mu +- 1.96 sigma)"}[result.rating_kind]
    else:
        labels = [f"{r['agent']} (table {r['table']})" for r in result.rows]
        values = [r["win_rate"] for r in result.rows]
        lows = [r["ci_low"] for r in result.rows]
        highs = [r["ci_high"] for r in result.rows]
        xlabel = "win / clear rate (95% interval over deals)"
    order = sorted(range(len(labels)), key=lambda i: values[i])
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(labels)))
    ys = range(len(order))
    ax.errorbar([values[i] for i in order], list(ys),
                xerr=[[values[i] - lows[i] for i in order], [highs[i] - values[i] for i in order]],
                fmt="o", capsize=4)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([_wrap(labels[i]) for i in order])
    ax.set_xlabel(xlabel)
    ax.set_title(f"{result.env_id} {result.env_options or ''} — {len(result.records)} games, seed {result.seed}",
                 fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_head_to_head(result: MatchResult, path: Path) -> None:
    """The head-to-head matrix: row agent's score against the column agent (win rate in
    2-player games; finishing ahead, ties 1/2, with more seats), with 95% intervals over deals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = _matrix_labels(result)
    cells = {(c["a"], c["b"]): c for c in result.head_to_head}
    k = len(labels)
    values = np.full((k, k), np.nan)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if (a, b) in cells:
                values[i, j] = cells[(a, b)]["score"]
    size = 2.2 + 1.3 * k
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#dddddd")  # the diagonal, pairs that never met
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0.0, vmax=1.0)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            cell = cells.get((a, b))
            text = "—" if cell is None else f"{cell['score']:.3f}\n[{cell['low']:.3f}, {cell['high']:.3f}]"
            dark = cell is not None and abs(cell["score"] - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(k))
    ax.set_xticklabels([_wrap(x) for x in labels], rotation=30, ha="right")
    ax.set_yticks(range(k))
    ax.set_yticklabels([_wrap(x) for x in labels])
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    what = "win rate" if result.num_players == 2 else "finishes ahead (ties 1/2)"
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label=f"row agent's {what} vs column agent")
    ax.set_title(f"{result.env_id} {result.env_options or ''}\n{len(result.records)} games, seed {result.seed}, "
                 "95% intervals over deals", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _matrix_labels(result: MatchResult) -> list[str]:
    present = {c["a"] for c in result.head_to_head} | {c["b"] for c in result.head_to_head}
    order = [result.gauntlet, *result.agents] if result.gauntlet else list(result.agents)
    return [x for x in dict.fromkeys(order) if x in present]


def _self_play_tables(result: MatchResult) -> list[int]:
    return sorted({r["table"] for r in result.rows if r.get("self_play")})


def _aliases(result: MatchResult) -> list[tuple[str, str]]:
    return [(label, spec) for label, spec in result.specs.items() if label != spec]


def markdown(result: MatchResult) -> str:
    """Every table of the result in markdown: per table and agent, paired differences, the
    head-to-head matrix and the ratings."""
    summary = result.summary()
    lines = [f"**{result.env_id}** {json.dumps(result.env_options) if result.env_options else ''} — "
             f"{summary['total_games']} games, seed {result.seed}, "
             f"{summary['truncated_games']} truncated, {summary['mean_steps']:.0f} steps/game on average", ""]
    aliases = _aliases(result)
    if aliases:
        lines += ["| alias | spec |", "|---|---|", *[f"| {a} | `{s}` |" for a, s in aliases], ""]
    lines += ["| table | agent | vs | games | deals | wins | draws | losses | win rate | 95% CI (deals) "
              "| mean reward |", "|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in result.rows:
        vs = "itself (self-play)" if r.get("self_play") else (r["opponents"] or "—")
        basis = "" if r.get("ci_basis", "deals") == "deals" else " †"
        lines.append(f"| {r['table']} | {r['agent']} | {vs} | {r['games']} | {r.get('deals', '')} | {r['wins']} | "
                     f"{r['draws']} | {r['losses']} | {r['win_rate']:.3f} | "
                     f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]{basis} | {r['mean_reward']:+.3f} |")
    if any(r.get("ci_basis") == "games" for r in result.rows):
        lines.append("\n† one deal only, or per-deal scores that do not vary (e.g. every game won): "
                     "Wilson interval over the games")
    for table in _self_play_tables(result):
        seat = next(r for r in result.rows if r["table"] == table)["mean_reward_by_seat"]
        by_seat = ", ".join("—" if v is None else f"{v:+.3f}" for v in seat)
        what = ("a cooperative game: its win rate is the team's clear rate" if result.cooperative
                else "so its win rate is 1/2 by construction")
        lines.append(f"\nTable {table} is self-play: one agent in every seat, {what}; mean reward by seat: {by_seat}.")
    if result.paired:
        lines += ["", "Paired differences on the same deals (first minus second, 95% interval):", "",
                  "| agent | − agent | where | deals | first | second | difference | 95% CI |",
                  "|---|---|---|---:|---:|---:|---:|---|"]
        for p in result.paired:
            lines.append(f"| {p['a']} | {p['b']} | {p['where']} | {p['deals']} | {p['rate_a']:.3f} | "
                         f"{p['rate_b']:.3f} | {p['difference']:+.3f} | [{p['low']:+.3f}, {p['high']:+.3f}] |")
    if result.head_to_head:
        labels = _matrix_labels(result)
        cells = {(c["a"], c["b"]): c for c in result.head_to_head}
        what = "win rate" if result.num_players == 2 else "share of finishes ahead (ties 1/2)"
        lines += ["", f"Head to head: the row agent's {what} against the column agent, 95% interval over deals:", "",
                  "| | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
        for a in labels:
            row = [(f"{cells[(a, b)]['score']:.3f} [{cells[(a, b)]['low']:.3f}, {cells[(a, b)]['high']:.3f}]"
                    if (a, b) in cells else "—") for b in labels]
            lines.append(f"| {a} | " + " | ".join(row) + " |")
    if result.ratings:
        kind = {"elo": "Elo", "openskill": "openskill mu"}[result.rating_kind]
        lines += ["", f"| agent | {kind} | 95% interval |", "|---|---:|---|"]
        for label, r in sorted(result.ratings.items(), key=lambda kv: -kv[1]["rating"]):
            lines.append(f"| {label} | {r['rating']:.1f} | [{r['low']:.1f}, {r['high']:.1f}] |")
        if any(r.get("sweep") for r in result.ratings.values()):
            lines.append("\n(an agent won or lost every game: its Elo is set by the weak prior and the gap shown "
                         "is only a lower bound)")
    return "\n".join(lines)


_TEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def tex_escape(text: str) -> str:
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in str(text))


def _tex_table(caption: str, header: list[str], align: str, rows: list[list[str]]) -> list[str]:
    return [r"\begin{table}[ht]", r"\centering", f"\\caption{{{caption}}}", f"\\begin{{tabular}}{{{align}}}",
            r"\toprule", " & ".join(header) + r" \\", r"\midrule", *[" & ".join(r) + r" \\" for r in rows],
            r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]


def latex(result: MatchResult) -> str:
    """The result's tables as LaTeX (booktabs: ``\\usepackage{booktabs}``)."""
    e = tex_escape
    where = f"{e(result.env_id)} {e(json.dumps(result.env_options)) if result.env_options else ''}".strip()
    games = f"{len(result.records)} games, seed {result.seed}"
    out = [f"% yokai evaluate: {where}, {games}", "% needs \\usepackage{booktabs}", ""]
    aliases = _aliases(result)
    if aliases:
        out += _tex_table(f"Agents ({where}).", ["agent", "spec"], "ll",
                          [[e(a), r"\texttt{" + e(s) + "}"] for a, s in aliases])
    rows = []
    for r in result.rows:
        vs = "itself (self-play)" if r.get("self_play") else (r["opponents"] or "--")
        mark = "" if r.get("ci_basis", "deals") == "deals" else r"$^\dagger$"
        rows.append([str(r["table"]), e(r["agent"]), e(vs), str(r["games"]), str(r.get("deals", "")),
                     f"{r['win_rate']:.3f}", f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]{mark}",
                     f"{r['mean_reward']:+.3f}"])
    note = (r" $^\dagger$: one deal, or per-deal scores that do not vary; Wilson interval over games."
            if any(r.get("ci_basis") == "games" for r in result.rows) else "")
    self_play = _self_play_tables(result)
    if self_play:
        what = "the team's clear rate" if result.cooperative else "win rate 1/2 by construction"
        note += f" Self-play table(s) {', '.join(map(str, self_play))}: {what}."
    out += _tex_table(f"Win rates with 95\\% intervals over deals ({where}, {games}).{note}",
                      ["table", "agent", "vs", "games", "deals", "win rate", "95\\% CI", "mean reward"],
                      "rllrrrlr", rows)
    if result.paired:
        out += _tex_table(f"Paired differences of win rates on the same deals, 95\\% intervals ({where}).",
                          ["agent", "$-$ agent", "where", "deals", "difference", "95\\% CI"], "lllrrl",
                          [[e(p["a"]), e(p["b"]), e(p["where"]), str(p["deals"]), f"${p['difference']:+.3f}$",
                            f"$[{p['low']:+.3f}, {p['high']:+.3f}]$"] for p in result.paired])
    if result.head_to_head:
        labels = _matrix_labels(result)
        cells = {(c["a"], c["b"]): c for c in result.head_to_head}
        body = [[e(a), *[(f"{cells[(a, b)]['score']:.3f} [{cells[(a, b)]['low']:.2f}, {cells[(a, b)]['high']:.2f}]"
                          if (a, b) in cells else "--") for b in labels]] for a in labels]
        what = "win rate" if result.num_players == 2 else "share of finishes ahead (ties 1/2)"
        out += _tex_table(f"Head to head: the row agent's {what} against the column agent, 95\\% intervals "
                          f"over deals ({where}).", ["", *[e(x) for x in labels]], "l" + "c" * len(labels), body)
    if result.ratings:
        kind = {"elo": "Elo", "openskill": "openskill $\\mu$"}[result.rating_kind]
        out += _tex_table(f"Ratings ({where}).", ["agent", kind, "95\\% interval"], "lrl",
                          [[e(label), f"{r['rating']:.1f}", f"[{r['low']:.1f}, {r['high']:.1f}]"]
                           for label, r in sorted(result.ratings.items(), key=lambda kv: -kv[1]["rating"])])
    return "\n".join(out)
