"""The Onmyoji table is plain data: a copy shares nothing that a step changes, the game leaves
cloning to the core, and sampled worlds are freed as soon as a search drops them."""

from __future__ import annotations

import numpy as np

from tests.core.shape_checks import (
    assert_a_dropped_world_is_freed,
    assert_a_new_generator_reaches_the_rules,
    assert_a_state_copy_shares_nothing,
    assert_the_core_clones,
    recording_game_after,
)
from yokai_envs.onmyoji import ENV_ID
from yokai_envs.onmyoji.game import OnmyojiGame
from yokai_envs.onmyoji.state import Enemy, Player, State

# Shared on purpose: a pending target choice is replaced, never changed in place.
SHARED_BY_DESIGN = {"target_ctx"}


def _played(steps: int, mode: str = "coop", seed: int = 5) -> OnmyojiGame:
    game = OnmyojiGame(mode=mode)
    game.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        game.step(legal[rng.integers(len(legal))])
    return game


def _mutable_parts(value: object) -> list[object]:
    """``value`` and every list, dict, set, array, Onmyoji or enemy inside it."""
    if isinstance(value, list):
        return [value, *(part for item in value for part in _mutable_parts(item))]
    if isinstance(value, dict):
        return [value, *(part for item in value.values() for part in _mutable_parts(item))]
    if isinstance(value, (set, np.ndarray)):
        return [value]
    if isinstance(value, (Player, Enemy)):
        return [value, *(part for name in type(value).__slots__ for part in _mutable_parts(getattr(value, name)))]
    return []


def test_a_state_copy_shares_nothing_mutable_but_the_fields_fixed_for_the_game() -> None:
    for mode in ("solo", "duel", "coop"):
        assert_a_state_copy_shares_nothing(_played(60, mode).state, {*State.FIXED, *SHARED_BY_DESIGN}, _mutable_parts,
                                           f" ({mode})")


def test_the_game_leaves_clone_and_is_over_and_legal_actions_to_the_core() -> None:
    assert_the_core_clones(_played(40), steps=20)


def test_game_attributes_read_and_write_the_state() -> None:
    game = _played(10, "duel")
    assert game.players is game.state.players
    game.first_seat = 1
    assert game.state.first_seat == 1


def test_a_dropped_sampled_world_is_freed_without_the_cycle_collector() -> None:
    assert_a_dropped_world_is_freed(recording_game_after(ENV_ID, {"mode": "duel"}, moves=30))


def test_a_game_handed_a_new_generator_draws_its_chance_from_it() -> None:
    # Solo reshuffles its Yokai deck at the start of every battle.
    assert_a_new_generator_reaches_the_rules(_played(10, "solo"), lambda twin: twin.state.yokai_deck)
