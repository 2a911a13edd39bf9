"""Observations kept in step with the game: YOKAIZO's and YYH's encoders keep each
seat's last observation and recompute only the blocks whose inputs changed. With ``CHECK_MEMO``
on, every observation is also computed from scratch and must be equal; these tests play random
games with resets, clones, sampled worlds and direct edits of the state between observations.
Clones share nothing with the game they came from, and a copied generator is the same stream."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from yokai_envs.core.rng import copy_generator
from yokai_envs.registry import ENV_IDS, make_game
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yyh_tcg.game import YYHGame

MEMO_ENVS = {YokaizoGame.env_id: "yokai_envs.yokaizo.observation", YYHGame.env_id: "yokai_envs.yyh_tcg.observation"}


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> str:
    env_id = request.param
    monkeypatch.setattr(importlib.import_module(MEMO_ENVS[env_id]), "CHECK_MEMO", True)
    return env_id


@pytest.mark.parametrize("checked", sorted(MEMO_ENVS), indirect=True)
def test_remembered_observations_equal_fresh_ones_at_every_step(checked: str) -> None:
    game = make_game(checked)
    rng = np.random.default_rng(11)
    observed = 0
    for episode in range(12):  # a reset deals new cards under the same memos
        game.reset(episode)
        while not game.is_over:
            for seat in range(game.num_players):  # raises AssertionError naming the blocks that differ
                game.observation(seat)
                observed += 1
            game.state_tensor()
            if rng.random() < 0.1:  # a sampled world and a clone each keep memos of their own
                world = game.determinize(game.current_player, rng)
                twin = game.clone()
                for seat in range(game.num_players):
                    world.observation(seat)
                    assert np.array_equal(twin.observation(seat), game.observation(seat))
                legal = np.flatnonzero(twin.legal_action_mask())
                twin.step(int(legal[0]))
                twin.observation(0)
            legal = np.flatnonzero(game.legal_action_mask())
            game.step(int(legal[rng.integers(legal.size)]))
    assert observed > 500


@pytest.mark.parametrize("checked", sorted(MEMO_ENVS), indirect=True)
def test_direct_edits_of_the_state_are_seen(checked: str) -> None:
    """Scenario builders edit zones in place: the memo compares values, never trusts identity."""
    game = make_game(checked)
    game.reset(3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        legal = np.flatnonzero(game.legal_action_mask())
        game.step(int(legal[rng.integers(legal.size)]))
    before = game.observation(0)
    hand = game.hand[0] if checked == YokaizoGame.env_id else game.players[0].hand  # type: ignore[attr-defined]
    deck = game.deck[0] if checked == YokaizoGame.env_id else game.players[0].deck  # type: ignore[attr-defined]
    hand.append(deck.pop())  # in place: the same list objects
    after = game.observation(0)  # CHECK_MEMO compares with a fresh encode
    assert not np.array_equal(before, after)


@pytest.mark.parametrize("env_id", sorted(MEMO_ENVS))
def test_handed_out_observations_are_copies(env_id: str) -> None:
    game = make_game(env_id)
    game.reset(1)
    first = game.observation(0)
    kept = first.copy()
    first[:] = 7.0  # the caller's array is its own: scribbling on it changes nothing remembered
    assert np.array_equal(game.observation(0), kept)
    legal = np.flatnonzero(game.legal_action_mask())
    game.step(int(legal[0]))
    game.observation(0)
    assert np.all(first == 7.0)


def test_copy_generator_continues_the_same_stream_independently() -> None:
    for bits in (np.random.PCG64(5), np.random.MT19937(5), np.random.Philox(5)):
        rng = np.random.Generator(bits)
        rng.random(3)
        twin = copy_generator(rng)
        assert type(twin.bit_generator) is type(rng.bit_generator)
        assert np.array_equal(twin.random(8), rng.random(8))
        twin.random(5)  # drawing from one leaves the other where it was
        assert np.array_equal(copy_generator(rng).integers(1 << 30, size=4), rng.integers(1 << 30, size=4))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_clone_draws_the_same_chance_as_its_original(env_id: str) -> None:
    game = make_game(env_id)
    game.reset(9)
    twin = game.clone()
    assert twin.rng is not game.rng
    assert np.array_equal(twin.rng.integers(1 << 30, size=6), game.rng.integers(1 << 30, size=6))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_determinize_keeps_the_game_generator_and_gives_the_world_its_own(env_id: str) -> None:
    from yokai_envs.core.rng import NOT_COPIED

    game = make_game(env_id)
    game.reset(4)
    own = game.rng
    expected = copy_generator(own).integers(1 << 30, size=4)
    world = game.determinize(game.current_player, np.random.default_rng(1))
    assert game.rng is own and world.rng is not own and world.rng is not NOT_COPIED
    assert np.array_equal(game.rng.integers(1 << 30, size=4), expected)  # not drawn from by the sample
