"""A mixture file: several networks in one weights-only file, one drawn per game."""

from __future__ import annotations

import json

import numpy as np
import pytest

import agents
from agents.model_file import ModelFileError, load_policies, load_policy, mix_models, save_model
from agents.policy import CheckpointError, PolicyAgent, policy_weights
from tests.agents.small_models import two_small_models

YONKAI = "yonkai_no_yokai_v1"
OPTIONS = {"num_players": 3}


@pytest.fixture(scope="module")
def two_models(tmp_path_factory):
    """Two small Yonkai 3p networks of one architecture with different weights."""
    return two_small_models(tmp_path_factory.mktemp("members"), {"net_arch": [8]})


def test_a_mixture_holds_each_member_and_its_weights(two_models, tmp_path):
    target = mix_models(two_models, [0.25, 0.75], tmp_path / "mix.safetensors", {"play": {"deterministic": False}})
    card = json.loads(target.with_suffix(".json").read_text())
    assert card["play"] == {"deterministic": False, "temperature": 1.0, "mixture": [0.25, 0.75]}
    policies, _ = load_policies(target)
    for policy, source in zip(policies, two_models, strict=True):
        (original,), _ = load_policies(source)
        for key, value in original.state_dict().items():
            assert (policy.state_dict()[key] == value).all(), key
    with pytest.raises(ModelFileError, match="a mixture of 2 networks, not one network"):
        load_policy(target)  # a warm start needs one network
    with pytest.raises(CheckpointError, match="a mixture of 2 networks, and training starts from one network"):
        policy_weights(target)  # training.init_from


def test_the_agent_draws_one_member_per_game_with_the_mixtures_weights(two_models, tmp_path):
    target = mix_models(two_models, [0.25, 0.75], tmp_path / "mix.safetensors", {})
    agent = agents.make(f"policy:{target}", YONKAI, OPTIONS, seed=0)
    assert isinstance(agent, PolicyAgent) and len(agent.networks.forwards) == 2
    drawn = []
    for seed in range(400):
        agent.reset(seed)
        drawn.append(agent.member)
        assert agent._forward is agent.networks.forwards[agent.member]
    assert 0.18 < np.mean(np.array(drawn) == 0) < 0.32  # about a quarter
    again = [agent.reset(seed) or agent.member for seed in range(400)]
    assert again == drawn  # a seed picks the same member every time
    # within a game the member does not change, whatever it plays
    agent.reset(7)
    member = agent.member
    observation = np.zeros(agent.meta["observation_shape"], dtype=np.float32)
    mask = np.ones(agent.meta["num_actions"], dtype=bool)
    for _ in range(20):
        agent.act(observation, mask)
    assert agent.member == member


def test_a_mixture_of_different_networks_or_bad_weights_is_refused(two_models, tmp_path):
    from sb3_contrib import MaskablePPO

    from yokai_envs.training.gym_env import make_gym

    env = make_gym(YONKAI, num_players=3, opponents=["random"])
    wide = save_model(MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, n_steps=16, batch_size=16),
                      tmp_path / "wide.safetensors", {"env_id": YONKAI, "env_options": OPTIONS})
    with pytest.raises(ModelFileError, match=r"not the same network and game.*net_arch"):
        mix_models([two_models[0], wide], [1, 1], tmp_path / "bad.safetensors", {})
    with pytest.raises(ModelFileError, match="2 members but 1 weights"):
        mix_models(two_models, [1], tmp_path / "bad.safetensors", {})
    with pytest.raises(ModelFileError, match="mixture of 2-64 non-negative"):
        mix_models(two_models, [-1, 1], tmp_path / "bad.safetensors", {})
    target = mix_models(two_models, [1, 1], tmp_path / "mix.safetensors", {})
    card = json.loads(target.with_suffix(".json").read_text())
    card["play"]["mixture"] = [1, 1, 1]  # three weights, two members' tensors
    target.with_suffix(".json").write_text(json.dumps(card))
    with pytest.raises(ModelFileError, match="do not fit the card's network"):
        load_policies(target)
