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

from typing import TYPE_CHECKING

import numpy as np

from agents.base import Agent, act_in_game
from yokai_envs.yonkai_no_yokai.encoding import observation_layout
from yokai_envs.yonkai_no_yokai.game import FIRST_BUTTON_PLAY, FIRST_PLAIN_PLAY, PASS
from yokai_envs.yonkai_no_yokai.rules import play_of

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

CLEAR_GROUP_BONUS = 3.0
BROKEN_CARD_PENALTY = 1.0
BUTTON_COST = 1.0
BUTTON_MIN_COUNT = 2


def _layout(observation_size: int) -> dict[str, slice]:
    # observation_size = 24 + 6 * num_players (see yonkai_no_yokai.encoding)
    return observation_layout((observation_size - 24) // 6)


class HeuristicAgent(Agent):
    """Sheds big sets early, keeps whole groups whole, leads lone low cards."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        layout = _layout(observation.size)
        hand = np.rint(observation[layout["hand"]]).astype(int)
        total = int(hand.sum())
        plays = []  # (action, count, value, with_button)
        for action in np.flatnonzero(action_mask).tolist():
            if action == PASS:
                continue
            with_button = action >= FIRST_BUTTON_PLAY
            count, value = play_of(action - (FIRST_BUTTON_PLAY if with_button else FIRST_PLAIN_PLAY))
            plays.append((action, count, value, with_button))
        if not plays:
            return PASS
        for action, count, _, _ in plays:
            if count == total:
                return action  # goes out: the round is won
        if observation[layout["leading"]][0] > 0:
            lone = [p for p in plays if hand[p[2] - 1] == 1]
            return min(lone or plays, key=lambda p: p[2])[0]
        best_action, best_score = PASS, -np.inf
        for action, count, value, with_button in plays:
            if with_button and count < BUTTON_MIN_COUNT:
                continue
            left_behind = hand[value - 1] - count
            score = count + (CLEAR_GROUP_BONUS if left_behind == 0 else -BROKEN_CARD_PENALTY * left_behind)
            if with_button:
                score -= BUTTON_COST
            if score > best_score:
                best_action, best_score = action, score
        return int(best_action)


def evaluate(game: Game) -> np.ndarray:
    """Per-seat values in [-1, 1] of a full-information (sampled) world, for ISMCTS leaves.

    Plays the heuristic for every seat to the end of the current round (on the world given,
    which the search throws away), then scores each seat by its cubes against the best of the
    others: the game is won by the most cubes, and a tie shares the win.
    """
    round_now = game.rounds_completed
    while not game.is_over and game.rounds_completed == round_now:
        game.step(act_in_game(_ROLLOUT_AGENT, game))
    if game.is_over:
        return np.array(game.returns(), dtype=np.float64)
    cubes = np.asarray(game.cubes, dtype=np.float64)
    values = np.empty(cubes.size)
    for seat in range(cubes.size):
        values[seat] = np.tanh(cubes[seat] - np.max(np.delete(cubes, seat)) + 0.5)
    return values


_ROLLOUT_AGENT = HeuristicAgent()  # deterministic: its rng is never used
