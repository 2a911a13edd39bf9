"""What a YOKAIZO seat sees: the observation vector, its layout and bounds, the state tensor,
and the places a seat cannot see (reshuffled by ``determinize``). Layout documented in env.py.

Every card slot is encoded by a row of the card-feature table: element one-hot, Speed/7, Souls/5,
faction one-hot, keyword flags, identity one-hot, and a "hidden" flag for face-down cards the
observer may not see (an empty slot is all zeros). Zones holding many cards are per-type counts/3.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from yokai_envs.core.layout import Layout, build_layout, layout_bounds, layout_size
from yokai_envs.core.memo import check_fresh
from yokai_envs.yokaizo.attacks import Pay
from yokai_envs.yokaizo.cards import ELEMENTS, KEYWORDS, Pool
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.effects import Pick
from yokai_envs.yokaizo.state import (
    BIG_TIER,
    CARDS_PER_SEAT,
    MAX_SOULS,
    NO,
    VOID_SLOTS,
    Decision,
    PickVerb,
    RoundStage,
    State,
)

PICK_VERBS: tuple[PickVerb, ...] = tuple(PickVerb)
FIELD_EXTRA = 10
SOUL_EXTRA = 2
VOID_EXTRA = 2
GLOBALS = 15
ZERO_FIELD = [0.0] * FIELD_EXTRA
ZERO_FLAGS = [[0] * (2 * k) for k in range(VOID_SLOTS + 1)]  # two flags per empty slot
# count -> min(count, 3) / 3 as float32, computed as the encoder always did (one take, not
# astype + minimum + multiply); a zone holds at most all 80 cards
THIRDS = np.minimum(np.arange(2 * CARDS_PER_SEAT + 1), 3).astype(np.float32)
THIRDS *= 1 / 3


def write_thirds(out: np.ndarray, at: int, idx: list[int], size: int) -> None:
    """``out[at:at + size]`` = how often each index occurs in ``idx``, as min(count, 3) / 3."""
    out[at:at + size] = THIRDS.take(np.bincount(idx, minlength=size)) if idx else 0.0


# the scaled counts of the Field status and the globals, as lists indexed by the count: the very
# doubles the expressions give (each zone holds at most all 80 cards)
_UPTO = range(2 * CARDS_PER_SEAT + 1)
TENTHS_TO_10 = [min(k, 10) * 0.1 for k in _UPTO]
FIFTHS = [k * 0.2 for k in _UPTO]
FIFTHS_TO_5 = [min(k, 5) * 0.2 for k in _UPTO]
QUARTERS_TO_4 = [min(k, 4) * 0.25 for k in _UPTO]
FORTIETHS = [k / 40 for k in _UPTO]
THIRTEENTHS_TO_13 = [min(k, 13) / 13 for k in _UPTO]
MAX_ZONES = 19  # zones counted by ``encode`` (16, and 3 more in the state tensor)
CONTEXT = len(Decision) + 1 + 3 + len(ELEMENTS) + 3 + 4 + len(PICK_VERBS) + VOID_SLOTS


#: Tests set this: every observation is also computed from scratch and must equal the one
#: computed from the seat's memo (the blocks whose inputs did not change kept from before).
CHECK_MEMO = False


class SeatMemo:
    """One seat's observation of one game as last computed (``work``, never handed out), and per
    block the inputs it was computed from (copies; None: not computed yet). Only the blocks whose
    inputs differ are recomputed: most decisions move a card or two, and the card slots and zone
    counts are most of an observation's cost."""

    __slots__ = ("ctype", "deck", "decklist", "field", "hand", "known", "soul_flags", "souls", "status", "tops", "void",
                 "void_flags", "work", "zones")

    def __init__(self) -> None:
        self.ctype: list[int] | None = None  # the game's card types (a new list every reset)
        self.decklist: tuple[int, ...] | None = None
        self.work = np.empty(0, dtype=np.float32)
        self.field: tuple[bool, list[list[int]]] | None = None
        self.soul_flags: tuple[list[int], list[int], list[int]] | None = None  # up, blighted, shown
        self.void_flags: tuple[list[int], list[int], list[int]] | None = None  # frozen, facedown, shown
        self.souls: list[list[list[int]] | None] = [None, None]
        self.void: list[list[int] | None] = [None, None]
        self.tops: tuple[int, int] | None = None
        self.status: tuple[object, ...] | None = None
        self.hand: list[int] | None = None
        self.deck: list[int] | None = None
        self.zones: list[list[int]] | None = None
        self.known: tuple[object, ...] | None = None


