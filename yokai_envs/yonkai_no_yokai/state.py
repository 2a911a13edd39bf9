"""The table of Yonkai no Yokai as plain data: the deck's constants, the enums, the records.

Per-seat hands are value counts (``hands[seat, value-1]`` = copies held); the trick is its last
play, who made it and the direction; the round keeps the cards played, by seat, and the plays
open to each seat when it passed. The decisions themselves are recorded once, as events of the
information state (``Game.seen_events``), which agents replay. Transitions are in ``rules.py``,
the climbing move tables in ``moves.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from yokai_envs.core.information import FIRST_GAME_EVENT

if TYPE_CHECKING:
    from yokai_envs.yonkai_no_yokai.moves import MoveTables

VALUES = 6  # card values 1..6
MAX_COUNT = 4  # a set has 1..4 cards (the elevator's floors)
NUM_PLAYS = VALUES * MAX_COUNT  # 24 plays: (count, value)
STARTING_CUBES = 4
COPIES_PER_VALUE = {3: 8, 4: 10}  # 3 players: two copies of each value go back to the box
REWARD_MODES = ("win", "lives")


class Direction(IntEnum):
    """The Direction card. Its value indexes the move tables (``moves.MoveTables``)."""

    ASCENDING = 0
    DESCENDING = 1

    @property
    def flipped(self) -> Direction:
        return DIRECTIONS[1 - self]


ASCENDING = Direction.ASCENDING
DESCENDING = Direction.DESCENDING
DIRECTIONS = (ASCENDING, DESCENDING)  # Direction of an int 0/1 by indexing (cheaper than the call)


class Phase(Enum):
    """The pending decision; its value is ``Game.phase_name``."""

    LEAD = "lead"  # a single of any value, no pass
    FOLLOW = "follow"  # beat the last play, or pass
    GAME_OVER = "game over"


class YonkaiEvent(IntEnum):
    """What a seat sees besides the decisions (which the core records as ``ACTED`` events, every
    play and pass face up). Seats are absolute; the README's table gives each kind's arguments."""

    #: ``(ROUND_STARTED, round, leader)``, public: round ``round`` (1-based) is dealt, ``leader`` leads.
    ROUND_STARTED = FIRST_GAME_EVENT
    #: ``(DEALT, n1, ..., n6)``, to the seat dealt alone: its new hand, copies of each value 1..6.
    DEALT = FIRST_GAME_EVENT + 1
    #: ``(DIRECTION, direction)``, public: after a play the Direction card shows another side
    #: (0 ascending, 1 descending): a free or button flip, or 6666 up / a single 1 down.
    DIRECTION = FIRST_GAME_EVENT + 2
    #: ``(TRICK_ENDED, leader)``, public: all but ``leader`` passed; the trick is cleared, the
    #: direction is Ascending again and ``leader`` (who played last) leads the next one.
    TRICK_ENDED = FIRST_GAME_EVENT + 3
    #: ``(ROUND_ENDED, seat)``, public: ``seat`` emptied its hand.
    ROUND_ENDED = FIRST_GAME_EVENT + 4
    #: ``(CUBES_LOST, seat, lost)``, public: at a round end ``seat`` lost ``lost`` Life cubes.
    CUBES_LOST = FIRST_GAME_EVENT + 5
    #: ``(GAME_ENDED,)``, public: a seat had to lose more cubes than it held, or the round cap.
    GAME_ENDED = FIRST_GAME_EVENT + 6


EVENT_ARGS = VALUES  # DEALT carries the most: one count per value


class Play(NamedTuple):
    """A set of ``size`` cards (1-4, the count of a play) of one ``value`` (1-6)."""

    size: int  # not "count": that would hide tuple.count
    value: int


@dataclass(frozen=True)
class Setup:
    """What the options fix for a whole game."""

    num_players: int
    copies: int  # copies of each value in the deck
    rewards_lives: bool  # reward "lives": minus the cubes lost at each round end
    rounds_per_game: int | None  # None: play until a seat must lose more cubes than it has


class State:
    """Everything on the table. Public: all but the hands' contents (their sizes are public).

    ``setup`` and ``tables`` are fixed for the game and shared by every copy; ``pending`` is the
    pending decision's legal actions, ascending (None once the game has ended): the rules list
    it after every change (``rules.list_pending``) and replace it, never change it in place."""

    def __init__(self, setup: Setup, tables: MoveTables) -> None:
        n = setup.num_players
        self.setup = setup
        self.tables = tables
        # int8 (num_players, VALUES): hands[seat, value-1] = copies held (the observation reads the bytes)
        self.hands = np.zeros((n, VALUES), dtype=np.int8)
        self.hand_sizes = [0] * n
        self.cubes = [STARTING_CUBES] * n
        self.button_available = [True] * n
        self.passed = [False] * n  # sitting out the current trick
        self.played = np.zeros(VALUES, dtype=np.int8)  # cards of each value played this round
        self.played_by = np.zeros((n, VALUES), dtype=np.int8)  # cards of each value each seat played this round
        # bool (num_players, NUM_PLAYS): the plays open to each seat (by the elevator and its button)
        # when it passed, this round: what a seat's passes say it chose not to (or could not) play.
        self.passed_on = np.zeros((n, NUM_PLAYS), dtype=bool)
        self.direction: Direction = ASCENDING
        self.last_count = 0  # 0: the trick is at its lead
        self.last_value = 0
        self.last_player = -1
        self.to_act = 0
        self.rounds_completed = 0
        self.winners: list[int] = []
        self.terminal = False
        self.returns = np.zeros(n)  # float64, per seat, running total
        self.pending: list[int] | None = None

    @property
    def num_players(self) -> int:
        return len(self.hand_sizes)

    @property
    def phase(self) -> Phase:
        if self.terminal:
            return Phase.GAME_OVER
        return Phase.LEAD if self.last_count == 0 else Phase.FOLLOW

    def copy(self) -> State:
        """An independent copy: changing either never changes the other. The arrays and lists are
        copied; the other fields hold immutable values (ints, enums, ``pending``, which is replaced
        and never changed in place) or are fixed for the game (``setup``, ``tables``)."""
        # Field by field, in __init__'s order: a copy made by assigning __dict__ would keep its
        # attributes in a dict, which CPython 3.11 reads at about half the speed, on every rule.
        new = object.__new__(State)
        new.setup = self.setup
        new.tables = self.tables
        new.hands = self.hands.copy()
        new.hand_sizes = list(self.hand_sizes)
        new.cubes = list(self.cubes)
        new.button_available = list(self.button_available)
        new.passed = list(self.passed)
        new.played = self.played.copy()
        new.played_by = self.played_by.copy()
        new.passed_on = self.passed_on.copy()
        new.direction = self.direction
        new.last_count = self.last_count
        new.last_value = self.last_value
        new.last_player = self.last_player
        new.to_act = self.to_act
        new.rounds_completed = self.rounds_completed
        new.winners = list(self.winners)
        new.terminal = self.terminal
        new.returns = self.returns.copy()
        new.pending = self.pending
        return new
