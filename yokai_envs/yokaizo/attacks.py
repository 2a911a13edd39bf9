"""The Action phase: the Action choice, paying a Special Attack, the Basic Attack and the Return."""

from __future__ import annotations

from yokai_envs.core.context import Context
from yokai_envs.yokaizo.actions import (
    A_ALLY,
    A_BASIC,
    A_CARD,
    A_MY_VOID,
    A_OPP_FIELD,
    A_PASS,
    A_RETURN,
    A_SPECIAL,
    A_YES,
)
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.effects import Effect, entry_effect
from yokai_envs.yokaizo.moves import enter_field, hand_out, take_from_hand, to_hand, to_limbo
from yokai_envs.yokaizo.state import EZ_FIELD, EZ_NONE, NO, Decision, Event, State, Task


# ------------------------------------------------------------------ paying
def can_pay(void_elems: list[int], elems: tuple[int, ...], generic: int, ally: int) -> bool:
    """Can the Void cards (element or -1 face-down) pay these element costs plus ``generic``?

    The Ally covers one cost of its element; a matching card pays an element alone, any 2 cards pay
    an element, any card pays a generic. Using matches and the Ally greedily is optimal.
    """
    # need and have only matter for the elements the cost names: count those (list.count is C)
    need = list(elems)
    if ally >= 0 and ally in need:
        need.remove(ally)
    matched = 0
    for e in set(need):
        matched += min(need.count(e), void_elems.count(e))
    unmatched = len(need) - matched
    return 2 * unmatched + generic <= len(void_elems) - matched


def void_elements(st: State, ctx: Context, p: int) -> list[int]:
    fd, el = st.facedown, st.c_elem
    return [NO if fd[c] else el[c] for c in st.void[p]]


def ally_element(st: State, ctx: Context, p: int, s: int) -> int:
    ally = st.field[p][1 - s]
    return NO if ally == NO else st.c_elem[ally]


# ------------------------------------------------------------------ the Actions
class YokaiTask(Task):
    """A choice of the Yokai ``yid`` in ``slot`` of ``seat``: it lapses, asking nothing, once that
    Yokai has left the slot."""

    __slots__ = ("seat", "slot", "yid")

    def __init__(self, seat: int, slot: int, yid: int) -> None:
        self.seat, self.slot, self.yid = seat, slot, yid

    def lapsed(self, st: State) -> bool:
        """True, and off the stack, when the Yokai is no longer in its slot."""
        if st.field[self.seat][self.slot] != self.yid:
            st.stack.pop()
            return True
        return False


class ActionChoice(YokaiTask):
    __slots__ = ()
    phase = "action phase: special, basic, return or forgo"
    decision = Decision.ACTION

    def run(self, st: State, ctx: Context) -> list[int] | None:
        if self.lapsed(st):
            return None
        p, s = self.seat, self.slot
        card = st.cards[st.ctype[self.yid]]
        legal = [A_PASS]
        if can_pay(void_elements(st, ctx, p), card.cost_elements, card.cost_generic, ally_element(st, ctx, p, s)):
            legal.append(A_SPECIAL)
        if st.void[p]:
            legal.append(A_BASIC)
        if st.hand[p]:
            legal.append(A_RETURN)
        st.decider = p
        return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        st.stack.pop()
        p, s, y = self.seat, self.slot, self.yid
        card = st.cards[st.ctype[y]]
        if a == A_SPECIAL:
            st.stack.append(Effect(card.stages, p, y, EZ_NONE, st.banish_count))
            st.stack.append(Pay(p, s, card.cost_elements, card.cost_generic, ally_element(st, ctx, p, s)))
        elif a == A_BASIC:
            st.stack.append(Basic(p))
        elif a == A_RETURN:
            st.stack.append(ReturnSwap(p, s, y))
            if "on_return" in card.field:
                st.stack.append(Effect(card.field["on_return"], p, y, EZ_FIELD, st.banish_count))
            st.stack.append(Damage(p, s, y, 2, True))


