"""Onmyoji: three nights -- the flow of the rulebook (Solo, Duel and Co-op).

Setup, nights and battles, the six-step turn, the simultaneous face-down card choice, the picks
after a battle, the Boss battle and the Duel Final Battle; and which abilities the menus offer.
What each decision allows and does is in ``decisions.py``; how much damage or healing happens,
who may be targeted and what a fall does in ``effects.py``. Every function takes the game (the
table's state lives on it, see ``OnmyojiGame._init_empty``).
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
    Zone,
)

if TYPE_CHECKING:
    from yokai_envs.onmyoji.game import OnmyojiGame

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
def setup(g: OnmyojiGame) -> None:
    """Shuffle the Yokai piles, seat the Characters and start the game (the table is empty)."""
    for lv in (1, 2, 3):
        pile = [y.index for y in g.pool.yokai if y.lv == lv]
        g.piles[lv] = [pile[i] for i in g.rng.permutation(len(pile))]
    n = g.num_players
    if g.fixed_characters is not None:
        chars = g.fixed_characters
    else:
        chars = [int(c) for c in g.rng.permutation(len(g.pool.characters))[:n]]
    for seat, c in enumerate(chars):
        g.see(None, EVENT_CHARACTER, seat, c)
        front = g.pool.characters[c].front
        hp = front.hp + (g.solo_level.character_plus if g.mode == MODE_SOLO else 0)
        g.players.append(Player(c, min(fx.HP_CAP, hp)))
    if g.mode == MODE_SOLO:
        # Solo setup 2: choose any 1 Yokai of the Starting Shikigami Lv.
        lv = g.solo_level.starting_shikigami_lv
        g.stage = STAGE_SETUP
        g.pick_candidates = [y.index for y in g.pool.yokai if y.lv == lv]
        g.take_queue = [0]
        ask(g, DECISION_PICK, 0)
        return
    # The player with lower HP goes first; if tied, the left player (seat 0).
    g.first_seat = 1 if g.players[1].hp < g.players[0].hp else 0
    start_night_battle(g)
    advance(g)


def ask(g: OnmyojiGame, decision: Decision, seat: int) -> None:
    g.decision = decision
    g.decider = seat


def _draw_yokai(g: OnmyojiGame, lv: int) -> int:
    y = g.piles[lv].pop(0)  # the top of the shuffled pile: a random remaining Yokai of that Lv
    g.zone[y] = ZONE_IN_PLAY
    return y


# ------------------------------------------------------------------ battles
def start_night_battle(g: OnmyojiGame) -> None:
    count = 1 if g.mode == MODE_SOLO and g.battle == 1 else 2
    ys = [_draw_yokai(g, g.night) for _ in range(count)]
    enemies: list[Enemy | None] = [Enemy(y, g.card(y).hp) for y in ys]
    start_battle(g, enemies + [None] * (2 - count))


def start_boss_battle(g: OnmyojiGame) -> None:
    g.boss_battle = True
    if g.mode == MODE_SOLO and g.solo_level.heal_before_boss:
        fx.heal(g, 0, min(fx.HP_CAP, g.side(g.players[0]).hp) - g.players[0].hp)
    minion = _draw_yokai(g, 3)
    boss = g.pool.boss
    # The minion stands to the right of the Boss.
    # R33: a Co-op level's Boss HP +N (0 but in variant "balanced", a modifier the book does not list)
    boss_hp = boss.hp + (g.coop_level.boss_hp_plus if g.mode == MODE_COOP else 0)
    start_battle(g, [Enemy(boss.index, boss_hp, is_boss=True), Enemy(minion, g.card(minion).hp)])


def start_duel_final(g: OnmyojiGame) -> None:
    g.final_duel = True
    if not g.book:
        # R30 (balanced variant): on a tie in HP the Final's first turn is led by the Onmyoji who
        # picked first after the last Night-3 battle (its finisher, R12), not the one who took
        # second (``first_seat`` now): leaving that Yokai to the other buys nothing. The book keeps
        # ``first_seat``: whoever took a Yokai second leads the next battle, the Final included.
        g.first_seat = final_first_player(g, tie=1 - g.first_seat)
    g.final_opening_seat = g.first_seat
    start_battle(g, [None, None])


def final_first_player(g: OnmyojiGame, tie: int) -> int:
    """R30 (balanced variant): in the Duel Final every turn is led by the Onmyoji with less HP
    (the setup rule, §3 step 5, applied to each turn of the Final), ``tie`` when their HP are
    equal. The first player wins a race in which both could bring the other to 0, so this hands
    that edge to the one behind instead of fixing it for the whole Final."""
    hp0, hp1 = g.players[0].hp, g.players[1].hp
    return tie if hp0 == hp1 else int(hp1 < hp0)


def start_battle(g: OnmyojiGame, enemies: list[Enemy | None]) -> None:
    """A battle against ``enemies`` (left, right; None for an empty slot) begins with turn 1."""
    g.enemies = enemies
    g.finisher = -1
    g.turn = 1
    if g._seen is not None:
        g.see(None, EVENT_BATTLE, 4 if g.final_duel or g.boss_battle else g.night, g.battle, g.first_seat)
        for slot, e in enumerate(enemies):
            if e is not None:
                g.see(None, EVENT_YOKAI_OUT, slot, e.yokai)
    if g.mode == MODE_SOLO:
        shuffle_yokai_deck(g)  # the Solo Yokai deck is reshuffled at the start of each battle
    for p in g.players:
        p.hand = [True, True, True]  # each player returns their hand to 3 cards
        p.used = [False, False, False]
        p.played = -1
        p.revealed = False
        for y in p.shikigami:
            if g.card(y).shiki.per_battle:
                p.shiki_uses[y] = 0
    begin_turn(g)


def next_battle(g: OnmyojiGame) -> None:
    if g.battle == 1:
        g.battle = 2
    else:
        g.night += 1
        g.battle = 1
    if g.night <= 3:
        start_night_battle(g)
    elif g.mode == MODE_DUEL:
        alive = [s for s in range(2) if not g.players[s].fallen]
        if len(alive) == 1:
            fx.duel_winner(g, alive[0])  # only one player alive after Night 3 wins
            return
        start_duel_final(g)
    else:
        start_boss_battle(g)
    advance(g)


# ------------------------------------------------------------------ the turn
def turn_order(g: OnmyojiGame) -> list[int]:
    seats = [g.first_seat, 1 - g.first_seat] if len(g.players) == 2 else [0]
    return [s for s in seats if not g.players[s].fallen]


def begin_turn(g: OnmyojiGame) -> None:
    for p in g.players:
        p.reset_turn()
        p.played = -1
        p.revealed = False
    for e in g.enemies:
        if e is not None:
            e.reset_turn()
    if g.final_duel and g.turn > 1 and not g.book:
        g.first_seat = final_first_player(g, tie=g.first_seat)
    g.stage = STAGE_START
    g.order = turn_order(g)
    g.cursor = 0
    g.see(None, EVENT_TURN, g.turn, g.first_seat)


def advance(g: OnmyojiGame) -> None:
    """Run the automatic parts of the flow until a seat must decide (or the game ends)."""
    while not g.over:
        st = g.stage
        if st == STAGE_START:
            while g.cursor < len(g.order) and not start_menu_options(g, g.order[g.cursor]):
                g.cursor += 1
            if g.cursor < len(g.order):
                ask(g, DECISION_START_MENU, g.order[g.cursor])
                return
            g.stage = STAGE_PLAY
            g.order = turn_order(g)
            g.cursor = 0
        elif st == STAGE_PLAY:
            if g.cursor < len(g.order):
                ask(g, DECISION_PLAY, g.order[g.cursor])
                return
            _reveal(g)
        elif st in (STAGE_GUARD, STAGE_ATTACK):
            while g.cursor < len(g.order) and not _can_act(g, g.order[g.cursor]):
                g.cursor += 1
            if g.cursor < len(g.order):
                ask(g, DECISION_ACTION_MENU, g.order[g.cursor])
                return
            if st == STAGE_GUARD:
                _begin_attack_step(g)
            else:
                _yokai_step(g)
                if not g.over:
                    _end_turn(g)
        else:
            return


def _can_act(g: OnmyojiGame, seat: int) -> bool:
    p = g.players[seat]
    # A fallen Onmyoji does nothing more (R13; in the Duel Final a fall ends the game, R2).
    return p.played >= 0 and not p.used[p.played] and not p.fallen


def _reveal(g: OnmyojiGame) -> None:
    for s in g.order:
        p = g.players[s]
        g.see(None, EVENT_REVEAL, s, p.played)
        p.revealed = True
        p.guarding = p.played == GUARD
    fx.land_held_effects(g)
    if g.over:  # a held Start-of-turn effect ended the Duel Final (R2)
        return
    g.stage = STAGE_GUARD
    g.order = [s for s in turn_order(g) if g.players[s].played == GUARD]
    g.cursor = 0


def _begin_attack_step(g: OnmyojiGame) -> None:
    seats = [s for s in turn_order(g) if g.players[s].played in (ATTACK, SPELL)]
    # A player with an "act first" effect acts first (stable: ties keep the first player first).
    seats.sort(key=lambda s: not g.players[s].act_first)
    g.stage = STAGE_ATTACK
    g.order = seats
    g.cursor = 0


def _yokai_step(g: OnmyojiGame) -> None:
    if g.final_duel:
        return  # the Onmyoji do not take Yokai actions
    for slot in (1, 0):  # the right Yokai acts, then the left Yokai
        fx.yokai_take_action(g, slot)


def _end_turn(g: OnmyojiGame) -> None:
    for p in g.players:
        if p.played >= 0 and not p.used[p.played]:
            p.used[p.played] = True  # a card that was never resolved (a fallen player's) is Used too
        p.played = -1
        p.revealed = False
        if not any(p.hand):  # 0 cards in hand: return all used action cards
            p.hand = [True, True, True]
            p.used = [False, False, False]
    if g.final_duel:
        # A player brought to 0 has already lost (R2); here only the turn cap ends it (R3).
        if g.turn >= DUEL_FINAL_TURN_CAP:
            hp = [p.hp for p in g.players]
            fx.duel_winner(g, g.first_seat if hp[0] == hp[1] else int(np.argmax(hp)))
        else:
            g.turn += 1
            begin_turn(g)
        return
    if fx.alive_enemy_count(g) == 0:
        _after_battle(g)
    else:
        g.turn += 1
        begin_turn(g)


# ------------------------------------------------------------------ after a battle: picks
def _after_battle(g: OnmyojiGame) -> None:
    if g.boss_battle:
        fx.finish(g, [1.0] * g.num_players)  # the Boss falls with every Onmyoji alive
        return
    g.stage = STAGE_AFTER
    g.pick_candidates = [e.yokai for e in g.enemies if e is not None]
    for y in g.pick_candidates:
        g.zone[y] = ZONE_DEFEATED
    g.enemies = [None, None]
    alive = [s for s in range(g.num_players) if not g.players[s].fallen]
    if len(alive) == 1:
        g.take_queue = alive  # Solo, or a Duel survivor: takes only 1 of the defeated Yokai
    else:
        finisher = g.finisher if g.finisher >= 0 else g.first_seat
        g.take_queue = [finisher, 1 - finisher]
    next_take(g)


def next_take(g: OnmyojiGame) -> None:
    """The next seat in the take queue picks (or takes the last candidate); then the game goes on."""
    if not g.take_queue or not g.pick_candidates:
        if g.stage != STAGE_SETUP:  # Solo setup candidates not chosen stay in their pile
            for y in g.pick_candidates:
                g.zone[y] = ZONE_GONE
        g.pick_candidates = []
        if g.stage == STAGE_SETUP:
            g.first_seat = 0
            start_night_battle(g)
            advance(g)
        else:
            next_battle(g)
        return
    seat = g.take_queue[0]
    if len(g.pick_candidates) == 1:
        take(g, seat, g.pick_candidates[0])
    else:
        ask(g, DECISION_PICK, seat)


def take(g: OnmyojiGame, seat: int, y: int) -> None:
    """``seat`` takes Yokai ``y``; it then chooses Shikigami or Equip."""
    g.pick_candidates.remove(y)
    if g.stage == STAGE_SETUP:
        g.piles[g.card(y).lv].remove(y)  # Solo: "choose any 1 Yokai" of the pile
    g.zone[y] = ZONE_DEFEATED  # in the taker's hands until they decide Shikigami or Equip
    g.taking = y
    ask(g, DECISION_TAKE, seat)


def place_taken(g: OnmyojiGame, seat: int, y: int, choice: int) -> None:
    """Yokai ``y`` becomes ``seat``'s Shikigami (``TAKE_SHIKIGAMI``) or Equip on edge ``choice - 1``."""
    p = g.players[seat]
    g.owner[y] = seat
    if choice == TAKE_SHIKIGAMI:
        g.zone[y] = ZONE_SHIKIGAMI
        p.shikigami.append(y)
        p.shiki_uses[y] = 0
    else:
        edge = EquipEdge(choice - 1)
        g.zone[y] = ZONE_EQUIP
        p.equips.append(Equip(y, edge))
        p.equip_stats = p.equip_stats.plus(g.card(y).edges[edge].stats)


