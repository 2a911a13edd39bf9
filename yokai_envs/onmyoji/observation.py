"""Observation tensor of ``onmyoji_v5`` (seat-relative; only that seat's information) and the state tensor.

Layout (``observation_layout``; every entry in [0, 1]):

- ``game``: mode one-hot (solo, duel, coop), difficulty/10, night one-hot (1, 2, 3, final),
  battle one-hot (1, 2), turn/40 (the Duel Final's last turn is 40; longer battles read 1),
  Boss battle, Duel Final.
- ``decision``: pending decision one-hot (8), stage one-hot (7), "I am the seat to decide".
- ``me`` then ``other`` (2-player modes): the Onmyoji block (see ``PLAYER_FIELDS``; HP/20, ATK, DEF and
  SPL /20, boosts /5, Start-of-turn effects held for the reveal /5 (R28), DEF used /12, Shikigami
  uses left as a fraction). For the other
  seat, the hand is left blank and its card shows only as "face down" until the reveal, so the
  choice of the first seat never reaches the second before both are revealed.
- ``enemies``: left and right slot: present, alive, Boss, Yokai one-hot (18 + Boss), HP over its
  starting HP (the Co-op Boss's includes its level's +N, R33), Boss HP rounds gone (/5) and dial
  (/12), next action one-hot (5), stopped, weaken/5, DEF used/5,
  Solo deck card one-hot (Attack, Guard, Spell), immune.
- ``yokai_zones``: for each of the 18 Yokai, its zone one-hot (pile, in play, defeated, Shikigami,
  Equip, under a Character, out of game).
- ``pending``: pick candidates (18), the Yokai being taken (18), target choices (4), the target
  choice is for the played card, evolution Lv gathered/5, Solo Yokai deck cards not yet flipped (3).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from yokai_envs.core.layout import Layout, build_layout, layout_bounds, layout_size, layout_starts
from yokai_envs.onmyoji import ENV_ID
from yokai_envs.onmyoji.effects import enemy_can_be_hurt, player_atk, player_def, player_spl
from yokai_envs.onmyoji.rules import DUEL_FINAL_TURN_CAP
from yokai_envs.onmyoji.state import MODES, N_YOKAI, Mode, State, TargetFor, Zone

N = N_YOKAI
#: The ``game`` block.
GAME_FIELDS = (("mode", 3), ("difficulty", 1), ("night", 4), ("battle", 2), ("turn", 1), ("boss_battle", 1),
               ("final_duel", 1))
#: The ``decision`` block.
DECISION_FIELDS = (("decision", 8), ("stage", 7), ("to_decide", 1))
#: One Onmyoji (the ``me`` and ``other`` blocks).
PLAYER_FIELDS = (
    ("alive", 1), ("hp", 1), ("character", 4), ("evolved", 1), ("atk", 1), ("def", 1), ("spl", 1),
    ("first_player", 1), ("left_player", 1), ("hand", 3), ("used", 3), ("face_down", 1), ("revealed_card", 3),
    ("guarding", 1), ("incoming", 1), ("act_first", 1), ("atk_up", 1), ("spl_up", 1), ("shield", 1), ("weaken", 1),
    ("def_spent", 1), ("shikigami", N), ("shikigami_uses_left", N), ("used_this_turn", N),
    ("equip_left", N), ("equip_right", N), ("equip_bottom", N), ("under_character", N),
)
#: One enemy slot (the ``enemies`` block holds the left then the right slot).
ENEMY_FIELDS = (
    ("present", 1), ("alive", 1), ("boss", 1), ("yokai", N + 1), ("hp", 1), ("boss_rounds_gone", 1),
    ("boss_dial", 1), ("next_action", 5), ("stopped", 1), ("weaken", 1), ("def_spent", 1), ("deck_card", 3),
    ("immune", 1),
)
#: The ``pending`` block.
PENDING_FIELDS = (("pick", N), ("taking", N), ("targets", 4), ("target_for_card", 1), ("evolve_sum", 1),
                  ("yokai_deck", 3))

GF = layout_starts(build_layout(GAME_FIELDS))
DF = layout_starts(build_layout(DECISION_FIELDS))
PF = layout_starts(build_layout(PLAYER_FIELDS))
EF = layout_starts(build_layout(ENEMY_FIELDS))
QF = layout_starts(build_layout(PENDING_FIELDS))
GAME_SIZE = layout_size(build_layout(GAME_FIELDS))
DECISION_SIZE = layout_size(build_layout(DECISION_FIELDS))
PLAYER_SIZE = layout_size(build_layout(PLAYER_FIELDS))
ENEMY_SIZE = layout_size(build_layout(ENEMY_FIELDS))
PENDING_SIZE = layout_size(build_layout(PENDING_FIELDS))
_ZONE_STRIDE = len(Zone)
_ZONE_BASE = _ZONE_STRIDE * np.arange(N)  # offset of each Yokai's zone one-hot
_UNDER_BYTE = bytes([Zone.UNDER])


def observation_layout(num_players: int) -> Layout:
    """The named blocks of the observation vector (``Game.observation_layout``)."""
    parts = [("game", GAME_SIZE), ("decision", DECISION_SIZE), ("me", PLAYER_SIZE)]
    if num_players == 2:
        parts.append(("other", PLAYER_SIZE))
    parts += [("enemies", 2 * ENEMY_SIZE), ("yokai_zones", N * _ZONE_STRIDE), ("pending", PENDING_SIZE)]
    return build_layout(parts)


#: Player count -> the observation layout and length (``encode`` reads them off the state's count).
_LAYOUTS = {n: observation_layout(n) for n in (1, 2)}
_SIZES = {n: layout_size(lay) for n, lay in _LAYOUTS.items()}


def observation_bounds(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """Every entry is in [0, 1]."""
    return layout_bounds(layout)


def state_size(num_players: int) -> int:
    """Length of ``state_tensor``: every seat's observation, then the hidden facts (face-down cards,
    pile order, Solo Yokai deck order)."""
    return layout_size(observation_layout(num_players)) * num_players + 3 * num_players + N + 3


#: ATK, DEF and SPL are shown /20 (an Equip build reaches about 16 ATK; /12 clipped it).
STAT_SCALE = 20


def _clip(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


_ALIVE, _HP, _CHAR, _EVOLVED = PF["alive"], PF["hp"], PF["character"], PF["evolved"]
_ATK, _DEF, _SPL, _FIRST, _LEFT = PF["atk"], PF["def"], PF["spl"], PF["first_player"], PF["left_player"]
_HAND, _USED, _FACE_DOWN, _REVEALED = PF["hand"], PF["used"], PF["face_down"], PF["revealed_card"]
_GUARDING, _ACT_FIRST, _ATK_UP, _SPL_UP = PF["guarding"], PF["act_first"], PF["atk_up"], PF["spl_up"]
_INCOMING = PF["incoming"]
_SHIELD, _WEAKEN, _DEF_SPENT = PF["shield"], PF["weaken"], PF["def_spent"]
_SHIKI, _USES, _THIS_TURN, _EQUIP, _UNDER = (PF["shikigami"], PF["shikigami_uses_left"], PF["used_this_turn"],
                                             PF["equip_left"], PF["under_character"])


_G_MODE, _G_DIFFICULTY, _G_NIGHT, _G_BATTLE = GF["mode"], GF["difficulty"], GF["night"], GF["battle"]
_G_TURN, _G_BOSS_BATTLE, _G_FINAL_DUEL = GF["turn"], GF["boss_battle"], GF["final_duel"]
_D_DECISION, _D_STAGE, _D_TO_DECIDE = DF["decision"], DF["stage"], DF["to_decide"]
_Q_PICK, _Q_TAKING, _Q_TARGETS, _Q_FOR_CARD = QF["pick"], QF["taking"], QF["targets"], QF["target_for_card"]
_Q_EVOLVE_SUM, _Q_YOKAI_DECK = QF["evolve_sum"], QF["yokai_deck"]
_E_PRESENT, _E_ALIVE, _E_BOSS, _E_YOKAI, _E_HP = EF["present"], EF["alive"], EF["boss"], EF["yokai"], EF["hp"]
_E_ROUNDS, _E_DIAL, _E_NEXT, _E_STOPPED = EF["boss_rounds_gone"], EF["boss_dial"], EF["next_action"], EF["stopped"]
_E_WEAKEN, _E_DEF_SPENT, _E_DECK, _E_IMMUNE = EF["weaken"], EF["def_spent"], EF["deck_card"], EF["immune"]


def _player(st: State, out: np.ndarray, base: int, seat: int, own: bool, under: list[int]) -> None:
    """One Onmyoji's block; ``under``: the Yokai under any Character (found once per observation)."""
    p = st.players[seat]
    out[base + _ALIVE] = not p.fallen
    out[base + _HP] = p.hp / 20
    out[base + _CHAR + p.character] = 1
    if p.evolved:
        out[base + _EVOLVED] = 1
    out[base + _ATK] = _clip(player_atk(st, p) / STAT_SCALE)
    out[base + _DEF] = _clip(player_def(st, p) / STAT_SCALE)
    out[base + _SPL] = _clip(player_spl(st, p) / STAT_SCALE)
    if st.first_seat == seat:
        out[base + _FIRST] = 1
    if seat == 0:
        out[base + _LEFT] = 1
    # three flags each: element writes of the set ones beat turning a list into an array
    if own:
        for card, held in enumerate(p.hand):
            if held:
                out[base + _HAND + card] = 1
    for card, used in enumerate(p.used):
        if used:
            out[base + _USED + card] = 1
    if p.played >= 0:
        out[base + _FACE_DOWN] = not p.revealed
        if own or p.revealed:
            out[base + _REVEALED + p.played] = 1
    if p.guarding:
        out[base + _GUARDING] = 1
    if p.incoming:  # R28: held Start-of-turn effects (public: the abilities were used face up)
        out[base + _INCOMING] = _clip(sum(n for _, n in p.incoming) / 5)
    if p.act_first:
        out[base + _ACT_FIRST] = 1
    if p.atk_up or p.spl_up or p.shield or p.weak:
        out[base + _ATK_UP] = _clip(p.atk_up / 5)
        out[base + _SPL_UP] = _clip(p.spl_up / 5)
        out[base + _SHIELD] = _clip(p.shield / 5)
        out[base + _WEAKEN] = _clip(p.weak / 5)
    if p.def_spent:
        out[base + _DEF_SPENT] = _clip(p.def_spent / 12)
    for y in p.shikigami:
        out[base + _SHIKI + y] = 1
        sk = st.card(y).shiki
        limit = sk.per_battle or sk.per_game
        out[base + _USES + y] = (limit - p.shiki_uses.get(y, 0)) / limit
    for y in p.used_this_turn:
        out[base + _THIS_TURN + y] = 1
    for y, edge in p.equips:
        out[base + _EQUIP + edge * N + y] = 1
    owner = st.owner
    for y in under:
        if owner[y] == seat:
            out[base + _UNDER + y] = 1


