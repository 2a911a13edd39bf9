"""The learning-curve PNG: mean episode reward, and win rate (with 95% CI) vs each evaluation bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_learning_curve(state: dict[str, Any], path: str | Path, title: str = "") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_reward, ax_win) = plt.subplots(1, 2, figsize=(11, 4))
    rewards = state.get("rewards", [])
    if rewards:
        steps, values = zip(*rewards)
        ax_reward.plot(steps, values, color="tab:blue")
    for label, points in sorted(state.get("opponent_curves", {}).items()):
        if len(state.get("opponent_curves", {})) > 1 and points:
            ax_reward.plot([p[0] for p in points], [p[1] for p in points], linestyle="--", linewidth=1,
                           label=f"vs {label} (this rollout)")
    if len(state.get("opponent_curves", {})) > 1:
        ax_reward.legend(fontsize=8)
    ax_reward.set_title("training: mean episode reward (last 100 episodes)")
    ax_reward.set_xlabel("steps")
    ax_reward.set_ylabel("reward")
    ax_reward.grid(alpha=0.3)

    series: dict[str, list[tuple[int, float, float, float]]] = {}
    kinds: dict[str, str] = {}
    for evaluation in state.get("evaluations", []):
        for label, row in evaluation["results"].items():
            series.setdefault(label, []).append((evaluation["step"], row["win_rate"], row["ci_low"], row["ci_high"]))
            kinds[label] = row.get("kind", "versus")
    for label, points in series.items():
        points.sort()
        steps, rates, lows, highs = zip(*points)
        name = {"self": "policy alone", "reference": f"{label} alone (reference)"}.get(kinds[label], f"vs {label}")
        line = ax_win.plot(steps, rates, marker="o", label=name)[0]
        ax_win.fill_between(steps, lows, highs, color=line.get_color(), alpha=0.15)
    search = state.get("search_evaluation") or {}
    for label, row in search.get("results", {}).items():
        name = "network + search alone" if row.get("kind") == "self" else f"network + search vs {label}"
        if row.get("kind") == "reference":
            continue
        rate = row["win_rate"]
        ax_win.errorbar([search["step"]], [rate], yerr=[[rate - row["ci_low"]], [row["ci_high"] - rate]],
                        marker="*", markersize=12, capsize=4, linestyle="none", label=name)
    ax_win.set_ylim(0, 1)
    ax_win.set_title("evaluation: win (clear) rate, 95% CI")
    ax_win.set_xlabel("steps")
    ax_win.set_ylabel("win rate")
    ax_win.grid(alpha=0.3)
    if series or search:
        ax_win.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
