"""Shared helpers for the play/replay tests: a small finished game and a toy multi-part game."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from agents.base import RandomAgent
from yokai_envs.core.game import Game
from yokai_envs.registry import live_id, make_game

YONKAI = live_id("yonkai_no_yokai")


def play_random(game: Game, seed: int = 0) -> Game:
    """Play ``game`` (already reset) to the end with random agents."""
    agents = [RandomAgent(seed * 100 + s) for s in range(game.num_players)]
    while not game.is_over:
        seat = game.current_player
        game.step(agents[seat].act(game.observation(seat), game.legal_action_mask()))
    return game


def finished_yonkai(seed: int = 1, **options: Any) -> Game:
    game = make_game(YONKAI, **{"num_players": 3, "rounds_per_game": 1, **options})
    game.reset(seed)
    return play_random(game, seed)


class ToyPickGame(Game):
    """Two seats take turns; a turn is two decisions (pick a first number, then a second one).

    Two turns each; a seat scores the sum of its picks and the higher total wins. It exists to
    test the confirmation on the last step of a multi-part choice.
    """

    env_id = "toy_pick_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {}
    DEFAULT_MAX_STEPS = 100

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.num_actions = 4
        self.observation_layout = {"scores": slice(0, 2), "part": slice(2, 3)}
        self.observation_size = 3
        self.state_size = 4

    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.turn % 2

    @property
    def is_terminal(self) -> bool:
        return self.turn >= 4

    @property
    def phase_name(self) -> str:
        return "first pick" if self.part == 0 else "second pick"

    def _reset(self) -> None:
        self.turn = 0
        self.part = 0
        self.scores = [0, 0]
        self.offset = int(self.rng.integers(2))

    def _legal_mask(self) -> np.ndarray:
        return np.ones(self.num_actions, dtype=bool)

    def _apply(self, action: int) -> None:
        self.scores[self.current_player] += action + self.offset
        if self.part == 0:
            self.part = 1
        else:
            self.part = 0
            self.turn += 1

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0

    def observation(self, seat: int) -> np.ndarray:
        return np.array([self.scores[seat], self.scores[1 - seat], self.part], dtype=np.float32)

    def state_tensor(self) -> np.ndarray:
        return np.array([*self.scores, self.part, self.turn], dtype=np.float32)

    def returns(self) -> np.ndarray:
        if not self.is_terminal or self.scores[0] == self.scores[1]:
            return np.zeros(2)
        best = int(np.argmax(self.scores))
        return np.array([1.0 if s == best else -1.0 for s in range(2)])

    def action_name(self, action: int) -> str:
        return f"pick {action}"

    def render(self) -> str:
        return f"toy pick: scores {self.scores}, {self.phase_name}"

    def render_for(self, seat: int) -> str:
        return self.render()

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        return None
