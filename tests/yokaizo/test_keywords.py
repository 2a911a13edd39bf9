"""One scripted scenario per keyword of the rulebook (and the one whose name it lost: Shatter)."""

from __future__ import annotations

import pytest

from tests.yokaizo.helpers import NO, act, blank, effect, field, hand, legal, name_of, slot_souls, start, void
from yokai_envs.yokaizo.attacks import ActionChoice, ReturnSwap
from yokai_envs.yokaizo.damage import Damage, banish
from yokai_envs.yokaizo.state import BIG_TIER, ActiveYokai

S = "Oni Brute"


def board(up1=0, down1=0, soul1=S):
    g = blank()
    field(g, 0, 0, S)
    field(g, 0, 1, S)
    field(g, 1, 0, S, up=up1, down=down1, soul=soul1)
    field(g, 1, 1, S)
    return g


def test_active_counts_face_up_field_soul_and_void_yokai():
    g = board()
    start(g, effect(g, 0, "[{if_active: {element: Water, then: [{draw: 1}]}}]"))
    assert len(g.hand[0]) == 0  # no Active Water Yokai
    g = board()
    void(g, 0, "Kappa Bowlkeeper")
    start(g, effect(g, 0, "[{if_active: {element: Water, then: [{draw: 1}]}}]"))
    assert len(g.hand[0]) == 1
    g = board()
    tok = void(g, 0, "Kappa Bowlkeeper")[0]
    g.facedown[tok] = 1  # a face-down card is not a Yokai, so not Active
    start(g, effect(g, 0, "[{if_active: {element: Water, then: [{draw: 1}]}}]"))
    assert len(g.hand[0]) == 0


def test_attach_exiles_top_card_onto_a_field_yokai_and_moves_with_swap():
    g = board()
    speed = g.field_speed(0, 0)
    start(g, effect(g, 0, "[{attach: 1}]"))
    assert legal(g) == {"my field yokai 0", "my field yokai 1"}
    act(g, "my field yokai 0")
    assert len(g.relics[0][0]) == 1 and g.field_speed(0, 0) == speed  # no Speed from an attachment
    y = g.field[0][0]
    hand(g, 0, "Karasu Scout")
    start(g, ReturnSwap(0, 0, y))
    act(g, "card Karasu Scout")
    assert len(g.relics[0][0]) == 1  # the attachment stays with the slot (attaches to the new Yokai)
    relic = g.relics[0][0][0]
    banish(g.state, g.rules_context(), 0, 0)
    assert relic in g.exile  # Exiled attachments are set aside when Destroyed


def test_attack_special_and_basic_are_actions():
    g = board()
    void(g, 0, S, S)
    start(g, ActionChoice(0, 0, g.field[0][0]))
    assert legal(g) == {"pass / done / no", "special attack", "basic attack"}  # Club Smash: Earth Earth


def test_banish_condition_only_after_a_banish():
    g = board(up1=4, down1=1)
    start(g, effect(g, 0, "[{damage: 1}, {if_banished: [{draw: 2}]}]"))
    act(g, "enemy field yokai 0", "soul 4")
    assert g.field[1][0] == NO and len(g.hand[0]) == 2
    g = board(up1=0, down1=1)
    start(g, effect(g, 0, "[{damage: 1}, {if_banished: [{draw: 2}]}]"))
    act(g, "enemy field yokai 0", "soul 0")
    assert len(g.hand[0]) == 0


def test_dmg_and_break_dmg():
    g = board(down1=1, soul1="Funayurei Crew")  # Soul: DMG 1 to the enemy Yokai taking its Turn
    g.active = ActiveYokai(0, 0, g.field[0][0])
    start(g, Damage(1, 0, g.field[1][0], 1, False))
    act(g, "soul 0")
    assert g.decider == 0 and g.phase_name == "damage"  # the Soul effect hits the attacker
    g = board(down1=1, soul1="Funayurei Crew")
    g.active = ActiveYokai(0, 0, g.field[0][0])
    start(g, Damage(1, 0, g.field[1][0], 1, True))
    act(g, "soul 0")
    assert g.phase_name != "damage"


