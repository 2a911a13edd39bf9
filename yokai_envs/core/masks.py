"""Legal-action masks from lists of actions: the one place every game builds its fresh mask."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

_BOOL = np.dtype(bool)  # a dtype object, passed positionally: numpy parses keywords and type names per call


def mask_of(actions: Iterable[int], size: int) -> np.ndarray:
    """A fresh boolean mask of ``size`` entries, True at ``actions`` (each an index into it).

    The flags are set in a bytearray that the array then views: a handful of byte writes cost
    less than turning the list into an index array for a fancy assignment (a legal list is
    short, and this runs on every decision of every game)."""
    flags = bytearray(size)
    for action in actions:
        flags[action] = 1
    return np.frombuffer(flags, _BOOL)
