"""The action table of ``onmyoji_v5``: id blocks, encode/decode, action names.

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

from enum import IntEnum
from typing import NamedTuple

from yokai_envs.onmyoji import ENV_ID
from yokai_envs.onmyoji.state import CARD_NAMES, N_YOKAI

#: Take choices (``TAKE + choice``): 0 as a Shikigami, ``1 + edge`` as an Equip on that edge.
TAKE_SHIKIGAMI = 0
TAKE_NAMES = ("Shikigami", "Attack Equip (left edge)", "Guard Equip (right edge)", "Spell Equip (bottom edge)")
TARGET_NAMES = ("the left enemy", "the right enemy", "Onmyoji 0", "Onmyoji 1")


class Block(IntEnum):
    """First action id of each block of the table (a block's argument is added to it)."""

    WAIT = 0
    PLAY = 1                               # + ActionCard
    DONE = 4
    EVOLVE = 5
    TAKE = 6                               # + take choice (TAKE_SHIKIGAMI, or 1 + EquipEdge)
    TARGET = 10                            # + Target reference
    USE_SHIKIGAMI = 14                     # + Yokai
    USE_EQUIP = USE_SHIKIGAMI + N_YOKAI    # + Yokai
    EVOLVE_WITH = USE_EQUIP + N_YOKAI      # + Yokai
    PICK = EVOLVE_WITH + N_YOKAI           # + Yokai


#: Number of arguments of each block (the blocks tile 0..NUM_ACTIONS-1 in order).
BLOCK_WIDTH = {Block.WAIT: 1, Block.PLAY: 3, Block.DONE: 1, Block.EVOLVE: 1, Block.TAKE: 4, Block.TARGET: 4,
               Block.USE_SHIKIGAMI: N_YOKAI, Block.USE_EQUIP: N_YOKAI, Block.EVOLVE_WITH: N_YOKAI,
               Block.PICK: N_YOKAI}

WAIT, PLAY, DONE, EVOLVE = Block.WAIT, Block.PLAY, Block.DONE, Block.EVOLVE
TAKE, TARGET, USE_SHIKIGAMI, USE_EQUIP = Block.TAKE, Block.TARGET, Block.USE_SHIKIGAMI, Block.USE_EQUIP
EVOLVE_WITH, PICK = Block.EVOLVE_WITH, Block.PICK
NUM_ACTIONS = PICK + N_YOKAI


class Decoded(NamedTuple):
    """An action id as its block and the argument within the block."""

    block: Block
    arg: int


def decode(action: int) -> Decoded:
    """``action`` -> (block, argument); ValueError outside ``0..NUM_ACTIONS-1``."""
    if 0 <= action < NUM_ACTIONS:
        for block in reversed(Block):
            if action >= block:
                return Decoded(block, action - block)
    raise ValueError(f"{ENV_ID}: no action {action}; actions are 0..{NUM_ACTIONS - 1}")


def encode(block: Block, arg: int = 0) -> int:
    """(block, argument) -> action id."""
    if not 0 <= arg < BLOCK_WIDTH[block]:
        raise ValueError(f"{ENV_ID}: block {block.name} has no argument {arg}")
    return block + arg


def action_name(action: int, yokai_names: tuple[str, ...]) -> str:
    block, arg = decode(action)
    if block == WAIT:
        return "wait"
    if block == PLAY:
        return f"play {CARD_NAMES[arg]}"
    if block == DONE:
        return "done"
    if block == EVOLVE:
        return "evolve"
    if block == TAKE:
        return f"take as {TAKE_NAMES[arg]}"
    if block == TARGET:
        return f"target {TARGET_NAMES[arg]}"
    verb = {USE_SHIKIGAMI: "use Shikigami", USE_EQUIP: "use Equip", EVOLVE_WITH: "evolve with", PICK: "pick"}[block]
    return f"{verb} {yokai_names[arg]}"


def describe_action(action: int, yokai_names: tuple[str, ...]) -> dict[str, object]:
    """``action`` as fields from the table: ``kind`` (the block, lower case), ``id``, ``name``,
    and the block's argument as ``card`` (played Action Card), ``take`` (how a Yokai is taken),
    ``target`` or ``yokai`` (with ``yokai_index``, its place in the Yokai list)."""
    block, arg = decode(action)
    out: dict[str, object] = {"kind": block.name.lower(), "id": int(action),
                              "name": action_name(action, yokai_names)}
    if block == PLAY:
        out["card"] = CARD_NAMES[arg]
    elif block == TAKE:
        out["take"] = TAKE_NAMES[arg]
    elif block == TARGET:
        out["target"] = TARGET_NAMES[arg]
    elif block in (USE_SHIKIGAMI, USE_EQUIP, EVOLVE_WITH, PICK):
        out["yokai"] = yokai_names[arg]
        out["yokai_index"] = arg
    return out
