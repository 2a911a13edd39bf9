"""``yokai serve`` against a hostile web page and a hostile client: what a request must carry
(Host, Origin, token, a JSON body) and how a refused one ends (JSON, connection closed)."""

from __future__ import annotations

import base64
import json
import pickle
import socket
import threading
import time
import zipfile
from pathlib import Path

import pytest

from tests.play.serve_client import call, create, running_server
from yokai_envs.cli.serve import LISTEN_BACKLOG, Handler
from yokai_envs.play.serve_guard import TOKEN_HEADER
from yokai_envs.registry import live_id

ONMYOJI = live_id("onmyoji")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path / "state") as running:
        yield running


def raw_request(server, data: bytes, read_timeout: float = 10.0) -> bytes:
    """Everything the server sends back on one connection for ``data``, until it closes it (or
    ``read_timeout`` passes: then what arrived so far)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=read_timeout) as conn:
        conn.sendall(data)
        received = b""
        try:
            while chunk := conn.recv(65536):
                received += chunk
        except TimeoutError:
            pass
    return received


def http(method: str, path: str, host: str, headers: dict[str, str] | None = None, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", *(f"{k}: {v}" for k, v in (headers or {}).items())]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def statuses(received: bytes) -> list[int]:
    return [int(line.split()[1]) for line in received.split(b"\r\n") if line.startswith(b"HTTP/1.")]


# ---------------------------------------------------------------------- a web page's attacks
class _Touch:
    """Unpickling this creates ``path``: the marker that a pickle ran."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def pickle_zip(target: Path, marker: Path) -> Path:
    """A shipped model zip with one more entry in its SB3 ``data``: a pickle that creates ``marker``
    when SB3 loads the zip (SB3 unpickles every ``:serialized:`` entry)."""
    source = ROOT / "agents" / "pretrained" / "models" / "onmyoji_duel.zip"
    payload = base64.b64encode(pickle.dumps(_Touch(marker))).decode()
    with zipfile.ZipFile(target, "w") as out:
        if source.exists():
            with zipfile.ZipFile(source) as shipped:
                for item in shipped.infolist():
                    data = shipped.read(item.filename)
                    if item.filename == "data":
                        loaded = json.loads(data)
                        loaded["marker"] = {":type:": "<class 'object'>", ":serialized:": payload}
                        data = json.dumps(loaded).encode()
                    out.writestr(item, data)
        else:  # no zip shipped any more: the pickle alone is the file
            out.writestr("data", json.dumps({"marker": {":serialized:": payload}}))
    return target


def test_a_cross_origin_text_plain_post_naming_a_pickle_zip_loads_nothing(server, tmp_path):
    marker = tmp_path / "MARKER"
    model = pickle_zip(tmp_path / "model.zip", marker)
    body = json.dumps({"env_id": ONMYOJI, "opponents": f"policy:{model}"})
    # what another site's script can send without asking: a simple POST, text/plain, no token
    attack = http("POST", "/api/games", f"127.0.0.1:{server.port}",
                  {"Origin": "http://evil.example", "Content-Type": "text/plain"}, body.encode())
    answer = raw_request(server, attack)
    assert statuses(answer) == [403] and b"cross-origin request refused" in answer
    for headers, status, words in [
        ({"Content-Type": "text/plain"}, 415, "application/json"),  # the token, but not JSON
        ({}, 400, "names the file"),  # as the page sends it: files need --allow-files
        ({"Origin": "null"}, 403, "cross-origin"),
    ]:
        got, answer_json = call(server, "POST", "/api/games", raw=body.encode(), headers=headers)
        assert got == status and words in answer_json["error"], answer_json
    assert not marker.exists() and list(server.store.folder.glob("*.json")) == []


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost",
                                  "127.0.0.2:{port}", "192.168.1.9:{port}", ""])
def test_a_host_that_is_not_this_server_is_refused(server, host):
    host = host.format(port=server.port)
    for path in ("/", "/api/catalog", "/games/0123456789ab"):
        headers = {TOKEN_HEADER: server.token}
        answer = raw_request(server, http("GET", path, host, headers) if host else
                             f"GET {path} HTTP/1.1\r\n{TOKEN_HEADER}: {server.token}\r\n\r\n".encode())
        assert statuses(answer) == [403], answer[:300]
        assert (b"DNS rebinding" if host else b"no Host header") in answer


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}"])
def test_loopback_names_are_answered(server, host):
    answer = raw_request(server, http("GET", "/api/catalog", host.format(port=server.port),
                                      {TOKEN_HEADER: server.token, "Connection": "close"}))
    assert statuses(answer) == [200]


