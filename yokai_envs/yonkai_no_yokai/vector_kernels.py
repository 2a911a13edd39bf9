"""The compiled loops behind :class:`~yokai_envs.yonkai_no_yokai.vector.VectorGame` (numba).

Each kernel walks the batch of games with a plain loop that numba compiles; a game's state is
one row of each array (struct of arrays, see ``vector.py``). The transitions are those of
``rules.py`` written once more over array rows: a differential test
(``tests/yonkai_no_yokai/test_vector.py``) plays both engines on the same deals and holds every
mask, observation, reward and outcome equal.

Chance: every game carries its own splitmix64 generator (one uint64), so a game's deals depend
on its seed alone, not on the batch size or on the other games. This module needs numba; it is
imported by ``vector.py`` only once numba is known to be installed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

VALUES = 6
NUM_PLAYS = 24
NUM_ACTIONS = 49
FIRST_BUTTON_PLAY = 25
STARTING_CUBES = 4

# status of a game
PLAYING = 0
TERMINAL = 1
TRUNCATED = 2

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _rand_below(rng: np.ndarray, i: int, n: int) -> int:
    """A uniform int in [0, n) from game ``i``'s splitmix64 stream (bias below 1e-14 for the
    small n used here: n <= 60)."""
    z = rng[i] + _GOLDEN
    rng[i] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return int((z >> np.uint64(11)) % np.uint64(n))


@njit(cache=True)
def _start_trick(i, leader, passed, direction, last_count, last_value, last_player, to_act):
    passed[i, :] = False
    direction[i] = 0
    last_count[i] = 0
    last_value[i] = 0
    last_player[i] = -1
    to_act[i] = leader


@njit(cache=True)
def _deal(i, copies, hands, sizes, button, played_by, passed_on, rng):
    """Deal the whole deck out: card by card from what is left (the same law as shuffling the
    deck and cutting it into equal hands), the last seat taking the rest."""
    players = hands.shape[1]
    per_seat = VALUES * copies // players
    left = np.full(VALUES, copies, dtype=np.int64)
    total = VALUES * copies
    hands[i, :, :] = 0
    for seat in range(players - 1):
        for _ in range(per_seat):
            x = _rand_below(rng, i, total)
            v = 0
            while x >= left[v]:
                x -= left[v]
                v += 1
            left[v] -= 1
            total -= 1
            hands[i, seat, v] += 1
    for v in range(VALUES):
        hands[i, players - 1, v] = left[v]
    sizes[i, :] = per_seat
    button[i, :] = True
    played_by[i, :, :] = 0
    passed_on[i, :, :] = False


@njit(cache=True)
def _new_game(i, copies, hands, sizes, cubes, button, passed, played_by, passed_on, direction,
              last_count, last_value, last_player, to_act, rounds, status, steps, returns, rng):
    # one place for a fresh game: new_games and step's autoreset must deal alike
    cubes[i, :] = STARTING_CUBES
    returns[i, :] = 0
    rounds[i] = 0
    status[i] = PLAYING
    steps[i] = 0
    _deal(i, copies, hands, sizes, button, played_by, passed_on, rng)
    leader = _rand_below(rng, i, hands.shape[1])
    _start_trick(i, leader, passed, direction, last_count, last_value, last_player, to_act)


@njit(cache=True)
def new_games(games, copies, hands, sizes, cubes, button, passed, played_by, passed_on, direction,
              last_count, last_value, last_player, to_act, rounds, status, steps, returns, rng):
    """Start a new game in every slot ``i`` with ``games[i]``: deal, then draw the first leader."""
    for i in range(games.shape[0]):
        if games[i]:
            _new_game(i, copies, hands, sizes, cubes, button, passed, played_by, passed_on, direction,
                      last_count, last_value, last_player, to_act, rounds, status, steps, returns, rng)


@njit(cache=True, inline="always")
def _is_legal(i, a, hands, button, direction, last_count, last_value, to_act, free, button_only):
    if a < 0 or a >= NUM_ACTIONS:
        return False
    lc = last_count[i]
    if a == 0:
        return lc != 0  # the leader cannot pass
    with_button = a >= FIRST_BUTTON_PLAY
    play = a - FIRST_BUTTON_PLAY if with_button else a - 1
    count = play // VALUES + 1
    value = play % VALUES
    seat = to_act[i]
    if hands[i, seat, value] < count:
        return False
    if lc == 0:
        return count == 1 and not with_button
    if with_button:
        return button[i, seat] and button_only[direction[i], lc, last_value[i], play]
    return free[direction[i], lc, last_value[i], play]


@njit(cache=True)
def masks(out, hands, button, direction, last_count, last_value, to_act, status, free, button_only):
    """``out[i]``: the legal actions of game ``i``'s seat to act (all False once it is over)."""
    for i in range(out.shape[0]):
        out[i, :] = False
        if status[i] != PLAYING:
            continue
        seat = to_act[i]
        lc = last_count[i]
        d = direction[i]
        lv = last_value[i]
        if lc == 0:
            for v in range(VALUES):
                out[i, 1 + v] = hands[i, seat, v] >= 1
            continue
        out[i, 0] = True
        has_button = button[i, seat]
        for play in range(NUM_PLAYS):
            if hands[i, seat, play % VALUES] >= play // VALUES + 1:
                out[i, 1 + play] = free[d, lc, lv, play]
                out[i, FIRST_BUTTON_PLAY + play] = has_button and button_only[d, lc, lv, play]


