"""DMG, BREAK DMG and Banish: damage is placed one point at a time by the defender."""

from __future__ import annotations

from yokai_envs.core.context import Context
from yokai_envs.yokaizo.actions import A_CARD, A_SOUL, A_TOPDECK, hand_type_actions
from yokai_envs.yokaizo.moves import check_win, hand_out, see_card, take_from_hand, take_top, to_limbo
from yokai_envs.yokaizo.state import EZ_NONE, NO, Decision, EndCause, Event, State, Task


class Damage(Task):
    """``left`` points of DMG to the Yokai ``yid`` in seat ``p``'s Field slot ``s``.

    Each point: a Shield takes it first (Destroyed); otherwise the defender places a face-down Soul
    from hand or topdeck while slots remain, or flips a face-down Soul (its Soul effect triggers
    unless BREAK). When the Yokai leaves the slot the rest is negated.
    """

    __slots__ = ("brk", "left", "p", "s", "yid")
    phase = "damage"
    decision = Decision.DAMAGE

    def __init__(self, p: int, s: int, yid: int, left: int, brk: bool) -> None:
        self.p, self.s, self.yid, self.left, self.brk = p, s, yid, left, brk

    def run(self, st: State, ctx: Context) -> list[int] | None:
        p, s = self.p, self.s
        while True:
            if st.winner != NO or self.left <= 0 or st.field[p][s] != self.yid:
                st.stack.pop()
                return None
            shields = st.shields[p][s]
            if not shields:
                break
            to_limbo(st, ctx, shields.pop())
            self.left -= 1
        souls = st.souls[p][s]
        place = len(souls) < st.c_souls[self.yid]
        # ascending: topdeck, then the face-down Souls to flip, then the hand's card types
        legal = [A_TOPDECK] if place and st.can_take_top(p) else []
        up = st.up
        for i, c in enumerate(souls):
            if not up[c]:
                legal.append(A_SOUL + i)
        if place:
            legal += hand_type_actions(st, p)
        if not legal:
            # Ruling: a point that can neither be placed nor flipped hits nothing.
            st.stack.pop()
            return None
        st.decider = p
        return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        p, s = self.p, self.s
        self.left -= 1
        souls = st.souls[p][s]
        if a == A_TOPDECK or a >= A_CARD:
            if a == A_TOPDECK:
                c = take_top(st, ctx, p)
                seen = st.top_was_known
            else:
                c = take_from_hand(st, p, a - A_CARD, to_field=False)
                hand_out(st, p, c, public=False)
                seen = False
            souls.append(c)
            st.shown[c] = 1 if seen else 0  # a known top card stays public face-down (R33)
            if not ctx.recording:  # not recording (asked first: the calls to see cost more)
                pass
            elif seen:
                ctx.see(None, Event.SOUL_PLACED, p, s, st.ctype[c])
            else:
                see_card(st, ctx, Event.SOUL_PLACED, p, s, c)
        else:
            c = souls[a - A_SOUL]
            st.up[c] = 1
            if ctx.recording:
                ctx.see(None, Event.SOUL_FLIPPED, p, s, a - A_SOUL, st.ctype[c])
            st.stack.append(BanishCheck(p, s, self.yid))
            card = st.cards[st.ctype[c]]
            if card.soul and not self.brk:
                from yokai_envs.yokaizo.effects import Effect  # effects imports this module
                st.stack.append(Effect(card.soul, p, c, EZ_NONE, st.banish_count))


class BanishCheck(Task):
    """After a flipped Soul resolves: Banish when its face-up Souls reach the Yokai's Soul value."""

    __slots__ = ("p", "s", "yid")

    def __init__(self, p: int, s: int, yid: int) -> None:
        self.p, self.s, self.yid = p, s, yid

    def run(self, st: State, ctx: Context) -> None:
        st.stack.pop()
        if st.field[self.p][self.s] == self.yid and st.face_up_souls(self.p, self.s) >= st.c_souls[self.yid]:
            banish(st, ctx, self.p, self.s)
        return None


def banish(st: State, ctx: Context, p: int, s: int) -> None:
    """Send the Field Yokai to its Grave; Souls and Shields are Destroyed, Exiled attachments set aside.

    A Blighted Yokai's Ally then takes BREAK DMG equal to its Blighted Souls.
    """
    y = st.field[p][s]
    if ctx.recording:
        ctx.see(None, Event.BANISHED, p, s, st.ctype[y])
    st.field[p][s] = NO
    souls = st.souls[p][s]
    blighted = sum(st.blighted[c] for c in souls)
    for c in souls:
        to_limbo(st, ctx, c)
    souls.clear()
    for c in st.shields[p][s]:
        to_limbo(st, ctx, c)
    st.shields[p][s].clear()
    st.exile.extend(st.relics[p][s])
    st.relics[p][s].clear()
    st.slowed[y] = 0
    st.grave[p].append(y)
    st.banish_count += 1
    if st.active is not None and st.active.yid == y:
        st.active = None
    check_win(st, EndCause.BANISH)
    ally = st.field[p][1 - s]
    if blighted and ally != NO and st.winner == NO:
        st.stack.append(Damage(p, 1 - s, ally, blighted, True))
