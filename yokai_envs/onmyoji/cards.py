"""Card data of Onmyoji: three nights, loaded from ``cards.yaml`` and validated on load.

Every error names the card and the field (:class:`ConfigError`). The loaded data is a set of
frozen dataclasses; rule code reads only these, never the YAML.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.onmyoji.state import Stats, TextEnum

CARDS_PATH = Path(__file__).with_name("cards.yaml")


class Verb(TextEnum):
    """The effect vocabulary of abilities (``effects.apply_ability`` interprets it)."""

    DAMAGE = "damage"
    PIERCE = "pierce"          # damage that ignores DEF
    DAMAGE_ALL = "damage_all"
    HEAL = "heal"
    SHIELD = "shield"
    WEAKEN = "weaken"
    ATK_UP = "atk_up"
    SPL_UP = "spl_up"
    STOP = "stop"
    ACT_FIRST = "act_first"
    REFRESH = "refresh"


class AbilityTarget(TextEnum):
    NONE = "none"
    ENEMY = "enemy"
    ALLY = "ally"


class Timing(TextEnum):
    START_OF_TURN = "start_of_turn"
    ON_ACTION = "on_action"


class YokaiTarget(TextEnum):
    """Whom a Yokai action hits."""

    FIRST = "first"
    SECOND = "second"
    BOTH = "both"
    LEFT = "left"
    RIGHT = "right"


EFFECT_VERBS = tuple(v.value for v in Verb)
#: Verbs that mean something only against Yokai; an ability using one needs a ``duel:`` variant.
YOKAI_ONLY_VERBS = frozenset({Verb.STOP})
#: Verbs that need the ability's target to be an enemy.
ENEMY_VERBS = frozenset({Verb.DAMAGE, Verb.PIERCE, Verb.WEAKEN, Verb.STOP})
ABILITY_TARGETS = tuple(t.value for t in AbilityTarget)
TIMINGS = tuple(t.value for t in Timing)
YOKAI_TARGETS = tuple(t.value for t in YokaiTarget)
EDGES = ("left", "right", "bottom")  # Attack, Guard, Spell Equip (state.EquipEdge)
STATS = ("atk", "def", "spl")
DIFFICULTY_LEVELS = tuple(range(1, 11))


class Effect(NamedTuple):
    verb: Verb
    amount: int


@dataclass(frozen=True)
class Ability:
    target: AbilityTarget
    effects: tuple[Effect, ...]
    duel: Ability | None = None               # variant used in the Duel Final Battle


@dataclass(frozen=True)
class Shikigami:
    timing: Timing
    per_battle: int                           # 0 when the limit is per game
    per_game: int
    ability: Ability


@dataclass(frozen=True)
class Edge:
    stats: Stats                              # always on
    ability: Ability | None


@dataclass(frozen=True)
class YokaiAction:
    damage: int                               # 0 with rest
    target: YokaiTarget | None                # None with rest
    marked: bool = False
    lone_bonus: int = 0

    @property
    def rest(self) -> bool:
        return self.damage == 0


@dataclass(frozen=True)
class Yokai:
    index: int
    name: str
    lv: int
    hp: int
    defense: int
    actions: tuple[YokaiAction, ...]
    repeat_third: bool
    shikigami: Shikigami | None               # None only for the Boss
    edges: tuple[Edge, ...]                   # left, right, bottom (state.EquipEdge)

    @property
    def shiki(self) -> Shikigami:
        """The Shikigami side (every Yokai but the Boss has one)."""
        assert self.shikigami is not None, f"{self.name} has no Shikigami side"
        return self.shikigami


@dataclass(frozen=True)
class Side:
    hp: int
    atk: int
    defense: int
    spl: int


@dataclass(frozen=True)
class Character:
    index: int
    name: str
    evolve_at: int
    front: Side
    back: Side


@dataclass(frozen=True)
class CoopLevel:
    boss_boost: bool
    lone_plus_one: bool
    enemy_plus_one: bool
    boss_plus: int
    boss_hp_plus: int = 0  # the Boss starts with this much more HP (R33)


@dataclass(frozen=True)
class SoloLevel:
    character_plus: int
    starting_shikigami_lv: int
    take: frozenset[YokaiTarget]
    heal_before_boss: bool
    lone_plus_one: bool
    boss_plus: int = 0  # the Co-op modifier "Boss damage +N", lent to Solo by variant "balanced" only (R26)
    night_plus: tuple[int, int, int] = (0, 0, 0)  # Night 1/2/3 Yokai damage +N, not the Boss battle (R31)


@dataclass(frozen=True)
class CardPool:
    characters: tuple[Character, ...]
    yokai: tuple[Yokai, ...]
    boss: Yokai                               # index == len(yokai)
    coop: dict[int, CoopLevel]                # the book's game: the book's columns only
    solo: dict[int, SoloLevel]
    coop_balanced: dict[int, CoopLevel]       # variant "balanced": also Boss HP +N (R33)
    solo_balanced: dict[int, SoloLevel]       # variant "balanced": also Night 1/2/3 damage +N (R31)

    def character_index(self, name: str) -> int:
        for c in self.characters:
            if c.name == name:
                return c.index
        raise ConfigError(f"unknown character {name!r}; valid: {', '.join(c.name for c in self.characters)}")


# ---------------------------------------------------------------------------------- validation
def _int(where: str, value: Any, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ConfigError(f"{where}: expected an integer in {lo}..{hi}, got {value!r}")
    return value


def _night_plus(where: str, value: Any) -> tuple[int, int, int]:
    if not isinstance(value, list) or len(value) != 3:
        raise ConfigError(f"{where}: expected a list of 3 ints (Night 1, 2, 3), got {value!r}")
    first, second, third = (_int(f"{where}[{i}]", v, 0, 3) for i, v in enumerate(value))
    return first, second, third


def _map(where: str, value: Any, required: tuple = (), optional: tuple | None = ()) -> dict:
    """Check a mapping's fields; ``optional=None`` allows any other keys (name -> card tables)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a mapping, got {value!r}")
    missing = [k for k in required if k not in value]
    if missing:
        raise ConfigError(f"{where}: missing field(s) {', '.join(map(str, missing))}")
    unknown = [] if optional is None else sorted(map(str, set(value) - set(required) - set(optional)))
    if unknown:
        raise ConfigError(f"{where}: unknown field(s) {', '.join(map(str, unknown))}")
    return value


