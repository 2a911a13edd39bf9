"""Views of the YOKAIZO table: the text views (``render``, ``render_for``), the JSON-able picture
for viewers (``table_view``) and how a seat sees the action being taken (``public_action_name``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from yokai_envs.yokaizo.actions import A_CARD
from yokai_envs.yokaizo.cards import ELEMENTS
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.effects import Pick
from yokai_envs.yokaizo.rules import SetupPick
from yokai_envs.yokaizo.state import CARDS_PER_SEAT, NO, WIN_SOULS, Event, PickVerb

if TYPE_CHECKING:
    from yokai_envs.yokaizo.game import YokaizoGame


# ------------------------------------------------------------------ text
def card_text(g: YokaizoGame, c: int) -> str:
    st = g.state
    card = st.cards[st.ctype[c]]
    return f"{card.name}[{ELEMENTS[card.element][0:2]} S{card.speed} {card.souls}♦]"


def seat_text(g: YokaizoGame, p: int, viewer: int | None) -> list[str]:
    """Seat ``p``'s zones as ``viewer`` sees them (None: everything)."""
    st = g.state
    see = viewer is None or viewer == p
    lines = [f"Seat {p}: Grave {st.grave_souls(p)}/13 souls, hand {len(st.hand[p])}, "
             f"deck {len(st.deck[p])}, limbo {len(st.limbo[p])}, burned {len(st.burned[p])}; "
             f"decklist {g.deck_name(p)}"]
    for s in (0, 1):
        y = st.field[p][s]
        if y == NO:
            lines.append(f"  Field {s}: (empty)")
            continue
        if st.hidden_setup and not see:
            lines.append(f"  Field {s}: (face-down)")
            continue
        souls = " ".join(
            (card_text(g, c) if (st.up[c] or st.shown[c] or see) else "??") + ("^" if st.up[c] else "v")
            + ("B" if st.blighted[c] else "") for c in st.souls[p][s])
        relics = ", ".join(card_text(g, c) for c in st.relics[p][s])
        lines.append(f"  Field {s}: {card_text(g, y)} speed {st.field_speed(p, s)}"
                     f"{' SLOWED' if st.slowed[y] else ''} | souls [{souls}] "
                     f"shields {len(st.shields[p][s])} attached [{relics}]")
    void = ", ".join(("??" if (st.facedown[c] and not st.shown[c] and not see) else card_text(g, c))
                     + ("(frozen)" if st.frozen[c] else "") + ("(token)" if st.facedown[c] else "")
                     for c in st.void[p])
    lines.append(f"  Void: {void}")
    if see:
        lines.append("  Hand: " + ", ".join(card_text(g, c) for c in st.hand[p]))
    else:
        known = [(st.cards[t].name, k) for t, k in sorted(st.pub_hand[p].items())]
        known_deck = [(st.cards[t].name, k) for t, k in sorted(st.pub_deck[p].items())]
        known_burned = [(st.cards[t].name, k) for t, k in sorted(st.pub_burned[p].items())]
        for label, cards in (("Hand", known), ("Deck", known_deck), ("Burned", known_burned)):
            if cards:
                lines.append(f"  {label}, known to hold: " + ", ".join(f"{n} x{k}" for n, k in cards))
    return lines


def text(g: YokaizoGame, viewer: int | None) -> str:
    """The table as text for ``viewer`` (None: omniscient, ``render``)."""
    st = g.state
    head = f"YOKAIZO round {st.round} tier {'-' if st.tier >= 99 else st.tier}"
    if g.is_terminal:
        head += f" - over, winner {st.winner if st.winner != NO else 'none (draw)'}"
    else:
        head += f" - seat {st.decider} to decide: {g.phase_name}"
    return "\n".join([head, *seat_text(g, 0, viewer), *seat_text(g, 1, viewer)])


_TURNED_AROUND = re.compile(r"\b(my|enemy)\b")

#: the hidden choices of a card the other seat does not see, in ``public_action`` order
HIDDEN_CHOICES = ("choose a Field Yokai face-down", "place a face-down Soul from hand",
                  f"{PickVerb.SHINE}: take a card into hand", f"{PickVerb.UNBURN}: take a card into hand")


def _hidden_choice(g: YokaizoGame, action: int, seat: int) -> int:
    """Which of ``HIDDEN_CHOICES`` the pending ``action`` is to ``seat`` (-1: it sees the action)."""
    st = g.state
    if seat == g.current_player or g.is_terminal or action < A_CARD:
        return -1
    task = st.stack[-1]
    if isinstance(task, SetupPick):
        return 0
    if isinstance(task, Damage):
        return 1
    if isinstance(task, Pick):
        if task.verb == PickVerb.SHINE:
            return 2
        if task.verb == PickVerb.UNBURN and task.params["to"] == "hand":
            return 3
    return -1


