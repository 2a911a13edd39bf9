"""Train a policy from a YAML config (the same as ``yokai train``).

    python scripts/train.py --config configs/yonkai_no_yokai/quick.yaml
    python scripts/train.py --config configs/yokaizo/full.yaml --set training.seed=1 --out runs/yokaizo/s1
    python scripts/train.py --resume --out runs/yonkai_no_yokai/quick

What a run does, in order (each step is a short function in yokai_envs/training/):

1. config.load_config: defaults (schema.py) <- the YAML file <- --set overrides <- --out;
   every key, type and value is checked before anything starts.
2. trainer.build_vec_env: n_envs copies of yokai_envs.training.make_gym(env_id, opponents=bots) — the
   learner in one seat (rotating), bots from the opponent pool in the others — in a
   DummyVecEnv or SubprocVecEnv, wrapped in VecMonitor for episode rewards.
3. trainer.build_model: MaskablePPO("MlpPolicy", envs, net_arch, **hyperparameters).
4. model.learn with trainer.TrainingCallback: progress bar, checkpoints/latest.safetensors, self-play
   snapshots added to every env's opponent pool (env_method("set_opponent_pool")), and
   arena evaluations against the evaluation bots (best_model.safetensors follows the best one).
5. model.safetensors, then the final arena table (evaluate.evaluate_checkpoint) -> eval.json, and
   plot.plot_learning_curve -> learning_curve.png.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from yokai_envs.cli import train as cli


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="train.py", description=__doc__.splitlines()[0])
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
