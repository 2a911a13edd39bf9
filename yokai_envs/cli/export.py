"""``yokai export``: one row per decision of played games, as Parquet (or JSON lines)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", nargs="+", required=True, metavar="PATH",
                        help="arena folder (match.json + games.jsonl, from yokai evaluate --out), games.jsonl, "
                             "replay file or folder of replay files")
    parser.add_argument("--out", required=True, help="FILE.parquet (needs the 'analysis' extra) or FILE.jsonl")
    parser.add_argument("--state-tensor", action="store_true", help="add the full (omniscient) state tensor")
    parser.add_argument("--no-observation", action="store_true", help="leave out the seat's observation")


def run(args: argparse.Namespace) -> int:
    import warnings

    from yokai_envs.analysis.trajectories import TrajectoryError, export

    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            count = export(args.source, args.out, observation=not args.no_observation,
                           state_tensor=args.state_tensor)
    except ModuleNotFoundError as err:
        print(f"yokai export: error: {err}; install the 'analysis' extra (pip install -e '.[analysis]') "
              "or write .jsonl", file=sys.stderr)
        return 2
    except (TrajectoryError, ValueError, OSError) as err:  # every reader's errors are ValueErrors
        print(f"yokai export: error: {err}", file=sys.stderr)
        return 2
    for warning in said:
        print(f"yokai export: note: {warning.message}", file=sys.stderr)
    print(f"wrote {count} decisions to {args.out}")
    return 0
