"""``yokai serve`` without a browser: the JSON API, refusals, saved games, and what a seat is shown."""

from __future__ import annotations

import copy
import json
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from tests.play.serve_client import call, create, play_until, running_server, url
from yokai_envs.cli import main
from yokai_envs.play.replay import Replay, game_result, state_digest
from yokai_envs.play.serve import ApiError, Store, catalog
from yokai_envs.play.serve_page import game_page
from yokai_envs.registry import live_id

YONKAI = live_id("yonkai_no_yokai")
YOKAIZO = live_id("yokaizo")
ONMYOJI = live_id("onmyoji")
YYH = live_id("yyh_tcg")

YONKAI3 = {"env_id": YONKAI, "options": {"num_players": 3, "rounds_per_game": 1}}


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path / "state") as running:
        yield running


def test_the_api_plays_a_game_to_the_end_and_its_replay_rebuilds_the_result(server, tmp_path, capsys):
    view = create(server, **YONKAI3, seat=1, opponents="random,heuristic", seed=5)
    assert view["agents"] == ["random", "human", "heuristic"] and view["seed"] is None  # no seed before the end
    view = play_until(server, view, seed=1)
    assert view["over"] and view["result"]["terminal"] and view["seed"] == "5"
    status, replay = call(server, "GET", view["replay_url"])
    assert status == 200
    rebuilt = Replay.from_json(replay).build_game()
    assert game_result(rebuilt) == view["result"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(replay))
    assert main(["replay", str(path), "--all"]) == 0
    assert "finished; returns: player 0 (random)" in capsys.readouterr().out


def test_a_downloaded_replay_is_signed_and_refused_once_edited(server, tmp_path, capsys):
    from yokai_envs.core.signing import HMAC_FIELD
    from yokai_envs.play import load_replay, replay_digest

    view = play_until(server, create(server, **YONKAI3, seat=0, opponents="random,heuristic", seed=3), seed=2)
    status, replay = call(server, "GET", view["replay_url"])
    assert status == 200 and HMAC_FIELD in replay
    path = tmp_path / "game.json"
    path.write_text(json.dumps(replay))
    assert load_replay(path).verified
    assert main(["replay", str(path), "--all"]) == 0
    assert "not signed" not in capsys.readouterr().err  # who played each seat is checked too
    # The human claims the heuristic's seat: a legal game, its digest redone as anyone can.
    game = Replay.from_json(replay).build_game()
    swapped = [replay["agents"][2], replay["agents"][1], replay["agents"][0]]
    path.write_text(json.dumps({**replay, "agents": swapped, "final_state_sha256": replay_digest(game, swapped)}))
    assert main(["replay", str(path), "--all"]) == 2
    assert "does not match its signature: it was edited after it was written" in capsys.readouterr().err


def test_the_catalog_reads_each_games_options_and_choices_from_the_game_class():
    games = {g["env_id"]: g["options"] for g in catalog()["games"]}
    assert games[YONKAI]["num_players"]["choices"] == [3, 4]
    assert games[ONMYOJI]["mode"]["choices"] == ["duel", "solo", "coop"]
    assert games[ONMYOJI]["difficulty"]["choices"] == list(range(1, 11))
    characters, decks = games[ONMYOJI]["characters"], games[YYH]["decks"]
    assert characters["per_seat"] == 2 and "Seimei" in characters["choices"]
    assert decks["per_seat"] == 2 and "Toguro Brothers" in decks["choices"] and decks["default"] == ["random"] * 2
    assert "Kappa Tide" in games[YOKAIZO]["decks"]["choices"]


def _saved(server, game_id: str) -> str:
    return (server.store.folder / f"{game_id}.json").read_text()


def test_bad_requests_get_a_clear_error_and_leave_the_game_unchanged(server):
    view = play_until(server, create(server, **YONKAI3, seat=0, opponents="random", seed=2), stop_at=1)
    game = view["game_id"]
    before, file_before = call(server, "GET", f"/api/games/{game}")[1], _saved(server, game)
    illegal = next(a for a in range(200) if a not in {x["id"] for x in view["legal"]})
    refusals = [
        ("POST", f"/api/games/{game}/action", {"action": illegal}, None, 400, "is not legal now"),
        ("POST", f"/api/games/{game}/action", {"action": 10**6}, None, 400, "there is no action 1000000"),
        ("POST", f"/api/games/{game}/action", {"action": "3"}, None, 400, "must be an action id"),
        ("POST", f"/api/games/{game}/action", {"action": True}, None, 400, "must be an action id"),
        ("POST", f"/api/games/{game}/action", {}, None, 400, "like {\"action\""),
        ("POST", f"/api/games/{game}/action", None, b"{not json", 400, "not valid JSON"),
        ("POST", f"/api/games/{game}/action", {"action": view["legal"][0]["id"], "step": view["step"] - 1},
         None, 409, "stale request"),
        ("POST", f"/api/games/{game}/next", {}, None, 409, "it is your turn"),
        ("GET", f"/api/games/{game}/replay", None, None, 409, "once the game is over"),
        ("GET", "/api/games/0123456789ab", None, None, 404, "no game '0123456789ab'"),
        ("POST", "/api/games/0123456789ab/action", {"action": 1}, None, 404, "no game"),
        ("GET", "/api/games/..%2fsecret", None, None, 404, "is not a game id"),
        ("GET", "/api/nothing", None, None, 404, "no such page or API route"),
    ]
    for method, path, body, raw, status, words in refusals:
        got, answer = call(server, method, path, body, raw)
        assert got == status and words in answer["error"], (path, body, answer)
    assert call(server, "GET", f"/api/games/{game}")[1] == before
    assert _saved(server, game) == file_before


