"""The one interface every bot and trained policy implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

import numpy as np

if TYPE_CHECKING:
    from yokai_envs.core.game import Game


class Agent(ABC):
    """``act(observation, action_mask, game=None) -> int`` and ``reset(seed)``.

    ``observation`` is the acting seat's observation vector and ``action_mask`` its mask.
    An agent that needs the game (search, some heuristics) sets ``needs_game = True`` and is
    handed the live Game; it must look at the world only through :meth:`view`
    (``game.determinize(seat, rng)``), so it can never read cards its seat cannot see.
    """

    needs_game: ClassVar[bool] = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the agent's own randomness (called at the start of each game)."""
        self.rng = np.random.default_rng(seed)

    def view(self, game: Game) -> Game:
        """A sample of the world consistent with what the deciding seat has seen."""
        return game.determinize(game.current_player, self.rng)

    @abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int: ...


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("random agent: the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])
