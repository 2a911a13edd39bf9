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

A folder is signed the same way (:func:`sign_folder`, :func:`check_signed_folder`): its
``yokai_signature.json`` holds the path and SHA-256 of every file in it, with the HMAC over that
list. An RLlib checkpoint is such a folder: a run's own checkpoint resumes without
``--trust-pickles``, while one from someone else, or edited since, is refused before any of its
pickles is read.
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

from yokai_envs.core.files import parse_json, read_regular_file

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


# ---------------------------------------------------------------------- signed folders
# A folder of pickles (an RLlib checkpoint) cannot be checked by reading it: reading it runs it.
# So its writer signs a manifest of its files, and a reader hashes the files (data, never
# unpickled) and checks that manifest before anything loads them.
FOLDER_SIGNATURE_FILE = "yokai_signature.json"
FOLDER_FORMAT = "yokai-signed-folder/1"
#: Mixed into the HMAC, so a signed replay or game line can never pass for a folder's manifest.
FOLDER_CONTEXT = b"yokai-envs signed folder"
MAX_FOLDER_FILES = 10_000
MAX_FOLDER_FILE_BYTES = 2 << 30
MAX_FOLDER_SIGNATURE_BYTES = 4 << 20
_CHUNK = 1 << 20


class _Unlisted(ValueError):
    """Why a folder's files cannot be listed or hashed (a sentence about one entry)."""


def _file_digest(path: Path, shown: str) -> str:
    """The SHA-256 of a regular file, never following a symlink, never past the size cap, and
    without blocking (a FIFO swapped in after the listing is refused from its fstat)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise _Unlisted(f"{shown} cannot be read ({err.strerror or err})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Unlisted(f"{shown} is not a regular file")
        digest, seen = hashlib.sha256(), 0
        while chunk := handle.read(_CHUNK):
            seen += len(chunk)
            if seen > MAX_FOLDER_FILE_BYTES:
                raise _Unlisted(f"{shown} holds more than {MAX_FOLDER_FILE_BYTES:,} bytes")
            digest.update(chunk)
    return digest.hexdigest()


def _folder_files(folder: Path) -> list[list[str]]:
    """[relative path, SHA-256] of every file under ``folder``, sorted; the signature file itself
    left out. A symlink is refused wherever it points: a checkpoint this package writes has none,
    and one that leaves the folder would make the signature cover files outside it."""
    found: list[list[str]] = []
    pending = [(folder, "")]
    while pending:
        where, prefix = pending.pop()
        try:
            entries = sorted(os.scandir(where), key=lambda entry: entry.name)
        except OSError as err:
            raise _Unlisted(f"{prefix or '.'} cannot be listed ({err.strerror or err})") from None
        for entry in entries:
            shown = prefix + entry.name
            if not prefix and entry.name == FOLDER_SIGNATURE_FILE:
                continue
            if entry.is_symlink():
                raise _Unlisted(f"{shown} is a symbolic link")
            if entry.is_dir(follow_symlinks=False):
                pending.append((Path(entry.path), shown + "/"))
            elif entry.is_file(follow_symlinks=False):
                if len(found) >= MAX_FOLDER_FILES:
                    raise _Unlisted(f"it holds more than {MAX_FOLDER_FILES:,} files")
                found.append([shown, _file_digest(Path(entry.path), shown)])
            else:
                raise _Unlisted(f"{shown} is not a regular file (a FIFO, device or socket)")
    return sorted(found)


def sign_folder(folder: str | Path) -> bool:
    """Sign every file under ``folder`` with this user's key (``FOLDER_SIGNATURE_FILE`` inside it,
    written last: sign a folder once everything in it is written). False when signing is off or
    the key cannot be created (the folder stays unsigned and loads only when trusted)."""
    key = signing_key(create=True)
    if key is None:
        return False
    root = Path(folder)
    try:
        files = _folder_files(root)
    except _Unlisted as err:
        raise SigningError(f"{root}: cannot sign this folder: {err}") from None
    record = sign({"format": FOLDER_FORMAT, "files": files}, key, FOLDER_CONTEXT)
    (root / FOLDER_SIGNATURE_FILE).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return True


def check_signed_folder(folder: str | Path) -> str | None:
    """Why ``folder`` is not, file for file, what this user's key signed (None: it is). Reads the
    signature (bounded) and hashes the files; unpickles and imports nothing."""
    root = Path(folder)
    where = root / FOLDER_SIGNATURE_FILE
    if not where.exists() and not where.is_symlink():
        return f"it has no {FOLDER_SIGNATURE_FILE}: saved by an older version, with signing off, or by someone else"
    try:
        if where.is_symlink():
            raise _Unlisted(f"{FOLDER_SIGNATURE_FILE} is a symbolic link")
        record = parse_json(read_regular_file(where, MAX_FOLDER_SIGNATURE_BYTES, FOLDER_SIGNATURE_FILE,
                                              "a folder signature", _Unlisted), FOLDER_SIGNATURE_FILE, _Unlisted)
        if not isinstance(record, dict) or record.get("format") != FOLDER_FORMAT:
            raise _Unlisted(f"{FOLDER_SIGNATURE_FILE} is not a folder signature ({FOLDER_FORMAT})")
        key = signing_key(create=False)
        problem = check(record, key, FOLDER_CONTEXT)
        if problem is not None:
            return f"{FOLDER_SIGNATURE_FILE} {problem}"
        signed = dict(record["files"])  # verified above: the [path, digest] pairs sign_folder wrote
        present = dict(_folder_files(root))
    except (_Unlisted, SigningError) as err:
        return str(err)
    for path in sorted(signed.keys() | present.keys()):
        if path not in signed:
            return f"{path} is not in its signature (added after it was signed)"
        if path not in present:
            return f"{path} is missing (removed after it was signed)"
        if present[path] != signed[path]:
            return f"{path} was changed after it was signed"
    return None