def test_destroy_enemy_void_cards_and_shields():
    g = board()
    void(g, 1, S, S)
    start(g, effect(g, 0, "[{destroy: {count: 1, may: true}}]"))
    assert legal(g) == {"pass / done / no", "enemy void card 0", "enemy void card 1"}
    act(g, "enemy void card 1")
    assert len(g.void[1]) == 1 and len(g.limbo[1]) == 1
    g = board()
    g.shields[1][1].append(g.deck[1].pop())
    start(g, effect(g, 0, "[{destroy: {count: 2, may: true, what: shield}}]"))
    assert legal(g) == {"pass / done / no", "enemy field yokai 1"}
    act(g, "enemy field yokai 1")
    assert not g.shields[1][1]


def test_exile_removes_cards_from_the_enemy_limbo():
    g = board()
    g.limbo[1] += [g.deck[1].pop(), g.deck[1].pop()]
    start(g, effect(g, 0, "[{exile: {count: 2, may: true}}]"))
    act(g, f"card {S}", f"card {S}")
    assert len(g.exile) == 2 and not g.limbo[1]
    g = board()
    g.limbo[1] += [g.deck[1].pop(), g.deck[1].pop()]
    start(g, effect(g, 0, "[{exile: 1}]"))  # mandatory: the one name there goes unasked
    assert len(g.exile) == 1 and len(g.limbo[1]) == 1


def test_return_triggers_on_return_effects_before_the_swap():
    g = blank()
    y = field(g, 0, 0, "Karasu Scout")  # Return: draw 1
    field(g, 1, 0, S)
    hand(g, 0, S)
    start(g, ActionChoice(0, 0, y))
    act(g, "return", "topdeck", "topdeck")
    assert len(g.hand[0]) == 2  # drew 1 while still in the Field
    act(g, f"card {S}")
    assert y in g.hand[0]


def test_shield_attaches_face_down_cards_that_take_damage_first():
    g = board()
    start(g, effect(g, 0, "[{shield: 2}]"))
    act(g, "my field yokai 1")
    assert len(g.shields[0][1]) == 2
    start(g, Damage(0, 1, g.field[0][1], 2, False))
    assert not g.shields[0][1] and slot_souls(g, 0, 1) == (0, 0)


def test_soul_effects_trigger_when_flipped():
    g = board(down1=1, soul1="Weeping Yurei")  # Soul: Haunt to hand
    g.limbo[1].append(g.deck[1].pop())
    start(g, Damage(1, 0, g.field[1][0], 1, False))
    act(g, "soul 0")  # Haunt is mandatory: the only card in the Limbo comes back unasked
    assert len(g.hand[1]) == 1 and not g.limbo[1]


def test_swap_a_void_card_with_a_hand_card():
    g = board()
    out = void(g, 0, "Karasu Scout")[0]
    g.frozen[out] = 1
    hand(g, 0, "Kappa Bowlkeeper")
    start(g, effect(g, 0, "[{swap: {count: 1, may: true}}]"))
    act(g, "my void card 0")
    assert legal(g) == {"card Kappa Bowlkeeper", "pass / done / no"}  # asked: the hand is hidden
    act(g, "card Kappa Bowlkeeper")
    assert out in g.hand[0] and not g.frozen[out]
    assert name_of(g, g.void[0][0]) == "Kappa Bowlkeeper" and not g.shields[0][0]  # no entry trigger


def test_token_is_a_face_down_void_card_that_pays_generics():
    g = board()
    start(g, effect(g, 0, "[{token: 2}]"))
    assert len(g.void[0]) == 2 and all(g.facedown[c] for c in g.void[0])
    from yokai_envs.yokaizo.attacks import void_elements
    assert void_elements(g.state, g.rules_context(), 0) == [NO, NO]
    obs = g.observation(1)
    assert obs[g.observation_layout["opp_void"]][g.observer.width - 1] == 1  # hidden from the enemy


