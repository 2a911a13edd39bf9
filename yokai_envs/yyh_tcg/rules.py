"""The rules: setup, turn structure, the Attack step's values and parts 3-7, damage, match end,
and which abilities can be used (the primitives they share with the effects are in ``moves``),
as functions over ``(st, ctx)``: ``st`` the table (:class:`~yokai_envs.yyh_tcg.state.State`),
``ctx`` the game's generator and record (:class:`~yokai_envs.core.context.Context`; queries take
the table alone). The pending decision (its legal actions and how an action applies) is in
``decisions``; the phases are ``state.Phase``.
"""

from __future__ import annotations

from typing import NamedTuple

from yokai_envs.core.context import Context
from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg import moves
from yokai_envs.yyh_tcg.cards import Attack, CardType, Timing
from yokai_envs.yyh_tcg.state import (
    BASE_DAMAGE_CAP,
    DEFEAT_DAMAGE,
    MAX_SPIRIT,
    MIN_DAMAGE_DISCARD,
    OPENING_HAND,
    SETUP_PICKS,
    TURN_DRAW,
    TURN_SPIRIT,
    WINS_NEEDED,
    Attachment,
    Ev,
    Phase,
    PlayerState,
    Slot,
    State,
)

TECHNIQUE = CardType.TECHNIQUE  # bound once (see decisions.py on enum lookups in Python 3.11)


class AttackOption(NamedTuple):
    """An attack the fighter can pay for now."""

    action: int    # its action id (attack_own or attack_tech)
    card: int      # the card it is printed on (the fighter or an attached Technique)
    attack: Attack


# ------------------------------------------------------------------ setup
def new_game(st: State, ctx: Context, decks: list[tuple[str, list[int]]]) -> None:
    """Both decks shuffled; seat 0 picks first (``decisions.new_game`` then settles)."""
    st.players = [PlayerState(list(ids), name) for name, ids in decks]
    for seat, p in enumerate(st.players):
        ctx.see(None, Ev.DECK, seat, st.deck_index[seat])
        ctx.rng.shuffle(p.deck)
        ctx.see(None, Ev.SHUFFLE, seat)
    st.phase = Phase.SETUP
    st.decider = 0
    st.turn_player = 0
    st.first_player = 0
    st.turn_number = 0
    st.revealed = False
    st.winner = None
    st.choices = ()
    st.choice_return = (Phase.SETUP, 0)
    st.end_turn_after_choices = False
    st.clear_turn()


def pick(st: State, ctx: Context, seat: int, cid: int) -> None:
    me = st.players[seat]
    me.deck.remove(cid)
    if me.fighter is None:
        me.fighter = Slot(cid)
    else:
        me.sideline.append(Slot(cid))
    if len(me.sideline) == SETUP_PICKS - 1:
        if seat == 0:
            st.decider = 1
        else:
            reveal(st, ctx)


def reveal(st: State, ctx: Context) -> None:
    """Both lines are turned face-up; decks shuffled; coin flip; both draw 4."""
    st.revealed = True
    for seat, p in enumerate(st.players):
        for i, slot in enumerate(p.slots()):
            ctx.see(None, Ev.LINE, seat, i, slot.char)
    for seat, p in enumerate(st.players):
        ctx.rng.shuffle(p.deck)
        ctx.see(None, Ev.SHUFFLE, seat)
        moves.refresh_bonus(st, seat)
    st.first_player = int(ctx.rng.integers(2))
    ctx.see(None, Ev.FIRST, st.first_player)
    for seat in (st.first_player, 1 - st.first_player):
        moves.draw(st, ctx, seat, OPENING_HAND)
    start_turn(st, ctx, st.first_player)


