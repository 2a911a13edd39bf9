"""The interleaved A/B driver that ``aec_ab.py`` and ``search_ab.py`` share: two source trees,
``rounds`` rounds, each round one run per tree in an order that alternates between rounds (so a
machine's drift hits both trees alike), and the speed ratio B/A as the median of the per-round
ratios."""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable


def tree_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every A/B script takes: the env id, the two trees, the rounds."""
    parser.add_argument("env_id")
    parser.add_argument("tree_a", help="the base source tree (a checkout or worktree)")
    parser.add_argument("tree_b", help="the changed source tree")
    parser.add_argument("--rounds", type=int, default=4)


def interleaved(tree_a: str, tree_b: str, rounds: int, one_run: Callable[[str], float],
                higher_is_faster: bool = True) -> str:
    """Run ``one_run(tree)`` for both trees ``rounds`` times, alternating which goes first; return
    one line: both medians, the median speed ratio B/A (above 1: B is faster) and the per-round ratios."""
    a: list[float] = []
    b: list[float] = []
    for round_index in range(rounds):
        pair = ((tree_a, a), (tree_b, b))
        for tree, runs in pair if round_index % 2 == 0 else pair[::-1]:
            runs.append(one_run(tree))
    ratios = [(y / x if higher_is_faster else x / y) for x, y in zip(a, b, strict=True)]
    return (f"A {statistics.median(a):,.2f}  B {statistics.median(b):,.2f}  speed B/A {statistics.median(ratios):.3f}"
            f"  per round {[round(r, 3) for r in ratios]}")
