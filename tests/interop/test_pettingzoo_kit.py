"""PettingZoo's whole test kit on every configuration (tests/interop/configs.py: 7 of them).

The kit samples actions without the mask: ``action_space(agent).sample()`` draws a legal action
of the pending decision (:class:`yokai_envs.envs.spaces.LegalDiscrete`), and an illegal action
ends the game with -1 for the offender by default (PettingZoo's classic games), so the AEC env
never raises in the kit. The turn-based games' Parallel view is
:class:`yokai_envs.envs.parallel.TurnParallelEnv`; Onmyoji has its own Parallel env.
"""

from __future__ import annotations

import contextlib
import io
import itertools

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
    state_test,
)

import yokai_envs
from tests.interop.configs import PARAMS
from yokai_envs.core.errors import IllegalActionError
from yokai_envs.envs.flat import flat_env, flat_parallel_env
from yokai_envs.envs.parallel import parallel_env, pettingzoo_module

pytestmark = pytest.mark.filterwarnings("ignore")

def _quiet(fn, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args, **kwargs)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_api_test_aec_and_box_only(env_id, options):
    _quiet(api_test, yokai_envs.make(env_id, **options), num_cycles=200)
    _quiet(api_test, flat_env(env_id, **options), num_cycles=200)
    _quiet(api_test, yokai_envs.make(env_id, mask_in_infos=True, history=4, **options), num_cycles=100)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_seed_test(env_id, options):
    seed_test(lambda: yokai_envs.make(env_id, **options), num_cycles=200)
    seed_test(lambda: flat_env(env_id, mask_in_infos=True, **options), num_cycles=100)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_render_test(env_id, options):
    _quiet(render_test, lambda render_mode=None: yokai_envs.make(env_id, render_mode=render_mode, **options))


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_state_test(env_id, options):
    state_test(yokai_envs.make(env_id, **options), parallel_env(env_id, **options), num_cycles=50)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_parallel_api_test(env_id, options):
    parallel_api_test(parallel_env(env_id, **options), num_cycles=200)
    parallel_api_test(flat_parallel_env(env_id, **options), num_cycles=100)


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_parallel_seed_test(env_id, options):
    parallel_seed_test(lambda: parallel_env(env_id, **options), num_cycles=200)


class _SeededModule:
    """``pettingzoo_module`` whose envs' first unseeded reset uses ``seed`` (the kit resets
    without one; this makes the test repeatable)."""

    def __init__(self, env_id: str, options: dict, seed: int) -> None:
        self._module = pettingzoo_module(env_id, **options)
        self._seed = seed

    def env(self, **options):
        env = self._module.env(**options)
        reset, seed = env.reset, self._seed

        def seeded_reset(seed_=None, options=None):
            reset(seed=seed if seed_ is None else seed_, options=options)
            for i, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(seed + i)
        env.reset = lambda seed=None, options=None: seeded_reset(seed, options)
        return env

    def parallel_env(self, **options):
        env = self._module.parallel_env(**options)
        reset, seed = env.reset, self._seed

        def seeded_reset(seed_=None, options=None):
            out = reset(seed=seed if seed_ is None else seed_, options=options)
            for i, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(seed + i)
            return out
        env.reset = lambda seed=None, options=None: seeded_reset(seed, options)
        return env


# Where every seat decides in turn, no seat decides K+1 times before the median seat decided K
# times; where one seat takes several decisions in a row (YOKAIZO's multi-part choices, Onmyoji's
# card then its effect) or sits out a trick (Yonkai no Yokai with 4), the median seat often has
# fewer, and no per-seat step cap can make PettingZoo's AEC check (max and median seat both at
# max_cycles) hold. The Parallel half of the test (exactly max_cycles parallel steps) must pass.
# The configurations where that happens, each with its reason: an expected failure, decided and
# documented (docs/interop.md, note (a)), shown with its reason in every test report (-rx).
UNEVEN_TURNS = {
    ("yonkai_no_yokai", "num_players=4"): "with 4 players a seat sits out a trick",
    ("onmyoji", "mode=duel"): "a card and then its effect are two decisions in a row by one seat",
    ("onmyoji", "mode=coop"): "a card and then its effect are two decisions in a row by one seat",
    ("yokaizo", ""): "a multi-part choice is several decisions in a row by one seat",
}


def _uneven_reason(env_id: str, options: dict) -> str | None:
    key = (env_id.rpartition("_v")[0], ",".join(f"{k}={v}" for k, v in options.items()))
    return UNEVEN_TURNS.get(key)


def _max_cycles_params() -> list:
    params = []
    for param in PARAMS:
        env_id, options = param.values
        reason = _uneven_reason(env_id, options)
        marks = [pytest.mark.xfail(raises=AssertionError, strict=False, reason=(
            f"decided, not a bug (docs/interop.md (a)): {reason}, so PettingZoo's median seat lags the "
            "busiest; no seat exceeds max_cycles decisions"))] if reason else []
        params.append(pytest.param(env_id, options, id=param.id, marks=marks))
    return params


