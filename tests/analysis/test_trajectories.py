"""Per-decision rows (yokai_envs.trajectories, yokai export) and the games' describe_action hook."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import yokai_envs
from agents.arena.match import run_match
from agents.arena.report import write_outputs
from yokai_envs.analysis import TrajectoryError, iter_decisions
from yokai_envs.cli import main
from yokai_envs.play.replay import save_match_replays
from yokai_envs.registry import ENV_IDS, make_game


def env_of(game: str) -> str:
    (env_id,) = [e for e in ENV_IDS if e.rsplit("_v", 1)[0] == game]
    return env_id


DUEL = env_of("onmyoji")
YONKAI = env_of("yonkai_no_yokai")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_describe_action_covers_the_table(env_id: str) -> None:
    game = make_game(env_id)
    game.reset(0)
    kinds = set()
    for action in range(game.num_actions):
        described = game.describe_action(action)
        assert described["id"] == action and described["name"] == game.action_name(action)
        assert isinstance(described["kind"], str) and described["kind"]
        json.dumps(described)  # plain values only (they become Parquet columns)
        kinds.add(described["kind"])
    assert len(kinds) > 1, "a game's table has more than one kind of action"


def test_describe_action_fields_come_from_the_table() -> None:
    game = make_game(DUEL)
    game.reset(0)
    from yokai_envs.onmyoji import actions

    assert game.describe_action(actions.encode(actions.PLAY, 2)) == {
        "kind": "play", "id": actions.PLAY + 2, "name": "play Spell", "card": "Spell"}
    pick = game.describe_action(actions.encode(actions.PICK, 3))
    assert pick["kind"] == "pick" and pick["yokai"] == game.yokai_names[3] and pick["yokai_index"] == 3
    yonkai = make_game(YONKAI)
    from yokai_envs.yonkai_no_yokai.actions import action_of_play

    assert yonkai.describe_action(action_of_play(3, 5, with_button=True)) == {
        "kind": "button play", "id": action_of_play(3, 5, True), "name": "button, flip, play 555",
        "count": 3, "value": 5, "button": True}


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    for env_id, options, agents in ((DUEL, {}, ["H=heuristic", "R=random"]),
                                    (YONKAI, {"num_players": 3, "rounds_per_game": 1}, ["H=heuristic", "R=random"])):
        out = tmp_path_factory.mktemp(env_id)
        result = run_match(env_id, agents, games=2, seed=3, env_options=options, journal_dir=str(out))
        write_outputs(result, out)
        folders[env_id] = out
    return folders


def check_round_trip(rows: list[dict], folder: Path) -> None:
    """Every row is the seat's view at that step of the game it came from; returns match."""
    match = json.loads((folder / "match.json").read_text())
    records = {r["index"]: r for r in map(json.loads, (folder / "games.jsonl").read_text().splitlines())}
    by_game: dict[int, list[dict]] = {}
    for row in rows:
        by_game.setdefault(row["game"], []).append(row)
    assert set(by_game) == set(records)
    for index, game_rows in by_game.items():
        record = records[index]
        game = make_game(match["env_id"], **match["env_options"])
        game.reset(record["deal_seed"])
        assert [r["step"] for r in game_rows] == list(range(len(record["actions"])))
        for row, action in zip(game_rows, record["actions"], strict=True):
            seat = game.current_player
            assert row["seat"] == seat and row["action"] == action
            assert row["agent"] == record["seats"][seat]
            np.testing.assert_array_equal(np.asarray(row["observation"], dtype=np.float32), game.observation(seat))
            legal = int(game.legal_action_mask().sum())
            assert row["legal_actions"] == legal and row["forced"] == (legal == 1)
            assert row["legal_action_ids"] == np.flatnonzero(game.legal_action_mask()).tolist()
            if row["agent"] == "R":  # the random bot: uniform over the legal ids
                assert row["behaviour_prob"] == pytest.approx(1 / legal)
                assert row["behaviour_entropy"] == pytest.approx(np.log(legal))
            else:  # a heuristic has no distribution
                assert row["behaviour_prob"] is None and row["behaviour_entropy"] is None
            assert row["action_name"] == game.action_name(action)
            game.step(action)
        assert game.is_over
        for seat, final in enumerate(record["returns"]):
            seat_rewards = [row["reward"] for row in game_rows if row["seat"] == seat]
            assert sum(seat_rewards) == pytest.approx(final if seat_rewards else 0.0)
        for row in game_rows:
            assert row["returns"] == pytest.approx(record["returns"])
            assert row["return"] == pytest.approx(record["returns"][row["seat"]])


