"""The game-option flags the example scripts take: ``--num-players``, ``--mode``, ``--difficulty``.

A flag is passed on only when given, and the game checks it: a game without that option
(``--mode`` for YOKAIZO) fails with its own error naming the valid options.
"""

from __future__ import annotations

import argparse
from typing import Any

#: option name -> type, for the options some game has (Yonkai: num_players; Onmyoji: mode, difficulty)
GAME_FLAGS: dict[str, type] = {"num_players": int, "mode": str, "difficulty": int}


def add_game_flags(parser: argparse.ArgumentParser) -> None:
    for name, kind in GAME_FLAGS.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=None,
                            help=f"the game's {name} option, for games that have one")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (the game's defaults for the rest)."""
    return {name: getattr(args, name) for name in GAME_FLAGS if getattr(args, name) is not None}


def flags_for(options: dict[str, Any]) -> list[str]:
    """The command-line flags that give ``options`` (ValueError for one no flag covers)."""
    unknown = sorted(set(options) - set(GAME_FLAGS))
    if unknown:
        raise ValueError(f"no example flag for option(s) {', '.join(unknown)}; flags: {', '.join(GAME_FLAGS)}")
    return [part for name, value in options.items() for part in (f"--{name.replace('_', '-')}", str(value))]
