"""The match flow: setup, Rounds by Speed tier, the Turn (Draw, Void, Action) and its Actions."""

from __future__ import annotations

import numpy as np

from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.effects import Effect
from yokai_envs.yokaizo.table import (
    A_ALLY,
    A_BASIC,
    A_CARD,
    A_MY_FIELD,
    A_MY_VOID,
    A_OPP_FIELD,
    A_PASS,
    A_RETURN,
    A_SPECIAL,
    A_TOPDECK,
    A_YES,
    BIG_TIER,
    HAND_SIZE,
    NO,
    VOID_PLAYS,
    VOID_SLOTS,
    Z_FIELD,
    Z_NONE,
    Z_VOID,
    Table,
    Task,
)


def _mask(g: Table) -> np.ndarray:
    return np.zeros(g.num_actions, dtype=bool)


def _entry_effect(g: Table, p: int, y: int) -> None:
    ops = g.cards[g.ctype[y]].field.get("on_entry")
    if ops:
        g.stack.append(Effect(ops, p, y, Z_FIELD, g.banish_count))


# ------------------------------------------------------------------ setup
class SetupPick(Task):
    """Choose a Field Yokai face-down from the opening hand (two picks per seat)."""

    __slots__ = ("seat", "slot")
    phase = "setup: choose a Field Yokai"

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot = seat, slot

    def run(self, g: Table) -> np.ndarray:
        m = _mask(g)
        g.hand_type_mask(self.seat, m)
        g.decider = self.seat
        return m

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        g.enter_field(self.seat, self.slot, g.take_from(g.hand[self.seat], a - A_CARD))


class Reveal(Task):
    """All four Field Yokai flip up at once (ruling: no Field entry effects at setup)."""

    __slots__ = ()

    def run(self, g: Table) -> None:
        g.stack.pop()
        g.hidden_setup = False
        return None


def can_pay(void_elems: list[int], elems: tuple[int, ...], generic: int, ally: int) -> bool:
    """Can the Void cards (element or -1 face-down) pay these element costs plus ``generic``?

    The Ally covers one cost of its element; a matching card pays an element alone, any 2 cards pay
    an element, any card pays a generic. Using matches and the Ally greedily is optimal.
    """
    need = [0] * 5
    for e in elems:
        need[e] += 1
    if ally >= 0 and need[ally]:
        need[ally] -= 1
    have = [0] * 5
    for e in void_elems:
        if e >= 0:
            have[e] += 1
    matched = sum(min(n, h) for n, h in zip(need, have))
    unmatched = sum(need) - matched
    return 2 * unmatched + generic <= len(void_elems) - matched


def void_elements(g: Table, p: int) -> list[int]:
    fd, el = g.facedown, g.c_elem
    return [NO if fd[c] else el[c] for c in g.void[p]]


def ally_element(g: Table, p: int, s: int) -> int:
    ally = g.field[p][1 - s]
    return NO if ally == NO else g.c_elem[ally]


# ------------------------------------------------------------------ rounds
class NextTurn(Task):
    """The permanent bottom of the stack: replacements, Round start/end, and who takes the next Turn."""

    __slots__ = ()

    def run(self, g: Table) -> None:
        first = g.last_turn if g.last_turn != NO else 0
        for p in (first, 1 - first):
            for s in (0, 1):
                if g.field[p][s] == NO and (g.hand[p] or g.can_take_top(p)):
                    g.stack.append(Replace(p, s))
                    return None
        if g.round_stage == 0:
            if g.round > 0 and g.turns_this_round == 0:
                g.draw_game = True  # Ruling: a whole Round in which no Yokai can act ends the game.
                return None
            g.round += 1
            g.tier = BIG_TIER
            g.round_stage = 1
            g.turns_this_round = 0
            g.stack.append(RoundTriggers("round_start"))
            return None
        if g.round_stage == 1:
            cands = eligible(g, g.tier) if g.tier < BIG_TIER else []
            if not cands:
                lower = [g.field_speed(p, s) for p, s in waiting(g) if g.field_speed(p, s) < g.tier]
                lower = [t for t in lower if eligible(g, t)]
                if not lower:
                    g.round_stage = 2
                    g.stack.append(RoundTriggers("round_end"))
                    return None
                g.tier = max(lower)
                cands = eligible(g, g.tier)
            sides = {p for p, _ in cands}
            if len(sides) == 2:
                if g.last_turn == NO:
                    g.last_turn = 1 - first_turn_reveal(g)
                p = 1 - g.last_turn
            else:
                p = cands[0][0]
            own = [s for q, s in cands if q == p]
            g.stack.append(ChooseTurn(p, tuple(own)) if len(own) == 2 else Turn(p, own[0]))
            return None
        # round_stage 2: end-of-Round triggers have resolved; Frozen Void cards are Destroyed.
        for p in (0, 1):
            keep = []
            for c in g.void[p]:
                if g.frozen[c]:
                    g.to_limbo(c)
                else:
                    keep.append(c)
            g.void[p] = keep
        g.round_stage = 0
        return None