# ------------------------------------------------------------------ turn structure
def start_turn(st: State, ctx: Context, seat: int) -> None:
    st.turn_player = seat
    st.decider = seat
    st.turn_number += 1
    if ctx.recording:
        ctx.see(None, Ev.TURN, seat, st.turn_number)
    st.clear_turn()
    me = st.players[seat]
    me.guard = 0
    for p in st.players:  # once per turn: each turn, either player's (a defender acts in part 4)
        for slot in p.sideline if p.fighter is None else (p.fighter, *p.sideline):  # p.slots()
            slot.used = False
            for att in slot.attached:
                att.used = False
    if st.turn_number > 1:
        moves.draw(st, ctx, seat, TURN_DRAW)
        if st.winner is not None:
            return
    me.spirit = min(MAX_SPIRIT, me.spirit + TURN_SPIRIT + fx.bonus(me, "extra_spirit"))
    st.phase = Phase.DRAW


def end_turn(st: State, ctx: Context) -> None:
    seat = st.turn_player
    fx.on_end_of_turn(st, ctx, seat)
    if st.winner is None:
        start_turn(st, ctx, 1 - seat)


def begin_attack(st: State, ctx: Context) -> None:
    """Part 1 starts; the Attack step (and turn) ends at once with no affordable attack, with
    no opposing fighter to attack (the opponent's Arena waits for its 5th character), or in
    the game's first turn of the "balanced" variant (RULES_NOTES ruling 3)."""
    if (st.first_turn_attacks or st.turn_number > 1) \
            and st.players[1 - st.turn_player].fighter is not None and affordable_attack_actions(st):
        st.phase = Phase.ATTACK
    else:
        end_turn(st, ctx)


def affordable_attacks(st: State) -> list[AttackOption]:
    """Each attack the fighter can pay for now (its printed ones, then its Techniques)."""
    me = st.players[st.turn_player]
    out: list[AttackOption] = []
    if me.fighter is None:
        return out
    cards = st.tables.cards
    spirit, hand = me.spirit, len(me.hand)
    for i, attack in enumerate(cards[me.fighter.char].attacks):
        if attack.spirit <= spirit and attack.discard <= hand:
            out.append(AttackOption(st.tables.table.ATTACK_OWN + i, me.fighter.char, attack))
    seen = set()
    for att in me.fighter.attached:
        card = cards[att.card]
        if att.face_up and card.type == TECHNIQUE and att.card not in seen:
            seen.add(att.card)
            attack = card.attacks[0]
            if attack.spirit <= spirit and attack.discard <= hand:
                out.append(AttackOption(st.tables.table.attack_tech(att.card), att.card, attack))
    return out


def affordable_attack_actions(st: State) -> list[int]:
    """The action ids of :meth:`affordable_attacks`, in its order, without building its
    options (asked as each Main step ends and at each part 1, on the search's hot path)."""
    me = st.players[st.turn_player]
    fighter = me.fighter
    if fighter is None:
        return []
    tables = st.tables
    cards = tables.cards
    spirit, hand = me.spirit, len(me.hand)
    first = tables.table.ATTACK_OWN
    out = [first + i for i, attack in enumerate(cards[fighter.char].attacks)
           if attack.spirit <= spirit and attack.discard <= hand]
    if fighter.attached:
        attack_tech_of = tables.table.attack_tech_of
        for att in fighter.attached:
            card = cards[att.card]
            if att.face_up and card.type == TECHNIQUE:
                attack = card.attacks[0]
                if attack.spirit <= spirit and attack.discard <= hand:
                    action = attack_tech_of[att.card]
                    if action not in out:
                        out.append(action)
    return out


# ------------------------------------------------------------------ values
def attack_value(st: State) -> int:
    """Part 5: the final Attack of this turn's attack (0 floor)."""
    seat = st.turn_player
    value = (st.attack.value if st.attack else 0) + st.power + fx.attack_modifier(st, seat)
    return max(0, value)


def defense_value(st: State, seat: int) -> int:
    """Final Defense of ``seat``'s fighter (1 floor); this turn's weaken hits the defender."""
    me = st.players[seat]
    if me.fighter is None:
        return 1
    value = st.tables.cards[me.fighter.char].defense + me.guard + fx.defense_modifier(st, seat)
    if seat != st.turn_player:
        value -= st.weaken
    return max(1, value)


