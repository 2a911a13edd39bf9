"""``yokai bench``: random-play throughput and memory, beside peer environments, in one run.

For every registered env (its default options, or each of ``--configs all``): agent-steps/s
and games/s through the wrapped PettingZoo AEC API, decisions/s through the raw Game, and the
memory one env instance holds after a reset. In the same run, when the ``bench`` extra is
installed: PettingZoo ``leduc_holdem_v4``, ``texas_holdem_v4``, ``connect_four_v3``, RLCard
``doudizhu`` and ``uno`` (raw env), OpenSpiel ``leduc_poker`` (raw state), and a do-nothing AEC
env behind PettingZoo's standard wrappers (the ceiling of the AEC API as the classic games ship
it) and the same env bare (no checks at all; the yokai envs check call order themselves).

Every row plays random legal actions in one process with the env built and seeded once and
reset between games. Prints a markdown table; ``--json PATH`` writes the rows. ``--vector N``
(default 4096): Yonkai no Yokai's batched engine (``VectorGame``) and vectorized env
(``make_vec_gym``) with N games, beside its scalar raw engine in the same run. Search costs:
``clone()`` and ``determinize()`` in raw steps (their mean time over states of random play
times raw decisions/s), and with ``--ismcts`` ISMCTS decisions/s for the README's specs.
``--repeat K`` plays the env and peer rows in K interleaved rounds and reports medians, each
ratio the median of its K same-round ratios (a shared machine's speed drifts by tens of percent
between rows, so one round's ratio can miss a target it meets).
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import math
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from yokai_envs import yonkai_no_yokai
from yokai_envs.cli.arg_types import non_negative_int, positive_finite_float, positive_int
from yokai_envs.registry import ENV_IDS, game_class, make, make_game

Row = dict[str, Any]


def random_aec_steps(env: Any, rng: np.random.Generator) -> Iterator[None]:
    """Random legal play through the AEC API to the end of the game, yielding after every action
    taken: a finished agent's ``step(None)`` is no agent-step, so it yields nothing."""
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        yield


