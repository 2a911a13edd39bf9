"""A game that implements only the core contract (``minimal_game.SwapGame``) runs through the
env, the arena and the conformance checks, and the tools that need an optional hook refuse it
by name."""

from __future__ import annotations

import inspect
import io

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from agents.arena.match import run_match
from tests.conformance.helpers import play_random, sampled_states, snapshot
from tests.conformance.information import recall_problems, twin_problems, views_problems
from tests.core.minimal_game import GOT, SwapGame
from yokai_envs.cli.play import Terminal, show_decision
from yokai_envs.core import protocols
from yokai_envs.core.errors import MissingHookError
from yokai_envs.core.game import Game
from yokai_envs.envs.aec import YokaiAECEnv, wrap


class SwapEnv(YokaiAECEnv):
    game_class = SwapGame
    metadata = {"name": "swap_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}


def test_the_contract_is_small_and_swap_implements_only_it() -> None:
    required = sorted(Game.__abstractmethods__)
    assert len(required) <= 12, required
    own = {name for name, value in vars(SwapGame).items() if callable(value) or isinstance(value, property)}
    assert own - {"__init__"} == set(required), "the minimal game should implement exactly the contract"
    hooks = [getattr(protocols, name) for name in dir(protocols)]
    for hook in (h for h in hooks if inspect.isclass(h) and getattr(h, "_is_runtime_protocol", False)):
        assert not isinstance(SwapGame(), hook), f"{hook.__name__}: the base class should not pretend to have it"


def test_env_passes_the_pettingzoo_checks_and_renders_a_summary() -> None:
    api_test(wrap(SwapEnv()), num_cycles=20)
    seed_test(lambda: wrap(SwapEnv()), num_cycles=20)
    env = SwapEnv(render_mode="ansi")
    env.reset(seed=3)
    assert env.render().startswith("swap_v0: step 0, keep or swap, seat 0 to act")
    assert env.observation_space("player_0")["observation"].high.max() == 1.0  # observations in [0, 1]


def test_arena_plays_it_with_random_and_search_bots() -> None:
    result = run_match(SwapGame, ["random", "ismcts:iterations=10"], games=4, seed=0)
    assert len(result.records) == 4 and all(sorted(r["returns"]) == [-1.0, 1.0] for r in result.records)


def test_conformance_checks_that_apply_pass() -> None:
    assert twin_problems(SwapGame, range(20))[1] == []
    assert recall_problems(SwapGame, range(3)) == [] and views_problems(SwapGame, range(3)) == []
    game = SwapGame()
    for state in sampled_states(game, range(10), every=1):
        assert protocols.check_invariants(state) is False  # nothing to check: the soak skips it
        for seat in range(2):
            before = snapshot(state)
            world = state.determinize(seat, np.random.default_rng(seat))
            assert snapshot(state) == before
            assert np.array_equal(world.observation(seat), state.observation(seat))
    clone = play_random(SwapGame(), seed=1).clone()
    assert clone.is_terminal and clone.returns().sum() == 0


def test_fallbacks_stand_in_for_missing_viewer_and_analysis_hooks() -> None:
    game = SwapGame()
    game.reset(0)
    assert game.action_name(1) == "action 1"
    assert protocols.action_fields(game, 1) == {"kind": "action", "id": 1, "name": "action 1"}
    assert protocols.public_action_name(game, 1, 0) == "action 1"
    assert protocols.public_action_name(game, 1, 1) is None
    assert protocols.ends_multi_part_choice(game, 0) is None
    assert protocols.outcome_facts(game) == {"end": "end"}
    view = protocols.table_view(game, 1)
    assert view["zones"] == [] and "no seat view" in view["text"]
    game.record_information()
    game.reset(0)
    game.step(0)
    assert game.public_log(1)[1:] == ["seat 0 made a decision"]
    assert game.public_log(1)[0] == f"event {GOT} {game.observation(1).argmax()}"


def test_tools_that_need_a_hook_refuse_the_game_by_name() -> None:
    game = SwapGame()
    game.reset(0)
    shown = io.StringIO()
    with pytest.raises(MissingHookError, match=r"yokai play needs swap_v0's SeatText hook.*render_for"):
        show_decision(game, 0, Terminal(io.StringIO(), shown))
    assert shown.getvalue() == ""  # refused before anything is shown
    with pytest.raises(MissingHookError, match=r"yokai balance needs swap_v0's BalanceAxis hook.*balance_axis"):
        protocols.require(SwapGame, protocols.BalanceAxis, "yokai balance")
