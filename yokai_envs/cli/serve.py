"""``yokai serve``: play the bots in your browser (a local web app; docs/serve.md).

    yokai serve                                  # http://127.0.0.1:8000/
    yokai serve --port 8080 --state-dir runs/serve
    yokai serve --allow-files                    # opponents and options may also name files

The standard library's ThreadingHTTPServer serves it: a page and a handful of JSON routes
need no framework, so the package gains no dependency and ``yokai serve`` works from a bare
install. Every asset is inline in the page (no CDN, no fonts), and the Content-Security-Policy
header forbids the page to load anything from elsewhere. What a request must carry (Host,
Origin, the token, a JSON body) is :mod:`yokai_envs.play.serve_guard`; what a game may name
(bots, search budgets, files) is :mod:`yokai_envs.play.serve_limits`.

Routes (docs/serve.md has curl examples):
    GET  /                          the new-game page
    GET  /games/ID                  the play page of game ID
    GET  /api/catalog               games, their options and choices, agent spec examples
    GET  /api/games                 saved games
    POST /api/games                 {"env_id", "options", "seat", "opponents", "seed"} -> the view
    GET  /api/games/ID              the view of the human's seat
    POST /api/games/ID/action       {"action": id, "step": n} -> the view
    POST /api/games/ID/next         {"step": n} -> the view after one bot move
    GET  /api/games/ID/replay       the replay file (once the game is over)
"""

from __future__ import annotations

import argparse
import io
import json
import re
import socket
import sys
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from yokai_envs.play import serve_guard as guard
from yokai_envs.play.serve import ApiError, StateDirError, Store, catalog, default_state_dir
from yokai_envs.play.serve_limits import FILES_FLAG

MAX_BODY = 64 * 1024
# Seconds a request may take to arrive whole (request line, headers and body), from when the server
# starts waiting for it: a deadline, not a per-read timeout, which a client sending one byte at a
# time would renew forever.
REQUEST_TIMEOUT = 30.0
LISTEN_BACKLOG = 64
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
       "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'")
_GAME_ROUTE = re.compile(r"^/api/games/([^/]*)(?:/(action|next|replay))?$")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number 0-65535, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number 0-65535, got {port}")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--state-dir", default=None, metavar="DIR",
                        help=f"folder the games are saved in (default {default_state_dir()})")
    parser.add_argument(FILES_FLAG, action="store_true",
                        help="let the page name files: model checkpoints as opponents (policy:PATH, "
                             "trained:PATH; a legacy SB3 zip runs pickles) and card or deck files as options. "
                             "Without it only named bots and shipped models (pretrained) play")


class Server(ThreadingHTTPServer):
    """The listening server: its games (``store``), its token, and who it answers."""

    request_queue_size = LISTEN_BACKLOG  # the stdlib's 5 resets connections under a burst of requests
    daemon_threads = True
    store: Store
    token: str
    verbose: bool

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def loopback_only(self) -> bool:
        return guard.is_loopback(str(self.server_address[0]))


class Server6(Server):
    address_family = socket.AF_INET6


class _DeadlineReader(io.RawIOBase):
    """A connection's bytes, each read waiting only for what is left of the handler's deadline."""

    def __init__(self, connection: socket.socket, handler: Handler) -> None:
        self.connection = connection
        self.handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.handler.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the request did not arrive within {self.handler.timeout:g} s")
        self.connection.settimeout(left)
        try:
            return self.connection.recv_into(buffer)
        finally:  # writing the answer gets the usual time again
            self.connection.settimeout(self.handler.timeout)


