#!/usr/bin/env bash
# Set up .venv, then the main job: a rendered demo game between bots, then the benchmark table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/yokai demo --game yonkai_no_yokai_v0 --agents heuristic,random --seed 0
.venv/bin/yokai bench --seconds 3
