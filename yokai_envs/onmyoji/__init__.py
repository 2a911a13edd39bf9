"""Onmyoji: three nights (``onmyoji_v0``): Solo, Duel and Co-op; AEC and Parallel PettingZoo envs.

Importing this package imports no gymnasium/pettingzoo; ``env``/``parallel_env`` import them on call.
"""

from __future__ import annotations

from typing import Any


def env(**options: Any):
    from yokai_envs.onmyoji.env import env as _env
    return _env(**options)


def raw_env(**options: Any):
    from yokai_envs.onmyoji.env import raw_env as _raw_env
    return _raw_env(**options)


def parallel_env(**options: Any):
    """PettingZoo Parallel API over the same Game (every live seat acts each step)."""
    from yokai_envs.onmyoji.env import parallel_env as _parallel_env
    return _parallel_env(**options)
