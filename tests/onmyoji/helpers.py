"""Scenario builders for the Onmyoji rules tests: set up a position, then play decisions."""

from __future__ import annotations

from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import rules
from yokai_envs.onmyoji.cards import load_pool
from yokai_envs.onmyoji.game import OnmyojiGame
from yokai_envs.onmyoji.state import ATTACK, GUARD, SPELL, Decision, Enemy, Zone

POOL = load_pool()
Y = {y.name: y.index for y in POOL.yokai}
A, G, S = act.PLAY + ATTACK, act.PLAY + GUARD, act.PLAY + SPELL
T_LEFT, T_RIGHT, T_P0, T_P1 = act.TARGET, act.TARGET + 1, act.TARGET + 2, act.TARGET + 3


def new_game(mode: str = "duel", characters=("Kuzunoha", "Yasunori"), seed: int = 0, difficulty: int = 1,
             solo_start: str | None = "Kappa", variant: str = "book") -> OnmyojiGame:
    """A game after setup (Solo: the starting Yokai taken as an Equip on the right edge)."""
    if mode == "solo" and characters is not None and not isinstance(characters, str):
        characters = characters[0]
    g = OnmyojiGame(mode=mode, characters=characters, difficulty=difficulty, variant=variant)
    g.reset(seed)
    if mode == "solo" and solo_start is not None:
        lv = g.solo_level.starting_shikigami_lv
        name = solo_start if POOL.yokai[Y[solo_start]].lv == lv else next(
            y.name for y in POOL.yokai if y.lv == lv)
        g.step(act.PICK + Y[name])
        g.step(act.TAKE + 2)
    return g


def _free(g: OnmyojiGame, y: int) -> None:
    """Take Yokai ``y`` out of its pile (tests place it somewhere else)."""
    for pile in g.piles:
        if y in pile:
            pile.remove(y)


def put_battle(g: OnmyojiGame, names: list[str], first: int = 0, boss: bool = False) -> OnmyojiGame:
    """Replace the current battle by one against ``names`` (left, right) and run to the first decision."""
    for e in g.enemies:
        if e is not None and not e.is_boss and g.zone[e.yokai] != Zone.PILE:
            g.zone[e.yokai] = Zone.PILE
            g.piles[POOL.yokai[e.yokai].lv].append(e.yokai)
    enemies: list[Enemy | None] = []
    if boss:
        g.boss_battle = True
        enemies.append(Enemy(POOL.boss.index, POOL.boss.hp, is_boss=True))
    for n in names:
        y = Y[n]
        _free(g, y)
        g.zone[y] = Zone.IN_PLAY
        enemies.append(Enemy(y, POOL.yokai[y].hp))
    enemies += [None] * (2 - len(enemies))
    g.first_seat = first
    rules.start_battle(g.state, g.rules_context(), enemies)
    rules.advance(g.state, g.rules_context())
    g.invalidate_mask()
    return g


def give(g: OnmyojiGame, seat: int, name: str, choice: int) -> None:
    """Give Yokai ``name`` to ``seat``: choice 0 Shikigami, 1/2/3 Equip left/right/bottom."""
    y = Y[name]
    _free(g, y)
    rules.place_taken(g.state, seat, y, choice)
    g.invalidate_mask()


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
        if mask & {A, G, S} and g.decision == Decision.PLAY:
            card = chosen.get(seat)
            g.step(card if card is not None else min(mask))  # None: the first card in hand
        elif mask & {T_LEFT, T_RIGHT, T_P0, T_P1} and g.decision == Decision.TARGET:
            g.step(targets.get(seat, min(mask)))
        elif act.DONE in mask:
            g.step(act.DONE)
        else:
            break
