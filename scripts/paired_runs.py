"""The paired difference of two gauntlet runs on the same deals.

    python scripts/paired_runs.py runs/eval/search_on_network runs/eval/search_alone
    python scripts/paired_runs.py A_SEED12 B_SEED12 A_SEED14 B_SEED14   # pairs pooled: one interval
    python scripts/paired_runs.py "RUN::AGENT" "RUN::OTHER"            # two agents of one run, each alone

Two ``yokai evaluate --gauntlet`` runs made with the same ``--seed`` and ``--games`` (and the
same opponents) play the same deals; so do two runs of one agent alone (Solo, or one agent in
every Co-op seat: its clear rate against another's on the same deals). Per deal, each gauntlet
agent's score is its mean credit over its seats; the difference of the two agents comes with the arena's MOVER interval
(agents/arena/stats.py), as the arena gives for two agents of one run.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from agents.arena.stats import deal_interval, paired_interval


def per_deal(where: str) -> dict[tuple[int, int], list[float]]:
    """(table, deal) -> the gauntlet agent's credits on that deal (or ``FOLDER::AGENT``'s)."""
    folder_name, _, named = where.partition("::")
    folder = Path(folder_name)
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    agent = named or results["gauntlet"]
    if agent is None and len(results["agents"]) == 1:
        agent = results["agents"][0]  # one agent in every seat: the team is that agent
    if agent is None:
        raise SystemExit(f"{folder}: not a gauntlet run nor one agent alone")
    scores: dict[tuple[int, int], list[float]] = defaultdict(list)
    with open(folder / "games.jsonl", encoding="utf-8") as lines:
        for line in lines:
            game = json.loads(line)
            # An agent alone at its table (Solo, a Co-op team) meets the same deal at its own
            # table of each run, so the deal's seed is the key; versus tables pair by position.
            alone = all(name == agent for name in game["seats"])
            key = (-1, game["deal_seed"]) if alone else (game["table"], game["deal"])
            for seat, name in enumerate(game["seats"]):
                if name == agent:
                    scores[key].append(game["credits"][seat])
    return scores


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    a: dict[tuple[int, int, int], list[float]] = {}
    b: dict[tuple[int, int, int], list[float]] = {}
    for pair in range(len(argv) // 2):  # each pair its own deals; pooled, one interval over all of them
        a.update({(pair, *deal): credits for deal, credits in per_deal(argv[2 * pair]).items()})
        b.update({(pair, *deal): credits for deal, credits in per_deal(argv[2 * pair + 1]).items()})
    deals = sorted(set(a) & set(b))
    if not deals:
        print("the two runs share no deal (same --seed and --games?)", file=sys.stderr)
        return 2
    xa = [float(np.mean(a[d])) for d in deals]
    xb = [float(np.mean(b[d])) for d in deals]
    ia = deal_interval(xa, sum(len(a[d]) for d in deals))
    ib = deal_interval(xb, sum(len(b[d]) for d in deals))
    r = float(np.corrcoef(xa, xb)[0, 1]) if np.std(xa) > 0 and np.std(xb) > 0 else None
    low, high = paired_interval(ia, ib, r)
    print(f"{len(deals)} deals: {ia['mean']:.3f} vs {ib['mean']:.3f}, "
          f"difference {ia['mean'] - ib['mean']:+.3f} [{low:+.3f}, {high:+.3f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
