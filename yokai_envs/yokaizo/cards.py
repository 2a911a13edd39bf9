"""YOKAIZO card data: load and validate the card pool and decks (YAML, data not code).

A card's effects are lists of operations from the effects vocabulary (``VOCABULARY`` below; its
interpreter is :mod:`yokai_envs.yokaizo.effects`); loading normalizes each operation to an
:class:`Op` ``(verb, params)`` with defaults filled in, and fails with a :class:`ConfigError`
naming the card and the field.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dc_field
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import read_regular_file

HERE = Path(__file__).parent
ELEMENTS: tuple[str, ...] = ("Fire", "Wind", "Earth", "Water", "Shadow")
GENERIC = "Void"
DECK_SIZE = 40
MAX_COPIES = 3
FIELD_TRIGGERS = ("on_entry", "round_start", "round_end", "on_return")
VOID_TRIGGERS = ("on_entry", "round_end")
#: One entry of the rulebook's keyword list has no name (BREAK DMG 1 to each of X Yokai, in the
#: order the player chooses); it is called Shatter here (see RULES_NOTES.md, R1).
KEYWORDS: tuple[str, ...] = (
    "Active", "Attach", "Attack", "Banish", "DMG", "BREAK DMG", "Destroy", "Exile", "Return", "Shield",
    "Soul", "Swap", "Token", "Burn", "Blight", "Echo", "Freeze", "Haunt", "Shine", "Slow", "Spin",
    "Uproot", "Shatter",
)


class Op(NamedTuple):
    """One operation of an effect: a vocabulary verb and its parameters (defaults filled in)."""

    verb: str
    params: dict[str, Any]


class ParamKind(Enum):
    """How a verb parameter is validated (a tuple of words instead means: one of these)."""

    COUNT = "count"          # an integer 1..4
    BOOL = "bool"
    OPS = "ops"              # a nested effect list
    ELEMENT = "element"      # an element name
    CONDITION = "condition"  # a Spin condition


class VerbSpec(NamedTuple):
    """The schema of one verb: ``params`` name -> (kind, default; None = required), the parameter a
    bare value stands for (``shorthand``), and the card keywords the verb uses."""

    params: dict[str, tuple[ParamKind | tuple[str, ...], Any]]
    shorthand: str | None
    keywords: tuple[str, ...]


def _verb(params: dict[str, tuple[ParamKind | tuple[str, ...], Any]], shorthand: str | None,
          *keywords: str) -> VerbSpec:
    return VerbSpec(params, shorthand, keywords)


COUNT, BOOL, OPS, ELEMENT, COND = ParamKind.COUNT, ParamKind.BOOL, ParamKind.OPS, ParamKind.ELEMENT, ParamKind.CONDITION
TO_HAND_VOID = ("hand", "void")

#: The effects vocabulary: verb -> its parameter schema, shorthand parameter and keywords. A
#: verb's choices are mandatory where a legal target exists, unless its keyword's own definition
#: says "up to" (``UP_TO_BY_THE_BOOK``: then ``up_to`` is its count) or the card's text says
#: "may" or "up to" (``may: true``, for the verbs that take it).
VOCABULARY: dict[str, VerbSpec] = {
    "damage": _verb({"amount": (COUNT, None), "break": (BOOL, False),
                     "target": (("enemy", "active", "all_enemies", "same"), "enemy")}, "amount", "DMG"),
    "shatter": _verb({"count": (COUNT, None)}, "count", "Shatter", "BREAK DMG"),
    "draw": _verb({"count": (COUNT, None)}, "count"),
    "destroy": _verb({"count": (COUNT, None), "may": (BOOL, False), "what": (("void", "shield"), "void")}, "count",
                     "Destroy"),
    "exile": _verb({"count": (COUNT, None), "may": (BOOL, False)}, "count", "Exile"),
    "attach": _verb({"count": (COUNT, None)}, "count", "Attach", "Exile"),
    "shield": _verb({"count": (COUNT, None)}, "count", "Shield", "Attach"),
    "token": _verb({"count": (COUNT, None)}, "count", "Token"),
    "burn": _verb({"up_to": (COUNT, None), "target": (("deck", "enemy_void"), "deck")}, "up_to", "Burn"),
    "unburn": _verb({"to": (TO_HAND_VOID, "void"), "may": (BOOL, False)}, "to", "Burn"),
    "blight": _verb({"up_to": (COUNT, None)}, "up_to", "Blight"),
    "echo": _verb({"count": (COUNT, None), "may": (BOOL, False)}, "count", "Echo"),
    "freeze": _verb({"up_to": (COUNT, None)}, "up_to", "Freeze"),
    "haunt": _verb({"to": (TO_HAND_VOID, "hand")}, "to", "Haunt"),
    "shine": _verb({"count": (COUNT, 1), "match": (("name", "element", "faction"), "element")}, "count",
                   "Shine", "Active"),
    "slow": _verb({"up_to": (COUNT, None)}, "up_to", "Slow"),
    "spin": _verb({"deck": (("own", "enemy"), "own"), "if": (COND, None), "then": (OPS, None)}, None, "Spin"),
    "uproot": _verb({"up_to": (COUNT, None), "to": (("hand", "void", "limbo"), "hand")}, "up_to", "Uproot"),
    "swap": _verb({"count": (COUNT, None), "may": (BOOL, False)}, "count", "Swap"),
    "if_banished": _verb({"then": (OPS, None)}, "then", "Banish"),
    "if_active": _verb({"element": (ELEMENT, None), "another": (BOOL, False), "then": (OPS, None)}, None,
                       "Active"),
}


#: Verbs whose keyword the rulebook defines as "up to X" (Burn, Blight, Freeze, Slow, Uproot): always optional.
UP_TO_BY_THE_BOOK: frozenset[str] = frozenset({"burn", "blight", "freeze", "slow", "uproot"})


def optional(op: Op) -> bool:
    """Whether an operation's choices may stop early (offer ``pass``) where a legal target exists."""
    return op.verb in UP_TO_BY_THE_BOOK or bool(op.params.get("may", False))


