"""``yokai score``: score an agent on every configuration against the fixed reference ladder.

    yokai score --agent heuristic --quick                      # minutes: suite v1-quick
    yokai score --agent policy:runs/model.zip --configs yokaizo --out runs/score/mine --workers 2
    yokai score --agent my_package.bots:MyAgent --out runs/score/mine --resume   # continue a cut run
    yokai score --leaderboard docs/leaderboard.md --runs runs/leaderboard        # the page from finished runs
    yokai score --leaderboard docs/leaderboard.md --cards-only                   # only its section from the model cards

Named ``score`` (not ``benchmark``): ``yokai bench`` measures throughput, and two commands named
bench/benchmark that do unrelated things would be mixed up; this one prints a score. The suite,
the scale and the JSON schema are in docs/leaderboard.md.
"""

from __future__ import annotations

import argparse
import sys
import time

from yokai_envs.cli.arg_types import add_trust_pickles, positive_int


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--agent", metavar="SPEC",
                        help="the agent: a spec (random, heuristic, ismcts:..., policy:PATH, trained:PATH, "
                             "pretrained, rllib:PATH, openspiel:ismcts;simulations=50) or module.path:ClassName "
                             "(an agents.base.Agent subclass, imported because you name it here)")
    parser.add_argument("--suite", default=None, help="suite version (default v1; see yokai_envs/benchmark/suites)")
    parser.add_argument("--quick", action="store_true", help="the quick suite v1-quick (cheap rungs, 120 games a cell)")
    parser.add_argument("--configs", type=_names, default=None, metavar="NAME,...",
                        help="only these configurations (yonkai_3p, yonkai_4p, yokaizo, yyh, duel, solo, coop)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="run folder: score.json/.md/.tex and cells/ (one arena journal per cell)")
    parser.add_argument("--resume", action="store_true", help="continue the cut run in --out")
    parser.add_argument("--cells", default=None, metavar="DIR",
                        help="the cell store (default OUT/cells): finished cells found there are reused, so runs "
                             "of several agents sharing one play the anchors once")
    parser.add_argument("--workers", type=positive_int, default=1, help="processes (results do not depend on it)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local: --workers processes; ray: Ray tasks (same results)")
    parser.add_argument("--ray-address", default=None, metavar="ADDRESS", help="with --backend ray: a cluster")
    parser.add_argument("--format", choices=("markdown", "json", "latex"), default="markdown",
                        help="what to print (score.json, .md and .tex are all written with --out)")
    parser.add_argument("--exploitability", type=positive_int, nargs="?", const=100_000, default=None,
                        metavar="STEPS", help="add yokai exploit's best-response win rate, trained for STEPS "
                                              "(default 100000) steps per configuration")
    add_trust_pickles(parser)
    parser.add_argument("--leaderboard", default=None, metavar="PAGE",
                        help="instead of scoring: write the leaderboard page from the finished runs in --runs")
    parser.add_argument("--runs", action="append", default=None, metavar="DIR",
                        help="with --leaderboard: a folder of run folders (repeatable)")
    parser.add_argument("--cards-only", action="store_true",
                        help="with --leaderboard: rewrite only the page's section read from the model cards "
                             "(the shipped networks' exploitability), keeping the runs' tables as they are")
    parser.add_argument("--references", default=None, metavar="FILE",
                        help="with --leaderboard: also write the reference agents' scores there (the positions "
                             "`yokai score` prints; the package's is yokai_envs/benchmark/suites/references.json)")


def _fail(message: str) -> int:
    print(f"yokai score: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if args.leaderboard and args.cards_only:
        if args.agent or args.runs or args.references:
            return _fail("--leaderboard PAGE --cards-only reads the model cards only: no --runs, no --agent, "
                         "no --references")
        from yokai_envs.benchmark.leaderboard import refresh_card_section

        try:
            print(f"wrote {refresh_card_section(args.leaderboard)}")
        except ValueError as err:
            return _fail(str(err))
        return 0
    if args.cards_only:
        return _fail("--cards-only goes with --leaderboard PAGE")
    if args.leaderboard:
        if args.agent or not args.runs:
            return _fail("--leaderboard PAGE takes --runs DIR (finished score runs), not --agent")
        from yokai_envs.benchmark.leaderboard import write_leaderboard

        try:
            written = write_leaderboard(args.runs, args.leaderboard, args.references)
        except ValueError as err:
            return _fail(str(err))
        print(f"wrote {', '.join(written)}")
        return 0
    if not args.agent:
        return _fail("--agent SPEC is required (or --leaderboard PAGE --runs DIR)")
    if args.quick and args.suite:
        return _fail("--quick is the suite v1-quick; give --quick or --suite, not both")
    if args.resume and not args.out:
        return _fail("--resume needs --out DIR (the folder of the cut run)")
    if args.ray_address and args.backend != "ray":
        return _fail(f"--ray-address {args.ray_address} needs --backend ray")
    from pathlib import Path

    from yokai_envs.benchmark import DEFAULT_SUITE, QUICK_SUITE, score_agent

    if args.out and (Path(args.out) / "score.json").exists() and not args.resume:
        return _fail(f"--out {args.out} holds a finished score: pass --resume to reuse its cells, or another folder")
    if args.trust_pickles:
        from agents.specs import trusting_pickles

        args.agent = trusting_pickles(args.agent)
    from tqdm.auto import tqdm

    started = time.perf_counter()
    try:
        document = score_agent(args.agent, QUICK_SUITE if args.quick else (args.suite or DEFAULT_SUITE),
                               args.configs, args.out, args.resume, args.workers, args.backend, args.ray_address,
                               args.exploitability, args.cells,
                               log=lambda message: tqdm.write(message, file=sys.stderr))
    except (ValueError, FileNotFoundError, ImportError) as err:  # bad spec, configuration, folder: before any game
        return _fail(str(err).splitlines()[0] if str(err) else type(err).__name__)
    except KeyboardInterrupt:
        again = (f"; continue with the same command and --resume (--out {args.out})" if args.out
                 else "; nothing was kept (pass --out DIR to keep finished games and resume)")
        print(f"\nyokai score: interrupted{again}", file=sys.stderr)
        return 130
    from yokai_envs.benchmark import report

    if args.format == "json":
        import json

        print(json.dumps(document, indent=2))
    elif args.format == "latex":
        print(report.latex(document))
    else:
        print(report.markdown(document))
    if args.out:
        print(f"\nwrote {args.out}/score.json, score.md, score.tex ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="score", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
