"""Evaluating a checkpoint against bots through the arena (seat-balanced, duplicate deals).

Competitive games: the policy sits at a table with the bot in every other seat (a gauntlet),
every seat arrangement on every deal. Games without opponents (Onmyoji Solo, Co-op): the
policy plays alone (or with itself in every seat) and each bot is measured the same way, so
their clear rates can be compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from yokai_envs.core.game import win_credits
from yokai_envs.registry import make_game


def policy_spec(path: str, deterministic: bool = True) -> str:
    return f"policy:{path}" + ("" if deterministic else ";deterministic=false")


def needs_opponents(env_id: str, options: dict[str, Any]) -> bool:
    game = make_game(env_id, **options)
    return game.num_players > 1 and not game.cooperative


def evaluate_checkpoint(path: str, env_id: str, options: dict[str, Any], bots: list[str], games: int,
                        seed: int, seats: str | list[int] = "all", deterministic: bool = True,
                        workers: int = 1, references: dict[str, dict[str, Any]] | None = None,
                        ) -> dict[str, dict[str, Any]]:
    """bot spec -> {win_rate, ci_low, ci_high, games, mean_reward, win_rate_by_seat, ...}.

    In games without opponents the key ``"self"`` holds the policy's own clear rate and each
    bot's entry holds that bot's clear rate (``kind: "reference"``); rows already in
    ``references`` (same games, same seed) are reused instead of played again.
    """
    return evaluate_spec(policy_spec(path, deterministic), env_id, options, bots, games, seed, seats, workers,
                         references)


def evaluate_spec(spec: str, env_id: str, options: dict[str, Any], bots: list[str], games: int, seed: int,
                  seats: str | list[int] = "all", workers: int = 1,
                  references: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """The arena table of the agent named by ``spec`` (any backend's policy), as described in
    :func:`evaluate_checkpoint`."""
    from agents.arena import run_match

    results: dict[str, dict[str, Any]] = {}
    if needs_opponents(env_id, options):
        for bot in bots:
            match = run_match(env_id, [bot], games=games, seed=seed, env_options=options, gauntlet=spec,
                              workers=workers)
            assert match.gauntlet is not None  # the match was run as a gauntlet of spec
            results[bot] = _row(match, match.gauntlet, seats, kind="versus")
        return results
    for label, agent in [("self", spec), *[(bot, bot) for bot in bots]]:
        if label != "self" and references and label in references:
            results[label] = references[label]
            continue
        match = run_match(env_id, [agent], games=games, seed=seed, env_options=options, workers=workers)
        results[label] = _row(match, match.agents[0], seats, kind="self" if label == "self" else "reference")
    return results


def _row(match: Any, label: str, seats: str | list[int], kind: str) -> dict[str, Any]:
    """The arena row of ``label``, restricted to the configured seats when they are a list."""
    from agents.arena import wilson_interval

    n = match.num_players
    credit = [0.0] * n
    played = [0] * n
    for rec in match.records:
        for seat, who in enumerate(rec["seats"]):
            if who == label:
                # Alone or as one team, a clear is a positive return (whatever the game calls
                # its teams); against bots, the arena's credit (1/k for a k-way shared win).
                credit[seat] += (rec["credits"][seat] if kind == "versus"
                                 else float(win_credits(rec["returns"], cooperative=True)[seat]))
                played[seat] += 1
    if kind != "versus":  # one team fills every seat: count each game once (seat 0)
        chosen: Any = [0]
    else:
        chosen = range(n) if seats == "all" else [s for s in seats if s < n]
    total_games = sum(played[s] for s in chosen)
    wins = sum(credit[s] for s in chosen)
    low, high = wilson_interval(wins, total_games)
    row = match.row(label, 0)
    return {
        "kind": kind,
        "opponents": row["opponents"],
        "games": total_games,
        "win_rate": wins / total_games if total_games else 0.0,
        "ci_low": low,
        "ci_high": high,
        "mean_reward": row["mean_reward"],
        "win_rate_by_seat": [credit[s] / played[s] if played[s] else None for s in range(n)],
        "truncated": row["truncated"],
    }


def evaluate_vector(path: str, env_id: str, options: dict[str, Any], bots: list[str], games: int, seed: int,
                    deterministic: bool = True, num_envs: int = 256) -> dict[str, dict[str, Any]]:
    """The network against each batched bot on the vectorized engine (``evaluation.engine:
    vector``): the same row as :func:`evaluate_checkpoint` (``engine: "vector"``), from fresh
    deals rather than the arena's duplicate ones, the network's seat rotating game by game.

    Each of the batch's games counts only its first few finished games (a fixed quota per slot),
    so short games are not over-counted the way "the first ``games`` to finish" would."""
    from agents.arena import wilson_interval
    from agents.policy import PolicyAgent
    from yokai_envs.training.vec_env import VectorCore

    agent = PolicyAgent(path, env_id, options)  # checks the checkpoint fits this game
    rng = np.random.default_rng(seed)  # sampled play draws from here, not from torch: reproducible

    def act(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        probs = agent.batch_probabilities(observations, masks)
        if deterministic:
            return probs.argmax(axis=1)
        cumulative = probs.cumsum(axis=1)
        draws = (1.0 - rng.random(len(probs))) * cumulative[:, -1]  # in (0, total]: never a masked action
        return np.minimum((cumulative < draws[:, None]).sum(axis=1), probs.shape[1] - 1)

    slots = min(num_envs, games)
    quota = np.full(slots, games // slots) + (np.arange(slots) < games % slots)
    results: dict[str, dict[str, Any]] = {}
    for bot in bots:
        core = VectorCore(env_id, slots, opponents=[bot], seed=seed, **options)
        n = core.num_players
        observations = core.reset(seed)
        counted = np.zeros(slots, dtype=np.int64)
        credit, played, returns, truncated = np.zeros(n), np.zeros(n, dtype=np.int64), 0.0, 0
        while (counted < quota).any():
            actions = act(observations, core.action_masks())
            observations, _, _, trunc, ended = core.step(actions)
            for env, _, info in ended:
                if counted[env] >= quota[env]:
                    continue
                counted[env] += 1
                seat = info["learner_seat"]
                credit[seat] += info["win"]
                played[seat] += 1
                returns += info["returns"][seat]
                truncated += bool(trunc[env])
        wins = float(credit.sum())
        low, high = wilson_interval(wins, games)
        results[bot] = {
            "kind": "versus", "engine": "vector", "opponents": " + ".join([bot] * (n - 1)), "games": games,
            "win_rate": wins / games, "ci_low": low, "ci_high": high, "mean_reward": returns / games,
            "win_rate_by_seat": [float(credit[s] / played[s]) if played[s] else None for s in range(n)],
            "truncated": truncated,
        }
    return results
