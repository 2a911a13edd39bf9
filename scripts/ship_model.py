"""Ship a trained network as a pretrained opponent (agents/pretrained/models/NAME.*).

    python scripts/ship_model.py --run runs/yonkai_no_yokai/distill --name yonkai_no_yokai_4p \\
        --configuration '{"num_players": 4}' --search "iterations=50;opponents=rollout;search=flat;beliefs=heuristic" \\
        --command "yokai train --config configs/yonkai_no_yokai/distill.yaml" \\
        --eval runs/eval/pre_4p_vs_heuristic "yokai evaluate ..." --eval DIR "COMMAND" ...

Copies the run's model (``--which best_model`` or ``model``: its weights, NAME.safetensors) into
the package, writes the card as data (NAME.json: the run's model card, which says how to build
the network and how it plays (agents/model_file.py), plus env id, configuration, search, the
command and seed that trained it, wall time, and one evaluation row per ``--eval`` folder of
``yokai evaluate --out``: the gauntlet agent's win rate with its interval against each opponent
line-up, with the command beside it), ``--run-eval`` also takes the run's own final arena table
(eval.json) as the network-alone rows; writes the card for people (NAME.md), and copies the run's learning curve to
docs/img/pretrained/NAME_curve.png. ``--cards-only`` rewrites every NAME.md from its .json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "agents" / "pretrained" / "models"
CURVES = ROOT / "docs" / "img" / "pretrained"
CLEAR_RATE = "none: its clear rate"


def evaluation_rows(folder: Path, command: str) -> list[dict[str, Any]]:
    """The gauntlet agent's rows of one ``yokai evaluate --out`` folder."""
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    agent = results.get("gauntlet")
    # Solo, or Co-op with one agent in every seat: each agent's clear rate, the references' too
    alone = results["num_players"] == 1 or all(p.get("self_play") for p in results["pairings"])
    if agent is None and not alone:
        raise SystemExit(f"{folder}: not a gauntlet run (use --gauntlet with the shipped agent)")
    rows = []
    for pairing in results["pairings"]:
        if alone or pairing["agent"] == agent:
            rows.append({"agent": pairing["agent"], "opponents": CLEAR_RATE if alone else pairing["opponents"],
                         "games": pairing["deals"] if alone else pairing["games"],
                         "win_rate": round(pairing["win_rate"], 4), "ci": [round(pairing["ci_low"], 4),
                                                                          round(pairing["ci_high"], 4)],
                         "seed": results["seed"], "command": command})
    return rows


def run_rows(run: Path, command: str) -> list[dict[str, Any]]:
    """The network alone in the run's final arena table (eval.json), as card rows. In the
    cooperative modes a row of kind ``self`` is the network in every seat and a ``reference`` is
    that bot's own clear rate on the same deals."""
    report = json.loads((run / "eval.json").read_text(encoding="utf-8"))
    rows = []
    for bot, row in report["results"].items():
        kind = row.get("kind", "versus")
        agent = bot if kind == "reference" else "pretrained"
        opponents = CLEAR_RATE if kind in ("self", "reference") else bot
        rows.append({"agent": agent, "opponents": opponents, "games": row["games"],
                     "win_rate": round(row["win_rate"], 4), "ci": [round(row["ci_low"], 4), round(row["ci_high"], 4)],
                     "seed": "the run's final evaluation", "command": command})
    return rows


def run_state(run: Path) -> dict[str, Any]:
    """A run folder's training time and learner decisions: the trainer's state.json, or a league's
    league.json (its main agents' steps)."""
    if (run / "state.json").exists():
        return json.loads((run / "state.json").read_text(encoding="utf-8"))
    league = json.loads((run / "league.json").read_text(encoding="utf-8"))
    config = __import__("yaml").safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    return {"train_seconds": league["train_seconds"],
            "timesteps": config["league"]["main_steps"] * league["generation"]}


