"""Command-line behaviour the fuzz sweep cannot show: what Ctrl-C in an arena run says, that a
Ray address is refused without the backend that uses it, and that an export that fails part
way leaves no file behind."""

from __future__ import annotations

import json
from pathlib import Path

from yokai_envs.cli import main as yokai_main

ROOT = Path(__file__).resolve().parents[2]


def test_ctrl_c_in_evaluate_is_one_line_saying_how_to_resume(tmp_path, capsys, monkeypatch):
    import agents.arena

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(agents.arena, "run_match", interrupted)
    out = tmp_path / "eval"
    code = yokai_main(["evaluate", "--game", "onmyoji_v5", "--agents", "random", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert code == 130 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "interrupted by SIGINT; continue with the same command and --resume" in err and str(out) in err


def test_train_ray_address_needs_the_rllib_backend(capsys):
    code = yokai_main(["train", "--config", str(ROOT / "configs" / "yonkai_no_yokai" / "quick.yaml"),
                       "--ray-address", "auto", "--check"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "only used by the rllib backend" in err and len(err.splitlines()) == 1


def test_an_export_that_fails_part_way_writes_nothing(tmp_path, capsys):
    from tests.play.helpers import finished_yonkai
    from yokai_envs.play import Replay

    good = Replay.record(finished_yonkai(), ["random"] * 3).to_json()
    folder = tmp_path / "replays"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(good))
    (folder / "b.json").write_text(json.dumps({**good, "agents": ["x", "y", "z"]}))  # forged, read second
    out = tmp_path / "rows.jsonl"
    assert yokai_main(["export", "--from", str(folder), "--out", str(out)]) == 2
    assert "agents list" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replays"]
