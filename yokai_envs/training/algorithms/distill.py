"""Search distillation (expert iteration): the config's ``distill`` section.

PPO on these games learns a copy of the heuristic it was cloned from; the strength is in
play-time search (ISMCTS beats the heuristic in every game). Expert iteration (ExIt; AlphaZero's
policy-improvement loop) turns the search into the teacher: each round,

1. the search *guided by the current network* plays the learner's seat against the configured
   opponents (the agent ``trained:latest.safetensors;SEARCH``: the network's move is the search's default,
   kept unless the search shows a better one), on every core;
2. the network is fitted to the search's decisions (cross-entropy on the masked distribution)
   and its critic to the games' outcomes, over the newest ``window`` rounds of data;
3. the better network guides the next round's search.

A round's decisions are saved in the run folder (``distill/round_K.npz``) and the model is
checkpointed after each round, so ``--resume`` continues from the last whole round. Distilled
decisions count as the run's timesteps (the learner made them), so ``training.total_timesteps``
past the distilled ones are PPO steps after the distillation (equal: no PPO).

The search acts through ``agents.base.act_in_game`` like any opponent: it sees the game only
through its own determinizations, so no hidden card reaches the data.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

# A round's work in pieces of at least this many decisions (at most MAX_CHUNKS of them), for
# progress and an even end across workers. The pieces do not depend on the number of workers, and
# they are joined in order, so a seed gives the same data on any machine.
CHUNK_DECISIONS = 250
MAX_CHUNKS = 64
KEYS = ("observations", "masks", "actions", "returns")


def teacher_spec(checkpoint: str | Path, search: str) -> str:
    """The agent that labels a round: the network at ``checkpoint`` with its search."""
    return f"trained:{checkpoint}" + (f";{search}" if search else "")


def generate(config: dict[str, Any], checkpoint: str, steps: int, gamma: float, seed: int) -> dict[str, np.ndarray]:
    """``steps`` learner decisions of the network-guided search (runs in a worker process)."""
    import torch

    torch.set_num_threads(1)
    from agents.specs import make
    from yokai_envs.training.algorithms.imitation import collect
    from yokai_envs.training.algorithms.ppo import env_factories, opponent_pool

    env = env_factories(config, opponent_pool(config, []))[0]()
    teacher = make(teacher_spec(checkpoint, config["distill"]["teacher"]), config["game"]["env_id"],
                   config["game"]["options"], seed=seed)
    try:
        return collect(env, teacher, steps, gamma, seed)
    finally:
        env.close()


def round_seed(config: dict[str, Any], round_index: int, chunk: int) -> int:
    # Far from the clone's seeds (training.seed + episode) and from the evaluation deals.
    return config["training"]["seed"] + 1_000_003 * (round_index + 1) + 10_007 * chunk


def generate_round(config: dict[str, Any], checkpoint: Path, round_index: int, gamma: float,
                   progress: bool) -> dict[str, np.ndarray]:
    """One round's decisions, split in chunks over the worker processes."""
    settings = config["distill"]
    workers = settings["workers"] or os.cpu_count() or 1
    chunks = max(1, min(MAX_CHUNKS, settings["decisions"] // CHUNK_DECISIONS))
    sizes = [settings["decisions"] // chunks + (i < settings["decisions"] % chunks) for i in range(chunks)]
    parts: list[dict[str, np.ndarray]] = [{} for _ in sizes]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=settings["decisions"], unit="decision", dynamic_ncols=True,
                   desc=f"distill round {round_index + 1}/{settings['rounds']}")
    try:
        if workers == 1:
            for chunk, size in enumerate(sizes):
                parts[chunk] = generate(config, str(checkpoint), size, gamma, round_seed(config, round_index, chunk))
                if bar is not None:
                    bar.update(int(parts[chunk]["actions"].shape[0]))
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                futures = {pool.submit(generate, config, str(checkpoint), size, gamma,
                                       round_seed(config, round_index, chunk)): chunk
                           for chunk, size in enumerate(sizes)}
                for future in as_completed(futures):
                    chunk = futures[future]
                    parts[chunk] = future.result()
                    if bar is not None:
                        bar.update(int(parts[chunk]["actions"].shape[0]))
    finally:
        if bar is not None:
            bar.close()
    data = {key: np.concatenate([part[key] for part in parts]) for key in KEYS}
    data["episodes"] = np.asarray(sum(int(part["episodes"]) for part in parts))
    return data


def round_file(run_dir: Path, round_index: int) -> Path:
    return run_dir / "distill" / f"round_{round_index + 1}.npz"


def save_round(path: Path, data: dict[str, np.ndarray]) -> None:
    from yokai_envs.training.common.safety import atomic_target

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_target(path) as tmp, open(tmp, "wb") as handle:
        np.savez_compressed(handle, allow_pickle=False, **data)


def load_rounds(run_dir: Path, newest: int, window: int) -> dict[str, np.ndarray]:
    """The saved decisions of rounds ``newest - window + 1 .. newest`` (0-based), joined."""
    parts = []
    for index in range(max(0, newest - window + 1), newest + 1):
        with np.load(round_file(run_dir, index)) as saved:
            parts.append({key: saved[key] for key in KEYS})
    return {key: np.concatenate([part[key] for part in parts]) for key in KEYS}


def agreement(data: dict[str, np.ndarray], model: Any) -> float:
    """How often the network's most likely move is the search's (before fitting to it)."""
    import torch

    policy = model.policy
    with torch.no_grad():
        observations = torch.as_tensor(data["observations"], device=policy.device)
        chosen = policy.get_distribution(observations, action_masks=data["masks"]).get_actions(deterministic=True)
    return float((chosen.cpu().numpy() == data["actions"]).mean())


def run_rounds(trainer: Any, model: Any) -> None:
    """Every round the run still owes (``state["distill"]["rounds"]`` counts the finished ones);
    checkpoint and evaluation after each."""
    from yokai_envs.training.algorithms.imitation import fit

    config, folder, state = trainer.config, trainer.folder, trainer.state
    settings = config["distill"]
    record = state.setdefault("distill", {"rounds": 0, "history": []})
    if config["evaluation"]["every"] and not state["evaluations"]:
        # The clone: where the curve starts.
        trainer.record_evaluation(trainer.evaluate(model, config["evaluation"]["games"]))
    while record["rounds"] < settings["rounds"]:
        index = record["rounds"]
        with trainer.guard.saving():
            trainer.save_policy(model, folder.latest)
        started = time.perf_counter()
        data = generate_round(config, folder.latest, index, float(model.gamma), trainer.progress)
        generated = time.perf_counter()
        with trainer.guard.saving():
            save_round(round_file(folder.root, index), data)
        before = agreement(data, model)
        fitted = fit(model, load_rounds(folder.root, index, settings["window"]), settings["epochs"],
                     settings["batch_size"], settings["learning_rate"], float(getattr(model, "vf_coef", 0.5)),
                     config["training"]["seed"] + index)
        decisions = int(data["actions"].shape[0])
        model.num_timesteps += decisions
        row = {"round": index + 1, "decisions": decisions, "episodes": int(data["episodes"]),
               "agreement_before": round(before, 4), "agreement_after": round(fitted["agreement"], 4),
               "value_mse": round(fitted["value_mse"], 4), "generate_seconds": round(generated - started, 1),
               "fit_seconds": round(time.perf_counter() - generated, 1), "timesteps": int(model.num_timesteps)}
        record["history"].append(row)
        record["rounds"] = index + 1
        state["train_seconds"] += time.perf_counter() - started
        if trainer.progress:
            print(f"distill round {index + 1}: {decisions} search decisions in {row['generate_seconds']:.0f} s; "
                  f"the network agreed with the search on {before:.1%} before the fit, "
                  f"{fitted['agreement']:.1%} after")
        if config["evaluation"]["every"]:
            trainer.record_evaluation(trainer.evaluate(model, config["evaluation"]["games"]))
        trainer.save_checkpoint(model)
