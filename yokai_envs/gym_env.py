"""Moved: the single-seat gymnasium env is :mod:`yokai_envs.training.gym_env` (it needs bots, so it
sits above them). This alias keeps ``from yokai_envs.gym_env import YokaiGymEnv, make_gym`` working;
``yokai_envs.make_gym`` is the documented way in."""

from yokai_envs.training.gym_env import ILLEGAL_ACTION_MODES, ILLEGAL_ACTION_REWARD, YokaiGymEnv, make_gym

__all__ = ["ILLEGAL_ACTION_MODES", "ILLEGAL_ACTION_REWARD", "YokaiGymEnv", "make_gym"]
