"""Effect choices, verb by verb: what a :class:`~yokai_envs.yokaizo.effects.Pick` may choose
(``OPTIONS``: append the legal actions to a list, in any order; is there any option?) and what a
choice does (``APPLY``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
from yokai_envs.yokaizo.state import CARDS_PER_SEAT, NO, VOID_SLOTS, EffectZone, Event, PickVerb, Table

if TYPE_CHECKING:
    from yokai_envs.yokaizo.effects import Pick


# ------------------------------------------------------------------ pick options (list them, any?)
def _field_slots(g: Table, pk: Pick, m: list[int], side: int, test: Callable[[int, int, int], bool]) -> bool:
    """Mark Field slots of seat ``side`` whose Yokai passes ``test(p, s, y)``."""
    base = A_MY_FIELD if side == pk.seat else A_OPP_FIELD
    found = False
    for s in (0, 1):
        y = g.field[side][s]
        if y != NO and test(side, s, y):
            m.append(base + s)
            found = True
    return found


def _yes(m: list[int]) -> bool:
    m.append(A_YES)
    return True


def opt_damage(g: Table, pk: Pick, m: list[int]) -> bool:
    return _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: True)


def opt_shatter(g: Table, pk: Pick, m: list[int]) -> bool:
    a = _field_slots(g, pk, m, pk.seat, lambda p, s, y: y not in pk.chosen)
    b = _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: y not in pk.chosen)
    return a or b


def opt_destroy_void(g: Table, pk: Pick, m: list[int]) -> bool:
    n = len(g.void[1 - pk.seat])
    m.extend(range(A_OPP_VOID, A_OPP_VOID + n))
    return n > 0


def opt_destroy_shield(g: Table, pk: Pick, m: list[int]) -> bool:
    return _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: bool(g.shields[p][s]))


def _types_in(g: Table, zone: list[int], m: list[int], exclude: int = NO) -> bool:
    found = False
    for c in zone:
        t = g.ctype[c]
        if t != exclude:
            m.append(A_CARD + t)
            found = True
    return found


def opt_exile(g: Table, pk: Pick, m: list[int]) -> bool:
    return _types_in(g, g.limbo[1 - pk.seat], m)


def opt_own_field(g: Table, pk: Pick, m: list[int]) -> bool:
    return _field_slots(g, pk, m, pk.seat, lambda p, s, y: True)


def opt_attach(g: Table, pk: Pick, m: list[int]) -> bool:
    return g.can_take_top(pk.seat) and opt_own_field(g, pk, m)


def opt_burn_deck(g: Table, pk: Pick, m: list[int]) -> bool:
    return g.can_take_top(pk.seat) and _yes(m)


def opt_burn_void(g: Table, pk: Pick, m: list[int]) -> bool:
    return opt_destroy_void(g, pk, m)


def opt_unburn(g: Table, pk: Pick, m: list[int]) -> bool:
    if pk.params["to"] == "void" and len(g.void[pk.seat]) >= VOID_SLOTS:
        return False
    p = pk.seat
    # only your own cards: an enemy card Burned into your Grave never joins your hand or Void (R14)
    return _types_in(g, [c for c in g.burned[p] if c // CARDS_PER_SEAT == p], m)


def _take_own_burned(g: Table, p: int, ctype: int) -> int:
    burned = g.burned[p]
    for i in range(len(burned) - 1, -1, -1):
        c = burned[i]
        if g.ctype[c] == ctype and c // CARDS_PER_SEAT == p:
            return burned.pop(i)
    raise AssertionError(f"no own Burned card of type {ctype}")


def _soul_slots(g: Table, m: list[int], p: int, s: int, test: Callable[[int], bool]) -> bool:
    found = False
    for i, c in enumerate(g.souls[p][s]):
        if test(c):
            m.append(A_SOUL + i)
            found = True
    return found


def opt_blight(g: Table, pk: Pick, m: list[int]) -> bool:
    enemy = 1 - pk.seat
    if pk.stage == 0:
        return _field_slots(g, pk, m, enemy, lambda p, s, y: any(not g.blighted[c] for c in g.souls[p][s]))
    if g.field[enemy][pk.target] != pk.yid:
        return False
    return _soul_slots(g, m, enemy, pk.target, lambda c: not g.blighted[c])


def _uprootable(g: Table, c: int) -> bool:
    return not g.up[c] and not g.blighted[c]


def opt_uproot(g: Table, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    if pk.params["to"] == "void" and len(g.void[p]) >= VOID_SLOTS:
        return False
    if pk.stage == 0:
        return _field_slots(g, pk, m, p, lambda q, s, y: any(_uprootable(g, c) for c in g.souls[q][s]))
    if g.field[p][pk.target] != pk.yid:
        return False
    return _soul_slots(g, m, p, pk.target, lambda c: _uprootable(g, c))


def _echoable(ops: tuple[Op, ...] | None) -> bool:
    # Ruling: an entry effect that itself Echoes cannot be Echoed (no infinite loops).
    if not ops:
        return False
    return all(op.verb != "echo" for op in ops)


def opt_echo(g: Table, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    cards = g.cards
    found = _field_slots(g, pk, m, p, lambda q, s, y: _echoable(cards[g.ctype[y]].field.get("on_entry")))
    for i, c in enumerate(g.void[p]):
        if not g.facedown[c] and _echoable(cards[g.ctype[c]].void.get("on_entry")):
            m.append(A_MY_VOID + i)
            found = True
    return found


def opt_freeze(g: Table, pk: Pick, m: list[int]) -> bool:
    found = False
    for side, base in ((pk.seat, A_MY_VOID), (1 - pk.seat, A_OPP_VOID)):
        for i, c in enumerate(g.void[side]):
            if not g.frozen[c]:
                m.append(base + i)
                found = True
    return found


def opt_haunt(g: Table, pk: Pick, m: list[int]) -> bool:
    if pk.params["to"] == "void" and len(g.void[pk.seat]) >= VOID_SLOTS:
        return False
    return _types_in(g, g.limbo[pk.seat], m, exclude=g.ctype[pk.src])


def _matches(card: Card, active_cards: list[Card], match: str) -> bool:
    if match == "name":
        return any(card.index == a.index for a in active_cards)
    if match == "element":
        return any(card.element == a.element for a in active_cards)
    return any(card.faction == a.faction for a in active_cards)


def opt_shine(g: Table, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    cards = g.cards
    actives = [cards[g.ctype[c]] for c in g.active_cards(p)]
    own_type = g.ctype[pk.src]
    found = False
    for t in {g.ctype[c] for c in g.deck[p]}:
        if t != own_type and _matches(cards[t], actives, pk.params["match"]):
            m.append(A_CARD + t)
            found = True
    return found


def opt_slow(g: Table, pk: Pick, m: list[int]) -> bool:
    a = _field_slots(g, pk, m, pk.seat, lambda p, s, y: not g.slowed[y])
    b = _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: not g.slowed[y])
    return a or b


def opt_swap(g: Table, pk: Pick, m: list[int]) -> bool:
    p = pk.seat
    if pk.stage == 0:
        n = len(g.void[p])
        if not n or not g.hand[p]:
            return False
        m.extend(range(A_MY_VOID, A_MY_VOID + n))
        return True
    legal = hand_type_actions(g, p)
    m += legal
    return bool(legal)


Options = Callable[[Table, "Pick", list[int]], bool]
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


def app_damage(g: Table, pk: Pick, a: int) -> None:
    from yokai_envs.yokaizo.effects import _effect_at, hit  # effects imports this module

    p, s = _slot(pk, a)
    pk.left -= 1
    hit(g, _effect_at(g, pk), p, s, pk.params["amount"], pk.params["break"])


def app_shatter(g: Table, pk: Pick, a: int) -> None:
    from yokai_envs.yokaizo.effects import _effect_at, hit  # effects imports this module

    p, s = _slot(pk, a)
    pk.left -= 1
    pk.chosen = (*pk.chosen, g.field[p][s])
    hit(g, _effect_at(g, pk), p, s, 1, True)


def app_destroy_void(g: Table, pk: Pick, a: int) -> None:
    p, i = _void(pk, a)
    pk.left -= 1
    g.to_limbo(g.void[p].pop(i))


def app_destroy_shield(g: Table, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    g.to_limbo(g.shields[p][s].pop())


def app_exile(g: Table, pk: Pick, a: int) -> None:
    pk.left -= 1
    g.exile.append(g.take_from(g.limbo[1 - pk.seat], a - A_CARD))


def app_attach(g: Table, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    c = g.take_top(p, public=True)
    g.relics[p][s].append(c)
    g.see(None, Event.ATTACHED, p, s, g.ctype[c])


def app_shield(g: Table, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    for _ in range(pk.params["count"]):
        c = g.take_top(p)
        if c == NO:
            break
        g.shields[p][s].append(c)
        g.shown[c] = 1 if g.top_was_known else 0  # a known top card stays public face-down (R33)
        if g.top_was_known:
            g.see(None, Event.SHIELDED, p, s, g.ctype[c])
        else:
            g.see_card(Event.SHIELDED, p, s, c)


def app_burn_deck(g: Table, pk: Pick, a: int) -> None:
    pk.left -= 1
    c = g.take_top(pk.seat)
    g.burn_card(c, seen=g.top_was_known, by=pk.seat)


def app_burn_void(g: Table, pk: Pick, a: int) -> None:
    p, i = _void(pk, a)
    pk.left -= 1
    c = g.void[p].pop(i)
    g.burn_card(c, seen=not g.facedown[c] or bool(g.shown[c]), by=pk.seat)


def app_unburn(g: Table, pk: Pick, a: int) -> None:
    pk.left -= 1
    c = _take_own_burned(g, pk.seat, a - A_CARD)
    if pk.params["to"] == "void":
        lose(g.pub_burned[pk.seat], g.ctype[c])
        g.to_void(pk.seat, c)
    else:  # face-down to hand: the other seat does not see which
        forget_one(g.pub_burned[pk.seat])
        g.hand[pk.seat].append(c)


def app_blight(g: Table, pk: Pick, a: int) -> None:
    if pk.stage == 0:
        p, s = _slot(pk, a)
        pk.stage, pk.target, pk.yid = 1, s, g.field[p][s]
        return
    pk.left -= 1
    g.blighted[g.souls[1 - pk.seat][pk.target][a - A_SOUL]] = 1


def app_uproot(g: Table, pk: Pick, a: int) -> None:
    p = pk.seat
    if pk.stage == 0:
        _, s = _slot(pk, a)
        pk.stage, pk.target, pk.yid = 1, s, g.field[p][s]
        return
    pk.left -= 1
    c = g.souls[p][pk.target].pop(a - A_SOUL)
    to = pk.params["to"]
    if to == "hand" and g.shown[c]:  # everyone knows which card it is
        g.shown[c] = 0
        g.to_hand(p, c)
    elif to == "hand":
        g.hand[p].append(c)
    elif to == "void":
        g.to_void(p, c)
    else:
        g.to_limbo(c)


def app_echo(g: Table, pk: Pick, a: int) -> None:
    from yokai_envs.yokaizo.effects import Effect  # effects imports this module

    p = pk.seat
    pk.left -= 1
    if a < A_MY_VOID:
        y = g.field[p][a - A_MY_FIELD]
        ops, zone = g.cards[g.ctype[y]].field["on_entry"], EffectZone.FIELD
    else:
        y = g.void[p][a - A_MY_VOID]
        ops, zone = g.cards[g.ctype[y]].void["on_entry"], EffectZone.NONE  # Frozen Void cards can be Echoed
    g.stack.append(Effect(ops, p, y, zone, g.banish_count))


def app_freeze(g: Table, pk: Pick, a: int) -> None:
    p, i = _void(pk, a)
    pk.left -= 1
    g.frozen[g.void[p][i]] = 1


def app_haunt(g: Table, pk: Pick, a: int) -> None:
    p = pk.seat
    pk.left -= 1
    c = g.take_from(g.limbo[p], a - A_CARD)
    if pk.params["to"] == "void":
        g.to_void(p, c)
    else:
        g.to_hand(p, c)


def app_shine(g: Table, pk: Pick, a: int) -> None:
    pk.left -= 1
    p = pk.seat
    c = g.take_from(g.deck[p], a - A_CARD)
    forget_one(g.pub_deck[p])  # the other seat does not see which card left (even the known top)
    g.hand[p].append(c)
    g.known_top[p] = NO


def app_slow(g: Table, pk: Pick, a: int) -> None:
    p, s = _slot(pk, a)
    pk.left -= 1
    g.slowed[g.field[p][s]] = 1


def app_swap(g: Table, pk: Pick, a: int) -> None:
    p = pk.seat
    if pk.stage == 0:
        pk.stage, pk.target = 1, a - A_MY_VOID
        return
    pk.left -= 1
    pk.stage = 0
    i = pk.target
    out = g.void[p][i]
    incoming = g.take_from_hand(p, a - A_CARD, to_field=False)
    g.hand_out(p, incoming, public=True)
    token = g.facedown[out] and not g.shown[out]
    g.frozen[out] = g.facedown[out] = g.shown[out] = 0
    if token:  # a Token goes back to hand unseen by the other seat
        g.hand[p].append(out)
    else:
        g.to_hand(p, out)
    g.void[p][i] = incoming  # enters face-up; Swapped-in cards do not trigger entry effects (ruling)
    g.frozen[incoming] = g.facedown[incoming] = 0
    g.see(None, Event.TO_VOID, p, g.ctype[incoming])


Apply = Callable[[Table, "Pick", int], None]
APPLY: dict[PickVerb, Apply] = {
    PickVerb.DAMAGE: app_damage, PickVerb.SHATTER: app_shatter, PickVerb.DESTROY_VOID: app_destroy_void,
    PickVerb.DESTROY_SHIELD: app_destroy_shield, PickVerb.EXILE: app_exile, PickVerb.ATTACH: app_attach,
    PickVerb.SHIELD: app_shield, PickVerb.BURN_DECK: app_burn_deck, PickVerb.BURN_ENEMY_VOID: app_burn_void,
    PickVerb.UNBURN: app_unburn, PickVerb.BLIGHT: app_blight, PickVerb.ECHO: app_echo, PickVerb.FREEZE: app_freeze,
    PickVerb.HAUNT: app_haunt, PickVerb.SHINE: app_shine, PickVerb.SLOW: app_slow, PickVerb.UPROOT: app_uproot,
    PickVerb.SWAP: app_swap,
}
