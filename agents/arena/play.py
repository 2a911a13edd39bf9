"""Playing scheduled games on the bare Game (no PettingZoo), in this process or in workers."""

from __future__ import annotations

import copy
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from agents.base import Agent, act_in_game
from agents.specs import make
from yokai_envs.core.game import Game, win_credits
from yokai_envs.registry import make_game

from .schedule import GameSpec


def build_game(source: str | type[Game], env_options: dict[str, Any]) -> Game:
    """``source`` is an env id, or a Game subclass (tests use unregistered toy games)."""
    if isinstance(source, str):
        return make_game(source, **env_options)
    return source(**env_options)


def env_id_of(source: str | type[Game]) -> str:
    return source if isinstance(source, str) else source.env_id


class Runner:
    """Holds one game engine and the agents, reused across the games given to this process."""

    def __init__(self, game_source: str | type[Game], env_options: dict[str, Any],
                 agents: Mapping[str, str | Agent], keep_actions: bool = True) -> None:
        self.game_source = game_source
        self.env_options = dict(env_options)
        self.game = build_game(game_source, self.env_options)
        self.cooperative = self.game.cooperative
        self.sources = agents
        self.keep_actions = keep_actions
        self.pool: dict[str, list[Agent]] = {}

    def _instances(self, label: str, count: int) -> list[Agent]:
        have = self.pool.setdefault(label, [])
        while len(have) < count:
            source = self.sources[label]
            if isinstance(source, Agent):
                have.append(source if not have else copy.deepcopy(source))
            else:
                have.append(make(source, env_id_of(self.game_source), self.env_options))
        return have

    def seat_agents(self, seats: tuple[str, ...]) -> list[Agent]:
        taken: Counter[str] = Counter()
        out = []
        for label in seats:
            out.append(self._instances(label, Counter(seats)[label])[taken[label]])
            taken[label] += 1
        return out

    def play(self, spec: GameSpec) -> dict[str, Any]:
        game = self.game
        seat_agents = self.seat_agents(spec.seats)
        game.reset(spec.deal_seed)
        for agent, agent_seed in zip(seat_agents, spec.agent_seeds):
            agent.reset(agent_seed)
        started = time.perf_counter()
        behaviour: list[list[float] | None] = []
        while not game.is_over:
            agent = seat_agents[game.current_player]
            action = act_in_game(agent, game)
            if self.keep_actions:
                behaviour.append(behaviour_of(agent, action))
            game.step(action)
        returns = np.array(game.returns(), dtype=np.float64)
        record = {
            "index": spec.index, "table": spec.table, "deal": spec.deal, "arrangement": spec.arrangement,
            "seats": list(spec.seats), "deal_seed": spec.deal_seed, "agent_seeds": list(spec.agent_seeds),
            "returns": returns.tolist(), "credits": win_credits(returns, self.cooperative).tolist(),
            "steps": int(game.steps), "truncated": bool(game.is_truncated),
            "seconds": time.perf_counter() - started,
        }
        if self.keep_actions:
            record["actions"] = [int(a) for a in game.action_history]
            if any(entry is not None for entry in behaviour):
                record["behaviour"] = behaviour
        return record


def behaviour_of(agent: Agent, action: int) -> list[float] | None:
    """``[probability of action, entropy in nats]`` of the distribution ``agent``'s last act drew
    from (:meth:`Agent.last_distribution`), or None when it has none."""
    read = getattr(agent, "behaviour", None)  # any object with act() may play; only Agents have it
    found = read(action) if read is not None else None
    return None if found is None else [found[0], found[1]]


_RUNNER: Runner | None = None


def init_worker(game_source: str | type[Game], env_options: dict[str, Any], agents: dict[str, str],
                keep_actions: bool) -> None:
    global _RUNNER
    try:  # one torch thread per worker: the workers are the parallelism
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    _RUNNER = Runner(game_source, env_options, agents, keep_actions)


def play_batch(specs: list[GameSpec]) -> list[dict[str, Any]]:
    assert _RUNNER is not None, "init_worker was not called"
    return [_RUNNER.play(spec) for spec in specs]
