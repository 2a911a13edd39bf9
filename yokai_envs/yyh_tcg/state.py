"""Table state: a player's zones and the character slots (Arena fighter and Sideline)."""

from __future__ import annotations


class Attachment:
    """A Technique or Item under a character; face-down ones are unpaid and hidden."""

    __slots__ = ("card", "face_up", "used")

    def __init__(self, card: int, face_up: bool, used: bool = False) -> None:
        self.card = card
        self.face_up = face_up
        self.used = used  # its once-per-turn ability was used this turn

    def copy(self) -> Attachment:
        return Attachment(self.card, self.face_up, self.used)


class Slot:
    """A character on the field with its damage and attachments."""

    __slots__ = ("attached", "char", "damage", "used")

    def __init__(self, char: int, damage: int = 0, attached: list[Attachment] | None = None,
                 used: bool = False) -> None:
        self.char = char
        self.damage = damage
        self.attached: list[Attachment] = attached if attached is not None else []
        self.used = used

    def copy(self) -> Slot:
        return Slot(self.char, self.damage, [a.copy() for a in self.attached], self.used)


class PlayerState:
    """One side of the table. Lists end at the top: ``deck[-1]`` is the next card drawn."""

    __slots__ = ("bonus", "bonus_team", "deck", "deck_name", "discard", "fifth_placed", "fighter", "guard",
                 "hand", "lost", "revealed", "sideline", "spirit", "wins", "won")

    def __init__(self, deck: list[int], deck_name: str = "") -> None:
        self.deck = deck
        self.deck_name = deck_name
        self.hand: list[int] = []
        self.revealed: list[int] = []  # hand cards the opponent has seen (searched cards are shown)
        self.discard: list[int] = []
        self.fighter: Slot | None = None
        self.sideline: list[Slot] = []
        self.spirit = 0
        self.wins = 0
        self.won: list[int] = []    # characters that won their match (off the field, face-up)
        self.lost: list[int] = []   # characters that lost their match (off the field, face-down)
        self.fifth_placed = False
        self.guard = 0              # Defense bonus until the start of this player's next turn
        self.bonus: dict[str, object] = {}  # active Team Bonus verbs
        self.bonus_team: str | None = None

    def copy(self) -> PlayerState:
        new = PlayerState.__new__(PlayerState)
        new.deck = self.deck[:]
        new.deck_name = self.deck_name
        new.hand = self.hand[:]
        new.revealed = self.revealed[:]
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

    def take_from_hand(self, cid: int) -> None:
        """Remove one copy of ``cid`` from the hand (a revealed copy first, if any)."""
        self.hand.remove(cid)
        if cid in self.revealed:
            self.revealed.remove(cid)

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
