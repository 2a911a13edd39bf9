"""The YOKAIZO table: zones, per-card flags and the primitive card moves every rule uses.

Cards are integers: seat ``p`` owns cards ``40*p .. 40*p+39``; ``ctype[c]`` is the card's index in
the pool. Zones are plain lists (top of a deck = end of its list). Rules are written as a stack
of small tasks (see :class:`Task`): the top task either does work or holds the pending decision.
"""

from __future__ import annotations

import numpy as np

from yokai_envs.yokaizo.cards import Card

NO = -1
BIG_TIER = 99
HAND_SIZE = 6
VOID_SLOTS = 6
VOID_PLAYS = 3
MAX_SOULS = 5
WIN_SOULS = 13
CARDS_PER_SEAT = 40

# ---------------------------------------------------------------- the action table
A_PASS, A_YES, A_SPECIAL, A_BASIC, A_RETURN, A_TOPDECK, A_ALLY = range(7)
A_MY_FIELD = 7      # + slot (0, 1)
A_OPP_FIELD = 9     # + slot
A_MY_VOID = 11      # + void position (0..5)
A_OPP_VOID = 17     # + void position
A_SOUL = 23         # + soul position (0..4) on the Yokai being decided about
A_CARD = 28         # + card type (pool index)

# Effect zone checks: a trigger only resolves while its source is still where it triggered.
Z_NONE, Z_FIELD, Z_VOID = 0, 1, 2


class Task:
    """One step of rules resolution on the stack.

    ``run(g)`` either does work (popping itself, pushing follow-ups) and returns None, or returns
    the boolean mask of a pending decision for seat ``g.decider``; ``choose(g, a)`` applies it.
    """

    __slots__ = ()
    phase = "resolve"

    def run(self, g: Table) -> np.ndarray | None:
        raise NotImplementedError

    def choose(self, g: Table, action: int) -> None:
        raise NotImplementedError

    def copy(self) -> Task:
        new = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                setattr(new, name, getattr(self, name))
        return new


