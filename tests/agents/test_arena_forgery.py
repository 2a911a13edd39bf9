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


def test_legal_games_of_the_same_deals_played_by_other_agents_are_refused(tmp_path, monkeypatch):
    """The forgery the replay check cannot see: a game replaced by the same deal played by other
    agents (the line legal, its result what its moves give). Its signature no longer verifies."""
    games = cut_run(tmp_path, monkeypatch, games=17)
    others = {**KWARGS, "agents": ["R=random", "I=random", "F=random"]}  # same labels, same seeds, other play
    forged = {r["index"]: r for r in run_match(ToyTrickGame, **others).records}
    at = next(i for i, g in enumerate(games) if forged[g["index"]]["actions"] != g["actions"])
    games[at] = {**forged[games[at]["index"]], "hmac_sha256": games[at]["hmac_sha256"], "key_id": games[at]["key_id"]}
    rewrite(tmp_path, games)
    before = (tmp_path / "games.jsonl").read_text()
    with pytest.raises(ResumeError, match=rf"games.jsonl line {at + 1}: game \d+ does not match its signature"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
    assert (tmp_path / "games.jsonl").read_text() == before
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", "none")  # and without the key: played again, refused too
    with pytest.raises(ResumeError, match=rf"line {at + 1}: game \d+ has moves its agents do not choose"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)


def test_unsigned_games_are_played_again_by_their_agents(tmp_path, monkeypatch):
    """Without a key (YOKAI_ENVS_KEY_FILE=none) nothing is signed: a resumed game counts only when
    its named agents, with its recorded seeds, choose exactly its moves."""
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", "none")
    games = cut_run(tmp_path, monkeypatch, games=17)
    assert all("hmac_sha256" not in g for g in games)
    others = {**KWARGS, "agents": ["R=random", "I=random", "F=random"]}
    forged = {r["index"]: r for r in run_match(ToyTrickGame, **others).records}
    at = next(i for i, g in enumerate(games) if forged[g["index"]]["actions"] != g["actions"])
    rewrite(tmp_path, [forged[g["index"]] if i == at else g for i, g in enumerate(games)])
    with pytest.raises(ResumeError, match=rf"line {at + 1}: game \d+ has moves its agents do not choose"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
    rewrite(tmp_path, games)  # the honest unsigned lines resume
    result = run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
    assert len(result.records) == len(run_match(ToyTrickGame, **KWARGS).records)


def test_games_signed_with_another_key_are_refused_naming_it(tmp_path, monkeypatch):
    cut_run(tmp_path, monkeypatch)
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", str(tmp_path.parent / "another_users_key"))
    with pytest.raises(ResumeError, match=r"line 1: game \d+ is signed with another key"):
        run_match(ToyTrickGame, journal_dir=tmp_path, resume=True, **KWARGS)
