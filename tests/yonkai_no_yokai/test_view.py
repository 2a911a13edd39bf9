"""The Yonkai table's words: the round it names once the game is over."""

from __future__ import annotations

import numpy as np

from yokai_envs.registry import make_game


def test_a_finished_game_names_its_last_round_not_one_more():
    game = make_game("yonkai_no_yokai_v1", num_players=3, rounds_per_game=3)
    game.reset(4)
    rng = np.random.default_rng(0)
    while not game.is_over:
        game.step(int(rng.choice(game.legal_actions())))
    assert game.state.rounds_completed == 3
    view = game.table_view(0)
    assert view["title"] == "Yonkai no Yokai, round 3" and view["counters"]["round"] == 3
    assert game.render_for(0).startswith("Yonkai no Yokai, round 3,")
