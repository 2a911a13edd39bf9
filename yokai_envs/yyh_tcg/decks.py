"""Decks: the starter decks, user deck files, and the construction rules they are checked against.

A deck is ``{card name: copies}``; a deck file is YAML of that mapping (optionally under
``cards:``, with a ``name:``), or text lines ``3 Rose Whip``. Construction rules: at least
``MIN_CHARACTERS`` characters, each at most once (they are the team, not spare copies); at
least ``MIN_OTHER_CARDS`` Techniques/Items/Events; at most ``MAX_COPIES`` of a card; a
"Limit 1 per Deck" card once.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import read_regular_file
from yokai_envs.yyh_tcg.cards import MAX_CARD_FILE_BYTES, CardPool, load_pool, suggest

STARTER_FILE = Path(__file__).with_name("starter_decks.yaml")
MIN_CHARACTERS = 4
MIN_OTHER_CARDS = 40
MAX_COPIES = 3


@lru_cache(maxsize=1)
def starter_decks() -> dict[str, dict[str, int]]:
    data = yaml.safe_load(STARTER_FILE.read_text(encoding="utf-8"))
    return {name: dict(cards) for name, cards in data.items()}


def validate_deck(counts: Any, pool: CardPool, deck_name: str = "deck") -> list[int]:
    """Check construction rules; return the deck as a list of card ids (characters first)."""
    if not isinstance(counts, dict) or not counts:
        raise ConfigError(f"{deck_name}: a deck must map card names to copy counts")
    ids: list[int] = []
    characters = others = 0
    for name, copies in counts.items():
        if name not in pool.by_name:
            raise ConfigError(f"{deck_name}: unknown card {name!r}{suggest(name, pool.by_name)}")
        card = pool.by_name[name]
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise ConfigError(f"{deck_name}: {name!r} needs a positive copy count, got {copies!r}")
        limit = 1 if (card.limit1 or card.is_character) else MAX_COPIES
        if copies > limit:
            why = ("Limit 1 per Deck" if card.limit1 else "a character is one fighter" if card.is_character
                   else f"at most {MAX_COPIES} copies")
            raise ConfigError(f"{deck_name}: {copies} copies of {name!r} ({why}; at most {limit})")
        if card.is_character:
            characters += copies
        else:
            others += copies
        ids.extend([card.id] * copies)
    if characters < MIN_CHARACTERS:
        raise ConfigError(f"{deck_name}: {characters} character(s); a deck needs at least {MIN_CHARACTERS}")
    if others < MIN_OTHER_CARDS:
        raise ConfigError(f"{deck_name}: {others} Techniques/Items/Events; a deck needs at least {MIN_OTHER_CARDS} "
                          f"besides its characters")
    return sorted(ids, key=lambda cid: (not pool.cards[cid].is_character, cid))


def read_deck_file(path: Path) -> tuple[str, dict[str, int]]:
    try:
        raw = read_regular_file(path, MAX_CARD_FILE_BYTES, f"cannot read deck file {path}", "a deck file", ConfigError)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read deck file {path}: {err}") from err
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"deck file {path}: invalid YAML: {err}") from err
        if isinstance(data, dict) and "cards" in data:
            return str(data.get("name", path.stem)), data["cards"]
        return path.stem, data
    counts: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        if not head.isdigit() or not rest.strip():
            raise ConfigError(f"deck file {path} line {number}: expected '<copies> <card name>', got {line!r}")
        counts[rest.strip()] = counts.get(rest.strip(), 0) + int(head)
    return path.stem, counts


def resolve_deck(spec: Any, pool: CardPool | None = None) -> tuple[str, list[int]]:
    """A starter-deck name, a deck-file path or a ``{name: copies}`` mapping -> (name, card ids)."""
    pool = pool or load_pool()
    starters = starter_decks()
    if isinstance(spec, dict):
        return "custom", validate_deck(spec, pool, "custom deck")
    if isinstance(spec, str) and spec in starters:
        return spec, validate_deck(starters[spec], pool, spec)
    if isinstance(spec, (str, Path)) and Path(spec).is_file():
        name, counts = read_deck_file(Path(spec))
        return name, validate_deck(counts, pool, f"deck file {spec}")
    hint = suggest(str(spec), starters)
    raise ConfigError(f"deck {spec!r} is neither a starter deck{hint} nor a deck file; "
                      f"starter decks: {', '.join(starters)}")