def _ability(where: str, raw: Any, extra: tuple[str, ...] = (), allow_duel: bool = True) -> Ability:
    raw = _map(where, raw, ("effects",), ("target", "duel", *extra))
    target = raw.get("target", "none")
    if target not in ABILITY_TARGETS:
        raise ConfigError(f"{where}.target: {target!r} is not one of {ABILITY_TARGETS}")
    if not isinstance(raw["effects"], list) or not raw["effects"]:
        raise ConfigError(f"{where}.effects: expected a non-empty list")
    effects = []
    for i, eff in enumerate(raw["effects"]):
        ew = f"{where}.effects[{i}]"
        if not isinstance(eff, dict) or len(eff) != 1:
            raise ConfigError(f"{ew}: expected one {{verb: amount}}, got {eff!r}")
        (verb, amount), = eff.items()
        if verb not in EFFECT_VERBS:
            raise ConfigError(f"{ew}: unknown verb {verb!r}; valid verbs: {', '.join(EFFECT_VERBS)}")
        amount = _int(f"{ew}.{verb}", amount, 1, 12)
        if verb in ENEMY_VERBS and target != "enemy":
            raise ConfigError(f"{ew}: verb {verb!r} needs target: enemy (got {target!r})")
        effects.append(Effect(Verb(verb), amount))
    duel = None
    if "duel" in raw:
        if not allow_duel:
            raise ConfigError(f"{where}.duel: a duel variant cannot itself have a duel variant")
        duel = _ability(f"{where}.duel", raw["duel"], allow_duel=False)
        if any(v in YOKAI_ONLY_VERBS for v, _ in duel.effects):
            raise ConfigError(f"{where}.duel: the Duel variant cannot use Yokai-only verbs")
    elif allow_duel and any(v in YOKAI_ONLY_VERBS for v, _ in effects):
        raise ConfigError(f"{where}: uses a Yokai-only verb, so it needs a 'duel:' variant")
    return Ability(AbilityTarget(target), tuple(effects), duel)


