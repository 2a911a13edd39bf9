"""Trained MaskablePPO policies as agents, loaded from weights-only model files.

A model file is ``NAME.safetensors`` with its card (see :mod:`agents.model_file`): the env id
(with its version), the env options, the observation shape, the number of actions, how to build
the network and how it plays. :class:`PolicyAgent` checks the card against the env before
loading any weights, so a model trained for another game, version or spaces fails with a clear
error, and loading runs no pickle.

A legacy SB3 ``.zip`` is refused unless the caller says it is trusted (``policy:PATH;trusted=true``,
``--trust-pickles``): its members are pickles, and loading one runs any code its author put in it.

A network numpy can run (every one a card names today) plays through numpy forward passes built
from the file (:mod:`agents.networks`): torch / stable-baselines3 / sb3-contrib are imported only
for a legacy zip, or when something asks for :attr:`PolicyAgent.policy` (SB3's own module).
"""

from __future__ import annotations

import copy
import warnings
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import Agent
from agents.model_file import (
    ModelFileError,
    check_playing,
    is_pickled_zip,
    model_path,
    read_card,
    read_tensors,
    require_one_network,
    require_trusted,
)
from agents.networks import Networks, load_networks
from yokai_envs.core.files import parse_json

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

META_MEMBER = "yokai_meta.json"
META_FORMAT = 1
#: What an SB3 zip holds besides the metadata; a checkpoint without them cannot load.
MODEL_MEMBERS = ("data", "policy.pth")


class CheckpointError(ModelFileError):
    """A checkpoint that is missing, unreadable, or trained for another env or spaces."""


def package_version() -> str:
    import yokai_envs

    return getattr(yokai_envs, "__version__", "unknown")


def save_checkpoint(model: Any, path: str | Path, env_id: str, env_options: dict[str, Any] | None = None,
                    deterministic: bool = True) -> Path:
    """Save ``model``'s policy as a model file for ``env_id`` (``.safetensors`` appended to a name
    without a suffix); returns the weights' path."""
    from agents.model_file import SUFFIX, save_model

    target = Path(path)
    if not target.suffix:
        target = target.with_name(target.name + SUFFIX)
    return save_model(model, target, {"env_id": env_id, "env_options": dict(env_options or {}),
                                      "play": {"deterministic": deterministic, "temperature": 1.0}})


def policy_weights(path: str | Path) -> dict[str, Any]:
    """The network's tensors in a model file (or, in a legacy zip, its ``policy.pth`` read with
    ``torch.load(weights_only=True)``): no pickled object is ever built (a training run's warm
    start reads these)."""
    source = model_path(path)
    if not is_pickled_zip(source):
        try:
            card = read_card(source)
            require_one_network(card, "and training starts from one network: name one member's own file")
            return dict(read_tensors(card))
        except ModelFileError as err:
            raise CheckpointError(str(err)) from None
    import io

    import torch

    meta = read_pickled_meta(source)
    with zipfile.ZipFile(meta["path"]) as archive:
        raw = archive.read("policy.pth")
    try:
        state = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as err:  # torch refuses anything but tensors and plain containers
        raise CheckpointError(f"{meta['path']}: policy.pth is not plain weights "
                              f"({type(err).__name__}: {err})") from None
    if not isinstance(state, dict):
        raise CheckpointError(f"{meta['path']}: policy.pth is not a mapping of tensors")
    return dict(state)


def read_pickled_meta(path: str | Path) -> dict[str, Any]:
    """The ``yokai_meta.json`` of a legacy SB3 zip checkpoint (no torch, no unpickling)."""
    p = Path(path)
    try:
        with zipfile.ZipFile(p) as archive:
            names = archive.namelist()
            if META_MEMBER not in names:
                raise CheckpointError(f"{p}: not a yokai-envs checkpoint (no {META_MEMBER} inside)")
            missing = [m for m in MODEL_MEMBERS if m not in names]
            if missing:
                raise CheckpointError(f"{p}: incomplete checkpoint: no {', '.join(missing)} inside "
                                      "(only the metadata?)")
            meta = parse_json(archive.read(META_MEMBER), f"{p}: {META_MEMBER}", CheckpointError)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as err:
        raise CheckpointError(f"{p}: not a zip file, or a damaged one ({err})") from None
    except (ValueError, UnicodeDecodeError) as err:
        if isinstance(err, CheckpointError):
            raise
        raise CheckpointError(f"{p}: {META_MEMBER} is not valid JSON ({err})") from None
    if not isinstance(meta, dict):
        raise CheckpointError(f"{p}: {META_MEMBER} is not a JSON object")
    meta["path"] = str(p)
    return meta


def check_checkpoint(meta: dict[str, Any], env_id: str, env_options: dict[str, Any] | None = None) -> None:
    """Raise :class:`CheckpointError` unless the checkpoint fits ``env_id`` with ``env_options``."""
    from yokai_envs.registry import make_game, retired_message

    where = meta.get("path", "checkpoint")
    if meta.get("env_id") != env_id:
        retired = retired_message(str(meta.get("env_id")))
        raise CheckpointError(f"{where} was trained for {meta.get('env_id')!r}, not {env_id!r}"
                              + (f"; {retired}" if retired else ""))
    game = make_game(env_id, **(env_options or {}))
    expected_obs = [int(game.observation_size)]
    if list(meta.get("observation_shape", [])) != expected_obs:
        raise CheckpointError(f"{where}: observation shape {meta.get('observation_shape')} does not match "
                              f"{env_id} with options {env_options or {}} (shape {expected_obs})")
    if meta.get("num_actions") != game.num_actions:
        raise CheckpointError(f"{where}: {meta.get('num_actions')} actions, but {env_id} has {game.num_actions}")
    trained = meta.get("env_options", {})
    defaults = type(game).OPTIONS  # an option left at its default is the same game as one spelled out
    if {**defaults, **trained} != {**defaults, **(env_options or {})}:
        warnings.warn(f"{where} was trained with env options {trained}, evaluated with {env_options or {}}",
                      stacklevel=2)


