"""--resume continues only from a checkpoint that agrees with itself: a damaged resume.safetensors, a
state.json that disagrees with it, another game or network are refused (exit 2, one line,
nothing changed); a kill between resume.safetensors and state.json, a temporary left by a kill and an
evaluation the stop cut off are all handled on the next run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.training.test_run_safety import QUICK, TINY, _sets, _snapshot
from yokai_envs.cli import main as yokai_main

ROOT = Path(__file__).resolve().parents[2]
RUN = [*TINY, "training.total_timesteps=128", "evaluation.every=64", "output.checkpoint_every=64"]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    from yokai_envs.training.algorithms.ppo import Trainer
    from yokai_envs.training.common.config import load_config

    out = tmp_path_factory.mktemp("finished") / "run"
    Trainer(load_config(QUICK, RUN, out=str(out))).run()
    return out


def _copy(run: Path, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(run, out)
    return out


def _resume(out: Path, *sets: str) -> int:
    return yokai_main(["train", "--resume", "--out", str(out), "--set", "training.total_timesteps=192",
                       *_sets(list(sets))])


def _refused(out: Path, capsys, message: str, *sets: str) -> None:
    before = _snapshot(out)
    assert _resume(out, *sets) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert _snapshot(out) == before


def _eval_steps(out: Path) -> list[int]:
    return [e["step"] for e in json.loads((out / "state.json").read_text())["evaluations"]]


def _with_steps(source: Path, target: Path, steps: int) -> None:
    """``source`` (a training state) rewritten to claim ``steps`` (a resume.safetensors written
    after the state)."""
    shutil.copyfile(source, target)
    card = json.loads(source.with_suffix(".json").read_text())
    target.with_suffix(".json").write_text(json.dumps({**card, "num_timesteps": steps}))


def test_a_kill_between_resume_zip_and_state_json_resumes_from_the_pair_that_agrees(finished_run, tmp_path):
    out = _copy(finished_run, tmp_path)
    resume = out / "checkpoints" / "resume.safetensors"
    for suffix in (".safetensors", ".json"):  # the committed one, kept
        shutil.copyfile(resume.with_suffix(suffix), out / "checkpoints" / f"resume.previous{suffix}")
    newer = tmp_path / "newer.safetensors"
    _with_steps(resume, newer, 160)
    for suffix in (".safetensors", ".json"):
        newer.with_suffix(suffix).replace(resume.with_suffix(suffix))  # resume already replaced, the state not yet
    assert _resume(out) == 0
    state = json.loads((out / "state.json").read_text())
    assert state["timesteps"] == 192 and _eval_steps(out) == sorted(set(_eval_steps(out)))
    assert not (out / "checkpoints" / "resume.previous.safetensors").exists()
    assert not (out / "checkpoints" / "resume.previous.json").exists()


def test_a_temporary_left_by_a_kill_is_removed_on_the_next_run(finished_run, tmp_path):
    out = _copy(finished_run, tmp_path)
    dead = 2**22 + 12345  # above pid_max on Linux by default: no such process
    stale = out / "checkpoints" / f".latest.tmp-{dead}.safetensors"
    stale.write_bytes(b"x" * 1000)
    assert _resume(out) == 0
    assert not stale.exists()


def test_an_evaluation_due_at_the_stop_runs_after_resume(finished_run, tmp_path):
    out = _copy(finished_run, tmp_path)
    # the checkpoint at 128 came before the evaluation of step 128 (the final one, after the checkpoint)
    assert _resume(out) == 0
    assert _eval_steps(out) == [0, 64, 128, 192]


def test_a_state_json_that_disagrees_with_resume_zip_is_refused(finished_run, tmp_path, capsys):
    out = _copy(finished_run, tmp_path)
    state_file = out / "checkpoints" / "state.json"
    state_file.write_text(json.dumps({**json.loads(state_file.read_text()), "checkpoint": 64}))
    _refused(out, capsys, "the state and the training checkpoint disagree")


@pytest.mark.parametrize("damage", ["truncated", "bit-flipped"])
def test_a_damaged_resume_zip_is_refused(finished_run, tmp_path, capsys, damage):
    out = _copy(finished_run, tmp_path)
    resume = out / "checkpoints" / "resume.safetensors"
    data = bytearray(resume.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    else:
        data[len(data) // 3] ^= 0xFF
    resume.write_bytes(bytes(data))
    _refused(out, capsys, "resume.safetensors")


@pytest.mark.parametrize(("sets", "message"), [
    (["algorithm.network.net_arch=[8,8]"], "algorithm.network"),
    (["game.env_id=onmyoji_v5", "game.options={}"], "game.env_id: 'yonkai_no_yokai_v1' in the run"),
])
def test_resume_refuses_another_game_or_network(finished_run, tmp_path, capsys, sets, message):
    out = _copy(finished_run, tmp_path)
    _refused(out, capsys, message, *sets)


def test_train_keys_into_a_closed_pipe_is_quiet():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", "from yokai_envs.cli import main; raise SystemExit(main())",
                                "train", "--keys"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert process.stdout is not None and process.stdout.readline()
    process.stdout.close()  # `| head -1`
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0 and b"BrokenPipe" not in err and b"Traceback" not in err, err


@pytest.mark.parametrize("edited", ["state.json", "checkpoints/state.json"])
def test_a_forged_step_count_is_refused(finished_run, tmp_path, capsys, edited):
    out = _copy(finished_run, tmp_path)
    state_file = out / edited
    state_file.write_text(json.dumps({**json.loads(state_file.read_text()), "timesteps": 10**9}))
    _refused(out, capsys, "the step count was edited")


def test_the_training_state_is_data_and_restores_the_optimizer(finished_run):
    """resume.safetensors is a weights-only file (no pickle) holding the Adam moments: loaded into
    a model built from the run's config, the optimizer continues where it stopped."""
    import torch

    from yokai_envs.training.algorithms.ppo import build_model, build_vec_env, opponent_pool
    from yokai_envs.training.common.config import load_config
    from yokai_envs.training.common.training_state import load_training_state

    resume = finished_run / "checkpoints" / "resume.safetensors"
    assert resume.read_bytes()[:4] != b"PK\x03\x04"
    card = json.loads(resume.with_suffix(".json").read_text())
    assert card["kind"] == "training_state" and card["num_timesteps"] == 128
    config = load_config(QUICK, RUN, out=str(finished_run))
    vec_env = build_vec_env(config, opponent_pool(config, []))
    try:
        model = build_model(config, vec_env)
        fresh = [p.detach().clone() for p in model.policy.parameters()]
        load_training_state(model, resume)
    finally:
        vec_env.close()
    assert model.num_timesteps == 128
    assert any(not torch.equal(a, b) for a, b in zip(fresh, model.policy.parameters(), strict=True))
    moments = [s["exp_avg"] for s in model.policy.optimizer.state_dict()["state"].values()]
    assert moments and any(m.abs().sum() > 0 for m in moments)


def test_a_run_saved_as_pickles_resumes_only_when_trusted(finished_run, tmp_path, capsys):
    out = _copy(finished_run, tmp_path)
    checkpoints = out / "checkpoints"
    for suffix in (".safetensors", ".json"):
        (checkpoints / f"resume{suffix}").unlink()
    (checkpoints / "resume.zip").write_bytes(b"PK\x03\x04 an old run's pickles")
    _refused(out, capsys, "was saved as pickled SB3 zips by an older version")
    _refused(out, capsys, "continue it with --trust-pickles only if you made it yourself")
    code = yokai_main(["train", "--resume", "--out", str(out), "--trust-pickles",
                       "--set", "training.total_timesteps=192"])
    assert code == 2 and "cannot load" in capsys.readouterr().err  # trusted: loaded (and found damaged)
