"""yokai-envs: four yokai card games as PettingZoo reinforcement-learning environments.

    import yokai_envs
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=4)

Nothing heavy happens on import: games are imported when first made.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.registry import ENV_IDS, GAME_PACKAGES, game_class, make, make_game, make_raw

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    import pandas as pd

__version__ = "0.1.0"


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


# Names that left the package root, and where they live now. The single-seat gym envs need the
# bots, which sit above this package's root in the layers (docs/architecture.md), so the root
# no longer reaches up to them.
MOVED: dict[str, str] = {
    "make_gym": "yokai_envs.training.make_gym",
    "make_vec_gym": "yokai_envs.training.make_vec_gym",
}


def moved_message(old: str, new: str) -> str:
    """The one message for a name that moved (see CHANGELOG.md)."""
    return (f"{old} was retired: it moved to {new} (import it from there; see CHANGELOG.md). "
            "The package root no longer imports training code.")


def __getattr__(name: str) -> object:
    """``yokai_envs.onmyoji`` and the other game packages load on first use (PEP 562), so
    ``yokai_envs.onmyoji.parallel_env(...)`` works right after ``import yokai_envs``."""
    if name in _LAZY_PACKAGES:
        import importlib

        return importlib.import_module(f"yokai_envs.{name}")
    if name in MOVED:
        raise ImportError(moved_message(f"yokai_envs.{name}", MOVED[name]), name=name)
    raise AttributeError(f"module 'yokai_envs' has no attribute {name!r}")


__all__ = ["ENV_IDS", "ConfigError", "IllegalActionError", "game_class", "make", "make_game", "make_raw",
           "register_gymnasium", "trajectories"]