def public_action_name(g: YokaizoGame, action: int, seat: int) -> str | None:
    """How ``seat`` sees the pending ``action``: card names chosen into hidden places (setup picks,
    face-down Souls, Shine into hand, unburning into hand) are not shown to the other seat."""
    name = g.action_name(action)
    hidden = _hidden_choice(g, action, seat)
    if hidden >= 0:
        return HIDDEN_CHOICES[hidden]
    if seat == g.current_player or g.is_terminal:
        return name + _target_card(g, action, seat)
    # whole words, both at once: "enemy " must not be read as "en" + "my "
    return _TURNED_AROUND.sub(lambda m: {"my": "their", "enemy": "your"}[m.group(1)], name) + _target_card(
        g, action, seat)


def _target_card(g: YokaizoGame, action: int, seat: int) -> str:
    """`` (NAME)``: the card a Field or Void target holds, when ``seat`` sees it ("" otherwise)."""
    from yokai_envs.yokaizo.actions import ActionBlock, decode

    st = g.state
    block, index = decode(action)
    actor = g.current_player
    if block in (ActionBlock.MY_FIELD, ActionBlock.OPP_FIELD):
        p = actor if block == ActionBlock.MY_FIELD else 1 - actor
        c = st.field[p][index]
        seen = c != NO and not (st.hidden_setup and p != seat)
    elif block in (ActionBlock.MY_VOID, ActionBlock.OPP_VOID):
        p = actor if block == ActionBlock.MY_VOID else 1 - actor
        c = st.void[p][index] if index < len(st.void[p]) else NO
        seen = c != NO and (p == seat or not st.facedown[c] or bool(st.shown[c]))
    else:
        return ""
    return f" ({st.cards[st.ctype[c]].name})" if seen else ""


def public_action(g: YokaizoGame, action: int, seat: int) -> int:
    """The int ``seat`` records for the pending ``action``: the action id when it sees the action
    (its name only turns "my"/"enemy" around), else ``num_actions`` + the hidden choice."""
    hidden = _hidden_choice(g, action, seat)
    return action if hidden < 0 else g.num_actions + hidden


def _card_name(g: YokaizoGame, t: int) -> str:
    st = g.state
    return "an unseen card" if t >= len(st.cards) else st.cards[t].name


# How each event reads, with {who} (the seat, "you" to itself), {whose} ("your"/"player N's"),
# {field} and {card}; the verb agrees with "you" ({s} is "" for you, "s" for a seat).
_EVENT_WORDS = {
    Event.DREW: "{who} draw{s} {card}", Event.REVEALED: "{who} reveal{s} {card} in field {field}",
    Event.FIRST_TURN_REVEAL: "{who} reveal{s} the top card of the deck: {card}",
    Event.SPUN: "Spin reveals the new top card of {whose} deck: {card}",
    Event.TURN: "{card} ({whose} field {field}) takes its Turn",
    Event.ENTERED: "{card} enters {whose} field {field}",
    Event.SOUL_PLACED: "{whose} field {field} Yokai gets a face-down Soul: {card}",
    Event.SOUL_FLIPPED: "a Soul of {whose} field {field} Yokai turns face up: {card}",
    Event.TO_LIMBO: "{card} goes to {whose} Limbo", Event.BANISHED: "{card} ({whose} field {field}) is Banished",
    Event.TOKEN: "{who} make{s} a Token of {card}",
    Event.SHIELDED: "{whose} field {field} Yokai gains a Shield: {card}",
    Event.ATTACHED: "{card} is Attached to {whose} field {field} Yokai", Event.BURNED: "{who} Burn{s} {card}",
    Event.TO_VOID: "{card} enters {whose} Void", Event.TO_HAND: "{card} goes back into {whose} hand"}


def describe_event(g: YokaizoGame, event: tuple[int, ...], seat: int) -> str:
    """One line for an event ``seat`` saw (decisions are named by ``public_action_name``)."""
    kind, *args = event
    if kind < Event.DECKLIST:
        return f"seat {args[0]} made a decision"
    k = Event(kind)
    if k == Event.ROUND:
        return f"round {args[0]} starts"
    you = bool(args) and args[0] == seat
    who, whose, s = ("you", "your", "") if you else (f"player {args[0]}", f"player {args[0]}'s", "s")
    if k == Event.DECKLIST:
        return f"{who} play{s} ready deck {args[1]}"
    if k in (Event.SHUFFLED, Event.LIMBO_TO_DECK):
        return f"{whose} deck is shuffled" if k == Event.SHUFFLED else f"{whose} Limbo becomes the deck"
    card = _card_name(g, args[2] if k == Event.ENTERED else args[-1])
    if k == Event.ENTERED and args[3]:
        card += " (it took its Turn this Round already)"
    field = args[1] if len(args) > 2 else ""
    return _EVENT_WORDS[k].format(who=who, whose=whose, s=s, field=field, card=card)


