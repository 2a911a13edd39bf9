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
