"""Text and table views of Yonkai no Yokai: ``render`` / ``render_for`` text and the
``table_view`` picture for viewers. Hands are shown to their owner only (everyone's in the
omniscient view, ``seat`` None); sizes, cubes, buttons and plays are public."""

from __future__ import annotations

from typing import Any

import numpy as np

from yokai_envs.yonkai_no_yokai.state import DESCENDING, Direction, State


def cards_text(counts: np.ndarray) -> str:
    """Value counts as cards, e.g. ``"1155"``; ``"-"`` for none."""
    return "".join(str(v + 1) * int(c) for v, c in enumerate(counts)) or "-"


def direction_name(direction: Direction) -> str:
    return "descending" if direction == DESCENDING else "ascending"


def round_number(state: State) -> int:
    """The round being played, or once the game is over the last one played (the count of
    completed rounds goes up as the final round ends)."""
    return int(state.rounds_completed) if state.terminal else int(state.rounds_completed) + 1


def render(state: State, seat: int | None) -> str:
    """Text view of the table: omniscient when ``seat`` is None, else only what it may see."""
    last = str(state.last_value) * state.last_count if state.last_count else "(lead)"
    lines = [f"Yonkai no Yokai, round {round_number(state)}, {direction_name(state.direction)}, "
             f"last play {last}" + (f" by player {state.last_player}" if state.last_count else "")]
    for s in range(state.num_players):
        shown = cards_text(state.hands[s]) if seat is None or s == seat else f"{state.hand_sizes[s]} cards"
        flags = [f"cubes {state.cubes[s]}", "button" if state.button_available[s] else "no button"]
        if state.passed[s]:
            flags.append("passed")
        marker = ">" if (not state.terminal and s == state.to_act) else " "
        lines.append(f"{marker} player {s}: {shown:18s} {', '.join(flags)}")
    lines.append(f"  played this round: {cards_text(state.played)}")
    if state.terminal:
        lines.append(f"  game over; winners: {', '.join(f'player {w}' for w in state.winners)}")
    return "\n".join(lines)


