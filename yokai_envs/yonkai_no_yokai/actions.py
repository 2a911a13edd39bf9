"""The action table of Yonkai no Yokai: 49 fixed actions in three blocks.

| action | meaning |
|---|---|
| 0 | pass (never legal for a trick's leader) |
| 1 + play index | play ``count`` cards of ``value`` without the button (1..24) |
| 25 + play index | use the Elevator Button, flip the direction and play them (25..48) |

A play index is ``6*(count-1) + (value-1)`` (0..23): singles 1..6 first, then pairs, triples and
sets of four. A button play is masked wherever the same play is already legal without it.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, NamedTuple

from yokai_envs.yonkai_no_yokai.state import NUM_PLAYS, VALUES, Play

PASS: Final = 0
FIRST_PLAIN_PLAY: Final = 1
FIRST_BUTTON_PLAY: Final = 1 + NUM_PLAYS  # 25
NUM_ACTIONS: Final = 1 + 2 * NUM_PLAYS  # 49


class ActionKind(Enum):
    """The block an action id falls in."""

    PASS = "pass"
    PLAY = "play"
    BUTTON_PLAY = "button play"


class PlayAction(NamedTuple):
    """A play action decoded: its play index and whether it uses the button."""

    play: int
    with_button: bool


def play_index(count: int, value: int) -> int:
    """Index 0..23 of the play of ``count`` cards of ``value``."""
    return VALUES * (count - 1) + (value - 1)


def play_of(index: int) -> Play:
    """(count, value) of a play index."""
    return Play(index // VALUES + 1, index % VALUES + 1)


def play_of_action(action: int) -> PlayAction:
    """The play index (see ``play_of``) of a play action, and whether it uses the button."""
    with_button = action >= FIRST_BUTTON_PLAY
    return PlayAction(action - (FIRST_BUTTON_PLAY if with_button else FIRST_PLAIN_PLAY), with_button)


class DecodedPlay(NamedTuple):
    """A play action decoded whole: its play index, the button, and the cards it plays."""

    play: int
    with_button: bool
    size: int  # the count of cards (not "count": that would hide tuple.count)
    value: int


def _decode(action: int) -> DecodedPlay:
    play, with_button = play_of_action(action)
    return DecodedPlay(play, with_button, *play_of(play))


#: action -> :class:`DecodedPlay`, decoded once for the rules and the bots (entry 0, the pass, is
#: a placeholder: a pass has no play to decode)
DECODED_PLAYS: tuple[DecodedPlay, ...] = (DecodedPlay(-1, False, 0, 0), *map(_decode, range(1, NUM_ACTIONS)))


def action_of_play(count: int, value: int, with_button: bool = False) -> int:
    """The action playing ``count`` cards of ``value`` (with the button: flip first)."""
    return (FIRST_BUTTON_PLAY if with_button else FIRST_PLAIN_PLAY) + play_index(count, value)


def action_kind(action: int) -> ActionKind:
    """The block of a valid action id."""
    if action == PASS:
        return ActionKind.PASS
    return ActionKind.BUTTON_PLAY if action >= FIRST_BUTTON_PLAY else ActionKind.PLAY


def action_name(action: int) -> str:
    """``"pass"``, ``"play 555"``, ``"button, flip, play 11"``; ``"<no action N>"`` off the table."""
    if action == PASS:
        return "pass"
    if not 0 < action < NUM_ACTIONS:
        return f"<no action {action}>"
    play, with_button = play_of_action(action)
    count, value = play_of(play)
    return ("button, flip, play " if with_button else "play ") + str(value) * count


def describe_action(action: int) -> dict[str, object]:
    """``action`` as fields: ``kind`` (pass, play, button play), ``id``, ``name``, and for a
    play ``count`` and ``value`` (how many cards of which value) and ``button``."""
    out: dict[str, object] = {"kind": action_kind(action).value, "id": int(action), "name": action_name(action)}
    if action != PASS:
        play, with_button = play_of_action(action)
        count, value = play_of(play)
        out.update(count=count, value=value, button=with_button)
    return out
