"""Game-independent machinery: the Game contract, the generic AEC env, errors."""

from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.core.game import Game

__all__ = ["ConfigError", "Game", "IllegalActionError"]
