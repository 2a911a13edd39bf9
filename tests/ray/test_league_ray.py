"""The league with ``league.backend: ray``: a generation's main agent and exploiter as Ray tasks."""

from __future__ import annotations

import json

import pytest

from yokai_envs.cli import main

pytest.importorskip("ray", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")

TINY = ["training.total_timesteps=64", "training.n_envs=2", "algorithm.hyperparameters.n_steps=32",
        "algorithm.hyperparameters.batch_size=32", "algorithm.hyperparameters.n_epochs=1",
        "algorithm.network.net_arch=[8]", "evaluation.final_games=4", "output.tensorboard=false",
        "output.progress_bar=false", "evaluation.every=0", "league.start_from=null", "league.main_steps=64",
        "league.exploiter_steps=64",
        "league.match_games=4", "league.bots=[random]", "opponents.bots=[random]", "league.generations=1",
        "league.backend=ray"]


@pytest.mark.slow
def test_a_league_generation_runs_its_phases_as_ray_tasks(ray_local, tmp_path):
    out = tmp_path / "league"
    assert main(["train", "--config", "configs/onmyoji/league.yaml", "--out", str(out),
                 *[a for item in TINY for a in ("--set", item)]]) == 0
    state = json.loads((out / "league.json").read_text())
    assert state["generation"] == 1 and state["generations"][1]["exploiter"]["against"] == "main_0"
    assert {m["name"] for m in state["members"]} == {"random", "main_0", "main_1", "exploiter_1"}
