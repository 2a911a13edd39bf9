"""Scenario builders for the Onmyoji rules tests: set up a position, then play decisions."""

from __future__ import annotations

from yokai_envs.onmyoji import encoding as enc
from yokai_envs.onmyoji.cards import load_pool
from yokai_envs.onmyoji.game import D_PLAY, D_TARGET, OnmyojiGame
from yokai_envs.onmyoji.state import ATTACK, GUARD, PILE, SPELL, Enemy

POOL = load_pool()
Y = {y.name: y.index for y in POOL.yokai}
A, G, S = enc.PLAY + ATTACK, enc.PLAY + GUARD, enc.PLAY + SPELL
T_LEFT, T_RIGHT, T_P0, T_P1 = enc.TARGET, enc.TARGET + 1, enc.TARGET + 2, enc.TARGET + 3


def new_game(mode: str = "duel", characters=("Kuzunoha", "Yasunori"), seed: int = 0, difficulty: int = 1,
             solo_start: str | None = "Kappa") -> OnmyojiGame:
    """A game after setup (Solo: the starting Yokai taken as an Equip on the right edge)."""
    if mode == "solo" and characters is not None and not isinstance(characters, str):
        characters = characters[0]
    g = OnmyojiGame(mode=mode, characters=characters, difficulty=difficulty)
    g.reset(seed)
    if mode == "solo" and solo_start is not None:
        lv = g.solo_level.starting_shikigami_lv
        name = solo_start if POOL.yokai[Y[solo_start]].lv == lv else next(
            y.name for y in POOL.yokai if y.lv == lv)
        g.step(enc.PICK + Y[name])
        g.step(enc.TAKE + 2)
    return g


def _free(g: OnmyojiGame, y: int) -> None:
    """Take Yokai ``y`` out of its pile (tests place it somewhere else)."""
    for pile in g.piles:
        if y in pile:
            pile.remove(y)


def put_battle(g: OnmyojiGame, names: list[str], first: int = 0, boss: bool = False) -> OnmyojiGame:
    """Replace the current battle by one against ``names`` (left, right) and run to the first decision."""
    for e in g.enemies:
        if e is not None and not e.is_boss and g.zone[e.yokai] != PILE:
            g.zone[e.yokai] = PILE
            g.piles[POOL.yokai[e.yokai].lv].append(e.yokai)
    enemies: list[Enemy | None] = []
    if boss:
        g.boss_battle = True
        enemies.append(Enemy(POOL.boss.index, POOL.boss.hp, is_boss=True))
    for n in names:
        y = Y[n]
        _free(g, y)
        g.zone[y] = 1  # IN_PLAY
        enemies.append(Enemy(y, POOL.yokai[y].hp))
    enemies += [None] * (2 - len(enemies))
    g.first_seat = first
    g._start_battle(enemies)
    g._advance()
    g._mask_cache = None
    return g


def give(g: OnmyojiGame, seat: int, name: str, choice: int) -> None:
    """Give Yokai ``name`` to ``seat``: choice 0 Shikigami, 1/2/3 Equip left/right/bottom."""
    y = Y[name]
    _free(g, y)
    g._place_taken(seat, y, choice)
    g._mask_cache = None


def legal(g: OnmyojiGame) -> set[int]:
    return {int(a) for a in g.legal_action_mask().nonzero()[0]}


def play_turn(g: OnmyojiGame, cards: list[int], targets: dict[int, int] | None = None) -> None:
    """Both seats play ``cards`` (in seat order), pass every menu and aim at ``targets[seat]``."""
    targets = targets or {}
    chosen = dict(enumerate(cards))
    start_turn = g.turn
    start_battle = (g.night, g.battle)
    while not g.is_over and g.turn == start_turn and (g.night, g.battle) == start_battle:
        seat, mask = g.current_player, legal(g)
        if mask & {A, G, S} and g.decision == D_PLAY:
            card = chosen.get(seat)
            g.step(card if card is not None else min(mask))  # None: the first card in hand
        elif mask & {T_LEFT, T_RIGHT, T_P0, T_P1} and g.decision == D_TARGET:
            g.step(targets.get(seat, min(mask)))
        elif enc.DONE in mask:
            g.step(enc.DONE)
        else:
            break
