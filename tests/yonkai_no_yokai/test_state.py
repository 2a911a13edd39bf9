"""The state as plain data: its copy, and the legal actions the rules list in it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.shape_checks import (
    assert_a_dropped_world_is_freed,
    assert_the_core_clones,
    recording_game_after,
)
from tests.yonkai_no_yokai.helpers import deal, play, run
from yokai_envs.core.game import Game
from yokai_envs.yonkai_no_yokai.game import YonkaiGame


def test_state_copy_has_every_field_and_shares_no_array_or_list() -> None:
    game = run(deal(["3" + "2", "1" + "44", "1" + "5"], leader=0), play("3"))
    state = game.state
    copy = state.copy()
    assert list(vars(copy)) == list(vars(state)), "the copy's fields are the state's, in order"
    for name, value in vars(state).items():
        other = getattr(copy, name)
        if name in ("setup", "tables", "pending"):  # fixed for the game, or replaced and never changed
            assert other is value
        elif isinstance(value, np.ndarray):
            assert other is not value and np.array_equal(other, value), name
        elif isinstance(value, list):
            assert other is not value and other == value, name
        else:
            assert other == value, name


def test_a_clone_steps_on_its_own() -> None:
    game = deal(["3" + "2", "1" + "44", "1" + "5"], leader=0)
    clone = game.clone()
    run(clone, play("3"))
    assert game.hands[0].tolist() == [0, 1, 1, 0, 0, 0] and game.to_act == 0 and game.last_count == 0
    assert clone.hands[0].tolist() == [0, 1, 0, 0, 0, 0] and clone.to_act == 1


def test_the_core_serves_clone_and_legal_actions() -> None:
    for name in ("clone", "is_over", "legal_actions", "_legal_actions"):
        assert getattr(YonkaiGame, name) is getattr(Game, name), f"YonkaiGame overrides {name}"


def test_legal_actions_are_listed_anew_after_an_edit_by_hand() -> None:
    game = deal(["3" + "2", "1" + "44", "1" + "5"], leader=0)
    assert game.legal_actions() == [play("2"), play("3")]
    game.hands[0] = [0, 0, 0, 0, 0, 2]
    game.played[:] = game.copies - game.hands.sum(axis=0)
    game.invalidate_mask()
    assert game.legal_actions() == [play("6")]
    assert np.flatnonzero(game.legal_action_mask()).tolist() == [play("6")]
    game.check_invariants()


def test_the_invariants_catch_legal_actions_left_from_before_an_edit() -> None:
    game = deal(["3" + "2", "1" + "44", "1" + "5"], leader=0)
    game.hands[0] = [0, 0, 0, 0, 0, 2]
    game.played[:] = game.copies - game.hands.sum(axis=0)
    with pytest.raises(AssertionError, match="listed legal actions"):
        game.check_invariants()


def test_no_legal_actions_are_listed_once_the_game_ends() -> None:
    game = run(deal(["3", "1122", "12"], leader=0, cubes=[1, 1, 3]), play("3"))
    assert game.is_terminal and game.state.pending is None and game.legal_actions() == []


def test_the_core_clones_and_frees_a_dropped_sampled_world_at_once() -> None:
    game = recording_game_after("yonkai_no_yokai_v1", {"num_players": 4}, moves=30)
    assert_the_core_clones(game, steps=20)
    assert_a_dropped_world_is_freed(game)
