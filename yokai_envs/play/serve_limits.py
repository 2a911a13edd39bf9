"""What a game asked of ``yokai serve`` may name: bots with a capped search, and files only when allowed.

A new game (or a saved one loaded after a restart) names its opponents as agent specs and its
options as JSON. Through a browser, both are the words of whoever sent the request, so the
server accepts:

- the named bots (``random``, ``lowest``, ``heuristic``, ``ismcts``) and the models shipped with
  the package (``pretrained``, ``pretrained:search=true``), each search capped at
  ``MAX_ITERATIONS`` iterations and ``MAX_SEARCH_SECONDS`` seconds a move, so that one request
  cannot hold a thread for hours;
- a file (``policy:PATH``, ``trained:PATH``, ``ismcts:...;policy=PATH``, an option naming a
  card or deck file) only when the server was started with ``--allow-files``, and then only a
  regular file of at most ``MAX_MODEL_BYTES`` (models) or ``MAX_OPTION_FILE_BYTES`` (cards and
  decks): a FIFO, a device such as ``/dev/zero`` or a folder is refused from its ``stat``,
  without being opened;
- never an RLlib folder (``rllib:``; ``yokai play`` plays those).

An option string names a file when something of that name exists (the game would read it);
the names the game offers (its decks, characters, variants) are never taken for files.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from yokai_envs.play.serve import ApiError

MAX_ITERATIONS = 1000  # about 6 s a move for ISMCTS with heuristic rollouts in an Onmyoji duel
MAX_SEARCH_SECONDS = 10.0
MAX_MODEL_BYTES = 256 * 1024 * 1024
MAX_OPTION_FILE_BYTES = 1024 * 1024
FILES_FLAG = "--allow-files"


def check_regular_file(path: str, limit: int, what: str) -> None:
    """ApiError 400 unless ``path`` is a regular file of at most ``limit`` bytes (read from its
    ``stat``: nothing is opened, so a FIFO cannot block and a device cannot be read)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise ApiError(400, f"{what} {path!r} cannot be read: {reason}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, a device or a socket)"
        raise ApiError(400, f"{what} {path!r} is {kind}; the server reads only regular files")
    if info.st_size > limit:
        raise ApiError(400, f"{what} {path!r} is {info.st_size:,} bytes; the server reads at most {limit:,}")


def _shipped(path: str) -> bool:
    from agents.pretrained import models_dir

    try:
        return Path(path).resolve().is_relative_to(models_dir().resolve())
    except (OSError, ValueError, RuntimeError):
        return False


def _resolved(spec: str, env_id: str, options: dict[str, Any]) -> Any:
    """The parsed spec, a ``pretrained`` one replaced by the search and model it stands for."""
    from agents.pretrained import spec_for
    from agents.specs import parse_spec

    parsed = parse_spec(spec)
    if parsed.kind == "pretrained":
        settings = dict(parsed.options)
        parsed = parse_spec(spec_for(env_id, options, settings.pop("search"), settings.pop("overrides", []),
                                     settings.pop("deterministic", None)))
    return parsed


def check_opponent(spec: str, env_id: str, options: dict[str, Any], allow_files: bool) -> None:
    """ApiError 400 unless ``spec`` is a bot this server may run (the module docstring says which)."""
    try:
        parsed = _resolved(spec, env_id, options)
    except ValueError as err:
        raise ApiError(400, str(err).strip("'\"")) from None
    if parsed.kind == "rllib":
        raise ApiError(400, f"opponent {spec!r}: RLlib models are not served; play one with `yokai play`")
    if parsed.options.get("trusted"):  # a pickled zip runs its author's code: never on a request's word
        raise ApiError(400, f"opponent {spec!r}: trusted=true is not taken from a request; this server never "
                            "loads a pickled SB3 zip (convert it with scripts/convert_model.py)")
    model = parsed.path if parsed.kind == "policy" else parsed.options.get("policy")
    if model is not None and not _shipped(model):
        if not allow_files:
            raise ApiError(400, f"opponent {spec!r} names the file {model!r}; this server loads only its named "
                                f"bots and shipped models (pretrained) unless started with {FILES_FLAG}")
        check_regular_file(model, MAX_MODEL_BYTES, f"opponent {spec!r}: model file")
    if parsed.kind != "ismcts":
        return
    iterations, seconds = parsed.options.get("iterations"), parsed.options.get("time")
    if iterations is not None and iterations > MAX_ITERATIONS:
        raise ApiError(400, f"opponent {spec!r}: {iterations:,} iterations a move is over this server's cap of "
                            f"{MAX_ITERATIONS:,}")
    if seconds is not None and seconds > MAX_SEARCH_SECONDS:
        raise ApiError(400, f"opponent {spec!r}: time={seconds:g} s a move is over this server's cap of "
                            f"{MAX_SEARCH_SECONDS:g} s")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*_strings(key), *_strings(item))]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def _names_something(text: str) -> bool:
    try:
        return bool(text) and os.path.lexists(text)
    except (ValueError, OSError):  # an embedded NUL, a name too long: nothing the game could open
        return False


def check_options(env_id: str, options: dict[str, Any], allow_files: bool) -> None:
    """ApiError 400 when an option names a file and files are not allowed (or it is not a
    regular file of at most ``MAX_OPTION_FILE_BYTES``)."""
    from yokai_envs.play.serve import options_of

    try:
        offered = options_of(env_id)
    except ValueError as err:
        raise ApiError(400, str(err).strip("'\"")) from None
    names = {c for entry in offered.values() for c in _strings(entry["choices"])}
    for name, value in options.items():
        for text in _strings(value):
            if text in names or not _names_something(text):
                continue
            if not allow_files:
                raise ApiError(400, f"option {name} names the file {text!r}; this server reads files only when "
                                    f"started with {FILES_FLAG}")
            check_regular_file(text, MAX_OPTION_FILE_BYTES, f"option {name}: file")


def check_game(env_id: str, options: dict[str, Any], agents: list[str], human: str, allow_files: bool) -> None:
    """Every check above for a game's options and its bots (the human's seat is not a bot)."""
    check_options(env_id, options, allow_files)
    for spec in dict.fromkeys(agents):
        if spec != human:
            check_opponent(spec, env_id, options, allow_files)
