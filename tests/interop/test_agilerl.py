"""AgileRL: its multi-agent algorithms read each agent's mask from ``infos[agent]["action_mask"]``
of a Parallel env. The option ``mask_in_infos=True`` puts it there (checked here without
AgileRL); AgileRL itself cannot be installed beside our pins, so its own run skips, saying why.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from tests.interop.configs import PARAMS
from yokai_envs.envs.parallel import parallel_env

pytestmark = pytest.mark.filterwarnings("ignore")

# Checked with `pip install --dry-run agilerl` on 2026-12-01.
AGILERL_PINS = ("agilerl 2.58.0 requires pettingzoo<1.27 (we run pettingzoo 1.27.0; pip would downgrade it to "
                "1.26.1 in a venv other projects share) and pulls jax, wandb, minari, google-cloud-storage and "
                "redis; it stays out of the interop extra")


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_parallel_infos_carry_every_agents_mask(env_id, options):
    env = parallel_env(env_id, mask_in_infos=True, **options)
    observations, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        for agent in env.agents:
            assert np.array_equal(infos[agent]["action_mask"], observations[agent]["action_mask"])
            assert infos[agent]["action_mask"].any()
        actions = {agent: int(rng.choice(np.flatnonzero(infos[agent]["action_mask"]))) for agent in env.agents}
        observations, _, _, _, infos = env.step(actions)
        if not env.agents:
            observations, infos = env.reset()


@pytest.mark.skipif(importlib.util.find_spec("agilerl") is None, reason=AGILERL_PINS)
def test_agilerl_is_importable_beside_the_envs():  # runs only where AgileRL could be installed
    import agilerl  # noqa: F401

    env = parallel_env("yonkai_no_yokai_v1", mask_in_infos=True)
    _, infos = env.reset(seed=0)
    assert all("action_mask" in infos[agent] for agent in env.agents)
