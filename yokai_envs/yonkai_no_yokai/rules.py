"""The rules of Yonkai no Yokai: the climbing move tables and every transition of the table.

Moves after the last play ``(c, v)`` (rulebook, "Game Play"):
- ascending: the same count of a higher value, or one more card of a lower value;
- descending: the same count of a lower value, or one card fewer of a higher value.
The direction may flip for free after a set of four while ascending and after a single while
descending; the Elevator Button flips it anywhere else. Playing 6666 while ascending or a
single 1 while descending flips it automatically. Rulings on what the rulebook leaves open are
in RULES_NOTES.md beside this file.

The functions change a :class:`~yokai_envs.yonkai_no_yokai.state.Table` in place; chance comes
from the generator passed in (the game's own). What each seat sees besides the decisions is
told to ``see(seat | None, kind, *args)`` (``Game.see``: free when not recording) where it
happens: the deal (public round start, each hand to its owner alone), a change of the Direction
card, the end of a trick, of a round (cubes lost) and of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from yokai_envs.core.masks import mask_of
from yokai_envs.yonkai_no_yokai.actions import (
    DECODED_PLAYS,
    FIRST_BUTTON_PLAY,
    FIRST_PLAIN_PLAY,
    NUM_ACTIONS,
    PASS,
    play_index,
    play_of,
)
from yokai_envs.yonkai_no_yokai.state import (
    ASCENDING,
    DESCENDING,
    DIRECTIONS,
    MAX_COUNT,
    NUM_PLAYS,
    STARTING_CUBES,
    VALUES,
    Direction,
    Setup,
    Table,
    YonkaiEvent,
)

See = Callable[..., None]  # Game.see: (seat or None, kind, *args)


# ---------------------------------------------------------------------------- the move tables
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


# ---------------------------------------------------------------------------- rounds and tricks
def start_game(table: Table, setup: Setup, rng: np.random.Generator, see: See) -> None:
    """Deal the first round; its leader comes from the seed."""
    deal(table, setup, rng)
    table.to_act = int(rng.integers(setup.num_players))
    announce_round(table, see)


def deal(table: Table, setup: Setup, rng: np.random.Generator) -> None:
    """Shuffle the whole deck out to the seats and start the round's first trick, led by
    ``table.to_act``; every button comes back."""
    n = setup.num_players
    deck = np.repeat(np.arange(VALUES, dtype=np.int8), setup.copies)
    rng.shuffle(deck)
    per_seat = deck.size // n
    for seat in range(n):
        table.hands[seat] = np.bincount(deck[seat * per_seat:(seat + 1) * per_seat], minlength=VALUES)
        table.hand_sizes[seat] = per_seat
    table.played[:] = 0
    table.played_by[:] = 0
    table.passed_on[:] = False
    table.button_available = [True] * n
    start_trick(table, table.to_act)


def announce_round(table: Table, see: See) -> None:
    """The round's start, to everyone, and each hand to its owner (once the leader is known)."""
    see(None, YonkaiEvent.ROUND_STARTED, table.rounds_completed + 1, table.to_act)
    for seat in range(table.num_players):
        see(seat, YonkaiEvent.DEALT, *table.hands[seat].tolist())


def start_trick(table: Table, leader: int) -> None:
    table.passed = [False] * table.num_players
    table.direction = ASCENDING
    table.last_count = 0
    table.last_value = 0
    table.last_player = -1  # no play yet this trick
    table.to_act = leader


def legal_actions(table: Table, tables: MoveTables) -> list[int]:
    """The legal actions of ``table.to_act``, ascending (the game is not over): at a lead any
    single held; else a pass, the plays open after the last one that the hand holds, and while
    the seat has its button the plays only the button opens."""
    seat = table.to_act
    hand = table.hands[seat].tolist()
    if table.last_count == 0:
        return [a for a, v, c in tables.lead_moves if hand[v] >= c]  # the leader cannot pass
    key = (table.direction, table.last_count, table.last_value)
    out = [PASS]
    out += [a for a, v, c in tables.free_moves[key] if hand[v] >= c]
    if table.button_available[seat]:
        out += [a for a, v, c in tables.button_moves[key] if hand[v] >= c]
    return out


def legal_mask(table: Table, tables: MoveTables) -> np.ndarray:
    """A fresh mask over the action table for ``table.to_act``: :func:`legal_actions` set."""
    return mask_of(legal_actions(table, tables), NUM_ACTIONS)


