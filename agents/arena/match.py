"""``run_match``: the arena's Python API (the CLI and training's evaluation call it)."""

from __future__ import annotations

import multiprocessing
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from agents.base import Agent
from agents.specs import make, parse_spec
from yokai_envs.core.game import Game

from . import stats
from .journal import Estimate, Journal
from .play import Runner, build_game, env_id_of, init_worker, play_batch
from .schedule import GameSpec, Table, build_tables, deals_per_table, schedule

BACKENDS = ("local", "ray")
# Most games one match schedules (its plan is a list held in memory, about 1 KB a game).
MAX_GAMES = 10_000_000
# ALIAS=SPEC: an alias has no ':', ';', ',' or '=' (so "ismcts:iterations=30" is a spec, not an alias).
ALIAS = re.compile(r"^\s*([^=:;,\s][^=:;,]*?)\s*=\s*(\S.*)$")
AgentEntry = str | tuple[str, str | Agent]


def split_alias(entry: str) -> tuple[str | None, str]:
    """``"H=heuristic"`` -> ("H", "heuristic"); ``"ismcts:iterations=30"`` -> (None, the spec)."""
    found = ALIAS.match(entry)
    if found is None:
        return None, entry.strip()
    return found.group(1), found.group(2).strip()


@dataclass
class MatchResult:
    """What :func:`run_match` played and measured: the tables, one record per game (its seed and
    actions, so a replay), the summary rows (win rates with intervals), ratings, paired
    differences on the same deals and head-to-head results."""

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
    specs: dict[str, str] = field(default_factory=dict)  # label -> spec string (an alias's spec)
    paired: list[dict[str, Any]] = field(default_factory=list)  # paired differences on the same deals
    head_to_head: list[dict[str, Any]] = field(default_factory=list)
    cooperative: bool = False  # one team: a self-play table's win rate is the team's clear rate
    resumed_games: int = 0  # games of ``records`` read back from a cut run's journal, not played now

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
            "agents": self.agents, "agent_specs": self.specs, "gauntlet": self.gauntlet,
            "games_per_table_requested": self.games_requested, "seed": self.seed, "package_version": package_version(),
            "tables": [{"index": t.index, "agents": list(t.agents), "arrangements": len(t.arrangements),
                        "games": sum(1 for r in self.records if r["table"] == t.index),
                        "self_play": stats.is_self_play(t)} for t in self.tables],
            "total_games": len(self.records),
            "truncated_games": sum(1 for r in self.records if r["truncated"]),
            "mean_steps": (sum(r["steps"] for r in self.records) / len(self.records)) if self.records else 0.0,
            "pairings": self.rows, "paired_differences": self.paired, "head_to_head": self.head_to_head,
            "rating_kind": self.rating_kind, "ratings": self.ratings,
        }


def _labelled(agents: Sequence[AgentEntry]) -> tuple[list[str], dict[str, str | Agent]]:
    """Labels and what each stands for: a spec (``"heuristic"``), an aliased spec
    (``"H=heuristic"`` or ``("H", "heuristic")``) or an in-memory agent (``("mine", agent)``)."""
    labels: list[str] = []
    sources: dict[str, str | Agent] = {}
    for entry in agents:
        agent: str | Agent
        if isinstance(entry, tuple):
            label, agent = entry
            if isinstance(agent, str):
                agent = parse_spec(agent).text
            elif not isinstance(agent, Agent):
                raise ValueError(f"agent entry {label!r}: expected a spec string or an agents.base.Agent, "
                                 f"got {type(agent).__name__}")
        else:
            alias, spec = split_alias(entry)
            agent = parse_spec(spec).text  # fails early on a bad spec
            label = alias or agent
        if not isinstance(label, str) or not label.strip():
            raise ValueError(f"agent entry {entry!r}: the label must be a non-empty string")
        if label in sources and sources[label] is not agent and sources[label] != agent:
            raise ValueError(f"two different agents are labelled {label!r}")
        labels.append(label)
        sources[label] = agent
    return labels, sources


def _check_picklable(sources: dict[str, str | Agent]) -> None:
    """In-memory agents reach worker processes and Ray tasks pickled: refuse one that does not
    pickle before any game, naming it."""
    import pickle

    for label, source in sources.items():
        if isinstance(source, Agent):
            try:
                pickle.dumps(source)
            except Exception as err:  # pickling can fail in many ways (locks, lambdas, handles)
                raise ValueError(f"in-memory agent {label!r} cannot be sent to worker processes or Ray tasks "
                                 f"(it does not pickle: {err}); use workers=1 and the local backend") from None


def _spec_text(source: str | Agent) -> str:
    return source if isinstance(source, str) else f"<in-memory {type(source).__name__}>"


