"""Every bot plays every registered game (each conformance config) to the end, legally."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.heuristics import has_heuristic
from tests.conftest import conformance_params
from yokai_envs.registry import make_game

SPECS = ["random", "heuristic", "ismcts:iterations=4;max_rollout_steps=40"]


def play_one(env_id: str, options: dict, spec: str, seed: int, max_steps: int) -> None:
    game = make_game(env_id, **{**options, "max_steps": max_steps})
    n = game.num_players
    seat_agents = [agents.make(spec if s == seed % n else "random", env_id, options) for s in range(n)]
    game.reset(seed)
    for s, agent in enumerate(seat_agents):
        agent.reset(seed * 10 + s)
    while not game.is_over:
        seat = game.current_player
        agent = seat_agents[seat]
        mask = game.legal_action_mask()
        action = agent.act(game.observation(seat), mask, game if agent.needs_game else None)
        assert mask[action], f"{spec} chose illegal action {action} ({game.action_name(action)})"
        game.step(action)
    assert np.isfinite(game.returns()).all()


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_bot_smoke(env_id, options, spec):
    if spec == "heuristic" and not has_heuristic(env_id):
        pytest.skip(f"{env_id} has no heuristic yet")
    steps = 60 if spec.startswith("ismcts") else 400
    for seed in range(2):
        play_one(env_id, options, spec, seed, max_steps=steps)


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_heuristic_does_not_change_the_live_game(env_id, options):
    if not has_heuristic(env_id):
        pytest.skip(f"{env_id} has no heuristic yet")
    game = make_game(env_id, **options)
    game.reset(5)
    bot = agents.make("heuristic", env_id, options, seed=1)
    for _ in range(30):
        if game.is_over:
            break
        before = (game.state_tensor().tobytes(), game.steps, game.rng.bit_generator.state["state"]["state"])
        action = bot.act(game.observation(game.current_player), game.legal_action_mask(), game)
        assert before == (game.state_tensor().tobytes(), game.steps, game.rng.bit_generator.state["state"]["state"])
        game.step(action)
