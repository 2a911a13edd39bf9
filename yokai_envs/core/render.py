"""Render-mode handling shared by the AEC, Parallel and gymnasium envs."""

from __future__ import annotations

from yokai_envs.core.game import Game

RENDER_MODES = ("ansi", "human")


def render_in_mode(game: Game, render_mode: str | None) -> str | None:
    """``ansi`` returns the omniscient text, ``human`` prints it, no mode does nothing."""
    if render_mode is None:
        return None
    text = game.render()
    if render_mode == "human":
        print(text)
        return None
    return text
