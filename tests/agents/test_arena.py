"""The arena: balanced seats on duplicate deals, reproducible by seed whatever the worker
count, statistics, output files, and bad input failing before any game."""

from __future__ import annotations

import csv
import json
from collections import Counter

import numpy as np
import pytest

from agents.arena import markdown, run_match, wilson_interval, write_outputs
from agents.arena.schedule import build_tables, schedule
from agents.arena.stats import bradley_terry
from tests.agents.toy_game import ToyTrickGame
from yokai_envs.cli.evaluate import main as evaluate_main
from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import win_credits

YONKAI = "yonkai_no_yokai_v1"


def strip_timing(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


# ------------------------------------------------------------------ schedule
def test_tables_round_robin_gauntlet_and_filling():
    assert [t.agents for t in build_tables(["a", "b", "c"], 2)] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert [t.agents for t in build_tables(["a", "b", "c"], 2, gauntlet="g")] == [("g", "a"), ("g", "b"), ("g", "c")]
    assert [t.agents for t in build_tables(["h", "r"], 4)] == [("h", "r", "r", "r")]
    assert [t.agents for t in build_tables(["r"], 4, gauntlet="h")] == [("h", "r", "r", "r")]
    assert len(build_tables(["a", "b", "c", "d", "e"], 3)) == 10
    assert [t.agents for t in build_tables(["a", "b"], 1)] == [("a",), ("b",)]
    assert [t.agents for t in build_tables(["a"], 2)] == [("a", "a")]
    with pytest.raises(ValueError, match="only 2 distinct"):
        build_tables(["a", "b", "a", "b", "a"], 4)


@pytest.mark.parametrize(("agents", "seats", "arrangements"), [
    (["a", "b"], 2, 2), (["h", "r"], 4, 4), (["a", "b", "c", "d"], 4, 24), (["a", "b", "c"], 3, 6)])
def test_every_arrangement_on_every_deal(agents, seats, arrangements):
    tables = build_tables(agents, seats)
    plan = schedule(tables, games=10, seed=5)
    for table in tables:
        games = [g for g in plan if g.table == table.index]
        assert len(table.arrangements) == arrangements
        assert len(games) % arrangements == 0 and len(games) >= 10
        by_deal = Counter(g.deal_seed for g in games)
        assert set(by_deal.values()) == {arrangements}  # each deal replayed once per arrangement
        per_seat = Counter((s, label) for g in games for s, label in enumerate(g.seats))
        for label in set(table.agents):  # every agent sits in every seat equally often
            assert len({per_seat[(s, label)] for s in range(seats)}) == 1
    assert [g.index for g in plan] == list(range(len(plan)))


def test_seeds_depend_on_seed_and_place_only():
    tables = build_tables(["a", "b"], 2)
    first, again, other = schedule(tables, 8, 1), schedule(tables, 8, 1), schedule(tables, 8, 2)
    assert first == again
    assert [g.deal_seed for g in first] != [g.deal_seed for g in other]
    assert len({g.deal_seed for g in first}) == 4


# ------------------------------------------------------------------ playing
def test_duplicate_deals_are_really_replayed():
    result = run_match(YONKAI, ["heuristic", "random"], games=8, seed=3, env_options={"num_players": 4})
    from yokai_envs.registry import make_game

    game = make_game(YONKAI, num_players=4)
    hands = {}
    for rec in result.records:
        game.reset(rec["deal_seed"])
        hands.setdefault(rec["deal"], game.hands.copy())
        assert np.array_equal(hands[rec["deal"]], game.hands)
        game.replay(rec["deal_seed"], rec["actions"])  # records are replays
        assert game.is_over and list(game.returns()) == rec["returns"]
    assert len(result.records) == 8 and len(hands) == 2


@pytest.mark.slow
def test_reproducible_by_seed_and_independent_of_workers():
    kwargs = {"agents": ["random", "ismcts:iterations=10"], "games": 6, "seed": 11}
    one = run_match(ToyTrickGame, **kwargs)
    again = run_match(ToyTrickGame, **kwargs)
    two = run_match(ToyTrickGame, workers=2, **kwargs)
    assert strip_timing(one.records) == strip_timing(again.records) == strip_timing(two.records)
    assert one.rows == two.rows and one.ratings == two.ratings
    other = run_match(ToyTrickGame, **{**kwargs, "seed": 12})
    assert strip_timing(other.records) != strip_timing(one.records)


def test_yonkai_heuristic_beats_random_in_a_small_match():
    result = run_match(YONKAI, ["heuristic", "random"], games=40, seed=0, env_options={"num_players": 4})
    row = result.row("heuristic")
    assert row["games"] == 40 and row["win_rate"] > 0.8
    assert result.row("random")["games"] == 120
    assert result.rating_kind == "openskill"
    assert result.ratings["heuristic"]["rating"] > result.ratings["random"]["high"]


# ------------------------------------------------------------------ statistics
def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_outcome_credits():
    assert list(win_credits(np.array([1.0, -1.0]), False)) == [1.0, 0.0]
    assert list(win_credits(np.array([0.0, 0.0]), False)) == [0.5, 0.5]
    assert list(win_credits(np.array([1.0, 1.0, -1.0, -1.0]), False)) == [0.5, 0.5, 0.0, 0.0]
    assert list(win_credits(np.array([1.0, 1.0]), True)) == [1.0, 1.0]  # a team clear
    assert list(win_credits(np.array([-1.0]), False)) == [0.0]


def test_bradley_terry_orders_and_is_finite():
    games = np.array([[0, 10, 10], [10, 0, 10], [10, 10, 0]], dtype=float)
    score = np.array([[0, 10, 8], [0, 0, 7], [2, 3, 0]], dtype=float)  # a sweeps b; a > b > c
    theta = bradley_terry(games, score)
    assert np.all(np.isfinite(theta)) and theta[0] > theta[1] > theta[2]
    assert theta.sum() == pytest.approx(0.0, abs=1e-9)


def test_elo_for_two_players():
    result = run_match(YONKAI, ["heuristic", "random"], games=1, seed=0, env_options={"num_players": 3})
    assert result.rating_kind == "openskill"
    toy = run_match(ToyTrickGame, ["ismcts:iterations=40", "random"], games=40, seed=0)
    assert toy.rating_kind == "elo"
    for r in toy.ratings.values():
        assert r["low"] <= r["rating"] <= r["high"]
    assert sum(r["rating"] for r in toy.ratings.values()) == pytest.approx(3000.0)


# ------------------------------------------------------------------ outputs and CLI
def test_outputs_and_cli(tmp_path, capsys):
    code = evaluate_main(["--game", YONKAI, "--env-kwargs", '{"num_players": 3}', "--agents", "heuristic,random",
                          "--games", "3", "--seed", "2", "--out", str(tmp_path), "--no-progress"])
    assert code == 0
    out = capsys.readouterr().out
    assert "| table | agent |" in out and "openskill" in out
    summary = json.loads((tmp_path / "results.json").read_text())
    assert summary["total_games"] == 3 and summary["env_options"] == {"num_players": 3}
    rows = list(csv.DictReader((tmp_path / "results.csv").open()))
    assert {r["agent"] for r in rows} == {"heuristic", "random"}
    assert "ci_low" in rows[0] and "mean_reward_seat2" in rows[0]
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert len(games) == 3 and all("actions" in g and "deal_seed" in g for g in games)
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"


def test_ratings_plot_is_the_out_folders(tmp_path, capsys):
    """--ratings-plot writes the ratings plot where the docs embed it: the same bytes as OUT/ratings.png."""
    plot = tmp_path / "docs" / "img" / "ladder.png"
    code = evaluate_main(["--game", YONKAI, "--env-kwargs", '{"num_players": 3}', "--agents", "heuristic,random",
                          "--games", "3", "--seed", "2", "--out", str(tmp_path / "out"), "--no-progress",
                          "--ratings-plot", str(plot)])
    assert code == 0 and f"wrote {plot}" in capsys.readouterr().out
    assert plot.read_bytes() == (tmp_path / "out" / "ratings.png").read_bytes()


@pytest.mark.parametrize(("name", "message"), [("ladder.svg", "must name a .png file"), ("a_folder.png", "is a folder"),
                                               ("a_file/ladder.png", "exists and is not a folder")])
def test_bad_ratings_plot_refused_before_any_game(tmp_path, capsys, name, message, monkeypatch):
    import agents.arena.match as match

    def no_games(*args, **kw):
        raise AssertionError("a game was played")

    monkeypatch.setattr(match, "_play_all", no_games)
    (tmp_path / "a_folder.png").mkdir()
    (tmp_path / "a_file").write_text("")
    assert evaluate_main(["--game", YONKAI, "--agents", "heuristic,random", "--games", "2", "--no-progress",
                          "--ratings-plot", str(tmp_path / name)]) == 2
    assert message in capsys.readouterr().err


def test_markdown_and_one_seat_games(tmp_path):
    result = run_match(ToyTrickGame, ["random", "ismcts:iterations=20"], games=10, seed=0,
                       env_options={"num_players": 1})
    assert result.rating_kind == "none" and len(result.tables) == 2
    assert "win rate" in markdown(result)
    write_outputs(result, tmp_path)
    assert (tmp_path / "ratings.png").exists()


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"agents": ["random", "rnd"]}, ValueError, "unknown agent kind 'rnd'"),
    ({"agents": ["random"], "env_options": {"players": 4}}, ConfigError, "unknown option"),
    ({"agents": ["random", "policy:missing.zip"]}, ValueError, "not found"),
    ({"agents": ["random"], "gauntlet": "ismcts:budget=3"}, ValueError, "unknown ismcts option"),
    ({"agents": ["random"], "games": 0}, ValueError, "games must be a positive int"),
])
def test_bad_input_fails_before_any_game(kwargs, error, message, monkeypatch):
    import agents.arena.match as match

    def no_games(*args, **kw):
        raise AssertionError("a game was played")

    monkeypatch.setattr(match, "_play_all", no_games)
    with pytest.raises(error, match=message):
        run_match(YONKAI, **{"games": 2, **kwargs})


def test_cli_reports_bad_input(capsys):
    assert evaluate_main(["--game", "yonkai_v9", "--agents", "random", "--no-progress"]) == 2
    assert "unknown env id 'yonkai_v9'" in capsys.readouterr().err


def test_an_in_process_match_plays_torch_on_one_thread_and_gives_the_threads_back():
    torch = pytest.importorskip("torch")
    from agents.base import RandomAgent

    seen = []

    class Watching(RandomAgent):
        def act(self, observation, action_mask, game_view=None):
            seen.append(torch.get_num_threads())
            return super().act(observation, action_mask, game_view)

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        run_match(ToyTrickGame, [("watching", Watching(0)), "random"], games=2, seed=0)
        assert seen and set(seen) == {1}
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_a_cooperative_self_play_table_is_reported_as_the_teams_clear_rate():
    coop = run_match("onmyoji_v5", ["random"], games=2, seed=0, env_options={"mode": "coop", "difficulty": 1})
    assert coop.cooperative and "the team's clear rate" in markdown(coop)
    assert "1/2 by construction" not in markdown(coop)
    rival = run_match(ToyTrickGame, ["random"], games=2, seed=0)
    assert not rival.cooperative and "1/2 by construction" in markdown(rival)
