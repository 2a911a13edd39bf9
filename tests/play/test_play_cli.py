"""``yokai play``: a human seat driven by piped answers."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from agents.base import RandomAgent
from tests.conftest import conformance_params
from tests.play.helpers import YONKAI, ToyPickGame
from yokai_envs.cli import main
from yokai_envs.cli.play import Terminal, parse_choice, play_game
from yokai_envs.play import load_replay
from yokai_envs.registry import make_game

SHORT = '{"num_players": 3, "rounds_per_game": 1}'


def _run(monkeypatch, capsys, answers: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _every_action(n: int = 49, repeats: int = 80) -> str:
    # Trying every number in turn: illegal ones are refused, the first legal one is played.
    return "\n".join(str(a) for _ in range(repeats) for a in range(n)) + "\n"


def test_play_a_whole_game_and_save_a_replay(monkeypatch, capsys, tmp_path):
    path = tmp_path / "mine.json"
    code, out, _ = _run(monkeypatch, capsys, "? kappa\nhelp\nxyz\n999\n" + _every_action(),
                        "--game", YONKAI, "--env-kwargs", SHORT, "--vs", "heuristic,random", "--seat", "1",
                        "--seed", "5", "--save-replay", str(path))
    assert code == 0
    assert "no named cards" in out
    assert "'xyz' is not a legal action or a command" in out
    assert "there is no action 999" in out
    assert "is not legal now" in out
    assert "your decision" in out and "returns:" in out and "(you)" in out
    replay = load_replay(path)
    assert replay.agents == ["heuristic", "human", "random"] and replay.seed == 5 and replay.result["terminal"]
    assert replay.build_game().is_terminal


def test_the_human_never_sees_another_hand(monkeypatch, capsys):
    _, out, _ = _run(monkeypatch, capsys, _every_action(), "--game", YONKAI, "--env-kwargs", SHORT,
                     "--vs", "random", "--seat", "2", "--seed", "9")
    shown = re.findall(r"player (\d): (\S+)( cards)?\s+cubes", out)  # table rows; a hidden hand: "15 cards"
    assert {seat for seat, _, _ in shown} == {"0", "1", "2"}, "no table was drawn"
    for seat, cards, hidden in shown:
        assert bool(hidden) == (seat != "2"), f"player {seat}'s row is wrong: {cards}{hidden}"


def test_names_and_unique_prefixes_are_accepted():
    game = make_game(YONKAI, num_players=3)
    game.reset(0)
    legal = [int(a) for a in game.legal_action_mask().nonzero()[0]]
    name = game.action_name(legal[0])
    assert parse_choice(game, name.upper()) == (legal[0], "")
    assert parse_choice(game, str(legal[0])) == (legal[0], "")
    action, problem = parse_choice(game, "pla")
    assert action is None and "type the number" in problem
    action, problem = parse_choice(game, "0")  # pass is never legal at the lead
    assert action is None and "(pass) is not legal now" in problem


def test_input_ending_abandons_the_game(monkeypatch, capsys, tmp_path):
    code, out, _ = _run(monkeypatch, capsys, "", "--game", YONKAI, "--env-kwargs", SHORT, "--vs", "random",
                        "--save-replay", str(tmp_path / "part.json"))
    assert code == 1 and "game abandoned (input ended)" in out
    replay = load_replay(tmp_path / "part.json")
    assert not replay.result["terminal"]
    replay.build_game()  # an unfinished game replays too


@pytest.mark.parametrize(("target", "message"), [
    ("/proc/no/such/dir/r.json", "cannot write in /proc"),
    ("FOLDER", "is a folder"),
    ("EXISTING", "already exists"),
])
def test_a_replay_path_is_checked_before_the_game(monkeypatch, capsys, tmp_path, target, message):
    existing = tmp_path / "mine.json"
    existing.write_text("keep me")
    path = {"FOLDER": str(tmp_path), "EXISTING": str(existing)}.get(target, target)
    code, out, err = _run(monkeypatch, capsys, "q\n", "--game", YONKAI, "--vs", "random", "--save-replay", path)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert "you are player" not in out  # refused before the deal
    assert existing.read_text() == "keep me"


def test_quit(monkeypatch, capsys):
    code, out, _ = _run(monkeypatch, capsys, "q\n", "--game", YONKAI, "--vs", "random")
    assert code == 1 and "game abandoned (quit)" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "yonkai_no_yokai_v9"], "unknown env id 'yonkai_no_yokai_v9'"),
    (["--game", "chess"], "unknown env id 'chess'"),
    (["--game", YONKAI, "--seat", "4"], "--seat 4 is out of range"),
    (["--game", YONKAI, "--env-kwargs", SHORT, "--seat", "3"], "seats 0..2"),
    (["--game", YONKAI, "--seat", "-1"], "out of range"),
    (["--game", YONKAI, "--env-kwargs", "{oops"], "not valid JSON"),
    (["--game", YONKAI, "--env-kwargs", "[1]"], "must be a JSON object"),
    (["--game", YONKAI, "--env-kwargs", '{"colour": 1}'], "unknown option(s) colour"),
    (["--game", YONKAI, "--vs", "wizard"], "unknown agent kind 'wizard'"),
    (["--game", YONKAI, "--vs", "random,random,random,random"], "4 agents but there are only 3"),
])
def test_bad_arguments(monkeypatch, capsys, argv, message):
    code, out, err = _run(monkeypatch, capsys, "", *argv)
    assert code == 2 and message in err and "yokai play: error:" in err
    assert out == ""


class _Answers(io.StringIO):
    """stdin that answers each prompt with a legal action of ``game`` (name or number)."""

    def __init__(self, game, seed: int, out: io.StringIO) -> None:
        super().__init__()
        self.game = game
        self.out = out
        self.agent = RandomAgent(seed)
        self.count = 0

    def readline(self, *_args) -> str:
        self.count += 1
        assert self.count < 5000, "the play loop keeps asking"
        if self.out.getvalue().endswith("Confirm? [y/n] "):
            return "y\n"
        game = self.game
        action = self.agent.act(game.observation(game.current_player), game.legal_action_mask())
        if self.count % 7 == 0:
            return "not an action\n"
        if self.count % 2:
            return f"{action}\n"
        return f"{game.action_name(action)}\n"


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_every_game_and_mode_is_playable(env_id, options):
    """A human (answering at random, by number and by name, with mistakes) finishes every game."""
    game = make_game(env_id, **options, max_steps=400)
    game.reset(2)
    human = 0
    bots = {s: RandomAgent(s) for s in range(1, game.num_players)}
    labels = ["human"] + ["random"] * (game.num_players - 1)
    out = io.StringIO()
    stdin = _Answers(game, 1, out)
    play_game(game, human, bots, labels, Terminal(stdin, out))
    assert game.is_over


def test_confirmation_on_the_last_step_of_a_multi_part_choice():
    game = ToyPickGame()
    game.reset(0)
    # turn 1: pick 3, pick 2, refuse -> back to the first pick; pick 1, pick 1, confirm.
    stdin = io.StringIO("3\n2\nn\n1\n1\nmaybe\ny\n" "0\n0\ny\n")
    out = io.StringIO()
    play_game(game, 0, {1: RandomAgent(0)}, ["human", "random"], Terminal(stdin, out))
    text = out.getvalue()
    assert text.count("ends your choice. Confirm?") == 4
    assert "cancelled: make this choice again from its start" in text
    assert "please answer y or n" in text
    assert game.is_terminal
    human_actions = [a for i, a in enumerate(game.action_history) if (i // 2) % 2 == 0]
    assert human_actions == [1, 1, 0, 0]  # the refused 3, 2 left no trace
    rebuilt = ToyPickGame()
    rebuilt.replay(0, game.action_history)
    assert np.array_equal(rebuilt.state_tensor(), game.state_tensor())


@pytest.mark.skipif("onmyoji_v5" not in __import__("yokai_envs").ENV_IDS, reason="onmyoji_v5 is not registered")
def test_onmyoji_coop_with_a_bot_partner(monkeypatch, capsys, tmp_path):
    # Every action number in turn, then "y": refused numbers are asked again, "y" confirms.
    cycle = "\n".join([*(str(a) for a in range(86)), "y"]) + "\n"
    code, out, _ = _run(monkeypatch, capsys, "? Kappa\n" + cycle * 400, "--game", "onmyoji_v5",
                        "--env-kwargs", '{"mode": "coop", "max_steps": 300}', "--vs", "heuristic", "--seed", "4",
                        "--save-replay", str(tmp_path / "coop.json"))
    assert code == 0 and "returns:" in out
    assert "Kappa  [yokai]" in out  # the card lookup
    assert "player 1 (heuristic):" in out and "ends your choice. Confirm? [y/n]" in out
    replay = load_replay(tmp_path / "coop.json")
    assert replay.agents == ["human", "heuristic"] and replay.options["mode"] == "coop"
    replay.build_game()


def test_plain_text_without_rich(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "rich.console", None)  # as if rich were not installed
    code, out, _ = _run(monkeypatch, capsys, "zzz\nq\n", "--game", YONKAI, "--vs", "random")
    assert code == 1 and "== step " in out and "'zzz' is not a legal action" in out and "╭" not in out
