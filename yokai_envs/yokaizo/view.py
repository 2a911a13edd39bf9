"""Views of the YOKAIZO table: the text views (``render``, ``render_for``), the JSON-able picture
for viewers (``table_view``) and how a seat sees the action being taken (``public_action_name``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from yokai_envs.yokaizo.actions import A_CARD
from yokai_envs.yokaizo.cards import ELEMENTS
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.effects import Pick
from yokai_envs.yokaizo.rules import SetupPick
from yokai_envs.yokaizo.state import NO, PickVerb

if TYPE_CHECKING:
    from yokai_envs.yokaizo.game import YokaizoGame


# ------------------------------------------------------------------ text
def card_text(g: YokaizoGame, c: int) -> str:
    card = g.cards[g.ctype[c]]
    return f"{card.name}[{ELEMENTS[card.element][0:2]} S{card.speed} {card.souls}♦]"


def seat_text(g: YokaizoGame, p: int, viewer: int | None) -> list[str]:
    """Seat ``p``'s zones as ``viewer`` sees them (None: everything)."""
    see = viewer is None or viewer == p
    lines = [f"Seat {p}: Grave {g.grave_souls(p)}/13 souls, hand {len(g.hand[p])}, "
             f"deck {len(g.deck[p])}, limbo {len(g.limbo[p])}, burned {len(g.burned[p])}"]
    for s in (0, 1):
        y = g.field[p][s]
        if y == NO:
            lines.append(f"  Field {s}: (empty)")
            continue
        if g.hidden_setup and not see:
            lines.append(f"  Field {s}: (face-down)")
            continue
        souls = " ".join(
            (card_text(g, c) if (g.up[c] or see) else "??") + ("^" if g.up[c] else "v")
            + ("B" if g.blighted[c] else "") for c in g.souls[p][s])
        lines.append(f"  Field {s}: {card_text(g, y)} speed {g.field_speed(p, s)}"
                     f"{' SLOWED' if g.slowed[y] else ''} | souls [{souls}] "
                     f"shields {len(g.shields[p][s])} relics {len(g.relics[p][s])}")
    void = ", ".join(("??" if (g.facedown[c] and not see) else card_text(g, c))
                     + ("(frozen)" if g.frozen[c] else "") + ("(token)" if g.facedown[c] else "")
                     for c in g.void[p])
    lines.append(f"  Void: {void}")
    if see:
        lines.append("  Hand: " + ", ".join(card_text(g, c) for c in g.hand[p]))
    return lines


def text(g: YokaizoGame, viewer: int | None) -> str:
    """The table as text for ``viewer`` (None: omniscient, ``render``)."""
    head = f"YOKAIZO round {g.round} tier {'-' if g.tier >= 99 else g.tier}"
    if g.is_terminal:
        head += f" - over, winner {g.winner if g.winner != NO else 'none (draw)'}"
    else:
        head += f" - seat {g.decider} to decide: {g.phase_name}"
    return "\n".join([head, *seat_text(g, 0, viewer), *seat_text(g, 1, viewer)])


def public_action_name(g: YokaizoGame, action: int, seat: int) -> str | None:
    """How ``seat`` sees the pending ``action``: card names chosen into hidden places (setup picks,
    face-down Souls, Shine into hand, unburning into hand) are not shown to the other seat."""
    name = g.action_name(action)
    if seat == g.current_player or g.is_terminal:
        return name
    task = g.stack[-1]
    if action >= A_CARD:
        if isinstance(task, SetupPick):
            return "choose a Field Yokai face-down"
        if isinstance(task, Damage):
            return "place a face-down Soul from hand"
        if isinstance(task, Pick) and (task.verb == PickVerb.SHINE or (task.verb == PickVerb.UNBURN
                                                                        and task.params["to"] == "hand")):
            return f"{task.verb}: take a card into hand"
    return name.replace("my ", "their ").replace("enemy ", "your ")


# ------------------------------------------------------------------ the table picture
def _card(g: YokaizoGame, c: int, extra: str = "") -> dict[str, str]:
    card = g.cards[g.ctype[c]]
    info = f"{ELEMENTS[card.element]}, Speed {card.speed}, {card.souls} Souls" + (f"; {extra}" if extra else "")
    return {"name": card.name, "info": info}


def _nothing(c: int) -> bool:
    return False


def _zone(name: str, g: YokaizoGame, cards: list[int], visible: Callable[[int], bool] | None,
          extra: Callable[[int], str] = lambda c: "") -> dict[str, Any]:
    """A zone of ``cards``; those ``visible`` does not pass (None: all pass) count as hidden."""
    shown = [_card(g, c, extra(c)) for c in cards if visible is None or visible(c)]
    return {"name": name, "cards": shown, "hidden": len(cards) - len(shown)}


def table_view(g: YokaizoGame, seat: int | None) -> dict[str, Any]:
    """Each seat's zones; face-down cards (hand, deck, face-down Souls, Shields, Tokens, Burned) show
    only as a count to the other seat; the omniscient view (``seat`` None) shows everything."""
    def face_up(c: int) -> bool:
        return bool(g.up[c])

    def not_token(c: int) -> bool:
        return not g.facedown[c]

    seats = []
    for p in (0, 1):
        sees = seat is None or seat == p
        private = None if sees else _nothing  # cards only their owner sees
        zones: list[dict[str, Any]] = []
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
            zones.append(_zone(f"souls of field {s}", g, g.souls[p][s], None if sees else face_up,
                               lambda c: ("face up" if g.up[c] else "face down")
                               + (", Blighted" if g.blighted[c] else "")))
            zones.append(_zone(f"shields of field {s}", g, g.shields[p][s], private))
        zones.append(_zone("void", g, g.void[p], None if sees else not_token,
                           lambda c: ", ".join(w for w, f in (("Token", g.facedown[c]), ("Frozen", g.frozen[c])) if f)))
        zones.append(_zone("hand", g, g.hand[p], private))
        zones.append(_zone("limbo", g, g.limbo[p], None))
        zones.append(_zone("grave", g, g.grave[p], None))
        zones.append(_zone("burned", g, g.burned[p], private))
        seats.append({"seat": p, "label": f"player {p}" + (" (you)" if seat == p else ""),
                      "counters": {"grave souls": g.grave_souls(p), "hand": len(g.hand[p]),
                                   "deck": len(g.deck[p]), "limbo": len(g.limbo[p])},
                      "zones": zones, "note": "takes the Turn" if g.active is not None and g.active.seat == p else ""})
    over = ""
    if g.is_terminal:
        over = f"game over: player {g.winner} wins" if g.winner != NO else "game over: draw"
    return {"title": f"YOKAIZO, round {g.round}", "phase": g.phase_name, "to_act": int(g.current_player),
            "counters": {"round": g.round, "speed tier": "-" if g.tier >= 99 else g.tier, "step": g.steps},
            "zones": [_zone("exile", g, g.exile, lambda c: True)], "seats": seats, "text": over}
