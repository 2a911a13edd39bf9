"""Yonkai no Yokai: a 3-4 player climbing/shedding game (``yonkai_no_yokai_v1``).

Modules: ``state`` (the table as plain data, ``State``), ``moves`` (the move tables), ``rules``
(the transitions, over ``(state, ctx)``), ``actions`` (the action table), ``observation`` (what
a seat sees, the state tensor), ``view`` (text and table views), ``game`` (the Game contract),
``env`` (the PettingZoo env), ``vector`` + ``vector_kernels`` (many games at once, numba). The
observation layout and the action table are in README.md beside this file.
"""

#: The env id: this package's name and its env version. The one place it is written: the game,
#: its envs and the registry read it. Bump the version on any change to the rules, observations,
#: masks or rewards (CHANGELOG.md; the registry then retires the old id with the reason).
ENV_ID = "yonkai_no_yokai_v1"
