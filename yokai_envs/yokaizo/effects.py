"""The one interpreter of the declarative effects vocabulary.

A card's effect is a list of ``{verb: params}`` operations (validated by ``cards.parse_ops`` against
``cards.VOCABULARY``). :class:`Effect` runs the list in order; verbs without choices act at once
(``START``), verbs that need choices push a :class:`Pick`, a run of atomic choices whose options
and application per verb live in :mod:`yokai_envs.yokaizo.picks`. "Up to X" and "may" picks
(``cards.optional``) may stop early (action ``pass``); the others go on while a legal target
exists, and with a single option resolve without asking, unless the options depend on the
picker's hidden cards (R31).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yokai_envs.core.context import Context
from yokai_envs.yokaizo.actions import A_PASS
from yokai_envs.yokaizo.cards import Op, optional
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.moves import draw, refill_deck, shuffle_deck, take_top, to_void
from yokai_envs.yokaizo.picks import APPLY, OPTIONS
from yokai_envs.yokaizo.state import (
    CARDS_PER_SEAT,
    EZ_FIELD,
    EZ_NONE,
    NO,
    VOID_SLOTS,
    Decision,
    EffectZone,
    Event,
    PickVerb,
    State,
    Task,
)

Params = dict[str, Any]
# bound once: asked at every Pick step (see state.EV_*)
PV_SHINE, PV_SWAP, PV_UNBURN = PickVerb.SHINE, PickVerb.SWAP, PickVerb.UNBURN


class Effect(Task):
    """Resolve ``ops`` for controller ``ctl``; ``src`` is the card whose effect it is. ``zone``: where
    ``src`` must still be when the effect starts; ``mark``: the Banish count when it was triggered;
    ``targets``: the Yokai this effect has dealt DMG to so far ("if it Banished", "the same Yokai")."""

    __slots__ = ("ctl", "i", "mark", "ops", "src", "targets", "zone")

    def __init__(self, ops: tuple[Op, ...], ctl: int, src: int, zone: EffectZone, mark: int,
                 targets: tuple[int, ...] = ()) -> None:
        self.ops, self.ctl, self.src, self.zone, self.mark, self.i = ops, ctl, src, zone, mark, 0
        self.targets = targets

    def run(self, st: State, ctx: Context) -> None:
        if self.i == 0 and self.zone != EZ_NONE and not _in_zone(st, ctx, self):
            st.stack.pop()
            return None
        if self.i >= len(self.ops) or st.winner != NO:
            st.stack.pop()
            return None
        verb, params = self.ops[self.i]
        self.i += 1
        st.last_trigger = self.ctl
        START[verb](st, ctx, self, params)
        return None


def _in_zone(st: State, ctx: Context, eff: Effect) -> bool:
    if eff.zone == EZ_FIELD:
        return eff.src in st.field[eff.ctl]
    return eff.src in st.void[eff.ctl] and not st.frozen[eff.src]


class Pick(Task):
    """A run of atomic choices for one verb of effect ``eff``: ``left`` more picks; two-step verbs
    (Blight, Uproot: a Field Yokai, then its Souls; Swap: a Void card, then a hand card) keep their
    first choice in ``stage`` 1: the slot or Void position ``target`` and the Yokai ``yid`` there."""

    __slots__ = ("at", "chosen", "left", "mark", "optional", "params", "seat", "src", "stage", "target", "verb",
                 "yid")
    phase = "effect target"
    decision = Decision.EFFECT

    def __init__(self, verb: PickVerb, eff: Effect, params: dict[str, Any], left: int, optional: bool,
                 at: int = NO) -> None:
        self.verb, self.seat, self.src, self.params = verb, eff.ctl, eff.src, params
        self.at = at  # stack index of the Effect that started it (NO: none)
        self.left, self.optional, self.stage, self.target, self.yid = left, optional, 0, NO, NO
        self.chosen: tuple[int, ...] = ()  # Yokai already Shattered by this pick
        self.mark = eff.mark

    def run(self, st: State, ctx: Context) -> list[int] | None:
        while True:
            if st.winner != NO or self.left <= 0:
                self.finish(st, ctx)
                return None
            options: list[int] = []
            # Forced choices are skipped only on public facts: Shine (over the picker's deck) is
            # asked even with nothing to take (only ``pass``); Shine, Swap's hand card and a
            # Burned card to take back (face-down) are asked even with one type to choose.
            verb = self.verb
            hidden_options = verb in (PV_SHINE, PV_UNBURN) or (verb == PV_SWAP and self.stage == 1)
            if not OPTIONS[verb](st, ctx, self, options) and verb != PV_SHINE:
                self.finish(st, ctx)
                return None
            legal = sorted(set(options))  # the options may come in any order, a card type twice
            if self.optional or not legal:
                legal.insert(0, A_PASS)  # no option is A_PASS itself
            elif len(legal) == 1 and not hidden_options:
                before = len(st.stack)
                APPLY[self.verb](st, ctx, self, legal[0])
                if len(st.stack) != before or st.stack[-1] is not self:
                    return None
                continue
            st.decider = self.seat
            return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        if a == A_PASS:
            self.finish(st, ctx)
        else:
            APPLY[self.verb](st, ctx, self, a)

    def finish(self, st: State, ctx: Context) -> None:
        if st.stack and st.stack[-1] is self:
            st.stack.pop()
        if self.verb == PV_SHINE:
            shuffle_deck(st, ctx, self.seat)
            if not st.deck[self.seat] and st.limbo[self.seat]:  # the search took its last card (R3)
                refill_deck(st, ctx, self.seat)
        return None


def entry_effect(st: State, ctx: Context, p: int, y: int) -> None:
    """Trigger the Field entry effect of Yokai ``y`` that just entered seat ``p``'s Field."""
    ops = st.cards[st.ctype[y]].field.get("on_entry")
    if ops:
        st.stack.append(Effect(ops, p, y, EZ_FIELD, st.banish_count))


