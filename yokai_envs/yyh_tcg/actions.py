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
``done``           1                      pass: end this step / part, or decline
=================  =====================  ==================================================
"""

from __future__ import annotations

import numpy as np

from yokai_envs.yyh_tcg.cards import MAX_OWN_ATTACKS, CardPool

ATTACH_TARGETS = 5  # Arena fighter + four Sideline match slots


class ActionTable:
    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        sizes = [("pick", len(pool.characters)), ("fifth", len(pool.characters)),
                 ("attach", len(pool.attachables) * ATTACH_TARGETS), ("event", len(pool.events)),
                 ("ability", len(pool.ability_cards)), ("attack_own", MAX_OWN_ATTACKS),
                 ("attack_tech", len(pool.techniques)), ("discard", len(pool)),
                 ("rage", 1), ("min_damage", 1), ("done", 1)]
        self.offset: dict[str, int] = {}
        start = 0
        for name, size in sizes:
            self.offset[name] = start
            start += size
        self.size = start
        self.blocks = sizes
        n = len(pool)
        # card id -> index inside its block (-1 when the card is not of that kind)
        def index(ids: tuple[int, ...]) -> np.ndarray:
            table = np.full(n, -1, dtype=np.int64)
            table[list(ids)] = np.arange(len(ids))
            return table
        self.char_index = index(pool.characters)
        self.attach_index = index(pool.attachables)
        self.event_index = index(pool.events)
        self.ability_index = index(pool.ability_cards)
        self.tech_index = index(pool.techniques)
        self.PICK = self.offset["pick"]
        self.FIFTH = self.offset["fifth"]
        self.ATTACH = self.offset["attach"]
        self.EVENT = self.offset["event"]
        self.ABILITY = self.offset["ability"]
        self.ATTACK_OWN = self.offset["attack_own"]
        self.ATTACK_TECH = self.offset["attack_tech"]
        self.DISCARD = self.offset["discard"]
        self.RAGE = self.offset["rage"]
        self.MIN_DAMAGE = self.offset["min_damage"]
        self.DONE = self.offset["done"]
        # action id -> (block, payload) decoded once
        self.decoded: list[tuple[str, int, int]] = []
        for name, size in sizes:
            for i in range(size):
                self.decoded.append(self._decode(name, i))

    def _decode(self, block: str, i: int) -> tuple[str, int, int]:
        pool = self.pool
        if block in ("pick", "fifth"):
            return block, pool.characters[i], 0
        if block == "attach":
            return block, pool.attachables[i // ATTACH_TARGETS], i % ATTACH_TARGETS
        if block == "event":
            return block, pool.events[i], 0
        if block == "ability":
            return block, pool.ability_cards[i], 0
        if block == "attack_tech":
            return block, pool.techniques[i], 0
        if block == "discard":
            return block, i, 0
        return block, i, 0  # attack_own index, or 0 for rage/min_damage/done

    # id builders (card ids in, action ids out)
    def pick(self, cid: int) -> int:
        return self.PICK + int(self.char_index[cid])

    def fifth(self, cid: int) -> int:
        return self.FIFTH + int(self.char_index[cid])

    def attach(self, cid: int, target: int) -> int:
        return self.ATTACH + int(self.attach_index[cid]) * ATTACH_TARGETS + target

    def event(self, cid: int) -> int:
        return self.EVENT + int(self.event_index[cid])

    def ability(self, cid: int) -> int:
        return self.ABILITY + int(self.ability_index[cid])

    def attack_tech(self, cid: int) -> int:
        return self.ATTACK_TECH + int(self.tech_index[cid])

    def discard(self, cid: int) -> int:
        return self.DISCARD + cid

    def name(self, action: int) -> str:
        block, card, extra = self.decoded[action]
        cards = self.pool.cards
        if block == "pick":
            return f"setup: put {cards[card].name} on the field"
        if block == "fifth":
            return f"place {cards[card].name} as 5th fighter"
        if block == "attach":
            where = "the Arena fighter" if extra == 0 else f"Sideline slot {extra}"
            return f"attach {cards[card].name} to {where}"
        if block == "event":
            return f"play {cards[card].name}"
        if block == "ability":
            return f"use the ability of {cards[card].name}"
        if block == "attack_own":
            return f"use printed attack {card + 1}"
        if block == "attack_tech":
            return f"use technique {cards[card].name}"
        if block == "discard":
            return f"discard {cards[card].name}"
        return {"rage": "rage: discard a card for +3000 Attack", "min_damage": "discard 2 cards to deal 1 damage",
                "done": "done / pass"}[block]
