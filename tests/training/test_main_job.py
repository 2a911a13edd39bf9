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
