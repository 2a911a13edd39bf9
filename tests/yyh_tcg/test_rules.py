"""Scripted scenarios: one per rule of the rulebook and per ruling in RULES_NOTES.md."""

from __future__ import annotations

import numpy as np
import pytest

from tests.yyh_tcg.helpers import (
    NEUTRAL,
    TOGURO,
    URAMESHI,
    attach,
    cid,
    clear_hand,
    done,
    finish_choices,
    give,
    legal_names,
    neutral_game,
    new_game,
    pass_part2,
    play,
    refresh,
    set_fighter,
    take,
    to_main,
)
from yokai_envs.yyh_tcg.effects import attack_modifier
from yokai_envs.yyh_tcg.game import YYHGame
from yokai_envs.yyh_tcg.moves import flip_attachments, mill
from yokai_envs.yyh_tcg.rules import affordable_attacks, attack_value, defense_value, end_match
from yokai_envs.yyh_tcg.state import Phase


# ---------------------------------------------------------------- setup
def test_setup_picks_are_atomic_in_turn_and_build_the_line_in_order() -> None:
    g = YYHGame(decks=(NEUTRAL, NEUTRAL))
    g.reset(0)
    assert g.phase == Phase.SETUP and g.current_player == 0
    names = ("M1", "Rinku", "Jin", "Seiryu", "George Saotome")
    assert legal_names(g) == {f"setup: put {n} on the field" for n in names}
    for name in ("Jin", "M1", "Seiryu", "Rinku"):
        assert g.current_player == 0
        play(g, f"setup: put {name} on the field")
        assert f"setup: put {name} on the field" not in legal_names(g) or g.current_player == 1
    assert g.current_player == 1 and g.phase == Phase.SETUP
    p = g.players[0]
    assert g.pool.cards[p.fighter.char].name == "Jin"  # first pick fights the first match
    assert [g.pool.cards[s.char].name for s in p.sideline] == ["M1", "Seiryu", "Rinku"]  # next in line leftmost


def test_setup_choice_stays_hidden_until_both_have_chosen() -> None:
    """Simultaneous choice asked in turn: seat 1 sees nothing of seat 0's picks before the reveal."""
    seen = []
    for picks in (["M1", "Rinku", "Jin", "Seiryu"], ["George Saotome", "Seiryu", "Jin", "Rinku"]):
        g = YYHGame(decks=(NEUTRAL, NEUTRAL))
        g.reset(5)
        for name in picks:
            play(g, f"setup: put {name} on the field")
        seen.append((g.observation(1).tobytes(), g.render_for(1)))
        assert "M1" not in g.render_for(1) and "George" not in g.render_for(1)
    assert seen[0] == seen[1]


def test_reveal_shuffles_flips_coin_and_deals_four() -> None:
    firsts = set()
    for seed in range(12):
        g = YYHGame(decks=(NEUTRAL, NEUTRAL))
        g.reset(seed)
        for _ in range(8):
            g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
        assert g.revealed
        firsts.add(g.first_player)
        first, second = g.players[g.first_player], g.players[1 - g.first_player]
        assert len(first.hand) == 4 and len(second.hand) == 4  # first turn: no draw
        assert first.spirit == 2 and second.spirit == 0       # start at 0, +2 in the Draw step
        assert g.turn_player == g.first_player
    assert firsts == {0, 1}


def test_first_player_attacks_in_the_first_turn_and_only_its_draw_is_skipped() -> None:
    """Ruling 3, the book's game: the first turn skips the draw but not the Attack step; the
    second player's first turn draws two and gains two."""
    g = neutral_game(first=0, first_turn=True)
    assert g.turn_number == 1 and affordable_attacks(g.state) and not g.players[0].hand
    to_main(g)
    done(g)
    assert g.phase == Phase.ATTACK and g.turn_player == 0 and g.turn_number == 1
    play(g, "use printed attack 1")
    pass_part2(g)
    while g.turn_number == 1:
        done(g)
    assert g.turn_number == 2 and g.turn_player == 1
    assert len(g.players[1].hand) == 2 and g.players[1].spirit == 2


def test_balanced_variant_first_turn_has_no_attack_and_the_second_draws_two_and_gains_two() -> None:
    """Ruling 3, the "balanced" variant: the game's first turn ends after its Main step (no
    Attack step, though an attack is affordable); from the second turn on, attacks are made."""
    g = neutral_game(first=0, first_turn=True, variant="balanced")
    assert g.turn_number == 1 and affordable_attacks(g.state)
    to_main(g)
    done(g)
    assert g.turn_number == 2 and g.turn_player == 1 and g.phase != Phase.ATTACK
    assert all(p.fighter.damage == 0 for p in g.players)
    assert len(g.players[1].hand) == 2 and g.players[1].spirit == 2
    to_main(g)
    done(g)
    assert g.phase == Phase.ATTACK and g.turn_player == 1


# ---------------------------------------------------------------- draw step
def test_spirit_energy_caps_at_ten_and_floors_at_zero() -> None:
    g = neutral_game(first=0)
    g.players[0].spirit = 9
    give(g, 0, "Training with Genkai", "Crowd Heckling")
    g.players[1].spirit = 1
    play(g, "play Training with Genkai")
    assert g.players[0].spirit == 10
    play(g, "play Crowd Heckling")
    assert g.players[1].spirit == 0


