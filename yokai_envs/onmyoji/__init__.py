"""Onmyoji: three nights (``onmyoji_v5``): Solo, Duel and Co-op; AEC and Parallel PettingZoo envs.

``yokai_envs.make("onmyoji_v5", mode=...)`` gives the AEC env (module ``yokai_envs.onmyoji.env``);
``yokai_envs.onmyoji.parallel_env(mode=...)`` the Parallel one. Importing this package imports no
gymnasium/pettingzoo.

Modules: ``state`` (the table as plain data, enums, players, enemies), ``rules`` (the flow),
``decisions`` (masks and what each decision does), ``effects`` (effect vocabulary, targets, damage,
falls) -- the rules are functions over ``(state, ctx)`` --, ``actions`` (the action table),
``observation`` (observation and state tensors, hidden-place sampling), ``game`` (the Game contract),
``view`` (text and table views), ``invariants``, ``cards`` (+ ``cards.yaml``) and ``env``.
"""

from __future__ import annotations

from typing import Any

#: The env id: this package's name and its env version. The one place it is written: the game,
#: its envs and the registry read it. Bump the version on any change to the rules, observations,
#: masks or rewards (CHANGELOG.md; the registry then retires the old id with the reason).
ENV_ID = "onmyoji_v5"



def parallel_env(**options: Any):
    """PettingZoo Parallel API over the same Game (every live seat acts each step)."""
    from yokai_envs.onmyoji.env import parallel_env as _parallel_env
    return _parallel_env(**options)
