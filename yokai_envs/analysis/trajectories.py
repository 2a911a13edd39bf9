"""Per-decision data out of played games: one row per decision, from arena folders, ``games.jsonl``
files or replay files.

    import yokai_envs
    df = yokai_envs.trajectories("runs/duel")          # pandas DataFrame (the 'analysis' extra)
    rows = list(yokai_envs.analysis.iter_decisions("runs/duel/games.jsonl"))   # plain dicts

Every game is rebuilt from its deal seed and actions with ``record_information()`` on, and its
rebuilt returns are checked against the recorded ones (a mismatch is an error, never a silent
row). A row holds:

- ``game`` (the arena game index, or the replay's position), ``source`` (the file), ``env_id``,
  ``table``, ``deal``, ``deal_seed``, ``step`` (actions before this one), ``seat``, ``agent``
  (who played the seat), ``decision`` (how many decisions the seat made before this one),
  ``phase`` (the game's phase name);
- ``action`` (its id), ``action_kind``, ``action_name`` and one ``action_<field>`` column per
  field of the game's ``describe_action`` (:class:`~yokai_envs.core.protocols.ActionFields`:
  card, target, yokai...);
- ``legal_actions`` (how many were legal), ``legal_action_ids`` (which: the ids where the
  seat's action mask was True, ascending), ``forced`` (only one was);
- ``reward``: the deciding seat's reward for this decision, the change in its return from this
  decision to its next one (or to the end of the game), so what the others did in between counts
  and a seat's rewards add up to its return (an RL transition's reward, seat by seat);
- ``behaviour_prob`` and ``behaviour_entropy`` (nats): the probability the playing agent gave
  the action it took and the entropy of that distribution, recorded by the arena from
  :meth:`agents.base.Agent.last_distribution` (random: uniform over the legal actions; a trained
  policy: its network's distribution, also when it plays the most likely action; ISMCTS: the
  root's visit shares, one-hot when forced); None where the agent has none (heuristics, a flat
  search) or the source does not record it (replay files, older arena folders);
- ``log`` (the lines of the seat's public log since its previous decision, its own previous
  decision included: what it learned in between) and ``events``, the same as event tuples
  (lists of ints: ``(kind, *args)``, kinds in :mod:`yokai_envs.core.information` and each
  game's README), for analysis without parsing text;
- ``observation`` (the seat's observation vector, a list of floats), optionally
  ``state_tensor`` (the full state, omniscient);
- ``return`` (the seat's final return), ``returns`` (every seat's), ``steps`` (game length),
  ``truncated``.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.arena.journal import GAMES_FILE, MATCH_FILE, RESULTS_FILE, ResumeError, read_match, read_numbered_games
from yokai_envs.core.game import Game
from yokai_envs.core.protocols import action_fields

if TYPE_CHECKING:
    import pandas as pd



class TrajectoryError(ValueError):
    """A source that is not an arena folder, a games.jsonl or a replay file, or a game that does
    not rebuild to its recorded result."""


class _GameSpec:
    """What rebuilding one game needs."""

    def __init__(self, source: str, env_id: str, options: dict[str, Any], index: int, seed: int,
                 actions: list[int], agents: list[str], returns: list[float] | None,
                 extra: dict[str, Any], behaviour: list[Any] | None = None) -> None:
        self.source, self.env_id, self.options, self.index = source, env_id, options, index
        self.seed, self.actions, self.agents, self.returns, self.extra = seed, actions, agents, returns, extra
        self.behaviour = behaviour


def _from_games_file(path: Path) -> Iterator[_GameSpec]:
    match_path = path.parent / MATCH_FILE
    if not match_path.is_file():
        raise TrajectoryError(f"{path}: no {MATCH_FILE} beside it, so the env and its options are unknown "
                              "(an arena folder written by yokai evaluate --out has both)")
    try:
        match = read_match(match_path)
        numbered, cut = read_numbered_games(path)  # the arena's own reading
    except ResumeError as err:
        raise TrajectoryError(str(err)) from None
    env_id, options = match.get("env_id"), match.get("env_options") or {}
    if not isinstance(env_id, str) or not isinstance(options, dict):
        raise TrajectoryError(f"{match_path}: env_id must be a string and env_options an object, got "
                              f"{env_id!r} and {options!r}")
    if cut:  # said, never silent: a kill cut the last game off mid-write
        warnings.warn(f"{path}: the last line is cut off (a run killed mid-write); it is left out", stacklevel=2)
    for number, record in numbered:
        if "actions" not in record:
            raise TrajectoryError(f"{path} line {number}: game {record.get('index')!r} has no action list (the "
                                  "arena ran with keep_actions=False): the game cannot be rebuilt")
        try:
            spec = _GameSpec(str(path), env_id, dict(options), _whole(record["index"]), _whole(record["deal_seed"]),
                             [_whole(a) for a in record["actions"]], [str(s) for s in record["seats"]],
                             [float(r) for r in record["returns"]],
                             {"table": record.get("table"), "deal": record.get("deal")}, record.get("behaviour"))
        except (KeyError, TypeError, ValueError) as err:
            raise TrajectoryError(f"{path} line {number}: not a game record the arena writes "
                                  f"({type(err).__name__}: {err})") from None
        yield spec


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a non-negative integer, got {value!r}")
    return value


def _from_replay(path: Path, position: int) -> Iterator[_GameSpec]:
    from yokai_envs.play.replay import ReplayError, load_replay

    try:
        replay = load_replay(path)
    except ReplayError as err:
        raise TrajectoryError(str(err)) from None
    index = replay.meta.get("game_index", position)
    options = {k: v for k, v in replay.options.items()}
    assert replay.seed is not None
    yield _GameSpec(str(path), replay.env_id, options, int(index) if isinstance(index, int) else position,
                    int(replay.seed), list(replay.actions), list(replay.agents),
                    [float(r) for r in replay.result["returns"]],
                    {"table": replay.meta.get("table"), "deal": None, "sha256": replay.final_state_sha256,
                     "digest": replay.digest})


def _games(source: str | Path | Iterable[str | Path]) -> Iterator[_GameSpec]:
    if not isinstance(source, str | Path):
        for item in source:
            yield from _games(item)
        return
    path = Path(source)
    if path.is_dir():
        if (path / GAMES_FILE).is_file():
            yield from _from_games_file(path / GAMES_FILE)
            return
        replays = sorted(p for p in path.glob("**/*.json") if p.name not in (MATCH_FILE, RESULTS_FILE))
        if not replays:
            raise TrajectoryError(f"{path}: neither a {GAMES_FILE} nor replay files (*.json) in this folder")
        for position, replay in enumerate(replays):
            yield from _from_replay(replay, position)
        return
    if not path.is_file():
        raise TrajectoryError(f"{path} does not exist")
    if path.suffix == ".jsonl":
        yield from _from_games_file(path)
    else:
        yield from _from_replay(path, 0)


def _make(env_id: str, options: dict[str, Any]) -> Game:
    from yokai_envs.registry import make_game

    return make_game(env_id, **options)


def game_rows(game: Game, seed: int, actions: list[int], *, agents: list[str] | None = None,
              observation: bool = True, state_tensor: bool = False,
              behaviour: list[Any] | None = None) -> list[dict[str, Any]]:
    """The decision rows of one game (``game`` is reset to ``seed`` with recording on and
    stepped through ``actions``); the game-level columns (returns...) are filled in at the end.
    ``behaviour`` is the arena's per-step ``[probability, entropy]`` (or None) list; it must have
    one entry per action and give the action taken a positive probability."""
    if behaviour is not None and len(behaviour) != len(actions):
        raise TrajectoryError(f"{len(behaviour)} behaviour entries for {len(actions)} actions")
    game.record_information()
    game.reset(seed)
    rows: list[dict[str, Any]] = []
    log_seen = [0] * game.num_players
    decisions = [0] * game.num_players
    pending: list[int | None] = [None] * game.num_players  # each seat's latest row, its reward open
    for step, action in enumerate(actions):
        seat = int(game.current_player)
        mask = game.legal_action_mask()
        log = game.public_log(seat)
        events = game.seen_events(seat)
        row: dict[str, Any] = {"step": step, "seat": seat, "agent": agents[seat] if agents else None,
                               "decision": decisions[seat], "phase": game.phase_name}
        described = action_fields(game, int(action))
        row["action"] = int(action)
        row["action_kind"] = str(described.get("kind"))
        row["action_name"] = str(described.get("name"))
        for key, value in described.items():
            if key not in ("kind", "id", "name"):
                row[f"action_{key}"] = value
        legal_ids = np.flatnonzero(mask)
        row["legal_actions"] = int(legal_ids.size)
        row["legal_action_ids"] = legal_ids.tolist()
        row["forced"] = legal_ids.size == 1
        entry = behaviour[step] if behaviour is not None else None
        if entry is not None and not (0.0 < float(entry[0]) <= 1.0 + 1e-9):
            raise TrajectoryError(f"step {step}: the behaviour policy gave the action taken ({int(action)}) "
                                  f"probability {entry[0]}, so it cannot have played it")
        row["behaviour_prob"] = None if entry is None else float(entry[0])
        row["behaviour_entropy"] = None if entry is None else float(entry[1])
        now = game.returns()
        last = pending[seat]
        if last is not None:
            rows[last]["reward"] = float(now[seat]) - rows[last].pop("_before")
        pending[seat] = len(rows)
        row["_before"] = float(now[seat])
        row["log"] = log[log_seen[seat]:]
        row["events"] = [list(event) for event in events[log_seen[seat]:]]
        if observation:
            row["observation"] = np.asarray(game.observation(seat), dtype=np.float32).tolist()
        if state_tensor:
            row["state_tensor"] = np.asarray(game.state_tensor(), dtype=np.float32).ravel().tolist()
        game.step(int(action))
        log_seen[seat] = len(log)
        decisions[seat] += 1
        rows.append(row)
    returns = [float(r) for r in game.returns()]
    for index in pending:
        if index is not None:
            rows[index]["reward"] = returns[rows[index]["seat"]] - rows[index].pop("_before")
    for row in rows:
        row["return"] = returns[row["seat"]]
        row["returns"] = returns
        row["steps"] = int(game.steps)
        row["truncated"] = bool(game.is_truncated)
    return rows


def iter_decisions(source: str | Path | Iterable[str | Path], *, observation: bool = True,
                   state_tensor: bool = False) -> Iterator[dict[str, Any]]:
    """One dict per decision of every game in ``source`` (see the module docstring): an arena
    folder (``match.json`` + ``games.jsonl``), a ``games.jsonl`` (with its ``match.json``
    beside it), a replay file, a folder of replay files, or a list of any of these."""
    from yokai_envs.play.replay import returns_agree

    engines: dict[tuple[str, str], Game] = {}
    for spec in _games(source):
        key = (spec.env_id, json.dumps(spec.options, sort_keys=True))
        game = engines.get(key)
        if game is None:
            try:
                game = engines[key] = _make(spec.env_id, spec.options)
            except (ValueError, TypeError) as err:
                raise TrajectoryError(f"{spec.source}: cannot build {spec.env_id!r} with {spec.options}: "
                                      f"{err}") from None
        try:
            rows = game_rows(game, spec.seed, spec.actions, agents=spec.agents, observation=observation,
                             state_tensor=state_tensor, behaviour=spec.behaviour)
        except TrajectoryError as err:
            raise TrajectoryError(f"{spec.source}: game {spec.index}: {err}") from None
        except Exception as err:  # an illegal action: the record does not fit this env version
            raise TrajectoryError(f"{spec.source}: game {spec.index} does not replay on {spec.env_id}: "
                                  f"{err}") from None
        rebuilt = [float(r) for r in game.returns()]
        if spec.returns is not None and not returns_agree(spec.returns, rebuilt):
            raise TrajectoryError(f"{spec.source}: game {spec.index} rebuilds to returns {rebuilt}, the record "
                                  f"says {spec.returns}")
        sha, digest = spec.extra.get("sha256"), spec.extra.get("digest")
        if sha is not None and digest is not None and digest(game) != sha:
            raise TrajectoryError(f"{spec.source}: the rebuilt final state or the agents list differs from the "
                                  "recorded one")
        front = {"game": spec.index, "source": spec.source, "env_id": spec.env_id,
                 "table": spec.extra.get("table"), "deal": spec.extra.get("deal"), "deal_seed": spec.seed}
        for row in rows:
            yield {**front, **row}


def trajectories(source: str | Path | Iterable[str | Path], *, observation: bool = True,
                 state_tensor: bool = False) -> pd.DataFrame:
    """:func:`iter_decisions` as a pandas DataFrame (needs the 'analysis' extra)."""
    import pandas as pd

    return pd.DataFrame.from_records(list(iter_decisions(source, observation=observation,
                                                         state_tensor=state_tensor)))


def export(source: str | Path | Iterable[str | Path], out: str | Path, *, observation: bool = True,
           state_tensor: bool = False) -> int:
    """Write the decisions of ``source`` to ``out``: Parquet (``.parquet``, the 'analysis'
    extra) or JSON lines (``.jsonl``, no extra). Returns the number of rows. The file appears
    whole or not at all: rows go to a temporary file renamed into place once every game has
    been rebuilt and checked, and ``out`` must not be one of the sources."""
    out = Path(out)
    if out.suffix not in (".jsonl", ".parquet"):
        raise TrajectoryError(f"--out {out}: write .parquet or .jsonl")
    if out.is_dir():
        raise TrajectoryError(f"--out {out} is a folder: name the file, e.g. {out / 'decisions.jsonl'}")
    sources = [source] if isinstance(source, str | Path) else list(source)
    for item in sources:
        if Path(item).exists() and out.exists() and out.resolve() == Path(item).resolve():
            raise TrajectoryError(f"--out {out} is one of the sources: name another file")
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        if out.suffix == ".jsonl":
            count = 0
            with temporary.open("w") as handle:
                for row in iter_decisions(sources, observation=observation, state_tensor=state_tensor):
                    handle.write(json.dumps(row) + "\n")
                    count += 1
        else:
            frame = trajectories(sources, observation=observation, state_tensor=state_tensor)
            frame.to_parquet(temporary, index=False)
            count = len(frame)
        os.replace(temporary, out)
    finally:
        temporary.unlink(missing_ok=True)
    return count