def test_draw_abilities_are_offered_in_the_draw_step_once() -> None:
    g = new_game(URAMESHI, TOGURO, picks0=["Kurama", "Yusuke Urameshi", "Hiei", "Kazuma Kuwabara"], first=1)
    # seat 1 goes first; seat 0's turn opens with Kurama's "Draw:" ability
    to_main(g)
    done(g)
    while g.turn_player == 1:
        g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
    assert g.phase == Phase.DRAW and "use the ability of Kurama" in legal_names(g)
    spirit = g.players[0].spirit
    play(g, "use the ability of Kurama")
    assert g.players[0].spirit == spirit + 1
    assert g.phase == Phase.MAIN  # used once; nothing else to do in the Draw step: skipped


def test_draw_step_without_draw_abilities_is_skipped() -> None:
    g = neutral_game(first=0)
    assert g.phase == Phase.MAIN


# ---------------------------------------------------------------- main step
def test_attach_to_fighter_pays_and_unaffordable_is_masked() -> None:
    g = neutral_game(first=0)
    give(g, 0, "Wind Cyclone")  # cost 1
    g.players[0].spirit = 0
    refresh(g)
    assert "attach Wind Cyclone to the Arena fighter" not in legal_names(g)
    assert "attach Wind Cyclone to Sideline slot 1" in legal_names(g)  # face-down: no cost
    g.players[0].spirit = 1
    refresh(g)
    play(g, "attach Wind Cyclone to the Arena fighter")
    assert g.players[0].spirit == 0 and g.players[0].fighter.attached[0].face_up


def test_sideline_attachment_is_face_down_unpaid_and_hidden() -> None:
    g = neutral_game(first=0)
    give(g, 0, "Wind Cyclone")
    g.players[0].spirit = 0
    refresh(g)
    before = g.observation(1).copy()
    play(g, "attach Wind Cyclone to Sideline slot 2")
    att = g.players[0].sideline[1].attached[0]
    assert not att.face_up and g.players[0].spirit == 0
    assert "Wind Cyclone" not in g.render_for(1) and "face-down card" in g.render_for(1)
    layout = g.observation_layout
    obs = g.observation(1)
    assert obs[layout["opp_line2_face_down"]][0] > 0
    assert obs[layout["opp_line2_face_up"]].sum() == 0
    assert g.observation(0)[layout["my_line2_face_down_cards"]].sum() > 0
    assert not np.array_equal(before, obs)


def test_fifth_character_once_to_the_end_of_the_line() -> None:
    g = neutral_game(first=0)
    give(g, 0, "George Saotome")
    play(g, "place George Saotome as 5th fighter")
    p = g.players[0]
    assert g.pool.cards[p.sideline[-1].char].name == "George Saotome" and len(p.sideline) == 4
    give(g, 0, "George Saotome")
    assert not any(n.startswith("place") for n in legal_names(g))


def test_event_pays_resolves_and_goes_to_discard_and_use_events_wait_for_an_attack() -> None:
    g = neutral_game(first=0)
    give(g, 0, "Botan's Report", "Ambush")
    g.players[0].spirit = 3
    refresh(g)
    assert "play Ambush" not in legal_names(g)  # "when you use an attack" only
    hand = len(g.players[0].hand)
    play(g, "play Botan's Report")
    p = g.players[0]
    assert p.spirit == 2 and len(p.hand) == hand - 1 + 2 and cid(g, "Botan's Report") in p.discard


def test_main_abilities_of_sideline_characters_can_be_used() -> None:
    g = new_game("Spirit World Agents", TOGURO, picks0=["Botan", "Koenma", "Ayame", "George Saotome"], first=0)
    to_main(g)
    g.players[0].spirit = 2
    refresh(g)
    hand = len(g.players[0].hand)
    play(g, "use the ability of Koenma")
    assert len(g.players[0].hand) == hand + 2 and g.players[0].spirit == 0
    g.players[0].spirit = 5
    refresh(g)
    assert "use the ability of Koenma" not in legal_names(g)  # once per turn


# ---------------------------------------------------------------- attack step
def _attack_setup(spirit: int = 5) -> YYHGame:
    g = neutral_game(first=0)
    g.players[0].spirit = spirit
    refresh(g)
    return g


def test_attack_parts_in_order_with_costs_and_damage_two_at_twice_defense() -> None:
    g = _attack_setup()
    give(g, 0, "Ambush")
    attach(g, 0, "Focus Bandana")  # Attack: pay 1, +2
    done(g)  # end Main
    assert g.phase == Phase.ATTACK
    assert legal_names(g) == {"use printed attack 1", "use printed attack 2"}
    play(g, "use printed attack 2")  # Overload Fist 8, pay 2
    assert g.players[0].spirit == 3 and g.phase == Phase.USE
    play(g, "play Ambush")           # part 2: +3, pay 1
    assert g.power == 3 and g.players[0].spirit == 2
    # nothing else for part 2: part 3 (no effect) runs and part 4 is asked
    assert g.phase == Phase.ABILITIES
    assert attack_value(g.state) == 11 and defense_value(g.state, 1) == 5
    done(g)                          # part 5: 11 >= 2*5 -> 2
    assert g.players[1].fighter.damage == 2 and g.turn_player == 1


def test_damage_one_when_attack_at_least_defense() -> None:
    g = _attack_setup()
    done(g)
    play(g, "use printed attack 1")  # Drone Strike 5 vs 5
    assert g.players[1].fighter.damage == 1


