"""The words of ``yokai serve``'s table: one name per seat everywhere, a log whose every move
names its player, buttons that say what they do, and the end in the game's own terms.

The games write seats as "player N" or "seat N" (their text views, logs and table pictures, as
the terminal shows them); the page writes them as the one name of that seat ("You",
"AI (pretrained)", "AI 2 (heuristic)" when several AIs sit at the table). Everything here is
made from what the human's seat already sees: its view, its log, its legal actions, and once the
game is over the whole table (which the seed in the replay would show anyway).
"""

from __future__ import annotations

import re
from typing import Any

from yokai_envs.core.game import Game
from yokai_envs.core.information import CoreEvent
from yokai_envs.core.protocols import action_words, end_words, table_view

HUMAN = "human"
SEAT_MENTION = re.compile(r"\b(?:[Ss]eat|[Pp]layer) (\d+)\b")
YOU_SUFFIX = re.compile(r" \(you\)")


def agent_kind(spec: str) -> str:
    """What an agent spec is, in a word: ``ismcts:iterations=200`` is ``ismcts``."""
    return spec.split(":", 1)[0]


def seat_names(agents: list[str], human: int) -> list[str]:
    """"You" for the human seat; "AI (kind)" for a lone AI, "AI N (kind)" (N its seat) for several."""
    bots = [s for s in range(len(agents)) if s != human]
    return ["You" if s == human else f"AI ({agent_kind(agents[s])})" if len(bots) == 1
            else f"AI {s} ({agent_kind(agents[s])})" for s in range(len(agents))]


_YOU_VERBS = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
_AFTER_SEAT = re.compile(r"\b(?:[Ss]eat|[Pp]layer) (\d+)\b('s\b| [a-z]+\b)?")


def _you(rest: str) -> str:
    """What follows "You" where the game wrote "player N ...": "'s" -> "r", "loses" -> "lose"."""
    if rest == "'s":
        return "r"
    word = rest.strip()
    if word in _YOU_VERBS:
        return " " + _YOU_VERBS[word]
    if not word.endswith("s") or word.endswith("ss"):
        return rest
    if word.endswith(("ches", "shes", "sses", "xes")):
        return " " + word[:-2]
    return " " + (word[:-3] + "y" if word.endswith("ies") else word[:-1])


def named(text: str, names: list[str]) -> str:
    """``text`` with every "player N"/"seat N" written as that seat's name (the verb after it
    agreeing with "You")."""
    def name(match: re.Match[str]) -> str:
        seat, rest = int(match.group(1)), match.group(2) or ""
        if not 0 <= seat < len(names):
            return match.group(0)
        if names[seat] != "You":
            return names[seat] + rest
        before = text[:match.start()].rstrip()
        return ("You" if not before or before[-1] in ".:!?" else "you") + _you(rest)
    return _AFTER_SEAT.sub(name, text)


