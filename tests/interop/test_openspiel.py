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
from yokai_envs.registry import ENV_IDS, live_id  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore")
YYH = live_id("yyh_tcg")
YONKAI = live_id("yonkai_no_yokai")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"


def _random_play(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(openspiel.DEAL_SEEDS)))
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _dealt(game, seed):
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel.DEAL_SEEDS
    state.apply_action(seed)
    return state


def test_every_env_id_registers_with_the_right_kinds():
    names = openspiel.register_all()
    assert names == list(ENV_IDS)
    for env_id in ENV_IDS:
        game_type = pyspiel.load_game(env_id).get_type()
        assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game_type.provides_information_state_string and game_type.provides_observation_tensor
        assert game_type.provides_information_state_tensor
        configs = [make_game(env_id, **options) for options in type(make_game(env_id)).CONFORMANCE_CONFIGS]
        assert (game_type.utility == pyspiel.GameType.Utility.ZERO_SUM) == all(g.zero_sum for g in configs)


# Every configuration, and the rewards beside the default (Yonkai no Yokai's lives lost).
UTILITY_PARAMS = [*PARAMS, *(pytest.param(YONKAI, {"num_players": n, "reward": "lives"}, id=f"{YONKAI}-lives-{n}p")
                             for n in (3, 4))]


@pytest.mark.parametrize(("env_id", "options"), UTILITY_PARAMS)
def test_parameters_utility_and_returns(env_id, options):
    """The game info OpenSpiel gets (utility bounds, zero-sum) is what the game's returns do."""
    game = openspiel.load_game(env_id, **options)
    engine = make_game(env_id, **options)
    assert game.num_players() == engine.num_players
    assert game.num_distinct_actions() == engine.num_actions
    assert game.observation_tensor_size() == engine.observation_size
    low, high = engine.utility_bounds()
    assert (game.min_utility(), game.max_utility()) == (low, high)
    zero_sum = game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero_sum == engine.zero_sum
    rng = np.random.default_rng(0)
    seen: list[float] = []
    for played in range(1, 41):  # at least 5 games; more where random play rarely loses (easy Solo)
        state = _random_play(game.new_initial_state(), rng)
        returns = state.returns()
        seen += returns
        assert all(low <= r <= high for r in returns), returns
        if zero_sum:
            assert sum(returns) == 0
        if played >= 5 and min(seen) == low:
            break
    assert min(seen) == low, "random play always loses somewhere: the lower bound is a real return"
    # the same deal seed deals the same game, the one the engine deals from that seed
    a, b = _dealt(openspiel.load_game(env_id, **options), 7), _dealt(game, 7)
    engine.reset(7)
    assert str(a) == str(b) == engine.render()


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_clone_and_resample_from_infostate(env_id, options):
    game = openspiel.load_game(env_id, **options)
    state = _dealt(game, 1)
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
def test_openspiel_random_simulation_test_with_serialization(env_id, options):
    pyspiel.random_sim_test(openspiel.load_game(env_id, **options), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_a_state_serializes_and_its_seed_and_history_rebuild_it(env_id, options):
    game = openspiel.load_game(env_id, **options)
    state = _dealt(game, 11)
    rng = np.random.default_rng(2)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(0) == state.information_state_string(0)
    rebuilt = game.new_initial_state()
    for action in state.history():  # the deal seed first, then the decisions
        rebuilt.apply_action(action)
    assert str(rebuilt) == str(state)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_information_state_tensor_is_the_observation_and_the_latest_events(env_id, options):
    game = openspiel.load_game(env_id, **options)
    size = game.observation_tensor_size()
    assert game.information_state_tensor_size() == size + openspiel.EVENT_WINDOW * openspiel.EVENT_WIDTH
    state = game.new_initial_state()
    assert not any(state.information_state_tensor(0))  # before the deal: zeros
    state.apply_action(5)
    rng = np.random.default_rng(3)
    for _ in range(8):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    for player in range(game.num_players()):
        tensor = np.asarray(state.information_state_tensor(player))
        np.testing.assert_array_equal(tensor[:size], state.observation_tensor(player))
        events = state.engine.seen_events(player)[-openspiel.EVENT_WINDOW:]
        window = tensor[size:].reshape(openspiel.EVENT_WINDOW, openspiel.EVENT_WIDTH)
        assert len(events) > 0 and not window[len(events):].any()
        for row, event in zip(window, events, strict=False):
            assert row[:len(event)].tolist() == [v + 1 for v in event] and not row[len(event):].any()


@pytest.mark.slow
def test_a_tensor_based_openspiel_algorithm_runs():
    """OpenSpiel's NFSP reads information_state_tensor through rl_environment."""
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import nfsp

    game = openspiel.load_game(ENV_IDS[0], num_players=3)
    env = rl_environment.Environment(game)  # INFORMATION_STATE observations: the tensor
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size()
    actions = env.action_spec()["num_actions"]
    agents = [nfsp.NFSP(p, size, actions, hidden_layers_sizes=[16], reservoir_buffer_capacity=100,
                        anticipatory_param=0.1, replay_buffer_capacity=100, batch_size=8,
                        min_buffer_size_to_learn=8, learn_every=8) for p in range(env.num_players)]
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        time_step = env.step([agents[player].step(time_step).action])
    for agent in agents:
        agent.step(time_step)
    assert len(time_step.rewards) == env.num_players


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_ismcts_plays_whole_games(env_id, options):
    from open_spiel.python.algorithms import ismcts, mcts

    game = openspiel.load_game(env_id, **options)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), uct_c=2.0,
                           max_simulations=4, random_state=rng)  # strict action sets: the default
    bots = [bot] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, game.num_players())]
    state = _dealt(game, 0)
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

    game = openspiel.load_game(env_id, **options)
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


_CPP_ISMCTS = """
import sys
import numpy as np, pyspiel
import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's own python games)
from yokai_envs.envs import openspiel
game = openspiel.load_game(sys.argv[1]) if sys.argv[1] in openspiel.ENV_IDS else pyspiel.load_game(sys.argv[1])
bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 5, -1,
                        pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
rng = np.random.default_rng(0)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    elif state.current_player() == 0:
        state.apply_action(bot.step(state))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))
print("finished")
"""


@pytest.mark.slow
@pytest.mark.parametrize("game_name", ["kuhn_poker", "python_kuhn_poker", YYH])
def test_the_cpp_ismcts_bot_crashes_on_every_python_game_not_only_ours(game_name):
    """OpenSpiel's C++ ISMCTSBot runs on its C++ Kuhn poker but kills the interpreter on the
    first search of any python game, OpenSpiel's own python Kuhn poker included: a limitation of
    OpenSpiel's bridge, not of these games (the Python ISMCTS above plays them). Run in a child
    process, never in this one; when it stops crashing, update docs/interop.md."""
    import os
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _CPP_ISMCTS, game_name], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(root)})
    if game_name == "kuhn_poker":
        assert done.returncode == 0 and "finished" in done.stdout, done.stderr
    else:
        assert done.returncode == -signal.SIGSEGV, (
            f"the C++ ISMCTSBot no longer crashes on {game_name} (rc {done.returncode}): update docs/interop.md")
