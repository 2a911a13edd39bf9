"""The pending decision: each phase (``state.Phase``) is one decision of one seat. ``legal``
lists its actions, ``act`` applies one, then ``settle`` skips decisions whose only option is
to pass. The transitions it calls are in ``rules.Rules``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from yokai_envs.core.masks import mask_of
from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg.actions import Block
from yokai_envs.yyh_tcg.cards import CardType, Timing
from yokai_envs.yyh_tcg.rules import Rules
from yokai_envs.yyh_tcg.state import MIN_DAMAGE_DISCARD, PASSABLE, Attachment, DiscardFor, Phase, PlayerState, Slot

# Members bound once to module names for these per-step paths: Python 3.11 resolves every
# ``Phase.X`` attribute through the enum metaclass's __getattr__ hook, about five times slower
# than reading a global.
P_SETUP, P_DRAW, P_MAIN, P_ATTACK, P_DISCARD, P_USE, P_ABILITIES, P_MIN_DAMAGE, P_SEARCH, P_PAY, P_OVER = (
    Phase.SETUP, Phase.DRAW, Phase.MAIN, Phase.ATTACK, Phase.DISCARD, Phase.USE, Phase.ABILITIES,
    Phase.MIN_DAMAGE, Phase.SEARCH, Phase.PAY, Phase.OVER)
B_PICK, B_FIFTH, B_ATTACH, B_EVENT, B_ABILITY, B_ATTACK_OWN, B_ATTACK_TECH, B_DISCARD, B_RAGE, B_MIN_DAMAGE, \
    B_SEARCH, B_PAY, B_DONE = (
        Block.PICK, Block.FIFTH, Block.ATTACH, Block.EVENT, Block.ABILITY, Block.ATTACK_OWN, Block.ATTACK_TECH,
        Block.DISCARD, Block.RAGE, Block.MIN_DAMAGE, Block.SEARCH, Block.PAY, Block.DONE)
CHARACTER, EVENT = CardType.CHARACTER, CardType.EVENT
T_MAIN, T_USE, T_ATTACK = Timing.MAIN, Timing.USE, Timing.ATTACK

#: The ability timing each passable phase offers.
ABILITY_PHASE_TIMING = {Phase.DRAW: Timing.DRAW, Phase.MAIN: Timing.MAIN, Phase.USE: Timing.USE,
                        Phase.ABILITIES: Timing.ATTACK}


#: More Spirit than any card costs: the ``event_spirit`` of a card that is no such Event.
NO_EVENT = 1 << 30


class DeckFacts(NamedTuple):
    """Facts of one seat's decklist for the pending-decision paths (fixed for a game)."""

    #: (Spirit, card id) of each Event of the decklist playable in part 2 / part 4, cheapest first
    use_events: list[tuple[int, int]]
    attack_events: list[tuple[int, int]]
    #: the passable phases some card of the decklist has an ability for (others list none)
    ability_phases: frozenset[Phase]


