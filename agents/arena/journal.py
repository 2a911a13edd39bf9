"""Resumable arena runs: ``match.json`` (what the match is) and ``games.jsonl`` (one line per
game, appended and flushed as each game finishes), and the time estimate printed after the
first games.

A cut run (killed, out of time) leaves the games it finished in ``games.jsonl``;
``run_match(..., journal_dir=DIR, resume=True)`` (``yokai evaluate --out DIR --resume``) checks
that ``DIR/match.json`` describes the same match, keeps every finished game that is the game
the schedule plans at its index (same table, seats, deal and agent seeds), and plays only the
others. Every game depends only on its scheduled seeds, so the results equal an uncut run's,
whatever ``--workers`` either run used. A line cut off mid-write is dropped.

Every kept game is checked before it is counted (``verify``: the arena replays its actions from
its deal seed, or plays it again when no actions were kept, and compares returns, credits, steps
and truncation), so an edited ``games.jsonl`` is refused with the line number, never counted.

A legal game of the same deal played by other agents would pass that check, so each line is
also signed (``hmac_sha256``, with the per-user key of yokai_envs/core/signing.py, over the
record and this match's ``match.json``): a line whose signature does not verify is refused. A
line that cannot be checked that way (no signature: an older run; or signing off,
``YOKAI_ENVS_KEY_FILE=none``) is played again by its named agents with their recorded seeds, and
must give the same moves.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from yokai_envs.core.files import parse_json, unique_keys
from yokai_envs.core.signing import HMAC_FIELD, KEY_ID_FIELD, SigningError, canonical, check, sign, signing_key

from .schedule import GameSpec

GAMES_FILE = "games.jsonl"
MATCH_FILE = "match.json"
RESULTS_FILE = "results.json"


class ResumeError(ValueError):
    """The folder holds another match, or an unfinished one and ``resume`` was not asked for."""


def _spec_matches(record: dict[str, Any], spec: GameSpec) -> bool:
    return (record.get("table") == spec.table and record.get("deal") == spec.deal
            and record.get("arrangement") == spec.arrangement and list(record.get("seats", [])) == list(spec.seats)
            and record.get("deal_seed") == spec.deal_seed
            and list(record.get("agent_seeds", [])) == list(spec.agent_seeds))


def read_numbered_games(path: Path) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """(line number, record) for each game in a games.jsonl, and how many lines could not be
    read (a line cut off by a kill is the last one; any other unreadable line is an error)."""
    records: list[tuple[int, dict[str, Any]]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    except (OSError, UnicodeDecodeError) as err:
        raise ResumeError(f"{path}: cannot be read ({err})") from None
    bad = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, object_pairs_hook=unique_keys(
                functools.partial(_key_twice, f"{path} line {number}")))
        except ResumeError:
            raise
        except (json.JSONDecodeError, RecursionError):
            if number != len(lines):
                raise ResumeError(f"{path}: line {number} is not JSON (only a last line cut off by a kill "
                                  "is skipped)") from None
            bad += 1
            continue
        if not isinstance(record, dict):
            raise ResumeError(f"{path}: line {number} is not a game record (a JSON object), "
                              f"got {type(record).__name__}")
        records.append((number, record))
    return records, bad




def read_games(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records in a games.jsonl, and how many lines could not be read (see read_numbered_games)."""
    numbered, bad = read_numbered_games(path)
    return [record for _, record in numbered], bad


def read_match(path: Path) -> dict[str, Any]:
    """A match.json as a dict; ResumeError naming the file when it is not one."""
    try:
        match = parse_json(path.read_bytes(), str(path), ValueError)
    except (OSError, ValueError) as err:
        raise ResumeError(f"{path}: not a readable match file ({err})") from None
    if not isinstance(match, dict):
        raise ResumeError(f"{path}: not a match file (expected a JSON object, got {type(match).__name__})")
    return match


# What an arena folder holds; anything else in it means the folder is not (only) the arena's.
ARENA_FILES = frozenset({MATCH_FILE, GAMES_FILE, RESULTS_FILE, "results.csv", "results.md", "results.tex",
                         "ratings.png", "head_to_head.png", "replays", f"{GAMES_FILE}.tmp"})


def foreign_files(folder: Path) -> list[str]:
    """The entries of ``folder`` the arena did not write: every entry when it has no match.json
    (an arena folder always has one), else the names outside :data:`ARENA_FILES`."""
    if not folder.is_dir():
        return []
    names = sorted(entry.name for entry in folder.iterdir())
    if MATCH_FILE not in names:
        return names
    return [name for name in names if name not in ARENA_FILES]


