"""The YOKAIZO action table: id blocks, encode/decode and action names.

A fixed table of ``28 + number of card types`` ids, relative to the deciding seat ("my" is the
seat deciding); the meaning of every block is in the ``env`` module's docstring and, generated,
in ``docs/yokaizo.md``. Cards in hand, Limbo, deck or Burned are chosen by type (copies are
interchangeable); cards in the Void and Souls by position.
"""

from __future__ import annotations

from bisect import bisect_right
from enum import IntEnum
from typing import Final

from yokai_envs.yokaizo.cards import Pool
from yokai_envs.yokaizo.state import FIRST_CARD_ACTION, MAX_SOULS, VOID_SLOTS, State


class ActionBlock(IntEnum):
    """First id of each block of the action table (single actions are blocks of one)."""

    PASS = 0        # pass / done / no
    YES = 1         # yes
    SPECIAL = 2     # declare the Special Attack
    BASIC = 3       # declare a Basic Attack
    RETURN = 4      # declare a Return
    TOPDECK = 5     # place a Soul / replace a Banished Yokai from the top of the deck
    ALLY = 6        # the Ally pays the element being paid
    MY_FIELD = 7    # + Field slot (0, 1)
    OPP_FIELD = 9   # + Field slot
    MY_VOID = 11    # + Void position (0..5)
    OPP_VOID = 17   # + Void position
    SOUL = 23       # + Soul position (0..4) on the Yokai being decided about
    CARD = FIRST_CARD_ACTION  # 28 + card type (pool index)


# The blocks' first ids as plain ints: the rules list legal actions with them (an IntEnum member
# would end up in ``legal_actions()`` and in the action history), and a plain int is faster.
A_PASS: Final = int(ActionBlock.PASS)
A_YES: Final = int(ActionBlock.YES)
A_SPECIAL: Final = int(ActionBlock.SPECIAL)
A_BASIC: Final = int(ActionBlock.BASIC)
A_RETURN: Final = int(ActionBlock.RETURN)
A_TOPDECK: Final = int(ActionBlock.TOPDECK)
A_ALLY: Final = int(ActionBlock.ALLY)
A_MY_FIELD: Final = int(ActionBlock.MY_FIELD)
A_OPP_FIELD: Final = int(ActionBlock.OPP_FIELD)
A_MY_VOID: Final = int(ActionBlock.MY_VOID)
A_OPP_VOID: Final = int(ActionBlock.OPP_VOID)
A_SOUL: Final = int(ActionBlock.SOUL)
A_CARD: Final = int(ActionBlock.CARD)

_BLOCKS: Final = sorted(ActionBlock)
_STARTS: Final = [int(b) for b in _BLOCKS]


def num_actions(pool: Pool) -> int:
    return A_CARD + len(pool)


def encode(block: ActionBlock, index: int = 0) -> int:
    """The action id of position ``index`` in ``block``."""
    return int(block) + index


def decode(action: int) -> tuple[ActionBlock, int]:
    """``(block, index)`` of an action id (index 0 for single actions)."""
    block = _BLOCKS[bisect_right(_STARTS, action) - 1]
    return block, action - block


def action_names(pool: Pool) -> list[str]:
    names = ["pass / done / no", "yes", "special attack", "basic attack", "return", "topdeck",
             "ally pays this element"]
    names += [f"my field yokai {s}" for s in (0, 1)] + [f"enemy field yokai {s}" for s in (0, 1)]
    names += [f"my void card {i}" for i in range(VOID_SLOTS)] + [f"enemy void card {i}" for i in range(VOID_SLOTS)]
    names += [f"soul {i}" for i in range(MAX_SOULS)]
    names += [f"card {c.name}" for c in pool.cards]
    assert len(names) == num_actions(pool)
    return names


_NAMES: dict[int, list[str]] = {}


def names_for(pool: Pool) -> list[str]:
    """The action names of a card pool, built once per pool object."""
    names = _NAMES.get(id(pool))
    if names is None:
        names = _NAMES[id(pool)] = action_names(pool)
    return names


def hand_type_actions(st: State, p: int) -> list[int]:
    """The card-type actions of the cards in seat ``p``'s hand, ascending (copies give one)."""
    return sorted(set(map(st.c_action.__getitem__, st.hand[p])))


def describe_action(pool: Pool, action: int) -> dict[str, object]:
    """``action`` as fields from the table: ``kind`` (the block, lower case), ``id``, ``name``,
    and ``slot`` / ``position`` / ``card`` for the blocks with an argument."""
    block, index = decode(action)
    out: dict[str, object] = {"kind": block.name.lower(), "id": int(action), "name": names_for(pool)[action]}
    if block in (ActionBlock.MY_FIELD, ActionBlock.OPP_FIELD):
        out["slot"] = index
    elif block in (ActionBlock.MY_VOID, ActionBlock.OPP_VOID, ActionBlock.SOUL):
        out["position"] = index
    elif block == ActionBlock.CARD:
        out["card"] = pool.cards[index].name
        out["card_id"] = index
    return out
