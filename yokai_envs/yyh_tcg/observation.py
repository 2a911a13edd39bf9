"""Observation: a seat's information set as named float32 blocks in [0, 1] (the layout is
``Observer.layout``, the game's ``observation_layout``), and the state tensor (both seats'
observations side by side).

Blocks (``C`` characters, ``A`` Techniques+Items, ``P`` all cards, ``T`` teams in the pool;
"my"/"opp" are relative to the observing seat):

* ``phase`` one-hot over the phases (``state.Phase``, in its order); ``scalars`` (see ``SCALARS``);
* ``my_bonus`` / ``opp_bonus``: one-hot of the team whose Team Bonus is active;
* ``my_hand``, ``my_deck`` (own deck contents, not order), ``my_discard``, ``opp_discard``:
  copies per card / 3; ``opp_shown`` / ``my_shown``: cards a search showed that are still hidden
  in that player's hand or face-down on its Sideline (which of the two, the other cannot tell);
  ``opp_unseen``: the opponent's decklist (public) less every card of it seen in a public place,
  i.e. its hand, deck, face-down cards and unrevealed picks as a multiset;
  ``my_hand_features``: the hand's printed features (``CARD_FEATURES``) summed / 10;
* ``my_won``/``my_lost``/``opp_won``/``opp_lost``: characters that left the field per match result;
* per side and slot (``fighter``, ``line1``..``line4`` in Sideline order): ``_char`` identity
  one-hot over C, ``_feat`` the character's printed features (``CHAR_FEATURES``), ``_face_up``
  face-up attachments per card / 3, ``_face_down`` number of face-down attachments / 5, and for
  my own slots only ``_face_down_cards`` (which cards they are);
* ``attack_choice``: the attack chosen this turn (printed attack 1, 2, or a Technique).

The opponent's picks are zero until the simultaneous reveal; the opponent's hand, deck and
face-down attachments appear only as counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from yokai_envs.core.layout import build_layout, layout_size, layout_starts
from yokai_envs.core.memo import check_fresh
from yokai_envs.yyh_tcg.cards import MAX_OWN_ATTACKS, CardPool, CardType, Timing
from yokai_envs.yyh_tcg.rules import attack_value, damage_now, defense_value
from yokai_envs.yyh_tcg.state import Phase, PlayerState

if TYPE_CHECKING:
    from yokai_envs.yyh_tcg.state import State

PHASES = tuple(Phase)
SCALARS = ("is_my_turn", "i_decide", "i_went_first", "revealed", "turn/60", "my_spirit/10", "opp_spirit/10",
           "my_wins/3", "opp_wins/3", "my_hand/20", "opp_hand/20", "my_deck/70", "opp_deck/70",
           "my_fifth_placed", "opp_fifth_placed", "my_guard/5", "opp_guard/5", "my_damage/4", "opp_damage/4",
           "my_defense/15", "opp_defense/15", "attack_value/25", "power/10", "weaken/10", "extra_damage/3",
           "pending_discard/3", "rage_used/3", "damage_now/4", "my_picks/4")
SLOT_NAMES = ("fighter", "line1", "line2", "line3", "line4")


def char_features(pool: CardPool) -> tuple[list[str], np.ndarray]:
    """Printed features of each character (rows in pool.characters order)."""
    names = ["defense/10", "hero", "villain", *[f"team:{t}" for t in pool.teams]]
    for i in range(MAX_OWN_ATTACKS):
        names += [f"attack{i + 1}_present", f"attack{i + 1}_value/15", f"attack{i + 1}_spirit/10",
                  f"attack{i + 1}_discard/3", f"attack{i + 1}_has_effect"]
    names += ["passive_attack/3", "passive_defense/3", "has_ability"]
    rows = np.zeros((len(pool.characters), len(names)), dtype=np.float32)
    for r, cid in enumerate(pool.characters):
        card = pool.cards[cid]
        row: list[float] = [card.defense / 10, card.alignment == "hero", card.alignment == "villain",
                            *[card.team == t for t in pool.teams]]
        for i in range(MAX_OWN_ATTACKS):
            if i < len(card.attacks):
                a = card.attacks[i]
                row += [1, a.value / 15, a.spirit / 10, a.discard / 3, bool(a.effects)]
            else:
                row += [0, 0, 0, 0, 0]
        row += [card.passive_value("attack_plus") / 3, card.passive_value("defense_plus") / 3,
                card.ability is not None]
        rows[r] = np.minimum(np.asarray(row, dtype=np.float32), 1.0)
    return names, rows


CARD_FEATURES = ("character", "technique", "item", "event", "attach_cost/5", "play_spirit/5", "attack_value/15",
                 "attack_spirit/5", "attack_discard/3", "passive_attack/3", "passive_defense/3", "has_ability",
                 "timing_draw", "timing_main", "timing_attack", "timing_use", "limit1")


def card_features(pool: CardPool) -> np.ndarray:
    """Printed features of every card (rows by card id), used to summarise the hand."""
    rows = np.zeros((len(pool), len(CARD_FEATURES)), dtype=np.float32)
    for card in pool.cards:
        attack = card.attacks[0] if card.type == CardType.TECHNIQUE else None
        timing = card.ability.timing if card.ability else card.timing if card.type == CardType.EVENT else None
        row = [card.type == CardType.CHARACTER, card.type == CardType.TECHNIQUE, card.type == CardType.ITEM,
               card.type == CardType.EVENT,
               card.cost / 5, (card.ability.spirit if card.ability else card.spirit) / 5,
               attack.value / 15 if attack else 0, attack.spirit / 5 if attack else 0,
               attack.discard / 3 if attack else 0, card.passive_value("attack_plus") / 3,
               card.passive_value("defense_plus") / 3, card.ability is not None,
               timing == Timing.DRAW, timing == Timing.MAIN, timing == Timing.ATTACK, timing == Timing.USE,
               card.limit1]
        rows[card.id] = np.minimum(np.asarray(row, dtype=np.float32), 1.0)
    return rows


#: copies (or 3 per flag) -> the entry: count / 3 in float32, capped at 1 (as the whole vector
#: always was: a bincount times float32(1/3), then a minimum)
CAPPED_THIRDS = np.minimum(np.arange(768).astype(np.float32) * np.float32(1 / 3), 1.0)
#: Tests set this: every observation is also computed from scratch and must equal the one
#: computed from the seat's memo.
CHECK_MEMO = False


class SeatMemo:
    """One seat's observation of one game as last computed (``work``, never handed out), and per
    block the inputs it was computed from (copies, by block name; missing: not computed yet)."""

    __slots__ = ("flags", "keys", "work")

    def __init__(self, size: int) -> None:
        self.work = np.zeros(size, dtype=np.float32)  # one-hot blocks are kept by their set entry
        self.keys: dict[str, Any] = {}
        self.flags: tuple[int | None, ...] = (None, None, None, None)


class SlotOffsets(NamedTuple):
    """Start offsets of one slot's blocks (``face_down_cards`` is -1 on the opponent's side)."""

    char: int
    feat: int
    face_up: int
    face_down: int
    face_down_cards: int


class Observer:
    """The observation of a card pool's games: its layout, and ``observe(state, seat, memos)``."""

    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        n_cards, n_chars, n_att, n_teams = len(pool), len(pool.characters), len(pool.attachables), len(pool.teams)
        self.feature_names, self.features = char_features(pool)
        self.card_table = card_features(pool)
        n_feat = self.features.shape[1]
        blocks: list[tuple[str, int]] = [("phase", len(PHASES)), ("scalars", len(SCALARS)),
                                         ("my_bonus", n_teams), ("opp_bonus", n_teams),
                                         ("my_hand", n_cards), ("my_hand_features", len(CARD_FEATURES)),
                                         ("my_deck", n_cards),
                                         ("my_discard", n_cards), ("opp_discard", n_cards),
                                         ("opp_shown", n_cards), ("my_shown", n_cards),
                                         ("opp_unseen", n_cards),
                                         ("my_won", n_chars), ("my_lost", n_chars),
                                         ("opp_won", n_chars), ("opp_lost", n_chars)]
        for side in ("my", "opp"):
            for slot in SLOT_NAMES:
                blocks += [(f"{side}_{slot}_char", n_chars), (f"{side}_{slot}_feat", n_feat),
                           (f"{side}_{slot}_face_up", n_att), (f"{side}_{slot}_face_down", 1)]
                if side == "my":
                    blocks.append((f"my_{slot}_face_down_cards", n_att))
        blocks.append(("attack_choice", MAX_OWN_ATTACKS + len(pool.techniques)))
        self.layout = build_layout(blocks)
        self.size = layout_size(self.layout)
        self.start = layout_starts(self.layout)
        self.char_index = {cid: i for i, cid in enumerate(pool.characters)}
        self.att_index = {cid: i for i, cid in enumerate(pool.attachables)}
        self.team_index = {t: i for i, t in enumerate(pool.teams)}
        self.tech_index = {cid: i for i, cid in enumerate(pool.techniques)}
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.n_cards = n_cards
        self._hand_rows: dict[tuple[int, ...], np.ndarray] = {}
        self.n_feat = n_feat
        # per side, per slot: the offsets of its blocks
        # per side and slot position: the span of its blocks (back to back, the opponent's
        # after the observer's, then attack_choice), and its key in a seat's memo
        starts = [self.start[f"{side}_{slot}_char"] for side in ("my", "opp") for slot in SLOT_NAMES]
        starts.append(self.start["attack_choice"])
        self.slot_spans = {side: [(starts[k * len(SLOT_NAMES) + i], starts[k * len(SLOT_NAMES) + i + 1])
                                  for i in range(len(SLOT_NAMES))] for k, side in enumerate(("my", "opp"))}
        self.slot_keys = {side: [f"{side}_{slot}" for slot in SLOT_NAMES] for side in ("my", "opp")}
        self.slot_offsets = {
            side: [SlotOffsets(self.start[f"{side}_{slot}_char"], self.start[f"{side}_{slot}_feat"],
                               self.start[f"{side}_{slot}_face_up"], self.start[f"{side}_{slot}_face_down"],
                               self.start.get(f"{side}_{slot}_face_down_cards", -1)) for slot in SLOT_NAMES]
            for side in ("my", "opp")}

    def new_memo(self) -> SeatMemo:
        """A seat's memo before anything was observed (``core.memo.seat_memos`` makes them)."""
        return SeatMemo(self.size)

    def observe(self, st: State, seat: int, memos: list[SeatMemo]) -> np.ndarray:
        """``seat``'s observation: computed into the seat's work array (``memos[seat]``, see
        :class:`SeatMemo`), recomputing only the blocks whose inputs differ from those it last
        saw, and handed out as a copy (an observation handed out never changes afterwards)."""
        memo = memos[seat]
        self._write_changed(memo, st, seat)
        out = memo.work.copy()
        if CHECK_MEMO:
            check_fresh(out, self._write_changed(SeatMemo(self.size), st, seat), self.layout, seat)
        return out

    def _write_changed(self, memo: SeatMemo, st: State, seat: int) -> np.ndarray:
        """Recompute into ``memo.work`` every block whose inputs (compared by value with copies
        kept in ``memo``) changed; a fresh memo computes them all. Returns the work array."""
        start = self.start
        work = memo.work
        me, opp = st.players[seat], st.players[1 - seat]
        show_opp = st.revealed
        keys = memo.keys
        # the one-hot entries set: the phase, both Team Bonuses (the opponent's hidden before the
        # reveal) and this turn's attack; a change clears the old entry and sets the new one
        ti = self.team_index
        flags = (start["phase"] + self.phase_index[st.phase],
                 None if me.bonus_team is None else start["my_bonus"] + ti[me.bonus_team],
                 None if opp.bonus_team is None or not show_opp else start["opp_bonus"] + ti[opp.bonus_team],
                 self._attack_choice(st))
        before = memo.flags
        if before != flags:
            for old, new in zip(before, flags):
                if old != new:
                    if old is not None:
                        work[old] = 0.0
                    if new is not None:
                        work[new] = 1.0
            memo.flags = flags
        hand = me.hand
        if keys.get("my_hand") != hand:
            keys["my_hand"] = hand[:]
            self._counts(work, start["my_hand"], self.n_cards, hand)
            f = start["my_hand_features"]
            if hand:
                np.minimum(self._hand_features(hand), 1.0, out=work[f:f + len(CARD_FEATURES)])
            else:
                work[f:f + len(CARD_FEATURES)] = 0.0
        for name, cards in (("my_deck", me.deck), ("my_discard", me.discard), ("opp_discard", opp.discard),
                            ("opp_shown", opp.shown), ("my_shown", me.shown)):
            if keys.get(name) != cards:
                keys[name] = cards[:]
                self._counts(work, start[name], self.n_cards, cards)
        my_field, opp_field = self._field_view(me), self._field_view(opp)
        # the opponent's decklist less what was seen: its deck, hand, face-down cards (and its
        # picks until the reveal)
        unseen_key = keys.get("opp_unseen")
        if (unseen_key is None or unseen_key[0] != show_opp or unseen_key[1] != opp.deck or unseen_key[2] != opp.hand
                or unseen_key[3] != opp_field):
            keys["opp_unseen"] = (show_opp, opp.deck[:], opp.hand[:], opp_field)
            unseen = opp.deck + opp.hand
            for char, attached in opp_field:
                if not show_opp:
                    unseen.append(char)
                unseen += [card for card, public in attached if not public]
            self._counts(work, start["opp_unseen"], self.n_cards, unseen)
        out_of_play = (me.won, me.lost, opp.won, opp.lost)
        if keys.get("out_of_play") != out_of_play:
            keys["out_of_play"] = tuple(cards[:] for cards in out_of_play)
            ci = self.char_index
            for name, cards in zip(("my_won", "my_lost", "opp_won", "opp_lost"), out_of_play):
                self._counts(work, start[name], len(ci), [ci[c] for c in cards] * 3)  # a flag counts 3 thirds
        for side, player, field, own in (("my", me, my_field, True), ("opp", opp, opp_field, False)):
            if not (own or show_opp):
                field = []  # the opponent's slots are empty until the reveal
            first = 0 if player.fighter is not None else 1  # the position of field[0]
            side_key = (first, field)
            if keys.get(side) == side_key:
                continue
            keys[side] = side_key
            for position, key in enumerate(self.slot_keys[side]):
                j = position - first
                content = field[j] if 0 <= j < len(field) else None
                if key not in keys or keys[key] != content:
                    keys[key] = content
                    self._slot(work, side, position, content, own)
        self._scalars(work, st, seat, me, opp, show_opp)
        return work

    @staticmethod
    def _counts(work: np.ndarray, at: int, size: int, idx: list[int]) -> None:
        """Copies per entry of ``idx`` / 3 (capped at 1) into ``work[at:at + size]``."""
        if idx:
            # mode="clip" writes straight into ``out`` (counts stay far below the table's end)
            CAPPED_THIRDS.take(np.bincount(idx, minlength=size), out=work[at:at + size], mode="clip")
        else:
            work[at:at + size] = 0.0

    @staticmethod
    def _field_view(player: PlayerState) -> list[tuple[int, list[tuple[int, bool]]]]:
        """What a side's slots show: (character, [(attached card, public)]), the fighter first."""
        view = []
        for slot in player.slots():
            attached = slot.attached
            # most characters carry nothing: no inner comprehension for them
            view.append((slot.char, [(a.card, a.face_up or a.turned) for a in attached] if attached else []))
        return view

    def _slot(self, work: np.ndarray, side: str, position: int, content: tuple[int, list[tuple[int, bool]]] | None,
              own: bool) -> None:
        """One slot's blocks, whole: the character one-hot and printed features, face-up cards per
        card / 3, the number of face-down cards / 5 and, on the observer's side, which they are.
        ``content``: (character, [(attached card, public)]), None for an empty slot."""
        begin, end = self.slot_spans[side][position]
        work[begin:end] = 0.0
        if content is None:
            return
        char_at, feat_at, up_at, down_at, down_cards_at = self.slot_offsets[side][position]
        char, attached = content
        row = self.char_index[char]
        work[char_at + row] = 1.0
        work[feat_at:feat_at + self.n_feat] = self.features[row]
        if not attached:
            return
        ai = self.att_index
        counts: dict[int, int] = {}
        down = 0
        for card, public in attached:  # a card turned up, awaiting payment, is public too
            if public:
                at = up_at + ai[card]
            else:
                down += 1
                if not own:
                    continue
                at = down_cards_at + ai[card]
            counts[at] = counts.get(at, 0) + 1
        for at, k in counts.items():
            work[at] = CAPPED_THIRDS[k]
        if down:
            work[down_at] = min(1.0, down / 5)

    def _attack_choice(self, st: State) -> int | None:
        """The entry of ``attack_choice`` set for this turn's attack (None: no attack chosen)."""
        if st.attack is None:
            return None
        at = self.start["attack_choice"]
        card = st.tables.cards[st.attack_card]
        if card.is_character:
            return at + card.attacks.index(st.attack)
        return at + MAX_OWN_ATTACKS + self.tech_index[st.attack_card]

    def _scalars(self, work: np.ndarray, st: State, seat: int, me: PlayerState, opp: PlayerState,
                 show_opp: bool) -> None:
        attacking = st.attack is not None
        my_def = defense_value(st, seat) if me.fighter is not None else 0
        opp_def = defense_value(st, 1 - seat) if (opp.fighter is not None and show_opp) else 0
        scalars: list[float] = [
            st.turn_player == seat and st.turn_number > 0, st.decider == seat,
            st.first_player == seat and show_opp, show_opp, st.turn_number / 60,
            me.spirit / 10, opp.spirit / 10, me.wins / 3, opp.wins / 3, len(me.hand) / 20,
            len(opp.hand) / 20, len(me.deck) / 70, len(opp.deck) / 70, me.fifth_placed, opp.fifth_placed,
            me.guard / 5, opp.guard / 5, me.fighter.damage / 4 if me.fighter else 0,
            opp.fighter.damage / 4 if (opp.fighter and show_opp) else 0, my_def / 15, opp_def / 15,
            attack_value(st) / 25 if attacking else 0, st.power / 10, st.weaken / 10,
            st.extra_damage / 3, st.pending_discard / 3, st.rage_used / 3,
            damage_now(st) / 4 if attacking else 0, len(me.slots()) / 4]
        at = self.start["scalars"]
        block = work[at:at + len(scalars)]
        block[:] = scalars
        np.minimum(block, 1.0, out=block)

    def _hand_features(self, hand: list[int]) -> np.ndarray:
        """The ``my_hand_features`` block of ``hand``, remembered by the hand (in order, so each is
        the very sum it always was): a hand changes on few decisions, and the fancy index and sum
        are a tenth of an observation."""
        key = tuple(hand)
        row = self._hand_rows.get(key)
        if row is None:
            if len(self._hand_rows) >= 4096:
                self._hand_rows.clear()
            row = self._hand_rows[key] = self.card_table[hand].sum(axis=0) / 10.0
        return row
