"""Counts of cards everyone knows to be in a place (a hand, a deck, the Burned pile), by type:
kept as lower bounds as cards come and go, so that ``determinize`` keeps them and the
observation can show them."""

from __future__ import annotations


def gain(known: dict[int, int], t: int) -> None:
    """A card of type ``t`` arrived where everyone saw it go."""
    known[t] = known.get(t, 0) + 1


def lose(known: dict[int, int], t: int) -> None:
    """A card of type ``t`` left in view: one fewer known (none, if it was not a known one)."""
    k = known.get(t, 0)
    if k > 1:
        known[t] = k - 1
    elif k:
        del known[t]


def forget_one(known: dict[int, int]) -> None:
    """An unseen card left: it may have been any known one, so each count drops by one."""
    if known:
        for t, k in list(known.items()):
            if k > 1:
                known[t] = k - 1
            else:
                del known[t]
