"""A run folder loses nothing and a killed run resumes.

* ``--overwrite`` / ``--out`` never touch a folder a run did not make, and inside a run folder
  only the run's own files;
* SIGTERM stops a run like Ctrl-C (checkpoint saved, message says how to resume), before and
  after the first checkpoint; a kill in the middle of writing ``resume.safetensors`` leaves the last
  good checkpoint; ``--resume`` continues from the checkpoint with the history cut to it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.cli.train import run_guarded
from yokai_envs.core.errors import ConfigError
from yokai_envs.training.algorithms.ppo import Trainer
from yokai_envs.training.common.config import load_config
from yokai_envs.training.common.run import clear_run_folder
from yokai_envs.training.common.safety import MARKER, RunInterrupted, RunStopped, SignalGuard

ROOT = Path(__file__).resolve().parents[2]
QUICK = "configs/yonkai_no_yokai/quick.yaml"
TINY = ["training.n_envs=2", "algorithm.hyperparameters.n_steps=32", "algorithm.hyperparameters.batch_size=64",
        "algorithm.hyperparameters.n_epochs=1", "algorithm.network.net_arch=[16]", "evaluation.games=2",
        "evaluation.final_games=2", "evaluation.bots=[random]", "evaluation.best_by=random",
        "output.progress_bar=false",
        "output.tensorboard=false"]


def _sets(items: list[str]) -> list[str]:
    return [arg for item in items for arg in ("--set", item)]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------- item 1: the overwrite guard
def _user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "src").mkdir(parents=True)
    (folder / "notes.txt").write_text("keep me")
    (folder / "src" / "main.py").write_text("print('mine')")
    (folder / "config.yaml").write_text("mine: true\n")
    (folder / "model.safetensors").write_bytes(b"my own model")
    return folder


@pytest.mark.parametrize("flags", [["--overwrite"], []], ids=["overwrite", "plain-out"])
def test_a_folder_no_run_made_is_never_written_or_deleted(tmp_path, capsys, flags):
    folder = _user_folder(tmp_path)
    before = _snapshot(folder)
    code = yokai_main(["train", "--config", QUICK, "--out", str(folder), *flags, *_sets(TINY)])
    assert code == 2
    assert "not a yokai run folder" in capsys.readouterr().err
    assert _snapshot(folder) == before
    with pytest.raises(ConfigError, match="not a yokai run folder"):
        clear_run_folder(folder)
    assert _snapshot(folder) == before


def test_overwrite_replaces_only_the_runs_own_files(tmp_path):
    out = tmp_path / "run"
    config = load_config(QUICK, TINY, out=str(out))
    Trainer(config).prepare_folder()  # what a run writes first: the marker and config.yaml
    assert (out / MARKER).is_file() and (out / "config.yaml").is_file()
    (out / "state.json").write_text(json.dumps({"timesteps": 5, "evaluations": [], "sessions": 1}))
    (out / "checkpoints").mkdir()
    (out / "checkpoints" / "resume.safetensors").write_bytes(b"old")
    (out / "my_notes.txt").write_text("mine")

    with pytest.raises(ConfigError, match="already holds a run"):
        Trainer(config)
    trainer = Trainer(config, overwrite=True)
    assert (out / "state.json").exists()  # the check alone deletes nothing
    trainer.prepare_folder()
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, "config.yaml", "my_notes.txt"])
    assert (out / "my_notes.txt").read_text() == "mine"


def test_an_empty_or_new_folder_is_fine(tmp_path):
    (tmp_path / "empty").mkdir()
    for name in ("empty", "new"):
        Trainer(load_config(QUICK, TINY, out=str(tmp_path / name))).prepare_folder()
        assert (tmp_path / name / MARKER).is_file()


def test_a_run_folder_from_before_the_marker_is_still_a_run(tmp_path):
    out = tmp_path / "old_run"
    out.mkdir()
    (out / "state.json").write_text(json.dumps({"timesteps": 0, "evaluations": [], "sessions": 1}))
    (out / "eval.json").write_text("{}")
    (out / "keep.txt").write_text("x")
    assert clear_run_folder(out) == ["state.json", "eval.json"]
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


# ---------------------------------------------------------------------- item 2: signals, unit level
def test_a_signal_during_a_save_waits_for_the_save():
    before = signal.getsignal(signal.SIGTERM)  # a test runner's worker may have its own handler
    with SignalGuard() as guard:
        finished = False
        with pytest.raises(KeyboardInterrupt) as stop, guard.saving():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            finished = True  # not interrupted: the signal is held
        assert finished and stop.value.signal_number == signal.SIGTERM
        guard.stopping = True  # once stopping, further signals are swallowed
        with guard.saving():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
    assert signal.getsignal(signal.SIGTERM) is before  # the guard puts back what it found


class _StoppingTrainer:
    """Stands in for a trainer whose run() stops the way a real one does."""

    def __init__(self, stop: BaseException) -> None:
        self.stop, self.guard = stop, None
        self.folder = type("Folder", (), {"root": Path("runs/x")})()

    def run(self):
        assert isinstance(self.guard, SignalGuard)  # the run happens under the guard
        raise self.stop


@pytest.mark.parametrize("command", ["yokai train", "yokai exploit"])
def test_every_training_command_stops_the_same_way(command, capsys):
    stop = RunInterrupted("stopped at step 64; continue with yokai train --resume --out runs/x", signal.SIGTERM)
    assert run_guarded(_StoppingTrainer(stop), command) == (None, 128 + signal.SIGTERM)
    assert f"{command}: SIGTERM: stopped at step 64; continue with" in capsys.readouterr().err
    assert run_guarded(_StoppingTrainer(KeyboardInterrupt()), command) == (None, 128 + signal.SIGINT)
    assert f"{command}: SIGINT: stopped; continue with yokai train --resume --out runs" in capsys.readouterr().err
    assert run_guarded(_StoppingTrainer(RunStopped("the cluster failed")), command) == (None, 1)
    assert f"{command}: error: the cluster failed" in capsys.readouterr().err


def test_an_interrupted_final_evaluation_says_what_to_do(tmp_path, monkeypatch):
    trainer = Trainer(load_config(QUICK, TINY, out=str(tmp_path / "run")))

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(trainer, "evaluate_policy", stop)
    monkeypatch.setattr(trainer, "current_step", lambda: 64)
    with pytest.raises(KeyboardInterrupt, match=r"during the final evaluation .* --resume --out"):
        trainer.final_evaluation()


# ---------------------------------------------------------------------- item 2: killed subprocesses
KILL_DURING_SAVE = """
import os, signal, sys
from pathlib import Path
import agents.model_file as model_file