@dataclass(frozen=True)
class Card:
    index: int
    name: str
    faction: str
    element: int  # index into ELEMENTS
    speed: int
    souls: int
    text: str
    attack_name: str
    cost_elements: tuple[int, ...]  # element indices, sorted
    cost_generic: int
    stages: tuple[Op, ...]
    field: dict[str, tuple[Op, ...]] = dc_field(default_factory=dict)
    void: dict[str, tuple[Op, ...]] = dc_field(default_factory=dict)
    soul: tuple[Op, ...] = ()
    keywords: frozenset[str] = frozenset()

    @property
    def element_name(self) -> str:
        return ELEMENTS[self.element]


@dataclass(frozen=True)
class Pool:
    cards: tuple[Card, ...]
    factions: dict[str, str]
    by_name: dict[str, int]

    def __len__(self) -> int:
        return len(self.cards)

    def index_of(self, name: str, where: str = "") -> int:
        """The card index of ``name``; unknown names raise ConfigError with the closest name."""
        if name in self.by_name:
            return self.by_name[name]
        close = difflib.get_close_matches(str(name), list(self.by_name), n=1, cutoff=0.0)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigError(f"{where}unknown card name {name!r}{hint}")


def _fail(card: str, fieldname: str, problem: str) -> ConfigError:
    return ConfigError(f"yokaizo card {card!r}, field {fieldname!r}: {problem}")


def _element(card: str, fieldname: str, value: Any) -> int:
    if value not in ELEMENTS:
        raise _fail(card, fieldname, f"{value!r} is not an element ({', '.join(ELEMENTS)})")
    return ELEMENTS.index(value)


