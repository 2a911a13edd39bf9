"""What a game's rules functions use beside its state: the game's chance and its record.

A game that keeps its table as plain data in ``Game.state`` passes its rules ``(state, ctx)``;
``ctx`` (:meth:`Game.rules_context`) carries the game's seeded generator and the core's record of
what each seat sees (``see``), and says whether the game is recording at all, so a rule can skip
building an event nobody keeps. It holds no reference to the game: a game and its context form
no cycle, so a search's sampled worlds are freed as soon as they are dropped.
"""

from __future__ import annotations

import numpy as np

from yokai_envs.core.information import Event


def record_event(seen: list[list[Event]], seen_text: list[list[str | None]], seat: int | None, kind: int,
                 args: tuple[int, ...]) -> None:
    """Append the event ``(kind, *args)`` to what ``seat`` has seen (None: every seat)."""
    event = (int(kind), *map(int, args))
    for s in range(len(seen)) if seat is None else (seat,):
        seen[s].append(event)
        seen_text[s].append(None)


class Context:
    """The game's chance (``rng``) and record (``see(seat, kind, *args)``; ``recording``)."""

    __slots__ = ("recording", "rng", "seen", "seen_text")

    def __init__(self, rng: np.random.Generator, seen: list[list[Event]] | None,
                 seen_text: list[list[str | None]] | None) -> None:
        self.rng = rng
        self.seen = seen
        self.seen_text = seen_text
        self.recording = seen is not None

    def see(self, seat: int | None, kind: int, *args: int) -> None:
        """``seat`` sees ``(kind, *args)`` (None: every seat does), as ``Game.see``; free when not
        recording."""
        seen = self.seen
        if seen is None:
            return
        assert self.seen_text is not None
        record_event(seen, self.seen_text, seat, kind, args)
