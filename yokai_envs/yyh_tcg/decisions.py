"""The pending decision: each phase (``state.Phase``) is one decision of one seat.
``legal_actions_now`` lists its actions, ``act`` applies one, then ``settle`` skips decisions
whose only option is to pass and keeps the next decision's legal actions in ``state.pending``.
Functions over ``(st, ctx)``; the transitions they call are in ``rules`` and ``moves``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from yokai_envs.core.context import Context
from yokai_envs.core.masks import mask_of
from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg import moves, rules
from yokai_envs.yyh_tcg.actions import ActionTable, Block
from yokai_envs.yyh_tcg.cards import Card, CardPool, CardType, Timing
from yokai_envs.yyh_tcg.state import (
    MIN_DAMAGE_DISCARD,
    PASSABLE,
    Attachment,
    DeckFacts,
    DiscardFor,
    Owed,
    Phase,
    PlayerState,
    Slot,
    State,
    Tables,
)

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


#: Per card pool (by id): what the rules look up, built once.
_TABLES: dict[int, Tables] = {}


def tables_for(pool: CardPool) -> Tables:
    """The rules' lookup tables of ``pool`` (built on first use, then shared)."""
    tables = _TABLES.get(id(pool))
    if tables is None or tables.pool is not pool:
        cards = pool.cards
        # timing -> per card id, the Spirit to play it as an Event of that timing (else more than
        # any Spirit): whether a hidden card could be played now is one min over these
        event_spirit = {timing: [c.spirit if c.type == CardType.EVENT and c.timing == timing else NO_EVENT
                                 for c in cards] for timing in Timing}
        ability_spirit = {timing: [c.ability.spirit if c.ability and c.ability.timing == timing else NO_EVENT
                                   for c in cards] for timing in Timing}
        defender_can_use = [fx.does_something_for_the_defender(_attack_effects(c)) for c in cards]
        tables = _TABLES[id(pool)] = Tables(
            pool, cards, ActionTable(pool), fx.passive_tables(cards), ability_spirit, event_spirit,
            {timing: sorted((spirit, cid) for cid, spirit in enumerate(costs) if spirit != NO_EVENT)
             for timing, costs in event_spirit.items()},
            defender_can_use,
            [cost if useful else NO_EVENT for cost, useful in zip(ability_spirit[T_ATTACK], defender_can_use,
                                                                   strict=True)])
    return tables


def _attack_effects(card: Card) -> tuple[tuple[str, Any], ...]:
    """The effects ``card`` has in part 4: its "Attack:" ability's, or an Attack-timing Event's."""
    if card.ability is not None and card.ability.timing == T_ATTACK:
        return card.ability.effects
    if card.type == CardType.EVENT and card.timing == T_ATTACK:
        return card.effects
    return ()


def new_game(st: State, ctx: Context, decks: list[tuple[str, list[int]]]) -> None:
    """Deal (``rules.new_game``), then settle on the first decision."""
    rules.new_game(st, ctx, decks)
    st.deck_facts = [None, None]
    for seat in (0, 1):  # built now, so the search's clones share them
        deck_facts(st, seat)
    settle(st, ctx)


def legal(st: State) -> np.ndarray:
    """A fresh mask for the pending decision (the actions of :func:`legal_actions_now`)."""
    return mask_of(legal_actions_now(st), st.tables.table.size)


