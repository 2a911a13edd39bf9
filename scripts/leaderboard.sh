#!/usr/bin/env bash
# docs/leaderboard.md: score every reference agent (the bots and the shipped networks) with
# `yokai score`, then write the page and the reference positions from the finished runs.
#   scripts/leaderboard.sh [RUNS_DIR] [WORKERS]      (default runs/leaderboard, 2)
#   SUITES="v1-quick" scripts/leaderboard.sh          (only the quick suite: minutes per agent)
# Every run resumes (a cut run continues where it stopped), and the runs of one suite share a
# cell store, so the anchors are played once. Rerun it after a change to a bot, a shipped model
# or a game: the page and the positions then describe the package as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-runs/leaderboard}
WORKERS=${2:-2}
SUITES=${SUITES:-"v1-quick v1"}
AGENTS=(
  "random=random"
  "lowest=lowest"
  "heuristic=heuristic"
  "ismcts-8=ismcts:iterations=8;max_rollout_steps=10;leaf=heuristic"
  "ismcts-32=ismcts:iterations=32;max_rollout_steps=10;leaf=heuristic"
  "pretrained=pretrained"
  "pretrained+search=pretrained:search=true;iterations=8"
)
for suite in $SUITES; do
  for entry in "${AGENTS[@]}"; do
    name=${entry%%=*}
    spec=${entry#*=}
    yokai score --agent "$spec" --suite "$suite" --workers "$WORKERS" --cells "$RUNS/cells-$suite" \
      --out "$RUNS/$suite/$name" --resume > /dev/null
  done
done
yokai score --leaderboard docs/leaderboard.md --runs "$RUNS" \
  --references yokai_envs/benchmark/suites/references.json