def _defended(card: str | None, ability: str | None = None) -> YYHGame:
    """Seat 0 attacks M1 (Defense 5) with Drone Strike 5; seat 1 may hold ``card`` or have
    ``ability`` on its fighter; the attack stops in part 4."""
    g = _attack_setup()
    g.players[1].spirit = 3
    clear_hand(g, 1)
    if card:
        give(g, 1, card)
    if ability:
        attach(g, 1, ability)
    attach(g, 0, "Focus Bandana")  # the attacker has something for part 4
    done(g)
    play(g, "use printed attack 1")
    pass_part2(g)
    assert g.phase == Phase.ABILITIES and g.current_player == 0
    return g


def test_part_four_gives_the_defender_a_window_after_the_attacker() -> None:
    """"Attack:" effects may be used in part 4 by a player, so both players get the
    window, the attacker first, each with a pass."""
    g = _defended("Last Stand")
    done(g)  # the attacker passes
    assert g.phase == Phase.ABILITIES and g.current_player == 1
    assert legal_names(g) == {"play Last Stand", "done / pass"}
    play(g, "play Last Stand")  # guard 2: Defense 7 > Attack 5; nothing left: part 4 ends
    assert cid(g, "Last Stand") in g.players[1].discard
    assert g.players[1].fighter.damage == 0 and g.turn_player == 1
    g2 = _defended(None, ability="Spirit Shield")
    done(g2)
    play(g2, "use the ability of Spirit Shield")  # guard 1: Defense 6 > 5
    assert g2.players[1].fighter.damage == 0 and g2.turn_player == 1


def test_the_defender_is_not_offered_what_only_changes_your_attack() -> None:
    """"Your attack" abilities (Focus Bandana's +2000, Zeru's +1000) do nothing for the defender,
    which has no attack: its part-4 window offers only what does something (Last Stand's guard)."""
    g = _defended("Last Stand", ability="Focus Bandana")
    p = g.players[1]
    p.sideline[0].char = take(g, 1, "Zeru")  # a Sideline character's ability is usable too
    refresh(g)
    assert "use the ability of Focus Bandana" in legal_names(g)  # the attacker's own is offered
    done(g)
    assert g.phase == Phase.ABILITIES and g.current_player == 1
    assert legal_names(g) == {"play Last Stand", "done / pass"}
    g2 = _defended(None, ability="Focus Bandana")
    done(g2)  # the defender has nothing that does anything (and no hand): its pass is not asked
    assert g2.turn_player == 1 and g2.players[1].fighter.damage == 1


def test_the_defenders_window_is_asked_whatever_its_hidden_hand() -> None:
    """The defender's pass is asked while its hand might hold an affordable part-4 Event (its
    decklist is public), so skipping it would not tell the attacker what the hand lacks."""
    names = []
    for card in ("Last Stand", "Rose Whip"):
        g = _defended(card)
        g.original_decks[1] = sorted({*g.original_decks[1]} | {cid(g, "Last Stand")})  # in its list
        if cid(g, "Last Stand") not in g.players[1].hand:
            g.players[1].deck.append(take(g, 1, "Last Stand"))
        done(g)
        names.append((g.phase, g.current_player))
    assert names[0] == names[1] == (Phase.ABILITIES, 1)


def test_no_more_than_two_damage_without_a_card_saying_so() -> None:
    g = _attack_setup(spirit=10)
    give(g, 0, "Ambush", "Ambush", "Ambush")
    done(g)
    play(g, "use printed attack 2")
    for _ in range(3):
        play(g, "play Ambush")  # 8 + 9 = 17 >= 3 * 5
    done(g)
    assert g.players[1].fighter.damage == 2


def test_extra_damage_raises_the_cap() -> None:
    g = new_game(TOGURO, NEUTRAL, picks1=["M1", "Rinku", "Jin", "Seiryu"], first=0)
    to_main(g)
    p = g.players[0]
    p.deck.extend(p.hand)
    p.hand.clear()
    p.spirit = 10
    set_fighter(g, 0, "M1")
    give(g, 0, "Final Blow", "Rising Fury")
    done(g)
    play(g, "use printed attack 2")  # 8
    play(g, "play Rising Fury")      # +2 attack, -1 defense -> 10 vs 4
    play(g, "play Final Blow")       # +1 damage
    done(g)
    assert g.players[1].fighter.damage == 3


def test_minimum_damage_discard_two_for_one() -> None:
    g = _attack_setup()
    set_fighter(g, 1, "Seiryu")
    g.players[1].guard = 10  # Defense 15
    give(g, 0, "Rose Whip", "Spirit Armor")
    done(g)
    play(g, "use printed attack 1")
    pass_part2(g)
    assert g.phase == Phase.MIN_DAMAGE
    assert legal_names(g) == {"discard 2 cards to deal 1 damage", "done / pass"}
    play(g, "discard 2 cards to deal 1 damage")
    play(g, "discard Rose Whip")
    play(g, "discard Spirit Armor")
    assert g.players[1].fighter.damage == 1 and not g.players[0].hand


def test_minimum_damage_may_be_declined_and_needs_two_cards() -> None:
    g = _attack_setup()
    g.players[1].guard = 10
    give(g, 0, "Rose Whip", "Spirit Armor")
    done(g)
    play(g, "use printed attack 1")
    pass_part2(g)
    done(g)
    assert g.players[1].fighter.damage == 0 and len(g.players[0].hand) == 2
    g2 = _attack_setup()
    g2.players[1].guard = 10
    give(g2, 0, "Rose Whip")
    done(g2)
    play(g2, "use printed attack 1")
    pass_part2(g2)
    assert g2.turn_player == 1 and g2.players[1].fighter.damage == 0  # not offered with one card


