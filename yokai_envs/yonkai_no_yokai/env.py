"""Yonkai no Yokai as a PettingZoo AEC env (``yonkai_no_yokai_v0``), 3 or 4 players.

Options: ``num_players`` (3 or 4, default 4), ``reward`` (``"win"``: +1 to each winner and -1 to
every other seat at the game end; ``"lives"``: at each round end, minus the cubes each seat
actually lost), ``rounds_per_game`` (None: play to the end; an int caps the rounds),
``max_steps`` (hard step cap, default 5000), and the env options ``render_mode`` and
``illegal_action`` ("raise" or "penalize").

Action table (49 actions, fixed):

| action | meaning |
|---|---|
| 0 | pass (never legal for a trick's leader) |
| 1 + 6*(count-1) + (value-1) | play ``count`` cards of ``value`` without the button (1..24) |
| 25 + 6*(count-1) + (value-1) | use the Elevator Button, flip the direction and play them (25..48) |

A button play is masked wherever the same play is already legal without the button.

Observation layout (``env.observation_layout``; seats relative to the observer, self first;
``n`` = number of players):

| name | width | meaning |
|---|---|---|
| hand | 6 | own copies of each value 1..6 |
| hand_sizes | n | cards held by each seat |
| cubes | n | life cubes left |
| button_available | n | 1 = the Elevator Button is in hand |
| passed | n | 1 = sitting out the current trick |
| to_act | n | one-hot: whose decision it is |
| descending | 1 | 1 = the Direction card shows Descending |
| leading | 1 | 1 = the trick is at its lead |
| last_count | 4 | one-hot count of the trick's last play |
| last_value | 6 | one-hot value of the trick's last play |
| last_player | n | one-hot seat that made it |
| played_this_round | 6 | copies of each value played this round (public) |

No other seat's hand appears. ``state()`` holds every hand (seat order) followed by the
public fields in absolute seat order.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from yokai_envs.envs.aec import YokaiAECEnv, wrap
from yokai_envs.yonkai_no_yokai.game import YonkaiGame


class raw_env(YokaiAECEnv):
    game_class = YonkaiGame
    metadata = {"name": "yonkai_no_yokai_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}


def env(**options: Any) -> AECEnv:
    return wrap(raw_env(**options))
