"""The benchmark: score any agent on every game configuration against a fixed reference ladder.

``yokai score`` is the command; :func:`score_agent` the Python API. A versioned suite
(``suites/v1.yaml``, ``suites/v1-quick.yaml``; :mod:`.suite`) fixes the configurations, the
ladder, the deal seeds and the games per cell; :mod:`.run` plays the cells through the arena
(duplicate deals, seats rotated, resumable, parallel); :mod:`.score` turns them into one score
per configuration (0 = random, 1 = heuristic; the definition is in its docstring); :mod:`.report`
writes score.json/.md/.tex and :mod:`.leaderboard` docs/leaderboard.md.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .candidate import Candidate, resolve
from .suite import DEFAULT_SUITE, QUICK_SUITE, Suite, SuiteError, load_suite

__all__ = ["DEFAULT_SUITE", "QUICK_SUITE", "Candidate", "Suite", "SuiteError", "load_suite", "resolve",
           "score_agent"]


def _cpu_total(cells: list[Any]) -> float | None:
    """The cells' CPU seconds, or None when a cell has none recorded (an older cell, or Ray's)."""
    times = [cell.cpu_seconds for cell in cells]
    return None if any(t is None for t in times) else float(sum(times))


def score_agent(agent: str, suite: str | Suite = DEFAULT_SUITE, configurations: list[str] | None = None,
                out: str | Path | None = None, resume: bool = False, workers: int = 1, backend: str = "local",
                ray_address: str | None = None, exploitability_budget: int | None = None,
                cells: str | Path | None = None, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Score ``agent`` (a spec or ``module:Class``) on ``suite``: the document score.json holds,
    ``{"schema", "result", "metadata"}`` (``result`` has no times: the same for a rerun of a
    deterministic agent). Writes it with score.md and score.tex into ``out`` when given. The
    cells are kept in ``cells`` (default ``out/cells``; none without either), where finished
    cells of an earlier run, of this agent or another (the anchors), are reused."""
    from . import report, score
    from .exploit import exploitability
    from .run import run_suite

    started = time.perf_counter()
    chosen = suite if isinstance(suite, Suite) else load_suite(suite)
    candidate = resolve(agent)
    picked = chosen.select(configurations)
    if exploitability_budget is not None and candidate.agent_class is not None:
        raise ValueError(f"--exploitability trains against an agent spec; {candidate.text} is a Python class")
    folder = Path(out) if out is not None else None
    from .run import CELLS

    store = Path(cells) if cells is not None else (folder / CELLS if folder is not None else None)
    runs = run_suite(chosen, candidate, picked, store, resume, workers, backend, ray_address, log)
    result = score.result(chosen, candidate.text, runs)
    if exploitability_budget is not None:
        for run, entry in zip(runs, result["configurations"]):
            where = (folder or Path("runs") / "score") / "exploit" / run.configuration.name
            entry["exploitability"] = exploitability(candidate.text, run.configuration, run.kind,
                                                     exploitability_budget, where, resume)
    played = [cell for run in runs for cell in run.cells.values()]
    document = {
        "schema": score.SCHEMA, "result": result,
        "metadata": {"wall_seconds": sum(cell.seconds for cell in played),
                     "cpu_seconds": _cpu_total(played),
                     # resumed cells whose CPU time is scaled up from the games of their last run
                     "cpu_extrapolated_cells": sum(cell.cpu_games is not None for cell in played),
                     "this_run_seconds": time.perf_counter() - started,
                     "cells_reused": sum(cell.reused for cell in played),
                     "workers": workers, "backend": backend, "cpus": os.cpu_count(),
                     "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
    }
    if folder is not None:
        report.write(document, folder)
    return document
