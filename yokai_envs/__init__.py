"""yokai-envs: four yokai card games as PettingZoo reinforcement-learning environments.

    import yokai_envs
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=4)

Nothing heavy happens on import: games are imported when first made.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.registry import ENV_IDS, GAME_PACKAGES, game_class, make, make_game, make_raw

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    import pandas as pd

    from yokai_envs.training.gym_env import YokaiGymEnv as _YokaiGymEnv

__version__ = "0.1.0"


def make_gym(env_id: str, opponents: list | None = None, learner_seat: int | None = None,
             **options: Any) -> _YokaiGymEnv:
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


def trajectories(source: str | Path | Iterable[str | Path], *, observation: bool = True,
                 state_tensor: bool = False) -> pd.DataFrame:
    """One row per decision of the games in ``source`` (an arena folder, a games.jsonl, replay
    files) as a pandas DataFrame: see :mod:`yokai_envs.analysis.trajectories` (the 'analysis' extra)."""
    from yokai_envs.analysis.trajectories import trajectories as _trajectories

    return _trajectories(source, observation=observation, state_tensor=state_tensor)


def register_gymnasium() -> list[str]:
    """Register the gymnasium ids (``yokai_envs/<game>-v<N>``, see
    :mod:`yokai_envs.envs.gymnasium_ids`); returns them. Importing ``yokai_envs`` does it by
    itself when gymnasium is already imported."""
    from yokai_envs.envs.gymnasium_ids import register

    return register()


if "gymnasium" in sys.modules:  # registering costs nothing then; otherwise gymnasium stays unimported
    register_gymnasium()

_LAZY_PACKAGES = (*GAME_PACKAGES, "analysis")  # yokai_envs.analysis.iter_decisions(...) after import yokai_envs


def __getattr__(name: str) -> object:
    """``yokai_envs.onmyoji`` and the other game packages load on first use (PEP 562), so
    ``yokai_envs.onmyoji.parallel_env(...)`` works right after ``import yokai_envs``."""
    if name in _LAZY_PACKAGES:
        import importlib

        return importlib.import_module(f"yokai_envs.{name}")
    raise AttributeError(f"module 'yokai_envs' has no attribute {name!r}")


__all__ = ["ENV_IDS", "ConfigError", "IllegalActionError", "game_class", "make", "make_game", "make_gym", "make_raw",
           "make_vec_gym",
           "register_gymnasium", "trajectories"]
