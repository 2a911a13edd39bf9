"""``yokai serve``'s state folder and games under stress: a full disk, an unwritable folder, bad
saved files, a slow model load beside another game, and a server started beyond loopback."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.play.serve_client import call, create, play_until, running_server, url
from yokai_envs.cli import main
from yokai_envs.cli.serve import Server
from yokai_envs.play import serve
from yokai_envs.play.serve import MAX_SAVED_BYTES, StateDirError, Store
from yokai_envs.registry import live_id

ONMYOJI = live_id("onmyoji")
ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _private_mounts() -> str | None:
    """Why a private mount namespace cannot be made here (None when it can)."""
    if shutil.which("unshare") is None:
        return "no unshare command"
    with tempfile.TemporaryDirectory() as folder:
        probe = subprocess.run(["unshare", "-rm", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder],
                               capture_output=True, text=True, timeout=30)
    return None if probe.returncode == 0 else f"unshare -rm mount -t tmpfs is refused here: {probe.stderr.strip()}"


needs_unshare = pytest.mark.skipif(_private_mounts() is not None, reason=f"a tiny tmpfs needs a private mount "
                                   f"namespace: {_private_mounts()}")

_DISK_FULL = r"""
import errno, json, sys
from pathlib import Path
from yokai_envs.play.serve import ApiError, Store

state = Path(sys.argv[1])
store = Store(state)
session = store.create({"env_id": sys.argv[2], "seat": 0, "opponents": "random", "seed": 1})
path = store.folder / f"{session.game_id}.json"
while session.game.current_player != 0:
    store.advance(session.game_id, {})
filler = state / "filler"
with filler.open("wb", buffering=0) as handle:  # fill the tmpfs to its last byte
    for size in (65536, 4096, 1):
        try:
            while True:
                handle.write(b"x" * size)
                handle.flush()
        except OSError as err:
            assert err.errno == errno.ENOSPC, err
before = {"steps": session.game.steps, "file": path.read_text(), "view": store.view(session.game_id)}
refusals = []
for move in (lambda: store.act(session.game_id, {"action": session.game.legal_actions()[0]}),):
    try:
        move()
    except ApiError as err:
        refusals.append([err.status, err.message])
after = {"steps": session.game.steps, "file": path.read_text(), "view": store.view(session.game_id)}
filler.unlink()
played = store.act(session.game_id, {"action": session.game.legal_actions()[0]})
reloaded = Store(state).get(session.game_id)
print(json.dumps({"refusals": refusals, "same": before == after, "steps": before["steps"],
                  "played": played["step"], "reloaded": reloaded.game.steps,
                  "tmp_left": sorted(p.name for p in store.folder.iterdir() if p.name.startswith("."))}))
