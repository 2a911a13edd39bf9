"""The README's main job (scripts/main.sh -> configs/yonkai_no_yokai/main.yaml), at a tiny budget:
clone the heuristic, PPO on the vector engine, then the arena with the network alone and with
its play-time search, both in eval.json; the trained opponent (``trained:PATH;SEARCH``) then
plays in ``yokai evaluate``, ``yokai play --vs`` and the HTML replay viewer like any bot."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.play import load_replay

pytest.importorskip("numba")

MAIN = "configs/yonkai_no_yokai/main.yaml"
SEARCH = "iterations=2;opponents=rollout;search=flat;beliefs=heuristic"
TINY = ["pretrain.steps=300", "pretrain.epochs=1", "training.total_timesteps=256", "training.n_envs=16",
        "algorithm.hyperparameters.n_steps=16", "algorithm.hyperparameters.batch_size=64",
        "algorithm.hyperparameters.n_epochs=1", "algorithm.network.net_arch=[16]",
        "evaluation.final_games=4", "evaluation.workers=1", "evaluation.search_games=4",
        f"evaluation.search={SEARCH}", "output.progress_bar=false"]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("main") / "run"
    overrides = [arg for item in TINY for arg in ("--set", item)]
    assert yokai_main(["train", "--config", MAIN, "--out", str(out), *overrides]) == 0
    return out


def test_main_sh_runs_the_main_config() -> None:
    script = Path("scripts/main.sh").read_text()
    assert MAIN in script and "runs/yonkai_no_yokai/main/eval.json" in script


def test_eval_json_has_the_network_alone_and_with_its_search(run) -> None:
    report = json.loads((run / "eval.json").read_text())
    assert set(report["results"]) == {"random", "heuristic"}
    assert report["search"]["spec"] == f"trained:{run / 'model.zip'};{SEARCH}"
    assert set(report["search"]["results"]) == {"random", "heuristic"}
    assert all(row["games"] == 4 for row in report["search"]["results"].values())


def test_the_trained_opponent_plays_in_evaluate_play_and_the_viewer(run, tmp_path, monkeypatch, capsys) -> None:
    trained = f"trained:{run / 'model.zip'};{SEARCH}"
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
