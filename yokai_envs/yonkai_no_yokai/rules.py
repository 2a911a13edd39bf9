"""The rules of Yonkai no Yokai: every transition of the table, as functions over ``(state, ctx)``.

Which plays may follow which is in the move tables (``moves.py``, ``state.tables``); the rulings
on what the rulebook leaves open are in RULES_NOTES.md beside this file.

The functions change a :class:`~yokai_envs.yonkai_no_yokai.state.State` in place. ``ctx`` is the
game's :class:`~yokai_envs.core.context.Context`: chance comes from its generator (``ctx.rng``),
and what each seat sees besides the decisions is told to ``ctx.see(seat | None, kind, *args)``
(free when not recording) where it happens: the deal (public round start, each hand to its
owner alone), a change of the Direction card, the end of a trick, of a round (cubes lost) and
of the game. After every change the rules list the pending decision's legal actions in
``state.pending`` (:func:`list_pending`), which the core's ``legal_actions`` reads.
"""

from __future__ import annotations

import numpy as np

from yokai_envs.core.context import Context
from yokai_envs.yonkai_no_yokai.actions import DECODED_PLAYS, PASS
from yokai_envs.yonkai_no_yokai.state import (
    ASCENDING,
    DIRECTIONS,
    MAX_COUNT,
    STARTING_CUBES,
    VALUES,
    State,
    YonkaiEvent,
)


# ---------------------------------------------------------------------------- rounds and tricks
def start_game(state: State, ctx: Context) -> None:
    """Deal the first round; its leader comes from the seed."""
    deal(state, ctx.rng)
    state.to_act = int(ctx.rng.integers(state.setup.num_players))
    announce_round(state, ctx)
    list_pending(state)


def deal(state: State, rng: np.random.Generator) -> None:
    """Shuffle the whole deck out to the seats and start the round's first trick, led by
    ``state.to_act``; every button comes back."""
    setup = state.setup
    n = setup.num_players
    deck = np.repeat(np.arange(VALUES, dtype=np.int8), setup.copies)
    rng.shuffle(deck)
    per_seat = deck.size // n
    for seat in range(n):
        state.hands[seat] = np.bincount(deck[seat * per_seat:(seat + 1) * per_seat], minlength=VALUES)
        state.hand_sizes[seat] = per_seat
    state.played[:] = 0
    state.played_by[:] = 0
    state.passed_on[:] = False
    state.button_available = [True] * n
    start_trick(state, state.to_act)


def announce_round(state: State, ctx: Context) -> None:
    """The round's start, to everyone, and each hand to its owner (once the leader is known)."""
    ctx.see(None, YonkaiEvent.ROUND_STARTED, state.rounds_completed + 1, state.to_act)
    for seat in range(state.num_players):
        ctx.see(seat, YonkaiEvent.DEALT, *state.hands[seat].tolist())


def start_trick(state: State, leader: int) -> None:
    state.passed = [False] * state.num_players
    state.direction = ASCENDING
    state.last_count = 0
    state.last_value = 0
    state.last_player = -1  # no play yet this trick
    state.to_act = leader


def legal_actions(state: State) -> list[int]:
    """The legal actions of ``state.to_act``, ascending (the game is not over): at a lead any
    single held; else a pass, the plays open after the last one that the hand holds, and while
    the seat has its button the plays only the button opens."""
    seat = state.to_act
    hand = state.hands[seat].tolist()
    tables = state.tables
    if state.last_count == 0:
        return [a for a, v, c in tables.lead_moves if hand[v] >= c]  # the leader cannot pass
    key = (state.direction, state.last_count, state.last_value)
    out = [PASS]
    out += [a for a, v, c in tables.free_moves[key] if hand[v] >= c]
    if state.button_available[seat]:
        out += [a for a, v, c in tables.button_moves[key] if hand[v] >= c]
    return out


def list_pending(state: State) -> None:
    """List the pending decision's legal actions in ``state.pending`` (None once the game has
    ended): after every change of the state, and after an edit by hand (``Game.invalidate_mask``)."""
    state.pending = None if state.terminal else legal_actions(state)