@njit(cache=True)
def random_actions(out, active, hands, button, direction, last_count, last_value, to_act, status, free,
                   button_only, rng):
    """``out[i]``: a uniformly drawn legal action of every active game still playing (else -1)."""
    legal = np.empty(NUM_ACTIONS, dtype=np.int64)
    for i in range(out.shape[0]):
        out[i] = -1
        if not active[i] or status[i] != PLAYING:
            continue
        seat = to_act[i]
        lc = last_count[i]
        d = direction[i]
        lv = last_value[i]
        k = 0
        if lc == 0:
            for v in range(VALUES):
                if hands[i, seat, v] >= 1:
                    legal[k] = 1 + v
                    k += 1
        else:
            legal[0] = 0
            k = 1
            has_button = button[i, seat]
            for play in range(NUM_PLAYS):
                if hands[i, seat, play % VALUES] >= play // VALUES + 1:
                    if free[d, lc, lv, play]:
                        legal[k] = 1 + play
                        k += 1
                    elif has_button and button_only[d, lc, lv, play]:
                        legal[k] = FIRST_BUTTON_PLAY + play
                        k += 1
        out[i] = legal[_rand_below(rng, i, k)]


@njit(cache=True)
def first_illegal(actions, active, hands, button, direction, last_count, last_value, to_act, status, free,
                  button_only):
    """The first active game whose action is illegal (or that is over), else -1: checked before
    anything moves, so a bad batch changes nothing."""
    for i in range(actions.shape[0]):
        if not active[i]:
            continue
        if status[i] != PLAYING:
            return i
        if not _is_legal(i, actions[i], hands, button, direction, last_count, last_value, to_act, free,
                         button_only):
            return i
    return -1


@njit(cache=True, inline="always")
def _next_active(i, seat, passed):
    players = passed.shape[1]
    nxt = (seat + 1) % players
    while passed[i, nxt]:
        nxt = (nxt + 1) % players
    return nxt


