"""``yokai demo``: one game between bots, rendered after every decision."""

from __future__ import annotations

import argparse
import sys

from yokai_envs.cli.arg_types import add_trust_pickles, non_negative_int
from yokai_envs.core.files import parse_json
from yokai_envs.core.protocols import render_text
from yokai_envs.registry import ENV_IDS, make_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=ENV_IDS[0], choices=ENV_IDS, help="env id")
    parser.add_argument("--env-kwargs", default="{}", help="game options as JSON, e.g. '{\"num_players\": 3}'")
    parser.add_argument("--agents", default="heuristic,random",
                        help="agent specs, comma-separated, cycled over the seats (default heuristic,random)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the final table")
    add_trust_pickles(parser)


def run(args: argparse.Namespace) -> int:
    from agents import make as make_agent
    from agents.base import act_in_game

    try:
        try:
            options = parse_json(args.env_kwargs, "--env-kwargs", ValueError)
        except ValueError as err:
            raise ValueError(f"{err}: {args.env_kwargs!r}") from None
        if not isinstance(options, dict):
            raise ValueError(f"--env-kwargs must be a JSON object, got {args.env_kwargs!r}")
        game = make_game(args.game, **options)
        specs = [s.strip() for s in args.agents.split(",") if s.strip()]
        if args.trust_pickles:
            from agents.specs import trusting_pickles

            specs = [trusting_pickles(spec) for spec in specs]
        if not specs:
            raise ValueError("--agents needs at least one agent spec, e.g. heuristic,random")
        seats = [make_agent(specs[i % len(specs)], args.game, options, seed=args.seed + i)
                 for i in range(game.num_players)]
        game.reset(args.seed)
    except (ValueError, OSError, ImportError) as err:  # bad JSON, option, spec, checkpoint or seed
        print(f"yokai demo: error: {err}", file=sys.stderr)
        return 2
    while not game.is_over:
        seat = game.current_player
        action = act_in_game(seats[seat], game)
        if not args.quiet:
            print(f"player {seat} ({specs[seat % len(specs)]}): {game.action_name(action)}")
        game.step(action)
        if not args.quiet:
            print(render_text(game), end="\n\n")
    print(render_text(game))
    print("returns:", ", ".join(f"player {s}: {r:+g}" for s, r in enumerate(game.returns())),
          "(truncated)" if game.is_truncated else "")
    return 0
