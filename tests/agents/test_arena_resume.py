"""Long arena runs: games.jsonl is written as games finish, a cut run resumes to the same
results as an uncut one (whatever the worker counts), and a time estimate after the first games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import yokai_envs
from agents.arena import run_match, write_outputs
from agents.arena.journal import ResumeError
from agents.arena.play import Runner
from tests.agents.toy_game import ToyTrickGame
from yokai_envs.cli.evaluate import main as evaluate_main

AGENTS = ["R=random", "I=ismcts:iterations=12", "F=ismcts:search=flat;iterations=12"]
KWARGS = {"agents": AGENTS, "games": 6, "seed": 4}
ROOT = Path(__file__).resolve().parents[2]


def strip_timing(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def games_file(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def same_results(one, two) -> None:
    assert strip_timing(one.records) == strip_timing(two.records)
    assert one.rows == two.rows and one.paired == two.paired and one.head_to_head == two.head_to_head
    assert one.ratings == two.ratings


class Cut(Exception):
    pass


def cut_after(monkeypatch, games: int) -> None:
    """Runner.play stops the run (as a kill would) once ``games`` games have finished."""
    real = Runner.play
    played = []

    def play(self, spec):
        if len(played) == games:
            raise Cut
        played.append(spec.index)
        return real(self, spec)

    monkeypatch.setattr(Runner, "play", play)


@pytest.mark.slow
def test_resume_after_a_cut_run_equals_an_uncut_run(tmp_path, monkeypatch):
    uncut = run_match(ToyTrickGame, **KWARGS)
    total = len(uncut.records)
    with monkeypatch.context() as patch:
        cut_after(patch, 7)
        with pytest.raises(Cut):
            run_match(ToyTrickGame, journal_dir=tmp_path, **KWARGS)
    kept = games_file(tmp_path)  # written as the games finished
    # deal by deal across the tables: indices 0-1 (table 0, deal 0), 6-7 (table 1), 12-13 (table 2), 2
    assert [g["index"] for g in kept] == [0, 1, 6, 7, 12, 13, 2]
    assert json.loads((tmp_path / "match.json").read_text())["agent_specs"]["R"] == "random"

    with pytest.raises(ResumeError, match=r"unfinished run \(7 games"):  # not silently overwritten
        run_match(ToyTrickGame, journal_dir=tmp_path, **KWARGS)
    messages: list[str] = []
    resumed = run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, workers=2, log=messages.append, **KWARGS)
    assert messages[0] == f"resuming: 7 of {total} games already played"
    same_results(resumed, uncut)
    assert strip_timing(games_file(tmp_path)[:7]) == strip_timing(sorted(kept, key=lambda g: g["index"]))
    assert sorted(g["index"] for g in games_file(tmp_path)) == list(range(total))

    out_uncut = tmp_path.parent / f"{tmp_path.name}_uncut"  # beside the run: the arena folder holds only its own files
    write_outputs(uncut, out_uncut)
    write_outputs(resumed, tmp_path)
    for name in ("results.json", "results.csv", "results.md", "results.tex"):
        assert (tmp_path / name).read_text() == (out_uncut / name).read_text(), name
    assert strip_timing(games_file(tmp_path)) == strip_timing(games_file(out_uncut))

    # resuming a finished run plays nothing and gives the same results again
    again = run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
    same_results(again, uncut)


def test_a_line_cut_off_mid_write_is_dropped(tmp_path, monkeypatch):
    uncut = run_match(ToyTrickGame, **KWARGS)
    with monkeypatch.context() as patch:
        cut_after(patch, 5)
        with pytest.raises(Cut):
            run_match(ToyTrickGame, journal_dir=tmp_path, **KWARGS)
    with (tmp_path / "games.jsonl").open("a") as handle:
        handle.write('{"index": 5, "table": 0, "de')
    messages: list[str] = []
    resumed = run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, log=messages.append, **KWARGS)
    assert "cut-off last line dropped" in messages[0]
    same_results(resumed, uncut)
    assert len(games_file(tmp_path)) == len(uncut.records)


@pytest.mark.parametrize(("change", "message"), [
    ({"seed": 5}, "seed: 4 then, 5 now"),
    ({"agents": ["R=random", "I=ismcts:iterations=13", "F=ismcts:search=flat;iterations=12"]}, "agent_specs"),
    ({"env_options": {"num_players": 3}}, "env_options"),
    ({"games": 8}, "games: 6 then, 8 now"),
])
def test_resume_refuses_another_match(tmp_path, monkeypatch, change, message):
    with monkeypatch.context() as patch:
        cut_after(patch, 3)
        with pytest.raises(Cut):
            run_match(ToyTrickGame, journal_dir=tmp_path, **KWARGS)
    with pytest.raises(ResumeError, match=message):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **{**KWARGS, **change})


def test_resume_refuses_games_of_another_schedule(tmp_path, monkeypatch):
    with monkeypatch.context() as patch:
        cut_after(patch, 3)
        with pytest.raises(Cut):
            run_match(ToyTrickGame, journal_dir=tmp_path, **KWARGS)
    games = games_file(tmp_path)
    games[1]["deal_seed"] += 1
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    with pytest.raises(ResumeError, match="game 1 is not the game this match plans"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)


def test_time_estimate_after_the_first_games(tmp_path):
    messages: list[str] = []
    run_match(ToyTrickGame, journal_dir=tmp_path, log=messages.append, **KWARGS)
    (estimate,) = messages
    # after the first round: one deal (two games) of each of the three tables
    assert estimate.startswith("6 of 18 games in ") and estimate.endswith(" to go")


def test_cli_resume_needs_out(capsys):
    assert evaluate_main(["--game", yokai_envs.ENV_IDS[0], "--agents", "random", "--resume", "--no-progress"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_resume_after_a_cut_run(tmp_path, monkeypatch, capsys):
    args = ["--game", yokai_envs.ENV_IDS[0], "--agents", "R=random,S=random", "--games", "8", "--seed", "3",
            "--no-progress"]
    with monkeypatch.context() as patch:
        cut_after(patch, 5)
        with pytest.raises(Cut):
            evaluate_main([*args, "--out", str(tmp_path / "cut")])
    assert len(games_file(tmp_path / "cut")) == 5
    assert evaluate_main([*args, "--out", str(tmp_path / "cut")]) == 2
    assert "pass --resume" in capsys.readouterr().err
    assert evaluate_main([*args, "--out", str(tmp_path / "cut"), "--resume", "--workers", "2"]) == 0
    assert "resuming: 5 of" in capsys.readouterr().err
    assert evaluate_main([*args, "--out", str(tmp_path / "uncut")]) == 0
    for name in ("results.json", "results.csv", "results.md", "results.tex"):
        assert (tmp_path / "cut" / name).read_text() == (tmp_path / "uncut" / name).read_text(), name
    assert strip_timing(games_file(tmp_path / "cut")) == strip_timing(games_file(tmp_path / "uncut"))


KILLED_RUN = """
import sys, time
from agents.arena import run_match
from agents.arena.play import Runner
from tests.agents.toy_game import ToyTrickGame