def test_attack_discard_cost_is_chosen_card_by_card() -> None:
    g = _attack_setup()
    set_fighter(g, 0, "Rinku")  # Multi-Yo-Yo: 8, pay 1, discard 1
    give(g, 0, "Rose Whip", "Brass Knuckles")
    done(g)
    play(g, "use printed attack 2")
    assert g.phase == Phase.DISCARD and legal_names(g) == {"discard Rose Whip", "discard Brass Knuckles"}
    play(g, "discard Brass Knuckles")
    pass_part2(g)
    assert g.players[0].hand == [cid(g, "Rose Whip")] and g.players[1].fighter.damage == 1


def test_attack_with_discard_cost_needs_the_cards() -> None:
    g = _attack_setup()
    set_fighter(g, 0, "Rinku")
    done(g)
    assert legal_names(g) == {"use printed attack 1"}


def test_no_affordable_attack_skips_the_attack_step() -> None:
    g = _attack_setup(spirit=0)
    set_fighter(g, 0, "Genkai")  # both printed attacks cost spirit
    g.players[0].spirit = 0
    refresh(g)
    done(g)
    assert g.turn_player == 1


def test_technique_gives_an_attack_and_stays_attached() -> None:
    g = _attack_setup()
    attach(g, 0, "Rose Whip")
    done(g)
    assert "use technique Rose Whip" in legal_names(g)
    play(g, "use technique Rose Whip")  # 7 vs 5, pay 1
    assert g.players[1].fighter.damage == 1 and g.players[0].spirit == 4
    assert cid(g, "Rose Whip") in [a.card for a in g.players[0].fighter.attached]


def test_attack_abilities_in_part_four_once_per_turn() -> None:
    g = _attack_setup()
    attach(g, 0, "Focus Bandana")
    done(g)
    play(g, "use printed attack 1")
    assert g.phase == Phase.ABILITIES
    play(g, "use the ability of Focus Bandana")
    # used: nothing left in part 4 -> resolved: 5 + 2 = 7 vs 5 -> 1 damage
    assert g.players[1].fighter.damage == 1 and g.turn_player == 1


def test_use_ability_in_part_two() -> None:
    g = _attack_setup()
    attach(g, 0, "Spirit Mirror")
    done(g)
    play(g, "use printed attack 2")  # Overload Fist 8, pay 2
    assert g.phase == Phase.USE and "use the ability of Spirit Mirror" in legal_names(g)
    play(g, "use the ability of Spirit Mirror")  # pay 1: Defense 5 - 2 = 3, 8 >= 6 -> 2 damage
    assert g.turn_player == 1 and g.players[1].fighter.damage == 2 and g.players[0].spirit == 2


# ---------------------------------------------------------------- values
def test_defense_floor_one_attack_floor_zero() -> None:
    g = _attack_setup()
    g.weaken = 50
    assert defense_value(g.state, 1) == 1
    g.attack = g.pool.card("M1").attacks[0]
    g.power = -50
    assert attack_value(g.state) == 0


def test_item_passives_apply_on_the_fighter_and_character_passives_from_the_sideline() -> None:
    g = _attack_setup()
    attach(g, 1, "Spirit Armor", slot=1, face_up=True)
    assert defense_value(g.state, 1) == 5  # an Item boosts the character it is under
    attach(g, 1, "Spirit Armor", slot=0)
    assert defense_value(g.state, 1) == 6
    g2 = new_game(URAMESHI, NEUTRAL, picks0=["Yusuke Urameshi", "Kazuma Kuwabara", "Kurama", "Hiei"], first=0)
    assert defense_value(g2.state, 0) == 4 + 1  # Yusuke 4 + Kuwabara on the Sideline: "your fighter gets +1000 Defense"


def test_guard_lasts_until_the_owners_next_turn() -> None:
    g = _attack_setup()
    give(g, 0, "Demon Barrier")
    play(g, "play Demon Barrier")
    assert defense_value(g.state, 0) == 7
    assert g.phase == Phase.ATTACK  # nothing left to do in Main: skipped
    play(g, "use printed attack 1")
    assert g.turn_player == 1 and defense_value(g.state, 0) == 7
    to_main(g)
    clear_hand(g, 1)
    done(g)
    play(g, "use printed attack 1")
    assert g.turn_player == 0 and defense_value(g.state, 0) == 5


def test_heal_cannot_go_below_zero_damage() -> None:
    g = _attack_setup()
    g.players[0].fighter.damage = 1
    give(g, 0, "Second Wind")
    play(g, "play Second Wind")
    assert g.players[0].fighter.damage == 0


# ---------------------------------------------------------------- damage, defeat, match end
def test_defeat_at_four_ends_the_match_and_the_next_in_line_enter() -> None:
    g = _attack_setup()
    g.players[1].fighter.damage = 3
    attach(g, 1, "Brass Knuckles")               # on the loser: discarded
    attach(g, 0, "Spirit Armor")                 # on the winner: discarded too
    g.players[0].spirit = 5
    attach(g, 0, "Wind Cyclone", slot=1)         # cost 1 -> paid on entering
    attach(g, 0, "Rose Whip", slot=1)            # cost 1 -> paid
    attach(g, 1, "Wind Cyclone", slot=1)         # opponent has 0 spirit -> discarded
    g.players[1].spirit = 0
    refresh(g)
    done(g)
    play(g, "use printed attack 1")
    p0, p1 = g.players
    m1 = cid(g, "M1")
    assert p0.won == [m1] and p1.lost == [m1] and p0.wins == 1
    assert cid(g, "Spirit Armor") in p0.discard and cid(g, "Brass Knuckles") in p1.discard
    assert g.pool.cards[p0.fighter.char].name == "Rinku" and g.pool.cards[p1.fighter.char].name == "Rinku"
    assert [a.face_up for a in p0.fighter.attached] == [True, True] and p0.spirit == 5 - 1 - 1
    assert not p1.fighter.attached and cid(g, "Wind Cyclone") in p1.discard
    assert len(p0.sideline) == 2 and g.turn_player == 1


