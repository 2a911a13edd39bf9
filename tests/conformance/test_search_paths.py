"""The search paths of the Game contract: ``legal_actions`` is the mask as a list, and
``step_unchecked`` plays the very game ``step`` plays. Every registered env, every configuration."""

from __future__ import annotations

import numpy as np
import pytest

import yokai_envs
from tests.conformance.helpers import sampled_states, snapshot
from tests.conftest import conformance_params
from yokai_envs.core.errors import IllegalActionError

PARAMS = conformance_params()


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_legal_actions_are_the_mask_as_a_list(env_id: str, options: dict) -> None:
    game = yokai_envs.make_game(env_id, **options)
    world_rng = np.random.default_rng(5)
    states = 0
    for seed in range(12):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            cached = game._mask_cache
            legal = game.legal_actions()
            if cached is not None:
                assert game._mask_cache is cached  # asking leaves a cached mask alone
            assert legal == np.flatnonzero(game.legal_action_mask()).tolist()
            assert all(type(a) is int for a in legal)
            if game.steps % 9 == 0:  # and in sampled worlds, whose pending decision is redrawn
                world = game.determinize(game.current_player, world_rng)
                assert world.legal_actions() == np.flatnonzero(world.legal_action_mask()).tolist()
            game.step(legal[rng.integers(len(legal))])
            states += 1
        assert game.legal_actions() == []
    assert states > 100


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_step_unchecked_plays_the_same_game_as_step(env_id: str, options: dict) -> None:
    for recording in (False, True):
        checked = yokai_envs.make_game(env_id, **options)
        unchecked = yokai_envs.make_game(env_id, **options)
        for game in (checked, unchecked):
            game.record_information(recording)
        for seed in range(6):
            checked.reset(seed)
            unchecked.reset(seed)
            rng = np.random.default_rng(seed)
            while not checked.is_over:
                legal = checked.legal_actions()
                action = legal[rng.integers(len(legal))]
                checked.step(action)
                unchecked.step_unchecked(action)
                assert snapshot(unchecked) == snapshot(checked)
            assert unchecked.is_over
            if recording:
                for seat in range(checked.num_players):
                    assert unchecked.information_state(seat) == checked.information_state(seat)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_step_unchecked_in_worlds_and_clones(env_id: str, options: dict) -> None:
    """Search steps its sampled worlds and their clones unchecked: each stays its own game."""
    game = yokai_envs.make_game(env_id, **options)
    rng = np.random.default_rng(1)
    for state in sampled_states(game, range(4), every=11):
        before = snapshot(state)
        world = state.determinize(state.current_player, rng)
        twin = world.clone()
        twin_before = snapshot(twin)
        steps = 0
        while not world.is_over and steps < 30:
            legal = world.legal_actions()
            world.step_unchecked(legal[rng.integers(len(legal))])
            steps += 1
        assert snapshot(state) == before
        assert snapshot(twin) == twin_before


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_the_checked_step_is_as_strict_as_before(env_id: str, options: dict) -> None:
    """step still refuses masked-out, out-of-range and non-integer actions, leaving the game as it was."""
    game = yokai_envs.make_game(env_id, **options)
    game.reset(0)
    illegal = int(np.flatnonzero(~game.legal_action_mask())[0])
    before = snapshot(game)
    for action, reason in ((illegal, "masked out"), (game.num_actions, "actions are integers"),
                           (-1, "actions are integers"), (1.5, "actions are integers")):
        with pytest.raises(IllegalActionError, match=reason):
            game.step(action)  # type: ignore[arg-type]
        assert snapshot(game) == before
    while not game.is_over:  # to the end (or the step cap) on the unchecked path
        game.step_unchecked(game.legal_actions()[0])
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game has ended"):
        game.step(0)
