"""An RLlib checkpoint is pickles, so ``yokai train --resume`` of an RLlib run restores one only
when it is this user's own: signed with the user's key (``yokai_signature.json``) and every file
unchanged since. Any other folder is refused in one line, unless ``--trust-pickles``.

The folders here are fakes: a file that would leave a marker if anything unpickled it, beside
plain data files. No Ray starts."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
import yaml

from agents.model_file import PickledModelError, require_signed_or_trusted
from yokai_envs.core.signing import FOLDER_SIGNATURE_FILE, KEY_ENV, check_signed_folder, sign_folder

QUICK = "configs/yonkai_no_yokai/quick.yaml"
RISK = "holds pickles (cloudpickle), and loading one runs any code its author put in it"


class _Marker:
    """Unpickling this creates the file it names: proof that something loaded the pickle."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (self.path,))


def write_fake_checkpoint(folder: Path, marker: Path) -> Path:
    (folder / "learner_group" / "learner").mkdir(parents=True)
    (folder / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(_Marker(marker)))
    (folder / "rllib_checkpoint.json").write_text('{"type": "Algorithm"}')
    (folder / "learner_group" / "learner" / "state.pt").write_bytes(os.urandom(256))
    return folder


@pytest.fixture
def signed_checkpoint(tmp_path):
    folder = write_fake_checkpoint(tmp_path / "algorithm", tmp_path / "ran")
    assert sign_folder(folder)
    return folder


def _refusal(folder: Path) -> str:
    with pytest.raises(PickledModelError) as refused:
        require_signed_or_trusted(folder, False, folder)
    return str(refused.value)


def test_a_checkpoint_this_user_signed_loads_without_trust(signed_checkpoint):
    assert (signed_checkpoint / FOLDER_SIGNATURE_FILE).is_file()
    assert check_signed_folder(signed_checkpoint) is None
    require_signed_or_trusted(signed_checkpoint, False, signed_checkpoint)  # no error
    assert not (signed_checkpoint.parent / "ran").exists()  # checked by hashing: nothing unpickled


def _edit_a_file(folder: Path) -> str:
    (folder / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(_Marker(folder.parent / "other")))
    return "class_and_ctor_args.pkl was changed after it was signed"


def _remove_the_signature(folder: Path) -> str:
    (folder / FOLDER_SIGNATURE_FILE).unlink()
    return f"it has no {FOLDER_SIGNATURE_FILE}"


def _add_a_file(folder: Path) -> str:
    (folder / "learner_group" / "extra.pkl").write_bytes(b"\x80\x04N.")
    return "learner_group/extra.pkl is not in its signature"


def _remove_a_file(folder: Path) -> str:
    (folder / "learner_group" / "learner" / "state.pt").unlink()
    return "learner_group/learner/state.pt is missing"


def _link_outside(folder: Path) -> str:
    outside = folder.parent / "elsewhere.pkl"
    outside.write_bytes(b"\x80\x04N.")
    (folder / "learner_group" / "learner" / "state.pt").unlink()
    (folder / "learner_group" / "learner" / "state.pt").symlink_to(outside)
    return "learner_group/learner/state.pt is a symbolic link"


def _a_fifo(folder: Path) -> str:
    os.mkfifo(folder / "learner_group" / "pipe")
    return "learner_group/pipe is not a regular file"


@pytest.mark.parametrize("tamper", [_edit_a_file, _remove_the_signature, _add_a_file, _remove_a_file,
                                    _link_outside, _a_fifo])
def test_a_changed_or_unsigned_checkpoint_is_refused_in_one_line_unless_trusted(signed_checkpoint, tamper):
    reason = tamper(signed_checkpoint)
    message = _refusal(signed_checkpoint)
    assert message.startswith(f"{signed_checkpoint}: an RLlib checkpoint not signed with your key (")
    assert reason in message and RISK in message and "--trust-pickles" in message and "\n" not in message
    require_signed_or_trusted(signed_checkpoint, True, signed_checkpoint)  # trusted: let through
    assert not (signed_checkpoint.parent / "ran").exists()


