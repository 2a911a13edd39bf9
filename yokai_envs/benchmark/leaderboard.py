"""docs/leaderboard.md from finished ``yokai score`` runs: ``yokai score --leaderboard PAGE --runs DIR``.

Every ``score.json`` under DIR is a row of its suite's table (a run of only some configurations
fills only their columns). The page's text on the scale is :mod:`.score`'s docstring and its
suite tables come from the suite files, so the page cannot drift from what the command does.
With ``--references FILE`` the ladder agents' own scores are written there too: the positions
``yokai score`` prints beside a score (the package's copy is ``suites/references.json``).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

from . import score as score_module
from .report import score_cell
from .suite import Suite, available, load_suite

MAX_RUN_FILE_BYTES = 8 * 1024 * 1024  # a score.json is a few hundred KB at most
SUITE_ORDER = ("v1", "v1-quick")
MAX_PAGE_BYTES = 4 * 1024 * 1024  # a leaderboard page is tens of KB
#: The page's one section read from the model cards, not from the runs.
CARDS_HEADING = "## Exploitability of the shipped networks"


def read_runs(folder: str | Path) -> list[dict[str, Any]]:
    """Every score.json under ``folder`` (ValueError for one that is not a score document)."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"--runs {folder}: not a folder")
    documents = []
    for path in sorted(root.rglob("score.json")):
        if path.stat().st_size > MAX_RUN_FILE_BYTES:
            raise ValueError(f"{path}: larger than {MAX_RUN_FILE_BYTES} bytes, not a score.json")
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not readable JSON ({err})") from None
        if not isinstance(document, dict) or document.get("schema") != score_module.SCHEMA:
            raise ValueError(f"{path}: not a {score_module.SCHEMA} document")
        document["path"] = str(path.parent)
        documents.append(document)
    if not documents:
        raise ValueError(f"--runs {folder}: no score.json under it (run yokai score --out first)")
    return documents


def _name(spec: str) -> str:
    """The ladder name of a reference spec (v1's ladder), else the spec itself."""
    by_spec = {spec: name for name, spec in load_suite("v1").ladder.items()}
    return by_spec.get(spec, spec)


