"""Win rates with Wilson intervals, Elo by Bradley-Terry maximum likelihood with bootstrap
intervals (2 players), and openskill Plackett-Luce ratings (3-4 players)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np

from .schedule import Table

Z95 = 1.959963984540054
ELO_PER_LOGIT = 400.0 / math.log(10.0)
ELO_CENTER = 1500.0


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def table_rows(tables: list[Table], records: list[dict[str, Any]], num_players: int) -> list[dict[str, Any]]:
    """One row per (table, agent): its games (per seat it held), wins, draws, win rate, CI,
    mean reward overall and by seat. A k-way shared win counts 1/k in the win rate."""
    acc: dict[tuple[int, str], dict[str, Any]] = {}
    for table in tables:
        for label in dict.fromkeys(table.agents):
            acc[(table.index, label)] = {"games": 0, "wins": 0, "draws": 0, "losses": 0, "credit": 0.0,
                                         "reward": 0.0, "seat_reward": np.zeros(num_players),
                                         "seat_games": np.zeros(num_players, dtype=int), "truncated": 0}
    for rec in records:
        for seat, label in enumerate(rec["seats"]):
            a = acc[(rec["table"], label)]
            credit = rec["credits"][seat]
            a["games"] += 1
            a["credit"] += credit
            a["wins" if credit == 1.0 else "losses" if credit == 0.0 else "draws"] += 1
            a["reward"] += rec["returns"][seat]
            a["seat_reward"][seat] += rec["returns"][seat]
            a["seat_games"][seat] += 1
            a["truncated"] += int(rec["truncated"])
    rows = []
    for table in tables:
        for label in dict.fromkeys(table.agents):
            a = acc[(table.index, label)]
            n = a["games"]
            low, high = wilson_interval(a["credit"], n)
            others = list(table.agents)
            others.remove(label)  # the other seats at this table (one copy of itself removed)
            by_seat = [float(r / g) if g else None for r, g in zip(a["seat_reward"], a["seat_games"])]
            rows.append({
                "table": table.index, "agent": label, "opponents": " + ".join(others), "games": n,
                "wins": a["wins"], "draws": a["draws"], "losses": a["losses"],
                "win_rate": a["credit"] / n if n else 0.0, "ci_low": low, "ci_high": high,
                "mean_reward": a["reward"] / n if n else 0.0, "mean_reward_by_seat": by_seat,
                "truncated": a["truncated"],
            })
    return rows


# ---------------------------------------------------------------- Elo (2 players)
def _pair_counts(records: list[dict[str, Any]], index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    k = len(index)
    games = np.zeros((k, k))
    score = np.zeros((k, k))  # score[i, j]: points i took off j (draw = 1/2)
    for rec in records:
        a, b = (index[label] for label in rec["seats"])
        if a == b:
            continue
        ca, cb = rec["credits"]
        games[a, b] += 1
        games[b, a] += 1
        score[a, b] += ca
        score[b, a] += cb
    return games, score


def bradley_terry(games: np.ndarray, score: np.ndarray, prior_sd: float = 10.0) -> np.ndarray:
    """Maximum-likelihood strengths (logits) by Newton's method; a very weak Gaussian prior
    keeps them finite when an agent wins every game. Centred on 0."""
    k = games.shape[0]
    theta = np.zeros(k)
    precision = 1.0 / prior_sd**2
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (score - games * p).sum(axis=1) - precision * theta
        w = games * p * (1.0 - p)
        hess = w.copy()
        np.fill_diagonal(hess, -w.sum(axis=1) - precision)
        step = np.linalg.solve(hess, grad)
        theta = theta - step
        if np.max(np.abs(step)) < 1e-9:
            break
    return theta - theta.mean()


def elo_ratings(labels: list[str], records: list[dict[str, Any]], seed: int,
                bootstrap: int = 200) -> dict[str, dict[str, float]]:
    """Elo (Bradley-Terry MLE, mean 1500) with 95% bootstrap intervals over games."""
    index = {label: i for i, label in enumerate(labels)}
    games, score = _pair_counts(records, index)
    elo = ELO_CENTER + ELO_PER_LOGIT * bradley_terry(games, score)
    rng = np.random.default_rng([seed, 7])
    samples = np.empty((bootstrap, len(labels)))
    n = len(records)
    for b in range(bootstrap):
        picked = [records[i] for i in rng.integers(n, size=n)] if n else []
        g, s = _pair_counts(picked, index)
        samples[b] = ELO_CENTER + ELO_PER_LOGIT * bradley_terry(g, s)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0) if n else (elo, elo)
    played = games.sum(axis=1)
    points = score.sum(axis=1)
    # An agent that won (or lost) every game has no finite maximum-likelihood rating: the prior
    # alone sets it, so the gap shown is only a lower bound.
    sweep = (played > 0) & ((points == played) | (points == 0))
    return {label: {"rating": float(elo[i]), "low": float(low[i]), "high": float(high[i]), "sweep": bool(sweep[i])}
            for label, i in index.items()}


# ---------------------------------------------------------------- openskill (3+ players)
def openskill_ratings(labels: list[str], records: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings over the games in index order; interval mu +- 1.96 sigma.

    An agent holding several seats in one game gets the mean of its per-seat updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for rec in sorted(records, key=lambda r: r["index"]):
        seats = rec["seats"]
        returns = rec["returns"]
        ranks = [sum(1 for other in returns if other > mine) + 1 for mine in returns]
        teams = [[model.rating(mu=ratings[label].mu, sigma=ratings[label].sigma)] for label in seats]
        updated = model.rate(teams, ranks=ranks)
        news: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for label, team in zip(seats, updated):
            news[label].append((team[0].mu, team[0].sigma))
        for label, values in news.items():
            ratings[label].mu = float(np.mean([v[0] for v in values]))
            ratings[label].sigma = float(np.mean([v[1] for v in values]))
    return {label: {"rating": r.mu, "sigma": r.sigma, "low": r.mu - Z95 * r.sigma, "high": r.mu + Z95 * r.sigma}
            for label, r in ratings.items()}


def ratings(labels: list[str], records: list[dict[str, Any]], num_players: int,
            seed: int) -> tuple[str, dict[str, dict[str, float]]]:
    """("elo" | "openskill" | "none", label -> rating with interval)."""
    if num_players == 1 or len(labels) < 2:
        return "none", {}
    if num_players == 2:
        return "elo", elo_ratings(labels, records, seed)
    return "openskill", openskill_ratings(labels, records)
