"""What each pending decision allows (the legal mask) and does (applying a legal action).

The decision kinds are ``state.Decision``; the action ids are ``actions.py``'s. After a decision
the flow goes on through ``rules.advance``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from yokai_envs.core.masks import mask_of
from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji import rules
from yokai_envs.onmyoji.actions import (
    DONE,
    EVOLVE,
    EVOLVE_WITH,
    NUM_ACTIONS,
    PICK,
    PLAY,
    TAKE,
    TARGET,
    USE_EQUIP,
    USE_SHIKIGAMI,
)
from yokai_envs.onmyoji.cards import Ability
from yokai_envs.onmyoji.state import (
    ATTACK,
    CARDS,
    EDGE_OF_CARD,
    SPELL,
    ActionCard,
    Decision,
    Event,
    Mode,
    Stage,
    TargetChoice,
    TargetFor,
    Zone,
)

if TYPE_CHECKING:
    from yokai_envs.onmyoji.game import OnmyojiGame


# Members bound once to module names for the per-step paths: Python 3.11 resolves every
# ``Enum.X`` through the enum metaclass, about fifteen times the cost of reading a global.
(DECISION_ACTION_MENU, DECISION_EVOLVE, DECISION_PICK,
 DECISION_PLAY, DECISION_START_MENU, DECISION_TAKE, DECISION_TARGET) = (
    Decision.ACTION_MENU, Decision.EVOLVE, Decision.PICK, Decision.PLAY, Decision.START_MENU, Decision.TAKE,
    Decision.TARGET,
)
EVENT_HEAL = Event.HEAL
MODE_SOLO = Mode.SOLO
STAGE_SETUP, STAGE_START = Stage.SETUP, Stage.START
TARGET_FOR_ABILITY, TARGET_FOR_CARD = TargetFor.ABILITY, TargetFor.CARD
ZONE_UNDER = Zone.UNDER


def _play_actions(g: OnmyojiGame, seat: int) -> list[int]:
    hand = g.players[seat].hand
    return [PLAY + c for c in range(3) if hand[c]]


_DONE = int(DONE)  # plain ints in the lists (the block ids are enum members)


def _start_menu_actions(g: OnmyojiGame, seat: int) -> list[int]:
    return sorted({*map(int, rules.start_menu_options(g, seat)), _DONE})


def _action_menu_actions(g: OnmyojiGame, seat: int) -> list[int]:
    return sorted({*map(int, rules.action_menu_options(g, seat)), _DONE})


def _target_actions(g: OnmyojiGame, seat: int) -> list[int]:
    assert g.target_ctx is not None
    return sorted({TARGET + t for t in g.target_ctx.targets})


def _evolve_actions(g: OnmyojiGame, seat: int) -> list[int]:
    return sorted({EVOLVE_WITH + y for y in g.players[seat].shikigami})


def _pick_actions(g: OnmyojiGame, seat: int) -> list[int]:
    return sorted({PICK + y for y in g.pick_candidates})


def _take_actions(g: OnmyojiGame, seat: int) -> list[int]:
    return list(range(TAKE, TAKE + 4))


#: Decision -> the actions it allows, ascending (Decision.NONE allows nothing).
_ACTIONS: dict[Decision, Callable[[OnmyojiGame, int], list[int]]] = {
    DECISION_PLAY: _play_actions, DECISION_START_MENU: _start_menu_actions,
    DECISION_ACTION_MENU: _action_menu_actions, DECISION_TARGET: _target_actions, DECISION_EVOLVE: _evolve_actions,
    DECISION_PICK: _pick_actions, DECISION_TAKE: _take_actions,
}


def legal_actions(g: OnmyojiGame) -> list[int]:
    """The legal actions of the pending decision, ascending (the game is not over)."""
    actions = _ACTIONS.get(g.decision)
    return [] if actions is None else actions(g, g.decider)


def legal_mask(g: OnmyojiGame) -> np.ndarray:
    """A fresh boolean mask over the action table for the pending decision: :func:`legal_actions` set."""
    return mask_of(legal_actions(g), NUM_ACTIONS)


def _apply_play(g: OnmyojiGame, seat: int, a: int) -> None:
    p = g.players[seat]
    c = a - PLAY
    p.hand[c] = False
    p.played = c
    if g.mode == MODE_SOLO:
        rules.flip_yokai_deck(g)
    g.cursor += 1
    rules.advance(g)


def _apply_menu(g: OnmyojiGame, seat: int, a: int) -> None:
    """The Start-of-turn menu and the "On your action" menu."""
    p = g.players[seat]
    if a == DONE:
        if g.decision == DECISION_ACTION_MENU:
            _resolve_played_card(g, seat)
            return
        g.cursor += 1
        rules.advance(g)
    elif a == EVOLVE:
        g.evolve_sum = 0
        rules.ask(g, DECISION_EVOLVE, seat)
    elif a < USE_EQUIP:
        y = a - USE_SHIKIGAMI
        p.shiki_uses[y] = p.shiki_uses.get(y, 0) + 1  # a used 1/game Shikigami is flipped
        p.used_this_turn.add(y)
        _use_ability(g, seat, g.card(y).shiki.ability)
    else:
        y = a - USE_EQUIP
        edge = EDGE_OF_CARD[p.played]
        p.used_this_turn.add(y)
        ability = g.card(y).edges[edge].ability
        assert ability is not None  # the menu offers only edges with an ability
        _use_ability(g, seat, ability)


def _apply_target(g: OnmyojiGame, seat: int, a: int) -> None:
    ctx = g.target_ctx
    assert ctx is not None
    g.target_ctx = None
    _resolve_on(g, seat, ctx.what, a - TARGET)


def _apply_evolve(g: OnmyojiGame, seat: int, a: int) -> None:
    p = g.players[seat]
    y = a - EVOLVE_WITH
    p.shikigami.remove(y)
    g.zone[y] = ZONE_UNDER
    g.evolve_sum += g.card(y).lv
    if g.evolve_sum >= g.pool.characters[p.character].evolve_at:
        p.evolved = True
        healed = max(p.hp, min(fx.HP_CAP, g.side(p).hp))  # heal up to the back side's HP
        if healed > p.hp:
            g.see(None, EVENT_HEAL, fx.PLAYER_0 + seat, healed - p.hp)
        p.hp = healed
        g.evolve_sum = 0
        g.decision = DECISION_ACTION_MENU


def _apply_pick(g: OnmyojiGame, seat: int, a: int) -> None:
    rules.take(g, seat, a - PICK)


def _apply_take(g: OnmyojiGame, seat: int, a: int) -> None:
    rules.place_taken(g, seat, g.taking, a - TAKE)
    g.taking = -1
    g.take_queue = g.take_queue[1:]
    if g.stage != STAGE_SETUP:
        g.first_seat = seat  # the player who took a Yokai last goes first next battle
    rules.next_take(g)


#: Decision -> what a legal action does.
_APPLY: dict[Decision, Callable[[OnmyojiGame, int, int], None]] = {
    DECISION_PLAY: _apply_play, DECISION_START_MENU: _apply_menu, DECISION_ACTION_MENU: _apply_menu,
    DECISION_TARGET: _apply_target, DECISION_EVOLVE: _apply_evolve, DECISION_PICK: _apply_pick,
    DECISION_TAKE: _apply_take,
}


def apply(g: OnmyojiGame, action: int) -> None:
    """Apply the legal ``action`` of the seat to decide, then run the flow to the next decision."""
    _APPLY[g.decision](g, g.decider, action)


def _use_ability(g: OnmyojiGame, seat: int, ability: Ability) -> None:
    ability = fx.active_variant(g, ability)
    _with_target(g, seat, TARGET_FOR_ABILITY, ability, fx.ability_targets(g, seat, ability))


def _with_target(g: OnmyojiGame, seat: int, kind: TargetFor, what: Ability | ActionCard, targets: list[int]) -> None:
    """Resolve an ability or a played card on its only target (or on none); with several
    targets the seat chooses first (``Decision.TARGET``, then :func:`_apply_target`)."""
    if len(targets) > 1:
        g.target_ctx = TargetChoice(kind, what, g.decision, targets)
        rules.ask(g, DECISION_TARGET, seat)
        return
    _resolve_on(g, seat, what, targets[0] if targets else None)


def _resolve_on(g: OnmyojiGame, seat: int, what: Ability | ActionCard, target: int | None) -> None:
    """Apply the ability (back to the menu it came from) or the played card (the action ends)."""
    if isinstance(what, Ability):
        fx.apply_ability(g, seat, what, target)
        _return_to_menu(g, seat)
        return
    fx.resolve_card(g, seat, what, target)
    _finish_action(g, seat)


def _return_to_menu(g: OnmyojiGame, seat: int) -> None:
    if g.over:
        return
    # Back to the menu we came from: the start-of-turn menu in Stage.START, else "on your action".
    g.decision = DECISION_START_MENU if g.stage == STAGE_START else DECISION_ACTION_MENU
    if g.decision == DECISION_START_MENU and not rules.start_menu_options(g, seat):
        g.cursor += 1
        rules.advance(g)


def _resolve_played_card(g: OnmyojiGame, seat: int) -> None:
    p = g.players[seat]
    card = CARDS[p.played]
    targets = fx.enemy_targets(g, seat) if card in (ATTACK, SPELL) else []
    _with_target(g, seat, TARGET_FOR_CARD, card, targets)


def _finish_action(g: OnmyojiGame, seat: int) -> None:
    p = g.players[seat]
    p.used[p.played] = True  # place the card face up as Used
    g.cursor += 1
    rules.advance(g)
