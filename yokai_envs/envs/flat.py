"""Box-only observations: the observation vector with the action mask appended (for SuperSuit).

SuperSuit's observation wrappers (``dtype_v0``, ``normalize_obs_v0``, ``frame_stack_v1``, ...)
and its vector-env path take Box observation spaces only, while our envs observe a Dict. Here
every observation becomes one float32 vector::

    [ observation (observation_size) | history, flattened (only with history=K) | action_mask (num_actions) ]

so ``obs[-num_actions:]`` is the mask (1.0 legal, 0.0 not) and ``observation_layout`` names every
slice, ``"action_mask"`` included.

* ``flat_env(env_id, **options)``: the AEC env (PettingZoo's usual wrappers outside).
* ``flat_parallel_env(env_id, **options)``: the Parallel env (:mod:`yokai_envs.envs.parallel`).
* :class:`FlatAECEnv` / :class:`FlatParallelEnv` wrap an env you already have.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import BaseParallelWrapper, BaseWrapper, wrappers

from yokai_envs.core.layout import build_layout

#: The Dict keys that make the vector, in order: the mask last, so ``obs[-num_actions:]`` is it.
_PARTS = ("observation", "history", "action_mask")


def _flat_space(space: spaces.Dict) -> tuple[spaces.Box, dict[str, slice]]:
    boxes: dict[str, spaces.Box] = {}
    for key in _PARTS:
        if key in space.spaces:
            box = space.spaces[key]
            assert isinstance(box, spaces.Box)
            boxes[key] = box
    lows = [np.asarray(box.low, dtype=np.float32).ravel() for box in boxes.values()]
    highs = [np.asarray(box.high, dtype=np.float32).ravel() for box in boxes.values()]
    layout = build_layout((key, low.size) for key, low in zip(boxes, lows))
    return spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32), layout


def flatten(observed: dict[str, np.ndarray]) -> np.ndarray:
    """One float32 vector from a Dict observation (observation, history, mask, in that order)."""
    parts = [np.asarray(observed[k], dtype=np.float32).ravel() for k in _PARTS if k in observed]
    return np.concatenate(parts)


class _Flat:
    """What both flat wrappers share: the Box space, its layout and ``num_actions``, from the
    wrapped env's first agent (every agent has the same spaces)."""

    def _flatten_spaces(self, env: AECEnv | ParallelEnv) -> None:
        first = env.possible_agents[0]
        self._box, blocks = _flat_space(env.observation_space(first))
        inner = dict(getattr(env.unwrapped, "observation_layout", {}))
        self.observation_layout = {**inner, **{k: v for k, v in blocks.items() if k != "observation"}}
        self.num_actions = int(env.action_space(first).n)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._box


class FlatAECEnv(_Flat, BaseWrapper):
    """An AEC env with Box observations (see the module docstring)."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._flatten_spaces(env)

    def observe(self, agent: str) -> np.ndarray:
        return flatten(super().observe(agent))

    def __str__(self) -> str:
        return str(self.env)


class FlatParallelEnv(_Flat, BaseParallelWrapper):
    """A Parallel env with Box observations (see the module docstring)."""

    def __init__(self, env: ParallelEnv) -> None:
        super().__init__(env)
        self._flatten_spaces(env)

    def reset(self, seed: int | None = None, options: dict | None = None):
        observations, infos = self.env.reset(seed=seed, options=options)
        return {a: flatten(o) for a, o in observations.items()}, infos

    def step(self, actions: dict[str, Any]):
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return {a: flatten(o) for a, o in observations.items()}, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.env.state()


def flat_env(env_id: str, **options: Any) -> AECEnv:
    """The AEC env of ``env_id`` with Box observations, in PettingZoo's usual wrappers."""
    from yokai_envs.registry import make_raw

    flat: AECEnv = FlatAECEnv(make_raw(env_id, **options))
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(flat))


def flat_parallel_env(env_id: str, **options: Any) -> ParallelEnv:
    """The Parallel env of ``env_id`` with Box observations."""
    from yokai_envs.envs.parallel import parallel_env

    return FlatParallelEnv(parallel_env(env_id, **options))