def card_markdown(name: str, card: dict[str, Any]) -> str:
    options = ", ".join(f"{k}={v!r}" for k, v in card["configuration"].items()) or "defaults"
    lines = [f"# Pretrained opponent `{name}`", "",
             f"- env id: `{card['env_id']}` ({options}); agent specs `pretrained` (the network alone) and "
             "`pretrained:search=true` (with its play-time search)",
             f"- play-time search: `{card['search'] or 'the trained: defaults'}`",
             f"- generation {card.get('generation', 1)}" + (f", superseded {card['superseded']}"
                                                          if card.get("superseded") else ""),
             "- the network alone " + mixture_words(card)
             + ("takes its most likely move" if card["play"].get("deterministic", True)
                else "samples its move from its distribution (as it was measured)"),
             f"- trained by: `{card['command']}` (seed {card['seed']}), {card['wall_time']}",
             f"- method: {card.get('method', '')}",
             *([f"- note: {card['note']}"] if card.get("note") else []), "",
             "| agent | against | games | win rate | 95% CI |", "|---|---|---:|---:|---|"]
    for row in card["evaluation"]:
        lines.append(f"| `{row['agent']}` | {row['opponents']} | {row['games']} | {row['win_rate']:.3f} | "
                     f"[{row['ci'][0]:.3f}, {row['ci'][1]:.3f}] |")
    lines += ["", "Commands:", ""]
    lines += [f"    {command}" for command in dict.fromkeys(row["command"] for row in card["evaluation"])]
    lines += exploitability_markdown(card.get("exploitability"))
    return "\n".join(lines) + "\n"


def mixture_words(card: dict[str, Any]) -> str:
    """How a mixture file plays, in words ('' for one network)."""
    weights = card["play"].get("mixture")
    if not weights:
        return ""
    names = card.get("mixture_members") or [f"member {i}" for i in range(len(weights))]
    return (f"is a mixture of {len(weights)} networks ("
            + ", ".join(f"{name} {weight:.2f}" for name, weight in zip(names, weights, strict=True))
            + "): at the start of each game it draws one by these weights, which then ")


