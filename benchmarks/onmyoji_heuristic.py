"""Onmyoji heuristic vs random: Duel head-to-head (seats alternate) and Solo/Co-op clear rates.

Usage: python benchmarks/onmyoji_heuristic.py [--games 1000] [--difficulty 1]
Prints a markdown table. Game i uses seed i.
"""

from __future__ import annotations

import argparse
import time

from agents.base import RandomAgent, act_in_game
from agents.heuristics.onmyoji import HeuristicAgent
from yokai_envs.onmyoji.game import OnmyojiGame


def play(game: OnmyojiGame, seed: int, bots: list) -> list[float]:
    game.reset(seed)
    while not game.is_over:
        game.step(act_in_game(bots[game.current_player], game))
    return list(game.returns())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--difficulty", type=int, default=1)
    args = parser.parse_args()
    n = args.games
    heuristic, rand = HeuristicAgent(seed=1), RandomAgent(seed=2)
    print("| matchup | games | heuristic wins | win rate | both lose | truncated | s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    start = time.time()
    duel = OnmyojiGame(mode="duel")
    wins = both = trunc = 0
    for i in range(n):
        h = i % 2
        bots = [heuristic, rand] if h == 0 else [rand, heuristic]
        r = play(duel, i, bots)
        wins += r[h] > 0
        both += all(x < 0 for x in r)
        trunc += duel.is_truncated
    print(f"| Duel heuristic vs random | {n} | {wins} | {wins / n:.3f} | {both / n:.3f} | {trunc} | "
          f"{time.time() - start:.0f} |", flush=True)
    for mode in ("solo", "coop"):
        for name, bot in (("heuristic", heuristic), ("random", rand)):
            start = time.time()
            game = OnmyojiGame(mode=mode, difficulty=args.difficulty)
            wins = trunc = 0
            for i in range(n):
                r = play(game, i, [bot] * game.num_players)
                wins += r[0] > 0
                trunc += game.is_truncated
            print(f"| {mode.capitalize()} Lv{args.difficulty} clear rate, {name} | {n} | {wins} | {wins / n:.3f} | "
                  f"- | {trunc} | {time.time() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
