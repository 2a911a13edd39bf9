"""Search distillation with a privileged teacher, in Yonkai no Yokai: the config's ``lookahead`` section.

The belief search beats the heuristic by one move of lookahead: for each legal move it plays the
rest out with the heuristic in worlds drawn from what the seat believes about the hidden hands,
and keeps the move with the best mean. Distilling its noisy choices stalled; regressing each move's
value is what works, with two changes to the teacher that cost nothing at play time:

- **The true deal as the world.** Each labelled decision comes from a game the heuristic plays at
  every seat, so its true hidden hands are one draw from exactly the beliefs the search samples
  (against heuristic opponents). The teacher looks one move ahead in that one world. A single world
  is a noisy label, but the network sees only the seat's observation, so least squares over many
  decisions averages the worlds that look the same to it: the fit converges to the belief search's
  values with every world counted, not 13 of them. The true deal only ever enters the *targets*;
  the network reads the observation, so it plays with what the seat sees.
- **Scored at the end of the round, not of the game.** After the move every seat plays the
  heuristic to the end of the current round, which is deterministic in a known deal. The cubes the
  round leaves and the seat that leads the next one are then scored by a table: the heuristic
  game's expected win credit from that start (:func:`round_value_table`, simulated once per run).
  The later rounds' deals, most of a game's outcome and pure noise for this decision, are so
  replaced by their mean: the spread of the moves' values around their mean falls about five-fold.

With ``play: start`` the network the run starts from (``training.init_from``, frozen, its most
likely move from what each seat sees) replaces the heuristic at every seat, in the labelled games
and in each move's lookahead: the values are then those of playing on as that network does, and
greedy on them is one step of policy iteration on it. The round-end table stays the heuristic's.

With ``opponents`` (a league's members, weighted) each of the labelling tables seats one learner,
who plays as ``play`` says and whose decisions alone are labelled, against three (or two) copies
of one member drawn by weight: ``start``, the heuristic, a past generation. The values are then
those of the learner playing on against that member, and greedy on them improves the learner
against the league rather than against itself.

With ``accumulate`` the start network's own move values (its logits / ``logit_scale``) are added
to every label: the fit then plays by the sum of every step's values rather than the last step's
alone, so one step's fitting errors do not replace what the earlier steps learned (policy
iteration that averages its value estimates, as Politex and mirror-descent methods do).

The network keeps its actor-critic shape: the actor's logits are ``logit_scale`` x each move's
value minus the mean over the legal moves (greedy play takes the best move), the critic the
mean. Each round labels ``labels / rounds`` new decisions on every core, then the network is
fitted to all rounds so far, evaluated and checkpointed; a stop resumes at the next round.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

KEYS = ("observations", "masks", "values")
CHUNK_LABELS = 100_000  # labels per worker task: progress and an even end across workers
DRIVER_GAMES = 4096  # heuristic games played side by side to draw decisions from


def credit(winners: np.ndarray) -> np.ndarray:
    """The arena's win credit of each seat (1/k for a k-way tie) from (N, n) winners."""
    return winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)


def round_value_table(num_players: int, games_per_start: int, seed: int,
                      starts: np.ndarray | None = None) -> np.ndarray:
    """Each seat's expected win credit when every seat plays the heuristic from a round's start
    with cubes ``starts[k]`` and seat 0 to lead: (len(starts), n), ``games_per_start`` games each.
    ``starts`` defaults to every cube count 0..4 of every seat."""
    from agents.heuristics.yonkai_no_yokai import batch_actions
    from yokai_envs.yonkai_no_yokai.state import NUM_PLAYS
    from yokai_envs.yonkai_no_yokai.vector import VectorGame

    if starts is None:
        starts = cube_starts(num_players)
    n = num_players
    games = len(starts) * games_per_start
    vg = VectorGame(games, n, autoreset=False, seed=seed)
    vg.cubes[:] = np.repeat(starts, games_per_start, axis=0)
    vg.to_act[:] = 0  # the deal is the round's; only its leader is set
    masks = np.empty((games, 2 * NUM_PLAYS + 1), dtype=bool)
    rows = np.arange(games)
    while not vg.is_over.all():
        vg.masks(masks)
        vg.step(batch_actions(vg.hands[rows, vg.to_act], masks), ~vg.is_over)
    return credit(vg.winners).reshape(len(starts), games_per_start, n).mean(axis=1)


