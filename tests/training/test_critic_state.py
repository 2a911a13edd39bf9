"""Centralized critic: the critic sees the state, the actor never does, and the export matches."""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env

import yokai_envs
import yokai_envs.training
from tests.training.toy_game import ConstantAgent, GiftsGame
from yokai_envs.training.common.policies import StateCriticPolicy, export_actor
from yokai_envs.training.gym_env import YokaiGymEnv

YONKAI = "yonkai_no_yokai_v1"


def test_critic_state_appends_the_state_to_the_observation():
    env = YokaiGymEnv(GiftsGame, opponents=[ConstantAgent(1)], learner_seat=0, critic_state=True)
    obs, _ = env.reset(seed=0)
    game = env.game
    assert obs.shape == (game.observation_size + game.state_size,)
    assert np.array_equal(obs[:game.observation_size], game.observation(0))
    assert np.array_equal(obs[game.observation_size:], game.state_tensor())
    check_env(env)


def _probs(policy, obs, mask):
    with torch.no_grad():
        tensor, _ = policy.obs_to_tensor(obs)
        return policy.get_distribution(tensor, action_masks=mask).distribution.probs[0].numpy()


def test_actor_ignores_the_state_and_the_export_acts_the_same(tmp_path):
    env = yokai_envs.training.make_gym(YONKAI, opponents=["random"], num_players=4, critic_state=True)
    n = env.actor_obs_size
    model = MaskablePPO(StateCriticPolicy, env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32], "actor_obs_size": n})
    model.learn(128)
    obs, _ = env.reset(seed=1)
    mask = env.action_masks()
    scrambled = obs.copy()
    scrambled[n:] = np.random.default_rng(0).normal(size=obs.size - n)
    assert np.allclose(_probs(model.policy, obs, mask), _probs(model.policy, scrambled, mask))
    with torch.no_grad():  # ...while the critic does look at the state
        v1 = model.policy.predict_values(model.policy.obs_to_tensor(obs)[0])
        v2 = model.policy.predict_values(model.policy.obs_to_tensor(scrambled)[0])
    assert not torch.allclose(v1, v2)

    plain = export_actor(model)
    assert plain.observation_space.shape == (n,)
    assert np.allclose(_probs(plain.policy, obs[:n], mask), _probs(model.policy, obs, mask), atol=1e-6)
    plain.save(tmp_path / "plain.zip")
    loaded = MaskablePPO.load(tmp_path / "plain.zip", device="cpu")
    assert np.allclose(_probs(loaded.policy, obs[:n], mask), _probs(model.policy, obs, mask), atol=1e-6)


def test_a_centralized_critic_run_continues_from_an_exported_actor(tmp_path):
    """init_from an observation-only export (what a shipped Co-op network is) widens its first
    layers with zero state columns: the new network acts exactly as the file does."""
    from agents.policy import save_checkpoint
    from yokai_envs.training.algorithms.ppo import load_weights

    env = yokai_envs.training.make_gym(YONKAI, opponents=["random"], num_players=4, critic_state=True)
    n = env.actor_obs_size
    kwargs = {"net_arch": [32], "actor_obs_size": n}
    trained = MaskablePPO(StateCriticPolicy, env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
                          policy_kwargs=kwargs)
    trained.learn(128)
    exported = save_checkpoint(export_actor(trained), tmp_path / "actor.safetensors", YONKAI, {"num_players": 4})
    fresh = MaskablePPO(StateCriticPolicy, env, n_steps=64, batch_size=64, seed=1, device="cpu", policy_kwargs=kwargs)
    obs, _ = env.reset(seed=2)
    mask = env.action_masks()
    assert not np.allclose(_probs(fresh.policy, obs, mask), _probs(trained.policy, obs, mask), atol=1e-4)
    load_weights(fresh, exported)
    assert np.allclose(_probs(fresh.policy, obs, mask), _probs(trained.policy, obs, mask), atol=1e-6)
    assert torch.equal(fresh.policy.pi_features_extractor.keep, trained.policy.pi_features_extractor.keep)
