"""Env adapters over the Game contract.

* ``aec``: the generic PettingZoo AEC env every game's ``env.py`` subclasses.
* ``spaces``: ``LegalDiscrete``, whose unmasked ``sample()`` draws a legal action.
* ``parallel``: a Parallel view of the turn-based games, and ``pettingzoo_module`` for the test kit.
* ``flat``: Box-only observations with the mask appended (SuperSuit).
* ``vector``: SuperSuit's vector path into Stable-Baselines3, with masks for MaskablePPO.
* ``gymnasium_ids``: ``gymnasium.make("yokai_envs/<game>-v<N>")`` ids for the single-seat env.
* ``openspiel``: every env id as a pyspiel python game.

Layer 3 of the package (core -> games -> envs -> agents -> training/play/cli); the single-seat
gymnasium env needs bots, so it lives above them in :mod:`yokai_envs.training.gym_env`. Nothing
here is imported by ``import yokai_envs``; ``vector`` needs SuperSuit and SB3, ``openspiel``
needs open_spiel.
"""
