"""Yonkai no Yokai as a PettingZoo AEC env (``yonkai_no_yokai_v1``), 3 or 4 players.

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
``n`` = number of players; every entry in [0, 1]):

| name | width | meaning |
|---|---|---|
| hand | 6 | own copies of each value 1..6, / copies of a value (8 or 10) |
| hand_sizes | n | cards held by each seat, / cards dealt (16 or 15) |
| cubes | n | life cubes left, / 4 |
| button_available | n | 1 = the Elevator Button is in hand |
| passed | n | 1 = sitting out the current trick |
| to_act | n | one-hot: whose decision it is (all 0 once the game is over or truncated) |
| descending | 1 | 1 = the Direction card shows Descending |
| leading | 1 | 1 = the trick is at its lead |
| last_count | 4 | one-hot count of the trick's last play |
| last_value | 6 | one-hot value of the trick's last play |
| last_player | n | one-hot seat that made it (all 0 at a lead) |
| played_by_seat | 6n | per seat (row of 6): copies of each value it played this round, / copies of a value |
| passed_on | 24n | per seat (row of 24 by play index): 1 = open to it at one of its passes this round |
| round | 1 | rounds completed, / the cap or else the most rounds a game can last (6 or 7) |

No other seat's hand appears. ``state()`` holds every hand (seat order) followed by the
public fields in absolute seat order. With ``history=K`` the observation is a dict with the last
K events the seat saw (the event table is in the package README).
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from yokai_envs.envs.aec import YokaiAECEnv, wrap
from yokai_envs.yonkai_no_yokai import ENV_ID
from yokai_envs.yonkai_no_yokai.game import YonkaiGame


class raw_env(YokaiAECEnv):
    game_class = YonkaiGame
    metadata = {"name": ENV_ID, "render_modes": ["ansi", "human"], "is_parallelizable": False}


def env(**options: Any) -> AECEnv:
    return wrap(raw_env(**options))
