#!/usr/bin/env bash
# Set up .venv, then the main job: train a MaskablePPO policy for Yonkai no Yokai (4 players)
# on the quick config (a few minutes on 2 CPU cores) and evaluate it against the bots.
# The run folder runs/yonkai_no_yokai/quick holds model.zip, best_model.zip, eval.json,
# learning_curve.png and the logs; a rerun replaces it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/yokai train --config configs/yonkai_no_yokai/quick.yaml --overwrite
