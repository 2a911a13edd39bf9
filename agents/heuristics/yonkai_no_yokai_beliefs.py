"""What the other seats' choices say about their hands, if they play like the heuristic.

Every play and pass in Yonkai is made face up, but the hands behind them are not. Sampling the
unseen cards uniformly (``Game.determinize``) ignores that a seat which passed could not beat
the play, or that one which led a 2 held no lone 1. Against opponents known to play the
heuristic - a deterministic policy of hand and public state - each of their decisions rules out
every hand with which the heuristic would have decided otherwise.

So for each other seat: start from every hand it could have been dealt this round (all value
counts of the deal size), replay its decisions this round, and keep the hands with which
``choices`` (the heuristic, vectorized) agrees every time. Worlds are then drawn from the deals
of the unseen cards that give every seat a kept hand, weighted as a shuffled deal would
(multinomial). A seat that does not play like the heuristic may be misjudged - the risk of
any opponent model - but once none of its possible hands fits its choices, it is treated as
unmodelled: only its plays are used from there on (what it was seen to hold, not why). Every
world drawn is a legal one for the seat's view, whatever the others play.

It reads only what ``seat`` has seen, from the one record of it, the seat's information state
(``game.seen_events(seat)``, which the conformance suite holds to the observation): the round's
start, the seat's own hand as dealt, every play and pass, the Direction card's changes and the
tricks' ends. From these it rebuilds each decision's public moment (direction, last play, the
decider's button), the cards each seat has played and the hand sizes. A game that is not
recording rebuilds its record by replaying its seed and actions (``Game.seen_events``).
ISMCTS uses it with ``beliefs=heuristic``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from agents.heuristics.yonkai_no_yokai import choices, yonkai
from yokai_envs.core.information import CoreEvent, Event
from yokai_envs.yonkai_no_yokai.actions import PASS, play_of, play_of_action
from yokai_envs.yonkai_no_yokai.state import ASCENDING, VALUES, YonkaiEvent

if TYPE_CHECKING:
    from yokai_envs.yonkai_no_yokai.game import YonkaiGame

# Enumerate joint deals when the candidate hands of all but the largest set multiply to at most
# this; beyond it the sets are wide (little is known yet) and sampling from the plain deal with
# rejection accepts often.
ENUMERATION_LIMIT = 4_000_000
_CHUNK_PAIRS = 250_000  # pairs of hands per enumeration chunk: bounds the memory (~12 MB)
REJECTION_TRIES = 400
_LOG_FACTORIAL = np.array([math.lgamma(k + 1) for k in range(32)])
_KEY_BASE = 32 ** np.arange(VALUES, dtype=np.int64)  # a hand as one integer (counts < 32)


@cache
def dealt_hands(size: int, copies: int) -> np.ndarray:
    """Every hand of ``size`` cards with at most ``copies`` of each value (K x 6, int64)."""
    rows = []
    for cuts in itertools.combinations(range(size + VALUES - 1), VALUES - 1):
        bounds = (-1, *cuts, size + VALUES - 1)
        row = [bounds[i + 1] - bounds[i] - 1 for i in range(VALUES)]
        if max(row) <= copies:
            rows.append(row)
    hands = np.array(rows, dtype=np.int64)
    hands.setflags(write=False)
    return hands


class Decision(NamedTuple):
    """One decision of the round and the public moment it was made in."""

    seat: int
    direction: int
    last_count: int
    last_value: int
    button_available: bool
    action: int


class PublicRound(NamedTuple):
    """The current round as one seat has seen it (see ``public_round``)."""

    decisions: list[Decision]
    played_by: np.ndarray  # (num_players, 6) int64: cards of each value each seat played this round
    dealt: np.ndarray  # (6,) int64: the seat's own hand as dealt this round


def public_round(events: Sequence[Event], num_players: int) -> PublicRound:
    """The round under way, from a seat's events (``game.seen_events(seat)``): its decisions,
    each with the direction, the last play and the decider's button at that moment, rebuilt
    from the public events alone; the cards each seat played; the seat's own hand as dealt."""
    start = max((i for i, event in enumerate(events) if event[0] == YonkaiEvent.ROUND_STARTED), default=-1)
    decisions: list[Decision] = []
    played_by = np.zeros((num_players, VALUES), dtype=np.int64)
    dealt = np.zeros(VALUES, dtype=np.int64)
    direction, last_count, last_value = int(ASCENDING), 0, 0
    buttons = [True] * num_players
    for event in events[start + 1:]:
        kind = event[0]
        if kind == CoreEvent.ACTED:
            who, action = event[1], event[2]
            decisions.append(Decision(who, direction, last_count, last_value, buttons[who], action))
            if action == PASS:
                buttons[who] = True  # a spent button comes back on passing
                continue
            play, with_button = play_of_action(action)
            last_count, last_value = play_of(play)
            played_by[who, last_value - 1] += last_count
            if with_button:
                buttons[who] = False
        elif kind == YonkaiEvent.DIRECTION:
            direction = event[1]
        elif kind == YonkaiEvent.TRICK_ENDED:
            direction, last_count, last_value = int(ASCENDING), 0, 0
        elif kind == YonkaiEvent.DEALT:
            dealt[:] = event[1:]
    return PublicRound(decisions, played_by, dealt)