def cube_starts(num_players: int) -> np.ndarray:
    from yokai_envs.yonkai_no_yokai.state import STARTING_CUBES

    return np.array(list(itertools.product(range(STARTING_CUBES + 1), repeat=num_players)), dtype=np.int8)


def by_leader(led_by_seat_0: np.ndarray, num_players: int) -> np.ndarray:
    """The table for every leader, T[c_0, .., c_n-1, leader, seat], from the one with seat 0 to
    lead (rows in :func:`cube_starts` order): seats are symmetric up to rotation."""
    from yokai_envs.yonkai_no_yokai.state import STARTING_CUBES

    n = num_players
    side = STARTING_CUBES + 1
    zero = led_by_seat_0.reshape((side,) * n + (n,))
    table = np.zeros((side,) * n + (n, n), dtype=np.float32)
    for cubes in cube_starts(n):
        for leader in range(n):
            turned = tuple(int(cubes[(leader + j) % n]) for j in range(n))  # the leader becomes seat 0
            for seat in range(n):
                table[(*(int(c) for c in cubes), leader, seat)] = zero[(*turned, (seat - leader) % n)]
    return table


def heuristic_player(game: Any, games: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The heuristic's move in each listed game of a VectorGame (``masks``: their legal moves)."""
    from agents.heuristics.yonkai_no_yokai import batch_actions

    return batch_actions(game.hands[games, game.to_act[games]], masks)


def network_player(path: str, env_id: str, options: dict[str, Any]) -> Any:
    """A player like :func:`heuristic_player` that takes the network's most likely move, from
    what the seat to act observes."""
    from agents.policy import PolicyAgent

    agent = PolicyAgent(path, env_id, options)

    def play(game: Any, games: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if not len(games):
            return np.zeros(0, dtype=np.int64)
        return agent.batch_probabilities(game.observe(game.to_act[games], games=games), masks).argmax(axis=1)

    return play


def network_outputs(policy: Any, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An SB3 policy's logits less their mean over the legal moves (0 where illegal) and its
    critic, for each row (float64, in batches)."""
    import torch

    advantages = np.zeros(masks.shape, dtype=np.float64)
    critic = np.zeros(len(masks), dtype=np.float64)
    with torch.no_grad():
        for start in range(0, len(masks), 16_384):
            rows = slice(start, start + 16_384)
            latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(torch.from_numpy(observations[rows])))
            logits = policy.action_net(latent_pi).numpy().astype(np.float64)
            critic[rows] = policy.value_net(latent_vf).numpy()[:, 0]
            legal = masks[rows]
            mean = (logits * legal).sum(axis=1, keepdims=True) / legal.sum(axis=1, keepdims=True)
            advantages[rows] = np.where(legal, logits - mean, 0.0)
    return advantages, critic


def network_values(path: str, env_id: str, options: dict[str, Any], logit_scale: float) -> Any:
    """The value a network's fit puts on the position a seat observes: its critic (the legal
    moves' mean value) plus its best move's advantage (the largest logit less the legal mean,
    / ``logit_scale``): (observations, masks) -> values."""
    from agents.policy import PolicyAgent

    policy = PolicyAgent(path, env_id, options).policy

    def values(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        advantages, critic = network_outputs(policy, observations, masks)
        best = np.where(masks, advantages, -np.inf).max(axis=1)
        return (critic + best / logit_scale).astype(np.float32)

    return values


class Seating:
    """A player like :func:`heuristic_player` in which ``players[who[game, seat]]`` plays each seat
    of each game."""

    def __init__(self, players: list[Any], who: np.ndarray) -> None:
        self.players, self.who = players, who

    def of(self, games: np.ndarray) -> Seating:
        """The seating of a VectorGame whose game k is a copy of game ``games[k]`` of this one."""
        return Seating(self.players, self.who[games])

    def __call__(self, game: Any, games: np.ndarray, masks: np.ndarray) -> np.ndarray:
        chosen = self.who[games, game.to_act[games]]
        moves = np.zeros(len(games), dtype=np.int64)
        for k in np.unique(chosen):
            pick = chosen == k
            moves[pick] = self.players[k](game, games[pick], masks[pick])
        return moves


def move_values(driver: Any, rows: np.ndarray, masks: np.ndarray, rollouts: Any, table: np.ndarray,
                player: Any = heuristic_player, bootstrap: Any = None) -> np.ndarray:
    """(len(rows), actions): for each listed game of ``driver`` and each legal move of its seat to
    act, the table's value of the round the move leads to with ``player`` at every seat after it
    (a :class:`Seating` of the driver: its players at their seats) on the game's true deal; 0 for
    illegal moves. With ``bootstrap`` (:func:`network_values`) the play stops earlier, at the
    seat's next decision of the round, valued by it from what the seat then observes.
    ``rollouts`` is a VectorGame without autoreset, at least as large as the number of legal
    moves."""
    decision, action = np.nonzero(masks)
    m = len(decision)
    if isinstance(player, Seating):
        player = player.of(rows[decision])
    for name in type(driver).STATE_ARRAYS:
        getattr(rollouts, name)[:m] = getattr(driver, name)[rows[decision]]
    rollouts.status[m:] = 1  # the slots beyond play no part
    seat = driver.to_act[rows[decision]].astype(np.int64)
    started = rollouts.rounds_completed[:m].copy()
    values = np.zeros(m, dtype=np.float32)
    done = np.zeros(m, dtype=bool)
    active = np.zeros(rollouts.num_games, dtype=bool)
    active[:m] = True
    moves = np.zeros(rollouts.num_games, dtype=np.int64)
    moves[:m] = action
    legal = np.empty((rollouts.num_games, masks.shape[1]), dtype=bool)
    slots = np.arange(rollouts.num_games)
    while True:
        rollouts.step(moves, active)
        over = rollouts.status[:m] != 0
        ended = ~done & (over | (rollouts.rounds_completed[:m] != started))
        if ended.any():
            finished = np.flatnonzero(ended & over)
            values[finished] = credit(rollouts.winners[finished])[np.arange(len(finished)), seat[finished]]
            going_on = np.flatnonzero(ended & ~over)
            cubes = rollouts.cubes[going_on].astype(np.int64)
            values[going_on] = table[(*cubes.T, rollouts.to_act[going_on], seat[going_on])]
            done |= ended
        active[:m] = ~done
        if not active.any():
            break
        rollouts.masks(legal)
        if bootstrap is not None:
            again = np.flatnonzero(active[:m] & (rollouts.to_act[:m] == seat))
            if len(again):
                values[again] = bootstrap(rollouts.observe(seat[again], games=again), legal[again])
                done[again] = True
                active[again] = False
        playing = slots[active]
        moves[playing] = player(rollouts, playing, legal[playing])
    out = np.zeros(masks.shape, dtype=np.float32)
    out[decision, action] = values
    return out


def generate(options: dict[str, Any], table: np.ndarray, labels: int, sample: float,
             seed: int, network: str | None = None,
             opponents: list[tuple[str, float]] | None = None,
             bootstrap: tuple[str, float] | None = None) -> dict[str, np.ndarray]:
    """``labels`` decisions with a choice, each kept with chance ``sample``, from games the
    heuristic plays at every seat (or the ``network`` file), with each legal move's value
    (:func:`move_values`, the same players after the move). With ``opponents`` ((``heuristic`` or
    a network file, weight) pairs) each game has one learner seat, played so and alone labelled,
    and every other seat plays one opponent drawn by weight. With ``bootstrap`` (a network file,
    its logit scale) each move's play stops at the seat's next decision, valued by that network
    (:func:`network_values`)."""
    from yokai_envs.yonkai_no_yokai import ENV_ID
    from yokai_envs.yonkai_no_yokai.vector import VectorGame

    loaded: dict[str, Any] = {"heuristic": heuristic_player}

    def player_of(name: str) -> Any:
        if name not in loaded:
            import torch

            torch.set_num_threads(1)  # one labelling process per core
            loaded[name] = network_player(name, ENV_ID, options)
        return loaded[name]

    rng = np.random.default_rng(seed)
    n = int(options.get("num_players", 4))
    value_of = None
    if bootstrap is not None:
        import torch

        torch.set_num_threads(1)  # one labelling process per core
        value_of = network_values(bootstrap[0], ENV_ID, options, bootstrap[1])
    learner = player_of(network or "heuristic")
    who = np.zeros((DRIVER_GAMES, n), dtype=np.int64)
    learner_seat = np.full(DRIVER_GAMES, -1)  # -1: every seat is labelled
    player: Any = learner
    if opponents:
        weights = np.array([weight for _, weight in opponents], dtype=np.float64)
        who[:] = 1 + rng.choice(len(opponents), size=DRIVER_GAMES, p=weights / weights.sum())[:, None]
        learner_seat = rng.integers(n, size=DRIVER_GAMES)
        who[np.arange(DRIVER_GAMES), learner_seat] = 0
        player = Seating([learner, *(player_of(name) for name, _ in opponents)], who)
    driver = VectorGame(DRIVER_GAMES, n, seed=seed)
    # Room for about ten legal moves of every decision labelled at one step: a rollout step costs
    # every slot's masks, used or not, so the room follows the share of seats labelled.
    share = sample / n if opponents else sample
    rollouts = VectorGame(int(DRIVER_GAMES * share * 10) + 64, n, autoreset=False, seed=seed + 1)
    masks = np.empty((DRIVER_GAMES, driver.num_actions), dtype=bool)
    games = np.arange(DRIVER_GAMES)
    parts: dict[str, list[np.ndarray]] = {key: [] for key in KEYS}
    got = 0
    while got < labels:
        driver.masks(masks)
        seats = driver.to_act.astype(np.int64)
        moves = player(driver, games, masks)
        labelled = (learner_seat < 0) | (seats == learner_seat)
        rows = np.flatnonzero((masks.sum(axis=1) >= 2) & labelled & (rng.random(DRIVER_GAMES) < sample))[:labels - got]
        while masks[rows].sum() > rollouts.num_games:
            rows = rows[:len(rows) // 2]
        if len(rows):
            parts["values"].append(move_values(driver, rows, masks[rows], rollouts, table, player, value_of))
            parts["observations"].append(driver.observe(seats[rows], games=rows))
            parts["masks"].append(masks[rows].copy())
            got += len(rows)
        driver.step(moves)
    return {key: np.concatenate(parts[key]) for key in KEYS}


def _pool_map(tasks: list[tuple[Any, ...]], function: Any, workers: int, bar: Any = None,
              size: Any = len) -> list[Any]:
    """``function(*task)`` for every task, in order, on ``workers`` processes. A stop (Ctrl-C or
    a signal turned into KeyboardInterrupt) ends the workers at once instead of waiting for the
    tasks still queued."""
    results: list[Any] = [None] * len(tasks)
    if workers == 1:
        for i, task in enumerate(tasks):
            results[i] = function(*task)
            if bar is not None:
                bar.update(size(results[i]))
        return results
    pool = multiprocessing.get_context("spawn").Pool(workers)
    try:
        for i, result in pool.imap_unordered(functools.partial(_indexed, function), enumerate(tasks)):
            results[i] = result
            if bar is not None:
                bar.update(size(result))
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()
    return results


def _indexed(function: Any, item: tuple[int, tuple[Any, ...]]) -> tuple[int, Any]:
    return item[0], function(*item[1])


def build_table(num_players: int, games_per_start: int, seed: int, workers: int) -> np.ndarray:
    starts = cube_starts(num_players)
    pieces = np.array_split(np.arange(len(starts)), workers * 4)
    tasks = [(num_players, games_per_start, seed + i, starts[piece]) for i, piece in enumerate(pieces) if len(piece)]
    led_by_seat_0 = np.concatenate(_pool_map(tasks, round_value_table, workers))
    return by_leader(led_by_seat_0, num_players)


def round_file(run_dir: Path, round_index: int) -> Path:
    return run_dir / "lookahead" / f"round_{round_index + 1}.npz"


def table_file(run_dir: Path) -> Path:
    return run_dir / "lookahead" / "round_values.npy"


def _save(path: Path, write: Any) -> None:
    from yokai_envs.training.common.safety import atomic_target

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_target(path) as tmp, open(tmp, "wb") as handle:
        write(handle)


def load_rounds(run_dir: Path, rounds: int, borrowed: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """This run's first ``rounds`` rounds of labels and every round the ``borrowed`` runs saved."""
    files = [round_file(run_dir, index) for index in range(rounds)]
    files += [path for run in borrowed for path in saved_rounds(Path(run))]
    parts = []
    for path in files:
        with np.load(path) as saved:
            parts.append({key: saved[key] for key in KEYS})
    return {key: np.concatenate([part[key] for part in parts]) for key in KEYS}


def saved_rounds(run_dir: Path) -> list[Path]:
    """The round files a lookahead run folder holds, in round order."""
    found: list[Path] = []
    while round_file(run_dir, len(found)).is_file():
        found.append(round_file(run_dir, len(found)))
    return found


def saved_labels(path: Path) -> int:
    """The labels in a saved round, from its masks' header (the arrays are not read)."""
    import zipfile

    with zipfile.ZipFile(path) as archive, archive.open("masks.npy") as member:
        major, _minor = np.lib.format.read_magic(member)
        read = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
        shape = read(member)[0]
    return int(shape[0])


def label_seed(config: dict[str, Any], round_index: int, chunk: int) -> int:
    # Far from the clone's seeds (training.seed + episode) and from the evaluation deals.
    return config["training"]["seed"] + 2_000_003 * (round_index + 1) + 10_007 * chunk


def label_round(config: dict[str, Any], table: np.ndarray, index: int, labels: int, workers: int,
                progress: bool) -> dict[str, np.ndarray]:
    """One round's labels, in chunks over the worker processes."""
    settings = config["lookahead"]
    chunks = max(1, -(-labels // CHUNK_LABELS))
    network = config["training"]["init_from"] if settings["play"] == "start" else None
    opponents = league_players(config)
    bootstrap = None
    if settings["horizon"] == "next_turn":
        bootstrap = (str(config["training"]["init_from"]), float(settings["logit_scale"]))
    tasks = [(config["game"]["options"], table, labels // chunks + (c < labels % chunks), settings["sample"],
              label_seed(config, index, c), network, opponents, bootstrap) for c in range(chunks)]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=labels, unit="label", dynamic_ncols=True,
                   desc=f"lookahead round {index + 1}/{settings['rounds']}")
    try:
        parts = _pool_map(tasks, generate, workers, bar, size=lambda part: len(part["masks"]))
    finally:
        if bar is not None:
            bar.close()
    return {key: np.concatenate([part[key] for part in parts]) for key in KEYS}


def member_player(config: dict[str, Any], index: int) -> str:
    """League member ``index`` of ``lookahead.opponents`` as ``heuristic`` or a network file:
    ``start`` is the network the run starts from, ``pretrained[:generation=N]`` a shipped model
    of the game, anything else a policy file as written. ConfigError when it names none."""
    from yokai_envs.core.errors import ConfigError
    from yokai_envs.training.algorithms.league import resolve_start

    game, spec = config["game"], config["lookahead"]["opponents"][index]["spec"]
    where = f"lookahead.opponents[{index}].spec"
    if spec == "heuristic":
        return spec
    if spec == "start":
        if not config["training"]["init_from"]:
            raise ConfigError(f"{where}: start is the network the run starts from; name it in training.init_from")
        return str(config["training"]["init_from"])
    return str(resolve_start(spec, game["env_id"], game["options"], where=where))


def league_players(config: dict[str, Any]) -> list[tuple[str, float]]:
    """``lookahead.opponents`` as (``heuristic`` or a network file, weight)."""
    return [(member_player(config, i), float(entry["weight"]))
            for i, entry in enumerate(config["lookahead"]["opponents"])]


def start_values(config: dict[str, Any], observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``lookahead.accumulate`` x the move values the start network (``training.init_from``, frozen)
    plays by: its logits / ``logit_scale``, minus their mean over the legal moves; 0 where illegal."""
    from agents.policy import PolicyAgent
    from yokai_envs.yonkai_no_yokai import ENV_ID

    settings = config["lookahead"]
    policy = PolicyAgent(config["training"]["init_from"], ENV_ID, config["game"]["options"]).policy
    advantages, _ = network_outputs(policy, observations, masks)
    return (advantages * (settings["accumulate"] / settings["logit_scale"])).astype(np.float32)


def run_lookahead(trainer: Any, model: Any) -> None:
    """Every round the run still owes (``state["lookahead"]["rounds"]`` counts the finished ones);
    an evaluation (with ``evaluation.every``) and a checkpoint after each."""
    from yokai_envs.training.algorithms.distill import save_round

    config, folder, state = trainer.config, trainer.folder, trainer.state
    settings = config["lookahead"]
    options = config["game"]["options"]
    workers = settings["workers"] or os.cpu_count() or 1
    record = state.setdefault("lookahead", {"rounds": 0, "history": []})
    started = time.perf_counter()
    per_round = settings["labels"] // settings["rounds"]
    table = None  # a refit of fit_with's labels only (labels: 0) needs no values
    if per_round and table_file(folder.root).exists():
        table = np.load(table_file(folder.root))
    elif per_round:
        table = build_table(int(options.get("num_players", 4)), settings["table_games"],
                            config["training"]["seed"] + 999_983, workers)
        _save(table_file(folder.root), lambda handle: np.save(handle, table))
    if config["evaluation"]["every"] and not state["evaluations"]:
        trainer.record_evaluation(trainer.evaluate(model, config["evaluation"]["games"]))  # the start
    while record["rounds"] < settings["rounds"]:
        index = record["rounds"]
        if table is not None and not round_file(folder.root, index).exists():  # a stop after the labels keeps them
            data = label_round(config, table, index, per_round, workers, trainer.progress)
            with trainer.guard.saving():
                save_round(round_file(folder.root, index), data)
        generated = time.perf_counter()
        data = load_rounds(folder.root, index + 1 if per_round else 0, settings["fit_with"])
        prior = start_values(config, data["observations"], data["masks"]) if settings["accumulate"] else None
        loss = fit(model.policy, data, settings, config["training"]["seed"] + index, prior)
        fitted = len(data["masks"])
        del data
        borrowed = fitted - per_round * (index + 1)  # fit_with's labels count once, at the first fit
        model.num_timesteps += per_round + (borrowed if index == 0 else 0)
        row = {"round": index + 1, "labels": per_round, "fitted": fitted, "timesteps": int(model.num_timesteps),
               "value_mse": round(loss, 5), "generate_seconds": round(generated - started, 1),
               "fit_seconds": round(time.perf_counter() - generated, 1)}
        record["history"].append(row)
        record["rounds"] = index + 1
        state["train_seconds"] += time.perf_counter() - started
        if trainer.progress:
            print(f"lookahead round {index + 1}: {per_round} labels in {row['generate_seconds']:.0f} s, "
                  f"fitted to {fitted} in {row['fit_seconds']:.0f} s (squared error {loss:.4f})")
        if config["evaluation"]["every"]:
            trainer.record_evaluation(trainer.evaluate(model, config["evaluation"]["games"]))
        trainer.save_checkpoint(model)
        started = time.perf_counter()


def fit(policy: Any, data: dict[str, np.ndarray], settings: dict[str, Any], seed: int,
        prior: np.ndarray | None = None) -> float:
    """``epochs`` passes of least squares: the actor's logits / ``logit_scale`` onto each legal
    move's value minus the legal moves' mean (plus ``prior``, centered the same way:
    :func:`start_values`), the critic onto that mean. Returns the actor's mean squared error over
    the last pass."""
    import torch

    torch.manual_seed(seed)
    observations = torch.from_numpy(data["observations"])
    legal = torch.from_numpy(data["masks"]).float()
    values = torch.from_numpy(data["values"]).float()
    mean = (values * legal).sum(dim=1) / legal.sum(dim=1)
    centered = (values - mean[:, None]) * legal
    if prior is not None:
        centered += torch.from_numpy(prior) * legal
    size, batch = len(observations), settings["batch_size"]
    steps = settings["epochs"] * max(1, size // batch)
    optimizer = torch.optim.Adam(policy.parameters(), lr=settings["learning_rate"])
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, steps)
    scale = settings["logit_scale"]
    total, count = 0.0, 0
    for _ in range(settings["epochs"]):
        order = torch.randperm(size)
        total, count = 0.0, 0
        for start in range(0, size - batch + 1 if size >= batch else 1, batch):
            rows = order[start:start + batch]
            latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(observations[rows]))
            advantage = policy.action_net(latent_pi) / scale
            actor = (((advantage - centered[rows]) ** 2) * legal[rows]).sum() / legal[rows].sum()
            critic = ((policy.value_net(latent_vf).squeeze(1) - mean[rows]) ** 2).mean()
            optimizer.zero_grad()
            (actor + critic).backward()
            optimizer.step()
            schedule.step()
            total += actor.item()
            count += 1
    return total / max(count, 1)
