"""The fixed action table: named blocks of consecutive action ids, built once per card pool.

=================  =====================  ==================================================
block              size                   meaning
=================  =====================  ==================================================
``pick``           characters             setup: put this character of your deck on the field
                                          (first pick = Arena fighter, then Sideline in order)
``fifth``          characters             Main: place this character from hand as 5th fighter
``attach``         attachables x 5        Main: attach this Technique/Item from hand to target
                                          0 = Arena fighter (paid), 1..4 = Sideline slot (face-down)
``event``          events                 play this Event from hand (Main, or "when you use an attack")
``ability``        ability cards          use the Draw:/Main:/Attack:/use ability of this card in play
``attack_own``     2                      Attack part 1: use the fighter's printed attack i
``attack_tech``    techniques             Attack part 1: use this attached Technique
``discard``        all cards              discard this card from hand (a cost, rage or minimum damage)
``rage``           1                      Team Bonus rage: discard a card for +3000 Attack
``min_damage``     1                      part 6: discard 2 cards to deal 1 damage
``search``         all cards              a search: take this card from your deck
``pay``            attachables x 5        pay for this turned-up card under slot 0 = Arena fighter,
                                          1..4 = Sideline slot, now (the cards turned up together
                                          cost more than your Spirit)
``done``           1                      pass: end this step / part, or decline
=================  =====================  ==================================================
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from yokai_envs.core.layout import build_layout, layout_size, layout_starts
from yokai_envs.yyh_tcg.cards import MAX_OWN_ATTACKS, CardPool

ATTACH_TARGETS = 5  # Arena fighter + four Sideline match slots


class Block(StrEnum):
    """The blocks of the action table, in id order."""

    PICK = "pick"
    FIFTH = "fifth"
    ATTACH = "attach"
    EVENT = "event"
    ABILITY = "ability"
    ATTACK_OWN = "attack_own"
    ATTACK_TECH = "attack_tech"
    DISCARD = "discard"
    RAGE = "rage"
    MIN_DAMAGE = "min_damage"
    SEARCH = "search"
    PAY = "pay"
    DONE = "done"


class Decoded(NamedTuple):
    """What an action id means."""

    block: Block
    #: the card id (pick, fifth, attach, event, ability, attack_tech, discard), the printed
    #: attack's index (attack_own), else 0
    card: int
    #: the attach or pay target (0 = Arena fighter, 1..4 = Sideline slot), else 0
    extra: int


_FIXED_NAMES = {Block.RAGE: "rage: discard a card for +3000 Attack",
                Block.MIN_DAMAGE: "discard 2 cards to deal 1 damage", Block.DONE: "done / pass"}


class ActionTable:
    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        self.blocks: list[tuple[Block, int]] = [
            (Block.PICK, len(pool.characters)), (Block.FIFTH, len(pool.characters)),
            (Block.ATTACH, len(pool.attachables) * ATTACH_TARGETS), (Block.EVENT, len(pool.events)),
            (Block.ABILITY, len(pool.ability_cards)), (Block.ATTACK_OWN, MAX_OWN_ATTACKS),
            (Block.ATTACK_TECH, len(pool.techniques)), (Block.DISCARD, len(pool)),
            (Block.RAGE, 1), (Block.MIN_DAMAGE, 1), (Block.SEARCH, len(pool)),
            (Block.PAY, len(pool.attachables) * ATTACH_TARGETS),
            (Block.DONE, 1)]
        #: block -> its slice of action ids
        self.ranges = build_layout(self.blocks)
        self.offset: dict[str, int] = layout_starts(self.ranges)
        self.size = layout_size(self.ranges)
        n = len(pool)

        # card id -> index inside its block (-1 when the card is not of that kind); plain lists:
        # the legal-action path reads them for every card in hand, every step
        def index(ids: tuple[int, ...]) -> list[int]:
            table = [-1] * n
            for i, cid in enumerate(ids):
                table[cid] = i
            return table
        self.char_index = index(pool.characters)
        self.attach_index = index(pool.attachables)
        self.event_index = index(pool.events)
        self.ability_index = index(pool.ability_cards)
        self.tech_index = index(pool.techniques)
        self.PICK = self.offset[Block.PICK]
        self.FIFTH = self.offset[Block.FIFTH]
        self.ATTACH = self.offset[Block.ATTACH]
        self.EVENT = self.offset[Block.EVENT]
        self.ABILITY = self.offset[Block.ABILITY]
        self.ATTACK_OWN = self.offset[Block.ATTACK_OWN]
        self.ATTACK_TECH = self.offset[Block.ATTACK_TECH]
        self.DISCARD = self.offset[Block.DISCARD]
        self.RAGE = self.offset[Block.RAGE]
        self.MIN_DAMAGE = self.offset[Block.MIN_DAMAGE]
        self.SEARCH = self.offset[Block.SEARCH]
        self.PAY = self.offset[Block.PAY]
        self.DONE = self.offset[Block.DONE]
        # card id -> its action id in a block (the id builders below, precomputed for the
        # legal-action path; -1 where the card is not of that kind)
        self.pick_of = [self.PICK + i if i >= 0 else -1 for i in self.char_index]
        self.fifth_of = [self.FIFTH + i if i >= 0 else -1 for i in self.char_index]
        self.event_of = [self.EVENT + i if i >= 0 else -1 for i in self.event_index]
        self.attach_of = [self.ATTACH + i * ATTACH_TARGETS if i >= 0 else -1 for i in self.attach_index]
        self.ability_of = [self.ABILITY + i if i >= 0 else -1 for i in self.ability_index]
        self.attack_tech_of = [self.ATTACK_TECH + i if i >= 0 else -1 for i in self.tech_index]
        #: card id -> per Sideline length n, the ids attaching it face-down under Sideline slots
        #: 1..n (empty for a card that is no attachable)
        self.attach_sideline = [[tuple(range(base + 1, base + 1 + n)) for n in range(ATTACH_TARGETS)]
                                if base >= 0 else [] for base in self.attach_of]
        #: card id -> the Spirit to attach it to the Arena fighter (0 for a card that is no attachable)
        self.attach_cost = [pool.cards[cid].cost if i >= 0 else 0 for cid, i in enumerate(self.attach_index)]
        #: action id -> what it means, decoded once
        self.decoded: list[Decoded] = [self._decode(block, i) for block, size in self.blocks for i in range(size)]

    def _decode(self, block: Block, i: int) -> Decoded:
        pool = self.pool
        if block in (Block.PICK, Block.FIFTH):
            return Decoded(block, pool.characters[i], 0)
        if block in (Block.ATTACH, Block.PAY):
            return Decoded(block, pool.attachables[i // ATTACH_TARGETS], i % ATTACH_TARGETS)
        if block == Block.EVENT:
            return Decoded(block, pool.events[i], 0)
        if block == Block.ABILITY:
            return Decoded(block, pool.ability_cards[i], 0)
        if block == Block.ATTACK_TECH:
            return Decoded(block, pool.techniques[i], 0)
        return Decoded(block, i, 0)  # search/discard: the card id; attack_own: the attack index; else 0

    # id builders (card ids in, action ids out)
    def pick(self, cid: int) -> int:
        return self.PICK + self.char_index[cid]

    def fifth(self, cid: int) -> int:
        return self.FIFTH + self.char_index[cid]

    def attach(self, cid: int, target: int) -> int:
        return self.ATTACH + self.attach_index[cid] * ATTACH_TARGETS + target

    def event(self, cid: int) -> int:
        return self.EVENT + self.event_index[cid]

    def ability(self, cid: int) -> int:
        return self.ABILITY + self.ability_index[cid]

    def attack_tech(self, cid: int) -> int:
        return self.ATTACK_TECH + self.tech_index[cid]

    def discard(self, cid: int) -> int:
        return self.DISCARD + cid

    def search(self, cid: int) -> int:
        return self.SEARCH + cid

    def pay(self, cid: int, slot: int) -> int:
        return self.PAY + self.attach_index[cid] * ATTACH_TARGETS + slot

    def name(self, action: int) -> str:
        block, card, extra = self.decoded[action]
        cards = self.pool.cards
        if block == Block.PICK:
            return f"setup: put {cards[card].name} on the field"
        if block == Block.FIFTH:
            return f"place {cards[card].name} as 5th fighter"
        if block == Block.ATTACH:
            return f"attach {cards[card].name} to {_slot_name(extra)}"
        if block == Block.EVENT:
            return f"play {cards[card].name}"
        if block == Block.ABILITY:
            return f"use the ability of {cards[card].name}"
        if block == Block.ATTACK_OWN:
            return f"use printed attack {card + 1}"
        if block == Block.ATTACK_TECH:
            return f"use technique {cards[card].name}"
        if block == Block.DISCARD:
            return f"discard {cards[card].name}"
        if block == Block.SEARCH:
            return f"search: take {cards[card].name}"
        if block == Block.PAY:
            return f"pay for {cards[card].name} on {_slot_name(extra)}"
        return _FIXED_NAMES[block]


def _slot_name(slot: int) -> str:
    return "the Arena fighter" if slot == 0 else f"Sideline slot {slot}"


def describe_action(table: ActionTable, action: int) -> dict[str, object]:
    """``action`` as fields from the table: ``kind`` (the block), ``id``, ``name``, and
    ``card`` (its name) / ``card_id`` for blocks about a card, ``attack`` (printed attack index)
    for attack_own, ``target`` (0 = Arena fighter, 1..4 = Sideline slot) for attach and pay."""
    block, card, extra = table.decoded[action]
    out: dict[str, object] = {"kind": str(block.value), "id": int(action), "name": table.name(action)}
    if block == Block.ATTACK_OWN:
        out["attack"] = int(card)
    elif block not in (Block.RAGE, Block.MIN_DAMAGE, Block.DONE):
        out["card"] = table.pool.cards[card].name
        out["card_id"] = int(card)
    if block in (Block.ATTACH, Block.PAY):
        out["target"] = int(extra)
    return out
