"""The table as plain data: ``State.copy`` sets every field, and a copy shares nothing a rule
changes in place with the table it came from."""

from __future__ import annotations

import numpy as np

from tests.core.shape_checks import (
    assert_a_dropped_world_is_freed,
    assert_the_core_clones,
    recording_game_after,
)
from yokai_envs.yyh_tcg.game import YYHGame
from yokai_envs.yyh_tcg.state import State


def _mid_game() -> YYHGame:
    g = YYHGame()
    g.reset(5)
    rng = np.random.default_rng(5)
    for _ in range(80):
        legal = g.legal_actions()
        g.step(legal[int(rng.integers(len(legal)))])
    return g


def test_a_copy_has_every_field_of_the_state_with_equal_values() -> None:
    st = _mid_game().state
    new = st.copy()
    for name in State.__slots__:  # an unset slot raises AttributeError
        assert getattr(new, name) == getattr(st, name) or name == "players", name


def test_stepping_a_clone_leaves_the_game_it_came_from_unchanged() -> None:
    g = _mid_game()
    before = [g.observation(0), g.observation(1)]
    twin = g.clone()
    assert twin.state is not g.state
    for mine, theirs in zip(twin.state.players, g.state.players, strict=True):
        assert mine is not theirs and mine.hand is not theirs.hand and mine.deck is not theirs.deck
        for a, b in zip(mine.slots(), theirs.slots(), strict=True):
            assert a is not b and a.attached is not b.attached
    rng = np.random.default_rng(0)
    while not twin.is_over:
        legal = twin.legal_actions()
        twin.step(legal[int(rng.integers(len(legal)))])
    assert all(np.array_equal(a, g.observation(s)) for s, a in enumerate(before))


def test_the_core_clones_and_frees_a_dropped_sampled_world_at_once() -> None:
    game = recording_game_after("yyh_tcg_v6", {}, moves=30)
    assert_the_core_clones(game, steps=20)
    assert_a_dropped_world_is_freed(game)