class Observer:
    """Precomputed card features and the observation layout for one card pool."""

    def __init__(self, pool: Pool) -> None:
        n = len(pool)
        self.n_types = n
        factions = list(pool.factions)
        width = len(ELEMENTS) + 2 + len(factions) + len(KEYWORDS) + n + 1
        table = np.zeros((n + 2, width), dtype=np.float32)
        for c in pool.cards:
            row = table[c.index]
            row[c.element] = 1
            row[len(ELEMENTS)] = c.speed / 7
            row[len(ELEMENTS) + 1] = c.souls / 5
            off = len(ELEMENTS) + 2
            row[off + factions.index(c.faction)] = 1
            off += len(factions)
            for k in c.keywords:
                row[off + KEYWORDS.index(k)] = 1
            off += len(KEYWORDS)
            row[off + c.index] = 1
        table[n + 1, -1] = 1  # hidden card
        self.EMPTY, self.HIDDEN = n, n + 1
        self.empty_pads = [[n] * k for k in range(VOID_SLOTS + 1)]
        self.features = table
        self.width = width
        self.layout: Layout = build_layout([
            ("my_field", 2 * width), ("opp_field", 2 * width), ("my_souls", 2 * MAX_SOULS * width),
            ("opp_souls", 2 * MAX_SOULS * width), ("my_void", VOID_SLOTS * width), ("opp_void", VOID_SLOTS * width),
            ("known_deck_tops", 2 * width),
            ("field_status", 4 * FIELD_EXTRA), ("soul_status", 4 * MAX_SOULS * SOUL_EXTRA),
            ("void_status", 2 * VOID_SLOTS * VOID_EXTRA),
            ("my_hand_counts", n), ("my_deck_counts", n), ("my_limbo_counts", n), ("opp_limbo_counts", n),
            ("my_grave_counts", n), ("opp_grave_counts", n), ("my_burned_counts", n), ("exile_counts", n),
            ("my_shield_counts", 2 * n), ("attached_counts", 4 * n), ("opp_known_shield_counts", 2 * n),
            ("opp_decklist_counts", n),
            ("my_public_hand_counts", n), ("opp_public_hand_counts", n), ("opp_public_deck_counts", n),
            ("opp_deck_bound_counts", n), ("opp_public_burned_counts", n),
            ("globals", GLOBALS), ("decision", CONTEXT),
        ])
        self.size = layout_size(self.layout)
        self.private_size = 3 * n  # state_tensor adds the opponent's hand, deck and Burned counts
        self.deck_counts: dict[tuple[int, ...], np.ndarray] = {}
        start = {name: span.start for name, span in self.layout.items()}
        self.field_status_at, self.soul_status_at = start["field_status"], start["soul_status"]
        self.void_status_at, self.zones_at = start["void_status"], start["my_hand_counts"]
        self.decklist_at, self.known_at = start["opp_decklist_counts"], start["my_public_hand_counts"]
        self.globals_at = start["globals"]
        self._tables: dict[int, tuple[list[int], list[list[int]], list[int]]] = {}

    def _type_tables(self, ctype: list[int]) -> tuple[list[list[int]], list[int]]:
        """Lookup lists of one game: for each zone position k, card -> ``ctype[card] + k * n_types``;
        and card -> its feature row, with the empty row last (so ``NO`` maps to it). ``ctype`` is
        fixed for a game and shared by its clones: one entry per game, found by identity (the
        entry holds ``ctype``, so its id is not reused while the entry lives)."""
        entry = self._tables.get(id(ctype))
        if entry is None or entry[0] is not ctype:
            if len(self._tables) >= 64:  # games come and go (vector envs, arenas): stay small
                self._tables.clear()
            n = self.n_types
            tables = [[t + k * n for t in ctype] for k in range(MAX_ZONES)]
            entry = self._tables[id(ctype)] = (ctype, tables, [*ctype, self.EMPTY])
        return entry[1], entry[2]

    def decklist(self, deck: tuple[int, ...]) -> np.ndarray:
        out = self.deck_counts.get(deck)
        if out is None:
            out = np.minimum(np.bincount(deck, minlength=self.n_types), 3).astype(np.float32) / 3
            self.deck_counts[deck] = out
        return out

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every observation entry: all in [0, 1]."""
        return layout_bounds(self.layout)

    def encode(self, st: State, seat: int, omniscient: bool = False, memos: list[SeatMemo] | None = None) -> np.ndarray:
        """The observation of ``seat``; ``omniscient``: the state tensor (nothing hidden, plus the
        opponent's hand, deck and Burned counts at the end).

        With ``memos`` (the game's, from :func:`~yokai_envs.core.memo.seat_memos`), an observation
        is computed into the seat's work array (:class:`SeatMemo`), recomputing only the blocks
        whose inputs differ from those it last saw, and handed out as a copy; without, from scratch."""
        if omniscient or memos is None:
            out = np.empty(self.size + 3 * self.n_types if omniscient else self.size, dtype=np.float32)
            self._write_all(out, st, seat, omniscient)
            return out
        memo = memos[seat]
        if memo.ctype is not st.ctype or memo.decklist != st.deck_types[1 - seat]:
            # another game (a reset deals new card ids): nothing remembered holds
            memo = memos[seat] = SeatMemo()
            memo.work = np.empty(self.size, dtype=np.float32)
            memo.ctype = st.ctype
            memo.decklist = st.deck_types[1 - seat]
            n = self.n_types
            memo.work[self.decklist_at:self.decklist_at + n] = self.decklist(memo.decklist)
        out = self._write_changed(memo, st, seat)
        if CHECK_MEMO:
            fresh = np.empty(self.size, dtype=np.float32)
            self._write_all(fresh, st, seat, False)
            check_fresh(out, fresh, self.layout, seat)
        return out

    def _write_all(self, out: np.ndarray, st: State, seat: int, omniscient: bool) -> None:
        """Every block of the observation (or state tensor) from scratch."""
        opp = 1 - seat
        tables, with_empty = self._type_tables(st.ctype)
        hide_field = st.hidden_setup and not omniscient
        self._field_rows(out, st, seat, hide_field, with_empty)
        for k, p in enumerate((seat, opp)):
            self._soul_rows(out, st, p, k, p == seat or omniscient)
            self._void_rows(out, st, p, k, p == seat or omniscient)
        self._top_rows(out, st, seat, with_empty)
        self._field_status(out, st, seat, hide_field)
        n, at = self.n_types, self.zones_at
        self._thirds(out, at, tables, [st.hand[seat]])
        self._thirds(out, at + n, tables, [st.deck[seat]])
        self._thirds(out, at + 2 * n, tables, self._other_zones(st, seat))
        out[self.decklist_at:self.decklist_at + n] = self.decklist(st.deck_types[opp])
        self._known(out, st, seat)
        self._tail(out, st, seat)
        if omniscient:
            self._thirds(out, self.size, tables, [st.hand[opp], st.deck[opp], st.burned[opp]])

    def _write_changed(self, memo: SeatMemo, st: State, seat: int) -> np.ndarray:
        """``seat``'s observation in ``memo``'s work array, recomputing the blocks whose inputs
        differ from the ones the memo holds (compared by value: copies taken when computed), and
        returned as a copy (a handed-out observation never changes afterwards)."""
        opp = 1 - seat
        tables, with_empty = self._type_tables(st.ctype)
        work = memo.work
        hide_field = st.hidden_setup
        field = st.field
        field_key = memo.field
        if field_key is None or field_key[0] != hide_field or field_key[1] != field:
            self._field_rows(work, st, seat, hide_field, with_empty)
            memo.field = (hide_field, [list(field[0]), list(field[1])])
            field_key = None  # changed: the Field status below is recomputed too
        # the per-card flags are compared once for both seats (they change on few decisions)
        up, blighted, frozen, facedown, shown = st.up, st.blighted, st.frozen, st.facedown, st.shown
        soul_flags = memo.soul_flags
        soul_flags_same = (soul_flags is not None and soul_flags[0] == up and soul_flags[1] == blighted
                           and soul_flags[2] == shown)
        if not soul_flags_same:
            memo.soul_flags = (list(up), list(blighted), list(shown))
        void_flags = memo.void_flags
        void_flags_same = (void_flags is not None and void_flags[0] == frozen and void_flags[1] == facedown
                           and void_flags[2] == shown)
        if not void_flags_same:
            memo.void_flags = (list(frozen), list(facedown), list(shown))
        souls_same = field_key is not None and soul_flags_same
        for k, p in enumerate((seat, opp)):
            souls = st.souls[p]
            if not soul_flags_same or memo.souls[k] != souls:
                self._soul_rows(work, st, p, k, p == seat)
                memo.souls[k] = [list(souls[0]), list(souls[1])]
                souls_same = False
            void = st.void[p]
            if not void_flags_same or memo.void[k] != void:
                self._void_rows(work, st, p, k, p == seat)
                memo.void[k] = list(void)
        tops = (st.known_top[seat], st.known_top[opp])
        if memo.tops != tops:
            self._top_rows(work, st, seat, with_empty)
            memo.tops = tops
        # the Field status reads the Field and Souls (compared above) and these
        act = st.active
        status = (st.round, st.tier, st.round_stage, st.counted, NO if act is None else act.yid)
        status_key = memo.status
        if (not souls_same or status_key is None or status_key[0] != status or status_key[1] != st.slowed
                or status_key[2] != st.turn_round or status_key[3] != st.shields or status_key[4] != st.relics):
            self._field_status(work, st, seat, hide_field)
            memo.status = (status, list(st.slowed), list(st.turn_round), [[list(x) for x in p] for p in st.shields],
                           [[list(x) for x in p] for p in st.relics])
        n, at = self.n_types, self.zones_at
        hand = st.hand[seat]
        if memo.hand != hand:
            self._thirds(work, at, tables, [hand])
            memo.hand = list(hand)
        deck = st.deck[seat]
        if memo.deck != deck:
            self._thirds(work, at + n, tables, [deck])
            memo.deck = list(deck)
        zones = self._other_zones(st, seat)
        if memo.zones != zones:
            self._thirds(work, at + 2 * n, tables, zones)
            memo.zones = [list(zone) for zone in zones]
        bound = st.deck_bound[opp]
        known = (st.pub_hand[seat], st.pub_hand[opp], st.pub_deck[opp], bound, st.pub_burned[opp], len(st.deck[opp]),
                 st.burned[opp])
        if memo.known != known:
            self._known(work, st, seat)
            memo.known = (dict(known[0]), dict(known[1]), dict(known[2]), None if bound is None else dict(bound),
                          dict(known[4]), known[5], list(known[6]))
        self._tail(work, st, seat)
        return work.copy()

    # Each block writer below fills its own part of ``out`` whole (nothing of a previous
    # observation may survive in a work array).
    def _field_rows(self, out: np.ndarray, st: State, seat: int, hide_field: bool, with_empty: list[int]) -> None:
        """The four Field card slots (``with_empty[NO]``, the last entry, is the empty slot's row)."""
        field = st.field
        ids = list(map(with_empty.__getitem__, field[seat]))
        if hide_field:
            E, H = self.EMPTY, self.HIDDEN
            ids += [E if y == NO else H for y in field[1 - seat]]
        else:
            ids += map(with_empty.__getitem__, field[1 - seat])
        self._rows(out, 0, ids)

    def _soul_rows(self, out: np.ndarray, st: State, p: int, k: int, see_all: bool) -> None:
        """Seat ``p``'s Soul slots (``k`` 0: the observer's, 1: the opponent's) and their flags
        (face-up, Blighted)."""
        ctype, up, blighted, shown = st.ctype, st.up, st.blighted, st.shown
        H, pads = self.HIDDEN, self.empty_pads
        ids: list[int] = []
        flags: list[int] = []
        for souls in st.souls[p]:
            if souls:
                ids += map(ctype.__getitem__, souls) if see_all else [
                    ctype[c] if up[c] or shown[c] else H for c in souls]
                for c in souls:
                    flags += (up[c], blighted[c])
            pad = MAX_SOULS - len(souls)
            ids += pads[pad]
            flags += ZERO_FLAGS[pad]
        self._rows(out, 4 + 2 * MAX_SOULS * k, ids)
        at = self.soul_status_at + 2 * MAX_SOULS * SOUL_EXTRA * k
        out[at:at + len(flags)] = flags

    def _void_rows(self, out: np.ndarray, st: State, p: int, k: int, see_all: bool) -> None:
        """Seat ``p``'s Void slots and their flags (Frozen, face-down)."""
        ctype, frozen, fd, shown = st.ctype, st.frozen, st.facedown, st.shown
        void = st.void[p]
        ids: list[int] = []
        flags: list[int] = []
        if void:
            ids += map(ctype.__getitem__, void) if see_all else [
                self.HIDDEN if fd[c] and not shown[c] else ctype[c] for c in void]
            for c in void:
                flags += (frozen[c], fd[c])
        pad = VOID_SLOTS - len(void)
        ids += self.empty_pads[pad]
        flags += ZERO_FLAGS[pad]
        self._rows(out, 4 + 4 * MAX_SOULS + VOID_SLOTS * k, ids)
        at = self.void_status_at + VOID_SLOTS * VOID_EXTRA * k
        out[at:at + len(flags)] = flags

    def _top_rows(self, out: np.ndarray, st: State, seat: int, with_empty: list[int]) -> None:
        self._rows(out, 4 + 4 * MAX_SOULS + 2 * VOID_SLOTS,
                   [with_empty[st.known_top[seat]], with_empty[st.known_top[1 - seat]]])

    def _rows(self, out: np.ndarray, first: int, ids: list[int]) -> None:
        """Feature rows ``ids`` into card slots ``first``.. (one take)."""
        w = self.width
        at = first * w
        # mode="clip": numpy buffers ``out`` in the default mode; the ids are all in range
        self.features.take(ids, axis=0, out=out[at:at + len(ids) * w].reshape(len(ids), w), mode="clip")

    def _field_status(self, out: np.ndarray, st: State, seat: int, hide_field: bool) -> None:
        """Per Field Yokai: Speed, face-up and face-down Souls, Shields, Attached, Slowed,
        Blighted, took its Turn, is acting, still to act."""
        up, blighted = st.up, st.blighted
        field, all_souls = st.field, st.souls
        fields: list[float] = []
        act = st.active
        act_y = act.yid if act is not None else NO
        rnd = st.round
        tier = st.tier
        # as State.still_to_act, inlined: not acted, and counted at this tier or its tier to come
        turns = st.round_stage == RoundStage.TURNS
        counted = st.counted
        slowed, c_speed, turn_round = st.slowed, st.c_speed, st.turn_round
        for p in (seat, 1 - seat):
            if hide_field and p != seat:
                fields += ZERO_FIELD
                fields += ZERO_FIELD
                continue
            for s, y in enumerate(field[p]):
                if y == NO:
                    fields += ZERO_FIELD
                    continue
                souls = all_souls[p][s]
                n_up = sum(map(up.__getitem__, souls))
                speed = 1 if slowed[y] else c_speed[y]  # State.field_speed, inlined
                acted = turn_round[y] == rnd
                still = turns and not acted and (tier >= BIG_TIER or speed < tier or y in counted)
                fields += [TENTHS_TO_10[speed], FIFTHS[n_up], FIFTHS[len(souls) - n_up],
                           FIFTHS_TO_5[len(st.shields[p][s])], QUARTERS_TO_4[len(st.relics[p][s])],
                           float(slowed[y]), FIFTHS[sum(map(blighted.__getitem__, souls))],
                           1.0 if acted else 0.0, 1.0 if act_y == y else 0.0, 1.0 if still else 0.0]
        at = self.field_status_at
        out[at:at + len(fields)] = fields

    @staticmethod
    def _other_zones(st: State, seat: int) -> list[list[int]]:
        """The counted zones after the observer's hand and deck, in layout order."""
        opp = 1 - seat
        relics, shields, shown = st.relics, st.shields, st.shown
        return [st.limbo[seat], st.limbo[opp], st.grave[seat], st.grave[opp], st.burned[seat], st.exile,
                shields[seat][0], shields[seat][1], relics[seat][0], relics[seat][1], relics[opp][0],
                relics[opp][1], [c for c in shields[opp][0] if shown[c]], [c for c in shields[opp][1] if shown[c]]]

    def _thirds(self, out: np.ndarray, at: int, tables: list[list[int]], zones: list[list[int]]) -> None:
        """Per-type counts/3 of ``zones`` into ``out[at:]``, back to back (one bincount)."""
        # mapping a zone through the k-th table (a C-level loop) is most of the saving over a
        # comprehension computing ctype[c] + k * n
        idx: list[int] = []
        for table, zone in zip(tables, zones):
            if zone:
                idx += map(table.__getitem__, zone)
        write_thirds(out, at, idx, self.n_types * len(zones))

    def _known(self, out: np.ndarray, st: State, seat: int) -> None:
        """Cards everyone knows to be in hidden places, per type /3 (among the opponent's Burned
        cards: its own known ones and the observer's cards it Burned, R14)."""
        opp = 1 - seat
        bound = st.deck_bound[opp]
        burned = dict(st.pub_burned[opp])
        for c in st.burned[opp]:
            if c // CARDS_PER_SEAT == seat:
                burned[st.ctype[c]] = burned.get(st.ctype[c], 0) + 1
        known = (st.pub_hand[seat], st.pub_hand[opp], st.known_in_deck(opp) if bound else st.pub_deck[opp],
                 bound or {}, burned)
        n = self.n_types
        idx: list[int] = []
        base = 0
        for d in known:
            for t, k in d.items():
                idx += [base + t] * min(k, 3)
            base += n
        write_thirds(out, self.known_at, idx, base)

    def _tail(self, out: np.ndarray, st: State, seat: int) -> None:
        """The globals and the decision block."""
        opp = 1 - seat
        tier = st.tier
        c_souls = st.c_souls
        hand, deck, limbo, burned, grave = st.hand, st.deck, st.limbo, st.burned, st.grave
        at = self.globals_at
        out[at:at + GLOBALS] = [
            TENTHS_TO_10[len(hand[seat])], TENTHS_TO_10[len(hand[opp])], FORTIETHS[len(deck[seat])],
            FORTIETHS[len(deck[opp])], FORTIETHS[len(limbo[seat])], FORTIETHS[len(limbo[opp])],
            min(sum(map(c_souls.__getitem__, grave[seat])) + len(burned[seat]), 13) / 13,
            min(sum(map(c_souls.__getitem__, grave[opp])) + len(burned[opp]), 13) / 13,
            THIRTEENTHS_TO_13[len(burned[seat])], THIRTEENTHS_TO_13[len(burned[opp])],
            min(st.round, 30) / 30, 0.0 if tier >= BIG_TIER else min(tier, 10) * 0.1,
            1.0 if st.last_turn == seat else 0.0, 1.0 if st.hidden_setup else 0.0,
            0.0 if st.deck_bound[opp] is None else 1.0]
        self._context(out, at + GLOBALS, st, seat)

    @staticmethod
    def _context(out: np.ndarray, at: int, st: State, seat: int) -> None:
        """What is being decided (the ``decision`` block from ``at``): phase, whether ``seat``
        decides, amounts left, payment, focus, verb. Mostly zeros: cleared, then set entry by entry."""
        ctx = out[at:at + CONTEXT]
        ctx[:] = 0.0
        if st.pending is None:
            return
        task = st.stack[-1]
        kind = task.decision
        if kind is None:  # a decision of no known kind (e.st. a test's halt): no phase bit
            return
        ctx[kind] = 1.0
        off = len(Decision)
        if st.decider == seat:
            ctx[off] = 1.0
        off += 1
        focus: tuple[int, int] | None = None  # (seat, slot) of the Yokai being decided about
        if isinstance(task, Damage):
            ctx[off] = min(task.left, 10) / 10
            ctx[off + 1] = float(task.brk)
            focus = (task.p, task.s)
        elif isinstance(task, Pick):
            ctx[off + 2] = min(task.left, 4) / 4
            # stage 1 keeps the first choice in ``target``: a Field slot (Blight, Uproot) or, for
            # Swap, a Void position (its own bits at the end of the block)
            if task.stage and task.verb != PickVerb.SWAP:
                focus = (1 - task.seat if task.verb == PickVerb.BLIGHT else task.seat, task.target)
        elif isinstance(task, Pay):
            unpaid = [0.0] * len(ELEMENTS)
            for e in task.elems:  # summed as doubles, then stored (as the block always was)
                unpaid[e] += 1 / 3
            ctx[off + 3:off + 3 + len(ELEMENTS)] = unpaid
            ctx[off + 3 + len(ELEMENTS)] = min(task.generic, 3) / 3
            ctx[off + 4 + len(ELEMENTS)] = float(task.pair)
            ctx[off + 5 + len(ELEMENTS)] = float(task.ally != NO)
        off += 3 + len(ELEMENTS) + 3
        if focus is not None:
            p, s = focus
            ctx[off + (0 if p == seat else 2) + s] = 1.0
        off += 4
        if isinstance(task, Pick):
            ctx[off + PICK_VERBS.index(task.verb)] = 1.0
            if task.stage and task.verb == PickVerb.SWAP:
                ctx[off + len(PICK_VERBS) + task.target] = 1.0


_OBSERVERS: dict[int, Observer] = {}


def observer_for(pool: Pool) -> Observer:
    """One shared observer (feature table) per card pool object."""
    obs = _OBSERVERS.get(id(pool))
    if obs is None:
        obs = _OBSERVERS[id(pool)] = Observer(pool)
    return obs


# ------------------------------------------------------------------ what a seat cannot see
def hidden_places(st: State, seat: int) -> list[tuple[list[int], int]]:
    """Positions (zone list, index) holding cards of the opponent that ``seat`` cannot see."""
    opp = 1 - seat
    places: list[tuple[list[int], int]] = []
    places += [(st.hand[opp], i) for i in range(len(st.hand[opp]))]
    deck = st.deck[opp]
    top_known = st.known_top[opp] != NO
    places += [(deck, i) for i in range(len(deck) - (1 if top_known else 0))]
    # the observer's own cards the opponent Burned are known to it (R14); face-down cards
    # announced by name stay where they are (``shown``, R33)
    burned = st.burned[opp]
    places += [(burned, i) for i in range(len(burned)) if burned[i] // CARDS_PER_SEAT == opp]
    shown = st.shown
    for s in (0, 1):
        souls = st.souls[opp][s]
        places += [(souls, i) for i in range(len(souls)) if not st.up[souls[i]] and not shown[souls[i]]]
        shields = st.shields[opp][s]
        places += [(shields, i) for i in range(len(shields)) if not shown[shields[i]]]
    void = st.void[opp]
    places += [(void, i) for i in range(len(void)) if st.facedown[void[i]] and not shown[void[i]]]
    if st.hidden_setup:
        places += [(st.field[opp], s) for s in (0, 1) if st.field[opp][s] != NO]
    return places


def resample_hidden(st: State, seat: int, rng: np.random.Generator) -> None:
    """In place: deal the opponent's unseen cards anew over its hidden places (their flags stay with
    the place), keeping every publicly known card in its zone (hand, deck, Burned), and shuffle the
    unknown part of ``seat``'s own deck."""
    places = hidden_places(st, seat)
    if places:
        opp = 1 - seat
        # which cards in the opponent's hand took a Turn this Round (everyone saw them Return): the
        # mark goes with the card type dealt there, not with the card that had it (R12)
        rnd, turn_round = st.round, st.turn_round
        acted: dict[int, int] = {}
        for c in st.hand[opp]:
            if turn_round[c] == rnd:
                acted[st.ctype[c]] = acted.get(st.ctype[c], 0) + 1
        # sorted first: the sample depends only on what the seat knows, not the real order
        cards = sorted(zone[i] for zone, i in places)
        pool = [cards[k] for k in rng.permutation(len(cards))]
        flags = [(st.blighted[zone[i]], st.frozen[zone[i]], st.facedown[zone[i]]) for zone, i in places]
        deal: list[int] = [NO] * len(places)
        top = st.known_top[opp]
        ctype = st.ctype
        deck_slots: list[int] = []
        for zone, known in ((st.hand[opp], st.pub_hand[opp]), (st.deck[opp], st.known_in_deck(opp)),
                            (st.burned[opp], st.pub_burned[opp])):
            need = dict(known)
            if zone is st.deck[opp] and top != NO:
                need[ctype[top]] = need.get(ctype[top], 0) - 1  # the known top keeps its place
            slots = [j for j, (z, _) in enumerate(places) if z is zone]
            rng.shuffle(slots)
            for t, k in sorted(need.items()):
                for _ in range(k):
                    j = next(j for j, c in enumerate(pool) if ctype[c] == t)
                    deal[slots.pop()] = pool.pop(j)
            if zone is st.deck[opp]:
                deck_slots = slots
        bound = st.deck_bound[opp]
        if bound is not None and deck_slots:  # the rest of the deck only from the reshuffled Limbo
            room = dict(bound)
            for j, (z, _) in enumerate(places):
                if z is st.deck[opp] and deal[j] != NO:
                    room[ctype[deal[j]]] -= 1
            if top != NO:
                room[ctype[top]] -= 1
            for slot in deck_slots:
                j = next(j for j, c in enumerate(pool) if room.get(ctype[c], 0) > 0)
                room[ctype[pool[j]]] -= 1
                deal[slot] = pool.pop(j)
        for j in range(len(places)):
            if deal[j] == NO:
                deal[j] = pool.pop()
        for (zone, i), c, (bl, fr, fd) in zip(places, deal, flags):
            zone[i] = c
            st.blighted[c], st.frozen[c], st.facedown[c] = bl, fr, fd
            if turn_round[c] == rnd:
                turn_round[c] = 0
        for c in st.hand[opp]:
            if acted.get(ctype[c], 0):
                acted[ctype[c]] -= 1
                turn_round[c] = rnd
    own = st.deck[seat]
    n = len(own) - (1 if st.known_top[seat] != NO else 0)
    if n > 1:
        head = sorted(own[:n])
        rng.shuffle(head)
        own[:n] = head


# ------------------------------------------------------------------ what a seat knows is hidden where
def known_placements(st: State, seat: int) -> list[tuple[Any, ...]]:
    """``(zone, owner, card type, at least)`` for the hidden cards ``seat`` knows: its own hand and
    deck, and the opponent's publicly known hand, deck and Burned cards; ``("top", owner, type)``
    for a deck's known top card."""
    facts: list[tuple[Any, ...]] = []
    for zone in ("hand", "deck"):
        counts: dict[int, int] = {}
        for c in getattr(st, zone)[seat]:
            counts[st.ctype[c]] = counts.get(st.ctype[c], 0) + 1
        facts += [(zone, seat, t, k) for t, k in sorted(counts.items())]
    opp = 1 - seat
    for zone, known in (("hand", st.pub_hand[opp]), ("deck", st.known_in_deck(opp)), ("burned", st.pub_burned[opp])):
        facts += [(zone, opp, t, k) for t, k in sorted(known.items())]
    bound = st.deck_bound[opp]
    if bound is not None:
        facts.append(("deck_within", opp, tuple(sorted(bound.items()))))
    facts += [("top", p, st.ctype[st.known_top[p]]) for p in (0, 1) if st.known_top[p] != NO]
    # face-down cards announced by name (R33): ("at", zone, owner, slot, position, type)
    shown, ctype = st.shown, st.ctype
    for p in (0, 1):
        for s in (0, 1):
            for zone in ("souls", "shields"):
                cards = getattr(st, zone)[p][s]
                facts += [("at", zone, p, s, i, ctype[c]) for i, c in enumerate(cards) if shown[c] and not st.up[c]]
        facts += [("at", "void", p, NO, i, ctype[c]) for i, c in enumerate(st.void[p]) if shown[c] and st.facedown[c]]
    return facts


def placement_holds(st: State, fact: tuple[Any, ...]) -> bool:
    if fact[0] == "at":
        _, zone, p, s, i, t = fact
        cards = st.void[p] if zone == "void" else getattr(st, zone)[p][s]
        return i < len(cards) and st.ctype[cards[i]] == t
    if fact[0] == "top":
        _, p, t = fact
        return bool(st.deck[p]) and st.ctype[st.deck[p][-1]] == t
    if fact[0] == "deck_within":
        _, p, bound = fact
        room = dict(bound)
        for c in st.deck[p]:
            room[st.ctype[c]] = room.get(st.ctype[c], 0) - 1
        return min(room.values(), default=0) >= 0
    zone, p, t, k = fact
    return sum(st.ctype[c] == t for c in getattr(st, zone)[p]) >= k