class PolicyAgent(Agent):
    """Acts with a MaskablePPO policy: the most likely legal action, or a sample when
    ``deterministic=False`` (sampled with the agent's own seeded rng, not torch's). A mixture
    file (``play.mixture``, agents/model_file.py) draws one of its networks at each
    :meth:`reset` (the start of a game) from the same rng and plays it for the whole game."""

    def __init__(self, path: str | Path, env_id: str, env_options: dict[str, Any] | None = None,
                 deterministic: bool | None = None, seed: int | None = None, trusted: bool = False,
                 temperature: float | None = None) -> None:
        super().__init__(seed)
        self.model: Any = None
        source = model_path(path)
        if is_pickled_zip(source):
            require_trusted(trusted, source)
            self.meta = read_pickled_meta(source)
            check_checkpoint(self.meta, env_id, env_options)
            self.networks = Networks.of_policies([self._load_pickled(self.meta["path"])])
            play: dict[str, Any] = {}
        else:
            try:
                self.meta = read_card(source)
                check_checkpoint(self.meta, env_id, env_options)  # before any weight is read
                check_playing(self.meta)
                self.networks = load_networks(self.meta)
            except CheckpointError:
                raise
            except ModelFileError as err:
                raise CheckpointError(str(err)) from None
            play = self.meta["play"]
        self.path = self.meta["path"]
        # how the card says it plays, unless the spec says otherwise
        self.deterministic = bool(play.get("deterministic", True)) if deterministic is None else deterministic
        self.temperature = float(play.get("temperature", 1.0)) if temperature is None else temperature
        weights = np.asarray(play.get("mixture") or [1.0], dtype=np.float64)
        self.mixture = weights / weights.sum()
        self.member = 0
        self._forward = self.networks.forwards[0]
        self._draw_member()
        self._last_probs: np.ndarray | None = None

    @property
    def policy(self) -> Any:
        """The SB3 policy of the network playing now, built with torch on first use (play itself
        runs through the numpy forward whenever there is one)."""
        return self.networks.policies()[self.member]

    def _draw_member(self) -> None:
        if len(self.networks.forwards) > 1:
            self.member = int(self.rng.choice(len(self.networks.forwards), p=self.mixture))
            self._forward = self.networks.forwards[self.member]

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._draw_member()

    def _load_pickled(self, path: str) -> Any:
        """The policy of a trusted SB3 zip (this unpickles it)."""
        from sb3_contrib import MaskablePPO

        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as err:  # a corrupted member: zlib, pickle, torch and json all raise their own
            raise CheckpointError(f"{path}: cannot load the model ({type(err).__name__}: {err})") from None
        return self.model.policy

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        return self.batch_probabilities(np.asarray(observation)[None], np.asarray(action_mask, dtype=bool)[None])[0]

    def batch_probabilities(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The policy's distribution over legal actions for each row (rows sum to 1)."""
        masks = np.array(action_masks, dtype=bool)  # a copy: torch warns on read-only masks
        if self._forward is not None:
            probs = self._forward.probabilities(np.asarray(observations, dtype=np.float32), masks)
        else:
            probs = self.torch_probabilities(observations, masks)
        probs = np.where(masks, probs, 0.0)
        total = probs.sum(axis=1, keepdims=True)
        # numerical underflow on every legal action of a row: that row falls back to uniform
        underflow = total[:, 0] <= 0
        if underflow.any():
            probs[underflow] = masks[underflow]
            total[underflow] = masks[underflow].sum(axis=1, keepdims=True)
        return probs / total

    def sampling_twin(self, seed: int | None = None) -> PolicyAgent:
        """The same network (shared, not loaded again) playing by sampling its distribution, with
        randomness of its own: a search's rollout policy beside this agent's own move."""
        return self.twin(seed, deterministic=False)

    def twin(self, seed: int | None = None, deterministic: bool = True) -> PolicyAgent:
        """The same network (shared, not loaded again) as a separate agent with randomness of its own."""
        twin = copy.copy(self)
        twin.deterministic = deterministic
        twin.reset(seed)
        twin._last_probs = None
        return twin

    def torch_probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The same distribution through SB3's own torch path (masked logits, softmax)."""
        import torch

        with torch.no_grad():
            obs_tensor, _ = self.policy.obs_to_tensor(np.asarray(observations, dtype=np.float32))
            categorical = self.policy.get_distribution(obs_tensor, action_masks=masks).distribution
            assert isinstance(categorical, torch.distributions.Categorical), "one discrete action per decision"
            return categorical.probs.cpu().numpy().astype(np.float64).reshape(masks.shape)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        if not np.any(action_mask):
            raise ValueError("policy agent: the action mask has no legal action")
        probs = self.action_probabilities(observation, action_mask)
        self._last_probs = probs
        if self.deterministic:
            return int(np.argmax(probs))
        if self.temperature != 1.0:
            with np.errstate(divide="ignore"):
                scaled = np.exp((np.log(probs) - np.log(probs.max())) / self.temperature)
            return int(self.rng.choice(probs.size, p=scaled / scaled.sum()))
        return int(self.rng.choice(probs.size, p=probs))

    def last_distribution(self) -> np.ndarray | None:
        """The network's distribution at the last decision (with ``deterministic=True`` the
        action played is its most likely one, so this is the policy's, not the play rule's)."""
        return self._last_probs
