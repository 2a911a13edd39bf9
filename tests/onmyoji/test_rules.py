"""Scripted scenarios, one per rule of the rulebook (sections 3-11, Duel, Co-op, Solo)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.onmyoji.helpers import POOL, T_LEFT, T_P1, T_RIGHT, A, G, S, Y, give, legal, new_game, play_turn, put_battle
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import rules
from yokai_envs.onmyoji.state import ATTACK, GUARD, SPELL, Decision, Stage, Zone


# ---------------------------------------------------------------- 3 Setup
@pytest.mark.parametrize(("chars", "first"), [(("Seimei", "Yasunori"), 0), (("Yasunori", "Seimei"), 1),
                                              (("Kuzunoha", "Doman"), 0)])
def test_lower_hp_goes_first_tie_left(chars, first):
    g = new_game("duel", characters=chars)
    assert g.first_seat == first and g.current_player == first
    assert [p.hp for p in g.players] == [POOL.characters[POOL.character_index(c)].front.hp for c in chars]


def test_characters_random_when_not_given_and_distinct():
    g = new_game("coop", characters=None, seed=3)
    assert g.players[0].character != g.players[1].character


# ---------------------------------------------------------------- 4 Game flow
def test_each_battle_brings_two_yokai_of_the_nights_lv():
    g = new_game("coop", seed=5)
    seen = []
    rng = np.random.default_rng(0)
    while not g.is_over and not g.boss_battle:
        key = (g.night, g.battle)
        if not seen or seen[-1][0] != key:
            seen.append((key, [POOL.yokai[e.yokai].lv for e in g.enemies if e is not None]))
        m = np.flatnonzero(g.legal_action_mask())
        g.step(int(m[rng.integers(len(m))]))
    for (night, _), lvs in seen:
        assert lvs == [night, night]


def test_hp_does_not_recover_and_hand_returns_to_three_at_battle_start():
    g = put_battle(new_game("duel"), ["Kasa-obake", "Kappa"])
    g.players[0].hp = 7
    play_turn(g, [A, A], {0: T_LEFT, 1: T_LEFT})
    assert g.players[0].hand == [False, True, True]
    put_battle(g, ["Tanuki", "Kodama"])
    assert g.players[0].hp == 7 and g.players[0].hand == [True, True, True]


# ---------------------------------------------------------------- 5/6 Action cards and the turn
def test_face_down_choice_is_hidden_until_reveal():
    g = put_battle(new_game("duel"), ["Gashadokuro", "Oni"])
    first = g.current_player
    seen = []
    for card in (A, G, S):
        world = g.clone()
        world.step(card)
        assert world.current_player == 1 - first and world.decision == Decision.PLAY
        seen.append(world.observation(1 - first))
    assert all(np.array_equal(seen[0], o) for o in seen[1:])
    world.step(A)  # the reveal: now both cards show
    assert world.players[first].revealed and world.players[1 - first].revealed


def test_guard_takes_no_damage_and_acts_before_attackers():
    g = put_battle(new_game("duel"), ["Gashadokuro"])  # (1): 5 damage to the left player
    g.step(A)  # seat 0 (left, first) attacks
    g.step(G)  # seat 1 guards
    assert g.stage == Stage.GUARD and g.current_player == 1
    put_battle(g, ["Gashadokuro"])
    g.step(G)
    g.step(A)
    hp = g.players[0].hp
    play_turn(g, [G, A])
    assert g.players[0].hp == hp


def test_attack_minus_def_spell_ignores_def_and_def_is_a_per_turn_total():
    g = put_battle(new_game("duel", characters=("Doman", "Kuzunoha")), ["Gashadokuro"])  # DEF 2
    gd = POOL.yokai[Y["Gashadokuro"]]
    play_turn(g, [A, A])  # Doman ATK 3, Kuzunoha ATK 2: DEF 2 absorbs 2 of the 5 in total
    assert g.enemies[0].hp == gd.hp - 3
    play_turn(g, [S, S])  # Doman SPL 2 + Kuzunoha SPL 3, DEF ignored
    assert g.enemies[0].hp == gd.hp - 8


def test_first_player_acts_first_in_attack_step():
    g = put_battle(new_game("duel"), ["Kappa", "Tanuki"], first=1)
    g.step(A)
    g.step(S)
    assert g.current_player == 1 and g.decision == Decision.ACTION_MENU


def test_act_first_effect_lets_the_second_player_act_first():
    g = new_game("duel")
    give(g, 1, "Azukiarai", 0)  # start of turn: act first (1/game)
    put_battle(g, ["Kappa", "Tanuki"], first=0)
    assert g.decision == Decision.START_MENU and g.current_player == 1
    g.step(act.USE_SHIKIGAMI + Y["Azukiarai"])
    g.step(A)
    g.step(A)
    assert g.current_player == 1 and g.decision == Decision.ACTION_MENU


def test_empty_hand_takes_back_used_cards_at_end_of_turn():
    g = put_battle(new_game("duel"), ["Umibozu", "Oni"])
    for card in (A, S):
        play_turn(g, [card, card])
    assert g.players[0].hand == [False, True, False] and g.players[0].used == [True, False, True]
    assert legal(g) == {G}
    play_turn(g, [G, G])
    assert g.players[0].hand == [True, True, True] and g.players[0].used == [False, False, False]


# ---------------------------------------------------------------- 7 Yokai actions
def test_yokai_actions_cycle_right_then_left_and_advance_when_stopped():
    g = new_game("duel")
    give(g, 0, "Yuki-onna", 0)  # start of turn: stop 1 Yokai
    put_battle(g, ["Kappa", "Tanuki"])
    g.enemies[0].hp = g.enemies[1].hp = 99
    g.step(act.USE_SHIKIGAMI + Y["Yuki-onna"])
    g.step(T_RIGHT)  # stop Tanuki this turn
    hp = [p.hp for p in g.players]
    play_turn(g, [A, A])
    assert [p.hp for p in g.players] == hp  # Kappa (1) rests, Tanuki (1) was stopped
    assert [e.next_action for e in g.enemies] == [1, 1]  # moved on even though Tanuki was stopped
    play_turn(g, [S, S])
    play_turn(g, [G, G])
    assert g.enemies[1].next_action == 0  # back to (1) on turn 4


def test_from_turn_3_the_third_action_every_turn():
    g = put_battle(new_game("duel"), ["Kamaitachi"])
    g.enemies[0].hp = 99  # keep it alive
    for cards in ([G, G], [A, A], [S, S], [G, G]):
        play_turn(g, cards)
    assert g.enemies[0].next_action == 2


def test_targets_first_second_left_right_both_and_marked():
    g = put_battle(new_game("duel", characters=("Kuzunoha", "Yasunori")), ["Kasa-obake"], first=1)
    g.enemies[0].hp = 99
    hp = [p.hp for p in g.players]
    play_turn(g, [A, A])  # Kasa-obake (1): 1 to the right player (seat 1, DEF 1 absorbs it)
    assert [p.hp for p in g.players] == hp
    g2 = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kodama"], first=1)
    g2.enemies[0].next_action = 2  # (3): 1 marked damage to both, DEF ignored
    g2.enemies[0].hp = 99
    hp = [p.hp for p in g2.players]
    play_turn(g2, [A, A])
    assert [p.hp for p in g2.players] == [hp[0] - 1, hp[1] - 1]


def test_damage_aimed_at_a_fallen_player_goes_to_the_survivor():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Gashadokuro"])
    g.players[0].hp = 0
    g.players[0].fallen = True
    g.order = [1]
    g2 = put_battle(g, ["Gashadokuro"], first=1)
    hp = g2.players[1].hp
    play_turn(g2, [None, A])  # (1): 5 to the left player, who has fallen -> Seimei (DEF 0)
    assert g2.players[1].hp == hp - 5


def test_lone_bonus_when_no_other_yokai_is_left():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Rokurokubi"], first=1)
    g.enemies[0].hp = 0
    g.enemies[0].alive = False
    g.enemies[1].next_action = 2  # (3): 2 to the second player (Doman, seat 0), +1 when alone
    g.enemies[1].hp = 99
    hp = g.players[0].hp
    play_turn(g, [A, A])
    assert g.players[0].hp == hp - 3


# ---------------------------------------------------------------- 8 After a battle
def test_finisher_picks_first_other_takes_the_rest_and_goes_first_next():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Tanuki"], first=0)
    g.enemies[0].hp = 1
    g.enemies[1].hp = 1
    play_turn(g, [A, S], {0: T_LEFT, 1: T_RIGHT})  # seat 1 finishes off the second Yokai
    assert g.decision == Decision.PICK and g.current_player == 1
    assert legal(g) == {act.PICK + Y["Kappa"], act.PICK + Y["Tanuki"]}
    g.step(act.PICK + Y["Tanuki"])
    assert g.decision == Decision.TAKE and g.current_player == 1
    g.step(act.TAKE)  # Shikigami
    assert g.decision == Decision.TAKE and g.current_player == 0 and g.taking == Y["Kappa"]
    g.step(act.TAKE + 1)  # Attack Equip
    assert g.zone[Y["Tanuki"]] == Zone.SHIKIGAMI and g.zone[Y["Kappa"]] == Zone.EQUIP
    assert g.first_seat == 0 and g.battle == 2


# ---------------------------------------------------------------- 9 Shikigami and Equips
def test_shikigami_per_battle_limit_and_once_per_turn():
    g = new_game("duel", characters=("Doman", "Seimei"))
    give(g, 0, "Kamaitachi", 0)  # on action, 2/battle: 1 damage to 1 enemy
    put_battle(g, ["Umibozu", "Oni"])
    g.enemies[0].hp = g.enemies[1].hp = 99
    g.step(A)
    g.step(A)
    use = act.USE_SHIKIGAMI + Y["Kamaitachi"]
    assert use in legal(g)
    g.step(use)
    g.step(T_LEFT)
    assert use not in legal(g)  # at most once per turn
    g.step(act.DONE)
    g.step(T_LEFT)
    play_turn(g, [A, A])
    play_turn(g, [S, S])
    g.step(G)
    g.step(G)
    g.step(use)
    g.step(T_LEFT)
    play_turn(g, [G, G])
    g.step(A)
    g.step(A)
    assert use not in legal(g)  # 2/battle used up
    put_battle(g, ["Kappa", "Tanuki"])
    g.step(A)
    g.step(A)
    assert use in legal(g)  # a new battle


def test_per_game_shikigami_flips_and_stays_a_shikigami():
    g = new_game("duel", characters=("Doman", "Seimei"))
    give(g, 0, "Kodama", 0)  # 1/game: heal 4
    put_battle(g, ["Kappa", "Tanuki"])
    g.players[0].hp = 5
    g.step(G)
    g.step(G)
    g.step(act.USE_SHIKIGAMI + Y["Kodama"])
    assert g.players[0].hp == 9
    put_battle(g, ["Kasa-obake", "Azukiarai"])
    g.step(G)
    g.step(G)
    assert act.USE_SHIKIGAMI + Y["Kodama"] not in legal(g)
    assert Y["Kodama"] in g.players[0].shikigami


def test_equip_numbers_always_apply_and_effects_only_with_matching_card():
    g = new_game("duel", characters=("Doman", "Seimei"))
    give(g, 0, "Kasa-obake", 1)  # left edge: weaken 1 (Attack turns)
    give(g, 0, "Nekomata", 1)  # left edge: ATK +2
    put_battle(g, ["Gashadokuro"])
    g.step(S)
    g.step(S)
    assert act.USE_EQUIP + Y["Kasa-obake"] not in legal(g)  # not on a Spell turn
    put_battle(g, ["Gashadokuro"])
    g.step(A)
    g.step(G)
    g.step(act.DONE)  # seat 1 guards
    g.step(act.USE_EQUIP + Y["Kasa-obake"])
    g.step(act.DONE)
    # ATK 3 + 2 = 5, DEF 2 - 1 = 1
    assert g.enemies[0].hp == POOL.yokai[Y["Gashadokuro"]].hp - 4


# ---------------------------------------------------------------- 10 Evolution
@pytest.mark.parametrize(("char", "need"), [("Seimei", 3), ("Kuzunoha", 3), ("Doman", 5), ("Yasunori", 5)])
def test_evolution_threshold_heal_and_what_stays(char, need):
    g = new_game("duel", characters=(char, "Seimei" if char != "Seimei" else "Doman"))
    give(g, 0, "Oni", 0)  # Lv3
    give(g, 0, "Nekomata", 3)  # an Equip stays
    put_battle(g, ["Kappa", "Tanuki"])
    g.players[0].hp = 4
    g.step(A)
    g.step(A) if g.current_player == 1 else None
    while g.current_player != 0:
        g.step(act.DONE)
    assert (act.EVOLVE in legal(g)) == (need <= 3)
    if need > 3:
        give(g, 0, "Rokurokubi", 0)  # Lv2: total 5
        give(g, 0, "Kappa", 0)
        assert act.EVOLVE in legal(g)
    g.step(act.EVOLVE)
    assert legal(g) >= {act.EVOLVE_WITH + Y["Oni"]}
    g.step(act.EVOLVE_WITH + Y["Oni"])
    if need > 3:
        g.step(act.EVOLVE_WITH + Y["Rokurokubi"])
        assert Y["Kappa"] in g.players[0].shikigami  # the remaining Shikigami stays
    p = g.players[0]
    assert p.evolved and p.hp == POOL.characters[p.character].back.hp
    assert (Y["Nekomata"], 2) in p.equips
    assert act.EVOLVE not in legal(g)  # once per game


# ---------------------------------------------------------------- 11 Boss battle
def test_boss_immune_while_minion_lives_and_repeats_last_action():
    g = new_game("coop", characters=("Doman", "Seimei"))
    put_battle(g, ["Umibozu"], boss=True)
    assert g.enemies[0].is_boss and g.enemies[1].yokai == Y["Umibozu"]
    g.step(A)
    g.step(A)
    assert T_LEFT not in legal(g) and act.DONE in legal(g)
    g.step(act.DONE)  # only the minion can be aimed at: chosen automatically
    assert g.enemies[0].hp == POOL.boss.hp
    g.enemies[1].hp = 0
    g.enemies[1].alive = False
    for _ in range(8):
        g.players[0].hp = g.players[1].hp = 20
        play_turn(g, [None, None])
    assert g.enemies[0].next_action == len(POOL.boss.actions) - 1


def test_boss_hp_counts_down_with_carry_over_and_the_boss_falling_wins_coop():
    g = new_game("coop", characters=("Doman", "Seimei"))
    put_battle(g, ["Umibozu"], boss=True)
    g.enemies[1].hp = 0
    g.enemies[1].alive = False
    g.enemies[0].hp = 13  # one round of 12 and 1
    play_turn(g, [S, S])  # 2 + 3 = 5 through the dial: 13 -> 8
    assert g.enemies[0].hp == 8
    g.enemies[0].hp = 1
    play_turn(g, [G, A])  # Seimei ATK 2 - DEF 1
    assert g.is_over and list(g.returns()) == [1.0, 1.0]


# ---------------------------------------------------------------- Duel
def test_duel_final_both_reach_zero_first_player_wins():
    g = new_game("duel", characters=("Doman", "Seimei"))
    g.final_duel = True
    g.first_seat = 1
    rules.start_battle(g.state, g.rules_context(), [None, None])
    rules.advance(g.state, g.rules_context())
    g.players[0].hp = 2
    g.players[1].hp = 2
    play_turn(g, [S, S])
    assert g.is_over and list(g.returns()) == [-1.0, 1.0]


def test_duel_final_attack_each_other():
    g = new_game("duel", characters=("Doman", "Seimei"))
    g.final_duel = True
    rules.start_battle(g.state, g.rules_context(), [None, None])
    rules.advance(g.state, g.rules_context())
    play_turn(g, [A, G])  # Seimei guards: no damage
    assert g.players[1].hp == 14
    play_turn(g, [S, S])  # Doman SPL 2; Seimei SPL 3
    assert g.players[1].hp == 12 and g.players[0].hp == 12
    play_turn(g, [G, A])  # Doman guards the Attack
    assert g.players[0].hp == 12


def test_duel_survivor_fights_alone_takes_one_and_wins_after_night_3():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Tanuki"])
    g.players[1].hp = 0
    g.players[1].fallen = True
    g.night, g.battle = 3, 2
    g.enemies[0].hp = g.enemies[1].hp = 1
    rules.begin_turn(g.state, g.rules_context())
    rules.advance(g.state, g.rules_context())
    play_turn(g, [S, None])
    play_turn(g, [A, None])
    assert g.decision == Decision.PICK and g.current_player == 0
    g.step(act.PICK + Y["Kappa"])
    g.step(act.TAKE)
    assert g.zone[Y["Tanuki"]] == Zone.GONE
    assert g.is_over and list(g.returns()) == [1.0, -1.0]


def test_duel_both_fall_both_lose():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Tanuki"])
    g.enemies[0].next_action = 2  # 1 to both
    g.enemies[0].hp = 99
    g.players[0].hp = g.players[1].hp = 1
    play_turn(g, [A, A])
    assert g.is_over and list(g.returns()) == [-1.0, -1.0]


# ---------------------------------------------------------------- Co-op
def test_coop_a_fall_loses_at_once():
    g = put_battle(new_game("coop", characters=("Doman", "Seimei")), ["Gashadokuro"])
    g.players[0].hp = 2
    play_turn(g, [A, A])
    assert g.is_over and list(g.returns()) == [-1.0, -1.0]


@pytest.mark.parametrize(("level", "variant", "boss", "normal"),
                         [(1, "book", 2, 2), (2, "book", 3, 3), (3, "book", 4, 3), (4, "book", 5, 3),
                          (6, "book", 7, 3), (10, "book", 11, 3), (6, "balanced", 5, 3), (10, "balanced", 5, 3)])
def test_coop_modifiers(level, variant, boss, normal):
    """Boss (1) 2 first; Jorogumo (3) 2 both, lone +1 printed; Kappa (3) 2 second."""
    from yokai_envs.onmyoji import effects as fx
    g = new_game("coop", characters=("Doman", "Seimei"), difficulty=level, variant=variant)
    table = POOL.coop if variant == "book" else POOL.coop_balanced
    put_battle(g, ["Umibozu"], boss=True)
    with_minion = 2 + (2 if table[level].boss_boost else 0) + table[level].boss_plus \
        + table[level].enemy_plus_one
    assert fx.yokai_damage(g.state, g.enemies[0], POOL.boss.actions[0]) == with_minion == boss
    g.enemies[1].alive = False  # the Boss alone now
    expect_boss = 2 + (2 if table[level].boss_boost else 0) + table[level].boss_plus \
        + table[level].lone_plus_one + table[level].enemy_plus_one
    assert fx.yokai_damage(g.state, g.enemies[0], POOL.boss.actions[0]) == expect_boss
    put_battle(g, ["Kappa", "Tanuki"])
    g.boss_battle = False
    assert fx.yokai_damage(g.state, g.enemies[0], POOL.yokai[Y["Kappa"]].actions[2]) == normal


# ---------------------------------------------------------------- Solo
def test_solo_setup_starting_hp_and_starting_shikigami_choice():
    g = new_game("solo", characters="Doman", difficulty=1, solo_start=None)
    assert g.num_players == 1 and g.current_player == 0
    assert g.players[0].hp == 15 + POOL.solo[1].character_plus
    lv = POOL.solo[1].starting_shikigami_lv
    assert legal(g) == {act.PICK + y.index for y in POOL.yokai if y.lv == lv}
    choice = next(y for y in POOL.yokai if y.lv == lv)
    g.step(act.PICK + choice.index)
    g.step(act.TAKE)
    assert choice.index in g.players[0].shikigami
    assert sum(e is not None for e in g.enemies) == 1  # one Yokai in the first battle


def test_solo_second_battle_has_two_and_take_only_one():
    g = new_game("solo", characters="Doman")
    rng = np.random.default_rng(1)
    while g.battle == 1 and not g.is_over:
        m = np.flatnonzero(g.legal_action_mask())
        g.step(int(m[rng.integers(len(m))]))
    assert sum(e is not None for e in g.enemies) == 2


def test_solo_actions_you_take():
    from yokai_envs.onmyoji import effects as fx
    g = new_game("solo", characters="Doman", difficulty=1)
    take = POOL.solo[1].take
    for target in ("first", "second", "left", "right", "both"):
        assert fx.yokai_action_seats(g.state, target) == ([0] if target == "both" or target in take else [])


def test_solo_yokai_deck_guard_spell_and_not_in_boss():
    g = new_game("solo", characters="Doman", difficulty=1)
    put_battle(g, ["Gashadokuro"])
    g.yokai_deck = [GUARD, SPELL, ATTACK]
    hp_y = g.enemies[0].hp
    play_turn(g, [A])
    assert g.enemies[0].hp == hp_y and g.enemies[0].next_action == 0  # no damage, no action, order kept
    hp = g.players[0].hp
    g.players[0].equip_stats = g.players[0].equip_stats._replace(defense=3)  # DEF 3 would absorb 3 of the 5 ...
    play_turn(g, [S])
    assert g.players[0].hp == hp - 5  # ... but the Spell card makes the action ignore DEF
    assert g.yokai_deck and len(g.yokai_deck) == 1
    put_battle(g, ["Umibozu"], boss=True)
    g.step(A)
    assert all(e.deck_card == -1 for e in g.enemies)


def test_solo_heal_before_boss_and_lone_plus_one():
    g = new_game("solo", characters="Doman", difficulty=1)
    g.players[0].hp = 3
    g.night, g.battle = 3, 2
    rules.next_battle(g.state, g.rules_context())
    assert g.boss_battle and g.players[0].hp == 15
    g10 = new_game("solo", characters="Doman", difficulty=10)
    # The flag is set here so that the test does not depend on the table's values.
    g10.solo_level = dataclasses.replace(g10.solo_level, heal_before_boss=False)
    g10.players[0].hp = 3
    g10.night, g10.battle = 3, 2
    rules.next_battle(g10.state, g10.rules_context())
    assert g10.players[0].hp == 3
    from yokai_envs.onmyoji import effects as fx
    put_battle(g10, ["Kappa"])
    assert fx.yokai_damage(g10.state, g10.enemies[0], POOL.yokai[Y["Kappa"]].actions[2]) == 3


def test_heal_cap_20():
    g = new_game("coop", characters=("Doman", "Seimei"))
    give(g, 0, "Umibozu", 0)
    put_battle(g, ["Kappa", "Tanuki"])
    g.players[0].hp = 18
    g.step(G)
    g.step(G)
    g.step(act.USE_SHIKIGAMI + Y["Umibozu"])
    assert g.decision == Decision.TARGET
    g.step(act.TARGET + 2)
    assert g.players[0].hp == 20


def test_unused_t_p1_constant():
    assert T_P1 == act.TARGET + 3


def test_solo_yokai_deck_reshuffles_after_three_flips_and_each_battle():
    g = put_battle(new_game("solo", characters="Doman"), ["Tanuki"])
    assert sorted(g.yokai_deck) == [0, 1, 2]
    g.enemies[0].hp = 60
    flipped = []
    for card in (A, S, G):
        play_turn(g, [card])
        flipped.append(g.yokai_deck[:])
    assert [len(d) for d in flipped] == [2, 1, 3]  # all 3 flipped: shuffled again
    g.yokai_deck = [1]
    put_battle(g, ["Kappa"])
    assert sorted(g.yokai_deck) == [0, 1, 2]


def test_render_for_hides_the_face_down_card_until_reveal():
    g = put_battle(new_game("duel"), ["Kappa", "Tanuki"], first=0)
    g.step(S)
    assert "(face down)" in g.render_for(1) and "played Spell" not in g.render_for(1)
    assert "played Spell" in g.render_for(0) and "played Spell" in g.render()
    g.step(A)
    assert "played Spell" in g.render_for(1)
