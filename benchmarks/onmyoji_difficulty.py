"""Onmyoji difficulty curve: a fixed heuristic player's Solo (and optionally Co-op) win rate per level.

Usage: python benchmarks/onmyoji_difficulty.py [--games 2000] [--mode solo] [--levels 1-10] [--random]
Prints a markdown table: level, games, wins, win rate and its 95% Wilson interval.
Seeds are fixed (game i uses seed i), so a run is reproducible.
"""

from __future__ import annotations

import argparse
import math
import time

from agents.base import RandomAgent, act_in_game
from agents.heuristics.onmyoji import HeuristicAgent
from yokai_envs.onmyoji.game import OnmyojiGame


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def win_rate(mode: str, level: int, games: int, use_random: bool = False, variant: str = "book") -> int:
    game = OnmyojiGame(mode=mode, difficulty=level, variant=variant)
    agent = RandomAgent(seed=level) if use_random else HeuristicAgent(seed=level)
    wins = 0
    for i in range(games):
        game.reset(i)
        while not game.is_over:
            game.step(act_in_game(agent, game))
        wins += game.returns()[0] > 0
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--mode", choices=("solo", "coop"), default="solo")
    parser.add_argument("--levels", default="1-10", help="e.g. 1-10 or 1,5,10")
    parser.add_argument("--random", action="store_true", help="measure the random player instead")
    parser.add_argument("--variant", choices=("book", *OnmyojiGame.VARIANTS), default="book",
                        help="the rules: the book's game (default) or a named variant")
    args = parser.parse_args()
    if "-" in args.levels:
        lo, hi = map(int, args.levels.split("-"))
        levels = list(range(lo, hi + 1))
    else:
        levels = [int(x) for x in args.levels.split(",")]
    who = "random" if args.random else "heuristic"
    print(f"Onmyoji {args.mode} ({args.variant}): {who} player's win rate per difficulty level "
          f"({args.games} games each)\n")
    print("| level | games | wins | win rate | 95% CI |")
    print("|---:|---:|---:|---:|---|")
    start = time.time()
    for level in levels:
        wins = win_rate(args.mode, level, args.games, args.random, args.variant)
        lo, hi = wilson(wins, args.games)
        print(f"| {level} | {args.games} | {wins} | {wins / args.games:.3f} | {lo:.3f}-{hi:.3f} |", flush=True)
    print(f"\n({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
