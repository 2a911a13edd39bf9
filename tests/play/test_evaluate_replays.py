"""``yokai evaluate --save-replays N`` writes replay files that rebuild the arena's games."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yokai_envs.cli import main
from yokai_envs.play import load_replay
from yokai_envs.registry import make_game

ARGS = ["evaluate", "--game", "yonkai_no_yokai_v1", "--env-kwargs", '{"num_players": 3, "rounds_per_game": 1}',
        "--agents", "heuristic,random", "--games", "6", "--no-progress"]


def test_save_replays(tmp_path, capsys):
    assert main([*ARGS, "--out", str(tmp_path), "--save-replays", "2"]) == 0
    assert "wrote 2 replay file(s)" in capsys.readouterr().out
    files = sorted((tmp_path / "replays").glob("*.json"))
    assert [f.name for f in files] == ["game_00000.json", "game_00001.json"]
    records = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    for path, record in zip(files, records):
        replay = load_replay(path)
        assert replay.agents == record["seats"] and replay.seed == record["deal_seed"]
        assert replay.result["returns"] == record["returns"] and replay.meta["source"] == "evaluate"
        game = make_game("yonkai_no_yokai_v1", num_players=3, rounds_per_game=1)
        game.replay(record["deal_seed"], record["actions"])
        assert np.array_equal(replay.build_game().state_tensor(), game.state_tensor())


def test_save_replays_needs_out(capsys):
    assert main([*ARGS, "--save-replays", "2"]) == 2
    assert "--save-replays needs --out" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse: one line naming the flag
        main([*ARGS, "--save-replays", "-1"])
    assert refused.value.code == 2
    assert "argument --save-replays: must be a non-negative integer, got -1" in capsys.readouterr().err