def test_a_checkpoint_signed_with_another_key_is_refused_naming_it(tmp_path, monkeypatch):
    folder = write_fake_checkpoint(tmp_path / "algorithm", tmp_path / "ran")
    mine = os.environ[KEY_ENV]
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "someone_elses_key"))
    assert sign_folder(folder)
    assert check_signed_folder(folder) is None  # valid, for its own key
    monkeypatch.setenv(KEY_ENV, mine)
    message = _refusal(folder)
    assert f"{FOLDER_SIGNATURE_FILE} is signed with another key" in message and RISK in message
    require_signed_or_trusted(folder, True, folder)


def test_a_signature_copied_from_another_folder_does_not_sign_this_one(tmp_path, signed_checkpoint):
    other = write_fake_checkpoint(tmp_path / "other", tmp_path / "ran_other")
    (other / FOLDER_SIGNATURE_FILE).write_bytes((signed_checkpoint / FOLDER_SIGNATURE_FILE).read_bytes())
    assert "was changed after it was signed" in _refusal(other)


def test_with_signing_off_nothing_is_signed_and_resume_needs_trust(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "none")
    folder = write_fake_checkpoint(tmp_path / "algorithm", tmp_path / "ran")
    assert sign_folder(folder) is False and not (folder / FOLDER_SIGNATURE_FILE).exists()
    assert f"it has no {FOLDER_SIGNATURE_FILE}" in _refusal(folder)


# ---------------------------------------------------------------------- yokai train --resume
@pytest.fixture
def rllib_run(tmp_path):
    """A stopped RLlib run folder at step 400, its checkpoint signed by this user."""
    pytest.importorskip("ray", reason="backend: rllib needs ray[rllib]")
    pytest.importorskip("stable_baselines3")
    from yokai_envs.training.common.config import load_config
    from yokai_envs.training.common.run import RunFolder

    out = tmp_path / "run"
    config = load_config(QUICK, ["backend=rllib", "rllib.num_env_runners=1"], str(out))
    (out / "checkpoints").mkdir(parents=True)
    (out / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    state = {**RunFolder.fresh_state(), "timesteps": 400, "sessions": 1, "checkpoint": 400}
    for name in ("state.json", "checkpoints/state.json"):
        (out / name).write_text(json.dumps(state))
    write_fake_checkpoint(out / "checkpoints" / "algorithm", tmp_path / "ran")
    assert sign_folder(out / "checkpoints" / "algorithm")
    return out, config


def test_resume_of_a_run_whose_checkpoint_this_user_signed_goes_ahead(rllib_run):
    from yokai_envs.training.rllib_backend.trainer import RLlibTrainer

    _, config = rllib_run
    trainer = RLlibTrainer(config, resume=True)
    assert trainer.state["timesteps"] == 400


@pytest.mark.parametrize("tamper", [_edit_a_file, _remove_the_signature])
def test_train_resume_refuses_a_checkpoint_not_signed_by_this_user_unless_trust_pickles(
        rllib_run, tamper, capsys, monkeypatch):
    from yokai_envs.cli import main as yokai_main
    from yokai_envs.training.common.safety import RunStopped
    from yokai_envs.training.rllib_backend.trainer import RLlibTrainer

    out, _ = rllib_run
    checkpoint = out / "checkpoints" / "algorithm"
    reason = tamper(checkpoint)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert yokai_main(["train", "--resume", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"yokai train: error: --resume: {checkpoint}: an RLlib checkpoint not signed with your key")
    assert reason in err and RISK in err and len(err.splitlines()) == 1
    assert err.endswith(f"load it anyway with yokai train --resume --out {out} --trust-pickles")
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before  # nothing written
    assert not (out.parent / "ran").exists()

    def restored(self):  # what runs once the trust check let the run through (Ray is not started here)
        raise RunStopped("past the trust check")

    monkeypatch.setattr(RLlibTrainer, "run", restored)
    assert yokai_main(["train", "--resume", "--out", str(out), "--no-progress", "--trust-pickles"]) == 1
    assert "past the trust check" in capsys.readouterr().err