# ------------------------------------------------------------------ menus
def shikigami_usable(g: OnmyojiGame, p: Player, y: int, timing: Timing, seat: int) -> bool:
    sk = g.card(y).shiki
    if sk.timing != timing or y in p.used_this_turn:
        return False
    limit = sk.per_battle or sk.per_game
    if p.shiki_uses.get(y, 0) >= limit:
        return False
    ability = fx.active_variant(g, sk.ability)
    return ability.target != ABILITY_TARGET_ENEMY or bool(fx.ability_targets(g, seat, ability))


def start_menu_options(g: OnmyojiGame, seat: int) -> list[int]:
    """The actions of ``seat``'s Start-of-turn menu besides ``done`` (empty: the menu is skipped)."""
    p = g.players[seat]
    return [USE_SHIKIGAMI + y for y in p.shikigami if shikigami_usable(g, p, y, TIMING_START_OF_TURN, seat)]


def action_menu_options(g: OnmyojiGame, seat: int) -> list[int]:
    """The actions of ``seat``'s "On your action" menu besides ``done``."""
    p = g.players[seat]
    out = [USE_SHIKIGAMI + y for y in p.shikigami if shikigami_usable(g, p, y, TIMING_ON_ACTION, seat)]
    if not p.evolved and shikigami_lv_total(g, p) >= g.pool.characters[p.character].evolve_at:
        out.append(EVOLVE)
    edge = EDGE_OF_CARD[p.played]
    for y, e in p.equips:
        ability = g.card(y).edges[e].ability
        if e != edge or ability is None or y in p.used_this_turn:
            continue
        ability = fx.active_variant(g, ability)
        if ability.target != ABILITY_TARGET_ENEMY or fx.ability_targets(g, seat, ability):
            out.append(USE_EQUIP + y)
    return out


def shikigami_lv_total(g: OnmyojiGame, p: Player) -> int:
    return sum(g.card(y).lv for y in p.shikigami)


# ------------------------------------------------------------------ the Solo Yokai deck
def flip_yokai_deck(g: OnmyojiGame) -> None:
    """Solo: while only 1 Yokai is out (not in the Boss battle), flip a Yokai deck card."""
    if g.boss_battle or fx.alive_enemy_count(g) != 1:
        return
    c = g.yokai_deck.pop(0)
    slot = next(slot for slot, e in enumerate(g.enemies) if e is not None and e.alive)
    g.see(None, EVENT_DECK_FLIP, slot, c)
    if not g.yokai_deck:
        shuffle_yokai_deck(g)  # shuffle again when all 3 have been flipped
    enemy = g.enemies[slot]
    assert enemy is not None
    enemy.deck_card = c


def shuffle_yokai_deck(g: OnmyojiGame) -> None:
    g.yokai_deck = [int(c) for c in g.rng.permutation(3)]
    g.see(None, EVENT_DECK_SHUFFLE)
