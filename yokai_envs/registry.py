"""Env ids and how to build them. Importing this module imports no game: only the game
packages' ``__init__`` (a docstring and ``ENV_ID``, the one place each id is written)."""

from __future__ import annotations

import difflib
import importlib
from typing import TYPE_CHECKING, Any

from yokai_envs import onmyoji, yokaizo, yonkai_no_yokai, yyh_tcg

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from yokai_envs.core.game import Game

#: The game packages, in the order of ``ENV_IDS``; each package's name is its env id without the version.
GAME_PACKAGES: tuple[str, ...] = ("yonkai_no_yokai", "yyh_tcg", "onmyoji", "yokaizo")
_PACKAGE_IDS: dict[str, str] = {package.__name__.rpartition(".")[2]: package.ENV_ID
                                for package in (yonkai_no_yokai, yyh_tcg, onmyoji, yokaizo)}
# env id -> module that defines `env`, `raw_env` (and `raw_env.game_class`).
_ENV_MODULES: dict[str, str] = {_PACKAGE_IDS[name]: f"yokai_envs.{name}.env" for name in GAME_PACKAGES}

ENV_IDS: tuple[str, ...] = tuple(_ENV_MODULES)


def live_id(game: str) -> str:
    """The env id a game has today, from its name without the version (``"yyh_tcg"`` ->
    ``"yyh_tcg_v6"``): for code and tests that must follow version bumps."""
    if game not in _PACKAGE_IDS:
        raise ValueError(f"unknown game {game!r}; valid games: {', '.join(GAME_PACKAGES)}")
    return _PACKAGE_IDS[game]


# Retired env id -> why. A change to a game's rules, observations, masks or rewards bumps its
# version (CHANGELOG.md); the old id is refused with this reason and the game's live id, as are
# replays and checkpoints recorded with it.
_RETIRED_BECAUSE: dict[str, str] = {
    "yonkai_no_yokai_v0": "its observation changed: it shows each seat's plays and passes of "
                          "the round",
    "yyh_tcg_v0": "it records what each seat sees, and its observation, mask and rules changed "
                  "(searches and payments chosen by the player, a defender's window in the attack, passives "
                  "from the Sideline, two new starter decks)",
    "yyh_tcg_v1": "the starter decks, characters and Team Bonuses were rebalanced and the game's "
                  "first turn has no Attack step",
    "yyh_tcg_v2": "the starter decks grew to 58 other cards (Ichigaki Lab 60) and Healing Salve's heal "
                  "costs 3 Spirit, so that search play rarely ends a game by a deck-out",
    "yyh_tcg_v3": "four starter decks trade cards and Bakken (Masho) gains 1 Defense so that the "
                  "decks are level under search play too",
    "yyh_tcg_v4": "the book's rules by default: the first player attacks in the game's first turn "
                  "(the old rule is variant='balanced'), a flip of several slots asks one payment choice over all "
                  "their cards, and pay actions name the slot",
    "yyh_tcg_v5": "the defender's part-4 window no longer offers what only changes 'your attack', the "
                  "end-of-turn draw bonus never draws from an empty deck, and determinize keeps what a search told "
                  "(when a card was shown, a search that found nothing)",
    "onmyoji_v0": "Onmyoji records what each seat sees and its rules changed (the Duel Final ends at "
                  "a fall, Boss immunity is against damage only, an atomic Parallel step)",
    "onmyoji_v1": "the Duel Final's first player (ruling R30), the Characters, the Solo levels and "
                  "Yokai cards changed for balance",
    "onmyoji_v2": "in the Co-op Boss battle single-target actions hunt the Onmyoji with less HP "
                  "(ruling R32) and Co-op levels give the Boss more HP (R33), so that helping matters",
    "onmyoji_v3": "the default game plays the rulebook (R28 Guard covers Start-of-turn effects, "
                  "R30 the Final led by who took a Yokai second, R32 Co-op Boss actions hit the seat named, no "
                  "invented modifier kinds); onmyoji_v3's game is variant='balanced'",
    "onmyoji_v4": "Solo's book levels no longer add the Co-op modifier Boss damage +N (ruling R26; the "
                  "levels were re-tuned from the book's columns, and variant='balanced' keeps its Boss damage), and "
                  "the Parallel env tells both seats of the face-down step that they are to decide",
    "yokaizo_v0": "it records what each seat sees, its observation is fuller (public decklists, "
                  "known cards) and five rules were fixed",
    "yokaizo_v1": "four ready decks changed for balance",
    "yokaizo_v2": "it plays the rulebook's rules where it had its own: Shatter hits X Yokai, Burn "
                  "goes to the burner's Grave, the Limbo becomes the deck as the deck empties, mandatory card texts "
                  "offer no pass, one Turn per Round by card instance; announced face-down cards are public in the "
                  "observation",
    "yokaizo_v3": "Nine-Tail Matron's Blazing Talons may Echo (the rulebook's own example of that attack), so "
                  "its Echo offers a pass; the Uproot keyword is 'up to X' by the book",
}
#: Retired env id -> (the live id that replaced it, why).
RETIRED: dict[str, tuple[str, str]] = {old: (_PACKAGE_IDS[old.rpartition("_v")[0]], why)
                                        for old, why in _RETIRED_BECAUSE.items()}


def retired_message(env_id: str) -> str | None:
    """Why ``env_id`` can no longer be made, or None when it is not a retired id."""
    if env_id not in RETIRED:
        return None
    successor, why = RETIRED[env_id]
    return (f"env id {env_id!r} was retired: {why}; use {successor!r} (see CHANGELOG.md). "
            "Replays and checkpoints recorded with it cannot be played on the new version.")


def env_module_name(env_id: str) -> str:
    """The module that defines ``env_id``'s ``env`` and ``raw_env``; a retired or unknown id is
    refused with the reason (and the closest live id)."""
    retired = retired_message(str(env_id))
    if retired:
        raise ValueError(retired)
    if env_id not in _ENV_MODULES:
        close = difflib.get_close_matches(str(env_id), ENV_IDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown env id {env_id!r}{hint}; valid env ids: {', '.join(ENV_IDS)}")
    return _ENV_MODULES[env_id]


def env_module(env_id: str) -> Any:
    """The imported module of :func:`env_module_name`."""
    return importlib.import_module(env_module_name(env_id))


def make(env_id: str, **options: Any) -> AECEnv:
    """The wrapped PettingZoo AEC env for ``env_id`` (options as the game documents)."""
    return env_module(env_id).env(**options)


def make_raw(env_id: str, **options: Any) -> AECEnv:
    """The unwrapped AEC env (``raw_env``)."""
    return env_module(env_id).raw_env(**options)


def game_class(env_id: str) -> type[Game]:
    """The Game subclass of ``env_id``, found in the game package's ``game`` module so that
    the bare engine loads without pettingzoo or gymnasium."""
    env_module_name(env_id)
    from yokai_envs.core.game import Game

    package = _ENV_MODULES[env_id].rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.game")
    except ModuleNotFoundError:
        return env_module(env_id).raw_env.game_class
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Game) and getattr(value, "env_id", None) == env_id:
            return value
    return env_module(env_id).raw_env.game_class


def make_game(env_id: str, **options: Any) -> Game:
    """The bare rules engine, without PettingZoo (fastest path; used by bots and search)."""
    return game_class(env_id)(**options)
