"""``yokai evaluate``: play a seat-balanced round-robin or gauntlet and write the results.

    yokai evaluate --game yonkai_no_yokai_v1 --env-kwargs '{"num_players": 4}' \
        --agents H=heuristic,random --games 1000 --seed 0 --out runs/eval --workers 2
    yokai evaluate ... --out runs/eval --resume      # continue a cut run (same results as uncut)
    yokai evaluate ... --ratings-plot docs/img/league/duel_ladder.png   # the ratings plot, where the docs embed it
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from typing import Any

from agents.specs import KINDS
from yokai_envs.cli.arg_types import add_trust_pickles, non_negative_int, positive_int, unwritable_out
from yokai_envs.core.files import parse_json


def _split_specs(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise argparse.ArgumentTypeError(f"--agents needs at least one spec ({', '.join(KINDS)})")
    return specs


def _env_kwargs(text: str) -> dict:
    try:
        value = parse_json(text, "--env-kwargs", ValueError)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"{err}: {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"--env-kwargs must be a JSON object, got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="env id, e.g. yonkai_no_yokai_v1 (see `yokai list`)")
    parser.add_argument("--env-kwargs", type=_env_kwargs, default={}, metavar="JSON",
                        help='game options as a JSON object, e.g. \'{"num_players": 4}\'')
    parser.add_argument("--agents", type=_split_specs, required=True, metavar="[ALIAS=]SPEC,...",
                        help="agent specs: random, heuristic, ismcts:iterations=200;rollout=heuristic, "
                             "policy:path/to/model.safetensors[;deterministic=false]; ALIAS=SPEC names the agent "
                             "in results, tables and plots (e.g. ISMCTS-30=ismcts:iterations=30,H=heuristic)")
    parser.add_argument("--gauntlet", default=None, metavar="[ALIAS=]SPEC",
                        help="play this agent against the others instead of a round-robin")
    parser.add_argument("--games", type=positive_int, default=100,
                        help="games per table (rounded up so every seat arrangement plays every deal)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="folder for results.json/.csv/.md/.tex, games.jsonl (written as games finish), "
                             "ratings.png, head_to_head.png")
    parser.add_argument("--resume", action="store_true",
                        help="continue the cut run in --out: play only the games missing from its games.jsonl")
    parser.add_argument("--workers", type=positive_int, default=1,
                        help="processes (results do not depend on it; capped at this machine's CPUs)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local: this machine's processes (--workers); ray: Ray tasks (same results)")
    parser.add_argument("--ray-address", default=None, metavar="ADDRESS",
                        help="with --backend ray: an existing cluster (e.g. ray://head:10001 or auto); "
                             "default: start a local Ray instance with 2 CPUs")
    add_trust_pickles(parser)
    parser.add_argument("--save-replays", type=non_negative_int, default=0, metavar="N",
                        help="also write the first N games as replay files to OUT/replays/ (see yokai replay)")
    parser.add_argument("--ratings-plot", default=None, metavar="PNG",
                        help="also write the ratings plot (the same image as OUT/ratings.png) to this file, "
                             "e.g. docs/img/league/duel_ladder.png; --out is not needed")


def run(args: argparse.Namespace) -> int:
    from agents.arena import markdown, run_match, write_outputs

    if args.save_replays < 0:
        print(f"yokai evaluate: error: --save-replays must be >= 0, got {args.save_replays}", file=sys.stderr)
        return 2
    if args.resume and not args.out:
        print("yokai evaluate: error: --resume needs --out DIR (the folder of the cut run)", file=sys.stderr)
        return 2
    if args.ray_address and args.backend != "ray":
        print(f"yokai evaluate: error: --ray-address {args.ray_address} needs --backend ray", file=sys.stderr)
        return 2
    if args.save_replays and not args.out:
        print("yokai evaluate: error: --save-replays needs --out DIR (replays go to DIR/replays/)", file=sys.stderr)
        return 2
    if unwritable_out("evaluate", args.out):
        return 2
    if args.ratings_plot and _bad_plot_path(args.ratings_plot):
        return 2
    from tqdm.auto import tqdm

    if args.trust_pickles:
        from agents.specs import trusting_pickles

        args.agents = [trusting_pickles(entry) for entry in args.agents]
        args.gauntlet = trusting_pickles(args.gauntlet) if args.gauntlet else None
    started = time.perf_counter()
    previous = _stop_on_sigterm()
    try:
        result = run_match(args.game, args.agents, games=args.games, seed=args.seed, env_options=args.env_kwargs,
                           gauntlet=args.gauntlet, workers=args.workers, progress=not args.no_progress,
                           backend=args.backend, ray_address=args.ray_address, journal_dir=args.out,
                           resume=args.resume, log=lambda message: tqdm.write(message, file=sys.stderr))
    except (ValueError, FileNotFoundError, ImportError) as err:  # bad spec / option / checkpoint: before any game
        print(f"yokai evaluate: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:  # the finished games are in games.jsonl already
        number = getattr(stop, "signal_number", signal.SIGINT)
        again = (f"; continue with the same command and --resume (--out {args.out})" if args.out
                 else "; nothing was kept (pass --out DIR to keep finished games and resume)")
        print(f"\nyokai evaluate: interrupted by {signal.Signals(number).name}{again}", file=sys.stderr)
        return 128 + number
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print(markdown(result))
    if args.out:
        paths = write_outputs(result, args.out)
        print(f"\nwrote {', '.join(str(p) for p in paths.values())}")
        if args.save_replays:
            from yokai_envs.play.replay import save_match_replays

            saved = save_match_replays(result, f"{args.out}/replays", args.save_replays)
            print(f"wrote {len(saved)} replay file(s) to {args.out}/replays/")
    if args.ratings_plot:
        from agents.arena.report import plot_ratings

        plot = Path(args.ratings_plot).expanduser()
        plot.parent.mkdir(parents=True, exist_ok=True)
        plot_ratings(result, plot)
        print(f"wrote {plot}")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


def _bad_plot_path(path: str) -> bool:
    """Whether --ratings-plot cannot be written (said on stderr); asked before the first game."""
    from yokai_envs.training.common.safety import check_writable_folder

    plot = Path(path).expanduser()
    problem = ("must name a .png file" if plot.suffix.lower() != ".png"
               else "is a folder" if plot.is_dir() else check_writable_folder(plot.parent))
    if problem:
        print(f"yokai evaluate: error: --ratings-plot {path}: {problem}", file=sys.stderr)
    return bool(problem)


def _stop_on_sigterm() -> Any:
    """SIGTERM (a scheduler's stop, ``kill``) stops the run like Ctrl-C: the resume hint is printed.
    Returns the handler it replaced (None off the main thread, where none is installed)."""
    import threading

    from yokai_envs.training.common.safety import RunInterrupted

    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(number: int, frame: Any) -> None:
        raise RunInterrupted("", number)

    return signal.signal(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="evaluate", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
