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
from typing import NamedTuple

import numpy as np

from yokai_envs.core.layout import Layout, build_layout, layout_bounds, layout_size, layout_starts
from yokai_envs.yonkai_no_yokai.state import DESCENDING, MAX_COUNT, NUM_PLAYS, STARTING_CUBES, VALUES, Setup, State


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


class _SeatPlan(NamedTuple):
    """Where one observer's public blocks go: plain int offsets, read once per observation."""

    seat: int
    played_cut: int  # where the observer's row starts in ``played_by``'s bytes (seat order is a rotation)
    passed_cut: int  # the same in ``passed_on``'s bytes
    sizes_at: int  # hand_sizes, cubes, button_available and passed lie back to back from here
    to_act_at: int
    descending_at: int
    leading_at: int
    last_count_at: int  # minus 1: plus the count is its one-hot entry
    last_value_at: int  # minus 1: plus the value is its one-hot entry
    last_player_at: int
    played_at: int
    passed_on_at: int
    round_at: int


@cache
def _plans(n: int, shift: int) -> tuple[_SeatPlan, ...]:
    """Each observer's plan for ``n`` players, its blocks shifted by ``shift``: computed once, so
    that an observation does no dict look-ups or index arithmetic beyond one add per one-hot."""
    at = {name: start + shift for name, start in layout_starts(observation_layout(n)).items()}
    return tuple(_SeatPlan(seat, seat * VALUES, seat * NUM_PLAYS, at["hand_sizes"], at["to_act"], at["descending"],
                           at["leading"], at["last_count"] - 1, at["last_value"] - 1, at["last_player"],
                           at["played_by_seat"], at["passed_on"], at["round"])
                 for seat in range(n))


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


def _public(state: State, plan: _SeatPlan, over: bool, raw: bytearray) -> None:
    """Write the public blocks, in seats relative to ``plan.seat``, where ``plan`` puts them, as
    raw counts, one byte each (``raw`` starts zeroed; every count is small: a hand holds at most
    16 cards, and cube losses end a game within 7 rounds whatever its cap)."""
    seat = plan.seat
    n = len(state.hand_sizes)
    sizes, cubes, buttons, passed = state.hand_sizes, state.cubes, state.button_available, state.passed
    # seat order relative to the observer is a rotation: list and bytes slices, one write a block
    raw[plan.sizes_at:plan.to_act_at] = [*sizes[seat:], *sizes[:seat], *cubes[seat:], *cubes[:seat],
                                         *buttons[seat:], *buttons[:seat], *passed[seat:], *passed[:seat]]
    if not over:
        raw[plan.to_act_at + (state.to_act - seat) % n] = 1
    if state.direction == DESCENDING:
        raw[plan.descending_at] = 1
    count = state.last_count
    if count:
        raw[plan.last_count_at + count] = 1
        raw[plan.last_value_at + state.last_value] = 1
        raw[plan.last_player_at + (state.last_player - seat) % n] = 1
    else:
        raw[plan.leading_at] = 1
    played, cut = state.played_by.tobytes(), plan.played_cut
    raw[plan.played_at:plan.passed_on_at] = played[cut:] + played[:cut]
    passed_on, cut = state.passed_on.tobytes(), plan.passed_cut
    raw[plan.passed_on_at:plan.round_at] = passed_on[cut:] + passed_on[:cut]
    raw[plan.round_at] = state.rounds_completed


_UINT8 = np.dtype(np.uint8)


class Observer:
    """What each seat of one setup sees (OpenSpiel's observer): the plans and scales are laid
    out once, and an observation is raw counts written into a bytearray, turned into floats by
    one scaling multiplication (byte writes are plain Python; each element write into a float
    array would be a numpy call)."""

    def __init__(self, setup: Setup) -> None:
        n = setup.num_players
        rounds = most_rounds(setup)
        self.size = observation_size(n)
        self.state_size = state_size(n)
        self._plans = _plans(n, 0)
        self._scale = _scale(n, setup.copies, rounds, 0)
        shift = n * VALUES - VALUES  # the state tensor puts every hand first
        self._state_plan = _plans(n, shift)[0]
        self._state_scale = _scale(n, setup.copies, rounds, shift)

    def observe(self, state: State, seat: int, over: bool) -> np.ndarray:
        """The observation of ``seat``: its own hand, then the public blocks."""
        raw = bytearray(self.size)
        start = seat * VALUES
        raw[:VALUES] = state.hands.tobytes()[start:start + VALUES]
        _public(state, self._plans[seat], over, raw)
        return np.multiply(np.frombuffer(raw, _UINT8), self._scale)

    def state_tensor(self, state: State, over: bool) -> np.ndarray:
        """The full state: every hand (seat order), then the public blocks of seat 0's
        observation (absolute seat order)."""
        raw = bytearray(self.state_size)
        hands = state.hands.tobytes()
        raw[:len(hands)] = hands
        _public(state, self._state_plan, over, raw)
        return np.multiply(np.frombuffer(raw, _UINT8), self._state_scale)
