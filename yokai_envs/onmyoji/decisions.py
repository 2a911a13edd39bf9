"""What each pending decision allows (the legal mask) and does (applying a legal action).

The decision kinds are ``state.Decision``; the action ids are ``actions.py``'s. After a decision
the flow goes on through ``rules.advance``. The legal actions are functions of the table
(``state.State``); applying one also takes the game's ``Context`` (chance and record).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji import rules
from yokai_envs.onmyoji.actions import (
    DONE,
    EVOLVE,
    EVOLVE_WITH,
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
    State,
    TargetChoice,
    TargetFor,
    Zone,
)

if TYPE_CHECKING:
    from yokai_envs.core.context import Context


# Members bound once to module names for the per-step paths: Python 3.11 resolves every
# ``Enum.X`` through the enum metaclass, about fifteen times the cost of reading a global.
(DECISION_ACTION_MENU, DECISION_EVOLVE, DECISION_NONE, DECISION_PICK,
 DECISION_PLAY, DECISION_START_MENU, DECISION_TAKE, DECISION_TARGET) = (
    Decision.ACTION_MENU, Decision.EVOLVE, Decision.NONE, Decision.PICK, Decision.PLAY, Decision.START_MENU,
    Decision.TAKE, Decision.TARGET,
)
EVENT_HEAL = Event.HEAL
MODE_SOLO = Mode.SOLO
STAGE_SETUP, STAGE_START = Stage.SETUP, Stage.START
TARGET_FOR_ABILITY, TARGET_FOR_CARD = TargetFor.ABILITY, TargetFor.CARD
ZONE_UNDER = Zone.UNDER


def _play_actions(st: State, seat: int) -> list[int]:
    hand = st.players[seat].hand
    return [PLAY + c for c in range(3) if hand[c]]


_DONE = int(DONE)  # plain ints in the lists (the block ids are enum members)


def _start_menu_actions(st: State, seat: int) -> list[int]:
    return sorted({*map(int, rules.start_menu_options(st, seat)), _DONE})


def _action_menu_actions(st: State, seat: int) -> list[int]:
    return sorted({*map(int, rules.action_menu_options(st, seat)), _DONE})


def _target_actions(st: State, seat: int) -> list[int]:
    assert st.target_ctx is not None
    return sorted({TARGET + t for t in st.target_ctx.targets})


def _evolve_actions(st: State, seat: int) -> list[int]:
    return sorted({EVOLVE_WITH + y for y in st.players[seat].shikigami})


def _pick_actions(st: State, seat: int) -> list[int]:
    return sorted({PICK + y for y in st.pick_candidates})


def _take_actions(st: State, seat: int) -> list[int]:
    return list(range(TAKE, TAKE + 4))


def _no_actions(st: State, seat: int) -> list[int]:
    return []


#: Decision -> the actions of the seat to decide, ascending: ``ACTIONS[st.decision](st, st.decider)``
#: (the game's legal actions call it directly, as its step calls :data:`APPLY`).
ACTIONS: dict[Decision, Callable[[State, int], list[int]]] = {
    DECISION_NONE: _no_actions, DECISION_PLAY: _play_actions, DECISION_START_MENU: _start_menu_actions,
    DECISION_ACTION_MENU: _action_menu_actions, DECISION_TARGET: _target_actions, DECISION_EVOLVE: _evolve_actions,
    DECISION_PICK: _pick_actions, DECISION_TAKE: _take_actions,
}


def legal_actions(st: State) -> list[int]:
    """The legal actions of the pending decision, ascending (none once the game is over)."""
    return ACTIONS[st.decision](st, st.decider)


def _apply_play(st: State, ctx: Context, seat: int, a: int) -> None:
    p = st.players[seat]
    c = a - PLAY
    p.hand[c] = False
    p.played = c
    if st.mode == MODE_SOLO:
        rules.flip_yokai_deck(st, ctx)
    st.cursor += 1
    rules.advance(st, ctx)


def _apply_menu(st: State, ctx: Context, seat: int, a: int) -> None:
    """The Start-of-turn menu and the "On your action" menu."""
    p = st.players[seat]
    if a == DONE:
        if st.decision == DECISION_ACTION_MENU:
            _resolve_played_card(st, ctx, seat)
            return
        st.cursor += 1
        rules.advance(st, ctx)
    elif a == EVOLVE:
        st.evolve_sum = 0
        rules.ask(st, DECISION_EVOLVE, seat)
    elif a < USE_EQUIP:
        y = a - USE_SHIKIGAMI
        p.shiki_uses[y] = p.shiki_uses.get(y, 0) + 1  # a used 1/game Shikigami is flipped
        p.used_this_turn.add(y)
        _use_ability(st, ctx, seat, st.card(y).shiki.ability)
    else:
        y = a - USE_EQUIP
        edge = EDGE_OF_CARD[p.played]
        p.used_this_turn.add(y)
        ability = st.card(y).edges[edge].ability
        assert ability is not None  # the menu offers only edges with an ability
        _use_ability(st, ctx, seat, ability)


def _apply_target(st: State, ctx: Context, seat: int, a: int) -> None:
    choice = st.target_ctx
    assert choice is not None
    st.target_ctx = None
    _resolve_on(st, ctx, seat, choice.what, a - TARGET)


def _apply_evolve(st: State, ctx: Context, seat: int, a: int) -> None:
    p = st.players[seat]
    y = a - EVOLVE_WITH
    p.shikigami.remove(y)
    st.zone[y] = ZONE_UNDER
    st.evolve_sum += st.card(y).lv
    if st.evolve_sum >= st.pool.characters[p.character].evolve_at:
        p.evolved = True
        healed = max(p.hp, min(fx.HP_CAP, st.side(p).hp))  # heal up to the back side's HP
        if healed > p.hp:
            ctx.see(None, EVENT_HEAL, fx.PLAYER_0 + seat, healed - p.hp)
        p.hp = healed
        st.evolve_sum = 0
        st.decision = DECISION_ACTION_MENU


def _apply_pick(st: State, ctx: Context, seat: int, a: int) -> None:
    rules.take(st, seat, a - PICK)


def _apply_take(st: State, ctx: Context, seat: int, a: int) -> None:
    rules.place_taken(st, seat, st.taking, a - TAKE)
    st.taking = -1
    st.take_queue = st.take_queue[1:]
    if st.stage != STAGE_SETUP:
        st.first_seat = seat  # the player who took a Yokai last goes first next battle
    rules.next_take(st, ctx)


#: Decision -> what a legal action of the seat to decide does: ``APPLY[st.decision](st, ctx, st.decider,
#: action)`` (the game's step calls it directly, one call from the applying rule).
APPLY: dict[Decision, Callable[[State, Context, int, int], None]] = {
    DECISION_PLAY: _apply_play, DECISION_START_MENU: _apply_menu, DECISION_ACTION_MENU: _apply_menu,
    DECISION_TARGET: _apply_target, DECISION_EVOLVE: _apply_evolve, DECISION_PICK: _apply_pick,
    DECISION_TAKE: _apply_take,
}


def apply(st: State, ctx: Context, action: int) -> None:
    """Apply the legal ``action`` of the seat to decide, then run the flow to the next decision."""
    APPLY[st.decision](st, ctx, st.decider, action)


def _use_ability(st: State, ctx: Context, seat: int, ability: Ability) -> None:
    ability = fx.active_variant(st, ability)
    _with_target(st, ctx, seat, TARGET_FOR_ABILITY, ability, fx.ability_targets(st, seat, ability))


def _with_target(st: State, ctx: Context, seat: int, kind: TargetFor, what: Ability | ActionCard,
                 targets: list[int]) -> None:
    """Resolve an ability or a played card on its only target (or on none); with several
    targets the seat chooses first (``Decision.TARGET``, then :func:`_apply_target`)."""
    if len(targets) > 1:
        st.target_ctx = TargetChoice(kind, what, st.decision, targets)
        rules.ask(st, DECISION_TARGET, seat)
        return
    _resolve_on(st, ctx, seat, what, targets[0] if targets else None)


def _resolve_on(st: State, ctx: Context, seat: int, what: Ability | ActionCard, target: int | None) -> None:
    """Apply the ability (back to the menu it came from) or the played card (the action ends)."""
    if isinstance(what, Ability):
        fx.apply_ability(st, ctx, seat, what, target)
        _return_to_menu(st, ctx, seat)
        return
    fx.resolve_card(st, ctx, seat, what, target)
    _finish_action(st, ctx, seat)


def _return_to_menu(st: State, ctx: Context, seat: int) -> None:
    if st.over:
        return
    # Back to the menu we came from: the start-of-turn menu in Stage.START, else "on your action".
    st.decision = DECISION_START_MENU if st.stage == STAGE_START else DECISION_ACTION_MENU
    if st.decision == DECISION_START_MENU and not rules.start_menu_options(st, seat):
        st.cursor += 1
        rules.advance(st, ctx)


def _resolve_played_card(st: State, ctx: Context, seat: int) -> None:
    p = st.players[seat]
    card = CARDS[p.played]
    targets = fx.enemy_targets(st, seat) if card in (ATTACK, SPELL) else []
    _with_target(st, ctx, seat, TARGET_FOR_CARD, card, targets)


def _finish_action(st: State, ctx: Context, seat: int) -> None:
    p = st.players[seat]
    p.used[p.played] = True  # place the card face up as Used
    st.cursor += 1
    rules.advance(st, ctx)
