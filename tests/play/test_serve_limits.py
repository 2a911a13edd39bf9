"""What a game asked of ``yokai serve`` may name: bots with a capped search, files only with
--allow-files and then only regular files of bounded size (no FIFO, no /dev/zero)."""

from __future__ import annotations

import os
import time

import pytest

from tests.play.serve_client import call, create, running_server
from yokai_envs.play.serve_limits import MAX_ITERATIONS, MAX_OPTION_FILE_BYTES
from yokai_envs.registry import live_id

ONMYOJI = live_id("onmyoji")
YOKAIZO = live_id("yokaizo")
YYH = live_id("yyh_tcg")


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path / "state") as running:
        yield running


@pytest.fixture
def open_server(tmp_path):
    with running_server(tmp_path / "state", allow_files=True) as running:
        yield running


@pytest.fixture
def files(tmp_path):
    """A model-looking file, a FIFO and a card file over the size cap."""
    model = tmp_path / "model.zip"
    model.write_bytes(b"PK\x05\x06" + bytes(18))
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(MAX_OPTION_FILE_BYTES + 1)
    return {"model": str(model), "fifo": str(fifo), "big": str(big), "zero": "/dev/zero", "folder": str(tmp_path)}


def _refused(server, request, status, words, seconds=5.0):
    start = time.monotonic()
    got, answer = call(server, "POST", "/api/games", request)
    assert got == status and words in answer["error"], answer
    assert time.monotonic() - start < seconds  # refused at once: nothing read, nothing searched
    assert list(server.store.folder.glob("*.json")) == []


@pytest.mark.parametrize("spec", ["policy:{model}", "trained:{model}", "policy:{zero}", "policy:{fifo}",
                                  "ismcts:rollout=heuristic;confidence=1.0;policy={model}"])
def test_without_allow_files_an_opponent_naming_a_file_is_refused(server, files, spec):
    _refused(server, {"env_id": ONMYOJI, "opponents": spec.format(**files)}, 400, "unless started with --allow-files")


@pytest.mark.parametrize(("env_id", "options"), [
    (YYH, {"cards": "{zero}"}), (YYH, {"cards": "{fifo}"}), (YYH, {"decks": ["{fifo}", "random"]}),
    (YOKAIZO, {"decks": ["{zero}", "Kappa Tide"]}), (YOKAIZO, {"decks": "{fifo}"}),
])
def test_without_allow_files_an_option_naming_a_file_is_refused(server, files, env_id, options):
    filled = {k: [v.format(**files) for v in value] if isinstance(value, list) else value.format(**files)
              for k, value in options.items()}
    _refused(server, {"env_id": env_id, "options": filled, "opponents": "random"}, 400,
             "reads files only when started with --allow-files")


@pytest.mark.parametrize(("request_body", "words"), [
    ({"env_id": ONMYOJI, "opponents": "policy:{zero}"}, "not a regular file"),
    ({"env_id": ONMYOJI, "opponents": "policy:{fifo}"}, "not a regular file"),
    ({"env_id": ONMYOJI, "opponents": "trained:{folder}"}, "is a folder"),
    ({"env_id": YYH, "options": {"cards": "{zero}"}}, "not a regular file"),
    ({"env_id": YYH, "options": {"cards": "{fifo}"}}, "not a regular file"),
    ({"env_id": YYH, "options": {"cards": "{big}"}}, f"the server reads at most {MAX_OPTION_FILE_BYTES:,}"),
    ({"env_id": YOKAIZO, "options": {"decks": ["{fifo}", "Kappa Tide"]}}, "not a regular file"),
    ({"env_id": YOKAIZO, "options": {"decks": "{zero}"}}, "not a regular file"),
])
def test_with_allow_files_a_fifo_a_device_or_a_huge_file_is_refused_without_blocking(open_server, files,
                                                                                      request_body, words):
    def fill(value):
        if isinstance(value, str):
            return value.format(**files)
        if isinstance(value, list):
            return [fill(v) for v in value]
        return {k: fill(v) for k, v in value.items()} if isinstance(value, dict) else value

    _refused(open_server, {"opponents": "random", **fill(request_body)}, 400, words)


@pytest.mark.parametrize(("spec", "words"), [
    ("ismcts:iterations=1000000000", f"over this server's cap of {MAX_ITERATIONS:,}"),
    ("ismcts:time=100000", "over this server's cap of 10 s"),
    ("pretrained:search=true;iterations=1000000000", "over this server's cap"),
    ("rllib:/tmp/x", "RLlib models are not served"),
])
def test_a_search_over_the_cap_is_refused_at_once(server, spec, words):
    _refused(server, {"env_id": ONMYOJI, "options": {"mode": "duel"}, "opponents": spec}, 400, words)


def test_the_cap_itself_is_allowed_and_one_more_is_not(server):
    request = {"env_id": ONMYOJI, "options": {"mode": "duel"}, "seed": 1}
    assert create(server, **request, opponents=f"ismcts:iterations={MAX_ITERATIONS}")["agents"][1:] == [
        f"ismcts:iterations={MAX_ITERATIONS}"]
    over = {**request, "opponents": f"ismcts:iterations={MAX_ITERATIONS + 1}"}
    status, answer = call(server, "POST", "/api/games", over)
    assert status == 400 and "over this server's cap" in answer["error"]


@pytest.mark.parametrize("spec", ["random", "lowest", "heuristic", "heuristic:selfish=true",
                                  "ismcts:iterations=50;rollout=heuristic", "pretrained",
                                  "pretrained:search=true;iterations=20"])
def test_named_bots_and_shipped_models_play(server, spec):
    view = create(server, env_id=ONMYOJI, options={"mode": "duel"}, seat=1, opponents=spec, seed=3)
    status, after = call(server, "POST", f"/api/games/{view['game_id']}/next", {"step": 0})
    assert status == 200 and after["step"] == 1 and after["agents"] == [spec, "human"]


def test_deck_names_the_game_offers_are_never_taken_for_files(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Kappa Tide").write_text("not a deck")  # a file with a ready deck's name, where the server runs
    view = create(server, env_id=YOKAIZO, options={"decks": ["Kappa Tide", "Kitsune Blaze"]}, opponents="random")
    assert view["options"]["decks"] == ["Kappa Tide", "Kitsune Blaze"]