real = Runner.play
def slow(self, spec):
    time.sleep(0.2)  # slow enough to be killed mid-run
    return real(self, spec)
Runner.play = slow
run_match(ToyTrickGame, %r, games=%d, seed=%d, journal_dir=sys.argv[1])
"""


@pytest.mark.slow
def test_resume_after_a_killed_run(tmp_path):
    """An arena process killed (SIGKILL) mid-run, resumed with another worker count, gives the
    same results as an uncut run."""
    script = KILLED_RUN % (KWARGS["agents"], KWARGS["games"], KWARGS["seed"])
    process = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = tmp_path / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= 4:
            break
        time.sleep(0.01)
    assert process.poll() is None, f"the run ended before it could be killed: {process.stderr.read()!r}"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    played = len(journal.read_text().splitlines())
    assert 4 <= played < 18

    uncut = run_match(ToyTrickGame, **KWARGS)
    resumed = run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, workers=2, **KWARGS)
    same_results(resumed, uncut)
    write_outputs(resumed, tmp_path)
    write_outputs(uncut, tmp_path / "uncut")
    assert (tmp_path / "results.json").read_text() == (tmp_path / "uncut" / "results.json").read_text()
    assert strip_timing(games_file(tmp_path)) == strip_timing(games_file(tmp_path / "uncut"))


@pytest.mark.slow
def test_sigterm_stops_evaluate_with_the_resume_hint(tmp_path):
    """A scheduler's stop (SIGTERM) is an interruption like Ctrl-C: the finished games are kept and
    the message says how to continue."""
    out = tmp_path / "eval"
    process = subprocess.Popen([sys.executable, "-m", "yokai_envs.cli", "evaluate", "--game", "yonkai_no_yokai_v1",
                                "--agents", "random,ismcts:iterations=30", "--games", "400", "--no-progress",
                                "--out", str(out)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    journal = out / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    assert process.poll() is None, f"the run ended before it could be stopped: {process.stderr.read()!r}"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "interrupted by SIGTERM; continue with the same command and --resume" in err, err
    assert "Traceback" not in err and journal.read_text().count("\n") >= 2
