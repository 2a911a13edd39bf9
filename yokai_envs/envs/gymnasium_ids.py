"""gymnasium ids for the single-seat envs: ``gymnasium.make("yokai_envs/yonkai_no_yokai-v1")``.

Each env id ``<name>_v<N>`` is registered as ``yokai_envs/<name>-v<N>``, built by
:func:`yokai_envs.training.make_gym` with ``opponents=["random"]`` unless you pass others (keyword
arguments of ``gymnasium.make`` go to ``make_gym``: ``opponents``, ``learner_seat``, game
options, ``mask_in_infos``...). ``gymnasium.make_vec`` works with the same ids.

Importing ``yokai_envs`` does not import gymnasium; the ids are registered when this module is
imported, which ``import yokai_envs`` does by itself when gymnasium is already loaded, and
``yokai_envs.register_gymnasium()`` does on demand::

    import gymnasium as gym
    import yokai_envs

    env = gym.make("yokai_envs/yonkai_no_yokai-v1", num_players=4)
    # or, in any order: gym.make("yokai_envs:yokai_envs/yonkai_no_yokai-v1")
"""

from __future__ import annotations

import gymnasium

from yokai_envs.registry import ENV_IDS

NAMESPACE = "yokai_envs"
ENTRY_POINT = "yokai_envs.training.gym_env:make_gym"


def gym_id(env_id: str) -> str:
    """``yonkai_no_yokai_v1`` -> ``yokai_envs/yonkai_no_yokai-v1``."""
    name, _, version = env_id.rpartition("_v")
    return f"{NAMESPACE}/{name}-v{version}"


#: env id -> gymnasium id
GYM_IDS: dict[str, str] = {env_id: gym_id(env_id) for env_id in ENV_IDS}


def register() -> list[str]:
    """Register every id (idempotent); returns the gymnasium ids."""
    for env_id, gid in GYM_IDS.items():
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point=ENTRY_POINT,
                               kwargs={"env_id": env_id, "opponents": ["random"]})
    return list(GYM_IDS.values())


register()
