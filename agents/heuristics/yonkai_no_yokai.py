"""Yonkai no Yokai heuristic: what a sensible casual player does.

It reads only its own observation and the mask (own hand, whether the trick is at its lead),
so it needs no game view. The plan is to run out of groups of equal cards, one play each:

- Go out whenever a legal play empties the hand.
- Following: shed the biggest set it can, preferring plays that clear a whole group of a
  value (a set played whole is one fewer play to go out) over breaking a group (which leaves
  an awkward remainder); a small penalty per card left behind in a broken group.
- Leading (a single is forced): lead a lone card, lowest first, so sets stay whole and the
  highest singles are kept to rejoin the trick later (a single brings passed players back).
- The elevator button (reclaimed on passing) only for a set of two or more, and never
  when a plain play scores as well: it is the way back in when the trick runs away.
- Otherwise pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from agents.base import Agent
from yokai_envs.yonkai_no_yokai.actions import DECODED_PLAYS, FIRST_PLAIN_PLAY, PASS, play_of
from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.moves import move_tables
from yokai_envs.yonkai_no_yokai.observation import observation_layout, observation_size
from yokai_envs.yonkai_no_yokai.state import COPIES_PER_VALUE, NUM_PLAYS

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

CLEAR_GROUP_BONUS = 3.0
BROKEN_CARD_PENALTY = 1.0
BUTTON_COST = 1.0
BUTTON_MIN_COUNT = 2
Number = int | float | np.ndarray


# observation size -> (layout, copies of a value), for each player count
_BY_SIZE = {observation_size(n): (observation_layout(n), copies) for n, copies in COPIES_PER_VALUE.items()}


class HeuristicAgent(Agent):
    """Sheds big sets early, keeps whole groups whole, leads lone low cards."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        layout, copies = _BY_SIZE[observation.size]
        hand = np.rint(observation[layout["hand"]] * copies).astype(int).tolist()
        return _decide(hand, bool(observation[layout["leading"]][0] > 0), np.flatnonzero(action_mask).tolist())

    def act_in_world(self, world: Game) -> int:
        # The same facts as the observation's, read off the state: the seat's own hand (its
        # own information, so any world will do) and whether the trick is at its lead.
        state = world.state
        return _decide(state.hands[state.to_act].tolist(), state.last_count == 0, world.legal_actions())


def _decide(hand: list[int], leading: bool, legal: list[int]) -> int:
    """The heuristic's action: ``hand`` the copies held of each value, ``legal`` the legal actions."""
    total = sum(hand)
    plays = []  # (action, count, value, with_button)
    for action in legal:
        if action == PASS:
            continue
        _, with_button, count, value = DECODED_PLAYS[action]
        plays.append((action, count, value, with_button))
    if not plays:
        return PASS
    for action, count, _, _ in plays:
        if count == total:
            return action  # goes out: the round is won
    if leading:
        lone = [p for p in plays if hand[p[2] - 1] == 1]
        return min(lone or plays, key=lambda p: p[2])[0]
    best_action, best_score = PASS, -np.inf
    for action, count, value, with_button in plays:
        if with_button and count < BUTTON_MIN_COUNT:
            continue
        score = float(_follow_score(count, hand[value - 1] - count, with_button))
        if score > best_score:
            best_action, best_score = action, score
    return int(best_action)


def _follow_score(count: Number, left_behind: Number, with_button: Number) -> Number:
    # A group played whole earns the bonus; every card a broken group leaves behind costs.
    # Plain arithmetic, so one definition scores a single play (act) or K hands (choices).
    bonus = CLEAR_GROUP_BONUS * (left_behind == 0)
    return count + bonus - BROKEN_CARD_PENALTY * left_behind - BUTTON_COST * with_button


_PLAY_COUNTS = np.array([play_of(p)[0] for p in range(NUM_PLAYS)])
_PLAY_VALUE_INDEX = np.array([play_of(p)[1] for p in range(NUM_PLAYS)]) - 1
_ACTION_COUNTS = np.concatenate([_PLAY_COUNTS, _PLAY_COUNTS])  # actions 1.. (plain, then button)
_WITH_BUTTON = np.arange(2 * NUM_PLAYS) >= NUM_PLAYS


