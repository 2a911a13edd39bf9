"""Yonkai no Yokai: a 3-4 player climbing/shedding game (``yonkai_no_yokai_v1``).

Modules: ``state`` (the table as plain data), ``rules`` (move tables and transitions),
``actions`` (the action table), ``observation`` (what a seat sees, the state tensor), ``view``
(text and table views), ``game`` (the Game contract), ``env`` (the PettingZoo env). The
observation layout and the action table are in README.md beside this file.
"""