# ------------------------------------------------------------------ the table picture
def _card(g: YokaizoGame, c: int, extra: str = "") -> dict[str, str]:
    st = g.state
    card = st.cards[st.ctype[c]]
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
    st = g.state
    def face_up(c: int) -> bool:  # or announced by name as it went face-down (R33)
        return bool(st.up[c] or st.shown[c])

    def not_token(c: int) -> bool:
        return not st.facedown[c] or bool(st.shown[c])

    def shown(c: int) -> bool:
        return bool(st.shown[c])

    def not_owned_by(p: int) -> Callable[[int], bool]:
        return lambda c: c // CARDS_PER_SEAT != p

    seats = []
    for p in (0, 1):
        sees = seat is None or seat == p
        private = None if sees else _nothing  # cards only their owner sees
        zones: list[dict[str, Any]] = []
        for s in (0, 1):
            y = st.field[p][s]
            if y == NO:
                zones.append({"name": f"field {s}", "cards": [], "hidden": 0})
                continue
            hidden = st.hidden_setup and not sees
            status = (f"Speed now {st.field_speed(p, s)}" + (", Slowed" if st.slowed[y] else "")
                      + (", still to take its Turn this Round" if st.still_to_act(p, s) else ""))
            zones.append({"name": f"field {s}", "cards": [] if hidden else [_card(g, y, status)],
                          "hidden": 1 if hidden else 0})
            zones.append(_zone(f"souls of field {s}", g, st.souls[p][s], None if sees else face_up,
                               lambda c: ("face up" if st.up[c] else "face down")
                               + (", Blighted" if st.blighted[c] else "")))
            zones.append(_zone(f"shields of field {s}", g, st.shields[p][s], None if sees else shown))
            zones.append(_zone(f"attached to field {s}", g, st.relics[p][s], None))
        zones.append(_zone("void", g, st.void[p], None if sees else not_token,
                           lambda c: ", ".join(w for w, f in (("Token", st.facedown[c]), ("Frozen", st.frozen[c]))
                                               if f)))
        zones.append(_zone("hand", g, st.hand[p], private))
        zones.append(_zone("limbo", g, st.limbo[p], None))
        zones.append(_zone("grave", g, st.grave[p], None))
        # the viewer's own cards Burned into this Grave are known to it (R14)
        zones.append(_zone("burned", g, st.burned[p], None if sees else not_owned_by(p)))
        if not sees:
            for label, known in (("hand, known cards", st.pub_hand[p]), ("deck, known cards", st.pub_deck[p]),
                                 ("burned, known cards", st.pub_burned[p])):
                zones.append({"name": label, "hidden": 0, "cards": [
                    {"name": st.cards[t].name, "info": f"at least {k}"} for t, k in sorted(known.items())]})
        seats.append({"seat": p, "label": f"player {p}, decklist {g.deck_name(p)}" + (" (you)" if seat == p else ""),
                      "counters": {"grave souls": f"{st.grave_souls(p)} of {WIN_SOULS}", "hand": len(st.hand[p]),
                                   "deck": len(st.deck[p]), "limbo": len(st.limbo[p])},
                      "zones": zones,
                      "note": "takes the Turn" if st.active is not None and st.active.seat == p else ""})
    over = ""
    if g.is_terminal:
        over = f"game over: player {st.winner} wins" if st.winner != NO else "game over: draw"
    return {"title": f"YOKAIZO, round {st.round}", "phase": g.phase_name, "to_act": int(g.current_player),
            "counters": {"round": st.round, "speed tier": "-" if st.tier >= 99 else st.tier, "step": g.steps},
            "zones": [_zone("exile", g, st.exile, lambda c: True)], "seats": seats, "text": over}


# ------------------------------------------------------------------ words for a new player
_FIXED_TIPS = {"PASS": "Pass, or say you are done, or answer no", "YES": "Answer yes",
               "SPECIAL": "Declare the Special Attack of the Yokai taking its Turn",
               "BASIC": "Declare a Basic Attack", "RETURN": "Declare a Return",
               "TOPDECK": "Take the top card of your deck (as a Soul, or to replace a Banished Yokai)",
               "ALLY": "Let the Ally pay the element being paid"}