def _named_any(value: Any, names: list[str]) -> Any:
    if isinstance(value, str):
        return named(value, names)
    if isinstance(value, list):
        return [_named_any(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _named_any(v, names) for k, v in value.items()}
    return value


def named_table(table: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A ``table_view`` with seat names, each seat box labelled by its name (no "(you)" suffix)."""
    out = _named_any({k: v for k, v in table.items() if k != "seats"}, names)
    out["seats"] = [{**_named_any(s, names), "label": YOU_SUFFIX.sub("", named(s["label"], names)),
                     "name": names[s["seat"]]} for s in table.get("seats", [])]
    return out


# The games name their actions as commands ("play 33", "target the left enemy", "card Kappa
# Chief"); a log line says who did it: (the command's start, as "You ...", as "AI ... ").
_MOVES = [("button, flip, play ", "press the button, flip the Direction card and play ",
           "presses the button, flips the Direction card and plays "),
          ("pass / done / no", "pass", "passes"), ("done / pass", "are done", "is done"),
          ("done", "are done", "is done"),
          ("setup: put ", "put ", "puts "), ("search: take ", "search and take ", "searches and takes "),
          ("rage: ", "rage: ", "rages: "), ("card ", "choose ", "chooses "), ("soul ", "choose Soul ", "chooses Soul "),
          ("special attack", "declare the Special Attack", "declares the Special Attack"),
          ("basic attack", "declare a Basic Attack", "declares a Basic Attack"),
          ("return", "declare a Return", "declares a Return"), ("topdeck", "take the top card of the deck",
                                                                 "takes the top card of the deck"),
          ("yes", "say yes", "says yes"), ("ally pays", "let the Ally pay", "lets the Ally pay"),
          ("my ", "choose my ", "chooses their "), ("enemy ", "choose the enemy's ", "chooses the enemy's "),
          ("their ", "choose their ", "chooses their "), ("your ", "choose your ", "chooses your ")]
_VERBS = {"play", "pass", "attach", "discard", "pay", "place", "use", "take", "target", "pick", "evolve", "choose",
          "wait"}


def move_words(name: str, text: str) -> str:
    """A move ``text`` (an action as its seat saw it) as a sentence about ``name`` doing it."""
    you = name == "You"
    for start, as_you, as_them in _MOVES:
        if text.startswith(start) and (len(text) == len(start) or start.endswith(" ") or text[len(start)] in " ,"):
            return f"{name} {as_you if you else as_them}{text[len(start):]}"
    verb, _, rest = text.partition(" ")
    if verb in _VERBS:
        them = verb + ("es" if verb.endswith(("ss", "sh", "ch")) else "s")
        return f"{name} {verb if you else them}" + (f" {rest}" if rest else "")
    return f"{name}: {text}"


def story(game: Game, seat: int, names: list[str]) -> list[dict[str, Any]]:
    """The seat's log as lines ``{"by", "text", "move"}``: a move (a decision) names the seat that
    made it; another line is by the seat it names, else by the last move's seat (what that move
    made happen), else by nobody (the deal)."""
    lines = []
    last: int | None = None
    for event, text in zip(game.seen_events(seat), game.public_log(seat), strict=True):
        move = event[0] in (CoreEvent.ACTED, CoreEvent.DECIDED_UNSEEN)
        if move:
            last = int(event[1])
            lines.append({"by": last, "text": move_words(names[last], named(text, names)), "move": True})
            continue
        if re.match(r"you\b", text):  # a line the game starts with "you" names the seat as the page does
            text = "Y" + text[1:]
        mentioned = SEAT_MENTION.search(text)
        by = int(mentioned.group(1)) if mentioned else seat if re.match(r"(?i)you\b|your\b", text) else last
        lines.append({"by": by, "text": named(text, names), "move": False})
    return lines


def _hand(table: dict[str, Any], seat: int) -> list[str]:
    """The distinct card names in ``seat``'s hand zone, in hand order."""
    for box in table.get("seats", []):
        if box["seat"] == seat:
            for zone in box["zones"]:
                if zone["name"] == "hand":
                    return list(dict.fromkeys(card["name"] for card in zone["cards"]))
    return []


def _uses(label: str, card: str) -> bool:
    """Whether an action labelled ``label`` plays the hand card ``card`` (named in it: "play 33"
    uses a 3, "attach Rose Whip to ..." uses Rose Whip)."""
    return re.search(rf"(?<![\w]){re.escape(card)}(?![A-Za-z])", label) is not None


def winner_words(returns: list[float], names: list[str]) -> str:
    """"You win", "AI 2 (heuristic) wins", "You and AI 1 (random) win", "Everybody wins", "Nobody wins"."""
    best = max(returns)
    if min(returns) == best:
        return "Everybody wins" if best > 0 else "Nobody wins" if best < 0 else "A draw"
    winners = [names[s] for s, r in enumerate(returns) if r == best]
    return " and ".join(winners) + (" win" if len(winners) > 1 or winners == ["You"] else " wins")


def dress(view: dict[str, Any], game: Game, agents: list[str]) -> dict[str, Any]:
    """The human's view with the words of this module: ``names``, ``story`` (the named log),
    the table with names, per legal action a label, a tooltip and the hand cards it plays
    (``cards``, so the page can play a card by clicking it), and once over ``end`` (winner, reason,
    score) and ``revealed`` (the whole table, every hand face up)."""
    seat = view["seat"]
    names = seat_names(agents, seat)
    view["names"] = names
    view["story"] = story(game, seat, names)
    view["table"] = named_table(view["table"], names)
    legal = [{**a, **dict(zip(("label", "tip"), action_words(game, a["id"]), strict=True))} for a in view["legal"]]
    hand = _hand(view["table"], seat)
    view["legal"] = [{**a, "cards": [c for c in hand if _uses(a["label"], c)]} for a in legal]
    view["moves"] = [{**m, "seen": None if m["seen"] is None else named(m["seen"], names)} for m in view["moves"]]
    if view["over"]:
        view["end"] = {"winner": winner_words([float(r) for r in game.returns()], names),
                       **{k: named(v, names) for k, v in end_words(game).items()}}
        view["revealed"] = named_table(table_view(game, None), names)
    return view
