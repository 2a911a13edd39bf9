"""The arena on Ray tasks gives exactly the local backend's results for the same seed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ray", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")

from agents.arena import run_match
from yokai_envs.cli import main as yokai_main


def comparable(result):
    """Everything but wall-clock times."""
    records = [{k: v for k, v in r.items() if k != "seconds"} for r in result.records]
    return records, result.rows, result.ratings, result.rating_kind


@pytest.mark.parametrize(("env_id", "options", "agents"), [
    ("yonkai_no_yokai_v1", {"num_players": 4}, ["heuristic", "random"]),
    ("onmyoji_v5", {"mode": "duel"}, ["heuristic", "random"]),
    ("onmyoji_v5", {"mode": "coop"}, ["heuristic"]),
])
def test_ray_backend_matches_local(ray_local, env_id, options, agents):
    kwargs = {"games": 16, "seed": 3, "env_options": options}
    local = run_match(env_id, agents, **kwargs)
    on_ray = run_match(env_id, agents, backend="ray", **kwargs)
    assert comparable(on_ray) == comparable(local)
    assert len(local.records) >= 16


def test_ray_backend_matches_local_gauntlet_with_workers(ray_local):
    kwargs = {"games": 12, "seed": 9, "env_options": {"num_players": 3}, "gauntlet": "heuristic"}
    local = run_match("yonkai_no_yokai_v1", ["random", "ismcts:iterations=8"], workers=2, **kwargs)
    on_ray = run_match("yonkai_no_yokai_v1", ["random", "ismcts:iterations=8"], backend="ray", **kwargs)
    assert comparable(on_ray) == comparable(local)


def test_evaluate_cli_backend_ray(ray_local, tmp_path, capsys):
    out_local, out_ray = tmp_path / "local", tmp_path / "ray"
    base = ["evaluate", "--game", "yonkai_no_yokai_v1", "--env-kwargs", '{"num_players": 4}',
            "--agents", "heuristic,random", "--games", "8", "--seed", "1", "--no-progress"]
    assert yokai_main([*base, "--out", str(out_local)]) == 0
    assert yokai_main([*base, "--out", str(out_ray), "--backend", "ray"]) == 0
    local = json.loads((out_local / "results.json").read_text())
    on_ray = json.loads((out_ray / "results.json").read_text())
    assert on_ray["pairings"] == local["pairings"] and on_ray["ratings"] == local["ratings"]
    assert "heuristic" in capsys.readouterr().out


def test_a_bad_backend_is_refused():
    # in-memory agents that pickle do go to Ray (tests/ray/test_score_ray.py plays a class agent there)
    with pytest.raises(ValueError, match="valid backends: local, ray"):
        run_match("yonkai_no_yokai_v1", ["random"], games=1, backend="dask")
