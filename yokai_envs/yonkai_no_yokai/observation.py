"""What a seat sees: the observation vector, its layout and bounds, and the full state tensor.

This is the one place that decides what each seat may see (OpenSpiel-style observer): its
own hand, and of every seat only public facts. Other seats are listed in seat order starting
from the observer (index 0 = the observer, 1 = the next seat clockwise, ...). Every entry is
between 0 and 1: counts are divided by their most (a hand by the copies of a value, hand sizes
by the deal, cubes by 4, the round by the most rounds a game can have).

Nothing public is forgotten within a round (hands only shrink until the next deal): each seat's
plays (``played_by_seat``) and what its passes said (``passed_on``: every play open to it when
it passed), besides the trick's state; the round number keeps a capped game Markov.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from yokai_envs.core.layout import Layout, build_layout, layout_bounds, layout_size, layout_starts
from yokai_envs.yonkai_no_yokai.state import DESCENDING, MAX_COUNT, NUM_PLAYS, STARTING_CUBES, VALUES, Setup, Table


def blocks(n: int) -> list[tuple[str, int]]:
    """``(name, width)`` of every block, in vector order, for ``n`` players."""
    return [
        ("hand", VALUES),              # own copies of each value 1..6 / copies of a value
        ("hand_sizes", n),             # cards held / cards dealt, relative seat order (self first)
        ("cubes", n),                  # life cubes left / 4
        ("button_available", n),       # 1 = elevator button in hand
        ("passed", n),                 # 1 = sitting out this trick
        ("to_act", n),                 # one-hot: whose decision it is (all 0 once the game is over)
        ("descending", 1),             # 1 = the direction card shows Descending
        ("leading", 1),                # 1 = the trick is at its lead (no play yet)
        ("last_count", MAX_COUNT),     # one-hot count of the last play this trick
        ("last_value", VALUES),        # one-hot value of the last play this trick
        ("last_player", n),            # one-hot relative seat of the last play (none at a lead)
        ("played_by_seat", n * VALUES),  # per seat: copies of each value it played this round / copies
        ("passed_on", n * NUM_PLAYS),  # per seat, per play index: 1 = open to it at one of its passes this round
        ("round", 1),                  # rounds completed / the most rounds a game can have
    ]


def observation_layout(n: int) -> Layout:
    """Block name -> slice of the observation vector, for ``n`` players."""
    return build_layout(blocks(n))


def observation_size(n: int) -> int:
    return layout_size(observation_layout(n))


def state_size(n: int) -> int:
    # every hand, then the public part of seat 0's observation (absolute seat order)
    return n * VALUES + observation_size(n) - VALUES


def bounds(n: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 (low, high) of every observation entry: all in [0, 1]."""
    return layout_bounds(observation_layout(n))


def most_rounds(setup: Setup) -> int:
    """The most rounds a game can last: the cap, else every round but the last takes at least
    one cube from each of the ``n - 1`` seats that did not go out."""
    if setup.rounds_per_game is not None:
        return setup.rounds_per_game
    n = setup.num_players
    return STARTING_CUBES * n // (n - 1) + 1


@cache
def _offsets(n: int, shift: int) -> dict[str, int]:
    return {name: start + shift for name, start in layout_starts(observation_layout(n)).items()}


@cache
def _orders(n: int) -> tuple[tuple[list[int], np.ndarray], ...]:
    """Seat order relative to each observer, as a list and as an index array."""
    orders = [[(seat + i) % n for i in range(n)] for seat in range(n)]
    return tuple((order, np.array(order, dtype=np.intp)) for order in orders)


@cache
def _scale(n: int, copies: int, rounds: int, shift: int) -> np.ndarray:
    """What each entry is divided by, as a factor over the whole vector: counts are written raw
    and scaled in one multiplication (``shift``: the state tensor's extra hands, scaled alike)."""
    layout = observation_layout(n)
    scale = np.ones(shift + layout_size(layout), dtype=np.float32)
    for name, most in (("hand", copies), ("hand_sizes", copies * VALUES // n), ("cubes", STARTING_CUBES),
                       ("played_by_seat", copies), ("round", rounds)):
        part = layout[name]
        scale[part.start + shift:part.stop + shift] = 1 / most
    scale[:shift] = 1 / copies
    scale.setflags(write=False)
    return scale


def _public(table: Table, setup: Setup, seat: int, over: bool, out: np.ndarray, shift: int) -> None:
    """Write the public blocks, in seats relative to ``seat``, at their layout offsets plus
    ``shift`` (0 in an observation; the state tensor puts every hand first), as raw counts."""
    n = setup.num_players
    at = _offsets(n, shift)
    order, rows = _orders(n)[seat]
    sizes, cubes, buttons, passed = table.hand_sizes, table.cubes, table.button_available, table.passed
    # hand_sizes, cubes, button_available and passed lie back to back: one write
    out[at["hand_sizes"]:at["to_act"]] = ([sizes[s] for s in order] + [cubes[s] for s in order]
                                          + [buttons[s] for s in order] + [passed[s] for s in order])
    if not over:
        out[at["to_act"] + (table.to_act - seat) % n] = 1.0
    out[at["descending"]] = table.direction == DESCENDING
    if table.last_count:
        out[at["last_count"] + table.last_count - 1] = 1.0
        out[at["last_value"] + table.last_value - 1] = 1.0
        out[at["last_player"] + (table.last_player - seat) % n] = 1.0
    else:
        out[at["leading"]] = 1.0
    start = at["played_by_seat"]
    out[start:start + n * VALUES] = table.played_by.take(rows, axis=0).ravel()
    start = at["passed_on"]
    out[start:start + n * NUM_PLAYS] = table.passed_on.take(rows, axis=0).ravel()
    out[at["round"]] = table.rounds_completed


def observe(table: Table, setup: Setup, seat: int, over: bool, size: int) -> np.ndarray:
    """The ``size``-long observation of ``seat``: its own hand, then the public blocks."""
    out = np.zeros(size, dtype=np.float32)
    out[:VALUES] = table.hands[seat]
    _public(table, setup, seat, over, out, 0)
    out *= _scale(setup.num_players, setup.copies, most_rounds(setup), 0)
    return out


def state_tensor(table: Table, setup: Setup, over: bool, size: int) -> np.ndarray:
    """The ``size``-long full state: every hand (seat order), then the public blocks of seat 0's
    observation (absolute seat order)."""
    out = np.zeros(size, dtype=np.float32)
    hands_width = table.num_players * VALUES
    out[:hands_width] = table.hands.ravel()
    _public(table, setup, 0, over, out, hands_width - VALUES)
    out *= _scale(setup.num_players, setup.copies, most_rounds(setup), hands_width - VALUES)
    return out
