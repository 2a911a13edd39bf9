"""Card pool: load and validate ``cards.yaml`` into immutable card records and index tables.

Card types and timings are read from the YAML as plain words and stored as the ``CardType`` /
``Timing`` string enums (so they still compare equal to the words)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import read_regular_file
from yokai_envs.yyh_tcg import effects as fx

CARDS_FILE = Path(__file__).with_name("cards.yaml")


class CardType(StrEnum):
    CHARACTER = "character"
    TECHNIQUE = "technique"
    ITEM = "item"
    EVENT = "event"


class Timing(StrEnum):
    """When an ability or Event is used: the Draw step, the Main step, part 4 of the Attack
    step ("Attack:") or part 2 ("when you use an attack")."""

    DRAW = "draw"
    MAIN = "main"
    ATTACK = "attack"
    USE = "use"


#: The words a card file may use (plain strings: error messages print them).
ABILITY_TIMINGS = tuple(t.value for t in Timing)
EVENT_TIMINGS = (Timing.MAIN.value, Timing.USE.value, Timing.ATTACK.value)
ALIGNMENTS = ("hero", "villain")
_CHARACTER = CardType.CHARACTER  # bound once: Card.is_character runs on every step (see decisions.py)
#: Card types that are attached under a character.
ATTACHABLE = (CardType.TECHNIQUE, CardType.ITEM)
#: Most attacks printed on one character (fixes the action table).
MAX_OWN_ATTACKS = 2

Effects = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Attack:
    name: str
    value: int
    spirit: int
    discard: int
    effects: Effects


@dataclass(frozen=True)
class Ability:
    timing: Timing
    spirit: int
    effects: Effects


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    type: CardType
    team: str | None = None
    alignment: str | None = None
    defense: int = 0
    attacks: tuple[Attack, ...] = ()
    cost: int = 0              # Spirit icons of a Technique/Item (paid when attached face-up)
    passive: Effects = ()
    ability: Ability | None = None
    timing: Timing = Timing.MAIN  # Events: main or use ("when you use an attack")
    spirit: int = 0            # Events: Spirit Energy to play
    effects: Effects = ()      # Events: what they do
    limit1: bool = False
    text: str = ""

    @property
    def is_character(self) -> bool:
        return self.type == _CHARACTER

    def passive_value(self, verb: str) -> int:
        return sum(v for k, v in self.passive if k == verb)


@dataclass(frozen=True)
class CardPool:
    cards: tuple[Card, ...]
    by_name: dict[str, Card]
    teams: tuple[str, ...]
    team_bonus: dict[str, Effects]
    characters: tuple[int, ...]     # card ids, in pool order
    attachables: tuple[int, ...]    # techniques and items
    events: tuple[int, ...]
    ability_cards: tuple[int, ...]  # cards with an activated ability
    techniques: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, name: str) -> Card:
        if name not in self.by_name:
            raise ConfigError(f"unknown card {name!r}{suggest(name, self.by_name)}")
        return self.by_name[name]


def suggest(name: str, known: Any) -> str:
    import difflib
    close = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _int(owner: str, raw: dict, field: str, low: int, high: int, default: int | None = None) -> int:
    value = raw.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{owner}: field {field!r} must be an integer {low}..{high}, got {value!r}")
    return value


def _attack(owner: str, raw: Any, default_name: str) -> Attack:
    if not isinstance(raw, dict):
        raise ConfigError(f"{owner}: an attack must be a mapping, got {raw!r}")
    unknown = set(raw) - {"name", "value", "spirit", "discard", "effects"}
    if unknown:
        raise ConfigError(f"{owner}: attack has unknown field(s) {sorted(unknown)}")
    return Attack(name=str(raw.get("name", default_name)), value=_int(owner, raw, "value", 0, 30),
                  spirit=_int(owner, raw, "spirit", 0, 10, 0), discard=_int(owner, raw, "discard", 0, 3, 0),
                  effects=fx.validate(owner, "attack.effects", raw.get("effects"), fx.IMMEDIATE_VERBS))


def _ability(owner: str, raw: Any) -> Ability | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or raw.get("timing") not in ABILITY_TIMINGS:
        raise ConfigError(f"{owner}: field 'ability' needs a timing in {ABILITY_TIMINGS}, got {raw!r}")
    effects = fx.validate(owner, "ability.effects", raw.get("effects"), fx.IMMEDIATE_VERBS)
    if not effects:
        raise ConfigError(f"{owner}: field 'ability' has no effects")
    return Ability(timing=Timing(raw["timing"]), spirit=_int(owner, raw, "spirit", 0, 10, 0), effects=effects)


_FIELDS = {
    CardType.CHARACTER: {"name", "type", "team", "alignment", "defense", "attacks", "passive", "ability", "limit1",
                         "text"},
    CardType.TECHNIQUE: {"name", "type", "cost", "attack", "limit1", "text"},
    CardType.ITEM: {"name", "type", "cost", "passive", "ability", "limit1", "text"},
    CardType.EVENT: {"name", "type", "timing", "spirit", "effects", "limit1", "text"},
}


def _card(cid: int, raw: Any, teams: dict[str, Effects]) -> Card:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"].strip():
        raise ConfigError(f"card #{cid}: every card needs a non-empty 'name', got {raw!r}")
    name = raw["name"]
    kind = raw.get("type")
    if kind not in fx.CARD_TYPES:
        raise ConfigError(f"{name}: field 'type' must be one of {fx.CARD_TYPES}, got {kind!r}")
    unknown = set(raw) - _FIELDS[kind]
    if unknown:
        raise ConfigError(f"{name}: unknown field(s) {sorted(unknown)} for a {kind}")
    limit1 = raw.get("limit1", False)
    if not isinstance(limit1, bool):
        raise ConfigError(f"{name}: field 'limit1' must be true or false")
    common: dict[str, Any] = {"id": cid, "name": name, "type": CardType(kind), "limit1": limit1}
    if kind == CardType.CHARACTER:
        team = raw.get("team")
        if team is not None and team not in teams:
            raise ConfigError(f"{name}: field 'team' names unknown team {team!r}{suggest(team, teams)}")
        if raw.get("alignment") not in ALIGNMENTS:
            raise ConfigError(f"{name}: field 'alignment' must be one of {ALIGNMENTS}, got {raw.get('alignment')!r}")
        attacks_raw = raw.get("attacks")
        if not isinstance(attacks_raw, list) or not 1 <= len(attacks_raw) <= MAX_OWN_ATTACKS:
            raise ConfigError(f"{name}: field 'attacks' must list 1..{MAX_OWN_ATTACKS} attacks")
        card = Card(**common, team=team, alignment=raw["alignment"], defense=_int(name, raw, "defense", 1, 20),
                    attacks=tuple(_attack(name, a, f"Attack {i + 1}") for i, a in enumerate(attacks_raw)),
                    passive=fx.validate(name, "passive", raw.get("passive"), fx.PASSIVE_VERBS),
                    ability=_ability(name, raw.get("ability")))
        if card.ability is not None and card.ability.timing == Timing.USE:
            raise ConfigError(f"{name}: characters have Draw:/Main:/Attack: abilities, not 'use'")
    elif kind == CardType.TECHNIQUE:
        card = Card(**common, cost=_int(name, raw, "cost", 0, 10, 0), attacks=(_attack(name, raw.get("attack"), name),))
    elif kind == CardType.ITEM:
        card = Card(**common, cost=_int(name, raw, "cost", 0, 10, 0),
                    passive=fx.validate(name, "passive", raw.get("passive"), fx.PASSIVE_VERBS),
                    ability=_ability(name, raw.get("ability")))
        if not card.passive and card.ability is None:
            raise ConfigError(f"{name}: an item needs a 'passive' or an 'ability'")
    else:
        timing = raw.get("timing", Timing.MAIN.value)
        if timing not in EVENT_TIMINGS:
            raise ConfigError(f"{name}: field 'timing' must be one of {EVENT_TIMINGS}, got {timing!r}")
        effects = fx.validate(name, "effects", raw.get("effects"), fx.IMMEDIATE_VERBS)
        if not effects:
            raise ConfigError(f"{name}: an event needs 'effects'")
        card = Card(**common, timing=Timing(timing), spirit=_int(name, raw, "spirit", 0, 10, 0), effects=effects)
    text = raw.get("text") or rules_text(card)
    return Card(**{**card.__dict__, "text": str(text)})


_ABILITY_LABELS = {Timing.DRAW: "Draw:", Timing.MAIN: "Main:", Timing.ATTACK: "Attack:",
                   Timing.USE: "When you use an attack:"}


#: Where a card's text works, as its generated text says (by ``is_character``): one rule for
#: passives and abilities, a card's text works while it is face-up in play; an Item's passive
#: boosts the character it is attached to, which matters while that character fights.
PASSIVE_PLACE = {True: "while this is in play: your fighter or on your Sideline",
                 False: "while this is attached face-up to your fighter"}
ABILITY_PLACE = {True: "while this is in play: your fighter or on your Sideline",
                 False: "while this is attached face-up to any of your characters"}


def rules_text(card: Card) -> str:
    """Generated rules text, from the effects (numbers printed in thousands)."""
    parts = []
    for attack in card.attacks:
        cost = []
        if attack.spirit:
            cost.append(f"pay {attack.spirit} spirit")
        if attack.discard:
            cost.append(f"discard {attack.discard}")
        line = f"{attack.name} {attack.value}000" + (f" ({', '.join(cost)})" if cost else "")
        if attack.effects:
            line += f": {fx.describe(attack.effects)}"
        parts.append(line)
    if card.passive:
        parts.append(f"Effect: {fx.describe(card.passive)} ({PASSIVE_PLACE[card.is_character]})")
    if card.ability is not None:
        pay = f" pay {card.ability.spirit} spirit," if card.ability.spirit else ""
        parts.append(f"{_ABILITY_LABELS[card.ability.timing]}{pay} {fx.describe(card.ability.effects)} "
                     f"(once per turn; {ABILITY_PLACE[card.is_character]})")
    if card.type == CardType.EVENT:
        label = {Timing.USE: "When you use an attack", Timing.ATTACK: "Attack (part 4, attacker or defender)"}.get(
            card.timing, "Main")
        pay = f" pay {card.spirit} spirit," if card.spirit else ""
        parts.append(f"{label}:{pay} {fx.describe(card.effects)}")
    if card.limit1:
        parts.append("Limit 1 per Deck")
    return ". ".join(parts)


def parse_pool(data: Any, source: str = "card pool") -> CardPool:
    """Validate a parsed card file (``{teams: ..., cards: [...]}``)."""
    if not isinstance(data, dict) or "cards" not in data or "teams" not in data:
        raise ConfigError(f"{source}: needs top-level keys 'teams' and 'cards'")
    teams_raw = data["teams"]
    if not isinstance(teams_raw, dict) or not teams_raw:
        raise ConfigError(f"{source}: 'teams' must map team names to {{bonus: ...}}")
    teams: dict[str, Effects] = {}
    for team, spec in teams_raw.items():
        if not isinstance(spec, dict) or "bonus" not in spec:
            raise ConfigError(f"team {team}: needs a 'bonus' mapping")
        teams[str(team)] = fx.validate(f"team {team}", "bonus", spec["bonus"], fx.BONUS_VERBS)
    if not isinstance(data["cards"], list):
        raise ConfigError(f"{source}: 'cards' must be a list")
    cards: list[Card] = []
    by_name: dict[str, Card] = {}
    for raw in data["cards"]:
        card = _card(len(cards), raw, teams)
        if card.name in by_name:
            raise ConfigError(f"{card.name}: duplicate card name")
        cards.append(card)
        by_name[card.name] = card
    ids = lambda pred: tuple(c.id for c in cards if pred(c))  # noqa: E731
    return CardPool(cards=tuple(cards), by_name=by_name, teams=tuple(teams), team_bonus=teams,
                    characters=ids(lambda c: c.type == CardType.CHARACTER),
                    attachables=ids(lambda c: c.type in ATTACHABLE),
                    events=ids(lambda c: c.type == CardType.EVENT),
                    ability_cards=ids(lambda c: c.ability is not None),
                    techniques=ids(lambda c: c.type == CardType.TECHNIQUE))


def load_pool(path: str | Path | None = None) -> CardPool:
    """The default pool (cached) or a pool from ``path``."""
    if path is None:
        return _default_pool()
    if not isinstance(path, str | Path):
        raise ConfigError(f"option cards must be a path to a card file (or None), got {type(path).__name__} {path!r}")
    return _load(Path(path))


# A card or deck file is read only if it is a regular file of at most this size (no FIFO, no /dev/zero).
MAX_CARD_FILE_BYTES = 1024 * 1024


def _load(path: Path) -> CardPool:
    try:
        raw = read_regular_file(path, MAX_CARD_FILE_BYTES, f"cannot read card file {path}", "a card file", ConfigError)
        data = yaml.safe_load(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise ConfigError(f"cannot read card file {path}: {err}") from err
    return parse_pool(data, str(path))


@lru_cache(maxsize=1)
def _default_pool() -> CardPool:
    return _load(CARDS_FILE)
