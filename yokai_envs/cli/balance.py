"""``yokai balance``: is the invented content fair? Every deck or character against every other in
both seats on duplicate deals (a matchup matrix, each one against the field, first-seat and
first-player shares, endings by cause, game length), or the clear rate of every difficulty level.
Several specs on levels are also paired on the same deals: each one's clear rate against the first
spec's, level by level, with the difference and its 95% interval.

    yokai balance --game yokaizo_v4 --agents heuristic --games 50 --seed 0 --out runs/balance --workers 2
    yokai balance --game onmyoji_v5 --env-kwargs '{"mode": "solo"}' --agents heuristic --games 200
    yokai balance --game onmyoji_v5 --env-kwargs '{"mode": "coop"}' --agents heuristic,heuristic:selfish=true
    yokai balance --game onmyoji_v5 --env-kwargs '{"mode": "duel"}' --agents heuristic --variants all
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from yokai_envs.cli.arg_types import unwritable_out
from yokai_envs.cli.evaluate import _env_kwargs, _split_specs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="env id (see `yokai list`)")
    parser.add_argument("--env-kwargs", type=_env_kwargs, default={}, metavar="JSON",
                        help="other game options as a JSON object, e.g. '{\"mode\": \"solo\"}'")
    parser.add_argument("--agents", type=_split_specs, required=True, metavar="SPEC,SPEC,...",
                        help="who plays every seat; each spec is a separate balance run (e.g. heuristic,ismcts:...). "
                             "On difficulty levels, every spec after the first is also compared with the first "
                             "on the same deals (per level: both clear rates, the difference, its 95%% interval), "
                             "e.g. heuristic,heuristic:selfish=true for Onmyoji Co-op (the heuristic that never "
                             "heals or shields its partner); Onmyoji heuristic options: selfish, hold_back")
    parser.add_argument("--variants", default=None, metavar="NAME,NAME,...|all",
                        help="rule variants to measure, each a separate run: 'book' (the rulebook's game, the "
                             "default), a variant name (see `yokai list`) or 'all' (the book's game and every "
                             "variant); default: the variant in --env-kwargs, else the book's game")
    parser.add_argument("--choices", default=None, metavar="A,B,...",
                        help="only these decks / characters / levels (default: all the game names)")
    parser.add_argument("--games", type=int, default=100,
                        help="deals per pairing (each played in both seat orders), or games per level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, metavar="DIR", help="folder for results.json, results.csv and PNGs")
    parser.add_argument("--workers", type=int, default=1, help="processes (results do not depend on it)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from agents.arena.balance import compare_levels, comparison_markdown, markdown, run_balance, write_outputs

    choices = [c.strip() for c in args.choices.split(",") if c.strip()] if args.choices is not None else None
    if unwritable_out("balance", args.out):
        return 2
    started = time.perf_counter()
    try:
        variants = _variants(args.game, args.variants)
        runs = []  # per variant: its results
        for variant in variants:
            options = dict(args.env_kwargs) if variant is None else {**args.env_kwargs, "variant": variant}
            runs.append([run_balance(args.game, spec, games=args.games, seed=args.seed, env_options=options,
                                     choices=choices, workers=args.workers, progress=not args.no_progress)
                         for spec in args.agents])
    except (ValueError, FileNotFoundError, ImportError) as err:
        print(f"yokai balance: error: {err}", file=sys.stderr)
        return 2
    for variant, results in zip(variants, runs):
        for result in results:
            print(markdown(result) + "\n")
        comparisons = compare_levels(results)  # specs pair only within one variant (the same deals)
        if comparisons:
            print(comparison_markdown(comparisons, results[0].axis) + "\n")
        if args.out:
            out = args.out if len(variants) == 1 else str(Path(args.out) / str(variant))
            print(f"wrote {', '.join(write_outputs(results, out))}")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


def _variants(env_id: str, names: str | None) -> list[str | None]:
    """The variants of ``--variants`` (None: as --env-kwargs says); ValueError for a game without
    variants or an unknown name."""
    if names is None:
        return [None]
    from yokai_envs.registry import game_class

    game = game_class(env_id)
    known = ["book", *game.VARIANTS]
    if "variant" not in game.OPTIONS:
        raise ValueError(f"--variants: {env_id} has no rule variants (only the book's game)")
    wanted = known if names.strip() == "all" else [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown or not wanted:
        raise ValueError(f"--variants: unknown variant(s) {', '.join(map(repr, unknown)) or '(none given)'} "
                         f"for {env_id}; valid: {', '.join(map(repr, known))} or 'all'")
    return list(dict.fromkeys(wanted))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="yokai balance", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