class Journal:
    """Appends each finished game to ``DIR/games.jsonl`` (flushed), after checking or writing
    ``DIR/match.json``. ``done`` holds the games a resumed run already has, by index."""

    def __init__(self, folder: str | Path, config: dict[str, Any], plan: list[GameSpec], resume: bool,
                 log: Callable[[str], None] | None = None,
                 verify: Callable[[dict[str, Any], GameSpec, bool], str | None] | None = None) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise ResumeError(f"{self.folder} is a file, not a folder")
        if resume and not self.folder.is_dir():
            raise ResumeError(f"--resume: {self.folder} does not exist, so there is no cut run to continue")
        foreign = foreign_files(self.folder)
        if foreign:  # results.md, notes... of someone else's: never replaced
            shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
            raise ResumeError(f"{self.folder} holds files the arena did not write ({shown}): "
                              "use a new or empty folder")
        try:
            self.key = signing_key(create=True)
        except SigningError as err:
            raise ResumeError(str(err)) from None
        # a line's signature covers the match it belongs to: lines do not move between matches
        self.context = canonical(config)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.games_path = self.folder / GAMES_FILE
        match_path = self.folder / MATCH_FILE
        self.done: dict[int, dict[str, Any]] = {}
        log = log or (lambda message: None)
        has_games = self.games_path.exists() and self.games_path.stat().st_size > 0
        unfinished = has_games and not (self.folder / RESULTS_FILE).exists()
        if resume and has_games:
            if not match_path.exists():
                raise ResumeError(f"{self.folder} has {GAMES_FILE} but no {MATCH_FILE}: cannot tell which match "
                                  "it belongs to, so it cannot be resumed")
            before = read_match(match_path)
            changed = [key for key in sorted(set(before) | set(config)) if before.get(key) != config.get(key)]
            if changed:
                detail = "; ".join(f"{k}: {before.get(k)!r} then, {config.get(k)!r} now" for k in changed)
                raise ResumeError(f"{self.folder} holds another match ({detail}): resume with the same "
                                  "game, options, agents, games and seed, or use another folder")
            numbered, cut = read_numbered_games(self.games_path)
            for number, record in numbered:
                index = record.get("index")
                if (not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(plan)
                        or not _spec_matches(record, plan[index])):
                    raise ResumeError(f"{self.games_path} line {number}: game {index!r} is not the game this "
                                      "match plans at that index")
                signature = check(record, self.key, self.context)
                if signature is not None and HMAC_FIELD in record and self.key is not None:
                    raise ResumeError(f"{self.games_path} line {number}: game {index} {signature}; refusing it "
                                      "(move the folder aside and run again)")
                record = {k: v for k, v in record.items() if k not in (HMAC_FIELD, KEY_ID_FIELD)}
                # unsigned: only playing it again with its agents and seeds shows who chose its moves
                problem = verify(record, plan[index], signature is not None) if verify is not None else None
                if problem:
                    raise ResumeError(f"{self.games_path} line {number}: game {index} {problem}; refusing an "
                                      "edited or damaged record (move the folder aside and run again)")
                self.done.setdefault(index, record)
            log(f"resuming: {len(self.done)} of {len(plan)} games already played"
                + (" (a cut-off last line dropped)" if cut else ""))
        elif unfinished and not resume:
            count = len(read_games(self.games_path)[0])
            raise ResumeError(f"{self.folder} holds an unfinished run ({count} games in {GAMES_FILE}, no "
                              f"{RESULTS_FILE}): pass --resume (resume=True) to continue it, or use another folder")
        for stale in (RESULTS_FILE,):  # a fresh or resumed run: the old results no longer describe it
            (self.folder / stale).unlink(missing_ok=True)
        match_path.write_text(json.dumps(config, indent=2) + "\n")
        # Rewrite the games kept (drops a torn last line, so appending starts on a fresh line).
        temporary = self.games_path.with_suffix(".jsonl.tmp")
        with temporary.open("w") as handle:
            for index in sorted(self.done):
                handle.write(json.dumps(self._signed(self.done[index])) + "\n")
        os.replace(temporary, self.games_path)
        self._handle = self.games_path.open("a")

    def _signed(self, record: dict[str, Any]) -> dict[str, Any]:
        return sign(record, self.key, self.context) if self.key is not None else record

    def append(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            self._handle.write(json.dumps(self._signed(record)) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


def duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Estimate:
    """Logs once, after the first games, how long the rest should take: games finished per
    second so far (process start-up included, so it errs on the long side), measured once the
    first ``first_round`` games (one deal of every table, which the arena plays first) and at
    least two per worker are done."""

    def __init__(self, total: int, workers: int, log: Callable[[str], None] | None, first_round: int = 0) -> None:
        self.total = total
        self.after = min(total, max(2, 2 * workers, first_round))
        self.log = log
        self.done = 0
        self.started = time.perf_counter()
        self.said = False

    def update(self, finished: int) -> None:
        self.done += finished
        if self.said or self.log is None or self.done < self.after or self.done >= self.total:
            return
        elapsed = time.perf_counter() - self.started
        left = elapsed / self.done * (self.total - self.done)
        self.log(f"{self.done} of {self.total} games in {duration(elapsed)}: about {duration(left)} to go")
        self.said = True


def _key_twice(where: str, key: str) -> ResumeError:
    return ResumeError(f"{where}: key {key!r} appears twice in one object")