def _turns_in_rotation(module: _SeededModule, max_cycles: int = 4) -> bool:
    """Whether ``module``'s AEC game asks its seats strictly in turn up to and including the
    decision a ``max_cycles`` cap would stop (played uncapped: the same seeded samples, one
    decision further, so the seat the cap stopped is seen)."""
    env = module.env()
    env.reset()
    n = len(env.possible_agents)
    asked: list[int] = []
    for agent in env.agent_iter():
        done = env.terminations[agent] or env.truncations[agent]
        if not done:
            asked.append(env.possible_agents.index(agent))
            if len(asked) > max_cycles * n:
                break
        env.step(None if done else env.action_space(agent).sample())
    return all(b == (a + 1) % n for a, b in itertools.pairwise(asked))


def _parallel_steps(module: _SeededModule, max_cycles: int = 4) -> int:
    env = module.parallel_env(max_cycles=max_cycles)
    env.reset()
    for step in range(max_cycles + 10):  # noqa: B007
        env.step({agent: env.action_space(agent).sample() for agent in env.agents})
        if not env.agents:
            break
    return step + 1


@pytest.mark.parametrize(("env_id", "options"), _max_cycles_params())
def test_max_cycles_test(env_id, options):
    uneven = []
    for seed in range(10):
        module = _SeededModule(env_id, options, seed)
        assert _parallel_steps(module) == 4, "the Parallel half must hold everywhere"
        try:
            _quiet(max_cycles_test, module)
        except AssertionError:
            # never excused where seats took turns in rotation, nor in a configuration not declared
            if _turns_in_rotation(module):
                pytest.fail(f"seed {seed}: max_cycles_test failed with turns in rotation")
            if _uneven_reason(env_id, options) is None:
                pytest.fail(f"seed {seed}: uneven turns in a configuration not declared in UNEVEN_TURNS")
            uneven.append(seed)
    assert not uneven, f"seeds {uneven} of 10: {_uneven_reason(env_id, options)}"


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_performance_benchmark(env_id, options):
    _quiet(performance_benchmark, yokai_envs.make(env_id, **options))


# ---------------------------------------------------------------------- the illegal-action modes
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_aec_default_penalizes_like_pettingzoo_and_raise_is_an_option(env_id, options, caplog):
    env = yokai_envs.make(env_id, **options)
    env.reset(seed=0)
    observation, *_ = env.last()
    illegal = np.flatnonzero(observation["action_mask"] == 0)
    if illegal.size == 0:
        pytest.skip("first decision has every action legal")
    offender = env.agent_selection
    env.step(int(illegal[0]))
    assert "Illegal move" in caplog.text  # PettingZoo's own warning, through its EnvLogger
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in env._cumulative_rewards.items() if a != offender)
    assert env.infos[offender]["illegal_action"] is True
    _, _, terminated, _, _ = env.last()
    assert terminated and not env.observe(offender)["action_mask"].any()
    strict = yokai_envs.make(env_id, illegal_action="raise", **options)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(int(illegal[0]))


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_parallel_illegal_action_modes(env_id, options):
    for mode in ("penalize", "raise"):
        env = parallel_env(env_id, illegal_action=mode, **options)
        observations, _ = env.reset(seed=0)
        actions = {}
        for agent, observed in observations.items():
            illegal = np.flatnonzero(observed["action_mask"] == 0)
            actions[agent] = int(illegal[0])
        if mode == "raise":
            with pytest.raises(IllegalActionError):
                env.step(actions)
            continue
        _, rewards, terminations, _, _ = env.step(actions)
        assert all(terminations.values()) and min(rewards.values()) == -1.0


# ---------------------------------------------------------------------- options
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_mask_in_infos_matches_the_observation(env_id, options):
    env = yokai_envs.make(env_id, mask_in_infos=True, **options)
    env.reset(seed=3)
    for agent in env.agent_iter(300):
        _, _, terminated, truncated, _ = env.last()
        for other in env.agents:
            assert np.array_equal(env.infos[other]["action_mask"], env.observe(other)["action_mask"])
        env.step(None if terminated or truncated else int(env.action_space(agent).sample()))


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_action_space_sample_is_legal_and_seeded(env_id, options):
    env = yokai_envs.make(env_id, **options)
    env.reset(seed=5)
    env.action_space(env.agent_selection).seed(0)
    for agent in env.agent_iter(300):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = env.action_space(agent).sample()
        assert observation["action_mask"][action] == 1
        assert env.action_space(agent).contains(action)
        env.step(action)
    assert env.unwrapped.game.steps > 0


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_max_cycles_caps_each_seats_decisions(env_id, options):
    env = yokai_envs.make(env_id, max_cycles=3, **options)
    env.reset(seed=1)
    counts = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        counts[agent] += 1
        env.step(env.action_space(agent).sample())
    assert max(counts.values()) <= 3
    game = env.unwrapped.game
    assert game.is_truncated or game.is_terminal
    with pytest.raises(ValueError, match="max_cycles"):
        yokai_envs.make(env_id, max_cycles=0, **options)
    gym = yokai_envs.make_game(env_id, max_cycles=2, **options)
    assert gym.max_cycles == 2


def test_the_readme_parallel_line_works_in_a_fresh_interpreter():
    import subprocess
    import sys

    code = ("import yokai_envs; env = yokai_envs.onmyoji.parallel_env(mode='duel'); "
            "obs, infos = env.reset(seed=0); print(sorted(obs))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "player_0" in out.stdout