class Handler(BaseHTTPRequestHandler):
    """One request; the Store is the server's (``server.store``). Every answer is JSON (a page
    for the page routes), errors included, and a refused request closes its connection, so a
    body that was not read can never be taken for the next request."""

    server: Server
    server_version = "yokai-serve"
    protocol_version = "HTTP/1.1"
    timeout = REQUEST_TIMEOUT  # the whole request's time (see _DeadlineReader), and each write's
    deadline = 0.0  # time.monotonic() by which the request being read must have arrived

    @property
    def store(self) -> Store:
        return self.server.store

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the stdlib's reader, replaced by one that keeps the deadline
        self.rfile = io.BufferedReader(_DeadlineReader(self.connection, self))

    def handle_one_request(self) -> None:
        # The clock starts when the server waits for the request, so a kept-open connection's idle
        # time counts as well as a slow request's.
        self.deadline = time.monotonic() + self.timeout
        super().handle_one_request()

    def parse_request(self) -> bool:
        try:
            return super().parse_request()
        except TimeoutError:  # the request line came, its headers did not
            self.send_error(408, f"the request's headers did not arrive within {self.timeout:g} s")
            return False

    def log_message(self, format: str, *args: Any) -> None:
        if getattr(self.server, "verbose", False):  # the token (a replay link's ?token=) is not logged
            token = getattr(self.server, "token", None)
            super().log_message(format, *(a.replace(token, "TOKEN") if token and isinstance(a, str) else a
                                          for a in args))

    # ------------------------------------------------------------------ replies
    def _send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        if status >= 400:
            self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any, extra: dict[str, str] | None = None) -> None:
        self._send(status, (json.dumps(data, indent=1) + "\n").encode(), "application/json; charset=utf-8", extra)

    def _html(self, status: int, page: str) -> None:
        self._send(status, page.encode("utf-8"), "text/html; charset=utf-8")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The stdlib's own refusals (a malformed request line, headers too long, an unknown
        method) as JSON, like every other answer."""
        self.close_connection = True
        short = self.responses.get(code, ("error", ""))[0]
        text = message or short
        if code == 501 and self.command:
            text = f"{self.command} is not a method this server knows (it answers GET and POST)"
        body = (json.dumps({"error": text, "status": code}) + "\n").encode()
        self.send_response(code, short)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(body)

    def _body(self) -> Any:
        """The request's JSON body (None when there is none), read whole or refused."""
        if self.headers.get("Transfer-Encoding"):
            raise ApiError(411, "send the JSON body with a Content-Length (no chunked bodies)")
        lengths = self.headers.get_all("Content-Length") or []
        if not lengths:
            return None
        if len(set(lengths)) > 1 or not re.fullmatch(r"[0-9]{1,18}", lengths[0].strip()):
            raise ApiError(400, f"Content-Length {', '.join(lengths)!r} is not one byte count")
        length = int(lengths[0])
        if length > MAX_BODY:
            raise ApiError(413, f"request body of {length} bytes is over the {MAX_BODY}-byte limit")
        if length == 0:
            return None
        guard.check_content_type(self.headers.get("Content-Type"))
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            raise ApiError(408, f"the request body did not arrive within {self.timeout:g} s of the request's "
                                "start") from None
        if len(raw) < length:
            raise ApiError(400, f"the request body ended after {len(raw)} of its {length} bytes")
        return guard.parse_body(raw)

    # ------------------------------------------------------------------ routes
    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    # Methods the server does not serve get a JSON 405 (not the stdlib's HTML 501).
    def do_HEAD(self) -> None:
        self._route("HEAD")

    def do_PUT(self) -> None:
        self._route("PUT")

    def do_DELETE(self) -> None:
        self._route("DELETE")

    def do_PATCH(self) -> None:
        self._route("PATCH")

    def do_OPTIONS(self) -> None:
        self._route("OPTIONS")

    def _route(self, method: str) -> None:
        from yokai_envs.play.serve_page import error_page, game_page, home_page

        path, _, query = self.path.split("#", 1)[0].partition("?")
        api = path.startswith("/api/")
        try:
            host = guard.check_host(self.headers.get("Host"), self.server.port, self.server.loopback_only,
                                    str(self.server.server_address[0]))
            guard.check_origin(self.headers.get("Origin"), host)
            if method not in ("GET", "POST"):
                raise ApiError(405, f"{method} is not allowed: this server answers GET and POST only")
            if api:
                guard.check_token(self.headers, query, method, self.server.token)
            body = self._body()
            if method == "GET" and path == "/":
                games, _ = self.store.listing()
                return self._html(200, home_page(catalog(), games, self.server.token))
            if method == "GET" and path == "/favicon.ico":
                return self._send(204, b"", "image/x-icon")
            if method == "GET" and path.startswith("/games/"):
                return self._html(200, game_page(self.store.view(path[len("/games/"):]), self.server.token))
            if path == "/api/catalog" and method == "GET":
                return self._json(200, catalog())
            if path == "/api/games":
                if method == "GET":
                    games, skipped = self.store.listing()
                    return self._json(200, {"games": games, "skipped": skipped})
                session = self.store.create(body)
                return self._json(201, session.view(), {"Location": f"/api/games/{session.game_id}"})
            match = _GAME_ROUTE.match(path)
            if match is None:
                raise ApiError(404, f"no such page or API route: {method} {path} (the API is under /api/, "
                                    "see docs/serve.md)")
            game_id, verb = match.groups()
            if method == "GET" and verb is None:
                return self._json(200, self.store.view(game_id))
            if method == "GET" and verb == "replay":
                name, replay = self.store.replay(game_id)
                return self._json(200, replay, {"Content-Disposition": f'attachment; filename="{name}"'})
            if method == "POST" and verb == "action":
                return self._json(200, self.store.act(game_id, body))
            if method == "POST" and verb == "next":
                return self._json(200, self.store.advance(game_id, body))
            raise ApiError(405, f"{method} is not allowed on {path}")
        except ApiError as err:
            status, message = err.status, err.message
        except Exception as err:  # a bot or a checkpoint failing mid-game: say so, keep serving
            traceback.print_exc(file=sys.stderr)
            status, message = 500, f"internal error ({type(err).__name__}: {err}); the server log has the traceback"
        extra = {"Allow": "GET, POST"} if status == 405 else None
        if api or method != "GET":
            return self._json(status, {"error": message, "status": status}, extra)
        return self._html(status, error_page(status, message))


