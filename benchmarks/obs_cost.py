"""What an observation costs next to a step: random legal play through the AEC env, timing
``env.observe`` and ``env.step`` apart (microseconds per decision). Run it on two checkouts to see
what a fuller observation adds to a step (the bar the project keeps: at most 15% of a step).

    PYTHONPATH=$PWD python benchmarks/obs_cost.py yokaizo_v4 --seconds 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import yokai_envs


def measure(env_id: str, seconds: float, seed: int = 0) -> tuple[int, float, float]:
    """(decisions, µs per step, µs per observe) over ``seconds`` of seeded random play."""
    env = yokai_envs.make(env_id)
    rng = np.random.default_rng(seed)
    step_time = observe_time = 0.0
    decisions = 0
    deadline = time.perf_counter() + seconds
    episode = seed
    while time.perf_counter() < deadline:
        env.reset(seed=episode)
        episode += 1
        for agent in env.agent_iter():
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            start = time.perf_counter()
            mask = env.observe(agent)["action_mask"]
            observed = time.perf_counter()
            action = int(rng.choice(np.flatnonzero(mask)))
            chosen = time.perf_counter()
            env.step(action)
            stepped = time.perf_counter()
            observe_time += observed - start
            step_time += stepped - chosen
            decisions += 1
    return decisions, 1e6 * step_time / decisions, 1e6 * observe_time / decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    decisions, step_us, observe_us = measure(args.env_id, args.seconds, args.seed)
    print(f"{args.env_id}: {decisions} decisions, step {step_us:.1f} us, observe {observe_us:.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
