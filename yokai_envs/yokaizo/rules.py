"""The match flow: dealing and setup, Rounds by Speed tier, Round triggers, replacements and the
Turn (Draw and Void phases; the Action phase is in :mod:`yokai_envs.yokaizo.attacks`).

Rules resolve on a stack of tasks (:class:`~yokai_envs.yokaizo.state.Task`); :func:`advance` runs
it until a task holds a decision. :class:`NextTurn` is the permanent bottom of the stack.
"""

from __future__ import annotations

from yokai_envs.core.context import Context
from yokai_envs.yokaizo.actions import A_CARD, A_MY_FIELD, A_PASS, A_TOPDECK, hand_type_actions
from yokai_envs.yokaizo.attacks import ActionChoice
from yokai_envs.yokaizo.effects import Effect
from yokai_envs.yokaizo.moves import (
    draw,
    enter_field,
    hand_out,
    refill_deck,
    shuffle_deck,
    take_from_hand,
    take_top,
    to_limbo,
    to_void,
)
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
    State,
    Task,
)


# ------------------------------------------------------------------ the decision loop
def deal(st: State, ctx: Context) -> None:
    """A new match on a fresh table: the two decks shuffled, opening hands, then the setup picks."""
    for p in (0, 1):
        ctx.rng.shuffle(st.deck[p])
    for p in (0, 1):
        draw(st, ctx, p, HAND_SIZE)
    st.stack = [NextTurn(), Reveal(), SetupPick(1, 1), SetupPick(1, 0), SetupPick(0, 1), SetupPick(0, 0)]
    advance(st, ctx)


def advance(st: State, ctx: Context) -> None:
    """Resolve the stack until a task holds a decision (its legal actions go to ``st.pending``) or
    the game ends."""
    stack = st.stack
    while st.winner == NO and not st.draw_game:
        m = stack[-1].run(st, ctx)
        if m is not None:
            st.pending = m
            return
    st.pending = None


def choose(st: State, ctx: Context, action: int) -> None:
    """Apply a legal action to the pending decision, then resolve on."""
    st.stack[-1].choose(st, ctx, action)
    advance(st, ctx)


# ------------------------------------------------------------------ setup
class SetupPick(Task):
    """Choose a Field Yokai face-down from the opening hand (two picks per seat)."""

    __slots__ = ("seat", "slot")
    phase = "setup: choose a Field Yokai"
    decision = Decision.SETUP

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot = seat, slot

    def run(self, st: State, ctx: Context) -> list[int]:
        st.decider = self.seat
        return hand_type_actions(st, self.seat)

    def choose(self, st: State, ctx: Context, a: int) -> None:
        st.stack.pop()
        c = take_from_hand(st, self.seat, a - A_CARD, to_field=True)
        hand_out(st, self.seat, c, public=False)
        enter_field(st, self.seat, self.slot, c)


class Reveal(Task):
    """All four Field Yokai flip up at once (ruling: no Field entry effects at setup)."""

    __slots__ = ()

    def run(self, st: State, ctx: Context) -> None:
        st.stack.pop()
        st.hidden_setup = False
        for p in (0, 1):
            for s in (0, 1):
                ctx.see(None, EV_REVEALED, p, s, st.ctype[st.field[p][s]])
        return None



