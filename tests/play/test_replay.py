"""Replay files: exact reproduction for every registered game, and refusal of bad files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.conftest import conformance_params
from tests.play.helpers import YONKAI, finished_yonkai, play_random
from yokai_envs.core.protocols import ends_multi_part_choice, public_action_name, table_view
from yokai_envs.play import Replay, ReplayError, load_replay, replay_digest, save_replay
from yokai_envs.registry import make_game


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_replay_reproduces_final_state(tmp_path, env_id, options):
    game = make_game(env_id, **options, max_steps=300)  # short games; a truncated one must reproduce too
    game.reset(11)
    play_random(game, seed=3)
    path = save_replay(tmp_path / "game.json", game, ["random"] * game.num_players, source="test")
    replay = load_replay(path)
    assert replay.env_id == env_id and replay.seed == 11 and replay.actions == game.action_history
    assert replay.result["returns"] == list(game.returns())
    rebuilt = replay.build_game()
    assert np.array_equal(rebuilt.state_tensor(), game.state_tensor())
    assert np.array_equal(rebuilt.returns(), game.returns())
    assert rebuilt.is_terminal == game.is_terminal and rebuilt.is_truncated == game.is_truncated


def test_replay_file_fields(tmp_path):
    game = finished_yonkai()
    data = json.loads(save_replay(tmp_path / "r.json", game, ["human", "heuristic", "random"]).read_text())
    assert data["format"] == "yokai-replay" and data["env_id"] == YONKAI
    assert data["options"] == {"num_players": 3, "reward": "win", "rounds_per_game": 1, "max_steps": 5000}
    assert data["agents"] == ["human", "heuristic", "random"]
    assert data["package_version"] and data["final_state_sha256"] == replay_digest(game, data["agents"])
    assert data["result"]["terminal"] is True and len(data["result"]["returns"]) == 3


def _saved(tmp_path, **changes):
    game = finished_yonkai()
    data = Replay.record(game, ["random"] * 3).to_json()
    data.update(changes)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("env_id", "message"), [
    ("yonkai_no_yokai_v0", "recorded with env 'yonkai_no_yokai_v0' but this yokai-envs"),
    ("yonkai_no_yokai_v12", "only plays on the env version that recorded it"),
    ("chess_v0", "unknown env 'chess_v0'"),
])
def test_other_env_version_or_game_is_refused(tmp_path, env_id, message):
    with pytest.raises(ReplayError, match=message):
        load_replay(_saved(tmp_path, env_id=env_id)).build_game()


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(ReplayError, match="does not exist"):
        load_replay(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ReplayError, match="not valid JSON"):
        load_replay(bad)
    bad.write_text(json.dumps({"hello": 1}))
    with pytest.raises(ReplayError, match="not a yokai replay file"):
        load_replay(bad)
    with pytest.raises(ReplayError, match="format version 99"):
        load_replay(_saved(tmp_path, format_version=99))
    with pytest.raises(ReplayError, match="'actions' must be a list"):
        load_replay(_saved(tmp_path, actions="0 1 2"))
    with pytest.raises(ReplayError, match=r"actions\[1\] must be a non-negative integer"):
        load_replay(_saved(tmp_path, actions=[1, "x"]))


def test_illegal_action_or_tampered_state_is_refused(tmp_path):
    replay = load_replay(_saved(tmp_path))
    replay.actions[0] = 0  # pass at the lead: never legal
    with pytest.raises(ReplayError, match="at step 1"):
        replay.build_game()
    with pytest.raises(ReplayError, match="did not reproduce"):
        load_replay(_saved(tmp_path, final_state_sha256="0" * 64)).build_game()
    with pytest.raises(ReplayError, match="do not fit"):
        load_replay(_saved(tmp_path, options={"num_players": 7})).build_game()
    with pytest.raises(ReplayError, match="names 2 agents"):
        load_replay(_saved(tmp_path, agents=["random", "random"])).build_game()


def test_record_checks_agent_count_and_seed():
    with pytest.raises(ReplayError, match="2 agent spec"):
        Replay.record(finished_yonkai(), ["random", "random"])
    game = make_game(YONKAI)
    game.reset(None)
    with pytest.raises(ReplayError, match="integer seed"):
        Replay.record(game, ["random"] * 4)


def test_steps_report_what_each_seat_saw():
    game = finished_yonkai()
    replay = Replay.record(game, ["random"] * 3)
    steps = list(replay.steps())
    assert len(steps) == len(game.action_history) + 1 and steps[0].actor is None
    first = steps[1]
    assert first.seen[None] == game.action_name(game.action_history[0])
    assert first.seen[0].startswith(f"{first.seen[None]} (lead), ")  # Yonkai plays are public, with the hand left


def test_without_viewer_hooks_an_action_is_shown_to_its_taker_only():
    from tests.play.helpers import ToyPickGame

    game = ToyPickGame()
    game.reset(0)
    assert public_action_name(game, 2, 0) == "pick 2"  # seat 0 is deciding
    assert public_action_name(game, 2, 1) is None
    assert ends_multi_part_choice(game, 2) is None  # the fallback: the game does not say
    view = table_view(game, 1)
    assert view["title"].startswith("toy pick") and view["to_act"] == 0 and view["zones"] == []


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_each_step_carries_the_public_log_lines_it_added(env_id, options):
    """The viewers show a seat's public log step by step: the pieces add up to the whole log."""
    game = make_game(env_id, **options, max_steps=200)
    game.reset(5)
    play_random(game, seed=2)
    replay = Replay.record(game, ["random"] * game.num_players)
    pieces: dict[int, list[str]] = {seat: [] for seat in range(game.num_players)}
    last = None
    for step in replay.steps():
        for seat, lines in step.log.items():
            pieces[seat] += lines
        last = step.game
    assert last is not None
    for seat in range(game.num_players):
        assert pieces[seat] == last.public_log(seat) == game.public_log(seat)


def test_viewers_show_what_a_seat_saw_happen():
    """Terminal replay, HTML page and `yokai play` all show the seat's public-log lines (reveals,
    damage...) beside the decision."""
    import io

    from agents.base import RandomAgent
    from tests.play.test_play_cli import _Answers
    from yokai_envs.cli.play import Terminal, play_game
    from yokai_envs.cli.replay import frame
    from yokai_envs.play.html import page_data

    env_id = next(e for e in __import__("yokai_envs").ENV_IDS if e.startswith("onmyoji"))
    game = make_game(env_id, mode="duel", max_steps=150)
    game.reset(4)
    play_random(game, seed=1)
    replay = Replay.record(game, ["random", "random"])
    headers = [frame(replay, step, 1, len(replay.actions))[0] for step in replay.steps()]
    assert any("\n  · " in header for header in headers)
    data = page_data(replay)
    assert any(step["views"]["1"]["log"] for step in data["steps"])
    assert "log" not in data["steps"][1]["views"]["omniscient"]
    game = make_game(env_id, mode="duel", max_steps=150)
    game.reset(4)
    out = io.StringIO()
    play_game(game, 0, {1: RandomAgent(1)}, ["human", "random"], Terminal(_Answers(game, 1, out), out))
    assert "  · " in out.getvalue()