def run_match(game: str | type[Game], agents: Sequence[AgentEntry], games: int = 100,
              seed: int = 0, env_options: dict[str, Any] | None = None, gauntlet: AgentEntry | None = None,
              workers: int = 1, progress: bool = False, keep_actions: bool = True, backend: str = "local",
              ray_address: str | None = None, journal_dir: str | None = None, resume: bool = False,
              log: Callable[[str], None] | None = None) -> MatchResult:
    """Play a seat-balanced round-robin (or gauntlet) and summarize it.

    ``game`` is an env id (or a Game subclass); ``agents`` are spec strings (see
    :mod:`agents.specs`), ``"ALIAS=SPEC"`` strings or ``(alias, spec)`` pairs (the alias names
    the agent in results, tables and plots), or ``(label, Agent)`` pairs for in-memory agents
    (sent to worker processes or Ray tasks pickled, so they must pickle for ``workers > 1`` or
    ``backend="ray"``). Each table plays at least ``games`` games, rounded up so
    that every seat arrangement is played on every deal. Results depend only on ``seed``, not
    on ``workers``. ``backend="ray"`` plays the games as Ray tasks (``ray_address``: an
    existing cluster, else a local instance; see :mod:`agents.arena.ray_backend`), with the
    same results. Every agent is built (and every option checked) before the first game.

    ``journal_dir``: write ``match.json`` and append each game to ``games.jsonl`` there as it
    finishes; with ``resume=True`` continue the cut run found there (see
    :mod:`agents.arena.journal`). ``log`` receives the resume note and the time estimate
    printed after the first games.
    """
    env_options = dict(env_options or {})
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError(f"ray_address {ray_address!r} is only used by the ray backend (--backend ray); "
                         f"this match uses backend {backend!r}")
    labels, sources = _labelled(agents)
    gauntlet_label = None
    if gauntlet is not None:
        (gauntlet_label,), gauntlet_source = _labelled([gauntlet])
        if gauntlet_label in sources and sources[gauntlet_label] != gauntlet_source[gauntlet_label]:
            raise ValueError(f"two different agents are labelled {gauntlet_label!r}")
        sources.update(gauntlet_source)
    probe = build_game(game, env_options)  # unknown env id / option fails here
    num_players = probe.num_players
    env_id = env_id_of(game)
    built = {label: make(source, env_id, env_options)  # unknown heuristic, missing checkpoint... fail here
             for label, source in sources.items() if isinstance(source, str)}
    in_memory = any(isinstance(s, Agent) for s in sources.values())
    if backend not in BACKENDS:
        raise ValueError(f"unknown arena backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
    if in_memory and (backend == "ray" or workers > 1):
        _check_picklable(sources)

    tables = build_tables(labels, num_players, gauntlet_label)
    planned = sum(deals_per_table(games, t) * len(t.arrangements) for t in tables)
    if planned > MAX_GAMES:  # the schedule is built whole before the first game: refuse, never swap
        raise ValueError(f"games={games} would schedule {planned:,} games over {len(tables)} table(s); "
                         f"one match plays at most {MAX_GAMES:,} (split it over several seeds)")
    cpus = os.cpu_count() or 1
    if workers > cpus and backend == "local":
        if log is not None:
            log(f"workers: {workers} asked, this machine has {cpus} CPUs: using {cpus}")
        workers = cpus
    plan = schedule(tables, games, seed)
    specs = {label: _spec_text(source) for label, source in sources.items()}
    done: dict[int, dict[str, Any]] = {}
    journal = None
    if journal_dir is not None:
        from .report import package_version

        config = {"env_id": env_id, "env_options": env_options, "agents": labels, "agent_specs": specs,
                  "gauntlet": gauntlet_label, "games": games, "seed": seed, "keep_actions": keep_actions,
                  "package_version": package_version()}
        journal = Journal(journal_dir, config, plan, resume, log,
                          verify=RecordCheck(game, env_options, sources, keep_actions))
        done = journal.done
    batches = [[s for s in group if s.index not in done]
               for _, group in groupby(plan, key=lambda s: (s.table, s.deal))]
    # Deal by deal across the tables (the records keep their schedule index, so the order of play
    # changes nothing): a cut run has every table about equally far, and the first round of
    # deals, one per table, gives the time estimate a fair mix of cheap and costly tables.
    batches = sorted((batch for batch in batches if batch), key=lambda b: (b[0].deal, b[0].table))
    first_round = sum(len(batch) for batch in batches[:len(tables)])
    estimate = Estimate(len(plan) - len(done), workers, log, first_round)

    def finished(new: list[dict[str, Any]]) -> None:
        if journal is not None:
            journal.append(new)
        estimate.update(len(new))

    try:
        if backend == "ray":
            records = _play_on_ray(game, env_options, sources, batches, progress, keep_actions, estimate.total,
                                   ray_address, finished)
        else:
            records = _play_all(game, env_options, sources, built, batches, workers, progress, keep_actions,
                                estimate.total, finished)
    finally:
        if journal is not None:
            journal.close()
    records = sorted([*done.values(), *records], key=lambda r: r["index"])

    result = MatchResult(env_id, env_options, num_players, labels, gauntlet_label, games, seed, tables, records)
    result.specs = specs
    result.resumed_games = len(done)
    result.rows = stats.table_rows(tables, records, num_players)
    everyone = list(dict.fromkeys([gauntlet_label, *labels] if gauntlet_label else labels))
    result.paired = stats.paired_differences(tables, records, everyone)
    if num_players > 1 and not probe.cooperative:
        result.head_to_head = stats.head_to_head(everyone, records)
    result.cooperative = probe.cooperative
    if probe.cooperative:  # one team: nobody to rate against; the win rate is the clear rate
        result.rating_kind, result.ratings = "none", {}
    else:
        result.rating_kind, result.ratings = stats.ratings(everyone, records, num_players, seed)
    return result


Finished = Callable[[list[dict[str, Any]]], None]


class RecordCheck:
    """Whether a stored game record is the game its seeds give: its actions replayed from its
    deal seed (or, when the arena kept no actions, the game played again by its agents) must
    give the stored returns, credits, steps and truncation. Returns the difference, or None."""

    def __init__(self, game: str | type[Game], env_options: dict[str, Any], sources: dict[str, str | Agent],
                 keep_actions: bool) -> None:
        self.game = build_game(game, env_options)
        # played again with the action list kept, so an unsigned record's moves can be compared
        self.runner_args = (game, env_options, sources, True)
        self.runner: Runner | None = None

    def __call__(self, record: dict[str, Any], spec: GameSpec, play_again: bool = False) -> str | None:
        """``play_again``: the game is played again by its agents with their recorded seeds (a
        record nobody signed), and its moves must be the record's."""
        from yokai_envs.core.game import returns_agree, win_credits

        actions = record.get("actions")
        if actions is None or play_again:
            if self.runner is None:
                self.runner = Runner(*self.runner_args)
            rebuilt = self.runner.play(spec)
            if actions is not None and rebuilt.get("actions") != actions:
                return "has moves its agents do not choose with their recorded seeds (another agent played it)"
        else:
            if not isinstance(actions, list) or not all(type(a) is int and a >= 0 for a in actions):
                return "has an action list that is not a list of non-negative integers"
            game = self.game
            try:
                game.replay(spec.deal_seed, actions)
            except ValueError as err:
                return f"does not replay from its deal seed ({err})"
            if not game.is_over:
                return f"is unfinished after its {len(actions)} actions"
            returns = game.returns()
            rebuilt = {"returns": [float(r) for r in returns], "steps": int(game.steps),
                       "truncated": bool(game.is_truncated),
                       "credits": win_credits(returns, game.cooperative).tolist()}
        differs = [key for key in ("returns", "credits")
                   if not isinstance(record.get(key), list) or not all(
                       isinstance(v, int | float) and not isinstance(v, bool) for v in record[key])
                   or not returns_agree(record[key], rebuilt[key])]
        differs += [key for key in ("steps", "truncated") if record.get(key) != rebuilt[key]
                    or type(record.get(key)) is not type(rebuilt[key])]
        if differs:
            return (f"states {', '.join(differs)} its game does not give "
                    f"(stored returns {record.get('returns')!r}, replayed {rebuilt['returns']!r})")
        return None


def _play_on_ray(game: str | type[Game], env_options: dict[str, Any], sources: dict[str, str | Agent],
                 batches: list[list[GameSpec]], progress: bool, keep_actions: bool, total: int,
                 address: str | None, finished: Finished) -> list[dict[str, Any]]:
    from tqdm.auto import tqdm

    from .ray_backend import play_on_ray

    if not batches:
        return []
    with tqdm(total=total, unit="game", disable=not progress, dynamic_ncols=True, desc="arena (ray)") as bar:
        def on_done(chunk: list[dict[str, Any]]) -> None:
            finished(chunk)
            bar.update(len(chunk))

        return play_on_ray(game, env_options, sources, batches, keep_actions, address, on_done=on_done)


@contextmanager
def one_torch_thread() -> Iterator[None]:
    """Torch on one thread while the arena plays in this process, then as it was. The networks
    act on one observation at a time, where a second thread only adds waiting: on a loaded
    2-core machine a policy step took 21 ms with torch's default threads and 1.6 ms with one."""
    torch = sys.modules.get("torch")  # a policy agent imported it; without one there is nothing to set
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _play_all(game: str | type[Game], env_options: dict[str, Any], sources: dict[str, str | Agent],
              built: dict[str, Agent], batches: list[list[GameSpec]], workers: int, progress: bool, keep_actions: bool,
              total: int, finished: Finished) -> list[dict[str, Any]]:
    from tqdm.auto import tqdm

    records: list[dict[str, Any]] = []
    bar = tqdm(total=total, unit="game", disable=not progress, dynamic_ncols=True, desc="arena")
    try:
        if workers == 1 or not batches:
            runner = Runner(game, env_options, sources, keep_actions)
            for label, agent in built.items():  # reuse the agents built while checking the specs
                runner.pool[label] = [agent]
            with one_torch_thread():
                for batch in batches:
                    for spec in batch:
                        record = runner.play(spec)
                        records.append(record)
                        finished([record])
                        bar.update(1)
        else:
            context = multiprocessing.get_context("spawn")
            with context.Pool(workers, initializer=init_worker,
                              initargs=(game, env_options, sources, keep_actions)) as pool:
                for done in pool.imap_unordered(play_batch, batches):
                    records.extend(done)
                    finished(done)
                    bar.update(len(done))
    finally:
        bar.close()
    return records
