"""The one interpreter of the effect vocabulary, plus damage, healing and Yokai actions.

Every rule about *how much* happens lives here: DEF as a per-turn budget, marked (DEF-ignoring)
damage, Guard, the Boss's immunity, the heal cap, the difficulty modifiers and Yokai targeting.
``game.py`` decides *when* things happen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from yokai_envs.onmyoji.cards import Ability, YokaiAction
from yokai_envs.onmyoji.state import GUARD, SPELL, Enemy, Player

if TYPE_CHECKING:
    from yokai_envs.onmyoji.game import OnmyojiGame

HP_CAP = 20
# Target references (also the order of the target actions): enemy slots 0 (left) and 1 (right),
# then Onmyoji seats 0 and 1.
ENEMY_LEFT, ENEMY_RIGHT, PLAYER_0, PLAYER_1 = 0, 1, 2, 3


# ---------------------------------------------------------------------------------- stats
def player_atk(g: OnmyojiGame, p: Player) -> int:
    return g.side(p).atk + p.equip_stats[0] + p.atk_up


def player_def(g: OnmyojiGame, p: Player) -> int:
    return max(0, g.side(p).defense + p.equip_stats[1] + p.shield - p.weak)


def player_spl(g: OnmyojiGame, p: Player) -> int:
    return g.side(p).spl + p.equip_stats[2] + p.spl_up


def enemy_def(g: OnmyojiGame, e: Enemy) -> int:
    return max(0, g.card(e.yokai).defense - e.weak)


# ---------------------------------------------------------------------------------- damage
def _after_def(amount: int, defense: int, spent: int, pierce: bool) -> tuple[int, int]:
    """(damage taken, DEF budget used) -- DEF reduces a turn's total damage by its value."""
    if pierce:
        return amount, 0
    absorbed = min(amount, max(0, defense - spent))
    return amount - absorbed, absorbed


def hurt_enemy(g: OnmyojiGame, seat: int, slot: int, amount: int, pierce: bool) -> int:
    """``seat`` deals ``amount`` to the enemy in ``slot``; returns the HP it lost."""
    e = g.enemies[slot]
    if e is None or not e.alive or amount <= 0 or not g.enemy_can_be_hurt(e):
        return 0
    dealt, absorbed = _after_def(amount, enemy_def(g, e), e.def_spent, pierce)
    e.def_spent += absorbed
    dealt = min(dealt, e.hp)
    e.hp -= dealt
    if e.hp == 0:
        e.alive = False
        if not any(x is not None and x.alive for x in g.enemies):
            g.finisher = seat
    return dealt


def hurt_player(g: OnmyojiGame, seat: int, amount: int, pierce: bool) -> int:
    """An enemy (Yokai, Boss or the other Onmyoji in the Duel Final) damages Onmyoji ``seat``."""
    p = g.players[seat]
    if p.guarding or p.fallen or amount <= 0:  # Guard: this turn you take no damage
        return 0
    dealt, absorbed = _after_def(amount, player_def(g, p), p.def_spent, pierce)
    p.def_spent += absorbed
    dealt = min(dealt, p.hp)
    p.hp -= dealt
    if p.hp == 0:
        g.on_hp_zero(seat)
    return dealt


def heal(p: Player, amount: int) -> None:
    if not p.fallen:
        p.hp = min(HP_CAP, p.hp + amount)


# ---------------------------------------------------------------------------------- abilities
def active_variant(g: OnmyojiGame, ability: Ability) -> Ability:
    """The "(Duel: ...)" text replaces the ability in the Duel Final Battle."""
    return ability.duel if g.final_duel and ability.duel is not None else ability


def ability_targets(g: OnmyojiGame, seat: int, ability: Ability) -> list[int]:
    if ability.target == "enemy":
        return g.enemy_targets(seat)
    if ability.target == "ally":
        return g.ally_targets(seat)
    return []


