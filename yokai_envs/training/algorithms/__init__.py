"""One module per training algorithm; each reads its own section of the config.

- :mod:`~yokai_envs.training.algorithms.ppo`: the SB3 run (MaskablePPO, opponent pools, self-play,
  callbacks, final evaluation); it starts the others when their section is on.
- :mod:`~yokai_envs.training.algorithms.imitation`: behaviour cloning before PPO (``pretrain``).
- :mod:`~yokai_envs.training.algorithms.dmc`: Deep Monte-Carlo (``dmc``).
- :mod:`~yokai_envs.training.algorithms.distill`: search distillation by rounds (``distill``).
- :mod:`~yokai_envs.training.algorithms.league`: a main agent against exploiters of itself,
  past generations and bots (``league``).
- :mod:`~yokai_envs.training.algorithms.yonkai_lookahead`: Yonkai no Yokai only, distillation
  from a privileged one-move-lookahead teacher (``lookahead``).
"""
