"""Render-mode handling shared by the AEC, Parallel and gymnasium envs."""

from __future__ import annotations

from yokai_envs.core.game import Game
from yokai_envs.core.protocols import render_text

RENDER_MODES = ("ansi", "human")


def render_in_mode(game: Game, render_mode: str | None) -> str | None:
    """``ansi`` returns the omniscient text (the game's ``render``, else a summary line), ``human``
    prints it, no mode does nothing."""
    if render_mode is None:
        return None
    text = render_text(game)
    if render_mode == "human":
        print(text)
        return None
    return text