class Decisions(Rules):
    """The rules plus the pending decision of ``decider``."""

    #: timing -> per card id, the Spirit to play it as an Event of that timing, else NO_EVENT
    #: (built once per game from the pool)
    event_spirit: dict[Timing, list[int]]
    #: timing -> (Spirit, card id) of every Event of that timing, cheapest first (built once per game)
    events_by_cost: dict[Timing, list[tuple[int, int]]]

    #: per seat: (the decklist it was built from, :meth:`_deck_facts`), or None before it is asked
    _deck_facts_cache: list[tuple[list[int], DeckFacts] | None]

    def new_game(self, decks: list[tuple[str, list[int]]]) -> None:
        super().new_game(decks)
        self._deck_facts_cache = [None, None]
        for seat in (0, 1):  # built now, so the search's clones share them
            self._deck_facts(seat)
        self.settle()

    def legal(self) -> np.ndarray:
        """A fresh mask for the pending decision (the actions of :meth:`legal_actions_now`)."""
        return mask_of(self.legal_actions_now(), self.table.size)

    def legal_actions_now(self) -> list[int]:
        """The legal actions of the pending decision, ascending and each once (a fresh list).

        Listed directly rather than read off a mask: search rollouts and the forced-pass check
        of :meth:`settle` need only the list, and building one is cheaper than a mask."""
        phase = self.phase
        if phase == P_OVER:
            return []
        seat = self.decider
        me = self.players[seat]
        if phase in PASSABLE:  # asked first: most decisions (and the passes settle skips) are these
            out = self._passable_actions(phase, me)
            return sorted(set(out)) if len(out) > 1 else out  # the pass alone: the common case
        t = self.table
        cards = self.pool.cards
        if phase == P_SETUP:  # every character of the deck (pick_of: -1 for another card)
            pick_of = t.pick_of
            out = [pick_of[cid] for cid in me.deck if pick_of[cid] >= 0]
        elif phase == P_DISCARD:
            first = t.DISCARD
            out = [first + cid for cid in me.hand]
        elif phase == P_ATTACK:
            out = self.affordable_attack_actions()
        elif phase == P_MIN_DAMAGE:
            out = [t.MIN_DAMAGE, t.DONE]
        elif phase == P_SEARCH:
            kind, first = self.choices[0][2], t.SEARCH
            out = [first + cid for cid in me.deck if cards[cid].type == kind]
        elif phase == P_PAY:
            out = [t.pay(att.card, index) for index, att in self._face_down_under(seat, self.choices[0][2])
                   if cards[att.card].cost <= me.spirit]
        else:
            raise AssertionError(f"no legal actions for phase {phase}")
        if len(out) > 1:
            out = sorted(set(out))
        return out

    def _passable_actions(self, phase: Phase, me: PlayerState) -> list[int]:
        """The actions of a passable phase (Draw, Main, part 2, part 4), unsorted: the pass first,
        then the abilities and the cards of the hand that can be played now."""
        t = self.table
        out = [t.DONE]
        seat = self.decider
        cached = self._deck_facts_cache[seat]  # _deck_facts(seat), its common case spelled out
        facts = cached[1] if cached is not None and cached[0] is self.original_decks[seat] else self._deck_facts(seat)
        if phase in facts.ability_phases:  # most decks lack some timings
            # Rules._usable_abilities spelled out, listing action ids (one per card id, as there)
            costs = self.ability_spirit_at[ABILITY_PHASE_TIMING[phase]]
            ability_of = t.ability_of
            spirit = me.spirit
            fighter = me.fighter
            for slot in me.sideline if fighter is None else (fighter, *me.sideline):
                cid = slot.char
                if costs[cid] <= spirit and not slot.used and ability_of[cid] not in out:
                    out.append(ability_of[cid])
                for att in slot.attached:
                    cid = att.card
                    if costs[cid] <= spirit and att.face_up and not att.used and ability_of[cid] not in out:
                        out.append(ability_of[cid])
        hand = me.hand
        if not hand or phase == P_DRAW:  # the Draw step plays no card from the hand
            return out
        spirit = me.spirit
        if phase == P_MAIN:
            # per-card tables, not the cards: a character (fifth_of), an attachable (attach_of),
            # else an Event (its Main-timing Spirit, NO_EVENT for another timing)
            n_side = len(me.sideline)
            fifth_of, event_of, attach_of, attach_cost = t.fifth_of, t.event_of, t.attach_of, t.attach_cost
            attach_sideline = t.attach_sideline
            main_spirit = self.event_spirit[T_MAIN]
            fifth_open = not me.fifth_placed
            can_pay = me.fighter is not None
            for cid in hand:
                fifth = fifth_of[cid]
                if fifth >= 0:
                    if fifth_open:
                        out.append(fifth)
                    continue
                base = attach_of[cid]
                if base >= 0:
                    if can_pay and attach_cost[cid] <= spirit:
                        out.append(base)
                    if n_side:
                        out.extend(attach_sideline[cid][n_side])  # face-down under slots 1..n_side
                elif main_spirit[cid] <= spirit:
                    out.append(event_of[cid])
        elif phase == P_USE:
            costs, event_of = self.event_spirit[T_USE], t.event_of
            out.extend([event_of[cid] for cid in hand if costs[cid] <= spirit])
            if self.rage_used < me.bonus.get("rage", 0):  # fx.bonus without its call
                out.append(t.RAGE)
        elif phase == P_ABILITIES:  # part 4: the attacker, then the defender
            costs, event_of = self.event_spirit[T_ATTACK], t.event_of
            out.extend([event_of[cid] for cid in hand if costs[cid] <= spirit])
        return out

    def act(self, action: int) -> None:
        """Apply a legal action for ``decider``, then skip forced passes."""
        block, cid, extra = self.table.decoded[action]
        seat = self.decider
        me = self.players[seat]
        cards = self.pool.cards
        if block == B_DONE:  # the commonest action first (the blocks are exclusive)
            self._pass()
        elif block == B_PICK:
            self._pick(seat, cid)
        elif block == B_DISCARD:
            me.take_from_hand(cid)
            me.discard.append(cid)
            self.pending_discard -= 1
            if self.pending_discard == 0:
                self._discards_paid()
        elif block == B_FIFTH:
            me.take_from_hand(cid)
            me.fifth_placed = True
            if me.fighter is None:  # the Arena was waiting for it: it enters at once
                me.fighter = Slot(cid)
                self.refresh_bonus(seat)
                fx.on_enter(self, seat)
            else:
                me.sideline.append(Slot(cid))
                self.refresh_bonus(seat)
        elif block == B_ATTACH:
            me.take_from_hand(cid, public=extra == 0)  # face-down: the opponent cannot tell which card
            if extra == 0:
                assert me.fighter is not None
                me.spirit -= cards[cid].cost
                me.fighter.attached.append(Attachment(cid, True))
            else:
                me.sideline[extra - 1].attached.append(Attachment(cid, False))
        elif block == B_EVENT:
            card = cards[cid]
            me.take_from_hand(cid)
            me.spirit -= card.spirit
            me.discard.append(cid)
            fx.resolve(self, seat, card.effects)
        elif block == B_ABILITY:
            instance = self._ability_instance(seat, cid, ABILITY_PHASE_TIMING[self.phase])
            ability = cards[cid].ability
            assert instance is not None and ability is not None
            instance.used = True
            me.spirit -= ability.spirit
            fx.resolve(self, seat, ability.effects)
        elif block in (B_ATTACK_OWN, B_ATTACK_TECH):
            # a legal action is one of affordable_attacks(): read the attack off the action
            # (attack_own: the fighter's printed attack number cid; attack_tech: the Technique cid)
            if block == B_ATTACK_OWN:
                fighter = self.players[self.turn_player].fighter
                assert fighter is not None, "an attack without a fighter"
                self.attack, self.attack_card = cards[fighter.char].attacks[cid], fighter.char
            else:
                self.attack, self.attack_card = cards[cid].attacks[0], cid
            me.spirit -= self.attack.spirit
            self.phase = P_USE
            if self.attack.discard:
                self._start_discard(self.attack.discard, DiscardFor.ATTACK_COST)
        elif block == B_RAGE:
            self.rage_used += 1
            self._start_discard(1, DiscardFor.RAGE)
        elif block == B_MIN_DAMAGE:
            self._start_discard(MIN_DAMAGE_DISCARD, DiscardFor.MIN_DAMAGE)
        elif block == B_SEARCH:
            self.choices = self.choices[1:]
            self.take_searched(seat, cid)
        elif block == B_PAY and self.pay_flipped(seat, self.choices[0][2], (cid, extra)):
            self.choices = self.choices[1:]
        self.settle()

    def _start_discard(self, count: int, then: DiscardFor) -> None:
        self.pending_discard = count
        self.after_discard = then
        self.phase = P_DISCARD

    def _discards_paid(self) -> None:
        then = self.after_discard
        self.after_discard = DiscardFor.NOTHING
        if then == DiscardFor.ATTACK_COST:
            self.phase = P_USE
        elif then == DiscardFor.RAGE:
            self.power += fx.RAGE_POWER
            self.phase = P_USE
        else:  # minimum damage
            self._deal(1)

    def _pass(self) -> None:
        phase = self.phase
        if phase == P_ABILITIES:  # the commonest pass first (part 4 passes twice an attack)
            if self.decider == self.turn_player:  # the defender's window of part 4
                self.decider = 1 - self.turn_player
            else:
                self.decider = self.turn_player
                self._compare()
        elif phase == P_MAIN:
            self.begin_attack()
        elif phase == P_USE:
            self._after_use()
        elif phase == P_DRAW:
            self.phase = P_MAIN
        elif phase == P_MIN_DAMAGE:
            self._deal(0)

    def settle(self) -> None:
        """Skip decisions whose only legal option is to pass, when that is a public fact; cache
        the next real decision's legal actions.

        A pass forced only by the hidden hand is still asked (the Main step with cards in hand;
        part 2 while the hand may hold an affordable "when you use an attack" Event): skipping
        it would tell the opponent what the hand does not hold."""
        while True:
            if self.winner is not None:
                self.phase = P_OVER
                self.decider = -1
                self.pending_actions = []
                return
            if self.choices:  # owed choices come first (a search, paying for turned-up cards)
                kind, seat, arg = self.choices[0]
                # still a choice? (earlier ones may have spent the Spirit or taken the cards)
                if kind == "pay" and self.pay_flipped(seat, arg):
                    self.choices = self.choices[1:]
                    continue
                if kind == "search" and not any(self.pool.cards[c].type == arg for c in self.players[seat].deck):
                    self.choices = self.choices[1:]  # an earlier search took the last one
                    continue
                if self.phase != P_SEARCH and self.phase != P_PAY:
                    self.choice_return = (self.phase, self.decider)
                self.phase = P_SEARCH if kind == "search" else P_PAY
                self.decider = seat
                self.pending_actions = self.legal_actions_now()
                return
            if self.phase == P_SEARCH or self.phase == P_PAY:  # all made: play goes on
                if self.end_turn_after_choices:
                    self.end_turn_after_choices = False
                    self.end_turn()
                else:
                    self.phase, self.decider = self.choice_return
                continue
            phase = self.phase
            if phase in PASSABLE:  # legal_actions_now's passable branch, spelled out (most steps)
                me = self.players[self.decider]
                actions = self._passable_actions(phase, me)
                if len(actions) > 1:
                    # copies of a card in the hand are the only way an action is listed twice
                    # (abilities are listed once each): a set only then
                    hand = me.hand
                    if len(set(hand)) == len(hand):
                        actions.sort()  # a fresh list: sorted in place
                    else:
                        actions = sorted(set(actions))
                # the pass alone: _pass_is_public's cheap cases first (Draw: the hand plays no
                # part; no hand: nothing hidden)
                elif phase == P_DRAW:
                    self.phase = P_MAIN  # _pass of the Draw step
                    continue
                elif not me.hand or (phase != P_MAIN and self._pass_is_public()):
                    self._pass()
                    continue
            else:
                actions = self.legal_actions_now()
            self.pending_actions = actions
            return

    def _pass_is_public(self) -> bool:
        """Whether the opponent knows the pending pass is forced (no hidden card could change it)."""
        phase = self.phase
        me = self.players[self.decider]
        if phase == P_MAIN:
            return not me.hand
        if phase in (P_USE, P_ABILITIES):
            if not me.hand:
                return True
            # the decklist is public: could any unseen card of it be an affordable Event here?
            # (asked card by card of the few Events of this timing in the decklist the Spirit
            # affords, cheapest first, rather than over every unseen card)
            spirit = me.spirit
            seat = self.decider
            cached = self._deck_facts_cache[seat]  # _deck_facts(seat), its common case spelled out
            facts = cached[1] if cached is not None and cached[0] is self.original_decks[seat] \
                else self._deck_facts(seat)
            for cost, cid in facts.use_events if phase == P_USE else facts.attack_events:
                if cost > spirit:
                    break
                if cid in me.hand or cid in me.deck or cid in me.face_down_cards():
                    return False
        return True

    def _deck_facts(self, seat: int) -> DeckFacts:
        """What ``seat``'s decklist allows (no other card can be in its zones), remembered per
        decklist list object: a game's decklists are fixed, and scenario builders that change
        one assign a new list."""
        decklist = self.original_decks[seat]
        cached = self._deck_facts_cache[seat]
        if cached is not None and cached[0] is decklist:
            return cached[1]
        in_deck = set(decklist)
        facts = DeckFacts(
            [(cost, cid) for cost, cid in self.events_by_cost[T_USE] if cid in in_deck],
            [(cost, cid) for cost, cid in self.events_by_cost[T_ATTACK] if cid in in_deck],
            frozenset(phase for phase, timing in ABILITY_PHASE_TIMING.items()
                      if any(self.ability_spirit_at[timing][cid] != NO_EVENT for cid in in_deck)))
        # a fresh list: clones share this attribute, and each keeps the entry of its own decklist
        self._deck_facts_cache = [*self._deck_facts_cache]
        self._deck_facts_cache[seat] = (decklist, facts)
        return facts