def test_burn_sends_deck_cards_face_down_to_the_grave():
    g = board()
    start(g, effect(g, 0, "[{burn: 2}]"))
    assert legal(g) == {"pass / done / no", "yes"}
    act(g, "yes", "pass / done / no")
    assert len(g.burned[0]) == 1 and g.grave_souls(0) == 1


def test_burn_an_enemy_void_card_to_your_own_grave():
    g = board()
    void(g, 1, "Karasu Scout")
    start(g, effect(g, 0, "[{burn: {up_to: 1, target: enemy_void}}]"))
    act(g, "enemy void card 0")
    assert len(g.burned[0]) == 1 and g.grave_souls(0) == 1 and g.grave_souls(1) == 0


def test_blight_then_banish_deals_break_dmg_to_the_ally():
    g = board(up1=3, down1=2)
    start(g, effect(g, 0, "[{blight: 2}]"))
    act(g, "enemy field yokai 0", "soul 3")
    assert "soul 3" not in legal(g)  # cannot Blight a Blighted Soul
    act(g, "soul 4")
    start(g, Damage(1, 0, g.field[1][0], 2, False))
    act(g, "soul 3", "soul 4")
    assert g.field[1][0] == NO
    assert g.phase_name == "damage" and g.stack[-1].s == 1 and g.stack[-1].left == 2 and g.stack[-1].brk


def test_blighted_souls_cannot_be_uprooted():
    g = blank()
    field(g, 0, 0, S, down=2)
    field(g, 1, 0, S)
    g.blighted[g.souls[0][0][0]] = 1
    start(g, effect(g, 0, "[{uproot: {up_to: 2, to: hand}}]"))
    act(g, "my field yokai 0")
    assert legal(g) == {"pass / done / no", "soul 1"}


def test_echo_retriggers_entry_effects_even_frozen_and_repeatedly():
    g = board()
    c = void(g, 0, "Cucumber Trader")[0]  # Void entry: draw 1
    g.frozen[c] = 1
    start(g, effect(g, 0, "[{echo: 2}]"))  # mandatory, one target: Echoed twice unasked
    assert len(g.hand[0]) == 2


def test_freeze_negates_void_effects_and_destroys_at_round_end():
    g = board()
    lantern = void(g, 0, "Yuki Lantern")[0]  # Void, end of Round: Shield 1
    start(g, effect(g, 1, "[{freeze: 2}]"))
    act(g, "enemy void card 0")
    assert "enemy void card 0" not in legal(g)  # cannot Freeze a Frozen card
    for y in (g.field[0][0], g.field[0][1], g.field[1][0], g.field[1][1]):
        g.turn_round[y] = 1
    g.turns_this_round = 4
    start(g)
    assert lantern in g.limbo[0] and not g.shields[0][0] and not g.shields[0][1]


def test_haunt_searches_limbo_but_not_for_a_copy_of_itself():
    g = blank()
    src = field(g, 0, 0, "Grave Keeper")
    field(g, 1, 0, S)
    g.limbo[0] += [g.deck[0].pop(), hand(g, 0, "Grave Keeper")[0]]
    g.hand[0].clear()
    start(g, effect(g, 0, "[{haunt: hand}]", src=src), halt=True)
    # mandatory, and the copy is no target: the one other card comes back unasked
    assert [name_of(g, c) for c in g.hand[0]] == [S] and [name_of(g, c) for c in g.limbo[0]] == ["Grave Keeper"]


def test_shine_searches_the_deck_for_a_match_of_an_active_card():
    g = blank()
    src = field(g, 0, 0, "Bake-danuki")  # Wind
    field(g, 1, 0, S)
    hand(g, 0, "Karasu Scout", "Bake-danuki", "Kappa Bowlkeeper")
    for c in list(g.hand[0]):
        g.hand[0].remove(c)
        g.deck[0].insert(0, c)
    start(g, effect(g, 0, "[{shine: {count: 1, match: element}}]", src=src))
    assert legal(g) == {"card Karasu Scout"}  # Wind, not a Bake-danuki copy; asked: the deck is hidden
    act(g, "card Karasu Scout")
    assert name_of(g, g.hand[0][0]) == "Karasu Scout"


