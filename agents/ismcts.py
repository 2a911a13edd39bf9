"""Single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse 2012).

Game-independent: it needs only the Game contract. Every iteration samples a world
consistent with what the deciding seat has seen (``game.determinize(seat, rng)``), walks one
shared tree of action sequences restricted to the actions legal in that world, and backs
up each seat's own return to the edges that seat chose (so 1-4 players, competitive or not).
Selection is UCB1 with availability counts: an edge's exploration term uses how often it
was *legal* when its parent was visited, not the parent's visits.

It never reads hidden state: the live game is only ever passed to ``determinize`` (or to a
world sampler, which reads only the seat's own view), so two
states that differ only in cards the seat cannot see give the same decision for the same
seed (tested). The budget is ``iterations`` and/or ``time`` seconds; a time budget makes the
decision depend on machine speed, so reproducible runs should use iterations only.

Rollouts run to the end of the game (random moves, uniform over the legal actions, drawn by
``UniformBelow``; or the game's heuristic with ``rollout=heuristic``; or, with ``rollout=policy``,
the trained network of ``policy=PATH`` sampling its distribution). In long multi-round
games that signal is faint; ``max_rollout_steps`` cuts rollouts short and ``leaf=heuristic``
then scores the cut world with the game's heuristic module's ``evaluate(game) -> per-seat
values in [-1, 1]`` (when it has one) instead of the returns so far; ``evaluate`` gets a
sampled world the search discards, so it may play on.

``rollout=own_policy`` (with ``policy=PATH``) rolls the searching seat out with that network's
most likely move and every other seat with the game's heuristic.

``opponents=rollout`` keeps only the searching seat's own decisions in the tree and lets the
other seats play the rollout policy there too (a model of opponents as the heuristic, instead
of searching their replies).

``confidence=Z`` (with a rollout policy) makes the search a cautious improver of that policy:
it plays the policy's own move unless the best move's mean value beats it by more than Z
standard errors. With few iterations most moves differ by noise, and following noise away
from a strong heuristic costs more than the search gains elsewhere.

The rollout policy plays inside worlds this search sampled, so it reads them as they are
(``plays_in_sampled_worlds``) instead of sampling again; it is never handed the live game.

``beliefs=heuristic`` draws the sampled worlds from an opponent model instead of uniformly:
only deals in which every other seat's decisions so far are what the game's heuristic would
have chosen with that hand (the heuristic module's ``world_sampler(game, seat)``). Against
heuristic opponents this is exact inference; against others it is a model that may misjudge.

``policy=PATH`` names a trained MaskablePPO checkpoint whose move the search starts from: it
is the move kept on ties and, with ``confidence``, unless the search shows another better
(AlphaGo's split: a slow trained policy proposes, a fast rollout policy simulates). Without
it the rollout policy's own move plays that part.

``search=flat`` replaces the tree by determinized flat Monte Carlo at the root: every sampled
world scores every legal action with the same rollout seed (common random numbers), which
compares actions far more sharply than independent samples when the budget is small.
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from agents.base import Agent

if TYPE_CHECKING:
    from yokai_envs.core.game import Game


class UniformBelow:
    """Uniform integers in ``[0, n)`` for a random rollout's moves, exactly uniform, from 32-bit
    words the generator draws a block at a time: ``rng.integers(n)`` costs about 1.5 us a call,
    as much as a fifth of a rules step of the faster games.

    A word ``w`` gives ``w % n`` when it lies below the largest multiple of ``n`` that fits in
    32 bits (``2**32 - 2**32 % n``), and is thrown away for the next word otherwise: every
    residue then comes from equally many words (rejection sampling; a word is thrown away with
    probability below ``n / 2**32``). Words left in the block when the rollout ends are dropped."""

    BITS = 32
    BLOCK = 64

    __slots__ = ("rng", "words")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.words: list[int] = []

    def _draw_words(self) -> list[int]:
        return self.rng.integers(0, 1 << self.BITS, size=self.BLOCK).tolist()

    def below(self, n: int) -> int:
        span = 1 << self.BITS
        limit = span - span % n
        while True:
            if not self.words:
                self.words = self._draw_words()
            word = self.words.pop()
            if word < limit:
                return word % n


class _Node:
    __slots__ = ("avail", "children", "total", "total_sq", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.total_sq = 0.0
        self.avail = 1


class OwnSeatRollout(Agent):
    """A rollout policy that plays the searching seat with ``own`` (a trained network, its most
    likely move) and every other seat with ``others`` (the game's heuristic): the search then
    values each move by how its own network would play on against heuristic opponents, one more
    step of improvement than rolling every seat out with the heuristic."""

    needs_game = True
    reads_observation = True

    def __init__(self, own: Agent, others: Agent, seed: int | None = None) -> None:
        super().__init__(seed)
        self.own, self.others = own, others
        self.seat = -1  # set by the search at each decision

    @property
    def plays_in_sampled_worlds(self) -> bool:
        return self.others.plays_in_sampled_worlds

    @plays_in_sampled_worlds.setter
    def plays_in_sampled_worlds(self, value: bool) -> None:
        for agent in getattr(self, "own", None), getattr(self, "others", None):
            if agent is not None:
                agent.plays_in_sampled_worlds = value

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.own.reset(int(self.rng.integers(2**63)))
        self.others.reset(int(self.rng.integers(2**63)))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        if game is None:
            raise ValueError("own-seat rollouts need the game")
        return self.act_in_world(game)

    def act_in_world(self, world: Game) -> int:
        return (self.own if world.current_player == self.seat else self.others).act_in_world(world)


class ISMCTSAgent(Agent):
    """``ismcts:iterations=200;time=0.5;rollout=heuristic;c=1.0;max_rollout_steps=30;leaf=heuristic``."""

    needs_game = True

    def __init__(self, iterations: int | None = None, time: float | None = None, c: float = 1.0,
                 rollout_agent: Agent | None = None, max_rollout_steps: int | None = None,
                 leaf_evaluator: Callable[[Game], np.ndarray] | None = None, opponents: str = "tree",
                 search: str = "tree", confidence: float = 0.0,
                 world_sampler: Callable[[Game, int], Callable[[np.random.Generator], Game]] | None = None,
                 base_agent: Agent | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        if iterations is None and time is None:
            iterations = 200
        self.iterations = iterations
        self.time_budget = time
        self.c = float(c)
        self.rollout_agent = rollout_agent
        if rollout_agent is not None:
            # Rollouts run in worlds this search sampled; the rollout policy may read them whole.
            # Its opponents' model then knows our sampled (real) cards: pessimistic, never a leak.
            rollout_agent.plays_in_sampled_worlds = True
        self.max_rollout_steps = max_rollout_steps
        self.leaf_evaluator = leaf_evaluator
        if opponents not in ("tree", "rollout"):
            raise ValueError(f"ismcts: opponents must be 'tree' or 'rollout', got {opponents!r}")
        self.opponents_in_tree = opponents == "tree"
        if search not in ("tree", "flat"):
            raise ValueError(f"ismcts: search must be 'tree' or 'flat', got {search!r}")
        self.flat = search == "flat"
        if confidence < 0:
            raise ValueError(f"ismcts: confidence must be >= 0, got {confidence!r}")
        self.confidence = float(confidence)
        # (game, seat) -> draw(rng) -> world; None: the game's own uniform determinize.
        self.world_sampler = world_sampler
        # The policy whose move the search improves on: a trained one, else the rollout policy.
        self.base_agent = base_agent if base_agent is not None else rollout_agent
        if base_agent is not None and base_agent.needs_game:
            base_agent.plays_in_sampled_worlds = True
        self._last_probs: np.ndarray | None = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.rollout_agent is not None:
            # Derived from our own stream so one seed fixes the whole search.
            self.rollout_agent.reset(int(self.rng.integers(2**63)))
        if self.base_agent is not None and self.base_agent is not self.rollout_agent:
            self.base_agent.reset(int(self.rng.integers(2**63)))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        if game is None:
            raise ValueError("ismcts needs the game (needs_game=True); pass game=... to act()")
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("ismcts: the action mask has no legal action")
        self._last_probs = None
        if legal.size == 1:
            self._last_probs = np.zeros(len(action_mask), dtype=np.float64)
            self._last_probs[legal[0]] = 1.0
            return int(legal[0])
        if isinstance(self.rollout_agent, OwnSeatRollout):
            self.rollout_agent.seat = game.current_player
        default = self._default_action(observation, action_mask, game, legal)
        if self.flat:
            means, errors = self._flat_statistics(game, legal, default)
            values = dict(zip(legal.tolist(), means.tolist()))
        else:
            root = self._search_root(game)
            values = {a: float(child.visits) for a, child in root.children.items()}
            self._last_probs = _visit_shares(values, len(action_mask))
        # Best score; a tie goes to what the base policy would play (not to the lowest action,
        # which in many games is "pass"), then to the lowest action.
        best = int(max(legal.tolist(), key=lambda a: (values.get(a, 0.0), a == default, -a)))
        if self.confidence > 0 and self.base_agent is not None and best != default:
            if self.flat:
                margin, error = values[best] - values[default], float(errors[legal.tolist().index(best)])
            else:
                margin, error = _margin(root, best, default)
            if margin <= self.confidence * error:
                return default  # not shown better than the base policy's own move: keep it
        return best

    def last_distribution(self) -> np.ndarray | None:
        """The root's visit shares at the last decision (one-hot when it was forced; None
        after a flat search, whose scores are values, not visits)."""
        return self._last_probs

    def _default_action(self, observation: np.ndarray, action_mask: np.ndarray, game: Game,
                        legal: np.ndarray) -> int:
        policy = self.base_agent
        if policy is None:
            return int(legal[self.rng.integers(legal.size)])
        # A policy that reads the game trusts the world it is handed: a sample, never the live game.
        world = game.determinize(game.current_player, self.rng) if policy.needs_game else None
        return int(policy.act(observation, action_mask, world))

    def search(self, game: Game) -> dict[int, int]:
        """Run the search from ``game``'s current decision; root action -> visit count."""
        return {a: child.visits for a, child in self._search_root(game).children.items()}

    def _search_root(self, game: Game) -> _Node:
        seat = game.current_player
        rng = self.rng
        sample = self._sampler(game, seat)
        root = _Node()
        deadline = None if self.time_budget is None else _time.perf_counter() + self.time_budget
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and _time.perf_counter() >= deadline:
                break
            self._iterate(root, sample(rng), rng, seat)
            done += 1
        return root

    def flat_search(self, game: Game, legal: np.ndarray) -> np.ndarray:
        """Mean value of each legal action over sampled worlds, all actions scored on the same
        worlds with the same rollout seeds (common random numbers: the comparison between
        actions is not drowned by the luck of the sample). ``iterations`` counts rollouts."""
        return self._flat_values(game, legal).mean(axis=0)

    def _flat_statistics(self, game: Game, legal: np.ndarray, default: int) -> tuple[np.ndarray, np.ndarray]:
        """Each action's mean value, and the standard error of its paired difference from
        ``default`` (same worlds, same rollout seeds)."""
        values = self._flat_values(game, legal)
        differences = values - values[:, legal.tolist().index(default)][:, None]
        worlds = values.shape[0]
        errors = differences.std(axis=0, ddof=1) / np.sqrt(worlds) if worlds > 1 else np.full(legal.size, np.inf)
        return values.mean(axis=0), errors

    def _flat_values(self, game: Game, legal: np.ndarray) -> np.ndarray:
        """One row per sampled world: the searching seat's value after each legal action."""
        seat = game.current_player
        rng = self.rng
        sample = self._sampler(game, seat)
        rows: list[np.ndarray] = []
        deadline = None if self.time_budget is None else _time.perf_counter() + self.time_budget
        budget = None if self.iterations is None else max(1, -(-self.iterations // legal.size))
        while True:
            if budget is not None and len(rows) >= budget:
                break
            if deadline is not None and rows and _time.perf_counter() >= deadline:
                break
            world = sample(rng)
            rollout_seed = int(rng.integers(2**63))
            row = np.empty(legal.size)
            for j, action in enumerate(legal.tolist()):
                branch = world.clone()
                branch.step(action)  # checked: a root action, once per world
                rollout_rng = np.random.default_rng(rollout_seed)
                if self.rollout_agent is not None:
                    self.rollout_agent.reset(rollout_seed)
                row[j] = float(self._rollout(branch, rollout_rng)[seat])
            rows.append(row)
        return np.asarray(rows)

    def _sampler(self, game: Game, seat: int) -> Callable[[np.random.Generator], Game]:
        if self.world_sampler is None:
            return lambda rng: game.determinize(seat, rng)
        return self.world_sampler(game, seat)  # the posterior is worked out once per decision

    def _iterate(self, root: _Node, world: Game, rng: np.random.Generator, seat: int) -> None:
        # Worlds are this search's own samples and every action below comes from their legal
        # actions: they step unchecked (the same games as step, without its checks).
        node = root
        path: list[tuple[_Node, int]] = []  # (edge node, seat that chose it)
        c = self.c
        log, sqrt = math.log, math.sqrt
        while not world.is_over:
            actor = world.current_player
            if actor != seat and not self.opponents_in_tree:
                self._rollout_step(world, rng)  # opponents play the rollout policy, outside the tree
                continue
            legal = world.legal_actions()
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[int(rng.integers(len(untried)))]
                node = children[action] = _Node()
                world.step_unchecked(action)
                path.append((node, actor))
                break
            best_score = -math.inf
            best_action = -1
            for a in legal:
                child = children[a]
                visits = child.visits
                score = child.total / visits + c * sqrt(log(child.avail) / visits)
                if score > best_score:
                    best_score, best_action = score, a
            node = children[best_action]
            world.step_unchecked(best_action)
            path.append((node, actor))
        returns = self._rollout(world, rng)
        for edge, actor in path:
            value = float(returns[actor])
            edge.visits += 1
            edge.total += value
            edge.total_sq += value * value

    def _rollout_step(self, world: Game, rng: np.random.Generator) -> None:
        policy = self.rollout_agent
        if policy is None:
            legal = world.legal_actions()
            world.step_unchecked(legal[rng.integers(len(legal))])
        else:
            world.step_unchecked(policy.act_in_world(world))

    def _rollout(self, world: Game, rng: np.random.Generator) -> np.ndarray:
        """Play on from ``world``; the per-seat values to back up."""
        limit = self.max_rollout_steps
        policy = self.rollout_agent
        # The loop of _rollout_step, spelled out: it runs for most of a search's time. A game
        # that is not over always has a legal action, so an empty list is the game's end.
        if policy is None:
            below = UniformBelow(rng).below  # uniform, cheaper than rng.integers per move
            legal = world.legal_actions()
            steps = 0
            while legal and (limit is None or steps < limit):
                n = len(legal)
                world.step_unchecked(legal[below(n)] if n > 1 else legal[0])  # a forced move draws nothing
                legal = world.legal_actions()
                steps += 1
        else:
            decide = policy.act_in_world
            steps = 0
            while (limit is None or steps < limit) and not world.is_over:
                world.step_unchecked(decide(world))
                steps += 1
        if not world.is_over and self.leaf_evaluator is not None:
            return np.asarray(self.leaf_evaluator(world), dtype=np.float64)
        return world.returns()


def _visit_shares(visits: dict[int, float], size: int) -> np.ndarray | None:
    probs = np.zeros(size, dtype=np.float64)
    for action, count in visits.items():
        probs[action] = count
    total = probs.sum()
    return probs / total if total > 0 else None


def _margin(root: _Node, best: int, default: int) -> tuple[float, float]:
    """How much better ``best``'s mean is than ``default``'s at the root, and the standard
    error of that difference (independent samples; an unvisited move has an infinite one)."""
    stats = []
    for action in (best, default):
        node = root.children.get(action)
        if node is None or node.visits < 2:
            return 0.0, math.inf
        mean = node.total / node.visits
        variance = max(node.total_sq / node.visits - mean * mean, 0.0) * node.visits / (node.visits - 1)
        stats.append((mean, variance / node.visits))
    return stats[0][0] - stats[1][0], math.sqrt(stats[0][1] + stats[1][1])
