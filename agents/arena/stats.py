"""Win rates with intervals over deals, paired differences between agents on the same deals,
a head-to-head matrix, Elo by Bradley-Terry maximum likelihood with bootstrap intervals
(2 players), and openskill Plackett-Luce ratings (3-4 players).

The duplicate-deal design makes the *deal* the independent unit: every seat arrangement of a
table is played on the same deal, and every table of a match plays the same deals (deal seeds
depend only on the match seed and the deal index). So an agent's score on a deal is the mean of
its credits over the games (and seats) of that deal, and intervals are computed over deals:

- ``deal_interval``: a Wilson score interval with the effective number of trials
  ``n_eff = p(1-p) / se^2 * (z / t_{D-1})^2``, where ``se`` is the standard error of the mean
  per-deal score over ``D`` deals (Korn and Graubard's interval for a clustered proportion, with
  their degrees-of-freedom correction). When the per-deal scores do not vary (an agent winning
  every game, or every deal split the same way) there is no variance to estimate: the interval
  is the Wilson interval over the games, so a sweep gets an interval, never a point.
- ``paired_interval``: the difference of two agents' scores on the same deals, by the method of
  variance estimates recovery (MOVER, Zou and Donner 2008) from the two deal intervals and the
  correlation of the per-deal scores; with a per-deal score that does not vary the correlation
  is unknown and the conservative ``r = -1`` is used (the half-widths add).
"""

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
    # Rounding leaves the bound a hair inside p at p = 0 or 1; the interval always holds p.
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


