"""The one interpreter of the effect vocabulary, plus targets, damage, healing, falls and Yokai actions.

Every rule about *how much* happens lives here: DEF as a per-turn budget, marked (DEF-ignoring)
damage, Guard, the Boss's immunity, who may be targeted, the heal cap, what a fall does, the
difficulty modifiers and Yokai targeting. ``rules.py`` decides *when* things happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from yokai_envs.onmyoji.cards import Ability, AbilityTarget, Verb, YokaiAction, YokaiTarget
from yokai_envs.onmyoji.state import GUARD, SPELL, Decision, Enemy, Event, Mode, Player, Stage, State, Target

if TYPE_CHECKING:
    from yokai_envs.core.context import Context

# Members bound once to module names for the per-step paths: Python 3.11 resolves every
# ``Enum.X`` through the enum metaclass, about fifteen times the cost of reading a global.
ABILITY_TARGET_ALLY, ABILITY_TARGET_ENEMY = AbilityTarget.ALLY, AbilityTarget.ENEMY
DECISION_NONE = Decision.NONE
(EVENT_DAMAGE, EVENT_FALL, EVENT_GAME_OVER, EVENT_HEAL, EVENT_YOKAI_ACTS) = (
    Event.DAMAGE, Event.FALL, Event.GAME_OVER, Event.HEAL, Event.YOKAI_ACTS,
)
MODE_COOP, MODE_DUEL, MODE_SOLO = Mode.COOP, Mode.DUEL, Mode.SOLO
STAGE_OVER, STAGE_START = Stage.OVER, Stage.START


HP_CAP = 20
# Target references (also the order of the target actions): see state.Target.
ENEMY_LEFT, ENEMY_RIGHT, PLAYER_0, PLAYER_1 = Target.ENEMY_LEFT, Target.ENEMY_RIGHT, Target.PLAYER_0, Target.PLAYER_1
#: Verbs resolved against the ability's enemy target, and the two that deal damage.
_TARGET_VERBS = frozenset({Verb.DAMAGE, Verb.PIERCE, Verb.WEAKEN, Verb.STOP})
_DAMAGE_VERBS = frozenset({Verb.DAMAGE, Verb.PIERCE})
#: Game outcomes of ``Event.GAME_OVER``: seat 0 or 1 wins (Duel), everyone loses, the team clears.
SEAT_0_WINS, SEAT_1_WINS, ALL_LOSE, CLEARED = 0, 1, 2, 3


# ---------------------------------------------------------------------------------- stats
def player_atk(st: State, p: Player) -> int:
    return st.side(p).atk + p.equip_stats.atk + p.atk_up


def player_def(st: State, p: Player) -> int:
    return max(0, st.side(p).defense + p.equip_stats.defense + p.shield - p.weak)


def player_spl(st: State, p: Player) -> int:
    return st.side(p).spl + p.equip_stats.spl + p.spl_up


def enemy_def(st: State, e: Enemy) -> int:
    return max(0, st.card(e.yokai).defense - e.weak)


# ---------------------------------------------------------------------------------- targets
def enemy_can_be_hurt(st: State, e: Enemy) -> bool:
    if e.deck_card == GUARD:
        return False
    # While the minion is alive, the Boss takes no damage.
    minion = st.enemies[1]
    return not (e.is_boss and minion is not None and minion.alive)


def enemy_targets(st: State, seat: int, include_immune: bool = False) -> list[int]:
    """Target references ``seat`` may aim an Attack, a Spell or an enemy ability at.

    Ruling R4: the immune Boss (its minion alive) is no target for damage alone; ``include_immune``
    lists it too, for "all enemies" damage and for abilities that also stop or weaken."""
    if st.final_duel:
        return [PLAYER_0 + 1 - seat]
    out = []
    for slot, e in enumerate(st.enemies):
        if e is None or not e.alive:
            continue
        if e.is_boss and not include_immune and not enemy_can_be_hurt(st, e):
            continue
        out.append(slot)
    return out


def _more_than_damage(ability: Ability) -> bool:
    """Whether ``ability`` does something to its enemy target besides damage (stop, weaken)."""
    return any(verb in _TARGET_VERBS and verb not in _DAMAGE_VERBS for verb, _ in ability.effects)


def ally_targets(st: State, seat: int) -> list[int]:
    # Ruling: in Solo and Duel your only ally is yourself; in Co-op either living Onmyoji.
    if st.mode == MODE_COOP:
        return [PLAYER_0 + s for s in range(2) if not st.players[s].fallen]
    return [PLAYER_0 + seat]


def alive_enemy_count(st: State) -> int:
    return sum(1 for e in st.enemies if e is not None and e.alive)


# ---------------------------------------------------------------------------------- falling and the end
def on_hp_zero(st: State, ctx: Context, seat: int) -> None:
    ctx.see(None, EVENT_FALL, PLAYER_0 + seat)
    st.players[seat].fallen = True
    if st.final_duel:
        duel_winner(st, ctx, 1 - seat)  # R2: the first to bring the other to 0 wins, at once
        return
    if st.mode != MODE_DUEL:
        finish(st, ctx, [-1.0] * st.num_players)  # Co-op/Solo: a fall loses at once
    elif all(p.fallen for p in st.players):
        finish(st, ctx, [-1.0, -1.0])  # both fall: both lose


def finish(st: State, ctx: Context, rewards: Sequence[float]) -> None:
    """The game ends with these per-seat returns."""
    st.over = True
    st.stage = STAGE_OVER
    st.decision = DECISION_NONE
    st.decider = -1
    st.final_returns = np.array(rewards, dtype=np.float64)
    if ctx.recording:
        if rewards[0] > 0:
            outcome = CLEARED if st.mode == MODE_COOP or st.num_players == 1 else SEAT_0_WINS
        else:
            outcome = SEAT_1_WINS if len(rewards) == 2 and rewards[1] > 0 and st.mode != MODE_COOP else ALL_LOSE
        ctx.see(None, EVENT_GAME_OVER, outcome)


def duel_winner(st: State, ctx: Context, seat: int) -> None:
    r = [-1.0, -1.0]
    r[seat] = 1.0
    finish(st, ctx, r)


# ---------------------------------------------------------------------------------- damage
def _after_def(amount: int, defense: int, spent: int, pierce: bool) -> tuple[int, int]:
    """(damage taken, DEF budget used) -- DEF reduces a turn's total damage by its value."""
    if pierce:
        return amount, 0
    absorbed = min(amount, max(0, defense - spent))
    return amount - absorbed, absorbed


