"""Card lookup for any game: read the game package's card data file (``cards.yaml``) as is.

Games keep their cards in differently shaped YAML (a list of ``{name: ...}`` dicts, or
sections of ``name: {stats}``), so this reads both shapes without knowing the game:

- a top-level section that is a list of dicts with a ``name`` is a list of cards;
- a top-level section that is a mapping of names (strings) to dicts is a list of cards named
  by key (a mapping keyed by numbers is a table, e.g. difficulty levels, not cards).

Anything else (comments, faction blurbs) is skipped. The card list in the docs and the
``? NAME`` lookup of ``yokai play`` both come from here, so they never drift from the data.
"""

from __future__ import annotations

import difflib
import importlib.resources
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from yokai_envs.registry import env_module_name

CARD_FILES = ("cards.yaml",)


@dataclass(frozen=True)
class Card:
    name: str
    section: str  # the section of the data file it came from (e.g. "yokai", "cards")
    data: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.data.get("type") or self.data.get("faction") or self.section)

    def key_numbers(self) -> str:
        """The card's top-level numbers, e.g. ``hp 5, def 0``."""
        numbers = [f"{k} {v}" for k, v in self.data.items()
                   if isinstance(v, int | float) and not isinstance(v, bool) and k != "name"]
        return ", ".join(numbers)

    def describe(self) -> str:
        """Full text and stats, as a few lines of text."""
        fields = {k: v for k, v in self.data.items() if k not in ("name", "text")}
        lines = [f"{self.name}  [{self.section}]"]
        if self.data.get("text"):
            lines.append(str(self.data["text"]))
        dumped = yaml.safe_dump(fields, sort_keys=False, default_flow_style=None, width=100).rstrip()
        if dumped and dumped != "{}":
            lines.append(dumped)
        return "\n".join(lines)


def _package(env_id: str) -> str:
    return env_module_name(env_id).rsplit(".", 1)[0]


def _cards_in(document: Any) -> list[Card]:
    cards: list[Card] = []
    sections = document.items() if isinstance(document, dict) else [("cards", document)]
    for section, value in sections:
        if isinstance(value, list) and value and all(isinstance(v, dict) and "name" in v for v in value):
            cards.extend(Card(str(v["name"]), str(section), dict(v)) for v in value)
        elif (isinstance(value, dict) and value and all(isinstance(k, str) for k in value)
              and all(isinstance(v, dict) for v in value.values())):  # int keys: a table (difficulty levels)
            cards.extend(Card(str(k), str(section), {"name": str(k), **v}) for k, v in value.items())
    return cards


def catalog(env_id: str) -> tuple[Card, ...]:
    """Every named card of ``env_id`` in data-file order (empty for games without card data)."""
    return package_catalog(_package(env_id))


@cache
def package_catalog(package: str) -> tuple[Card, ...]:
    """The cards in the data files of the game package ``package`` (e.g. ``yokai_envs.onmyoji``)."""
    root = importlib.resources.files(package)
    cards: list[Card] = []
    for name in CARD_FILES:
        resource = root / name
        if resource.is_file():
            cards.extend(_cards_in(yaml.safe_load(resource.read_text(encoding="utf-8"))))
    return tuple(cards)


def lookup(env_id: str, query: str) -> tuple[list[Card], list[str]]:
    """(matching cards, suggestions): exact name (any case), else every name containing the query,
    else no card and the closest names."""
    cards = catalog(env_id)
    wanted = query.strip().lower()
    exact = [c for c in cards if c.name.lower() == wanted]
    if exact:
        return exact, []
    partial = [c for c in cards if wanted and wanted in c.name.lower()]
    if partial:
        return partial, []
    names = [c.name for c in cards]
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(wanted, list(lowered), n=3, cutoff=0.5)
    return [], [lowered[c] for c in close]


def lookup_text(env_id: str, query: str) -> str:
    """What ``? NAME`` prints."""
    if not catalog(env_id):
        return f"{env_id} has no named cards (no card data file) — every card is described by the table itself."
    if not query.strip():
        return "usage: ? NAME   (a card name, or part of one)"
    found, close = lookup(env_id, query)
    if not found:
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"no card named {query.strip()!r} in {env_id}{hint}"
    if len(found) > 8:
        return f"{len(found)} cards match {query.strip()!r}: " + ", ".join(c.name for c in found)
    return "\n\n".join(c.describe() for c in found)
