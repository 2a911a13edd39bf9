"""PettingZoo AEC env ``yyh_tcg_v6``: the Yu Yu Hakusho TCG for 2 players (``player_0``, ``player_1``).

Options: ``decks=(a, b)`` — each a starter deck name ("Urameshi Detectives", "Toguro Brothers",
"Rokuyukai Brawlers", "Saint Beasts Gate", "Spirit World Agents", "Ichigaki Lab", "Masho Squad"),
a deck file (YAML
``{name, cards: {card: copies}}`` or text lines ``3 Rose Whip``), a ``{card: copies}`` mapping,
or ``"random"`` (default; a starter deck per reset); ``cards`` — another card file;
``variant`` — ``"book"`` (default: the rulebook's rules) or ``"balanced"`` (the game's first turn
has no Attack step, RULES_NOTES ruling 3); ``max_steps`` (default 3000). Rewards: +1 / -1 at the
end, 0 for a draw or truncation.

Observation (``env.observation_layout``, float32 in [0, 1]; see ``yyh_tcg.observation``):
``phase`` one-hot; ``scalars`` (turn, Spirit, match wins, hand/deck sizes, 5th placed, guard,
fighter damage and final Defense, pending attack value/power/weaken/extra damage/discards,
damage the attack would deal now); ``my_bonus``/``opp_bonus`` active Team Bonus; ``my_hand``,
``my_deck`` (contents, not order), ``my_discard``, ``opp_discard`` card counts; ``opp_shown`` /
``my_shown`` (searched cards still hidden in hand or face-down); ``opp_unseen`` (the public
decklist less what has been seen); won/lost
characters per side; per side 5 slots (``fighter``, ``line1``..``line4``) with character
identity one-hot, printed features (Defense, alignment, team, attacks' value/cost), face-up
attachment counts, face-down count, and (own side only) which cards are face-down;
``attack_choice``. The opponent's picks stay zero until the simultaneous reveal.

Actions (``yyh_tcg.actions``; ``env.unwrapped.game.action_name(a)``): ``pick`` [character]
(setup), ``fifth`` [character], ``attach`` [Technique/Item x target 0=fighter, 1..4=Sideline],
``event`` [Event], ``ability`` [card with an ability], ``attack_own`` [printed attack 1..2],
``attack_tech`` [Technique], ``discard`` [any card], ``rage``, ``min_damage``, ``search`` [any card]
(take it from your deck), ``pay`` [Technique/Item x slot 0=fighter, 1..4=Sideline] (which turned-up
card to pay for next), ``done``.
"""

from typing import Any

from pettingzoo import AECEnv

from yokai_envs.envs.aec import YokaiAECEnv, wrap
from yokai_envs.yyh_tcg import ENV_ID
from yokai_envs.yyh_tcg.game import YYHGame


class raw_env(YokaiAECEnv):
    game_class = YYHGame
    metadata = {"name": ENV_ID, "render_modes": ["ansi", "human"], "is_parallelizable": False}


def env(**options: Any) -> AECEnv:
    return wrap(raw_env(**options))