@pytest.mark.parametrize(("request_body", "words"), [
    ({"env_id": "nope"}, "unknown env id 'nope'"),
    ({"env_id": ONMYOJI, "options": {"mode": "tag"}}, "mode"),
    ({"env_id": ONMYOJI, "seat": 2}, "seat 2 is out of range"),
    ({"env_id": ONMYOJI, "opponents": "heuristik"}, "unknown agent kind 'heuristik'"),
    ({"env_id": ONMYOJI, "opponents": ["random", "random"]}, "only 1 other seat"),
    ({"env_id": ONMYOJI, "colour": "red"}, "unknown field(s) colour"),
    ({"env_id": ONMYOJI, "seed": -1}, "'seed' must be a non-negative integer"),
    ([1, 2], "must be a JSON object"),
])
def test_a_bad_new_game_request_is_refused_and_nothing_is_saved(server, request_body, words):
    status, answer = call(server, "POST", "/api/games", request_body)
    assert status == 400 and words in answer["error"], answer
    assert list(server.store.folder.glob("*.json")) == []


def test_a_restarted_server_continues_every_saved_game(tmp_path):
    state = tmp_path / "state"
    with running_server(state) as first:
        one = play_until(first, create(first, env_id=ONMYOJI, options={"mode": "duel"}, seat=1, seed=4),
                         stop_at=6)
        two = play_until(first, create(first, **YONKAI3, seat=2, seed=9), stop_at=4)
    with running_server(state) as second:  # a new server object and Store on the same folder
        for view in (one, two):
            status, again = call(second, "GET", f"/api/games/{view['game_id']}")
            assert status == 200 and again == view
        finished = play_until(second, one, seed=3)
        assert finished["over"] and finished["step"] > one["step"]
        listed = {g["game_id"] for g in call(second, "GET", "/api/games")[1]["games"]}
        assert listed == {one["game_id"], two["game_id"]}
        with urllib.request.urlopen(url(second, "/"), timeout=30) as answer:  # the first page lists them
            home = answer.read().decode()
        assert one["game_id"] in home and two["game_id"] in home


def test_the_page_and_view_of_a_seat_are_the_same_for_twin_games_differing_in_hidden_cards(tmp_path):
    """Twin histories: a world sampled by ``determinize`` for the human's seat keeps everything
    that seat saw and redraws every card it did not; its view and page must not change."""
    configs = [(YONKAI3["env_id"], YONKAI3["options"], 1), (YOKAIZO, {}, 0), (YYH, {}, 1),
               (ONMYOJI, {"mode": "duel"}, 0), (ONMYOJI, {"mode": "coop"}, 1)]
    store = Store(tmp_path)
    for env_id, options, seat in configs:
        session = store.create({"env_id": env_id, "options": options, "seat": seat, "opponents": "random",
                                "seed": 11})
        for _ in range(4):  # a few moves in, then the human to act
            while session.game.current_player != seat:
                session.advance()
            session.act(session.game.legal_actions()[-1])
        while session.game.current_player != seat:
            session.advance()
        assert not session.game.is_over
        twin = copy.copy(session)
        worlds = (session.game.determinize(seat, np.random.default_rng(k)) for k in range(20))
        twin.game = next(w for w in worlds if state_digest(w) != state_digest(session.game))  # hidden cards differ
        assert twin.view() == session.view(), env_id
        assert game_page(twin.view()) == game_page(session.view())


def test_a_session_refuses_an_action_while_a_bot_is_to_move(tmp_path):
    session = Store(tmp_path).create({"env_id": ONMYOJI, "seat": 1, "opponents": "random", "seed": 0})
    bot = 1 - session.seat
    while session.game.current_player != bot:
        session.act(session.game.legal_actions()[0])
    steps = session.game.steps
    with pytest.raises(ApiError, match=f"it is player {bot}'s turn \\(random\\), not yours"):
        session.act(session.game.legal_actions()[0])
    assert session.game.steps == steps


