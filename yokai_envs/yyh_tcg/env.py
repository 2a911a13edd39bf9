"""PettingZoo AEC env ``yyh_tcg_v0``: the Yu Yu Hakusho TCG for 2 players.

Observation: ``{"observation": float32 Box in [0, 1], "action_mask": int8}``; the named layout
is ``env.observation_layout`` and is documented in ``yokai_envs.yyh_tcg.encoding`` (phase,
scalars, Team Bonus, own hand/deck/discard, opponent discard, match results, per side five
character slots with identity one-hot + printed features + attachments, the chosen attack).
Actions: the fixed table of ``yokai_envs.yyh_tcg.actions`` (setup picks, 5th fighter, attach
card x target, Events, abilities, printed attacks, Techniques, discards, rage, minimum
damage, done). Options: ``decks=(a, b)`` (starter deck names, deck files or "random"),
``cards`` (card file), ``max_steps``.
"""

from yokai_envs.core.aec import YokaiAECEnv, wrap
from yokai_envs.yyh_tcg.game import YYHGame


class raw_env(YokaiAECEnv):
    game_class = YYHGame
    metadata = {"name": "yyh_tcg_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}


def env(**options):
    return wrap(raw_env(**options))
