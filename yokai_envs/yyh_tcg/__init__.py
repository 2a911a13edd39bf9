"""Yu Yu Hakusho TCG (``yyh_tcg_v0``), 2 players.

Modules: ``cards`` (pool loader/validator, ``cards.yaml``), ``decks`` (starter decks in
``starter_decks.yaml``, deck files, construction rules), ``effects`` (the effects vocabulary
and its one interpreter), ``state`` (zones and slots), ``engine`` (the rules and the pending
decision), ``actions`` (action table), ``encoding`` (observation), ``game`` (the Game contract),
``env`` (PettingZoo AEC). Rulings: ``RULES_NOTES.md``.
"""
