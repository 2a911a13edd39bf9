"""The configurations every interop test runs: one per player count and mode of each env id.

Taken from each game's ``CONFORMANCE_CONFIGS`` (never hard-coded ids): the first config of each
distinct (number of seats, cooperative) pair, which is 7 today: Yonkai no Yokai with 3 and 4
players, YOKAIZO, YYH, Onmyoji Solo, Duel and Co-op.
"""

from __future__ import annotations

import pytest

from yokai_envs.registry import ENV_IDS, make_game


def interop_configs() -> list[tuple[str, dict]]:
    configs = []
    for env_id in ENV_IDS:
        seen = set()
        game_class = type(make_game(env_id))
        for options in game_class.CONFORMANCE_CONFIGS:
            game = make_game(env_id, **options)
            key = (game.num_players, game.cooperative)
            if key not in seen:
                seen.add(key)
                configs.append((env_id, dict(options)))
    return configs


CONFIGS = interop_configs()


def label(env_id: str, options: dict) -> str:
    return env_id + "".join(f"-{k}={v}" for k, v in options.items())


PARAMS = [pytest.param(env_id, options, id=label(env_id, options)) for env_id, options in CONFIGS]


def num_players(env_id: str, options: dict) -> int:
    return make_game(env_id, **options).num_players