# 97.5% quantiles of Student's t for 1..30 degrees of freedom; beyond, the Cornish-Fisher series.
_T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
         2.200985, 2.178813, 2.160369, 2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
         2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.04523, 2.042272)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (two-sided 95%)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` (possibly effective,
    fractional) trials."""
    if n <= 0:
        return (0.0, 1.0)
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def deal_interval(scores: Any, games: int) -> dict[str, Any]:
    """Mean per-deal score and its 95% interval over deals (see the module docstring).

    ``scores``: one score in [0, 1] per deal; ``games``: the trials behind them (games, or
    game-seats), used when the scores do not vary. Returns mean, low, high, deals, n_eff and
    ``basis`` ("deals", or "games" for the fallback)."""
    x = np.asarray(scores, dtype=np.float64)
    deals = len(x)
    if deals == 0:
        return {"mean": 0.0, "low": 0.0, "high": 1.0, "deals": 0, "n_eff": 0.0, "basis": "none", "se": 0.0}
    mean = float(x.mean())
    se2 = float(x.var(ddof=1)) / deals if deals >= 2 else 0.0
    if se2 > 1e-15 and 0.0 < mean < 1.0:
        n_eff = mean * (1 - mean) / se2 * (Z95 / t975(deals - 1)) ** 2
        basis = "deals"
    else:
        n_eff, basis = float(games), "games"
    low, high = wilson(mean, n_eff)
    return {"mean": mean, "low": low, "high": high, "deals": deals, "n_eff": n_eff, "basis": basis,
            "se": math.sqrt(se2)}


def correlation(x: Any, y: Any) -> float | None:
    """Pearson correlation, or None when either series does not vary (or is too short)."""
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if len(a) < 2 or a.std() < 1e-12 or b.std() < 1e-12:
        return None
    return float(np.corrcoef(a, b)[0, 1])


def paired_interval(a: dict[str, Any], b: dict[str, Any], r: float | None) -> tuple[float, float]:
    """MOVER interval for ``a["mean"] - b["mean"]`` from the two intervals and the correlation
    ``r`` of the paired scores (None: unknown, take -1, the widest)."""
    rho = -1.0 if r is None else r
    diff = a["mean"] - b["mean"]
    da_low, da_high = a["mean"] - a["low"], a["high"] - a["mean"]
    db_low, db_high = b["mean"] - b["low"], b["high"] - b["mean"]
    low = diff - math.sqrt(max(0.0, da_low**2 + db_high**2 - 2 * rho * da_low * db_high))
    high = diff + math.sqrt(max(0.0, da_high**2 + db_low**2 - 2 * rho * da_high * db_low))
    return (max(-1.0, low), min(1.0, high))


def deal_scores(records: list[dict[str, Any]], table: int, label: str) -> tuple[dict[int, float], dict[int, int]]:
    """``label``'s score on each deal of ``table`` (mean credit over its games and seats there)
    and the number of game-seats behind each."""
    total: dict[int, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    for rec in records:
        if rec["table"] != table:
            continue
        for seat, who in enumerate(rec["seats"]):
            if who == label:
                total[rec["deal"]] += rec["credits"][seat]
                count[rec["deal"]] += 1
    return {d: total[d] / count[d] for d in sorted(total)}, dict(count)


def is_self_play(table: Table) -> bool:
    return len(table.agents) > 1 and len(set(table.agents)) == 1


def table_rows(tables: list[Table], records: list[dict[str, Any]], num_players: int) -> list[dict[str, Any]]:
    """One row per (table, agent): its games (per seat it held), wins, draws, win rate with its
    95% interval over deals (``ci_low``/``ci_high``; ``ci_games_*``: the Wilson interval that
    treats every game-seat as independent), mean reward overall and by seat, and whether the
    table is self-play. A k-way shared win counts 1/k in the win rate."""
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
            games_low, games_high = wilson_interval(a["credit"], n)
            scores, _ = deal_scores(records, table.index, label)
            over_deals = deal_interval(list(scores.values()), n)
            others = list(table.agents)
            others.remove(label)  # the other seats at this table (one copy of itself removed)
            by_seat = [float(r / g) if g else None for r, g in zip(a["seat_reward"], a["seat_games"])]
            rows.append({
                "table": table.index, "agent": label, "opponents": " + ".join(others), "games": n,
                "wins": a["wins"], "draws": a["draws"], "losses": a["losses"],
                "win_rate": a["credit"] / n if n else 0.0, "ci_low": over_deals["low"], "ci_high": over_deals["high"],
                "deals": over_deals["deals"], "ci_basis": over_deals["basis"],
                "ci_games_low": games_low, "ci_games_high": games_high,
                "mean_reward": a["reward"] / n if n else 0.0, "mean_reward_by_seat": by_seat,
                "truncated": a["truncated"], "self_play": is_self_play(table),
            })
    return rows


def paired_differences(tables: list[Table], records: list[dict[str, Any]],
                       order: list[str]) -> list[dict[str, Any]]:
    """Paired differences of win rates between two agents on the same deals, with 95% intervals.

    Two kinds of pair: two agents at the same table ("same table"), and two agents at two
    tables that are the same but for them (each against the same opponents, e.g. A vs C and
    B vs C in a round-robin or a gauntlet). ``order`` fixes which agent comes first."""
    rank = {label: i for i, label in enumerate(order)}
    pairs: list[tuple[str, Table, str, Table, str]] = []
    for table in tables:
        if is_self_play(table):
            continue
        labels = sorted(dict.fromkeys(table.agents), key=lambda x: rank.get(x, len(rank)))
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                pairs.append((a, table, b, table, "same table"))
    for ta in tables:
        for tb in tables:
            if tb.index <= ta.index:
                continue
            for a in dict.fromkeys(ta.agents):
                for b in dict.fromkeys(tb.agents):
                    rest_a, rest_b = list(ta.agents), list(tb.agents)
                    rest_a.remove(a)
                    rest_b.remove(b)
                    if a == b or sorted(rest_a) != sorted(rest_b) or a in rest_a or b in rest_b:
                        continue
                    where = ("vs " + " + ".join(rest_a)) if rest_a else "alone"
                    if rank.get(a, len(rank)) <= rank.get(b, len(rank)):
                        pairs.append((a, ta, b, tb, where))
                    else:
                        pairs.append((b, tb, a, ta, where))
    out = []
    for a, ta, b, tb, where in pairs:
        sa, na = deal_scores(records, ta.index, a)
        sb, nb = deal_scores(records, tb.index, b)
        common = sorted(set(sa) & set(sb))
        if not common:
            continue
        xa, xb = [sa[d] for d in common], [sb[d] for d in common]
        ia = deal_interval(xa, sum(na[d] for d in common))
        ib = deal_interval(xb, sum(nb[d] for d in common))
        r = correlation(xa, xb)
        low, high = paired_interval(ia, ib, r)
        out.append({"a": a, "b": b, "where": where, "table_a": ta.index, "table_b": tb.index, "deals": len(common),
                    "rate_a": ia["mean"], "rate_b": ib["mean"], "difference": ia["mean"] - ib["mean"],
                    "low": low, "high": high, "correlation": r})
    return out


def head_to_head(order: list[str], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For every ordered pair of distinct agents that shared a table: how often the first
    finished ahead of the second (1 for a higher return, 1/2 for an equal one), over every game
    and pair of seats they held, with its 95% interval over deals. In 2-player games this is
    the win rate of one against the other."""
    total: dict[tuple[str, str], dict[int, float]] = defaultdict(lambda: defaultdict(float))
    count: dict[tuple[str, str], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for rec in records:
        seats, returns = rec["seats"], rec["returns"]
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if a == b:
                    continue
                score = 1.0 if returns[i] > returns[j] else 0.5 if returns[i] == returns[j] else 0.0
                total[(a, b)][rec["deal"]] += score
                count[(a, b)][rec["deal"]] += 1
    cells = []
    for a in order:
        for b in order:
            if (a, b) not in total:
                continue
            per_deal = [total[(a, b)][d] / count[(a, b)][d] for d in sorted(total[(a, b)])]
            interval = deal_interval(per_deal, sum(count[(a, b)].values()))
            cells.append({"a": a, "b": b, "comparisons": sum(count[(a, b)].values()), "deals": interval["deals"],
                          "score": interval["mean"], "low": interval["low"], "high": interval["high"]})
    return cells


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
        ranks = [float(sum(1 for other in returns if other > mine) + 1) for mine in returns]
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
