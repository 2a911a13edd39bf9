"""Policies trained with RLlib (``backend: rllib``) as arena agents: ``rllib:PATH``.

A policy folder holds the learner's RLModule, saved by RLlib (``rl_module/``), and
``yokai_meta.json`` (env id, env options, observation shape, number of actions, versions),
checked against the env before any weights load, like ``policy:`` checkpoints.

    agents.make("rllib:runs/yonkai_no_yokai/quick_rllib/model", "yonkai_no_yokai_v1")

The agent plays the most likely legal action, or samples (``;deterministic=false``) with its
own seeded generator. Loading needs ray[rllib] (the ``ray`` extra) and torch.

An RLlib checkpoint holds pickled Python objects (RLlib saves the module's class and
constructor arguments with cloudpickle), so loading one runs any code its author put in it.
:func:`save_rllib_policy` signs the folder with this user's key (``yokai_signature.json``: every
file's SHA-256, with an HMAC; yokai_envs/core/signing.py), so a folder you trained yourself loads
as ``rllib:PATH``. Any other (someone else's, or edited since, or saved before folders were
signed) is refused like a legacy SB3 zip unless the caller says it is trusted
(``rllib:PATH;trusted=true``, or ``--trust-pickles``). Its ``yokai_meta.json`` is plain JSON and is
checked first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import Agent
from agents.model_file import RLLIB_CHECKPOINT, require_signed_or_trusted
from agents.policy import META_FORMAT, CheckpointError, check_checkpoint, package_version
from yokai_envs.core.files import parse_json
from yokai_envs.core.signing import sign_folder

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

META_FILE = "yokai_meta.json"
MODULE_DIR = "rl_module"


def save_rllib_policy(module: Any, path: str | Path, env_id: str, env_options: dict[str, Any] | None = None) -> Path:
    """Save an RLModule (the masking PPO module) as a policy folder ``rllib:PATH`` loads, signed
    with this user's key (unsigned when signing is off: then it loads only when trusted)."""
    import shutil

    import ray

    folder = Path(path)
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    module.save_to_path(str((tmp / MODULE_DIR).resolve()))
    space = module.observation_space
    inner = space["observation"] if hasattr(space, "spaces") else space
    meta = {
        "format": META_FORMAT, "env_id": env_id, "env_options": dict(env_options or {}),
        "observation_shape": [int(d) for d in inner.shape], "num_actions": int(module.action_space.n),
        "package_version": package_version(), "algorithm": "RLlib PPO", "ray_version": ray.__version__,
    }
    (tmp / META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True, default=str))
    sign_folder(tmp)
    shutil.rmtree(folder, ignore_errors=True)
    tmp.replace(folder)
    return folder


def read_rllib_meta(path: str | Path) -> dict[str, Any]:
    folder = Path(path)
    if not folder.exists():
        raise CheckpointError(f"rllib policy not found: {str(path)!r}")
    meta_file = folder / META_FILE
    if not folder.is_dir() or not meta_file.is_file() or not (folder / MODULE_DIR).is_dir():
        raise CheckpointError(f"{folder}: not an RLlib policy folder (expected {META_FILE} and {MODULE_DIR}/ "
                              "inside, as written by `yokai train` with backend: rllib)")
    meta = parse_json(meta_file.read_bytes(), str(meta_file), CheckpointError)
    if not isinstance(meta, dict):
        raise CheckpointError(f"{meta_file}: not a JSON object")
    meta["path"] = str(folder)
    return meta


class RLlibAgent(Agent):
    """Acts with a trained RLlib PPO module (see the module docstring)."""

    def __init__(self, path: str | Path, env_id: str, env_options: dict[str, Any] | None = None,
                 deterministic: bool = True, seed: int | None = None, trusted: bool = False) -> None:
        super().__init__(seed)
        self.meta = read_rllib_meta(path)
        check_checkpoint(self.meta, env_id, env_options)
        require_signed_or_trusted(self.meta["path"], trusted, f"rllib:{path}", RLLIB_CHECKPOINT,
                                  f"rllib:{path};trusted=true")
        self.path = self.meta["path"]
        self.deterministic = deterministic
        try:
            import torch
            from ray.rllib.core.rl_module.rl_module import RLModule
            from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
        except ImportError as exc:
            raise ImportError(f"rllib:{path} needs ray[rllib] and torch: "
                              f"pip install 'yokai-envs[ray]' ({exc})") from None
        self._torch = torch
        module = RLModule.from_checkpoint(str((Path(self.path) / MODULE_DIR).resolve()))
        if not isinstance(module, TorchRLModule):
            raise CheckpointError(f"{self.path}: the module is a {type(module).__name__}, not a torch RLModule")
        module.eval()
        self.module = module

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        torch = self._torch
        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32)).unsqueeze(0)
        mask = torch.as_tensor(np.asarray(action_mask, dtype=np.float32)).unsqueeze(0)
        with torch.no_grad():
            out = self.module.forward_inference({"obs": {"observation": obs, "action_mask": mask}})
            logits = out["action_dist_inputs"][0].double()
            probs = torch.softmax(logits, dim=-1).numpy()
        probs = np.where(action_mask, probs, 0.0)
        total = probs.sum()
        if total <= 0:
            probs, total = np.asarray(action_mask, dtype=np.float64), float(np.count_nonzero(action_mask))
        return probs / total

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        if not np.any(action_mask):
            raise ValueError("rllib agent: the action mask has no legal action")
        probs = self.action_probabilities(observation, action_mask)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(probs.size, p=probs))