def test_flip_pays_at_once_when_spirit_covers_all_or_only_one_can_be_paid() -> None:
    g = _attack_setup()
    g.players[0].spirit = 1
    attach(g, 0, "Wind Cyclone", slot=1)   # 1: paid
    attach(g, 0, "Wind Cyclone", slot=1)   # 1: no spirit left -> discarded (the same card: no choice)
    flip_attachments(g.state, g.rules_context(), 0, (1,))
    assert [g.pool.cards[a.card].name for a in g.players[0].sideline[0].attached] == ["Wind Cyclone"]
    assert g.players[0].spirit == 0 and cid(g, "Wind Cyclone") in g.players[0].discard and not g.choices
    g2 = _attack_setup()
    g2.players[0].spirit = 3
    attach(g2, 0, "Wind Cyclone", slot=1)
    attach(g2, 0, "Shadow Sever", slot=1)  # 1 + 2 <= 3: both paid
    flip_attachments(g2.state, g2.rules_context(), 0, (1,))
    assert all(a.face_up for a in g2.players[0].sideline[0].attached) and g2.players[0].spirit == 0


def test_flip_payment_order_is_the_owners_choice_when_spirit_does_not_cover_all() -> None:
    """Which turned-up card to pay for is a choice when the Spirit cannot pay them all."""
    kept = set()
    for first in ("Rose Whip", "Shadow Sever"):
        g = _attack_setup()
        clear_hand(g, 0)
        attach(g, 0, "Rose Whip", slot=1)      # cost 1
        attach(g, 0, "Shadow Sever", slot=1)   # cost 2
        give(g, 0, "Unveiled Strength")        # Main: flip your face-down Sideline attachments
        g.players[0].spirit = 2
        refresh(g)
        play(g, "play Unveiled Strength")
        assert g.phase == Phase.PAY and legal_names(g) == {"pay for Rose Whip on Sideline slot 1",
                                                           "pay for Shadow Sever on Sideline slot 1"}
        assert "Shadow Sever" in g.render_for(1)  # turned up: public before it is paid for
        play(g, f"pay for {first} on Sideline slot 1")
        assert g.phase != Phase.PAY and not g.choices
        line = g.players[0].sideline[0].attached
        kept.add(tuple(g.pool.cards[a.card].name for a in line))
        assert all(a.face_up for a in line)
        g.check_invariants()
    assert kept == {("Rose Whip",), ("Shadow Sever",)}


def test_a_flip_of_several_slots_asks_the_pay_choice_over_all_their_cards_before_paying_any() -> None:
    """Ruling 9 over two Sideline slots: Rose Whip (1) and Shadow Sever (2) under slot 1, Wind
    Cyclone (1) under slot 2, 2 Spirit. The three turn up together and the owner picks first
    among all three; slot 2's card, which the Spirit alone could pay, is not paid beforehand."""
    g = _attack_setup()
    clear_hand(g, 0)
    attach(g, 0, "Rose Whip", slot=1)
    attach(g, 0, "Shadow Sever", slot=1)
    attach(g, 0, "Wind Cyclone", slot=2)
    give(g, 0, "Unveiled Strength")
    g.players[0].spirit = 2
    refresh(g)
    play(g, "play Unveiled Strength")
    assert g.phase == Phase.PAY and g.players[0].spirit == 2
    assert legal_names(g) == {"pay for Rose Whip on Sideline slot 1", "pay for Shadow Sever on Sideline slot 1",
                              "pay for Wind Cyclone on Sideline slot 2"}
    assert not any(a.face_up for slot in g.players[0].sideline for a in slot.attached)
    play(g, "pay for Shadow Sever on Sideline slot 1")
    assert g.phase != Phase.PAY and not g.choices and g.players[0].spirit == 0
    line = [[g.pool.cards[a.card].name for a in slot.attached] for slot in g.players[0].sideline]
    assert line == [["Shadow Sever"], [], []]
    assert {cid(g, "Rose Whip"), cid(g, "Wind Cyclone")} <= set(g.players[0].discard)
    g.check_invariants()


def test_search_is_the_players_choice_among_the_cards_of_the_type() -> None:
    """The searching player chooses the card (from its deck's cards of that type)."""
    g = _attack_setup()
    give(g, 0, "Spirit World Orders")  # search: technique
    p = g.players[0]
    techniques = {g.pool.cards[c].name for c in p.deck if g.pool.cards[c].type == "technique"}
    assert len(techniques) > 1
    play(g, "play Spirit World Orders")
    assert g.phase == Phase.SEARCH and g.current_player == 0
    assert legal_names(g) == {f"search: take {n}" for n in techniques}
    pick = sorted(techniques)[-1]
    play(g, f"search: take {pick}")
    assert cid(g, pick) in p.hand and cid(g, pick) in p.shown and g.phase == Phase.MAIN
    assert g.public_action_name(g.table.search(cid(g, pick)), 1) == f"search: take {pick}"