"""


@needs_unshare
def test_a_move_on_a_full_disk_is_refused_and_leaves_the_game_as_it_was(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    script = (f"mount -t tmpfs -o size=256k tmpfs {mount} && "
              f"{sys.executable} -c \"$SCRIPT\" {mount / 'state'} {ONMYOJI}")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SCRIPT": _DISK_FULL, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    (status, message), = result["refusals"]
    assert status == 507 and "No space left on device" in message and "the game is as it was" in message
    assert result["same"]  # the game in memory, its view and its file: all unchanged
    assert result["played"] == result["steps"] + 1 == result["reloaded"]  # with space again, it plays and saves
    assert result["tmp_left"] == []


@needs_unshare
def test_a_read_only_state_folder_is_an_error_before_serving(tmp_path):
    mount = tmp_path / "ro"
    mount.mkdir()
    command = f"{sys.executable} -m yokai_envs.cli serve --port 0 --state-dir {mount}"
    done = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o ro tmpfs {mount} && {command}"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and done.stdout == ""  # it never said it was serving
    assert "cannot hold the games: Read-only file system" in done.stderr and "Traceback" not in done.stderr


def test_a_state_folder_that_cannot_be_made_is_an_error_before_serving(tmp_path, capsys):
    (tmp_path / "file").write_text("a file, not a folder")
    with pytest.raises(StateDirError, match="cannot hold the games"):
        Store(tmp_path / "file" / "state")
    assert main(["serve", "--port", "0", "--state-dir", str(tmp_path / "file" / "state")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "yokai serve: error: --state-dir:" in err and "Not a directory" in err


def test_bad_saved_files_are_skipped_and_reported_and_the_pages_keep_working(tmp_path):
    state = tmp_path / "state"
    with running_server(state) as server:
        good = create(server, env_id=ONMYOJI, seat=0, opponents="random", seed=2)
        folder = server.store.folder
        saved = json.loads((folder / f"{good['game_id']}.json").read_text())
        bad = {
            "aaaaaaaaaaaa": "{cut", "bbbbbbbbbbbb": "[1, 2]", "cccccccccccc": "\xff",
            "dddddddddddd": json.dumps({**saved, "game_id": "dddddddddddd", "seat": "0"}),
            "eeeeeeeeeeee": json.dumps({**saved, "game_id": "eeeeeeeeeeee", "created": 5}),
            "ffffffffffff": json.dumps({**saved, "game_id": "ffffffffffff", "agents": ["human", "policy:/dev/zero"]}),
            "not-a-game-id": json.dumps(saved),
        }
        for name, text in bad.items():
            (folder / f"{name}.json").write_text(text, encoding="utf-8", errors="surrogateescape")
        os.mkfifo(folder / "111111111111.json")
        (folder / "222222222222.json").mkdir()
        with (folder / "333333333333.json").open("wb") as huge:
            huge.truncate(MAX_SAVED_BYTES + 1)
        start = time.monotonic()
        status, listing = call(server, "GET", "/api/games")
        # a file that reads as a game is listed; whether its bots may run is checked when it is opened
        assert status == 200 and {g["game_id"] for g in listing["games"]} == {good["game_id"], "ffffffffffff"}
        skipped = {Path(s["file"]).stem: s["error"] for s in listing["skipped"]}
        assert set(skipped) == set(bad) - {"ffffffffffff"} | {"111111111111", "222222222222", "333333333333"}
        assert "not a regular file" in skipped["111111111111"] and "at most" in skipped["333333333333"]
        assert "'seat' is not a int" in skipped["dddddddddddd"] and "not its file name" in skipped["not-a-game-id"]
        page = raw_page(server, "/")
        assert good["game_id"] in page
        status, answer = call(server, "GET", "/api/games/ffffffffffff")  # a saved game may not name files either
        assert status == 500 and "unless started with --allow-files" in answer["error"]
        status, answer = call(server, "GET", "/api/games/111111111111")
        assert status == 500 and "not a regular file" in answer["error"]
        assert time.monotonic() - start < 10  # the FIFO blocked nothing
        assert play_until(server, good, seed=1)["over"]


def raw_page(server: Server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url(server, path), timeout=30) as answer:
        return answer.read().decode()


def test_a_slow_model_load_does_not_hold_up_another_game(tmp_path, monkeypatch):
    with running_server(tmp_path / "state") as server:
        slow = create(server, env_id=ONMYOJI, seat=0, opponents="random", seed=1)["game_id"]
        other = create(server, env_id=ONMYOJI, seat=0, opponents="random", seed=2)["game_id"]
        server.store.sessions.clear()  # as after a restart: both are read from their files
        loading = threading.Event()
        start = serve.Session.start.__func__  # type: ignore[attr-defined]

        def slow_start(cls, game_id, *args, **kwargs):
            if game_id == slow:  # a model that takes seconds to load
                loading.set()
                time.sleep(4)
            return start(cls, game_id, *args, **kwargs)

        monkeypatch.setattr(serve.Session, "start", classmethod(slow_start))
        answers: dict[str, float] = {}

        def get(game_id: str) -> None:
            assert call(server, "GET", f"/api/games/{game_id}")[0] == 200
            answers[game_id] = time.monotonic()

        first = threading.Thread(target=get, args=(slow,))
        began = time.monotonic()
        first.start()
        assert loading.wait(30)
        get(other)
        first.join(30)
        assert answers[other] - began < 2.5 < answers[slow] - began, answers  # the other game did not wait


def test_a_server_listening_beyond_loopback_warns_at_start_and_bad_files_are_named(tmp_path, monkeypatch, capsys):
    def stop(self: Server, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Server, "serve_forever", stop)  # bound for a moment, then stopped
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "0123456789ab.json").write_text("{cut")
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--state-dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "yokai serve: warning: --host 0.0.0.0 listens beyond this machine" in err
    assert "yokai serve: note: skipping" in err and "0123456789ab.json" in err  # a bad saved file, named at start
    assert main(["serve", "--port", "0", "--state-dir", str(tmp_path)]) == 0
    assert "warning" not in capsys.readouterr().err
