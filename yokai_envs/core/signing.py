"""Files that cannot be forged without this user's key: an HMAC-SHA256 over a record's content.

Replays and arena journals (``games.jsonl``) are checked against the game they describe, but a
check that only replays the moves cannot tell who chose them: anyone can write a legal game and
name other agents. So each record carries ``hmac_sha256``, keyed by a per-user secret kept
outside every run folder:

    $YOKAI_ENVS_KEY_FILE, else $XDG_CONFIG_HOME/yokai-envs/key, else ~/.config/yokai-envs/key

32 random bytes (hex), created on first use with mode 0600 in a folder of mode 0700. A record
whose HMAC verifies was written by a yokai-envs process of someone holding this key and not
changed since; one whose HMAC does not verify is refused. ``YOKAI_ENVS_KEY_FILE=none`` turns
signing off (nothing is signed; readers fall back to what they can check without a key, and
say so). ``key_id`` (the first 16 hex digits of the key's SHA-256) is stored beside the HMAC so
a refusal can tell "edited" from "signed with another key".
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import warnings
from pathlib import Path
from typing import Any

KEY_ENV = "YOKAI_ENVS_KEY_FILE"
NO_KEY = "none"
KEY_BYTES = 32
HMAC_FIELD = "hmac_sha256"
KEY_ID_FIELD = "key_id"


class SigningError(ValueError):
    """The key file cannot be read or created, or is not one."""


def key_path() -> Path | None:
    """Where this user's key lives (None: signing is turned off)."""
    configured = os.environ.get(KEY_ENV)
    if configured is not None:
        return None if configured.strip().lower() in ("", NO_KEY) else Path(configured).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "yokai-envs" / "key"


def _read_key(path: Path) -> bytes:
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > 1024:
            raise SigningError(f"{path}: not a key file (expected {KEY_BYTES * 2} hex digits)")
        if info.st_mode & 0o077:
            raise SigningError(f"{path}: readable or writable by other users (mode {stat.S_IMODE(info.st_mode):o}); "
                               f"a signing key must be private: chmod 600 {path}")
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        if isinstance(err, SigningError):
            raise
        raise SigningError(f"{path}: not a readable key file ({err})") from None
    if len(key) < 16:
        raise SigningError(f"{path}: a key of {len(key)} bytes is too short")
    return key


def signing_key(create: bool = True) -> bytes | None:
    """This user's key; created (0600) when missing and ``create``; None when signing is off,
    the key is missing and not to be created, or it cannot be created (a warning says so)."""
    path = key_path()
    if path is None:
        return None
    if path.exists():
        return _read_key(path)
    if not create:
        return None
    try:
        if not path.parent.is_dir():
            path.parent.mkdir(mode=0o700, parents=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.exists():  # another process made it first
            return _read_key(path)
        _unsigned(path, f"{path.parent} is not a folder")
        return None
    except OSError as err:  # a read-only home: files go unsigned (their readers check what they can)
        _unsigned(path, str(err.strerror or err))
        return None
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(secrets.token_hex(KEY_BYTES) + "\n")
    return _read_key(path)


def _unsigned(path: Path, reason: str) -> None:
    warnings.warn(f"cannot create the signing key {path}: {reason}; replays and arena journals are written "
                  f"unsigned (set {KEY_ENV} to a writable path)", stacklevel=3)


def key_id(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:16]


def canonical(data: Any) -> bytes:
    """The bytes a signature covers: sorted keys, no spaces, exact float reprs."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def mac(key: bytes, data: Any, context: bytes = b"") -> str:
    return hmac.new(key, context + b"\0" + canonical(data), hashlib.sha256).hexdigest()


def sign(record: dict[str, Any], key: bytes, context: bytes = b"") -> dict[str, Any]:
    """``record`` with its HMAC and key id (over everything else in it, and ``context``)."""
    body = {k: v for k, v in record.items() if k not in (HMAC_FIELD, KEY_ID_FIELD)}
    return {**body, KEY_ID_FIELD: key_id(key), HMAC_FIELD: mac(key, body, context)}


def check(record: dict[str, Any], key: bytes | None, context: bytes = b"") -> str | None:
    """Why ``record``'s signature does not hold (None: it verifies). A record without one, or no
    key to check it with, is reported as such (the caller decides what else to check)."""
    given = record.get(HMAC_FIELD)
    if given is None:
        return "is not signed"
    if key is None:
        return "is signed, but this user has no key to check it with"
    if not isinstance(given, str):
        return "has a signature that is not a string"
    body = {k: v for k, v in record.items() if k not in (HMAC_FIELD, KEY_ID_FIELD)}
    try:
        expected = mac(key, body, context)
    except ValueError:  # NaN or Infinity: nothing this package signs
        return "holds a number no signed record holds"
    if hmac.compare_digest(given, expected):
        return None
    if record.get(KEY_ID_FIELD) not in (None, key_id(key)):
        return (f"is signed with another key (key id {record.get(KEY_ID_FIELD)!r}, yours is {key_id(key)!r}): "
                "written by another user, or with another key file")
    return "does not match its signature: it was edited after it was written"
