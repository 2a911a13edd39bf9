"""A network played straight from its file: the numpy forward built from the file's tensors is the
one built from the torch policy, bit for bit; loading a shipped model to play imports no torch;
a file whose tensors do not fit its card is refused; the torch policy is built on first use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.model_file import (
    ModelFileError,
    build_policy,
    check_fit,
    load_policies,
    mix_models,
    network_layers,
    read_card,
)
from agents.networks import NumpyForward, load_networks
from agents.policy import CheckpointError, PolicyAgent
from agents.pretrained import models_dir
from tests.agents.small_models import two_small_models

FIXTURE = Path(__file__).parent / "fixtures" / "pretrained_actions.npz"
SHIPPED = sorted(path.stem for path in models_dir().glob("*.safetensors"))
YONKAI = "yonkai_no_yokai_v1"
OPTIONS = {"num_players": 3}


def _observations(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The recorded observations of random-play games of the model's env, and their masks."""
    with np.load(FIXTURE, allow_pickle=False) as data:
        return data[f"{name}/observations"], data[f"{name}/masks"]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_forward_built_from_the_file_is_the_one_built_from_the_torch_policy(name):
    card = read_card(models_dir() / f"{name}.safetensors")
    policies, _ = load_policies(card["path"])
    for from_file, policy in zip(load_networks(card).forwards, policies, strict=True):  # a mixture: each network
        _check_same_forward(from_file, NumpyForward.of(policy), name)


def _check_same_forward(from_file: NumpyForward | None, from_torch: NumpyForward | None, name: str) -> None:
    assert from_file is not None and from_torch is not None
    for (weight, bias, activation), (weight_t, bias_t, activation_t) in zip(from_file.layers, from_torch.layers,
                                                                            strict=True):
        np.testing.assert_array_equal(weight, weight_t, strict=True)
        np.testing.assert_array_equal(bias, bias_t, strict=True)
        assert weight.flags.c_contiguous and weight_t.flags.c_contiguous and activation is activation_t
    observations, masks = _observations(name)
    np.testing.assert_array_equal(from_file.probabilities(observations, masks),
                                  from_torch.probabilities(observations, masks), strict=True)
    for observation, mask in zip(observations, masks, strict=True):  # one at a time: the sparse first layer
        np.testing.assert_array_equal(from_file.probabilities(observation[None], mask[None]),
                                      from_torch.probabilities(observation[None], mask[None]), strict=True)


