"""The model files an agent spec names, and digests of what they hold now.

A key that stands for a spec (a benchmark cell, a saved behaviour clone) has to change when the
network the spec plays does, not only when its text does: a path may hold a retrained network
by now, and ``pretrained`` names whichever file the package ships for the game today.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from agents.model_file import MAX_CARD_BYTES, MAX_MODEL_BYTES, ModelFileError, read_card
from agents.specs import parse_spec
from yokai_envs.core.files import read_regular_file

# The card's sections that change how the same weights play.
PLAY_SETTINGS = ("play", "search")


def file_digest(path: str) -> str | None:
    """The SHA-256 of a model's weights and card together, each read within the model file's
    bounds; None when neither is there. One too large or not a regular file gets a digest of its
    own (``unreadable: ...``) rather than an error: loading it fails and says why."""
    digest = hashlib.sha256()
    found = False
    for part, limit in ((Path(path), MAX_MODEL_BYTES), (Path(path).with_suffix(".json"), MAX_CARD_BYTES)):
        if part.is_file():
            try:
                digest.update(read_regular_file(part, limit, str(part), "a model or card file", ModelFileError))
            except ModelFileError as err:
                return f"unreadable: {err}"
            found = True
    return digest.hexdigest() if found else None


def recorded_model(path: str) -> str | None:
    """What a model file's checked card says the agent plays: the digest it records for the
    weights, then a digest of how it plays them (the card's ``play`` and ``search`` settings:
    argmax or sampling, the mixture, the play-time search). None: no such card. Cheaper than
    :func:`file_digest`, which reads the weights."""
    try:
        card = read_card(path)
    except (ModelFileError, OSError):
        return None  # a legacy, missing or damaged file: building the agent says what is wrong
    settings = json.dumps({key: card.get(key) for key in PLAY_SETTINGS}, sort_keys=True, default=str)
    return f"{card['weights_sha256']}:{hashlib.sha256(settings.encode()).hexdigest()[:16]}"


def _pretrained_file(generation: Any, env_id: str, env_options: dict[str, Any] | None) -> str | None:
    from agents.pretrained import PretrainedError, find

    try:
        return str(find(env_id, env_options, int(generation) if generation is not None else None).path)
    except (PretrainedError, ValueError):
        return None  # no such model: building the agent says so


def spec_paths(spec: str, env_id: str, env_options: dict[str, Any] | None) -> list[str]:
    """The model files ``spec`` reads when built for the game: its checkpoint path (``policy:``,
    ``rllib:``), its ISMCTS ``policy=`` (``trained:`` is one), or the file a ``pretrained`` spec
    resolves to. A mixture is one file. Empty for a spec that does not parse."""
    try:
        parsed = parse_spec(spec)
    except ValueError:
        return []
    paths = [parsed.path, parsed.options.get("policy")]
    if parsed.kind == "pretrained":
        paths.append(_pretrained_file(parsed.options.get("generation"), env_id, env_options))
    return [str(p) for p in paths if p]
