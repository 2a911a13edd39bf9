"""The table as plain data: the phases (pending decisions), a player's zones, the character
slots (Arena fighter and Sideline), the numbers of the rules, and :class:`State`, the whole
table, which the rules (functions over ``(state, ctx)`` in ``rules``, ``decisions`` and
``effects``) read and write.

Phases (who decides):
  setup        each seat in turn picks 4 characters (Arena first, then the Sideline line)
  draw         turn player: "Draw:" abilities, or done
  main         turn player: 5th character, attach, Events, "Main:" abilities, or done
  attack       part 1: choose the attack (mandatory when one is affordable)
  discard      choose a card to discard (attack discard cost, rage, minimum-damage discard)
  use          part 2: "when you use an attack" Events/abilities, Team Bonus rage, or done
  abilities    part 4: "Attack:" abilities, or done
  min_damage   part 6: discard 2 cards for 1 damage, or done
  search       a search effect: choose which card of the type to take from your deck
  pay          face-down cards turned up: choose which to pay for next (when Spirit does not cover all)
  over         the game has ended
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from yokai_envs.core.information import FIRST_GAME_EVENT

if TYPE_CHECKING:
    from yokai_envs.yyh_tcg.actions import ActionTable
    from yokai_envs.yyh_tcg.cards import Attack, Card, CardPool, Timing

# ---------------------------------------------------------------- the numbers of the rules
SETUP_PICKS = 4           # characters each seat puts on the field in setup
MAX_SIDELINE = 4          # Sideline match slots
WINS_NEEDED = 3           # match wins that win the game
DEFEAT_DAMAGE = 4         # damage that defeats a fighter
MAX_SPIRIT = 10           # Spirit Energy a player can hold
BASE_DAMAGE_CAP = 2       # damage an attack deals at most, before extra_damage
OPENING_HAND = 4
TURN_DRAW = 2
TURN_SPIRIT = 2
MIN_DAMAGE_DISCARD = 2    # cards discarded for the minimum damage of part 6


class Phase(StrEnum):
    """The pending decision. The value is the text of ``phase_name``; the member order is the
    order of the observation's ``phase`` one-hot."""

    SETUP = "setup"
    DRAW = "draw"
    MAIN = "main"
    ATTACK = "attack"
    DISCARD = "discard"
    USE = "use"
    ABILITIES = "abilities"
    MIN_DAMAGE = "min_damage"
    SEARCH = "search"
    PAY = "pay"
    OVER = "over"


class Ev(IntEnum):
    """The automatic events a seat sees (``Game.see``), ``(kind, *args)``; decisions are
    recorded by the core from ``YYHGame.public_action``. ``card`` args are card ids."""

    DECK = FIRST_GAME_EVENT  # (seat, starter index or -1 for another deck): decklists are public
    SHUFFLE = FIRST_GAME_EVENT + 1      # (seat): the seat's deck was shuffled
    DREW = FIRST_GAME_EVENT + 2         # (seat, card): the drawing seat alone sees the card
    DREW_HIDDEN = FIRST_GAME_EVENT + 3  # (seat): the other seat sees that a card was drawn
    LINE = FIRST_GAME_EVENT + 4         # (seat, slot, character): the setup lines are turned face-up
    FIRST = FIRST_GAME_EVENT + 5        # (seat): the coin flip chose the first player
    TURN = FIRST_GAME_EVENT + 6         # (seat, turn number): a turn begins
    MILLED = FIRST_GAME_EVENT + 7       # (seat, card): from the top of the seat's deck to its discard
    SEARCHED = FIRST_GAME_EVENT + 8     # (seat, card): searched from the deck to the hand, shown
    STRIPPED = FIRST_GAME_EVENT + 9     # (seat, card): a random card of the seat's hand was discarded
    FLIPPED = FIRST_GAME_EVENT + 10     # (seat, card, paid): a face-down card turned up, 1 paid / 0 discarded
    DAMAGE = FIRST_GAME_EVENT + 11      # (seat, points): the seat's fighter took damage
    MATCH = FIRST_GAME_EVENT + 12       # (winner): a match ended
    GAME_OVER = FIRST_GAME_EVENT + 13   # (winner, or -1 for a drawn game)
    TURNED = FIRST_GAME_EVENT + 14      # (seat, card): a face-down card turned up, its cost not yet paid