@njit(cache=True)
def step(actions, active, autoreset, copies, rewards_lives, rounds_cap, max_steps,
         hands, sizes, cubes, button, passed, played_by, passed_on, direction, last_count, last_value,
         last_player, to_act, rounds, status, steps, returns, rng,
         free, button_only, after_free, after_button, open_plays,
         rewards, terminated, truncated, winners):
    """Apply ``actions[i]`` (legal: see ``first_illegal``) to every active game ``i``.

    Writes each game's reward per seat (the change of its return), whether it ended
    (``terminated``) or hit ``max_steps`` (``truncated``), and at an end the winners. With
    ``autoreset`` a finished game is dealt anew at once (its outputs still tell of the game
    that ended); otherwise it stays over until ``new_games``.
    """
    players = hands.shape[1]
    before = np.zeros(players, dtype=np.int64)
    for i in range(actions.shape[0]):
        terminated[i] = False
        truncated[i] = False
        rewards[i, :] = 0.0
        if not active[i]:
            continue
        for s in range(players):
            before[s] = returns[i, s]
        a = actions[i]
        seat = to_act[i]
        lc = last_count[i]
        d = direction[i]
        lv = last_value[i]
        if a == 0:
            # a pass: what was open to the seat is on record; out of the trick; button back
            b = 1 if button[i, seat] else 0
            for play in range(NUM_PLAYS):
                if open_plays[b, d, lc, lv, play]:
                    passed_on[i, seat, play] = True
            passed[i, seat] = True
            button[i, seat] = True
            still_in = 0
            for s in range(players):
                if not passed[i, s]:
                    still_in += 1
            if still_in == 1:
                _start_trick(i, last_player[i], passed, direction, last_count, last_value, last_player, to_act)
            else:
                to_act[i] = _next_active(i, seat, passed)
        else:
            with_button = a >= FIRST_BUTTON_PLAY
            play = a - FIRST_BUTTON_PLAY if with_button else a - 1
            count = play // VALUES + 1
            value = play % VALUES
            if lc == 0:
                new_direction = 0
            elif with_button:
                new_direction = after_button[d, lc, lv, play]
                button[i, seat] = False
            else:
                new_direction = after_free[d, lc, lv, play]
            hands[i, seat, value] -= count
            sizes[i, seat] -= count
            played_by[i, seat, value] += count
            direction[i] = new_direction
            last_count[i] = count
            last_value[i] = value + 1
            last_player[i] = seat
            if count == 1:
                passed[i, :] = False  # back on the 1st floor: everyone who passed may rejoin
            if sizes[i, seat] == 0:
                # the round ends: the seat(s) holding the most lose 2, the others 1, clamped
                most = 0
                for s in range(players):
                    if s != seat and sizes[i, s] > most:
                        most = sizes[i, s]
                game_over = False
                for s in range(players):
                    if s == seat:
                        continue
                    loss = 2 if sizes[i, s] == most else 1
                    if loss > cubes[i, s]:
                        game_over = True
                    actual = min(loss, cubes[i, s])
                    cubes[i, s] -= actual
                    if rewards_lives:
                        returns[i, s] -= actual
                rounds[i] += 1
                if rounds_cap > 0 and rounds[i] >= rounds_cap:
                    game_over = True
                if game_over:
                    status[i] = TERMINAL
                    best = 0
                    for s in range(players):
                        best = max(best, cubes[i, s])
                    for s in range(players):
                        winners[i, s] = cubes[i, s] == best
                        if not rewards_lives:
                            returns[i, s] = 1 if cubes[i, s] == best else -1
                else:
                    _deal(i, copies, hands, sizes, button, played_by, passed_on, rng)
                    _start_trick(i, seat, passed, direction, last_count, last_value, last_player, to_act)
            else:
                to_act[i] = _next_active(i, seat, passed)
        steps[i] += 1
        if status[i] == PLAYING and steps[i] >= max_steps:
            status[i] = TRUNCATED
        for s in range(players):
            rewards[i, s] = returns[i, s] - before[s]
        if status[i] != PLAYING:
            terminated[i] = status[i] == TERMINAL
            truncated[i] = status[i] == TRUNCATED
            if status[i] == TRUNCATED:
                winners[i, :] = False
            if autoreset:
                _new_game(i, copies, hands, sizes, cubes, button, passed, played_by, passed_on, direction,
                          last_count, last_value, last_player, to_act, rounds, status, steps, returns, rng)


