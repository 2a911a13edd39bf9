"""What a seat sees: the observation vector, its layout and bounds, and the full state tensor.

This is the one place that decides what each seat may see (OpenSpiel-style observer): its
own hand, and of every seat only public facts. Other seats are listed in seat order starting
from the observer (index 0 = the observer, 1 = the next seat clockwise, ...).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from yokai_envs.core.layout import Layout, build_layout, layout_bounds, layout_size, layout_starts
from yokai_envs.yonkai_no_yokai.state import DESCENDING, MAX_COUNT, VALUES, Table


def blocks(n: int) -> list[tuple[str, int]]:
    """``(name, width)`` of every block, in vector order, for ``n`` players."""
    return [
        ("hand", VALUES),              # own copies of each value 1..6
        ("hand_sizes", n),             # cards held, relative seat order (self first)
        ("cubes", n),                  # life cubes left
        ("button_available", n),       # 1 = elevator button in hand
        ("passed", n),                 # 1 = sitting out this trick
        ("to_act", n),                 # one-hot: whose decision it is
        ("descending", 1),             # 1 = the direction card shows Descending
        ("leading", 1),                # 1 = the trick is at its lead (no play yet)
        ("last_count", MAX_COUNT),     # one-hot count of the last play this trick
        ("last_value", VALUES),        # one-hot value of the last play this trick
        ("last_player", n),            # one-hot relative seat of the last play
        ("played_this_round", VALUES),  # public: copies of each value played this round
    ]


def observation_layout(n: int) -> Layout:
    """Block name -> slice of the observation vector, for ``n`` players."""
    return build_layout(blocks(n))


def observation_size(n: int) -> int:
    return layout_size(observation_layout(n))


def state_size(n: int) -> int:
    # every hand, then the public part of seat 0's observation (absolute seat order)
    return n * VALUES + observation_size(n) - VALUES


def bounds(n: int, copies: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 (low, high) of every observation entry."""
    return layout_bounds(observation_layout(n), highs={"hand": copies, "hand_sizes": copies * VALUES // n,
                                                       "cubes": 4, "played_this_round": copies})


@cache
def _offsets(n: int, shift: int) -> dict[str, int]:
    return {name: start + shift for name, start in layout_starts(observation_layout(n)).items()}


def _public(table: Table, seat: int, out: np.ndarray, shift: int) -> None:
    """Write the public blocks, in seats relative to ``seat``, at their layout offsets plus
    ``shift`` (0 in an observation; the state tensor puts every hand first)."""
    n = table.num_players
    at = _offsets(n, shift)
    order = [(seat + i) % n for i in range(n)]
    out[at["hand_sizes"]:at["hand_sizes"] + n] = [table.hand_sizes[s] for s in order]
    out[at["cubes"]:at["cubes"] + n] = [table.cubes[s] for s in order]
    out[at["button_available"]:at["button_available"] + n] = [table.button_available[s] for s in order]
    out[at["passed"]:at["passed"] + n] = [table.passed[s] for s in order]
    if not table.terminal:
        out[at["to_act"] + (table.to_act - seat) % n] = 1.0
    out[at["descending"]] = table.direction == DESCENDING
    out[at["leading"]] = table.last_count == 0
    if table.last_count:
        out[at["last_count"] + table.last_count - 1] = 1.0
        out[at["last_value"] + table.last_value - 1] = 1.0
    if table.last_player >= 0:
        out[at["last_player"] + (table.last_player - seat) % n] = 1.0
    out[at["played_this_round"]:at["played_this_round"] + VALUES] = table.played


def observe(table: Table, seat: int, size: int) -> np.ndarray:
    """The ``size``-long observation of ``seat``: its own hand, then the public blocks."""
    out = np.zeros(size, dtype=np.float32)
    out[:VALUES] = table.hands[seat]
    _public(table, seat, out, 0)
    return out


def state_tensor(table: Table, size: int) -> np.ndarray:
    """The ``size``-long full state: every hand (seat order), then the public blocks of seat 0's
    observation (absolute seat order)."""
    out = np.zeros(size, dtype=np.float32)
    hands_width = table.num_players * VALUES
    out[:hands_width] = table.hands.ravel()
    _public(table, 0, out, hands_width - VALUES)
    return out
