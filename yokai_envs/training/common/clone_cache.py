"""Behaviour clones kept for reuse: a curve of best responses clones each seed's teacher once.

``yokai exploit --warm-start heuristic --budgets A,B,C`` starts every best response with the same
behaviour cloning (the config's ``pretrain``), and the clone does not depend on the budget: only
on the inputs listed in :data:`CLONE_INPUTS`, the model files the players named there read, and
the package's code. Cloning is deterministic given those (the same seed gives bitwise the same
weights, in any process), and so are the states it leaves the global random generators in (a
network opponent, built at its first game, draws from torch's). The first run that clones saves
the whole policy (actor and critic) and those states as a model file pair of ``kind:
"training_state"`` (agents/model_file.py: safetensors and a JSON card, never a pickle) named by
the hash of those inputs. A later run with the same hash loads both instead of cloning, and builds
the opponents of the clone's first game (a ``policy:`` opponent is shared with the training envs,
training/gym_env.py: ``Trainer.pretrain``), so it trains exactly as after cloning in the process
that made the clone. Its config is untouched (still ``pretrain.imitate``), so it reads back as the
same warm start. CUDA's generator is not kept: a run on the GPU is not bitwise repeatable anyway.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: The config entries a clone is made from (training/algorithms/imitation.py via the trainer's
#: ``pretrain``): the game and its training env (wrappers, reward hook, the bots the teacher plays
#: against), the network and algorithm it is built with, the teacher and fit settings, and the
#: seed, device, threads and start of the network. The budget, evaluation and output act only
#: after the clone, and the clone plays one env of its own whatever the training envs' number and
#: kind (the same weights with 2 or 5 of them), so runs that differ in those share it.
CLONE_INPUTS: tuple[tuple[str, ...], ...] = (
    ("backend",), ("game",), ("env",), ("reward",), ("algorithm",), ("opponents",), ("pretrain",),
    ("training", "seed"), ("training", "device"), ("training", "torch_threads"), ("training", "init_from"))

POLICY = "policy."
TORCH_GENERATOR, NUMPY_GENERATOR, PYTHON_GENERATOR = "generator.torch", "generator.numpy", "generator.python"
MERSENNE_WORDS = 624  # numpy's and Python's generators are Mersenne twisters (Python's state adds its position)


def _entry(config: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = config
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _model_files(config: dict[str, Any]) -> dict[str, str | None]:
    """The model files the clone's players and start read, by their digests: a path in an
    unchanged config may hold another network by now (a retrained opponent)."""
    from agents.spec_files import file_digest, spec_paths

    texts = [bot["spec"] for bot in config["opponents"]["bots"]] + [config["pretrain"]["imitate"]]
    files = {path: file_digest(path) for text in texts
             for path in spec_paths(text, config["game"]["env_id"], config["game"]["options"])}
    start = config["training"]["init_from"]
    if start:
        files[str(start)] = file_digest(str(start))
    return files


def clone_key(config: dict[str, Any]) -> str:
    """The hash of everything the config's behaviour clone depends on (see :data:`CLONE_INPUTS`)."""
    import yokai_envs

    inputs = {".".join(path): _entry(config, path) for path in CLONE_INPUTS}
    inputs["model_files"] = _model_files(config)
    inputs["package_version"] = yokai_envs.__version__
    text = json.dumps(inputs, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def clone_file(folder: Path, key: str) -> Path:
    return folder / f"clone_{key}.safetensors"


@dataclass(frozen=True)
class SavedClone:
    """A clone read back and checked against the network it is for; nothing applied yet."""

    path: Path
    result: dict[str, Any]
    policy: dict[str, Any]  # tensors by state_dict name
    generators: dict[str, Any]  # the tensors of the three generators' states
    scalars: dict[str, Any]  # and the rest of numpy's and Python's


def save_clone(model: Any, folder: Path, key: str, result: dict[str, Any], env_id: str,
               options: dict[str, Any]) -> Path:
    """Keep ``model``'s freshly cloned policy, the random generators as cloning left them and the
    pretrain numbers the run recorded, for the next run with the same ``key``."""
    import torch

    import yokai_envs
    from agents.model_file import policy_card, write_model_file

    policy = model.policy
    _, numpy_keys, numpy_pos, has_gauss, cached_gaussian = np.random.get_state()
    version, python_state, gauss_next = random.getstate()
    tensors = {POLICY + name: value for name, value in policy.state_dict().items()}
    tensors.update({TORCH_GENERATOR: torch.get_rng_state(),
                    NUMPY_GENERATOR: torch.as_tensor(np.asarray(numpy_keys, dtype=np.int64)),
                    PYTHON_GENERATOR: torch.as_tensor(python_state, dtype=torch.int64)})
    scalars = {"numpy": [int(numpy_pos), int(has_gauss), float(cached_gaussian)],
               "python": [int(version), gauss_next]}
    card = {"env_id": env_id, "env_options": dict(options), "play": {"deterministic": True}, "num_timesteps": 0,
            "package_version": yokai_envs.__version__, "clone_key": key, "pretrain": result, "generators": scalars,
            **policy_card(policy, kind="training_state")}
    return write_model_file(clone_file(folder, key), tensors, card)


def find_clone(model: Any, folder: Path, key: str) -> SavedClone | None:
    """The saved clone of ``key`` when there is one that fits ``model``'s network (None: clone
    afresh; a file half written by a killed run, or edited, is not one)."""
    import torch

    from agents.model_file import ModelFileError, policy_card, read_card, read_tensors

    path = clone_file(folder, key)
    if not path.is_file():
        return None
    try:
        card = read_card(path)
        expected = policy_card(model.policy, kind="training_state")
        if card.get("clone_key") != key or any(card.get(k) != v for k, v in expected.items()):
            return None
        tensors = read_tensors(card)
    except ModelFileError:
        return None
    policy = {name[len(POLICY):]: t for name, t in tensors.items() if name.startswith(POLICY)}
    generators = {name: t for name, t in tensors.items() if not name.startswith(POLICY)}
    mine = model.policy.state_dict()
    scalars, result = card.get("generators"), card.get("pretrain")
    if set(policy) != set(mine) or any(t.shape != mine[n].shape or t.dtype != mine[n].dtype for n, t in policy.items()):
        return None
    if set(generators) != {TORCH_GENERATOR, NUMPY_GENERATOR, PYTHON_GENERATOR} \
            or generators[TORCH_GENERATOR].shape != torch.get_rng_state().shape \
            or generators[NUMPY_GENERATOR].numel() != MERSENNE_WORDS \
            or generators[PYTHON_GENERATOR].numel() != MERSENNE_WORDS + 1:
        return None
    if not (isinstance(scalars, dict) and len(scalars.get("numpy") or ()) == 3
            and len(scalars.get("python") or ()) == 2 and isinstance(result, dict)):
        return None
    return SavedClone(path, result, policy, generators, scalars)


def apply_clone(clone: SavedClone, model: Any) -> dict[str, Any]:
    """Put the clone into ``model``'s policy and the random generators where cloning left them;
    the pretrain numbers of the run that made it, with ``reused_from``."""
    import torch

    model.policy.load_state_dict(clone.policy, strict=True)
    pos, has_gauss, cached_gaussian = clone.scalars["numpy"]
    version, gauss_next = clone.scalars["python"]
    torch.set_rng_state(clone.generators[TORCH_GENERATOR])
    np.random.set_state(("MT19937", clone.generators[NUMPY_GENERATOR].numpy().astype(np.uint32), pos, has_gauss,
                         cached_gaussian))
    random.setstate((version, tuple(int(v) for v in clone.generators[PYTHON_GENERATOR].tolist()), gauss_next))
    return {**clone.result, "reused_from": str(clone.path)}