def hurt_enemy(st: State, ctx: Context, seat: int, slot: int, amount: int, pierce: bool) -> int:
    """``seat`` deals ``amount`` to the enemy in ``slot``; returns the HP it lost."""
    e = st.enemies[slot]
    if e is None or not e.alive or amount <= 0 or not enemy_can_be_hurt(st, e):
        return 0
    dealt, absorbed = _after_def(amount, enemy_def(st, e), e.def_spent, pierce)
    e.def_spent += absorbed
    dealt = min(dealt, e.hp)
    e.hp -= dealt
    if dealt:
        ctx.see(None, EVENT_DAMAGE, slot, dealt)
    if e.hp == 0:
        ctx.see(None, EVENT_FALL, slot)
        e.alive = False
        if not any(x is not None and x.alive for x in st.enemies):
            st.finisher = seat
    return dealt


def hurt_player(st: State, ctx: Context, seat: int, amount: int, pierce: bool) -> int:
    """An enemy (Yokai, Boss or the other Onmyoji in the Duel Final) damages Onmyoji ``seat``."""
    p = st.players[seat]
    if p.guarding or p.fallen or amount <= 0:  # Guard: this turn you take no damage
        return 0
    dealt, absorbed = _after_def(amount, player_def(st, p), p.def_spent, pierce)
    p.def_spent += absorbed
    dealt = min(dealt, p.hp)
    p.hp -= dealt
    if dealt:
        ctx.see(None, EVENT_DAMAGE, PLAYER_0 + seat, dealt)
    if p.hp == 0:
        on_hp_zero(st, ctx, seat)
    return dealt


