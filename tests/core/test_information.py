"""The information-state record on the Game contract and the ``history`` observation."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import yokai_envs
from tests.conformance.toys import SHOWN, PeekGame
from yokai_envs.core.errors import ConfigError
from yokai_envs.core.information import CoreEvent, history_tokens


def test_each_seat_sees_its_own_events_and_the_public_ones_in_order() -> None:
    game = PeekGame(shown=True)
    game.record_information()
    game.reset(0)
    game.step(2)  # seat 0 picks card 2: seat 1 sees a decision, then the card shown to it alone
    game.step(1)
    assert game.seen_events(0) == [(CoreEvent.ACTED, 0, 2), (CoreEvent.ACTED, 1, 1)]
    assert game.seen_events(1) == [(CoreEvent.DECIDED_UNSEEN, 0), (SHOWN, 2), (CoreEvent.ACTED, 1, 1)]
    assert game.information_state(1) == "1 0\n2 2\n0 1 1"
    assert game.public_log(0) == ["card 2", "card 1"]
    assert game.public_log(1)[0] == "seat 0 made a decision"


def test_a_game_that_was_not_recording_rebuilds_its_record_from_the_seed() -> None:
    recorded, plain = PeekGame(shown=True), PeekGame(shown=True)
    recorded.record_information()
    for game in (recorded, plain):
        game.reset(5)
        game.step(1)
    assert plain.information_state(1) == recorded.information_state(1)
    unseeded = PeekGame()
    unseeded.reset(None)
    unseeded.step(0)
    with pytest.raises(RuntimeError, match="record_information"):
        unseeded.information_state(0)


def test_history_tokens_pad_at_the_front() -> None:
    tokens = history_tokens([(0, 1, 5), (2, 3)], 3, 3)
    assert tokens.tolist() == [[-1, -1, -1], [0, 1, 5], [2, 3, -1]]
    assert history_tokens([], 0, 3).shape == (0, 3)


def test_the_history_option_adds_the_last_k_events_to_the_observation() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=3, history=5)
    env.reset(seed=3)
    for _ in range(4):
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    game = env.unwrapped.game
    seat = game.current_player
    history = env.observe(f"player_{seat}")["history"]
    assert history.shape == (5, 1 + game.EVENT_ARGS) and history.dtype == np.int32
    assert env.observation_space(f"player_{seat}")["history"].contains(history)
    expected = history_tokens(game.seen_events(seat)[-5:], 5, 1 + game.EVENT_ARGS)
    assert np.array_equal(history, expected)
    api_test(yokai_envs.make("yonkai_no_yokai_v1", num_players=3, history=3), num_cycles=200)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_a_bad_history_option_is_named(bad: object) -> None:
    with pytest.raises(ConfigError, match="history"):
        yokai_envs.make("yonkai_no_yokai_v1", history=bad)
