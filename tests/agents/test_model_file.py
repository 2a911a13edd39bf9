"""Models as data: the shipped networks converted from pickled zips play exactly as before, a
model file loads without running anything, and a pickled zip or RLlib checkpoint is refused
unless trusted.

``fixtures/pretrained_actions.npz`` was recorded from the shipped SB3 zips before they were
converted (and removed): for each model, 32 observations of random-play games of its env with
their legal masks, the action the zip's network chose (SB3's own torch path, most likely legal
action) and its full masked distribution; and the digest of the weights file they hold for. A
model shipped later is recorded from its own file when it ships (onmyoji_duel's second
generation), so a changed weights file without a new recording fails here by its digest."""

from __future__ import annotations

import importlib
import io
import json
import os
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.model_file import (
    ModelFileError,
    PickledModelError,
    load_policies,
    load_policy,
    read_card,
    read_tensors,
    save_model,
)
from agents.policy import CheckpointError, PolicyAgent
from agents.pretrained import cards, models_dir

FIXTURE = Path(__file__).parent / "fixtures" / "pretrained_actions.npz"
YONKAI = "yonkai_no_yokai_v1"


def _recorded() -> dict[str, dict[str, np.ndarray]]:
    with np.load(FIXTURE, allow_pickle=False) as data:
        by_model: dict[str, dict[str, np.ndarray]] = {}
        for key in data.files:
            name, field = key.split("/")
            by_model.setdefault(name, {})[field] = data[key]
    return by_model


RECORDED = _recorded()


def test_every_shipped_model_is_recorded_and_no_pickle_is_shipped():
    assert sorted(RECORDED) == sorted(card.name for card in cards())
    assert not list(models_dir().glob("*.zip"))


