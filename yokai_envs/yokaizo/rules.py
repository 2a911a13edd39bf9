"""The match flow: dealing and setup, Rounds by Speed tier, Round triggers, replacements and the
Turn (Draw and Void phases; the Action phase is in :mod:`yokai_envs.yokaizo.attacks`).

Rules resolve on a stack of tasks (:class:`~yokai_envs.yokaizo.state.Task`); :func:`advance` runs
it until a task holds a decision. :class:`NextTurn` is the permanent bottom of the stack.
"""

from __future__ import annotations

from yokai_envs.yokaizo.actions import A_CARD, A_MY_FIELD, A_PASS, A_TOPDECK, hand_type_actions
from yokai_envs.yokaizo.attacks import ActionChoice
from yokai_envs.yokaizo.effects import Effect
from yokai_envs.yokaizo.state import (
    BIG_TIER,
    EV_ENTERED,
    EV_FIRST_TURN_REVEAL,
    EV_REVEALED,
    EV_ROUND,
    EV_TURN,
    EZ_FIELD,
    EZ_NONE,
    EZ_VOID,
    HAND_SIZE,
    NO,
    RS_END,
    RS_START,
    RS_TURNS,
    VOID_PLAYS,
    VOID_SLOTS,
    ActiveYokai,
    Decision,
    EndCause,
    RoundTrigger,
    Table,
    Task,
)


