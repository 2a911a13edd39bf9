"""The conformance suite: every registered env, every configuration it declares.

Nothing game-specific lives here: a game joins by registering its env id.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import yokai_envs
from tests.conformance.helpers import play_random, random_action, sampled_states, snapshot
from tests.conftest import conformance_params
from yokai_envs.core.errors import IllegalActionError
from yokai_envs.core.protocols import InvariantChecks, check_invariants

PARAMS = conformance_params()


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_pettingzoo_api(env_id: str, options: dict) -> None:
    api_test(yokai_envs.make(env_id, **options), num_cycles=300)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_pettingzoo_seed(env_id: str, options: dict) -> None:
    seed_test(lambda: yokai_envs.make(env_id, **options), num_cycles=300)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_same_seed_same_game(env_id: str, options: dict) -> None:
    for seed in range(5):
        a = play_random(yokai_envs.make_game(env_id, **options), seed)
        b = play_random(yokai_envs.make_game(env_id, **options), seed)
        assert a.action_history == b.action_history
        assert np.array_equal(a.state_tensor(), b.state_tensor())
        assert np.array_equal(a.returns(), b.returns())
    games = [play_random(yokai_envs.make_game(env_id, **options), seed).action_history for seed in range(5)]
    assert len({tuple(g) for g in games}) > 1, "different seeds gave the same game"


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_replay_rebuilds_the_game(env_id: str, options: dict) -> None:
    original = play_random(yokai_envs.make_game(env_id, **options), seed=3)
    rebuilt = yokai_envs.make_game(env_id, **options)
    rebuilt.replay(original.seed, original.action_history)
    assert np.array_equal(rebuilt.state_tensor(), original.state_tensor())


def _random_games_with_invariants(env_id: str, options: dict, games: int) -> None:
    game = yokai_envs.make_game(env_id, **options)
    size_obs, size_state = game.observation_size, game.state_size
    bounds = game.utility_bounds()  # OpenSpiel is told these and zero_sum: every game keeps to them
    truncated = 0
    for seed in range(games):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        check_invariants(game)
        while not game.is_over:
            mask = game.legal_action_mask()
            assert mask.shape == (game.num_actions,) and mask.any()
            game.step(random_action(game, rng))
            check_invariants(game)
        truncated += game.is_truncated
        for seat in range(game.num_players):
            assert game.observation(seat).shape == (size_obs,)
        assert game.state_tensor().shape == (size_state,)
        returns = game.returns()
        assert returns.shape == (game.num_players,)
        assert bounds[0] <= returns.min() and returns.max() <= bounds[1], (returns, bounds)
        assert not game.zero_sum or abs(returns.sum()) < 1e-9, returns
        assert not game.legal_action_mask().any()
    assert truncated <= games // 100, f"{truncated} of {games} random games hit the step cap"


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_random_games_keep_invariants(env_id: str, options: dict) -> None:
    _random_games_with_invariants(env_id, options, games=100)


@pytest.mark.soak
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_soak_10000_random_games(env_id: str, options: dict) -> None:
    _random_games_with_invariants(env_id, options, games=10_000)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_no_leak_across_determinizations(env_id: str, options: dict) -> None:
    game = yokai_envs.make_game(env_id, **options)
    varied = 0
    for state in sampled_states(game, range(8)):
        for seat in range(state.num_players):
            before = snapshot(state)
            observation = state.observation(seat)
            mask = state.legal_action_mask() if seat == state.current_player else None
            rng = np.random.default_rng(seat)
            samples = [state.determinize(seat, rng) for _ in range(4)]
            assert snapshot(state) == before, "determinize changed the real game"
            for world in samples:
                assert np.array_equal(world.observation(seat), observation), \
                    f"seat {seat}'s observation depends on cards it cannot see"
                if mask is not None:
                    assert np.array_equal(world.legal_action_mask(), mask)
                check_invariants(world)
            differs = any(not np.array_equal(w.state_tensor(), state.state_tensor()) for w in samples)
            varied += differs
    assert varied > 0, "determinize never varied any hidden card"


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_every_sampled_world_has_a_legal_action_or_is_over(env_id: str, options: dict) -> None:
    """A world ``determinize`` samples for any seat is a game a search can play on: its current
    player has a legal action, or it is over. Sampling must keep what makes the pending decision
    possible (a search's target still in the deck, say), whoever is deciding."""
    game = yokai_envs.make_game(env_id, **options)
    worlds = 0
    for state in sampled_states(game, range(6), every=3):
        for seat in range(state.num_players):
            rng = np.random.default_rng(seat)
            for _ in range(3):
                world = state.determinize(seat, rng)
                worlds += 1
                assert world.is_over or world.legal_action_mask().any(), \
                    (f"seat {seat}'s sample at step {state.steps} (phase {state.phase_name}) leaves seat "
                     f"{world.current_player} no legal action")
                assert world.is_over or world.legal_actions()
    assert worlds > 0


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_illegal_actions_raise_and_change_nothing(env_id: str, options: dict) -> None:
    game = yokai_envs.make_game(env_id, **options)
    checked = 0
    for state in sampled_states(game, range(4), every=5):
        before = snapshot(state)
        illegal = np.flatnonzero(~state.legal_action_mask())
        candidates = [-1, state.num_actions, 1.5, "x"] + ([int(illegal[0]), int(illegal[-1])] if illegal.size else [])
        for action in candidates:
            with pytest.raises(IllegalActionError) as info:
                state.step(action)
            assert str(state.current_player) in str(info.value) and state.phase_name in str(info.value)
            assert snapshot(state) == before
            checked += 1
    finished = play_random(game, seed=1)
    with pytest.raises(IllegalActionError):
        finished.step(0)
    assert checked > 0


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_clone_is_independent(env_id: str, options: dict) -> None:
    game = yokai_envs.make_game(env_id, **options)
    rng = np.random.default_rng(0)
    for state in sampled_states(game, range(3), every=11):
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        while not twin.is_over:
            twin.step(random_action(twin, rng))
        assert snapshot(state) == before, "stepping a clone changed the original"
        twin_before = snapshot(twin)
        if not state.is_over:
            state.step(random_action(state, rng))  # the walk goes on from the stepped original
        assert snapshot(twin) == twin_before, "stepping the original changed a clone"


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_aec_truncation_at_step_cap(env_id: str, options: dict) -> None:
    env = yokai_envs.make(env_id, max_steps=5, **options)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps <= 5
    assert env.unwrapped.game.is_truncated or env.unwrapped.game.is_terminal


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_aec_illegal_action_raise_and_penalize(env_id: str, options: dict) -> None:
    env = yokai_envs.make(env_id, illegal_action="raise", **options)
    env.reset(seed=0)
    observation, *_ = env.last()
    illegal = np.flatnonzero(observation["action_mask"] == 0)
    if illegal.size == 0:
        pytest.skip("first decision has every action legal")
    with pytest.raises(IllegalActionError):
        env.step(int(illegal[0]))
    penalized = yokai_envs.make(env_id, **options)  # the default, as in PettingZoo's classic games
    penalized.reset(seed=0)
    offender = penalized.agent_selection
    penalized.step(int(illegal[0]))
    assert all(penalized.terminations.values())
    assert penalized._cumulative_rewards[offender] == -1.0


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_aec_rewards_sum_to_game_returns(env_id: str, options: dict) -> None:
    env = yokai_envs.make(env_id, **options)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    returns = env.unwrapped.game.returns()
    for i, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(returns[i])


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_observation_layout_covers_the_vector(env_id: str, options: dict) -> None:
    env = yokai_envs.make(env_id, **options)
    layout = env.unwrapped.observation_layout
    covered = np.zeros(env.unwrapped.game.observation_size, dtype=int)
    for name, part in layout.items():
        assert isinstance(name, str) and isinstance(part, slice)
        covered[part] += 1
    assert (covered == 1).all(), "observation_layout must tile the observation exactly once"


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_every_game_checks_its_invariants(env_id: str, options: dict) -> None:
    """The soak above skips a game without invariant checks: every registered game has them."""
    assert isinstance(yokai_envs.make_game(env_id, **options), InvariantChecks)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_render_and_action_names(env_id: str, options: dict) -> None:
    env = yokai_envs.make(env_id, render_mode="ansi", **options)
    env.reset(seed=0)
    assert isinstance(env.render(), str) and env.render()
    game = env.unwrapped.game
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert all(isinstance(n, str) and n for n in names)


def test_unknown_env_id_and_option_are_named() -> None:
    with pytest.raises(ValueError, match="valid env ids"):
        yokai_envs.make("yonkai_no_yokai_v9")
    env_id = yokai_envs.ENV_IDS[0]
    with pytest.raises(ValueError, match="no_such_option"):
        yokai_envs.make(env_id, no_such_option=1)
