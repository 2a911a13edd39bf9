"""What a seat sees: the observation vector, the full state tensor and text views.

This is the one place that decides what each seat may see (OpenSpiel-style observer): its
own hand, and of every seat only public facts. Other seats are listed in seat order starting
from the observer (index 0 = the observer, 1 = the next seat clockwise, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yokai_envs.yonkai_no_yokai.rules import DESCENDING, MAX_COUNT, VALUES

if TYPE_CHECKING:
    from yokai_envs.yonkai_no_yokai.game import YonkaiGame


def _fields(n: int) -> list[tuple[str, int]]:
    return [
        ("hand", VALUES),              # own copies of each value 1..6
        ("hand_sizes", n),             # cards held, relative seat order (self first)
        ("cubes", n),                  # life cubes left
        ("button_available", n),       # 1 = elevator button in hand
        ("passed", n),                 # 1 = sitting out this trick
        ("to_act", n),                 # one-hot: whose decision it is
        ("descending", 1),             # 1 = the direction card shows Descending
        ("leading", 1),                # 1 = the trick is at its lead (no play yet)
        ("last_count", MAX_COUNT),     # one-hot count of the last play this trick
        ("last_value", VALUES),        # one-hot value of the last play this trick
        ("last_player", n),            # one-hot relative seat of the last play
        ("played_this_round", VALUES),  # public: copies of each value played this round
    ]


def observation_layout(n: int) -> dict[str, slice]:
    layout, start = {}, 0
    for name, width in _fields(n):
        layout[name] = slice(start, start + width)
        start += width
    return layout


def observation_size(n: int) -> int:
    return sum(width for _, width in _fields(n))


def state_size(n: int) -> int:
    # every hand, then the public part of seat 0's observation (absolute seat order)
    return n * VALUES + observation_size(n) - VALUES


def bounds(n: int, copies: int) -> tuple[np.ndarray, np.ndarray]:
    layout = observation_layout(n)
    high = np.ones(observation_size(n), dtype=np.float32)
    high[layout["hand"]] = copies
    high[layout["hand_sizes"]] = copies * VALUES // n
    high[layout["cubes"]] = 4
    high[layout["played_this_round"]] = copies
    return np.zeros_like(high), high


def _public(game: YonkaiGame, seat: int, out: np.ndarray, start: int) -> None:
    """Write the public fields, in seats relative to ``seat``, from ``out[start]`` on."""
    n = game.num_players
    order = [(seat + i) % n for i in range(n)]
    out[start:start + n] = [game.hand_sizes[s] for s in order]
    out[start + n:start + 2 * n] = [game.cubes[s] for s in order]
    out[start + 2 * n:start + 3 * n] = [game.button_available[s] for s in order]
    out[start + 3 * n:start + 4 * n] = [game.passed[s] for s in order]
    at = start + 4 * n
    if not game.terminal:
        out[at + (game.to_act - seat) % n] = 1.0
    at += n
    out[at] = game.direction == DESCENDING
    out[at + 1] = game.last_count == 0
    at += 2
    if game.last_count:
        out[at + game.last_count - 1] = 1.0
        out[at + MAX_COUNT + game.last_value - 1] = 1.0
    at += MAX_COUNT + VALUES
    if game.last_player >= 0:
        out[at + (game.last_player - seat) % n] = 1.0
    at += n
    out[at:at + VALUES] = game.played


def observe(game: YonkaiGame, seat: int) -> np.ndarray:
    out = np.zeros(game.observation_size, dtype=np.float32)
    out[:VALUES] = game.hands[seat]
    _public(game, seat, out, VALUES)
    return out


def state(game: YonkaiGame) -> np.ndarray:
    out = np.zeros(game.state_size, dtype=np.float32)
    hands_width = game.num_players * VALUES
    out[:hands_width] = game.hands.ravel()
    _public(game, 0, out, hands_width)
    return out


def _cards(counts: np.ndarray) -> str:
    return "".join(str(v + 1) * int(c) for v, c in enumerate(counts)) or "-"


def render(game: YonkaiGame, seat: int | None) -> str:
    """Text view of the table: omniscient when ``seat`` is None, else only what it may see."""
    direction = "descending" if game.direction == DESCENDING else "ascending"
    last = str(game.last_value) * game.last_count if game.last_count else "(lead)"
    lines = [f"Yonkai no Yokai, round {game.rounds_completed + 1}, {direction}, last play {last}"
             + (f" by player {game.last_player}" if game.last_count else "")]
    for s in range(game.num_players):
        shown = _cards(game.hands[s]) if seat is None or s == seat else f"{game.hand_sizes[s]} cards"
        flags = [f"cubes {game.cubes[s]}", "button" if game.button_available[s] else "no button"]
        if game.passed[s]:
            flags.append("passed")
        marker = ">" if (not game.terminal and s == game.to_act) else " "
        lines.append(f"{marker} player {s}: {shown:18s} {', '.join(flags)}")
    lines.append(f"  played this round: {_cards(game.played)}")
    if game.terminal:
        lines.append(f"  game over; winners: {', '.join(f'player {w}' for w in game.winners)}")
    return "\n".join(lines)


def table_view(game: YonkaiGame, seat: int | None) -> dict:
    """The table as a JSON-able picture (see ``Game.table_view``): hands are shown to their
    owner only (everyone in the omniscient view); sizes, cubes, buttons and plays are public."""
    direction = "descending" if game.direction == DESCENDING else "ascending"
    seats = []
    for s in range(game.num_players):
        if seat is None or s == seat:
            cards = [{"name": str(v + 1)} for v, c in enumerate(game.hands[s]) for _ in range(int(c))]
            hand = {"name": "hand", "cards": cards, "hidden": 0}
        else:
            hand = {"name": "hand", "cards": [], "hidden": int(game.hand_sizes[s])}
        status = "passed" if game.passed[s] else ""
        seats.append({"seat": s, "label": f"player {s}" + (" (you)" if s == seat else ""),
                      "counters": {"cubes": int(game.cubes[s]), "cards": int(game.hand_sizes[s]),
                                   "button": "yes" if game.button_available[s] else "used"},
                      "zones": [hand], "note": status})
    last = [{"name": str(game.last_value), "info": f"by player {game.last_player}"}] * game.last_count
    played = [{"name": str(v + 1)} for v, c in enumerate(game.played) for _ in range(int(c))]
    note = ""
    if game.terminal:
        note = "game over; winners: " + ", ".join(f"player {w}" for w in game.winners)
    return {"title": f"Yonkai no Yokai, round {game.rounds_completed + 1}", "phase": game.phase_name,
            "to_act": -1 if game.terminal else int(game.to_act),
            "counters": {"direction": direction, "elevator floor": int(game.last_count),
                         "round": game.rounds_completed + 1},
            "zones": [{"name": "last play (the elevator)", "cards": last, "hidden": 0},
                      {"name": "played this round", "cards": played, "hidden": 0}],
            "seats": seats, "text": note}
