"""Training: ``yokai train --config configs/<game>/<name>.yaml``, and the single-seat envs it learns in.

- :func:`make_gym` / :func:`make_vec_gym`: one learner seat, the other seats played by bots
  (:mod:`~yokai_envs.training.gym_env`, :mod:`~yokai_envs.training.vec_env`).
- :mod:`~yokai_envs.training.common`: the run machinery every algorithm shares (config and its
  schema, safe YAML, the run folder, checkpoints and signals, hooks, memory check, evaluation, plot).
- :mod:`~yokai_envs.training.algorithms`: one module per algorithm (PPO, imitation, DMC,
  distillation, the Yonkai lookahead teacher).
- :mod:`~yokai_envs.training.rllib_backend`: the same PPO run on RLlib (``algorithm.backend: rllib``).

Nothing here is imported by ``yokai_envs`` itself; torch and SB3 load only when training.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yokai_envs.training.gym_env import YokaiGymEnv


def make_gym(env_id: str, opponents: list | None = None, learner_seat: int | None = None,
             **options: Any) -> YokaiGymEnv:
    """Single-seat gymnasium env for SB3 (see :mod:`yokai_envs.training.gym_env`); imports gymnasium lazily."""
    from yokai_envs.training.gym_env import make_gym as _make_gym

    return _make_gym(env_id, opponents=opponents, learner_seat=learner_seat, **options)


def make_vec_gym(env_id: str, num_envs: int, opponents: list | None = None, learner_seat: int | None = None,
                 api: str = "gymnasium", **options: object) -> object:
    """``num_envs`` single-seat envs in one batched engine (Yonkai no Yokai): a gymnasium
    ``VectorEnv``, or with ``api="sb3"`` an SB3 ``VecEnv``, both with ``action_masks()`` (see
    :mod:`yokai_envs.training.vec_env`); needs numba (the ``fast`` extra)."""
    from yokai_envs.training.vec_env import make_vec_gym as _make_vec_gym

    return _make_vec_gym(env_id, num_envs, opponents=opponents, learner_seat=learner_seat, api=api,
                         **options)  # type: ignore[arg-type]


__all__ = ["make_gym", "make_vec_gym"]
