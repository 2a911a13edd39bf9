"""One PettingZoo AEC env for every game: a thin adapter over a :class:`Game`.

Agents are ``player_0..player_{n-1}`` (seat ``i`` is ``player_i``). Observations follow
PettingZoo's classic games: ``{"observation": float32 Box, "action_mask": int8 Box}``; the mask
is all zeros for an agent that is not the one to act. Rewards handed out at a step are the
change in ``game.returns()`` caused by it. ``state()`` is ``game.state_tensor()``.

Option ``history=K`` (K > 0) adds ``observation["history"]``: the last K events the agent saw
(:mod:`yokai_envs.core.information`), an int32 ``(K, 1 + EVENT_ARGS)`` array of rows
``(kind, *args)``, oldest first, padded with -1; each game's README lists its event kinds.

Illegal actions (masked out, out of range, negative, None, bool, float or any non-integer)
follow PettingZoo's classic games by default (``illegal_action="penalize"``, its
``TerminateIllegalWrapper``): the game ends at once, the offender gets -1 and the others 0, with
PettingZoo's illegal-move warning and ``infos[offender]["illegal_action"] = True``. With
``illegal_action="raise"`` the env raises :class:`IllegalActionError` and changes nothing (for
debugging an agent that should never pick one).

Other env options: ``max_cycles=K`` (PettingZoo's name for a step cap: no agent makes more
than K decisions; the game is truncated first; ``max_steps`` caps all decisions together),
``mask_in_infos=True`` (each agent's mask also in ``infos[agent]["action_mask"]``, where
AgileRL and PettingZoo's ``TerminateIllegalWrapper`` look for it). ``action_space(agent)`` is a
:class:`~yokai_envs.envs.spaces.LegalDiscrete`: ``sample()`` without a mask draws a legal action
of the agent's pending decision. A Box-only observation (mask appended, for SuperSuit) is
:mod:`yokai_envs.envs.flat`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.core.game import Game
from yokai_envs.core.information import HISTORY_PAD, history_tokens
from yokai_envs.core.render import render_in_mode
from yokai_envs.envs.spaces import LegalDiscrete

ENV_OPTIONS: dict[str, Any] = {"render_mode": None, "illegal_action": "raise", "history": 0, "mask_in_infos": False}
ILLEGAL_ACTION_MODES = ("raise", "penalize")
#: The AEC env's default for an illegal action: PettingZoo's classic games end the game with -1
#: for the offender. (``ENV_OPTIONS`` keeps "raise" for the Onmyoji Parallel env until it can
#: penalize; the AEC env uses this default when the option is not given.)
DEFAULT_ILLEGAL_ACTION = "penalize"


def split_options(game_class: type[Game], options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split ``options`` into (env options, game options); unknown names raise ConfigError."""
    game_names = {*game_class.OPTIONS, *game_class.CAP_OPTIONS}
    unknown = sorted(set(options) - game_names - set(ENV_OPTIONS))
    if unknown:
        valid = ", ".join(sorted(game_names | set(ENV_OPTIONS)))
        raise ConfigError(f"{game_class.env_id}: unknown option(s) {', '.join(unknown)}; valid options: {valid}")
    env_opts = {k: options.get(k, v) for k, v in ENV_OPTIONS.items()}
    game_opts = {k: v for k, v in options.items() if k in game_names}
    return env_opts, game_opts


