"""A ``yokai serve`` server on a free port in a thread, and a JSON client for its API."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from yokai_envs.cli.serve import Handler, Server, make_server, server_url
from yokai_envs.play.serve_guard import TOKEN_HEADER


@contextmanager
def running_server(state_dir: Path, handler: type[Handler] = Handler, allow_files: bool = False) -> Iterator[Server]:
    server = make_server("127.0.0.1", 0, state_dir, handler=handler, allow_files=allow_files)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def url(server: Server, path: str) -> str:
    return server_url(server) + path


def call(server: Server, method: str, path: str, body: Any = None,
         raw: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """(status, parsed JSON answer) of one request as the page sends it (JSON, the server's
    token); ``raw`` sends those bytes as the body, ``headers`` replace or add headers."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    sent = {"Content-Type": "application/json", TOKEN_HEADER: server.token, **(headers or {})}
    request = urllib.request.Request(url(server, path), data=data, method=method,
                                     headers={k: v for k, v in sent.items() if v is not None})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def create(server: Server, **request: Any) -> dict[str, Any]:
    status, view = call(server, "POST", "/api/games", request)
    assert status == 201, view
    return view


def play_until(server: Server, view: dict[str, Any], seed: int = 0,
               stop_at: int | None = None) -> dict[str, Any]:
    """Random legal actions for the human and "next" for the bots, through the API, until the
    game is over (or, with ``stop_at``, until the human is to act at or after that step)."""
    rng = np.random.default_rng(seed)
    while not view["over"]:
        if view["your_turn"] and stop_at is not None and view["step"] >= stop_at:
            break
        game = view["game_id"]
        if view["your_turn"]:
            choice = view["legal"][int(rng.integers(len(view["legal"])))]["id"]
            status, view = call(server, "POST", f"/api/games/{game}/action", {"action": choice, "step": view["step"]})
        else:
            status, view = call(server, "POST", f"/api/games/{game}/next", {"step": view["step"]})
        assert status == 200, view
    return view
