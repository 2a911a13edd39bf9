"""Test helpers for Yonkai no Yokai: scripted positions, action names, short games."""

from __future__ import annotations

import numpy as np

from yokai_envs.yonkai_no_yokai.actions import PASS, action_of_play
from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.rules import start_trick


def play(cards: str) -> int:
    """Action for playing e.g. "555" without the button."""
    return action_of_play(len(cards), int(cards[0]))


def button(cards: str) -> int:
    """Action for using the button, flipping, and playing e.g. "22"."""
    return action_of_play(len(cards), int(cards[0]), with_button=True)


def deal(hands: list[str], leader: int = 0, cubes: list[int] | None = None, **options) -> YonkaiGame:
    """A game whose current round has the given hands (e.g. ["1155", "23", "666"]) and leader.

    Cards not in a hand count as played this round, so the card-conservation invariant holds.
    """
    game = YonkaiGame(num_players=len(hands), **options)
    game.reset(seed=0)
    for seat, hand in enumerate(hands):
        counts = np.bincount([int(c) - 1 for c in hand], minlength=6).astype(np.int8)
        game.hands[seat] = counts
        game.hand_sizes[seat] = len(hand)
    game.played[:] = game.copies - game.hands.sum(axis=0)
    if cubes is not None:
        game.cubes = list(cubes)
    start_trick(game.state, leader)
    game.invalidate_mask()
    game.check_invariants()
    return game


def legal(game: YonkaiGame) -> set[str]:
    """The legal actions by name, e.g. {"pass", "play 4", "button, flip, play 22"}."""
    return {game.action_name(int(a)) for a in np.flatnonzero(game.legal_action_mask())}


def run(game: YonkaiGame, *actions: int | str) -> YonkaiGame:
    for action in actions:
        game.step(PASS if action == "pass" else action)
        game.check_invariants()
    return game
