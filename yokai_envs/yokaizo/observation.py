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
    Table,
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
MAX_ZONES = 17  # zones counted by ``encode`` (14, and 3 more in the state tensor)
CONTEXT = len(Decision) + 1 + 3 + len(ELEMENTS) + 3 + 4 + len(PICK_VERBS) + VOID_SLOTS


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
            ("my_shield_counts", 2 * n), ("attached_counts", 4 * n), ("opp_decklist_counts", n),
            ("my_public_hand_counts", n), ("opp_public_hand_counts", n), ("opp_public_deck_counts", n),
            ("opp_deck_bound_counts", n), ("opp_public_burned_counts", n),
            ("globals", GLOBALS), ("decision", CONTEXT),
        ])
        self.size = layout_size(self.layout)
        self.private_size = 3 * n  # state_tensor adds the opponent's hand, deck and Burned counts
        self.deck_counts: dict[tuple[int, ...], np.ndarray] = {}
        self._tables: dict[int, tuple[list[int], list[list[int]], list[int]]] = {}

    def counts(self, tables: list[list[int]], zones: list[list[int]],
               known: tuple[dict[int, int], ...] = ()) -> np.ndarray:
        """Per-type counts/3 of several zones, then of ``known`` (type -> count dicts), concatenated
        (one bincount for all). ``tables``: the game's from ``_type_tables``."""
        n = self.n_types
        # mapping a zone through the k-th table (a C-level loop) is most of the saving over a
        # comprehension computing ctype[c] + k * n
        idx: list[int] = []
        for table, zone in zip(tables, zones):
            if zone:
                idx += map(table.__getitem__, zone)
        base = len(zones) * n
        for d in known:
            for t, k in d.items():
                idx += [base + t] * min(k, 3)
            base += n
        size = n * (len(zones) + len(known))
        if not idx:
            return np.zeros(size, dtype=np.float32)
        return THIRDS.take(np.bincount(idx, minlength=size))

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

    def public(self, known: list[dict[int, int]]) -> np.ndarray:
        """Per-type counts/3 of publicly known cards (type -> count dicts), concatenated."""
        n = self.n_types
        out = np.zeros(n * len(known), dtype=np.float32)
        for k, counts in enumerate(known):
            for t, c in counts.items():
                out[k * n + t] = min(c, 3) / 3
        return out

    def decklist(self, deck: tuple[int, ...]) -> np.ndarray:
        out = self.deck_counts.get(deck)
        if out is None:
            out = np.minimum(np.bincount(deck, minlength=self.n_types), 3).astype(np.float32) / 3
            self.deck_counts[deck] = out
        return out

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every observation entry: all in [0, 1]."""
        return layout_bounds(self.layout)

    def encode(self, g: Table, seat: int, omniscient: bool = False) -> np.ndarray:
        """The observation of ``seat``; ``omniscient``: the state tensor (nothing hidden, plus the
        opponent's hand, deck and Burned counts at the end)."""
        # Hot path (every env step): card slots become row ids of the feature table (one take),
        # the per-slot flags one list (one assignment), zones one bincount (``counts``). Card
        # lists are mapped through per-game lookup lists rather than looped over in Python.
        opp = 1 - seat
        ctype, up, fd, blighted, frozen = g.ctype, g.up, g.facedown, g.blighted, g.frozen
        type_of = ctype.__getitem__
        E, H = self.EMPTY, self.HIDDEN
        EMPTY_PADS = self.empty_pads
        hide_field = g.hidden_setup and not omniscient
        field, all_souls = g.field, g.souls
        ids: list[int] = []
        # per card slot, two flags: soul (face-up, Blighted), void (Frozen, face-down)
        flags: list[float] = []
        # ``with_empty[NO]`` (the last entry) is the empty slot's row
        tables, with_empty = self._type_tables(ctype)
        ids += map(with_empty.__getitem__, field[seat])
        if hide_field:
            ids += [E if y == NO else H for y in field[opp]]
        else:
            ids += map(with_empty.__getitem__, field[opp])
        for p in (seat, opp):
            see_all = p == seat or omniscient
            for souls in all_souls[p]:
                if souls:
                    ids += map(type_of, souls) if see_all else [ctype[c] if up[c] else H for c in souls]
                    for c in souls:
                        flags += (up[c], blighted[c])
                pad = MAX_SOULS - len(souls)
                ids += EMPTY_PADS[pad]
                flags += ZERO_FLAGS[pad]
        for p in (seat, opp):
            void = g.void[p]
            if void:
                if p == seat or omniscient:
                    ids += map(type_of, void)
                else:
                    ids += [H if fd[c] else ctype[c] for c in void]
                for c in void:
                    flags += (frozen[c], fd[c])
            pad = VOID_SLOTS - len(void)
            ids += EMPTY_PADS[pad]
            flags += ZERO_FLAGS[pad]
        ids += map(with_empty.__getitem__, (g.known_top[seat], g.known_top[opp]))

        fields: list[float] = []
        act = g.active
        act_y = act.yid if act is not None else NO
        rnd = g.round
        tier = g.tier
        # as Table.still_to_act, inlined: not acted, and counted at this tier or its tier to come
        turns = g.round_stage == RoundStage.TURNS
        counted = g.counted
        for p in (seat, opp):
            for s in (0, 1):
                y = field[p][s]
                if y == NO or (hide_field and p != seat):
                    fields += ZERO_FIELD
                    continue
                souls = all_souls[p][s]
                n_up = sum(map(up.__getitem__, souls))
                speed = 1 if g.slowed[y] else g.c_speed[y]  # Table.field_speed, inlined
                acted = g.turn_round[y] == rnd
                still = turns and not acted and (tier >= BIG_TIER or speed < tier or y in counted)
                fields += [min(speed, 10) * 0.1, n_up * 0.2, (len(souls) - n_up) * 0.2,
                           min(len(g.shields[p][s]), 5) * 0.2, min(len(g.relics[p][s]), 4) * 0.25,
                           float(g.slowed[y]), sum(map(blighted.__getitem__, souls)) * 0.2,
                           1.0 if acted else 0.0, 1.0 if act_y == y else 0.0, 1.0 if still else 0.0]
        fields += flags
        relics = g.relics
        zones = [g.hand[seat], g.deck[seat], g.limbo[seat], g.limbo[opp], g.grave[seat], g.grave[opp],
                 g.burned[seat], g.exile, g.shields[seat][0], g.shields[seat][1],
                 relics[seat][0], relics[seat][1], relics[opp][0], relics[opp][1]]
        if omniscient:
            zones += [g.hand[opp], g.deck[opp], g.burned[opp]]
        bound = g.deck_bound[opp]
        known = (g.pub_hand[seat], g.pub_hand[opp], g.known_in_deck(opp) if bound else g.pub_deck[opp],
                 bound or {}, g.pub_burned[opp])
        counts = self.counts(tables, zones, known)
        c_souls = g.c_souls
        grave_souls = [sum(map(c_souls.__getitem__, g.grave[p])) + len(g.burned[p]) for p in (seat, opp)]
        tail = [min(len(g.hand[seat]), 10) * 0.1, min(len(g.hand[opp]), 10) * 0.1, len(g.deck[seat]) / 40,
                len(g.deck[opp]) / 40, len(g.limbo[seat]) / 40, len(g.limbo[opp]) / 40,
                min(grave_souls[0], 13) / 13, min(grave_souls[1], 13) / 13,
                min(len(g.burned[seat]), 13) / 13, min(len(g.burned[opp]), 13) / 13,
                min(rnd, 30) / 30, 0.0 if tier >= BIG_TIER else min(tier, 10) * 0.1,
                1.0 if g.last_turn == seat else 0.0, 1.0 if g.hidden_setup else 0.0,
                0.0 if g.deck_bound[opp] is None else 1.0]
        tail += self.context(g, seat)
        n = self.n_types
        k = 14 * n
        z = len(zones) * n  # the known-card counts follow the zones (and the omniscient ones)
        out = np.empty(self.size + (3 * n if omniscient else 0), dtype=np.float32)
        at = len(ids) * self.width
        # mode="clip": numpy buffers ``out`` in the default mode; the ids are all in range
        np.take(self.features, ids, axis=0, out=out[:at].reshape(len(ids), self.width), mode="clip")
        out[at:at + len(fields)] = fields  # field status, then the soul and void flags
        at += len(fields)
        out[at:at + k] = counts[:k]
        at += k
        out[at:at + n] = self.decklist(g.deck_types[opp])
        at += n
        out[at:at + 5 * n] = counts[z:]
        at += 5 * n
        out[at:at + len(tail)] = tail
        at += len(tail)
        if omniscient:
            out[at:] = counts[k:z]
        return out

    def context(self, g: Table, seat: int) -> list[float]:
        """What is being decided: phase, whether ``seat`` decides, amounts left, payment, focus, verb."""
        ctx = [0.0] * CONTEXT
        if g.pending is None:
            return ctx
        task = g.stack[-1]
        kind = task.decision
        if kind is None:  # a decision of no known kind (e.g. a test's halt): no phase bit
            return ctx
        ctx[kind] = 1.0
        off = len(Decision)
        ctx[off] = float(g.decider == seat)
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
            for e in task.elems:
                ctx[off + 3 + e] += 1 / 3
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
        return ctx


_OBSERVERS: dict[int, Observer] = {}


def observer_for(pool: Pool) -> Observer:
    """One shared observer (feature table) per card pool object."""
    obs = _OBSERVERS.get(id(pool))
    if obs is None:
        obs = _OBSERVERS[id(pool)] = Observer(pool)
    return obs


# ------------------------------------------------------------------ what a seat cannot see
def hidden_places(g: Table, seat: int) -> list[tuple[list[int], int]]:
    """Positions (zone list, index) holding cards of the opponent that ``seat`` cannot see."""
    opp = 1 - seat
    places: list[tuple[list[int], int]] = []
    places += [(g.hand[opp], i) for i in range(len(g.hand[opp]))]
    deck = g.deck[opp]
    top_known = g.known_top[opp] != NO
    places += [(deck, i) for i in range(len(deck) - (1 if top_known else 0))]
    places += [(g.burned[opp], i) for i in range(len(g.burned[opp]))]
    for s in (0, 1):
        souls = g.souls[opp][s]
        places += [(souls, i) for i in range(len(souls)) if not g.up[souls[i]]]
        places += [(g.shields[opp][s], i) for i in range(len(g.shields[opp][s]))]
    void = g.void[opp]
    places += [(void, i) for i in range(len(void)) if g.facedown[void[i]]]
    if g.hidden_setup:
        places += [(g.field[opp], s) for s in (0, 1) if g.field[opp][s] != NO]
    return places


def resample_hidden(g: Table, seat: int, rng: np.random.Generator) -> None:
    """In place: deal the opponent's unseen cards anew over its hidden places (their flags stay with
    the place), keeping every publicly known card in its zone (hand, deck, Burned), and shuffle the
    unknown part of ``seat``'s own deck."""
    places = hidden_places(g, seat)
    if places:
        opp = 1 - seat
        # sorted first: the sample depends only on what the seat knows, not the real order
        cards = sorted(zone[i] for zone, i in places)
        pool = [cards[k] for k in rng.permutation(len(cards))]
        flags = [(g.blighted[zone[i]], g.frozen[zone[i]], g.facedown[zone[i]]) for zone, i in places]
        deal: list[int] = [NO] * len(places)
        top = g.known_top[opp]
        ctype = g.ctype
        deck_slots: list[int] = []
        for zone, known in ((g.hand[opp], g.pub_hand[opp]), (g.deck[opp], g.known_in_deck(opp)),
                            (g.burned[opp], g.pub_burned[opp])):
            need = dict(known)
            if zone is g.deck[opp] and top != NO:
                need[ctype[top]] = need.get(ctype[top], 0) - 1  # the known top keeps its place
            slots = [j for j, (z, _) in enumerate(places) if z is zone]
            rng.shuffle(slots)
            for t, k in sorted(need.items()):
                for _ in range(k):
                    j = next(j for j, c in enumerate(pool) if ctype[c] == t)
                    deal[slots.pop()] = pool.pop(j)
            if zone is g.deck[opp]:
                deck_slots = slots
        bound = g.deck_bound[opp]
        if bound is not None and deck_slots:  # the rest of the deck only from the reshuffled Limbo
            room = dict(bound)
            for j, (z, _) in enumerate(places):
                if z is g.deck[opp] and deal[j] != NO:
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
            g.blighted[c], g.frozen[c], g.facedown[c] = bl, fr, fd
    own = g.deck[seat]
    n = len(own) - (1 if g.known_top[seat] != NO else 0)
    if n > 1:
        head = sorted(own[:n])
        rng.shuffle(head)
        own[:n] = head


# ------------------------------------------------------------------ what a seat knows is hidden where
def known_placements(g: Table, seat: int) -> list[tuple[Any, ...]]:
    """``(zone, owner, card type, at least)`` for the hidden cards ``seat`` knows: its own hand and
    deck, and the opponent's publicly known hand, deck and Burned cards; ``("top", owner, type)``
    for a deck's known top card."""
    facts: list[tuple[Any, ...]] = []
    for zone in ("hand", "deck"):
        counts: dict[int, int] = {}
        for c in getattr(g, zone)[seat]:
            counts[g.ctype[c]] = counts.get(g.ctype[c], 0) + 1
        facts += [(zone, seat, t, k) for t, k in sorted(counts.items())]
    opp = 1 - seat
    for zone, known in (("hand", g.pub_hand[opp]), ("deck", g.known_in_deck(opp)), ("burned", g.pub_burned[opp])):
        facts += [(zone, opp, t, k) for t, k in sorted(known.items())]
    bound = g.deck_bound[opp]
    if bound is not None:
        facts.append(("deck_within", opp, tuple(sorted(bound.items()))))
    facts += [("top", p, g.ctype[g.known_top[p]]) for p in (0, 1) if g.known_top[p] != NO]
    return facts


def placement_holds(g: Table, fact: tuple[Any, ...]) -> bool:
    if fact[0] == "top":
        _, p, t = fact
        return bool(g.deck[p]) and g.ctype[g.deck[p][-1]] == t
    if fact[0] == "deck_within":
        _, p, bound = fact
        room = dict(bound)
        for c in g.deck[p]:
            room[g.ctype[c]] = room.get(g.ctype[c], 0) - 1
        return min(room.values(), default=0) >= 0
    zone, p, t, k = fact
    return sum(g.ctype[c] == t for c in getattr(g, zone)[p]) >= k
