"""A centralized critic for MaskablePPO: the critic sees the full state, the actor never does.

With ``algorithm.network.critic_state: true`` the training envs hand out
``observation ++ state_tensor()`` (``make_gym(..., critic_state=True)``). :class:`StateCriticPolicy`
feeds the critic all of it and the actor only the observation part (the state part is zeroed
before the actor's first layer, so no gradient or decision ever depends on hidden cards).
:func:`export_actor` then writes a plain observation-only MaskablePPO with the same actor, which
is what ``agents.make("policy:PATH")``, the arena and self-play opponents load.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class ActorViewExtractor(BaseFeaturesExtractor):
    """Flattens and zeroes everything after the first ``actor_obs_size`` entries (the state)."""

    keep: torch.Tensor  # a registered buffer: it moves with the module's device

    def __init__(self, observation_space: gym.spaces.Space, actor_obs_size: int) -> None:
        shape = observation_space.shape
        if shape is None:
            raise TypeError(f"the actor view needs an observation space with a shape, got {observation_space}")
        size = int(np.prod(shape))
        super().__init__(observation_space, size)
        mask = torch.zeros(size)
        mask[:actor_obs_size] = 1.0
        self.register_buffer("keep", mask)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return torch.flatten(observations, start_dim=1) * self.keep


class StateCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy whose actor sees only the observation part of its input."""

    def __init__(self, *args: Any, actor_obs_size: int, **kwargs: Any) -> None:
        self.actor_obs_size = actor_obs_size
        kwargs["share_features_extractor"] = False
        super().__init__(*args, **kwargs)
        self.pi_features_extractor = ActorViewExtractor(self.observation_space, actor_obs_size)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["actor_obs_size"] = self.actor_obs_size
        return data


class _SpacesOnly(gym.Env):
    """Just the spaces, to build a model that is only ever saved."""

    def __init__(self, observation_space: gym.spaces.Box, action_space: gym.spaces.Discrete) -> None:
        self.observation_space = observation_space
        self.action_space = action_space
        self.num_actions = int(action_space.n)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        return self.observation_space.sample(), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        return self.observation_space.sample(), 0.0, True, False, {}

    def action_masks(self) -> np.ndarray:
        return np.ones(self.num_actions, dtype=bool)


def export_actor(model: Any) -> Any:
    """A plain MlpPolicy MaskablePPO over the observation alone, acting exactly like ``model``,
    with a tiny rollout buffer (a loaded checkpoint allocates n_steps x n_envs observations:
    hundreds of MB for big observations, times every self-play opponent).

    With a centralized critic, the export's critic is a truncated copy (meaningless without the
    state); only acting uses the export.
    """
    policy = model.policy
    n = getattr(policy, "actor_obs_size", int(np.prod(model.observation_space.shape)))
    space = model.observation_space
    obs_space = gym.spaces.Box(low=space.low[:n], high=space.high[:n], dtype=np.float32)
    kwargs = {"net_arch": model.policy_kwargs.get("net_arch"),
              "activation_fn": model.policy_kwargs.get("activation_fn", torch.nn.Tanh)}
    plain = MaskablePPO("MlpPolicy", _SpacesOnly(obs_space, model.action_space), n_steps=8, batch_size=8,
                        policy_kwargs=kwargs, device="cpu")
    source = policy.state_dict()
    target = plain.policy.state_dict()
    for key, value in target.items():
        trained = source[key]
        if trained.shape != value.shape:  # the first layers: keep the observation columns
            trained = trained[:, :n]
        target[key] = trained.detach().clone()
    plain.policy.load_state_dict(target)
    plain.num_timesteps = model.num_timesteps
    return plain
