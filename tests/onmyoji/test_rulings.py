"""One test per ruling in yokai_envs/onmyoji/RULES_NOTES.md (test_R<n>_...)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from agents.heuristics.onmyoji import HeuristicAgent
from tests.onmyoji.helpers import POOL, T_LEFT, T_RIGHT, A, G, S, Y, give, legal, new_game, play_turn, put_battle
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji import rules
from yokai_envs.onmyoji.cards import difficulty_tables
from yokai_envs.onmyoji.observation import EF, PF
from yokai_envs.onmyoji.rules import DUEL_FINAL_TURN_CAP
from yokai_envs.onmyoji.state import GUARD, SPELL, Decision, Zone


def _final(first=0):
    g = new_game("duel", characters=("Doman", "Seimei"))
    g.final_duel = True
    g.first_seat = first
    rules.start_battle(g.state, g.rules_context(), [None, None])
    rules.advance(g.state, g.rules_context())
    return g


def _fall(g, seat):
    g.players[seat].hp = 0
    g.players[seat].fallen = True


def test_every_ruling_has_a_test():
    notes = (Path(fx.__file__).parent / "RULES_NOTES.md").read_text()
    rulings = set(re.findall(r"^- (R\d+) ", notes, flags=re.M))
    tests = {name.split("_")[1] for name in globals() if name.startswith("test_R")}
    assert rulings and rulings == tests


def test_R1_both_hits_each_living_player_once():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Tanuki"])
    _fall(g, 0)
    assert fx.yokai_action_seats(g.state, "both") == [1]
    assert fx.yokai_action_seats(g.state, "left") == [1]


def test_R2_duel_final_ends_when_a_player_reaches_zero():
    g = _final(first=0)
    g.players[0].hp = g.players[1].hp = 3
    play_turn(g, [S, S])  # Doman SPL 2 (Seimei 3 -> 1), Seimei SPL 3 (Doman 3 -> 0)
    assert g.is_over and list(g.returns()) == [-1.0, 1.0]
    g = _final(first=1)
    g.players[0].hp = g.players[1].hp = 2
    play_turn(g, [S, S])
    assert list(g.returns()) == [-1.0, 1.0] and g.players[1].hp == 2  # seat 1 acts first and wins at once


def test_R2_no_revival_from_zero_in_the_duel_final():
    """Brought to 0, Seimei used to heal on its own action in the same turn and play on."""
    g = _final(first=0)
    give(g, 1, "Kappa", 0)  # Seimei's Shikigami: heal 2 on its action
    g.players[0].hp, g.players[1].hp = 10, 2
    g.step(S)
    g.step(S)
    g.step(act.DONE)  # Doman resolves its Spell: SPL 2, Seimei 2 -> 0
    assert g.players[1].hp == 0 and g.is_over and list(g.returns()) == [1.0, -1.0]
    assert g.current_player == -1


def test_R2_property_no_player_at_zero_acts_again_in_random_duels():
    rng = np.random.default_rng(20)
    finals = 0
    for seed in range(150):
        g = new_game("duel", characters=None, seed=seed)
        while not g.is_over:
            seat = g.current_player
            assert g.players[seat].hp > 0 and not g.players[seat].fallen, (seed, g.steps, g.phase_name)
            g.step(int(rng.choice(np.flatnonzero(g.legal_action_mask()))))
        finals += g.final_duel
        if g.final_duel:
            assert sum(p.hp == 0 for p in g.players) <= 1
            loser = [s for s in (0, 1) if g.returns()[s] < 0]
            assert len(loser) == 1 and (g.players[loser[0]].hp == 0 or g.turn == DUEL_FINAL_TURN_CAP)
    assert finals > 20


def test_R3_duel_final_turn_cap():
    g = _final(first=1)
    g.turn = DUEL_FINAL_TURN_CAP
    g.players[0].hp = g.players[1].hp = 19
    play_turn(g, [G, G])
    assert g.is_over and list(g.returns()) == [-1.0, 1.0]


def test_R4_boss_immune_to_damage_only_while_minion_lives():
    g = put_battle(new_game("coop", characters=("Doman", "Seimei")), ["Oni"], boss=True)
    assert fx.enemy_targets(g.state, 0) == [1]
    give(g, 0, "Gashadokuro", 0)  # damage_all 2
    fx.apply_ability(g.state, g.rules_context(), 0, POOL.yokai[Y["Gashadokuro"]].shikigami.ability, None)
    assert g.enemies[0].hp == POOL.boss.hp and g.enemies[1].hp == POOL.yokai[Y["Oni"]].hp - 1
    damage = POOL.yokai[Y["Rokurokubi"]].shikigami.ability  # damage 2 only: the Boss is no target
    assert fx.ability_targets(g.state, 0, damage) == [1]


def test_R4_boss_can_be_stopped_and_weakened_while_minion_lives():
    """Boss immunity is against damage only: it used to block stop and weaken on the Boss too."""
    g = put_battle(new_game("coop", characters=("Doman", "Seimei")), ["Oni"], boss=True)
    nue = POOL.yokai[Y["Nue"]].shikigami.ability  # stop + weaken 1
    assert fx.ability_targets(g.state, 0, nue) == [0, 1]
    fx.apply_ability(g.state, g.rules_context(), 0, nue, 0)
    boss = g.enemies[0]
    assert boss.stopped and boss.weak == 1 and boss.hp == POOL.boss.hp
    jorogumo_left = POOL.yokai[Y["Jorogumo"]].edges[0].ability  # weaken 2
    assert fx.ability_targets(g.state, 0, jorogumo_left) == [0, 1]
    hp = boss.hp
    fx.yokai_take_action(g.state, g.rules_context(), 0)  # stopped: no damage to anyone
    assert boss.hp == hp and all(p.hp == p_hp for p, p_hp in zip(g.players, (15, 14), strict=True))


def test_R5_edge_effects_before_the_card_resolves_then_lapse():
    g = new_game("duel", characters=("Doman", "Seimei"))
    give(g, 0, "Kasa-obake", 1)  # left edge: weaken 1
    put_battle(g, ["Gashadokuro"])
    g.step(A)
    g.step(A)
    assert act.USE_EQUIP + Y["Kasa-obake"] in legal(g)
    g.step(act.DONE)  # resolve without it: the effect is gone for this turn
    assert g.current_player == 1 and g.players[0].used[0]


def test_R6_act_first_only_at_start_of_turn_and_ties_keep_first_player():
    g = new_game("duel")
    give(g, 0, "Azukiarai", 0)
    give(g, 1, "Karasu-tengu", 0)
    put_battle(g, ["Kappa", "Tanuki"], first=0)
    assert g.decision == Decision.START_MENU
    g.step(act.USE_SHIKIGAMI + Y["Azukiarai"])
    g.step(act.USE_SHIKIGAMI + Y["Karasu-tengu"])
    g.step(A)
    g.step(A)
    assert g.current_player == 0


def test_R7_evolution_one_at_a_time_until_threshold():
    g = new_game("duel", characters=("Doman", "Seimei"))
    for name in ("Kappa", "Tanuki", "Rokurokubi", "Oni"):
        give(g, 0, name, 0)
    put_battle(g, ["Kasa-obake", "Kodama"])
    g.step(act.DONE)  # Tanuki's Start-of-turn shield: not now
    g.step(G)
    g.step(G)
    g.step(act.EVOLVE)
    assert g.decision == Decision.EVOLVE
    g.step(act.EVOLVE_WITH + Y["Kappa"])
    g.step(act.EVOLVE_WITH + Y["Tanuki"])
    assert g.decision == Decision.EVOLVE  # 2 < 5
    g.step(act.EVOLVE_WITH + Y["Oni"])  # 5: done
    assert g.decision == Decision.ACTION_MENU and g.players[0].evolved
    assert g.players[0].shikigami == [Y["Rokurokubi"]]


def test_R8_used_per_game_shikigami_counts_for_evolution():
    g = new_game("duel", characters=("Seimei", "Doman"))
    give(g, 0, "Umibozu", 0)  # Lv3, 1/game
    put_battle(g, ["Kasa-obake", "Kodama"])
    g.step(G)
    g.step(G)
    g.step(act.USE_SHIKIGAMI + Y["Umibozu"])
    g.step(act.TARGET + 2) if g.decision != Decision.ACTION_MENU else None
    assert act.EVOLVE in legal(g)


def test_R9_ally_is_yourself_in_duel_and_solo_either_in_coop():
    assert fx.ally_targets(new_game("duel").state, 1) == [fx.PLAYER_0 + 1]
    assert fx.ally_targets(new_game("solo").state, 0) == [fx.PLAYER_0]
    assert fx.ally_targets(new_game("coop").state, 1) == [fx.PLAYER_0, fx.PLAYER_0 + 1]


def test_R10_solo_deck_when_one_of_two_is_left():
    g = put_battle(new_game("solo", characters="Doman"), ["Kappa", "Tanuki"])
    g.step(A)
    assert all(e.deck_card == -1 for e in g.enemies)
    g = put_battle(new_game("solo", characters="Doman"), ["Kappa", "Tanuki"])
    g.enemies[0].hp = 0
    g.enemies[0].alive = False
    g.step(A)
    assert g.enemies[1].deck_card != -1


def test_R11_solo_deck_guard_keeps_the_order():
    g = put_battle(new_game("solo", characters="Doman"), ["Tanuki"])
    g.yokai_deck = [GUARD, SPELL, 0]
    g.enemies[0].hp = 60
    play_turn(g, [A])
    assert g.enemies[0].next_action == 0
    play_turn(g, [G])
    assert g.enemies[0].next_action == 1


def test_R12_finisher_is_who_defeats_the_last_yokai():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Tanuki"], first=0)
    g.enemies[0].hp = 1
    g.enemies[1].hp = 1
    play_turn(g, [A, S], {0: T_RIGHT, 1: T_LEFT})  # seat 0 defeats Tanuki, seat 1 then defeats Kappa
    assert g.decision == Decision.PICK and g.current_player == 1


def test_R13_fallen_player_does_nothing_more():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Gashadokuro"], first=0)
    g.enemies[0].hp = 60
    g.step(G)  # seat 0 guards ...
    g.players[1].hp = 1
    g.step(A)
    g.step(act.DONE)
    g.players[1].hp = 0  # ... seat 1 falls before its action
    g.players[1].fallen = True
    g.invalidate_mask()
    rules.advance(g.state, g.rules_context())
    assert g.players[1].used[0] and g.current_player == 0  # its card went to Used, unresolved
    assert g.enemies[0].hp == 60


def test_R14_both_fall_both_minus_one():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kodama"])
    g.enemies[0].next_action = 2
    g.enemies[0].hp = 60
    g.players[0].hp = g.players[1].hp = 1
    play_turn(g, [A, A])
    assert list(g.returns()) == [-1.0, -1.0]


def test_R15_coop_loss_mid_turn():
    g = put_battle(new_game("coop", characters=("Doman", "Seimei")), ["Oni", "Gashadokuro"], first=0)
    g.enemies[0].hp = g.enemies[1].hp = 60
    g.enemies[1].next_action = 0  # Gashadokuro (right) acts first: 5 to the left player
    g.players[0].hp = 1
    play_turn(g, [A, A])
    assert g.is_over and g.enemies[0].next_action == 0  # the left Yokai never acted


def test_R16_hp_is_one_number():
    g = new_game("duel", characters=("Doman", "Seimei"))
    layout = g.observation_layout["me"]
    g.players[0].hp = 10
    assert g.observation(0)[layout.start + 1] == np.float32(0.5)


def test_R17_boss_hp_rounds_in_the_observation():
    g = put_battle(new_game("coop", characters=("Doman", "Seimei")), ["Oni"], boss=True)
    g.enemies[0].hp = POOL.boss.hp - 13  # one round of 12 gone, 1 more on the dial
    o = g.observation(0)[g.observation_layout["enemies"]]
    base = 3 + 19  # present, alive, Boss, then the one-hot over 18 Yokai + the Boss
    assert o[base] == np.float32((POOL.boss.hp - 13) / POOL.boss.hp)
    assert o[base + 1] == np.float32(1 / 5) and o[base + 2] == np.float32(11 / 12)


def test_R18_single_target_is_automatic():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Gashadokuro"])
    g.step(A)
    g.step(A)
    g.step(act.DONE)  # no target decision
    assert g.current_player == 1 and g.enemies[0].hp < POOL.yokai[Y["Gashadokuro"]].hp


def test_R19_start_menu_only_when_usable():
    g = put_battle(new_game("duel"), ["Kappa", "Tanuki"])
    assert g.decision != Decision.START_MENU
    give(g, 1, "Tanuki", 0)
    give(g, 1, "Tsuchigumo", 0)
    put_battle(g, ["Kappa", "Kodama"], first=0)
    assert g.decision == Decision.START_MENU and g.current_player == 1
    g.step(act.USE_SHIKIGAMI + Y["Tanuki"])
    assert g.decision == Decision.START_MENU and act.USE_SHIKIGAMI + Y["Tsuchigumo"] in legal(g)


def test_R20_def_budget_in_arrival_order():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Gashadokuro"])
    e = g.enemies[0]
    assert fx.hurt_enemy(g.state, g.rules_context(), 0, 0, 1, pierce=False) == 0  # DEF 2 absorbs 1 ...
    assert fx.hurt_enemy(g.state, g.rules_context(), 0, 0, 3, pierce=True) == 3  # marked: budget untouched
    assert fx.hurt_enemy(g.state, g.rules_context(), 0, 0, 3, pierce=False) == 2  # ... and 1 more of the next hit
    assert e.def_spent == 2


def test_R21_third_action_sticks_even_when_delayed():
    g = put_battle(new_game("solo", characters="Doman"), ["Kamaitachi"])
    e = g.enemies[0]
    e.next_action = 2
    assert fx.next_action_index(g.state, e) == 2


def test_R22_solo_start_choice_leaves_the_pile():
    g = new_game("solo", characters="Doman", solo_start=None)
    lv = g.solo_level.starting_shikigami_lv
    y = g.piles[lv][-1]
    g.step(act.PICK + y)
    g.step(act.TAKE)
    assert y not in g.piles[lv] and y in g.players[0].shikigami


def test_R23_per_battle_counts_reset_each_battle():
    g = new_game("duel", characters=("Doman", "Seimei"))
    give(g, 0, "Kappa", 0)
    give(g, 0, "Kodama", 0)
    g.players[0].shiki_uses = {Y["Kappa"]: 1, Y["Kodama"]: 1}
    put_battle(g, ["Kasa-obake", "Tanuki"])
    assert g.players[0].shiki_uses == {Y["Kappa"]: 0, Y["Kodama"]: 1}


def test_R24_yokai_not_taken_leaves_the_game():
    g = put_battle(new_game("solo", characters="Doman"), ["Kappa", "Tanuki"])
    g.enemies[0].hp = g.enemies[1].hp = 1
    play_turn(g, [S], {0: T_LEFT})
    play_turn(g, [A])
    assert g.decision == Decision.PICK
    g.step(act.PICK + Y["Kappa"])
    g.step(act.TAKE)
    assert g.zone[Y["Tanuki"]] == Zone.GONE


def test_R25_guard_is_not_redirected():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Gashadokuro"], first=0)
    g.enemies[0].hp = 60
    hp = [p.hp for p in g.players]
    play_turn(g, [G, A])  # (1) 5 to the left player, who guards
    assert [p.hp for p in g.players] == hp
    g = _final()
    g.step(G)
    g.step(A)
    g.step(act.DONE)
    assert g.players[0].hp == 15


def test_R26_the_books_solo_boss_deals_its_printed_damage():
    """Boss damage +N is a Co-op modifier: no level of the book's Solo adds it; variant "balanced"
    lends it to Solo (+1 from Lv6)."""
    assert [POOL.solo[lv].boss_plus for lv in range(1, 11)] == [0] * 10
    assert [POOL.solo_balanced[lv].boss_plus for lv in range(1, 11)] == [0] * 5 + [1] * 5
    yaml_text = (Path(fx.__file__).parent / "cards.yaml").read_text()
    book_table = yaml_text[yaml_text.index("\nsolo_difficulty:"):yaml_text.index("\nsolo_difficulty_balanced:")]
    assert "boss_plus" not in book_table.split("solo_difficulty:", 1)[1].split("\n#")[0]
    # One source: the docs show the generated tables, and the book's Solo table has no such column.
    page = (Path(fx.__file__).parents[2] / "docs" / "onmyoji.md").read_text()
    assert difficulty_tables(POOL) in page
    book_solo = difficulty_tables(POOL).split("Solo difficulty, the book's game")[1].split("Co-op difficulty")[0]
    assert "Boss damage" not in book_solo
    for lv in range(1, 11):
        g = put_battle(new_game("solo", characters="Doman", difficulty=lv), ["Oni"], boss=True)
        lone = POOL.boss.actions[0].lone_bonus + (1 if POOL.solo[lv].lone_plus_one else 0)
        # the minion stands beside the Boss, so the Boss is not alone: its printed 2
        assert fx.yokai_damage(g.state, g.enemies[0], POOL.boss.actions[0]) == 2, lv
        g.enemies[1].alive = False
        g.enemies[1].hp = 0
        assert fx.yokai_damage(g.state, g.enemies[0], POOL.boss.actions[0]) == 2 + lone, lv
    g = put_battle(new_game("solo", characters="Doman", difficulty=10, variant="balanced"), ["Oni"], boss=True)
    assert fx.yokai_damage(g.state, g.enemies[0], POOL.boss.actions[0]) == 2 + 1  # Boss +1, and no Night 3 +1 (R31)


def test_R27_pile_and_deck_contents_public_order_hidden():
    g = new_game("solo", characters="Seimei")
    orders = set()
    for k in range(8):
        world = g.determinize(0, np.random.default_rng(k))
        assert [sorted(p) for p in world.piles] == [sorted(p) for p in g.piles]
        assert sorted(world.yokai_deck) == sorted(g.yokai_deck)
        orders.add(tuple(world.piles[2]))
    assert len(orders) > 1
    assert ("pile", 2, g.piles[2][0]) in g.known_placements(0)
    world = g.determinize(0, np.random.default_rng(1))
    assert world.piles[2] != g.piles[2]  # another order, the same views:
    assert world.table_view(0) == g.table_view(0) and world.render_for(0) == g.render_for(0)
    assert world.observation(0).tolist() == g.observation(0).tolist()
    pile = {z["name"]: z for z in g.table_view(0)["zones"]}["Lv 2 Yokai pile"]
    assert [c["name"] for c in pile["cards"]] == [g.yokai_names[y] for y in sorted(g.piles[2])]


def _final_with_start_shikigami(variant: str, name: str = "Yuki-onna"):
    """A Duel Final, seat 0 leading with a Start-of-turn Shikigami, at its Start-of-turn menu."""
    g = new_game("duel", characters=("Doman", "Seimei"), variant=variant)
    give(g, 0, name, 0)
    g.final_duel = True
    g.first_seat = 0
    rules.start_battle(g.state, g.rules_context(), [None, None])
    rules.advance(g.state, g.rules_context())
    assert g.decision == Decision.START_MENU and g.current_player == 0
    g.step(act.USE_SHIKIGAMI + Y[name])
    return g


def test_R28_a_player_who_guards_takes_no_start_of_turn_damage_that_turn():
    g = _final_with_start_shikigami("book")  # Yuki-onna, Duel: pierce 2 at the start of turn
    assert g.players[1].hp == 14  # held until the reveal: Guard there would shield from it
    obs = g.observation(1)[g.observation_layout["me"]]
    assert obs[PF["incoming"]] == pytest.approx(2 / 5)  # the held damage is shown (it is public)
    play_turn(g, [A, G])  # Seimei Guards: neither the Start-of-turn damage nor the Attack lands
    assert g.players[1].hp == 14 and not g.players[1].incoming


def test_R28_start_of_turn_damage_lands_at_the_reveal_on_a_player_who_does_not_guard():
    g = _final_with_start_shikigami("book", "Nue")  # Duel: weaken 2, pierce 1
    play_turn(g, [G, S])  # Seimei plays Spell: weakened and pierced at the reveal
    assert g.players[1].hp == 14 - 1
    g = _final_with_start_shikigami("book")
    g.players[1].hp = 2
    g.step(A)
    g.step(S)  # the reveal lands the held pierce 2: Seimei falls, Doman wins the Final at once (R2)
    assert g.is_over and g.returns().tolist() == [1.0, -1.0]


def test_R28_balanced_start_of_turn_damage_hits_a_player_who_then_guards_in_the_duel_final():
    g = _final_with_start_shikigami("balanced")
    assert g.players[1].hp == 14 - 2
    play_turn(g, [A, G])  # Seimei Guards: Doman's Attack does nothing, the Start-of-turn damage stays
    assert g.players[1].hp == 12


@pytest.mark.parametrize("mode", ["duel", "coop"])
def test_R29_two_battles_of_two_yokai_each_night_in_duel_and_coop(mode):
    g = new_game(mode, characters=("Doman", "Seimei"))
    seen = []
    for _ in range(6):
        seen.append((g.night, g.battle, [g.card(e.yokai).lv for e in g.enemies if e is not None]))
        rules.next_battle(g.state, g.rules_context())
    assert seen == [(1, 1, [1, 1]), (1, 2, [1, 1]), (2, 1, [2, 2]), (2, 2, [2, 2]), (3, 1, [3, 3]), (3, 2, [3, 3])]
    assert g.final_duel if mode == "duel" else g.boss_battle


def _to_the_final(hp: tuple[int, int], took_second: int, variant: str = "balanced"):
    """A Duel at the end of Night 3 (``took_second`` would lead a next battle), HP set, then the Final."""
    g = new_game("duel", characters=("Doman", "Seimei"), variant=variant)
    g.record_information()
    g.reset(0)  # recording what each seat sees (the public log of a game with HP set by hand)
    for _ in range(5):
        rules.next_battle(g.state, g.rules_context())
    assert (g.night, g.battle) == (3, 2)
    g.first_seat = took_second
    g.players[0].hp, g.players[1].hp = hp
    rules.next_battle(g.state, g.rules_context())
    assert g.final_duel
    return g


def test_R30_the_final_is_led_throughout_by_who_took_a_yokai_second():
    for took_second in (0, 1):
        for hp in ((12, 12), (9, 12), (12, 9)):
            g = _to_the_final(hp, took_second, variant="book")
            assert g.first_seat == took_second == g.final_opening_seat == g.current_player
    g = _to_the_final((12, 12), took_second=0, variant="book")
    g.players[0].hp = 16
    play_turn(g, [G, G])
    assert g.first_seat == 0 and g.public_log(1)[-1] == f"turn {g.turn}, seat 0 first"  # more HP, still first
    g.players[0].hp = 5
    play_turn(g, [A, A])
    assert g.first_seat == 0 and g.outcome_facts()["final_last_first"] == 0


def test_R30_the_last_night_taker_of_a_real_game_leads_the_final():
    g = new_game("duel", characters=("Doman", "Seimei"), seed=1)
    g.record_information()
    g.reset(1)
    bots = [HeuristicAgent(s) for s in range(2)]
    second_taker = -1
    while not g.final_duel and not g.is_over:
        if g.decision == Decision.TAKE:
            second_taker = g.current_player  # the last seat to take in a battle
        g.step(bots[g.current_player].act(None, g.legal_action_mask(), g))
    assert g.final_duel and g.first_seat == second_taker


def test_R30_balanced_final_led_by_less_hp_and_on_a_tie_by_who_picked_first():
    for took_second in (0, 1):
        g = _to_the_final((12, 12), took_second)
        assert g.first_seat == 1 - took_second == g.final_opening_seat  # the finisher leads the tie
        assert g.current_player == 1 - took_second
        assert g.outcome_facts()["final_first"] == 1 - took_second
    g = _to_the_final((9, 12), took_second=0)
    assert g.first_seat == 0  # less HP leads, whoever picked first
    first_flag = g.observation_layout["me"].start + PF["first_player"]
    assert g.observation(0)[first_flag] == 1 and g.observation(1)[first_flag] == 0


def test_R30_balanced_every_turn_of_the_final_is_led_by_the_onmyoji_with_less_hp():
    g = _to_the_final((12, 12), took_second=0)  # Doman ATK 3 SPL 2, Seimei ATK 2 SPL 3 (front sides)
    assert g.first_seat == 1
    play_turn(g, [G, G])
    assert g.first_seat == 1  # still tied: the lead stays
    g.players[1].hp = 15
    play_turn(g, [A, A])  # led by seat 1 (decided at 12-12): Doman 12 -> 10, Seimei 15 -> 12
    assert g.first_seat == 0 and g.current_player == 0  # seat 0 has less HP now
    assert g.public_log(1)[-1] == f"turn {g.turn}, seat 0 first"
    play_turn(g, [S, S])  # Seimei 12 -> 10, Doman 10 -> 7
    assert g.first_seat == 0
    g.players[0].hp = 16
    play_turn(g, [G, G])
    assert g.first_seat == 1 and g.current_player == 1
    facts = g.outcome_facts()
    assert facts["final_first"] == 1 and facts["final_last_first"] == 1  # the opening lead is kept as a fact



@pytest.mark.parametrize("difficulty", [1, 8, 10])
@pytest.mark.parametrize("night", [1, 2, 3])
def test_R31_balanced_solo_night_plus_by_night(difficulty, night):
    """A night's Yokai deal that night's +K (after +1 lone); the Boss battle's minion takes none."""
    def first_hit(boss: bool, variant: str = "balanced") -> int:
        g = new_game("solo", characters="Doman", difficulty=difficulty, variant=variant)
        g = put_battle(g, ["Kappa"] if boss else ["Kappa", "Tanuki"], boss=boss)  # two alive: no lone +1
        g.night = night if not boss else 3
        minion = next(e for e in g.enemies if e is not None and not e.is_boss)
        action = next(a for a in g.card(minion.yokai).actions if a.damage)
        return fx.yokai_damage(g.state, minion, action) - action.damage

    level = POOL.solo_balanced[difficulty]
    assert first_hit(boss=False) == level.night_plus[night - 1]
    assert first_hit(boss=True) == 0
    assert POOL.solo_balanced[10].night_plus == (3, 2, 1) and POOL.solo_balanced[1].night_plus == (0, 0, 0)
    assert first_hit(boss=False, variant="book") == 0  # an invented modifier kind: not in the book's game


