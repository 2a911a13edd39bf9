"""PettingZoo envs of Onmyoji: three nights (``onmyoji_v5``).

``env(mode=..., difficulty=..., characters=...)`` is the AEC env (agents ``player_0`` and, in Duel
and Co-op, ``player_1``; Solo is a 1-agent AEC game). ``parallel_env(...)`` is the Parallel API
over the same Game: every live seat acts each step; a seat with nothing to decide gets a mask with
only action 0 (``wait``). In the face-down card step both seats choose in the same parallel step.
Both take the env options ``render_mode``, ``illegal_action``, ``mask_in_infos`` and ``history=K``
(the last K events a seat saw as ``observation["history"]``; the event kinds are in the package
README), and ``max_cycles=K``: in the AEC env no seat makes more than K decisions; in the Parallel
env, PettingZoo's meaning: the game is truncated after K parallel steps.

A Parallel step is atomic: every action of the joint action is checked before any is applied, and
a rejected joint action changes nothing; a ``max_steps`` cap that leaves room for only one of the
two face-down cards truncates the game before either is played. With ``illegal_action="penalize"`` (the default, as in
PettingZoo's classic games) an action outside its seat's mask (a real action from a waiting seat
too) ends the game at once: each offender gets -1, every other agent 0, the offenders' infos say
``illegal_action``, with PettingZoo's illegal-move warning. With ``"raise"`` it raises
:class:`IllegalActionError` instead. A missing action for a seat that must decide is a usage error
(ConfigError) either way. ``action_space(agent).sample()`` draws from that agent's current mask.

Observation layout: see :mod:`yokai_envs.onmyoji.observation` (``env.observation_layout``).
Action table (86 actions): see :mod:`yokai_envs.onmyoji.actions`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.env_logger import EnvLogger

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.core.game import is_integer
from yokai_envs.core.information import HISTORY_PAD, history_tokens
from yokai_envs.core.render import render_in_mode
from yokai_envs.envs.aec import ILLEGAL_ACTION_MODES, YokaiAECEnv, split_options, wrap
from yokai_envs.envs.spaces import LegalDiscrete
from yokai_envs.onmyoji import ENV_ID
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import observation as _observation
from yokai_envs.onmyoji.cards import difficulty_tables, load_pool
from yokai_envs.onmyoji.game import OnmyojiGame
from yokai_envs.onmyoji.state import Decision

# The full observation layout and action table, so that ``help(env)`` shows them.
__doc__ = f"{__doc__}\n{_observation.__doc__}\n{act.__doc__}\n{difficulty_tables(load_pool())}\n"


class raw_env(YokaiAECEnv):
    game_class = OnmyojiGame
    metadata = {"name": ENV_ID, "render_modes": ["ansi", "human"], "is_parallelizable": False}


def env(**options: Any):
    return wrap(raw_env(**options))


class OnmyojiParallelEnv(ParallelEnv):
    """Every live seat acts each step; the simultaneous face-down choice is one parallel step."""

    metadata = {"name": ENV_ID.replace("onmyoji_", "onmyoji_parallel_", 1), "render_modes": ["ansi", "human"]}

    def __init__(self, **options: Any) -> None:
        env_opts, game_opts = split_options(OnmyojiGame, options)
        # PettingZoo's cycle is one step of every agent: here that is one parallel step (the game's
        # own max_cycles counts one seat's decisions, which the face-down step doubles up).
        max_cycles = game_opts.pop("max_cycles", None)
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles <= 0):
            raise ConfigError(f"onmyoji parallel_env: option max_cycles must be None or a positive int, "
                              f"got {max_cycles!r}")
        self.max_cycles: int | None = max_cycles
        self.cycles = 0
        if env_opts["illegal_action"] not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"onmyoji parallel_env: illegal_action {env_opts['illegal_action']!r} is not one of "
                              f"{ILLEGAL_ACTION_MODES}")
        self.penalize_illegal = env_opts["illegal_action"] == "penalize"
        self.mask_in_infos = bool(env_opts["mask_in_infos"])
        if env_opts["render_mode"] not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"onmyoji parallel_env: render_mode {env_opts['render_mode']!r} is not one of "
                              f"{self.metadata['render_modes']}")
        history = env_opts["history"]
        if isinstance(history, bool) or not isinstance(history, int) or history < 0:
            raise ConfigError(f"option history must be an int >= 0 (events kept in the observation), got {history!r}")
        self.history: int = history
        self.render_mode = env_opts["render_mode"]
        self.game = OnmyojiGame(**game_opts)
        if history:
            self.game.record_information()
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        low, high = self.game.observation_bounds()
        blocks: dict[str, spaces.Space] = {
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(act.NUM_ACTIONS,), dtype=np.int8),
        }
        if history:
            blocks["history"] = spaces.Box(low=HISTORY_PAD, high=np.iinfo(np.int32).max,
                                           shape=(history, 1 + self.game.EVENT_ARGS), dtype=np.int32)
        obs_space = spaces.Dict(blocks)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces: dict[str, spaces.Space] = {
            agent: LegalDiscrete(act.NUM_ACTIONS, self._legal_mask_of(seat))
            for seat, agent in enumerate(self.possible_agents)}
        self.state_space = spaces.Box(low=-np.inf, high=np.inf, shape=(self.game.state_size,), dtype=np.float32)
        self.observation_layout = self.game.observation_layout
        self._to_decide = _observation.to_decide_index(n)
        self._wait_mask = np.zeros(act.NUM_ACTIONS, dtype=np.int8)
        self._wait_mask[act.WAIT] = 1

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _legal_mask_of(self, seat: int):
        def legal() -> np.ndarray | None:
            if self.possible_agents[seat] not in self.agents:
                return None
            return self._mask(seat, self._deciders())
        return legal

    def _deciders(self) -> list[int]:
        g = self.game
        if g.is_over:
            return []
        st = g.state
        if st.decision == Decision.PLAY:
            return st.order[st.cursor:]  # every seat still to choose a face-down card
        return [g.current_player]

    def _mask(self, seat: int, deciders: list[int]) -> np.ndarray:
        if seat not in deciders:
            return self._wait_mask.copy()
        if seat == self.game.current_player:
            return self.game.legal_action_mask().astype(np.int8)
        # Face-down step: the later seat's card mask depends only on its own hand.
        p = self.game.state.players[seat]
        mask = np.zeros(act.NUM_ACTIONS, dtype=np.int8)
        for c in range(3):
            mask[act.PLAY + c] = p.hand[c]
        return mask

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        return self._observe_for(self.agents)

    def _observe_for(self, agents: list[str]) -> dict[str, dict[str, np.ndarray]]:
        deciders = self._deciders() if self.agents else []
        return {a: self._observe_seat(i, deciders) for i, a in enumerate(self.possible_agents) if a in agents}

    def _infos(self, observations: dict[str, dict[str, np.ndarray]],
               extra: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Each agent's info: ``extra``'s entries, and its mask when ``mask_in_infos``."""
        infos = {a: dict(extra.get(a, {})) for a in observations}
        if self.mask_in_infos:
            for agent, observed in observations.items():
                infos[agent]["action_mask"] = observed["action_mask"]
        return infos

    def _observe_seat(self, seat: int, deciders: list[int]) -> dict[str, np.ndarray]:
        g = self.game
        observation = g.observation(seat)
        if seat in deciders:  # the face-down step asks both seats at once: both are to decide
            observation[self._to_decide] = 1
        observed = {"observation": observation, "action_mask": self._mask(seat, deciders)}
        if self.history:
            observed["history"] = history_tokens(g.recent_events(seat, self.history), self.history,
                                                 1 + g.EVENT_ARGS)
        return observed

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is None and self.game.seed is not None:
            seed = int(self.game.rng.integers(2**62))
        self.game.reset(seed)
        self.cycles = 0
        self.agents = self.possible_agents[:]
        self._last = self.game.returns()
        observations = self._observe()
        return observations, self._infos(observations, {})

    def _illegal(self, actions: dict[str, Any], deciders: list[int]) -> dict[str, IllegalActionError]:
        """Every agent whose action its mask forbids (checked before anything is applied)."""
        g = self.game
        bad: dict[str, IllegalActionError] = {}
        for agent, action in actions.items():
            seat = self.possible_agents.index(agent)
            if not is_integer(action):  # 1.0, True, '31', Decimal: never an action (as in the AEC env)
                bad[agent] = IllegalActionError(action, seat, g.phase_name,
                                                reason=f"not an integer action ({type(action).__name__})")
                continue
            a = int(action)
            if not 0 <= a < act.NUM_ACTIONS:
                bad[agent] = IllegalActionError(action, seat, g.phase_name,
                                                reason=f"actions are integers 0..{act.NUM_ACTIONS - 1}")
            elif seat not in deciders:
                if a != act.WAIT:
                    bad[agent] = IllegalActionError(a, seat, g.phase_name, g.action_name(a),
                                                    reason="it has nothing to decide; its only action is 0 (wait)")
            elif not self._mask(seat, deciders)[a]:
                bad[agent] = IllegalActionError(a, seat, g.phase_name, g.action_name(a), reason="masked out")
        return bad

    def step(self, actions: dict[str, int]):
        g = self.game
        deciders = self._deciders()
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise ConfigError(f"onmyoji parallel_env: {', '.join(unknown)} not among the live agents {self.agents}")
        for seat in deciders:
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ConfigError(f"onmyoji parallel_env: no action for {agent}, which must decide")
        bad = self._illegal(actions, deciders)
        if bad:
            if not self.penalize_illegal:
                raise next(iter(bad.values()))
            EnvLogger.warn_on_illegal_move()
            return self._end_for_illegal_actions(bad)
        # The face-down step is two game steps: when the step cap leaves room for only the first,
        # the game is truncated before either card is played, so no joint action is half applied.
        capped = g.steps + len(deciders) > g.max_steps
        if not capped:
            for seat in deciders:
                g.step(int(actions[self.possible_agents[seat]]))
        self.cycles += 1
        returns = g.returns()
        delta = returns - self._last
        self._last = returns
        agents = self.agents
        rewards = {a: float(delta[i]) for i, a in enumerate(self.possible_agents) if a in agents}
        terminated = g.is_terminal
        truncated = g.is_truncated or capped or (not terminated and self.max_cycles is not None
                                                 and self.cycles >= self.max_cycles)
        terms = dict.fromkeys(agents, terminated)
        truncs = dict.fromkeys(agents, truncated)
        if truncated:
            self.agents = []  # the cap ends the game for the observation too: every mask is wait-only
        observations = self._observe_for(agents)
        infos = self._infos(observations, {})
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terms, truncs, infos

    def _end_for_illegal_actions(self, bad: dict[str, IllegalActionError]):
        """``illegal_action="penalize"``: the game ends at once, -1 to each offender, 0 to the others."""
        agents = self.agents
        observations = self._observe()
        rewards = {a: -1.0 if a in bad else 0.0 for a in agents}
        terms = dict.fromkeys(agents, True)
        truncs = dict.fromkeys(agents, False)
        infos = self._infos(observations, {a: {"illegal_action": True} for a in bad})
        self.agents = []
        return observations, rewards, terms, truncs, infos

    def state(self) -> np.ndarray:
        return self.game.state_tensor()

    def render(self) -> str | None:
        return render_in_mode(self.game, self.render_mode)

    def close(self) -> None:
        pass


def parallel_env(**options: Any) -> OnmyojiParallelEnv:
    return OnmyojiParallelEnv(**options)
