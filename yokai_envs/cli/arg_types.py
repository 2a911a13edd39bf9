"""Argument types the subcommands share: each refuses a bad value with the flag's own words
(argparse adds the flag's name), so ``--seed -1`` or ``--seconds nan`` is one clear line."""

from __future__ import annotations

import argparse
import math
import os
import sys

#: What ``--trust-pickles`` means on the commands that build agents from specs (demo, evaluate,
#: play, score): ``trusted=true`` added to every spec that loads a network file.
TRUST_PICKLES_HELP = ("let policy:/trained: specs load legacy SB3 .zip files and rllib: specs load RLlib checkpoints "
                      "(loading one runs any code its author put in it: only files you made yourself)")


def add_trust_pickles(parser: argparse.ArgumentParser, help_text: str = TRUST_PICKLES_HELP) -> None:
    """The ``--trust-pickles`` flag, spelled and explained the same on every command that has it."""
    parser.add_argument("--trust-pickles", action="store_true", help=help_text)


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def non_negative_int(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text}")
    return value


def positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def positive_finite_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text}")
    return value


def machine_cpus() -> int:
    return os.cpu_count() or 1


def unwritable_out(command: str, out: str | None) -> bool:
    """Whether ``--out`` names a folder this process cannot write, said on stderr as ``yokai
    COMMAND: error: ...``. Asked before the first game, so a bad folder costs no played games."""
    if not out:
        return False
    from yokai_envs.training.common.safety import check_writable_folder

    problem = check_writable_folder(out)
    if not problem:
        return False
    print(f"yokai {command}: error: --out {out}: {problem}", file=sys.stderr)
    return True
