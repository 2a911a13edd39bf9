"""What keeps a run folder whole: the marker a run writes, atomic file writes, and the signal
guard that turns SIGTERM into the same orderly stop as Ctrl-C and lets a save finish.

* **The marker** (``.yokai-run.json``) is written by ``yokai train`` when it creates a run in a
  folder. ``--overwrite`` deletes only a folder that carries it (or a run folder of an earlier
  version: a ``state.json`` with the run keys), and inside it only the run's own files
  (:data:`RUN_ENTRIES`); anything else a user put there stays.
* **Atomic writes:** every file of a run is written under a temporary name beside its target and
  renamed into place (:func:`atomic_target`), so a kill mid-write leaves the previous file, never
  a truncated one.
* **Signals** (:class:`SignalGuard`): SIGINT and SIGTERM raise :class:`RunInterrupted` (a
  ``KeyboardInterrupt``) in the main thread, except inside :meth:`SignalGuard.saving`, where they
  are held until the save is done.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import parse_json

MARKER = ".yokai-run.json"
#: Every name a run (either backend) writes at the top of its folder: all --overwrite may delete.
RUN_ENTRIES = ("config.yaml", "state.json", "model.safetensors", "model.json", "best_model.safetensors",
               "best_model.json", "model.zip", "best_model.zip", "model", "best_model", "checkpoints",
               "snapshots", "logs", "learning_curve.png", "eval.json", MARKER,
               # a league run (training/algorithms/league.py): its state, frozen members and one run per generation
               "league.json", "members")
LEAGUE_GENERATION = re.compile(r"gen_\d+")
_LEGACY_STATE_KEYS = {"timesteps", "evaluations", "sessions"}


# ---------------------------------------------------------------------- the run folder's owner
def is_run_folder(root: Path) -> bool:
    """True when ``root`` holds a run ``yokai train`` made: the marker, or (runs made before the
    marker existed) a ``state.json`` with the run's keys."""
    if (root / MARKER).is_file():
        return True
    state = root / "state.json"
    if not state.is_file():
        return False
    try:
        data = parse_json(state.read_bytes(), str(state), ValueError)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.keys() >= _LEGACY_STATE_KEYS


def check_new_run_folder(root: Path, overwrite: bool) -> None:
    """Refuse (ConfigError, nothing touched) a folder a new run must not write into: anything but
    a new folder, an empty one, or (with ``overwrite``) a run folder."""
    if root.exists() and not root.is_dir():
        raise ConfigError(f"output.dir {root}: exists and is not a folder")
    if not root.exists() or not any(root.iterdir()):
        return
    if not is_run_folder(root):
        shown = sorted(p.name for p in root.iterdir())
        listing = ", ".join(shown[:5]) + (", ..." if len(shown) > 5 else "")
        raise ConfigError(f"output.dir {root}: not empty ({listing}) and not a yokai run folder (no {MARKER}); "
                          "a run writes only into a new or empty folder, and --overwrite replaces only a run "
                          "folder: pass --out another folder")
    if not overwrite:
        raise ConfigError(f"{root} already holds a run; pass --resume to continue it, "
                          "--overwrite to start afresh, or --out another folder")


def clear_run_entries(root: Path) -> list[str]:
    """Delete the run's own files from ``root`` (checked with :func:`check_new_run_folder` first)."""
    removed = []
    generations = [p.name for p in root.iterdir() if LEAGUE_GENERATION.fullmatch(p.name)] if root.is_dir() else []
    for name in (*RUN_ENTRIES, *sorted(generations)):
        path = root / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        else:
            continue
        removed.append(name)
    return removed


