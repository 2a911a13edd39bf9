"""Card lookup (any game's card data) and the generated docs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from yokai_envs.play.cards import catalog, lookup, lookup_text, package_catalog
from yokai_envs.registry import ENV_IDS, game_class

ROOT = Path(__file__).resolve().parents[2]
GAMES_WITH_CARDS = [e for e in ENV_IDS if catalog(e)]


def test_yonkai_has_no_named_cards():
    assert catalog("yonkai_no_yokai_v1") == ()
    assert "has no named cards" in lookup_text("yonkai_no_yokai_v1", "Kappa")


@pytest.mark.parametrize("env_id", GAMES_WITH_CARDS)
def test_every_card_can_be_looked_up_by_name(env_id):
    cards = catalog(env_id)
    for card in cards:
        found, _ = lookup(env_id, card.name.upper())
        assert card in found
        text = lookup_text(env_id, card.name)
        assert card.name in text


def test_lookup_partial_close_and_missing():
    cards = package_catalog("yokai_envs.onmyoji")
    assert {c.section for c in cards} == {"characters", "yokai"}  # numbered tables are not cards
    if "onmyoji_v5" in ENV_IDS:
        found, _ = lookup("onmyoji_v5", "kapp")
        assert [c.name for c in found] == ["Kappa"]
        assert "hp" in lookup_text("onmyoji_v5", "Kappa") and "actions" in lookup_text("onmyoji_v5", "Kappa")
        assert "did you mean Kappa" in lookup_text("onmyoji_v5", "Kapa")
        assert "no card named 'zzzz'" in lookup_text("onmyoji_v5", "zzzz")
        assert "usage" in lookup_text("onmyoji_v5", "  ")


def _make_docs(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "make_docs.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_make_docs_writes_a_page_per_game(tmp_path):
    done = _make_docs("--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    index = (tmp_path / "README.md").read_text()
    for env_id in ENV_IDS:
        short = game_class(env_id).__module__.split(".")[1]
        page = (tmp_path / f"{short}.md").read_text()
        assert f"[{short}.md]({short}.md)" in index
        for heading in ("## Rules summary", "## Options", "## Rulings", "## Observation layout", "## Action table"):
            assert heading in page, f"{env_id}: {heading} missing"
        game = game_class(env_id)(**game_class(env_id).CONFORMANCE_CONFIGS[0])
        game.reset(0)
        for name in game.observation_layout:
            assert f"| `{name}` |" in page
        assert f"| {game.num_actions - 1} | " in page
        if catalog(env_id):
            assert "## Card list" in page
            assert all(f"**{card.name}**" in page for card in catalog(env_id))
        package = ROOT / "yokai_envs" / short
        if (package / "BALANCE.md").is_file():  # a game's balance measurements are on its page
            assert f"## Balance\n\nFrom `yokai_envs/{short}/BALANCE.md`:" in page
        else:
            assert "## Balance" not in page


def test_yonkai_page_details(tmp_path):
    assert _make_docs("--game", "yonkai_no_yokai_v1", "--out", str(tmp_path)).returncode == 0
    page = (tmp_path / "yonkai_no_yokai.md").read_text()
    assert "**The leader cannot pass.**" in page  # a ruling from RULES_NOTES.md
    assert "| `hand` | 0:6 | 6 | own copies of each value 1..6, / copies of a value (8 or 10) |" in page
    assert "| 25 | button, flip, play 1 |" in page
    assert "Elevator Button" in page.split("## Options")[0]  # the rules summary
    assert not (tmp_path / "README.md").exists()  # the index is written only for all games


def test_make_docs_bad_game_and_check(tmp_path):
    done = _make_docs("--game", "chess_v0", "--out", str(tmp_path))
    assert done.returncode == 2 and "unknown env id(s) chess_v0" in done.stderr
    assert _make_docs("--game", "yonkai_no_yokai_v1", "--out", str(tmp_path), "--check").returncode == 1
    _make_docs("--game", "yonkai_no_yokai_v1", "--out", str(tmp_path))
    assert _make_docs("--game", "yonkai_no_yokai_v1", "--out", str(tmp_path), "--check").returncode == 0


def test_links_between_doc_pages_resolve():
    for page in (ROOT / "docs").glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+\.md)\)", page.read_text()):
            assert (page.parent / target).is_file(), f"{page.name} links to missing {target}"


def test_committed_docs_match_the_code():
    # The pages are generated from the card data, layouts and rulings: a change to any of them
    # must come with `python scripts/make_docs.py`.
    done = _make_docs("--check")
    assert done.returncode == 0, done.stdout + done.stderr