def _shikigami(where: str, raw: Any) -> Shikigami:
    raw = _map(where, raw, ("timing", "effects"), ("target", "duel", "per_battle", "per_game"))
    if raw["timing"] not in TIMINGS:
        raise ConfigError(f"{where}.timing: {raw['timing']!r} is not one of {TIMINGS}")
    if ("per_battle" in raw) == ("per_game" in raw):
        raise ConfigError(f"{where}: give exactly one limit, per_battle: N or per_game: 1")
    per_battle = _int(f"{where}.per_battle", raw["per_battle"], 1, 3) if "per_battle" in raw else 0
    per_game = _int(f"{where}.per_game", raw["per_game"], 1, 1) if "per_game" in raw else 0
    ability = _ability(where, raw, extra=("timing", "per_battle", "per_game"))
    if any(v == Verb.ACT_FIRST for v, _ in ability.effects) and raw["timing"] != "start_of_turn":
        raise ConfigError(f"{where}: act_first works only with timing start_of_turn (it must be known "
                          "before the Attack/Spell step begins)")
    return Shikigami(Timing(raw["timing"]), per_battle, per_game, ability)


def _yokai_action(where: str, raw: Any) -> YokaiAction:
    raw = _map(where, raw, (), ("rest", "damage", "target", "marked", "lone_bonus"))
    if raw.get("rest"):
        if len(raw) != 1:
            raise ConfigError(f"{where}: a rest action has no other fields")
        return YokaiAction(0, None)
    _map(where, raw, ("damage", "target"), ("marked", "lone_bonus"))
    if raw["target"] not in YOKAI_TARGETS:
        raise ConfigError(f"{where}.target: {raw['target']!r} is not one of {YOKAI_TARGETS}")
    marked = raw.get("marked", False)
    if not isinstance(marked, bool):
        raise ConfigError(f"{where}.marked: expected true/false, got {marked!r}")
    return YokaiAction(_int(f"{where}.damage", raw["damage"], 1, 9), YokaiTarget(raw["target"]), marked,
                       _int(f"{where}.lone_bonus", raw.get("lone_bonus", 0), 0, 5))


def _yokai(index: int, name: str, raw: Any, boss: bool = False) -> Yokai:
    where = f"boss {name!r}" if boss else f"yokai {name!r}"
    if boss:
        raw = _map(where, raw, ("name", "hp", "def", "actions"))
    else:
        raw = _map(where, raw, ("lv", "hp", "def", "actions", "shikigami", "equip"), ("repeat_third",))
    lv = 4 if boss else _int(f"{where}.lv", raw["lv"], 1, 3)
    hp = _int(f"{where}.hp", raw["hp"], 1, 60 if boss else 12)
    defense = _int(f"{where}.def", raw["def"], 0, 5)
    acts = raw["actions"]
    if not isinstance(acts, list) or not (3 <= len(acts) <= 5 if boss else len(acts) == 3):
        raise ConfigError(f"{where}.actions: expected {'3-5' if boss else 'exactly 3'} actions (1)(2)(3)...")
    actions = tuple(_yokai_action(f"{where}.actions[{i}]", a) for i, a in enumerate(acts))
    if all(a.rest for a in actions):
        raise ConfigError(f"{where}.actions: at least one action must deal damage")
    repeat_third = raw.get("repeat_third", False)
    if not isinstance(repeat_third, bool):
        raise ConfigError(f"{where}.repeat_third: expected true/false")
    if boss:
        return Yokai(index, raw["name"], lv, hp, defense, actions, False, None, (Edge(Stats(0, 0, 0), None),) * 3)
    shikigami = _shikigami(f"{where}.shikigami", raw["shikigami"])
    equip = _map(f"{where}.equip", raw["equip"], EDGES)
    edges = []
    for edge in EDGES:
        ew = f"{where}.equip.{edge}"
        e = _map(ew, equip[edge], ("stats",), ("ability",))
        stats = _map(f"{ew}.stats", e["stats"] or {}, (), STATS)
        numbers = Stats(*(_int(f"{ew}.stats.{s}", stats.get(s, 0), 0, 3) for s in STATS))
        ability = _ability(f"{ew}.ability", e["ability"]) if "ability" in e else None
        if ability is not None and any(v == Verb.ACT_FIRST for v, _ in ability.effects):
            raise ConfigError(f"{ew}.ability: act_first is only for start-of-turn Shikigami")
        if sum(numbers) == 0 and ability is None:
            raise ConfigError(f"{ew}: an edge needs a number or an ability")
        edges.append(Edge(numbers, ability))
    return Yokai(index, name, lv, hp, defense, actions, repeat_third, shikigami, tuple(edges))