def heal(st: State, ctx: Context, seat: int, amount: int) -> None:
    """Onmyoji ``seat`` heals ``amount`` (up to the cap; a fallen one does not)."""
    p = st.players[seat]
    if not p.fallen:
        gained = max(0, min(HP_CAP, p.hp + amount) - p.hp)
        p.hp += gained
        if gained:
            ctx.see(None, EVENT_HEAL, PLAYER_0 + seat, gained)


# ---------------------------------------------------------------------------------- abilities
def active_variant(st: State, ability: Ability) -> Ability:
    """The "(Duel: ...)" text replaces the ability in the Duel Final Battle."""
    return ability.duel if st.final_duel and ability.duel is not None else ability


def ability_targets(st: State, seat: int, ability: Ability) -> list[int]:
    if ability.target == ABILITY_TARGET_ENEMY:
        return enemy_targets(st, seat, include_immune=_more_than_damage(ability))
    if ability.target == ABILITY_TARGET_ALLY:
        return ally_targets(st, seat)
    return []


def apply_ability(st: State, ctx: Context, seat: int, ability: Ability, target: int | None) -> None:
    """Resolve every effect of ``ability`` in order; ``target`` is a target reference or None.
    An effect that ends the game (a Duel Final knock-out) ends the ability too."""
    me = st.players[seat]
    for verb, n in ability.effects:
        if st.over:
            return
        if verb in _TARGET_VERBS:
            _enemy_effect(st, ctx, seat, verb, n, target)
        elif verb == Verb.DAMAGE_ALL:
            for ref in enemy_targets(st, seat, include_immune=True):
                _enemy_effect(st, ctx, seat, Verb.DAMAGE, n, ref)
        elif verb in (Verb.HEAL, Verb.SHIELD):
            ally = seat if target is None or target < PLAYER_0 else target - PLAYER_0
            if verb == Verb.HEAL:
                heal(st, ctx, ally, n)
            else:
                st.players[ally].shield += n
        elif verb == Verb.ATK_UP:
            me.atk_up += n
        elif verb == Verb.SPL_UP:
            me.spl_up += n
        elif verb == Verb.ACT_FIRST:
            me.act_first = True
        elif verb == Verb.REFRESH:
            for c in range(3):
                if me.used[c]:
                    me.used[c] = False
                    me.hand[c] = True
        else:  # pragma: no cover - the loader rejects unknown verbs
            raise AssertionError(verb)


def _enemy_effect(st: State, ctx: Context, seat: int, verb: Verb, n: int, target: int | None) -> None:
    if target is None:
        return
    if target >= PLAYER_0:  # the other Onmyoji, in the Duel Final Battle
        other = st.players[target - PLAYER_0]
        if st.book and st.stage == STAGE_START:
            # R28: Guard shields its player for the whole turn, and whether they Guard is known
            # only at the reveal, so a Start-of-turn effect on them is held until then.
            other.incoming.append((verb, n))
            return
        if other.guarding:  # Guard: no enemy action affects you
            return
        if verb in _DAMAGE_VERBS:
            hurt_player(st, ctx, target - PLAYER_0, n, pierce=verb == Verb.PIERCE)
        elif verb == Verb.WEAKEN:
            other.weak += n
        return
    if verb in _DAMAGE_VERBS:
        hurt_enemy(st, ctx, seat, target, n, pierce=verb == Verb.PIERCE)
        return
    e = st.enemies[target]
    if e is None:  # pragma: no cover - targets are living enemies
        return
    if verb == Verb.WEAKEN:
        e.weak += n
    elif verb == Verb.STOP:
        e.stopped = True


def land_held_effects(st: State, ctx: Context) -> None:
    """R28: at the reveal, the Start-of-turn effects held for each Onmyoji reach it, in the order
    their users acted, unless it Guards this turn (then they are lost). Only the Duel Final has any."""
    if not st.final_duel:
        return
    for user in st.order:
        seat = 1 - user
        p = st.players[seat]
        held, p.incoming = p.incoming, []
        for verb, n in held:
            if st.over or p.guarding:
                break
            _enemy_effect(st, ctx, user, verb, n, PLAYER_0 + seat)