def test_a_played_network_is_built_without_an_optimizer():
    """Loading a model to play builds no optimizer (building one imports torch's compiler, about
    40% of a model's loading time) and no fresh initialisation: every weight is the file's."""
    import torch

    name = sorted(RECORDED)[0]
    policy, card = load_policy(models_dir() / f"{name}.safetensors")
    assert not isinstance(policy.optimizer, torch.optim.Optimizer)
    assert policy.ortho_init is False
    stored = read_tensors(card)
    assert all(torch.equal(value, stored[key]) for key, value in policy.state_dict().items())


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_converted_model_chooses_the_actions_its_zip_chose(name):
    import torch

    recorded = RECORDED[name]
    policies, card = load_policies(models_dir() / f"{name}.safetensors")
    assert card["weights_sha256"] == str(recorded["weights_sha256"]), (
        f"{name}.safetensors is not the file its actions were recorded from: record them again")
    observations, masks = recorded["observations"], recorded["masks"]
    # a mixture's recording has one row of choices per network (a leading axis)
    actions = recorded["actions"].reshape(len(policies), len(observations))
    expected = recorded["probabilities"].reshape(len(policies), *masks.shape)
    agent = PolicyAgent(card["path"], card["env_id"], card["configuration"], deterministic=True)
    for member, policy in enumerate(policies):
        with torch.no_grad():
            obs, _ = policy.obs_to_tensor(observations)
            probs = policy.get_distribution(obs, action_masks=masks.copy()).distribution.probs.numpy()
        probs = np.where(masks, probs, 0.0)
        probs /= probs.sum(axis=1, keepdims=True)
        np.testing.assert_array_equal(probs.argmax(axis=1), actions[member])
        np.testing.assert_allclose(probs, expected[member], atol=1e-6)
    # and the agent the specs build (numpy forward pass) plays them too, with whichever network it drew
    for seed in range(4 * len(policies)):
        agent.reset(seed)
        np.testing.assert_array_equal(agent.batch_probabilities(observations, masks).argmax(axis=1),
                                      actions[agent.member])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small Yonkai 3p MaskablePPO saved as a model file."""
    from sb3_contrib import MaskablePPO

    from yokai_envs.training.gym_env import make_gym

    env = make_gym(YONKAI, num_players=3, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=16, batch_size=16, seed=0)
    folder = tmp_path_factory.mktemp("model")
    path = save_model(model, folder / "tiny.safetensors", {"env_id": YONKAI, "env_options": {"num_players": 3}})
    return model, path


def test_a_saved_model_loads_the_same_weights_and_its_card_says_how_to_build_it(tiny):
    model, path = tiny
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["net_arch"] == [8] and card["activation"] == "tanh" and card["algorithm"] == "MaskablePPO"
    assert card["num_actions"] == model.action_space.n and card["play"]["deterministic"] is True
    policy, _ = load_policy(path)
    for key, value in model.policy.state_dict().items():
        assert (policy.state_dict()[key] == value).all(), key


def _copy(path: Path, folder: Path) -> Path:
    shutil.copy(path, folder / path.name)
    shutil.copy(path.with_suffix(".json"), folder / path.with_suffix(".json").name)
    return folder / path.name


@pytest.mark.parametrize(("edit", "message"), [
    (lambda card: card.update(policy_class="os.system"), "policy_class"),
    (lambda card: card.update(activation="Sigmoid"), "activation"),
    (lambda card: card.update(algorithm="builtins.eval"), "algorithm"),
    (lambda card: card.update(net_arch=[8, 8]), "do not fit the card's network"),
    (lambda card: card.update(net_arch=[10**9]), "net_arch"),
    (lambda card: card.update(weights_sha256="0" * 64), "digest"),
])
def test_a_card_naming_anything_outside_the_allow_lists_or_not_fitting_is_refused(tiny, tmp_path, edit, message):
    path = _copy(tiny[1], tmp_path)
    card = json.loads(path.with_suffix(".json").read_text())
    edit(card)
    path.with_suffix(".json").write_text(json.dumps(card))
    with pytest.raises(ModelFileError, match=message):
        load_policy(path)


def test_a_card_with_a_key_given_twice_is_refused(tiny, tmp_path):
    path = _copy(tiny[1], tmp_path)
    text = path.with_suffix(".json").read_text()
    path.with_suffix(".json").write_text(text.replace('{', '{"kind": "policy",', 1))
    with pytest.raises(ModelFileError, match="'kind' appears twice"):
        read_card(path)


def test_weights_without_their_card_and_special_files_are_refused(tiny, tmp_path):
    shutil.copy(tiny[1], tmp_path / "alone.safetensors")
    with pytest.raises(ModelFileError, match="no card beside it"):
        read_card(tmp_path / "alone.safetensors")
    fifo = tmp_path / "fifo.safetensors"
    os.mkfifo(fifo)
    with pytest.raises(ModelFileError, match="not a regular file"):
        read_card(fifo)
    with pytest.raises(ModelFileError, match="not a regular file"):
        read_card("/dev/zero")


@pytest.fixture
def pickled_zip(tmp_path):
    """A zip whose pickle would leave a marker file if anything unpickled it."""
    from sb3_contrib import MaskablePPO

    from agents.model_file import ZIP_MAGIC
    from yokai_envs.training.gym_env import make_gym

    env = make_gym(YONKAI, num_players=3, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=16, batch_size=16, seed=0)
    path = tmp_path / "legacy.zip"
    model.save(str(path))
    import zipfile

    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("yokai_meta.json", json.dumps({
            "env_id": YONKAI, "env_options": {"num_players": 3},
            "observation_shape": [int(model.observation_space.shape[0])], "num_actions": int(model.action_space.n)}))
        archive.writestr("evil.pkl", pickle.dumps(Payload()))
    assert path.read_bytes()[:4] == ZIP_MAGIC
    return path, marker


@pytest.mark.parametrize("spec", ["policy:{path}", "trained:{path};iterations=2",
                                  "ismcts:policy={path};rollout=heuristic"])
def test_a_pickled_zip_is_refused_in_one_line_unless_trusted(pickled_zip, spec):
    path, marker = pickled_zip
    with pytest.raises(PickledModelError, match=r"a pickled SB3 \.zip, refused \(.*runs any code") as refused:
        agents.make(spec.format(path=path), YONKAI, {"num_players": 3})
    assert "\n" not in str(refused.value) and "trusted=true" in str(refused.value)
    assert not marker.exists()
    trusted = agents.make(spec.format(path=path) + ";trusted=true", YONKAI, {"num_players": 3}, seed=0)
    assert trusted is not None


def test_temperature_sharpens_sampling_and_the_card_sets_the_default(tiny, tmp_path):
    path = _copy(tiny[1], tmp_path)
    card = json.loads(path.with_suffix(".json").read_text())
    card["play"] = {"deterministic": False, "temperature": 0.5}
    path.with_suffix(".json").write_text(json.dumps(card))
    agent = agents.make(f"policy:{path}", YONKAI, {"num_players": 3}, seed=0)
    assert isinstance(agent, PolicyAgent) and not agent.deterministic and agent.temperature == 0.5
    assert agents.make(f"policy:{path};deterministic=true", YONKAI, {"num_players": 3}).deterministic


def test_a_model_for_another_game_is_refused_before_its_weights_are_read(tiny, tmp_path):
    path = _copy(tiny[1], tmp_path)
    path.write_bytes(b"not read")  # the card is checked first
    with pytest.raises(CheckpointError, match="was trained for 'yonkai_no_yokai_v1', not 'yokaizo_v4'"):
        PolicyAgent(path, "yokaizo_v4")


def _cli_with(command: str, spec: str, monkeypatch) -> tuple[list[str], int]:
    """(arguments of ``command`` that build the agent ``spec`` for 3-player Yonkai, its exit code
    once the agent loads)."""
    game = ["--game", YONKAI, "--env-kwargs", '{"num_players": 3}']
    if command == "evaluate":
        return ["evaluate", *game, "--agents", f"{spec},random", "--games", "3", "--no-progress"], 0
    if command == "demo":
        return ["demo", *game, "--agents", f"{spec},random", "--quiet"], 0
    if command == "play":
        monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))  # the human leaves at once: exit 1
        return ["play", *game, "--vs", spec], 1
    from tests.benchmark.test_score import tiny
    from yokai_envs import benchmark
    from yokai_envs.benchmark.suite import QUICK_SUITE

    suite = tiny(QUICK_SUITE)
    monkeypatch.setattr(benchmark, "load_suite", lambda version: suite)
    return ["score", "--agent", spec, "--quick", "--configs", "yonkai_3p", "--format", "json"], 0


@pytest.mark.parametrize("command", ["evaluate", "demo", "play", "score"])
def test_the_cli_loads_a_pickled_zip_only_with_trust_pickles(pickled_zip, command, capsys, monkeypatch):
    from yokai_envs.cli import main as yokai_main

    path, _ = pickled_zip
    args, loaded = _cli_with(command, f"policy:{path}", monkeypatch)
    assert yokai_main(args) == 2
    err = capsys.readouterr().err
    assert "a pickled SB3 .zip, refused" in err and "--trust-pickles" in err and len(err.strip().splitlines()) == 1
    if command == "play":
        monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert yokai_main([*args, "--trust-pickles"]) == loaded, capsys.readouterr().err


def test_trust_pickles_is_one_flag_with_one_meaning_on_every_command():
    import argparse

    from yokai_envs.cli import COMMANDS
    from yokai_envs.cli.arg_types import TRUST_PICKLES_HELP

    helps = {}
    for name in ("demo", "evaluate", "play", "score"):
        parser = argparse.ArgumentParser()
        importlib.import_module(COMMANDS[name][0]).add_arguments(parser)
        (flag,) = [action for action in parser._actions if "--trust-pickles" in action.option_strings]
        helps[name] = flag.help
    assert set(helps.values()) == {TRUST_PICKLES_HELP} and "rllib:" in TRUST_PICKLES_HELP


@pytest.fixture
def pickled_rllib_folder(tmp_path):
    """An RLlib policy folder whose module pickle would leave a marker file if anything unpickled it
    (RLlib reads ``rl_module/class_and_ctor_args.pkl`` with pickle first thing)."""
    from yokai_envs.registry import make_game

    game = make_game(YONKAI, num_players=3)
    folder, marker = tmp_path / "model", tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    (folder / "rl_module").mkdir(parents=True)
    (folder / "rl_module" / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(Payload()))
    (folder / "yokai_meta.json").write_text(json.dumps({
        "format": 1, "env_id": YONKAI, "env_options": {"num_players": 3},
        "observation_shape": [int(game.observation_size)], "num_actions": int(game.num_actions)}))
    return folder, marker


def test_an_rllib_checkpoint_is_refused_in_one_line_unless_trusted(pickled_rllib_folder):
    folder, marker = pickled_rllib_folder
    spec = f"rllib:{folder}"
    with pytest.raises(PickledModelError) as refused:
        agents.make(spec, YONKAI, {"num_players": 3})
    message = str(refused.value)
    assert message.startswith(f"{spec}: an RLlib checkpoint not signed with your key (it has no "
                              "yokai_signature.json") and "\n" not in message
    assert "holds pickles (cloudpickle), and loading one runs any code its author put in it" in message
    assert f"{spec};trusted=true" in message and "--trust-pickles" in message
    assert not marker.exists()
    pytest.importorskip("ray.rllib", reason="loading an RLlib checkpoint needs ray[rllib]")
    with pytest.raises(Exception):  # noqa: B017 - what fails after the pickle ran is RLlib's business
        agents.make(spec + ";trusted=true", YONKAI, {"num_players": 3})
    assert marker.exists()  # trusted: the checkpoint was loaded, pickles and all


def test_an_rllib_folder_this_user_signed_loads_without_trusted(pickled_rllib_folder):
    from yokai_envs.core.signing import sign_folder

    folder, marker = pickled_rllib_folder
    assert sign_folder(folder)  # what save_rllib_policy does with the folders it writes
    pytest.importorskip("ray.rllib", reason="loading an RLlib checkpoint needs ray[rllib]")
    with pytest.raises(Exception):  # noqa: B017 - what fails after the pickle ran is RLlib's business
        agents.make(f"rllib:{folder}", YONKAI, {"num_players": 3})
    assert marker.exists()  # the signature held: loaded without trusted=true


def test_an_rllib_folder_signed_with_another_key_or_edited_still_needs_trusted(pickled_rllib_folder, tmp_path,
                                                                                monkeypatch):
    from yokai_envs.core.signing import KEY_ENV, sign_folder

    folder, marker = pickled_rllib_folder
    mine = os.environ[KEY_ENV]
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "someone_elses_key"))
    assert sign_folder(folder)
    monkeypatch.setenv(KEY_ENV, mine)
    with pytest.raises(PickledModelError, match=r"yokai_signature\.json is signed with another key"):
        agents.make(f"rllib:{folder}", YONKAI, {"num_players": 3})
    assert sign_folder(folder)  # now this user's, then edited
    (folder / "rl_module" / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(None))
    with pytest.raises(PickledModelError, match=r"rl_module/class_and_ctor_args\.pkl was changed after it was "
                                                r"signed\), refused \(.*rllib:.*;trusted=true"):
        agents.make(f"rllib:{folder}", YONKAI, {"num_players": 3})
    assert not marker.exists()


def test_trust_pickles_trusts_rllib_specs_as_it_does_zips():
    from agents.specs import trusting_pickles

    assert trusting_pickles("rllib:runs/model") == "rllib:runs/model;trusted=true"
    assert trusting_pickles("mine=rllib:runs/model;deterministic=false") == \
        "mine=rllib:runs/model;deterministic=false;trusted=true"
    assert trusting_pickles("rllib:runs/model;trusted=false") == "rllib:runs/model;trusted=false"


@pytest.mark.parametrize("command", ["evaluate", "demo"])
def test_the_cli_refuses_an_rllib_checkpoint_without_trust_pickles(pickled_rllib_folder, command, capsys):
    from yokai_envs.cli import main as yokai_main

    folder, marker = pickled_rllib_folder
    args = [command, "--game", YONKAI, "--env-kwargs", '{"num_players": 3}', "--agents", f"rllib:{folder},random"]
    args += ["--games", "3", "--no-progress"] if command == "evaluate" else ["--quiet"]
    assert yokai_main(args) == 2
    err = capsys.readouterr().err
    assert "an RLlib checkpoint not signed with your key" in err and "--trust-pickles" in err
    assert len(err.strip().splitlines()) == 1
    assert not marker.exists()


def test_convert_model_turns_a_trusted_zip_into_the_same_network(pickled_zip, tmp_path):
    import importlib.util

    import torch
    from sb3_contrib import MaskablePPO

    path, _ = pickled_zip
    spec = importlib.util.spec_from_file_location("convert_model", Path(__file__).parents[2] / "scripts" /
                                                  "convert_model.py")
    convert = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(convert)
    target = convert.convert(path, tmp_path / "converted.safetensors", deterministic=False)
    policy, card = load_policy(target)
    assert card["play"]["deterministic"] is False and card["env_id"] == YONKAI
    original = MaskablePPO.load(str(path), device="cpu").policy
    for key, value in original.state_dict().items():
        assert torch.equal(policy.state_dict()[key], value), key
