"""A resumed arena counts only games it has checked: an edited games.jsonl is refused with the
line number, and an arena folder never replaces files it did not write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.arena import run_match
from agents.arena.journal import ResumeError
from tests.agents.test_arena_resume import KWARGS, Cut, cut_after
from tests.agents.toy_game import ToyTrickGame


def cut_run(folder: Path, monkeypatch, games: int = 4) -> list[dict]:
    with monkeypatch.context() as patch:
        cut_after(patch, games)
        with pytest.raises(Cut):
            run_match(ToyTrickGame, journal_dir=folder, **KWARGS)
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def rewrite(folder: Path, games: list[dict]) -> None:
    (folder / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))


def decided(games: list[dict]) -> int:
    """The position of a game with a winner (swapping its seats' results changes the winner)."""
    return next(i for i, g in enumerate(games) if g["returns"][0] != g["returns"][1])


@pytest.mark.parametrize("edit", ["swap_results", "returns_only", "steps", "actions_dropped_and_results_swapped"])
def test_an_edited_game_record_is_refused_with_its_line(tmp_path, monkeypatch, edit):
    games = cut_run(tmp_path, monkeypatch)
    at = decided(games)
    game = games[at]
    if edit in ("swap_results", "actions_dropped_and_results_swapped"):
        game["returns"].reverse()
        game["credits"].reverse()
        if edit.startswith("actions_dropped"):
            del game["actions"]  # then the game is played again by its agents to check it
    elif edit == "returns_only":
        game["returns"][0] += 1.0
    else:
        game["steps"] += 1
    rewrite(tmp_path, games)
    before = (tmp_path / "games.jsonl").read_text()
    with pytest.raises(ResumeError, match=rf"games.jsonl line {at + 1}: game {game['index']} "):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
    assert (tmp_path / "games.jsonl").read_text() == before  # nothing rewritten


def test_an_untouched_cut_run_still_resumes(tmp_path, monkeypatch):
    cut_run(tmp_path, monkeypatch)
    result = run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
    assert len(result.records) == len(run_match(ToyTrickGame, **KWARGS).records)


def test_a_record_that_is_not_an_object_names_its_line(tmp_path, monkeypatch):
    games = cut_run(tmp_path, monkeypatch)
    (tmp_path / "games.jsonl").write_text(json.dumps(games[0]) + "\n[1, 2]\n" + json.dumps(games[1]) + "\n")
    with pytest.raises(ResumeError, match=r"games\.jsonl: line 2 is not a game record"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)


def test_a_corrupt_match_file_is_named(tmp_path, monkeypatch):
    cut_run(tmp_path, monkeypatch)
    (tmp_path / "match.json").write_text("{not json")
    with pytest.raises(ResumeError, match=r"match\.json: not a readable match file"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)


@pytest.mark.parametrize("name", ["results.md", "results.json", "notes.txt"])
def test_a_folder_with_files_the_arena_did_not_write_is_refused(tmp_path, name):
    (tmp_path / name).write_text("mine\n")
    with pytest.raises(ResumeError, match=f"files the arena did not write \\({name}\\)"):
        run_match(ToyTrickGame, journal_dir=tmp_path, **KWARGS)
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert (tmp_path / name).read_text() == "mine\n"


def test_resume_of_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(ResumeError, match="does not exist, so there is no cut run"):
        run_match(ToyTrickGame, journal_dir=tmp_path / "nope", resume=True, **KWARGS)
    assert not (tmp_path / "nope").exists()
