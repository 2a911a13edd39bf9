"""Env adapters over the Game contract: the generic PettingZoo AEC env (``aec``).

Layer 2 of the package (core -> games -> envs -> agents -> training/play/cli); the single-seat
gymnasium env needs bots, so it lives above them in :mod:`yokai_envs.training.gym_env`.
"""
