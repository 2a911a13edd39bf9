"""What every request to ``yokai serve`` must carry before it is routed (docs/serve.md, docs/robustness.md).

The server is for one person on one machine, and the one thing able to reach it that is not that
person is a web page in their browser: another site's script (a cross-origin POST, which a
browser sends without asking when its type is ``text/plain``) or a site whose DNS name was
re-pointed at 127.0.0.1 (DNS rebinding, which makes the browser treat the server as that site).
So, as Jupyter's server does:

- the ``Host`` header must name this server by a loopback name (``127.0.0.1:PORT``,
  ``localhost:PORT``, ``[::1]:PORT``); a rebound name is refused. Served beyond loopback
  (``--host 0.0.0.0``), an IP address with the server's port is accepted too: a DNS name an
  attacker controls never arrives as an IP address;
- an ``Origin`` header, when a browser sends one, must be this server's own origin;
- a request body must be ``Content-Type: application/json`` (a type no cross-origin page may send
  without the server's consent, which it never gives);
- every ``/api/`` call carries the server's token (a random string made at start, written into
  the page it serves and printed at start) in the ``X-Yokai-Token`` header, or, for a plain link
  such as the replay download, as ``?token=`` on a GET.

Bodies are parsed strictly: no duplicate keys, no NaN or Infinity, integers of at most
``MAX_INT_DIGITS`` digits, nesting of at most ``MAX_DEPTH`` levels.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import math
import secrets
from typing import Any
from urllib.parse import parse_qs

from yokai_envs.core.files import unique_keys
from yokai_envs.play.serve import ApiError

TOKEN_HEADER = "X-Yokai-Token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
MAX_INT_DIGITS = 100
MAX_DEPTH = 64


def new_token() -> str:
    return secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """Whether ``--host`` keeps the server on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _split_host(header: str) -> tuple[str, int | None]:
    """``name:port`` (``[v6]:port``) -> (name, port); port None when absent or not a number."""
    if header.startswith("["):
        name, _, rest = header.partition("]")
        name += "]"
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        name, _, port_text = header.rpartition(":") if ":" in header else (header, "", "")
    return name.lower(), int(port_text) if port_text.isdigit() else (80 if not port_text else None)


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def check_host(header: str | None, port: int, loopback_only: bool, bound: str = "127.0.0.1") -> str:
    """The request's ``Host``, or ApiError 403 when it does not name this server (``bound``: the
    address it listens on, answered too, e.g. 127.0.0.2)."""
    if not header:
        raise ApiError(403, f"the request has no Host header; this server answers only Host 127.0.0.1:{port}, "
                            f"localhost:{port} or [::1]:{port}")
    name, got_port = _split_host(header.strip())
    own = f"[{bound}]" if ":" in bound else bound
    known = name in (*LOOPBACK_NAMES, own) or (not loopback_only and _is_ip_literal(name))
    if not known or got_port != port:
        raise ApiError(403, f"Host {header!r} is not this server: it answers only Host 127.0.0.1:{port}, "
                            f"localhost:{port} or [::1]:{port} (a web page reaching it under another name "
                            "is refused: DNS rebinding)")
    return header.strip()


def check_origin(origin: str | None, host: str) -> None:
    """ApiError 403 when a browser says the request comes from a page of another origin."""
    if origin is not None and origin.lower() != f"http://{host}".lower():
        raise ApiError(403, f"cross-origin request refused: Origin {origin!r} is not this server "
                            f"(http://{host})")


def check_token(headers: Any, query: str, method: str, token: str) -> None:
    """ApiError 403 unless the request carries the server's token (header, or ?token= on a GET)."""
    given = headers.get(TOKEN_HEADER)
    if given is None and method == "GET":
        given = next(iter(parse_qs(query).get("token", [])), None)
    if given is None:
        raise ApiError(403, f"the API needs this server's token in the {TOKEN_HEADER} header (the page sends "
                            "it; `yokai serve` prints it at start)")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode()):
        raise ApiError(403, f"wrong {TOKEN_HEADER}: not this server's token (a new one is made at each start: "
                            "reload the page)")


def check_content_type(header: str | None) -> None:
    """ApiError 415 unless a body is declared as JSON."""
    media = (header or "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise ApiError(415, f"a request body must be sent as Content-Type: application/json, got "
                            f"{header or 'no Content-Type'!r}")


# ---------------------------------------------------------------------- strict JSON
def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]}... is too large to be a finite number")
    return value


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_object = unique_keys(lambda key: ValueError(f"duplicate key {key!r}"))


def _depth(raw: str) -> int:
    """The deepest nesting of brackets outside strings (checked before parsing, so a 30,000-deep
    body is refused without the parser recursing into it)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_body(raw: bytes) -> Any:
    """The JSON value of a request body (None when empty); ApiError 400 naming what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ApiError(400, f"the request body is not valid JSON: not UTF-8 ({err})") from None
    if not text.strip():
        return None
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise ApiError(400, f"the request body is not valid JSON here: nested {depth} levels deep "
                            f"(at most {MAX_DEPTH})")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant, object_pairs_hook=_object)
    except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
        raise ApiError(400, f"the request body is not valid JSON: {err}") from None
