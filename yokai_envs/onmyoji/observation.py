"""Observation tensor and text views of ``onmyoji_v0`` (seat-relative; only that seat's information).

Layout (``observation_layout``; every entry in [0, 1]):

- ``game``: mode one-hot (solo, duel, coop), difficulty/10, night one-hot (1, 2, 3, final),
  battle one-hot (1, 2), turn/20, Boss battle, Duel Final.
- ``decision``: pending decision one-hot (8), stage one-hot (7), "I am the seat to decide".
- ``me`` then ``other`` (2-player modes): the Onmyoji block (see ``PLAYER_FIELDS``). For the other
  seat, the hand is left blank and its card shows only as "face down" until the reveal, so the
  choice of the first seat never reaches the second before both are revealed.
- ``enemies``: left and right slot: present, alive, Boss, Yokai one-hot (18 + Boss), HP/max,
  Boss HP rounds gone (/5) and dial (/12), next action one-hot (5), stopped, weaken/5, DEF used/5,
  Solo deck card one-hot (Attack, Guard, Spell), immune.
- ``yokai_zones``: for each of the 18 Yokai, its zone one-hot (pile, in play, defeated, Shikigami,
  Equip, under a Character, out of game).
- ``pending``: pick candidates (18), the Yokai being taken (18), target choices (4), the target
  choice is for the played card, evolution Lv gathered/5, Solo Yokai deck cards not yet flipped (3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yokai_envs.onmyoji import encoding as enc
from yokai_envs.onmyoji.effects import player_atk, player_def, player_spl
from yokai_envs.onmyoji.state import CARD_NAMES, UNDER, ZONE_NAMES

if TYPE_CHECKING:
    from yokai_envs.onmyoji.game import OnmyojiGame

N = enc.N_YOKAI
PLAYER_FIELDS = (
    ("alive", 1), ("hp", 1), ("character", 4), ("evolved", 1), ("atk", 1), ("def", 1), ("spl", 1),
    ("first_player", 1), ("left_player", 1), ("hand", 3), ("used", 3), ("face_down", 1), ("revealed_card", 3),
    ("guarding", 1), ("act_first", 1), ("atk_up", 1), ("spl_up", 1), ("shield", 1), ("weaken", 1),
    ("def_spent", 1), ("shikigami", N), ("shikigami_uses_left", N), ("used_this_turn", N),
    ("equip_left", N), ("equip_right", N), ("equip_bottom", N), ("under_character", N),
)
PLAYER_SIZE = sum(n for _, n in PLAYER_FIELDS)
PF = {}
_o = 0
for _name, _n in PLAYER_FIELDS:
    PF[_name] = _o
    _o += _n
ENEMY_SIZE = 3 + (N + 1) + 1 + 2 + 5 + 1 + 1 + 1 + 3 + 1
GAME_SIZE = 3 + 1 + 4 + 2 + 1 + 2
DECISION_SIZE = 8 + 7 + 1
PENDING_SIZE = N + N + 4 + 1 + 1 + 3


_ZONE_STRIDE = len(ZONE_NAMES)


def layout(num_players: int) -> dict[str, slice]:
    parts = [("game", GAME_SIZE), ("decision", DECISION_SIZE), ("me", PLAYER_SIZE)]
    if num_players == 2:
        parts.append(("other", PLAYER_SIZE))
    parts += [("enemies", 2 * ENEMY_SIZE), ("yokai_zones", N * len(ZONE_NAMES)), ("pending", PENDING_SIZE)]
    out, start = {}, 0
    for name, n in parts:
        out[name] = slice(start, start + n)
        start += n
    return out


def size(lay: dict[str, slice]) -> int:
    return max(s.stop for s in lay.values())


def bounds(lay: dict[str, slice], n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(n, dtype=np.float32), np.ones(n, dtype=np.float32)


def _clip(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


_ALIVE, _HP, _CHAR, _EVOLVED = PF["alive"], PF["hp"], PF["character"], PF["evolved"]
_ATK, _DEF, _SPL, _FIRST, _LEFT = PF["atk"], PF["def"], PF["spl"], PF["first_player"], PF["left_player"]
_HAND, _USED, _FACE_DOWN, _REVEALED = PF["hand"], PF["used"], PF["face_down"], PF["revealed_card"]
_GUARDING, _ACT_FIRST, _ATK_UP, _SPL_UP = PF["guarding"], PF["act_first"], PF["atk_up"], PF["spl_up"]
_SHIELD, _WEAKEN, _DEF_SPENT = PF["shield"], PF["weaken"], PF["def_spent"]
_SHIKI, _USES, _THIS_TURN, _EQUIP, _UNDER = (PF["shikigami"], PF["shikigami_uses_left"], PF["used_this_turn"],
                                             PF["equip_left"], PF["under_character"])


def _player(g: OnmyojiGame, out: np.ndarray, base: int, seat: int, own: bool) -> None:
    p = g.players[seat]
    out[base + _ALIVE] = not p.fallen
    out[base + _HP] = p.hp / 20
    out[base + _CHAR + p.character] = 1
    out[base + _EVOLVED] = p.evolved
    out[base + _ATK] = _clip(player_atk(g, p) / 12)
    out[base + _DEF] = _clip(player_def(g, p) / 12)
    out[base + _SPL] = _clip(player_spl(g, p) / 12)
    out[base + _FIRST] = g.first_seat == seat
    out[base + _LEFT] = seat == 0
    if own:
        out[base + _HAND:base + _HAND + 3] = p.hand
    out[base + _USED:base + _USED + 3] = p.used
    if p.played >= 0:
        out[base + _FACE_DOWN] = not p.revealed
        if own or p.revealed:
            out[base + _REVEALED + p.played] = 1
    if p.guarding:
        out[base + _GUARDING] = 1
    if p.act_first:
        out[base + _ACT_FIRST] = 1
    if p.atk_up or p.spl_up or p.shield or p.weak:
        out[base + _ATK_UP] = _clip(p.atk_up / 5)
        out[base + _SPL_UP] = _clip(p.spl_up / 5)
        out[base + _SHIELD] = _clip(p.shield / 5)
        out[base + _WEAKEN] = _clip(p.weak / 5)
    out[base + _DEF_SPENT] = _clip(p.def_spent / 12)
    for y in p.shikigami:
        out[base + _SHIKI + y] = 1
        sk = g.card(y).shikigami
        limit = sk.per_battle or sk.per_game
        out[base + _USES + y] = (limit - p.shiki_uses.get(y, 0)) / limit
    for y in p.used_this_turn:
        out[base + _THIS_TURN + y] = 1
    for y, edge in p.equips:
        out[base + _EQUIP + edge * N + y] = 1
    zone, owner = g.zone, g.owner
    for y in range(N):
        if zone[y] == UNDER and owner[y] == seat:
            out[base + _UNDER + y] = 1


def encode(g: OnmyojiGame, seat: int) -> np.ndarray:
    lay = g.observation_layout
    out = np.zeros(g.observation_size, dtype=np.float32)
    b = lay["game"].start
    out[b + ("solo", "duel", "coop").index(g.mode)] = 1
    out[b + 3] = g.difficulty / 10
    out[b + 4 + (3 if g.final_duel or g.boss_battle else g.night - 1)] = 1
    out[b + 8 + g.battle - 1] = 1
    out[b + 10] = min(g.turn, 20) / 20
    out[b + 11] = g.boss_battle
    out[b + 12] = g.final_duel
    b = lay["decision"].start
    if not g.over:
        out[b + g.decision] = 1
    out[b + 8 + g.stage] = 1
    out[b + 15] = g.decider == seat and not g.over
    _player(g, out, lay["me"].start, seat, True)
    if g.num_players == 2:
        _player(g, out, lay["other"].start, 1 - seat, False)
    b = lay["enemies"].start
    for slot, e in enumerate(g.enemies):
        if e is None:
            continue
        o = b + slot * ENEMY_SIZE
        card = g.card(e.yokai)
        out[o] = 1
        out[o + 1] = e.alive
        out[o + 2] = e.is_boss
        out[o + 3 + e.yokai] = 1
        o += 3 + N + 1
        out[o] = e.hp / card.hp
        if e.is_boss:
            gone = card.hp - e.hp
            out[o + 1] = _clip((gone // 12) / 5)
            out[o + 2] = (12 - gone % 12) / 12 if e.hp > 0 else 0
        out[o + 3 + e.next_action] = 1
        o += 8
        out[o] = e.stopped
        out[o + 1] = _clip(e.weak / 5)
        out[o + 2] = _clip(e.def_spent / 5)
        if e.deck_card >= 0:
            out[o + 3 + e.deck_card] = 1
        out[o + 6] = e.alive and not g.enemy_can_be_hurt(e)
    b = lay["yokai_zones"].start
    out[b + _ZONE_STRIDE * np.arange(N) + np.asarray(g.zone)] = 1
    b = lay["pending"].start
    for y in g.pick_candidates:
        out[b + y] = 1
    if g.taking >= 0:
        out[b + N + g.taking] = 1
    if g.target_ctx is not None and g.decider == seat:
        for t in g.target_ctx[-1]:
            out[b + 2 * N + t] = 1
        out[b + 2 * N + 4] = g.target_ctx[0] == "card"
    out[b + 2 * N + 5] = _clip(g.evolve_sum / 5)
    if g.mode == "solo":
        for c in range(3):
            out[b + 2 * N + 6 + c] = c in g.yokai_deck
    return out


def render(g: OnmyojiGame, seat: int | None) -> str:
    """Text of the table; ``seat`` hides what that seat cannot see (None: omniscient)."""
    lines = []
    where = "Final Battle" if g.final_duel else "Boss battle" if g.boss_battle else f"Night {g.night} battle {g.battle}"
    status = f"seat {g.decider} to decide" if not g.over else f"returns {[float(r) for r in g.returns()]}"
    lines.append(f"onmyoji_v0 {g.mode} Lv{g.difficulty} | {where} turn {g.turn} | {g.phase_name} | {status}")
    for s, p in enumerate(g.players):
        c = g.pool.characters[p.character]
        hidden = seat is not None and seat != s
        hand = "?" if hidden else ",".join(CARD_NAMES[i] for i in range(3) if p.hand[i])
        played = ""
        if p.played >= 0:
            played = " played " + (CARD_NAMES[p.played] if p.revealed or not hidden else "(face down)")
        lines.append(
            f"  seat {s}{' first' if g.first_seat == s else ''} {c.name}{' (evolved)' if p.evolved else ''} "
            f"HP {p.hp}{' FALLEN' if p.fallen else ''} ATK {player_atk(g, p)} DEF {player_def(g, p)} "
            f"SPL {player_spl(g, p)} | hand [{hand}] used [{','.join(CARD_NAMES[i] for i in range(3) if p.used[i])}]"
            f"{played} | Shikigami {[g.yokai_names[y] for y in p.shikigami]} "
            f"Equips {[(g.yokai_names[y], ('left', 'right', 'bottom')[e]) for y, e in p.equips]}")
    for slot, e in enumerate(g.enemies):
        if e is not None:
            card = g.card(e.yokai)
            lines.append(f"  {('left', 'right')[slot]}: {card.name} HP {e.hp}/{card.hp} DEF {card.defense} "
                         f"next ({e.next_action + 1}){' defeated' if not e.alive else ''}")
    return "\n".join(lines)