def legal_actions_now(st: State) -> list[int]:
    """The legal actions of the pending decision, ascending and each once (a fresh list).

    Listed directly rather than read off a mask: search rollouts and the forced-pass check
    of :func:`settle` need only the list, and building one is cheaper than a mask."""
    phase = st.phase
    if phase == P_OVER:
        return []
    seat = st.decider
    me = st.players[seat]
    if phase in PASSABLE:  # asked first: most decisions (and the passes settle skips) are these
        out = passable_actions(st, phase, me)
        return sorted(set(out)) if len(out) > 1 else out  # the pass alone: the common case
    tables = st.tables
    t, cards = tables.table, tables.cards
    if phase == P_SETUP:  # every character of the deck (pick_of: -1 for another card)
        pick_of = t.pick_of
        out = [pick_of[cid] for cid in me.deck if pick_of[cid] >= 0]
    elif phase == P_DISCARD:
        first = t.DISCARD
        out = [first + cid for cid in me.hand]
    elif phase == P_ATTACK:
        out = rules.affordable_attack_actions(st)
    elif phase == P_MIN_DAMAGE:
        out = [t.MIN_DAMAGE, t.DONE]
    elif phase == P_SEARCH:
        kind, first = st.choices[0][2], t.SEARCH
        out = [first + cid for cid in me.deck if cards[cid].type == kind]
    elif phase == P_PAY:
        out = [t.pay(att.card, index) for index, att in moves.face_down_under(st, seat, st.choices[0][2])
               if cards[att.card].cost <= me.spirit]
    else:
        raise AssertionError(f"no legal actions for phase {phase}")
    if len(out) > 1:
        out = sorted(set(out))
    return out


def passable_actions(st: State, phase: Phase, me: PlayerState) -> list[int]:
    """The actions of a passable phase (Draw, Main, part 2, part 4), unsorted: the pass first,
    then the abilities and the cards of the hand that can be played now."""
    tables = st.tables
    t = tables.table
    out = [t.DONE]
    seat = st.decider
    cached = st.deck_facts[seat]  # deck_facts(st, seat), its common case spelled out
    facts = cached[1] if cached is not None and cached[0] is st.original_decks[seat] else deck_facts(st, seat)
    if phase in facts.ability_phases:  # most decks lack some timings
        # the usable abilities, one action per card id
        costs = tables.ability_spirit_at[ABILITY_PHASE_TIMING[phase]]
        ability_of = t.ability_of
        spirit = me.spirit
        if phase == P_ABILITIES and seat != st.turn_player:
            # the defender's window: an ability that only changes "your attack" would do nothing
            costs = tables.defender_ability_spirit
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
        main_spirit = tables.event_spirit[T_MAIN]
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
        costs, event_of = tables.event_spirit[T_USE], t.event_of
        out.extend([event_of[cid] for cid in hand if costs[cid] <= spirit])
        if st.rage_used < me.bonus.get("rage", 0):  # fx.bonus without its call
            out.append(t.RAGE)
    elif phase == P_ABILITIES:  # part 4: the attacker, then the defender
        costs, event_of = tables.event_spirit[T_ATTACK], t.event_of
        if seat == st.turn_player:
            out.extend([event_of[cid] for cid in hand if costs[cid] <= spirit])
        else:  # only what does something for the defender
            useful = tables.defender_can_use
            out.extend([event_of[cid] for cid in hand if costs[cid] <= spirit and useful[cid]])
    return out


