#!/usr/bin/env bash
# Set up .venv, then the main job (configs/yonkai_no_yokai/main.yaml, about 15 minutes
# on 2 CPU cores, measured in docs/results/strength.md): a trained opponent for Yonkai no Yokai (4 players) that beats the heuristic table.
# The network learns by lookahead distillation (heuristic games, each sampled decision's legal
# moves scored by a one-move lookahead on the true deal; the network sees only its observation),
# the arena plays it against three heuristics and three randoms on fresh deals, and a short best
# response (a copy of the heuristic refined against three copies of the new network) gives its
# exploitability row. The run folder runs/yonkai_no_yokai/main holds the model, eval.json and the
# logs; runs/yonkai_no_yokai/main_exploit the best response. A rerun replaces both.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/yokai train --config configs/yonkai_no_yokai/main.yaml --overwrite --no-progress
MODEL=runs/yonkai_no_yokai/main/model.safetensors   # weights only: what the trainer writes
.venv/bin/yokai exploit --agent "policy:$MODEL" --game yonkai_no_yokai_v1 --config configs/yonkai_no_yokai/exploit.yaml \
  --warm-start heuristic --budgets 40960 --set evaluation.final_games=500 \
  --out runs/yonkai_no_yokai/main_exploit --overwrite --no-progress > runs/yonkai_no_yokai/main_exploit.log
.venv/bin/python - <<'PY'
import json
report = json.load(open("runs/yonkai_no_yokai/main/eval.json"))
exploit = json.load(open("runs/yonkai_no_yokai/main_exploit/exploit.json"))
FAIR = 0.25  # a seat's fair share at a 4-player table


def line(row):
    verdict = "beats that table" if row["ci_low"] > FAIR else "loses to it" if row["ci_high"] < FAIR else "level with it"
    return f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}] over {row['games']} games: {verdict}"


print(f"\nTrained: lookahead distillation over {report['timesteps']:,} labelled decisions of heuristic games on "
      f"{report['env_id']} {report['env_options']} ({report['train_seconds']:.0f} s).")
for bot, row in report["results"].items():
    print(f"  network alone          vs 3 x {bot:9s}: {line(row)}")
print(f"  best response ({exploit['budget']:,} steps, a heuristic copy refined) vs 3 x the network: {line(exploit)}")
for bot, row in exploit["references"]["bots"].items():
    print(f"  the same best response vs 3 x {bot:9s}: {line(row)}  ({exploit['references']['source']})")
print(f"Win rates with 95% Wilson intervals; a seat's fair share at a 4-player table is {FAIR}. The lower the best "
      "response's row, the harder the network is to exploit.")

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