class Pay(Task):
    """Pay a Special Attack's cost one atomic choice at a time: element costs first, then generics.

    For an element: the Ally (once), a matching Void card alone, or a non-matching card as the first
    of a pair (the second is then any card). Every offered choice keeps the rest payable.
    """

    __slots__ = ("ally", "elems", "generic", "pair", "seat", "slot")
    phase = "pay the Special Attack"
    decision = Decision.PAY

    def __init__(self, seat: int, slot: int, elems: tuple[int, ...], generic: int, ally: int) -> None:
        self.seat, self.slot, self.elems, self.generic, self.ally, self.pair = seat, slot, elems, generic, ally, False

    def run(self, st: State, ctx: Context) -> list[int] | None:
        if not self.elems and not self.generic:
            st.stack.pop()
            return None
        p = self.seat
        legal: list[int] = []  # ascending: the Ally first, then Void positions in order
        ve = void_elements(st, ctx, p)
        n = len(ve)
        # Whether a card keeps the rest payable depends only on its element (the rest of the Void
        # is the same multiset for every card of one element): asked once per element.
        keeps: dict[int, bool] = {}
        if self.pair or not self.elems:
            # the second card of a pair, or a generic: any card that keeps the rest payable
            rest = self.elems[1:] if self.pair else ()
            generic = self.generic if self.pair else self.generic - 1
            for i in range(n):
                ok = keeps.get(ve[i])
                if ok is None:
                    ok = keeps[ve[i]] = can_pay(ve[:i] + ve[i + 1:], rest, generic, self.ally)
                if ok:
                    legal.append(A_MY_VOID + i)
        else:
            e, rest = self.elems[0], self.elems[1:]
            if self.ally == e and can_pay(ve, rest, self.generic, NO):
                legal.append(A_ALLY)
            for i in range(n):
                ok = keeps.get(ve[i])
                if ok is None:
                    others = ve[:i] + ve[i + 1:]
                    if ve[i] == e:
                        ok = can_pay(others, rest, self.generic, self.ally)
                    else:
                        ok = can_pay(others, rest, self.generic + 1, self.ally)
                    keeps[ve[i]] = ok
                if ok:
                    legal.append(A_MY_VOID + i)
        st.decider = p
        return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        p = self.seat
        if a == A_ALLY:
            self.ally = NO
            self.elems = self.elems[1:]
            return
        i = a - A_MY_VOID
        c = st.void[p].pop(i)
        matches = not st.facedown[c] and st.c_elem[c] == (self.elems[0] if self.elems else NO)
        to_limbo(st, ctx, c)
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
    decision = Decision.BASIC

    def __init__(self, seat: int) -> None:
        self.seat, self.paid, self.stage = seat, 0, 0

    def run(self, st: State, ctx: Context) -> list[int] | None:
        p = self.seat
        if self.stage == 0:
            n = len(st.void[p]) if self.paid < 3 else 0
            if n:
                st.decider = p
                voids = list(range(A_MY_VOID, A_MY_VOID + n))
                return [A_PASS, *voids] if self.paid > 0 else voids
            self.stage = 1
        if self.stage == 1:
            if st.burned[p]:
                st.decider = p
                return [A_PASS, A_YES]
            self.stage = 2
        enemy = 1 - p
        slots = [s for s in (0, 1) if st.field[enemy][s] != NO]
        if len(slots) == 2:
            st.decider = p
            return [A_OPP_FIELD, A_OPP_FIELD + 1]
        st.stack.pop()
        if slots:
            st.stack.append(Damage(enemy, slots[0], st.field[enemy][slots[0]], self.paid, False))
        return None

    def choose(self, st: State, ctx: Context, a: int) -> None:
        p = self.seat
        if self.stage == 0:
            if a == A_PASS:
                self.stage = 1
            else:
                to_limbo(st, ctx, st.void[p].pop(a - A_MY_VOID))
                self.paid += 1
        elif self.stage == 1:
            if a == A_YES:
                self.paid += len(st.burned[p])
                for c in st.burned[p]:
                    to_limbo(st, ctx, c)
                st.burned[p] = []
                st.pub_burned[p] = {}
            self.stage = 2
        else:
            st.stack.pop()
            s = a - A_OPP_FIELD
            st.stack.append(Damage(1 - p, s, st.field[1 - p][s], self.paid, False))


class ReturnSwap(YokaiTask):
    """After Return's 2 BREAK DMG: Swap with a hand Yokai that would not be Banished on entry. The
    choice is asked whenever the Yokai is still there and the hand is not empty, with only ``pass``
    when no hand Yokai fits (the other seat must not learn that from a skipped decision)."""

    __slots__ = ()
    phase = "return: choose the Yokai to Swap in"
    decision = Decision.RETURN

    def run(self, st: State, ctx: Context) -> list[int] | None:
        if self.lapsed(st):
            return None
        p, s = self.seat, self.slot
        if not st.hand[p]:
            st.stack.pop()
            return None
        face_up = st.face_up_souls(p, s)
        legal = sorted({st.c_action[c] for c in st.hand[p] if st.c_souls[c] > face_up})
        if not legal:  # Ruling: no legal Yokai to Swap in; the Return ends here (a forced pass).
            legal = [A_PASS]
        st.decider = p
        return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        st.stack.pop()
        if a == A_PASS:
            return
        p, s, y = self.seat, self.slot, self.yid
        new = take_from_hand(st, p, a - A_CARD, to_field=True)
        hand_out(st, p, new, public=True)
        st.slowed[y] = 0  # Slow is not passed on; attachments stay with the slot
        to_hand(st, ctx, p, y)  # keeps its turn_round: if it acted this Round it takes no other (R12)
        enter_field(st, p, s, new)
        ctx.see(None, Event.ENTERED, p, s, st.ctype[new], int(st.turn_round[new] == st.round))
        entry_effect(st, ctx, p, new)
