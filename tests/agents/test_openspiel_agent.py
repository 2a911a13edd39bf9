"""``openspiel:BOT`` agents: OpenSpiel's bots through the bridge, seeded, on a determinization."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="needs the 'bench' extra (open_spiel)")

from agents.arena import run_match
from agents.specs import make, parse_spec
from yokai_envs.registry import make_game


def test_a_seeded_openspiel_ismcts_replays_the_same_games():
    agents = ["openspiel:ismcts;simulations=3", "random"]
    first = run_match("yokaizo_v4", agents, games=2, seed=3)
    second = run_match("yokaizo_v4", agents, games=2, seed=3)
    assert [r["actions"] for r in first.records] == [r["actions"] for r in second.records]


def test_the_bot_is_handed_a_determinization_not_the_real_engine():
    game = make_game("yonkai_no_yokai_v1", num_players=3)
    game.reset(5)
    agent = make("openspiel:random", "yonkai_no_yokai_v1", {"num_players": 3}, seed=1)
    seat = game.current_player
    real = agent._bot(seat)
    seen = []

    class Spy:
        def step(self, state):
            seen.append(state.engine)
            return real.step(state)

    agent._bots[seat] = Spy()
    action = agent.act(game.observation(seat), game.legal_action_mask(), game)
    assert game.legal_action_mask()[action]
    assert seen and seen[0] is not game
    assert seen[0].information_state(seat) == agent._recorded(game).information_state(seat)


@pytest.mark.parametrize(("spec", "word"), [("openspiel:", "random, ismcts"), ("openspiel:cfr", "random, ismcts"),
                                            ("openspiel:ismcts;simulations=0", "positive"),
                                            ("openspiel:ismcts;depth=3", "depth")])
def test_bad_openspiel_specs_name_the_problem(spec, word):
    with pytest.raises(ValueError, match=word):
        parse_spec(spec)