def choices(hands: np.ndarray, direction: int, last_count: int, last_value: int,
            button_available: bool) -> np.ndarray:
    """The heuristic's action for each row of ``hands`` (K x 6 value counts) at one public
    moment of a trick: the same decision ``HeuristicAgent.act`` makes, for K hands at once.

    This is the opponent model that belief inference filters candidate hands with; a test
    holds it equal to ``act`` on every decision of many games.
    """
    tables = move_tables()
    held = hands[:, _PLAY_VALUE_INDEX]  # K x 24: copies of each play's value
    feasible = held >= _PLAY_COUNTS
    actions = np.full(hands.shape[0], PASS, dtype=np.int64)
    if last_count == 0:
        legal = feasible & tables.lead
        lone = legal & (held == 1)
        lowest = np.where(lone.any(axis=1), lone.argmax(axis=1), legal.argmax(axis=1))
        actions[:] = FIRST_PLAIN_PLAY + lowest
        legal = np.concatenate([legal, np.zeros_like(legal)], axis=1)
    else:
        key = (direction, last_count, last_value)
        legal = np.concatenate([feasible & tables.free[key],
                                feasible & tables.button[key] & bool(button_available)], axis=1)
        left_behind = np.concatenate([held, held], axis=1) - _ACTION_COUNTS
        scored = legal & ~(_WITH_BUTTON & (_ACTION_COUNTS < BUTTON_MIN_COUNT))
        score = np.where(scored, _follow_score(_ACTION_COUNTS, left_behind, _WITH_BUTTON), -np.inf)
        has_play = scored.any(axis=1)
        actions[has_play] = FIRST_PLAIN_PLAY + score[has_play].argmax(axis=1)
    goes_out = legal & (hands.sum(axis=1)[:, None] == _ACTION_COUNTS)
    out = goes_out.any(axis=1)
    actions[out] = FIRST_PLAIN_PLAY + goes_out[out].argmax(axis=1)
    return actions


_ACTION_VALUE_INDEX = np.concatenate([_PLAY_VALUE_INDEX, _PLAY_VALUE_INDEX])
_UNSCORED = _WITH_BUTTON & (_ACTION_COUNTS < BUTTON_MIN_COUNT)  # button singles are never chosen


def batch_actions(hands: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``HeuristicAgent.act`` for K decisions at once, one per row: ``hands`` (K x 6) the value
    counts of each deciding seat, ``masks`` (K x 49) its legal actions (a row with no pass is a
    lead). The opponents of the vectorized training env (``make_vec_gym``) play with this; a test
    holds it equal to ``act`` on every decision of many games. Rows with no legal action get PASS.
    """
    plays = np.asarray(masks, dtype=bool)[:, FIRST_PLAIN_PLAY:]  # K x 48: plain plays, then button plays
    held = np.asarray(hands)[:, _ACTION_VALUE_INDEX]  # copies of each play's value
    actions = np.full(plays.shape[0], PASS, dtype=np.int64)
    scored = plays & ~_UNSCORED
    score = np.where(scored, _follow_score(_ACTION_COUNTS, held - _ACTION_COUNTS, _WITH_BUTTON), -np.inf)
    follow = scored.any(axis=1)
    actions[follow] = FIRST_PLAIN_PLAY + score[follow].argmax(axis=1)
    # a lead offers singles alone, in value order: the lowest lone card, else the lowest card
    lead = ~np.asarray(masks, dtype=bool)[:, PASS] & plays.any(axis=1)
    lone = plays & (held == 1)
    lowest = np.where(lone.any(axis=1), lone.argmax(axis=1), plays.argmax(axis=1))
    actions[lead] = FIRST_PLAIN_PLAY + lowest[lead]
    goes_out = plays & (np.asarray(hands).sum(axis=1)[:, None] == _ACTION_COUNTS)
    out = goes_out.any(axis=1)
    actions[out] = FIRST_PLAIN_PLAY + goes_out[out].argmax(axis=1)
    return actions


def world_sampler(game: Game, seat: int) -> Callable[[np.random.Generator], Game]:
    """Worlds for ``seat`` in which the others' decisions this round are this heuristic's
    (inference from the public decision log; see yonkai_no_yokai_beliefs)."""
    from agents.heuristics.yonkai_no_yokai_beliefs import world_sampler as sampler  # imports choices

    return sampler(yonkai(game), seat)


def yonkai(game: Game) -> YonkaiGame:
    """``game`` as the Yonkai engine this heuristic reads (its table's fields)."""
    if not isinstance(game, YonkaiGame):
        raise TypeError(f"the Yonkai no Yokai heuristic reads a YonkaiGame, not a {type(game).__name__}")
    return game


def evaluate(game: Game) -> np.ndarray:
    """Per-seat values in [-1, 1] of a full-information (sampled) world, for ISMCTS leaves.

    Plays the heuristic for every seat to the end of the current round (on the world given,
    which the search throws away), then scores each seat by its cubes against the best of the
    others: the game is won by the most cubes, and a tie shares the win.
    """
    game = yonkai(game)
    round_now = game.rounds_completed
    while not game.is_over and game.rounds_completed == round_now:
        game.step_unchecked(_ROLLOUT_AGENT.act_in_world(game))  # a legal action of a world we may play on
    if game.is_over:
        return np.array(game.returns(), dtype=np.float64)
    cubes = np.asarray(game.cubes, dtype=np.float64)
    values = np.empty(cubes.size)
    for seat in range(cubes.size):
        values[seat] = np.tanh(cubes[seat] - np.max(np.delete(cubes, seat)) + 0.5)
    return values


_ROLLOUT_AGENT = HeuristicAgent()  # deterministic: its rng is never used
