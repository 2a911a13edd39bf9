"""The pending decision: each phase (``state.Phase``) is one decision of one seat. ``legal``
lists its actions, ``act`` applies one, then ``settle`` skips decisions whose only option is
to pass. The transitions it calls are in ``rules.Rules``.
"""

from __future__ import annotations

import numpy as np

from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg.actions import Block
from yokai_envs.yyh_tcg.cards import CardType, Timing
from yokai_envs.yyh_tcg.rules import Rules
from yokai_envs.yyh_tcg.state import MIN_DAMAGE_DISCARD, PASSABLE, Attachment, DiscardFor, Phase, Slot

#: The ability timing each passable phase offers.
ABILITY_PHASE_TIMING = {Phase.DRAW: Timing.DRAW, Phase.MAIN: Timing.MAIN, Phase.USE: Timing.USE,
                        Phase.ABILITIES: Timing.ATTACK}


class Decisions(Rules):
    """The rules plus the pending decision of ``decider``."""

    def new_game(self, decks: list[tuple[str, list[int]]]) -> None:
        super().new_game(decks)
        self.settle()

    def legal(self) -> np.ndarray:
        """A fresh mask for the pending decision."""
        t = self.table
        mask = np.zeros(t.size, dtype=bool)
        phase = self.phase
        if phase == Phase.OVER:
            return mask
        seat = self.decider
        me = self.players[seat]
        cards = self.pool.cards
        if phase == Phase.SETUP:
            for cid in me.deck:
                if cards[cid].is_character:
                    mask[t.pick(cid)] = True
            return mask
        if phase == Phase.DISCARD:
            for cid in me.hand:
                mask[t.DISCARD + cid] = True
            return mask
        if phase == Phase.ATTACK:
            for option in self.affordable_attacks():
                mask[option.action] = True
            return mask
        if phase == Phase.MIN_DAMAGE:
            mask[t.MIN_DAMAGE] = True
            mask[t.DONE] = True
            return mask
        mask[t.DONE] = True
        for cid in self._usable_abilities(seat, ABILITY_PHASE_TIMING[phase]):
            mask[t.ability(cid)] = True
        if phase == Phase.MAIN:
            n_side = len(me.sideline)
            for cid in me.hand:
                card = cards[cid]
                kind = card.type
                if kind == CardType.CHARACTER:
                    if not me.fifth_placed:
                        mask[t.fifth(cid)] = True
                elif kind == CardType.EVENT:
                    if card.timing == Timing.MAIN and card.spirit <= me.spirit:
                        mask[t.event(cid)] = True
                else:
                    base = t.attach(cid, 0)
                    if me.fighter is not None and card.cost <= me.spirit:
                        mask[base] = True
                    mask[base + 1:base + 1 + n_side] = True
        elif phase == Phase.USE:
            for cid in me.hand:
                card = cards[cid]
                if card.type == CardType.EVENT and card.timing == Timing.USE and card.spirit <= me.spirit:
                    mask[t.event(cid)] = True
            if self.rage_used < fx.bonus(me, "rage") and me.hand:
                mask[t.RAGE] = True
        return mask

    def act(self, action: int) -> None:
        """Apply a legal action for ``decider``, then skip forced passes."""
        block, cid, extra = self.table.decoded[action]
        seat = self.decider
        me = self.players[seat]
        cards = self.pool.cards
        if block == Block.PICK:
            self._pick(seat, cid)
        elif block == Block.DONE:
            self._pass()
        elif block == Block.DISCARD:
            me.take_from_hand(cid)
            me.discard.append(cid)
            self.pending_discard -= 1
            if self.pending_discard == 0:
                self._discards_paid()
        elif block == Block.FIFTH:
            me.take_from_hand(cid)
            me.sideline.append(Slot(cid))
            me.fifth_placed = True
            self.refresh_bonus(seat)
        elif block == Block.ATTACH:
            me.take_from_hand(cid)
            if extra == 0:
                assert me.fighter is not None
                me.spirit -= cards[cid].cost
                me.fighter.attached.append(Attachment(cid, True))
            else:
                me.sideline[extra - 1].attached.append(Attachment(cid, False))
        elif block == Block.EVENT:
            card = cards[cid]
            me.take_from_hand(cid)
            me.spirit -= card.spirit
            me.discard.append(cid)
            fx.resolve(self, seat, card.effects)
        elif block == Block.ABILITY:
            instance = self._ability_instance(seat, cid, ABILITY_PHASE_TIMING[self.phase])
            ability = cards[cid].ability
            assert instance is not None and ability is not None
            instance.used = True
            me.spirit -= ability.spirit
            fx.resolve(self, seat, ability.effects)
        elif block in (Block.ATTACK_OWN, Block.ATTACK_TECH):
            for option in self.affordable_attacks():
                if option.action == action:
                    self.attack, self.attack_card = option.attack, option.card
            assert self.attack is not None
            me.spirit -= self.attack.spirit
            self.phase = Phase.USE
            if self.attack.discard:
                self._start_discard(self.attack.discard, DiscardFor.ATTACK_COST)
        elif block == Block.RAGE:
            self.rage_used += 1
            self._start_discard(1, DiscardFor.RAGE)
        elif block == Block.MIN_DAMAGE:
            self._start_discard(MIN_DAMAGE_DISCARD, DiscardFor.MIN_DAMAGE)
        self.settle()

    def _start_discard(self, count: int, then: DiscardFor) -> None:
        self.pending_discard = count
        self.after_discard = then
        self.phase = Phase.DISCARD

    def _discards_paid(self) -> None:
        then = self.after_discard
        self.after_discard = DiscardFor.NOTHING
        if then == DiscardFor.ATTACK_COST:
            self.phase = Phase.USE
        elif then == DiscardFor.RAGE:
            self.power += fx.RAGE_POWER
            self.phase = Phase.USE
        else:  # minimum damage
            self._deal(1)

    def _pass(self) -> None:
        phase = self.phase
        if phase == Phase.DRAW:
            self.phase = Phase.MAIN
        elif phase == Phase.MAIN:
            self.begin_attack()
        elif phase == Phase.USE:
            self._after_use()
        elif phase == Phase.ABILITIES:
            self._compare()
        elif phase == Phase.MIN_DAMAGE:
            self._deal(0)

    def settle(self) -> None:
        """Skip decisions whose only legal option is to pass; cache the next real mask."""
        while True:
            if self.winner is not None:
                self.phase = Phase.OVER
                self.decider = -1
                self.pending_mask = self.legal()
                return
            mask = self.legal()
            if self.phase in PASSABLE and mask[self.table.DONE] and np.count_nonzero(mask) == 1:
                self._pass()
                continue
            self.pending_mask = mask
            return
