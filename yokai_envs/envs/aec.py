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
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.core.game import Game
from yokai_envs.core.information import HISTORY_PAD, history_tokens
from yokai_envs.core.protocols import observation_bounds
from yokai_envs.core.render import render_in_mode
from yokai_envs.envs.spaces import LegalDiscrete

ILLEGAL_ACTION_MODES = ("raise", "penalize")
#: Every env's default for an illegal action (AEC, Parallel, gym): PettingZoo's classic games end
#: the game with -1 for the offender.
DEFAULT_ILLEGAL_ACTION = "penalize"
ENV_OPTIONS: dict[str, Any] = {"render_mode": None, "illegal_action": DEFAULT_ILLEGAL_ACTION, "history": 0,
                               "mask_in_infos": False}
#: Most events the ``history`` observation keeps (each agent's observation holds that many rows).
MAX_HISTORY = 4096
#: What PettingZoo's ``OrderEnforcingWrapper`` refuses to hand out before the first reset.
BEFORE_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents",
                          "agents"})


def split_options(game_class: type[Game], options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split ``options`` into (env options, game options); unknown names raise ConfigError."""
    game_names = {*game_class.OPTIONS, *game_class.CAP_OPTIONS}
    unknown = sorted(set(options) - game_names - set(ENV_OPTIONS))
    if unknown:
        valid = ", ".join(sorted(game_names | set(ENV_OPTIONS)))
        raise ConfigError(f"{game_class.env_id}: unknown option(s) {', '.join(unknown)}; valid options: {valid}")
    env_opts = {k: options.get(k, v) for k, v in ENV_OPTIONS.items()}
    game_opts = {k: v for k, v in options.items() if k in game_names}
    if not isinstance(env_opts["mask_in_infos"], bool | np.bool_):  # 'no' would be truthy
        raise ConfigError(f"option mask_in_infos must be True or False, got "
                          f"{type(env_opts['mask_in_infos']).__name__} {env_opts['mask_in_infos']!r}")
    history = env_opts["history"]
    if isinstance(history, int) and not isinstance(history, bool) and history > MAX_HISTORY:
        row = 4 * (1 + game_class.EVENT_ARGS)
        raise ConfigError(f"option history={history} would need {history * row / 2**20:,.0f} MiB per observation "
                          f"({history} rows of {row} bytes); at most {MAX_HISTORY} events")
    return env_opts, game_opts


class YokaiAECEnv(AECEnv, EzPickle):
    """Generic AEC env; each game module subclasses it as ``raw_env`` with its ``game_class``."""

    game_class: ClassVar[type[Game]]
    #: Set by :func:`wrap`: the env itself does what PettingZoo's ``OrderEnforcingWrapper`` does
    #: (errors before reset, the warning for a step with no agents left, ``agent_iter``'s check
    #: that each agent steps), without a wrapper forwarding every attribute on every call.
    _checks_order: bool = False
    _has_reset: bool = False
    _has_updated: bool = False
    metadata: ClassVar[dict[str, Any]] = {"name": "yokai", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, **options: Any) -> None:
        EzPickle.__init__(self, **options)
        super().__init__()
        env_opts, game_opts = split_options(self.game_class, options)
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
        low, high = observation_bounds(game)
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
        self._last_returns_list: list[float] = [0.0] * n
        self._rewards_zero = True
        self.agents: list[str] = []

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails: costs nothing on the hot path.
        if name in BEFORE_RESET and self._checks_order and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def enforce_order(self) -> None:
        """Check the order of calls as PettingZoo's ``OrderEnforcingWrapper`` does (see :func:`wrap`)."""
        self._checks_order = True
        if not self._has_reset:
            self.__dict__.pop("agents", None)

    def __getstate__(self) -> dict[str, Any]:
        # EzPickle rebuilds the env from its options; keep the order checks of a made env.
        return {**EzPickle.__getstate__(self), "_checks_order": self._checks_order}

    def __setstate__(self, state: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, state)
        if state.get("_checks_order"):
            self.enforce_order()

    def _legal_mask_of(self, agent: str) -> Callable[[], np.ndarray | None]:
        def legal() -> np.ndarray | None:
            if agent not in getattr(self, "agents", ()) or getattr(self, "agent_selection", None) != agent:
                return None
            return self._mask_of(agent)
        return legal

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
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
        self._last_returns_list = self._last_returns.tolist()
        self._rewards_zero = True
        self._sync_after_step()

    def _mask_of(self, agent: str) -> np.ndarray:
        # a finished game's mask is all False already; an agent the env ended (an illegal action
        # under "penalize") has none either, although its game goes on
        if agent == self.agent_selection and not self.terminations.get(agent) and not self.truncations.get(agent):
            return self.game.legal_action_mask().astype(np.int8)
        return self._no_mask.copy()

    def _masks_to_infos(self) -> None:
        for agent in self.agents:
            if agent in self.infos:
                self.infos[agent]["action_mask"] = self._mask_of(agent)

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if not self._checks_order:
            return super().agent_iter(max_iter)
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderCheckingIterable(self, max_iter)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._checks_order and not self._has_reset:
            EnvLogger.error_observe_before_reset()
        game = self.game
        seat = self.agent_name_mapping[agent]
        observed = {"observation": game.observation(seat), "action_mask": self._mask_of(agent)}
        if self.history:
            observed["history"] = history_tokens(game.recent_events(seat, self.history), self.history,
                                                 1 + game.EVENT_ARGS)
        return observed

    def state(self) -> np.ndarray:
        if self._checks_order and not self._has_reset:
            EnvLogger.error_state_before_reset()
        return self.game.state_tensor()

    def step(self, action: int) -> None:
        if self._checks_order:
            if not self._has_reset:
                EnvLogger.error_step_before_reset()
            self._has_updated = True
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()
                return
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
        # Returns change only at round and game ends: compare plain floats, and touch the
        # rewards only when they change or were non-zero.
        returns = self.game.returns()
        now = returns.tolist() if isinstance(returns, np.ndarray) else [float(r) for r in returns]
        if now == self._last_returns_list:
            if not self._rewards_zero:
                rewards = self.rewards
                for agent in rewards:
                    rewards[agent] = 0.0
                self._rewards_zero = True
            return
        delta = returns - self._last_returns
        self._last_returns = np.array(returns, dtype=np.float64)
        self._last_returns_list = now
        rewards = self.rewards
        for agent in self.agents:
            rewards[agent] = float(delta[self.agent_name_mapping[agent]])
        self._rewards_zero = False
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
        """Whether ``agent_selection`` names an agent still in the game."""
        return getattr(self, "agent_selection", None) in self.agents

    def _end_for_illegal_action(self, offender: str) -> None:
        for agent in self.agents:
            self.terminations[agent] = True
            self.rewards[agent] = -1.0 if agent == offender else 0.0
        self._cumulative_rewards[offender] = 0.0
        self._accumulate_rewards()
        self._rewards_zero = False
        self.infos[offender] = {"illegal_action": True}
        self.agent_selection = offender
        if self.mask_in_infos:
            self._masks_to_infos()

    def render(self) -> str | None:
        if self._checks_order and not self._has_reset:
            EnvLogger.error_render_before_reset()
        return render_in_mode(self.game, self.render_mode)

    def close(self) -> None:
        pass


class _OrderCheckingIterable(AECIterable):
    def __iter__(self) -> AECIterator:
        return _OrderCheckingIterator(self.env, self.max_iter)


class _OrderCheckingIterator(AECIterator):
    """PettingZoo's ``AECOrderEnforcingIterator``: every agent handed out must step (or reset)."""

    def __next__(self) -> str:
        agent = super().__next__()
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return agent


def wrap(raw: YokaiAECEnv) -> YokaiAECEnv:
    """The checks of PettingZoo's wrappers for the classic games, done by the env itself.

    ``OrderEnforcingWrapper``'s (turned on here, :meth:`YokaiAECEnv.enforce_order`): the same
    errors and warnings, without its attribute forwarding on every call (~40% of a step). Not
    TerminateIllegal (the raw env does it when asked) nor AssertOutOfBounds: its bare
    ``AssertionError`` would pre-empt the raw env's :class:`IllegalActionError` (naming action,
    seat and phase) for out-of-range, negative, None and float actions, and the penalty of
    ``illegal_action="penalize"``; the raw env checks bounds itself. ``env.unwrapped`` is the env."""
    raw.enforce_order()
    return raw
