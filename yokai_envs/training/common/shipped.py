"""The ready configs shipped in the package: ``configs/`` of the source tree is
``yokai_envs/configs`` in a wheel (package data, read through importlib.resources).

``yokai train --config configs/yonkai_no_yokai/quick.yaml`` works from any folder: a path under
``configs/`` that is not a file here is read from the installed package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from yokai_envs.core.errors import ConfigError


def shipped_configs() -> Path:
    """The installed ``configs`` folder (a wheel's package data, or the checkout's configs/)."""
    return Path(str(resources.files("yokai_envs") / "configs"))


def resolve_config_path(path: str | Path) -> Path:
    """``path`` itself when it is a file; else, for ``configs/...``, the shipped copy when there
    is one; else ``path`` (its reader says it is not found)."""
    p = Path(path)
    if p.is_file() or p.is_absolute() or not p.parts or p.parts[0] != "configs":
        return p
    shipped = shipped_configs().joinpath(*p.parts[1:])
    return shipped if shipped.is_file() else p


def quick_config(game: str) -> Path:
    """``configs/<game>/quick.yaml`` as shipped; a clear error when the install lacks it."""
    path = shipped_configs() / game / "quick.yaml"
    if not path.is_file():
        raise ConfigError(f"no ready config for {game} in this install ({path} is missing); "
                          "pass --config FILE")
    return path