def test_the_api_needs_the_token_and_the_page_carries_it(server):
    for headers, words in [({TOKEN_HEADER: None}, "needs this server's token"),
                           ({TOKEN_HEADER: "guess"}, "wrong X-Yokai-Token")]:
        for method, path, body in [("GET", "/api/catalog", None), ("GET", "/api/games", None),
                                   ("POST", "/api/games", {"env_id": ONMYOJI})]:
            status, answer = call(server, method, path, body, headers=headers)
            assert status == 403 and words in answer["error"], (path, answer)
    assert list(server.store.folder.glob("*.json")) == []
    view = create(server, env_id=ONMYOJI, opponents="random", seed=1)
    page = raw_request(server, http("GET", f"/games/{view['game_id']}", f"localhost:{server.port}",
                                    {"Connection": "close"}))
    assert statuses(page) == [200] and f'"token":"{server.token}"'.encode() in page
    # a plain link (the replay download) may carry it as ?token= on a GET, never on a POST
    status, _ = call(server, "GET", f"/api/games/{view['game_id']}?token={server.token}",
                     headers={TOKEN_HEADER: None})
    assert status == 200
    status, answer = call(server, "POST", f"/api/games/{view['game_id']}/next?token={server.token}", {},
                          headers={TOKEN_HEADER: None})
    assert status == 403 and "needs this server's token" in answer["error"]


def test_an_origin_of_this_server_is_answered_and_any_other_refused(server):
    own = f"http://127.0.0.1:{server.port}"
    status, view = call(server, "POST", "/api/games", {"env_id": ONMYOJI, "opponents": "random"},
                        headers={"Origin": own})
    assert status == 201, view
    for origin in ("http://evil.example", f"http://localhost:{server.port}", f"https://127.0.0.1:{server.port}"):
        status, answer = call(server, "POST", f"/api/games/{view['game_id']}/next", {}, headers={"Origin": origin})
        assert status == 403 and "cross-origin" in answer["error"]


# ---------------------------------------------------------------------- a hostile client
@pytest.mark.parametrize(("framing", "status"), [
    ("Content-Length: 100000", 413), ("Transfer-Encoding: chunked", 411), ("Content-Length: -5", 400),
    ("Content-Length: 5\r\nContent-Length: 6", 400), ("Content-Length: \u00b2", 400),
])
def test_a_refused_body_is_never_read_as_the_next_request(server, framing, status):
    hidden = json.dumps({"env_id": ONMYOJI, "opponents": "random"}).encode()
    smuggled = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
                f"{TOKEN_HEADER}: {server.token}\r\nContent-Length: {len(hidden)}\r\n\r\n").encode() + hidden
    head = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            f"{TOKEN_HEADER}: {server.token}\r\n{framing}\r\n\r\n").encode("latin-1")  # as headers are read
    answer = raw_request(server, head + smuggled)
    assert statuses(answer) == [status] and b"Connection: close" in answer, answer[:400]
    assert list(server.store.folder.glob("*.json")) == []


@pytest.mark.parametrize("method", ["PUT", "DELETE", "OPTIONS", "PATCH", "HEAD"])
def test_every_method_but_get_and_post_is_a_json_405(server, method):
    answer = raw_request(server, http(method, "/api/games", f"127.0.0.1:{server.port}", {TOKEN_HEADER: server.token}))
    head, _, body = answer.partition(b"\r\n\r\n")
    assert statuses(answer) == [405] and b"application/json" in head and b"Allow: GET, POST" in head
    if method != "HEAD":  # a HEAD answer has no body
        assert json.loads(body)["status"] == 405


@pytest.mark.parametrize(("data", "status"), [
    (b"FOO / HTTP/1.1\r\nHost: x\r\n\r\n", 501), (b"GARBAGE\r\n\r\n", 400),
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),
])
def test_what_the_stdlib_refuses_is_json_too(server, data, status):
    answer = raw_request(server, data)
    # a request line with no HTTP version gets an HTTP/0.9 answer: the body alone
    head, _, body = answer.rpartition(b"\r\n\r\n") if b"\r\n\r\n" in answer else (b"", b"", answer)
    assert statuses(head) == ([status] if head else []) and json.loads(body)["status"] == status


