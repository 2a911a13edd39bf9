"""Playing a suite: every cell of every configuration through the arena, resumable, then the score.

A *cell* is one arena match on a configuration's fixed deals (its seed): the agent against one
rung (seats rotated over duplicate deals: ``[agent, rung, rung, ...]``, every arrangement on every
deal), the agent alone at one level (Solo), or the agent with one rung as its partner, or with
itself, at one level (Co-op). The two *anchor* cells per configuration are the same match with
the random bot and with the heuristic in the agent's place, against (or with) the scale rung; an
agent whose spec is ``random`` or ``heuristic`` shares them.

Each cell is an arena journal folder in a *cell store* (``OUT/cells`` unless another is named:
``cells/<configuration>/<who>__<rung>[__level<N>]``, who the agent's or the anchor's spec made a
folder name): match.json, games.jsonl appended as games finish, then a ``results.json`` holding
its row and what the cell is (suite, protocol hash, package version, configuration, agent, rung,
level, games, seed, and for each network in it the card's weights digest and play settings). A
finished cell whose record matches is reused, so a cut run continues
where it stopped and runs sharing a store (``--cells``) share their anchors; an unfinished one
is continued by the arena with ``resume=True`` (which checks every kept game).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import Agent

from .candidate import Candidate
from .suite import SELF, Configuration, Suite

AGENT = "agent"  # the label of the seat(s) being scored, in every cell
ANCHORS = ("random", "heuristic")
CELLS = "cells"
CELL_DONE = "results.json"
CELL_FORMAT = 1


@dataclass(frozen=True)
class Cell:
    configuration: Configuration
    who: str  # "agent", or an anchor's spec
    rung: str | None  # None: alone (Solo); SELF: with itself (Co-op)
    level: int | None

    def folder_name(self, agent_text: str) -> str:
        who = agent_text if self.who == AGENT else self.who
        parts = [spec_folder(who), self.rung or "alone"]
        return "__".join(parts) + ("" if self.level is None else f"__level{self.level}")


def spec_folder(spec: str) -> str:
    """A folder name for an agent spec: its readable part and a digest of the whole (two specs
    never share one)."""
    import hashlib

    readable = "".join(c if c.isalnum() or c in "-+." else "_" for c in spec)[:40].strip("_.") or "agent"
    return f"{readable}-{hashlib.sha256(spec.encode('utf-8')).hexdigest()[:8]}"


@dataclass
class CellResult:
    cell: Cell
    row: dict[str, Any]  # games, deals, win_rate, ci_low, ci_high, wins, draws, losses
    deal_scores: list[float]  # the seat's mean credit per deal (pooled over levels for the score)
    seconds: float
    reused: bool = False
    cpu_seconds: float | None = None  # None: played before it was recorded, or on Ray (elsewhere)
    cpu_games: int | None = None  # the games cpu_seconds was measured on, when fewer (a resumed cell)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the arena's worker processes, which
    a match reaps before it returns). Unlike wall time, it does not grow when other jobs share the
    cores, so a suite's cost on a dedicated machine can be read from it."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass
class ConfigurationRun:
    configuration: Configuration
    kind: str  # "versus", "solo" or "team"
    num_players: int
    cells: dict[tuple[str, str | None, int | None], CellResult] = field(default_factory=dict)


def kind_of(configuration: Configuration) -> tuple[str, int]:
    from yokai_envs.registry import make_game

    level = configuration.levels[0] if configuration.levels else None
    game = make_game(configuration.env_id, **configuration.level_options(level))
    if game.num_players == 1:
        return "solo", 1
    return ("team" if game.cooperative else "versus"), game.num_players


def plan_cells(suite: Suite, configuration: Configuration, kind: str, who: str) -> list[Cell]:
    """Every cell of ``configuration`` for the agent ``who`` (its spec text), then the anchors'
    (an anchor cell equal to one of the agent's is listed once)."""
    levels: list[int | None] = list(configuration.levels) or [None]
    cells: list[Cell] = []
    if kind == "solo":
        cells += [Cell(configuration, AGENT, None, level) for level in levels]
    else:
        rungs = [*suite.ladder, SELF] if kind == "team" else list(suite.ladder)
        cells += [Cell(configuration, AGENT, rung, level) for level in levels for rung in rungs]
    rung = None if kind == "solo" else suite.scale
    for anchor in ANCHORS:
        if anchor != who:
            cells += [Cell(configuration, anchor, rung, level) for level in levels]
    return cells


def cell_agents(suite: Suite, cell: Cell, candidate: str | Agent) -> list[tuple[str, str | Agent]]:
    me = candidate if cell.who == AGENT else cell.who
    if cell.rung is None or cell.rung == SELF:
        return [(AGENT, me)]  # the arena fills every seat with the one agent
    return [(AGENT, me), (cell.rung, suite.ladder[cell.rung])]


def model_digests(specs: list[str], env_id: str, options: dict[str, Any]) -> dict[str, str]:
    """spec -> what the model file it plays holds (``pretrained...``, ``policy:``, ``trained:``, an
    ISMCTS ``policy=``): its weights digest and how its card plays them. A finished cell is reused
    only while its agents are the same networks played the same way, so a shipped model replaced
    under the same spec, or a card switched from argmax to sampling, is played again, never read
    from an old cell."""
    from agents.spec_files import recorded_model, spec_paths

    digests: dict[str, str] = {}
    for spec in specs:
        recorded = [digest for path in spec_paths(spec, env_id, options) if (digest := recorded_model(path))]
        if recorded:  # a spec names one file today; joined, a key would still see each of several
            digests[spec] = ",".join(recorded)
    return digests


def _cell_row(result: Any) -> tuple[dict[str, Any], list[float]]:
    from agents.arena import stats

    row = result.row(AGENT)
    scores, _ = stats.deal_scores(result.records, 0, AGENT)
    kept = ("deals", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high")
    # Games, not game-seats: with itself (Co-op) the agent holds every seat of a game.
    return {"games": len(result.records), **{key: row[key] for key in kept}}, [float(v) for v in scores.values()]


def play_cell(suite: Suite, cell: Cell, candidate: str | Agent, candidate_text: str, store: Path | None,
              resume: bool, workers: int, backend: str, ray_address: str | None,
              log: Callable[[str], None]) -> CellResult:
    from agents.arena import run_match
    from agents.arena.journal import GAMES_FILE

    options = cell.configuration.level_options(cell.level)
    agents = cell_agents(suite, cell, candidate)
    from agents.arena.report import package_version

    expected = {"format": CELL_FORMAT, "suite": suite.version, "protocol_hash": suite.protocol_hash,
                "package_version": package_version(),
                "configuration": cell.configuration.name, "env_id": cell.configuration.env_id, "env_options": options,
                "agent": candidate_text if cell.who == AGENT else cell.who, "rung": cell.rung, "level": cell.level,
                "games": suite.games, "seed": cell.configuration.seed}
    specs = [spec for _, spec in agents if isinstance(spec, str)]
    expected["models"] = model_digests(specs, cell.configuration.env_id, options)
    folder = store / cell.configuration.name / cell.folder_name(candidate_text) if store is not None else None
    stale = False
    if folder is not None and (folder / CELL_DONE).is_file():
        done = json.loads((folder / CELL_DONE).read_text(encoding="utf-8"))
        found = dict(done.get("cell") or {})
        if {**found, "models": None} != {**expected, "models": None}:
            raise ValueError(f"{folder} holds another cell ({done.get('cell')}), not {expected}: use another --out")
        if found.get("models", {}) == expected["models"]:
            return CellResult(cell, done["row"], done["deal_scores"], float(done["seconds"]), reused=True,
                              cpu_seconds=done.get("cpu_seconds"), cpu_games=done.get("cpu_games"))
        stale = True  # the same specs now name other networks (a shipped model replaced): play it again
        log(f"{folder.name}: its networks changed since it was played; playing it again")
    started, cpu_started = time.perf_counter(), cpu_seconds()
    again = folder is not None and (folder / GAMES_FILE).is_file() and not stale
    if stale and folder is not None:
        import shutil

        shutil.rmtree(folder)  # this cell's own folder: its games were played by other networks
    result = run_match(cell.configuration.env_id, agents, games=suite.games, seed=cell.configuration.seed,
                       env_options=options, workers=workers, backend=backend, ray_address=ray_address,
                       journal_dir=str(folder) if folder is not None else None, resume=resume and again,
                       log=log)
    row, deal_scores = _cell_row(result)
    seconds = time.perf_counter() - started
    cpu = None if backend == "ray" else cpu_seconds() - cpu_started
    played_here = len(result.records) - result.resumed_games
    # a resumed cell's earlier games were played by a process that is gone: its CPU time is that of
    # the games played here, scaled to the whole cell (and the cell says so)
    cpu_games = played_here if result.resumed_games and cpu is not None and played_here > 0 else None
    if cpu_games is not None and cpu is not None:
        cpu *= len(result.records) / cpu_games
    if folder is not None:
        from yokai_envs.training.common.safety import atomic_write_text

        atomic_write_text(folder / CELL_DONE, json.dumps({"cell": expected, "row": row, "deal_scores": deal_scores,
                                                          "seconds": seconds, "cpu_seconds": cpu,
                                                          "cpu_games": cpu_games}, indent=1) + "\n")
    return CellResult(cell, row, deal_scores, seconds, cpu_seconds=cpu, cpu_games=cpu_games)


def check_candidate(suite: Suite, configurations: list[Configuration], candidate: Candidate) -> dict[str, str | Agent]:
    """Build the agent (and every rung) for each configuration before any game, so a bad spec or
    a configuration the agent cannot play fails at once; configuration name -> what the arena plays."""
    from agents.pretrained import find
    from agents.specs import parse_spec

    built: dict[str, str | Agent] = {}
    for configuration in configurations:
        options = configuration.level_options(configuration.levels[0] if configuration.levels else None)
        try:
            built[configuration.name] = candidate.build(configuration.env_id, options)
        except (ValueError, FileNotFoundError, ImportError, TypeError) as err:
            raise ValueError(f"agent {candidate.text!r} cannot play {configuration.name} ({configuration.env_id} "
                             f"{options}): {err}") from None
        for rung, spec in suite.ladder.items():  # bot specs, checked with the suite; a shipped model may be missing
            if parse_spec(spec).kind == "pretrained":
                try:
                    find(configuration.env_id, options)
                except ValueError as err:
                    raise ValueError(f"rung {rung} ({spec}) cannot play {configuration.name}: {err}") from None
    return built


def run_suite(suite: Suite, candidate: Candidate, configurations: list[Configuration], store: Path | None = None,
              resume: bool = False, workers: int = 1, backend: str = "local", ray_address: str | None = None,
              log: Callable[[str], None] | None = None) -> list[ConfigurationRun]:
    """Play every cell of ``configurations`` for ``candidate`` (cells already finished in the cell
    ``store`` reused; unfinished ones continued with ``resume``); the runs in the suite's order."""
    say = log or (lambda message: None)
    built = check_candidate(suite, configurations, candidate)
    runs = []
    plans = []
    for configuration in configurations:
        kind, players = kind_of(configuration)
        runs.append(ConfigurationRun(configuration, kind, players))
        plans.append(plan_cells(suite, configuration, kind, candidate.text))
    total = sum(len(cells) for cells in plans)
    number = 0
    for run, cells in zip(runs, plans):
        for cell in cells:
            number += 1
            done = play_cell(suite, cell, built[run.configuration.name], candidate.text, store, resume, workers,
                             backend, ray_address, say)
            run.cells[(cell.who, cell.rung, cell.level)] = done
            row = done.row
            level = "" if cell.level is None else f" level {cell.level}"
            with_ = {None: "alone", SELF: "with itself"}.get(cell.rung, f"vs {cell.rung}" if run.kind == "versus"
                                                                  else f"with {cell.rung}")
            say(f"[{number}/{total}] {run.configuration.name}{level}: {cell.who} {with_}: {row['win_rate']:.3f} "
                f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}] over {row['games']} games"
                + (" (reused)" if done.reused else f" ({done.seconds:.0f} s)"))
    return runs
