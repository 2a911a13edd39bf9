"""Reading a file a user names (a config, a replay): bounded in size, every failure one error.

A file is read at most ``limit + 1`` bytes deep, so a huge file (or an endless one such as
``/dev/zero``) is refused without being loaded; the size the error reports is the file's own
when the file system knows it.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any


def read_limited(path: str | Path, limit: int, source: str, what: str,
                 error: type[Exception]) -> bytes:
    """The bytes of ``path``; ``error`` naming ``source`` when it cannot be read or holds more
    than ``limit`` bytes (``what`` names the kind of file in that message: "a config")."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise error(f"{source}: cannot be read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise error(f"{source}: {max(size, len(raw)):,} bytes; {what} is at most {limit:,}")
    return raw


def read_regular_file(path: str | Path, limit: int, source: str, what: str,
                      error: type[Exception]) -> bytes:
    """:func:`read_limited` for a file that must be a regular file: opened without blocking (a
    FIFO with no writer would wait forever on a plain open), then a FIFO, a device or a folder is
    refused from its ``fstat`` before anything is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise error(f"{source}: cannot be read: {reason}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise error(f"{source}: not a regular file (a folder, FIFO, device or socket); {what} is a file")
    if info.st_size > limit:
        os.close(fd)
        raise error(f"{source}: {info.st_size:,} bytes; {what} is at most {limit:,}")
    with os.fdopen(fd, "rb") as handle:
        try:
            raw = handle.read(limit + 1)
        except OSError as exc:
            raise error(f"{source}: cannot be read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise error(f"{source}: more than {limit:,} bytes; {what} is at most {limit:,}")
    return raw


def unique_keys(refusal: Callable[[str], Exception]) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """A ``json.loads`` ``object_pairs_hook`` that raises ``refusal(key)`` for a key given twice in
    one object (plain ``json`` keeps the last value silently)."""
    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise refusal(key)
            out[key] = value
        return out

    return build


def parse_json(raw: bytes | str, source: str, error: type[Exception]) -> Any:
    """JSON text as data: UTF-8, no key given twice in one object, no NaN/Infinity, bounded
    nesting; ``error`` naming ``source`` otherwise (a key given twice would otherwise keep its
    last value silently, so two readers of one file could disagree about what it says)."""
    def no_constant(name: str) -> Any:
        raise error(f"{source}: {name} is not a JSON number")

    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return json.loads(text, object_pairs_hook=unique_keys(
            lambda key: error(f"{source}: key {key!r} appears twice in one object")), parse_constant=no_constant)
    except UnicodeDecodeError as err:
        raise error(f"{source} is not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise error(f"{source} is not valid JSON: {err}") from None
    except RecursionError:
        raise error(f"{source}: nested too deeply") from None
