"""SuperSuit: its observation wrappers on the Box-only variant, and its vector-env path into
sb3-contrib's MaskablePPO with masks (yokai_envs.envs.vector), over the 7 configurations."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

supersuit = pytest.importorskip("supersuit", reason="needs the 'interop' extra: pip install -e '.[interop]'")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from tests.interop.configs import PARAMS  # noqa: E402
from yokai_envs.envs.flat import flat_env, flat_parallel_env  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_supersuit_observation_wrappers_take_the_box_only_env(env_id, options):
    env = flat_env(env_id, **options)
    size = env.observation_space(env.possible_agents[0]).shape[0]
    wrapped = supersuit.frame_stack_v1(supersuit.dtype_v0(env, np.float32), 2)
    assert wrapped.observation_space(wrapped.possible_agents[0]).shape == (2 * size,)
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(wrapped, num_cycles=50)
    with contextlib.redirect_stdout(io.StringIO()):  # sampled without a mask
        parallel_api_test(supersuit.dtype_v0(flat_parallel_env(env_id, **options), np.float32), num_cycles=50)


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_supersuit_vec_env_gives_maskable_ppo_its_masks(env_id, options):
    pytest.importorskip("sb3_contrib", reason="needs the 'train' extra")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from yokai_envs.envs.vector import sb3_vec_env

    venv = sb3_vec_env(env_id, num_envs=2, **options)
    assert is_masking_supported(venv)
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]})
    model.learn(32)
    observations = venv.reset()
    illegal = 0
    for _ in range(60):
        masks = get_action_masks(venv)
        assert masks.shape == (venv.num_envs, venv.num_actions) and masks.any(axis=1).all()
        actions, _ = model.predict(observations, action_masks=masks)
        assert masks[np.arange(venv.num_envs), actions].all()
        observations, _, _, infos = venv.step(actions)
        illegal += sum(bool(info.get("illegal_action")) for info in infos)
    assert illegal == 0
    venv.close()
