"""``yokai train``: train a policy from a YAML config.

    yokai train --config configs/yonkai_no_yokai/quick.yaml
    yokai train --config configs/yonkai_no_yokai/quick.yaml --set training.seed=1 --out runs/seed1
    yokai train --resume --out runs/yonkai_no_yokai/quick      # continue a run (its saved config)
    yokai train --config configs/yonkai_no_yokai/quick.yaml --check   # validate and print, train nothing
    yokai train --config configs/yonkai_no_yokai/quick.yaml --overwrite   # start the run folder afresh
    yokai train --keys                                                 # every config key and its default
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import yaml

from yokai_envs.cli.arg_types import add_trust_pickles
from yokai_envs.core.errors import ConfigError

if TYPE_CHECKING:
    from yokai_envs.training.algorithms.league import LeagueTrainer
    from yokai_envs.training.algorithms.ppo import Trainer
    from yokai_envs.training.rllib_backend.trainer import RLlibTrainer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="YAML config, e.g. configs/yonkai_no_yokai/quick.yaml")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value by dotted path (repeatable), e.g. training.seed=3")
    parser.add_argument("--out", metavar="DIR", help="run folder (overrides output.dir)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in the output folder (from checkpoints/resume.safetensors)")
    add_trust_pickles(parser, "--resume a run saved by an older version as pickled SB3 zips, or an RLlib run whose "
                              "checkpoint is not signed with your key (loading either runs any code its author put "
                              "in it: only for runs you made yourself)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace a finished or stopped run in the output folder instead of refusing "
                             "(only a folder a run made, and only the run's own files)")
    parser.add_argument("--check", action="store_true",
                        help="validate the config, print it resolved, and stop (imports no module the config "
                             "names: reward and wrapper paths are checked for their form only)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--backend", choices=("sb3", "rllib"), default=None,
                        help="training backend (overrides the config's backend: sb3 or rllib on Ray)")
    parser.add_argument("--ray-address", default=None, metavar="ADDRESS",
                        help="with the rllib backend: an existing Ray cluster (e.g. auto); default: a local one")
    parser.add_argument("--keys", action="store_true", help="list every config key with its default and stop")


def resolve(args: argparse.Namespace) -> dict:
    """The validated config named by the arguments (the run's saved config when resuming)."""
    from yokai_envs.training.common.config import load_config

    if getattr(args, "backend", None):
        args.overrides = [*args.overrides, f"backend={args.backend}"]
    if getattr(args, "ray_address", None):
        args.overrides = [*args.overrides, f"rllib.address={json.dumps(args.ray_address)}"]
    if args.resume and not args.config:
        if not args.out:
            raise ConfigError("--resume needs --out RUN_DIR (or --config FILE naming the run's output.dir)")
        from yokai_envs.training.common.run import read_run_config

        return load_config(None, args.overrides, args.out, base=read_run_config(args.out),
                           import_hooks=not args.check)
    return load_config(args.config, args.overrides, args.out, import_hooks=not args.check)


def run(args: argparse.Namespace) -> int:
    if args.keys:
        try:
            print(describe_keys(), flush=True)
        except BrokenPipeError:  # `yokai train --keys | head`: the reader has what it wanted
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush is quiet too
        return 0
    try:
        config = resolve(args)
        if getattr(args, "ray_address", None) and config.get("backend") != "rllib":
            raise ConfigError(f"--ray-address {args.ray_address} is only used by the rllib backend "
                              f"(--backend rllib); this run's backend is {config.get('backend')}")
    except ConfigError as err:
        print(f"yokai train: error: {err}", file=sys.stderr)
        return 2
    if args.check:
        print(yaml.safe_dump(config, sort_keys=False), end="")
        return 0
    trainer_class: type[Trainer | RLlibTrainer | LeagueTrainer]
    league = config.get("league", {}).get("generations") is not None
    if league:
        from yokai_envs.training.algorithms.league import LeagueTrainer

        trainer_class = LeagueTrainer
    elif config.get("backend") == "rllib":
        from yokai_envs.training.rllib_backend.trainer import RLlibTrainer

        trainer_class = RLlibTrainer
    else:
        from yokai_envs.training.algorithms.ppo import Trainer

        trainer_class = Trainer
    try:
        trust: dict[str, Any] = {"trust_pickles": True} if getattr(args, "trust_pickles", False) and not league else {}
        trainer = trainer_class(config, resume=args.resume, progress=False if args.no_progress else None,
                                overwrite=args.overwrite, **trust)
    except ConfigError as err:
        print(f"yokai train: error: {err}", file=sys.stderr)
        return 2
    report, code = run_guarded(trainer, "yokai train")
    if report is None:
        return code
    print(summary(report))
    print(f"run folder: {trainer.folder.root}")
    return 0


def run_guarded(trainer: Any, command: str) -> tuple[dict[str, Any] | None, int]:
    """Run ``trainer`` with SIGINT and SIGTERM turned into a save and a stop (``SignalGuard``).

    ``(report, 0)`` when it finishes; ``(None, exit code)`` when it stops, after telling stderr
    why: 128 + the signal's number for a signal (the shell's convention), 1 for a run that could
    not go on. Every command that trains (``yokai train``, ``yokai exploit``) stops this one way.
    """
    from yokai_envs.training.common.safety import RunStopped, SignalGuard

    with SignalGuard() as guard:
        trainer.guard = guard
        try:
            return trainer.run(), 0
        except KeyboardInterrupt as stop:
            guard.stopping = True  # the process is on its way out: later signals are ignored
            number = getattr(stop, "signal_number", signal.SIGINT)
            reason = str(stop) or f"stopped; continue with yokai train --resume --out {trainer.folder.root}"
            print(f"\n{command}: {signal.Signals(number).name}: {reason}", file=sys.stderr)
            return None, 128 + int(number)
        except RunStopped as stopped:
            print(f"{command}: error: {stopped}", file=sys.stderr)
            return None, 1
        except ConfigError as err:  # found once the run started (e.g. a damaged resume.safetensors): nothing trained
            print(f"{command}: error: {err}", file=sys.stderr)
            return None, 2


def summary(report: dict) -> str:
    lines = [f"{report['env_id']} {json.dumps(report['env_options'])}: {report['timesteps']} steps in "
             f"{report['train_seconds']:.0f} s; final arena ({report['games_per_bot']} games per bot, "
             f"{report['eval_seconds']:.0f} s):"]
    for label, row in report["results"].items():
        who = "policy alone" if label == "self" else (f"{label} alone" if row["kind"] == "reference"
                                                         else f"vs {row['opponents']}")
        lines.append(f"  {who:40s} win rate {row['win_rate']:.3f}  95% CI [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
                     f"  games {row['games']}  mean reward {row['mean_reward']:+.3f}")
    return "\n".join(lines)


def describe_keys() -> str:
    """Every config key: dotted path, type, default, choices and what it does."""
    from yokai_envs.training.common.schema import REQUIRED, SCHEMA, Field

    lines: list[str] = []

    def walk(node: dict, prefix: str) -> None:
        for key, child in node.items():
            path = f"{prefix}.{key}" if prefix else key
            if isinstance(child, dict):
                walk(child, path)
                continue
            assert isinstance(child, Field)
            default = "required" if child.default is REQUIRED else f"default {json.dumps(child.default)}"
            choices = f"; one of {', '.join(map(str, child.choices))}" if child.choices else ""
            lines.append(f"{path:40s} {child.type_names():14s} {default}{choices}")
            if child.help:
                lines.append(f"{'':40s} {child.help}")

    walk(SCHEMA, "")
    lines.append("algorithm.hyperparameters takes the keyword arguments of the algorithm's constructor "
                 "(e.g. MaskablePPO: learning_rate, n_steps, batch_size, n_epochs, gamma, ent_coef, ...).")
    return "\n".join(lines)
