"""Onmyoji AEC throughput next to PettingZoo's leduc_holdem_v4, measured in the same run.

Usage: python benchmarks/onmyoji_speed.py [--seconds 10]
Random legal play through the AEC API (``env.last()`` then ``env.step``); an agent-step is one
``step`` call. Also reports raw-engine decisions/s (``Game.step`` with the mask, no env).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def aec_steps_per_second(env, seconds: float, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    steps = 0
    episode = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
            env.step(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def raw_steps_per_second(mode: str, seconds: float) -> float:
    from yokai_envs.onmyoji.game import OnmyojiGame
    game = OnmyojiGame(mode=mode)
    rng = np.random.default_rng(0)
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.reset(seed)
        seed += 1
        while not game.is_over:
            legal = np.flatnonzero(game.legal_action_mask())
            game.step(int(legal[rng.integers(legal.size)]))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    from pettingzoo.classic import leduc_holdem_v4

    from yokai_envs.onmyoji.env import env as onmyoji_env
    rows = [("pettingzoo leduc_holdem_v4", aec_steps_per_second(leduc_holdem_v4.env(), args.seconds))]
    for mode in ("solo", "duel", "coop"):
        rows.append((f"onmyoji_v0 {mode}", aec_steps_per_second(onmyoji_env(mode=mode), args.seconds)))
    leduc = rows[0][1]
    print("| env (AEC, random play) | agent-steps/s | x leduc |")
    print("|---|---:|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} | {rate / leduc:.2f} |")
    print()
    print("| onmyoji raw engine | decisions/s |")
    print("|---|---:|")
    for mode in ("solo", "duel", "coop"):
        print(f"| {mode} | {raw_steps_per_second(mode, args.seconds / 2):,.0f} |")


if __name__ == "__main__":
    main()
