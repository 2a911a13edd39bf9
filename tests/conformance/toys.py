"""Tiny games for the information-state checks: one honest, and one that breaks each promise
(a leaking observation, a leaking mask, a determinize that forgets what a seat saw, an
information state that forgets). ``test_information.py`` shows each check catches its toy.

Peek: seat 0 secretly picks a card 0-2 (seat 1 only sees that it picked); with ``shown`` the
card is then shown to seat 1 alone; seat 1 guesses; a right guess gives seat 1 +1.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.game import Game
from yokai_envs.core.information import FIRST_GAME_EVENT

SHOWN = FIRST_GAME_EVENT


class PeekGame(Game):
    env_id = "peek_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"leak": None, "shown": False}
    num_actions = 3
    observation_size = 2 + 3 + 3
    observation_layout: ClassVar[dict[str, slice]] = {
        "phase": slice(0, 2), "own_secret": slice(2, 5), "shown_secret": slice(5, 8)}
    state_size = 3

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.secret = -1
        self.guess = -1

    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal else 0 if self.secret < 0 else 1

    @property
    def is_terminal(self) -> bool:
        return self.guess >= 0

    @property
    def phase_name(self) -> str:
        return "pick" if self.secret < 0 else "guess"

    def _reset(self) -> None:
        self.secret = self.guess = -1

    def _legal_mask(self) -> np.ndarray:
        mask = np.ones(3, dtype=bool)
        if self.options["leak"] == "mask" and self.secret >= 0:
            mask[self.secret] = False  # seat 1's choices reveal seat 0's hidden pick
        return mask

    def _apply(self, action: int) -> None:
        if self.secret < 0:
            self.secret = action
            if self.options["shown"]:
                self.see(1, SHOWN, action)
        else:
            self.guess = action

    def public_action(self, action: int, seat: int) -> int | None:
        return None if self.secret < 0 and seat == 1 else action

    def public_action_name(self, action: int, seat: int) -> str | None:
        return None if self.secret < 0 and seat == 1 else self.action_name(action)

    def utility_bounds(self) -> tuple[float, float]:
        return 0.0, 1.0

    def observation(self, seat: int) -> np.ndarray:
        obs = np.zeros(self.observation_size, dtype=np.float32)
        obs[0 if self.secret < 0 else 1] = 1
        if self.secret >= 0 and (seat == 0 or self.options["leak"] == "observation"):
            obs[2 + self.secret] = 1
        if self.secret >= 0 and seat == 1 and self.options["shown"]:
            obs[5 + self.secret] = 1
        return obs

    def state_tensor(self) -> np.ndarray:
        return np.array([self.secret, self.guess, self.steps], dtype=np.float32)

    def returns(self) -> np.ndarray:
        win = self.is_terminal and self.guess == self.secret
        return np.array([0.0, 1.0 if win else 0.0])

    def action_name(self, action: int) -> str:
        return f"card {action}"

    def render(self) -> str:
        return f"secret {self.secret}, guess {self.guess}"

    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        if self.secret >= 0 and (seat == 0 or self.options["shown"]):
            return [("secret", self.secret)]
        return []

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        return self.secret == placement[1]

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        keeps = seat == 0 or (self.options["shown"] and self.options["leak"] != "determinize")
        if self.secret >= 0 and not keeps:
            self.secret = int(rng.integers(3))


class ForgetfulPeekGame(PeekGame):
    """Breaks perfect recall: the information state keeps only the latest event."""

    def information_state(self, seat: int) -> str:
        return super().information_state(seat).rsplit("\n", 1)[-1]
