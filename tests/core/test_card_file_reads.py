"""Card and deck files a game option names are read bounded: a FIFO, a device or a file over the
size cap is a ConfigError at once (the file is never read whole, a FIFO never blocks)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from yokai_envs.core.errors import ConfigError
from yokai_envs.registry import live_id, make_game
from yokai_envs.yokaizo.cards import MAX_CARD_FILE_BYTES as YOKAIZO_MAX
from yokai_envs.yyh_tcg.cards import MAX_CARD_FILE_BYTES as YYH_MAX


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(max(YYH_MAX, YOKAIZO_MAX) + 1)
    return {"fifo": str(fifo), "zero": "/dev/zero", "big": str(big), "folder": str(tmp_path)}


def _refused_at_once(env_id: str, options: dict) -> str:
    outcome: list[BaseException | None] = []

    def make() -> None:
        try:
            make_game(env_id, **options)
            outcome.append(None)
        except BaseException as err:  # handed to the test thread
            outcome.append(err)

    worker = threading.Thread(target=make, daemon=True)
    worker.start()
    worker.join(20)
    assert outcome, f"{env_id} {options}: still reading after 20 s"
    assert isinstance(outcome[0], ConfigError), outcome[0]
    return str(outcome[0])


@pytest.mark.parametrize(("env", "option", "file", "words"), [
    ("yyh_tcg", "cards", "zero", "not a regular file"), ("yyh_tcg", "cards", "fifo", "not a regular file"),
    ("yyh_tcg", "cards", "folder", "not a regular file"), ("yyh_tcg", "cards", "big", "a card file is at most"),
    ("yokaizo", "decks", "zero", "not a regular file"), ("yokaizo", "decks", "fifo", "not a regular file"),
    ("yokaizo", "decks", "big", "is at most"),
])
def test_a_card_or_deck_file_that_is_not_a_small_regular_file_is_refused_at_once(paths, env, option, file, words):
    value = paths[file] if option == "cards" else [paths[file], "Kappa Tide"]
    assert words in _refused_at_once(live_id(env), {option: value})


def test_a_big_yyh_deck_file_is_refused(paths):
    assert "a deck file is at most" in _refused_at_once(live_id("yyh_tcg"), {"decks": [paths["big"], "random"]})