#: Most arguments an event carries.
EVENT_ARGS = 3

#: Phases where "done" passes (and a decision whose only option is "done" is skipped).
PASSABLE = (Phase.DRAW, Phase.MAIN, Phase.USE, Phase.ABILITIES)


class DiscardFor(StrEnum):
    """What a pending discard pays for, and so where the turn goes once it is paid."""

    NOTHING = ""              # no discard pending
    ATTACK_COST = "use"       # the attack's discard cost: then part 2
    RAGE = "rage"             # a Team Bonus rage discard: +3000 Attack, back to part 2
    MIN_DAMAGE = "min"        # the part 6 discard: 1 damage


@dataclass(slots=True, eq=False)
class Attachment:
    """A Technique or Item under a character; face-down ones are unpaid and hidden."""

    card: int
    face_up: bool
    used: bool = False  # its once-per-turn ability was used this turn
    #: turned up (public) but not yet paid for: the owner is choosing which to pay first
    turned: bool = False
    #: how many cards its owner had shown when it was attached (a card shown later was in the
    #: deck then, so it is not this one)
    shows_before: int = 0

    def copy(self) -> Attachment:
        return Attachment(self.card, self.face_up, self.used, self.turned, self.shows_before)


@dataclass(slots=True, eq=False)
class Slot:
    """A character on the field with its damage and attachments."""

    char: int
    damage: int = 0
    attached: list[Attachment] = field(default_factory=list)
    used: bool = False

    def copy(self) -> Slot:
        return Slot(self.char, self.damage, [a.copy() for a in self.attached], self.used)


@dataclass(slots=True, eq=False)
class PlayerState:
    """One side of the table. Lists end at the top: ``deck[-1]`` is the next card drawn."""

    deck: list[int]
    deck_name: str = ""
    hand: list[int] = field(default_factory=list)
    #: cards the opponent has seen (a search shows them) that are still hidden in the hand or
    #: face-down on the Sideline: it cannot tell which, since attaching face-down is unseen
    shown: list[int] = field(default_factory=list)
    #: the show number of each ``shown`` entry (0 for the first card this player ever showed)
    shown_at: list[int] = field(default_factory=list)
    shows: int = 0              # cards shown so far
    #: card types a search found none of, in public: the deck holds none (it never gains a card)
    deck_lacks: frozenset[str] = frozenset()
    discard: list[int] = field(default_factory=list)
    fighter: Slot | None = None
    sideline: list[Slot] = field(default_factory=list)
    spirit: int = 0
    wins: int = 0
    won: list[int] = field(default_factory=list)    # characters that won their match (off the field, face-up)
    lost: list[int] = field(default_factory=list)   # characters that lost their match (off the field, face-down)
    fifth_placed: bool = False
    guard: int = 0              # Defense bonus until the start of this player's next turn
    bonus: dict[str, Any] = field(default_factory=dict)  # active Team Bonus verbs (replaced, never mutated)
    bonus_team: str | None = None

    def copy(self) -> PlayerState:
        new = PlayerState.__new__(PlayerState)  # skips __init__: copying is on the search's hot path
        new.deck = self.deck[:]
        new.deck_name = self.deck_name
        new.hand = self.hand[:]
        new.shown = self.shown[:]
        new.shown_at = self.shown_at[:]
        new.shows = self.shows
        new.deck_lacks = self.deck_lacks
        new.discard = self.discard[:]
        new.fighter = self.fighter.copy() if self.fighter is not None else None
        new.sideline = [s.copy() for s in self.sideline]
        new.spirit = self.spirit
        new.wins = self.wins
        new.won = self.won[:]
        new.lost = self.lost[:]
        new.fifth_placed = self.fifth_placed
        new.guard = self.guard
        new.bonus = self.bonus  # replaced, never mutated
        new.bonus_team = self.bonus_team
        return new

    def take_from_hand(self, cid: int, public: bool = True) -> None:
        """Remove one copy of ``cid`` from the hand. Played in public, it is no longer a card the
        opponent knows to be hidden; attached face-down (``public`` False), it still is."""
        self.hand.remove(cid)
        if public and cid in self.shown:  # the cheap test first: every card played comes here
            self.forget_shown(cid)

    def show(self, cid: int) -> None:
        """``cid`` (now in the hand) was shown to the opponent."""
        self.shown.append(cid)
        self.shown_at.append(self.shows)
        self.shows += 1

    def forget_shown(self, cid: int, shows_before: int | None = None) -> None:
        """A ``cid`` left the hidden cards in public (played, discarded, flipped). A face-down
        card attached when ``shows_before`` cards had been shown can only be a copy shown before
        it: when none was, every shown copy is still hidden. Of the copies it could be, the one
        shown last is forgotten: the opponent cannot tell which it was, and the copies kept are
        the ones that could be in the most places."""
        could_be = [j for j, (c, at) in enumerate(zip(self.shown, self.shown_at, strict=True))
                    if c == cid and (shows_before is None or at < shows_before)]
        if could_be:
            j = max(could_be, key=self.shown_at.__getitem__)
            del self.shown[j]
            del self.shown_at[j]

    def hidden_cards(self) -> list[int]:
        """Hand and face-down attachments (where shown cards can be)."""
        return self.hand + self.face_down_cards()

    def face_down_cards(self) -> list[int]:
        """The face-down attachments (the hidden cards outside the hand)."""
        return [a.card for s in self.slots() for a in s.attached if not (a.face_up or a.turned)]

    def slots(self) -> list[Slot]:
        """Characters on the field: the fighter first, then the Sideline in line order."""
        return ([self.fighter] if self.fighter is not None else []) + self.sideline

    def all_cards(self) -> list[int]:
        """Every card this player owns, wherever it is (for invariants)."""
        cards = self.deck + self.hand + self.discard + self.won + self.lost
        for slot in self.slots():
            cards.append(slot.char)
            cards.extend(a.card for a in slot.attached)
        return cards


