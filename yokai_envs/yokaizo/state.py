"""The YOKAIZO table as data: zones, per-card flags, the kinds of things on the rules stack, and
the primitive card moves every rule uses (they keep the zones and flags consistent).

Cards are integers: seat ``p`` owns cards ``40*p .. 40*p+39``; ``ctype[c]`` is the card's index in
the pool. Zones are plain lists (top of a deck = end of its list). Rules are written as a stack
of small tasks (see :class:`Task`): the top task either does work or holds the pending decision.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import ClassVar, Final, Literal, NamedTuple

import numpy as np

from yokai_envs.yokaizo.cards import Card

NO: Final = -1          # no card / no seat
BIG_TIER: Final = 99    # the Speed tier before the first Turn of a Round
HAND_SIZE: Final = 6
VOID_SLOTS: Final = 6
VOID_PLAYS: Final = 3   # cards played into the Void per Void phase
MAX_SOULS: Final = 5
WIN_SOULS: Final = 13
CARDS_PER_SEAT: Final = 40


class EffectZone(IntEnum):
    """Where a triggered effect's source must still be for it to resolve (NONE: no check)."""

    NONE = 0
    FIELD = 1
    VOID = 2


class RoundStage(IntEnum):
    """Where the Round is: before its start triggers, taking Turns by Speed tier, or ending."""

    START = 0
    TURNS = 1
    END = 2


class Decision(IntEnum):
    """The kind of pending decision (one-hot in the observation's ``decision`` block, in this order)."""

    SETUP = 0
    CHOOSE_TURN = 1
    REPLACE = 2
    VOID = 3
    ACTION = 4
    PAY = 5
    BASIC = 6
    DAMAGE = 7
    RETURN = 8
    EFFECT = 9


class PickVerb(StrEnum):
    """What an effect's run of choices does (one-hot in the ``decision`` block, in this order)."""

    DAMAGE = "damage"
    SHATTER = "shatter"
    DESTROY_VOID = "destroy_void"
    DESTROY_SHIELD = "destroy_shield"
    EXILE = "exile"
    ATTACH = "attach"
    SHIELD = "shield"
    BURN_DECK = "burn_deck"
    BURN_ENEMY_VOID = "burn_enemy_void"
    UNBURN = "unburn"
    BLIGHT = "blight"
    ECHO = "echo"
    FREEZE = "freeze"
    HAUNT = "haunt"
    SHINE = "shine"
    SLOW = "slow"
    UPROOT = "uproot"
    SWAP = "swap"


#: Field triggers that fire for every Field Yokai at once (the card data's trigger names).
RoundTrigger = Literal["round_start", "round_end"]


class ActiveYokai(NamedTuple):
    """The Yokai taking its Turn."""

    seat: int
    slot: int
    yid: int


class Task:
    """One step of rules resolution on the stack.

    ``run(g)`` either does work (popping itself, pushing follow-ups) and returns None, or returns
    the boolean mask of a pending decision for seat ``g.decider``; ``choose(g, a)`` applies it.
    ``phase`` is the decision's text (``Game.phase_name``), ``decision`` its kind.
    """

    __slots__ = ()
    phase: ClassVar[str] = "resolve"
    decision: ClassVar[Decision | None] = None

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
    """Zones, flags and primitive moves; the Game subclasses it."""

    cards: tuple[Card, ...]
    num_actions: int
    rng: np.random.Generator
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
        self.round_stage = RoundStage.START
        self.turns_this_round = 0
        self.last_turn = NO        # seat that took the last Turn
        self.last_trigger = NO     # seat that last triggered an effect or took a Turn
        self.active: ActiveYokai | None = None
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
        self.enter_tier[c] = self.tier if self.round_stage == RoundStage.TURNS else BIG_TIER

    def check_win(self) -> None:
        if self.winner != NO:
            return
        for p in (0, 1):
            if self.grave_souls(p) >= WIN_SOULS:
                self.winner = 1 - p
                return



def check_invariants(g: Table) -> None:
    """Raise AssertionError when the table breaks a rule: each card in exactly one place, Soul and
    Void rotations only where they belong, zone sizes, a legal action while the game runs."""
    seen: list[int] = []
    for p in (0, 1):
        seen += g.deck[p] + g.hand[p] + g.limbo[p] + g.grave[p] + g.burned[p] + g.void[p]
        seen += [y for y in g.field[p] if y != NO]
        for s in (0, 1):
            seen += g.souls[p][s] + g.shields[p][s] + g.relics[p][s]
            assert len(g.souls[p][s]) <= MAX_SOULS, "too many Souls on a Yokai"
            if g.field[p][s] == NO:
                assert not g.souls[p][s] and not g.shields[p][s] and not g.relics[p][s], \
                    "attachments on an empty Field slot"
        assert len(g.void[p]) <= VOID_SLOTS, "Void over 6 slots"
        for c in g.void[p]:
            assert not g.up[c] and not g.blighted[c]
    seen += g.exile
    assert sorted(seen) == list(range(2 * CARDS_PER_SEAT)), "a card is missing or in two zones"
    souls = {c for p in (0, 1) for s in (0, 1) for c in g.souls[p][s]}
    voids = {c for p in (0, 1) for c in g.void[p]}
    for c in range(2 * CARDS_PER_SEAT):
        if g.up[c] or g.blighted[c]:
            assert c in souls, "a Soul rotation outside the Soul zone"
        if g.frozen[c] or g.facedown[c]:
            assert c in voids, "a Void rotation outside the Void"
    if g.winner != NO or g.draw_game:
        assert g.pending is None
    else:
        assert g.pending is not None and g.pending.any(), "no legal action while the game runs"
    for p in (0, 1):
        assert g.grave_souls(p) >= 0
