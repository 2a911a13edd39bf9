"""Reading a file a user names (a config, a replay): bounded in size, every failure one error.

A file is read at most ``limit + 1`` bytes deep, so a huge file (or an endless one such as
``/dev/zero``) is refused without being loaded; the size the error reports is the file's own
when the file system knows it.
"""

from __future__ import annotations

import os
from pathlib import Path


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
