"""Fingerprint of what the envs hand out, to prove a speed change leaves it bit-for-bit identical.

For every registered env and every configuration the conformance suite runs (each also with
``history=4``), plays seeded random games through the AEC env and hashes, at every step, every
agent's observation dict (observation, action mask, history), ``state()``, the rewards,
cumulative rewards, terminations and truncations; every 5th step it also hashes a
``determinize`` of the raw game (seeded) and a ``clone`` stepped one action ahead. Prints one
sha256 per configuration; ``--json`` writes them, ``--compare`` checks them against a file.

    python benchmarks/obs_fingerprint.py --games 200 --json base.json
    python benchmarks/obs_fingerprint.py --games 200 --compare base.json
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator

import numpy as np

from yokai_envs.registry import ENV_IDS, game_class, make


def _feed(digest: hashlib._Hash, array: np.ndarray) -> None:
    digest.update(str(array.dtype).encode())
    digest.update(str(array.shape).encode())
    digest.update(np.ascontiguousarray(array).tobytes())


def _feed_game(digest: hashlib._Hash, game: object) -> None:
    """The raw game's own view of itself: every seat's observation, state, mask, returns."""
    for seat in range(game.num_players):  # type: ignore[attr-defined]
        _feed(digest, game.observation(seat))  # type: ignore[attr-defined]
    _feed(digest, game.state_tensor())  # type: ignore[attr-defined]
    _feed(digest, game.legal_action_mask())  # type: ignore[attr-defined]
    _feed(digest, np.asarray(game.returns()))  # type: ignore[attr-defined]
    digest.update(repr((game.current_player, game.is_terminal, game.is_truncated)).encode())  # type: ignore[attr-defined]


def fingerprint(env_id: str, options: dict, games: int) -> str:
    digest = hashlib.sha256()
    env = make(env_id, **options)
    rng = np.random.default_rng(12345)
    search_rng = np.random.default_rng(678)
    for episode in range(games):
        env.reset(seed=episode)
        step = 0
        for agent in env.agent_iter():
            for other in env.agents:
                for key, value in sorted(env.observe(other).items()):
                    digest.update(key.encode())
                    _feed(digest, value)
            _feed(digest, env.state())
            digest.update(repr((agent, sorted(env.rewards.items()), sorted(env._cumulative_rewards.items()),
                                sorted(env.terminations.items()), sorted(env.truncations.items()))).encode())
            game = env.unwrapped.game
            if step % 5 == 0 and not game.is_over:
                world = game.determinize(game.current_player, search_rng)
                _feed_game(digest, world)
                twin = game.clone()
                legal = np.flatnonzero(twin.legal_action_mask())
                twin.step(int(legal[search_rng.integers(legal.size)]))
                _feed_game(digest, twin)
            step += 1
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(legal.size)]))
    return digest.hexdigest()


def configurations(only: list[str] | None) -> list[tuple[str, str, dict]]:
    out = []
    for env_id in ENV_IDS:
        if only and env_id not in only:
            continue
        for options in game_class(env_id).CONFORMANCE_CONFIGS:
            for extra in ({}, {"history": 4}):
                merged = {**options, **extra}
                label = env_id + "".join(f" {k}={v}" for k, v in merged.items())
                out.append((label, env_id, merged))
    return out


def _fingerprints(only: list[str] | None, games: int) -> Iterator[tuple[str, str]]:
    for label, env_id, options in configurations(only):
        yield label, fingerprint(env_id, options, games)


def main() -> int:
    # imported here: a test loads this file by its path, with no benchmarks/ on sys.path, for fingerprint()
    from fingerprint_driver import fingerprint_main

    return fingerprint_main(__doc__, 200, "seeded games per configuration (default 200)", _fingerprints)


if __name__ == "__main__":
    sys.exit(main())