def act(st: State, ctx: Context, action: int) -> None:
    """Apply a legal action for ``decider``, then skip forced passes."""
    tables = st.tables
    block, cid, extra = tables.table.decoded[action]
    seat = st.decider
    me = st.players[seat]
    cards = tables.cards
    if block == B_DONE:  # the commonest action first (the blocks are exclusive)
        pass_decision(st, ctx)
    elif block == B_PICK:
        rules.pick(st, ctx, seat, cid)
    elif block == B_DISCARD:
        me.take_from_hand(cid)
        me.discard.append(cid)
        st.pending_discard -= 1
        if st.pending_discard == 0:
            discards_paid(st, ctx)
    elif block == B_FIFTH:
        me.take_from_hand(cid)
        me.fifth_placed = True
        if me.fighter is None:  # the Arena was waiting for it: it enters at once
            me.fighter = Slot(cid)
            moves.refresh_bonus(st, seat)
            fx.on_enter(st, seat)
        else:
            me.sideline.append(Slot(cid))
            moves.refresh_bonus(st, seat)
    elif block == B_ATTACH:
        me.take_from_hand(cid, public=extra == 0)  # face-down: the opponent cannot tell which card
        if extra == 0:
            assert me.fighter is not None
            me.spirit -= cards[cid].cost
            me.fighter.attached.append(Attachment(cid, True))
        else:
            me.sideline[extra - 1].attached.append(Attachment(cid, False, shows_before=me.shows))
    elif block == B_EVENT:
        card = cards[cid]
        me.take_from_hand(cid)
        me.spirit -= card.spirit
        me.discard.append(cid)
        fx.resolve(st, ctx, seat, card.effects)
    elif block == B_ABILITY:
        instance = rules.ability_instance(st, seat, cid, ABILITY_PHASE_TIMING[st.phase])
        ability = cards[cid].ability
        assert instance is not None and ability is not None
        instance.used = True
        me.spirit -= ability.spirit
        fx.resolve(st, ctx, seat, ability.effects)
    elif block in (B_ATTACK_OWN, B_ATTACK_TECH):
        # a legal action is one of affordable_attacks(): read the attack off the action
        # (attack_own: the fighter's printed attack number cid; attack_tech: the Technique cid)
        if block == B_ATTACK_OWN:
            fighter = st.players[st.turn_player].fighter
            assert fighter is not None, "an attack without a fighter"
            st.attack, st.attack_card = cards[fighter.char].attacks[cid], fighter.char
        else:
            st.attack, st.attack_card = cards[cid].attacks[0], cid
        me.spirit -= st.attack.spirit
        st.phase = P_USE
        if st.attack.discard:
            start_discard(st, st.attack.discard, DiscardFor.ATTACK_COST)
    elif block == B_RAGE:
        st.rage_used += 1
        start_discard(st, 1, DiscardFor.RAGE)
    elif block == B_MIN_DAMAGE:
        start_discard(st, MIN_DAMAGE_DISCARD, DiscardFor.MIN_DAMAGE)
    elif block == B_SEARCH:
        st.choices = st.choices[1:]
        moves.take_searched(st, ctx, seat, cid)
    elif block == B_PAY and moves.pay_flipped(st, ctx, seat, st.choices[0][2], (cid, extra)):
        st.choices = st.choices[1:]
    settle(st, ctx)


def start_discard(st: State, count: int, then: DiscardFor) -> None:
    st.pending_discard = count
    st.after_discard = then
    st.phase = P_DISCARD


def discards_paid(st: State, ctx: Context) -> None:
    then = st.after_discard
    st.after_discard = DiscardFor.NOTHING
    if then == DiscardFor.ATTACK_COST:
        st.phase = P_USE
    elif then == DiscardFor.RAGE:
        st.power += fx.RAGE_POWER
        st.phase = P_USE
    else:  # minimum damage
        rules.deal(st, ctx, 1)


def pass_decision(st: State, ctx: Context) -> None:
    """The decider passes (``done``): the step or part ends, or part 4 goes to the other seat."""
    phase = st.phase
    if phase == P_ABILITIES:  # the commonest pass first (part 4 passes twice an attack)
        if st.decider == st.turn_player:  # the defender's window of part 4
            st.decider = 1 - st.turn_player
        else:
            st.decider = st.turn_player
            rules.compare(st, ctx)
    elif phase == P_MAIN:
        rules.begin_attack(st, ctx)
    elif phase == P_USE:
        rules.after_use(st, ctx)
    elif phase == P_DRAW:
        st.phase = P_MAIN
    elif phase == P_MIN_DAMAGE:
        rules.deal(st, ctx, 0)


