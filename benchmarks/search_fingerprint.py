"""Fingerprint of what the search bots decide, to prove a speed change leaves every decision as it was.

For every registered env (and each configuration the conformance suite runs), plays seeded games
on the raw Game: the game's heuristic in every seat, then ISMCTS (low budgets, each option the
rollouts, leaves, opponent models, flat search and belief sampling take) against the heuristic
with the ISMCTS seat rotated, and hashes every action taken and the final returns. With fixed
seeds the hashes change only when some decision does (or the rules do, which bumps an env id).
Prints one sha256 per configuration and agent line-up; ``--json`` writes them, ``--compare``
checks them against a file written by ``--json``.

    python benchmarks/search_fingerprint.py --games 4 --json base.json
    python benchmarks/search_fingerprint.py --games 4 --compare base.json
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from typing import Any

from fingerprint_driver import fingerprint_main

from agents.base import act_in_game
from agents.heuristics import has_heuristic
from agents.specs import make as make_agent
from yokai_envs.registry import ENV_IDS, game_class, make_game

#: Search specs, each at a budget small enough for many games; every option the rollout loop,
#: the tree, the leaves and the base-policy comparison take is exercised by one of them.
SEARCH_SPECS = (
    "ismcts:iterations=12",
    "ismcts:iterations=12;rollout=heuristic",
    "ismcts:iterations=12;rollout=heuristic;max_rollout_steps=8;leaf=heuristic",
    "ismcts:iterations=12;rollout=heuristic;opponents=rollout;confidence=1",
    "ismcts:iterations=12;max_rollout_steps=8;search=flat",
    "ismcts:iterations=12;rollout=heuristic;max_rollout_steps=8;leaf=heuristic;search=flat;confidence=0.5",
)
#: Only games whose heuristic module offers ``world_sampler``.
BELIEF_SPECS = ("ismcts:iterations=12;rollout=heuristic;opponents=rollout;search=flat;beliefs=heuristic",)
HEURISTIC_GAMES_FACTOR = 10  # heuristic-only games are cheap: this many per search game


def play(env_id: str, options: dict[str, Any], specs: list[str], seed: int) -> tuple[list[int], list[float]]:
    """One seeded game on the raw engine, seat ``i`` played by ``specs[i]``: its actions and returns."""
    game = make_game(env_id, **options)
    agents = [make_agent(spec, env_id, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    game.reset(seed)
    for i, agent in enumerate(agents):
        agent.reset(seed * 10 + i)
    actions = []
    while not game.is_over:
        action = act_in_game(agents[game.current_player], game)
        actions.append(action)
        game.step(action)
    return actions, [float(x) for x in game.returns()]


def fingerprint(env_id: str, options: dict[str, Any], lineup: str, games: int) -> str:
    digest = hashlib.sha256()
    players = make_game(env_id, **options).num_players
    for episode in range(games):
        if lineup == "heuristic":
            specs = ["heuristic"] * players
        else:
            specs = ["heuristic"] * players
            specs[episode % players] = lineup  # the search seat rotates
        actions, returns = play(env_id, options, specs, episode)
        digest.update(repr((episode, specs, actions, returns)).encode())
    return digest.hexdigest()


def _has_world_sampler(env_id: str) -> bool:
    from agents.heuristics import heuristic_world_sampler

    try:
        heuristic_world_sampler(env_id)
    except ValueError:
        return False
    return True


def configurations(only: list[str] | None, games: int) -> list[tuple[str, str, dict[str, Any], str, int]]:
    out = []
    for env_id in ENV_IDS:
        if (only and env_id not in only) or not has_heuristic(env_id):
            continue
        specs = [*SEARCH_SPECS, *(BELIEF_SPECS if _has_world_sampler(env_id) else ())]
        for options in game_class(env_id).CONFORMANCE_CONFIGS:
            label = env_id + "".join(f" {k}={v}" for k, v in options.items())
            out.append((f"{label} | heuristic", env_id, options, "heuristic", games * HEURISTIC_GAMES_FACTOR))
            for spec in specs:
                out.append((f"{label} | {spec}", env_id, options, spec, games))
    return out


def _fingerprints(only: list[str] | None, games: int) -> Iterator[tuple[str, str]]:
    for label, env_id, options, lineup, lineup_games in configurations(only, games):
        yield label, fingerprint(env_id, options, lineup, lineup_games)


def main() -> int:
    return fingerprint_main(__doc__, 4, "seeded search games per line-up (default 4)", _fingerprints)


if __name__ == "__main__":
    sys.exit(main())