@njit(cache=True, inline="always")
def _write_public(row, shift, i, seat, sizes, cubes, button, passed, played_by, passed_on, direction,
                  last_count, last_value, last_player, to_act, rounds, status, scales):
    """The public blocks of ``seat``'s observation (seats relative to it) into ``row`` at the
    layout offsets plus ``shift``: the order and scaling of ``observation.Observer.observe``."""
    players = sizes.shape[1]
    size_scale, cube_scale, copies_scale, round_scale = scales[0], scales[1], scales[2], scales[3]
    at = shift + VALUES
    for k in range(players):
        s = (seat + k) % players
        row[at + k] = np.float32(sizes[i, s]) * size_scale
        row[at + players + k] = np.float32(cubes[i, s]) * cube_scale
        row[at + 2 * players + k] = 1.0 if button[i, s] else 0.0
        row[at + 3 * players + k] = 1.0 if passed[i, s] else 0.0
        row[at + 4 * players + k] = 0.0
    if status[i] == PLAYING:
        row[at + 4 * players + (to_act[i] - seat) % players] = 1.0
    at += 5 * players
    row[at] = 1.0 if direction[i] == 1 else 0.0
    lc = last_count[i]
    row[at + 1] = 1.0 if lc == 0 else 0.0
    at += 2
    for k in range(4 + VALUES + players):
        row[at + k] = 0.0
    if lc != 0:
        row[at + lc - 1] = 1.0
        row[at + 4 + last_value[i] - 1] = 1.0
        row[at + 4 + VALUES + (last_player[i] - seat) % players] = 1.0
    at += 4 + VALUES + players
    for k in range(players):
        s = (seat + k) % players
        for v in range(VALUES):
            row[at + k * VALUES + v] = np.float32(played_by[i, s, v]) * copies_scale
    at += players * VALUES
    for k in range(players):
        s = (seat + k) % players
        for p in range(NUM_PLAYS):
            row[at + k * NUM_PLAYS + p] = 1.0 if passed_on[i, s, p] else 0.0
    at += players * NUM_PLAYS
    row[at] = np.float32(rounds[i]) * round_scale


@njit(cache=True)
def observe(out, games, seats, hands, sizes, cubes, button, passed, played_by, passed_on, direction,
            last_count, last_value, last_player, to_act, rounds, status, scales):
    """``out[j]``: the observation of seat ``seats[j]`` of game ``games[j]`` (``observation.Observer.observe``)."""
    copies_scale = scales[2]
    for j in range(out.shape[0]):
        i = games[j]
        seat = seats[j]
        row = out[j]
        for v in range(VALUES):
            row[v] = np.float32(hands[i, seat, v]) * copies_scale
        _write_public(row, 0, i, seat, sizes, cubes, button, passed, played_by, passed_on, direction,
                      last_count, last_value, last_player, to_act, rounds, status, scales)


@njit(cache=True)
def state_tensors(out, hands, sizes, cubes, button, passed, played_by, passed_on, direction,
                  last_count, last_value, last_player, to_act, rounds, status, scales):
    """``out[i]``: the state tensor of game ``i`` (``observation.Observer.state_tensor``): every hand,
    then seat 0's public blocks."""
    players = hands.shape[1]
    copies_scale = scales[2]
    shift = players * VALUES - VALUES
    for i in range(out.shape[0]):
        row = out[i]
        for s in range(players):
            for v in range(VALUES):
                row[s * VALUES + v] = np.float32(hands[i, s, v]) * copies_scale
        _write_public(row, shift, i, 0, sizes, cubes, button, passed, played_by, passed_on, direction,
                      last_count, last_value, last_player, to_act, rounds, status, scales)
