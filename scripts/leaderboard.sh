#!/usr/bin/env bash
# docs/leaderboard.md: score every reference agent (the bots and the shipped networks) with
# `yokai score`, then write the page and the reference positions from the finished runs.
#   scripts/leaderboard.sh [RUNS_DIR] [WORKERS]      (default runs/leaderboard, 2)
#   SUITES="v1-quick" scripts/leaderboard.sh          (only the quick suite: minutes per agent)
# Every run resumes (a cut run continues where it stopped), and the runs of one suite share a
# cell store, so the anchors are played once. Each finished run's score.json is kept in the
# repository (benchmarks/leaderboard/SUITE/NAME/), and the page is written from all of them, so a
# suite replayed alone keeps the other suite's rows. Rerun it after a change to a bot, a shipped
# model or a game, so that the page describes the package as it is.
# After a model shipped or a card was re-measured, the page written again from the kept runs (in
# seconds, a test asks for it) marks the cells played with the network it replaced:
#   yokai score --leaderboard docs/leaderboard.md --runs benchmarks/leaderboard \
#     --references yokai_envs/benchmark/suites/references.json
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-runs/leaderboard}
WORKERS=${2:-2}
SUITES=${SUITES:-"v1-quick v1"}
KEPT=benchmarks/leaderboard
# The reference agents are suite v1's ladder: NAME=SPEC lines.
mapfile -t AGENTS < <(python -c 'from yokai_envs.benchmark import load_suite
for name, spec in load_suite("v1").ladder.items(): print(f"{name}={spec}")')
for suite in $SUITES; do
  for entry in "${AGENTS[@]}"; do
    name=${entry%%=*}
    spec=${entry#*=}
    yokai score --agent "$spec" --suite "$suite" --workers "$WORKERS" --cells "$RUNS/cells-$suite" \
      --out "$RUNS/$suite/$name" --resume > /dev/null
    mkdir -p "$KEPT/$suite/$name"
    cp "$RUNS/$suite/$name/score.json" "$KEPT/$suite/$name/score.json"
  done
done
yokai score --leaderboard docs/leaderboard.md --runs "$KEPT" \
  --references yokai_envs/benchmark/suites/references.json