def make_server(host: str, port: int, state_dir: str | Path, verbose: bool = False,
                handler: type[Handler] = Handler, allow_files: bool = False) -> Server:
    """A server (not yet serving) whose games are saved under ``state_dir``; StateDirError when
    that folder cannot hold them (checked now, not at the first game)."""
    store = Store(state_dir, allow_files=allow_files)
    server = (Server6 if ":" in host else Server)((host, port), handler)
    server.store = store
    server.token = guard.new_token()
    server.verbose = verbose
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    """``http://HOST:PORT`` of a listening server (its real port when it was asked for port 0)."""
    host, port = server.server_address[:2]
    host = host if isinstance(host, str) else host.decode()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def run(args: argparse.Namespace) -> int:
    state_dir = Path(args.state_dir) if args.state_dir else default_state_dir()
    if state_dir.exists() and not state_dir.is_dir():
        print(f"yokai serve: error: --state-dir {str(state_dir)!r} is a file; name a folder for the saved games",
              file=sys.stderr)
        return 2
    try:
        server = make_server(args.host, args.port, state_dir, verbose=True, allow_files=args.allow_files)
    except StateDirError as err:
        print(f"yokai serve: error: --state-dir: {err}; name a folder you can write", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"yokai serve: error: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 2
    if not server.loopback_only:
        print(f"yokai serve: warning: --host {args.host} listens beyond this machine: anyone who can reach port "
              f"{server.port} and read the page (it holds the token) can play here"
              + (" and make the server read files (--allow-files)" if args.allow_files else "")
              + "; the default 127.0.0.1 keeps it to this machine", file=sys.stderr)
    _, skipped = server.store.listing()
    for bad in skipped:
        print(f"yokai serve: note: skipping {bad['file']}: {bad['error']}", file=sys.stderr)
    print(f"yokai serve: {server_url(server)}/  (games saved in {state_dir}; Ctrl-C stops)", flush=True)
    print(f"yokai serve: API token (header {guard.TOKEN_HEADER}): {server.token}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nyokai serve: stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
