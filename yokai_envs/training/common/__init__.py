"""The run machinery every training algorithm shares.

- :mod:`~yokai_envs.training.common.schema`: every config key, its type, default and choices.
- :mod:`~yokai_envs.training.common.config`: read, layer (defaults, file, ``--set``, ``--out``), validate.
- :mod:`~yokai_envs.training.common.yaml_io`: safe YAML reading (bounded, no tags, no duplicate keys).
- :mod:`~yokai_envs.training.common.run`: the run folder and what every trainer shares.
- :mod:`~yokai_envs.training.common.safety`: the run marker, atomic writes, the signal guard.
- :mod:`~yokai_envs.training.common.hooks`: your reward and wrappers by import path.
- :mod:`~yokai_envs.training.common.memory`: the memory a config needs, checked before it starts.
- :mod:`~yokai_envs.training.common.evaluate`: arena evaluation of a checkpoint against bots.
- :mod:`~yokai_envs.training.common.policies`: the centralized-critic policy.
- :mod:`~yokai_envs.training.common.plot`: the learning-curve PNG.
- :mod:`~yokai_envs.training.common.shipped`: the configs shipped in the package.
- :mod:`~yokai_envs.training.common.exploit_refs`: reference points for ``yokai exploit``.
- :mod:`~yokai_envs.training.common.exploit_curve`: best responses at several budgets and seeds.
"""