def possible_hands(game: YonkaiGame, seat: int) -> dict[int, np.ndarray]:
    """Other seat -> the hands (K x 6) it may hold now, given its decisions this round were the
    heuristic's and what ``seat`` itself holds."""
    seen = public_round(game.seen_events(seat), game.num_players)
    return _possible_hands(seen, game.num_players, game.copies, seat)


def _possible_hands(seen: PublicRound, num_players: int, copies: int, seat: int) -> dict[int, np.ndarray]:
    unseen = _unseen(seen, copies, seat)
    replay = _replayed(seen.decisions, num_players, copies)
    return {other: hands[(hands <= unseen).all(axis=1)]
            for other, hands in enumerate(replay.hands) if other != seat}


def _unseen(seen: PublicRound, copies: int, seat: int) -> np.ndarray:
    """Copies of each value ``seat`` cannot see: not in its hand, not played this round."""
    return copies - seen.played_by.sum(axis=0) - (seen.dealt - seen.played_by[seat])


class _Replay:
    """Every seat's possible hands after a prefix of a round's public decision log. It is a
    function of public facts only (the log, the seat count, the deck), so one replay serves
    every observer, and a longer log of the same round continues it instead of starting over."""

    def __init__(self, num_players: int, copies: int) -> None:
        self.key = (num_players, copies)
        self.start = dealt_hands(copies * VALUES // num_players, copies)
        self.log: list[Decision] = []
        self.hands = [self.start] * num_players
        self.played_by = np.zeros((num_players, VALUES), dtype=np.int64)
        self.modelled = [True] * num_players

    def extends_to(self, log: list[Decision], num_players: int, copies: int) -> bool:
        done = len(self.log)
        return self.key == (num_players, copies) and len(log) >= done and log[:done] == self.log

    def advance(self, log: list[Decision]) -> None:
        for decision in log[len(self.log):]:
            self._filter(*decision)
            self.log.append(decision)

    def _filter(self, who: int, direction: int, last_count: int, last_value: int, button_available: bool,
                action: int) -> None:
        hands = self.hands[who]
        if self.modelled[who]:
            agree = choices(hands, direction, last_count, last_value, button_available) == action
            if agree.any():
                hands = hands[agree]
            else:
                # Not the heuristic: from now on only what its plays prove (it held them).
                self.modelled[who] = False
                played = self.played_by[who]
                hands = self.start[(self.start >= played).all(axis=1)] - played
        if action != PASS:
            count, value = play_of(play_of_action(action)[0])
            hands = hands[hands[:, value - 1] >= count].copy()
            hands[:, value - 1] -= count
            self.played_by[who, value - 1] += count
        self.hands[who] = hands


_last_replay: _Replay | None = None  # a search asks once per decision, the round's log growing


def _replayed(log: list[Decision], num_players: int, copies: int) -> _Replay:
    global _last_replay
    if _last_replay is None or not _last_replay.extends_to(log, num_players, copies):
        _last_replay = _Replay(num_players, copies)
    _last_replay.advance(log)
    return _last_replay


def world_sampler(game: YonkaiGame, seat: int) -> Callable[[np.random.Generator], YonkaiGame]:
    """A function drawing full worlds consistent with ``seat``'s view and with the others
    having played the heuristic; the posterior is computed once, each call is cheap."""
    seen = public_round(game.seen_events(seat), game.num_players)
    unseen = _unseen(seen, game.copies, seat)
    sets = _possible_hands(seen, game.num_players, game.copies, seat)
    others = list(sets)
    dealt = game.copies * VALUES // game.num_players
    sizes = (dealt - seen.played_by.sum(axis=1)).tolist()
    draw = _joint_enumeration(sets, unseen) or _rejection(sets, unseen, sizes)

    def sample(rng: np.random.Generator) -> YonkaiGame:
        world = yonkai(game.determinize(seat, rng))  # re-seeded chance, and a plain deal to fall back on
        hands = draw(rng)
        if hands is not None:
            for other, hand in zip(others, hands):
                world.hands[other] = hand
            world.invalidate_mask()  # the hands were edited: the seat to act may be one of them
        return world

    return sample


Draw = Callable[[np.random.Generator], "list[np.ndarray] | None"]  # hands of the others, in seat order


def _log_weight(hands: np.ndarray) -> np.ndarray:
    # A shuffled deal makes a split of the unseen cards likely in proportion to 1 / prod(counts!).
    return -_LOG_FACTORIAL[hands].sum(axis=-1)


def _joint_enumeration(sets: dict[int, np.ndarray], unseen: np.ndarray) -> Draw | None:
    """Every joint deal, when the sets are small enough: the smaller sets are enumerated (in
    chunks), the seat with the largest set takes what is left, and the deal is kept if that hand
    is one of its own."""
    others = list(sets)
    largest = max(others, key=lambda s: len(sets[s]))
    enumerated = [s for s in others if s != largest]
    if not all(len(sets[s]) for s in others) or math.prod(len(sets[s]) for s in enumerated) > ENUMERATION_LIMIT:
        return None  # a misjudged seat with no hand left, or too many deals to list
    allowed = np.sort(sets[largest] @ _KEY_BASE)
    first, *second = [sets[s] for s in enumerated]
    tail = second[0] if second else np.zeros((1, VALUES), dtype=np.int64)  # 3 players: one to enumerate
    picks_first, picks_tail, rests = [], [], []
    chunk = max(1, _CHUNK_PAIRS // len(tail))
    for begin in range(0, len(first), chunk):
        rest = unseen - first[begin:begin + chunk, None, :] - tail[None, :, :]
        keys = rest @ _KEY_BASE
        found = np.searchsorted(allowed, keys).clip(max=allowed.size - 1)
        keep = (rest >= 0).all(axis=2) & (allowed[found] == keys)
        rows, cols = np.nonzero(keep)
        picks_first.append(begin + rows)
        picks_tail.append(cols)
        rests.append(rest[rows, cols])
    pick_first, pick_tail, rest = np.concatenate(picks_first), np.concatenate(picks_tail), np.concatenate(rests)
    if pick_first.size == 0:
        return None  # nothing fits (a seat left the model mid-way): sample by rejection instead
    log_weight = _log_weight(first[pick_first]) + _log_weight(tail[pick_tail]) + _log_weight(rest)
    probability = np.exp(log_weight - log_weight.max())
    probability /= probability.sum()

    def draw(rng: np.random.Generator) -> list[np.ndarray]:
        row = int(rng.choice(probability.size, p=probability))
        chosen = {largest: rest[row], enumerated[0]: first[pick_first[row]]}
        if second:
            chosen[enumerated[1]] = tail[pick_tail[row]]
        return [chosen[s] for s in others]

    return draw


def _rejection(sets: dict[int, np.ndarray], unseen: np.ndarray, hand_sizes: list[int]) -> Draw:
    """Deal the unseen cards at random until every seat gets a hand it may hold; the deal is
    exact, and while little is known almost every deal is accepted. Gives up (None: the plain
    deal is used) after REJECTION_TRIES."""
    others = list(sets)
    allowed = [set((sets[s] @ _KEY_BASE).tolist()) for s in others]
    pool = np.repeat(np.arange(VALUES), unseen)
    ends = np.cumsum([hand_sizes[s] for s in others])

    def draw(rng: np.random.Generator) -> list[np.ndarray] | None:
        for _ in range(REJECTION_TRIES):
            rng.shuffle(pool)
            hands = [np.bincount(part, minlength=VALUES) for part in np.split(pool, ends[:-1])]
            if all(int(hand @ _KEY_BASE) in keys for hand, keys in zip(hands, allowed)):
                return hands
        return None

    return draw
