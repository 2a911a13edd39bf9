"""One scripted scenario per rule of the YOKAIZO rulebook (set-up, actions, expected masks/outcome)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.yokaizo.helpers import act, blank, field, hand, legal, name_of, slot_souls, start, void
from yokai_envs.yokaizo import moves
from yokai_envs.yokaizo.attacks import ActionChoice
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.rules import Turn, VoidPlay, advance
from yokai_envs.yokaizo.state import NO

S = "Oni Brute"  # filler: Earth, Speed 2, 5 Souls, no effects


# ------------------------------------------------------------------ setup
def test_setup_draw_six_pick_two_face_down_then_reveal():
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"))
    g.reset(3)
    assert len(g.hand[0]) == len(g.hand[1]) == 6 and g.phase_name.startswith("setup") and g.decider == 0
    opp_view_before = g.observation(1)
    first = int(np.flatnonzero(g.legal_action_mask())[0])
    g.step(first)
    g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
    assert g.decider == 1
    # the second chooser sees nothing of the first's picks: only that two cards left the hand
    obs = g.observation(1)
    lay = g.observation_layout
    assert np.array_equal(obs[lay["opp_field"]], g.observation(1)[lay["opp_field"]])
    assert obs[lay["opp_field"]][g.observer.width - 1] == 1  # hidden flag
    assert not np.array_equal(obs[lay["opp_field"]], opp_view_before[lay["opp_field"]])
    world = g.determinize(1, np.random.default_rng(5))
    assert np.array_equal(world.observation(1), obs)
    g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
    g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
    assert not g.hidden_setup and all(y != NO for p in (0, 1) for y in g.field[p])
    assert len(g.hand[0]) + len(g.hand[1]) >= 8  # 4 each after setup; the first Turn refills to 6
    assert len(g.hand[0]) == len(g.hand[1]) == 6


# ------------------------------------------------------------------ rounds and speed tiers
def test_highest_speed_takes_the_first_turn():
    g = blank()
    field(g, 0, 0, "Karasu Scout")  # Speed 7
    field(g, 0, 1, S)
    field(g, 1, 0, "Raiju Pup" if False else S)
    field(g, 1, 1, S)
    start(g)
    assert g.active is not None and name_of(g, g.active[2]) == "Karasu Scout"


def test_same_side_tie_is_chosen_by_its_controller():
    g = blank()
    field(g, 0, 0, S)
    field(g, 0, 1, S)
    field(g, 1, 0, "Iron Kanabo Oni")  # Speed 1
    field(g, 1, 1, "Iron Kanabo Oni")
    start(g)
    assert g.phase_name == "choose which Yokai takes its Turn" and g.decider == 0
    assert legal(g) == {"my field yokai 0", "my field yokai 1"}
    act(g, "my field yokai 1")
    assert g.active[:2] == (0, 1)


def test_cross_side_tie_goes_to_the_player_who_did_not_take_the_last_turn():
    g = blank(["Karasu Scout"], ["Karasu Scout"])
    field(g, 0, 0, S)
    field(g, 0, 1, "Iron Kanabo Oni")
    field(g, 1, 0, S)
    field(g, 1, 1, "Iron Kanabo Oni")
    g.last_turn = 0
    start(g)
    assert g.active[0] == 1  # seat 0 went last, so seat 1's Speed-2 Yokai goes first
    act(g, "pass / done / no")  # Void phase
    act(g, "pass / done / no")  # forgo
    assert g.active[0] == 0 and g.tier == 2


def test_first_turn_cross_side_tie_reveal_off_uses_deck_speeds():
    # both Field pairs are Speed 2; seat 1's deck is all Speed 7, seat 0's all Speed 2
    g = blank(filler=S, filler1="Karasu Scout")
    for p in (0, 1):
        field(g, p, 0, S)
        field(g, p, 1, S)
    assert g.last_turn == NO
    start(g)
    assert g.decider == 1 and g.phase_name == "choose which Yokai takes its Turn"  # seat 1 won the reveal
    act(g, "my field yokai 0")
    assert g.active[:2] == (1, 0)


def test_speed_tiers_descend_and_each_yokai_acts_once_per_round():
    g = blank()
    field(g, 0, 0, "Karasu Scout")    # 7
    field(g, 0, 1, S)                 # 2
    field(g, 1, 0, "Ashen Vixen" if False else "Oni Drummer")  # 5
    field(g, 1, 1, "Iron Kanabo Oni")  # 1
    start(g)
    order = []
    for _ in range(5):
        order.append((g.active[0], g.active[1], g.tier, g.round))
        act(g, "pass / done / no")  # Void phase
        act(g, "pass / done / no")  # Action
    assert order == [(0, 0, 7, 1), (1, 0, 5, 1), (0, 1, 2, 1), (1, 1, 1, 1), (0, 0, 7, 2)]


def test_yokai_swapped_in_after_its_tier_waits_for_next_round():
    g = blank(["Karasu Scout"])
    y = field(g, 0, 0, "Oni Drummer")  # Speed 5
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    field(g, 1, 1, "Iron Kanabo Oni")
    hand(g, 0, "Karasu Scout")        # Speed 7
    start(g)
    assert g.active[2] == y
    act(g, "pass / done / no", "return")
    # 2 BREAK DMG placed on own Yokai, then Swap into the Speed-7 Karasu Scout
    act(g, "topdeck", "topdeck", "card Karasu Scout")
    assert name_of(g, g.field[0][0]) == "Karasu Scout"
    seen = []
    while g.round == 1:
        seen.append(name_of(g, g.active[2]))
        act(g, "pass / done / no", "pass / done / no")
    assert "Karasu Scout" not in seen  # it missed the Speed-7 check this Round
    assert name_of(g, g.active[2]) == "Karasu Scout"  # first in Round 2


def test_same_speed_swap_waits_too():
    g = blank([S])
    y = field(g, 0, 0, S)
    field(g, 0, 1, "Iron Kanabo Oni")
    field(g, 1, 0, "Iron Kanabo Oni")
    field(g, 1, 1, "Iron Kanabo Oni")
    hand(g, 0, S)
    start(g)
    assert g.active[2] == y
    act(g, "pass / done / no", "return", "topdeck", "topdeck", f"card {S}")
    new = g.field[0][0]
    turns = []
    while g.round == 1:
        if g.phase_name.startswith("choose"):
            act(g, sorted(legal(g))[0])
        turns.append(g.active[2])
        act(g, "pass / done / no", "pass / done / no")
    assert new not in turns and len(turns) == 3


def test_speed_change_mid_turn_keeps_the_tier():
    g = blank()
    y = field(g, 0, 0, "Oni Drummer")  # Speed 5
    field(g, 0, 1, S)                 # Speed 2
    field(g, 1, 0, "Tanuki Gambler")  # Speed 4
    field(g, 1, 1, "Iron Kanabo Oni")
    start(g)
    assert g.active[2] == y
    g.slowed[y] = 1  # Slowed during its own Turn
    act(g, "pass / done / no", "pass / done / no")
    assert g.tier == 4 and g.active[0] == 1  # the Round goes on from 5 to 4, not back to 1-speed order
    assert g.field_speed(0, 0) == 1


# ------------------------------------------------------------------ the turn
def test_draw_phase_both_players_draw_to_six():
    g = blank()
    field(g, 0, 0, "Karasu Scout")
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    hand(g, 1, S, S)
    start(g)
    assert len(g.hand[0]) == 6 and len(g.hand[1]) == 6


def test_void_phase_up_to_three_and_six_slots():
    g = blank()
    y = field(g, 0, 0, S)
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    moves.draw(g.state, g.rules_context(), 0, 6)
    start(g, VoidPlay(0, 0, y))
    for _ in range(3):
        assert f"card {S}" in legal(g) and "pass / done / no" in legal(g)
        act(g, f"card {S}")
    assert len(g.void[0]) == 3 and g.stack[-1].__class__ is not VoidPlay
    g2 = blank()
    y = field(g2, 0, 0, S)
    field(g2, 1, 0, S)
    void(g2, 0, S, S, S, S, S)
    moves.draw(g2.state, g2.rules_context(), 0, 3)
    start(g2, VoidPlay(0, 0, y))
    act(g2, f"card {S}")
    assert len(g2.void[0]) == 6 and not isinstance(g2.stack[-1], VoidPlay)  # full: no more plays


def test_void_entry_effect_triggers_on_play():
    g = blank(["Cucumber Trader"])
    y = field(g, 0, 0, S)
    field(g, 1, 0, S)
    hand(g, 0, "Cucumber Trader")
    start(g, VoidPlay(0, 0, y))
    act(g, "card Cucumber Trader")
    assert len(g.hand[0]) == 1  # Void entry: draw 1


def _attacker(names0=(), names1=(), attacker="Nine-Tail Matron", ally=S):
    g = blank([*names0, attacker, ally], list(names1))
    y = field(g, 0, 0, attacker)
    field(g, 0, 1, ally)
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    return g, y


def test_special_attack_cost_with_matching_cards_and_generic():
    # Blazing Talons: Fire, Wind, generic
    g, y = _attacker(["Kitsune Emberling", "Karasu Scout"])
    void(g, 0, "Kitsune Emberling", "Karasu Scout")
    start(g, ActionChoice(0, 0, y))
    assert "special attack" not in legal(g)  # 2 cards cannot pay 3 costs
    g, y = _attacker(["Kitsune Emberling", "Karasu Scout"])
    void(g, 0, "Kitsune Emberling", "Karasu Scout", S)
    start(g, ActionChoice(0, 0, y))
    act(g, "special attack")
    assert g.phase_name == "pay the Special Attack"
    # Fire first: only the Fire card pays it alone; the others would leave too little for a pair
    assert legal(g) == {"my void card 0"}
    act(g, "my void card 0")
    assert legal(g) == {"my void card 0"}  # Wind: the Wind card
    act(g, "my void card 0", "my void card 0")
    assert len(g.void[0]) == 0 and len(g.limbo[0]) == 3 and g.phase_name == "effect target"


def test_ally_covers_one_element_never_a_generic():
    g, y = _attacker(["Kitsune Emberling"], ally="Karasu Scout")  # Wind Ally
    void(g, 0, "Kitsune Emberling", S)
    start(g, ActionChoice(0, 0, y))
    assert "special attack" in legal(g)
    act(g, "special attack", "my void card 0")  # Fire
    assert legal(g) == {"ally pays this element"}  # Wind by the Ally
    act(g, "ally pays this element")
    assert legal(g) == {"my void card 0"}  # the generic needs a card
    act(g, "my void card 0")
    # a Wind Ally cannot pay a generic: with only the Fire card, Blazing Talons is unaffordable
    g2, y2 = _attacker(["Kitsune Emberling"], ally="Karasu Scout")
    void(g2, 0, "Kitsune Emberling")
    start(g2, ActionChoice(0, 0, y2))
    assert "special attack" not in legal(g2)


def test_any_two_void_cards_cover_one_element():
    g, y = _attacker([], ally=S)
    void(g, 0, S, S, S, S, S)  # five Earth cards: Fire (2) + Wind (2) + generic (1)
    start(g, ActionChoice(0, 0, y))
    assert "special attack" in legal(g)
    act(g, "special attack")
    act(g, "my void card 0")
    assert g.stack[-1].pair  # first card of a pair
    act(g, "my void card 0", "my void card 0", "my void card 0", "my void card 0")
    assert not g.void[0]
    g2, y2 = _attacker([], ally=S)
    void(g2, 0, S, S, S, S)
    start(g2, ActionChoice(0, 0, y2))
    assert "special attack" not in legal(g2)


def test_multi_stage_attack_resolves_in_order():
    g, y = _attacker(["Kitsune Emberling", "Karasu Scout", "Kitsune Emberling"])
    void(g, 0, "Kitsune Emberling", "Karasu Scout", S)
    burned = hand(g, 0, "Kitsune Emberling")
    g.hand[0].remove(burned[0])
    g.burned[0].append(burned[0])
    start(g, ActionChoice(0, 0, y))
    act(g, "special attack", "my void card 0", "my void card 0", "my void card 0")
    assert legal(g) == {"enemy field yokai 0", "enemy field yokai 1"}  # stage 1: DMG 3, target
    act(g, "enemy field yokai 1")
    assert g.decider == 1  # the defender places its own Souls
    act(g, "topdeck", "topdeck", "topdeck")
    assert slot_souls(g, 1, 1) == (0, 3)
    assert g.decider == 0 and legal(g) == {"pass / done / no", "card Kitsune Emberling"}  # stage 2
    act(g, "card Kitsune Emberling")
    assert name_of(g, g.void[0][0]) == "Kitsune Emberling" and not g.burned[0]
    # stage 3: "then you may Echo 1" (the rulebook's own example of Blazing Talons "can Echo"):
    # the Emberling is offered, and so is a pass
    assert legal(g) == {"pass / done / no", "my void card 0"}
    act(g, "my void card 0")  # its Void entry (Burn up to 1) is Echoed
    assert legal(g) == {"pass / done / no", "yes"}


def test_basic_attack_destroys_one_to_three_for_that_much_damage():
    g, y = _attacker()
    void(g, 0, S, S, S, S)
    start(g, ActionChoice(0, 0, y))
    act(g, "basic attack")
    assert "pass / done / no" not in legal(g)  # at least one card
    act(g, "my void card 0", "my void card 0", "my void card 0")
    assert legal(g) == {"enemy field yokai 0", "enemy field yokai 1"}  # at most 3
    act(g, "enemy field yokai 0")
    for _ in range(3):
        act(g, "topdeck")
    assert slot_souls(g, 1, 0) == (0, 3) and len(g.void[0]) == 1


def test_basic_attack_may_add_all_burned_cards():
    g, y = _attacker()
    void(g, 0, S)
    for c in hand(g, 0, S, S):
        g.hand[0].remove(c)
        g.burned[0].append(c)
    start(g, ActionChoice(0, 0, y))
    act(g, "basic attack", "my void card 0")
    assert legal(g) == {"yes", "pass / done / no"}
    act(g, "yes", "enemy field yokai 0")
    assert g.stack[-1].left == 3 and not g.burned[0] and g.grave_souls(0) == 0


def test_forgo_is_always_allowed():
    g, y = _attacker()
    start(g, ActionChoice(0, 0, y))
    assert legal(g) == {"pass / done / no"}  # no Void, no hand: only forgo


def test_return_takes_two_break_damage_then_swaps():
    g = blank(["Weeping Yurei", "Karasu Scout"])
    y = field(g, 0, 0, S, up=0, down=2, soul="Weeping Yurei")
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    hand(g, 0, "Karasu Scout")
    start(g, ActionChoice(0, 0, y))
    act(g, "return")
    assert g.phase_name == "damage" and g.stack[-1].brk and g.stack[-1].left == 2
    act(g, "soul 0", "soul 1")  # flip both Weeping Yurei Souls: BREAK, so no Haunt
    assert g.phase_name.startswith("return")
    act(g, "card Karasu Scout")
    assert name_of(g, g.field[0][0]) == "Karasu Scout" and y in g.hand[0]
    assert slot_souls(g, 0, 0) == (2, 0)  # the Souls stay with the Field slot


def test_swap_can_never_banish_on_entry():
    g = blank(["Karasu Scout", "Oni Drummer"])
    y = field(g, 0, 0, S, up=2, down=1)
    field(g, 1, 0, S)
    hand(g, 0, "Karasu Scout", S)  # 3 Souls vs 5 Souls
    start(g, ActionChoice(0, 0, y))
    act(g, "return", "soul 2")  # flip: 3 face-up
    act(g, "topdeck")           # 3 up, 1 down
    assert legal(g) == {f"card {S}"}  # Karasu Scout (3 Souls) would be Banished on entry


# ------------------------------------------------------------------ damage
def test_damage_point_by_point_defender_chooses_place_or_flip():
    g = blank([], ["Kappa Bowlkeeper"])
    field(g, 0, 0, S)
    y = field(g, 1, 0, "Kappa Bowlkeeper", up=1, down=2)  # 4 Souls: 1 slot left
    hand(g, 1, "Kappa Bowlkeeper")
    start(g, Damage(1, 0, y, 3, False))
    assert g.decider == 1
    assert legal(g) == {"card Kappa Bowlkeeper", "topdeck", "soul 1", "soul 2"}
    act(g, "card Kappa Bowlkeeper")
    assert legal(g) == {"soul 1", "soul 2", "soul 3"}  # slots full: flips only
    act(g, "soul 1", "soul 2")
    assert slot_souls(g, 1, 0) == (3, 1) and g.field[1][0] == y


def test_empty_hand_forces_topdeck():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, S)
    start(g, Damage(1, 0, y, 1, False))
    assert legal(g) == {"topdeck"}


def test_shields_take_damage_first():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, S)
    sh = [g.deck[1].pop(), g.deck[1].pop()]
    g.shields[1][0].extend(sh)
    start(g, Damage(1, 0, y, 3, False))
    assert not g.shields[1][0] and all(c in g.limbo[1] for c in sh)
    assert g.stack[-1].left == 1


def test_banish_when_all_souls_face_up_rest_negated_attachments_destroyed():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, "Karasu Scout" if False else S, up=4, down=1)
    relic = g.deck[1].pop()
    g.relics[1][0].append(relic)
    start(g, Damage(1, 0, y, 3, False))
    act(g, "soul 4")
    assert g.field[1][0] == NO and y in g.grave[1] and g.grave_souls(1) == 5
    assert len(g.limbo[1]) == 5 and relic in g.exile
    assert not any(isinstance(t, Damage) for t in g.stack)  # the other 2 points hit nothing


def test_banished_slot_is_replaced_between_turns_from_hand_or_topdeck():
    g = blank([], ["Karasu Scout"])
    a = field(g, 0, 0, "Karasu Scout" if False else S)
    field(g, 0, 1, S)
    y = field(g, 1, 0, S, up=4, down=1)
    field(g, 1, 1, S)
    hand(g, 1, "Karasu Scout")
    g.last_turn = 0
    start(g, Turn(0, 0))
    act(g, "pass / done / no")
    g.stack.append(Damage(1, 0, y, 1, False))
    g.invalidate_mask()
    advance(g.state, g.rules_context())
    act(g, "soul 4")
    assert g.field[1][0] == NO
    act(g, "pass / done / no")  # end the Turn
    assert g.phase_name == "replace a Banished Yokai" and g.decider == 1
    assert {"card Karasu Scout", "topdeck"} <= legal(g)
    act(g, "card Karasu Scout")
    assert name_of(g, g.field[1][0]) == "Karasu Scout" and a != NO


def test_break_damage_ignores_soul_effects_and_damage_triggers_them():
    for brk, expect in ((False, 1), (True, 0)):
        g = blank([], ["Gashadokuro"])
        field(g, 0, 0, S)
        y = field(g, 1, 0, S, down=1, soul="Gashadokuro")  # Soul: draw 1
        start(g, Damage(1, 0, y, 1, brk))
        act(g, "topdeck") if False else act(g, "soul 0")
        assert len(g.hand[1]) == expect


def test_limbo_becomes_the_new_deck_when_the_deck_is_empty():
    g = blank()
    limbo = list(g.deck[0])
    g.deck[0] = []
    g.limbo[0] = limbo
    moves.draw(g.state, g.rules_context(), 0, 2)
    assert len(g.hand[0]) == 2 and not g.limbo[0] and len(g.deck[0]) == 38


def test_win_at_thirteen_grave_souls_burned_cards_count_one():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, S, up=4, down=1)
    for _ in range(8):
        g.burned[1].append(g.deck[1].pop())
    assert g.grave_souls(1) == 8
    start(g, Damage(1, 0, y, 1, False))
    act(g, "soul 4")
    assert g.is_terminal and g.winner == 0 and list(g.returns()) == [1.0, -1.0]


# ------------------------------------------------------------------ round-end triggers
def test_round_end_triggers_descending_speed_then_frozen_destroyed():
    g = blank(["Tengu Drummer"], ["Frost Warden"])
    field(g, 0, 0, "Tengu Drummer")  # Speed 5, end of Round: Shatter 1
    field(g, 0, 1, S)
    field(g, 1, 0, "Frost Warden")   # Speed 3, end of Round: Freeze 1
    field(g, 1, 1, S)
    frozen = void(g, 1, S)[0]
    g.frozen[frozen] = 1
    void(g, 0, S)
    for y in (g.field[0][0], g.field[0][1], g.field[1][0], g.field[1][1]):
        g.turn_round[y] = 1  # everyone has acted this Round
    g.turns_this_round = 4
    start(g)
    assert g.decider == 0 and g.stack[-1].verb == "shatter"  # Speed 5 first
    act(g, "enemy field yokai 0", "topdeck")
    assert g.decider == 1 and g.stack[-1].verb == "freeze"
    act(g, "enemy void card 0")
    assert frozen in g.limbo[1] and not g.void[0]  # both Frozen cards Destroyed at the end of the Round
    assert g.round == 2


def test_cross_side_trigger_tie_alternates_starting_with_the_other_player():
    g = blank(["Tengu Drummer"], ["Tengu Drummer"])
    field(g, 0, 0, "Tengu Drummer")
    field(g, 0, 1, S)
    field(g, 1, 0, "Tengu Drummer")
    field(g, 1, 1, S)
    for y in (g.field[0][0], g.field[0][1], g.field[1][0], g.field[1][1]):
        g.turn_round[y] = 1
    g.last_turn = g.last_trigger = 1
    start(g)
    assert g.decider == 0  # seat 1 acted last, so seat 0 triggers first


@pytest.mark.parametrize("seed", range(3))
def test_random_games_end_with_a_winner(seed):
    g = YokaizoGame()
    g.reset(seed)
    rng = np.random.default_rng(seed)
    while not g.is_over:
        legal_actions = np.flatnonzero(g.legal_action_mask())
        g.step(int(legal_actions[rng.integers(legal_actions.size)]))
    assert g.is_terminal and g.winner in (0, 1)


def test_swapped_in_yokai_triggers_its_field_entry_effect():
    g = blank()
    y = field(g, 0, 0, S)
    field(g, 1, 0, S)
    hand(g, 0, "Kappa Wrestler")  # Field entry: Shield 2
    start(g, ActionChoice(0, 0, y))
    act(g, "return", "topdeck", "topdeck", "card Kappa Wrestler")  # its only Field Yokai: no choice
    assert len(g.shields[0][0]) == 2


def test_flipped_soul_resolves_before_the_banish():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, "Karasu Scout", up=2, down=1, soul="River Sentinel")  # Soul: Shield 1
    field(g, 1, 1, S)
    start(g, Damage(1, 0, y, 2, False))
    act(g, "soul 2")
    # all 3 Souls face up, but the Soul effect is still resolving: not Banished yet
    assert g.field[1][0] == y and g.stack[-1].verb == "shield"
    act(g, "my field yokai 1")
    assert g.field[1][0] == NO and len(g.shields[1][1]) == 1


def test_topdeck_from_an_empty_deck_reshuffles_the_limbo():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, S)
    g.limbo[1] = g.deck[1]
    g.deck[1] = []
    start(g, Damage(1, 0, y, 1, False))
    assert "topdeck" in legal(g)
    act(g, "topdeck")
    assert slot_souls(g, 1, 0) == (0, 1) and not g.limbo[1] and len(g.deck[1]) == 38