# ------------------------------------------------------------------ rounds
class NextTurn(Task):
    """The permanent bottom of the stack: replacements, Round start/end, and who takes the next Turn."""

    __slots__ = ()

    def run(self, st: State, ctx: Context) -> None:
        field = st.field
        if NO in field[0] or NO in field[1]:  # (asked first: most of the time no slot is empty)
            first = st.last_turn if st.last_turn != NO else 0
            needs = [(p, s) for p in (first, 1 - first) for s in (0, 1)
                     if field[p][s] == NO and (st.hand[p] or st.can_take_top(p))]
            if needs:  # every empty slot is refilled, then the entry effects trigger together (R21)
                at = len(st.stack)
                st.stack.append(EntryTriggers())
                for p, s in reversed(needs):
                    st.stack.append(Replace(p, s, at))
                return None
        if st.round_stage == RS_START:
            if st.round > 0 and st.turns_this_round == 0:
                st.draw_game = True  # Ruling: a whole Round in which no Yokai can act ends the game.
                st.end_cause = EndCause.NO_TURNS
                return None
            st.round += 1
            ctx.see(None, EV_ROUND, st.round)
            st.tier = BIG_TIER
            st.round_stage = RS_TURNS
            st.turns_this_round = 0
            st.stack.append(RoundTriggers(RoundTrigger.START))
            return None
        if st.round_stage == RS_TURNS:
            left = waiting(st, ctx)  # eligible(st, ctx), with the waiting slots and their Speeds read once
            counted = st.counted
            cands = [(p, s) for p, s in left if field[p][s] in counted]
            if not cands:
                speeds = [st.field_speed(p, s) for p, s in left]
                lower = [v for v in speeds if v < st.tier]
                if not lower:
                    st.round_stage = RS_END
                    st.counted = ()
                    st.stack.append(RoundTriggers(RoundTrigger.END))
                    return None
                # the tier's inventory: the Yokai present at this Speed now keep their Turn (R11)
                tier = st.tier = max(lower)
                counted = st.counted = tuple(field[p][s] for (p, s), v in zip(left, speeds) if v == tier)
                cands = [(p, s) for p, s in left if field[p][s] in counted]
            sides = {p for p, _ in cands}
            if len(sides) == 2:
                if st.last_turn == NO:
                    st.last_turn = 1 - first_turn_reveal(st, ctx)
                p = 1 - st.last_turn
            else:
                p = cands[0][0]
            own = [s for q, s in cands if q == p]
            st.stack.append(ChooseTurn(p, tuple(own)) if len(own) == 2 else Turn(p, own[0]))
            return None
        # RoundStage.END: end-of-Round triggers have resolved; Frozen Void cards are Destroyed.
        for p in (0, 1):
            keep = []
            for c in st.void[p]:
                if st.frozen[c]:
                    to_limbo(st, ctx, c)
                else:
                    keep.append(c)
            st.void[p] = keep
        st.round_stage = RS_START
        return None


def waiting(st: State, ctx: Context) -> list[tuple[int, int]]:
    """Field slots whose Yokai has not taken a Turn this Round."""
    out = []
    for p in (0, 1):
        for s in (0, 1):
            y = st.field[p][s]
            if y != NO and st.turn_round[y] != st.round:
                out.append((p, s))
    return out


def eligible(st: State, ctx: Context) -> list[tuple[int, int]]:
    """Field slots whose Yokai was counted at the current Speed tier and has not taken its Turn:
    each Yokai present when its tier began takes its Turn in that tier, whatever its Speed since;
    a Yokai that took its Turn this Round takes no other, whatever moves it (R12, R29)."""
    return [(p, s) for p, s in waiting(st, ctx) if st.field[p][s] in st.counted]


def first_turn_reveal(st: State, ctx: Context) -> int:
    """Cross-side tie for the first Turn: each seat shuffles and reveals until one Speed is higher."""
    winner = NO
    for _ in range(64):
        speeds = []
        for p in (0, 1):
            refill_deck(st, ctx, p)
            shuffle_deck(st, ctx, p)
            if st.deck[p]:
                top = st.ctype[st.deck[p][-1]]
                ctx.see(None, EV_FIRST_TURN_REVEAL, p, top)
                st.pub_deck[p].setdefault(top, 1)  # everyone saw it: at least one is in that deck
            speeds.append(st.c_speed[st.deck[p][-1]] if st.deck[p] else 0)
        if speeds[0] != speeds[1]:
            winner = 0 if speeds[0] > speeds[1] else 1
            break
    if winner == NO:
        winner = int(ctx.rng.integers(2))
    for p in (0, 1):
        shuffle_deck(st, ctx, p)
    return winner