def _int(card: str, fieldname: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(card, fieldname, f"{value!r} must be an integer in {low}..{high}")
    return value


def parse_ops(card: str, fieldname: str, raw: Any, factions: dict[str, str]) -> tuple[Op, ...]:
    """Normalize an effect list into ``(Op(verb, params), ...)`` using the vocabulary's schema."""
    if not isinstance(raw, list) or not raw:
        raise _fail(card, fieldname, "must be a non-empty list of effects")
    ops = []
    for i, item in enumerate(raw):
        where = f"{fieldname}[{i}]"
        if not isinstance(item, dict) or len(item) != 1:
            raise _fail(card, where, f"each effect is a one-key mapping {{verb: params}}, got {item!r}")
        verb, value = next(iter(item.items()))
        if verb not in VOCABULARY:
            close = difflib.get_close_matches(str(verb), list(VOCABULARY), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise _fail(card, where, f"unknown effect verb {verb!r}{hint}")
        spec = VOCABULARY[verb]
        shorthand = spec.shorthand
        if not isinstance(value, dict):
            if shorthand is None:
                raise _fail(card, where, f"{verb} needs a mapping of {sorted(spec.params)}")
            value = {shorthand: value}
        unknown = set(value) - set(spec.params)
        if unknown:
            raise _fail(card, where, f"{verb} has no parameter(s) {sorted(unknown)}; "
                                     f"allowed: {sorted(spec.params)}")
        params = {}
        for pname, (kind, default) in spec.params.items():
            pwhere = f"{where}.{verb}.{pname}"
            v = value.get(pname, default)
            if v is None and default is None and pname in value:
                raise _fail(card, pwhere, "missing value")
            if v is None:
                raise _fail(card, pwhere, "is required")
            if isinstance(kind, tuple):
                if v not in kind:
                    raise _fail(card, pwhere, f"{v!r} is not one of {kind}")
            elif kind is ParamKind.COUNT:
                v = _int(card, pwhere, v, 1, 4)
            elif kind is ParamKind.BOOL:
                if not isinstance(v, bool):
                    raise _fail(card, pwhere, f"{v!r} must be true or false")
            elif kind is ParamKind.OPS:
                v = parse_ops(card, pwhere, v, factions)
            elif kind is ParamKind.ELEMENT:
                v = _element(card, pwhere, v)
            elif kind is ParamKind.CONDITION:
                v = _condition(card, pwhere, v, factions)
            params[pname] = v
        ops.append(Op(verb, params))
    return tuple(ops)


def _condition(card: str, where: str, raw: Any, factions: dict[str, str]) -> tuple[str, Any]:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise _fail(card, where, "a spin condition is one of {element: E}, {faction: F}, {speed_min: n}, "
                                 "{souls_min: n}")
    key, value = next(iter(raw.items()))
    if key == "element":
        return key, _element(card, where, value)
    if key == "faction":
        if value not in factions:
            raise _fail(card, where, f"unknown faction {value!r}")
        return key, value
    if key in ("speed_min", "souls_min"):
        return key, _int(card, where, value, 1, 9)
    raise _fail(card, where, f"unknown condition {key!r}")


def _walk(ops: tuple[Op, ...]) -> Iterator[Op]:
    """Every operation of an effect list, nested ones (``then``) included."""
    for op in ops:
        yield op
        for v in op.params.values():
            if isinstance(v, tuple) and v and isinstance(v[0], Op):
                yield from _walk(v)


def keywords_of(card: Card) -> frozenset[str]:
    """Keywords a card uses, derived from its effects (one place for the verb -> keyword map)."""
    found = {"Attack"}
    all_ops: list[tuple[Op, ...]] = [card.stages, card.soul, *card.field.values(), *card.void.values()]
    for ops in all_ops:
        for verb, params in _walk(ops):
            kw = VOCABULARY[verb].keywords
            if verb == "damage":
                kw = ("BREAK DMG",) if params["break"] else ("DMG",)
            found.update(kw)
    if card.soul:
        found.add("Soul")
    if "on_return" in card.field:
        found.add("Return")
    return frozenset(found)


def parse_card(index: int, raw: Any, factions: dict[str, str]) -> Card:
    if not isinstance(raw, dict):
        raise ConfigError(f"yokaizo card #{index}: expected a mapping, got {raw!r}")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"yokaizo card #{index}: field 'name' is missing or empty")
    allowed = {"name", "faction", "element", "speed", "souls", "text", "attack", "field", "void", "soul"}
    extra = set(raw) - allowed
    if extra:
        raise _fail(name, sorted(extra)[0], f"unknown field; allowed: {sorted(allowed)}")
    for required in ("faction", "element", "speed", "souls", "attack"):
        if required not in raw:
            raise _fail(name, required, "is required")
    if raw["faction"] not in factions:
        raise _fail(name, "faction", f"unknown faction {raw['faction']!r}")
    attack = raw["attack"]
    if not isinstance(attack, dict) or set(attack) != {"name", "cost", "stages"}:
        raise _fail(name, "attack", "must be a mapping with exactly name, cost, stages")
    cost = attack["cost"]
    if not isinstance(cost, list) or not 1 <= len(cost) <= 4:
        raise _fail(name, "attack.cost", "must be a list of 1-4 elements or 'Void'")
    cost_elements = sorted(_element(name, "attack.cost", c) for c in cost if c != GENERIC)
    generic = sum(1 for c in cost if c == GENERIC)
    triggers: dict[str, dict[str, tuple[Op, ...]]] = {}
    for zone, names in (("field", FIELD_TRIGGERS), ("void", VOID_TRIGGERS)):
        block = raw.get(zone, {})
        if not isinstance(block, dict):
            raise _fail(name, zone, "must be a mapping of trigger -> effects")
        for trig in block:
            if trig not in names:
                raise _fail(name, f"{zone}.{trig}", f"unknown trigger; allowed: {names}")
        triggers[zone] = {t: parse_ops(name, f"{zone}.{t}", ops, factions) for t, ops in block.items()}
    card = Card(
        index=index, name=name, faction=raw["faction"], element=_element(name, "element", raw["element"]),
        speed=_int(name, "speed", raw["speed"], 1, 7), souls=_int(name, "souls", raw["souls"], 3, 5),
        text=str(raw.get("text", "")), attack_name=str(attack["name"]), cost_elements=tuple(cost_elements),
        cost_generic=generic, stages=parse_ops(name, "attack.stages", attack["stages"], factions),
        field=triggers["field"], void=triggers["void"],
        soul=parse_ops(name, "soul", raw["soul"], factions) if "soul" in raw else (),
    )
    object.__setattr__(card, "keywords", keywords_of(card))
    return card


# A card or deck file is read only if it is a regular file of at most this size (no FIFO, no /dev/zero).
MAX_CARD_FILE_BYTES = 1024 * 1024


def _read_card_file(path: Path, source: str) -> str:
    return read_regular_file(path, MAX_CARD_FILE_BYTES, source, "a card or deck file", ConfigError).decode("utf-8")


def load_pool(path: str | os.PathLike | None = None) -> Pool:
    """Load and validate a card pool file (default: the package's cards.yaml)."""
    path = Path(path) if path is not None else HERE / "cards.yaml"
    try:
        data = yaml.safe_load(_read_card_file(path, f"yokaizo card pool {path}"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ConfigError(f"yokaizo card pool {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list) or not isinstance(
            data.get("factions"), dict):
        raise ConfigError(f"yokaizo card pool {path}: needs top-level 'factions' mapping and 'cards' list")
    factions = {str(k): str(v) for k, v in data["factions"].items()}
    cards = tuple(parse_card(i, raw, factions) for i, raw in enumerate(data["cards"]))
    by_name: dict[str, int] = {}
    for c in cards:
        if c.name in by_name:
            raise _fail(c.name, "name", "duplicate card name")
        by_name[c.name] = c.index
    return Pool(cards=cards, factions=factions, by_name=by_name)


@lru_cache(maxsize=1)
def default_pool() -> Pool:
    return load_pool()


# ---------------------------------------------------------------------------------- decks
def validate_deck(names: list[str], pool: Pool, where: str = "deck") -> tuple[int, ...]:
    """Card indices of a 40-card deck with at most 3 copies of a name; errors name the problem."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{where}: a deck is a list of card names")
    indices = tuple(pool.index_of(n, f"{where}: ") for n in names)
    if len(indices) != DECK_SIZE:
        raise ConfigError(f"{where}: a deck holds exactly {DECK_SIZE} cards, this one has {len(indices)}")
    for name, copies in Counter(names).items():
        if copies > MAX_COPIES:
            raise ConfigError(f"{where}: {copies} copies of {name!r}; at most {MAX_COPIES} of a named card")
    return indices


def _expand(entries: Any, where: str) -> list[str]:
    """Deck entries are names or ``"3 x Name"`` / ``{name: count}`` shorthands."""
    if not isinstance(entries, list):
        raise ConfigError(f"{where}: a deck is a list of card names")
    names: list[str] = []
    for e in entries:
        if isinstance(e, dict) and len(e) == 1:
            (n, k), = e.items()
            if not isinstance(k, int) or k < 1:
                raise ConfigError(f"{where}: bad copy count {k!r} for {n!r}")
            names += [str(n)] * k
        elif isinstance(e, str) and " x " in e and e.split(" x ", 1)[0].strip().isdigit():
            k, n = e.split(" x ", 1)
            names += [n.strip()] * int(k)
        elif isinstance(e, str):
            names.append(e)
        else:
            raise ConfigError(f"{where}: bad deck entry {e!r}")
    return names


@lru_cache(maxsize=1)
def ready_decks() -> dict[str, tuple[int, ...]]:
    """The 10 ready-made decks shipped in decks.yaml, validated."""
    pool = default_pool()
    data = yaml.safe_load((HERE / "decks.yaml").read_text())
    return {name: validate_deck(_expand(entries, f"ready deck {name!r}"), pool, f"ready deck {name!r}")
            for name, entries in data["decks"].items()}


def resolve_deck(spec: Any, pool: Pool) -> tuple[int, ...]:
    """A ready deck name, a path to a YAML deck file, or a list of names."""
    if isinstance(spec, (list, tuple)):
        return validate_deck(_expand(list(spec), "deck list"), pool, "deck list")
    if not isinstance(spec, (str, os.PathLike)):
        raise ConfigError(f"yokaizo deck {spec!r}: give a ready deck name, a YAML path or a list of names")
    decks = ready_decks()
    if str(spec) in decks:
        return decks[str(spec)]
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") or path.exists():
        try:
            data = yaml.safe_load(_read_card_file(path, f"yokaizo deck file {path}"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise ConfigError(f"yokaizo deck file {path}: {exc}") from None
        entries = data.get("cards") if isinstance(data, dict) else data
        return validate_deck(_expand(entries, f"deck file {path}"), pool, f"deck file {path}")
    close = difflib.get_close_matches(str(spec), list(decks), n=1, cutoff=0.0)
    raise ConfigError(f"yokaizo deck {spec!r} is neither a ready deck nor a YAML file"
                      + (f"; did you mean {close[0]!r}?" if close else "")
                      + f"; ready decks: {', '.join(decks)}")