def test_three_match_wins_win_the_game() -> None:
    g = _attack_setup()
    g.players[0].wins = 2
    g.players[0].won = [cid(g, "Jin"), cid(g, "Seiryu")]
    g.players[0].deck = [c for c in g.players[0].deck]
    g.original_decks[0] = sorted(g.original_decks[0])
    g.players[1].fighter.damage = 3
    refresh(g)
    done(g)
    play(g, "use printed attack 1")
    assert g.is_terminal and g.winner == 0 and list(g.returns()) == [1.0, -1.0]


def test_drawing_from_an_empty_deck_loses() -> None:
    g = _attack_setup()
    g.players[1].deck = g.players[1].deck[:1]
    done(g)
    play(g, "use printed attack 1")
    assert g.is_terminal and g.winner == 0  # seat 1 had to draw 2 with 1 card
    assert g.outcome_facts()["end"] == "deck out"


def test_milling_an_empty_deck_does_not_lose() -> None:
    g = _attack_setup()
    g.players[1].deck = []
    mill(g.state, g.rules_context(), 1, 3)
    assert g.winner is None


def test_without_a_next_fighter_the_arena_waits_for_the_fifth_placed_in_a_later_main_step() -> None:
    """No one in line after a match does not lose: the 5th may enter in a later Main step."""
    for emptied in ((1,), (0, 1)):
        g = _attack_setup()
        for seat in emptied:
            g.players[seat].deck.extend(s.char for s in g.players[seat].sideline)
            g.players[seat].sideline = []
        g.players[1].fighter.damage = 3
        refresh(g)
        done(g)
        play(g, "use printed attack 1")
        assert not g.is_terminal and g.players[0].wins == 1
        assert g.players[1].fighter is None and (g.players[0].fighter is None) == (0 in emptied)
        g.check_invariants()
        # seat 1's turn: it places its 5th straight into the Arena
        give(g, 1, "George Saotome")
        to_main(g)
        play(g, "place George Saotome as 5th fighter")
        assert g.pool.cards[g.players[1].fighter.char].name == "George Saotome" and g.players[1].fifth_placed
        g.check_invariants()


def test_nobody_attacks_an_empty_arena() -> None:
    g = _attack_setup()
    g.players[1].deck.extend(s.char for s in g.players[1].sideline)
    g.players[1].sideline = []
    g.players[1].fighter.damage = 3
    refresh(g)
    done(g)
    play(g, "use printed attack 1")
    assert g.players[1].fighter is None
    phases = []
    while g.turn_player == 1:  # seat 1 has no fighter: no attack
        phases.append(g.phase)
        done(g)
    clear_hand(g, 0)
    while g.turn_player == 0:  # seat 0 has nobody to attack
        phases.append(g.phase)
        done(g)
    assert Phase.ATTACK not in phases and not g.is_terminal


def test_a_deck_out_while_an_arena_waits_for_its_fifth_is_told_apart() -> None:
    """Ruling 21: with nobody in line the Arena waits, so a game that runs out of fighters ends
    when a player must draw from an empty deck; ``yokai balance`` counts it as its own ending."""
    g = _attack_setup()
    g.players[1].deck.extend(s.char for s in g.players[1].sideline)
    g.players[1].sideline = []
    p1 = g.players[1]
    p1.discard.extend(p1.deck[1:])  # one card left to draw (moved, so every card stays somewhere)
    p1.deck = p1.deck[:1]
    g.players[1].fighter.damage = 3
    refresh(g)
    done(g)
    play(g, "use printed attack 1")  # the match ends; seat 1 must draw 2 from a 1-card deck
    assert g.is_terminal and g.winner == 0 and g.players[1].fighter is None
    assert g.outcome_facts() == {"end": "deck out, no fighter", "first_player": 0}


# ---------------------------------------------------------------- Team Bonus
def test_team_bonus_needs_three_of_a_symbol_on_the_field() -> None:
    g = new_game("Spirit World Agents", TOGURO, picks0=["Genkai", "Koenma", "Botan", "Ayame"], first=0)
    assert g.players[0].bonus_team == "Spirit World"
    g2 = new_game("Spirit World Agents", TOGURO, picks0=["Genkai", "Koenma", "Botan", "George Saotome"], first=1)
    assert g2.players[0].bonus_team == "Spirit World"
    g3 = new_game(NEUTRAL, TOGURO, first=0)
    assert g3.players[0].bonus_team is None


def test_bonus_extra_spirit() -> None:
    g = new_game(URAMESHI, TOGURO, first=0, first_turn=True)
    assert g.players[0].bonus_team == "Urameshi"
    assert g.players[0].spirit == 3  # 2 + the bonus's 1 in the Draw step


def test_bonus_villain_hunter() -> None:
    g = new_game("Spirit World Agents", TOGURO, picks0=["Koenma", "Botan", "George Saotome", "Itsuki"], first=0)
    assert g.players[0].bonus_team == "Spirit World"
    to_main(g)
    g.players[0].deck.extend(g.players[0].hand)
    g.players[0].hand.clear()
    refresh(g)
    done(g)
    clear_hand(g, 0)
    # Pacifier Beam 5 + 4 villains in play = 9 vs Younger Toguro 6 + Bui's 1000 = 7 -> 1 (5 alone: none)
    assert attack_modifier(g.state, 0) == 4 and defense_value(g.state, 1) == 7  # the bonus: 4 villains on the field
    play(g, "use printed attack 1")
    assert g.players[1].fighter.damage == 1


