"""Onmyoji: three nights -- the flow of the rulebook (Solo, Duel and Co-op).

Setup, nights and battles, the six-step turn, the simultaneous face-down card choice, the picks
after a battle, the Boss battle and the Duel Final Battle; and which abilities the menus offer.
What each decision allows and does is in ``decisions.py``; how much damage or healing happens,
who may be targeted and what a fall does in ``effects.py``. Every function takes the table
(``state.State``), and those that draw chance or show events also the game's ``Context`` (its
generator ``ctx.rng`` and record ``ctx.see``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji.actions import EVOLVE, TAKE_SHIKIGAMI, USE_EQUIP, USE_SHIKIGAMI
from yokai_envs.onmyoji.cards import AbilityTarget, Timing
from yokai_envs.onmyoji.state import (
    ATTACK,
    EDGE_OF_CARD,
    GUARD,
    SPELL,
    Decision,
    Enemy,
    Equip,
    EquipEdge,
    Event,
    Mode,
    Player,
    Stage,
    State,
    Zone,
)

if TYPE_CHECKING:
    from yokai_envs.core.context import Context

# Members bound once to module names for the per-step paths: Python 3.11 resolves every
# ``Enum.X`` through the enum metaclass, about fifteen times the cost of reading a global.
ABILITY_TARGET_ENEMY = AbilityTarget.ENEMY
(DECISION_ACTION_MENU, DECISION_PICK, DECISION_PLAY, DECISION_START_MENU, DECISION_TAKE) = (
    Decision.ACTION_MENU, Decision.PICK, Decision.PLAY, Decision.START_MENU, Decision.TAKE,
)
(EVENT_BATTLE, EVENT_CHARACTER, EVENT_DECK_FLIP, EVENT_DECK_SHUFFLE, EVENT_REVEAL, EVENT_TURN, EVENT_YOKAI_OUT) = (
    Event.BATTLE, Event.CHARACTER, Event.DECK_FLIP, Event.DECK_SHUFFLE, Event.REVEAL, Event.TURN, Event.YOKAI_OUT,
)
MODE_COOP, MODE_DUEL, MODE_SOLO = Mode.COOP, Mode.DUEL, Mode.SOLO
(STAGE_AFTER, STAGE_ATTACK, STAGE_GUARD, STAGE_PLAY, STAGE_SETUP, STAGE_START) = (
    Stage.AFTER, Stage.ATTACK, Stage.GUARD, Stage.PLAY, Stage.SETUP, Stage.START,
)
TIMING_ON_ACTION, TIMING_START_OF_TURN = Timing.ON_ACTION, Timing.START_OF_TURN
(ZONE_DEFEATED, ZONE_EQUIP, ZONE_GONE, ZONE_IN_PLAY, ZONE_SHIKIGAMI) = (
    Zone.DEFEATED, Zone.EQUIP, Zone.GONE, Zone.IN_PLAY, Zone.SHIKIGAMI,
)


#: Ruling: the Duel Final Battle ends after this many turns (higher HP wins, a tie goes to the first player).
DUEL_FINAL_TURN_CAP = 40


# ------------------------------------------------------------------ setup
def setup(st: State, ctx: Context) -> None:
    """Shuffle the Yokai piles, seat the Characters and start the game (the table is empty)."""
    for lv in (1, 2, 3):
        pile = [y.index for y in st.pool.yokai if y.lv == lv]
        st.piles[lv] = [pile[i] for i in ctx.rng.permutation(len(pile))]
    n = st.num_players
    if st.fixed_characters is not None:
        chars = st.fixed_characters
    else:
        chars = [int(c) for c in ctx.rng.permutation(len(st.pool.characters))[:n]]
    for seat, c in enumerate(chars):
        ctx.see(None, EVENT_CHARACTER, seat, c)
        front = st.pool.characters[c].front
        hp = front.hp + (st.solo_level.character_plus if st.mode == MODE_SOLO else 0)
        st.players.append(Player(c, min(fx.HP_CAP, hp)))
    if st.mode == MODE_SOLO:
        # Solo setup 2: choose any 1 Yokai of the Starting Shikigami Lv.
        lv = st.solo_level.starting_shikigami_lv
        st.stage = STAGE_SETUP
        st.pick_candidates = [y.index for y in st.pool.yokai if y.lv == lv]
        st.take_queue = [0]
        ask(st, DECISION_PICK, 0)
        return
    # The player with lower HP goes first; if tied, the left player (seat 0).
    st.first_seat = 1 if st.players[1].hp < st.players[0].hp else 0
    start_night_battle(st, ctx)
    advance(st, ctx)


def ask(st: State, decision: Decision, seat: int) -> None:
    st.decision = decision
    st.decider = seat


def _draw_yokai(st: State, lv: int) -> int:
    y = st.piles[lv].pop(0)  # the top of the shuffled pile: a random remaining Yokai of that Lv
    st.zone[y] = ZONE_IN_PLAY
    return y


# ------------------------------------------------------------------ battles
def start_night_battle(st: State, ctx: Context) -> None:
    count = 1 if st.mode == MODE_SOLO and st.battle == 1 else 2
    ys = [_draw_yokai(st, st.night) for _ in range(count)]
    enemies: list[Enemy | None] = [Enemy(y, st.card(y).hp) for y in ys]
    start_battle(st, ctx, enemies + [None] * (2 - count))


def start_boss_battle(st: State, ctx: Context) -> None:
    st.boss_battle = True
    if st.mode == MODE_SOLO and st.solo_level.heal_before_boss:
        fx.heal(st, ctx, 0, min(fx.HP_CAP, st.side(st.players[0]).hp) - st.players[0].hp)
    minion = _draw_yokai(st, 3)
    boss = st.pool.boss
    # The minion stands to the right of the Boss.
    # R33: a Co-op level's Boss HP +N (0 but in variant "balanced", a modifier the book does not list)
    boss_hp = boss.hp + (st.coop_level.boss_hp_plus if st.mode == MODE_COOP else 0)
    start_battle(st, ctx, [Enemy(boss.index, boss_hp, is_boss=True), Enemy(minion, st.card(minion).hp)])


def start_duel_final(st: State, ctx: Context) -> None:
    st.final_duel = True
    if not st.book:
        # R30 (balanced variant): on a tie in HP the Final's first turn is led by the Onmyoji who
        # picked first after the last Night-3 battle (its finisher, R12), not the one who took
        # second (``first_seat`` now): leaving that Yokai to the other buys nothing. The book keeps
        # ``first_seat``: whoever took a Yokai second leads the next battle, the Final included.
        st.first_seat = final_first_player(st, tie=1 - st.first_seat)
    st.final_opening_seat = st.first_seat
    start_battle(st, ctx, [None, None])


def final_first_player(st: State, tie: int) -> int:
    """R30 (balanced variant): in the Duel Final every turn is led by the Onmyoji with less HP
    (the setup rule, §3 step 5, applied to each turn of the Final), ``tie`` when their HP are
    equal. The first player wins a race in which both could bring the other to 0, so this hands
    that edge to the one behind instead of fixing it for the whole Final."""
    hp0, hp1 = st.players[0].hp, st.players[1].hp
    return tie if hp0 == hp1 else int(hp1 < hp0)


def start_battle(st: State, ctx: Context, enemies: list[Enemy | None]) -> None:
    """A battle against ``enemies`` (left, right; None for an empty slot) begins with turn 1."""
    st.enemies = enemies
    st.finisher = -1
    st.turn = 1
    if ctx.recording:
        ctx.see(None, EVENT_BATTLE, 4 if st.final_duel or st.boss_battle else st.night, st.battle, st.first_seat)
        for slot, e in enumerate(enemies):
            if e is not None:
                ctx.see(None, EVENT_YOKAI_OUT, slot, e.yokai)
    if st.mode == MODE_SOLO:
        shuffle_yokai_deck(st, ctx)  # the Solo Yokai deck is reshuffled at the start of each battle
    for p in st.players:
        p.hand = [True, True, True]  # each player returns their hand to 3 cards
        p.used = [False, False, False]
        p.played = -1
        p.revealed = False
        for y in p.shikigami:
            if st.card(y).shiki.per_battle:
                p.shiki_uses[y] = 0
    begin_turn(st, ctx)


def next_battle(st: State, ctx: Context) -> None:
    if st.battle == 1:
        st.battle = 2
    else:
        st.night += 1
        st.battle = 1
    if st.night <= 3:
        start_night_battle(st, ctx)
    elif st.mode == MODE_DUEL:
        alive = [s for s in range(2) if not st.players[s].fallen]
        if len(alive) == 1:
            fx.duel_winner(st, ctx, alive[0])  # only one player alive after Night 3 wins
            return
        start_duel_final(st, ctx)
    else:
        start_boss_battle(st, ctx)
    advance(st, ctx)


# ------------------------------------------------------------------ the turn
def turn_order(st: State) -> list[int]:
    seats = [st.first_seat, 1 - st.first_seat] if len(st.players) == 2 else [0]
    return [s for s in seats if not st.players[s].fallen]


def begin_turn(st: State, ctx: Context) -> None:
    for p in st.players:
        p.reset_turn()
        p.played = -1
        p.revealed = False
    for e in st.enemies:
        if e is not None:
            e.reset_turn()
    if st.final_duel and st.turn > 1 and not st.book:
        st.first_seat = final_first_player(st, tie=st.first_seat)
    st.stage = STAGE_START
    st.order = turn_order(st)
    st.cursor = 0
    ctx.see(None, EVENT_TURN, st.turn, st.first_seat)


def advance(st: State, ctx: Context) -> None:
    """Run the automatic parts of the flow until a seat must decide (or the game ends)."""
    while not st.over:
        stage = st.stage
        if stage == STAGE_START:
            while st.cursor < len(st.order) and not start_menu_options(st, st.order[st.cursor]):
                st.cursor += 1
            if st.cursor < len(st.order):
                ask(st, DECISION_START_MENU, st.order[st.cursor])
                return
            st.stage = STAGE_PLAY
            st.order = turn_order(st)
            st.cursor = 0
        elif stage == STAGE_PLAY:
            if st.cursor < len(st.order):
                ask(st, DECISION_PLAY, st.order[st.cursor])
                return
            _reveal(st, ctx)
        elif stage in (STAGE_GUARD, STAGE_ATTACK):
            while st.cursor < len(st.order) and not _can_act(st, st.order[st.cursor]):
                st.cursor += 1
            if st.cursor < len(st.order):
                ask(st, DECISION_ACTION_MENU, st.order[st.cursor])
                return
            if stage == STAGE_GUARD:
                _begin_attack_step(st)
            else:
                _yokai_step(st, ctx)
                if not st.over:
                    _end_turn(st, ctx)
        else:
            return


def _can_act(st: State, seat: int) -> bool:
    p = st.players[seat]
    # A fallen Onmyoji does nothing more (R13; in the Duel Final a fall ends the game, R2).
    return p.played >= 0 and not p.used[p.played] and not p.fallen


def _reveal(st: State, ctx: Context) -> None:
    for s in st.order:
        p = st.players[s]
        ctx.see(None, EVENT_REVEAL, s, p.played)
        p.revealed = True
        p.guarding = p.played == GUARD
    fx.land_held_effects(st, ctx)
    if st.over:  # a held Start-of-turn effect ended the Duel Final (R2)
        return
    st.stage = STAGE_GUARD
    st.order = [s for s in turn_order(st) if st.players[s].played == GUARD]
    st.cursor = 0


def _begin_attack_step(st: State) -> None:
    seats = [s for s in turn_order(st) if st.players[s].played in (ATTACK, SPELL)]
    # A player with an "act first" effect acts first (stable: ties keep the first player first).
    seats.sort(key=lambda s: not st.players[s].act_first)
    st.stage = STAGE_ATTACK
    st.order = seats
    st.cursor = 0


def _yokai_step(st: State, ctx: Context) -> None:
    if st.final_duel:
        return  # the Onmyoji do not take Yokai actions
    for slot in (1, 0):  # the right Yokai acts, then the left Yokai
        fx.yokai_take_action(st, ctx, slot)


def _end_turn(st: State, ctx: Context) -> None:
    for p in st.players:
        if p.played >= 0 and not p.used[p.played]:
            p.used[p.played] = True  # a card that was never resolved (a fallen player's) is Used too
        p.played = -1
        p.revealed = False
        if not any(p.hand):  # 0 cards in hand: return all used action cards
            p.hand = [True, True, True]
            p.used = [False, False, False]
    if st.final_duel:
        # A player brought to 0 has already lost (R2); here only the turn cap ends it (R3).
        if st.turn >= DUEL_FINAL_TURN_CAP:
            hp = [p.hp for p in st.players]
            fx.duel_winner(st, ctx, st.first_seat if hp[0] == hp[1] else int(np.argmax(hp)))
        else:
            st.turn += 1
            begin_turn(st, ctx)
        return
    if fx.alive_enemy_count(st) == 0:
        _after_battle(st, ctx)
    else:
        st.turn += 1
        begin_turn(st, ctx)


# ------------------------------------------------------------------ after a battle: picks
def _after_battle(st: State, ctx: Context) -> None:
    if st.boss_battle:
        fx.finish(st, ctx, [1.0] * st.num_players)  # the Boss falls with every Onmyoji alive
        return
    st.stage = STAGE_AFTER
    st.pick_candidates = [e.yokai for e in st.enemies if e is not None]
    for y in st.pick_candidates:
        st.zone[y] = ZONE_DEFEATED
    st.enemies = [None, None]
    alive = [s for s in range(st.num_players) if not st.players[s].fallen]
    if len(alive) == 1:
        st.take_queue = alive  # Solo, or a Duel survivor: takes only 1 of the defeated Yokai
    else:
        finisher = st.finisher if st.finisher >= 0 else st.first_seat
        st.take_queue = [finisher, 1 - finisher]
    next_take(st, ctx)


def next_take(st: State, ctx: Context) -> None:
    """The next seat in the take queue picks (or takes the last candidate); then the game goes on."""
    if not st.take_queue or not st.pick_candidates:
        if st.stage != STAGE_SETUP:  # Solo setup candidates not chosen stay in their pile
            for y in st.pick_candidates:
                st.zone[y] = ZONE_GONE
        st.pick_candidates = []
        if st.stage == STAGE_SETUP:
            st.first_seat = 0
            start_night_battle(st, ctx)
            advance(st, ctx)
        else:
            next_battle(st, ctx)
        return
    seat = st.take_queue[0]
    if len(st.pick_candidates) == 1:
        take(st, seat, st.pick_candidates[0])
    else:
        ask(st, DECISION_PICK, seat)


def take(st: State, seat: int, y: int) -> None:
    """``seat`` takes Yokai ``y``; it then chooses Shikigami or Equip."""
    st.pick_candidates.remove(y)
    if st.stage == STAGE_SETUP:
        st.piles[st.card(y).lv].remove(y)  # Solo: "choose any 1 Yokai" of the pile
    st.zone[y] = ZONE_DEFEATED  # in the taker's hands until they decide Shikigami or Equip
    st.taking = y
    ask(st, DECISION_TAKE, seat)


def place_taken(st: State, seat: int, y: int, choice: int) -> None:
    """Yokai ``y`` becomes ``seat``'s Shikigami (``TAKE_SHIKIGAMI``) or Equip on edge ``choice - 1``."""
    p = st.players[seat]
    st.owner[y] = seat
    if choice == TAKE_SHIKIGAMI:
        st.zone[y] = ZONE_SHIKIGAMI
        p.shikigami.append(y)
        p.shiki_uses[y] = 0
    else:
        edge = EquipEdge(choice - 1)
        st.zone[y] = ZONE_EQUIP
        p.equips.append(Equip(y, edge))
        p.equip_stats = p.equip_stats.plus(st.card(y).edges[edge].stats)


