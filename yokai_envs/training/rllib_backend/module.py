"""PPO RLModule that applies the legal-action mask (RLlib's new API stack).

The env's observations are PettingZoo's ``{"observation": Box, "action_mask": Box}`` dicts.
The module builds RLlib's default PPO networks over the ``observation`` part only, and after
every forward pass (inference, exploration and training alike) sets the logits of illegal
actions to the most negative float, so they get probability 0 and are never sampled. A row
whose mask is all zeros (the final observation of a finished game, used only for the value
bootstrap) is left unmasked instead of producing NaNs.

Adapted from RLlib's ``examples/rl_modules/classes/action_masking_rlm.py``, with the
PettingZoo key names and without mutating the batch it is given.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

OBS_KEY = "observation"
MASK_KEY = "action_mask"


def apply_mask(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal action at FLOAT_MIN (rows without any legal action untouched)."""
    legal = mask.to(torch.bool)
    legal = legal | ~legal.any(dim=-1, keepdim=True)
    return torch.where(legal, logits, torch.full_like(logits, FLOAT_MIN))


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module over ``obs["observation"]``, masked by ``obs["action_mask"]``."""

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {OBS_KEY, MASK_KEY}:
            raise ValueError(f"MaskedPPOTorchRLModule needs a Dict observation space with keys {OBS_KEY!r} and "
                             f"{MASK_KEY!r} (PettingZoo's classic-game layout), got {observation_space}")
        self._space_with_mask = observation_space
        # The catalog builds the networks for the inner observation only.
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):  # already split (e.g. compute_values after _forward_train)
            return None, batch
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS_KEY]
        return obs[MASK_KEY], inner

    def _masked(self, out: dict[str, Any], mask: Any) -> dict[str, Any]:
        if mask is not None:
            out[Columns.ACTION_DIST_INPUTS] = apply_mask(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        _, inner = self._split(batch)
        return super().compute_values(inner, embeddings)
