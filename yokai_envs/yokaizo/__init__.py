"""YOKAIZO: a two-player yokai trading-card game (``yokaizo_v4``).

Modules: ``state`` (the table as plain data, constants and enums), ``rules`` (the match flow and
the decision loop; every rule a function over ``(state, ctx)``) with its topics ``moves`` (the card
moves every rule uses), ``attacks`` (the Action phase), ``damage`` (DMG and Banish),
``effects`` (the effect interpreter) and ``picks`` (effect choices); ``actions`` (the action
table), ``observation`` (observation vector, layout, state tensor, hidden places), ``game`` (the
Game contract), ``env`` (PettingZoo), ``view`` (text and table views), ``cards`` (the card pool,
decks and the effects vocabulary, validated on load).
"""

#: The env id: this package's name and its env version. The one place it is written: the game,
#: its envs and the registry read it. Bump the version on any change to the rules, observations,
#: masks or rewards (CHANGELOG.md; the registry then retires the old id with the reason).
ENV_ID = "yokaizo_v4"
