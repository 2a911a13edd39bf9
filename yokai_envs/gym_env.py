"""Retired: the single-seat gymnasium env is :mod:`yokai_envs.training.gym_env` (it needs the bots,
so it sits above them in the layers); ``from yokai_envs.training import make_gym`` is the way in."""

from yokai_envs import moved_message

raise ImportError(moved_message("yokai_envs.gym_env", "yokai_envs.training.gym_env"), name="yokai_envs.gym_env")
