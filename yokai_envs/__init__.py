"""yokai-envs: four yokai card games as PettingZoo reinforcement-learning environments.

    import yokai_envs
    env = yokai_envs.make("yonkai_no_yokai_v0", num_players=4)

Nothing heavy happens on import: games are imported when first made.
"""

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.registry import ENV_IDS, game_class, make, make_game, make_raw

__version__ = "0.1.0"

__all__ = ["ENV_IDS", "ConfigError", "IllegalActionError", "game_class", "make", "make_game", "make_raw"]
