"""The README's main job (scripts/main.sh -> configs/yonkai_no_yokai/main.yaml), at a tiny budget:
lookahead distillation, then the arena against the heuristic and random tables in eval.json; the
trained network (``policy:PATH``) then plays in ``yokai evaluate``, ``yokai play --vs`` and the HTML
replay viewer like any bot; main.sh prints its exploitability row from ``yokai exploit``."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.play import load_replay

pytest.importorskip("numba")

MAIN = "configs/yonkai_no_yokai/main.yaml"
TINY = ["lookahead.labels=256", "lookahead.rounds=1", "lookahead.table_games=1", "lookahead.workers=1",
        "lookahead.epochs=1", "training.total_timesteps=256", "algorithm.network.net_arch=[16]",
        "algorithm.network.vf=[16]", "evaluation.final_games=8", "output.progress_bar=false"]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("main") / "run"
    overrides = [arg for item in TINY for arg in ("--set", item)]
    assert yokai_main(["train", "--config", MAIN, "--out", str(out), *overrides]) == 0
    return out


def _model(run: Path) -> Path:
    return next(p for p in run.glob("model.*") if p.suffix in (".zip", ".safetensors"))


def test_main_sh_runs_the_main_config_then_its_exploitability_row() -> None:
    script = Path("scripts/main.sh").read_text()
    assert MAIN in script and "runs/yonkai_no_yokai/main/eval.json" in script
    assert "yokai exploit" in script and "configs/yonkai_no_yokai/exploit.yaml" in script


def test_the_main_job_is_lookahead_distillation_judged_against_the_heuristic_table(run) -> None:
    report = json.loads((run / "eval.json").read_text())
    assert set(report["results"]) == {"random", "heuristic"}
    assert all(row["games"] == 8 and row["engine"] == "vector" for row in report["results"].values())
    state = json.loads((run / "state.json").read_text())
    assert state["lookahead"]["rounds"] == 1


def test_the_trained_opponent_plays_in_evaluate_play_and_the_viewer(run, tmp_path, monkeypatch, capsys) -> None:
    trained = f"policy:{_model(run)}"
    options = '{"num_players": 4, "rounds_per_game": 1}'  # the seats the network was trained for
    assert yokai_main(["evaluate", "--game", "yonkai_no_yokai_v1", "--env-kwargs", options, "--agents",
                       f"{trained},random", "--games", "3", "--no-progress", "--out", str(tmp_path / "arena"),
                       "--save-replays", "1"]) == 0
    replay_file = tmp_path / "arena" / "replays" / "game_00000.json"
    assert trained in load_replay(replay_file).agents
    assert yokai_main(["replay", str(replay_file), "--html", str(tmp_path / "game.html")]) == 0
    assert (tmp_path / "game.html").read_text().count("<html") == 1

    every_action = "\n".join(str(a) for _ in range(80) for a in range(49)) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(every_action))
    saved = tmp_path / "played.json"
    assert yokai_main(["play", "--game", "yonkai_no_yokai_v1", "--env-kwargs", options, "--vs",
                       f"{trained},heuristic,random", "--seat", "1", "--seed", "3", "--save-replay", str(saved)]) == 0
    capsys.readouterr()
    assert load_replay(saved).agents[0] == trained


_STUB_YOKAI = r'''#!/usr/bin/env bash
# stands in for training and the best response: writes what each writes, checks what main.sh passes
set -euo pipefail
case "$1" in
  train)
    mkdir -p runs/yonkai_no_yokai/main
    cp "$EVAL_JSON" runs/yonkai_no_yokai/main/eval.json
    : > runs/yonkai_no_yokai/main/model.safetensors ;;
  exploit)
    agent=$(printf '%s\n' "$@" | grep '^policy:' | head -1)
    test -f "${agent#policy:}" || { echo "no model at ${agent#policy:}" >&2; exit 3; }
    mkdir -p runs/yonkai_no_yokai/main_exploit
    printf '%s' '{"budget": 40960, "win_rate": 0.2, "ci_low": 0.17, "ci_high": 0.24, "games": 500,
      "references": {"source": "card", "bots": {"heuristic": {"win_rate": 0.27, "ci_low": 0.23,
      "ci_high": 0.31, "games": 500}}}}' > runs/yonkai_no_yokai/main_exploit/exploit.json ;;
  *) exit 4 ;;
esac
'''


def test_main_sh_runs_from_training_to_its_closing_report(run, tmp_path) -> None:
    """main.sh's own glue (the model path it hands the best response, the report it prints), with
    the training and the best response stubbed: a broken line here fails the newcomer's first run."""
    import os
    import shutil
    import stat
    import subprocess
    import sys

    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    shutil.copy("scripts/main.sh", root / "scripts" / "main.sh")
    (root / "scripts" / "setup.sh").write_text("true\n")
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "yokai").write_text(_STUB_YOKAI)
    (bin_dir / "python").write_text(f'#!/usr/bin/env bash\nexec "{sys.executable}" "$@"\n')
    for tool in ("yokai", "python"):
        (bin_dir / tool).chmod(stat.S_IRWXU)
    env = {**os.environ, "EVAL_JSON": str(run / "eval.json"), "PYTHONPATH": str(Path.cwd())}
    done = subprocess.run(["bash", "scripts/main.sh"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "network alone          vs 3 x heuristic" in done.stdout
    assert "best response (40,960 steps" in done.stdout
