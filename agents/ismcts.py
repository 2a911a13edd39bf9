"""Single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse 2012).

Game-independent: it needs only the Game contract. Every iteration samples a world
consistent with what the deciding seat has seen (``game.determinize(seat, rng)``), walks one
shared tree of action sequences restricted to the actions legal in that world, and backs
up each seat's own return to the edges that seat chose (so 1-4 players, competitive or not).
Selection is UCB1 with availability counts: an edge's exploration term uses how often it
was *legal* when its parent was visited, not the parent's visits.

It never reads hidden state: the live game is only ever passed to ``determinize``, so two
states that differ only in cards the seat cannot see give the same decision for the same
seed (tested). The budget is ``iterations`` and/or ``time`` seconds; a time budget makes the
decision depend on machine speed, so reproducible runs should use iterations only.
"""

from __future__ import annotations

import math
import time as _time
from typing import TYPE_CHECKING

import numpy as np

from agents.base import Agent

if TYPE_CHECKING:
    from yokai_envs.core.game import Game


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class ISMCTSAgent(Agent):
    """``ismcts:iterations=200;time=0.5;rollout=heuristic;c=1.0;max_rollout_steps=500``."""

    needs_game = True

    def __init__(self, iterations: int | None = None, time: float | None = None, c: float = 1.0,
                 rollout_agent: Agent | None = None, max_rollout_steps: int | None = None,
                 seed: int | None = None) -> None:
        super().__init__(seed)
        if iterations is None and time is None:
            iterations = 200
        self.iterations = iterations
        self.time_budget = time
        self.c = float(c)
        self.rollout_agent = rollout_agent
        self.max_rollout_steps = max_rollout_steps

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.rollout_agent is not None:
            # Derived from our own stream so one seed fixes the whole search.
            self.rollout_agent.reset(int(self.rng.integers(2**63)))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        if game is None:
            raise ValueError("ismcts needs the game (needs_game=True); pass game=... to act()")
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("ismcts: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        visits = self.search(game)
        # Most visited legal root action; ties go to the lowest action (deterministic).
        return int(max(legal, key=lambda a: (visits.get(int(a), 0), -int(a))))

    def search(self, game: Game) -> dict[int, int]:
        """Run the search from ``game``'s current decision; root action -> visit count."""
        seat = game.current_player
        rng = self.rng
        root = _Node()
        deadline = None if self.time_budget is None else _time.perf_counter() + self.time_budget
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and _time.perf_counter() >= deadline:
                break
            self._iterate(root, game.determinize(seat, rng), rng)
            done += 1
        return {a: child.visits for a, child in root.children.items()}

    def _iterate(self, root: _Node, world: Game, rng: np.random.Generator) -> None:
        node = root
        path: list[tuple[_Node, int]] = []  # (edge node, seat that chose it)
        c = self.c
        while not world.is_over:
            legal = np.flatnonzero(world.legal_action_mask())
            actor = world.current_player
            children = node.children
            untried = []
            for a in legal.tolist():
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[int(rng.integers(len(untried)))]
                node = children[action] = _Node()
                world.step(action)
                path.append((node, actor))
                break
            best_score = -math.inf
            best_action = -1
            for a in legal.tolist():
                child = children[a]
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_score, best_action = score, a
            node = children[best_action]
            world.step(best_action)
            path.append((node, actor))
        self._rollout(world, rng)
        returns = world.returns()
        for edge, actor in path:
            edge.visits += 1
            edge.total += float(returns[actor])

    def _rollout(self, world: Game, rng: np.random.Generator) -> None:
        steps = 0
        limit = self.max_rollout_steps
        policy = self.rollout_agent
        while not world.is_over and (limit is None or steps < limit):
            mask = world.legal_action_mask()
            if policy is None:
                legal = np.flatnonzero(mask)
                world.step(int(legal[rng.integers(legal.size)]))
            else:
                seat = world.current_player
                game_arg = world if policy.needs_game else None
                world.step(policy.act(world.observation(seat), mask, game_arg))
            steps += 1