def _aec_loop(env: Any, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Random legal play through the AEC API: (agent-steps/s, games/s)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in random_aec_steps(env, rng):
            steps += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
        env.reset()
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def _game_loop(game: Any, seconds: float, seed: int = 0) -> float:
    """Random legal play through the raw Game contract: decisions/s."""
    rng = np.random.default_rng(seed)
    steps = 0
    episode = seed
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game.reset(episode)
        episode += 1
        while not game.is_over:
            legal = np.flatnonzero(game.legal_action_mask())
            game.step(int(legal[rng.integers(legal.size)]))
            steps += 1
    return steps / (time.perf_counter() - start)


def _search_costs(game: Any, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Mean seconds of ``clone()`` and of ``determinize(seat, rng)`` over states of random play."""
    rng = np.random.default_rng(seed)
    states: list[Any] = []
    episode = seed
    while len(states) < 200:
        game.reset(episode)
        episode += 1
        while not game.is_over:
            if rng.random() < 0.2:
                states.append(game.clone())
            legal = np.flatnonzero(game.legal_action_mask())
            game.step(int(legal[rng.integers(legal.size)]))
    costs = []
    for operation in (lambda state: state.clone(), lambda state: state.determinize(state.current_player, rng)):
        calls = 0
        start = time.perf_counter()
        deadline = start + seconds / 2
        while time.perf_counter() < deadline:
            for state in states:
                operation(state)
            calls += len(states)
        costs.append((time.perf_counter() - start) / calls)
    return costs[0], costs[1]


#: The README's ISMCTS specs (agents/README.md), timed in ``--ismcts`` rows.
ISMCTS_SPECS = ("ismcts:iterations=200", "ismcts:iterations=200;rollout=heuristic")


def _ismcts_decisions_per_s(env_id: str, spec: str, seconds: float, seed: int = 0) -> float:
    """Decisions/s of one ISMCTS agent deciding every seat of seeded games (raw Game, no env)."""
    from agents.base import act_in_game
    from agents.specs import make as make_agent

    agent = make_agent(spec, env_id, seed=seed)
    game = make_game(env_id)
    decisions = 0
    episode = seed
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game.reset(episode)
        agent.reset(episode)
        episode += 1
        while not game.is_over and time.perf_counter() < deadline:
            game.step(act_in_game(agent, game))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def _memory_kb(build: Callable[[], Any]) -> float:
    """KB held by one instance built (and reset) by ``build``, measured with tracemalloc."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    instance = build()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del instance
    return (after - before) / 1024


def _reset_env(env: Any) -> Any:
    env.reset(seed=0)
    return env


def _reset_made(build: Callable[..., Any], env_id: str | None, options: dict[str, Any]) -> Any:
    """``build(env_id, **options)`` (``build()`` when ``env_id`` is None), reset."""
    return _reset_env(build(**options) if env_id is None else build(env_id, **options))


class _DoNothingEnv:
    """Built lazily so that importing this module never imports pettingzoo/gymnasium."""

    @staticmethod
    def make(num_agents: int = 4, episode_length: int = 100, wrapped: bool = True) -> Any:
        from gymnasium import spaces
        from pettingzoo import AECEnv
        from pettingzoo.utils import wrappers

        class DoNothing(AECEnv):
            metadata = {"name": "do_nothing", "render_modes": [], "is_parallelizable": False}

            def __init__(self) -> None:
                super().__init__()
                self.possible_agents = [f"player_{i}" for i in range(num_agents)]
                space = spaces.Dict({"observation": spaces.Box(0, 1, (16,), np.float32),
                                     "action_mask": spaces.Box(0, 1, (8,), np.int8)})
                self.observation_spaces = dict.fromkeys(self.possible_agents, space)
                self.action_spaces: dict[str, spaces.Space] = dict.fromkeys(self.possible_agents, spaces.Discrete(8))
                self._observation = np.zeros(16, dtype=np.float32)
                self._mask = np.ones(8, dtype=np.int8)

            def observation_space(self, agent: str) -> Any:
                return self.observation_spaces[agent]

            def action_space(self, agent: str) -> Any:
                return self.action_spaces[agent]

            def reset(self, seed: int | None = None, options: dict | None = None) -> None:
                self.agents = self.possible_agents[:]
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
                self.terminations = dict.fromkeys(self.agents, False)
                self.truncations = dict.fromkeys(self.agents, False)
                self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
                self.agent_selection = self.agents[0]
                self._steps = 0

            def observe(self, agent: str) -> dict:
                return {"observation": self._observation.copy(), "action_mask": self._mask.copy()}

            def step(self, action: int) -> None:
                agent = self.agent_selection
                if self.terminations[agent] or self.truncations[agent]:
                    self._was_dead_step(action)
                    return
                self._cumulative_rewards[agent] = 0.0
                self._steps += 1
                if self._steps >= episode_length:
                    self.terminations = dict.fromkeys(self.agents, True)
                nxt = (self.agents.index(agent) + 1) % len(self.agents)
                self.agent_selection = self.agents[nxt]
                self._accumulate_rewards()

        if not wrapped:
            return DoNothing()
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(DoNothing()))


def yokai_rows(seconds: float, all_configs: bool, only: list[str] | None) -> list[Row]:
    rows = []
    for env_id in ENV_IDS:
        if only and env_id not in only:
            continue
        configs = game_class(env_id).CONFORMANCE_CONFIGS if all_configs else [{}]
        for options in configs:
            label = env_id + "".join(f" {k}={v}" for k, v in options.items())
            aec_steps, games = _aec_loop(make(env_id, **options), seconds)
            raw = _game_loop(make_game(env_id, **options), seconds)
            clone, determinize = _search_costs(make_game(env_id, **options), seconds)
            memory = _memory_kb(functools.partial(_reset_made, make, env_id, options))
            rows.append({"env": label, "kind": "yokai-envs", "aec_steps_per_s": aec_steps, "games_per_s": games,
                         "raw_decisions_per_s": raw, "memory_kb": memory,
                         "clone_raw_steps": clone * raw, "determinize_raw_steps": determinize * raw})
    return rows


VECTOR_ENV = yonkai_no_yokai.ENV_ID


def vector_rows(seconds: float, num_games: int) -> list[Row]:
    """Yonkai no Yokai (4p) on its batched engine beside the scalar one, in one run: raw random
    play through ``VectorGame`` (masks, random legal actions and steps in compiled loops; with
    and without every game's observation each step) and the vectorized single-seat env
    ``make_vec_gym`` (a random learner against random bots: learner steps/s, and decisions/s
    counting the bots' too). ``x scalar`` divides by the scalar raw engine measured just before."""
    from yokai_envs.yonkai_no_yokai.vector import VectorGame, numba_available

    if not numba_available():
        print("skipping the vector rows: numba is not installed (pip install 'yokai-envs[fast]')")
        return []
    from yokai_envs.training.vec_env import make_vec_gym

    scalar = _game_loop(make_game(VECTOR_ENV), seconds)
    rows: list[Row] = [{"path": "YonkaiGame (scalar raw)", "num_games": 1, "decisions_per_s": scalar,
                        "x_scalar": 1.0, "state_bytes": None}]
    game = VectorGame(num_games, seed=0)
    actions = np.empty(num_games, dtype=np.int64)
    obs = np.empty((num_games, game.observation_size), dtype=np.float32)
    for observe in (False, True):
        game.step(game.random_actions(out=actions))  # compiled before the clock starts
        steps = games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, terminated, truncated = game.step(game.random_actions(out=actions))
            if observe:
                game.observe(game.to_act, out=obs)
            steps += num_games
            games += int(terminated.sum() + truncated.sum())
        elapsed = time.perf_counter() - start
        rows.append({"path": "VectorGame random play" + (" + observation" if observe else ""),
                     "num_games": num_games, "decisions_per_s": steps / elapsed, "games_per_s": games / elapsed,
                     "x_scalar": steps / elapsed / scalar, "state_bytes": game.state_bytes_per_game()})
    env = make_vec_gym(VECTOR_ENV, num_games, opponents=["random"], seed=0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    learner = games = 0
    before = env.core.decisions
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = env.action_masks()
        _, _, terminated, truncated, _ = env.step(np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1))
        learner += num_games
        games += int((terminated | truncated).sum())
    elapsed = time.perf_counter() - start
    decisions = env.core.decisions - before
    rows.append({"path": "make_vec_gym, random learner vs 3 random", "num_games": num_games,
                 "decisions_per_s": decisions / elapsed, "learner_steps_per_s": learner / elapsed,
                 "games_per_s": games / elapsed, "x_scalar": decisions / elapsed / scalar, "state_bytes": None})
    return rows


def vector_markdown(rows: list[Row]) -> str:
    lines = ["| Yonkai 4p path | N | decisions/s | x scalar raw | learner steps/s | games/s | state bytes/game |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {row['path']} | {row['num_games']} | {_fmt(row['decisions_per_s'])} | {row['x_scalar']:.1f} | "
              f"{_fmt(row.get('learner_steps_per_s'))} | {_fmt(row.get('games_per_s'), 1)} | "
              f"{_fmt(row['state_bytes'])} |" for row in rows]
    return "\n".join(lines)


def ismcts_rows(seconds: float, only: list[str] | None) -> list[Row]:
    """ISMCTS decisions/s for the README's specs, each game's default options."""
    rows = []
    for env_id in ENV_IDS:
        if only and env_id not in only:
            continue
        for spec in ISMCTS_SPECS:
            rows.append({"env": env_id, "spec": spec,
                         "decisions_per_s": _ismcts_decisions_per_s(env_id, spec, seconds)})
    return rows


def _rlcard_row(name: str, seconds: float) -> Row:
    import rlcard

    env = rlcard.make(name, config={"seed": 0})
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[rng.integers(len(legal))])
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    memory = _memory_kb(lambda: rlcard.make(name, config={"seed": 0}).reset())
    return {"env": f"rlcard {name}", "kind": "peer", "aec_steps_per_s": None, "games_per_s": games / elapsed,
            "raw_decisions_per_s": steps / elapsed, "memory_kb": memory}