class Owed(IntEnum):
    """A choice the rules owe a player before play goes on."""

    SEARCH = 0  # a search: which card of the type to take from the deck
    PAY = 1     # face-down cards turned up together: which to pay for next


class OwedChoice(NamedTuple):
    """One owed choice: its kind, the seat that makes it, and its argument (the card type a
    search takes; for paying, the slot indices whose cards turned up together: 0 = fighter,
    i = Sideline slot i)."""

    kind: Owed
    seat: int
    arg: Any


class DeckFacts(NamedTuple):
    """Facts of one seat's decklist for the pending-decision paths (fixed for a game)."""

    #: (Spirit, card id) of each Event of the decklist playable in part 2 / part 4, cheapest first
    use_events: list[tuple[int, int]]
    attack_events: list[tuple[int, int]]
    #: the passable phases some card of the decklist has an ability for (others list none)
    ability_phases: frozenset[Phase]


@dataclass(frozen=True, slots=True, eq=False)
class Tables:
    """What the rules look up per card pool, built once per pool and shared by every game of it
    (and by their copies)."""

    pool: CardPool
    cards: tuple[Card, ...]  # the pool's cards, by id (``pool.cards``)
    table: ActionTable
    #: passive verb -> value per card id (``effects.passive_tables``)
    passive: dict[str, list[int]]
    #: timing -> per card id, the Spirit its ability of that timing costs, else more than any
    #: Spirit: "usable now" is one lookup and compare
    ability_spirit_at: dict[Timing, list[int]]
    #: timing -> per card id, the Spirit to play it as an Event of that timing, else more than any
    event_spirit: dict[Timing, list[int]]
    #: timing -> (Spirit, card id) of every Event of that timing, cheapest first
    events_by_cost: dict[Timing, list[tuple[int, int]]]
    #: per card id: whether its "Attack:" ability or Attack-timing Event does anything for the
    #: defender in part 4 (not when it only changes "your attack", ``effects.YOUR_ATTACK_VERBS``)
    defender_can_use: list[bool]
    #: ``ability_spirit_at[ATTACK]`` for the defender: more than any Spirit where it is no use
    defender_ability_spirit: list[int]


