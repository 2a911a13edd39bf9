"""Viewer support: ``table_view`` (the table as a JSON-able picture) and ``public_action_name``.

Hidden from the opponent: the hand (except cards it revealed), the deck, face-down Sideline
attachments, the setup picks and the Team Bonus before the simultaneous reveal.
"""

from __future__ import annotations

from typing import Any

from yokai_envs.yyh_tcg.cards import Card


def _attacks(card: Card) -> str:
    return "; ".join(f"{a.name} {a.value} ({a.spirit} SE" + (f", discard {a.discard}" if a.discard else "") + ")"
                     for a in card.attacks)


def _card_info(card: Card) -> str:
    if card.is_character:
        return f"Defense {card.defense}" + (f"; {_attacks(card)}" if card.attacks else "")
    if card.type == "technique":
        return f"technique, cost {card.cost}" + (f"; {_attacks(card)}" if card.attacks else "")
    if card.type == "item":
        return f"item, cost {card.cost}"
    if card.type == "event":
        return f"event ({card.timing}), {card.spirit} SE"
    return card.type


def table_view(game: Any, seat: int | None) -> dict[str, Any]:
    """See ``Game.table_view``; ``game`` is a ``YYHGame``."""
    cards = game.pool.cards

    def entry(cid: int, info: str | None = None) -> dict[str, str]:
        return {"name": cards[cid].name, "info": info if info is not None else _card_info(cards[cid])}

    seats = []
    for s, p in enumerate(game.players):
        own = seat is None or seat == s
        zones = []
        if own or game.revealed:
            for label, slot in ([("Arena fighter", p.fighter)] if p.fighter is not None else []) + \
                    [(f"Sideline line {i + 1}", sl) for i, sl in enumerate(p.sideline)]:
                char = cards[slot.char]
                if label == "Arena fighter" and game.revealed:
                    info = (f"damage {slot.damage}, Defense {game.defense_value(s)}"
                            + (f"; {_attacks(char)}" if char.attacks else ""))
                else:
                    info = _card_info(char)
                shown = [entry(slot.char, info)]
                hidden = 0
                for att in slot.attached:
                    if att.face_up:
                        shown.append(entry(att.card, "attached face-up"))
                    elif own:
                        shown.append(entry(att.card, "attached face-down"))
                    else:
                        hidden += 1
                zones.append({"name": label, "cards": shown, "hidden": hidden})
        else:
            zones.append({"name": "setup picks (face-down)", "cards": [], "hidden": len(p.slots())})
        if own:
            zones.append({"name": "hand", "cards": [entry(c) for c in sorted(p.hand)], "hidden": 0})
        else:
            zones.append({"name": "hand", "cards": [entry(c, "revealed") for c in sorted(p.revealed)],
                          "hidden": len(p.hand) - len(p.revealed)})
        zones.append({"name": "deck", "cards": [], "hidden": len(p.deck)})
        zones.append({"name": "discard", "cards": [entry(c) for c in p.discard], "hidden": 0})
        zones.append({"name": "won matches", "cards": [entry(c) for c in p.won], "hidden": 0})
        zones.append({"name": "lost matches", "cards": [entry(c) for c in p.lost], "hidden": 0})
        bonus = (p.bonus_team or "none") if (own or game.revealed) else "hidden"
        seats.append({"seat": s, "label": f"seat {s} ({p.deck_name})" + (" (you)" if s == seat else ""),
                      "counters": {"Spirit Energy": p.spirit, "wins": p.wins, "hand": len(p.hand),
                                   "deck": len(p.deck), "Team Bonus": bonus},
                      "zones": zones,
                      "note": "turn player" if (game.revealed and game.turn_player == s
                                                and game.winner is None) else ""})
    to_act = int(game.current_player)
    if game.winner is not None:
        text = "drawn game" if game.winner < 0 else f"winner: seat {game.winner}"
    elif not game.players:
        text = ""
    else:
        text = f"seat {to_act} to decide ({game.phase})"
    return {"title": "Yu Yu Hakusho TCG", "phase": game.phase_name, "to_act": to_act,
            "counters": {"turn": game.turn_number, "phase": game.phase_name}, "zones": [],
            "seats": seats, "text": text}


def public_action_name(game: Any, action: int, seat: int) -> str | None:
    """How ``seat`` sees ``action`` of ``current_player``: setup picks and face-down
    attachments are shown by name only to the acting seat; everything else is public."""
    actor = game.current_player
    if seat == actor:
        return game.action_name(action)
    block, _card, extra = game.table.decoded[action]
    if block == "pick" and not game.revealed:
        return "setup: put a face-down character on the field"
    if block == "attach" and extra != 0:
        return f"attach a face-down card to Sideline slot {extra}"
    return game.action_name(action)
