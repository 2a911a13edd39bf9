"""Shared fixtures: the list of (env id, options) every conformance test runs over."""

from __future__ import annotations

import pytest

from yokai_envs.registry import ENV_IDS, game_class


def conformance_params() -> list:
    params = []
    for env_id in ENV_IDS:
        for options in game_class(env_id).CONFORMANCE_CONFIGS:
            label = env_id + "".join(f"-{k}={v}" for k, v in options.items())
            params.append(pytest.param(env_id, dict(options), id=label))
    return params