# ------------------------------------------------------------------ the decision loop
def deal(g: Table, deck_types: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    """A new match: fresh zones from the two decks, opening hands, then the setup picks."""
    g.new_table(deck_types)
    for p in (0, 1):
        g.draw(p, HAND_SIZE)
    g.stack = [NextTurn(), Reveal(), SetupPick(1, 1), SetupPick(1, 0), SetupPick(0, 1), SetupPick(0, 0)]
    advance(g)


def advance(g: Table) -> None:
    """Resolve the stack until a task holds a decision (its legal actions go to ``g.pending``) or
    the game ends."""
    stack = g.stack
    while g.winner == NO and not g.draw_game:
        m = stack[-1].run(g)
        if m is not None:
            g.pending = m
            return
    g.pending = None


def choose(g: Table, action: int) -> None:
    """Apply a legal action to the pending decision, then resolve on."""
    g.stack[-1].choose(g, action)
    advance(g)


# ------------------------------------------------------------------ setup
class SetupPick(Task):
    """Choose a Field Yokai face-down from the opening hand (two picks per seat)."""

    __slots__ = ("seat", "slot")
    phase = "setup: choose a Field Yokai"
    decision = Decision.SETUP

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot = seat, slot

    def run(self, g: Table) -> list[int]:
        g.decider = self.seat
        return hand_type_actions(g, self.seat)

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        c = g.take_from_hand(self.seat, a - A_CARD, to_field=True)
        g.hand_out(self.seat, c, public=False)
        g.enter_field(self.seat, self.slot, c)


class Reveal(Task):
    """All four Field Yokai flip up at once (ruling: no Field entry effects at setup)."""

    __slots__ = ()

    def run(self, g: Table) -> None:
        g.stack.pop()
        g.hidden_setup = False
        for p in (0, 1):
            for s in (0, 1):
                g.see(None, EV_REVEALED, p, s, g.ctype[g.field[p][s]])
        return None



# ------------------------------------------------------------------ rounds
class NextTurn(Task):
    """The permanent bottom of the stack: replacements, Round start/end, and who takes the next Turn."""

    __slots__ = ()

    def run(self, g: Table) -> None:
        field = g.field
        if NO in field[0] or NO in field[1]:  # (asked first: most of the time no slot is empty)
            first = g.last_turn if g.last_turn != NO else 0
            needs = [(p, s) for p in (first, 1 - first) for s in (0, 1)
                     if field[p][s] == NO and (g.hand[p] or g.can_take_top(p))]
            if needs:  # every empty slot is refilled, then the entry effects trigger together (R21)
                at = len(g.stack)
                g.stack.append(EntryTriggers())
                for p, s in reversed(needs):
                    g.stack.append(Replace(p, s, at))
                return None
        if g.round_stage == RS_START:
            if g.round > 0 and g.turns_this_round == 0:
                g.draw_game = True  # Ruling: a whole Round in which no Yokai can act ends the game.
                g.end_cause = EndCause.NO_TURNS
                return None
            g.round += 1
            g.see(None, EV_ROUND, g.round)
            g.tier = BIG_TIER
            g.round_stage = RS_TURNS
            g.turns_this_round = 0
            g.stack.append(RoundTriggers("round_start"))
            return None
        if g.round_stage == RS_TURNS:
            left = waiting(g)  # eligible(g), with the waiting slots and their Speeds read once
            counted = g.counted
            cands = [(p, s) for p, s in left if field[p][s] in counted]
            if not cands:
                speeds = [g.field_speed(p, s) for p, s in left]
                lower = [v for v in speeds if v < g.tier]
                if not lower:
                    g.round_stage = RS_END
                    g.counted = ()
                    g.stack.append(RoundTriggers("round_end"))
                    return None
                # the tier's inventory: the Yokai present at this Speed now keep their Turn (R11)
                tier = g.tier = max(lower)
                counted = g.counted = tuple(field[p][s] for (p, s), v in zip(left, speeds) if v == tier)
                cands = [(p, s) for p, s in left if field[p][s] in counted]
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
        # RoundStage.END: end-of-Round triggers have resolved; Frozen Void cards are Destroyed.
        for p in (0, 1):
            keep = []
            for c in g.void[p]:
                if g.frozen[c]:
                    g.to_limbo(c)
                else:
                    keep.append(c)
            g.void[p] = keep
        g.round_stage = RS_START
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


def eligible(g: Table) -> list[tuple[int, int]]:
    """Field slots whose Yokai was counted at the current Speed tier and has not taken its Turn:
    each Yokai present when its tier began takes its Turn in that tier, whatever its Speed since;
    a Yokai that took its Turn this Round takes no other, whatever moves it (R12, R29)."""
    return [(p, s) for p, s in waiting(g) if g.field[p][s] in g.counted]


def first_turn_reveal(g: Table) -> int:
    """Cross-side tie for the first Turn: each seat shuffles and reveals until one Speed is higher."""
    winner = NO
    for _ in range(64):
        speeds = []
        for p in (0, 1):
            g.refill_deck(p)
            g.shuffle_deck(p)
            if g.deck[p]:
                top = g.ctype[g.deck[p][-1]]
                g.see(None, EV_FIRST_TURN_REVEAL, p, top)
                g.pub_deck[p].setdefault(top, 1)  # everyone saw it: at least one is in that deck
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

    def __init__(self, kind: RoundTrigger) -> None:
        self.kind: RoundTrigger = kind

    def run(self, g: Table) -> None:
        g.stack.pop()
        found: dict[int, list[list[Effect]]] = {}
        for p in (0, 1):
            for s in (0, 1):
                y = g.field[p][s]
                ops = g.cards[g.ctype[y]].field.get(self.kind) if y != NO else None
                if ops:
                    found.setdefault(g.field_speed(p, s), [[], []])[p].append(Effect(ops, p, y, EZ_FIELD, 0))
            if self.kind == "round_end":
                for c in g.void[p]:
                    ops = g.cards[g.ctype[c]].void.get("round_end")
                    if ops and not g.facedown[c] and not g.frozen[c]:
                        found.setdefault(g.c_speed[c], [[], []])[p].append(Effect(ops, p, c, EZ_VOID, 0))
        push_in_trigger_order(g, found)
        return None


class ChooseTurn(Task):
    """Two of one seat's Yokai share the tier: their controller picks which goes first."""

    __slots__ = ("seat", "slots")
    phase = "choose which Yokai takes its Turn"
    decision = Decision.CHOOSE_TURN

    def __init__(self, seat: int, slots: tuple[int, ...]) -> None:
        self.seat, self.slots = seat, slots

    def run(self, g: Table) -> list[int]:
        g.decider = self.seat
        return [A_MY_FIELD + s for s in sorted(self.slots)]

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        g.stack.append(Turn(self.seat, a - A_MY_FIELD))


class Replace(Task):
    """Between Turns, an empty Field slot is filled from hand or topdeck; its entry effect waits in
    the :class:`EntryTriggers` at stack index ``at`` for the other replacements."""

    __slots__ = ("at", "seat", "slot")
    phase = "replace a Banished Yokai"
    decision = Decision.REPLACE

    def __init__(self, seat: int, slot: int, at: int = NO) -> None:
        self.seat, self.slot, self.at = seat, slot, at

    def run(self, g: Table) -> list[int] | None:
        legal = hand_type_actions(g, self.seat)
        if g.can_take_top(self.seat):
            legal.insert(0, A_TOPDECK)
        if not legal:  # an earlier replacement took the seat's last card: the slot stays empty
            g.stack.pop()
            return None
        g.decider = self.seat
        return legal

    def choose(self, g: Table, a: int) -> None:
        g.stack.pop()
        p = self.seat
        if a == A_TOPDECK:
            y = g.take_top(p, public=True)
        else:
            y = g.take_from_hand(p, a - A_CARD, to_field=True)
            g.hand_out(p, y, public=True)
        g.enter_field(p, self.slot, y)
        if g._seen is not None:  # (asked first on the per-step paths: a call to see costs more)
            g.see(None, EV_ENTERED, p, self.slot, g.ctype[y])
        triggers = g.stack[self.at] if self.at != NO else None
        if isinstance(triggers, EntryTriggers):
            triggers.entered = (*triggers.entered, (p, self.slot, y))
        else:  # a lone replacement (scenario tests): its entry effect triggers at once
            ops = g.cards[g.ctype[y]].field.get("on_entry")
            if ops:
                g.stack.append(Effect(ops, p, y, EZ_FIELD, g.banish_count))


class EntryTriggers(Task):
    """The entry effects of Yokai replaced together, as simultaneous triggers (The Round, last
    rule): descending Speed; on a tie the seat that last triggered or took a Turn waits, then the
    seats alternate; one seat's ties go Field slot order (R19, R21)."""

    __slots__ = ("entered",)

    def __init__(self) -> None:
        self.entered: tuple[tuple[int, int, int], ...] = ()

    def run(self, g: Table) -> None:
        g.stack.pop()
        found: dict[int, list[list[Effect]]] = {}
        for p, s, y in sorted(self.entered):
            ops = g.cards[g.ctype[y]].field.get("on_entry")
            if ops and g.field[p][s] == y:
                found.setdefault(g.field_speed(p, s), [[], []])[p].append(
                    Effect(ops, p, y, EZ_FIELD, g.banish_count))
        push_in_trigger_order(g, found)
        return None


def push_in_trigger_order(g: Table, found: dict[int, list[list[Effect]]]) -> None:
    """Stack simultaneous triggers (Speed -> per-seat queues) so they resolve in the rulebook's order."""
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


# ------------------------------------------------------------------ the Turn
class Turn(Task):
    __slots__ = ("seat", "slot", "stage", "yid")

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot, self.yid, self.stage = seat, slot, NO, 0

    def run(self, g: Table) -> None:
        p, s = self.seat, self.slot
        if self.stage == 0:
            y = self.yid = g.field[p][s]
            if g._seen is not None:
                g.see(None, EV_TURN, p, s, g.ctype[y])
            g.turn_round[y] = g.round
            g.last_turn = g.last_trigger = p
            if g.first_turn == NO:
                g.first_turn = p
            g.slowed[y] = 0  # Slow lasts until the start of the Yokai's next Turn
            g.active = ActiveYokai(p, s, y)
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
    decision = Decision.VOID

    def __init__(self, seat: int, slot: int, yid: int) -> None:
        self.seat, self.slot, self.yid, self.left = seat, slot, yid, VOID_PLAYS

    def run(self, g: Table) -> list[int] | None:
        p = self.seat
        if self.left <= 0 or g.field[p][self.slot] != self.yid or len(g.void[p]) >= VOID_SLOTS or not g.hand[p]:
            g.stack.pop()
            return None
        legal = hand_type_actions(g, p)
        legal.insert(0, A_PASS)
        g.decider = p
        return legal

    def choose(self, g: Table, a: int) -> None:
        p = self.seat
        if a == A_PASS:
            g.stack.pop()
            return
        self.left -= 1
        c = g.take_from_hand(p, a - A_CARD, to_field=False)
        g.hand_out(p, c, public=True)
        g.to_void(p, c)
        ops = g.cards[g.ctype[c]].void.get("on_entry")
        if ops:
            g.stack.append(Effect(ops, p, c, EZ_NONE, g.banish_count))