def apply(state: State, ctx: Context, action: int) -> None:
    """Apply a legal action of ``state.to_act``, then list the next decision's legal actions."""
    seat = state.to_act
    if action == PASS:
        _pass(state, ctx, seat)
    else:
        play, with_button, count, value = DECODED_PLAYS[action]
        if state.last_count == 0:
            direction = ASCENDING
        else:
            tables = state.tables
            key = (state.direction, state.last_count, state.last_value, play)
            after = tables.direction_after_button if with_button else tables.direction_after_free
            direction = DIRECTIONS[after[key]]
        if with_button:
            state.button_available[seat] = False
        state.hands[seat, value - 1] -= count
        state.hand_sizes[seat] -= count
        state.played[value - 1] += count
        state.played_by[seat, value - 1] += count
        if direction != state.direction:
            ctx.see(None, YonkaiEvent.DIRECTION, direction)
        state.direction = direction
        state.last_count, state.last_value, state.last_player = count, value, seat
        if count == 1:
            # The elevator is back on the 1st floor: everyone who passed may rejoin.
            state.passed = [False] * state.num_players
        if state.hand_sizes[seat] == 0:
            _end_round(state, ctx, seat)
        else:
            state.to_act = _next_active(state, seat)
    state.pending = None if state.terminal else legal_actions(state)  # list_pending, one call fewer


def _pass(state: State, ctx: Context, seat: int) -> None:
    key = (int(state.button_available[seat]), state.direction, state.last_count, state.last_value)
    state.passed_on[seat] |= state.tables.open_plays[key]
    state.passed[seat] = True
    state.button_available[seat] = True  # a spent button comes back on passing
    if state.passed.count(False) == 1:
        ctx.see(None, YonkaiEvent.TRICK_ENDED, state.last_player)
        start_trick(state, state.last_player)
    else:
        state.to_act = _next_active(state, seat)


def _next_active(state: State, seat: int) -> int:
    n = state.num_players
    nxt = (seat + 1) % n
    while state.passed[nxt]:
        nxt = (nxt + 1) % n
    return nxt


def _end_round(state: State, ctx: Context, emptied: int) -> None:
    setup = state.setup
    ctx.see(None, YonkaiEvent.ROUND_ENDED, emptied)
    others = [s for s in range(setup.num_players) if s != emptied]
    most = max(state.hand_sizes[s] for s in others)
    game_over = False
    for s in others:
        loss = 2 if state.hand_sizes[s] == most else 1
        if loss > state.cubes[s]:
            game_over = True  # a seat must lose more cubes than it has
        actual = min(loss, state.cubes[s])
        state.cubes[s] -= actual
        ctx.see(None, YonkaiEvent.CUBES_LOST, s, actual)
        if setup.rewards_lives:
            state.returns[s] -= actual
    state.rounds_completed += 1
    if setup.rounds_per_game is not None and state.rounds_completed >= setup.rounds_per_game:
        game_over = True
    if game_over:
        _end_game(state)
        ctx.see(None, YonkaiEvent.GAME_ENDED)
        return
    state.to_act = emptied
    deal(state, ctx.rng)
    announce_round(state, ctx)


def _end_game(state: State) -> None:
    setup = state.setup
    state.terminal = True
    best = max(state.cubes)
    state.winners = [s for s in range(setup.num_players) if state.cubes[s] == best]
    if not setup.rewards_lives:
        for s in range(setup.num_players):
            state.returns[s] = 1.0 if s in state.winners else -1.0


# ---------------------------------------------------------------------------- search support
def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> None:
    """Redeal the other hands' union among them: only they are hidden from ``seat``, and their
    sizes are public. The seat to act may be one of them: its legal actions are listed anew."""
    others = [s for s in range(state.num_players) if s != seat]
    pool = np.repeat(np.arange(VALUES, dtype=np.int8), state.hands[others].sum(axis=0))
    rng.shuffle(pool)
    start = 0
    for s in others:
        size = state.hand_sizes[s]
        state.hands[s] = np.bincount(pool[start:start + size], minlength=VALUES)
        start += size
    list_pending(state)


def check_invariants(state: State) -> None:
    hands = state.hands
    copies = state.setup.copies
    assert (hands >= 0).all(), "negative hand count"
    assert list(hands.sum(axis=1)) == state.hand_sizes, "hand sizes disagree with hands"
    total = hands.sum(axis=0) + state.played
    assert (total == copies).all(), f"cards not conserved: {total} != {copies} each"
    assert all(0 <= c <= STARTING_CUBES for c in state.cubes), f"cubes out of range: {state.cubes}"
    assert 1 <= state.last_count <= MAX_COUNT or state.last_count == 0
    if not state.terminal:
        assert all(size > 0 for size in state.hand_sizes), "a round continued with an empty hand"
        assert not state.passed[state.to_act], "a passed seat was asked to act"
        assert state.passed.count(False) >= 2 or state.last_count == 0, "a trick outlived its passes"
    if state.last_count == 0:
        assert not any(state.passed), "passes survived into a new trick"
    expected = None if state.terminal else legal_actions(state)
    assert state.pending == expected, f"listed legal actions {state.pending} are not the state's {expected}"
