"""The YOKAIZO table is plain data: a copy shares nothing that a step changes, the game leaves
cloning to the core, and sampled worlds are freed as soon as a search drops them."""

from __future__ import annotations

import numpy as np

from tests.core.shape_checks import (
    assert_a_dropped_world_is_freed,
    assert_a_new_generator_reaches_the_rules,
    assert_a_state_copy_shares_nothing,
    assert_the_core_clones,
)
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.state import State, Task

# Shared on purpose: the pending decision's legal actions are replaced, never changed in place.
SHARED_BY_DESIGN = {"pending"}


def _played(steps: int, seed: int = 5) -> YokaizoGame:
    game = YokaizoGame()
    game.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        game.step(legal[rng.integers(len(legal))])
    return game


def _mutable_parts(value: object) -> list[object]:
    """``value`` and every list, dict or task inside it."""
    if isinstance(value, list):
        return [value, *(part for item in value for part in _mutable_parts(item))]
    if isinstance(value, dict):
        return [value, *(part for item in value.values() for part in _mutable_parts(item))]
    if isinstance(value, Task):
        return [value]
    return []


def test_a_state_copy_shares_nothing_mutable_but_the_fields_fixed_for_the_game() -> None:
    assert_a_state_copy_shares_nothing(_played(80).state, {*State.FIXED, *SHARED_BY_DESIGN}, _mutable_parts)


def test_the_game_leaves_clone_is_over_and_legal_actions_to_the_core() -> None:
    assert_the_core_clones(_played(40), steps=1)


def test_a_dropped_sampled_world_is_freed_without_the_cycle_collector() -> None:
    game = _played(40)
    game.record_information()
    assert_a_dropped_world_is_freed(game)


def test_a_game_handed_a_new_generator_draws_its_chance_from_it() -> None:
    assert_a_new_generator_reaches_the_rules(_played(30), lambda twin: twin.state.deck)
