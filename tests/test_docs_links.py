"""Every relative link in the project's markdown points at a file that exists.

Checked: README.md, CHANGELOG.md, docs/**/*.md, agents/README.md, configs/README.md and
yokai_envs/**/*.md. Web links (http, https, mailto) and the anchor part of a link are not
checked; links inside code (fenced blocks and `inline code`) are not links.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent

FENCE = re.compile(r"^\s*(```|~~~).*?^\s*\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files(root: Path = ROOT) -> list[Path]:
    files = [root / "README.md", root / "CHANGELOG.md", root / "agents" / "README.md", root / "configs" / "README.md"]
    files += sorted((root / "docs").rglob("*.md")) + sorted((root / "yokai_envs").rglob("*.md"))
    return [f for f in files if f.is_file()]


def link_targets(text: str) -> list[str]:
    """The targets of the markdown links in ``text`` (inline, image and reference links), outside code."""
    text = INLINE_CODE.sub("", FENCE.sub("", text))
    return INLINE_LINK.findall(text) + REFERENCE.findall(text)


def broken_links(page: Path) -> list[str]:
    """The relative link targets in ``page`` that name no existing file (anchors and web links skipped)."""
    broken = []
    for target in link_targets(page.read_text(encoding="utf-8")):
        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not path or SCHEME.match(path):
            continue
        resolved = (ROOT / path.lstrip("/")) if path.startswith("/") else (page.parent / path)
        if not resolved.is_file():
            broken.append(target)
    return broken


def test_the_checked_pages_are_found():
    names = {str(f.relative_to(ROOT)) for f in markdown_files()}
    assert {"README.md", "CHANGELOG.md", "docs/results.md", "docs/getting-started.md",
            "agents/README.md", "configs/README.md"} <= names


@pytest.mark.parametrize("page", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_that_exist(page):
    assert broken_links(page) == [], f"{page.relative_to(ROOT)} links to missing files"


def test_the_checker_finds_a_bad_link(tmp_path):
    (tmp_path / "there.md").write_text("# there\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok, anchor](there.md#there) [anchor](#here) [web](https://example.org/missing.md)\n"
        "![image](missing.png) [bad](missing.md) [bad with anchor](gone.md#part) [titled](there.md \"title\")\n"
        "[ref]: nowhere.md\n"
        "`[in code](not-checked.md)`\n"
        "```\n[in a fence](not-checked-either.md)\n```\n",
        encoding="utf-8")
    assert broken_links(page) == ["missing.png", "missing.md", "gone.md#part", "nowhere.md"]


DESIGN_NOTE_TEST = re.compile(r"(tests/[\w/]+\.py)::(test_\w+)")


@pytest.mark.parametrize("note", sorted((ROOT / "docs" / "design-notes").glob("*.md")), ids=lambda p: p.name)
def test_every_test_a_design_note_names_exists(note):
    named = DESIGN_NOTE_TEST.findall(note.read_text(encoding="utf-8"))
    assert named, f"{note.name} names no test"
    missing = [f"{path}::{name}" for path, name in named
               if not (ROOT / path).is_file()
               or not re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.M)]
    assert missing == [], f"{note.name} names tests that do not exist"


ENV_ID = re.compile(r"`((?:yonkai_no_yokai|yokaizo|onmyoji|yyh_tcg)_v\d+)`")


def test_the_readmes_name_only_live_env_ids() -> None:
    """The manuals (README.md, agents/README.md, docs/README.md) name the env ids a user types; a
    version bump that leaves an old id there sends users to a refused id. (Pages that record a
    measurement name the id it was made on, so they are not checked.)"""
    from yokai_envs.registry import ENV_IDS

    pages = [ROOT / "README.md", ROOT / "agents" / "README.md", ROOT / "docs" / "README.md"]
    stale = {(page.name, env_id) for page in pages for env_id in ENV_ID.findall(page.read_text(encoding="utf-8"))
             if env_id not in ENV_IDS}
    assert not stale, sorted(stale)
