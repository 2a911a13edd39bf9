"""Arena outputs: results.json, results.csv, games.jsonl, ratings.png and a markdown table."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .match import MatchResult

CSV_FIELDS = ["table", "agent", "opponents", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high",
              "mean_reward", "truncated"]


def package_version() -> str:
    import yokai_envs

    return getattr(yokai_envs, "__version__", "unknown")


def write_outputs(result: MatchResult, out_dir: str | Path) -> dict[str, Path]:
    """Write every output file into ``out_dir``; returns name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "csv": out / "results.csv", "games": out / "games.jsonl",
             "png": out / "ratings.png"}
    paths["json"].write_text(json.dumps(result.summary(), indent=2) + "\n")
    with paths["csv"].open("w", newline="") as handle:
        seat_fields = [f"mean_reward_seat{s}" for s in range(result.num_players)]
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS + seat_fields)
        writer.writeheader()
        for row in result.rows:
            flat = {k: row[k] for k in CSV_FIELDS}
            flat.update({f: ("" if v is None else v) for f, v in zip(seat_fields, row["mean_reward_by_seat"])})
            writer.writerow(flat)
    with paths["games"].open("w") as handle:  # one game per line: seeds + actions rebuild it
        for record in result.records:
            handle.write(json.dumps(record) + "\n")
    plot_ratings(result, paths["png"])
    return paths


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
        xlabel = "win / clear rate (95% Wilson interval)"
    order = sorted(range(len(labels)), key=lambda i: values[i])
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(labels)))
    ys = range(len(order))
    ax.errorbar([values[i] for i in order], list(ys),
                xerr=[[values[i] - lows[i] for i in order], [highs[i] - values[i] for i in order]],
                fmt="o", capsize=4)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([labels[i] for i in order])
    ax.set_xlabel(xlabel)
    ax.set_title(f"{result.env_id} {result.env_options or ''} — {len(result.records)} games, seed {result.seed}")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(result: MatchResult) -> str:
    summary = result.summary()
    lines = [f"**{result.env_id}** {json.dumps(result.env_options) if result.env_options else ''} — "
             f"{summary['total_games']} games, seed {result.seed}, "
             f"{summary['truncated_games']} truncated, {summary['mean_steps']:.0f} steps/game on average", "",
             "| table | agent | vs | games | wins | draws | losses | win rate | 95% CI | mean reward |",
             "|---|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for r in result.rows:
        lines.append(f"| {r['table']} | {r['agent']} | {r['opponents'] or '—'} | {r['games']} | {r['wins']} | "
                     f"{r['draws']} | {r['losses']} | {r['win_rate']:.3f} | "
                     f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['mean_reward']:+.3f} |")
    if result.ratings:
        kind = {"elo": "Elo", "openskill": "openskill mu"}[result.rating_kind]
        lines += ["", f"| agent | {kind} | 95% interval |", "|---|---:|---|"]
        for label, r in sorted(result.ratings.items(), key=lambda kv: -kv[1]["rating"]):
            lines.append(f"| {label} | {r['rating']:.1f} | [{r['low']:.1f}, {r['high']:.1f}] |")
        if any(r.get("sweep") for r in result.ratings.values()):
            lines.append("\n(an agent won or lost every game: its Elo is set by the weak prior and the gap shown "
                         "is only a lower bound)")
    return "\n".join(lines)
