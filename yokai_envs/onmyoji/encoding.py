"""The action table and the observation encoder of ``onmyoji_v0``.

Action table (86 actions, fixed for every mode):

====================  ====================================================================
index                 meaning
====================  ====================================================================
0                     ``wait`` -- the no-op of the Parallel env; never legal in the AEC env
1, 2, 3               play Attack / Guard / Spell face down
4                     ``done``: end the Start-of-turn menu, or resolve your played card
5                     ``evolve`` (then choose Shikigami with ``evolve_with_*``)
6, 7, 8, 9            take the Yokai as Shikigami / Attack Equip (left) / Guard Equip (right) /
                      Spell Equip (bottom)
10, 11                target the left / right enemy
12, 13                target Onmyoji seat 0 / seat 1 (an ally, or the other Onmyoji in the Duel Final)
14 + y                use the Shikigami ability of Yokai ``y``
32 + y                use the Equip ability of Yokai ``y``
50 + y                put Shikigami ``y`` under your Character (evolution)
68 + y                pick Yokai ``y`` (after a battle, or the Solo starting Shikigami)
====================  ====================================================================

``y`` is the Yokai's index in ``cards.yaml`` (0..17).
"""

from __future__ import annotations

N_YOKAI = 18
WAIT = 0
PLAY = 1            # + card
DONE = 4
EVOLVE = 5
TAKE = 6            # + 0 Shikigami, 1 + edge for an Equip
TARGET = 10         # + target reference (effects.ENEMY_LEFT..PLAYER_1)
USE_SHIKIGAMI = 14
USE_EQUIP = USE_SHIKIGAMI + N_YOKAI
EVOLVE_WITH = USE_EQUIP + N_YOKAI
PICK = EVOLVE_WITH + N_YOKAI
NUM_ACTIONS = PICK + N_YOKAI

TAKE_NAMES = ("Shikigami", "Attack Equip (left edge)", "Guard Equip (right edge)", "Spell Equip (bottom edge)")
TARGET_NAMES = ("the left enemy", "the right enemy", "Onmyoji 0", "Onmyoji 1")


def action_name(action: int, yokai_names: tuple[str, ...]) -> str:
    if action == WAIT:
        return "wait"
    if PLAY <= action < PLAY + 3:
        return f"play {('Attack', 'Guard', 'Spell')[action - PLAY]}"
    if action == DONE:
        return "done"
    if action == EVOLVE:
        return "evolve"
    if TAKE <= action < TARGET:
        return f"take as {TAKE_NAMES[action - TAKE]}"
    if TARGET <= action < USE_SHIKIGAMI:
        return f"target {TARGET_NAMES[action - TARGET]}"
    for base, verb in ((USE_SHIKIGAMI, "use Shikigami"), (USE_EQUIP, "use Equip"),
                       (EVOLVE_WITH, "evolve with"), (PICK, "pick")):
        if base <= action < base + N_YOKAI:
            return f"{verb} {yokai_names[action - base]}"
    raise ValueError(f"onmyoji_v0: no action {action}; actions are 0..{NUM_ACTIONS - 1}")