def test_bonus_rage_discards_for_attack() -> None:
    g = new_game(TOGURO, NEUTRAL, first=0)
    to_main(g)
    p = g.players[0]
    p.deck.extend(p.hand)
    p.hand.clear()
    give(g, 0, "Crowd Heckling", "Toguro's Wager", "Rising Fury")
    done(g)
    play(g, "use printed attack 1")
    for _ in range(2):
        play(g, "rage: discard a card for +3000 Attack")
        play(g, f"discard {g.pool.cards[p.hand[0]].name}")
    assert g.power == 6 and "rage: discard a card for +3000 Attack" not in legal_names(g)


def test_bonus_end_draw() -> None:
    g = new_game({"Dr. Ichigaki": 1, "M1": 1, "M2": 1, "M3": 1, **{k: v for k, v in NEUTRAL.items()
                                                                   if k not in ("M1",)}}, NEUTRAL, first=0)
    p = g.players[0]
    assert p.bonus_team == "Ichigaki"
    to_main(g)
    clear_hand(g, 0)
    done(g)
    play(g, "use printed attack 1")  # Scalpel 3 vs 5: no damage, no minimum damage with no hand
    assert len(p.hand) == 1


def test_bonus_end_draw_never_draws_from_an_empty_deck() -> None:
    """The team's bonus is one its player "can" use: with an empty deck it is not used, so its
    owner does not lose at the end of its own turn (drawing from an empty deck loses)."""
    g = new_game({"Dr. Ichigaki": 1, "M1": 1, "M2": 1, "M3": 1, **{k: v for k, v in NEUTRAL.items()
                                                                   if k not in ("M1",)}}, NEUTRAL, first=0)
    p = g.players[0]
    to_main(g)
    clear_hand(g, 0)
    p.discard.extend(p.deck)
    p.deck.clear()
    refresh(g)
    done(g)
    play(g, "use printed attack 1")  # no damage; the turn ends, with the end-of-turn draw
    assert not g.is_over and g.turn_player == 1 and p.hand == []


def test_bonus_team_defense() -> None:
    g = new_game("Rokuyukai Brawlers", TOGURO, picks0=["Roto", "Chu", "Rinku", "Zeru"], first=1)
    assert defense_value(g.state, 0) == 5 + 2  # Roto 5000 + the Rokuyukai bonus


def test_bonus_damage_mill() -> None:
    g = new_game({"Jin": 1, "Touya": 1, "Bakken": 1, "Risho": 1,
                  **{k: v for k, v in NEUTRAL.items() if g_is_other(k)}}, NEUTRAL, first=0)
    to_main(g)
    clear_hand(g, 0)
    deck = len(g.players[1].deck)
    done(g)
    play(g, "use printed attack 1")  # Whirlwind Fist 6 vs M1 5 -> 1 damage -> mill 1
    assert len(g.players[1].deck) == deck - 1 - 2  # 1 milled, then seat 1 draws 2


def g_is_other(name: str) -> bool:
    return name not in ("M1", "Rinku", "Jin", "Seiryu", "George Saotome")


def test_bonus_enter_search_when_entering_after_a_match() -> None:
    g = new_game("Saint Beasts Gate", NEUTRAL, first=0)
    to_main(g)
    p = g.players[0]
    techniques = lambda: sum(g.pool.cards[c].type == "technique" for c in p.hand)  # noqa: E731
    assert p.bonus_team == "Saint Beasts"
    before = techniques()
    g.players[1].fighter.damage = 3
    p.spirit = 0
    p.deck.extend(p.hand)
    p.hand.clear()
    refresh(g)
    done(g)
    play(g, "use printed attack 1")
    assert g.phase == Phase.SEARCH and g.current_player == 0  # the turn ends after the choice
    finish_choices(g)
    assert techniques() == 1 and before >= 0 and g.turn_player == 1


def test_bonus_ends_when_the_team_leaves_the_field() -> None:
    g = new_game("Spirit World Agents", NEUTRAL, picks0=["Koenma", "Botan", "Genkai", "Ayame"], first=0)
    assert g.players[0].bonus_team == "Spirit World"
    g.players[1].fighter.damage = 0
    end_match(g.state, g.rules_context(), 1)  # Koenma leaves: Botan, Ayame + Genkai on the field -> 2 of the team
    assert g.players[0].bonus_team is None


# ---------------------------------------------------------------- hidden information
def test_determinize_keeps_what_the_seat_knows_and_varies_the_rest() -> None:
    g = _attack_setup()
    give(g, 0, "Rose Whip")
    attach(g, 1, "Wind Cyclone", slot=1)
    attach(g, 0, "Shotgun Blast", slot=1)
    rng = np.random.default_rng(0)
    hands = set()
    for _ in range(10):
        w = g.determinize(0, rng)
        assert w.players[0].hand == g.players[0].hand
        assert w.players[0].sideline[0].attached[0].card == cid(g, "Shotgun Blast")
        assert np.array_equal(w.observation(0), g.observation(0))
        assert w.pool.cards[w.players[1].sideline[0].attached[0].card].type in ("technique", "item")
        hands.add(tuple(sorted(w.players[1].deck[-5:])))
    assert len(hands) > 1