def apply(table: Table, action: int, setup: Setup, tables: MoveTables, rng: np.random.Generator,
          see: See) -> None:
    """Apply a legal action of ``table.to_act``."""
    seat = table.to_act
    if action == PASS:
        _pass(table, seat, tables, see)
        return
    play, with_button, count, value = DECODED_PLAYS[action]
    if table.last_count == 0:
        direction = ASCENDING
    else:
        key = (table.direction, table.last_count, table.last_value, play)
        after = tables.direction_after_button if with_button else tables.direction_after_free
        direction = DIRECTIONS[after[key]]
    if with_button:
        table.button_available[seat] = False
    table.hands[seat, value - 1] -= count
    table.hand_sizes[seat] -= count
    table.played[value - 1] += count
    table.played_by[seat, value - 1] += count
    if direction != table.direction:
        see(None, YonkaiEvent.DIRECTION, direction)
    table.direction = direction
    table.last_count, table.last_value, table.last_player = count, value, seat
    if count == 1:
        # The elevator is back on the 1st floor: everyone who passed may rejoin.
        table.passed = [False] * table.num_players
    if table.hand_sizes[seat] == 0:
        _end_round(table, seat, setup, rng, see)
        return
    table.to_act = _next_active(table, seat)


def _pass(table: Table, seat: int, tables: MoveTables, see: See) -> None:
    key = (int(table.button_available[seat]), table.direction, table.last_count, table.last_value)
    table.passed_on[seat] |= tables.open_plays[key]
    table.passed[seat] = True
    table.button_available[seat] = True  # a spent button comes back on passing
    if table.passed.count(False) == 1:
        see(None, YonkaiEvent.TRICK_ENDED, table.last_player)
        start_trick(table, table.last_player)
    else:
        table.to_act = _next_active(table, seat)


def _next_active(table: Table, seat: int) -> int:
    n = table.num_players
    nxt = (seat + 1) % n
    while table.passed[nxt]:
        nxt = (nxt + 1) % n
    return nxt


def _end_round(table: Table, emptied: int, setup: Setup, rng: np.random.Generator, see: See) -> None:
    see(None, YonkaiEvent.ROUND_ENDED, emptied)
    others = [s for s in range(setup.num_players) if s != emptied]
    most = max(table.hand_sizes[s] for s in others)
    game_over = False
    for s in others:
        loss = 2 if table.hand_sizes[s] == most else 1
        if loss > table.cubes[s]:
            game_over = True  # a seat must lose more cubes than it has
        actual = min(loss, table.cubes[s])
        table.cubes[s] -= actual
        see(None, YonkaiEvent.CUBES_LOST, s, actual)
        if setup.rewards_lives:
            table.returns[s] -= actual
    table.rounds_completed += 1
    if setup.rounds_per_game is not None and table.rounds_completed >= setup.rounds_per_game:
        game_over = True
    if game_over:
        _end_game(table, setup)
        see(None, YonkaiEvent.GAME_ENDED)
        return
    table.to_act = emptied
    deal(table, setup, rng)
    announce_round(table, see)


def _end_game(table: Table, setup: Setup) -> None:
    table.terminal = True
    best = max(table.cubes)
    table.winners = [s for s in range(setup.num_players) if table.cubes[s] == best]
    if not setup.rewards_lives:
        for s in range(setup.num_players):
            table.returns[s] = 1.0 if s in table.winners else -1.0


# ---------------------------------------------------------------------------- search support
def resample_hidden(table: Table, seat: int, rng: np.random.Generator) -> None:
    """Redeal the other hands' union among them: only they are hidden from ``seat``, and their
    sizes are public."""
    others = [s for s in range(table.num_players) if s != seat]
    pool = np.repeat(np.arange(VALUES, dtype=np.int8), table.hands[others].sum(axis=0))
    rng.shuffle(pool)
    start = 0
    for s in others:
        size = table.hand_sizes[s]
        table.hands[s] = np.bincount(pool[start:start + size], minlength=VALUES)
        start += size


def check_invariants(table: Table, setup: Setup) -> None:
    hands = table.hands
    assert (hands >= 0).all(), "negative hand count"
    assert list(hands.sum(axis=1)) == table.hand_sizes, "hand sizes disagree with hands"
    total = hands.sum(axis=0) + table.played
    assert (total == setup.copies).all(), f"cards not conserved: {total} != {setup.copies} each"
    assert all(0 <= c <= STARTING_CUBES for c in table.cubes), f"cubes out of range: {table.cubes}"
    assert 1 <= table.last_count <= MAX_COUNT or table.last_count == 0
    if not table.terminal:
        assert all(size > 0 for size in table.hand_sizes), "a round continued with an empty hand"
        assert not table.passed[table.to_act], "a passed seat was asked to act"
        assert table.passed.count(False) >= 2 or table.last_count == 0, "a trick outlived its passes"
    if table.last_count == 0:
        assert not any(table.passed), "passes survived into a new trick"