class YokaiAECEnv(AECEnv, EzPickle):
    """Generic AEC env; each game module subclasses it as ``raw_env`` with its ``game_class``."""

    game_class: ClassVar[type[Game]]
    metadata: ClassVar[dict[str, Any]] = {"name": "yokai", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, **options: Any) -> None:
        EzPickle.__init__(self, **options)
        super().__init__()
        env_opts, game_opts = split_options(self.game_class, options)
        if "illegal_action" not in options:
            env_opts["illegal_action"] = DEFAULT_ILLEGAL_ACTION
        if env_opts["render_mode"] not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode {env_opts['render_mode']!r} is not one of "
                              f"{self.metadata['render_modes']}")
        if env_opts["illegal_action"] not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action {env_opts['illegal_action']!r} is not one of {ILLEGAL_ACTION_MODES}")
        history = env_opts["history"]
        if isinstance(history, bool) or not isinstance(history, int) or history < 0:
            raise ConfigError(f"option history must be an int >= 0 (events kept in the observation), got {history!r}")
        self.history: int = history
        self.render_mode: str | None = env_opts["render_mode"]
        self.penalize_illegal = env_opts["illegal_action"] == "penalize"
        self.mask_in_infos = bool(env_opts["mask_in_infos"])
        self.game: Game = self.game_class(**game_opts)
        game = self.game
        if history:
            game.record_information()
        n = game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.observation_layout: dict[str, slice] = game.observation_layout
        low, high = game.observation_bounds()
        blocks: dict[str, spaces.Space] = {
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        }
        if self.history:
            blocks["history"] = spaces.Box(low=HISTORY_PAD, high=np.iinfo(np.int32).max,
                                           shape=(self.history, 1 + game.EVENT_ARGS), dtype=np.int32)
        obs_space = spaces.Dict(blocks)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: LegalDiscrete(game.num_actions, self._legal_mask_of(agent))
                              for agent in self.possible_agents}
        self.state_space = spaces.Box(low=-np.inf, high=np.inf, shape=(game.state_size,), dtype=np.float32)
        self._no_mask = np.zeros(game.num_actions, dtype=np.int8)
        self._last_returns = np.zeros(n)
        self.agents: list[str] = []

    def _legal_mask_of(self, agent: str) -> Callable[[], np.ndarray | None]:
        def legal() -> np.ndarray | None:
            if agent not in self.agents or getattr(self, "agent_selection", None) != agent:
                return None
            return self._mask_of(agent)
        return legal

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        game = self.game
        if seed is None:
            # Draw a fresh seed from the previous game's generator, so a seeded env stays
            # reproducible over many resets without touching global random state.
            seed = int(game.rng.integers(2**62)) if game.seed is not None else None
        game.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._last_returns = np.array(game.returns(), dtype=np.float64)
        self._sync_after_step()

    def _mask_of(self, agent: str) -> np.ndarray:
        if (agent == self.agent_selection and not self.game.is_over and not self.terminations.get(agent)
                and not self.truncations.get(agent)):
            return self.game.legal_action_mask().astype(np.int8)
        return self._no_mask.copy()

    def _masks_to_infos(self) -> None:
        for agent in self.agents:
            if agent in self.infos:
                self.infos[agent]["action_mask"] = self._mask_of(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        seat = self.agent_name_mapping[agent]
        observed = {"observation": game.observation(seat), "action_mask": self._mask_of(agent)}
        if self.history:
            observed["history"] = history_tokens(game.recent_events(seat, self.history), self.history,
                                                 1 + game.EVENT_ARGS)
        return observed

    def state(self) -> np.ndarray:
        return self.game.state_tensor()

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        try:
            game.step(action)
        except IllegalActionError:
            if not self.penalize_illegal:
                raise
            EnvLogger.warn_on_illegal_move()
            self._end_for_illegal_action(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._hand_out_rewards()
        self._sync_after_step()

    def _hand_out_rewards(self) -> None:
        returns = self.game.returns()
        rewards = self.rewards
        if np.array_equal(returns, self._last_returns):
            for agent in rewards:
                rewards[agent] = 0.0
            return
        delta = returns - self._last_returns
        self._last_returns = np.array(returns, dtype=np.float64)
        for agent in self.agents:
            rewards[agent] = float(delta[self.agent_name_mapping[agent]])
        self._accumulate_rewards()

    def _sync_after_step(self) -> None:
        game = self.game
        if game.is_over:
            truncated = game.is_truncated
            for agent in self.agents:
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
            for agent, seat in self.agent_name_mapping.items():
                if agent in self.infos:
                    self.infos[agent] = {"returns": float(game.returns()[seat])}
            # Any agent can be the one to observe the end; keep the deciding agent's turn order.
            if not self.agent_selection_valid():
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self.mask_in_infos:
            self._masks_to_infos()

    def agent_selection_valid(self) -> bool:
        return getattr(self, "agent_selection", None) in self.agents

    def _end_for_illegal_action(self, offender: str) -> None:
        for agent in self.agents:
            self.terminations[agent] = True
            self.rewards[agent] = -1.0 if agent == offender else 0.0
        self._cumulative_rewards[offender] = 0.0
        self._accumulate_rewards()
        self.infos[offender] = {"illegal_action": True}
        self.agent_selection = offender
        if self.mask_in_infos:
            self._masks_to_infos()

    def render(self) -> str | None:
        return render_in_mode(self.game, self.render_mode)

    def close(self) -> None:
        pass


def wrap(raw: YokaiAECEnv) -> AECEnv:
    """The PettingZoo wrappers of the classic games, minus TerminateIllegal (the raw env does it
    when asked) and AssertOutOfBounds: its bare ``AssertionError`` would pre-empt the raw env's
    :class:`IllegalActionError` (naming action, seat and phase) for out-of-range, negative,
    None and float actions, and the penalty of ``illegal_action="penalize"``."""
    return wrappers.OrderEnforcingWrapper(raw)