def test_searched_card_is_shown_kept_by_determinize_and_forgotten_when_played() -> None:
    g = _attack_setup()
    give(g, 0, "Dark Tournament Invitation")
    play(g, "play Dark Tournament Invitation")  # search: item
    finish_choices(g)
    p = g.players[0]
    assert len(p.shown) == 1 and g.pool.cards[p.shown[0]].type == "item"
    item = p.shown[0]
    layout = g.observation_layout
    assert g.observation(1)[layout["opp_shown"]][item] > 0
    assert g.observation(0)[layout["my_shown"]][item] > 0
    rng = np.random.default_rng(0)
    for _ in range(5):
        world = g.determinize(1, rng)
        assert item in world.players[0].hand
        world.check_invariants()
    p.spirit = 10
    refresh(g)
    play(g, f"attach {g.pool.cards[item].name} to the Arena fighter")  # played in public: no longer hidden
    assert not p.shown and not g.observation(1)[layout["opp_shown"]].any()


def _searched_then_face_down(which: str) -> YYHGame:
    """Seat 0 searches an Item (shown), holds one other Item, and attaches one of the two face-down."""
    g = _attack_setup()
    clear_hand(g, 0)
    give(g, 0, "Dark Tournament Invitation", "Spirit Armor")
    for c in list(g.players[0].deck):  # the search can only find Brass Knuckles
        if g.pool.cards[c].type == "item" and g.pool.cards[c].name != "Brass Knuckles":
            g.players[0].deck.remove(c)
            g.players[0].discard.append(c)
    refresh(g)
    play(g, "play Dark Tournament Invitation")
    assert legal_names(g) == {"search: take Brass Knuckles"}  # asked even with one candidate
    finish_choices(g)
    assert [g.pool.cards[c].name for c in g.players[0].shown] == ["Brass Knuckles"]
    play(g, f"attach {which} to Sideline slot 1")
    return g


def test_a_shown_card_attached_face_down_is_not_told_apart_from_another() -> None:
    """Which card went face-down must not show in the opponent's observation or views."""
    searched, other = _searched_then_face_down("Brass Knuckles"), _searched_then_face_down("Spirit Armor")
    assert np.array_equal(searched.observation(1), other.observation(1))
    assert searched.render_for(1) == other.render_for(1)
    assert searched.table_view(1) == other.table_view(1)
    layout = searched.observation_layout
    knuckles = cid(searched, "Brass Knuckles")
    for g in (searched, other):  # still known to be in the hand or face-down
        assert g.observation(1)[layout["opp_shown"]][knuckles] > 0
        assert "Brass Knuckles" in g.render_for(1)
        assert knuckles in g.players[0].hidden_cards()
        for k in range(5):
            world = g.determinize(1, np.random.default_rng(k))
            assert knuckles in world.players[0].hidden_cards()
            world.check_invariants()
    # the shown card leaves the hidden cards in public when it turns face-up
    searched.players[0].spirit = 5
    flip_attachments(searched.state, searched.rules_context(), 0, (1,))
    assert not searched.players[0].shown


def test_a_forced_pass_in_part_two_is_asked_whatever_the_hidden_hand() -> None:
    """Part 2 is asked the same way whether or not the hand holds an affordable
    "when you use an attack" Event, so the defender's record cannot tell the two apart."""
    logs = []
    for card in ("Sneak Attack", "Rose Whip"):
        g = YYHGame(decks=(NEUTRAL, NEUTRAL))
        g.record_information()
        g.reset(3)
        for _seat in (0, 1):
            for name in ("M1", "Rinku", "Jin", "Seiryu"):
                play(g, f"setup: put {name} on the field")
        attacker = g.current_player  # the first player attacks in the game's first turn (ruling 3)
        p = g.players[attacker]
        keep = cid(g, card)
        for c in list(p.hand):
            p.hand.remove(c)
            p.deck.append(c)
        p.deck.remove(keep)
        p.hand.append(keep)
        refresh(g)
        for phase in (Phase.DRAW, Phase.MAIN):
            if g.phase == phase:
                done(g)
        play(g, "use printed attack 1")
        assert g.phase == Phase.USE and legal_names(g) >= {"done / pass"}
        done(g)
        logs.append(g.information_state(1 - attacker))
    assert logs[0] == logs[1]


def test_decklists_are_public_in_the_observation_views_and_determinize() -> None:
    g = YYHGame()
    g.reset(4)
    layout = g.observation_layout
    opp = g.players[1]
    unseen = g.observation(0)[layout["opp_unseen"]]
    assert np.allclose(unseen * 3, np.bincount(g.original_decks[1], minlength=len(g.pool)))
    assert opp.deck_name in g.render_for(0)
    for k in range(3):
        world = g.determinize(0, np.random.default_rng(k))
        assert sorted(world.players[1].all_cards()) == g.original_decks[1]
        assert np.array_equal(world.observation(0), g.observation(0))


def test_render_for_shows_the_opponents_shown_cards() -> None:
    g = _attack_setup()
    give(g, 0, "Dark Tournament Invitation")
    play(g, "play Dark Tournament Invitation")
    finish_choices(g)
    name = g.pool.cards[g.players[0].shown[0]].name
    assert f"shown (in hand or face-down): {name}" in g.render_for(1)


def test_forced_pass_is_not_asked() -> None:
    g = _attack_setup()
    done(g)
    play(g, "use printed attack 1")
    # parts 2 and 4 had nothing to offer: resolved without asking
    assert g.turn_player == 1


@pytest.mark.parametrize("seat", [0, 1])
def test_render_for_hides_the_other_hand(seat: int) -> None:
    g = _attack_setup()
    give(g, 1 - seat, "Mirror Counter")
    assert "Mirror Counter" not in g.render_for(seat)
    assert "Mirror Counter" in g.render()
