"""One heuristic bot per game: env id -> module defining ``HeuristicAgent``.

Each heuristic plays what a sensible casual player would; games whose heuristic is not
written yet raise a clear error when asked for one. A module may also define
``evaluate(game) -> np.ndarray``: per-seat values in [-1, 1] of a (sampled, full-information)
world, which ISMCTS uses with ``leaf=heuristic`` to score rollouts it cuts short; and
``world_sampler(game, seat)``: a function drawing worlds as if the other seats played the
heuristic (ISMCTS ``beliefs=heuristic``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from agents.base import Agent
from yokai_envs import onmyoji, yokaizo, yonkai_no_yokai, yyh_tcg

# env id (each game package's ENV_ID, the one place it is written) -> module with a
# HeuristicAgent(agents.base.Agent) class.
HEURISTIC_MODULES: dict[str, str] = {
    yonkai_no_yokai.ENV_ID: "agents.heuristics.yonkai_no_yokai",
    yokaizo.ENV_ID: "agents.heuristics.yokaizo",
    onmyoji.ENV_ID: "agents.heuristics.onmyoji",
    yyh_tcg.ENV_ID: "agents.heuristics.yyh_tcg",
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
    return _module_function(env_id, "evaluate", "evaluate(game) for leaf=heuristic")


def heuristic_world_sampler(env_id: str) -> Callable[[Any, int], Any]:
    """The ``world_sampler(game, seat)`` of ``env_id``'s heuristic module (worlds drawn as if
    the other seats play the heuristic); NoHeuristicError when absent."""
    return _module_function(env_id, "world_sampler", "world_sampler(game, seat) for beliefs=heuristic")


def _module_function(env_id: str, name: str, purpose: str) -> Callable[..., Any]:
    heuristic_class(env_id)
    function = getattr(importlib.import_module(HEURISTIC_MODULES[env_id]), name, None)
    if function is None:
        have = ", ".join(e for e in HEURISTIC_MODULES
                         if has_heuristic(e) and hasattr(importlib.import_module(HEURISTIC_MODULES[e]), name))
        raise NoHeuristicError(f"the {env_id!r} heuristic has no {purpose}; games with one: {have or 'none'}")
    return function