def action_words(g: YokaizoGame, action: int) -> tuple[str, str]:
    """A button's label and tooltip for the seat to decide, naming the card a target holds when
    that seat can see it (a face-down Field Yokai or Token stays unnamed)."""
    from yokai_envs.yokaizo.actions import ActionBlock, decode

    st = g.state
    me = g.current_player
    block, index = decode(action)
    name = g.action_name(action)
    if block == ActionBlock.CARD:
        card = st.cards[index]
        return card.name, f"{ELEMENTS[card.element]}, Speed {card.speed}, {card.souls} Souls: {card.text}".strip()
    if block in (ActionBlock.MY_FIELD, ActionBlock.OPP_FIELD):
        p, whose = (me, "your") if block == ActionBlock.MY_FIELD else (1 - me, "the enemy")
        y = st.field[p][index]
        if y == NO or (st.hidden_setup and p != me):
            return name, f"Choose {whose} Field Yokai {index}"
        return f"{st.cards[st.ctype[y]].name} ({whose} Field {index})", f"Choose {whose} Field Yokai {index}"
    if block in (ActionBlock.MY_VOID, ActionBlock.OPP_VOID):
        p, whose = (me, "your") if block == ActionBlock.MY_VOID else (1 - me, "the enemy")
        c = st.void[p][index] if index < len(st.void[p]) else NO
        if c == NO or (p != me and st.facedown[c] and not st.shown[c]):
            return name, f"Choose card {index} of {whose} Void"
        return f"{st.cards[st.ctype[c]].name} ({whose} Void)", f"Choose card {index} of {whose} Void"
    if block == ActionBlock.SOUL:
        return name, f"Choose Soul {index} of the Yokai this decision is about"
    return name, _FIXED_TIPS.get(block.name, name)


def end_words(g: YokaizoGame) -> dict[str, str]:
    """The rule that ended the game (a Grave reaching 13 Souls, or a Round without Turns) and the
    Souls in each Grave, seats as "player N"."""
    from yokai_envs.yokaizo.state import EndCause

    st = g.state
    graves = ", ".join(f"player {p} {st.grave_souls(p)}" for p in (0, 1))
    score = f"Souls in the Grave ({WIN_SOULS} lose): {graves}"
    if st.end_cause == EndCause.NO_TURNS:
        return {"reason": "no Yokai could take a Turn for a whole Round: a draw", "score": score}
    loser = 1 - st.winner if st.winner != NO else NO
    how = "a Banished Yokai entered it" if st.end_cause == EndCause.BANISH else "a Burned card entered it"
    return {"reason": f"player {loser}'s Grave reached {WIN_SOULS} Souls ({how}), so player {loser} loses",
            "score": score}


#: What the new-game page and the glossary tooltips say of the game (its terms as the table shows them).
TITLE = "YOKAIZO"
BLURB = ("A two-player trading card game: Yokai take Turns by Speed; Banish the enemy's until their Grave"
         " holds 13 Souls.")
GLOSSARY = {
    "field": "Each side keeps two Yokai in the Field; they act one at a time, fastest first.",
    "void": "Up to 6 cards put out to pay for attacks (some act on arrival); destroying them pays a Special "
            "Attack or a Basic Attack.",
    "limbo": "Where destroyed cards go; it becomes the new deck, shuffled, when the deck is empty.",
    "grave": "Banished Yokai go here; a player whose Grave holds 13 Souls loses.",
    "grave souls": "The Souls of the Yokai in the Grave: 13 lose the game.",
    "souls": "Each point of damage lays a face-down Soul or turns one face up (setting off its effect); a Yokai "
             "with every Soul face up is Banished.",
    "shields": "Absorb damage before any Soul is touched.",
    "banished": "Sent to its owner's Grave (all its Souls face up) and replaced.",
    "burned": "Put into the Grave of the player who burned it.",
    "speed tier": "The Speed now acting: the Round goes from the fastest Yokai to the slowest.",
    "token": "A face-down card in the Void standing for a Yokai.",
    "special attack": "The Yokai's printed attack, paid by destroying Void cards of its elements.",
    "basic attack": "Destroy 1-3 Void cards to deal that much damage.",
    "return": "Take 2 BREAK damage to trade places with a card in hand.",
    "exile": "Out of the game.",
}

#: The new-game form's words for the options a player chooses (the others fold under "more options").
OPTION_WORDS = {"decks": "ready-made deck"}
