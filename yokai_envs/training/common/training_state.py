"""What ``yokai train --resume`` continues from, as data: ``checkpoints/resume.safetensors``.

The same file pair as a playing model (agents/model_file.py), with ``kind: "training_state"``:
the whole policy (actor and critic, a centralized critic's too) under ``policy.``, the Adam
moments under ``optimizer.<param index>.<name>``, and on the card the step count, the number of
updates and the moments' scalar entries. ``--resume`` builds the network from the run's own
config (the trainer refuses a resume that changes the game or the network) and loads these
tensors into it; nothing is unpickled. The hyperparameters are the config's (the optimizer's
learning rate is set by SB3 at every update from them).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from agents.model_file import (
    ModelFileError,
    check_weights,
    load_state,
    policy_card,
    read_card,
    read_tensors,
    write_model_file,
)
from yokai_envs.core.errors import ConfigError

POLICY = "policy."
OPTIMIZER = "optimizer."


def save_training_state(model: Any, path: Path, env_id: str, env_options: dict[str, Any]) -> Path:
    """Write ``model`` (a MaskablePPO) with its optimizer as a training-state file."""
    import torch

    policy = model.policy
    tensors = {POLICY + name: value for name, value in policy.state_dict().items()}
    scalars: dict[str, float] = {}
    for index, entries in policy.optimizer.state_dict()["state"].items():
        for name, value in entries.items():
            key = f"{OPTIMIZER}{index}.{name}"
            if isinstance(value, torch.Tensor):
                tensors[key] = value
            else:
                scalars[key] = float(value)
    card = {"env_id": env_id, "env_options": dict(env_options), "play": {"deterministic": True},
            "num_timesteps": int(model.num_timesteps), "n_updates": int(getattr(model, "_n_updates", 0)),
            "optimizer_scalars": scalars, **policy_card(policy, kind="training_state")}
    if hasattr(policy, "actor_obs_size"):
        card["actor_obs_size"] = int(policy.actor_obs_size)
    return write_model_file(path, tensors, card)


def saved_step(path: Path) -> int:
    """The step a training-state file holds (its card, once its weights are checked against it;
    no torch). ConfigError when damaged."""
    try:
        card = read_card(path)
        check_weights(card)
        return int(card["num_timesteps"])
    except ModelFileError as err:
        raise ConfigError(f"--resume: {err}; the run cannot continue from it: start afresh with --overwrite") \
            from None


def load_training_state(model: Any, path: Path) -> None:
    """Put the saved policy, optimizer moments and counters into ``model`` (built from the run's
    config); ConfigError naming the file when it does not fit."""
    import torch

    try:
        card = read_card(path)
        mine = policy_card(model.policy, kind="training_state")
        differ = [key for key, value in mine.items() if card.get(key) != value]
        if card["kind"] != "training_state" or differ:
            raise ModelFileError(f"{path}: not this run's network ({', '.join(differ) or card['kind']} differ)")
        tensors = read_tensors(card)
        load_state(model.policy, {k[len(POLICY):]: v for k, v in tensors.items() if k.startswith(POLICY)}, str(path))
        optimizer = model.policy.optimizer
        current = optimizer.state_dict()
        state: dict[int, dict[str, Any]] = {}
        for key, value in tensors.items():
            if key.startswith(OPTIMIZER):
                position, name = key[len(OPTIMIZER):].split(".", 1)
                state.setdefault(int(position), {})[name] = value
        scalars = card.get("optimizer_scalars", {})
        if not isinstance(scalars, dict):
            raise ModelFileError(f"{path}: optimizer_scalars is not an object")
        for key, value in scalars.items():
            position, name = str(key)[len(OPTIMIZER):].split(".", 1)
            if not (isinstance(value, (int, float)) and math.isfinite(value)):
                raise ModelFileError(f"{path}: optimizer scalar {key} is not a finite number")
            state.setdefault(int(position), {})[name] = value
        params = [p for group in current["param_groups"] for p in group["params"]]
        shapes = {index: tensor.shape for index, tensor in zip(params, model.policy.parameters(), strict=True)}
        for index, entries in state.items():
            if index not in shapes:
                raise ModelFileError(f"{path}: optimizer state for parameter {index}, which the network lacks")
            for name, value in entries.items():
                if isinstance(value, torch.Tensor) and value.dim() > 0 and value.shape != shapes[index]:
                    raise ModelFileError(f"{path}: optimizer {name} of parameter {index} has shape "
                                         f"{tuple(value.shape)}, the parameter {tuple(shapes[index])}")
        optimizer.load_state_dict({"state": state, "param_groups": current["param_groups"]})
        model.num_timesteps = int(card["num_timesteps"])
        model._n_updates = int(card.get("n_updates", 0))
    except (ModelFileError, ValueError, KeyError, RuntimeError) as err:
        raise ConfigError(f"--resume: cannot load {path} ({err}); start afresh with --overwrite") from None