def _open_spiel_row(name: str, seconds: float) -> Row:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"env": f"open_spiel {name}", "kind": "peer", "aec_steps_per_s": None, "games_per_s": games / elapsed,
            "raw_decisions_per_s": steps / elapsed, "memory_kb": None}


def peer_rows(seconds: float) -> list[Row]:
    rows = []
    for name in ("leduc_holdem_v4", "texas_holdem_v4", "connect_four_v3"):
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as error:  # the bench extra is not installed
            print(f"skipping pettingzoo {name}: {error}")
            continue
        aec_steps, games = _aec_loop(module.env(), seconds)
        memory = _memory_kb(functools.partial(_reset_made, module.env, None, {}))
        rows.append({"env": f"pettingzoo {name}", "kind": "peer", "aec_steps_per_s": aec_steps, "games_per_s": games,
                     "raw_decisions_per_s": None, "memory_kb": memory})
    for name in ("doudizhu", "uno"):
        try:
            rows.append(_rlcard_row(name, seconds))
        except ImportError as error:
            print(f"skipping rlcard {name}: {error}")
    try:
        rows.append(_open_spiel_row("leduc_poker", seconds))
    except ImportError as error:
        print(f"skipping open_spiel: {error}")
    aec_steps, games = _aec_loop(_DoNothingEnv.make(), seconds)
    rows.append({"env": "do-nothing AEC (ceiling)", "kind": "ceiling", "aec_steps_per_s": aec_steps,
                 "games_per_s": games, "raw_decisions_per_s": None,
                 "memory_kb": _memory_kb(lambda: _reset_env(_DoNothingEnv.make()))})
    # The yokai envs check call order themselves (no wrapper): the bare do-nothing env is the
    # ceiling of the AEC API loop with no checks at all.
    aec_steps, games = _aec_loop(_DoNothingEnv.make(wrapped=False), seconds)
    rows.append({"env": "do-nothing AEC, no wrappers", "kind": "ceiling", "aec_steps_per_s": aec_steps,
                 "games_per_s": games, "raw_decisions_per_s": None,
                 "memory_kb": _memory_kb(lambda: _reset_env(_DoNothingEnv.make(wrapped=False)))})
    return rows


