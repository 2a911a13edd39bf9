"""``yokai replay``: terminal stepping, the --all dump, the HTML page, and bad input."""

from __future__ import annotations

import io
import json
import re

import pytest

from tests.play.helpers import finished_yonkai
from yokai_envs.cli import main
from yokai_envs.play import Replay, save_replay


@pytest.fixture
def replay_file(tmp_path):
    return save_replay(tmp_path / "game.json", finished_yonkai(seed=4), ["heuristic", "random", "human"])


def _run(monkeypatch, capsys, answers: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_all_dumps_every_step(monkeypatch, capsys, replay_file):
    replay = Replay.from_json(json.loads(replay_file.read_text()))
    code, out, _ = _run(monkeypatch, capsys, "", str(replay_file), "--all")
    total = len(replay.actions)
    assert code == 0
    assert f"step 0/{total}: the deal (seed 4)" in out and f"step {total}/{total}:" in out
    assert "finished; returns: player 0 (heuristic)" in out


def test_seat_view_hides_the_other_hands(monkeypatch, capsys, replay_file):
    _, omniscient, _ = _run(monkeypatch, capsys, "", str(replay_file), "--all", "--omniscient")
    _, seat_view, _ = _run(monkeypatch, capsys, "", str(replay_file), "--all", "--seat", "1")
    rows = re.findall(r"player (\d): (\S+)( cards)?\s+cubes", seat_view)  # hidden hand: "15 cards"
    assert {seat for seat, _, _ in rows} == {"0", "1", "2"}
    assert all(hidden for seat, _, hidden in rows if seat != "1")
    assert not any(hidden for seat, _, hidden in rows if seat == "1")
    assert not any(hidden for _, _, hidden in re.findall(r"player (\d): (\S+)( cards)?\s+cubes", omniscient))


def test_interactive_stepping(monkeypatch, capsys, replay_file):
    code, out, _ = _run(monkeypatch, capsys, "\n\nb\n7\nwhat\nq\n", str(replay_file))
    assert code == 0
    headers = re.findall(r"step (\d+)/\d+", out)
    assert headers == ["0", "1", "2", "1", "7", "7"]
    assert "'what': press Enter for the next step" in out


def test_html_is_one_self_contained_page(monkeypatch, capsys, replay_file, tmp_path):
    out_path = tmp_path / "page.html"
    code, out, _ = _run(monkeypatch, capsys, "", str(replay_file), "--html", str(out_path))
    assert code == 0 and "wrote" in out
    page = out_path.read_text()
    assert "<script src" not in page and "<link" not in page and "http://" not in page and "https://" not in page
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)[1])
    assert data["views"] == ["omniscient", "0", "1", "2"]
    assert len(data["steps"]) == len(json.loads(replay_file.read_text())["actions"]) + 1


def test_html_for_one_seat_holds_only_that_seat(monkeypatch, capsys, replay_file, tmp_path):
    out_path = tmp_path / "seat.html"
    assert _run(monkeypatch, capsys, "", str(replay_file), "--html", str(out_path), "--seat", "2")[0] == 0
    page = out_path.read_text()
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)[1])
    assert data["views"] == ["2"]
    for step in data["steps"]:
        for seat in step["views"]["2"]["seats"]:
            hand = seat["zones"][0]
            if seat["seat"] != 2:
                assert hand["cards"] == [] and hand["hidden"] == seat["counters"]["cards"]
            else:
                assert hand["hidden"] == 0 and len(hand["cards"]) == seat["counters"]["cards"]


def _with(path, **changes):
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("setup", "extra", "message"), [
    (lambda p: p.with_name("missing.json"), [], "does not exist"),
    (lambda p: _with(p, env_id="yonkai_no_yokai_v0"), [], "only plays on the env version that recorded it"),
    (lambda p: _with(p, env_id="mahjong_v0"), [], "unknown env 'mahjong_v0'"),
    (lambda p: _with(p, final_state_sha256="f" * 64), ["--all"], "did not reproduce"),
    (lambda p: p, ["--seat", "3"], "--seat 3 is out of range"),
    (lambda p: p, ["--seat", "-2", "--html", "x.html"], "out of range"),
    (lambda p: p, ["--html", "/proc/no/such/dir/page.html"], "cannot write"),
])
def test_bad_input(monkeypatch, capsys, replay_file, setup, extra, message):
    code, _out, err = _run(monkeypatch, capsys, "", str(setup(replay_file)), *extra)
    assert code == 2 and message in err and "yokai replay: error:" in err


def test_seat_and_omniscient_exclude_each_other(monkeypatch, capsys, replay_file):
    with pytest.raises(SystemExit):
        _run(monkeypatch, capsys, "", str(replay_file), "--seat", "1", "--omniscient")
    assert "not allowed with argument" in capsys.readouterr().err
