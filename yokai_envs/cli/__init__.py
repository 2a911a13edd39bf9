"""The ``yokai`` command: :func:`main` is the entry point (``yokai ...``, ``python -m yokai_envs.cli ...``).

Each subcommand is one module of this package, named after it (``yokai train`` is
:mod:`yokai_envs.cli.train`; ``yokai list`` is ``list_envs``, so the package never holds a
``list`` that hides the builtin), defining ``add_arguments(parser)`` and ``run(args) -> int``; it is
imported only when used. :mod:`yokai_envs.cli.arg_types` holds the argument types they share.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

# subcommand -> (module, one-line help). The module defines add_arguments(parser) and run(args) -> int.
COMMANDS: dict[str, tuple[str, str]] = {
    "list": ("yokai_envs.cli.list_envs", "list the env ids, their options and player counts"),
    "bench": ("yokai_envs.cli.bench", "measure env throughput and memory beside peer environments"),
    "train": ("yokai_envs.cli.train", "train a policy (MaskablePPO, opponent pools, self-play) from a YAML config"),
    "demo": ("yokai_envs.cli.demo", "play one game between bots and render every decision"),
    "evaluate": ("yokai_envs.cli.evaluate", "play agents against each other on duplicate deals and rate them"),
    "balance": ("yokai_envs.cli.balance", "is invented content fair? decks, characters or levels on duplicate deals"),
    "play": ("yokai_envs.cli.play", "take a seat yourself against bots in the terminal"),
    "serve": ("yokai_envs.cli.serve", "play the bots in your browser: a local web app (docs/serve.md)"),
    "replay": ("yokai_envs.cli.replay", "step through a replay file in the terminal, or write it as an HTML page"),
    "exploit": ("yokai_envs.cli.exploit", "train a best response to a frozen agent and report its win rate "
                                          "(an exploitability proxy)"),
    "export": ("yokai_envs.cli.export", "one row per decision of played games (arena folders, replays) as Parquet"),
    "score": ("yokai_envs.cli.score", "score an agent on every configuration against the fixed reference ladder "
                                      "(suite v1, docs/leaderboard.md)"),
}


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr (the flag, the problem, where to look)
    instead of the usage block and the line, so every error of the command reads the same."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def main(argv: list[str] | None = None) -> int:
    """Run ``yokai`` with ``argv`` (default: the process's arguments); returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    parser = OneLineParser(prog="yokai", description="yokai-envs: yokai card games for RL research")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text)
        if name == (argv[0] if argv else None):
            modules[name] = importlib.import_module(module_name)
            modules[name].add_arguments(sub_parser)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    return int(modules[args.command].run(args) or 0)

