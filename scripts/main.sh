#!/usr/bin/env bash
# Set up .venv, then the main job (configs/yonkai_no_yokai/main.yaml, about 6 minutes on 2
# idle CPU cores): a trained opponent for Yonkai no Yokai (4 players). The network copies the
# heuristic, a short PPO on the vectorized engine refines it, then the arena plays the network
# alone and the network with its play-time search (agent spec trained:PATH;SEARCH) against three
# randoms and three heuristics. The run folder runs/yonkai_no_yokai/main holds model.zip,
# best_model.zip, eval.json, learning_curve.png and the logs; a rerun replaces it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/yokai train --config configs/yonkai_no_yokai/main.yaml --overwrite
.venv/bin/python - <<'PY'
import json
report = json.load(open("runs/yonkai_no_yokai/main/eval.json"))
FAIR = 0.25  # a seat's fair share at a 4-player table


def line(row):
    verdict = "beats that table" if row["ci_low"] > FAIR else "loses to it" if row["ci_high"] < FAIR else "level with it"
    return f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}] over {row['games']} games: {verdict}"


print(f"\nTrained: a network that copied the heuristic, then MaskablePPO for {report['timesteps']:,} steps "
      f"against random and heuristic bots on {report['env_id']} {report['env_options']} "
      f"({report['train_seconds']:.0f} s of PPO).")
for bot, row in report["results"].items():
    print(f"  network alone     vs 3 x {bot:9s}: {line(row)}")
search = report.get("search")
if search:
    for bot, row in search["results"].items():
        print(f"  network + search  vs 3 x {bot:9s}: {line(row)}")
    print(f"The trained opponent is the network with its search: yokai play --vs '{search['spec']}'")
print(f"Win rates with 95% Wilson intervals; a seat's fair share at a 4-player table is {FAIR}.")

from agents.pretrained import PretrainedError, find  # noqa: E402

try:
    card = find(report["env_id"], report["env_options"])
except PretrainedError:
    card = None
if card is not None:
    for row in card.data["evaluation"]:
        print(f"  shipped {row['agent']:11s} vs {row['opponents']}: {line(row | {'ci_low': row['ci'][0], 'ci_high': row['ci'][1]})}")
    print("Play the shipped opponent: yokai play --game yonkai_no_yokai_v1 --vs pretrained  (or yokai serve)")
PY
