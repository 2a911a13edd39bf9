"""Gifts: a scripted toy game whose rewards are known move by move (for the wrapper tests).

Seats move in turn, seat 0 first, for ``moves`` moves in all. Action ``a`` gives ``a + 1``
points to the next seat (in ``mode="coop"``: ``a`` points to every seat). Action 2 is masked
out for seat 0, so an illegal action exists. Nothing is hidden.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from agents.base import Agent
from yokai_envs.core.game import Game


class GiftsGame(Game):
    env_id = "gifts_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"num_players": 3, "moves": 6, "mode": "versus"}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._n = int(self.options["num_players"])
        self.moves = int(self.options["moves"])
        self.num_actions = 3
        self.observation_size = self._n + 2
        self.observation_layout = {"seat": slice(0, self._n), "progress": slice(self._n, self._n + 1),
                                   "own_return": slice(self._n + 1, self._n + 2)}
        self.state_size = self._n
        self._returns = np.zeros(self._n)
        self.made = 0

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def cooperative(self) -> bool:
        return self.options["mode"] == "coop"

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal else self.made % self._n

    @property
    def is_terminal(self) -> bool:
        return self.made >= self.moves

    @property
    def phase_name(self) -> str:
        return "give"

    def _reset(self) -> None:
        self._returns = np.zeros(self._n)
        self.made = 0

    def _legal_mask(self) -> np.ndarray:
        return np.array([True, True, self.current_player != 0])

    def _apply(self, action: int) -> None:
        seat = self.current_player
        if self.cooperative:
            self._returns += action
        else:
            self._returns[(seat + 1) % self._n] += action + 1
        self.made += 1

    def utility_bounds(self) -> tuple[float, float]:
        # a seat receives at most every move's biggest gift (coop: every move's)
        return 0.0, float(self.moves * 2 if self.cooperative else self.moves * 3)

    def observation(self, seat: int) -> np.ndarray:
        obs = np.zeros(self.observation_size, dtype=np.float32)
        obs[seat] = 1.0
        obs[self._n] = self.made / self.moves
        obs[self._n + 1] = min(1.0, self._returns[seat] / (3 * self.moves))
        return obs

    def state_tensor(self) -> np.ndarray:
        return self._returns.astype(np.float32)

    def returns(self) -> np.ndarray:
        return self._returns

    def action_name(self, action: int) -> str:
        return f"give {action + 1}"

    def render(self) -> str:
        return f"move {self.made}/{self.moves}, returns {self._returns.tolist()}"

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        pass


class ConstantAgent(Agent):
    """Always plays the same action (for scripted reward checks)."""

    def __init__(self, action: int) -> None:
        super().__init__(0)
        self.action = action
        self.calls = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        self.calls += 1
        assert action_mask[self.action]
        return self.action
