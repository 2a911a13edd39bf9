"""``yokai list``: the registered env ids with their options."""

from __future__ import annotations

import argparse

from yokai_envs.registry import ENV_IDS, game_class


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    for env_id in ENV_IDS:
        cls = game_class(env_id)
        options = ", ".join(f"{k}={v!r}" for k, v in {**cls.OPTIONS, "max_steps": cls.DEFAULT_MAX_STEPS}.items())
        print(f"{env_id:24s} {options}")
        for name, change in cls.VARIANTS.items():
            print(f"{'':24s}   variant={name!r}: {change}")
    return 0
