#!/usr/bin/env bash
# The Onmyoji Duel's generation 4 from generation 3, in one command: the four steps of the header
# of configs/onmyoji/league_gen4.yaml (about 1 h 35 min on 2 cores, the yardstick's seeds two at
# a time; docs/league.md).
#   scripts/duel_gen4.sh [RUNS_DIR]      (default runs/onmyoji)
# A finished step is kept: the best responses' seed folders are reused, and a league already in
# RUNS_DIR/league_gen4 is resumed instead of started again.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-runs/onmyoji}
YARDSTICK=(--game onmyoji_v5 --budgets 409600 --set evaluation.every=100000000 --set evaluation.final_games=1000
           --workers 2)  # two seeds side by side: one per core
# 1. the yardstick against generation 3: its best responses become the league's fixed members
yokai exploit --agent pretrained:generation=3 "${YARDSTICK[@]}" --seeds 0,1,2,3,4,5,6,7,8,9 --out "$RUNS/exploit_gen3"
# 2. the league (six generations) and the minimax mixture of its main agents
if [ -f "$RUNS/league_gen4/eval.json" ]; then
  echo "the league in $RUNS/league_gen4 has finished"
elif [ -f "$RUNS/league_gen4/league.json" ]; then
  yokai train --resume --out "$RUNS/league_gen4"
else
  members=$(for k in 0 1 2 3 4 5 6 7 8 9; do printf ", policy:%s/exploit_gen3/b409600_s%d/model.safetensors" "$RUNS" "$k"; done)
  yokai train --config configs/onmyoji/league_gen4.yaml --out "$RUNS/league_gen4" --set "league.bots=[heuristic$members]"
fi
# 3. the yardstick against that mixture, on seeds the members were not trained with
yokai exploit --agent "policy:$RUNS/league_gen4/model.safetensors;deterministic=false" "${YARDSTICK[@]}" \
  --seeds 10,11,12,13,14,15,16,17,18,19 --out "$RUNS/exploit_gen4a"
# 4. PSRO's next step: those best responses become rows of the cross table, the mixture is solved again
rows=$(for s in 10 11 12 13 14 15 16 17 18 19; do printf "policy:%s/exploit_gen4a/b409600_s%d/model.safetensors, " "$RUNS" "$s"; done)
if grep -q '"mixture_against": \[\]' "$RUNS/league_gen4/eval.json"; then
  yokai train --resume --out "$RUNS/league_gen4" --set "league.mixture_against=[${rows%, }]"
fi
echo "generation 4: $RUNS/league_gen4/model.safetensors (measure it with yokai exploit --seeds 20,...,29)"