def _fmt(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def markdown(rows: list[Row]) -> str:
    lines = ["| env | AEC agent-steps/s | games/s | raw decisions/s | memory KB | clone (raw steps) "
             "| determinize (raw steps) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['env']} | {_fmt(row['aec_steps_per_s'])} | {_fmt(row['games_per_s'], 1)} | "
                     f"{_fmt(row['raw_decisions_per_s'])} | {_fmt(row['memory_kb'], 1)} | "
                     f"{_fmt(row.get('clone_raw_steps'), 1)} | {_fmt(row.get('determinize_raw_steps'), 1)} |")
    return "\n".join(lines)


def ismcts_markdown(rows: list[Row]) -> str:
    lines = ["| env | ISMCTS spec | decisions/s |", "|---|---|---:|"]
    lines += [f"| {row['env']} | `{row['spec']}` | {_fmt(row['decisions_per_s'], 1)} |" for row in rows]
    return "\n".join(lines)


#: The speed comparisons with peers: (row key, peer row, peer key, label).
_RATIOS = (("aec_steps_per_s", "pettingzoo leduc_holdem_v4", "aec_steps_per_s", "leduc"),
           ("aec_steps_per_s", "pettingzoo texas_holdem_v4", "aec_steps_per_s", "texas"),
           ("aec_steps_per_s", "do-nothing AEC (ceiling)", "aec_steps_per_s", "of the ceiling"),
           ("aec_steps_per_s", "do-nothing AEC, no wrappers", "aec_steps_per_s", "of the unwrapped ceiling"),
           ("raw_decisions_per_s", "rlcard doudizhu", "raw_decisions_per_s", "rlcard doudizhu (raw)"))


def ratio_values(rows: list[Row]) -> dict[tuple[str, str], float]:
    """(env, label) -> the env's rate over its peer's, for peers measured in the same run."""
    by_env = {row["env"]: row for row in rows}
    values = {}
    for row in rows:
        if row["kind"] != "yokai-envs":
            continue
        for key, peer, peer_key, label in _RATIOS:
            if peer in by_env and by_env[peer][peer_key] and row[key] is not None:
                values[row["env"], label] = row[key] / by_env[peer][peer_key]
    return values


def ratios(rows: list[Row], rounds: list[list[Row]] | None = None) -> list[str]:
    """The speed targets as ratios against peers measured in the same run; with ``rounds``
    (``--repeat``), each ratio is the median of the per-round ratios, with their range."""
    per_round = [ratio_values(r) for r in (rounds or [rows])]
    lines = []
    for row in rows:
        if row["kind"] != "yokai-envs":
            continue
        parts = []
        for _key, _peer, _peer_key, label in _RATIOS:
            found = [values[row["env"], label] for values in per_round if (row["env"], label) in values]
            if not found:
                parts.append(f"n/a {label}")
            elif len(found) == 1:
                parts.append(f"{found[0]:.2f}x {label}")
            else:
                parts.append(f"{float(np.median(found)):.2f}x {label} ({min(found):.2f}-{max(found):.2f})")
        lines.append(f"- {row['env']}: " + ", ".join(parts))
    return lines


def median_rows(rounds: list[list[Row]]) -> list[Row]:
    """Each row's numbers as the median over interleaved rounds (the rows of every round match)."""
    merged = []
    for same in zip(*rounds, strict=True):
        row = dict(same[0])
        for key, value in row.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                row[key] = float(np.median([r[key] for r in same]))
        row["rounds"] = len(same)
        merged.append(row)
    return merged


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=positive_finite_float, default=3.0,
                        help="time per measurement (default 3; finite, above 0)")
    parser.add_argument("--env", action="append", help="only this env id (repeatable)")
    parser.add_argument("--configs", choices=["default", "all"], default="default",
                        help="default options only, or every configuration the conformance suite runs")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer environments")
    parser.add_argument("--ismcts", action="store_true", help="also time ISMCTS decisions/s for the README's specs")
    parser.add_argument("--vector", type=non_negative_int, default=4096, metavar="N",
                        help="Yonkai no Yokai's batched engine and vector env with N games (0: skip; needs numba)")
    parser.add_argument("--repeat", type=positive_int, default=1, metavar="K",
                        help="K interleaved rounds of the env and peer rows: medians, and each ratio as the median "
                             "of its per-round ratios with their range (the machine's speed drifts between rows)")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")


