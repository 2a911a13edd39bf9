"""Action spaces that know the pending decision.

:class:`LegalDiscrete` is a ``gymnasium.spaces.Discrete`` whose ``sample()`` called without a mask
draws among the legal actions of its agent's pending decision (uniformly, from the space's own
seeded generator), so the loops PettingZoo's docs and test kit write
(``env.action_space(agent).sample()``) play legal games. ``contains``, ``n``, equality and an
explicit ``sample(mask)`` are those of ``Discrete``; with no decision pending (another agent's
turn, the game over, before ``reset``) it samples the whole space like ``Discrete``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose mask-less ``sample()`` draws a legal action (see the module)."""

    def __init__(self, n: int, legal_mask: Callable[[], np.ndarray | None], seed: Any = None) -> None:
        super().__init__(n, seed=seed)
        self._legal_mask = legal_mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            legal = self._legal_mask()
            if legal is not None and legal.any():
                mask = np.asarray(legal, dtype=np.int8)
        return super().sample(mask=mask, probability=probability)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, spaces.Discrete) and self.n == other.n and self.start == other.start

    __hash__ = spaces.Discrete.__hash__