class Table:
    """Zones and primitive moves; subclassed by the Game."""

    cards: tuple[Card, ...]
    num_actions: int
    # per card instance (fixed for a game, shared between clones)
    ctype: list[int]
    c_speed: list[int]
    c_souls: list[int]
    c_elem: list[int]

    def new_table(self, deck_types: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        self.ctype = [t for deck in deck_types for t in deck]
        self.c_speed = [self.cards[t].speed for t in self.ctype]
        self.c_souls = [self.cards[t].souls for t in self.ctype]
        self.c_elem = [self.cards[t].element for t in self.ctype]
        n = len(self.ctype)
        self.deck: list[list[int]] = [list(range(p * CARDS_PER_SEAT, (p + 1) * CARDS_PER_SEAT)) for p in (0, 1)]
        self.hand: list[list[int]] = [[], []]
        self.limbo: list[list[int]] = [[], []]
        self.grave: list[list[int]] = [[], []]
        self.burned: list[list[int]] = [[], []]
        self.void: list[list[int]] = [[], []]
        self.field: list[list[int]] = [[NO, NO], [NO, NO]]
        self.souls: list[list[list[int]]] = [[[], []], [[], []]]
        self.shields: list[list[list[int]]] = [[[], []], [[], []]]
        self.relics: list[list[list[int]]] = [[[], []], [[], []]]
        self.exile: list[int] = []
        self.up = [0] * n          # Soul face-up
        self.blighted = [0] * n    # Soul Blighted
        self.frozen = [0] * n      # Void card Frozen
        self.facedown = [0] * n    # face-down Void card (Token)
        self.slowed = [0] * n      # Field Yokai Slowed
        self.turn_round = [0] * n  # Round of the Yokai's last Turn
        self.enter_round = [0] * n
        self.enter_tier = [0] * n
        self.known_top = [NO, NO]  # a deck's top card revealed by Spin (public until it moves)
        self.hidden_setup = True   # Field picks are face-down until the simultaneous reveal
        self.round = 0
        self.tier = BIG_TIER
        self.round_stage = 0       # 0 start, 1 turns, 2 end triggers queued
        self.turns_this_round = 0
        self.last_turn = NO        # seat that took the last Turn
        self.last_trigger = NO     # seat that last triggered an effect or took a Turn
        self.active: tuple[int, int, int] | None = None  # (seat, slot, yokai) taking its Turn
        self.banish_count = 0
        self.winner = NO
        self.draw_game = False
        self.decider = 0
        self.pending: np.ndarray | None = None
        self.stack: list[Task] = []
        for p in (0, 1):
            self.rng.shuffle(self.deck[p])

    # ---------------------------------------------------------------- queries
    def field_speed(self, p: int, s: int) -> int:
        y = self.field[p][s]
        return (1 if self.slowed[y] else self.c_speed[y]) + len(self.relics[p][s])

    def face_up_souls(self, p: int, s: int) -> int:
        up = self.up
        return sum(up[c] for c in self.souls[p][s])

    def grave_souls(self, p: int) -> int:
        souls = self.c_souls
        return sum(souls[c] for c in self.grave[p]) + len(self.burned[p])

    def active_cards(self, p: int) -> list[int]:
        """Active = face-up Yokai in the seat's Field, Soul or Void zone."""
        out = [y for y in self.field[p] if y != NO] if not self.hidden_setup else []
        for s in (0, 1):
            out += [c for c in self.souls[p][s] if self.up[c]]
        out += [c for c in self.void[p] if not self.facedown[c]]
        return out

    def slot_of(self, y: int) -> tuple[int, int] | None:
        p = y // CARDS_PER_SEAT
        f = self.field[p]
        if f[0] == y:
            return p, 0
        if f[1] == y:
            return p, 1
        return None

    # ---------------------------------------------------------------- moves
    def refill_deck(self, p: int) -> bool:
        """An empty deck takes the shuffled Limbo as its new deck (ruling: when a card is needed)."""
        if self.deck[p]:
            return True
        if not self.limbo[p]:
            return False
        self.deck[p] = self.limbo[p]
        self.limbo[p] = []
        self.rng.shuffle(self.deck[p])
        self.known_top[p] = NO
        return True

    def can_take_top(self, p: int) -> bool:
        return bool(self.deck[p]) or bool(self.limbo[p])

    def take_top(self, p: int) -> int:
        if not self.refill_deck(p):
            return NO
        c = self.deck[p].pop()
        if self.known_top[p] == c:
            self.known_top[p] = NO
        return c

    def shuffle_deck(self, p: int) -> None:
        self.rng.shuffle(self.deck[p])
        self.known_top[p] = NO

    def draw(self, p: int, n: int) -> None:
        for _ in range(n):
            c = self.take_top(p)
            if c == NO:
                return
            self.hand[p].append(c)

    def take_from(self, zone: list[int], ctype: int) -> int:
        """Remove one card of type ``ctype`` from ``zone`` (copies are interchangeable)."""
        types = self.ctype
        for i in range(len(zone) - 1, -1, -1):
            if types[zone[i]] == ctype:
                return zone.pop(i)
        raise AssertionError(f"no card of type {ctype} in zone")

    def to_limbo(self, c: int) -> None:
        """Destroy: send a card to its owner's Limbo, clearing every rotation."""
        self.up[c] = self.blighted[c] = self.frozen[c] = self.facedown[c] = 0
        self.limbo[c // CARDS_PER_SEAT].append(c)

    def to_void(self, p: int, c: int, face_down: bool = False) -> None:
        self.up[c] = self.blighted[c] = self.frozen[c] = 0
        self.facedown[c] = 1 if face_down else 0
        self.void[p].append(c)

    def burn_card(self, c: int) -> None:
        """Burn: the card goes face-down to its owner's Grave (1 Soul there)."""
        self.up[c] = self.blighted[c] = self.frozen[c] = self.facedown[c] = 0
        self.burned[c // CARDS_PER_SEAT].append(c)
        self.check_win()

    def enter_field(self, p: int, s: int, c: int) -> None:
        self.field[p][s] = c
        self.slowed[c] = 0
        self.turn_round[c] = 0  # a card re-entering the Field is checked afresh (ruling R29)
        self.enter_round[c] = self.round
        self.enter_tier[c] = self.tier if self.round_stage == 1 else BIG_TIER

    def check_win(self) -> None:
        if self.winner != NO:
            return
        for p in (0, 1):
            if self.grave_souls(p) >= WIN_SOULS:
                self.winner = 1 - p
                return

    def hand_type_mask(self, p: int, m: np.ndarray, cards: list[int] | None = None) -> bool:
        types = self.ctype
        zone = self.hand[p] if cards is None else cards
        for c in zone:
            m[A_CARD + types[c]] = True
        return bool(zone)
