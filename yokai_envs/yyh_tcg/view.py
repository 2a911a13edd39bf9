"""Text and table views: ``render_text`` (``render`` / ``render_for``), ``table_view`` (the table
as a JSON-able picture) and ``public_action_name``.

Hidden from the opponent: the hand, the deck's order, face-down Sideline attachments, the setup
picks and the Team Bonus before the simultaneous reveal. Public: the decklists (RULES_NOTES), and
the cards a player has shown (a search), which the opponent knows are still in its hand or
face-down on its Sideline, without knowing which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from yokai_envs.core.information import CoreEvent, Event
from yokai_envs.yyh_tcg.actions import Block
from yokai_envs.yyh_tcg.cards import Card, CardType
from yokai_envs.yyh_tcg.rules import defense_value
from yokai_envs.yyh_tcg.state import Ev

if TYPE_CHECKING:
    from yokai_envs.yyh_tcg.game import YYHGame


def _attacks(card: Card) -> str:
    return "; ".join(f"{a.name} {a.value} ({a.spirit} SE" + (f", discard {a.discard}" if a.discard else "") + ")"
                     for a in card.attacks)


def _card_info(card: Card) -> str:
    if card.is_character:
        return f"Defense {card.defense}" + (f"; {_attacks(card)}" if card.attacks else "")
    if card.type == CardType.TECHNIQUE:
        return f"technique, cost {card.cost}" + (f"; {_attacks(card)}" if card.attacks else "")
    if card.type == CardType.ITEM:
        return f"item, cost {card.cost}"
    if card.type == CardType.EVENT:
        return f"event ({card.timing}), {card.spirit} SE"
    return card.type


def render_text(game: YYHGame, viewer: int | None) -> str:
    """The table as text: everything (``viewer`` None, ``render``) or what ``viewer`` may see."""
    cards = game.pool.cards
    st = game.state
    lines = [f"{game.env_id} turn {st.turn_number} phase {game.phase_name} "
             f"(turn player {st.turn_player}, deciding {game.current_player})"]
    for seat, p in enumerate(st.players):
        sees_all = viewer is None or viewer == seat
        bonus = (p.bonus_team or "-") if (sees_all or st.revealed) else "?"
        lines.append(f"seat {seat} [{p.deck_name}] wins {p.wins} spirit {p.spirit} deck {len(p.deck)} "
                     f"hand {len(p.hand)} bonus {bonus}")
        if sees_all:
            lines.append("  hand: " + ", ".join(cards[c].name for c in sorted(p.hand)))
        if p.shown:
            lines.append("  shown (in hand or face-down): " + ", ".join(cards[c].name for c in sorted(p.shown)))
        if not st.revealed and not sees_all:
            lines.append(f"  {len(p.slots())} face-down character(s) chosen")
            continue
        for label, slot in [("Arena", p.fighter)] + [(f"line {i + 1}", s) for i, s in enumerate(p.sideline)]:
            if slot is None:
                continue
            names = [cards[a.card].name if (a.face_up or a.turned or sees_all) else "face-down card"
                     for a in slot.attached]
            atts = [f"{n}{'' if a.face_up else ' (turned up, unpaid)' if a.turned else ' (down)'}"
                    for n, a in zip(names, slot.attached)]
            extra = f" damage {slot.damage}" if label == "Arena" else ""
            lines.append(f"  {label}: {cards[slot.char].name}{extra} [{', '.join(atts)}]")
        lines.append(f"  discard: {len(p.discard)}  won: {[cards[c].name for c in p.won]} "
                     f"lost: {[cards[c].name for c in p.lost]}")
    if st.winner is not None:
        lines.append("drawn game" if st.winner < 0 else f"winner: seat {st.winner}")
    return "\n".join(lines)


def table_view(game: YYHGame, seat: int | None) -> dict[str, Any]:
    """See ``Game.table_view``."""
    cards = game.pool.cards
    st = game.state

    def entry(cid: int, info: str | None = None) -> dict[str, str]:
        return {"name": cards[cid].name, "info": info if info is not None else _card_info(cards[cid])}

    seats = []
    for s, p in enumerate(st.players):
        own = seat is None or seat == s
        zones = []
        if own or st.revealed:
            for label, slot in ([("Arena fighter", p.fighter)] if p.fighter is not None else []) + \
                    [(f"Sideline line {i + 1}", sl) for i, sl in enumerate(p.sideline)]:
                char = cards[slot.char]
                if label == "Arena fighter" and st.revealed:
                    info = (f"damage {slot.damage}, Defense {defense_value(st, s)}"
                            + (f"; {_attacks(char)}" if char.attacks else ""))
                else:
                    info = _card_info(char)
                shown = [entry(slot.char, info)]
                hidden = 0
                for att in slot.attached:
                    if att.face_up:
                        shown.append(entry(att.card, "attached face-up"))
                    elif att.turned:
                        shown.append(entry(att.card, "turned up, not yet paid for"))
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
            zones.append({"name": "hand", "cards": [], "hidden": len(p.hand)})
        zones.append({"name": "shown (in hand or face-down)", "cards": [entry(c, "shown") for c in sorted(p.shown)],
                      "hidden": 0})
        zones.append({"name": "deck", "cards": [], "hidden": len(p.deck)})
        zones.append({"name": "discard", "cards": [entry(c) for c in p.discard], "hidden": 0})
        zones.append({"name": "won matches", "cards": [entry(c) for c in p.won], "hidden": 0})
        zones.append({"name": "lost matches", "cards": [entry(c) for c in p.lost], "hidden": 0})
        bonus = (p.bonus_team or "none") if (own or st.revealed) else "hidden"
        seats.append({"seat": s, "label": f"seat {s} ({p.deck_name})" + (" (you)" if s == seat else ""),
                      "counters": {"Spirit Energy": p.spirit, "wins": p.wins, "hand": len(p.hand),
                                   "deck": len(p.deck), "Team Bonus": bonus},
                      "zones": zones,
                      "note": "turn player" if (st.revealed and st.turn_player == s
                                                and st.winner is None) else ""})
    to_act = int(game.current_player)
    if st.winner is not None:
        text = "drawn game" if st.winner < 0 else f"winner: seat {st.winner}"
    elif not st.players:
        text = ""
    else:
        text = f"seat {to_act} to decide ({game.phase_name})"
    return {"title": "Yu Yu Hakusho TCG", "phase": game.phase_name, "to_act": to_act,
            "counters": {"turn": st.turn_number, "phase": game.phase_name}, "zones": [],
            "seats": seats, "text": text}


def public_action(game: YYHGame, action: int, seat: int) -> int:
    """The public view of ``action`` for ``seat``: the action itself, except setup picks before
    the reveal (``num_actions``) and face-down attachments (``num_actions + slot``) for the
    other seat."""
    if seat == game.current_player:
        return action
    block, _card, extra = game.table.decoded[action]
    if block == Block.PICK and not game.state.revealed:
        return game.num_actions
    if block == Block.ATTACH and extra != 0:
        return game.num_actions + extra
    return action


def public_action_name(game: YYHGame, action: int, seat: int) -> str | None:
    """How ``seat`` sees ``action`` of ``current_player``: setup picks and face-down
    attachments are shown by name only to the acting seat; everything else is public."""
    view = public_action(game, action, seat)
    if view == action:
        attack = _printed_attack(game, action)  # the fighter is face up in the Arena: its attacks are public
        return game.action_name(action) + (f" ({attack.name})" if attack is not None else "")
    if view == game.num_actions:
        return "setup: put a face-down character on the field"
    return f"attach a face-down card to Sideline slot {view - game.num_actions}"


def describe_event(game: YYHGame, event: Event, seat: int) -> str:
    """One readable line for an event ``seat`` saw."""
    kind, args = event[0], event[1:]
    cards = game.pool.cards

    def name(cid: int) -> str:
        return cards[cid].name

    if kind == CoreEvent.ACTED:
        actor, view = args
        if view == game.num_actions:
            what = "setup: put a face-down character on the field"
        elif view > game.num_actions:
            what = f"attach a face-down card to Sideline slot {view - game.num_actions}"
        else:
            what = game.action_name(view)
        return f"seat {actor}: {what}"
    if kind == CoreEvent.DECIDED_UNSEEN:
        return f"seat {args[0]} made a decision"
    if kind == Ev.DECK:
        from yokai_envs.yyh_tcg.decks import starter_decks
        deck = list(starter_decks())[args[1]] if args[1] >= 0 else game.state.players[args[0]].deck_name
        return f"seat {args[0]} plays the deck {deck}"
    texts = {
        Ev.SHUFFLE: lambda: f"seat {args[0]} shuffles their deck",
        Ev.DREW: lambda: f"seat {args[0]} draws {name(args[1])}",
        Ev.DREW_HIDDEN: lambda: f"seat {args[0]} draws a card",
        Ev.LINE: lambda: f"seat {args[0]}'s {'Arena fighter' if args[1] == 0 else f'line {args[1]}'} "
                         f"is {name(args[2])}",
        Ev.FIRST: lambda: f"seat {args[0]} goes first",
        Ev.TURN: lambda: f"turn {args[1]}: seat {args[0]}",
        Ev.MILLED: lambda: f"seat {args[0]} mills {name(args[1])}",
        Ev.SEARCHED: lambda: f"seat {args[0]} searches and shows {name(args[1])}",
        Ev.STRIPPED: lambda: f"seat {args[0]} discards {name(args[1])} at random",
        Ev.FLIPPED: lambda: f"seat {args[0]}'s face-down {name(args[1])} turns up: "
                            + ("paid" if args[2] else "discarded, unpaid"),
        Ev.DAMAGE: lambda: f"seat {args[0]}'s fighter takes {args[1]} damage",
        Ev.MATCH: lambda: f"seat {args[0]} wins the match",
        Ev.GAME_OVER: lambda: "drawn game" if args[0] < 0 else f"seat {args[0]} wins the game",
        Ev.TURNED: lambda: f"seat {args[0]}'s face-down {name(args[1])} turns up, not yet paid for",
    }
    text = texts.get(kind)  # type: ignore[call-overload]
    return text() if text is not None else f"event {' '.join(map(str, event))}"


# ------------------------------------------------------------------ words for a new player
def _printed_attack(game: YYHGame, action: int) -> Any:
    """The printed attack ``action`` of the deciding seat uses (None: not a printed attack)."""
    block, card, _ = game.table.decoded[action]
    fighter = game.state.players[game.current_player].fighter if block == Block.ATTACK_OWN else None
    if fighter is None or card >= len(game.pool.cards[fighter.char].attacks):
        return None
    return game.pool.cards[fighter.char].attacks[card]


def action_words(game: YYHGame, action: int) -> tuple[str, str]:
    """A button's label and tooltip for the seat to decide: a printed attack by its name, value
    and cost; a card by its rules text."""
    block, card, _ = game.table.decoded[action]
    name = game.action_name(action)
    cards = game.pool.cards
    if block == Block.ATTACK_OWN:
        attack = _printed_attack(game, action)
        if attack is None:
            return name, "Use your fighter's printed attack"
        fighter = cards[game.state.players[game.current_player].fighter.char]
        cost = f", costs {attack.spirit} Spirit" if attack.spirit else ""
        return f"attack: {attack.name}", f"{fighter.name} uses {attack.name} ({attack.value} Attack{cost})"
    if block in (Block.RAGE, Block.MIN_DAMAGE, Block.DONE):
        return name, name[0].upper() + name[1:]
    text = cards[card].text
    return name, f"{cards[card].name}: {text}" if text else cards[card].name


def end_words(game: YYHGame) -> dict[str, str]:
    """The rule that ended the game (three match wins, or a deck out) and the match wins."""
    from yokai_envs.yyh_tcg.state import WINS_NEEDED

    st = game.state
    wins = ", ".join(f"player {s} {p.wins}" for s, p in enumerate(st.players))
    score = f"match wins ({WINS_NEEDED} win the game): {wins}"
    if st.winner is None or st.winner < 0:
        return {"reason": "neither player can win any more: a drawn game", "score": score}
    end = game.outcome_facts()["end"]
    loser = 1 - st.winner
    reason = {"three match wins": f"player {st.winner} won {WINS_NEEDED} matches",
              "deck out": f"player {loser} had to draw from an empty deck, so player {loser} loses",
              "deck out, no fighter": f"player {loser} had no fighter left for the Arena and an empty deck, "
                                      f"so player {loser} loses"}.get(end, end)
    return {"reason": reason, "score": score}


#: What the new-game page and the glossary tooltips say of the game (its terms as the table shows them).
TITLE = "Yu Yu Hakusho TCG"
BLURB = "A two-player trading card game: Arena fighters trade attacks; win three matches, or outlast the other deck."
GLOSSARY = {
    "arena": "Where the two fighting Characters stand; the loser of a match leaves it.",
    "arena fighter": "The Character fighting now; 4 damage defeats it.",
    "sideline": "Your Characters waiting face down, in the order they will fight.",
    "spirit": "Spirit Energy (0-10): gained 2 a turn, paid for Techniques, Items, Events and strong attacks.",
    "spirit energy": "Gained 2 a turn (kept 0-10), paid for Techniques, Items, Events and strong attacks.",
    "match": "One Arena fight; the first to win 3 matches wins the game.",
    "wins": "Matches won: 3 win the game.",
    "technique": "An extra attack attached to a Character.",
    "team bonus": "Three Characters of one team on the field switch on that team's bonus.",
    "rage": "Discard a card for +3000 Attack.",
}

#: The new-game form's words for the options a player chooses (the others fold under "more options").
OPTION_WORDS = {"decks": "starter deck", "variant": "rules (book: as printed; balanced: tuned)"}
