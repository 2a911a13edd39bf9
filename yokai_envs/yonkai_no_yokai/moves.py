"""The climbing move tables of Yonkai no Yokai: which plays may follow which, with and without
the Elevator Button, and the direction after each.

Moves after the last play ``(c, v)`` (rulebook, "Game Play"):
- ascending: the same count of a higher value, or one more card of a lower value;
- descending: the same count of a lower value, or one card fewer of a higher value.
The direction may flip for free after a set of four while ascending and after a single while
descending; the Elevator Button flips it anywhere else. Playing 6666 while ascending or a
single 1 while descending flips it automatically. The tables are built once
(:func:`move_tables`) and shared by every game and copy (``State.tables``); the rules, the
heuristic and the vector engine read them.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from yokai_envs.yonkai_no_yokai.actions import FIRST_BUTTON_PLAY, FIRST_PLAIN_PLAY, play_index, play_of
from yokai_envs.yonkai_no_yokai.state import ASCENDING, DESCENDING, DIRECTIONS, MAX_COUNT, NUM_PLAYS, VALUES, Direction


def _moves(direction: Direction, count: int, value: int) -> set[tuple[int, int]]:
    if direction == ASCENDING:
        same = {(count, w) for w in range(value + 1, VALUES + 1)}
        more = {(count + 1, w) for w in range(1, value)} if count < MAX_COUNT else set()
        return same | more
    same = {(count, w) for w in range(1, value)}
    fewer = {(count - 1, w) for w in range(value + 1, VALUES + 1)} if count > 1 else set()
    return same | fewer


def is_free_flip_point(direction: Direction, count: int) -> bool:
    """Flipping needs no button at the 4th floor going up and the 1st floor going down."""
    return (direction == ASCENDING and count == MAX_COUNT) or (direction == DESCENDING and count == 1)


def after_play_direction(direction: Direction, count: int, value: int) -> Direction:
    """Direction after a play made going ``direction``: 6666 up or a single 1 down flips it."""
    if direction == ASCENDING and (count, value) == (MAX_COUNT, VALUES):
        return DESCENDING
    if direction == DESCENDING and (count, value) == (1, 1):
        return ASCENDING
    return direction


class MoveTables:
    """For every (direction, last count, last value): which plays are legal without the
    button (``free``), which only with it (``button``), and the direction after each.

    Arrays are indexed ``[direction, count, value, play_index]`` (count/value 1-based; index 0
    unused). ``lead`` is the mask of a trick's lead: any single.
    """

    def __init__(self) -> None:
        shape = (2, MAX_COUNT + 1, VALUES + 1, NUM_PLAYS)
        self.free = np.zeros(shape, dtype=bool)
        self.button = np.zeros(shape, dtype=bool)
        self.direction_after_free = np.zeros(shape, dtype=np.int8)
        self.direction_after_button = np.zeros(shape, dtype=np.int8)
        for direction in DIRECTIONS:
            flipped = direction.flipped
            for count in range(1, MAX_COUNT + 1):
                for value in range(1, VALUES + 1):
                    onward = _moves(direction, count, value)
                    reverse = _moves(flipped, count, value)
                    free = onward | reverse if is_free_flip_point(direction, count) else onward
                    for play in range(NUM_PLAYS):
                        c, v = play_of(play)
                        key = (direction, count, value, play)
                        if (c, v) in free:
                            self.free[key] = True
                            going = direction if (c, v) in onward else flipped
                            self.direction_after_free[key] = after_play_direction(going, c, v)
                        elif (c, v) in reverse:
                            self.button[key] = True
                            self.direction_after_button[key] = after_play_direction(flipped, c, v)
        # the plays open to a seat when it passes, without and with its button
        self.open_plays = np.stack([self.free, self.free | self.button])
        self.lead = np.zeros(NUM_PLAYS, dtype=bool)
        self.lead[[play_index(1, v) for v in range(1, VALUES + 1)]] = True
        # feasible[c-1, v-1] needs hand[v-1] >= c: compare a hand against this column of counts.
        self.count_column = np.arange(1, MAX_COUNT + 1, dtype=np.int8)[:, None]
        # The same tables as lists, for legal_actions: (direction, count, value) -> the actions
        # open after that play, each as (action, value - 1, count), ascending.
        self.lead_moves = _moves_of(FIRST_PLAIN_PLAY, self.lead)
        self.free_moves: dict[tuple[int, int, int], tuple[tuple[int, int, int], ...]] = {}
        self.button_moves: dict[tuple[int, int, int], tuple[tuple[int, int, int], ...]] = {}
        for direction in DIRECTIONS:
            for count in range(1, MAX_COUNT + 1):
                for value in range(1, VALUES + 1):
                    after = (int(direction), count, value)
                    self.free_moves[after] = _moves_of(FIRST_PLAIN_PLAY, self.free[after])
                    self.button_moves[after] = _moves_of(FIRST_BUTTON_PLAY, self.button[after])


def _moves_of(first_action: int, plays: np.ndarray) -> tuple[tuple[int, int, int], ...]:
    """(action, value - 1, count) of each play set in ``plays``, in action order."""
    return tuple((first_action + p, play_of(p)[1] - 1, play_of(p)[0]) for p in np.flatnonzero(plays).tolist())


@cache
def move_tables() -> MoveTables:
    """The move tables, computed once on first use."""
    return MoveTables()