class RoundTriggers(Task):
    """Start/end of Round triggers in descending Speed; cross-side ties alternate, starting with the
    seat that did not trigger or act last; one seat's ties go Field slot order, then Void order."""

    __slots__ = ("kind",)

    def __init__(self, kind: RoundTrigger) -> None:
        self.kind: RoundTrigger = kind

    def run(self, st: State, ctx: Context) -> None:
        st.stack.pop()
        found: dict[int, list[list[Effect]]] = {}
        for p in (0, 1):
            for s in (0, 1):
                y = st.field[p][s]
                ops = st.cards[st.ctype[y]].field.get(self.kind) if y != NO else None
                if ops:
                    found.setdefault(st.field_speed(p, s), [[], []])[p].append(Effect(ops, p, y, EZ_FIELD, 0))
            if self.kind == RoundTrigger.END:
                for c in st.void[p]:
                    ops = st.cards[st.ctype[c]].void.get(RoundTrigger.END)
                    if ops and not st.facedown[c] and not st.frozen[c]:
                        found.setdefault(st.c_speed[c], [[], []])[p].append(Effect(ops, p, c, EZ_VOID, 0))
        push_in_trigger_order(st, ctx, found)
        return None


class ChooseTurn(Task):
    """Two of one seat's Yokai share the tier: their controller picks which goes first."""

    __slots__ = ("seat", "slots")
    phase = "choose which Yokai takes its Turn"
    decision = Decision.CHOOSE_TURN

    def __init__(self, seat: int, slots: tuple[int, ...]) -> None:
        self.seat, self.slots = seat, slots

    def run(self, st: State, ctx: Context) -> list[int]:
        st.decider = self.seat
        return [A_MY_FIELD + s for s in sorted(self.slots)]

    def choose(self, st: State, ctx: Context, a: int) -> None:
        st.stack.pop()
        st.stack.append(Turn(self.seat, a - A_MY_FIELD))


class Replace(Task):
    """Between Turns, an empty Field slot is filled from hand or topdeck; its entry effect waits in
    the :class:`EntryTriggers` at stack index ``at`` for the other replacements."""

    __slots__ = ("at", "seat", "slot")
    phase = "replace a Banished Yokai"
    decision = Decision.REPLACE

    def __init__(self, seat: int, slot: int, at: int = NO) -> None:
        self.seat, self.slot, self.at = seat, slot, at

    def run(self, st: State, ctx: Context) -> list[int] | None:
        legal = hand_type_actions(st, self.seat)
        if st.can_take_top(self.seat):
            legal.insert(0, A_TOPDECK)
        if not legal:  # an earlier replacement took the seat's last card: the slot stays empty
            st.stack.pop()
            return None
        st.decider = self.seat
        return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        st.stack.pop()
        p = self.seat
        if a == A_TOPDECK:
            y = take_top(st, ctx, p, public=True)
        else:
            y = take_from_hand(st, p, a - A_CARD, to_field=True)
            hand_out(st, p, y, public=True)
        enter_field(st, p, self.slot, y)
        if ctx.recording:  # (asked first on the per-step paths: a call to see costs more)
            ctx.see(None, EV_ENTERED, p, self.slot, st.ctype[y], int(st.turn_round[y] == st.round))
        triggers = st.stack[self.at] if self.at != NO else None
        if isinstance(triggers, EntryTriggers):
            triggers.entered = (*triggers.entered, (p, self.slot, y))
        else:  # a lone replacement (scenario tests): its entry effect triggers at once
            ops = st.cards[st.ctype[y]].field.get("on_entry")
            if ops:
                st.stack.append(Effect(ops, p, y, EZ_FIELD, st.banish_count))


