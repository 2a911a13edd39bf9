"""SuperSuit's vector-env path for Stable-Baselines3, with masks MaskablePPO can read.

    from sb3_contrib import MaskablePPO
    from yokai_envs.envs.vector import sb3_vec_env

    venv = sb3_vec_env("yonkai_no_yokai_v1", num_envs=4, num_players=4)
    MaskablePPO("MlpPolicy", venv).learn(10_000)

The chain: the Parallel env (:mod:`yokai_envs.envs.parallel`) -> Box-only observations with the
mask appended (:mod:`yokai_envs.envs.flat`) -> SuperSuit's ``pettingzoo_env_to_vec_env_v1`` (one
vector slot per agent: parameter sharing, every seat learns) -> ``concat_vec_envs_v1`` (copies,
``num_cpus`` worker processes) -> :class:`ActionMaskVecEnv`, which answers sb3-contrib's
``env_method("action_masks")`` from the tail of each observation. An agent whose turn it is not
has only action 0 (ignored) in its mask: its step is forced, so it adds nothing to the policy
gradient. Needs ``supersuit`` and ``stable-baselines3`` (the ``interop`` and ``train`` extras).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from yokai_envs.envs.flat import flat_parallel_env


class ActionMaskVecEnv(VecEnvWrapper):
    """A VecEnv whose observations end with the action mask; ``action_masks()`` reads it."""

    def __init__(self, venv: VecEnv, num_actions: int) -> None:
        super().__init__(venv)
        self.num_actions = num_actions
        self._last_obs: Any = None
        self._pending_seed: int | None = None

    def seed(self, seed: int | None = None) -> list:
        """Seed the next reset (SB3's contract); SuperSuit's wrapper cannot pass a seed down."""
        self._pending_seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def reset(self) -> Any:
        seed, self._pending_seed = self._pending_seed, None
        if seed is None:
            self._last_obs = self.venv.reset()
        else:  # SuperSuit's SB3 wrapper would call seed() on a ConcatVecEnv, which has none
            inner = self.venv
            self._last_obs, inner.reset_infos = inner.venv.reset(seed=seed)  # type: ignore[attr-defined]
        return self._last_obs

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        self._last_obs = observations
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """(num_envs, num_actions) bool: the legal actions of each slot's current observation."""
        if self._last_obs is None:
            return np.ones((self.num_envs, self.num_actions), dtype=bool)
        return np.asarray(self._last_obs)[:, -self.num_actions:] > 0.5

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)

    def has_attr(self, attr_name: str) -> bool:
        if attr_name == "action_masks":
            return True
        try:
            self.venv.get_attr(attr_name)
        except AttributeError:
            return False
        return True

    def get_attr(self, attr_name: str, indices: Any = None) -> list:
        if attr_name == "action_masks":
            return [self.action_masks for _ in self._get_indices(indices)]
        return self.venv.get_attr(attr_name, indices)

    def _get_indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def sb3_vec_env(env_id: str, num_envs: int = 1, num_cpus: int = 0, **options: Any) -> ActionMaskVecEnv:
    """An SB3 VecEnv of ``num_envs`` copies of ``env_id`` through SuperSuit (see the module);
    ``num_envs`` copies x agents per game slots in all."""
    import supersuit as ss

    flat = flat_parallel_env(env_id, **options)
    vec = ss.pettingzoo_env_to_vec_env_v1(flat)
    vec = ss.concat_vec_envs_v1(vec, num_envs, num_cpus=num_cpus, base_class="stable_baselines3")
    return ActionMaskVecEnv(vec, flat.num_actions)
