#!/usr/bin/env bash
# Set up .venv, then the main job: train a MaskablePPO network for Yonkai no Yokai (4 players)
# on the quick config (a few minutes on 2 CPU cores), then the arena against three randoms and
# three heuristics. The run folder runs/yonkai_no_yokai/quick holds model.zip, best_model.zip,
# eval.json, learning_curve.png and the logs; a rerun replaces it. The network with its
# play-time search (agent spec trained:PATH) is evaluated by adding
# --set "evaluation.search=iterations=50;opponents=rollout;search=flat;beliefs=heuristic"
# (minutes more; see configs/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/yokai train --config configs/yonkai_no_yokai/quick.yaml --overwrite --set evaluation.workers=2
.venv/bin/python - <<'PY'
import json
report = json.load(open("runs/yonkai_no_yokai/quick/eval.json"))
def line(row):
    return f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}] over {row['games']} seat-games"
print(f"\nTrained: MaskablePPO on {report['env_id']} {report['env_options']}, {report['timesteps']:,} steps "
      f"against random bots ({report['train_seconds']:.0f} s).")
for bot, row in report["results"].items():
    print(f"  network alone            vs 3 x {bot:9s}: {line(row)}")
search = report.get("search")
if search:
    for bot, row in search["results"].items():
        print(f"  network + search         vs 3 x {bot:9s}: {line(row)}")
    print(f"The trained opponent is the network with its search: yokai play --vs '{search['spec']}'")
print("A seat's fair share at a 4-player table is 0.25: above it beats that table (95% Wilson intervals).")
PY