_ZONES_WIDTH = N * _ZONE_STRIDE
_FLOAT32 = np.dtype(np.float32)  # a dtype object: np.zeros parses a type name on every call
#: zones (as bytes) -> the ``yokai_zones`` block: a Yokai moves a few times a game, so the same
#: zones come back step after step; bounded, as games come and go
_ZONES_BLOCKS: dict[bytes, np.ndarray] = {}


def _zones_block(zones: bytes) -> np.ndarray:
    block = _ZONES_BLOCKS.get(zones)
    if block is None:
        if len(_ZONES_BLOCKS) >= 4096:
            _ZONES_BLOCKS.clear()
        block = np.zeros(_ZONES_WIDTH, dtype=np.float32)
        block[_ZONE_BASE + np.frombuffer(zones, dtype=np.uint8)] = 1
        block.setflags(write=False)
        _ZONES_BLOCKS[zones] = block
    return block


def to_decide_index(num_players: int) -> int:
    """Where the observation holds "I am the seat to decide" (the Parallel env sets it for every
    seat choosing in the face-down step, where the game itself asks one seat at a time)."""
    return _LAYOUTS[num_players]["decision"].start + _D_TO_DECIDE


def encode(st: State, seat: int) -> np.ndarray:
    """The observation of ``seat`` (a function of that seat's information only)."""
    # ``out`` starts at zero: entries that are usually zero (flags, counters) are written only
    # when set (an element write costs as much as the test; the values stay bit for bit)
    lay = _LAYOUTS[st.num_players]
    out = np.zeros(_SIZES[st.num_players], _FLOAT32)
    b = lay["game"].start
    out[b + _G_MODE + MODES.index(st.mode)] = 1
    out[b + _G_DIFFICULTY] = st.difficulty / 10
    out[b + _G_NIGHT + (3 if st.final_duel or st.boss_battle else st.night - 1)] = 1
    out[b + _G_BATTLE + st.battle - 1] = 1
    out[b + _G_TURN] = min(st.turn, DUEL_FINAL_TURN_CAP) / DUEL_FINAL_TURN_CAP
    if st.boss_battle:
        out[b + _G_BOSS_BATTLE] = 1
    if st.final_duel:
        out[b + _G_FINAL_DUEL] = 1
    b = lay["decision"].start
    if not st.over:
        out[b + _D_DECISION + st.decision] = 1
    out[b + _D_STAGE + st.stage] = 1
    if st.decider == seat and not st.over:
        out[b + _D_TO_DECIDE] = 1
    # the zones as bytes (fast for a list of IntEnums): a C-level search finds the Yokai under a
    # Character (usually none) once for both Onmyoji blocks; the yokai_zones block reads them too
    zones = bytes(st.zone)
    under = []
    y = zones.find(_UNDER_BYTE)
    while y >= 0:
        under.append(y)
        y = zones.find(_UNDER_BYTE, y + 1)
    _player(st, out, lay["me"].start, seat, True, under)
    if len(st.players) == 2:
        _player(st, out, lay["other"].start, 1 - seat, False, under)
    b = lay["enemies"].start
    for slot, e in enumerate(st.enemies):
        if e is None:
            continue
        o = b + slot * ENEMY_SIZE
        out[o + _E_PRESENT] = 1
        out[o + _E_ALIVE] = e.alive
        if e.is_boss:
            out[o + _E_BOSS] = 1
        out[o + _E_YOKAI + e.yokai] = 1
        out[o + _E_HP] = e.hp / e.full_hp
        if e.is_boss:
            gone = e.full_hp - e.hp
            out[o + _E_ROUNDS] = _clip((gone // 12) / 5)
            out[o + _E_DIAL] = (12 - gone % 12) / 12 if e.hp > 0 else 0
        out[o + _E_NEXT + e.next_action] = 1
        if e.stopped:
            out[o + _E_STOPPED] = 1
        if e.weak:
            out[o + _E_WEAKEN] = _clip(e.weak / 5)
        if e.def_spent:
            out[o + _E_DEF_SPENT] = _clip(e.def_spent / 5)
        if e.deck_card >= 0:
            out[o + _E_DECK + e.deck_card] = 1
        if e.alive and not enemy_can_be_hurt(st, e):
            out[o + _E_IMMUNE] = 1
    b = lay["yokai_zones"].start
    out[b:b + _ZONES_WIDTH] = _zones_block(zones)
    b = lay["pending"].start
    for y in st.pick_candidates:
        out[b + _Q_PICK + y] = 1
    if st.taking >= 0:
        out[b + _Q_TAKING + st.taking] = 1
    if st.target_ctx is not None and st.decider == seat:
        for t in st.target_ctx.targets:
            out[b + _Q_TARGETS + t] = 1
        out[b + _Q_FOR_CARD] = st.target_ctx.kind == TargetFor.CARD
    if st.evolve_sum:
        out[b + _Q_EVOLVE_SUM] = _clip(st.evolve_sum / 5)
    if st.mode == Mode.SOLO:
        for c in range(3):
            out[b + _Q_YOKAI_DECK + c] = c in st.yokai_deck
    return out


def state_tensor(st: State) -> np.ndarray:
    """Every seat's observation, then what no seat sees: the face-down cards, the order of the
    Yokai piles and of the Solo Yokai deck."""
    n = st.num_players
    parts = [encode(st, s) for s in range(n)]
    hidden = np.zeros(state_size(n) - _SIZES[n] * n, dtype=np.float32)
    for s, p in enumerate(st.players):
        if p.played >= 0:
            hidden[3 * s + p.played] = 1.0
    o = 3 * n
    for lv in (1, 2, 3):  # pile order: position of each Yokai still in a pile
        for pos, y in enumerate(st.piles[lv]):
            hidden[o + y] = (pos + 1) / 6
    o += N
    for pos, c in enumerate(st.yokai_deck):
        hidden[o + c] = (pos + 1) / 3
    return np.concatenate([*parts, hidden])


# ------------------------------------------------------------------ what a seat knows of hidden places
def resample_hidden(st: State, seat: int, rng: np.random.Generator) -> None:
    """In place: redraw what ``seat`` cannot see -- the order of the face-down Yokai piles and of
    the Solo Yokai deck, and a card another seat has chosen face down but not revealed yet."""
    # Sorted first, so a sample depends on the seat's information and rng, never on the real order.
    for lv in (1, 2, 3):
        pile = sorted(st.piles[lv])
        st.piles[lv] = [pile[i] for i in rng.permutation(len(pile))]
    deck = sorted(st.yokai_deck)
    st.yokai_deck = [deck[i] for i in rng.permutation(len(deck))]
    for s, p in enumerate(st.players):
        if s != seat and p.played >= 0 and not p.revealed:
            options = [c for c in range(3) if p.hand[c] or c == p.played]
            p.hand[p.played] = True
            c = options[int(rng.integers(len(options)))]
            p.hand[c] = False
            p.played = c


def known_placements(st: State, seat: int) -> list[tuple[Any, ...]]:
    """Which Yokai each face-down pile holds (public: every Yokai that came out is seen), the
    Solo Yokai deck cards not yet flipped, and the seat's own face-down card."""
    facts: list[tuple[Any, ...]] = [("pile", lv, y) for lv in (1, 2, 3) for y in st.piles[lv]]
    facts += [("deck", c) for c in st.yokai_deck]
    if 0 <= seat < len(st.players):
        p = st.players[seat]
        if p.played >= 0:
            facts.append(("played", seat, p.played))
    return facts


def placement_holds(st: State, placement: tuple[Any, ...]) -> bool:
    """Whether the table keeps a fact of :func:`known_placements`."""
    kind = placement[0]
    if kind == "pile":
        return placement[2] in st.piles[placement[1]]
    if kind == "deck":
        return placement[1] in st.yokai_deck
    if kind == "played":
        return st.players[placement[1]].played == placement[2]
    raise ValueError(f"{ENV_ID}: unknown placement {placement!r}")
