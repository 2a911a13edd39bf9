"""OpenSpiel: every configuration as a pyspiel python game (yokai_envs.envs.openspiel): the game
type, parameters, clone, resample_from_infostate; OpenSpiel's random-simulation test, its
ISMCTS bot playing whole games, and its RL environment with its PyTorch DQN."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the 'bench' extra (open_spiel)")

from tests.interop.configs import PARAMS  # noqa: E402
from yokai_envs import make_game  # noqa: E402
from yokai_envs.envs import openspiel  # noqa: E402
from yokai_envs.registry import ENV_IDS  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"


def _random_play(state, rng):
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_env_id_registers_with_the_right_kinds():
    names = openspiel.register_all()
    assert names == list(ENV_IDS)
    for env_id in ENV_IDS:
        game_type = pyspiel.load_game(env_id).get_type()
        assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert game_type.provides_information_state_string and game_type.provides_observation_tensor


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_parameters_utility_and_returns(env_id, options):
    game = openspiel.load_game(env_id, rng_seed=3, **options)
    engine = make_game(env_id, **options)
    assert game.num_players() == engine.num_players
    assert game.num_distinct_actions() == engine.num_actions
    assert game.observation_tensor_size() == engine.observation_size
    zero_sum = game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    rng = np.random.default_rng(0)
    for _ in range(5):
        state = _random_play(game.new_initial_state(), rng)
        returns = state.returns()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        if zero_sum:
            assert sum(returns) == 0
    # the same rng_seed deals the same games
    a = openspiel.load_game(env_id, rng_seed=7, **options).new_initial_state()
    b = openspiel.load_game(env_id, rng_seed=7, **options).new_initial_state()
    assert str(a) == str(b)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_clone_and_resample_from_infostate(env_id, options):
    game = openspiel.load_game(env_id, rng_seed=1, **options)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(15):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    if state.is_terminal():
        pytest.skip("the game ended early")
    player = state.current_player()
    before = (str(state), state.information_state_string(player), state.history())
    twin = state.clone()
    _random_play(twin, rng)
    assert (str(state), state.information_state_string(player), state.history()) == before
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(world.observation_tensor(player), state.observation_tensor(player))
        assert world.legal_actions() == state.legal_actions()
        _random_play(world, rng)
    assert (str(state), state.information_state_string(player)) == before[:2]


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_openspiel_random_simulation_test(env_id, options):
    pyspiel.random_sim_test(openspiel.load_game(env_id, rng_seed=0, **options), num_sims=2, serialize=False,
                            verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_ismcts_plays_whole_games(env_id, options):
    from open_spiel.python.algorithms import ismcts, mcts

    game = openspiel.load_game(env_id, rng_seed=0, **options)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), uct_c=2.0,
                           max_simulations=4, random_state=rng)  # strict action sets: the default
    bots = [bot] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, game.num_players())]
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            searched += len(state.legal_actions()) > 1
        state.apply_action(bots[state.current_player()].step(state))
    assert searched > 0
    assert len(state.returns()) == game.num_players()


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_rl_environment_with_openspiel_pytorch_dqn(env_id, options):
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent
    from open_spiel.python.pytorch import dqn

    game = openspiel.load_game(env_id, rng_seed=0, **options)
    env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [dqn.DQN(0, size, actions, hidden_layers_sizes=[16], replay_buffer_capacity=500, batch_size=8,
                      min_buffer_size_to_learn=16, learn_every=8)]
    agents += [random_agent.RandomAgent(p, actions) for p in range(1, env.num_players)]
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        action = agents[player].step(time_step).action
        assert action in time_step.observations["legal_actions"][player]
        time_step = env.step([action])
    for agent in agents:
        agent.step(time_step)
    assert len(time_step.rewards) == env.num_players


@pytest.mark.slow
def test_the_openspiel_example_runs_at_a_tiny_budget():
    main = runpy.run_path(str(EXAMPLE))["main"]
    summary = main(["--env", ENV_IDS[0], "--games", "1", "--simulations", "3"])
    assert summary["games"] == 1 and summary["mean_length"] > 0
