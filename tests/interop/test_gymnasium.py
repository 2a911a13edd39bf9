"""gymnasium: the single-seat env's checker, seeds, masks, registered ids and vector envs in
both autoreset modes, over the 7 interop configurations."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import yokai_envs
import yokai_envs.training
from tests.interop.configs import PARAMS
from yokai_envs.envs.gymnasium_ids import GYM_IDS

pytestmark = pytest.mark.filterwarnings("ignore")


def _make(env_id: str, options: dict, **more):
    return yokai_envs.training.make_gym(env_id, opponents=["random"], **{**options, **more})


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_gymnasium_check_env_through_the_registered_id(env_id, options):
    env = gym.make(GYM_IDS[env_id], **options)
    check_env(env.unwrapped, skip_render_check=True)
    assert env.unwrapped.env_id == env_id


def test_every_env_id_is_registered_and_make_vec_works():
    yokai_envs.register_gymnasium()
    assert set(GYM_IDS) == set(yokai_envs.ENV_IDS)
    for gid in GYM_IDS.values():
        assert gid in gym.registry
    env_id = yokai_envs.ENV_IDS[0]
    vec = gym.make_vec(GYM_IDS[env_id], num_envs=2, vectorization_mode="sync")
    observations, _ = vec.reset(seed=0)
    assert observations.shape[0] == 2
    vec.close()


def test_ids_register_on_import_when_gymnasium_is_loaded_first():
    import subprocess
    import sys

    code = ("import gymnasium as gym, yokai_envs; "
            f"env = gym.make({next(iter(GYM_IDS.values()))!r}); print(env.reset(seed=0)[0].shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("(")


def _episode(env, seed: int, steps: int = 60) -> list:
    observation, info = env.reset(seed=seed)
    trace = [observation.tobytes(), info["learner_seat"]]
    rng = np.random.default_rng(0)
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        trace += [observation.tobytes(), reward]
        if terminated or truncated:
            break
    return trace


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_seeded_reset_replays_the_episode_on_a_reused_env(env_id, options):
    fresh = _episode(_make(env_id, options), seed=11)
    reused = _make(env_id, options)
    for seed in (3, 4, 5):  # play a few other episodes first: seat rotation, built opponents
        _episode(reused, seed)
    reused.reset()
    assert _episode(reused, seed=11) == fresh
    assert _episode(reused, seed=11) == fresh


@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_action_masks_before_reset_and_after_the_end_are_all_true(env_id, options):
    env = _make(env_id, options)
    assert env.action_masks().all() and env.action_masks().shape == (env.action_space.n,)
    env.reset(seed=0)
    assert env.action_masks().any()
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
    assert env.action_masks().all()


def _masked_logits(masks: np.ndarray) -> np.ndarray:
    """What a masked policy computes: logits with -inf where the mask is False, then softmax."""
    logits = np.zeros(masks.shape)
    logits[~masks] = -np.inf
    shifted = logits - logits.max(axis=1, keepdims=True)
    return np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_vector_env_masks_are_never_all_false(env_id, options, mode):
    envs = SyncVectorEnv([lambda: _make(env_id, options, mask_in_infos=True) for _ in range(3)], autoreset_mode=mode)
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(300):  # random Onmyoji Co-op games average about 170 steps: 150 could end none
        masks = np.stack(envs.call("action_masks"))
        assert masks.any(axis=1).all(), "an all-False mask while an action is asked"
        probabilities = _masked_logits(masks)
        assert not np.isnan(probabilities).any()
        actions = np.array([rng.choice(len(p), p=p) for p in probabilities])
        _, _, terminated, truncated, infos = envs.step(actions)
        episodes += int(np.sum(terminated | truncated))
        if mode == AutoresetMode.SAME_STEP:  # the mask in infos belongs to the observation returned
            assert np.array_equal(np.stack(envs.call("action_masks")), infos["action_mask"])
    envs.close()
    assert episodes > 0 or env_id.startswith(("yokaizo", "yyh"))


@pytest.mark.slow
@pytest.mark.parametrize("autoreset", ["next", "same"])
def test_the_cleanrl_masked_ppo_example_runs_at_a_tiny_budget(autoreset):
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "cleanrl_masked_ppo.py"
    main = runpy.run_path(str(example))["main"]
    summary = main(["--env", "onmyoji_v5" if "onmyoji_v5" in yokai_envs.ENV_IDS else yokai_envs.ENV_IDS[0],
                    "--autoreset", autoreset, "--total-timesteps", "512", "--num-envs", "2", "--num-steps", "128"])
    assert summary["nan_logprob_rows"] == 0 and summary["episodes"] > 0