def waiting(g: Table) -> list[tuple[int, int]]:
    """Field slots whose Yokai has not taken a Turn this Round."""
    out = []
    for p in (0, 1):
        for s in (0, 1):
            y = g.field[p][s]
            if y != NO and g.turn_round[y] != g.round:
                out.append((p, s))
    return out


def eligible(g: Table, tier: int) -> list[tuple[int, int]]:
    """Yokai that take a Turn in this Speed tier: Speed == tier and present at the tier's check."""
    out = []
    for p, s in waiting(g):
        y = g.field[p][s]
        if g.field_speed(p, s) == tier and (g.enter_round[y] < g.round or g.enter_tier[y] > tier):
            out.append((p, s))
    return out


def first_turn_reveal(g: Table) -> int:
    """Cross-side tie for the first Turn: each seat shuffles and reveals until one Speed is higher."""
    winner = NO
    for _ in range(64):
        speeds = []
        for p in (0, 1):
            g.refill_deck(p)
            g.shuffle_deck(p)
            speeds.append(g.c_speed[g.deck[p][-1]] if g.deck[p] else 0)
        if speeds[0] != speeds[1]:
            winner = 0 if speeds[0] > speeds[1] else 1
            break
    if winner == NO:
        winner = int(g.rng.integers(2))
    for p in (0, 1):
        g.shuffle_deck(p)
    return winner


class RoundTriggers(Task):
    """Start/end of Round triggers in descending Speed; cross-side ties alternate, starting with the
    seat that did not trigger or act last; one seat's ties go Field slot order, then Void order."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def run(self, g: Table) -> None:
        g.stack.pop()
        found: dict[int, list[list[Effect]]] = {}
        for p in (0, 1):
            for s in (0, 1):
                y = g.field[p][s]
                ops = g.cards[g.ctype[y]].field.get(self.kind) if y != NO else None
                if ops:
                    found.setdefault(g.field_speed(p, s), [[], []])[p].append(Effect(ops, p, y, Z_FIELD, 0))
            if self.kind == "round_end":
                for c in g.void[p]:
                    ops = g.cards[g.ctype[c]].void.get("round_end")
                    if ops and not g.facedown[c] and not g.frozen[c]:
                        found.setdefault(g.c_speed[c], [[], []])[p].append(Effect(ops, p, c, Z_VOID, 0))
        order: list[Effect] = []
        last = g.last_trigger
        for speed in sorted(found, reverse=True):
            queues = found[speed]
            p = 1 - last if last != NO else 0
            while queues[0] or queues[1]:
                if not queues[p]:
                    p = 1 - p
                order.append(queues[p].pop(0))
                last, p = p, 1 - p
        for eff in reversed(order):
            eff.mark = g.banish_count
            g.stack.append(eff)
        return None


class ChooseTurn(Task):
    """Two of one seat's Yokai share the tier: their controller picks which goes first."""

    __slots__ = ("seat", "slots")
    phase = "choose which Yokai takes its Turn"

    def __init__(self, seat: int, slots: tuple[int, ...]) -> None:
        self.seat, self.slots = seat, slots

    def run(self, g: Table) -> np.ndarray:
        m = _mask(g)
        for s in self.slots:
            m[A_MY_FIELD + s] = True
        g.decider = self.seat
        return m

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        g.stack.append(Turn(self.seat, a - A_MY_FIELD))


class Replace(Task):
    """Between Turns, an empty Field slot is filled from hand or topdeck."""

    __slots__ = ("seat", "slot")
    phase = "replace a Banished Yokai"

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot = seat, slot

    def run(self, g: Table) -> np.ndarray:
        m = _mask(g)
        g.hand_type_mask(self.seat, m)
        if g.can_take_top(self.seat):
            m[A_TOPDECK] = True
        g.decider = self.seat
        return m

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        p = self.seat
        y = g.take_top(p) if a == A_TOPDECK else g.take_from(g.hand[p], a - A_CARD)
        g.enter_field(p, self.slot, y)
        _entry_effect(g, p, y)


