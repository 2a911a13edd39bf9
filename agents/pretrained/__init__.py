"""Pretrained opponents shipped with the package: one small network per game configuration.

Each model is three files in ``agents/pretrained/models/`` (package data)::

    NAME.safetensors  the network's weights (no pickle: agents/model_file.py)
    NAME.json         its card as data: how to build the network and how it plays (the model
                      card of agents/model_file.py, which ``policy:NAME.safetensors`` reads), the
                      env id, the configuration it plays (the options that shape the game, e.g.
                      {"num_players": 4}), its play-time search, how it was trained (command,
                      seed, wall time) and its evaluation rows
    NAME.md           the same card for people (`python scripts/ship_model.py --cards-only`
                      writes it from the .json)

The agent spec ``pretrained`` is the network alone for the env it is given;
``pretrained:search=true`` adds the play-time search its card names (ISMCTS improving on the
network's move), and any ismcts option after it overrides the card's, e.g.
``pretrained:search=true;iterations=200``. A game configuration with no model, or a model made
for a retired env id, is refused with the list of what is shipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from yokai_envs.core.files import parse_json

MODELS_PACKAGE = "agents.pretrained"
MODELS_FOLDER = "models"


@dataclass(frozen=True)
class Card:
    """What ``NAME.json`` says of a shipped model."""

    name: str
    path: Path
    env_id: str
    configuration: dict[str, Any]
    search: str
    data: dict[str, Any]

    def describe(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.configuration.items())
        return f"{self.env_id}" + (f" ({options})" if options else "")


class PretrainedError(ValueError):
    """No shipped model fits the asked env id and options (or the card is broken)."""


def models_dir() -> Path:
    return Path(str(files(MODELS_PACKAGE) / MODELS_FOLDER))


def cards() -> list[Card]:
    """Every shipped model's card, by name."""
    folder = models_dir()
    found = []
    for card_file in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = parse_json(card_file.read_bytes(), str(card_file), PretrainedError)
            card = Card(card_file.stem, card_file.with_suffix(".safetensors"), str(data["env_id"]),
                        dict(data.get("configuration", {})), str(data.get("search", "")), data)
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise PretrainedError(f"{card_file}: not a model card ({err})") from None
        found.append(card)
    return found


def _configuration(env_id: str, options: dict[str, Any] | None) -> dict[str, Any]:
    from yokai_envs.registry import game_class

    return {**game_class(env_id).OPTIONS, **(options or {})}


def generation_of(card: Card) -> int:
    """A card's generation (1 for a card that does not say): ``pretrained`` plays the latest."""
    value = card.data.get("generation", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def find(env_id: str, options: dict[str, Any] | None = None, generation: int | None = None) -> Card:
    """The shipped model for ``env_id`` with ``options`` (its latest generation, or ``generation``);
    PretrainedError naming what exists."""
    from yokai_envs.registry import retired_message

    retired = retired_message(env_id)
    if retired:
        raise PretrainedError(f"no pretrained model for {env_id}: {retired}")
    shipped = cards()
    configuration = _configuration(env_id, options)
    fitting = [card for card in shipped if card.env_id == env_id
               and all(configuration.get(k) == v for k, v in card.configuration.items())]
    if fitting:
        if generation is not None:
            chosen = [card for card in fitting if generation_of(card) == generation]
            if not chosen:
                have = ", ".join(str(generation_of(card)) for card in fitting)
                raise PretrainedError(f"no generation {generation} of the pretrained model for {env_id} with "
                                      f"options {options or {}}; shipped generations: {have}")
            fitting = chosen
        card = max(fitting, key=generation_of)
        if not card.path.exists():
            raise PretrainedError(f"{card.path}: the model file of card {card.name}.json is missing")
        return card
    listing = "; ".join(card.describe() for card in shipped) or "none"
    stale = [card.name for card in shipped if card.env_id.rsplit("_v", 1)[0] == env_id.rsplit("_v", 1)[0]
             and card.env_id != env_id]
    hint = (f" (models {', '.join(stale)} were trained for another version of this game and are not used)"
            if stale else "")
    raise PretrainedError(f"no pretrained model for {env_id} with options {options or {}}{hint}; "
                          f"shipped: {listing}")


def _key_value(part: str) -> tuple[str, str]:
    key, value = part.split("=", 1)
    return key, value


def spec_for(env_id: str, options: dict[str, Any] | None, search: bool, overrides: list[str],
             deterministic: bool | None = None, generation: int | None = None) -> str:
    """The ``policy:`` or ``trained:`` spec that plays the shipped model of ``env_id``. The network
    alone plays the way its card says it was measured (``"play": {"deterministic": false}``: it
    samples its distribution) unless ``deterministic`` is given."""
    card = find(env_id, options, generation)
    if not search:
        play = card.data.get("play", {})
        chosen = bool(play.get("deterministic", True) if isinstance(play, dict) else True) \
            if deterministic is None else deterministic
        return f"policy:{card.path};deterministic={str(chosen).lower()}"
    # The card's search, each option the spec names replaced by the spec's value.
    merged = dict(_key_value(part) for part in card.search.split(";") if "=" in part)
    merged.update(_key_value(part) for part in overrides)
    return f"trained:{card.path}" + "".join(f";{key}={value}" for key, value in merged.items())
