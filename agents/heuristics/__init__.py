"""One heuristic bot per game: env id -> module defining ``HeuristicAgent``.

Each heuristic plays what a sensible casual player would; games whose heuristic is not
written yet raise a clear error when asked for one. A module may also define
``evaluate(game) -> np.ndarray``: per-seat values in [-1, 1] of a (sampled, full-information)
world, which ISMCTS uses with ``leaf=heuristic`` to score rollouts it cuts short.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from agents.base import Agent

# env id -> module with a HeuristicAgent(agents.base.Agent) class.
HEURISTIC_MODULES: dict[str, str] = {
    "yonkai_no_yokai_v0": "agents.heuristics.yonkai_no_yokai",
    "yokaizo_v0": "agents.heuristics.yokaizo",
    "onmyoji_v0": "agents.heuristics.onmyoji",
    "yyh_tcg_v0": "agents.heuristics.yyh_tcg",
}


class NoHeuristicError(ValueError):
    """The game has no heuristic bot (yet)."""


def has_heuristic(env_id: str) -> bool:
    module = HEURISTIC_MODULES.get(env_id)
    return module is not None and importlib.util.find_spec(module) is not None


def heuristic_class(env_id: str) -> type[Agent]:
    """The ``HeuristicAgent`` class of ``env_id``; NoHeuristicError when there is none."""
    if not has_heuristic(env_id):
        have = ", ".join(e for e in HEURISTIC_MODULES if has_heuristic(e)) or "none"
        raise NoHeuristicError(f"no heuristic bot for {env_id!r} yet; games with one: {have}")
    module = importlib.import_module(HEURISTIC_MODULES[env_id])
    return module.HeuristicAgent


def heuristic_evaluator(env_id: str) -> Callable[[Any], Any]:
    """The ``evaluate(game)`` of ``env_id``'s heuristic module; NoHeuristicError when absent."""
    heuristic_class(env_id)
    module = importlib.import_module(HEURISTIC_MODULES[env_id])
    evaluate = getattr(module, "evaluate", None)
    if evaluate is None:
        have = ", ".join(e for e in HEURISTIC_MODULES
                         if has_heuristic(e) and hasattr(importlib.import_module(HEURISTIC_MODULES[e]), "evaluate"))
        raise NoHeuristicError(f"the {env_id!r} heuristic has no evaluate(game) for leaf=heuristic; "
                               f"games with one: {have or 'none'}")
    return evaluate
