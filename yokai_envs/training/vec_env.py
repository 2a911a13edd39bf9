"""Vectorized single-seat training envs over :class:`~yokai_envs.yonkai_no_yokai.vector.VectorGame`.

    venv = yokai_envs.training.make_vec_gym("yonkai_no_yokai_v1", num_envs=256, opponents=["random"])
    venv = yokai_envs.training.make_vec_gym(..., api="sb3")        # an SB3 VecEnv, for MaskablePPO

N games in one batched engine; in each one learner seat, the other seats played by batched bots
(``random``: a uniform legal action; ``heuristic``: ``agents.heuristics.yonkai_no_yokai.batch_actions``,
the same decisions as the heuristic bot). Per env it behaves as ``make_gym``'s ``YokaiGymEnv``:
the learner's seat rotates episode by episode (``learner_seat=None``) or is fixed, each other
seat's bot is drawn per episode from the pool with ``opponent_weights``, the reward is the change
of the learner's return since its previous decision, and the final ``info`` of an episode holds
``returns``, ``learner_seat``, ``win`` (1/k for a win shared by k seats) and ``opponents``.
``action_masks()`` gives the (num_envs, 49) legal-action masks; every env always has a decision
pending (a finished game is dealt anew at once), so no row is ever all False.

The two front ends share one core: ``api="gymnasium"`` (a ``gymnasium.vector.VectorEnv``,
same-step autoreset, gymnasium 1.x infos: ``infos["final_info"]`` a dict of arrays (``returns``,
``win``...) each with its ``_key`` mask, ``infos["_final_info"]`` the envs that ended, and
``infos["final_obs"]`` likewise) and ``api="sb3"`` (a ``stable_baselines3`` ``VecEnv``:
``infos[i]["terminal_observation"]``, and ``infos[i]["episode"]`` as SB3's ``VecMonitor`` writes
it, so the episode statistics are logged without one).
Only the batched bots above can be opponents (a network or a search bot would need the scalar
env: ``make_gym``). Needs numba (the ``fast`` extra), as ``VectorGame`` does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from yokai_envs import yonkai_no_yokai
from yokai_envs.core.errors import ConfigError

VECTOR_ENV_IDS = (yonkai_no_yokai.ENV_ID,)
BATCHED_OPPONENTS = ("random", "heuristic")
APIS = ("gymnasium", "sb3")


MAX_NUM_ENVS = 1 << 20


def _check_vector_memory(num_envs: int, probe: Any) -> None:
    """ConfigError, with the memory it would take, for a num_envs past MAX_NUM_ENVS or the machine."""
    from yokai_envs.training.common.memory import available_memory

    per_game = sum(value.nbytes for value in vars(probe).values() if isinstance(value, np.ndarray))
    per_game += 4 * (probe.observation_size + probe.state_size + probe.num_actions)  # the env's own buffers
    need = per_game * num_envs
    free = available_memory()
    if num_envs > MAX_NUM_ENVS or (free is not None and need > free):
        have = f"; this machine has {free / 2**30:.1f} GiB available" if free is not None else ""
        raise ConfigError(f"num_envs={num_envs} would need about {need / 2**30:,.1f} GiB "
                          f"({per_game:,} bytes per game){have}; at most {MAX_NUM_ENVS:,} games")


class VectorCore:
    """The batched engine, the learner seats and the bots; the two front ends wrap it."""

    def __init__(self, env_id: str, num_envs: int, opponents: Sequence[str] | None = None,
                 opponent_weights: Sequence[float] | None = None, learner_seat: int | None = None,
                 critic_state: bool = False, seed: int | None = None, **options: Any) -> None:
        if env_id not in VECTOR_ENV_IDS:
            raise ConfigError(f"no vectorized engine for {env_id!r}; games with one: {', '.join(VECTOR_ENV_IDS)} "
                              "(use make_gym and an SB3 DummyVecEnv for the others)")
        from yokai_envs.yonkai_no_yokai.vector import VectorGame

        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive int, got {num_envs!r}")
        probe = VectorGame(1, autoreset=False, **options)  # one game's arrays: the cost of each
        _check_vector_memory(int(num_envs), probe)
        self.env_id = env_id
        self.game = VectorGame(num_envs, autoreset=False, **options)
        game = self.game
        self.num_envs = N = game.num_games
        self.num_players = n = game.num_players
        seat_ok = isinstance(learner_seat, int | np.integer) and not isinstance(learner_seat, bool)
        if learner_seat is not None and not (seat_ok and 0 <= learner_seat < n):
            raise ConfigError(f"learner_seat {learner_seat!r} must be None (rotate) or a seat 0..{n - 1}")
        self.fixed_seat = None if learner_seat is None else int(learner_seat)
        self.critic_state = bool(critic_state)
        self.actor_obs_size = game.observation_size
        self.obs_size = game.observation_size + (game.state_size if self.critic_state else 0)
        self.rng = np.random.default_rng(seed)
        self.set_opponent_pool(list(opponents or []), opponent_weights)
        self._all = np.arange(N)
        self.learner_seat = np.zeros(N, dtype=np.int64)
        self.bots = np.zeros((N, n), dtype=np.int8)  # index into the pool; the learner's own entry unused
        self._episode = np.zeros(N, dtype=np.int64)
        self._seat_offset = np.zeros(N, dtype=np.int64)
        self._carry = np.zeros(N, dtype=np.float32)  # learner reward of a new game before its first decision
        self.decisions = 0  # every seat's decisions stepped so far, the bots' too (for benchmarks)
        from agents.heuristics.yonkai_no_yokai import batch_actions

        self._heuristic = batch_actions

    # ------------------------------------------------------------------ opponents
    def set_opponent_pool(self, opponents: Sequence[str], weights: Sequence[float] | None = None) -> None:
        """Replace the pool of bots (from each env's next episode); weights default to equal."""
        opponents = list(opponents)
        if not opponents:
            raise ConfigError(f"{self.env_id} with {self.num_players} seats needs at least one opponent spec")
        unknown = [s for s in opponents if s not in BATCHED_OPPONENTS]
        if unknown:
            raise ConfigError(f"the vectorized env plays only batched bots ({', '.join(BATCHED_OPPONENTS)}); got "
                              f"{unknown}: use the scalar env (make_gym / training.vec_env: dummy) for those")
        weights = [1.0] * len(opponents) if weights is None else [float(w) for w in weights]
        if len(weights) != len(opponents) or any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ConfigError(f"opponent weights must be one per opponent, >= 0 with a positive sum, got {weights}")
        self.pool = opponents
        self.pool_p = np.asarray(weights) / sum(weights)
        self._is_heuristic = np.array([s == "heuristic" for s in opponents])

    def opponent_labels(self, env: int) -> list[str]:
        seat = self.learner_seat[env]
        return sorted({self.pool[b] for s, b in enumerate(self.bots[env]) if s != seat})

    def _new_episodes(self, games: np.ndarray) -> None:
        """Seats and bots for a new episode in each listed env (the game is already dealt)."""
        if self.fixed_seat is None:
            self.learner_seat[games] = (self._episode[games] + self._seat_offset[games]) % self.num_players
        else:
            self.learner_seat[games] = self.fixed_seat
        self._episode[games] += 1
        self.bots[games] = self.rng.choice(len(self.pool), size=(games.size, self.num_players), p=self.pool_p)

    # ------------------------------------------------------------------ stepping
    def reset(self, seed: int | None = None) -> np.ndarray:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.game.reset(int(self.rng.integers(2**62)))
        self._episode[:] = 0
        self._seat_offset[:] = self.rng.integers(self.num_players, size=self.num_envs)
        self._carry[:] = 0
        self._new_episodes(self._all)
        reward = np.zeros(self.num_envs, dtype=np.float32)
        ended: list[tuple[int, np.ndarray, dict[str, Any]]] = []
        self._play_bots(reward, ended, np.zeros(self.num_envs, dtype=bool))
        self._carry += reward
        return self.observe()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                 list[tuple[int, np.ndarray, dict[str, Any]]]]:
        """The learner's actions in every env, then the bots until each env's learner must
        decide again: (obs, rewards, terminated, truncated, [(env, final obs, final info)])."""
        game = self.game
        actions = np.asarray(actions).reshape(self.num_envs)
        if not np.issubdtype(actions.dtype, np.integer):
            if not np.all(np.mod(actions, 1) == 0):
                raise ValueError(f"actions must be integers 0..{game.num_actions - 1}")
            actions = actions.astype(np.int64)
        reward = self._carry.copy()
        self._carry[:] = 0
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        ended: list[tuple[int, np.ndarray, dict[str, Any]]] = []
        rewards, term, trunc = game.step(actions)
        self.decisions += self.num_envs
        reward += rewards[self._all, self.learner_seat]
        self._finish(term, trunc, terminated, truncated, ended)
        self._play_bots(reward, ended, terminated | truncated, terminated, truncated)
        return self.observe(), reward, terminated, truncated, ended

    def _play_bots(self, reward: np.ndarray, ended: list, done: np.ndarray,
                   terminated: np.ndarray | None = None, truncated: np.ndarray | None = None) -> None:
        game = self.game
        rows = self._all
        while True:
            waiting = (game.status == 0) & (game.to_act != self.learner_seat)
            if not waiting.any():
                return
            seats = game.to_act.astype(np.int64)
            actions = game.random_actions(waiting)
            heuristic = waiting & self._is_heuristic[self.bots[rows, seats]]
            if heuristic.any():
                which = np.flatnonzero(heuristic)
                masks = game.masks()[which]
                actions[which] = self._heuristic(game.hands[which, seats[which]], masks)
            rewards, term, trunc = game.step(actions, waiting)
            self.decisions += int(waiting.sum())
            mine = rewards[rows, self.learner_seat]
            reward += np.where(done, 0.0, mine)  # a new game's reward before the learner decides waits
            self._carry += np.where(done, mine, 0.0)
            if terminated is not None and truncated is not None:
                self._finish(term, trunc, terminated, truncated, ended)
                done |= terminated | truncated

    def _finish(self, term: np.ndarray, trunc: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                ended: list) -> None:
        """Record each game that just ended (final observation and info) and deal a new one."""
        over = term | trunc
        if not over.any():
            return
        game = self.game
        games = np.flatnonzero(over)
        seats = self.learner_seat[games]
        final = self._observe_games(games, seats)
        for j, env in enumerate(games.tolist()):
            returns = game.returns[env].astype(np.float64)
            top = returns == returns.max()
            info = {"returns": returns.tolist(), "learner_seat": int(seats[j]),
                    "win": float(top[seats[j]] / top.sum()), "opponents": self.opponent_labels(env)}
            ended.append((env, final[j], info))
        terminated |= term
        truncated |= trunc
        game.reset_games(over)
        self._new_episodes(games)

    # ------------------------------------------------------------------ views
    def _observe_games(self, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        obs = self.game.observe(seats, games)
        if self.critic_state:
            return np.concatenate([obs, self.game.state_tensors()[games]], axis=1)
        return obs

    def observe(self) -> np.ndarray:
        return self._observe_games(self._all, self.learner_seat)

    def action_masks(self) -> np.ndarray:
        return self.game.masks()


def _spaces(core: VectorCore) -> tuple[Any, Any]:
    from gymnasium import spaces

    low = np.zeros(core.obs_size, dtype=np.float32)
    high = np.ones(core.obs_size, dtype=np.float32)
    if core.critic_state:  # as YokaiGymEnv: the state part is left unbounded
        low[core.actor_obs_size:], high[core.actor_obs_size:] = -np.inf, np.inf
    return spaces.Box(low=low, high=high, dtype=np.float32), spaces.Discrete(core.game.num_actions)


def _gym_vector_class() -> type:
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    class YonkaiVectorEnv(VectorEnv):
        """A gymnasium ``VectorEnv`` (same-step autoreset) over :class:`VectorCore`."""

        metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

        def __init__(self, core: VectorCore) -> None:
            self.core = core
            self.num_envs = core.num_envs
            self.single_observation_space, self.single_action_space = _spaces(core)
            self.observation_space = batch_space(self.single_observation_space, self.num_envs)
            self.action_space = batch_space(self.single_action_space, self.num_envs)

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
                  ) -> tuple[np.ndarray, dict[str, Any]]:
            obs = self.core.reset(seed)
            return obs, {"learner_seat": self.core.learner_seat.copy()}

        def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
            obs, reward, terminated, truncated, ended = self.core.step(actions)
            infos: dict[str, Any] = {}
            for env, observation, info in ended:
                # gymnasium's own batching, as its SyncVectorEnv does in same-step mode: final_info
                # a dict of arrays, each key with its "_key" mask, and "_final_info" the envs that ended
                infos = self._add_info(infos, {"final_obs": observation, "final_info": info}, env)
            return obs, reward.astype(np.float64), terminated, truncated, infos

        def action_masks(self) -> np.ndarray:
            return self.core.action_masks()

        def set_opponent_pool(self, opponents: Sequence[str], weights: Sequence[float] | None = None) -> None:
            self.core.set_opponent_pool(opponents, weights)

    return YonkaiVectorEnv


