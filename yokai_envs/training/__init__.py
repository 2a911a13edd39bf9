"""Config-driven training: ``yokai train --config configs/<game>/<name>.yaml``.

- :mod:`~yokai_envs.training.schema`: every config key, its type, default and choices.
- :mod:`~yokai_envs.training.config`: read, layer (defaults, file, ``--set``, ``--out``), validate.
- :mod:`~yokai_envs.training.trainer`: the run (vec envs, MaskablePPO, self-play pool, callbacks).
- :mod:`~yokai_envs.training.evaluate`: arena evaluation of a checkpoint against bots.
- :mod:`~yokai_envs.training.plot`: the learning-curve PNG.
- :mod:`~yokai_envs.training.cli`: the ``yokai train`` subcommand.

Nothing here is imported by ``yokai_envs`` itself; torch and SB3 load only when training.
"""
