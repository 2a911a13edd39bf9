"""The command line that ``obs_fingerprint.py`` and ``search_fingerprint.py`` share: one sha256 per
labelled run, printed as it is done; ``--json`` writes them, ``--compare`` checks them against a
file written by ``--json`` (exit 1 when any differs or is missing)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator

#: (only these env ids or None for all, games) -> (label, sha256) per run, computed lazily.
Fingerprints = Callable[[list[str] | None, int], Iterator[tuple[str, str]]]


def fingerprint_main(description: str | None, games: int, games_help: str, fingerprints: Fingerprints) -> int:
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=games, help=games_help)
    parser.add_argument("--env", action="append", help="only this env id (repeatable)")
    parser.add_argument("--json", metavar="PATH", help="write the fingerprints as JSON")
    parser.add_argument("--compare", metavar="PATH", help="compare with fingerprints written by --json")
    args = parser.parse_args()
    expected = {}
    if args.compare:
        with open(args.compare, encoding="utf-8") as handle:
            expected = json.load(handle)
    results = {}
    failed = False
    for label, value in fingerprints(args.env, args.games):
        results[label] = value
        verdict = ""
        if args.compare:
            ok = expected.get(label) == value
            failed |= not ok
            verdict = " same" if ok else " DIFFERENT"
        print(f"{label}: {value}{verdict}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    return 1 if failed else 0
