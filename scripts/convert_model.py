"""Convert a legacy SB3 ``.zip`` policy you trust into a weights-only model file.

    python scripts/convert_model.py runs/old/model.zip runs/old/model.safetensors --trust-pickles [--sampled]

Loading the zip unpickles it (that runs any code its author put in it: convert only zips you
made yourself); the result is the same network as ``NAME.safetensors`` with its card (see
agents/model_file.py), which loads without running anything. ``--sampled`` records on the card
that the network plays by sampling its distribution (otherwise: its most likely action).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def convert(source: Path, target: Path, deterministic: bool = True, fields: dict | None = None) -> Path:
    """Write ``target`` (and its card) from the zip ``source``; ``fields``: more card fields
    (a shipped model keeps its whole card)."""
    from sb3_contrib import MaskablePPO

    from agents.model_file import save_model
    from agents.policy import read_pickled_meta

    meta = read_pickled_meta(source)
    model = MaskablePPO.load(str(source), device="cpu")
    if type(model.policy).__name__ != "MaskableActorCriticPolicy":  # a centralized critic: keep the actor
        from yokai_envs.training.common.policies import export_actor

        model = export_actor(model)
    return save_model(model, target, {**(fields or {}), "env_id": meta["env_id"],
                                      "env_options": meta.get("env_options", {}),
                                      "play": {"deterministic": deterministic, "temperature": 1.0}})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="the SB3 zip (a yokai checkpoint with yokai_meta.json)")
    parser.add_argument("target", type=Path, help="the .safetensors file to write")
    parser.add_argument("--trust-pickles", action="store_true", required=True,
                        help="say that you trust the zip: loading it runs its pickles")
    parser.add_argument("--sampled", action="store_true", help="the network plays by sampling its distribution")
    args = parser.parse_args(argv)
    print(f"wrote {convert(args.source, args.target, deterministic=not args.sampled)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
