"""DMG, BREAK DMG and Banish: damage is placed one point at a time by the defender."""

from __future__ import annotations

from yokai_envs.yokaizo.actions import A_CARD, A_SOUL, A_TOPDECK, hand_type_actions
from yokai_envs.yokaizo.state import EZ_NONE, NO, Decision, EndCause, Event, Table, Task


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

    def run(self, g: Table) -> list[int] | None:
        p, s = self.p, self.s
        while True:
            if g.winner != NO or self.left <= 0 or g.field[p][s] != self.yid:
                g.stack.pop()
                return None
            shields = g.shields[p][s]
            if not shields:
                break
            g.to_limbo(shields.pop())
            self.left -= 1
        souls = g.souls[p][s]
        place = len(souls) < g.c_souls[self.yid]
        # ascending: topdeck, then the face-down Souls to flip, then the hand's card types
        legal = [A_TOPDECK] if place and g.can_take_top(p) else []
        up = g.up
        for i, c in enumerate(souls):
            if not up[c]:
                legal.append(A_SOUL + i)
        if place:
            legal += hand_type_actions(g, p)
        if not legal:
            # Ruling: a point that can neither be placed nor flipped hits nothing.
            g.stack.pop()
            return None
        g.decider = p
        return legal

    def choose(self, g: Table, a: int) -> None:
        p, s = self.p, self.s
        self.left -= 1
        souls = g.souls[p][s]
        if a == A_TOPDECK or a >= A_CARD:
            if a == A_TOPDECK:
                c = g.take_top(p)
                seen = g.top_was_known
            else:
                c = g.take_from_hand(p, a - A_CARD, to_field=False)
                g.hand_out(p, c, public=False)
                seen = False
            souls.append(c)
            g.shown[c] = 1 if seen else 0  # a known top card stays public face-down (R33)
            if g._seen is None:  # not recording (asked first: the calls to see cost more)
                pass
            elif seen:
                g.see(None, Event.SOUL_PLACED, p, s, g.ctype[c])
            else:
                g.see_card(Event.SOUL_PLACED, p, s, c)
        else:
            c = souls[a - A_SOUL]
            g.up[c] = 1
            if g._seen is not None:
                g.see(None, Event.SOUL_FLIPPED, p, s, a - A_SOUL, g.ctype[c])
            g.stack.append(BanishCheck(p, s, self.yid))
            card = g.cards[g.ctype[c]]
            if card.soul and not self.brk:
                from yokai_envs.yokaizo.effects import Effect  # effects imports this module
                g.stack.append(Effect(card.soul, p, c, EZ_NONE, g.banish_count))


class BanishCheck(Task):
    """After a flipped Soul resolves: Banish when its face-up Souls reach the Yokai's Soul value."""

    __slots__ = ("p", "s", "yid")

    def __init__(self, p: int, s: int, yid: int) -> None:
        self.p, self.s, self.yid = p, s, yid

    def run(self, g: Table) -> None:
        g.stack.pop()
        if g.field[self.p][self.s] == self.yid and g.face_up_souls(self.p, self.s) >= g.c_souls[self.yid]:
            banish(g, self.p, self.s)
        return None


def banish(g: Table, p: int, s: int) -> None:
    """Send the Field Yokai to its Grave; Souls and Shields are Destroyed, Exiled attachments set aside.

    A Blighted Yokai's Ally then takes BREAK DMG equal to its Blighted Souls.
    """
    y = g.field[p][s]
    if g._seen is not None:
        g.see(None, Event.BANISHED, p, s, g.ctype[y])
    g.field[p][s] = NO
    souls = g.souls[p][s]
    blighted = sum(g.blighted[c] for c in souls)
    for c in souls:
        g.to_limbo(c)
    souls.clear()
    for c in g.shields[p][s]:
        g.to_limbo(c)
    g.shields[p][s].clear()
    g.exile.extend(g.relics[p][s])
    g.relics[p][s].clear()
    g.slowed[y] = 0
    g.grave[p].append(y)
    g.banish_count += 1
    if g.active is not None and g.active.yid == y:
        g.active = None
    g.check_win(EndCause.BANISH)
    ally = g.field[p][1 - s]
    if blighted and ally != NO and g.winner == NO:
        g.stack.append(Damage(p, 1 - s, ally, blighted, True))
