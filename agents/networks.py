"""A model file's networks for play: numpy forward passes built from the file, torch on demand.

Importing torch and stable-baselines3 and building the SB3 module costs a process about 2 s of
CPU, more than everything else an arena worker, a ``yokai score`` cell or ``yokai serve`` does
before its first move. The actor of a network a card can name (a plain MLP over a flat
observation) is a few matrix products, so :func:`load_networks` builds its
:class:`NumpyForward` straight from the file's float32 tensors, checked against the card's
network first, and builds the torch policy only when something asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.model_file import (
    ACTIVATIONS,
    check_fit,
    members,
    network_layers,
    policies_of,
    read_arrays,
    read_tensors,
)

Activation = Callable[[np.ndarray], np.ndarray]

#: torch.nn class name (the values of model_file.ACTIVATIONS) -> the same function in numpy, with
#: torch's default parameters (the ones build_policy uses).
NUMPY_ACTIVATIONS: dict[str, Activation] = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
    "ELU": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0.0))),
    "LeakyReLU": lambda x: np.where(x > 0, x, 0.01 * x),
}


class NumpyForward:
    """The policy head of an MLP MaskablePPO policy as numpy matrix products.

    A decision of a trained agent is one small forward pass; through torch and SB3's masked
    distribution it costs 0.3-1 ms, most of it call overhead, which a search that rolls out with
    the network pays thousands of times a decision. The weights are copied once (float32, as
    torch computes) and the masked softmax is the one SB3's distribution takes.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray, Activation | None]]) -> None:
        self.layers = layers  # (weight transposed, bias, activation or None)

    @staticmethod
    def _layer(weight: Any, bias: Any, activation: Activation | None) -> tuple[np.ndarray, np.ndarray,
                                                                                Activation | None]:
        # One copy of the same float32 numbers in the same memory layout, whatever they came
        # from: the products, and so the actions, are bit-identical either way.
        return (np.asarray(weight).astype(np.float32).T.copy(), np.asarray(bias).astype(np.float32), activation)

    @classmethod
    def of(cls, policy: Any) -> NumpyForward | None:
        """The numpy forward of ``policy``, or None when it is not a plain MLP over a flat
        observation (another feature extractor, activation or layer type keeps torch)."""
        from torch import nn

        if type(policy.pi_features_extractor).__name__ != "FlattenExtractor":
            return None
        layers: list[tuple[np.ndarray, np.ndarray, Activation | None]] = []
        for module in [*policy.mlp_extractor.policy_net, policy.action_net]:
            if isinstance(module, nn.Linear):
                layers.append(cls._layer(module.weight.detach().cpu().numpy(), module.bias.detach().cpu().numpy(),
                                         None))
            elif type(module).__name__ in NUMPY_ACTIVATIONS and layers and layers[-1][2] is None:
                if type(module).__name__ == "LeakyReLU" and module.negative_slope != 0.01:
                    return None
                weight, bias, _ = layers[-1]
                layers[-1] = (weight, bias, NUMPY_ACTIVATIONS[type(module).__name__])
            else:
                return None
        return cls(layers) if layers and layers[-1][2] is None else None

    @classmethod
    def of_card(cls, card: dict[str, Any], tensors: dict[str, np.ndarray]) -> NumpyForward:
        """The numpy forward of the network ``card`` names holding ``tensors`` (one network's,
        already checked to fit it: :func:`agents.model_file.check_fit`), without torch."""
        activation = card_activation(card)
        assert activation is not None, "a card numpy cannot run is played through torch"
        actor, _ = network_layers(card)
        return cls([cls._layer(tensors[f"{prefix}.weight"], tensors[f"{prefix}.bias"],
                               None if prefix == actor[-1][0] else activation) for prefix, _, _ in actor])

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Each row's masked softmax over the action logits (float64, rows sum to 1)."""
        x = observations.reshape(len(observations), -1)
        for index, (weight, bias, activation) in enumerate(self.layers):
            if index == 0 and len(x) == 1:
                # Observations are mostly zeros (one-hot planes): only their nonzero rows of the
                # first weight matter, a small fraction of what a dense product reads.
                nonzero = np.flatnonzero(x[0])
                x = (x[0, nonzero] @ weight[nonzero])[None] + bias
            else:
                x = x @ weight + bias
            if activation is not None:
                x = activation(x)
        logits = np.where(masks, x.astype(np.float64), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        return probs / probs.sum(axis=1, keepdims=True)


def card_activation(card: dict[str, Any]) -> Activation | None:
    """The numpy activation of the network ``card`` names, or None when numpy cannot run it
    (a network the trainer builds, an activation without a numpy counterpart)."""
    if card["policy_class"] != "MaskableActorCriticPolicy" or len(card["observation_shape"]) != 1:
        return None
    return NUMPY_ACTIVATIONS.get(ACTIVATIONS[card["activation"]])


class Networks:
    """A model file's networks, shared by an agent and its twins: each one's numpy forward (None
    where numpy cannot run it) and their torch policies, built on first use."""

    def __init__(self, forwards: list[NumpyForward | None], policies: list[Any] | Callable[[], list[Any]]) -> None:
        self.forwards = forwards
        self._policies = policies

    def policies(self) -> list[Any]:
        """The torch (SB3) policies, in the order of :attr:`forwards` (this imports torch once)."""
        policies = self._policies
        if callable(policies):  # two threads asking at once build it twice, the same network
            policies = self._policies = policies()
        return policies

    @classmethod
    def of_policies(cls, policies: list[Any]) -> Networks:
        """Networks already built with torch (a trusted zip's, a card numpy cannot run)."""
        for policy in policies:
            policy.set_training_mode(False)
        return cls([NumpyForward.of(policy) for policy in policies], policies)


def load_networks(card: dict[str, Any]) -> Networks:
    """The networks of the playing model ``card`` was read from (``read_card``'s result): numpy
    forwards and no torch when numpy can run them, else the torch policies as before. Either way
    the tensors must have the digest the card records and fit the card's network exactly."""
    if card_activation(card) is None:
        return Networks.of_policies(policies_of(card, read_tensors(card)))
    arrays = read_arrays(card)
    groups = members(card, arrays)
    for where, group in groups:
        check_fit(card, group, where)

    def torch_policies() -> list[Any]:
        import torch

        # the same verified numbers the forwards hold, not the file read again
        return policies_of(card, {name: torch.from_numpy(array.copy()) for name, array in arrays.items()})

    return Networks([NumpyForward.of_card(card, group) for _, group in groups], torch_policies)