@pytest.mark.parametrize(("body", "words"), [
    (b'{"env_id": "x", "seed": ' + b"7" * 5000 + b"}", "5000 digits"),
    (b"[" * 30000 + b"]" * 30000, "nested 30000 levels deep"),
    (b'{"env_id": "x", "env_id": "y"}', "duplicate key 'env_id'"),
    (b'{"env_id": "x", "seed": NaN}', "NaN is not a JSON number"),
    (b'{"env_id": "x", "seed": 1e999}', "finite number"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_bodies_no_parser_should_swallow_are_a_400(server, body, words):
    status, answer = call(server, "POST", "/api/games", raw=body)
    assert status == 400 and words in answer["error"], answer


def test_a_move_with_unknown_fields_is_refused(server):
    view = create(server, env_id=ONMYOJI, seat=0, opponents="random", seed=1)
    while not view["your_turn"]:
        view = call(server, "POST", f"/api/games/{view['game_id']}/next", {})[1]
    action = view["legal"][0]["id"]
    for path, body in [("action", {"action": action, "actoin": 3}), ("next", {"step": view["step"], "x": 1})]:
        status, answer = call(server, "POST", f"/api/games/{view['game_id']}/{path}", body)
        assert status == 400 and "unknown field(s)" in answer["error"], answer
    assert call(server, "GET", f"/api/games/{view['game_id']}")[1] == view


def test_a_connection_that_sends_nothing_is_closed_after_the_time_limit(tmp_path):
    class Quick(Handler):
        timeout = 0.5

    with running_server(tmp_path, handler=Quick) as quick:
        start = time.monotonic()
        assert raw_request(quick, b"") == b"" and time.monotonic() - start < 5  # closed by the server, not our 10 s
        start = time.monotonic()
        answer = raw_request(quick, f"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1:{quick.port}\r\n".encode())
        assert statuses(answer) == [408] and time.monotonic() - start < 5  # half a request: told why, then closed


def _trickle(server, head: bytes, tail: bytes, gap: float, give_up: float) -> tuple[bytes, float, bool]:
    """Send ``head`` at once, then ``tail`` one byte every ``gap`` seconds, as a slow client would,
    until the server answers or closes (or ``give_up`` seconds pass). Returns (what the server sent,
    seconds until it answered or closed, whether the connection was closed by then)."""
    start = time.monotonic()
    received, closed = b"", False
    with socket.create_connection(("127.0.0.1", server.port), timeout=give_up) as conn:
        conn.sendall(head)
        conn.setblocking(False)
        for byte in tail:
            try:
                conn.sendall(bytes([byte]))
            except OSError:  # the server closed the connection
                break
            time.sleep(gap)
            try:
                chunk = conn.recv(65536)
            except BlockingIOError:
                chunk = None
            if chunk is not None:
                received, closed = received + chunk, chunk == b""
                break
            if time.monotonic() - start > give_up:
                break
        elapsed = time.monotonic() - start
        conn.settimeout(2.0)
        try:
            while chunk := conn.recv(65536):
                received += chunk
            closed = True
        except OSError:  # still open after 2 s more (or reset, which is closed too)
            closed = closed or not received
    return received, elapsed, closed


@pytest.mark.parametrize("part", ["body", "headers"])
def test_a_request_trickled_one_byte_at_a_time_gets_a_408_within_the_time_limit(tmp_path, part):
    class Quick(Handler):
        timeout = 1.0

    body = json.dumps({"env_id": ONMYOJI, "opponents": "random", "seed": 1, "pad": "x" * 200}).encode()
    with running_server(tmp_path, handler=Quick) as quick:
        request = http("POST", "/api/games", f"127.0.0.1:{quick.port}",
                       {"Content-Type": "application/json", TOKEN_HEADER: quick.token}, body)
        split = request.index(b"\r\n\r\n") + 4 if part == "body" else request.index(b"\r\n") + 2
        # Each byte comes well within the 1 s limit: a per-read timeout would wait for all of them (25 s).
        received, elapsed, closed = _trickle(quick, request[:split], request[split:], gap=0.1, give_up=8.0)
        assert statuses(received) == [408], received[:300]
        answer = json.loads(received.split(b"\r\n\r\n", 1)[1])
        assert answer["status"] == 408 and f"did not arrive within {Quick.timeout:g} s" in answer["error"]
        assert part in answer["error"] and elapsed < 4.0 and closed
        assert b"Connection: close" in received
        assert call(quick, "GET", "/api/games")[1]["games"] == []  # nothing was created


def test_thirty_requests_at_once_are_all_answered(server):
    assert server.request_queue_size == LISTEN_BACKLOG >= 30
    results: list[int] = []

    def one(k: int) -> None:
        results.append(call(server, "POST", "/api/games", {"env_id": ONMYOJI, "opponents": "random", "seed": k})[0])

    threads = [threading.Thread(target=one, args=(k,)) for k in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results == [201] * 30


def test_the_address_it_listens_on_is_answered_and_any_ip_only_beyond_loopback():
    from yokai_envs.play.serve import ApiError
    from yokai_envs.play.serve_guard import check_host

    assert check_host("127.0.0.2:8000", 8000, True, "127.0.0.2") == "127.0.0.2:8000"
    assert check_host("10.1.2.3:8000", 8000, False, "0.0.0.0") == "10.1.2.3:8000"  # an IP is never a rebound name
    for host, loopback_only in [("10.1.2.3:8000", True), ("evil.example:8000", False), ("10.1.2.3:8001", False)]:
        with pytest.raises(ApiError, match="is not this server"):
            check_host(host, 8000, loopback_only, "0.0.0.0")


def test_the_token_is_not_written_to_the_log(tmp_path, capsys):
    with running_server(tmp_path) as server:
        server.verbose = True
        view = create(server, env_id=ONMYOJI, opponents="random", seed=1)
        assert call(server, "GET", f"/api/games/{view['game_id']}?token={server.token}")[0] == 200
        log = capsys.readouterr().err
    assert f"/api/games/{view['game_id']}?token=TOKEN" in log and server.token not in log
