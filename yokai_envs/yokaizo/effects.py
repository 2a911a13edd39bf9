"""The declarative effects vocabulary and its one interpreter.

A card's effect is a list of ``{verb: params}`` operations (validated by ``cards.parse_ops`` against
``VOCABULARY``). :class:`Effect` runs the list in order; verbs that need choices push a :class:`Pick`
whose options and application live in the per-verb tables below. "Up to X" picks may stop early
(action ``pass``); mandatory picks with a single option resolve without asking.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.table import (
    A_CARD,
    A_MY_FIELD,
    A_MY_VOID,
    A_OPP_FIELD,
    A_OPP_VOID,
    A_PASS,
    A_SOUL,
    A_YES,
    NO,
    VOID_SLOTS,
    Z_FIELD,
    Z_NONE,
    Table,
    Task,
)

COUNT, BOOL, OPS, ELEMENT, COND = "count", "bool", "ops", "element", "condition"
TO_HAND_VOID = ("hand", "void")


def _verb(params: dict, shorthand: str | None, *keywords: str) -> dict:
    return {"params": params, "shorthand": shorthand, "keywords": keywords}


#: verb -> parameter schema {name: (kind, default)}, shorthand parameter, keywords it uses.
VOCABULARY: dict[str, dict] = {
    "damage": _verb({"amount": (COUNT, None), "break": (BOOL, False),
                     "target": (("enemy", "active", "all_enemies"), "enemy")}, "amount", "DMG"),
    "shatter": _verb({"count": (COUNT, None)}, "count", "Shatter", "BREAK DMG"),
    "draw": _verb({"count": (COUNT, None)}, "count"),
    "destroy": _verb({"up_to": (COUNT, None), "what": (("void", "shield"), "void")}, "up_to", "Destroy"),
    "exile": _verb({"up_to": (COUNT, None)}, "up_to", "Exile"),
    "attach": _verb({"count": (COUNT, None)}, "count", "Attach", "Exile"),
    "shield": _verb({"count": (COUNT, None)}, "count", "Shield", "Attach"),
    "token": _verb({"count": (COUNT, None)}, "count", "Token"),
    "burn": _verb({"up_to": (COUNT, None), "target": (("deck", "enemy_void"), "deck")}, "up_to", "Burn"),
    "unburn": _verb({"to": (TO_HAND_VOID, "void")}, "to", "Burn"),
    "blight": _verb({"up_to": (COUNT, None)}, "up_to", "Blight"),
    "echo": _verb({"count": (COUNT, None)}, "count", "Echo"),
    "freeze": _verb({"up_to": (COUNT, None)}, "up_to", "Freeze"),
    "haunt": _verb({"to": (TO_HAND_VOID, "hand")}, "to", "Haunt"),
    "shine": _verb({"count": (COUNT, 1), "match": (("name", "element", "faction"), "element")}, "count",
                   "Shine", "Active"),
    "slow": _verb({"up_to": (COUNT, None)}, "up_to", "Slow"),
    "spin": _verb({"deck": (("own", "enemy"), "own"), "if": (COND, None), "then": (OPS, None)}, None, "Spin"),
    "uproot": _verb({"up_to": (COUNT, None), "to": (("hand", "void", "limbo"), "hand")}, "up_to", "Uproot"),
    "swap": _verb({"count": (COUNT, None)}, "count", "Swap"),
    "if_banished": _verb({"then": (OPS, None)}, "then", "Banish"),
    "if_active": _verb({"element": (ELEMENT, None), "then": (OPS, None)}, None, "Active"),
}


class Effect(Task):
    """Resolve ``ops`` for controller ``ctl``; ``src`` is the card whose effect it is."""

    __slots__ = ("ctl", "i", "mark", "ops", "src", "zone")

    def __init__(self, ops: tuple, ctl: int, src: int, zone: int, mark: int) -> None:
        self.ops, self.ctl, self.src, self.zone, self.mark, self.i = ops, ctl, src, zone, mark, 0

    def run(self, g: Table) -> None:
        if self.i == 0 and self.zone != Z_NONE and not _in_zone(g, self):
            g.stack.pop()
            return None
        if self.i >= len(self.ops) or g.winner != NO:
            g.stack.pop()
            return None
        verb, params = self.ops[self.i]
        self.i += 1
        g.last_trigger = self.ctl
        START[verb](g, self, params)
        return None


def _in_zone(g: Table, eff: Effect) -> bool:
    if eff.zone == Z_FIELD:
        return eff.src in g.field[eff.ctl]
    return eff.src in g.void[eff.ctl] and not g.frozen[eff.src]


class Pick(Task):
    """A run of atomic choices for one verb: ``left`` more picks, ``stage`` for two-step verbs."""

    __slots__ = ("chosen", "left", "mark", "optional", "params", "seat", "src", "stage", "target", "verb")
    phase = "effect target"

    def __init__(self, verb: str, eff: Effect, params: dict, left: int, optional: bool) -> None:
        self.verb, self.seat, self.src, self.params = verb, eff.ctl, eff.src, params
        self.left, self.optional, self.stage, self.target, self.chosen = left, optional, 0, NO, ()
        self.mark = eff.mark

    def run(self, g: Table) -> np.ndarray | None:
        while True:
            if g.winner != NO or self.left <= 0:
                return self.finish(g)
            m = np.zeros(g.num_actions, dtype=bool)
            if not OPTIONS[self.verb](g, self, m):
                return self.finish(g)
            if self.optional and not (self.verb == "swap" and self.stage == 1):
                m[A_PASS] = True
            elif m.sum() == 1:
                before = len(g.stack)
                APPLY[self.verb](g, self, int(np.flatnonzero(m)[0]))
                if len(g.stack) != before or g.stack[-1] is not self:
                    return None
                continue
            g.decider = self.seat
            return m

    def choose(self, g: Table, a: int) -> None:
        if a == A_PASS:
            self.finish(g)
        else:
            APPLY[self.verb](g, self, a)

    def finish(self, g: Table) -> None:
        if g.stack and g.stack[-1] is self:
            g.stack.pop()
        if self.verb == "shine":
            g.shuffle_deck(self.seat)
        return None


# ------------------------------------------------------------------ verbs without choices
def _push(g: Table, task: Task) -> None:
    g.stack.append(task)


def start_damage(g: Table, eff: Effect, prm: dict) -> None:
    enemy = 1 - eff.ctl
    if prm["target"] == "active":
        act = g.active
        if act is not None and act[0] == enemy and g.field[enemy][act[1]] == act[2]:
            _push(g, Damage(enemy, act[1], act[2], prm["amount"], prm["break"]))
    elif prm["target"] == "all_enemies":
        for s in (1, 0):
            if g.field[enemy][s] != NO:
                _push(g, Damage(enemy, s, g.field[enemy][s], prm["amount"], prm["break"]))
    else:
        _push(g, Pick("damage", eff, prm, 1, False))


def start_draw(g: Table, eff: Effect, prm: dict) -> None:
    g.draw(eff.ctl, prm["count"])


def start_token(g: Table, eff: Effect, prm: dict) -> None:
    p = eff.ctl
    for _ in range(prm["count"]):
        if len(g.void[p]) >= VOID_SLOTS:
            return
        c = g.take_top(p)
        if c == NO:
            return
        g.to_void(p, c, face_down=True)


def start_spin(g: Table, eff: Effect, prm: dict) -> None:
    d = eff.ctl if prm["deck"] == "own" else 1 - eff.ctl
    if not g.refill_deck(d):
        return
    g.shuffle_deck(d)
    top = g.deck[d][-1]
    g.known_top[d] = top
    card = g.cards[g.ctype[top]]
    key, value = prm["if"]
    hit = {"element": lambda: card.element == value, "faction": lambda: card.faction == value,
           "speed_min": lambda: card.speed >= value, "souls_min": lambda: card.souls >= value}[key]()
    if hit:
        _push(g, Effect(prm["then"], eff.ctl, eff.src, Z_NONE, eff.mark))


def start_if_banished(g: Table, eff: Effect, prm: dict) -> None:
    if g.banish_count > eff.mark:
        _push(g, Effect(prm["then"], eff.ctl, eff.src, Z_NONE, eff.mark))


def start_if_active(g: Table, eff: Effect, prm: dict) -> None:
    elem = g.c_elem
    if any(elem[c] == prm["element"] for c in g.active_cards(eff.ctl)):
        _push(g, Effect(prm["then"], eff.ctl, eff.src, Z_NONE, eff.mark))


def _picker(verb: str, count_key: str | None, optional: bool, count: int = 1) -> Callable:
    def start(g: Table, eff: Effect, prm: dict) -> None:
        _push(g, Pick(verb, eff, prm, prm[count_key] if count_key else count, optional))
    return start


START: dict[str, Callable] = {
    "damage": start_damage,
    "shatter": _picker("shatter", "count", False),
    "draw": start_draw,
    "destroy": lambda g, e, prm: _push(g, Pick("destroy_" + prm["what"], e, prm, prm["up_to"], True)),
    "exile": _picker("exile", "up_to", True),
    "attach": _picker("attach", "count", False),
    "shield": _picker("shield", None, False),
    "token": start_token,
    "burn": lambda g, e, prm: _push(g, Pick("burn_" + prm["target"], e, prm, prm["up_to"], True)),
    "unburn": _picker("unburn", None, True),
    "blight": _picker("blight", "up_to", True),
    "echo": _picker("echo", "count", True),
    "freeze": _picker("freeze", "up_to", True),
    "haunt": _picker("haunt", None, True),
    "shine": _picker("shine", "count", True),
    "slow": _picker("slow", "up_to", True),
    "spin": start_spin,
    "uproot": _picker("uproot", "up_to", True),
    "swap": _picker("swap", "count", True),
    "if_banished": start_if_banished,
    "if_active": start_if_active,
}


# ------------------------------------------------------------------ pick options (fill mask, any?)
def _field_slots(g: Table, pk: Pick, m: np.ndarray, side: int, test: Callable[[int, int, int], bool]) -> bool:
    """Mark Field slots of seat ``side`` whose Yokai passes ``test(p, s, y)``."""
    base = A_MY_FIELD if side == pk.seat else A_OPP_FIELD
    found = False
    for s in (0, 1):
        y = g.field[side][s]
        if y != NO and test(side, s, y):
            m[base + s] = found = True
    return found


def _yes(m: np.ndarray) -> bool:
    m[A_YES] = True
    return True


def opt_damage(g, pk, m):
    return _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: True)


def opt_shatter(g, pk, m):
    a = _field_slots(g, pk, m, pk.seat, lambda p, s, y: y not in pk.chosen)
    b = _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: y not in pk.chosen)
    return a or b


def opt_destroy_void(g, pk, m):
    n = len(g.void[1 - pk.seat])
    m[A_OPP_VOID:A_OPP_VOID + n] = True
    return n > 0


def opt_destroy_shield(g, pk, m):
    return _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: bool(g.shields[p][s]))


def _types_in(g: Table, zone: list[int], m: np.ndarray, exclude: int = NO) -> bool:
    found = False
    for c in zone:
        t = g.ctype[c]
        if t != exclude:
            m[A_CARD + t] = found = True
    return found


def opt_exile(g, pk, m):
    return _types_in(g, g.limbo[1 - pk.seat], m)


def opt_own_field(g, pk, m):
    return _field_slots(g, pk, m, pk.seat, lambda p, s, y: True)


def opt_attach(g, pk, m):
    return g.can_take_top(pk.seat) and opt_own_field(g, pk, m)


def opt_burn_deck(g, pk, m):
    return g.can_take_top(pk.seat) and _yes(m)


def opt_burn_void(g, pk, m):
    return opt_destroy_void(g, pk, m)


def opt_unburn(g, pk, m):
    if pk.params["to"] == "void" and len(g.void[pk.seat]) >= VOID_SLOTS:
        return False
    return _types_in(g, g.burned[pk.seat], m)


def _soul_slots(g: Table, m: np.ndarray, p: int, s: int, test: Callable[[int], bool]) -> bool:
    found = False
    for i, c in enumerate(g.souls[p][s]):
        if test(c):
            m[A_SOUL + i] = found = True
    return found


def opt_blight(g, pk, m):
    enemy = 1 - pk.seat
    if pk.stage == 0:
        return _field_slots(g, pk, m, enemy, lambda p, s, y: any(not g.blighted[c] for c in g.souls[p][s]))
    if g.field[enemy][pk.target] != pk.chosen:
        return False
    return _soul_slots(g, m, enemy, pk.target, lambda c: not g.blighted[c])


def _uprootable(g: Table, c: int) -> bool:
    return not g.up[c] and not g.blighted[c]


def opt_uproot(g, pk, m):
    p = pk.seat
    if pk.params["to"] == "void" and len(g.void[p]) >= VOID_SLOTS:
        return False
    if pk.stage == 0:
        return _field_slots(g, pk, m, p, lambda q, s, y: any(_uprootable(g, c) for c in g.souls[q][s]))
    if g.field[p][pk.target] != pk.chosen:
        return False
    return _soul_slots(g, m, p, pk.target, lambda c: _uprootable(g, c))


def _echoable(ops: tuple | None) -> bool:
    # Ruling: an entry effect that itself Echoes cannot be Echoed (no infinite loops).
    return bool(ops) and all(verb != "echo" for verb, _ in ops)


def opt_echo(g, pk, m):
    p = pk.seat
    cards = g.cards
    found = _field_slots(g, pk, m, p, lambda q, s, y: _echoable(cards[g.ctype[y]].field.get("on_entry")))
    for i, c in enumerate(g.void[p]):
        if not g.facedown[c] and _echoable(cards[g.ctype[c]].void.get("on_entry")):
            m[A_MY_VOID + i] = found = True
    return found


def opt_freeze(g, pk, m):
    found = False
    for side, base in ((pk.seat, A_MY_VOID), (1 - pk.seat, A_OPP_VOID)):
        for i, c in enumerate(g.void[side]):
            if not g.frozen[c]:
                m[base + i] = found = True
    return found


def opt_haunt(g, pk, m):
    if pk.params["to"] == "void" and len(g.void[pk.seat]) >= VOID_SLOTS:
        return False
    return _types_in(g, g.limbo[pk.seat], m, exclude=g.ctype[pk.src])


def _matches(card, active_cards, match: str) -> bool:
    if match == "name":
        return any(card.index == a.index for a in active_cards)
    if match == "element":
        return any(card.element == a.element for a in active_cards)
    return any(card.faction == a.faction for a in active_cards)


def opt_shine(g, pk, m):
    p = pk.seat
    cards = g.cards
    actives = [cards[g.ctype[c]] for c in g.active_cards(p)]
    own_type = g.ctype[pk.src]
    found = False
    for t in {g.ctype[c] for c in g.deck[p]}:
        if t != own_type and _matches(cards[t], actives, pk.params["match"]):
            m[A_CARD + t] = found = True
    return found


def opt_slow(g, pk, m):
    a = _field_slots(g, pk, m, pk.seat, lambda p, s, y: not g.slowed[y])
    b = _field_slots(g, pk, m, 1 - pk.seat, lambda p, s, y: not g.slowed[y])
    return a or b


def opt_swap(g, pk, m):
    p = pk.seat
    if pk.stage == 0:
        n = len(g.void[p])
        if not n or not g.hand[p]:
            return False
        m[A_MY_VOID:A_MY_VOID + n] = True
        return True
    return g.hand_type_mask(p, m)


OPTIONS: dict[str, Callable] = {
    "damage": opt_damage, "shatter": opt_shatter, "destroy_void": opt_destroy_void,
    "destroy_shield": opt_destroy_shield, "exile": opt_exile, "attach": opt_attach, "shield": opt_own_field,
    "burn_deck": opt_burn_deck, "burn_enemy_void": opt_burn_void, "unburn": opt_unburn, "blight": opt_blight,
    "echo": opt_echo, "freeze": opt_freeze, "haunt": opt_haunt, "shine": opt_shine, "slow": opt_slow,
    "uproot": opt_uproot, "swap": opt_swap,
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


def app_damage(g, pk, a):
    p, s = _slot(pk, a)
    pk.left -= 1
    g.stack.append(Damage(p, s, g.field[p][s], pk.params["amount"], pk.params["break"]))


def app_shatter(g, pk, a):
    p, s = _slot(pk, a)
    y = g.field[p][s]
    pk.left -= 1
    pk.chosen = (*pk.chosen, y)
    g.stack.append(Damage(p, s, y, 1, True))


def app_destroy_void(g, pk, a):
    p, i = _void(pk, a)
    pk.left -= 1
    g.to_limbo(g.void[p].pop(i))


def app_destroy_shield(g, pk, a):
    p, s = _slot(pk, a)
    pk.left -= 1
    g.to_limbo(g.shields[p][s].pop())


def app_exile(g, pk, a):
    pk.left -= 1
    g.exile.append(g.take_from(g.limbo[1 - pk.seat], a - A_CARD))


def app_attach(g, pk, a):
    p, s = _slot(pk, a)
    pk.left -= 1
    c = g.take_top(p)
    g.relics[p][s].append(c)


def app_shield(g, pk, a):
    p, s = _slot(pk, a)
    pk.left -= 1
    for _ in range(pk.params["count"]):
        c = g.take_top(p)
        if c == NO:
            break
        g.shields[p][s].append(c)


def app_burn_deck(g, pk, a):
    pk.left -= 1
    g.burn_card(g.take_top(pk.seat))


def app_burn_void(g, pk, a):
    p, i = _void(pk, a)
    pk.left -= 1
    g.burn_card(g.void[p].pop(i))


def app_unburn(g, pk, a):
    pk.left -= 1
    c = g.take_from(g.burned[pk.seat], a - A_CARD)
    if pk.params["to"] == "void":
        g.to_void(pk.seat, c)
    else:
        g.hand[pk.seat].append(c)


def app_blight(g, pk, a):
    if pk.stage == 0:
        p, s = _slot(pk, a)
        pk.stage, pk.target, pk.chosen = 1, s, g.field[p][s]
        return
    pk.left -= 1
    g.blighted[g.souls[1 - pk.seat][pk.target][a - A_SOUL]] = 1


def app_uproot(g, pk, a):
    p = pk.seat
    if pk.stage == 0:
        _, s = _slot(pk, a)
        pk.stage, pk.target, pk.chosen = 1, s, g.field[p][s]
        return
    pk.left -= 1
    c = g.souls[p][pk.target].pop(a - A_SOUL)
    to = pk.params["to"]
    if to == "hand":
        g.hand[p].append(c)
    elif to == "void":
        g.to_void(p, c)
    else:
        g.to_limbo(c)


def app_echo(g, pk, a):
    p = pk.seat
    pk.left -= 1
    if a < A_MY_VOID:
        y = g.field[p][a - A_MY_FIELD]
        ops, zone = g.cards[g.ctype[y]].field["on_entry"], Z_FIELD
    else:
        y = g.void[p][a - A_MY_VOID]
        ops, zone = g.cards[g.ctype[y]].void["on_entry"], Z_NONE  # Frozen Void cards can be Echoed
    g.stack.append(Effect(ops, p, y, zone, g.banish_count))


def app_freeze(g, pk, a):
    p, i = _void(pk, a)
    pk.left -= 1
    g.frozen[g.void[p][i]] = 1


def app_haunt(g, pk, a):
    p = pk.seat
    pk.left -= 1
    c = g.take_from(g.limbo[p], a - A_CARD)
    if pk.params["to"] == "void":
        g.to_void(p, c)
    else:
        g.hand[p].append(c)


def app_shine(g, pk, a):
    pk.left -= 1
    g.hand[pk.seat].append(g.take_from(g.deck[pk.seat], a - A_CARD))
    g.known_top[pk.seat] = NO


def app_slow(g, pk, a):
    p, s = _slot(pk, a)
    pk.left -= 1
    g.slowed[g.field[p][s]] = 1


def app_swap(g, pk, a):
    p = pk.seat
    if pk.stage == 0:
        pk.stage, pk.target = 1, a - A_MY_VOID
        return
    pk.left -= 1
    pk.stage = 0
    i = pk.target
    out = g.void[p][i]
    incoming = g.take_from(g.hand[p], a - A_CARD)
    g.frozen[out] = g.facedown[out] = 0
    g.hand[p].append(out)
    g.void[p][i] = incoming  # enters face-up; Swapped-in cards do not trigger entry effects (ruling)
    g.frozen[incoming] = g.facedown[incoming] = 0


APPLY: dict[str, Callable] = {
    "damage": app_damage, "shatter": app_shatter, "destroy_void": app_destroy_void,
    "destroy_shield": app_destroy_shield, "exile": app_exile, "attach": app_attach, "shield": app_shield,
    "burn_deck": app_burn_deck, "burn_enemy_void": app_burn_void, "unburn": app_unburn, "blight": app_blight,
    "echo": app_echo, "freeze": app_freeze, "haunt": app_haunt, "shine": app_shine, "slow": app_slow,
    "uproot": app_uproot, "swap": app_swap,
}