@pytest.mark.parametrize("which", ["duel", "yonkai"])
def test_rows_round_trip_to_their_games(arena: dict[str, Path], which: str) -> None:
    folder = arena[DUEL if which == "duel" else YONKAI]
    rows = list(iter_decisions(folder))
    check_round_trip(rows, folder)


def test_log_is_what_the_seat_saw_since_its_last_decision(arena: dict[str, Path]) -> None:
    rows = [r for r in iter_decisions(arena[DUEL]) if r["game"] == 0]
    record = json.loads((arena[DUEL] / "games.jsonl").read_text().splitlines()[0])
    game = make_game(DUEL)
    game.replay(record["deal_seed"], record["actions"])
    for seat in range(game.num_players):
        mine = [r for r in rows if r["seat"] == seat]
        joined = [line for r in mine for line in r["log"]]
        full = game.public_log(seat)
        assert full[:len(joined)] == joined  # the rows' logs tile the seat's public log, in order
        assert [e for r in mine for e in r["events"]] == [list(e) for e in game.seen_events(seat)[:len(joined)]]
    assert any("reveals" in line for r in rows for line in r["log"])  # reveals are in the public record


def test_parquet_and_replay_files_give_the_same_rows(arena: dict[str, Path], tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas", reason="needs the 'analysis' extra")
    pytest.importorskip("pyarrow", reason="needs the 'analysis' extra")
    folder = arena[DUEL]
    out = tmp_path / "duel.parquet"
    assert main(["export", "--from", str(folder), "--out", str(out), "--state-tensor"]) == 0
    frame = pd.read_parquet(out)
    rows = frame.to_dict("records")
    for row in rows:
        row["observation"] = list(row["observation"])
        row["returns"] = list(row["returns"])
        row["legal_action_ids"] = list(row["legal_action_ids"])
        for key in ("behaviour_prob", "behaviour_entropy"):  # Parquet reads a missing float as NaN
            row[key] = None if row[key] is None or np.isnan(row[key]) else row[key]
    check_round_trip(rows, folder)
    assert "state_tensor" in frame and frame["forced"].dtype == bool
    assert {"action_card", "action_target"} <= set(frame.columns)
    # the same games from replay files
    result = run_match(DUEL, ["H=heuristic", "R=random"], games=2, seed=3)
    save_match_replays(result, tmp_path / "replays", count=len(result.records))
    again = yokai_envs.trajectories(tmp_path / "replays")
    assert len(again) == len(frame)
    assert again["action"].tolist() == frame["action"].tolist()
    assert again["return"].tolist() == frame["return"].tolist()


def test_export_jsonl_needs_no_pandas(arena: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    assert main(["export", "--from", str(arena[YONKAI] / "games.jsonl"), "--out", str(out), "--no-observation"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and "observation" not in rows[0] and rows[0]["env_id"] == YONKAI


def test_a_record_that_does_not_rebuild_is_an_error(arena: dict[str, Path], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    forged = tmp_path / "forged"
    forged.mkdir()
    (forged / "match.json").write_text((arena[DUEL] / "match.json").read_text())
    lines = (arena[DUEL] / "games.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["returns"] = [-r for r in record["returns"]]
    (forged / "games.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(TrajectoryError, match="rebuilds to returns"):
        list(iter_decisions(forged))
    assert main(["export", "--from", str(forged), "--out", str(tmp_path / "x.jsonl")]) == 2
    assert "rebuilds to returns" in capsys.readouterr().err
    record["returns"] = [float("nan")] * len(record["returns"])  # json writes NaN; it matches nothing
    (forged / "games.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(TrajectoryError, match="rebuilds to returns"):
        list(iter_decisions(forged))
    with pytest.raises(TrajectoryError, match=r"no match\.json"):
        (tmp_path / "lone").mkdir()
        (tmp_path / "lone" / "games.jsonl").write_text(lines[0] + "\n")
        list(iter_decisions(tmp_path / "lone" / "games.jsonl"))


def test_a_behaviour_record_that_does_not_fit_the_game_is_an_error(arena: dict[str, Path],
                                                                   tmp_path: Path) -> None:
    forged = tmp_path / "forged"
    forged.mkdir()
    (forged / "match.json").write_text((arena[DUEL] / "match.json").read_text())
    record = json.loads((arena[DUEL] / "games.jsonl").read_text().splitlines()[0])
    assert "behaviour" in record and len(record["behaviour"]) == len(record["actions"])
    played = next(i for i, entry in enumerate(record["behaviour"]) if entry is not None)
    record["behaviour"][played] = [0.0, 0.0]  # the action taken had no chance of being played
    (forged / "games.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(TrajectoryError, match="cannot have played it"):
        list(iter_decisions(forged))
    record["behaviour"] = record["behaviour"][:-1]
    (forged / "games.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(TrajectoryError, match="behaviour entries for"):
        list(iter_decisions(forged))


def test_search_and_policy_agents_expose_the_distribution_they_chose_from() -> None:
    from agents.base import act_in_game
    from agents.ismcts import ISMCTSAgent

    game = make_game(DUEL)
    game.reset(5)
    while len(game.legal_actions()) < 2:
        game.step(game.legal_actions()[0])
    search = ISMCTSAgent(iterations=30, seed=1)
    action = act_in_game(search, game)
    shares = search.last_distribution()
    assert shares is not None and shares.sum() == pytest.approx(1.0) and shares[action] > 0
    assert set(np.flatnonzero(shares)) <= set(game.legal_actions())
    assert ISMCTSAgent(iterations=5, search="flat", seed=1).last_distribution() is None


def test_games_jsonl_is_read_as_the_arena_reads_it(arena: dict[str, Path], tmp_path: Path) -> None:
    """A last line cut off by a kill is dropped; an unreadable line before it is an error, not a
    game silently left out of the data."""
    folder = tmp_path / "cut"
    folder.mkdir()
    (folder / "match.json").write_text((arena[DUEL] / "match.json").read_text())
    lines = (arena[DUEL] / "games.jsonl").read_text().splitlines()
    whole = {row["game"] for row in iter_decisions(arena[DUEL])}
    (folder / "games.jsonl").write_text("\n".join([*lines, lines[0][:20]]) + "\n")
    with pytest.warns(UserWarning, match="the last line is cut off"):  # reported, never silent
        assert {row["game"] for row in iter_decisions(folder)} == whole
    (folder / "games.jsonl").write_text("\n".join([lines[0][:20], *lines]) + "\n")
    with pytest.raises(TrajectoryError, match="line 1 is not JSON"):
        list(iter_decisions(folder))


def test_the_duel_analysis_example_runs(arena: dict[str, Path]) -> None:
    pytest.importorskip("pandas", reason="needs the 'analysis' extra")
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "examples" / "analysis.py"), str(arena[DUEL])],
                          capture_output=True, text=True, timeout=300, env={**__import__("os").environ,
                                                                             "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr
    assert "forced decisions:" in done.stdout and "win rate when first player" in done.stdout
    assert len((root / "examples" / "analysis.py").read_text().splitlines()) < 31
