"""The Onmyoji heuristic does what a casual player would (and stays within its information)."""

from __future__ import annotations

import numpy as np

from agents.base import RandomAgent
from agents.heuristics.onmyoji import HeuristicAgent
from tests.onmyoji.helpers import A, G, S, Y, give, new_game, put_battle
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji.state import Decision


def _act(bot, g):
    seat = g.current_player
    return bot.act(g.observation(seat), g.legal_action_mask(), g)


def test_guards_against_a_heavy_yokai_action():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Gashadokuro"])  # (1): 5 to the left
    assert _act(HeuristicAgent(0), g) == G


def test_attacks_when_nothing_heavy_is_coming():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Tanuki"], first=1)
    g.step(S)  # seat 1 chose (hidden from seat 0)
    assert _act(HeuristicAgent(0), g) in (A, S)


def test_evolves_and_aims_to_kill():
    g = new_game("duel", characters=("Seimei", "Doman"))
    give(g, 0, "Oni", 0)
    put_battle(g, ["Kappa", "Tanuki"])
    g.enemies[1].hp = 1
    g.step(A)
    g.step(A)
    bot = HeuristicAgent(0)
    assert _act(bot, g) == act.EVOLVE
    g.step(act.EVOLVE)
    g.step(_act(bot, g))
    while g.current_player == 0 and g.decision == Decision.ACTION_MENU:
        a = _act(bot, g)
        g.step(a)
        if a == act.DONE:
            break
    if g.decision == 7:  # a target: the one it can kill
        assert _act(bot, g) == act.TARGET + 1
    assert g.players[0].evolved


def test_takes_shikigami_until_evolution_is_in_reach():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Tanuki"])
    g.enemies[0].hp = g.enemies[1].hp = 1
    bot = HeuristicAgent(0)
    while g.decision != Decision.PICK and not g.is_over:
        g.step(_act(bot, g))
    g.step(_act(bot, g))
    assert _act(bot, g) == act.TAKE  # as a Shikigami


def test_beats_random_in_duel_on_a_small_sample():
    game = new_game("duel", characters=None)
    h, r = HeuristicAgent(1), RandomAgent(2)
    wins = 0
    n = 40
    for i in range(n):
        game.reset(i)
        bots = [h, r] if i % 2 == 0 else [r, h]
        while not game.is_over:
            seat = game.current_player
            b = bots[seat]
            game.step(b.act(game.observation(seat), game.legal_action_mask(), game if b.needs_game else None))
        wins += game.returns()[i % 2] > 0
    assert wins / n >= 0.65


def test_only_reads_the_world_through_its_view():
    g = put_battle(new_game("duel", characters=("Doman", "Seimei")), ["Kappa", "Tanuki"], first=0)
    g.step(G)  # seat 0's face-down Guard: seat 1 must not depend on it
    bot = HeuristicAgent(0)
    choices = set()
    for card in (A, G, S):
        world = g.clone()
        p = world.players[0]
        p.hand = [c != card - act.PLAY for c in range(3)]
        p.played = card - act.PLAY
        bot.reset(7)
        choices.add(_act(bot, world))
    assert len(choices) == 1
    assert np.isfinite(g.observation(1)).all()
    assert Y["Kappa"] in [e.yokai for e in g.enemies]


def test_evaluate_is_in_range_and_prefers_the_healthier_duelist():
    from agents.heuristics.onmyoji import evaluate
    g = new_game("duel", characters=("Doman", "Seimei"))
    g.players[1].hp = 3
    v = evaluate(g)
    assert v.shape == (2,) and v[0] > 0 > v[1] and np.all(np.abs(v) <= 1)
    c = new_game("coop", characters=("Doman", "Seimei"))
    assert np.all(np.abs(evaluate(c)) <= 1) and evaluate(c)[0] == evaluate(c)[1]
