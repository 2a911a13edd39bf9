"""Tianshou: ``PettingZooEnv`` + ``MultiAgentPolicy`` collecting whole games of every
configuration, and examples/tianshou_multiagent.py (DQN vs random seats) at a tiny budget."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tianshou", reason="needs the 'interop' extra: pip install -e '.[interop]'")

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv

import yokai_envs
from tests.interop.configs import PARAMS

pytestmark = pytest.mark.filterwarnings("ignore")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tianshou_multiagent.py"


@pytest.mark.slow  # the first one compiles Tianshou's numba code (about 20 s)
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_multi_agent_policy_collects_whole_games(env_id, options):
    np.random.seed(0)
    env = PettingZooEnv(yokai_envs.make(env_id, **options))
    policy = MultiAgentPolicy({agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(env.action_space)
                               for agent in env.agents})
    envs = DummyVectorEnv([lambda: PettingZooEnv(yokai_envs.make(env_id, **options)) for _ in range(2)])
    envs.seed(0)
    stats = Collector(policy, envs).collect(n_episode=2, reset_before_collect=True)
    assert stats.n_collected_episodes >= 2
    returns = np.asarray(stats.returns)
    assert returns.shape[-1] == len(env.agents)


@pytest.mark.slow
def test_the_tianshou_example_runs_at_a_tiny_budget():
    main = runpy.run_path(str(EXAMPLE))["main"]
    summary = main(["--epochs", "1", "--steps-per-epoch", "100", "--envs", "1"])
    assert summary["env_steps"] >= 100 and summary["test_episodes"] >= 4
