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

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from yokai_envs.core.layout import build_layout, layout_size, layout_starts
from yokai_envs.yyh_tcg.cards import MAX_OWN_ATTACKS, CardPool, CardType, Timing
from yokai_envs.yyh_tcg.state import Phase, PlayerState

if TYPE_CHECKING:
    from yokai_envs.yyh_tcg.rules import Rules

PHASES = tuple(Phase)
SCALARS = ("is_my_turn", "i_decide", "i_went_first", "revealed", "turn/60", "my_spirit/10", "opp_spirit/10",
           "my_wins/3", "opp_wins/3", "my_hand/20", "opp_hand/20", "my_deck/50", "opp_deck/50",
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


class SlotOffsets(NamedTuple):
    """Start offsets of one slot's blocks (``face_down_cards`` is -1 on the opponent's side)."""

    char: int
    feat: int
    face_up: int
    face_down: int
    face_down_cards: int


class Observer:
    """The observation of a card pool's games: its layout, and ``observe(game, seat)``."""

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
        self.slot_offsets = {
            side: [SlotOffsets(self.start[f"{side}_{slot}_char"], self.start[f"{side}_{slot}_feat"],
                               self.start[f"{side}_{slot}_face_up"], self.start[f"{side}_{slot}_face_down"],
                               self.start.get(f"{side}_{slot}_face_down_cards", -1)) for slot in SLOT_NAMES]
            for side in ("my", "opp")}

    def observe(self, game: Rules, seat: int) -> np.ndarray:
        # Entries are gathered as index lists and written with one bincount: "ones" (one-hot
        # flags) and "thirds" (card copies / 3; a deck never holds more than 3 copies).
        st = self.start
        me, opp = game.players[seat], game.players[1 - seat]
        show_opp = game.revealed
        ones = [st["phase"] + self.phase_index[game.phase]]
        thirds: list[int] = []
        if me.bonus_team is not None:
            ones.append(st["my_bonus"] + self.team_index[me.bonus_team])
        if opp.bonus_team is not None and show_opp:
            ones.append(st["opp_bonus"] + self.team_index[opp.bonus_team])
        for name, cards in (("my_hand", me.hand), ("my_deck", me.deck), ("my_discard", me.discard),
                            ("opp_discard", opp.discard), ("opp_shown", opp.shown), ("my_shown", me.shown),
                            ("opp_unseen", opp.deck), ("opp_unseen", opp.hand)):
            if cards:
                thirds.extend(map(st[name].__add__, cards))
        s = st["opp_unseen"]
        for slot in opp.slots():
            if not show_opp:
                thirds.append(s + slot.char)
            for a in slot.attached:
                if not (a.face_up or a.turned):
                    thirds.append(s + a.card)
        ci = self.char_index
        for name, cards in (("my_won", me.won), ("my_lost", me.lost), ("opp_won", opp.won), ("opp_lost", opp.lost)):
            if cards:
                s = st[name]
                ones.extend([s + ci[c] for c in cards])
        if game.attack is not None:
            s = st["attack_choice"]
            card = game.pool.cards[game.attack_card]
            if card.is_character:
                ones.append(s + card.attacks.index(game.attack))
            else:
                ones.append(s + MAX_OWN_ATTACKS + self.tech_index[game.attack_card])
        slot_rows: list[tuple[int, int]] = []
        down_counts: list[tuple[int, int]] = []
        self._slots(ones, thirds, slot_rows, down_counts, "my", me, True)
        if show_opp:
            self._slots(ones, thirds, slot_rows, down_counts, "opp", opp, False)
        size = self.size
        # one bincount: a flag counts 3 thirds
        obs = np.bincount(thirds + ones + ones + ones, minlength=size).astype(np.float32)
        obs *= np.float32(1 / 3)
        n_feat = self.n_feat
        for at, row in slot_rows:
            obs[at:at + n_feat] = self.features[row]
        for at, down in down_counts:
            obs[at] = min(1.0, down / 5)
        if me.hand:
            f = st["my_hand_features"]
            obs[f:f + len(CARD_FEATURES)] = self._hand_features(me.hand)
        attacking = game.attack is not None
        my_def = game.defense_value(seat) if me.fighter is not None else 0
        opp_def = game.defense_value(1 - seat) if (opp.fighter is not None and show_opp) else 0
        scalars: list[float] = [
            game.turn_player == seat and game.turn_number > 0, game.decider == seat,
            game.first_player == seat and show_opp, show_opp, game.turn_number / 60,
            me.spirit / 10, opp.spirit / 10, me.wins / 3, opp.wins / 3, len(me.hand) / 20,
            len(opp.hand) / 20, len(me.deck) / 50, len(opp.deck) / 50, me.fifth_placed, opp.fifth_placed,
            me.guard / 5, opp.guard / 5, me.fighter.damage / 4 if me.fighter else 0,
            opp.fighter.damage / 4 if (opp.fighter and show_opp) else 0, my_def / 15, opp_def / 15,
            game.attack_value() / 25 if attacking else 0, game.power / 10, game.weaken / 10,
            game.extra_damage / 3, game.pending_discard / 3, game.rage_used / 3,
            game.damage_now() / 4 if attacking else 0, len(me.slots()) / 4]
        s0 = st["scalars"]
        obs[s0:s0 + len(scalars)] = scalars
        np.minimum(obs, 1.0, out=obs)
        return obs

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

    def _slots(self, ones: list[int], thirds: list[int], slot_rows: list[tuple[int, int]],
               down_counts: list[tuple[int, int]], side: str, player: PlayerState, own: bool) -> None:
        ai = self.att_index
        offsets = self.slot_offsets[side]
        first = 0 if player.fighter is not None else 1
        slots = player.slots()  # the fighter (when there is one), then the Sideline
        for (char_at, feat_at, up_at, down_at, down_cards_at), slot in zip(offsets[first:], slots):
            row = self.char_index[slot.char]
            ones.append(char_at + row)
            slot_rows.append((feat_at, row))
            down = 0
            for att in slot.attached:
                if att.face_up or att.turned:  # turned up, awaiting payment: public too
                    thirds.append(up_at + ai[att.card])
                else:
                    down += 1
                    if own:
                        thirds.append(down_cards_at + ai[att.card])
            if down:
                down_counts.append((down_at, down))


def state_tensor(observer: Observer, game: Rules) -> np.ndarray:
    """The full state: both seats' observations, seat 0 first."""
    return np.concatenate([observer.observe(game, 0), observer.observe(game, 1)])
