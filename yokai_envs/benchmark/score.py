"""From played cells to the result: per configuration the score, its interval, the rung table.

The score of configuration c (0 = the random bot, 1 = the heuristic)::

    score_c = (w_c(agent) - w_c(random)) / (w_c(heuristic) - w_c(random))

where ``w_c(x)`` is x's rate against the suite's scale rung (the heuristic) on c's fixed deals:
its win rate in a seat against the heuristic in every other seat (2-4 players, seats rotated),
its clear rate alone (Solo) or with the heuristic as its partner (Co-op), pooled over the
configuration's levels. ``w_c(random)`` and ``w_c(heuristic)`` are played in every run on the
same deals (the anchor cells: cheap, and always those of the installed package). Its 95% interval
is the agent's rate's interval (over deals) mapped through the same line, the anchors held fixed:
they are the protocol's own numbers, the same in every run. Above 1 beats the heuristic by more
than the heuristic beats random; below 0 is worse than random.

Beside it, the *rung mean*: the agent's mean rate over every rung of the ladder (each rung's
cell, averaged over levels), to read breadth; and the positions of the ladder's ISMCTS and
shipped-network rungs on the same scale (their own scores, from the leaderboard's reference runs).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .run import AGENT, ConfigurationRun, model_digests
from .suite import SELF, SUITES_FOLDER, Configuration, Suite

SCHEMA = "yokai-score/1"
REFERENCES_FILE = "references.json"
# The rungs whose positions on the scale are printed beside a score.
POSITION_RUNGS = ("ismcts-8", "ismcts-32", "pretrained", "pretrained+search")


def _pooled(cells: list[Any]) -> dict[str, float]:
    from agents.arena.stats import deal_interval

    scores = [s for cell in cells for s in cell.deal_scores]
    interval = deal_interval(scores, sum(cell.row["games"] for cell in cells))
    wins = sum(cell.row["win_rate"] * cell.row["games"] for cell in cells)
    games = sum(cell.row["games"] for cell in cells)
    return {"rate": wins / games, "ci_low": interval["low"], "ci_high": interval["high"], "games": games}


def scale_rate(run: ConfigurationRun, suite: Suite, who: str, agent_text: str) -> dict[str, float]:
    """``who``'s rate against (or with) the scale rung, pooled over levels."""
    key = AGENT if who in (AGENT, agent_text) else who
    rung = None if run.kind == "solo" else suite.scale
    levels: list[int | None] = list(run.configuration.levels) or [None]
    return _pooled([run.cells[(key, rung, level)] for level in levels])


def references(version: str) -> dict[str, Any]:
    """The leaderboard's reference scores of ``version`` (configuration -> agent -> entry), or {}."""
    path = resources.files("yokai_envs.benchmark") / SUITES_FOLDER / REFERENCES_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return dict(data.get("suites", {}).get(version, {}))


def played_models(suite: Suite, configuration: Configuration, agent_text: str) -> dict[str, str]:
    """spec -> the digest of the network file it plays on ``configuration`` (the agent's and every
    rung's, those that play one), as installed now: what a run records of the networks it played,
    so that a row measured before a shipped model was replaced can be told from a current one."""
    level = configuration.levels[0] if configuration.levels else None
    specs = [agent_text, *suite.ladder.values()]
    return model_digests(specs, configuration.env_id, configuration.level_options(level))


def configuration_result(run: ConfigurationRun, suite: Suite, agent_text: str,
                         known: dict[str, Any]) -> dict[str, Any]:
    configuration = run.configuration
    agent = scale_rate(run, suite, AGENT, agent_text)
    low_anchor = scale_rate(run, suite, "random", agent_text)["rate"]
    high_anchor = scale_rate(run, suite, "heuristic", agent_text)["rate"]
    span = high_anchor - low_anchor
    score = low = high = None
    if span > 0:
        score, low, high = ((agent[k] - low_anchor) / span for k in ("rate", "ci_low", "ci_high"))
    rows = []
    for (who, rung, level), cell in run.cells.items():
        if who != AGENT:
            continue
        rows.append({"rung": rung or "alone", "spec": suite.ladder.get(rung or "", "agent" if rung == SELF else None),
                     "level": level, **cell.row})
    rung_rates: dict[str, list[float]] = {}
    for row in rows:
        if row["rung"] != SELF:
            rung_rates.setdefault(row["rung"], []).append(row["win_rate"])
    rung_mean = sum(sum(v) / len(v) for v in rung_rates.values()) / len(rung_rates)
    return {
        "name": configuration.name, "env_id": configuration.env_id, "env_options": configuration.options,
        "levels": list(configuration.levels), "seed": configuration.seed, "kind": run.kind,
        "players": run.num_players, "fair_share": 1.0 / run.num_players if run.kind == "versus" else None,
        "score": score, "score_low": low, "score_high": high,
        "scale_rate": {"agent": agent, "random": low_anchor, "heuristic": high_anchor},
        "rung_mean": rung_mean, "rows": rows, "models": played_models(suite, configuration, agent_text),
        # only scores measured on this very protocol (a test's shrunk copy of a suite has another hash)
        "positions": {name: known[name] for name in POSITION_RUNGS
                      if name in known and known[name].get("protocol_hash") == suite.protocol_hash},
    }


def result(suite: Suite, agent_text: str, runs: list[ConfigurationRun]) -> dict[str, Any]:
    """The ``result`` block of score.json: everything that depends only on the suite, the agent
    and the package (no times: rerunning a deterministic agent gives the same block)."""
    from agents.arena.report import package_version

    known = references(suite.version)
    return {
        "package_version": package_version(), "suite": suite.version, "protocol_hash": suite.protocol_hash,
        "games_per_cell": suite.games, "agent": agent_text,
        "scale": {"zero": "random", "one": "heuristic", "against": suite.scale},
        "ladder": suite.ladder,
        "configurations": [configuration_result(run, suite, agent_text, known.get(run.configuration.name, {}))
                           for run in runs],
    }