def damage_now(st: State) -> int:
    """Part 5: 1 when Attack >= Defense, 2 when >= twice, + extra_damage; capped."""
    attack = attack_value(st)
    defense = defense_value(st, 1 - st.turn_player)
    damage = 2 if attack >= 2 * defense else 1 if attack >= defense else 0
    if damage:
        damage = min(damage + st.extra_damage, BASE_DAMAGE_CAP + st.extra_damage)
    return damage


# ------------------------------------------------------------------ attack parts 3-7
def after_use(st: State, ctx: Context) -> None:
    """Part 3: the attack's own effect; then part 4 (Attack: abilities)."""
    assert st.attack is not None, "part 3 without an attack"
    fx.resolve(st, ctx, st.turn_player, st.attack.effects)
    if st.winner is None:
        st.phase = Phase.ABILITIES


def compare(st: State, ctx: Context) -> None:
    """Parts 5 and 6."""
    damage = damage_now(st)
    if damage == 0 and len(st.players[st.turn_player].hand) >= MIN_DAMAGE_DISCARD:
        st.phase = Phase.MIN_DAMAGE
    else:
        deal(st, ctx, damage)


def deal(st: State, ctx: Context, damage: int) -> None:
    """Part 7: the defender's fighter takes the damage; at 4 the match ends; the turn ends."""
    seat = st.turn_player
    opp = st.players[1 - seat]
    if damage and opp.fighter is not None:
        opp.fighter.damage += damage
        if ctx.recording:  # asked first: an attack's damage is on the search's hot path
            ctx.see(None, Ev.DAMAGE, 1 - seat, damage)
        fx.on_damage(st, ctx, seat, damage)
        if opp.fighter.damage >= DEFEAT_DAMAGE:
            end_match(st, ctx, seat)
    if st.winner is None:
        if st.choices:  # owed by the match end (flips, searches): the turn ends after them
            st.end_turn_after_choices = True
        else:
            end_turn(st, ctx)


def end_match(st: State, ctx: Context, match_winner: int) -> None:
    """Both fighters leave (winner face-up, loser face-down), attachments are discarded,
    and the next in line enter the Arena, flipping and paying for their attachments."""
    ctx.see(None, Ev.MATCH, match_winner)
    for seat, p in enumerate(st.players):
        slot = p.fighter
        assert slot is not None, "a match ends between two fighters"
        p.discard.extend(a.card for a in slot.attached)
        (p.won if seat == match_winner else p.lost).append(slot.char)
        p.fighter = None
        p.guard = 0
    st.players[match_winner].wins += 1
    if st.players[match_winner].wins >= WINS_NEEDED:
        moves.end_game(st, ctx, match_winner)
        return
    order = (st.turn_player, 1 - st.turn_player)
    for seat in order:
        p = st.players[seat]
        if p.sideline:
            p.fighter = p.sideline.pop(0)
            moves.flip_attachments(st, ctx, seat, (0,))
        # else: no one in line (the 5th not yet placed): the Arena waits for the 5th, which
        # the player may place there in a later Main step; until then nobody can attack
        moves.refresh_bonus(st, seat)
    for seat in order:
        if st.players[seat].fighter is not None:
            fx.on_enter(st, seat)


# ------------------------------------------------------------------ abilities
def ability_instance(st: State, seat: int, cid: int, timing: Timing) -> Slot | Attachment | None:
    """The first unused face-up instance of ``cid`` in play whose ability has ``timing``."""
    me = st.players[seat]
    ability = st.tables.cards[cid].ability
    if ability is None or ability.timing != timing or ability.spirit > me.spirit:
        return None
    for slot in me.slots():
        if slot.char == cid and not slot.used:
            return slot
        for att in slot.attached:
            if att.card == cid and att.face_up and not att.used:
                return att
    return None
