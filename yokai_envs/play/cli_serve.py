"""``yokai serve``: play the bots in your browser (a local web app; docs/serve.md).

    yokai serve                                  # http://127.0.0.1:8000/
    yokai serve --port 8080 --state-dir runs/serve

The standard library's ThreadingHTTPServer serves it: a page and a handful of JSON routes
need no framework, so the package gains no dependency and ``yokai serve`` works from a bare
install. Every asset is inline in the page (no CDN, no fonts), and the Content-Security-Policy
header forbids the page to load anything from elsewhere.

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
import json
import re
import sys
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from yokai_envs.play.serve import ApiError, Store, catalog, default_state_dir

MAX_BODY = 64 * 1024
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


class Handler(BaseHTTPRequestHandler):
    """One request; the Store is the server's (``server.store``)."""

    server_version = "yokai-serve"
    protocol_version = "HTTP/1.1"

    @property
    def store(self) -> Store:
        return self.server.store  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)

    # ------------------------------------------------------------------ replies
    def _send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any, extra: dict[str, str] | None = None) -> None:
        self._send(status, (json.dumps(data, indent=1) + "\n").encode(), "application/json; charset=utf-8", extra)

    def _html(self, status: int, page: str) -> None:
        self._send(status, page.encode("utf-8"), "text/html; charset=utf-8")

    def _body(self) -> Any:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            if self.headers.get("Transfer-Encoding"):
                raise ApiError(411, "send the JSON body with a Content-Length (no chunked bodies)")
            return None
        if int(length) > MAX_BODY:
            raise ApiError(413, f"request body of {length} bytes is over the {MAX_BODY}-byte limit")
        raw = self.rfile.read(int(length))
        if not raw.strip():
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ApiError(400, f"the request body is not valid JSON: {err}") from None

    # ------------------------------------------------------------------ routes
    def do_GET(self) -> None:
        self._route("GET")

    def do_HEAD(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def _route(self, method: str) -> None:
        from yokai_envs.play.serve_page import error_page, game_page, home_page

        path = self.path.split("?", 1)[0].split("#", 1)[0]
        api = path.startswith("/api/")
        try:
            if method == "GET" and path == "/":
                return self._html(200, home_page(catalog(), self.store.listing()))
            if method == "GET" and path == "/favicon.ico":
                return self._send(204, b"", "image/x-icon")
            if method == "GET" and path.startswith("/games/"):
                return self._html(200, game_page(self.store.view(path[len("/games/"):])))
            if path == "/api/catalog" and method == "GET":
                return self._json(200, catalog())
            if path == "/api/games":
                if method == "GET":
                    return self._json(200, {"games": self.store.listing()})
                session = self.store.create(self._body())
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
                return self._json(200, self.store.act(game_id, self._body()))
            if method == "POST" and verb == "next":
                return self._json(200, self.store.advance(game_id, self._body()))
            raise ApiError(405, f"{method} is not allowed on {path}")
        except ApiError as err:
            status, message = err.status, err.message
        except Exception as err:  # a bot or a checkpoint failing mid-game: say so, keep serving
            traceback.print_exc(file=sys.stderr)
            status, message = 500, f"internal error ({type(err).__name__}: {err}); the server log has the traceback"
        if api:
            return self._json(status, {"error": message, "status": status})
        return self._html(status, error_page(status, message))


def make_server(host: str, port: int, state_dir: str | Path, verbose: bool = False,
                handler: type[Handler] = Handler) -> ThreadingHTTPServer:
    """A server (not yet serving) whose games are saved under ``state_dir``."""
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.store = Store(state_dir)  # type: ignore[attr-defined]
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    """``http://HOST:PORT`` of a listening server (its real port when it was asked for port 0)."""
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}" if isinstance(host, str) else f"http://{host.decode()}:{port}"


def run(args: argparse.Namespace) -> int:
    state_dir = Path(args.state_dir) if args.state_dir else default_state_dir()
    if state_dir.exists() and not state_dir.is_dir():
        print(f"yokai serve: error: --state-dir {str(state_dir)!r} is a file; name a folder for the saved games",
              file=sys.stderr)
        return 2
    try:
        server = make_server(args.host, args.port, state_dir, verbose=True)
    except OSError as err:
        print(f"yokai serve: error: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 2
    print(f"yokai serve: {server_url(server)}/  (games saved in {state_dir}; Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nyokai serve: stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0

