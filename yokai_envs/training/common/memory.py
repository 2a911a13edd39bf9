"""How much memory a training config will need (rollout buffer, networks with Adam, activations,
pretraining data), checked against what the machine has before anything starts."""

from __future__ import annotations

import contextlib
import itertools
import os
from pathlib import Path
from typing import Any

# name -> (low, high, low included, high included): values outside train to NaN, crash or hang.

def estimate_memory(config: dict[str, Any], game: Any) -> dict[str, int]:
    """Bytes the run will hold at once, by part (a lower bound: what the config alone decides).

    rollout buffer: per env step the observation, the action mask (float32 in sb3-contrib), the
    action and six float32 columns, twice (the buffer is flattened into a copy for training);
    network: actor and critic weights, gradients and Adam's two moments (4 copies, float32);
    activations: one minibatch through every layer of both nets, forward and backward;
    pretrain: the teacher's decisions (observation, mask) held for behaviour cloning.
    """
    algorithm, training = config["algorithm"], config["training"]
    hyper = algorithm["hyperparameters"]
    obs, actions = int(game.observation_size), int(game.num_actions)
    n_envs = training["n_envs"]
    n_steps = int(hyper.get("n_steps", 2048))
    batch = int(hyper.get("batch_size", 64))
    network = algorithm["network"]
    pi = [int(h) for h in (network["pi"] if network["pi"] is not None else network["net_arch"])]
    vf = [int(h) for h in (network["vf"] if network["vf"] is not None else network["net_arch"])]
    critic_in = obs + (int(game.state_size) if algorithm["network"]["critic_state"] else 0)
    per_step = 4 * obs + 4 * actions + 8 + 6 * 4
    if algorithm["network"]["critic_state"]:
        per_step += 4 * int(game.state_size)

    def params(inputs: int, layers: list[int], out: int) -> int:
        sizes = [inputs, *layers, out]
        return sum(a * b + b for a, b in itertools.pairwise(sizes))

    parts = {
        "rollout buffer": 2 * n_steps * n_envs * per_step,
        "network": 16 * (params(obs, pi, actions) + params(critic_in, vf, 1)),
        "activations": 3 * 4 * batch * (sum(pi) + sum(vf) + actions + obs + critic_in),
    }
    if config["pretrain"]["imitate"]:
        parts["pretrain data"] = int(config["pretrain"]["steps"]) * (4 * obs + 4 * actions + 16)
    return parts


def available_memory() -> int | None:
    """Bytes this machine can give a new process now (MemAvailable), or None when unknown."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    with contextlib.suppress(OSError, ValueError, AttributeError):
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    return None


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 / 10 else f"{n / 2**20:.0f} MiB"


def _check_memory(config: dict[str, Any], game: Any, errors: list[str]) -> None:
    parts = estimate_memory(config, game)
    need = sum(parts.values())
    have = available_memory()
    if have is not None and need > have:
        detail = ", ".join(f"{name} {_gib(size)}" for name, size in parts.items())
        errors.append(f"memory: this config needs at least {_gib(need)} ({detail}), and this machine has "
                      f"{_gib(have)} available; lower training.n_envs, algorithm.hyperparameters.n_steps / "
                      "batch_size or algorithm.network.net_arch")
