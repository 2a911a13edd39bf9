"""A tiny hidden-card trick game for the agent tests (not registered as an env).

``n`` players (1-4); cards ``0..2n+1`` (higher is stronger); each seat is dealt two, two stay
in a hidden stock. Two tricks: from the leader on, every seat plays a card; the highest card
takes the trick and leads the next. Returns: +1 to the seat(s) with the most tricks, -1 to
the others (alone: +1 when it played a card higher than both stock cards, else -1).
Hidden: the other hands and the stock. Actions: the card to play.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.game import Game

MAX_CARDS = 10


class ToyTrickGame(Game):
    env_id = "toy_trick_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"num_players": 2}
    DEFAULT_MAX_STEPS = 100

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.n = int(self.options["num_players"])
        self.num_cards = 2 * self.n + 2
        self.num_actions = MAX_CARDS
        self.observation_layout = {"hand": slice(0, 10), "played": slice(10, 20), "trick": slice(20, 30),
                                   "tricks_won": slice(30, 34)}
        self.observation_size = 34
        self.state_size = 34 + MAX_CARDS
        self.location = np.zeros(self.num_cards, dtype=int)

    # location: seat index, -1 stock, -2 played
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.to_act

    @property
    def is_terminal(self) -> bool:
        return self.tricks_played == 2

    @property
    def phase_name(self) -> str:
        return f"trick {self.tricks_played + 1}"

    def _reset(self) -> None:
        order = self.rng.permutation(self.num_cards)
        self.location = np.full(self.num_cards, -1, dtype=int)
        for seat in range(self.n):
            self.location[order[2 * seat:2 * seat + 2]] = seat
        self.trick: list[tuple[int, int]] = []  # (seat, card)
        self.tricks_won = [0] * self.n
        self.tricks_played = 0
        self.to_act = 0
        self.leader = 0

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[:self.num_cards] = self.location == self.to_act
        return mask

    def _apply(self, action: int) -> None:
        self.location[action] = -2
        self.trick.append((self.to_act, action))
        if len(self.trick) < self.n:
            self.to_act = (self.to_act + 1) % self.n
            return
        winner = max(self.trick, key=lambda sc: sc[1])[0]
        if self.n == 1:
            stock = np.flatnonzero(self.location == -1)
            winner = 0 if self.trick[0][1] > stock.max() else -1
        if winner >= 0:
            self.tricks_won[winner] += 1
        self.tricks_played += 1
        self.trick = []
        self.to_act = self.leader = max(winner, 0)

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0

    def observation(self, seat: int) -> np.ndarray:
        obs = np.zeros(self.observation_size, dtype=np.float32)
        obs[:self.num_cards] = self.location == seat
        obs[10:10 + self.num_cards] = self.location == -2
        for _, card in self.trick:
            obs[20 + card] = 1.0
        obs[30:30 + self.n] = np.array(self.tricks_won) / 2
        return obs

    def state_tensor(self) -> np.ndarray:
        hidden = np.zeros(MAX_CARDS, dtype=np.float32)
        hidden[:self.num_cards] = (self.location + 3) / 7
        return np.concatenate([self.observation(0), hidden]).astype(np.float32)

    def returns(self) -> np.ndarray:
        if not self.is_terminal:
            return np.zeros(self.n)
        best = max(self.tricks_won)
        if self.n == 1:
            return np.array([1.0 if self.tricks_won[0] else -1.0])
        return np.array([1.0 if t == best else -1.0 for t in self.tricks_won])

    def action_name(self, action: int) -> str:
        return f"play {action}"

    def render(self) -> str:
        return f"locations {self.location.tolist()} trick {self.trick} won {self.tricks_won}"

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        # Canonical order before shuffling: the sample depends only on what `seat` knows.
        hidden = np.flatnonzero((self.location != seat) & (self.location != -2))
        places = np.sort(self.location[hidden])
        self.location[hidden] = rng.permutation(places)