def apply_ability(g: OnmyojiGame, seat: int, ability: Ability, target: int | None) -> None:
    """Resolve every effect of ``ability`` in order; ``target`` is a target reference or None."""
    me = g.players[seat]
    for verb, n in ability.effects:
        if verb in ("damage", "pierce", "weaken", "stop"):
            _enemy_effect(g, seat, verb, n, target)
        elif verb == "damage_all":
            for ref in g.enemy_targets(seat, include_immune=True):
                _enemy_effect(g, seat, "damage", n, ref)
        elif verb in ("heal", "shield"):
            ally = me if target is None or target < PLAYER_0 else g.players[target - PLAYER_0]
            if verb == "heal":
                heal(ally, n)
            else:
                ally.shield += n
        elif verb == "atk_up":
            me.atk_up += n
        elif verb == "spl_up":
            me.spl_up += n
        elif verb == "act_first":
            me.act_first = True
        elif verb == "refresh":
            for c in range(3):
                if me.used[c]:
                    me.used[c] = False
                    me.hand[c] = True
        else:  # pragma: no cover - the loader rejects unknown verbs
            raise AssertionError(verb)


def _enemy_effect(g: OnmyojiGame, seat: int, verb: str, n: int, target: int | None) -> None:
    if target is None:
        return
    if target >= PLAYER_0:  # the other Onmyoji, in the Duel Final Battle
        other = g.players[target - PLAYER_0]
        if other.guarding:  # Guard: no enemy action affects you
            return
        if verb in ("damage", "pierce"):
            hurt_player(g, target - PLAYER_0, n, pierce=verb == "pierce")
        elif verb == "weaken":
            other.weak += n
        return
    e = g.enemies[target]
    if verb in ("damage", "pierce"):
        hurt_enemy(g, seat, target, n, pierce=verb == "pierce")
    elif verb == "weaken":
        e.weak += n
    elif verb == "stop":
        e.stopped = True


def resolve_card(g: OnmyojiGame, seat: int, card: int, target: int | None) -> None:
    """Attack: ATK to 1 enemy, reduced by DEF. Spell: SPL to 1 enemy, DEF ignored. Guard: nothing more."""
    if target is None or card == GUARD:
        return
    p = g.players[seat]
    amount = player_spl(g, p) if card == SPELL else player_atk(g, p)
    _enemy_effect(g, seat, "pierce" if card == SPELL else "damage", amount, target)


# ---------------------------------------------------------------------------------- Yokai actions
def yokai_damage(g: OnmyojiGame, e: Enemy, action: YokaiAction) -> int:
    """The action's damage with "when no other Yokai is left" and the difficulty modifiers."""
    amount = action.damage
    lone = g.alive_enemy_count() == 1
    if lone:
        amount += action.lone_bonus
    if g.mode == "coop":
        lvl = g.coop_level
        if e.is_boss:
            amount += (2 if lvl.boss_boost else 0) + lvl.boss_plus
        if lone and lvl.lone_plus_one:
            amount += 1
        if lvl.enemy_plus_one:
            amount += 1
    elif g.mode == "solo":
        lvl = g.solo_level
        if lone and lvl.lone_plus_one:
            amount += 1
        if e.is_boss:
            amount += lvl.boss_plus
    return amount


def yokai_action_seats(g: OnmyojiGame, target: str) -> list[int]:
    """Seats an action aimed at ``target`` hits (a fallen player's share goes to the survivor)."""
    if g.mode == "solo":
        return [0] if target == "both" or target in g.solo_level.take else []
    alive = [s for s in (0, 1) if not g.players[s].fallen]
    if target == "both":
        return alive
    seat = {"first": g.first_seat, "second": 1 - g.first_seat, "left": 0, "right": 1}[target]
    if g.players[seat].fallen:
        return alive  # the surviving player takes it instead (empty when none survives)
    return [seat]


def yokai_take_action(g: OnmyojiGame, e: Enemy) -> None:
    """One Yokai's action this turn; its order moves on even when it was stopped."""
    if not e.alive or g.over:
        return
    if e.deck_card == GUARD:  # Solo deck Guard: it does not act, and takes this action next turn
        return
    actions = g.card(e.yokai).actions
    action = actions[e.next_action]
    if not e.stopped and not action.rest:
        amount = yokai_damage(g, e, action)
        pierce = action.marked or e.deck_card == SPELL
        for seat in yokai_action_seats(g, action.target):
            hurt_player(g, seat, amount, pierce)
            if g.over:
                break
    e.next_action = next_action_index(g, e)


def next_action_index(g: OnmyojiGame, e: Enemy) -> int:
    n = len(g.card(e.yokai).actions)
    if e.is_boss:  # the Boss repeats its last action once it reaches it
        return min(e.next_action + 1, n - 1)
    if g.card(e.yokai).repeat_third and e.next_action == 2:
        return 2
    return (e.next_action + 1) % n
