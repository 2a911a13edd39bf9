"""A PettingZoo Parallel view of every env, and the module shape PettingZoo's test kit expects.

``parallel_env(env_id, **options)`` is Onmyoji's own Parallel env (simultaneous face-down choices)
for ``onmyoji_*`` and, for the turn-based games, :class:`TurnParallelEnv`: every live agent is
asked each step, the action of the agent whose turn it is is played, the others' are ignored
(so one parallel step is one decision, and ``max_cycles=K`` allows K of them).
An agent whose turn it is not gets the mask with only action 0 (a "wait" that is ignored, as in
Onmyoji's Parallel env), so a masked policy is never handed an all-False mask; once the game is
over every agent gets that mask too.

``pettingzoo_module(env_id, **options)`` is an object with ``env``, ``raw_env`` and
``parallel_env`` (each taking more options), for the test functions that take a module, such as
``pettingzoo.test.max_cycles_test``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import is_integer
from yokai_envs.core.render import render_in_mode
from yokai_envs.envs.aec import YokaiAECEnv
from yokai_envs.registry import env_module, make_raw

#: The action an agent whose turn it is not sends (ignored; the only one in its mask).
WAIT = 0


class TurnParallelEnv(ParallelEnv):
    """The Parallel API over a turn-based :class:`YokaiAECEnv` (see the module docstring)."""

    def __init__(self, aec: YokaiAECEnv) -> None:
        self.aec = aec
        self.game = aec.game
        self.possible_agents = list(aec.possible_agents)
        self.agents: list[str] = []
        self.metadata = {**aec.metadata, "name": f"{aec.metadata['name']}_parallel", "is_parallelizable": True}
        self.render_mode = aec.render_mode
        self.state_space = aec.state_space
        self.observation_layout = aec.observation_layout
        self._wait_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._wait_mask[WAIT] = 1

    @property
    def unwrapped(self) -> TurnParallelEnv:
        return self

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        observations = {}
        for agent in self.agents:
            observed = self.aec.observe(agent)
            if not observed["action_mask"].any():
                observed["action_mask"] = self._wait_mask.copy()
            observations[agent] = observed
        return observations

    def _infos(self) -> dict[str, dict[str, Any]]:
        infos = {agent: dict(self.aec.infos[agent]) for agent in self.agents}
        if self.aec.mask_in_infos:
            observed = self._observe()
            for agent in self.agents:
                infos[agent]["action_mask"] = observed[agent]["action_mask"]
        return infos

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observe(), self._infos()

    def step(self, actions: dict[str, Any]):
        aec = self.aec
        acting = aec.agent_selection
        if acting not in actions:
            raise KeyError(f"{aec.metadata['name']} parallel: no action for {acting}, whose turn it is")
        aec.step(actions[acting])
        # Agents that are done are stepped out (the AEC dead-step), so the next live turn is ready.
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            if all(aec.terminations[a] or aec.truncations[a] for a in aec.agents):
                break
            aec.step(None)  # type: ignore[arg-type]
        rewards = {agent: float(aec.rewards.get(agent, 0.0)) for agent in self.agents}
        terminations = {agent: bool(aec.terminations.get(agent, False)) for agent in self.agents}
        truncations = {agent: bool(aec.truncations.get(agent, False)) for agent in self.agents}
        observations = self._observe()
        infos = self._infos()
        if all(terminations[a] or truncations[a] for a in self.agents):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> str | None:
        return render_in_mode(self.game, self.render_mode)

    def close(self) -> None:
        self.aec.close()


def _game_env_module(env_id: str) -> Any:
    return env_module(env_id)


def parallel_env(env_id: str, **options: Any) -> ParallelEnv:
    """The Parallel env of ``env_id``: the game's own when it has one, else :class:`TurnParallelEnv`."""
    module = _game_env_module(env_id)
    if hasattr(module, "parallel_env"):
        return module.parallel_env(**options)
    if options.get("max_cycles") is not None:
        # PettingZoo's cycle is one step of every agent: in this Parallel view that is one
        # parallel step, which is one decision, so max_cycles caps the decisions.
        cycles = options.pop("max_cycles")
        if not is_integer(cycles) or cycles <= 0:  # named here: the cap below is checked as max_steps
            raise ConfigError(f"{env_id}: option max_cycles must be None or a positive int, got {cycles!r}")
        options["max_steps"] = min(cycles, options.get("max_steps") or cycles)
    return TurnParallelEnv(make_raw(env_id, **options))


def pettingzoo_module(env_id: str, **fixed: Any) -> SimpleNamespace:
    """``env``, ``raw_env`` and ``parallel_env`` of ``env_id`` with ``fixed`` options, as a module."""
    module = _game_env_module(env_id)
    return SimpleNamespace(
        __name__=f"{module.__name__}[{env_id}]",
        env=lambda **options: module.env(**{**fixed, **options}),
        raw_env=lambda **options: module.raw_env(**{**fixed, **options}),
        parallel_env=lambda **options: parallel_env(env_id, **{**fixed, **options}),
    )