def references(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """suite -> configuration -> ladder name -> the agent's score there."""
    out: dict[str, Any] = {}
    for document in documents:
        res = document["result"]
        if res["suite"] not in available() or res["protocol_hash"] != load_suite(res["suite"]).protocol_hash:
            continue  # measured on another protocol: never a position on this one
        for c in res["configurations"]:
            entry = {"spec": res["agent"], "score": c["score"], "score_low": c["score_low"],
                     "score_high": c["score_high"], "protocol_hash": res["protocol_hash"]}
            out.setdefault(res["suite"], {}).setdefault(c["name"], {})[_name(res["agent"])] = entry
    return out


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def _suite_section(version: str) -> list[str]:
    suite = load_suite(version)
    half = 1.96 * math.sqrt(0.25 / suite.games)
    lines = [f"### Suite {version}", "", suite.description, "",
             f"Protocol hash `{suite.protocol_hash}`; {suite.games:,} games per cell (95% half-width "
             f"1.96 * sqrt(0.25 / {suite.games}) = {half:.3f} at a rate of 0.5).", "",
             "| rung | spec |", "|---|---|"]
    lines += [f"| {name} | `{spec}` |" for name, spec in suite.ladder.items()]
    lines += ["", "| configuration | env id | options | levels | deal seed |", "|---|---|---|---|---:|"]
    for c in suite.configurations.values():
        options = ", ".join(f"{k}={v}" for k, v in c.options.items())
        lines.append(f"| {c.name} | {c.env_id} | {options} | {', '.join(map(str, c.levels)) or '-'} | {c.seed} |")
    return lines


def replaced_networks(suite: Suite, document: dict[str, Any], configuration: dict[str, Any]) -> list[str]:
    """The specs whose network a run played on ``configuration`` is not the one installed now (a
    shipped model replaced since): the row's numbers there describe the package as it was. Empty
    for a run that records no networks (written before runs did); a spec whose file is not here
    (a submitter's own ``policy:`` file) is not judged."""
    recorded = configuration.get("models")
    if recorded is None or configuration["name"] not in suite.configurations:
        return []
    now = score_module.played_models(suite, suite.configurations[configuration["name"]],
                                     document["result"]["agent"])
    return sorted(spec for spec in recorded.keys() & now.keys() if recorded[spec] != now[spec])


def _table(version: str, documents: list[dict[str, Any]]) -> list[str]:
    suite = load_suite(version)
    names = list(suite.configurations)
    lines = ["| agent | " + " | ".join(names) + " | cell time |", "|---|" + "---|" * len(names) + "---:|"]
    replaced: dict[str, set[str]] = {}
    for document in documents:
        res = document["result"]
        by_name = {c["name"]: c for c in res["configurations"]}
        cells = []
        for n in names:
            if n not in by_name:
                cells.append("not run")
                continue
            specs = replaced_networks(suite, document, by_name[n])
            for spec in specs:
                replaced.setdefault(spec, set()).add(n)
            cells.append(score_cell(by_name[n]) + (" (replaced)" if specs else ""))
        seconds = document.get("metadata", {}).get("wall_seconds", 0.0)
        lines.append(f"| `{_name(res['agent'])}` | " + " | ".join(cells) + f" | {_minutes(seconds)} |")
    if replaced:
        which = "; ".join(f"`{spec}` in {', '.join(n for n in names if n in where)}"
                          for spec, where in sorted(replaced.items()))
        lines += ["", f"(replaced): played with a network that has been replaced since ({which}); "
                  "`scripts/leaderboard.sh` plays those cells again."]
    return lines


def _rates(version: str, documents: list[dict[str, Any]]) -> list[str]:
    names = list(load_suite(version).configurations)
    lines = ["Rate against the heuristic rung (Solo: alone; Co-op: with it) and, after the slash, the mean over "
             "every rung:", "", "| agent | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for document in documents:
        by_name = {c["name"]: c for c in document["result"]["configurations"]}
        cells = [f"{by_name[n]['scale_rate']['agent']['rate']:.3f} / {by_name[n]['rung_mean']:.3f}"
                 if n in by_name else "-" for n in names]
        lines.append(f"| `{_name(document['result']['agent'])}` | " + " | ".join(cells) + " |")
    return lines


def _cpu_line(meta: dict[str, Any]) -> str:
    """The run's CPU time, which other jobs on the machine do not inflate: what it costs a
    dedicated machine (cells are independent, so W cores take about 1/W of it in wall time)."""
    cpu = meta.get("cpu_seconds")
    if not cpu:
        return ""
    scaled = int(meta.get("cpu_extrapolated_cells") or 0)
    return (f" Its cells took {_minutes(cpu)} of CPU time: about {_minutes(cpu / 2)} of wall time on a dedicated "
            "2-core machine with 2 workers."
            + (f" ({scaled} resumed cell(s) counted at the CPU time of their last run's games, scaled to the "
               "whole cell.)" if scaled else ""))


def _group(suite: str, rows: list[dict[str, Any]]) -> list[str]:
    """The tables of one suite's runs on one protocol, the heuristic's wall time, the runs."""
    lines = [*_table(suite, rows), "", *_rates(suite, rows), ""]
    full = [d for d in rows if d["result"]["agent"] == "heuristic"]
    if suite == "v1" and full:
        meta = full[0]["metadata"]
        played = [c["name"] for c in full[0]["result"]["configurations"]]
        missing = [n for n in load_suite(suite).configurations if n not in played]
        lines += [f"Wall time of the heuristic's run: {_minutes(meta['wall_seconds'])} of cell time with "
                  f"{meta['workers']} worker(s) on a {meta['cpus']}-core machine shared with other jobs"
                  + (f", for {', '.join(played)} only ({', '.join(missing)} not played in time)" if missing
                     else " (every configuration)") + "." + _cpu_line(meta), ""]
    scored = {_name(d["result"]["agent"]) for d in rows}
    missing = [name for name in load_suite("v1").ladder if name not in scored]
    why = " (a full run plays every rung, the searching ones too, for hours of CPU; their rows are the quick " \
          "suite's)" if suite == "v1" else ""
    lines += ["Runs: " + ", ".join(f"`{Path(d['path']).name}`" for d in rows)
              + (f". Reference agents without a finished run here: {', '.join(missing)}{why}." if missing else "."),
              ""]
    return lines


def page(documents: list[dict[str, Any]]) -> str:
    suites = [v for v in SUITE_ORDER if v in available()] + [v for v in available() if v not in SUITE_ORDER]
    by_suite: dict[str, list[dict[str, Any]]] = {}
    for document in documents:
        by_suite.setdefault(document["result"]["suite"], []).append(document)
    version = documents[0]["result"]["package_version"]
    lines = ["# Benchmark and leaderboard", "",
             f"Generated on {time.strftime('%Y-%m-%d', time.gmtime())} by `scripts/leaderboard.sh` (a "
             "`yokai score` run for each reference agent, then `yokai score --leaderboard docs/leaderboard.md "
             f"--runs benchmarks/leaderboard`) from the runs listed below, whose score.json files the repository "
             f"keeps (yokai-envs {version}); do not edit by hand. Every row is "
             "one run of a reference agent (named by its rung in the ladder tables below): the bots and the "
             "shipped networks. Scores are per configuration, "
             "0 = the random bot, 1 = the heuristic, each with its 95% interval; how to score your own agent "
             "is at the end.", ""]
    for suite in suites:
        current = load_suite(suite).protocol_hash
        rows = [d for d in by_suite.get(suite, []) if d["result"]["protocol_hash"] == current]
        earlier = [d for d in by_suite.get(suite, []) if d["result"]["protocol_hash"] != current]
        label = "full suite" if suite == "v1" else "quick suite (120 games a cell, cheap rungs only: noisier, and " \
                                                  "not comparable with v1 rows)"
        lines += [f"## Suite {suite}: {label}", ""]
        lines += _group(suite, rows) if rows else ["No finished run of this suite's current protocol yet.", ""]
        for protocol in dict.fromkeys(d["result"]["protocol_hash"] for d in earlier):
            group = [d for d in earlier if d["result"]["protocol_hash"] == protocol]
            ids = sorted({c["env_id"] for d in group for c in d["result"]["configurations"]})
            lines += [f"### Suite {suite}, an earlier protocol (`{protocol[:19]}...`: {', '.join(ids)})", "",
                      "Measured before the suite's env ids moved to the live versions; those games are retired, "
                      "so these rows are not comparable with the ones above and no score should be compared "
                      "with them.", ""]
            lines += _group(suite, group)
    lines += exploitability_section()
    lines += ["## How the score is defined", "", _dedent(score_module.__doc__ or ""), "",
              "## The suites", ""]
    for suite in suites:
        lines += [*_suite_section(suite), ""]
    lines += [HOW_TO_ADD, "", SCHEMA_TEXT]
    return "\n".join(lines).rstrip() + "\n"


def exploitability_section() -> list[str]:
    """The shipped networks' exploitability beside their scores, read from their model cards (the
    ``exploitability`` rows ``yokai exploit`` measured, each card naming its commands): for each
    card at the yardstick and budget :func:`headline_yardstick` picks, a best response's win rate
    against the network and against the heuristic."""
    from agents.pretrained import cards, find, generation_of
    from yokai_envs.training.common.exploit_curve import yardstick_judges, yardstick_points

    lines = [CARDS_HEADING, "",
             "From the model cards (`agents/pretrained/models/NAME.json`, `exploitability`; the commands are "
             "on each card and in [exploitability](results/exploitability.md)): a best response trained for the "
             "budget against the network, and the same budget's best response against the heuristic, both "
             "started the same way (the warm start: none, a copy of the heuristic, or a copy of the shipped "
             "network). Lower is harder to exploit; a budget whose best response does not beat the heuristic "
             "by 0.05 is too small to judge anything. A network is as good as its worst case: each row is the "
             "point, among the budgets and warm starts that judge, where the best response wins most against "
             "the network; where none judges, the largest budget of the card's own warm start (a lower bound).",
             "",
             "| model | generation | env id | warm start | budget (steps) | vs the network | vs the heuristic | "
             "fair share | judged |", "|---|---:|---|---|---:|---|---|---:|---|"]
    for card in cards():
        measured = card.data.get("exploitability") or {}
        if not measured.get("rows"):
            lines.append(f"| `{card.name}` | {generation_of(card)} | {card.env_id} | - | - | "
                         f"{measured.get('not_applicable', 'not measured')} | - | - | - |")
            continue
        generation = generation_of(card)
        names = {f"pretrained:generation={generation}"}
        if find(card.env_id, card.configuration).name == card.name:
            names.add("pretrained")  # the latest generation's rows name it plainly
        warm_start, budget = headline_yardstick(measured, names)
        at = yardstick_points(measured)[(warm_start, budget)]
        fair = float(measured.get("fair_share", 0.5))
        network = next((at[name] for name in sorted(names) if name in at), None)
        heuristic = at.get("heuristic")
        verdict = yardstick_judges(at, fair)
        lines.append(f"| `{card.name}` | {generation} | {card.env_id} | {warm_start} | {budget:,} | "
                     f"{_rate(network)} | {_rate(heuristic)} | {fair:.3f} | "
                     + {True: "yes", False: "too small", None: "no heuristic row"}[verdict] + " |")
    return [*lines, ""]


def headline_yardstick(section: dict[str, Any], names: set[str]) -> tuple[str, int]:
    """The (yardstick, budget) of a card's ``exploitability`` section that stands for the network
    named ``names`` there: its worst case, the point where the best response won most against it
    among those of a yardstick that judges (the heuristic's row of the same yardstick and budget
    beats the fair share by the margin; a longer refinement can win less, so the largest budget
    is not always the worst), else the largest budget measured against it with the section's own
    warm start (the heuristic's rows may go further; with no row of the network there, the
    section's largest budget)."""
    from yokai_envs.training.common.exploit_curve import yardstick_judges, yardstick_points

    points = yardstick_points(section)
    fair = float(section.get("fair_share", 0.5))
    own = str(section.get("warm_start", "none"))

    judged = [key for key, at in points.items() if names & at.keys() and yardstick_judges(at, fair)]
    if judged:  # a tie: the larger budget, then the section's own yardstick
        def network_rate(key: tuple[str, int]) -> float:
            return max(float(points[key][name]["win_rate"]) for name in names & points[key].keys())

        return max(judged, key=lambda key: (network_rate(key), key[1], key[0] == own, key[0]))
    for wanted in ([k for k, at in points.items() if k[0] == own and names & at.keys()],
                   [k for k in points if k[0] == own], [k for k, at in points.items() if names & at.keys()]):
        if wanted:
            return max(wanted, key=lambda key: key[1])
    return max(points, key=lambda key: (key[1], key[0]))


def _rate(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    worst = f"; worst seed {max(row['seed_range']):.3f}" if row.get("seeds", 1) > 1 else ""
    return f"{row['win_rate']:.3f} [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}]{worst}"


def _dedent(text: str) -> str:
    """A module docstring as markdown: without its summary line, rst literals as code."""
    _, _, rest = text.strip().partition("\n")
    return rest.strip().replace("``", "`").replace("::\n", ":\n")


HOW_TO_ADD = """## Score your agent

    yokai score --agent policy:runs/mine/model.safetensors --quick               # minutes: suite v1-quick
    yokai score --agent policy:runs/mine/model.safetensors --out runs/score/mine --workers 8   # suite v1
    yokai score --agent my_package.bots:MyAgent --out runs/score/mine --resume        # continue a cut run
    yokai score --agent "openspiel:ismcts;simulations=50" --configs yokaizo,duel
    yokai score --agent trained:runs/mine/model.safetensors --backend ray --ray-address auto --out runs/score/mine

Any agent spec works (`random`, `lowest`, `heuristic`, `ismcts:...`, `policy:PATH`, `trained:PATH`,
`pretrained`, `rllib:PATH`, `openspiel:random|ismcts`), or a Python class by import path
(`module.path:ClassName`, a subclass of `agents.base.Agent`, imported because you named it on the
command line; it must pickle to run with `--workers` above 1 or on Ray). `--configs` scores a subset;
`--exploitability [STEPS]` adds `yokai exploit`'s best-response win rate per two-sided configuration.
Report the suite version and protocol hash with your numbers; to list your run here, add its
score.json as `benchmarks/leaderboard/SUITE/NAME/score.json` (the runs this page is written from)."""

SCHEMA_TEXT = """## score.json

    {"schema": "yokai-score/1",
     "result": {                         # the same for every rerun of a deterministic agent
       "package_version", "suite", "protocol_hash", "games_per_cell", "agent",
       "scale": {"zero": "random", "one": "heuristic", "against": RUNG},
       "ladder": {RUNG: SPEC, ...},
       "configurations": [{
         "name", "env_id", "env_options", "levels", "seed", "kind" ("versus" | "solo" | "team"),
         "players", "fair_share" (1/players, versus only),
         "score", "score_low", "score_high"   (null when the heuristic does no better than random),
         "scale_rate": {"agent": {"rate", "ci_low", "ci_high", "games"}, "random", "heuristic"},
         "rung_mean",
         "rows": [{"rung", "spec", "level", "games", "deals", "wins", "draws", "losses",
                   "win_rate", "ci_low", "ci_high"}],
         "positions": {RUNG: {"spec", "score", "score_low", "score_high", "protocol_hash"}},
         "models": {SPEC: DIGEST},   # the networks played (the agent's, the rungs'): weights sha256:play settings
         "exploitability": {"budget", "timesteps", "games", "win_rate", "ci_low", "ci_high"}  # with --exploitability
       }]},
     "metadata": {"wall_seconds", "cpu_seconds", "cpu_extrapolated_cells", "this_run_seconds", "cells_reused",
                  "workers", "backend", "cpus", "finished_at"}}    # times and machine: left out of any comparison
                  # cpu_seconds: the cells' CPU time (workers included); null if a cell lacks it
                  # cpu_extrapolated_cells: resumed cells, their CPU time scaled from their last run's games

Rates are win credits (a k-way shared win counts 1/k; Solo and Co-op: the clear rate), intervals
95% over deals (the arena's `ci_low`/`ci_high`)."""


def refresh_card_section(page_path: str | Path) -> str:
    """Rewrite only the section of an existing page that comes from the model cards (the shipped
    networks' exploitability): a model shipped after the runs changes the cards, and replaying the
    suites' cells for it takes hours. The runs' tables are left as they were played."""
    from yokai_envs.core.files import read_regular_file
    from yokai_envs.training.common.safety import atomic_write_text

    path = Path(page_path)
    raw = read_regular_file(path, MAX_PAGE_BYTES, str(path), "a leaderboard page", ValueError)
    try:
        lines = raw.decode("utf-8").split("\n")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not a leaderboard page ({err})") from None
    if CARDS_HEADING not in lines:
        raise ValueError(f"{path}: no '{CARDS_HEADING}' section to refresh (write the page from runs first)")
    start = lines.index(CARDS_HEADING)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    atomic_write_text(path, "\n".join([*lines[:start], *exploitability_section(), *lines[end:]]))
    return str(path)


def write_leaderboard(runs: str | Path | list[str], page_path: str | Path,
                      references_path: str | Path | None) -> list[str]:
    documents = [d for folder in ([runs] if isinstance(runs, str | Path) else runs) for d in read_runs(folder)]
    order = {name: i for i, name in enumerate(load_suite("v1").ladder)}  # the reference agents are v1's rungs
    documents.sort(key=lambda d: (order.get(_name(d["result"]["agent"]), len(order)), d["result"]["agent"]))
    from yokai_envs.training.common.safety import atomic_write_text

    written = [str(page_path)]
    atomic_write_text(Path(page_path), page(documents))
    if references_path is not None:
        data = {"generated_by": "yokai score --leaderboard", "suites": references(documents)}
        atomic_write_text(Path(references_path), json.dumps(data, indent=1, sort_keys=True) + "\n")
        written.append(str(references_path))
    return written