# ------------------------------------------------------------------ verbs without choices
def _push(st: State, ctx: Context, task: Task) -> None:
    st.stack.append(task)


def effect_at(st: State, ctx: Context, pk: Pick) -> Effect | None:
    eff = st.stack[pk.at] if pk.at != NO else None
    return eff if isinstance(eff, Effect) else None


def hit(st: State, ctx: Context, eff: Effect | None, p: int, s: int, amount: int, brk: bool) -> None:
    """DMG from ``eff`` to the Yokai in seat ``p``'s slot ``s``, remembered as one of its targets."""
    y = st.field[p][s]
    if eff is not None:
        eff.targets = (*eff.targets, y)
    st.stack.append(Damage(p, s, y, amount, brk))


def start_damage(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    enemy = 1 - eff.ctl
    if prm["target"] == "active":
        act = st.active
        if act is not None and act.seat == enemy and st.field[enemy][act.slot] == act.yid:
            hit(st, ctx, eff, enemy, act.slot, prm["amount"], prm["break"])
    elif prm["target"] == "all_enemies":
        for s in (1, 0):
            if st.field[enemy][s] != NO:
                hit(st, ctx, eff, enemy, s, prm["amount"], prm["break"])
    elif prm["target"] == "same":
        # the Yokai this effect last dealt DMG to, if it is still in the Field
        where = st.slot_of(eff.targets[-1]) if eff.targets else None
        if where is not None:
            hit(st, ctx, eff, where[0], where[1], prm["amount"], prm["break"])
    else:
        _push(st, ctx, Pick(PickVerb.DAMAGE, eff, prm, 1, False, len(st.stack) - 1))


def start_draw(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    draw(st, ctx, eff.ctl, prm["count"])


def start_token(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    p = eff.ctl
    for _ in range(prm["count"]):
        if len(st.void[p]) >= VOID_SLOTS:
            return
        c = take_top(st, ctx, p)
        if c == NO:
            return
        to_void(st, ctx, p, c, face_down=True, seen=st.top_was_known)


def start_spin(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    d = eff.ctl if prm["deck"] == "own" else 1 - eff.ctl
    if not refill_deck(st, ctx, d):
        return
    shuffle_deck(st, ctx, d)
    top = st.deck[d][-1]
    st.known_top[d] = top
    st.pub_deck[d].setdefault(st.ctype[top], 1)
    ctx.see(None, Event.SPUN, d, st.ctype[top])
    card = st.cards[st.ctype[top]]
    key, value = prm["if"]
    hit = {"element": lambda: card.element == value, "faction": lambda: card.faction == value,
           "speed_min": lambda: card.speed >= value, "souls_min": lambda: card.souls >= value}[key]()
    if hit:
        _push(st, ctx, Effect(prm["then"], eff.ctl, eff.src, EffectZone.NONE, eff.mark, eff.targets))


def start_if_banished(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    """"If it Banished": a Yokai this effect dealt DMG to is now in the Grave (a Yokai in the Field
    when it was hit, so Banished since); another Banish (the attacker's own) does not count."""
    if any(y in st.grave[y // CARDS_PER_SEAT] for y in eff.targets):
        _push(st, ctx, Effect(prm["then"], eff.ctl, eff.src, EffectZone.NONE, eff.mark, eff.targets))


def start_if_active(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    elem = st.c_elem
    other = eff.src if prm["another"] else NO
    if any(elem[c] == prm["element"] and c != other for c in st.active_cards(eff.ctl)):
        _push(st, ctx, Effect(prm["then"], eff.ctl, eff.src, EffectZone.NONE, eff.mark, eff.targets))


# ------------------------------------------------------------------ verbs with choices
Start = Callable[[State, Context, Effect, Params], None]


def _picker(verb: PickVerb, count_key: str | None, count: int = 1) -> Start:
    def start(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
        _push(st, ctx, Pick(verb, eff, prm, prm[count_key] if count_key else count, optional(Op(verb, prm)),
                      len(st.stack) - 1))
    return start


def start_destroy(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    _push(st, ctx, Pick(PickVerb("destroy_" + prm["what"]), eff, prm, prm["count"], optional(Op("destroy", prm))))


def start_burn(st: State, ctx: Context, eff: Effect, prm: Params) -> None:
    _push(st, ctx, Pick(PickVerb("burn_" + prm["target"]), eff, prm, prm["up_to"], True))  # Burn: "up to" by the book


#: card-data verb -> what starting it does
START: dict[str, Start] = {
    "damage": start_damage,
    "shatter": _picker(PickVerb.SHATTER, "count"),  # X different Yokai, all of them if fewer (R1)
    "draw": start_draw,
    "destroy": start_destroy,
    "exile": _picker(PickVerb.EXILE, "count"),
    "attach": _picker(PickVerb.ATTACH, "count"),
    "shield": _picker(PickVerb.SHIELD, None),
    "token": start_token,
    "burn": start_burn,
    "unburn": _picker(PickVerb.UNBURN, None),
    "blight": _picker(PickVerb.BLIGHT, "up_to"),
    "echo": _picker(PickVerb.ECHO, "count"),
    "freeze": _picker(PickVerb.FREEZE, "up_to"),
    "haunt": _picker(PickVerb.HAUNT, None),
    "shine": _picker(PickVerb.SHINE, "count"),
    "slow": _picker(PickVerb.SLOW, "up_to"),
    "spin": start_spin,
    "uproot": _picker(PickVerb.UPROOT, "up_to"),
    "swap": _picker(PickVerb.SWAP, "count"),
    "if_banished": start_if_banished,
    "if_active": start_if_active,
}
