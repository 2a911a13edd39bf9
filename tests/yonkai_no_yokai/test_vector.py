"""VectorGame against the scalar engine: the same deals, the same decisions, every step equal.

The vector engine exports its deals through its state (a fresh round's hands are the deal, the
first leader is ``to_act``): the scalar game takes them over at each new game and round, and
everything after that (masks, every seat's observation, the state tensor, rewards, the end,
the winners, the next round's leader) must come out of its own rules, equal bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from yokai_envs.core.errors import ConfigError, IllegalActionError

pytest.importorskip("numba")

from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.vector import VectorGame

CONFIGS: list[dict[str, Any]] = [
    {"num_players": 4},
    {"num_players": 3},
    {"num_players": 4, "reward": "lives"},
    {"num_players": 3, "reward": "lives", "rounds_per_game": 2},
    {"num_players": 4, "rounds_per_game": 1},
    {"num_players": 4, "max_steps": 90},  # some games are truncated
]


def _take_deal(game: YonkaiGame, vg: VectorGame, i: int, new_game: bool) -> None:
    """The scalar game takes over game ``i``'s deal (and at a new game its first leader)."""
    if new_game:
        game.reset(seed=0)
        game.state.to_act = int(vg.to_act[i])
    game.state.hands[:] = vg.hands[i]
    game.state.hand_sizes = [int(x) for x in vg.hand_sizes[i]]
    game.invalidate_mask()
    game.check_invariants()


def _assert_same(game: YonkaiGame, vg: VectorGame, i: int, masks: np.ndarray, obs: list[np.ndarray],
                 states: np.ndarray) -> None:
    where = f"game {i}, step {game.steps}"
    assert np.array_equal(masks[i], game.legal_action_mask()), where
    for seat in range(game.num_players):
        assert np.array_equal(obs[seat][i], game.observation(seat)), f"{where}, seat {seat}"
    assert np.array_equal(states[i], game.state_tensor()), where
    assert vg.current_player[i] == game.current_player, where
    assert list(vg.returns[i]) == list(game.returns()), where


def play_both(options: dict[str, Any], num_games: int, finished_games: int, seed: int) -> int:
    """Random play of ``num_games`` slots side by side until ``finished_games`` games ended;
    returns the decisions compared."""
    vg = VectorGame(num_games, autoreset=False, seed=seed, **options)
    games = [YonkaiGame(**options) for _ in range(num_games)]
    for i, game in enumerate(games):
        _take_deal(game, vg, i, new_game=True)
    finished = decisions = 0
    n = vg.num_players
    while finished < finished_games:
        vg.check_invariants()
        masks = vg.masks()
        obs = [vg.observe(seat) for seat in range(n)]
        states = vg.state_tensors()
        for i, game in enumerate(games):
            _assert_same(game, vg, i, masks, obs, states)
        over = vg.is_over.copy()
        if over.any():
            finished += int(over.sum())
            vg.reset_games(over)
            for i in np.flatnonzero(over):
                _take_deal(games[i], vg, int(i), new_game=True)
            continue
        actions = vg.random_actions()
        rounds_before = vg.rounds_completed.copy()
        before = [np.array(g.returns(), dtype=np.float64) for g in games]
        rewards, terminated, truncated = vg.step(actions)
        for i, game in enumerate(games):
            game.step(int(actions[i]))
            where = f"game {i}, step {game.steps}"
            assert np.array_equal(rewards[i], np.asarray(game.returns()) - before[i]), where
            assert terminated[i] == game.is_terminal and truncated[i] == game.is_truncated, where
            if terminated[i]:
                assert sorted(np.flatnonzero(vg.winners[i]).tolist()) == sorted(game.winners), where
                continue
            if truncated[i]:
                assert not vg.winners[i].any(), where
            if vg.rounds_completed[i] != rounds_before[i]:
                _take_deal(game, vg, i, new_game=False)  # a new round was dealt (also on a truncating step)
        decisions += num_games
    return decisions


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_vector_engine_equals_scalar_engine(options: dict[str, Any]) -> None:
    assert play_both(options, num_games=16, finished_games=50, seed=1) > 0