def _side(where: str, raw: Any) -> Side:
    raw = _map(where, raw, ("hp", "atk", "def", "spl"))
    return Side(_int(f"{where}.hp", raw["hp"], 1, 20), _int(f"{where}.atk", raw["atk"], 0, 9),
                _int(f"{where}.def", raw["def"], 0, 5), _int(f"{where}.spl", raw["spl"], 1, 9))


def parse_pool(data: Any) -> CardPool:
    """Validate raw YAML data and build the card pool."""
    data = _map("cards", data, ("characters", "yokai", "boss", "coop_difficulty", "solo_difficulty",
                                "coop_difficulty_balanced", "solo_difficulty_balanced"))
    chars = _map("characters", data["characters"], optional=None)
    if len(chars) != 4:
        raise ConfigError(f"characters: expected 4 Characters, got {len(chars)}")
    characters = []
    for i, (name, raw) in enumerate(chars.items()):
        raw = _map(f"character {name!r}", raw, ("evolve_at", "front", "back"))
        c = Character(i, name, _int(f"character {name!r}.evolve_at", raw["evolve_at"], 1, 9),
                      _side(f"character {name!r}.front", raw["front"]), _side(f"character {name!r}.back", raw["back"]))
        characters.append(c)
    yraw = _map("yokai", data["yokai"], optional=None)
    yokai = tuple(_yokai(i, name, raw) for i, (name, raw) in enumerate(yraw.items()))
    for lv in (1, 2, 3):
        count = sum(1 for y in yokai if y.lv == lv)
        if count != 6:
            raise ConfigError(f"yokai: expected 6 Yokai of Lv{lv}, got {count}")
    boss_raw = data["boss"]
    boss = _yokai(len(yokai), str(boss_raw.get("name", "?")) if isinstance(boss_raw, dict) else "?", boss_raw, True)
    coop, solo = _coop_table(data, "coop_difficulty", False), _solo_table(data, "solo_difficulty", False)
    coop_balanced = _coop_table(data, "coop_difficulty_balanced", True)
    solo_balanced = _solo_table(data, "solo_difficulty_balanced", True)
    return CardPool(tuple(characters), yokai, boss, coop, solo, coop_balanced, solo_balanced)


#: The book's columns of each difficulty table, and the invented ones a balanced table adds.
_COOP_BOOK = ("boss_boost", "lone_plus_one", "enemy_plus_one", "boss_plus")
_SOLO_BOOK = ("character_plus", "starting_shikigami_lv", "take", "heal_before_boss", "lone_plus_one")


def _table(data: dict, name: str, book: tuple[str, ...], invented: tuple[str, ...],
           balanced: bool) -> dict[int, dict]:
    """The raw levels of table ``name``: the book's columns, plus the ``invented`` ones in a balanced
    table (a book table that names one is refused: the book's game has no such modifier)."""
    raw = _map(name, data.get(name), DIFFICULTY_LEVELS)
    for lv, column in itertools.product(DIFFICULTY_LEVELS, invented):
        if not balanced and isinstance(raw[lv], dict) and column in raw[lv]:
            raise ConfigError(f"{name}.{lv}.{column}: not a column of the book's table (a modifier the "
                              f"book does not give this mode: it belongs in {name}_balanced)")
    return {lv: _map(f"{name}.{lv}", raw[lv], (*book, *invented) if balanced else book) for lv in DIFFICULTY_LEVELS}


def _flags(where: str, r: dict, names: tuple[str, ...]) -> None:
    for flag in names:
        if not isinstance(r[flag], bool):
            raise ConfigError(f"{where}.{flag}: expected true/false")


