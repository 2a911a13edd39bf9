"""The fast paths search takes change no decision: ``act_in_world`` decides as ``act`` does
(same action, same randomness drawn), and ISMCTS decides the same with the slow paths put back."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import Agent, RandomAgent, act_in_game
from agents.heuristics import has_heuristic, heuristic_class
from agents.specs import make as make_agent
from tests.conftest import conformance_params
from yokai_envs.core.game import Game
from yokai_envs.registry import make_game

PARAMS = [p for p in conformance_params() if has_heuristic(p.values[0])]


def _twins(env_id: str, sampled: bool) -> list[tuple[Agent, Agent]]:
    pairs = []
    for cls in (heuristic_class(env_id), RandomAgent):
        a, b = cls(seed=7), cls(seed=7)
        a.plays_in_sampled_worlds = b.plays_in_sampled_worlds = sampled
        pairs.append((a, b))
    return pairs


@pytest.mark.parametrize("sampled", [True, False], ids=["in-sampled-worlds", "live-game"])
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_act_in_world_decides_as_act(env_id: str, options: dict, sampled: bool) -> None:
    game = make_game(env_id, **options)
    pairs = _twins(env_id, sampled)
    decisions = 0
    for seed in range(8 if sampled else 3):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            for slow, fast in pairs:
                expected = act_in_game(slow, game)
                assert fast.act_in_world(game) == expected, f"{type(fast).__name__} at step {game.steps}"
                assert slow.rng.bit_generator.state == fast.rng.bit_generator.state
            legal = game.legal_actions()
            # half the games follow the heuristic, so its own lines of play are covered too
            game.step(expected if seed % 2 else legal[rng.integers(len(legal))])
            decisions += 1
    assert decisions > 50


def _slow_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put back what search did before the fast paths: checked steps, masks, ``act_in_game``."""
    monkeypatch.setattr(Game, "step_unchecked", Game.step)
    monkeypatch.setattr(Game, "legal_actions", lambda game: np.flatnonzero(game.legal_action_mask()).tolist())
    for env_id in {p.values[0] for p in PARAMS}:
        monkeypatch.setattr(heuristic_class(env_id), "act_in_world", lambda agent, world: act_in_game(agent, world))
    monkeypatch.setattr(RandomAgent, "act_in_world", lambda agent, world: act_in_game(agent, world))


SPECS = ["ismcts:iterations=15", "ismcts:iterations=15;rollout=heuristic;max_rollout_steps=25;leaf=heuristic",
         "ismcts:iterations=15;rollout=heuristic;opponents=rollout;search=flat;confidence=0.5"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_ismcts_decides_the_same_on_the_slow_paths(env_id: str, options: dict, spec: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def decisions() -> list[int]:
        game = make_game(env_id, **options)
        agent = make_agent(spec, env_id, seed=3)
        out = []
        for seed in range(2):
            game.reset(seed)
            agent.reset(seed)
            rng = np.random.default_rng(seed)
            while not game.is_over and game.steps < 40:
                if game.steps % 4 == 0 and len(game.legal_actions()) > 1:
                    out.append(act_in_game(agent, game))
                legal = game.legal_actions()
                game.step(legal[rng.integers(len(legal))])
        return out

    fast = decisions()
    with monkeypatch.context() as patch:
        _slow_paths(patch)
        slow = decisions()
    assert fast == slow and len(fast) >= 4

