"""Single-seat gymnasium env for Stable-Baselines3: one learner, the other seats played by bots.

    env = yokai_envs.training.make_gym("yonkai_no_yokai_v1", opponents=["random"], num_players=4)

It drives the bare :class:`~yokai_envs.core.game.Game` directly (no PettingZoo in the loop):
``step(action)`` plays the learner's move, then lets the opponents move until the learner must
decide again or the game ends.

* **Seat**: ``learner_seat=None`` rotates the learner over the seats, one episode each;
  an int fixes it.
* **Opponents**: every episode each other seat gets an agent drawn from the opponent pool
  (specs such as ``"random"``, ``"heuristic"``, ``"policy:PATH"``, with sampling weights).
  ``set_opponent_pool`` replaces the pool while training runs (self-play snapshots), also
  through ``VecEnv.env_method``.
* **Reward**: the change of the *learner's* entry of ``game.returns()`` since its previous
  decision, i.e. what its own move and all the opponents' moves after it did to the learner's
  return. Opponents' rewards never leak in.
* **Teams**: in a cooperative game (Onmyoji Co-op) every seat is the learner's: the policy
  plays whichever teammate must decide (parameter sharing), and no opponents are needed;
  the reward is the team's mean return.
  A single-seat game (Onmyoji Solo) needs no opponents either.
* **Seeds**: ``reset(seed=s)`` replays the same episode on a fresh or a reused env (seat, opponents
  and their randomness, the deal all come from ``s``); ``reset()`` without a seed goes on from
  the env's generator.
* ``action_masks()`` gives sb3-contrib's MaskablePPO the legal moves; when no decision is
  pending (before ``reset``, after the episode ended) it is all True, never all False: a vector
  env with next-step autoreset asks a policy for an action it then drops, and an all-False mask
  would make masked logits NaN. ``mask_in_infos=True`` also puts the mask in every ``info``
  (``info["action_mask"]``). ``state()`` gives the
  full state tensor. ``critic_state=True`` appends it to every observation, for a centralized
  critic (``yokai_envs.training.common.policies.StateCriticPolicy`` keeps it away from the actor).

* ``skip_forced=True``: the env plays the learner's forced decisions (exactly one legal
  action) itself, so the policy only sees real choices; their reward is folded into the next step.

The final ``info`` of an episode holds ``returns`` (all seats), ``learner_seat``, ``win``
(1 for a win, 1/k for a win shared by k seats, 0 otherwise; see :meth:`Game.win_credits`),
``opponents`` (who the learner played: :meth:`YokaiGymEnv.opponent_labels`) and ``skipped``
(forced decisions played by the env).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.base import act_in_game
from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game, is_integer, win_credits
from yokai_envs.core.protocols import observation_bounds
from yokai_envs.core.render import render_in_mode
from yokai_envs.registry import make_game

# A game too short for the learner to ever decide is dealt again; this many tries at most.
_MAX_REDEALS = 100
# An action outside the mask: "penalize" ends the episode with ILLEGAL_ACTION_REWARD for the
# learner (PettingZoo's TerminateIllegalWrapper; SB3's check_env plays unmasked random actions),
# "raise" raises IllegalActionError. A masked policy never triggers either.
ILLEGAL_ACTION_MODES = ("penalize", "raise")
ILLEGAL_ACTION_REWARD = -1.0
OpponentSpec = Any  # a spec string ("random", "policy:PATH", ...) or an agents.base.Agent
# Policy opponents (self-play snapshots) are stateless apart from their rng: one loaded copy per
# spec serves every env and seat in a process instead of one network per env and seat. A mixture
# is not: the network it drew is its game's, so each env and seat keeps its own.
_SHARED_POLICY_AGENTS: dict[str, Any] = {}


def build_agent(spec: OpponentSpec, env_id: str, env_options: dict[str, Any] | None = None,
                seed: int | None = None) -> Any:
    """An agent from a spec string through ``agents.make`` (an Agent instance is used as is)."""
    if not isinstance(spec, str):
        if not hasattr(spec, "act"):
            raise ConfigError(f"opponent {spec!r} is neither a spec string nor an agent with act()")
        return spec
    from agents.specs import make

    return make(spec, env_id, env_options, seed=seed)


class YokaiGymEnv(gym.Env):
    """See the module docstring. Build it with :func:`make_gym`."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, env_id: str | type[Game], opponents: Sequence[OpponentSpec] | None = None,
                 learner_seat: int | None = None, opponent_weights: Sequence[float] | None = None,
                 render_mode: str | None = None, illegal_action: str = "penalize", critic_state: bool = False,
                 mask_in_infos: bool = False, skip_forced: bool = False, **options: Any) -> None:
        super().__init__()
        for name, flag in (("critic_state", critic_state), ("mask_in_infos", mask_in_infos),
                           ("skip_forced", skip_forced)):
            if not isinstance(flag, bool | np.bool_):  # 'no' would be truthy
                raise ConfigError(f"option {name} must be True or False, got {type(flag).__name__} {flag!r}")
        if isinstance(opponents, str) or (opponents is not None and not isinstance(opponents, Sequence)):
            raise ConfigError(f"opponents must be a list of agent specs (e.g. ['random']), got "
                              f"{type(opponents).__name__} {opponents!r}")
        # A Game subclass instead of an id builds that class (tests use scripted toy games).
        self.game: Game = make_game(env_id, **options) if isinstance(env_id, str) else env_id(**options)
        self.env_id: str = self.game.env_id
        self.options = dict(options)
        game = self.game
        self.num_players = game.num_players
        self.cooperative = game.cooperative
        if learner_seat is not None and not (isinstance(learner_seat, int | np.integer)
                                             and not isinstance(learner_seat, bool)
                                             and 0 <= learner_seat < self.num_players):
            raise ConfigError(f"learner_seat {learner_seat!r} must be None (rotate) or a seat "
                              f"0..{self.num_players - 1}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action {illegal_action!r} is not one of {ILLEGAL_ACTION_MODES}")
        self.penalize_illegal = illegal_action == "penalize"
        self.mask_in_infos = bool(mask_in_infos)
        self.skip_forced = bool(skip_forced)
        #: the learner's forced decisions the env played itself this episode (``skip_forced``)
        self.skipped = 0
        self.fixed_seat = None if learner_seat is None else int(learner_seat)
        self.needs_opponents = self.num_players > 1 and not self.cooperative
        self._agents: dict[tuple[Any, int], Any] = {}
        self._pool: list[OpponentSpec] = []
        self._pool_p = np.zeros(0)
        self.set_opponent_pool(list(opponents or []), opponent_weights)

        low, high = observation_bounds(game)
        self.critic_state = bool(critic_state)
        if self.critic_state:  # observation ++ full state (for a centralized critic only)
            unbounded = np.full(game.state_size, np.inf, dtype=np.float32)
            low, high = np.concatenate([low, -unbounded]), np.concatenate([high, unbounded])
        self.actor_obs_size = game.observation_size
        self.observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(game.num_actions)
        self.observation_layout = game.observation_layout

        self.learner_seat = 0 if self.fixed_seat is None else self.fixed_seat
        self._episode = 0
        self._seat_offset = 0
        self._seat_agents: list[Any] = [None] * self.num_players
        self._seat_specs: list[Any] = [None] * self.num_players
        self._last_return = 0.0
        self._game_started = False

    # ------------------------------------------------------------------ opponent pool
    def set_opponent_pool(self, opponents: Sequence[OpponentSpec], weights: Sequence[float] | None = None) -> None:
        """Replace the opponent pool (applies from the next episode); weights default to equal."""
        opponents = list(opponents)
        if weights is None:
            weights = [1.0] * len(opponents)
        weights = [float(w) for w in weights]
        if len(weights) != len(opponents):
            raise ConfigError(f"{len(opponents)} opponents but {len(weights)} weights")
        if any(w < 0 for w in weights) or (opponents and sum(weights) <= 0):
            raise ConfigError(f"opponent weights must be >= 0 with a positive sum, got {weights}")
        if self.needs_opponents and not opponents:
            raise ConfigError(f"{self.env_id} with {self.num_players} seats needs at least one opponent spec")
        keep = {_spec_key(s) for s in opponents}
        self._agents = {k: a for k, a in self._agents.items() if k[0] in keep}
        for spec in [s for s in _SHARED_POLICY_AGENTS if s not in keep]:
            del _SHARED_POLICY_AGENTS[spec]
        self._pool = opponents
        self._pool_p = np.asarray(weights) / sum(weights) if opponents else np.zeros(0)

    def opponent_pool(self) -> list[tuple[OpponentSpec, float]]:
        """The opponent specs the other seats are drawn from, each with its probability."""
        return list(zip(self._pool, self._pool_p.tolist()))

    def _agent_for(self, spec: OpponentSpec, seat: int, build_seed: int) -> Any:
        key = (_spec_key(spec), seat)
        agent = self._agents.get(key)
        if agent is None:
            shared = isinstance(spec, str) and spec.startswith("policy:")
            agent = _SHARED_POLICY_AGENTS.get(spec) if shared else None
            if agent is None:
                agent = build_agent(spec, self.env_id, self.options, build_seed)
                if shared and len(getattr(agent, "mixture", ())) <= 1:
                    _SHARED_POLICY_AGENTS[spec] = agent
            self._agents[key] = agent
        return agent

    def _seat_opponents(self, rng: np.random.Generator) -> None:
        for seat in range(self.num_players):
            if self._controls(seat) or not self._pool:
                self._seat_agents[seat] = self._seat_specs[seat] = None
                continue
            # The same draws whether or not the agent is already built, so that an episode depends
            # on its seed only, not on what earlier episodes of this env built.
            spec = self._pool[int(rng.choice(len(self._pool), p=self._pool_p))]
            build_seed, episode_seed = (int(x) for x in rng.integers(2**31, size=2))
            agent = self._agent_for(spec, seat, build_seed)
            agent.reset(episode_seed)
            self._seat_agents[seat] = agent
            self._seat_specs[seat] = spec

    # ------------------------------------------------------------------ gym API
    def _controls(self, seat: int) -> bool:
        return self.cooperative or seat == self.learner_seat

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:  # a seeded episode is the first of a new sequence: same seed, same episode
            self._episode = 0
            self._seat_offset = int(self.np_random.integers(self.num_players))
        if self.fixed_seat is None:
            self.learner_seat = (self._episode + self._seat_offset) % self.num_players
        self._episode += 1
        # Everything this episode draws comes from one child generator, so the deal, the opponents
        # and their seeds do not shift with how many draws earlier episodes made.
        rng = np.random.default_rng(int(self.np_random.integers(2**62)))
        game = self.game
        for _ in range(_MAX_REDEALS):
            self.skipped = 0
            game.reset(int(rng.integers(2**62)))
            self._seat_opponents(rng)
            self._last_return = self._learner_return()
            self._play_opponents()
            if not game.is_over:
                break
        else:
            raise RuntimeError(f"{self.env_id}: {_MAX_REDEALS} deals in a row ended before the learner could act")
        self._game_started = True
        # Reward earned before the learner's first decision (forced opening moves) is folded in
        # by not resetting the baseline: it is handed out with the first step.
        return self._observe(), self._info({"learner_seat": self.learner_seat})

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        if self.mask_in_infos:
            info["action_mask"] = self.action_masks()
        return info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        game = self.game
        if game.is_over or not self._game_started:
            raise RuntimeError("the episode is over; call reset()")
        if self.penalize_illegal and not _is_legal(game, action):
            self._game_started = False
            penalty = {"illegal_action": True, "learner_seat": self.learner_seat, "win": 0.0,
                       "returns": np.asarray(game.returns(), dtype=np.float64).tolist()}
            return self._observe(), ILLEGAL_ACTION_REWARD, True, False, self._info(penalty)
        game.step(action)
        self._play_opponents()
        now = self._learner_return()
        reward = now - self._last_return
        self._last_return = now
        terminated = game.is_terminal
        truncated = game.is_truncated
        info: dict[str, Any] = {}
        if terminated or truncated:
            returns = np.asarray(game.returns(), dtype=np.float64)
            info = {"returns": returns.tolist(), "learner_seat": self.learner_seat,
                    "win": float(win_credits(returns, self.cooperative)[self.learner_seat]),
                    "opponents": self.opponent_labels(), "skipped": self.skipped}
            self._game_started = False
        return self._observe(), float(reward), bool(terminated), bool(truncated), self._info(info)

    def _learner_return(self) -> float:
        returns = self.game.returns()
        if self.cooperative:
            return float(np.mean(returns))
        return float(returns[self.learner_seat])

    def opponent_labels(self) -> list[str]:
        """Who the learner played this episode, one label per distinct opponent (a spec string;
        every self-play snapshot is ``self-play``): the per-opponent training curves."""
        labels = set()
        for spec in self._seat_specs:
            if spec is None:
                continue
            if isinstance(spec, str):
                snapshot = spec.startswith("policy:") and "snapshots" in spec and "step_" in spec
                labels.add("self-play" if snapshot else spec)
            else:
                labels.add(type(spec).__name__)
        return sorted(labels)

    def _play_opponents(self) -> None:
        game = self.game
        while not game.is_over:
            seat = game.current_player
            if self._controls(seat):
                if not self.skip_forced:
                    return
                legal = np.flatnonzero(game.legal_action_mask())
                if len(legal) != 1:
                    return
                game.step(int(legal[0]))  # a forced decision: no learner step (skip_forced)
                self.skipped += 1
                continue
            game.step(act_in_game(self._seat_agents[seat], game))

    def _observe(self) -> np.ndarray:
        game = self.game
        seat = game.current_player if self.cooperative and not game.is_over else self.learner_seat
        if self.cooperative and game.is_over:
            seat = 0
        obs = np.asarray(game.observation(seat), dtype=np.float32)
        if self.critic_state:
            return np.concatenate([obs, np.asarray(game.state_tensor(), dtype=np.float32)])
        return obs

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's pending decision; all True when none is pending (before
        ``reset``, after the episode ended), so a masked policy never sees an all-False row."""
        if not self._game_started or self.game.is_over:
            return np.ones(self.game.num_actions, dtype=bool)
        return np.array(self.game.legal_action_mask(), dtype=bool)

    def state(self) -> np.ndarray:
        """The full state tensor (everything, including hidden cards): for centralized critics."""
        return self.game.state_tensor()

    # gymnasium types render's frame as a TypeVar bound to no class, which no concrete frame
    # type (here the ansi text) can override
    def render(self) -> str | None:  # type: ignore[override]
        return render_in_mode(self.game, self.render_mode)


def _is_legal(game: Game, action: Any) -> bool:
    # 1.0, True, '31', Decimal(1): never an action, however they convert (the AEC env's rule)
    return is_integer(action) and 0 <= int(action) < game.num_actions and bool(game.legal_action_mask()[int(action)])


def _spec_key(spec: OpponentSpec) -> Any:
    return spec if isinstance(spec, str) else id(spec)


def make_gym(env_id: str | type[Game], opponents: Sequence[OpponentSpec] | None = None, learner_seat: int | None = None,
             opponent_weights: Sequence[float] | None = None, **options: Any) -> YokaiGymEnv:
    """A single-seat gymnasium env over ``env_id`` for SB3 (see :class:`YokaiGymEnv`).

    ``opponents`` are agent specs (or Agent instances) sampled per seat and episode with
    ``opponent_weights``; ``learner_seat`` None rotates the learner's seat each episode;
    other keyword options go to the game (e.g. ``num_players=4``).
    """
    return YokaiGymEnv(env_id, opponents=opponents, learner_seat=learner_seat,
                       opponent_weights=opponent_weights, **options)