def test_R32_coop_boss_actions_aimed_at_the_first_or_second_player_hit_that_player():
    g = new_game("coop", characters=("Doman", "Seimei"))
    for _ in range(6):
        rules.next_battle(g.state, g.rules_context())
    assert g.boss_battle
    g.first_seat = 0
    g.players[0].hp, g.players[1].hp = 15, 9
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.FIRST) == [0]
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.SECOND) == [1]


def test_R32_a_coop_boss_action_aimed_at_a_guarding_player_is_lost():
    g = new_game("coop", characters=("Doman", "Seimei"))
    for _ in range(6):
        rules.next_battle(g.state, g.rules_context())
    boss = g.enemies[0]
    aimed = next(i for i, a in enumerate(POOL.boss.actions) if a.target == "first" and a.damage)
    boss.next_action = aimed
    g.first_seat = 0
    g.players[0].hp, g.players[1].hp = 15, 9
    hp = [p.hp for p in g.players]
    g.players[0].guarding = True  # the first player Guards this turn
    fx.yokai_take_action(g.state, g.rules_context(), 0)
    assert [p.hp for p in g.players] == hp  # lost, not redirected to the partner


def test_R32_balanced_coop_boss_battle_first_and_second_actions_hit_the_onmyoji_with_less_hp():
    g = new_game("coop", characters=("Doman", "Seimei"), variant="balanced")
    for _ in range(6):
        rules.next_battle(g.state, g.rules_context())
    assert g.boss_battle
    g.first_seat = 0
    g.players[0].hp, g.players[1].hp = 15, 9
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.FIRST) == [1]
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.SECOND) == [1]
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.BOTH) == [0, 1]
    g.players[0].hp, g.players[1].hp = 9, 9  # equal HP: the book's first/second player
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.FIRST) == [0]
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.SECOND) == [1]
    g.boss_battle = False  # on the nights the book's targets stand
    g.players[0].hp, g.players[1].hp = 15, 9
    assert fx.yokai_action_seats(g.state, fx.YokaiTarget.FIRST) == [0]