def test_an_unknown_game_page_says_so_in_the_page(server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url(server, "/games/0123456789ab"), timeout=30)
    page = refused.value.read().decode()
    assert refused.value.code == 404 and "no game &#x27;0123456789ab&#x27;" not in page
    assert "no game '0123456789ab' on this server" in page and 'id="error"' in page


def test_serve_is_a_yokai_subcommand():
    with pytest.raises(SystemExit):
        main(["serve", "--help"])


@pytest.mark.parametrize("edit", ["{broken", "actions", "format"])
def test_a_game_file_that_cannot_be_loaded_is_an_error_naming_it(server, edit):
    game_id = create(server, **YONKAI3, seed=1)["game_id"]
    server.store.sessions.clear()  # as after a restart: the game is read from its file
    path = Path(server.store.folder) / f"{game_id}.json"
    saved = json.loads(path.read_text())
    text = edit if edit.startswith("{") else json.dumps({**saved, edit: [10**6] if edit == "actions" else "other"})
    path.write_text(text)
    status, answer = call(server, "GET", f"/api/games/{game_id}")
    assert status == 500 and f"{game_id}.json cannot be loaded" in answer["error"], answer


def test_onmyoji_a_face_down_choice_does_not_reach_the_other_seat_before_the_reveal(tmp_path):
    """Simultaneous choices are asked in turn: the bot in seat 0 picks its card first. Two games
    where it picked different cards give the human in seat 1 the same view until the reveal."""
    store = Store(tmp_path)
    request = {"env_id": ONMYOJI, "options": {"mode": "duel"}, "seat": 1, "opponents": "random", "seed": 2}
    one, two = store.create(request), store.create(request)
    assert one.game.current_player == 0
    choices = one.game.legal_actions()
    names = {one.game.action_name(a) for a in choices}
    assert len(names) > 1, names  # the bot has different cards to choose from
    one._step(choices[0])
    two._step(choices[-1])
    assert one.game.current_player == 1 and state_digest(one.game) != state_digest(two.game)
    mine, theirs = one.view(), two.view()
    assert mine["moves"][-1]["seen"] == "play a card face down"
    assert {**mine, "game_id": ""} == {**theirs, "game_id": ""}  # the same table, log, moves and legal actions


class _BrokenBot:
    def act(self, observation, mask):
        raise RuntimeError("the checkpoint went away")


def test_a_bot_that_fails_mid_game_is_an_error_in_the_answer_and_the_server_keeps_serving(server):
    game_id = create(server, env_id=ONMYOJI, seat=1, opponents="random", seed=0)["game_id"]
    session = server.store.get(game_id)
    while session.game.current_player != 0:
        session.act(session.game.legal_actions()[0])
    session.bots[0] = _BrokenBot()
    before = call(server, "GET", f"/api/games/{game_id}")[1]
    status, answer = call(server, "POST", f"/api/games/{game_id}/next", {})
    assert status == 500 and "RuntimeError: the checkpoint went away" in answer["error"]
    assert call(server, "GET", f"/api/games/{game_id}")[1] == before


def test_yokai_serve_listens_on_the_port_it_prints(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    command = [sys.executable, "-m", "yokai_envs.cli", "serve", "--port", "0", "--state-dir", str(tmp_path)]
    # Ctrl-C as a terminal sends it: a SIGINT the server's process does not inherit as ignored (a
    # test runner started in the background, or a test before this one, may have set it so here,
    # and an ignored signal stays ignored across exec)
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = server.stdout.readline() if server.stdout else ""
        address = line.split()[2].rstrip("/")
        assert line.startswith("yokai serve: http://127.0.0.1:") and str(tmp_path) in line
        token = (server.stdout.readline() if server.stdout else "").split()[-1]
        with pytest.raises(urllib.error.HTTPError, match="403"):  # the API needs the printed token
            urllib.request.urlopen(f"{address}/api/catalog", timeout=30)
        catalog = urllib.request.Request(f"{address}/api/catalog", headers={"X-Yokai-Token": token})
        with urllib.request.urlopen(catalog, timeout=30) as answer:
            assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
            assert YOKAIZO in {g["env_id"] for g in json.loads(answer.read())["games"]}
        with urllib.request.urlopen(f"{address}/", timeout=30) as answer:
            page = answer.read().decode()
        assert "http://" not in page.replace(address, "") and "https://" not in page  # every asset inline
    finally:
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=60)  # drains both pipes while it waits
    assert server.returncode == 0, errors
