"""The single-seat gymnasium wrapper: reward attribution, seats, opponents, masks, SB3 checks."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from tests.training.toy_game import ConstantAgent, GiftsGame
from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.core.game import win_credits
from yokai_envs.training import make_gym
from yokai_envs.training.gym_env import YokaiGymEnv

YONKAI = "yonkai_no_yokai_v1"


def play_out(env: YokaiGymEnv, action: int) -> tuple[list[float], dict]:
    rewards, done, info = [], False, {}
    while not done:
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    return rewards, info


def test_learner_reward_sums_the_opponents_moves_and_never_theirs():
    # Seat 0 learns and gives 1 to seat 1; the bots give 2 to the next seat. Moves: 0,1,2,0,1,2.
    bot = ConstantAgent(1)
    env = YokaiGymEnv(GiftsGame, opponents=[bot], learner_seat=0)
    env.reset(seed=0)
    rewards, info = play_out(env, 0)
    # After each learner move, seat 1 gifts seat 2 (not ours) and seat 2 gifts us 2.
    assert rewards == [2.0, 2.0]
    assert info["returns"] == [4.0, 2.0, 4.0]  # seat 1's two gifts from us never count for us
    assert info["learner_seat"] == 0
    assert info["win"] == 0.5  # tied on top with seat 2
    assert bot.calls == 4


def test_reward_earned_before_the_first_decision_comes_with_the_first_step():
    env = YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(1)], learner_seat=1)
    env.reset(seed=0)  # seat 0 already moved: it gave the learner 2
    rewards, info = play_out(env, 2)
    assert rewards == [2.0 + 2.0, 0.0]  # 2 before + 2 from seat 0's second move; then the game ends
    assert info["returns"][1] == 4.0
    assert sum(rewards) == info["returns"][1]


def test_learner_seat_rotates_each_episode_and_observation_is_the_learners():
    env = YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(0)])
    seats = []
    for episode in range(6):
        obs, info = env.reset(seed=3 if episode == 0 else None)
        seats.append(info["learner_seat"])
        assert obs[info["learner_seat"]] == 1.0  # the one-hot seat of the observation is ours
        play_out(env, 0)
    assert sorted(seats[:3]) == [0, 1, 2] and seats[3:] == seats[:3]


def test_opponents_are_sampled_by_weight():
    zero, one = ConstantAgent(0), ConstantAgent(1)
    env = YokaiGymEnv(GiftsGame, opponents=[zero, one], opponent_weights=[0.0, 1.0], learner_seat=0)
    env.reset(seed=1)
    play_out(env, 0)
    assert zero.calls == 0 and one.calls == 4
    env.set_opponent_pool([zero], [1.0])
    env.reset()
    play_out(env, 0)
    assert zero.calls == 4


def test_illegal_action_penalized_or_raised():
    env = YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(0)], learner_seat=0)
    env.reset(seed=0)
    assert env.action_masks().tolist() == [True, True, False]
    _, reward, terminated, truncated, info = env.step(2)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(0)], learner_seat=0, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(2)


def test_coop_learner_plays_every_seat_and_solo_needs_no_opponents():
    coop = YokaiGymEnv(GiftsGame, num_players=2, mode="coop", moves=4)
    obs, _ = coop.reset(seed=0)
    seats_seen = []
    done = False
    while not done:
        seats_seen.append(int(np.argmax(obs[:2])))
        obs, reward, terminated, truncated, _ = coop.step(1)
        assert reward == 1.0  # the team's (mean) return grows by 1 per move, every move is ours
        done = terminated or truncated
    assert seats_seen == [0, 1, 0, 1]
    solo = YokaiGymEnv(GiftsGame, num_players=1, moves=3)
    solo.reset(seed=0)
    rewards, info = play_out(solo, 1)
    assert rewards == [2.0, 2.0, 2.0] and info["win"] == 1.0


def test_missing_opponents_and_bad_seat_are_clear_errors():
    with pytest.raises(ConfigError, match="needs at least one opponent"):
        YokaiGymEnv(GiftsGame)
    with pytest.raises(ConfigError, match="learner_seat 5"):
        YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(0)], learner_seat=5)


def test_win_share():
    assert win_credits([1, -1, -1, -1])[0] == 1.0
    assert win_credits([1, 1, -1, -1])[1] == 0.5
    assert win_credits([1, -1, -1, -1])[2] == 0.0
    assert win_credits([0.0])[0] == 0.5
    assert win_credits([2.0, 2.0], cooperative=True)[1] == 1.0


def test_check_env_passes_toy_and_yonkai():
    check_env(YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(0)]))
    check_env(make_gym(YONKAI, opponents=["random"], num_players=4))


@pytest.mark.parametrize("vec_cls", [DummyVecEnv, pytest.param(SubprocVecEnv, marks=pytest.mark.slow)])
def test_vec_envs_step_and_expose_masks(vec_cls):
    fns = [functools.partial(make_gym, YONKAI, opponents=["random"], num_players=3) for _ in range(2)]
    vec = vec_cls(fns)
    try:
        vec.seed(0)
        vec.reset()
        rng = np.random.default_rng(0)
        for _ in range(30):
            masks = np.stack(vec.env_method("action_masks"))
            actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
            vec.step(np.array(actions))
        vec.env_method("set_opponent_pool", ["random"], [1.0])
    finally:
        vec.close()


def test_envs_share_a_policy_opponent_but_never_a_mixture_whose_drawn_network_is_its_games():
    """One loaded network serves every env of a process; a mixture draws its network per game, so
    an env that starts a game must not switch the network another env's game is playing."""
    from agents.pretrained import find
    from yokai_envs.registry import ENV_IDS

    duel = {"mode": "duel"}
    env_id = next(e for e in ENV_IDS if e.startswith("onmyoji_v"))
    single = f"policy:{find(env_id, duel, generation=3).path};deterministic=false"
    mixture = f"policy:{find(env_id, duel).path};deterministic=false"
    for spec, shared in ((single, True), (mixture, False)):
        envs = [make_gym(env_id, opponents=[spec], **duel) for _ in range(2)]
        for seed, env in enumerate(envs):
            env.reset(seed=seed)
        opponents = [next(a for a in env._seat_agents if a is not None) for env in envs]
        assert (opponents[0] is opponents[1]) is shared
        if not shared:
            drawn = opponents[1].member
            envs[0].reset(seed=7)  # a new game elsewhere
            assert opponents[1].member == drawn
