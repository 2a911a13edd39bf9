"""A game that implements the Game contract and nothing else (no optional hook).

Swap: two seats are dealt one card each from six (0..5, higher wins); the rest is a face-down
deck. In turn each seat keeps its card or swaps it for the deck's top card, discarding its own
face down. Nobody sees another seat's card, decision or discard. Higher card: +1, lower: -1.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.game import Game
from yokai_envs.core.information import FIRST_GAME_EVENT

CARDS = 6
DECK = -1
KEEP, SWAP = 0, 1
GOT = FIRST_GAME_EVENT  # (GOT, card): the seat seeing it took this card into its hand


class SwapGame(Game):
    env_id = "swap_v0"
    DEFAULT_MAX_STEPS = 10
    num_actions = 2
    observation_size = CARDS + 2
    observation_layout: ClassVar[dict[str, slice]] = {"own_card": slice(0, CARDS), "to_act": slice(CARDS, CARDS + 2)}
    state_size = CARDS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # Where each card is: seat 0/1's hand, 2 + seat (its discard), or DECK (order in self.deck).
        self.location = np.full(CARDS, DECK)
        self.deck: list[int] = []
        self.decided = 0

    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.decided

    @property
    def is_terminal(self) -> bool:
        return self.decided == 2

    @property
    def phase_name(self) -> str:
        return "keep or swap"

    def _reset(self) -> None:
        order = [int(c) for c in self.rng.permutation(CARDS)]
        self.location = np.full(CARDS, DECK)
        self.location[order[0]], self.location[order[1]] = 0, 1
        self.deck = order[2:]
        self.decided = 0
        self.see(0, GOT, order[0])
        self.see(1, GOT, order[1])

    def _legal_mask(self) -> np.ndarray:
        return np.ones(2, dtype=bool)

    def _apply(self, action: int) -> None:
        seat = self.decided
        if action == SWAP:
            self.location[self.location == seat] = 2 + seat
            card = self.deck.pop(0)
            self.location[card] = seat
            self.see(seat, GOT, card)
        self.decided += 1

    def returns(self) -> np.ndarray:
        if not self.is_terminal:
            return np.zeros(2)
        first_higher = int(np.flatnonzero(self.location == 0)[0]) > int(np.flatnonzero(self.location == 1)[0])
        return np.array([1.0, -1.0]) if first_higher else np.array([-1.0, 1.0])

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0

    def observation(self, seat: int) -> np.ndarray:
        obs = np.zeros(self.observation_size, dtype=np.float32)
        obs[:CARDS] = self.location == seat
        if not self.is_over:
            obs[CARDS + self.current_player] = 1.0
        return obs

    def state_tensor(self) -> np.ndarray:
        return ((self.location + 1) / 4).astype(np.float32)

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        # The seat knows its own card and its own discard; the other cards trade places.
        hidden = [c for c in range(CARDS) if self.location[c] not in (seat, 2 + seat)]
        places = sorted((int(self.location[c]), self.deck.index(c) if c in self.deck else 0) for c in hidden)
        shuffled = [hidden[i] for i in rng.permutation(len(hidden))]
        deck = [0] * len(self.deck)
        for card, (place, index) in zip(shuffled, places, strict=True):
            self.location[card] = place
            if place == DECK:
                deck[index] = card
        self.deck = deck
