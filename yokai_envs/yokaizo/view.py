"""A JSON-able picture of the YOKAIZO table for viewers (see ``Game.table_view``)."""

from __future__ import annotations

from yokai_envs.yokaizo.cards import ELEMENTS
from yokai_envs.yokaizo.table import NO


def _card(g, c: int, extra: str = "") -> dict:
    card = g.cards[g.ctype[c]]
    info = f"{ELEMENTS[card.element]}, Speed {card.speed}, {card.souls} Souls" + (f"; {extra}" if extra else "")
    return {"name": card.name, "info": info}


def _zone(name: str, g, cards: list[int], visible, extra=lambda c: "") -> dict:
    shown = [_card(g, c, extra(c)) for c in cards if visible(c)]
    return {"name": name, "cards": shown, "hidden": len(cards) - len(shown)}


def table_view(g, seat: int | None) -> dict:
    """Each seat's zones; face-down cards (hand, deck, face-down Souls, Shields, Tokens, Burned) show
    only as a count to the other seat; the omniscient view (``seat`` None) shows everything."""
    seats = []
    for p in (0, 1):
        sees = seat is None or seat == p
        zones = []
        for s in (0, 1):
            y = g.field[p][s]
            if y == NO:
                zones.append({"name": f"field {s}", "cards": [], "hidden": 0})
                continue
            hidden = g.hidden_setup and not sees
            status = (f"Speed now {g.field_speed(p, s)}" + (", Slowed" if g.slowed[y] else "")
                      + (f", {len(g.relics[p][s])} attached" if g.relics[p][s] else ""))
            zones.append({"name": f"field {s}", "cards": [] if hidden else [_card(g, y, status)],
                          "hidden": 1 if hidden else 0})
            zones.append(_zone(f"souls of field {s}", g, g.souls[p][s], lambda c, v=sees: v or g.up[c],
                               lambda c: ("face up" if g.up[c] else "face down")
                               + (", Blighted" if g.blighted[c] else "")))
            zones.append(_zone(f"shields of field {s}", g, g.shields[p][s], lambda c, v=sees: v))
        zones.append(_zone("void", g, g.void[p], lambda c, v=sees: v or not g.facedown[c],
                           lambda c: ", ".join(w for w, f in (("Token", g.facedown[c]), ("Frozen", g.frozen[c])) if f)))
        zones.append(_zone("hand", g, g.hand[p], lambda c, v=sees: v))
        zones.append(_zone("limbo", g, g.limbo[p], lambda c: True))
        zones.append(_zone("grave", g, g.grave[p], lambda c: True))
        zones.append(_zone("burned", g, g.burned[p], lambda c, v=sees: v))
        seats.append({"seat": p, "label": f"player {p}" + (" (you)" if seat == p else ""),
                      "counters": {"grave souls": g.grave_souls(p), "hand": len(g.hand[p]),
                                   "deck": len(g.deck[p]), "limbo": len(g.limbo[p])},
                      "zones": zones, "note": "takes the Turn" if g.active and g.active[0] == p else ""})
    over = ""
    if g.is_terminal:
        over = f"game over: player {g.winner} wins" if g.winner != NO else "game over: draw"
    return {"title": f"YOKAIZO, round {g.round}", "phase": g.phase_name, "to_act": int(g.current_player),
            "counters": {"round": g.round, "speed tier": "-" if g.tier >= 99 else g.tier, "step": g.steps},
            "zones": [_zone("exile", g, g.exile, lambda c: True)], "seats": seats, "text": over}