class EntryTriggers(Task):
    """The entry effects of Yokai replaced together, as simultaneous triggers (The Round, last
    rule): descending Speed; on a tie the seat that last triggered or took a Turn waits, then the
    seats alternate; one seat's ties go Field slot order (R19, R21)."""

    __slots__ = ("entered",)

    def __init__(self) -> None:
        self.entered: tuple[tuple[int, int, int], ...] = ()

    def run(self, st: State, ctx: Context) -> None:
        st.stack.pop()
        found: dict[int, list[list[Effect]]] = {}
        for p, s, y in sorted(self.entered):
            ops = st.cards[st.ctype[y]].field.get("on_entry")
            if ops and st.field[p][s] == y:
                found.setdefault(st.field_speed(p, s), [[], []])[p].append(
                    Effect(ops, p, y, EZ_FIELD, st.banish_count))
        push_in_trigger_order(st, ctx, found)
        return None


def push_in_trigger_order(st: State, ctx: Context, found: dict[int, list[list[Effect]]]) -> None:
    """Stack simultaneous triggers (Speed -> per-seat queues) so they resolve in the rulebook's order."""
    order: list[Effect] = []
    last = st.last_trigger
    for speed in sorted(found, reverse=True):
        queues = found[speed]
        p = 1 - last if last != NO else 0
        while queues[0] or queues[1]:
            if not queues[p]:
                p = 1 - p
            order.append(queues[p].pop(0))
            last, p = p, 1 - p
    for eff in reversed(order):
        eff.mark = st.banish_count
        st.stack.append(eff)


# ------------------------------------------------------------------ the Turn
class Turn(Task):
    __slots__ = ("seat", "slot", "stage", "yid")

    def __init__(self, seat: int, slot: int) -> None:
        self.seat, self.slot, self.yid, self.stage = seat, slot, NO, 0

    def run(self, st: State, ctx: Context) -> None:
        p, s = self.seat, self.slot
        if self.stage == 0:
            y = self.yid = st.field[p][s]
            if ctx.recording:
                ctx.see(None, EV_TURN, p, s, st.ctype[y])
            st.turn_round[y] = st.round
            st.last_turn = st.last_trigger = p
            if st.first_turn == NO:
                st.first_turn = p
            st.slowed[y] = 0  # Slow lasts until the start of the Yokai's next Turn
            st.active = ActiveYokai(p, s, y)
            st.turns_this_round += 1
            for q in (p, 1 - p):  # Draw phase: both players draw to 6
                draw(st, ctx, q, HAND_SIZE - len(st.hand[q]))
            self.stage = 1
            st.stack.append(VoidPlay(p, s, y))
            return None
        if self.stage == 1 and st.field[p][s] == self.yid:
            self.stage = 2
            st.stack.append(ActionChoice(p, s, self.yid))
            return None
        st.active = None
        st.stack.pop()
        return None


class VoidPlay(Task):
    """Void phase: play up to 3 Yokai from hand into the 6-slot Void (on-entry effects resolve)."""

    __slots__ = ("left", "seat", "slot", "yid")
    phase = "void phase: play a card or pass"
    decision = Decision.VOID

    def __init__(self, seat: int, slot: int, yid: int) -> None:
        self.seat, self.slot, self.yid, self.left = seat, slot, yid, VOID_PLAYS

    def run(self, st: State, ctx: Context) -> list[int] | None:
        p = self.seat
        if self.left <= 0 or st.field[p][self.slot] != self.yid or len(st.void[p]) >= VOID_SLOTS or not st.hand[p]:
            st.stack.pop()
            return None
        legal = hand_type_actions(st, p)
        legal.insert(0, A_PASS)
        st.decider = p
        return legal

    def choose(self, st: State, ctx: Context, a: int) -> None:
        p = self.seat
        if a == A_PASS:
            st.stack.pop()
            return
        self.left -= 1
        c = take_from_hand(st, p, a - A_CARD, to_field=False)
        hand_out(st, p, c, public=True)
        to_void(st, ctx, p, c)
        ops = st.cards[st.ctype[c]].void.get("on_entry")
        if ops:
            st.stack.append(Effect(ops, p, c, EZ_NONE, st.banish_count))