# ------------------------------------------------------------------ menus
def shikigami_usable(st: State, p: Player, y: int, timing: Timing, seat: int) -> bool:
    sk = st.card(y).shiki
    if sk.timing != timing or y in p.used_this_turn:
        return False
    limit = sk.per_battle or sk.per_game
    if p.shiki_uses.get(y, 0) >= limit:
        return False
    ability = fx.active_variant(st, sk.ability)
    return ability.target != ABILITY_TARGET_ENEMY or bool(fx.ability_targets(st, seat, ability))


def start_menu_options(st: State, seat: int) -> list[int]:
    """The actions of ``seat``'s Start-of-turn menu besides ``done`` (empty: the menu is skipped)."""
    p = st.players[seat]
    return [USE_SHIKIGAMI + y for y in p.shikigami if shikigami_usable(st, p, y, TIMING_START_OF_TURN, seat)]


def action_menu_options(st: State, seat: int) -> list[int]:
    """The actions of ``seat``'s "On your action" menu besides ``done``."""
    p = st.players[seat]
    out = [USE_SHIKIGAMI + y for y in p.shikigami if shikigami_usable(st, p, y, TIMING_ON_ACTION, seat)]
    if not p.evolved and shikigami_lv_total(st, p) >= st.pool.characters[p.character].evolve_at:
        out.append(EVOLVE)
    edge = EDGE_OF_CARD[p.played]
    for y, e in p.equips:
        ability = st.card(y).edges[e].ability
        if e != edge or ability is None or y in p.used_this_turn:
            continue
        ability = fx.active_variant(st, ability)
        if ability.target != ABILITY_TARGET_ENEMY or fx.ability_targets(st, seat, ability):
            out.append(USE_EQUIP + y)
    return out


def shikigami_lv_total(st: State, p: Player) -> int:
    return sum(st.card(y).lv for y in p.shikigami)


# ------------------------------------------------------------------ the Solo Yokai deck
def flip_yokai_deck(st: State, ctx: Context) -> None:
    """Solo: while only 1 Yokai is out (not in the Boss battle), flip a Yokai deck card."""
    if st.boss_battle or fx.alive_enemy_count(st) != 1:
        return
    c = st.yokai_deck.pop(0)
    slot = next(slot for slot, e in enumerate(st.enemies) if e is not None and e.alive)
    ctx.see(None, EVENT_DECK_FLIP, slot, c)
    if not st.yokai_deck:
        shuffle_yokai_deck(st, ctx)  # shuffle again when all 3 have been flipped
    enemy = st.enemies[slot]
    assert enemy is not None
    enemy.deck_card = c


def shuffle_yokai_deck(st: State, ctx: Context) -> None:
    st.yokai_deck = [int(c) for c in ctx.rng.permutation(3)]
    ctx.see(None, EVENT_DECK_SHUFFLE)