def _sb3_vec_class() -> type:
    from stable_baselines3.common.vec_env import VecEnv

    class YonkaiSB3VecEnv(VecEnv):
        """An SB3 ``VecEnv`` over :class:`VectorCore`; ``action_masks()`` for MaskablePPO."""

        def __init__(self, core: VectorCore) -> None:
            self.core = core
            self.render_mode = None
            observation_space, action_space = _spaces(core)
            super().__init__(core.num_envs, observation_space, action_space)
            self._actions: np.ndarray | None = None
            self._seed: int | None = None
            self._episode_return = np.zeros(self.num_envs, dtype=np.float64)
            self._episode_length = np.zeros(self.num_envs, dtype=np.int64)
            self._started = time.time()

        def reset(self) -> np.ndarray:
            obs = self.core.reset(self._seed)
            self._seed = None
            self._episode_return[:] = 0.0
            self._episode_length[:] = 0
            return obs

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [seed] * self.num_envs

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = actions

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            assert self._actions is not None, "step_async first"
            obs, reward, terminated, truncated, ended = self.core.step(self._actions)
            infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
            self._episode_return += reward
            self._episode_length += 1
            for env, observation, info in ended:
                info["terminal_observation"] = observation
                info["TimeLimit.truncated"] = bool(truncated[env] and not terminated[env])
                # what SB3's VecMonitor would add, so the logger's ep_rew_mean works without one
                info["episode"] = {"r": float(self._episode_return[env]), "l": int(self._episode_length[env]),
                                   "t": round(time.time() - self._started, 6)}
                self._episode_return[env] = 0.0
                self._episode_length[env] = 0
                infos[env] = info
            return obs, reward, terminated | truncated, infos

        def action_masks(self) -> np.ndarray:
            return self.core.action_masks()

        def close(self) -> None:
            return None

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            value = getattr(self, attr_name) if hasattr(self, attr_name) else getattr(self.core, attr_name)
            return [value] * len(self._get_indices(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(self.core, attr_name, value)

        def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
                       ) -> list[Any]:
            if method_name == "action_masks":
                return list(self.core.action_masks()[self._get_indices(indices)])
            if method_name == "set_opponent_pool":  # one pool for the whole batch
                self.core.set_opponent_pool(*method_args, **method_kwargs)
                return [None] * len(self._get_indices(indices))
            raise AttributeError(f"the vectorized env has no per-env method {method_name!r}")

        def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
            return [False] * len(self._get_indices(indices))

        def _get_indices(self, indices: Any) -> list[int]:
            if indices is None:
                return list(range(self.num_envs))
            return [indices] if isinstance(indices, int) else list(indices)

    return YonkaiSB3VecEnv


def make_vec_gym(env_id: str, num_envs: int, opponents: Sequence[str] | None = None,
                 opponent_weights: Sequence[float] | None = None, learner_seat: int | None = None,
                 api: str = "gymnasium", critic_state: bool = False, seed: int | None = None, **options: Any) -> Any:
    """``num_envs`` single-seat envs of ``env_id`` in one batched engine (see the module docstring):
    a gymnasium ``VectorEnv`` (``api="gymnasium"``) or an SB3 ``VecEnv`` (``api="sb3"``)."""
    if api not in APIS:
        raise ConfigError(f"api {api!r} is not one of {APIS}")
    core = VectorCore(env_id, num_envs, opponents=opponents, opponent_weights=opponent_weights,
                      learner_seat=learner_seat, critic_state=critic_state, seed=seed, **options)
    return (_gym_vector_class() if api == "gymnasium" else _sb3_vec_class())(core)
