"""The YOKAIZO table as plain data (:class:`State`), the enums of its phases, decisions and
events, and the kinds of things on the rules stack (:class:`Task`).

Cards are integers: seat ``p`` owns cards ``40*p .. 40*p+39``; ``ctype[c]`` is the card's index in
the pool. Zones are plain lists (top of a deck = end of its list). Rules are written as a stack
of small tasks: the top task either does work or holds the pending decision. The rules that
change the table are functions over ``(state, ctx)`` in the modules beside this one (the card
moves every rule uses are in :mod:`yokai_envs.yokaizo.moves`).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import ClassVar, Final, NamedTuple

from yokai_envs.core.context import Context
from yokai_envs.core.information import FIRST_GAME_EVENT
from yokai_envs.yokaizo.cards import Card

NO: Final = -1          # no card / no seat
BIG_TIER: Final = 99    # the Speed tier before the first Turn of a Round
HAND_SIZE: Final = 6
VOID_SLOTS: Final = 6
VOID_PLAYS: Final = 3   # cards played into the Void per Void phase
MAX_SOULS: Final = 5
WIN_SOULS: Final = 13
CARDS_PER_SEAT: Final = 40
FIRST_CARD_ACTION: Final = 28  # the action table's card-type block (actions.ActionBlock.CARD) starts here


class Event(IntEnum):
    """What a seat sees happen, beside the decisions (``Game.see``; rows ``(kind, *args)`` of the
    ``history`` observation). ``card`` is a card type, or ``UNSEEN`` (the number of card types)
    when the seat does not see which card it is; ``seat`` is the owner of the cards or slot."""

    DECKLIST = FIRST_GAME_EVENT  # (seat, deck): the ready deck a seat plays (decklists are public)
    DREW = FIRST_GAME_EVENT + 1  # (seat, card): a card drawn into its owner's hand
    REVEALED = FIRST_GAME_EVENT + 2  # (seat, slot, card): a setup pick turned face up
    FIRST_TURN_REVEAL = FIRST_GAME_EVENT + 3  # (seat, card): a top card shown to settle the first Turn
    SHUFFLED = FIRST_GAME_EVENT + 4  # (seat): a deck shuffled
    LIMBO_TO_DECK = FIRST_GAME_EVENT + 5  # (seat): the empty deck takes the shuffled Limbo
    SPUN = FIRST_GAME_EVENT + 6  # (seat, card): Spin shows a deck's new top card
    ROUND = FIRST_GAME_EVENT + 7  # (round): a Round starts
    TURN = FIRST_GAME_EVENT + 8  # (seat, slot, card): a Yokai starts its Turn
    # (seat, slot, card, acted): a Yokai enters the Field (replacement, Swap); acted is 1 when that
    # copy already took its Turn this Round (everyone sees which copy came out: R12)
    ENTERED = FIRST_GAME_EVENT + 9
    SOUL_PLACED = FIRST_GAME_EVENT + 10  # (seat, slot, card): a face-down Soul is placed
    SOUL_FLIPPED = FIRST_GAME_EVENT + 11  # (seat, slot, position, card): a Soul turns face up
    TO_LIMBO = FIRST_GAME_EVENT + 12  # (seat, card): a card is Destroyed to its owner's Limbo
    BANISHED = FIRST_GAME_EVENT + 13  # (seat, slot, card): a Field Yokai is Banished
    TOKEN = FIRST_GAME_EVENT + 14  # (seat, card): a top card goes face-down to the Void
    SHIELDED = FIRST_GAME_EVENT + 15  # (seat, slot, card): a top card becomes a face-down Shield
    ATTACHED = FIRST_GAME_EVENT + 16  # (seat, slot, card): a top card is Exiled face up and Attached
    BURNED = FIRST_GAME_EVENT + 17  # (seat, card): a card goes face-down to the Grave of the seat that Burned it
    TO_VOID = FIRST_GAME_EVENT + 18  # (seat, card): a card enters the Void face up
    TO_HAND = FIRST_GAME_EVENT + 19  # (seat, card): a card everyone saw goes to its owner's hand


#: Most arguments an event carries (SOUL_FLIPPED).
EVENT_ARGS: Final = 4


class EndCause(StrEnum):
    """Why a game ended, for ``outcome_facts``: the loser's Grave reached 13 Souls (``WIN_SOULS``)
    with the card that just entered it (a Banished Yokai, or a card the loser Burned: a Burned
    card goes to the burner's own Grave, R14), or no Yokai could take a Turn for a whole Round
    (a draw, RULES_NOTES R23). The step cap is the Game's own (``is_truncated``)."""

    BANISH = "13 Grave Souls: a Banish"
    OWN_BURN = "13 Grave Souls: own Burn"
    NO_TURNS = "draw: a Round without Turns"


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


# Members bound once to module names for the per-step rules paths: Python 3.11 reads
# ``Event.X`` through the enum metaclass, over ten times slower than a global.
EV_BURNED = Event.BURNED
EV_DREW = Event.DREW
EV_ENTERED = Event.ENTERED
EV_FIRST_TURN_REVEAL = Event.FIRST_TURN_REVEAL
EV_LIMBO_TO_DECK = Event.LIMBO_TO_DECK
EV_REVEALED = Event.REVEALED
EV_ROUND = Event.ROUND
EV_SHUFFLED = Event.SHUFFLED
EV_TOKEN = Event.TOKEN
EV_TO_HAND = Event.TO_HAND
EV_TO_LIMBO = Event.TO_LIMBO
EV_TO_VOID = Event.TO_VOID
EV_TURN = Event.TURN
RS_END, RS_START, RS_TURNS = RoundStage.END, RoundStage.START, RoundStage.TURNS
EZ_FIELD, EZ_NONE, EZ_VOID = EffectZone.FIELD, EffectZone.NONE, EffectZone.VOID


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


class RoundTrigger(StrEnum):
    """Triggers that fire for every Field Yokai at once (values: the card data's trigger names)."""

    START = "round_start"
    END = "round_end"


class ActiveYokai(NamedTuple):
    """The Yokai taking its Turn."""

    seat: int
    slot: int
    yid: int


class Task:
    """One step of rules resolution on the stack.

    ``run(s, ctx)`` either does work (popping itself, pushing follow-ups) and returns None, or
    returns the legal actions of a pending decision for seat ``s.decider`` (a new list, ascending,
    no repeats: copies share it, so it is never changed afterwards); ``choose(s, ctx, a)`` applies
    one. ``phase`` is the decision's text (``Game.phase_name``), ``decision`` its kind.
    """

    __slots__ = ()
    phase: ClassVar[str] = "resolve"
    decision: ClassVar[Decision | None] = None

    def run(self, s: State, ctx: Context) -> list[int] | None:
        raise NotImplementedError

    def choose(self, s: State, ctx: Context, action: int) -> None:
        raise NotImplementedError

    def copy(self) -> Task:
        new = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                setattr(new, name, getattr(self, name))
        return new


class State:
    """Everything on the YOKAIZO table, as plain data. :meth:`copy` is the one place that knows
    which fields a copy must not share; the fields are listed in :meth:`__init__`."""

    #: Fields fixed for a game (set at the deal, never changed in place): copies share them.
    FIXED: ClassVar[tuple[str, ...]] = ("cards", "unseen", "deck_types", "ctype", "c_speed", "c_souls", "c_elem",
                                        "c_action")

    def __init__(self, cards: tuple[Card, ...], deck_types: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        """A fresh table: both decks in list order (the deal shuffles them), every other zone empty."""
        self.cards = cards
        #: the card argument of an event a seat does not see (the number of card types)
        self.unseen = len(cards)
        #: each seat's 40 card types (its decklist, which is public)
        self.deck_types = deck_types
        # per card instance
        self.ctype = [t for deck in deck_types for t in deck]
        self.c_speed = [cards[t].speed for t in self.ctype]
        self.c_souls = [cards[t].souls for t in self.ctype]
        self.c_elem = [cards[t].element for t in self.ctype]
        #: the card-type action of each card instance (``A_CARD + ctype[c]``)
        self.c_action = [FIRST_CARD_ACTION + t for t in self.ctype]
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
        self.turn_round = [0] * n  # Round of the Yokai's last Turn (kept wherever the card goes: R12)
        # a face-down card (Soul, Shield, Token) everyone saw by name as it went face-down (a
        # deck's known top card): public while it stays there (R33)
        self.shown = [0] * n
        self.enter_round = [0] * n
        self.enter_tier = [0] * n
        self.known_top = [NO, NO]  # a deck's top card revealed by Spin (public until it moves)
        # Publicly known cards in hidden places, per owner: type -> how many at least (everyone saw
        # them arrive; a card leaving unseen lowers every count by one, since it may be any of them).
        self.pub_hand: list[dict[int, int]] = [{}, {}]
        self.pub_deck: list[dict[int, int]] = [{}, {}]
        # Once a Limbo became the deck, everyone knows the deck holds only those cards (None: no
        # such bound yet); cards leaving it in view come off the bound, unseen ones do not.
        self.deck_bound: list[dict[int, int] | None] = [None, None]
        self.pub_burned: list[dict[int, int]] = [{}, {}]
        self.top_was_known = False  # whether the card take_top just took was a known top card
        self.hidden_setup = True   # Field picks are face-down until the simultaneous reveal
        self.round = 0
        self.tier = BIG_TIER
        self.round_stage = RS_START
        self.turns_this_round = 0
        self.counted: tuple[int, ...] = ()  # the Yokai counted at the current Speed tier
        self.last_turn = NO        # seat that took the last Turn
        self.last_trigger = NO     # seat that last triggered an effect or took a Turn
        self.active: ActiveYokai | None = None
        self.banish_count = 0
        self.winner = NO
        self.draw_game = False
        self.end_cause: EndCause | None = None
        self.first_turn = NO       # seat whose Yokai took the game's first Turn
        self.decider = 0
        self.pending: list[int] | None = None  # the pending decision's legal actions, ascending (shared by copies)
        self.stack: list[Task] = []

    def copy(self) -> State:
        """An independent copy: changing either never changes the other. Fields not named here hold
        immutable values (ints, tuples, enums) or are :attr:`FIXED`."""
        new = object.__new__(State)
        d = self.__dict__.copy()
        for key in ("deck", "hand", "limbo", "grave", "burned", "void", "field"):
            d[key] = [list(d[key][0]), list(d[key][1])]
        for key in ("souls", "shields", "relics"):
            d[key] = [[list(x) for x in d[key][0]], [list(x) for x in d[key][1]]]
        for key in ("pub_hand", "pub_deck", "pub_burned", "deck_bound"):
            d[key] = [None if x is None else dict(x) for x in d[key]]
        for key in ("exile", "up", "blighted", "frozen", "facedown", "shown", "slowed", "turn_round", "enter_round",
                    "enter_tier", "known_top"):
            d[key] = list(d[key])
        d["stack"] = [t.copy() for t in self.stack]
        new.__dict__ = d
        return new

    @property
    def is_terminal(self) -> bool:
        return self.winner != NO or self.draw_game

    # ---------------------------------------------------------------- queries
    def field_speed(self, p: int, s: int) -> int:
        """Printed Speed, or 1 while Slowed (Attached cards give none: no rule or card text says so)."""
        y = self.field[p][s]
        return 1 if self.slowed[y] else self.c_speed[y]

    def still_to_act(self, p: int, s: int) -> bool:
        """Whether the Yokai in seat ``p``'s Field slot ``s`` takes a Turn later in this Round, as
        things stand: it has not taken one, and it was counted at this tier or its Speed tier is
        still to come (one Turn per Yokai per Round, R12; the tier inventory, R11 and R29)."""
        y = self.field[p][s]
        if y == NO or self.round_stage != RS_TURNS or self.turn_round[y] == self.round:
            return False
        return self.tier >= BIG_TIER or y in self.counted or self.field_speed(p, s) < self.tier

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

    def can_take_top(self, p: int) -> bool:
        return bool(self.deck[p]) or bool(self.limbo[p])

    def known_in_deck(self, p: int) -> dict[int, int]:
        """Cards everyone knows to be in seat ``p``'s deck: type -> at least how many."""
        bound = self.deck_bound[p]
        if bound is None:
            return self.pub_deck[p]
        slack = sum(bound.values()) - len(self.deck[p])
        known = dict(self.pub_deck[p])
        for t, k in bound.items():
            if k - slack > known.get(t, 0):
                known[t] = k - slack
        return known
