#!/usr/bin/env bash
# A candidate generation 5 of the Onmyoji Duel (not shipped: docs/results/exploitability.md) from
# generation 3, in one command: scripts/duel_gen4.sh first
# (about 1 h 35 min; its finished steps are kept), then the steps below (about 50 min), on 2 cores
# with the yardstick's seeds two at a time; docs/league.md.
#   scripts/duel_gen5.sh [RUNS_DIR]      (default runs/onmyoji)
# PSRO's next step with new columns: the yardstick's best responses against generation 4 join the
# league as fixed members beside the earlier ones, two more generations train main agents against
# them, and the minimax mixture is solved over all nine main agents against every best response.
# A finished step is kept, as in duel_gen4.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-runs/onmyoji}
YARDSTICK=(--game onmyoji_v5 --budgets 409600 --set evaluation.every=100000000 --set evaluation.final_games=1000
           --workers 2)  # two seeds side by side: one per core
scripts/duel_gen4.sh "$RUNS"
responses() {  # the yardstick's best responses in one folder, as agent specs
  for s in "${@:2}"; do printf ", policy:%s/%s/b409600_s%d/model.safetensors" "$RUNS" "$1" "$s"; done
}
# 5. the yardstick against generation 4 (seeds 20-29)
yokai exploit --agent "policy:$RUNS/league_gen4/model.safetensors;deterministic=false" "${YARDSTICK[@]}" \
  --seeds 20,21,22,23,24,25,26,27,28,29 --out "$RUNS/exploit_gen4b"
# 6. two more generations with every best response so far as a fixed member, in a copy of the league
if [ ! -d "$RUNS/league_gen5" ]; then cp -r "$RUNS/league_gen4" "$RUNS/league_gen5"; fi
if ! grep -q '"mixture_of": 9' "$RUNS/league_gen5/eval.json"; then
  bots="heuristic$(responses exploit_gen3 0 1 2 3 4 5 6 7 8 9)$(responses exploit_gen4a 10 11 12 13 14 15 16 17 18 19)"
  bots+=$(responses exploit_gen4b 20 21 22 23 24 25 26 27 28 29)
  yokai train --resume --out "$RUNS/league_gen5" --set league.generations=8 --set "league.bots=[$bots]" \
    --set league.mixture_of=9 --set "league.mixture_against=[]"
fi
echo "the generation-5 candidate: $RUNS/league_gen5/model.safetensors (measure it with yokai exploit --seeds 30,...,49)"