# ------------------------------------------------------------------ the Turn
class Turn(Task):
    __slots__ = ("seat", "slot", "stage", "yid")

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot, self.yid, self.stage = seat, slot, NO, 0

    def run(self, g: Table) -> None:
        p, s = self.seat, self.slot
        if self.stage == 0:
            y = self.yid = g.field[p][s]
            g.turn_round[y] = g.round
            g.last_turn = g.last_trigger = p
            g.slowed[y] = 0  # Slow lasts until the start of the Yokai's next Turn
            g.active = (p, s, y)
            g.turns_this_round += 1
            for q in (p, 1 - p):  # Draw phase: both players draw to 6
                g.draw(q, HAND_SIZE - len(g.hand[q]))
            self.stage = 1
            g.stack.append(VoidPlay(p, s, y))
            return None
        if self.stage == 1 and g.field[p][s] == self.yid:
            self.stage = 2
            g.stack.append(ActionChoice(p, s, self.yid))
            return None
        g.active = None
        g.stack.pop()
        return None


class VoidPlay(Task):
    """Void phase: play up to 3 Yokai from hand into the 6-slot Void (on-entry effects resolve)."""

    __slots__ = ("left", "seat", "slot", "yid")
    phase = "void phase: play a card or pass"

    def __init__(self, seat: int, slot: int, yid: int) -> None:
        self.seat, self.slot, self.yid, self.left = seat, slot, yid, VOID_PLAYS

    def run(self, g: Table) -> np.ndarray | None:
        p = self.seat
        if self.left <= 0 or g.field[p][self.slot] != self.yid or len(g.void[p]) >= VOID_SLOTS or not g.hand[p]:
            g.stack.pop()
            return None
        m = _mask(g)
        m[A_PASS] = True
        g.hand_type_mask(p, m)
        g.decider = p
        return m

    def choose(self, g: Table, a: int) -> None:
        p = self.seat
        if a == A_PASS:
            g.stack.pop()
            return
        self.left -= 1
        c = g.take_from(g.hand[p], a - A_CARD)
        g.to_void(p, c)
        ops = g.cards[g.ctype[c]].void.get("on_entry")
        if ops:
            g.stack.append(Effect(ops, p, c, Z_NONE, g.banish_count))


class ActionChoice(Task):
    __slots__ = ("seat", "slot", "yid")
    phase = "action phase: special, basic, return or forgo"

    def __init__(self, seat: int, slot: int, yid: int) -> None:
        self.seat, self.slot, self.yid = seat, slot, yid

    def run(self, g: Table) -> np.ndarray | None:
        p, s = self.seat, self.slot
        if g.field[p][s] != self.yid:
            g.stack.pop()
            return None
        card = g.cards[g.ctype[self.yid]]
        m = _mask(g)
        m[A_PASS] = True
        if can_pay(void_elements(g, p), card.cost_elements, card.cost_generic, ally_element(g, p, s)):
            m[A_SPECIAL] = True
        if g.void[p]:
            m[A_BASIC] = True
        if g.hand[p]:
            m[A_RETURN] = True
        g.decider = p
        return m

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        p, s, y = self.seat, self.slot, self.yid
        card = g.cards[g.ctype[y]]
        if a == A_SPECIAL:
            g.stack.append(Effect(card.stages, p, y, Z_NONE, g.banish_count))
            g.stack.append(Pay(p, s, card.cost_elements, card.cost_generic, ally_element(g, p, s)))
        elif a == A_BASIC:
            g.stack.append(Basic(p))
        elif a == A_RETURN:
            g.stack.append(ReturnSwap(p, s, y))
            if "on_return" in card.field:
                g.stack.append(Effect(card.field["on_return"], p, y, Z_FIELD, g.banish_count))
            g.stack.append(Damage(p, s, y, 2, True))


