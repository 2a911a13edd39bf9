"""The lean AEC path: the env checks call order itself, as PettingZoo's
``OrderEnforcingWrapper`` did, and what it hands out never changes under the caller."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

import yokai_envs
from yokai_envs.cli.bench import random_aec_steps
from yokai_envs.envs.aec import BEFORE_RESET, YokaiAECEnv

ENV_IDS = sorted(yokai_envs.ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_returns_the_env_itself_with_order_checks(env_id: str) -> None:
    env = yokai_envs.make(env_id)
    assert isinstance(env, YokaiAECEnv) and env.unwrapped is env
    for name in BEFORE_RESET:
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.state, env.agent_iter, env.render):
        with pytest.raises(AssertionError, match="reset"):
            call()
    with pytest.raises(AttributeError, match="no attribute 'not_there'"):
        env.not_there  # noqa: B018
    env.reset(seed=0)
    assert env.num_agents == len(env.agents) > 0


def test_raw_env_keeps_no_order_checks() -> None:
    from yokai_envs.yonkai_no_yokai import env as module

    raw = module.raw_env()
    assert raw.agents == []


def test_agent_iter_requires_a_step_per_agent() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1")
    env.reset(seed=0)
    iterator = iter(env.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="need to call step"):
        next(iterator)


def test_step_with_no_agents_left_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1")
    env.reset(seed=0)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agents == []
    warned: list[bool] = []
    monkeypatch.setattr(EnvLogger, "warn_step_after_terminated_truncated", lambda: warned.append(True))
    env.step(None)
    assert warned == [True]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_handed_out_observations_never_change_later(env_id: str) -> None:
    env = yokai_envs.make(env_id)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    kept: list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]] = []
    for _agent in env.agent_iter(max_iter=300):
        observation, _, terminated, truncated, _ = env.last()
        kept.append((observation, {k: v.copy() for k, v in observation.items()}))
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    for handed, copy in kept:
        for key, value in copy.items():
            assert np.array_equal(handed[key], value)


def test_rewards_are_zeroed_after_a_round_end() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=3, reward="lives")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    seen_nonzero = False
    last_returns = np.zeros(3)
    for _ in random_aec_steps(env, rng):
        returns = np.array(env.unwrapped.game.returns(), dtype=float)
        delta = returns - last_returns
        last_returns = returns
        assert [env.rewards[a] for a in env.possible_agents if a in env.rewards] == pytest.approx(
            [delta[i] for i, a in enumerate(env.possible_agents) if a in env.rewards])
        seen_nonzero |= bool(delta.any())
    assert seen_nonzero


def test_a_pickled_env_keeps_its_order_checks() -> None:
    import pickle

    env = pickle.loads(pickle.dumps(yokai_envs.make("yonkai_no_yokai_v1", num_players=3)))
    assert env.unwrapped.game.num_players == 3
    with pytest.raises(AttributeError, match="agents cannot be accessed before reset"):
        env.agents  # noqa: B018
    from yokai_envs.registry import make_raw

    raw = pickle.loads(pickle.dumps(make_raw("yonkai_no_yokai_v1")))
    assert raw.agents == []
