"""What a game's rules functions use beside its state: the game's chance and its record.

A game that keeps its table as plain data in ``Game.state`` passes its rules ``(state, ctx)``;
``ctx`` (:meth:`Game.rules_context`) carries the game's seeded generator, ``see`` (the core's
record of what each seat sees) and whether the game is recording at all, so a rule can skip
building an event nobody keeps.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class Context:
    """The game's chance (``rng``) and record (``see(seat, kind, *args)``; ``recording``)."""

    __slots__ = ("recording", "rng", "see")

    def __init__(self, rng: np.random.Generator, see: Callable[..., None], recording: bool) -> None:
        self.rng = rng
        self.see = see
        self.recording = recording