def table_view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as a JSON-able picture (see ``Game.table_view``)."""
    seats = []
    for s in range(state.num_players):
        if seat is None or s == seat:
            cards = [{"name": str(v + 1)} for v, c in enumerate(state.hands[s]) for _ in range(int(c))]
            hand = {"name": "hand", "cards": cards, "hidden": 0}
        else:
            hand = {"name": "hand", "cards": [], "hidden": int(state.hand_sizes[s])}
        status = "passed" if state.passed[s] else ""
        seats.append({"seat": s, "label": f"player {s}" + (" (you)" if s == seat else ""),
                      "counters": {"cubes": int(state.cubes[s]), "cards": int(state.hand_sizes[s]),
                                   "button": "yes" if state.button_available[s] else "used"},
                      "zones": [hand], "note": status})
    last = [{"name": str(state.last_value), "info": f"by player {state.last_player}"}] * state.last_count
    played = [{"name": str(v + 1)} for v, c in enumerate(state.played) for _ in range(int(c))]
    note = ""
    if state.terminal:
        note = "game over; winners: " + ", ".join(f"player {w}" for w in state.winners)
    return {"title": f"Yonkai no Yokai, round {round_number(state)}", "phase": state.phase.value,
            "to_act": -1 if state.terminal else int(state.to_act),
            "counters": {"direction": direction_name(state.direction), "elevator floor": int(state.last_count),
                         "round": round_number(state)},
            "zones": [{"name": "last play (the elevator)", "cards": last, "hidden": 0},
                      {"name": "played this round", "cards": played, "hidden": 0}],
            "seats": seats, "text": note}


# ------------------------------------------------------------------ words for a new player
_COUNTS = ("", "a single", "a pair of", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _set_words(count: int, value: int) -> str:
    """``a single 3``, ``a pair of 5s``, ``three 4s``."""
    many = _COUNTS[count] if count < len(_COUNTS) else str(count)
    return f"{many} {value}" + ("s" if count > 1 else "")


def action_words(state: State, action: int) -> tuple[str, str]:
    """A button's label and tooltip for the seat to act: which set it plays, and what the
    button or a pass does (the rules the summary states)."""
    from yokai_envs.yonkai_no_yokai.actions import PASS, action_name, describe_action

    if action == PASS:
        return "pass", "Sit out this trick until someone plays a single card (your Elevator Button comes back)"
    fields = describe_action(action)
    count, value = int(fields["count"]), int(fields["value"])  # type: ignore[call-overload]
    lead = " to open the trick" if state.last_count == 0 else ""
    play = f"Play {_set_words(count, value)}{lead}"
    if fields["button"]:
        turned = "ascending" if state.direction == DESCENDING else "descending"
        return action_name(action), f"Press your Elevator Button (the Direction card turns {turned}), then: {play}"
    return action_name(action), play


def move_name(state: State, action: int) -> str:
    """A move as every seat sees it, before it is made: the play, whether it opens the trick,
    and how many cards the player keeps (hand sizes are public): "play 55 (lead), 3 cards left"."""
    from yokai_envs.yonkai_no_yokai.actions import PASS, action_name, describe_action

    name = action_name(action)
    if action == PASS:
        return name
    left = int(state.hand_sizes[state.to_act]) - int(describe_action(action)["count"])  # type: ignore[call-overload]
    lead = " (lead)" if state.last_count == 0 else ""
    return f"{name}{lead}, {left} card{'' if left == 1 else 's'} left"


def end_words(state: State) -> dict[str, str]:
    """The rule that ended the game and the Life cubes left, seats as "player N"."""
    setup = state.setup
    out = [s for s in range(setup.num_players) if state.cubes[s] == 0]
    cubes = ", ".join(f"player {s} {int(state.cubes[s])}" for s in range(setup.num_players))
    if out:
        owing = " and ".join(f"player {s}" for s in out)
        reason = (f"round {round_number(state)} ended with {owing} owing more Life cubes than they had left, "
                  "so the game is over: the most Life cubes wins")
    else:
        rounds = "the one round" if setup.rounds_per_game == 1 else f"all {setup.rounds_per_game} rounds"
        reason = f"{rounds} this game was set to {'is' if setup.rounds_per_game == 1 else 'are'} played: " \
                 "the most Life cubes wins"
    return {"reason": reason, "score": f"Life cubes left: {cubes}"}


#: What the new-game page and the glossary tooltips say of the game (its terms as the table shows them).
TITLE = "Yonkai no Yokai"
BLURB = "A climbing card game for 3-4: play sets of equal cards up and down the hotel's floors; empty your hand first."
GLOSSARY = {
    "lead": "The first play of a trick: a single card, on the 1st floor.",
    "follow": "Play on the trick: keep the floor (as many cards) with a higher value, or go one floor up "
              "(one more card) with a lower value; or pass.",
    "leads": "Opens the trick: the first play is a single card, on the 1st floor.",
    "elevator floor": "How many cards the last play had: a play keeps the floor and raises the value, "
                      "or goes one floor up (one more card) and lowers the value.",
    "direction": "Ascending (sets grow as values fall) or Descending (sets shrink as values climb).",
    "button": "Your Elevator Button: once, turn the Direction card before you play; it comes back when you "
              "pass and at each new round.",
    "pass": "Sit out the trick until someone plays a single card.",
    "passed": "Out of this trick until someone plays a single card.",
    "cubes": "Life cubes (4 each): at a round's end the largest hand loses 2, the others 1; the player who went "
             "out loses none.",
    "Life cube": "4 each: at a round's end the largest hand loses 2, the others 1; the player who went out "
                 "loses none.",
    "round": "Dealt in full; it stops as soon as someone has no cards left.",
}

#: The new-game form's words for the options a player chooses (the others fold under "more options").
OPTION_WORDS = {"num_players": "players", "rounds_per_game": "rounds (blank: until a player runs out of Life cubes)"}
