"""Effect choices, verb by verb: what a :class:`~yokai_envs.yokaizo.effects.Pick` may choose
(``OPTIONS``: append the legal actions to a list, in any order; is there any option?) and what a
choice does (``APPLY``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from yokai_envs.core.context import Context
from yokai_envs.yokaizo.actions import (
    A_CARD,
    A_MY_FIELD,
    A_MY_VOID,
    A_OPP_FIELD,
    A_OPP_VOID,
    A_SOUL,
    A_YES,
    hand_type_actions,
)
from yokai_envs.yokaizo.cards import Card, Op
from yokai_envs.yokaizo.knowledge import forget_one, lose
from yokai_envs.yokaizo.moves import (
    burn_card,
    hand_out,
    see_card,
    take_from,
    take_from_hand,
    take_top,
    to_hand,
    to_limbo,
    to_void,
)
from yokai_envs.yokaizo.state import CARDS_PER_SEAT, NO, VOID_SLOTS, EffectZone, Event, PickVerb, State

if TYPE_CHECKING:
    from yokai_envs.yokaizo.effects import Pick


# ------------------------------------------------------------------ pick options (list them, any?)
def _field_slots(st: State, ctx: Context, pk: Pick, m: list[int], side: int,
                 test: Callable[[int, int, int], bool]) -> bool:
    """Mark Field slots of seat ``side`` whose Yokai passes ``test(p, s, y)``."""
    base = A_MY_FIELD if side == pk.seat else A_OPP_FIELD
    found = False
    for s in (0, 1):
        y = st.field[side][s]
        if y != NO and test(side, s, y):
            m.append(base + s)
            found = True
    return found


def _yes(m: list[int]) -> bool:
    m.append(A_YES)
    return True


def opt_damage(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return _field_slots(st, ctx, pk, m, 1 - pk.seat, lambda p, s, y: True)


def opt_shatter(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    a = _field_slots(st, ctx, pk, m, pk.seat, lambda p, s, y: y not in pk.chosen)
    b = _field_slots(st, ctx, pk, m, 1 - pk.seat, lambda p, s, y: y not in pk.chosen)
    return a or b


def opt_destroy_void(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    n = len(st.void[1 - pk.seat])
    m.extend(range(A_OPP_VOID, A_OPP_VOID + n))
    return n > 0


def opt_destroy_shield(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return _field_slots(st, ctx, pk, m, 1 - pk.seat, lambda p, s, y: bool(st.shields[p][s]))


def _types_in(st: State, ctx: Context, zone: list[int], m: list[int], exclude: int = NO) -> bool:
    found = False
    for c in zone:
        t = st.ctype[c]
        if t != exclude:
            m.append(A_CARD + t)
            found = True
    return found


def opt_exile(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return _types_in(st, ctx, st.limbo[1 - pk.seat], m)


def opt_own_field(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return _field_slots(st, ctx, pk, m, pk.seat, lambda p, s, y: True)


def opt_attach(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return st.can_take_top(pk.seat) and opt_own_field(st, ctx, pk, m)


def opt_burn_deck(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return st.can_take_top(pk.seat) and _yes(m)


def opt_burn_void(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    return opt_destroy_void(st, ctx, pk, m)


def opt_unburn(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    if pk.params["to"] == "void" and len(st.void[pk.seat]) >= VOID_SLOTS:
        return False
    p = pk.seat
    # only your own cards: an enemy card Burned into your Grave never joins your hand or Void (R14)
    return _types_in(st, ctx, [c for c in st.burned[p] if c // CARDS_PER_SEAT == p], m)


def _take_own_burned(st: State, ctx: Context, p: int, ctype: int) -> int:
    burned = st.burned[p]
    for i in range(len(burned) - 1, -1, -1):
        c = burned[i]
        if st.ctype[c] == ctype and c // CARDS_PER_SEAT == p:
            return burned.pop(i)
    raise AssertionError(f"no own Burned card of type {ctype}")


def _soul_slots(st: State, ctx: Context, m: list[int], p: int, s: int, test: Callable[[int], bool]) -> bool:
    found = False
    for i, c in enumerate(st.souls[p][s]):
        if test(c):
            m.append(A_SOUL + i)
            found = True
    return found


def opt_blight(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    enemy = 1 - pk.seat
    if pk.stage == 0:
        return _field_slots(st, ctx, pk, m, enemy, lambda p, s, y: any(not st.blighted[c] for c in st.souls[p][s]))
    if st.field[enemy][pk.target] != pk.yid:
        return False
    return _soul_slots(st, ctx, m, enemy, pk.target, lambda c: not st.blighted[c])


def _uprootable(st: State, ctx: Context, c: int) -> bool:
    return not st.up[c] and not st.blighted[c]


def opt_uproot(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    if pk.params["to"] == "void" and len(st.void[p]) >= VOID_SLOTS:
        return False
    if pk.stage == 0:
        return _field_slots(st, ctx, pk, m, p, lambda q, s, y: any(_uprootable(st, ctx, c) for c in st.souls[q][s]))
    if st.field[p][pk.target] != pk.yid:
        return False
    return _soul_slots(st, ctx, m, p, pk.target, lambda c: _uprootable(st, ctx, c))


def _echoable(ops: tuple[Op, ...] | None) -> bool:
    # Ruling: an entry effect that itself Echoes cannot be Echoed (no infinite loops).
    if not ops:
        return False
    return all(op.verb != "echo" for op in ops)


def opt_echo(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    cards = st.cards
    found = _field_slots(st, ctx, pk, m, p, lambda q, s, y: _echoable(cards[st.ctype[y]].field.get("on_entry")))
    for i, c in enumerate(st.void[p]):
        if not st.facedown[c] and _echoable(cards[st.ctype[c]].void.get("on_entry")):
            m.append(A_MY_VOID + i)
            found = True
    return found


def opt_freeze(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    found = False
    for side, base in ((pk.seat, A_MY_VOID), (1 - pk.seat, A_OPP_VOID)):
        for i, c in enumerate(st.void[side]):
            if not st.frozen[c]:
                m.append(base + i)
                found = True
    return found


def opt_haunt(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    if pk.params["to"] == "void" and len(st.void[pk.seat]) >= VOID_SLOTS:
        return False
    return _types_in(st, ctx, st.limbo[pk.seat], m, exclude=st.ctype[pk.src])


def _matches(card: Card, active_cards: list[Card], match: str) -> bool:
    if match == "name":
        return any(card.index == a.index for a in active_cards)
    if match == "element":
        return any(card.element == a.element for a in active_cards)
    return any(card.faction == a.faction for a in active_cards)


def opt_shine(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    cards = st.cards
    actives = [cards[st.ctype[c]] for c in st.active_cards(p)]
    own_type = st.ctype[pk.src]
    found = False
    for t in {st.ctype[c] for c in st.deck[p]}:
        if t != own_type and _matches(cards[t], actives, pk.params["match"]):
            m.append(A_CARD + t)
            found = True
    return found


def opt_slow(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    a = _field_slots(st, ctx, pk, m, pk.seat, lambda p, s, y: not st.slowed[y])
    b = _field_slots(st, ctx, pk, m, 1 - pk.seat, lambda p, s, y: not st.slowed[y])
    return a or b


def opt_swap(st: State, ctx: Context, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    if pk.stage == 0:
        n = len(st.void[p])
        if not n or not st.hand[p]:
            return False
        m.extend(range(A_MY_VOID, A_MY_VOID + n))
        return True
    legal = hand_type_actions(st, p)
    m += legal
    return bool(legal)


Options = Callable[[State, Context, "Pick", list[int]], bool]
OPTIONS: dict[PickVerb, Options] = {
    PickVerb.DAMAGE: opt_damage, PickVerb.SHATTER: opt_shatter, PickVerb.DESTROY_VOID: opt_destroy_void,
    PickVerb.DESTROY_SHIELD: opt_destroy_shield, PickVerb.EXILE: opt_exile, PickVerb.ATTACH: opt_attach,
    PickVerb.SHIELD: opt_own_field, PickVerb.BURN_DECK: opt_burn_deck, PickVerb.BURN_ENEMY_VOID: opt_burn_void,
    PickVerb.UNBURN: opt_unburn, PickVerb.BLIGHT: opt_blight, PickVerb.ECHO: opt_echo, PickVerb.FREEZE: opt_freeze,
    PickVerb.HAUNT: opt_haunt, PickVerb.SHINE: opt_shine, PickVerb.SLOW: opt_slow, PickVerb.UPROOT: opt_uproot,
    PickVerb.SWAP: opt_swap,
}


# ------------------------------------------------------------------ pick application
def _slot(pk: Pick, a: int) -> tuple[int, int]:
    """(seat, slot) of a relative Field action."""
    if A_MY_FIELD <= a < A_OPP_FIELD:
        return pk.seat, a - A_MY_FIELD
    return 1 - pk.seat, a - A_OPP_FIELD


def _void(pk: Pick, a: int) -> tuple[int, int]:
    if A_MY_VOID <= a < A_OPP_VOID:
        return pk.seat, a - A_MY_VOID
    return 1 - pk.seat, a - A_OPP_VOID


def app_damage(st: State, ctx: Context, pk: Pick, a: int) -> None:
    from yokai_envs.yokaizo.effects import effect_at, hit  # effects imports this module

    p, s = _slot(pk, a)
    pk.left -= 1
    hit(st, ctx, effect_at(st, ctx, pk), p, s, pk.params["amount"], pk.params["break"])


def app_shatter(st: State, ctx: Context, pk: Pick, a: int) -> None:
    from yokai_envs.yokaizo.effects import effect_at, hit  # effects imports this module

    p, s = _slot(pk, a)
    pk.left -= 1
    pk.chosen = (*pk.chosen, st.field[p][s])
    hit(st, ctx, effect_at(st, ctx, pk), p, s, 1, True)


def app_destroy_void(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, i = _void(pk, a)
    pk.left -= 1
    to_limbo(st, ctx, st.void[p].pop(i))


def app_destroy_shield(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    to_limbo(st, ctx, st.shields[p][s].pop())


def app_exile(st: State, ctx: Context, pk: Pick, a: int) -> None:
    pk.left -= 1
    st.exile.append(take_from(st, st.limbo[1 - pk.seat], a - A_CARD))


def app_attach(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    c = take_top(st, ctx, p, public=True)
    st.relics[p][s].append(c)
    ctx.see(None, Event.ATTACHED, p, s, st.ctype[c])


def app_shield(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    for _ in range(pk.params["count"]):
        c = take_top(st, ctx, p)
        if c == NO:
            break
        st.shields[p][s].append(c)
        st.shown[c] = 1 if st.top_was_known else 0  # a known top card stays public face-down (R33)
        if st.top_was_known:
            ctx.see(None, Event.SHIELDED, p, s, st.ctype[c])
        else:
            see_card(st, ctx, Event.SHIELDED, p, s, c)


def app_burn_deck(st: State, ctx: Context, pk: Pick, a: int) -> None:
    pk.left -= 1
    c = take_top(st, ctx, pk.seat)
    burn_card(st, ctx, c, seen=st.top_was_known, by=pk.seat)


def app_burn_void(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, i = _void(pk, a)
    pk.left -= 1
    c = st.void[p].pop(i)
    burn_card(st, ctx, c, seen=not st.facedown[c] or bool(st.shown[c]), by=pk.seat)


def app_unburn(st: State, ctx: Context, pk: Pick, a: int) -> None:
    pk.left -= 1
    c = _take_own_burned(st, ctx, pk.seat, a - A_CARD)
    if pk.params["to"] == "void":
        lose(st.pub_burned[pk.seat], st.ctype[c])
        to_void(st, ctx, pk.seat, c)
    else:  # face-down to hand: the other seat does not see which
        forget_one(st.pub_burned[pk.seat])
        st.hand[pk.seat].append(c)


def app_blight(st: State, ctx: Context, pk: Pick, a: int) -> None:
    if pk.stage == 0:
        p, s = _slot(pk, a)
        pk.stage, pk.target, pk.yid = 1, s, st.field[p][s]
        return
    pk.left -= 1
    st.blighted[st.souls[1 - pk.seat][pk.target][a - A_SOUL]] = 1


def app_uproot(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p = pk.seat
    if pk.stage == 0:
        _, s = _slot(pk, a)
        pk.stage, pk.target, pk.yid = 1, s, st.field[p][s]
        return
    pk.left -= 1
    c = st.souls[p][pk.target].pop(a - A_SOUL)
    to = pk.params["to"]
    if to == "hand" and st.shown[c]:  # everyone knows which card it is
        st.shown[c] = 0
        to_hand(st, ctx, p, c)
    elif to == "hand":
        st.hand[p].append(c)
    elif to == "void":
        to_void(st, ctx, p, c)
    else:
        to_limbo(st, ctx, c)


def app_echo(st: State, ctx: Context, pk: Pick, a: int) -> None:
    from yokai_envs.yokaizo.effects import Effect  # effects imports this module

    p = pk.seat
    pk.left -= 1
    if a < A_MY_VOID:
        y = st.field[p][a - A_MY_FIELD]
        ops, zone = st.cards[st.ctype[y]].field["on_entry"], EffectZone.FIELD
    else:
        y = st.void[p][a - A_MY_VOID]
        ops, zone = st.cards[st.ctype[y]].void["on_entry"], EffectZone.NONE  # Frozen Void cards can be Echoed
    st.stack.append(Effect(ops, p, y, zone, st.banish_count))


def app_freeze(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, i = _void(pk, a)
    pk.left -= 1
    st.frozen[st.void[p][i]] = 1


def app_haunt(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p = pk.seat
    pk.left -= 1
    c = take_from(st, st.limbo[p], a - A_CARD)
    if pk.params["to"] == "void":
        to_void(st, ctx, p, c)
    else:
        to_hand(st, ctx, p, c)


def app_shine(st: State, ctx: Context, pk: Pick, a: int) -> None:
    pk.left -= 1
    p = pk.seat
    c = take_from(st, st.deck[p], a - A_CARD)
    forget_one(st.pub_deck[p])  # the other seat does not see which card left (even the known top)
    st.hand[p].append(c)
    st.known_top[p] = NO


def app_slow(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    st.slowed[st.field[p][s]] = 1


def app_swap(st: State, ctx: Context, pk: Pick, a: int) -> None:
    p = pk.seat
    if pk.stage == 0:
        pk.stage, pk.target = 1, a - A_MY_VOID
        return
    pk.left -= 1
    pk.stage = 0
    i = pk.target
    out = st.void[p][i]
    incoming = take_from_hand(st, p, a - A_CARD, to_field=False)
    hand_out(st, p, incoming, public=True)
    token = st.facedown[out] and not st.shown[out]
    st.frozen[out] = st.facedown[out] = st.shown[out] = 0
    if token:  # a Token goes back to hand unseen by the other seat
        st.hand[p].append(out)
    else:
        to_hand(st, ctx, p, out)
    st.void[p][i] = incoming  # enters face-up; Swapped-in cards do not trigger entry effects (ruling)
    st.frozen[incoming] = st.facedown[incoming] = 0
    ctx.see(None, Event.TO_VOID, p, st.ctype[incoming])


Apply = Callable[[State, Context, "Pick", int], None]
APPLY: dict[PickVerb, Apply] = {
    PickVerb.DAMAGE: app_damage, PickVerb.SHATTER: app_shatter, PickVerb.DESTROY_VOID: app_destroy_void,
    PickVerb.DESTROY_SHIELD: app_destroy_shield, PickVerb.EXILE: app_exile, PickVerb.ATTACH: app_attach,
    PickVerb.SHIELD: app_shield, PickVerb.BURN_DECK: app_burn_deck, PickVerb.BURN_ENEMY_VOID: app_burn_void,
    PickVerb.UNBURN: app_unburn, PickVerb.BLIGHT: app_blight, PickVerb.ECHO: app_echo, PickVerb.FREEZE: app_freeze,
    PickVerb.HAUNT: app_haunt, PickVerb.SHINE: app_shine, PickVerb.SLOW: app_slow, PickVerb.UPROOT: app_uproot,
    PickVerb.SWAP: app_swap,
}
