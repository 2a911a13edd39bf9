"""``run_match``: the arena's Python API (the CLI and training's evaluation call it)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from agents.base import Agent
from agents.specs import make, parse_spec
from yokai_envs.core.game import Game

from . import stats
from .play import Runner, build_game, env_id_of, init_worker, play_batch
from .schedule import GameSpec, Table, build_tables, schedule

BACKENDS = ("local", "ray")


@dataclass
class MatchResult:
    env_id: str
    env_options: dict[str, Any]
    num_players: int
    agents: list[str]
    gauntlet: str | None
    games_requested: int
    seed: int
    tables: list[Table]
    records: list[dict[str, Any]]  # one per game, in game-index order (seed + actions: a replay)
    rows: list[dict[str, Any]] = field(default_factory=list)
    rating_kind: str = "none"
    ratings: dict[str, dict[str, float]] = field(default_factory=dict)

    def row(self, agent: str, table: int = 0) -> dict[str, Any]:
        """The summary row of ``agent`` at ``table``."""
        for r in self.rows:
            if r["agent"] == agent and r["table"] == table:
                return r
        raise KeyError(f"no row for agent {agent!r} at table {table}")

    def summary(self) -> dict[str, Any]:
        """Everything but the per-game records (what results.json holds besides them)."""
        from agents.arena.report import package_version

        return {
            "env_id": self.env_id, "env_options": self.env_options, "num_players": self.num_players,
            "agents": self.agents, "gauntlet": self.gauntlet, "games_per_table_requested": self.games_requested,
            "seed": self.seed, "package_version": package_version(),
            "tables": [{"index": t.index, "agents": list(t.agents), "arrangements": len(t.arrangements),
                        "games": sum(1 for r in self.records if r["table"] == t.index)} for t in self.tables],
            "total_games": len(self.records),
            "truncated_games": sum(1 for r in self.records if r["truncated"]),
            "mean_steps": (sum(r["steps"] for r in self.records) / len(self.records)) if self.records else 0.0,
            "pairings": self.rows, "rating_kind": self.rating_kind, "ratings": self.ratings,
        }


def _labelled(agents: Sequence[str | tuple[str, Agent]]) -> tuple[list[str], dict[str, str | Agent]]:
    labels: list[str] = []
    sources: dict[str, str | Agent] = {}
    for entry in agents:
        if isinstance(entry, tuple):
            label, agent = entry
            if not isinstance(agent, Agent):
                raise ValueError(f"agent entry {label!r}: expected an agents.base.Agent, got {type(agent).__name__}")
            if label in sources and sources[label] is not agent:
                raise ValueError(f"two different agents are labelled {label!r}")
        else:
            label = parse_spec(entry).text  # fails early on a bad spec
            agent = label
        labels.append(label)
        sources[label] = agent
    return labels, sources


def run_match(game: str | type[Game], agents: Sequence[str | tuple[str, Agent]], games: int = 100,
              seed: int = 0, env_options: dict[str, Any] | None = None, gauntlet: str | tuple[str, Agent] | None = None,
              workers: int = 1, progress: bool = False, keep_actions: bool = True, backend: str = "local",
              ray_address: str | None = None) -> MatchResult:
    """Play a seat-balanced round-robin (or gauntlet) and summarize it.

    ``game`` is an env id (or a Game subclass); ``agents`` are spec strings (see
    :mod:`agents.specs`) or ``(label, Agent)`` pairs for in-memory agents (those run in this
    process only). Each table plays at least ``games`` games, rounded up so that every seat
    arrangement is played on every deal. Results depend only on ``seed``, not on ``workers``.
    ``backend="ray"`` plays the games as Ray tasks (``ray_address``: an existing cluster,
    else a local instance; see :mod:`agents.arena.ray_backend`), with the same results.
    Every agent is built (and every option checked) before the first game.
    """
    env_options = dict(env_options or {})
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    labels, sources = _labelled(agents)
    gauntlet_label = None
    if gauntlet is not None:
        (gauntlet_label,), gauntlet_source = _labelled([gauntlet])
        sources.update(gauntlet_source)
    probe = build_game(game, env_options)  # unknown env id / option fails here
    num_players = probe.num_players
    env_id = env_id_of(game)
    built = {label: make(source, env_id, env_options)  # unknown heuristic, missing checkpoint... fail here
             for label, source in sources.items() if isinstance(source, str)}
    in_memory = any(isinstance(s, Agent) for s in sources.values())
    if backend not in BACKENDS:
        raise ValueError(f"unknown arena backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
    if in_memory and backend == "ray":
        raise ValueError("in-memory agents run in this process only: use spec strings with the ray backend")
    if in_memory and workers > 1:
        raise ValueError("in-memory agents run in this process only: use spec strings or workers=1")

    tables = build_tables(labels, num_players, gauntlet_label)
    plan = schedule(tables, games, seed)
    batches = [list(group) for _, group in groupby(plan, key=lambda s: (s.table, s.deal))]
    if backend == "ray":
        records = _play_on_ray(game, env_options, sources, batches, progress, keep_actions, len(plan), ray_address)
    else:
        records = _play_all(game, env_options, sources, built, batches, workers, progress, keep_actions, len(plan))
    records.sort(key=lambda r: r["index"])

    result = MatchResult(env_id, env_options, num_players, labels, gauntlet_label, games, seed, tables, records)
    result.rows = stats.table_rows(tables, records, num_players)
    everyone = list(dict.fromkeys([gauntlet_label, *labels] if gauntlet_label else labels))
    if probe.cooperative:  # one team: nobody to rate against; the win rate is the clear rate
        result.rating_kind, result.ratings = "none", {}
    else:
        result.rating_kind, result.ratings = stats.ratings(everyone, records, num_players, seed)
    return result


def _play_on_ray(game: str | type[Game], env_options: dict[str, Any], sources: dict[str, str | Agent],
                 batches: list[list[GameSpec]], progress: bool, keep_actions: bool, total: int,
                 address: str | None) -> list[dict[str, Any]]:
    from tqdm.auto import tqdm

    from .ray_backend import play_on_ray

    with tqdm(total=total, unit="game", disable=not progress, dynamic_ncols=True, desc="arena (ray)") as bar:
        return play_on_ray(game, env_options, sources, batches, keep_actions, address, on_done=bar.update)


def _play_all(game: str | type[Game], env_options: dict[str, Any], sources: dict[str, str | Agent],
              built: dict[str, Agent], batches: list[list[GameSpec]], workers: int, progress: bool, keep_actions: bool,
              total: int) -> list[dict[str, Any]]:
    from tqdm.auto import tqdm

    records: list[dict[str, Any]] = []
    bar = tqdm(total=total, unit="game", disable=not progress, dynamic_ncols=True, desc="arena")
    try:
        if workers == 1:
            runner = Runner(game, env_options, sources, keep_actions)
            for label, agent in built.items():  # reuse the agents built while checking the specs
                runner.pool[label] = [agent]
            for batch in batches:
                for spec in batch:
                    records.append(runner.play(spec))
                    bar.update(1)
        else:
            context = multiprocessing.get_context("spawn")
            with context.Pool(workers, initializer=init_worker,
                              initargs=(game, env_options, sources, keep_actions)) as pool:
                for done in pool.imap_unordered(play_batch, batches):
                    records.extend(done)
                    bar.update(len(done))
    finally:
        bar.close()
    return records