def test_playing_a_shipped_model_imports_no_torch():
    script = """
import sys
import agents, yokai_envs
from agents.base import act_in_game
from agents.pretrained import models_dir
for spec, options in (("pretrained", {"num_players": 4}),
                      (f"policy:{models_dir() / 'yonkai_no_yokai_3p.safetensors'}", {"num_players": 3})):
    agent = agents.make(spec, "yonkai_no_yokai_v1", options, seed=0)
    game = yokai_envs.make_game("yonkai_no_yokai_v1", **options)
    game.reset(0)
    assert game.legal_action_mask()[act_in_game(agent, game)]
print(sorted(m for m in ("torch", "stable_baselines3", "sb3_contrib", "gymnasium") if m in sys.modules))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).parents[2])
    assert result.stdout.strip() == "[]", result.stderr


@pytest.mark.parametrize("net_arch", [[8], [], [8, 4], {"pi": [8, 4], "vf": [6]}, {"pi": [], "vf": [5]}])
def test_the_cards_network_is_the_one_sb3_builds(net_arch):
    card = {"policy_class": "MaskableActorCriticPolicy", "net_arch": net_arch, "activation": "relu",
            "observation_shape": [7], "num_actions": 3, "path": "x"}
    state = build_policy(card).state_dict()
    check_fit(card, dict(state), "x")  # every name, shape and dtype
    actor, _ = network_layers(card)
    assert [prefix for prefix, _, _ in actor][-1] == "action_net"


@pytest.fixture(scope="module")
def two_models(tmp_path_factory):
    from torch import nn

    return two_small_models(tmp_path_factory.mktemp("nets"),
                            {"net_arch": {"pi": [16, 8], "vf": [4]}, "activation_fn": nn.ELU})


def _forged(data: bytes, card_from: Path, folder: Path) -> Path:
    """``data`` as a model file with the card of ``card_from`` holding their digest: only the
    checks of the tensors themselves can refuse it."""
    import hashlib

    target = folder / "forged.safetensors"
    target.write_bytes(data)
    card = json.loads(card_from.with_suffix(".json").read_text())
    target.with_suffix(".json").write_text(json.dumps({**card, "weights_sha256": hashlib.sha256(data).hexdigest()}))
    return target


def _forge(path: Path, folder: Path, edit) -> Path:
    """A copy of the model file with its tensors edited, and a card that matches them."""
    from safetensors.numpy import load, save

    tensors = dict(load(path.read_bytes()))
    edit(tensors)
    return _forged(save(tensors), path, folder)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.pop("value_net.bias"), r"do not fit the card's network \(missing \['value_net.bias'\]"),
    (lambda t: t.update(extra=np.zeros(2, np.float32)), r"unexpected \['extra'\]"),
    (lambda t: t.update({"action_net.bias": np.zeros(50, np.float32)}), r"action_net.bias is \(50,\) float32"),
    (lambda t: t.update({"action_net.bias": t["action_net.bias"].astype(np.float64)}), "float64, the card's"),
    (lambda t: t.update({"mlp_extractor.policy_net.2.weight": np.zeros((8, 15), np.float32)}), r"\(8, 16\)"),
])
def test_tensors_that_do_not_fit_the_card_are_refused(two_models, tmp_path, edit, message):
    forged = _forge(two_models[0], tmp_path, edit)
    with pytest.raises(CheckpointError, match=message):
        PolicyAgent(forged, YONKAI, OPTIONS)


def test_damaged_tensors_behind_a_matching_digest_are_refused(two_models, tmp_path):
    forged = _forged(two_models[0].read_bytes()[:-7], two_models[0], tmp_path)  # cut short
    with pytest.raises(CheckpointError, match="damaged tensors"):
        PolicyAgent(forged, YONKAI, OPTIONS)


def test_the_torch_policy_is_built_on_first_use_and_shared_by_twins(two_models, tmp_path):
    import torch

    mixture = mix_models(two_models, [1, 1], tmp_path / "mix.safetensors", {})
    agent = agents.make(f"policy:{mixture}", YONKAI, OPTIONS, seed=0)
    assert isinstance(agent, PolicyAgent) and len(agent.networks.forwards) == 2
    assert callable(agent.networks._policies)  # nothing asked for torch yet
    twin = agent.twin(seed=1)
    policies, _ = load_policies(mixture)
    for member, policy in enumerate(policies):
        agent.member = twin.member = member
        assert twin.policy is agent.policy  # built once, for both
        for key, value in policy.state_dict().items():
            assert torch.equal(agent.policy.state_dict()[key], value), key
    rng = np.random.default_rng(0)
    observations = (rng.random((16, agent.meta["observation_shape"][0])) < 0.1).astype(np.float32)
    masks = rng.random((16, agent.meta["num_actions"])) < 0.5
    masks[:, 0] = True
    for member in range(2):
        agent.member, agent._forward = member, agent.networks.forwards[member]
        np.testing.assert_allclose(agent.batch_probabilities(observations, masks),
                                   np.where(masks, agent.torch_probabilities(observations, masks), 0.0), atol=1e-6)


def test_a_card_numpy_cannot_run_plays_through_torch(two_models, monkeypatch):
    import agents.networks as networks

    monkeypatch.delitem(networks.NUMPY_ACTIVATIONS, "ELU")
    agent = PolicyAgent(two_models[0], YONKAI, OPTIONS)
    assert agent._forward is None and not callable(agent.networks._policies)
    game_mask = np.zeros(agent.meta["num_actions"], dtype=bool)
    game_mask[[1, 3]] = True
    assert agent.act(np.zeros(agent.meta["observation_shape"][0], np.float32), game_mask) in (1, 3)


def test_a_training_state_is_not_played(two_models, tmp_path):
    card = json.loads(two_models[0].with_suffix(".json").read_text())
    for suffix in (".safetensors", ".json"):
        (tmp_path / f"state{suffix}").write_bytes(two_models[0].with_suffix(suffix).read_bytes())
    (tmp_path / "state.json").write_text(json.dumps({**card, "kind": "training_state"}))
    with pytest.raises(ModelFileError, match="not a playing model"):
        PolicyAgent(tmp_path / "state.safetensors", YONKAI, OPTIONS)


def test_a_tensor_of_a_dtype_numpy_has_not_is_refused(two_models, tmp_path):
    import torch
    from safetensors.torch import load, save

    tensors = load(two_models[0].read_bytes())
    tensors["action_net.bias"] = tensors["action_net.bias"].to(torch.bfloat16)
    forged = _forged(save(tensors), two_models[0], tmp_path)
    with pytest.raises(CheckpointError, match="a tensor of dtype 'BF16', where a played network's are float32"):
        PolicyAgent(forged, YONKAI, OPTIONS)
