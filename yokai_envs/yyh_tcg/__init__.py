"""Yu Yu Hakusho TCG (``yyh_tcg_v6``), 2 players.

Modules: ``cards`` (pool loader/validator, ``cards.yaml``), ``decks`` (starter decks in
``starter_decks.yaml``, deck files, construction rules), ``effects`` (the effects vocabulary
and its one interpreter), ``state`` (phases, zones and slots, the table as plain data:
``State``), ``moves`` (draw, mill, search, flipping and paying, Team Bonus, game end),
``rules`` (setup, turns, attacks, damage, matches), ``decisions`` (the pending decision: its
legal actions and applying one), ``invariants``, ``hidden`` (determinize's resampling),
``actions`` (action table), ``observation`` (observation vector), ``view`` (text and table
views), ``game`` (the Game contract), ``env`` (PettingZoo AEC). The rules modules are
functions over ``(state, ctx)``.
Rulings: ``RULES_NOTES.md``; observation layout and action table: ``README.md``.
"""

#: The env id: this package's name and its env version. The one place it is written: the game,
#: its envs and the registry read it. Bump the version on any change to the rules, observations,
#: masks or rewards (CHANGELOG.md; the registry then retires the old id with the reason).
ENV_ID = "yyh_tcg_v6"