MAX_VECTOR_GAMES = 1 << 16  # the batched engine's arrays grow with N; past this a bench measures swap


def _fail(message: str) -> int:
    print(f"yokai bench: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    unknown = [e for e in (args.env or []) if e not in ENV_IDS]
    if unknown:
        return _fail(f"--env: unknown env id(s) {', '.join(unknown)}; valid: {', '.join(ENV_IDS)}")
    repeat = getattr(args, "repeat", 1)
    seconds = args.seconds
    if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
        return _fail(f"--seconds must be a finite number above 0, got {seconds}")
    if repeat < 1:
        return _fail(f"--repeat must be at least 1, got {repeat}")
    if not 0 <= getattr(args, "vector", 0) <= MAX_VECTOR_GAMES:
        return _fail(f"--vector must be 0..{MAX_VECTOR_GAMES} games, got {args.vector}")
    if args.json:
        from yokai_envs.training.common.safety import check_writable_folder

        target = Path(args.json)
        problem = "it is a folder" if target.is_dir() else check_writable_folder(target.parent)
        if problem:  # found now, not after minutes of measuring
            return _fail(f"--json {args.json}: {problem}")
    rounds = []
    for _ in range(repeat):
        round_rows = yokai_rows(args.seconds, args.configs == "all", args.env)
        if not args.no_peers:
            round_rows += peer_rows(args.seconds)
        rounds.append(round_rows)
    rows = median_rows(rounds) if repeat > 1 else rounds[0]
    if repeat > 1:
        print(f"medians of {repeat} interleaved rounds:")
    print(markdown(rows))
    print()
    print("\n".join(ratios(rows, rounds)))
    if getattr(args, "ismcts", False):
        search = ismcts_rows(args.seconds, args.env)
        print()
        print(ismcts_markdown(search))
        rows += [{"kind": "ismcts", **row} for row in search]
    vector_n = getattr(args, "vector", 0)
    if vector_n and (not args.env or VECTOR_ENV in args.env):
        vector = vector_rows(args.seconds, vector_n)
        if vector:
            print()
            print(vector_markdown(vector))
            rows += [{"kind": "vector", **row} for row in vector]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:  # checked writable before measuring
            json.dump(rows, handle, indent=2)
    return 0