@dataclass(slots=True, eq=False)
class State:
    """The whole table: both players, the pending decision and this turn's attack, as plain data.
    :meth:`copy` is the one place that knows which fields a copy must not share.

    Slots, not an instance dict: the rules read these fields at every step, and a slot read stays
    fast in every copy (a copied instance dict can leave Python 3.11's attribute cache missing)."""

    # fixed for a game: copies share them (never changed in place by the rules)
    tables: Tables
    #: whether the game's first turn has an Attack step: the book's game (the "balanced"
    #: variant ends that turn after its Main step instead; RULES_NOTES ruling 3)
    first_turn_attacks: bool = True
    #: per seat: its whole deck, sorted (the invariants check every card is still somewhere)
    original_decks: list[list[int]] = field(default_factory=list)
    #: per seat: index of its starter deck (-1 for another deck); decklists are public
    deck_index: list[int] = field(default_factory=list)
    #: per seat: (the decklist it was built from, its DeckFacts), or None before it is asked;
    #: replaced, never changed in place (copies share it: ``decisions.deck_facts``)
    deck_facts: list[tuple[list[int], DeckFacts] | None] = field(default_factory=lambda: [None, None], init=False)

    # the game (``rules.new_game`` deals)
    players: list[PlayerState] = field(default_factory=list, init=False)
    phase: Phase = field(default=Phase.OVER, init=False)
    decider: int = field(default=-1, init=False)          # seat to decide (-1 when the game is over)
    turn_player: int = field(default=0, init=False)
    first_player: int = field(default=0, init=False)
    turn_number: int = field(default=0, init=False)
    revealed: bool = field(default=False, init=False)     # both setup lines have been turned face-up
    winner: int | None = field(default=None, init=False)  # seat, or -1 for a drawn game
    #: the legal actions of the pending decision, ascending (forced passes skipped; None once
    #: the game is over; replaced, never changed in place, so copies share it)
    pending: list[int] | None = field(default=None, init=False)
    #: choices the rules owe a player before play goes on, first first (a tuple: never mutated)
    choices: tuple[OwedChoice, ...] = field(default=(), init=False)
    #: the phase and decider play goes back to after them
    choice_return: tuple[Phase, int] = field(default=(Phase.SETUP, 0), init=False)
    #: they arose as the turn ended (a match ended): end it after them
    end_turn_after_choices: bool = field(default=False, init=False)

    # this turn's attack
    attack: Attack | None = field(default=None, init=False)
    attack_card: int = field(default=-1, init=False)   # the card whose attack it is (the fighter or a Technique)
    power: int = field(default=0, init=False)
    weaken: int = field(default=0, init=False)
    extra_damage: int = field(default=0, init=False)
    rage_used: int = field(default=0, init=False)
    pending_discard: int = field(default=0, init=False)  # cards still to discard
    after_discard: DiscardFor = field(default=DiscardFor.NOTHING, init=False)

    def copy(self) -> State:
        """An independent copy: changing either never changes the other. Only the players are
        copied; every other field holds immutable values (ints, tuples, enums, lists replaced and
        never changed in place) or is fixed for the game."""
        new = State.__new__(State)  # skips __init__: copying is on the search's hot path
        new.tables = self.tables
        new.first_turn_attacks = self.first_turn_attacks
        new.original_decks = self.original_decks
        new.deck_index = self.deck_index
        new.deck_facts = self.deck_facts
        new.players = [p.copy() for p in self.players]
        new.phase = self.phase
        new.decider = self.decider
        new.turn_player = self.turn_player
        new.first_player = self.first_player
        new.turn_number = self.turn_number
        new.revealed = self.revealed
        new.winner = self.winner
        new.pending = self.pending
        new.choices = self.choices
        new.choice_return = self.choice_return
        new.end_turn_after_choices = self.end_turn_after_choices
        new.attack = self.attack
        new.attack_card = self.attack_card
        new.power = self.power
        new.weaken = self.weaken
        new.extra_damage = self.extra_damage
        new.rage_used = self.rage_used
        new.pending_discard = self.pending_discard
        new.after_discard = self.after_discard
        return new

    def clear_turn(self) -> None:
        """Forget this turn's attack and its modifiers."""
        self.attack = None
        self.attack_card = -1
        self.power = 0
        self.weaken = 0
        self.extra_damage = 0
        self.rage_used = 0
        self.pending_discard = 0
        self.after_discard = DiscardFor.NOTHING

    def slot_at(self, seat: int, index: int) -> Slot:
        """Slot ``index`` of ``seat``: 0 the fighter, i the Sideline's i-th."""
        p = self.players[seat]
        slot = p.fighter if index == 0 else p.sideline[index - 1]
        assert slot is not None
        return slot
