"""What the pages say about each game beside its options: how many players each choice of
options seats (so the form offers the right seats, and no opponents for a Solo game), its name
and one line, how to play it (its rules summary) and its terms (each game's ``view.py`` holds
``TITLE``, ``BLURB`` and ``GLOSSARY``)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any


@cache
def player_counts(env_id: str) -> dict[str, Any]:
    """``{"default": n, "option": name or None, "counts": {json(choice): n}}``: the seats of the
    game with its default options, and the one option whose choices change that number (Yonkai's
    ``num_players``, Onmyoji's ``mode``) with the number each choice gives."""
    from yokai_envs.play.serve import options_of
    from yokai_envs.registry import make_game

    default = make_game(env_id).num_players
    for name, spec in options_of(env_id).items():
        if spec["per_seat"] or len(spec["choices"]) < 2:
            continue
        counts = {}
        for choice in spec["choices"]:
            try:
                counts[json.dumps(choice)] = make_game(env_id, **{name: choice}).num_players
            except (ValueError, TypeError):
                break
        else:
            if len(set(counts.values())) > 1:
                return {"default": default, "option": name, "counts": counts}
    return {"default": default, "option": None, "counts": {}}


def _view_module(env_id: str) -> Any:
    import importlib

    from yokai_envs.registry import env_module_name

    return importlib.import_module(env_module_name(env_id).rsplit(".", 1)[0] + ".view")


def _how_to_play(env_id: str) -> list[str]:
    """The game's rules summary (``RULES_SUMMARY.md`` in its package, docs/rules-summaries/) as
    paragraphs of plain text."""
    import importlib.resources

    from yokai_envs.registry import env_module_name

    summary = importlib.resources.files(env_module_name(env_id).rsplit(".", 1)[0]) / "RULES_SUMMARY.md"
    if not summary.is_file():
        return []
    text = summary.read_text(encoding="utf-8").replace("**", "").replace("`", "")
    return [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]


@cache
def about(env_id: str) -> dict[str, Any]:
    """What a new player reads of a game: ``title``, ``blurb`` (one line), ``players_text`` (in
    words), ``how_to_play`` (paragraphs), ``glossary`` (term -> one line) and ``option_words``
    (option -> its label on the form; the options without one fold under "more options")."""
    view = _view_module(env_id)
    counts = player_counts(env_id)
    seats = sorted(set(counts["counts"].values()) or {counts["default"]})
    players = f"{seats[0]} players" if len(seats) == 1 else f"{seats[0]}-{seats[-1]} players"
    return {"title": getattr(view, "TITLE", env_id), "blurb": getattr(view, "BLURB", ""), "players_text": players,
            "how_to_play": _how_to_play(env_id), "glossary": dict(getattr(view, "GLOSSARY", {})),
            "option_words": dict(getattr(view, "OPTION_WORDS", {}))}
