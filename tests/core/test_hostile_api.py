"""The Python API under hostile input: non-integer actions are never actions, bool options are
bools, sizes that cannot fit are refused with the memory they need, spec numbers are finite and
given once, and a Ray address that does not answer times out with a clear message."""

from __future__ import annotations

import socket
import time
from decimal import Decimal

import numpy as np
import pytest

import yokai_envs
import yokai_envs.training
from agents.specs import parse_spec
from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.registry import live_id

YONKAI = live_id("yonkai_no_yokai")
ONMYOJI = live_id("onmyoji")

NOT_ACTIONS = [31.7, "31", 1.0, True, Decimal(1)]


def _legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_make_gym_never_plays_a_non_integer(action):
    env = yokai_envs.training.make_gym(ONMYOJI, opponents=["random"])
    env.reset(seed=1)
    steps = env.unwrapped.game.steps
    _, reward, terminated, _, info = env.step(action)  # the default mode: the illegal-action penalty
    assert info.get("illegal_action") is True and terminated and reward == -1.0
    assert env.unwrapped.game.steps == steps
    raising = yokai_envs.training.make_gym(ONMYOJI, opponents=["random"], illegal_action="raise")
    raising.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not an integer action"):
        raising.step(action)
    assert raising.unwrapped.game.steps == steps


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_the_onmyoji_parallel_env_never_plays_a_non_integer(action):
    env = yokai_envs.onmyoji.parallel_env(illegal_action="raise")
    observations, _ = env.reset(seed=1)
    actions = {agent: _legal(obs["action_mask"]) for agent, obs in observations.items()}
    acting = next(iter(actions))
    before = env.state().copy()
    with pytest.raises(IllegalActionError, match="not an integer action"):
        env.step({**actions, acting: action})
    assert np.array_equal(env.state(), before)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"critic_state": "no"}, "option critic_state must be True or False, got str 'no'"),
    ({"mask_in_infos": "no"}, "option mask_in_infos must be True or False, got str 'no'"),
    ({"skip_forced": 1}, "option skip_forced must be True or False, got int 1"),
    ({"learner_seat": True}, "learner_seat True must be None"),
    ({"opponents": "random"}, "opponents must be a list of agent specs"),
])
def test_make_gym_options_of_the_wrong_type_are_refused(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        yokai_envs.training.make_gym(YONKAI, **{"opponents": ["random"], **kwargs})


def test_env_bool_options_are_bools():
    with pytest.raises(ConfigError, match="option mask_in_infos must be True or False, got str 'no'"):
        yokai_envs.make(YONKAI, mask_in_infos="no")


def test_a_history_that_cannot_fit_is_refused_with_its_memory():
    with pytest.raises(ConfigError, match=r"option history=100000000 would need [\d,]+ MiB per observation"):
        yokai_envs.make(YONKAI, history=10**8)
    yokai_envs.make(YONKAI, history=64)


def test_a_huge_num_envs_is_refused_with_its_memory():
    pytest.importorskip("numba")
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=r"num_envs=1000000000 would need about [\d,.]+ GiB"):
        yokai_envs.training.make_vec_gym(YONKAI, 10**9, opponents=["random"])
    assert time.perf_counter() - started < 30


def test_max_cycles_is_named_in_its_own_error():
    from yokai_envs.envs.parallel import parallel_env

    with pytest.raises(ConfigError, match="option max_cycles must be None or a positive int, got -1"):
        parallel_env(YONKAI, max_cycles=-1)


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts:time=inf", "option time must be a finite number"),
    ("ismcts:time=nan", "option time must be a finite number"),
    ("ismcts:c=nan", "option c must be a finite number"),
    ("ismcts:iterations=5;iterations=6", "ismcts option 'iterations' is given twice"),
    ("policy:m.zip;deterministic=true;deterministic=false", "policy option 'deterministic' is given twice"),
    ("trained:m.zip;iterations=5;iterations=6", "trained option 'iterations' is given twice"),
])
def test_spec_numbers_are_finite_and_options_given_once(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(spec)


def test_trained_options_still_override_its_search():
    assert parse_spec("trained:m.zip;iterations=50").options["iterations"] == 50


def test_an_unreachable_ray_address_times_out_with_a_clear_message():
    from agents.arena.ray_backend import check_reachable

    with socket.socket() as listener:  # a port nobody listens on: bind, then close
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
    started = time.perf_counter()
    with pytest.raises(ValueError, match=rf"cannot reach the Ray cluster at 'ray://127.0.0.1:{port}' within 0.5 s"):
        check_reachable(f"ray://127.0.0.1:{port}", timeout=0.5)
    assert time.perf_counter() - started < 5
    check_reachable("auto")  # left to Ray


def test_a_ray_address_without_the_ray_backend_is_refused():
    from agents.arena import run_match

    with pytest.raises(ValueError, match="only used by the ray backend"):
        run_match(ONMYOJI, ["random"], games=2, ray_address="auto")


def test_a_match_too_big_to_schedule_is_refused_at_once():
    from agents.arena import run_match

    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"would schedule 1,000,000,000,000 games"):
        run_match(ONMYOJI, ["random"], games=10**12)
    assert time.perf_counter() - started < 10


def test_workers_are_capped_at_the_machines_cpus(monkeypatch):
    from agents.arena import match, run_match

    monkeypatch.setattr(match.os, "cpu_count", lambda: 1)
    said: list[str] = []
    result = run_match(ONMYOJI, ["random"], games=2, workers=64, log=said.append)
    assert "workers: 64 asked, this machine has 1 CPUs: using 1" in said
    assert len(result.records) == 2
