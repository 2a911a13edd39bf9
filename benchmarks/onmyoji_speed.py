"""Onmyoji AEC throughput next to PettingZoo's leduc_holdem_v4, measured in the same run.

Usage: python benchmarks/onmyoji_speed.py [--seconds 10]
Random legal play through the AEC API (``env.last()`` then ``env.step``); an agent-step is one
``step`` call. The envs run in interleaved slices (10 rounds) so machine load hits them alike.
Also reports raw-engine decisions/s (``Game.step`` with the mask, no env).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


class AECRunner:
    """Random legal play through an AEC env, resumable so that envs can be timed in turns."""

    def __init__(self, env, seed: int = 0) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)
        self.episode = seed
        self.steps = 0
        self.elapsed = 0.0
        self._iter = None

    def run(self, seconds: float) -> None:
        env, rng = self.env, self.rng
        start = time.perf_counter()
        steps = 0
        while time.perf_counter() - start < seconds:
            if self._iter is None:
                env.reset(seed=self.episode)
                self.episode += 1
                self._iter = iter(env.agent_iter())
            for _ in range(200):
                if next(self._iter, None) is None:
                    self._iter = None
                    break
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(legal.size)])
                env.step(action)
                steps += 1
        self.elapsed += time.perf_counter() - start
        self.steps += steps

    @property
    def rate(self) -> float:
        return self.steps / self.elapsed if self.elapsed else 0.0


def raw_steps_per_second(mode: str, seconds: float) -> float:
    from yokai_envs.cli.bench import _game_loop
    from yokai_envs.onmyoji.game import OnmyojiGame

    return _game_loop(OnmyojiGame(mode=mode), seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    from pettingzoo.classic import leduc_holdem_v4

    from yokai_envs.onmyoji.env import env as onmyoji_env
    runners = {"pettingzoo leduc_holdem_v4": AECRunner(leduc_holdem_v4.env())}
    for mode in ("solo", "duel", "coop"):
        runners[f"onmyoji_v5 {mode}"] = AECRunner(onmyoji_env(mode=mode))
    # Interleave short slices so that a changing machine load hits every env alike.
    rounds = 10
    for _ in range(rounds):
        for runner in runners.values():
            runner.run(args.seconds / rounds)
    leduc = runners["pettingzoo leduc_holdem_v4"].rate
    print("| env (AEC, random play) | agent-steps/s | x leduc |")
    print("|---|---:|---:|")
    for name, runner in runners.items():
        print(f"| {name} | {runner.rate:,.0f} | {runner.rate / leduc:.2f} |")
    print()
    print("| onmyoji raw engine | decisions/s |")
    print("|---|---:|")
    for mode in ("solo", "duel", "coop"):
        print(f"| {mode} | {raw_steps_per_second(mode, args.seconds / 2):,.0f} |")


if __name__ == "__main__":
    main()