@pytest.mark.soak
@pytest.mark.parametrize("options", CONFIGS[:4], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_vector_engine_equals_scalar_engine_soak(options: dict[str, Any]) -> None:
    play_both(options, num_games=64, finished_games=10_000, seed=2)


def test_autoreset_is_reset_games_at_once() -> None:
    """autoreset deals the next game inside step with the same draws as reset_games afterwards."""
    auto = VectorGame(32, seed=5)
    manual = VectorGame(32, autoreset=False, seed=5)
    ended = 0
    for _ in range(600):
        actions = auto.random_actions()
        assert np.array_equal(actions, manual.random_actions())  # both draw from their own generators
        rewards, terminated, _ = auto.step(actions)
        kept = rewards.copy(), terminated.copy(), winners_of(auto, terminated)
        rewards2, terminated2, _ = manual.step(actions)
        assert np.array_equal(kept[0], rewards2) and np.array_equal(kept[1], terminated2)
        assert np.array_equal(kept[2], winners_of(manual, terminated2))
        ended += int(terminated2.sum())
        manual.reset_games(manual.is_over)
        for name in VectorGame.STATE_ARRAYS:
            assert np.array_equal(getattr(auto, name), getattr(manual, name)), name
    assert ended > 0


def winners_of(vg: VectorGame, terminated: np.ndarray) -> np.ndarray:
    return vg.winners[terminated].copy()


def test_deals_are_whole_decks_and_games_depend_on_their_seed_alone() -> None:
    small, big = VectorGame(3, seed=9), VectorGame(50, seed=9)
    assert np.array_equal(small.hands, big.hands[:3]) and np.array_equal(small.to_act, big.to_act[:3])
    vg = VectorGame(2000, num_players=3, seed=3)
    assert (vg.hands.sum(axis=2) == 16).all() and (vg.hands.sum(axis=1) == 8).all()
    # every seat is dealt each value about equally often, and every seat leads about equally often
    mean = vg.hands.mean(axis=0)
    assert np.abs(mean - 8 / 3).max() < 0.15
    assert np.abs(np.bincount(vg.to_act, minlength=3) / 2000 - 1 / 3).max() < 0.05
    other = VectorGame(3, seed=10)
    assert not np.array_equal(other.hands, small.hands)


def test_state_is_small() -> None:
    for n in (3, 4):
        assert VectorGame(8, num_players=n).state_bytes_per_game() <= 256


def test_bad_input_is_refused_and_changes_nothing() -> None:
    vg = VectorGame(4, seed=0)
    before = vg.hands.copy(), vg.to_act.copy()
    actions = vg.random_actions()
    bad = actions.copy()
    bad[2] = 0 if vg.last_count[2] == 0 else 48  # a pass at a lead / an unlikely button play
    if vg.masks()[2, bad[2]]:
        bad[2] = 49
    with pytest.raises(IllegalActionError, match="game 2"):
        vg.step(bad)
    assert np.array_equal(vg.hands, before[0]) and np.array_equal(vg.to_act, before[1])
    with pytest.raises(ValueError, match="actions"):
        vg.step(actions[:3])
    with pytest.raises(ValueError, match="actions"):
        vg.step(actions.astype(float))
    for options in ({"num_players": 5}, {"reward": "cubes"}, {"rounds_per_game": 0}, {"max_steps": 0}):
        with pytest.raises(ConfigError):
            VectorGame(4, **options)
    with pytest.raises(ConfigError):
        VectorGame(0)
    stopped = VectorGame(2, autoreset=False, rounds_per_game=1, seed=0)
    while not stopped.is_over.any():
        stopped.step(stopped.random_actions(active=~stopped.is_over), active=~stopped.is_over)
    done = int(np.flatnonzero(stopped.is_over)[0])
    assert not stopped.masks()[done].any() and stopped.current_player[done] == -1
    with pytest.raises(IllegalActionError, match="has ended"):
        stopped.step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize("num_players", [3, 4])
def test_batched_heuristic_equals_the_heuristic_agent(num_players: int) -> None:
    """batch_actions makes HeuristicAgent.act's decision at every decision of games where some
    seats play it and the others play at random (so both common and odd positions come up)."""
    from agents.heuristics.yonkai_no_yokai import HeuristicAgent, batch_actions

    agent = HeuristicAgent()
    vg = VectorGame(64, num_players=num_players, seed=4)
    heuristic_seats = np.random.default_rng(0).random((64, num_players)) < 0.6
    compared = kinds = 0
    seen = set()
    for _ in range(400):
        seats = vg.to_act.astype(np.int64)
        masks = vg.masks()
        obs = vg.observe(seats)
        hands = vg.hands[np.arange(64), seats]
        batched = batch_actions(hands, masks)
        for i in range(64):
            assert batched[i] == agent.act(obs[i], masks[i]), f"decision {compared}: game {i}"
            seen.add(int(batched[i]))
        compared += 64
        actions = np.where(heuristic_seats[np.arange(64), seats], batched, vg.random_actions())
        vg.step(actions)
    kinds = len(seen)
    assert kinds > 20  # passes, leads, sets and button plays all came up


def test_without_numba_it_refuses_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    from yokai_envs.yonkai_no_yokai import vector

    monkeypatch.setattr(vector, "numba_available", lambda: False)
    with pytest.raises(ImportError, match=r"numba.*fast"):
        VectorGame(4)