original = model_file.write_model_file
calls = [0]

def write_model_file(path, *args, **kwargs):
    if "resume" in Path(str(path)).name:
        calls[0] += 1
        if calls[0] == int(os.environ["KILL_AT_RESUME_SAVE"]):
            temporary = Path(str(path)).with_name(f".resume.tmp-{os.getpid()}.safetensors")
            temporary.write_bytes(b"half a file")          # the write is under way...
            os.kill(os.getpid(), signal.SIGKILL)           # ...and the process dies
    return original(path, *args, **kwargs)

model_file.write_model_file = write_model_file
import yokai_envs.training.common.training_state as training_state
training_state.write_model_file = write_model_file
from yokai_envs.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _start(out: Path, extra: list[str], kill_at: int | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = "from yokai_envs.cli import main; import sys; sys.exit(main(sys.argv[1:]))"
    if kill_at is not None:
        env["KILL_AT_RESUME_SAVE"] = str(kill_at)
        code = KILL_DURING_SAVE
    args = ["train", "--config", QUICK, "--out", str(out), *_sets([*TINY, *extra])]
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen, timeout: float = 300) -> None:
    """Wait for ``process``; one that outlives ``timeout`` is killed (never left running)."""
    try:
        process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise


def _wait_for(process: subprocess.Popen, condition, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def _resume_to_the_end(out: Path, total: int) -> dict:
    code = yokai_main(["train", "--resume", "--out", str(out), "--set", f"training.total_timesteps={total}"])
    assert code == 0
    return _check_consistent(out, total)


def _check_consistent(out: Path, total: int) -> dict:
    """A loadable final model whose step count and history agree with state.json."""
    import agents
    from yokai_envs.training.common.training_state import saved_step

    state = json.loads((out / "state.json").read_text())
    assert state["finished"] and state["timesteps"] == saved_step(out / "checkpoints" / "resume.safetensors") >= total
    steps = [e["step"] for e in state["evaluations"]]
    assert steps == sorted(steps) and len(steps) == len(set(steps)), steps  # no step twice, no jump back
    assert [e["final"] for e in state["evaluations"]].count(True) == 1 and state["evaluations"][-1]["final"]
    assert steps[-1] == state["timesteps"]
    rewards = [step for step, _ in state["rewards"]]
    assert rewards == sorted(rewards)
    assert state["best"]["step"] in steps
    for name in ("model.safetensors", "best_model.safetensors"):
        agents.make(f"policy:{out / name}", "yonkai_no_yokai_v1", {"num_players": 4})
    return state


@pytest.mark.slow
def test_sigterm_before_the_first_checkpoint_saves_and_resumes(tmp_path):
    out = tmp_path / "run"
    process = _start(out, ["training.total_timesteps=10000000", "evaluation.every=0",
                           "output.checkpoint_every=10000000"])
    _wait_for(process, lambda: (out / "logs" / "progress.csv").is_file()
              and (out / "logs" / "progress.csv").stat().st_size > 0)  # a rollout done, no checkpoint yet
    assert not (out / "checkpoints" / "resume.safetensors").exists()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "SIGTERM: stopped at step" in err and f"yokai train --resume --out {out}" in err
    stopped = json.loads((out / "state.json").read_text())["timesteps"]
    assert stopped > 0
    state = _resume_to_the_end(out, stopped + 128)
    assert state["sessions"] == 2
    # --resume on the finished run does not run the final evaluation again
    assert yokai_main(["train", "--resume", "--out", str(out)]) == 2
    assert json.loads((out / "state.json").read_text())["evaluations"] == state["evaluations"]


@pytest.mark.slow
def test_sigterm_after_a_checkpoint_resumes_from_the_stop(tmp_path):
    out = tmp_path / "run"
    process = _start(out, ["training.total_timesteps=10000000", "evaluation.every=64", "output.checkpoint_every=128"])
    _wait_for(process, lambda: (out / "checkpoints" / "state.json").is_file())
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, err
    stopped = json.loads((out / "state.json").read_text())["timesteps"]
    assert json.loads((out / "checkpoints" / "state.json").read_text())["timesteps"] == stopped
    _resume_to_the_end(out, stopped + 64)


@pytest.mark.slow
def test_a_kill_while_resume_zip_is_written_keeps_the_last_checkpoint(tmp_path):
    out = tmp_path / "run"
    # checkpoints at 128 (kept) and 256 (killed half way); evaluations every 64, so the
    # evaluation at 192 belongs to steps the resumed run discards.
    process = _start(out, ["training.total_timesteps=10000000", "evaluation.every=64",
                           "output.checkpoint_every=128"], kill_at=2)
    _finish(process)
    assert process.returncode == -signal.SIGKILL
    state = json.loads((out / "state.json").read_text())
    assert max(e["step"] for e in state["evaluations"]) > 128  # history past the checkpoint...
    from yokai_envs.training.common.training_state import saved_step

    assert saved_step(out / "checkpoints" / "resume.safetensors") == 128
    final = _resume_to_the_end(out, 320)  # ...is cut at resume: no evaluation step twice
    assert [e["step"] for e in final["evaluations"]][:3] == [0, 64, 128]


@pytest.mark.slow
def test_a_kill_before_any_checkpoint_leaves_a_folder_that_restarts(tmp_path, capsys):
    out = tmp_path / "run"
    process = _start(out, ["training.total_timesteps=10000000", "evaluation.every=64",
                           "output.checkpoint_every=128"], kill_at=1)
    _finish(process)
    assert process.returncode == -signal.SIGKILL
    assert not (out / "checkpoints" / "resume.safetensors").exists()
    assert yokai_main(["train", "--resume", "--out", str(out)]) == 2
    assert "start afresh with --overwrite" in capsys.readouterr().err
    code = yokai_main(["train", "--config", QUICK, "--out", str(out), "--overwrite",
                       *_sets([*TINY, "training.total_timesteps=128", "evaluation.every=64"])])
    assert code == 0
    _check_consistent(out, 128)
