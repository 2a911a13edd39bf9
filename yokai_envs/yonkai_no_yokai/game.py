"""Yonkai no Yokai rules engine (pure Python + numpy; no gym imports).

State is plain data: per-seat hands as value counts, cubes, buttons and pass flags; the
trick's last play, who made it and the direction; the cards played this round and the
round's decisions (all made face up, kept for agents that reason about them). Rulings on
what the rulebook leaves open are in RULES_NOTES.md beside this file.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.yonkai_no_yokai import encoding
from yokai_envs.yonkai_no_yokai.rules import (
    ASCENDING,
    MAX_COUNT,
    NUM_PLAYS,
    VALUES,
    move_tables,
    play_of,
)

STARTING_CUBES = 4
COPIES_PER_VALUE = {3: 8, 4: 10}  # 3 players: two copies of each value go back to the box
PASS = 0
FIRST_PLAIN_PLAY = 1
FIRST_BUTTON_PLAY = 1 + NUM_PLAYS
NUM_ACTIONS = 1 + 2 * NUM_PLAYS  # 49
REWARD_MODES = ("win", "lives")


def play_of_action(action: int) -> tuple[int, bool]:
    """The play index (see ``rules.play_of``) of a play action, and whether it uses the button."""
    with_button = action >= FIRST_BUTTON_PLAY
    return action - (FIRST_BUTTON_PLAY if with_button else FIRST_PLAIN_PLAY), with_button


class YonkaiGame(Game):
    env_id = "yonkai_no_yokai_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"num_players": 4, "reward": "win", "rounds_per_game": None}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{"num_players": 3}, {"num_players": 4}]
    DEFAULT_MAX_STEPS = 5_000

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.options["num_players"]
        if n not in COPIES_PER_VALUE:
            raise ConfigError(f"{self.env_id}: num_players must be 3 or 4, got {n!r}")
        if self.options["reward"] not in REWARD_MODES:
            raise ConfigError(f"{self.env_id}: reward must be one of {REWARD_MODES}, got {self.options['reward']!r}")
        cap = self.options["rounds_per_game"]
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
            raise ConfigError(f"{self.env_id}: rounds_per_game must be None or a positive int, got {cap!r}")
        self._n = n
        self.copies = COPIES_PER_VALUE[n]
        self.rewards_lives = self.options["reward"] == "lives"
        self.rounds_per_game: int | None = cap
        self.tables = move_tables()
        self.num_actions = NUM_ACTIONS
        self.observation_layout = encoding.observation_layout(n)
        self.observation_size = encoding.observation_size(n)
        self.state_size = encoding.state_size(n)
        self._empty_state()

    def _empty_state(self) -> None:
        n = self._n
        self.hands = np.zeros((n, VALUES), dtype=np.int8)  # hands[seat, value-1] = copies held
        self.hand_sizes = [0] * n
        self.cubes = [STARTING_CUBES] * n
        self.button_available = [True] * n
        self.passed = [False] * n
        self.played = np.zeros(VALUES, dtype=np.int8)  # cards of each value played this round
        # Every decision this round as (seat, direction, last_count, last_value, button_available,
        # action): all public (plays and passes are made face up). It lets a seat reason about what
        # the others' choices say of their hands (agents.heuristics.yonkai_no_yokai_beliefs).
        self.decisions_this_round: list[tuple[int, int, int, int, bool, int]] = []
        self.direction = ASCENDING
        self.last_count = 0  # 0: the trick is at its lead
        self.last_value = 0
        self.last_player = -1
        self.to_act = 0
        self.rounds_completed = 0
        self.winners: list[int] = []
        self.terminal = False
        self._returns = np.zeros(n)

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return self._n

    @property
    def current_player(self) -> int:
        return -1 if self.terminal or self.is_truncated else self.to_act

    @property
    def is_terminal(self) -> bool:
        return self.terminal

    @property
    def phase_name(self) -> str:
        if self.terminal:
            return "game over"
        return "lead" if self.last_count == 0 else "follow"

    def returns(self) -> np.ndarray:
        return self._returns

    def _reset(self) -> None:
        self._empty_state()
        self._deal()
        self.to_act = int(self.rng.integers(self._n))  # the first round's leader comes from the seed
        self.last_player = -1

    def _deal(self) -> None:
        n = self._n
        deck = np.repeat(np.arange(VALUES, dtype=np.int8), self.copies)
        self.rng.shuffle(deck)
        per_seat = deck.size // n
        for seat in range(n):
            self.hands[seat] = np.bincount(deck[seat * per_seat:(seat + 1) * per_seat], minlength=VALUES)
            self.hand_sizes[seat] = per_seat
        self.played[:] = 0
        self.decisions_this_round = []
        self.button_available = [True] * n
        self._start_trick(self.to_act)

    def _start_trick(self, leader: int) -> None:
        self.passed = [False] * self._n
        self.direction = ASCENDING
        self.last_count = 0
        self.last_value = 0
        self.to_act = leader

    def _legal_mask(self) -> np.ndarray:
        tables = self.tables
        seat = self.to_act
        feasible = (self.hands[seat] >= tables.count_column).ravel()
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.last_count == 0:
            mask[FIRST_PLAIN_PLAY:FIRST_BUTTON_PLAY] = tables.lead & feasible
            return mask  # the leader cannot pass, and the button means nothing at a lead
        key = (self.direction, self.last_count, self.last_value)
        mask[PASS] = True
        mask[FIRST_PLAIN_PLAY:FIRST_BUTTON_PLAY] = tables.free[key] & feasible
        if self.button_available[seat]:
            mask[FIRST_BUTTON_PLAY:] = tables.button[key] & feasible
        return mask

    def _apply(self, action: int) -> None:
        seat = self.to_act
        self.decisions_this_round.append(
            (seat, self.direction, self.last_count, self.last_value, self.button_available[seat], action))
        if action == PASS:
            self._pass(seat)
            return
        play, with_button = play_of_action(action)
        count, value = play_of(play)
        if self.last_count == 0:
            direction = ASCENDING
        else:
            key = (self.direction, self.last_count, self.last_value, play)
            table = self.tables.direction_after_button if with_button else self.tables.direction_after_free
            direction = int(table[key])
        if with_button:
            self.button_available[seat] = False
        self.hands[seat, value - 1] -= count
        self.hand_sizes[seat] -= count
        self.played[value - 1] += count
        self.direction = direction
        self.last_count, self.last_value, self.last_player = count, value, seat
        if count == 1:
            # The elevator is back on the 1st floor: everyone who passed may rejoin.
            self.passed = [False] * self._n
        if self.hand_sizes[seat] == 0:
            self._end_round(seat)
            return
        self.to_act = self._next_active(seat)

    def _pass(self, seat: int) -> None:
        self.passed[seat] = True
        self.button_available[seat] = True  # a spent button comes back on passing
        if self.passed.count(False) == 1:
            self._start_trick(self.last_player)
        else:
            self.to_act = self._next_active(seat)

    def _next_active(self, seat: int) -> int:
        n = self._n
        nxt = (seat + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    def _end_round(self, emptied: int) -> None:
        others = [s for s in range(self._n) if s != emptied]
        most = max(self.hand_sizes[s] for s in others)
        game_over = False
        for s in others:
            loss = 2 if self.hand_sizes[s] == most else 1
            if loss > self.cubes[s]:
                game_over = True  # a seat must lose more cubes than it has
            actual = min(loss, self.cubes[s])
            self.cubes[s] -= actual
            if self.rewards_lives:
                self._returns[s] -= actual
        self.rounds_completed += 1
        if self.rounds_per_game is not None and self.rounds_completed >= self.rounds_per_game:
            game_over = True
        if game_over:
            self._end_game()
            return
        self.to_act = emptied
        self._deal()

    def _end_game(self) -> None:
        self.terminal = True
        best = max(self.cubes)
        self.winners = [s for s in range(self._n) if self.cubes[s] == best]
        if not self.rewards_lives:
            for s in range(self._n):
                self._returns[s] = 1.0 if s in self.winners else -1.0

    # ------------------------------------------------------------------ views
    def observation(self, seat: int) -> np.ndarray:
        return encoding.observe(self, seat)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return encoding.bounds(self._n, self.copies)

    def state_tensor(self) -> np.ndarray:
        return encoding.state(self)

    def action_name(self, action: int) -> str:
        if action == PASS:
            return "pass"
        if not 0 < action < NUM_ACTIONS:
            return f"<no action {action}>"
        play, with_button = play_of_action(action)
        count, value = play_of(play)
        return ("button, flip, play " if with_button else "play ") + str(value) * count

    def render(self) -> str:
        return encoding.render(self, seat=None)

    def render_for(self, seat: int) -> str:
        return encoding.render(self, seat=seat)

    def table_view(self, seat: int | None = None) -> dict:
        return encoding.table_view(self, seat)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return self.action_name(action)  # every play and pass is made face up

    def ends_multi_part_choice(self, action: int) -> bool:
        return False  # every decision is a whole play (or a pass): nothing to confirm

    # ------------------------------------------------------------------ search support
    def clone(self) -> YonkaiGame:
        other = object.__new__(YonkaiGame)
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.rng = np.random.Generator(type(self.rng.bit_generator)())
        other.rng.bit_generator.state = self.rng.bit_generator.state
        other.action_history = list(self.action_history)
        other.hands = self.hands.copy()
        other.hand_sizes = list(self.hand_sizes)
        other.cubes = list(self.cubes)
        other.button_available = list(self.button_available)
        other.passed = list(self.passed)
        other.played = self.played.copy()
        other.decisions_this_round = list(self.decisions_this_round)
        other.winners = list(self.winners)
        other._returns = self._returns.copy()
        other._mask_cache = None
        return other

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        # Only the other hands are hidden; their sizes are public, so redeal their union.
        others = [s for s in range(self._n) if s != seat]
        pool = np.repeat(np.arange(VALUES, dtype=np.int8), self.hands[others].sum(axis=0))
        rng.shuffle(pool)
        start = 0
        for s in others:
            size = self.hand_sizes[s]
            self.hands[s] = np.bincount(pool[start:start + size], minlength=VALUES)
            start += size

    def check_invariants(self) -> None:
        hands = self.hands
        assert (hands >= 0).all(), "negative hand count"
        assert list(hands.sum(axis=1)) == self.hand_sizes, "hand sizes disagree with hands"
        total = hands.sum(axis=0) + self.played
        assert (total == self.copies).all(), f"cards not conserved: {total} != {self.copies} each"
        assert all(0 <= c <= STARTING_CUBES for c in self.cubes), f"cubes out of range: {self.cubes}"
        assert 1 <= self.last_count <= MAX_COUNT or self.last_count == 0
        if not self.terminal:
            assert all(size > 0 for size in self.hand_sizes), "a round continued with an empty hand"
            assert not self.passed[self.to_act], "a passed seat was asked to act"
            assert self.passed.count(False) >= 2 or self.last_count == 0, "a trick outlived its passes"
        if self.last_count == 0:
            assert not any(self.passed), "passes survived into a new trick"