def resolve_card(st: State, ctx: Context, seat: int, card: int, target: int | None) -> None:
    """Attack: ATK to 1 enemy, reduced by DEF. Spell: SPL to 1 enemy, DEF ignored. Guard: nothing more."""
    if target is None or card == GUARD:
        return
    p = st.players[seat]
    amount = player_spl(st, p) if card == SPELL else player_atk(st, p)
    _enemy_effect(st, ctx, seat, Verb.PIERCE if card == SPELL else Verb.DAMAGE, amount, target)


# ---------------------------------------------------------------------------------- Yokai actions
def yokai_damage(st: State, e: Enemy, action: YokaiAction) -> int:
    """The action's damage with "when no other Yokai is left" and the difficulty modifiers."""
    amount = action.damage
    lone = alive_enemy_count(st) == 1
    if lone:
        amount += action.lone_bonus
    if st.mode == MODE_COOP:
        coop = st.coop_level
        if e.is_boss:
            amount += (2 if coop.boss_boost else 0) + coop.boss_plus
        if lone and coop.lone_plus_one:
            amount += 1
        if coop.enemy_plus_one:
            amount += 1
    elif st.mode == MODE_SOLO:
        solo = st.solo_level
        if lone and solo.lone_plus_one:
            amount += 1
        if not st.boss_battle:  # R31 (0 but in variant "balanced"): the nights' Yokai, not the Boss battle
            amount += solo.night_plus[st.night - 1]
        if e.is_boss:
            amount += solo.boss_plus
    return amount


def yokai_action_seats(st: State, target: YokaiTarget | None) -> list[int]:
    """Seats an action aimed at ``target`` hits (a fallen player's share goes to the survivor);
    none for a rest (``target`` None)."""
    if target is None:
        return []
    if st.mode == MODE_SOLO:
        return [0] if target == YokaiTarget.BOTH or target in st.solo_level.take else []
    alive = [s for s in (0, 1) if not st.players[s].fallen]
    if target == YokaiTarget.BOTH:
        return alive
    seat = {YokaiTarget.FIRST: st.first_seat, YokaiTarget.SECOND: 1 - st.first_seat,
            YokaiTarget.LEFT: 0, YokaiTarget.RIGHT: 1}[target]
    if (not st.book and st.mode == MODE_COOP and st.boss_battle and len(alive) == 2
            and target in (YokaiTarget.FIRST, YokaiTarget.SECOND)):
        # R32 (balanced variant): in the Boss battle "first"/"second" hunt the weaker Onmyoji, so
        # the partner must save it. The book hits the seat named (lost on a Guarding one).
        hp = (st.players[0].hp, st.players[1].hp)
        if hp[0] != hp[1]:
            seat = 0 if hp[0] < hp[1] else 1
    if st.players[seat].fallen:
        return alive  # the surviving player takes it instead (empty when none survives)
    return [seat]


def yokai_take_action(st: State, ctx: Context, slot: int) -> None:
    """The action this turn of the Yokai in ``slot``; its order moves on even when it was stopped."""
    e = st.enemies[slot]
    if e is None or not e.alive or st.over:
        return
    if e.deck_card == GUARD:  # Solo deck Guard: it does not act, and takes this action next turn
        ctx.see(None, EVENT_YOKAI_ACTS, slot, e.next_action, 0)
        return
    actions = st.card(e.yokai).actions
    action = actions[e.next_action]
    acts = not e.stopped and not action.rest
    ctx.see(None, EVENT_YOKAI_ACTS, slot, e.next_action, acts)
    if acts:
        amount = yokai_damage(st, e, action)
        pierce = action.marked or e.deck_card == SPELL
        for seat in yokai_action_seats(st, action.target):
            hurt_player(st, ctx, seat, amount, pierce)
            if st.over:
                break
    e.next_action = next_action_index(st, e)


def next_action_index(st: State, e: Enemy) -> int:
    n = len(st.card(e.yokai).actions)
    if e.is_boss:  # the Boss repeats its last action once it reaches it
        return min(e.next_action + 1, n - 1)
    if st.card(e.yokai).repeat_third and e.next_action == 2:
        return 2
    return (e.next_action + 1) % n