def write_marker(root: Path, backend: str) -> None:
    if (root / MARKER).exists():
        return
    payload = {"created_by": "yokai train", "backend": backend or "sb3",
               "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "note": "this folder is a yokai-envs run; yokai train --overwrite may replace the run's files"}
    atomic_write_text(root / MARKER, json.dumps(payload, indent=2) + "\n")


def check_writable_folder(path: str | Path) -> str | None:
    """Why files cannot be written under ``path`` (a folder that may not exist yet), or None.
    Creates nothing: the nearest existing ancestor must be a folder this process can write."""
    target = Path(path).expanduser()
    probe = target
    while not (probe.exists() or probe.is_symlink()):
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        return f"{probe} exists and is not a folder"
    if not probe.exists():
        return f"{probe} does not exist"
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as err:
        return f"cannot write in {probe}: {err.strerror or err}"
    return None


# ---------------------------------------------------------------------- atomic writes
def temporary_name(target: Path) -> Path:
    """A name beside ``target`` with the same suffix (SB3 adds ``.zip`` to a name without one)."""
    return target.with_name(f".{target.stem}.tmp-{os.getpid()}{target.suffix}")


@contextlib.contextmanager
def atomic_target(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``target`` in one rename (a folder
    target: the old folder is moved aside first and deleted after). On failure the temporary is
    removed and ``target`` is untouched."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(target)
    _remove(tmp)
    try:
        yield tmp
        if tmp.is_dir():
            old = target.with_name(f".{target.name}.old-{os.getpid()}")
            _remove(old)
            if target.exists():
                target.rename(old)
            tmp.rename(target)
            _remove(old)
        else:
            with contextlib.suppress(OSError), open(tmp, "rb") as handle:
                os.fsync(handle.fileno())
            tmp.replace(target)
    except BaseException:
        _remove(tmp)
        raise


_TEMPORARY = re.compile(r"^\..+\.(?:tmp|old)-(\d+)(?:\.[^.]*)?$")


def remove_stale_temporaries(root: Path) -> list[Path]:
    """Delete the temporaries (``.NAME.tmp-PID.zip``...) that a killed process left under ``root``
    (a process still alive keeps its own); returns what was removed."""
    removed = []
    for path in sorted(root.rglob(".*")) if root.is_dir() else []:
        found = _TEMPORARY.match(path.name)
        if found is None or int(found.group(1)) == os.getpid() or _alive(int(found.group(1))):
            continue
        _remove(path)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process, or unknown: leave its files
    return True


def atomic_write_text(target: str | Path, text: str) -> None:
    with atomic_target(target) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_copy(source: Path, target: Path) -> None:
    with atomic_target(target) as tmp:
        if source.is_dir():
            shutil.copytree(source, tmp)
        else:
            shutil.copyfile(source, tmp)


def atomic_copy_model(source: Path, target: Path) -> None:
    """A model file and its card (``NAME.safetensors`` + ``NAME.json``), each copied atomically;
    the card holds the weights' digest, so a pair cut between the two copies refuses to load."""
    for suffix in (source.suffix, ".json"):
        atomic_copy(source.with_suffix(suffix), target.with_suffix(suffix))


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists() or path.is_symlink():
        path.unlink()


# ---------------------------------------------------------------------- signals
class RunInterrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM; ``signal_number`` says which."""

    def __init__(self, message: str = "", signal_number: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.signal_number = signal_number


class RunStopped(RuntimeError):
    """A run that could not go on (e.g. its Ray cluster failed); the message says what was saved
    and how to continue."""


class SignalGuard:
    """While active, SIGINT and SIGTERM raise :class:`RunInterrupted`; inside :meth:`saving`
    they are held (a note is printed) and raised when the save is done. ``stopping`` (set once
    the run is already saving after a stop) swallows further signals until the process ends."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.depth = 0
        self.pending: int | None = None
        self.stopping = False
        self.received: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for number in self.SIGNALS:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()

    def _handle(self, number: int, frame: Any) -> None:
        self.received = self.received or number
        if self.depth or self.stopping:
            if self.pending is None:
                print(f"\nyokai train: {signal.Signals(number).name} received; finishing the save first",
                      file=sys.stderr, flush=True)
            self.pending = number
            return
        raise RunInterrupted("", number)

    @contextlib.contextmanager
    def saving(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if self.depth == 0 and self.pending is not None and not self.stopping:
            number, self.pending = self.pending, None
            raise RunInterrupted("", number)


class NoGuard(SignalGuard):
    """For code paths without a guard (a Trainer used from Python): no handlers are installed,
    so saving() has nothing to hold."""

    def __enter__(self) -> SignalGuard:
        return self
