"""What each seat has seen: the event record behind ``Game.information_state`` and ``public_log``.

An event a seat sees is a tuple of small ints ``(kind, *args)``. Two kinds belong to every game
(a decision whose public view the seat saw, and one it only saw being made); each game numbers
its own automatic events (deals, draws, reveals, shuffles, damage, the end of a trick) from
``FIRST_GAME_EVENT`` on, documents them in its README, and says in one place (its rules, where
each event happens) which seats see what. A seat's information state is the canonical string of
its events in order, as OpenSpiel's ``information_state_string``: two histories with equal
strings are indistinguishable to that seat, so its observation and mask must be equal too (the
conformance suite checks it with twin histories).

Recording is off by default (training pays nothing for it): ``Game.record_information()`` turns
it on from the next reset, and a game that was not recording rebuilds its record by replaying
its seed and actions when asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

import numpy as np


class CoreEvent(IntEnum):
    """Event kinds every game shares; a game's own kinds start at ``FIRST_GAME_EVENT``."""

    #: ``(ACTED, actor, public_action)``: the seat saw ``actor`` decide, in the public view
    #: ``public_action`` (the action id itself when the seat sees the whole action).
    ACTED = 0
    #: ``(DECIDED_UNSEEN, actor)``: the seat only saw that ``actor`` made a decision.
    DECIDED_UNSEEN = 1


FIRST_GAME_EVENT = 2
#: ``(SAMPLED_VIEW, digest)``, only in a world ``Game.determinize(seat)`` sampled: for every other
#: seat it stands for that seat's private past, which the sample does not draw, as a digest of
#: its view of the sampled world. Negative, so no game's own kinds can meet it.
SAMPLED_VIEW = -2
#: Padding of the ``history`` observation (rows before the first event, unused argument columns).
HISTORY_PAD = -1

Event = tuple[int, ...]


def canonical(events: Sequence[Event]) -> str:
    """The information-state string of a list of events (one line per event)."""
    return "\n".join(" ".join(map(str, event)) for event in events)


def history_tokens(events: Sequence[Event], length: int, width: int) -> np.ndarray:
    """The last ``length`` events as an int32 ``(length, width)`` array, oldest first, padded at
    the front (and in unused argument columns) with ``HISTORY_PAD``."""
    out = np.full((length, width), HISTORY_PAD, dtype=np.int32)
    recent = events[-length:] if length else ()
    start = length - len(recent)
    for row, event in enumerate(recent, start):
        if len(event) > width:
            raise ValueError(f"event {event} has more than {width - 1} arguments")
        out[row, :len(event)] = event
    return out