def exploitability_markdown(section: dict[str, Any] | None) -> list[str]:
    """The card's exploitability rows (scripts/card_exploitability.py writes them) for people: the
    section's own warm start first, then any other yardstick's rows, each by budget."""
    if not section:
        return ["", "Exploitability: not measured."]
    if section.get("not_applicable"):
        return ["", f"Exploitability: {section['not_applicable']}"]
    from yokai_envs.training.common.exploit_curve import row_yardstick

    own = section["warm_start"]
    rows = sorted(section["rows"], key=lambda r: (row_yardstick(r, section) != own, row_yardstick(r, section),
                                                  r["budget"], r["agent"]))
    # a column only when a second yardstick is on the card: a card of one reads as before
    mixed = any(row_yardstick(r, section) != own for r in rows)
    lines = ["", "## Exploitability", "",
             f"{section['yardstick']}; warm start: {own}" + (" unless a row names its own" if mixed else "")
             + f"; fair share {section['fair_share']:.3f}; measured {section['measured']}."
             + (f" {section['note']}" if section.get("note") else ""), "",
             "| best response against | " + ("warm start | " if mixed else "") + "budget (steps) | win rate | "
             "95% CI | games | seeds |", "|---|" + ("---|" if mixed else "") + "---:|---:|---|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['agent']} | " + (f"{row_yardstick(row, section)} | " if mixed else "")
                     + f"{row['budget']:,} | {row['win_rate']:.3f} | [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}] | "
                     f"{row['games']} | {row['seeds']} |")
    lines += ["", "Commands:", ""] + [f"    {c}" for c in dict.fromkeys(r["command"] for r in section["rows"])]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, help="the training run folder")
    parser.add_argument("--name", help="the model's name (NAME.safetensors, NAME.json, NAME.md)")
    parser.add_argument("--which", choices=("best_model", "model"), default="model")
    parser.add_argument("--configuration", default="{}", help="JSON: the options that pick this model")
    parser.add_argument("--search", default="", help="options of its play-time search (trained:...;OPTIONS)")
    parser.add_argument("--command", default="", help="the command that trained it")
    parser.add_argument("--method", default="", help="one line: how it was trained")
    parser.add_argument("--eval", nargs=2, action="append", default=[], metavar=("DIR", "COMMAND"),
                        help="a yokai evaluate --out folder (gauntlet) and the command that made it")
    parser.add_argument("--wall-time", default="", help="the card's wall time in words (default: the run's "
                                                        "training time)")
    parser.add_argument("--run-eval", action="store_true",
                        help="also take the run's final arena table (eval.json) as the network-alone rows")
    parser.add_argument("--sampled", action="store_true",
                        help="the network alone plays by sampling its distribution (as it was measured)")
    parser.add_argument("--label", nargs=2, action="append", default=[], metavar=("AGENT", "NAME"),
                        help="an agent of the --eval folders under its shipped name (measured before shipping, "
                             "e.g. policy:runs/x/model.safetensors as pretrained); the same network and seeds play the "
                             "same games under either name")
    parser.add_argument("--cards-only", action="store_true", help="rewrite every NAME.md from NAME.json")
    args = parser.parse_args(argv)
    if args.cards_only:
        for card_file in sorted(MODELS.glob("*.json")):
            card = json.loads(card_file.read_text(encoding="utf-8"))
            card_file.with_suffix(".md").write_text(card_markdown(card_file.stem, card), encoding="utf-8")
        return 0
    if args.run is None or args.name is None:
        parser.error("--run and --name are needed (or --cards-only)")
    config = json.loads(json.dumps(__import__("yaml").safe_load((args.run / "config.yaml").read_text())))
    state = run_state(args.run)
    MODELS.mkdir(parents=True, exist_ok=True)
    from agents.model_file import check_weights, read_card

    weights = args.run / f"{args.which}.safetensors"
    if not weights.exists() and weights.with_suffix(".zip").exists():
        raise SystemExit(f"{weights.with_suffix('.zip')} is a pickled SB3 zip (a run from before weights-only "
                         f"models); if you made it, convert it first: python scripts/convert_model.py "
                         f"{weights.with_suffix('.zip')} {weights} --trust-pickles")
    model_card = read_card(weights)  # checked: allow-lists, weights digest
    check_weights(model_card)
    if model_card["kind"] != "policy":
        raise SystemExit(f"{model_card['path']}: a {model_card['kind']} file, not a playing model")
    minutes = state["train_seconds"] / 60
    card = {"env_id": config["game"]["env_id"], "configuration": json.loads(args.configuration),
            "search": args.search, "play": {"deterministic": not args.sampled, "temperature": 1.0},
            "command": args.command,
            "seed": config["training"]["seed"],
            "wall_time": args.wall_time or f"{minutes:.0f} min of training on 2 CPU cores "
                                           f"({state['timesteps']} learner decisions)",
            "method": args.method, "training": {"config": config, "distill": state.get("distill", {}).get("history"),
                                                **({"lookahead": state["lookahead"]["history"]}
                                                   if "lookahead" in state else {})},
            "evaluation": (run_rows(args.run, args.command) if args.run_eval else [])
            + [row for folder, command in args.eval for row in evaluation_rows(Path(folder), command)]}
    labels = dict(args.label)
    for row in card["evaluation"]:
        row["agent"] = labels.get(row["agent"], row["agent"])
        row["opponents"] = labels.get(row["opponents"], row["opponents"])
    # the network as the run saved it: the same weights file, its card's build fields beside the above
    card.update({key: value for key, value in model_card.items() if key not in card and key != "path"})
    if "mixture" in model_card["play"]:  # which network plays is part of the file, not a choice of shipping
        card["play"]["mixture"] = model_card["play"]["mixture"]
    shutil.copy(model_card["path"], MODELS / f"{args.name}.safetensors")
    (MODELS / f"{args.name}.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    (MODELS / f"{args.name}.md").write_text(card_markdown(args.name, card), encoding="utf-8")
    CURVES.mkdir(parents=True, exist_ok=True)
    if (args.run / "learning_curve.png").exists():
        shutil.copy(args.run / "learning_curve.png", CURVES / f"{args.name}_curve.png")
    elif (args.run / "league.json").exists():  # a league's curves are its phases' (gen_G/main/)
        print(f"no learning curve copied: a league's phases each have one ({args.run}/gen_G/main/learning_curve.png)")
    else:  # a run stopped before its end: draw the curve from what it recorded
        from yokai_envs.training.common.plot import plot_learning_curve

        plot_learning_curve(state, CURVES / f"{args.name}_curve.png",
                            title=f"{args.name} (stopped at {state['timesteps']} steps)")
    print(f"shipped {args.name}: {MODELS / args.name}.safetensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