class Pay(Task):
    """Pay a Special Attack's cost one atomic choice at a time: element costs first, then generics.

    For an element: the Ally (once), a matching Void card alone, or a non-matching card as the first
    of a pair (the second is then any card). Every offered choice keeps the rest payable.
    """

    __slots__ = ("ally", "elems", "generic", "pair", "seat", "slot")
    phase = "pay the Special Attack"

    def __init__(self, seat: int, slot: int, elems: tuple[int, ...], generic: int, ally: int) -> None:
        self.seat, self.slot, self.elems, self.generic, self.ally, self.pair = seat, slot, elems, generic, ally, False

    def run(self, g: Table) -> np.ndarray | None:
        if not self.elems and not self.generic:
            g.stack.pop()
            return None
        p = self.seat
        m = _mask(g)
        ve = void_elements(g, p)
        n = len(ve)
        if self.pair or not self.elems:
            # the second card of a pair, or a generic: any card that keeps the rest payable
            rest = self.elems[1:] if self.pair else ()
            generic = self.generic if self.pair else self.generic - 1
            for i in range(n):
                if can_pay(ve[:i] + ve[i + 1:], rest, generic, self.ally):
                    m[A_MY_VOID + i] = True
        else:
            e, rest = self.elems[0], self.elems[1:]
            if self.ally == e and can_pay(ve, rest, self.generic, NO):
                m[A_ALLY] = True
            for i in range(n):
                others = ve[:i] + ve[i + 1:]
                if ve[i] == e:
                    ok = can_pay(others, rest, self.generic, self.ally)
                else:
                    ok = can_pay(others, rest, self.generic + 1, self.ally)
                if ok:
                    m[A_MY_VOID + i] = True
        g.decider = p
        return m

    def choose(self, g: Table, a: int) -> None:
        p = self.seat
        if a == A_ALLY:
            self.ally = NO
            self.elems = self.elems[1:]
            return
        i = a - A_MY_VOID
        c = g.void[p].pop(i)
        matches = not g.facedown[c] and g.c_elem[c] == (self.elems[0] if self.elems else NO)
        g.to_limbo(c)
        if self.pair:
            self.pair = False
            self.elems = self.elems[1:]
        elif not self.elems:
            self.generic -= 1
        elif matches:
            self.elems = self.elems[1:]
        else:
            self.pair = True


class Basic(Task):
    """Basic Attack: Destroy 1-3 Void cards (and optionally all Burned cards) for that much DMG."""

    __slots__ = ("paid", "seat", "stage")
    phase = "basic attack"

    def __init__(self, seat: int) -> None:
        self.seat, self.paid, self.stage = seat, 0, 0

    def run(self, g: Table) -> np.ndarray | None:
        p = self.seat
        m = _mask(g)
        if self.stage == 0:
            n = len(g.void[p]) if self.paid < 3 else 0
            if n:
                m[A_MY_VOID:A_MY_VOID + n] = True
                m[A_PASS] = self.paid > 0
                g.decider = p
                return m
            self.stage = 1
        if self.stage == 1:
            if g.burned[p]:
                m[A_PASS] = m[A_YES] = True
                g.decider = p
                return m
            self.stage = 2
        enemy = 1 - p
        slots = [s for s in (0, 1) if g.field[enemy][s] != NO]
        if len(slots) == 2:
            m[A_OPP_FIELD] = m[A_OPP_FIELD + 1] = True
            g.decider = p
            return m
        g.stack.pop()
        if slots:
            g.stack.append(Damage(enemy, slots[0], g.field[enemy][slots[0]], self.paid, False))
        return None

    def choose(self, g: Table, a: int) -> None:
        p = self.seat
        if self.stage == 0:
            if a == A_PASS:
                self.stage = 1
            else:
                g.to_limbo(g.void[p].pop(a - A_MY_VOID))
                self.paid += 1
        elif self.stage == 1:
            if a == A_YES:
                self.paid += len(g.burned[p])
                for c in g.burned[p]:
                    g.to_limbo(c)
                g.burned[p] = []
            self.stage = 2
        else:
            g.stack.pop()
            s = a - A_OPP_FIELD
            g.stack.append(Damage(1 - p, s, g.field[1 - p][s], self.paid, False))


class ReturnSwap(Task):
    """After Return's 2 BREAK DMG: Swap with a hand Yokai that would not be Banished on entry."""

    __slots__ = ("seat", "slot", "yid")
    phase = "return: choose the Yokai to Swap in"

    def __init__(self, seat: int, slot: int, yid: int) -> None:
        self.seat, self.slot, self.yid = seat, slot, yid

    def run(self, g: Table) -> np.ndarray | None:
        p, s = self.seat, self.slot
        if g.field[p][s] != self.yid:
            g.stack.pop()
            return None
        m = _mask(g)
        face_up = g.face_up_souls(p, s)
        found = False
        for c in g.hand[p]:
            if g.c_souls[c] > face_up:
                m[A_CARD + g.ctype[c]] = found = True
        if not found:  # Ruling: no legal Yokai to Swap in; the Return ends here.
            g.stack.pop()
            return None
        g.decider = p
        return m

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        p, s, y = self.seat, self.slot, self.yid
        new = g.take_from(g.hand[p], a - A_CARD)
        g.slowed[y] = 0  # Slow is not passed on; attachments stay with the slot
        g.hand[p].append(y)
        g.enter_field(p, s, new)
        _entry_effect(g, p, new)