def settle(st: State, ctx: Context) -> None:
    """Skip decisions whose only legal option is to pass, when that is a public fact; cache
    the next real decision's legal actions.

    A pass forced only by the hidden hand is still asked (the Main step with cards in hand;
    part 2 while the hand may hold an affordable "when you use an attack" Event): skipping
    it would tell the opponent what the hand does not hold."""
    while True:
        if st.winner is not None:
            st.phase = P_OVER
            st.decider = -1
            st.pending = None
            return
        if st.choices:  # owed choices come first (a search, paying for turned-up cards)
            kind, seat, arg = st.choices[0]
            # still a choice? (earlier ones may have spent the Spirit or taken the cards)
            if kind == Owed.PAY and moves.pay_flipped(st, ctx, seat, arg):
                st.choices = st.choices[1:]
                continue
            if kind == Owed.SEARCH and not any(st.tables.cards[c].type == arg for c in st.players[seat].deck):
                st.choices = st.choices[1:]  # an earlier search took the last one
                continue
            if st.phase != P_SEARCH and st.phase != P_PAY:
                st.choice_return = (st.phase, st.decider)
            st.phase = P_SEARCH if kind == Owed.SEARCH else P_PAY
            st.decider = seat
            st.pending = legal_actions_now(st)
            return
        if st.phase == P_SEARCH or st.phase == P_PAY:  # all made: play goes on
            if st.end_turn_after_choices:
                st.end_turn_after_choices = False
                rules.end_turn(st, ctx)
            else:
                st.phase, st.decider = st.choice_return
            continue
        phase = st.phase
        if phase in PASSABLE:  # legal_actions_now's passable branch, spelled out (most steps)
            me = st.players[st.decider]
            actions = passable_actions(st, phase, me)
            if len(actions) > 1:
                # copies of a card in the hand are the only way an action is listed twice
                # (abilities are listed once each): a set only then
                hand = me.hand
                if len(set(hand)) == len(hand):
                    actions.sort()  # a fresh list: sorted in place
                else:
                    actions = sorted(set(actions))
            # the pass alone: pass_is_public's cheap cases first (Draw: the hand plays no
            # part; no hand: nothing hidden)
            elif phase == P_DRAW:
                st.phase = P_MAIN  # pass_decision of the Draw step
                continue
            elif not me.hand or (phase != P_MAIN and pass_is_public(st)):
                pass_decision(st, ctx)
                continue
        else:
            actions = legal_actions_now(st)
        st.pending = actions
        return


def pass_is_public(st: State) -> bool:
    """Whether the opponent knows the pending pass is forced (no hidden card could change it)."""
    phase = st.phase
    me = st.players[st.decider]
    if phase == P_MAIN:
        return not me.hand
    if phase in (P_USE, P_ABILITIES):
        if not me.hand:
            return True
        # the decklist is public: could any unseen card of it be an affordable Event here?
        # (asked card by card of the few Events of this timing in the decklist the Spirit
        # affords, cheapest first, rather than over every unseen card)
        spirit = me.spirit
        seat = st.decider
        cached = st.deck_facts[seat]  # deck_facts(st, seat), its common case spelled out
        facts = cached[1] if cached is not None and cached[0] is st.original_decks[seat] \
            else deck_facts(st, seat)
        defending = phase == P_ABILITIES and seat != st.turn_player
        useful = st.tables.defender_can_use
        for cost, cid in facts.use_events if phase == P_USE else facts.attack_events:
            if cost > spirit:
                break
            if defending and not useful[cid]:
                continue
            if cid in me.hand or cid in me.deck or cid in me.face_down_cards():
                return False
    return True


def deck_facts(st: State, seat: int) -> DeckFacts:
    """What ``seat``'s decklist allows (no other card can be in its zones), remembered per
    decklist list object: a game's decklists are fixed, and scenario builders that change
    one assign a new list."""
    decklist = st.original_decks[seat]
    cached = st.deck_facts[seat]
    if cached is not None and cached[0] is decklist:
        return cached[1]
    in_deck = set(decklist)
    facts = DeckFacts(
        [(cost, cid) for cost, cid in st.tables.events_by_cost[T_USE] if cid in in_deck],
        [(cost, cid) for cost, cid in st.tables.events_by_cost[T_ATTACK] if cid in in_deck],
        frozenset(phase for phase, timing in ABILITY_PHASE_TIMING.items()
                  if any(st.tables.ability_spirit_at[timing][cid] != NO_EVENT for cid in in_deck)))
    # a fresh list: clones share this attribute, and each keeps the entry of its own decklist
    st.deck_facts = [*st.deck_facts]
    st.deck_facts[seat] = (decklist, facts)
    return facts