def _coop_table(data: dict, name: str, balanced: bool) -> dict[int, CoopLevel]:
    table = {}
    for lv, r in _table(data, name, _COOP_BOOK, ("boss_hp_plus",), balanced).items():
        w = f"{name}.{lv}"
        _flags(w, r, ("boss_boost", "lone_plus_one", "enemy_plus_one"))
        table[lv] = CoopLevel(r["boss_boost"], r["lone_plus_one"], r["enemy_plus_one"],
                              _int(f"{w}.boss_plus", r["boss_plus"], 0, 9),
                              _int(f"{w}.boss_hp_plus", r["boss_hp_plus"], 0, 60) if balanced else 0)
    return table


def _solo_table(data: dict, name: str, balanced: bool) -> dict[int, SoloLevel]:
    table = {}
    for lv, r in _table(data, name, _SOLO_BOOK, ("night_plus", "boss_plus"), balanced).items():
        w = f"{name}.{lv}"
        take = r["take"]
        if not isinstance(take, list) or any(t not in ("first", "second", "left", "right") for t in take):
            raise ConfigError(f"{w}.take: expected a list of first/second/left/right, got {take!r}")
        _flags(w, r, ("heal_before_boss", "lone_plus_one"))
        table[lv] = SoloLevel(_int(f"{w}.character_plus", r["character_plus"], 0, 6),
                              _int(f"{w}.starting_shikigami_lv", r["starting_shikigami_lv"], 1, 3),
                              frozenset(YokaiTarget(t) for t in take), r["heal_before_boss"], r["lone_plus_one"],
                              _int(f"{w}.boss_plus", r["boss_plus"], 0, 9) if balanced else 0,
                              _night_plus(f"{w}.night_plus", r["night_plus"]) if balanced else (0, 0, 0))
    return table



def difficulty_tables(pool: CardPool) -> str:
    """The Co-op and Solo difficulty tables of the book's game and of variant "balanced" as plain
    text, generated from the data (the docs show this, so the numbers have one source:
    ``cards.yaml``)."""
    def yes(flag: bool) -> str:
        return "yes" if flag else "-"

    def night_plus(s: SoloLevel) -> str:  # "+0/+0/+1" = Night 3's Yokai deal 1 more
        return "/".join(f"+{n}" for n in s.night_plus) if any(s.night_plus) else "-"

    def plus(n: int) -> str:
        return f"+{n}" if n else "-"

    lines: list[str] = []
    for title, coop, solo, balanced in (("the book's game", pool.coop, pool.solo, False),
                                        ('variant "balanced"', pool.coop_balanced, pool.solo_balanced, True)):
        lines += [f"Co-op difficulty, {title} (generated from cards.yaml):", "",
                  "  Lv  Boss boost  +1 lone Yokai  Enemy damage +1  Boss damage +N  Boss's damage in all"
                  + ("  Boss HP +N" if balanced else "")]
        for lv, c in coop.items():
            # what the Boss's own actions deal on top of their printed numbers: Boss boost's +2,
            # Boss damage +N and Enemy damage +1 (+1 lone Yokai adds 1 more once its minion falls)
            total = 2 * c.boss_boost + c.boss_plus + c.enemy_plus_one
            lines.append((f"  {lv:>2}  {yes(c.boss_boost):<10}  {yes(c.lone_plus_one):<13}  "
                          f"{yes(c.enemy_plus_one):<15}  {plus(c.boss_plus):<14}  {plus(total):<19}"
                          + (f"  {plus(c.boss_hp_plus)}" if balanced else "")).rstrip())
        lines += ["", f"Solo difficulty, {title} (generated from cards.yaml):", "",
                  "  Lv  HP  Start Lv  Actions you take (and Both)  Heal before Boss  +1 lone Yokai"
                  + ("  Boss damage +N  Night 1/2/3 damage +N" if balanced else "")]
        for lv, s in solo.items():
            take = ", ".join(t.value for t in YokaiTarget if t in s.take)
            lines.append((f"  {lv:>2}  +{s.character_plus:<2} {s.starting_shikigami_lv:<8}  {take:<27}  "
                          f"{yes(s.heal_before_boss):<16}  {yes(s.lone_plus_one):<13}"
                          + (f"  {plus(s.boss_plus):<14}  {night_plus(s)}" if balanced else "")).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip()


@lru_cache(maxsize=1)
def load_pool() -> CardPool:
    """The shipped card pool (parsed once per process)."""
    with CARDS_PATH.open(encoding="utf-8") as f:
        return parse_pool(yaml.safe_load(f))
