"""The one interface every bot and trained policy implements."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from yokai_envs.core.protocols import action_fields

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
    # False for an agent that never looks at ``observation`` (it reads the game, or nothing):
    # a search may then skip encoding observations in its rollouts, their largest cost.
    reads_observation: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        # Set by a search that plays this agent inside its own sampled worlds: such a world is
        # already a determinization, so sampling it again would only cost time.
        self.plays_in_sampled_worlds = False

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the agent's own randomness (called at the start of each game)."""
        self.rng = np.random.default_rng(seed)

    def view(self, game: Game) -> Game:
        """A sample of the world consistent with what the deciding seat has seen."""
        if self.plays_in_sampled_worlds:
            return game
        return game.determinize(game.current_player, self.rng)

    @abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        """The action id to play: one that ``action_mask`` allows. ``observation`` is the deciding
        seat's own; ``game``, when given, is the live game, which a bot may only read through
        :meth:`view` (a sample consistent with what the seat has seen)."""

    def last_distribution(self) -> np.ndarray | None:
        """The probabilities over action ids (length of the mask, summing to 1) that the last
        :meth:`act` chose from, or None for an agent that has none (a deterministic bot).

        Optional: datasets record the behaviour policy's probability of each action taken and
        its entropy from it (``agents.arena`` asks right after each ``act``). It describes the
        last ``act`` only; :meth:`act_in_world` (a search's rollouts) need not update it.
        """
        return None

    def behaviour(self, action: int) -> tuple[float, float] | None:
        """``(probability of action, entropy in nats)`` of :meth:`last_distribution`, or None;
        what the arena records per step (an agent may answer it faster, as the random one does)."""
        probs = self.last_distribution()
        if probs is None:
            return None
        support = probs[probs > 0]
        return float(probs[action]), float(-(support * np.log(support)).sum())

    def act_in_world(self, world: Game) -> int:
        """This agent's action for the seat to act in ``world``: the same action, drawn from
        the same randomness, as ``act_in_game(self, world)``.

        A search calls this in the worlds it sampled, many times per decision; bots override it
        with a cheaper path to the same decision (reading ``world.legal_actions()`` instead of a
        mask, the world instead of an encoded observation). An override that reads the world
        beyond its seat's own view does so only when :attr:`plays_in_sampled_worlds` is set and
        otherwise falls back to this default, which samples a view as :meth:`act` does.
        """
        return act_in_game(self, world)


class ViewDecider(Agent):
    """A bot that decides from a game (``_decide(view, legal)``), the view it samples in
    :meth:`act`: in a search's own sampled world it decides on the world directly."""

    def _decide(self, view: Any, legal: list[int]) -> int:
        raise NotImplementedError

    def act_in_world(self, world: Game) -> int:
        if not self.plays_in_sampled_worlds:
            return super().act_in_world(world)  # it must sample a view first, as act does
        legal = world.legal_actions()
        return legal[0] if len(legal) == 1 else self._decide(world, legal)


_UNREAD = np.zeros(0, dtype=np.float32)  # what an agent that never reads observations is handed


def act_in_game(agent: Agent, game: Game) -> int:
    """``agent``'s action for the seat to act in ``game`` (observation encoded only if it is read).

    ``agent`` may be any object with ``act``; ``needs_game`` and ``reads_observation`` default to
    False and True. Encoding an observation is most of a rollout step, so skipping it matters.
    """
    seat = game.current_player
    observation = game.observation(seat) if getattr(agent, "reads_observation", True) else _UNREAD
    if getattr(agent, "needs_game", False):
        return int(agent.act(observation, game.legal_action_mask(), game))
    return int(agent.act(observation, game.legal_action_mask()))


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    reads_observation: ClassVar[bool] = False
    _last_legal: tuple[np.ndarray, int] | None = None  # the last act's legal ids and mask length

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("random agent: the action mask has no legal action")
        self._last_legal = (legal, len(action_mask))
        return int(legal[self.rng.integers(legal.size)])

    def behaviour(self, action: int) -> tuple[float, float] | None:
        if self._last_legal is None:
            return None
        count = self._last_legal[0].size  # uniform: no vector needed (the arena asks every step)
        return 1.0 / count, math.log(count)

    def last_distribution(self) -> np.ndarray | None:
        last = self._last_legal
        if last is None:
            return None
        legal, size = last
        probs = np.zeros(size, dtype=np.float64)
        probs[legal] = 1.0 / legal.size
        return probs

    def act_in_world(self, world: Game) -> int:
        legal = world.legal_actions()
        if not legal:
            raise ValueError("random agent: the action mask has no legal action")
        return legal[self.rng.integers(len(legal))]  # the same draw as act's


class LowestAgent(Agent):
    """Plays its lowest legal action id that is not a pass (the pass only when nothing else is
    legal): a trivial baseline. In Yonkai no Yokai, whose ids go up with count and value, it
    sheds its smallest cards first and already beats random seats by far, so a trained policy is
    judged against the heuristic, not against random."""

    reads_observation: ClassVar[bool] = False

    def __init__(self, pass_actions: frozenset[int] = frozenset(), seed: int | None = None) -> None:
        super().__init__(seed)
        self.pass_actions = pass_actions

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("lowest agent: the action mask has no legal action")
        for action in legal.tolist():
            if action not in self.pass_actions:
                return int(action)
        return int(legal[0])


def pass_actions_of(game: Game) -> frozenset[int]:
    """The ids the game describes as a pass."""
    return frozenset(a for a in range(game.num_actions) if action_fields(game, a).get("kind") == "pass")