def test_slow_sets_base_speed_one_until_its_next_turn():
    g = board()
    y = g.field[1][1]
    start(g, effect(g, 0, "[{slow: 1}]"))
    act(g, "enemy field yokai 1")
    assert g.field_speed(1, 1) == 1 and g.slowed[y]
    start(g, effect(g, 0, "[{slow: 1}]"))
    assert "enemy field yokai 1" not in legal(g)  # cannot Slow a Slowed Yokai
    g.tier = BIG_TIER
    from yokai_envs.yokaizo.rules import Turn
    start(g, Turn(1, 1))
    assert not g.slowed[y]  # cleared at the start of its Turn


def test_spin_reveals_a_top_card_and_checks_the_condition():
    g = blank(filler1="Karasu Scout")
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    start(g, effect(g, 0, "[{spin: {deck: enemy, if: {speed_min: 7}, then: [{draw: 1}]}}]"))
    assert len(g.hand[0]) == 1 or g.known_top[1] != NO
    assert g.known_top[1] == g.deck[1][-1]
    top = g.observation(0)[g.observation_layout["known_deck_tops"]]
    assert top.any()


def test_shatter_break_dmg_one_to_each_of_x_yokai_in_chosen_order():
    g = board()
    start(g, effect(g, 0, "[{shatter: 3}]"))
    assert legal(g) == {"my field yokai 0", "my field yokai 1", "enemy field yokai 0", "enemy field yokai 1"}
    act(g, "enemy field yokai 1", "topdeck")
    assert "enemy field yokai 1" not in legal(g)
    act(g, "enemy field yokai 0", "topdeck")
    assert legal(g) == {"my field yokai 0", "my field yokai 1"}  # 3 different Yokai, your own too (R1)
    act(g, "my field yokai 0", "topdeck")
    assert slot_souls(g, 1, 0) == (0, 1) and slot_souls(g, 1, 1) == (0, 1) and slot_souls(g, 0, 0) == (0, 1)


def test_uproot_moves_face_down_souls():
    g = blank()
    field(g, 0, 0, S, up=1, down=2)
    field(g, 1, 0, S)
    start(g, effect(g, 0, "[{uproot: {up_to: 1, to: void}}]"))
    act(g, "my field yokai 0")
    assert legal(g) == {"pass / done / no", "soul 1", "soul 2"}
    act(g, "soul 2")
    assert len(g.void[0]) == 1 and slot_souls(g, 0, 0) == (1, 1)


def test_uproot_is_up_to_x_by_the_book():
    """The rulebook's Uproot: "Remove up to X face-down Souls": its shorthand ``{uproot: X}``
    offers a pass at each choice, as Burn, Blight, Freeze and Slow do, and a card cannot make it
    mandatory (it takes no ``may``)."""
    from yokai_envs.core.errors import ConfigError
    from yokai_envs.yokaizo.cards import UP_TO_BY_THE_BOOK, VOCABULARY

    assert "uproot" in UP_TO_BY_THE_BOOK and "may" not in VOCABULARY["uproot"].params
    g = blank()
    field(g, 0, 0, S, down=2)
    field(g, 1, 0, S)
    start(g, effect(g, 0, "[{uproot: 2}]"))
    assert "pass / done / no" in legal(g)
    act(g, "my field yokai 0")
    assert legal(g) == {"pass / done / no", "soul 0", "soul 1"}
    act(g, "soul 0", "pass / done / no")
    assert slot_souls(g, 0, 0) == (0, 1)
    with pytest.raises(ConfigError, match="may"):
        effect(g, 0, "[{uproot: {up_to: 1, may: false}}]")