@pytest.mark.parametrize("variant", ["book", "balanced"])
@pytest.mark.parametrize("mode,difficulty", [("coop", 1), ("coop", 7), ("coop", 10), ("solo", 10)])
def test_R33_balanced_coop_boss_hp_plus_by_level_and_the_book_boss_hp(mode, difficulty, variant):
    """The Co-op Boss comes out with its card's HP plus its level's Boss HP +N in the balanced
    variant (the book's game and Solo: the card's; Duel has no Boss); the observation reads its HP
    and its rounds against that starting HP."""
    g = new_game(mode, characters=("Doman", "Seimei"), difficulty=difficulty, variant=variant)
    for _ in range(6):
        rules.next_battle(g.state, g.rules_context())
    assert g.boss_battle
    boss = g.enemies[0]
    plus = POOL.coop_balanced[difficulty].boss_hp_plus if mode == "coop" and variant == "balanced" else 0
    assert boss.is_boss and boss.hp == boss.full_hp == POOL.boss.hp + plus
    if mode == "coop" and difficulty == 10 and variant == "balanced":
        assert plus == 24
    boss.hp -= 13  # one round of 12 gone and 1 more: the dial reads 11 of 12
    enemy = g.observation(0)[g.observation_layout["enemies"]]
    assert enemy[EF["hp"]] == pytest.approx((boss.full_hp - 13) / boss.full_hp)
    assert enemy[EF["boss_dial"]] == pytest.approx(11 / 12)
    assert enemy[EF["boss_rounds_gone"]] == pytest.approx(1 / 5)
