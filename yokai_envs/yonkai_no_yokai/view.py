"""Text and table views of Yonkai no Yokai: ``render`` / ``render_for`` text and the
``table_view`` picture for viewers. Hands are shown to their owner only (everyone's in the
omniscient view, ``seat`` None); sizes, cubes, buttons and plays are public."""

from __future__ import annotations

from typing import Any

import numpy as np

from yokai_envs.yonkai_no_yokai.state import DESCENDING, Direction, Table


def cards_text(counts: np.ndarray) -> str:
    """Value counts as cards, e.g. ``"1155"``; ``"-"`` for none."""
    return "".join(str(v + 1) * int(c) for v, c in enumerate(counts)) or "-"


def direction_name(direction: Direction) -> str:
    return "descending" if direction == DESCENDING else "ascending"


def render(table: Table, seat: int | None) -> str:
    """Text view of the table: omniscient when ``seat`` is None, else only what it may see."""
    last = str(table.last_value) * table.last_count if table.last_count else "(lead)"
    lines = [f"Yonkai no Yokai, round {table.rounds_completed + 1}, {direction_name(table.direction)}, "
             f"last play {last}" + (f" by player {table.last_player}" if table.last_count else "")]
    for s in range(table.num_players):
        shown = cards_text(table.hands[s]) if seat is None or s == seat else f"{table.hand_sizes[s]} cards"
        flags = [f"cubes {table.cubes[s]}", "button" if table.button_available[s] else "no button"]
        if table.passed[s]:
            flags.append("passed")
        marker = ">" if (not table.terminal and s == table.to_act) else " "
        lines.append(f"{marker} player {s}: {shown:18s} {', '.join(flags)}")
    lines.append(f"  played this round: {cards_text(table.played)}")
    if table.terminal:
        lines.append(f"  game over; winners: {', '.join(f'player {w}' for w in table.winners)}")
    return "\n".join(lines)


def table_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The table as a JSON-able picture (see ``Game.table_view``)."""
    seats = []
    for s in range(table.num_players):
        if seat is None or s == seat:
            cards = [{"name": str(v + 1)} for v, c in enumerate(table.hands[s]) for _ in range(int(c))]
            hand = {"name": "hand", "cards": cards, "hidden": 0}
        else:
            hand = {"name": "hand", "cards": [], "hidden": int(table.hand_sizes[s])}
        status = "passed" if table.passed[s] else ""
        seats.append({"seat": s, "label": f"player {s}" + (" (you)" if s == seat else ""),
                      "counters": {"cubes": int(table.cubes[s]), "cards": int(table.hand_sizes[s]),
                                   "button": "yes" if table.button_available[s] else "used"},
                      "zones": [hand], "note": status})
    last = [{"name": str(table.last_value), "info": f"by player {table.last_player}"}] * table.last_count
    played = [{"name": str(v + 1)} for v, c in enumerate(table.played) for _ in range(int(c))]
    note = ""
    if table.terminal:
        note = "game over; winners: " + ", ".join(f"player {w}" for w in table.winners)
    return {"title": f"Yonkai no Yokai, round {table.rounds_completed + 1}", "phase": table.phase.value,
            "to_act": -1 if table.terminal else int(table.to_act),
            "counters": {"direction": direction_name(table.direction), "elevator floor": int(table.last_count),
                         "round": table.rounds_completed + 1},
            "zones": [{"name": "last play (the elevator)", "cards": last, "hidden": 0},
                      {"name": "played this round", "cards": played, "hidden": 0}],
            "seats": seats, "text": note}
