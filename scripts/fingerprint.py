"""A fingerprint of seeded random games, to show a refactor changes no behaviour.

For every configuration (each env id; Onmyoji in Solo, Duel and Co-op) it plays ``--games``
seeded games through the raw AEC env with ``history=4`` (so the event record is hashed too),
choosing uniformly among the legal actions with a seeded generator, and hashes every
observation, mask, history, reward, termination and the final returns. Run it before and
after a change: equal digests mean the same observations, masks and rewards.

    PYTHONPATH=$PWD python scripts/fingerprint.py --games 300
"""

from __future__ import annotations

import argparse
import hashlib
import time
from typing import Any

import numpy as np

from yokai_envs import registry

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("yonkai_no_yokai_v1", {}), ("yokaizo_v1", {}), ("yyh_tcg_v1", {}),
    ("onmyoji_v1", {"mode": "solo"}), ("onmyoji_v1", {"mode": "duel"}), ("onmyoji_v1", {"mode": "coop"}),
]


def fingerprint(env_id: str, options: dict[str, Any], games: int) -> tuple[str, int]:
    """(hex digest, decisions played) of ``games`` seeded random games."""
    digest = hashlib.sha256()
    steps = 0
    for game in range(games):
        env = registry.make_raw(env_id, history=4, **options)
        env.reset(seed=game)
        rng = np.random.default_rng(10_000 + game)
        for agent in env.agent_iter(max_iter=5000):
            observed, reward, terminated, truncated, _ = env.last()
            for key in sorted(observed):
                digest.update(key.encode())
                digest.update(np.ascontiguousarray(observed[key]).tobytes())
            digest.update(agent.encode())
            digest.update(np.float64(reward).tobytes())
            digest.update(bytes([terminated, truncated]))
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observed["action_mask"])))
            env.step(action)
            steps += 1
        digest.update(repr(sorted(env._cumulative_rewards.items())).encode())
    return digest.hexdigest()[:16], steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="seeded games per configuration")
    parser.add_argument("--only", default="", help="only the configurations whose name contains this")
    args = parser.parse_args(argv)
    for env_id, options in CONFIGS:
        name = env_id + (f"/{options['mode']}" if options else "")
        if args.only not in name:
            continue
        started = time.perf_counter()
        digest, steps = fingerprint(env_id, options, args.games)
        print(f"{name:22s} games={args.games} steps={steps} {digest} ({time.perf_counter() - started:.0f} s)",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
