"""Yonkai no Yokai, N games at once: :class:`VectorGame`, a batched engine for fast training.

The state of every game is a row of a few small arrays (struct of arrays: hands, cubes, the
trick, what each seat played and passed on this round), stepped together by loops compiled with
numba (``vector_kernels.py``); Python touches the batch once per call, never game by game. The
rules, options, action table, masks and observations are those of ``YonkaiGame`` (the scalar
engine, ``game.py``), held equal by a differential test on the same deals
(``tests/yonkai_no_yokai/test_vector.py``).

    vg = VectorGame(4096, num_players=4, seed=0)
    masks = vg.masks()                       # (N, 49) bool, for each game's seat to act
    obs = vg.observe(vg.to_act)              # (N, 163) float32
    rewards, terminated, truncated = vg.step(actions)   # (N, 4) float32, (N,), (N,)

A game that ends is dealt anew inside ``step`` (``autoreset=True``, the default): the outputs of
that step still tell of the game that ended (its rewards, flags, ``winners``); everything read
afterwards is the new game. With ``autoreset=False`` it stays over (masks all False, no seat to
act) until ``reset_games``. Step only some games with ``step(actions, active)``.

Why numba rather than numpy array code: docs/record/2026-12-05.md ("Vectorized Yonkai no Yokai"); a
prototype of each measured the compiled loops 2-4x faster. numba is the optional extra ``fast``
(``pip install yokai-envs[fast]``); without it ``VectorGame`` refuses with a clear error and
the scalar engine still works.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.yonkai_no_yokai import ENV_ID, observation
from yokai_envs.yonkai_no_yokai.actions import NUM_ACTIONS, action_name
from yokai_envs.yonkai_no_yokai.moves import move_tables
from yokai_envs.yonkai_no_yokai.state import COPIES_PER_VALUE, NUM_PLAYS, REWARD_MODES, STARTING_CUBES, VALUES, Setup

DEFAULT_MAX_STEPS = 5_000  # YonkaiGame.DEFAULT_MAX_STEPS


def numba_available() -> bool:
    """Whether the optional numba extra is installed (``VectorGame`` needs it)."""
    return importlib.util.find_spec("numba") is not None


def _kernels() -> Any:
    if not numba_available():
        raise ImportError("VectorGame compiles its loops with numba, which is not installed: "
                          "pip install 'yokai-envs[fast]' (or pip install numba); the scalar engine "
                          "(yokai_envs.make / make_gym) works without it")
    from yokai_envs.yonkai_no_yokai import vector_kernels

    return vector_kernels


class VectorGame:
    """``num_games`` games of Yonkai no Yokai stepped together (see the module docstring).

    Options as ``YonkaiGame``: ``num_players`` (3 or 4), ``reward`` (``"win"`` or ``"lives"``),
    ``rounds_per_game`` (None or a positive int), ``max_steps`` (truncation, per game).

    The state arrays are public and read-only by convention (tests and adapters read them):
    ``hands`` (N, n, 6) int8, ``hand_sizes``, ``cubes``, ``button_available``, ``passed``
    (N, n), ``played_by`` (N, n, 6), ``passed_on`` (N, n, 24) bool, ``direction``,
    ``last_count``, ``last_value`` (1-6, 0 at a lead), ``last_player`` (-1 at a lead),
    ``to_act``, ``rounds_completed``, ``status`` (0 playing, 1 terminal, 2 truncated) (N,) int8,
    ``steps`` (N,) int32, ``returns`` (N, n) int8 (running totals of the game in the slot),
    ``winners`` (N, n) bool (of the last game that ended in the slot).
    """

    def __init__(self, num_games: int, num_players: int = 4, reward: str = "win",
                 rounds_per_game: int | None = None, max_steps: int | None = None, autoreset: bool = True,
                 seed: int | None = None) -> None:
        self._k = _kernels()
        if isinstance(num_games, bool) or not isinstance(num_games, int | np.integer) or num_games < 1:
            raise ConfigError(f"{ENV_ID} VectorGame: num_games must be a positive int, got {num_games!r}")
        if num_players not in COPIES_PER_VALUE or isinstance(num_players, bool):
            raise ConfigError(f"{ENV_ID}: num_players must be 3 or 4, got {num_players!r}")
        if reward not in REWARD_MODES:
            raise ConfigError(f"{ENV_ID}: reward must be one of {REWARD_MODES}, got {reward!r}")
        if rounds_per_game is not None and (not isinstance(rounds_per_game, int) or isinstance(rounds_per_game, bool)
                                            or rounds_per_game < 1):
            raise ConfigError(f"{ENV_ID}: rounds_per_game must be None or a positive int, got {rounds_per_game!r}")
        max_steps = DEFAULT_MAX_STEPS if max_steps is None else max_steps
        if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) or not 0 < max_steps < 2**31:
            raise ConfigError(f"{ENV_ID}: max_steps must be a positive int, got {max_steps!r}")
        n = int(num_players)
        self.num_games = N = int(num_games)
        self.setup = Setup(num_players=n, copies=COPIES_PER_VALUE[n], rewards_lives=reward == "lives",
                           rounds_per_game=rounds_per_game)
        self.options: dict[str, Any] = {"num_players": n, "reward": reward, "rounds_per_game": rounds_per_game}
        self.max_steps = int(max_steps)
        self.autoreset = bool(autoreset)
        self.num_players = n
        self.num_actions = NUM_ACTIONS
        self.observation_layout = observation.observation_layout(n)
        self.observation_size = observation.observation_size(n)
        self.state_size = observation.state_size(n)
        tables = move_tables()
        self._free, self._button = tables.free, tables.button
        self._after_free, self._after_button = tables.direction_after_free, tables.direction_after_button
        self._open = tables.open_plays
        # The scales of observation._scale, as float32 factors: the same products, bit for bit.
        self._scales = np.array([1 / (self.setup.copies * VALUES // n), 1 / STARTING_CUBES, 1 / self.setup.copies,
                                 1 / observation.most_rounds(self.setup)], dtype=np.float32)

        self.hands = np.zeros((N, n, VALUES), dtype=np.int8)
        self.hand_sizes = np.zeros((N, n), dtype=np.int8)
        self.cubes = np.zeros((N, n), dtype=np.int8)
        self.button_available = np.zeros((N, n), dtype=bool)
        self.passed = np.zeros((N, n), dtype=bool)
        self.played_by = np.zeros((N, n, VALUES), dtype=np.int8)
        self.passed_on = np.zeros((N, n, NUM_PLAYS), dtype=bool)
        self.direction = np.zeros(N, dtype=np.int8)
        self.last_count = np.zeros(N, dtype=np.int8)
        self.last_value = np.zeros(N, dtype=np.int8)
        self.last_player = np.zeros(N, dtype=np.int8)
        self.to_act = np.zeros(N, dtype=np.int8)
        self.rounds_completed = np.zeros(N, dtype=np.int8)
        self.status = np.zeros(N, dtype=np.int8)
        self.steps = np.zeros(N, dtype=np.int32)
        self.returns = np.zeros((N, n), dtype=np.int8)
        self.winners = np.zeros((N, n), dtype=bool)
        self._rng = np.zeros(N, dtype=np.uint64)
        # outputs of step, reused (each call overwrites them)
        self._rewards = np.zeros((N, n), dtype=np.float32)
        self._terminated = np.zeros(N, dtype=bool)
        self._truncated = np.zeros(N, dtype=bool)
        self._all = np.ones(N, dtype=bool)
        self._everyone = np.arange(N, dtype=np.int64)
        self.reset(seed)

    # ------------------------------------------------------------------ facts
    STATE_ARRAYS = ("hands", "hand_sizes", "cubes", "button_available", "passed", "played_by", "passed_on",
                    "direction", "last_count", "last_value", "last_player", "to_act", "rounds_completed", "status",
                    "steps", "returns", "winners", "_rng")

    def state_bytes_per_game(self) -> int:
        """Bytes of state each game holds (every state array's row; not the reused outputs)."""
        return sum(getattr(self, name).nbytes for name in self.STATE_ARRAYS) // self.num_games

    @property
    def current_player(self) -> np.ndarray:
        """(N,) int: each game's seat to act, -1 where the game is over."""
        return np.where(self.status == 0, self.to_act, -1).astype(np.int64)

    @property
    def is_over(self) -> np.ndarray:
        return self.status != 0

    # ------------------------------------------------------------------ lifecycle
    def _state(self) -> tuple[np.ndarray, ...]:
        return (self.hands, self.hand_sizes, self.cubes, self.button_available, self.passed, self.played_by,
                self.passed_on, self.direction, self.last_count, self.last_value, self.last_player, self.to_act,
                self.rounds_completed, self.status, self.steps, self.returns, self._rng)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game in every slot; game ``i``'s chance comes from ``(seed, i)`` alone."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0):
            raise ConfigError(f"{ENV_ID}: reset(seed=...) takes None or a non-negative int, got {seed!r}")
        self._rng[:] = np.random.SeedSequence(seed).generate_state(self.num_games, dtype=np.uint64)
        self.winners[:] = False
        self.reset_games(self._all)

    def reset_games(self, games: np.ndarray) -> None:
        """Deal a new game in every slot where ``games`` (N,) is True (the others are untouched)."""
        games = np.asarray(games, dtype=bool)
        if games.shape != (self.num_games,):
            raise ValueError(f"reset_games: a ({self.num_games},) bool mask, got shape {games.shape}")
        self._k.new_games(games, self.setup.copies, *self._state())

    # ------------------------------------------------------------------ decisions
    def masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, 49) bool: the legal actions of each game's seat to act (all False once over)."""
        if out is None:
            out = np.empty((self.num_games, NUM_ACTIONS), dtype=bool)
        self._k.masks(out, self.hands, self.button_available, self.direction, self.last_count, self.last_value,
                      self.to_act, self.status, self._free, self._button)
        return out

    def random_actions(self, active: np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """(N,) int64: a uniformly drawn legal action per active game still playing (else -1),
        from each game's own generator."""
        if out is None:
            out = np.empty(self.num_games, dtype=np.int64)
        self._k.random_actions(out, self._all if active is None else np.asarray(active, dtype=bool), self.hands,
                               self.button_available, self.direction, self.last_count, self.last_value,
                               self.to_act, self.status, self._free, self._button, self._rng)
        return out

    def step(self, actions: np.ndarray, active: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apply ``actions`` (N,) for each active game's seat to act (``active`` None: all games).

        Returns ``(rewards, terminated, truncated)``: (N, n) float32 (each seat's change of its
        return; 0 for inactive games), (N,) bool, (N,) bool. These arrays are reused by the next
        call: copy what you keep. Raises IllegalActionError, changing nothing, when an active
        game's action is masked out or the game is over.
        """
        actions = np.asarray(actions)
        if actions.shape != (self.num_games,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"step: actions must be ({self.num_games},) integers, got {actions.dtype} {actions.shape}")
        actions = actions.astype(np.int64, copy=False)
        act = self._all if active is None else np.asarray(active, dtype=bool)
        if act.shape != (self.num_games,):
            raise ValueError(f"step: active must be a ({self.num_games},) bool mask, got shape {act.shape}")
        k = self._k
        bad = k.first_illegal(actions, act, self.hands, self.button_available, self.direction, self.last_count,
                              self.last_value, self.to_act, self.status, self._free, self._button)
        if bad >= 0:
            a = int(actions[bad])
            if self.status[bad] != 0:
                raise IllegalActionError(a, -1, "game over", reason=f"game {bad} has ended; call reset_games()")
            phase = "lead" if self.last_count[bad] == 0 else "follow"
            raise IllegalActionError(a, int(self.to_act[bad]), phase, action_name(a),
                                     reason=f"masked out in game {bad}")
        k.step(actions, act, self.autoreset, self.setup.copies, self.setup.rewards_lives,
               self.setup.rounds_per_game or 0, self.max_steps, *self._state(),
               self._free, self._button, self._after_free, self._after_button, self._open,
               self._rewards, self._terminated, self._truncated, self.winners)
        return self._rewards, self._terminated, self._truncated

    # ------------------------------------------------------------------ views
    def _public(self) -> tuple[np.ndarray, ...]:
        return (self.hand_sizes, self.cubes, self.button_available, self.passed, self.played_by, self.passed_on,
                self.direction, self.last_count, self.last_value, self.last_player, self.to_act,
                self.rounds_completed, self.status, self._scales)

    def observe(self, seats: np.ndarray | int, games: np.ndarray | None = None,
                out: np.ndarray | None = None) -> np.ndarray:
        """(N, observation_size) float32: each game's observation of ``seats[i]`` (an int: the same
        seat everywhere), exactly ``YonkaiGame.observation``. ``games`` (indices): only those
        games, one row each, ``seats`` then one per listed game."""
        rows = self._everyone if games is None else np.asarray(games, dtype=np.int64).reshape(-1)
        if ((rows < 0) | (rows >= self.num_games)).any():
            raise ValueError(f"observe: games must be indices 0..{self.num_games - 1}")
        # contiguous, so that every call has the one signature numba compiled (no recompiling)
        seats = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, dtype=np.int64), rows.shape))
        if ((seats < 0) | (seats >= self.num_players)).any():
            raise ValueError(f"observe: seats must be 0..{self.num_players - 1}")
        if out is None:
            out = np.empty((rows.size, self.observation_size), dtype=np.float32)
        self._k.observe(out, rows, seats, self.hands, *self._public())
        return out

    def state_tensors(self, out: np.ndarray | None = None) -> np.ndarray:
        """(N, state_size) float32: each game's full state tensor (``YonkaiGame.state_tensor``)."""
        if out is None:
            out = np.empty((self.num_games, self.state_size), dtype=np.float32)
        self._k.state_tensors(out, self.hands, *self._public())
        return out

    # ------------------------------------------------------------------ checks
    def check_invariants(self) -> None:
        """Raise AssertionError when a game breaks a rule (``rules.check_invariants``, whole batch)."""
        hands = self.hands.astype(np.int64)
        assert (hands >= 0).all(), "negative hand count"
        assert (hands.sum(axis=2) == self.hand_sizes).all(), "hand sizes disagree with hands"
        total = hands.sum(axis=1) + self.played_by.sum(axis=1, dtype=np.int64)
        assert (total == self.setup.copies).all(), "cards not conserved"
        assert ((self.cubes >= 0) & (self.cubes <= STARTING_CUBES)).all(), "cubes out of range"
        assert ((self.last_count >= 0) & (self.last_count <= 4)).all()
        playing = self.status == 0
        assert (self.hand_sizes[playing] > 0).all(), "a round continued with an empty hand"
        rows = np.flatnonzero(playing)
        assert not self.passed[rows, self.to_act[rows]].any(), "a passed seat was asked to act"
        lead = playing & (self.last_count == 0)
        assert not self.passed[lead].any(), "passes survived into a new trick"
        trick = playing & (self.last_count != 0)
        assert ((~self.passed[trick]).sum(axis=1) >= 2).all(), "a trick outlived its passes"
