"""MkDocs hooks for the docs site (mkdocs.yml: ``hooks``): the repository's markdown stays readable
on its own, and the site shows the same files.

- A few guides live beside their code, not in ``docs/`` (``agents/README.md``, ``configs/README.md``,
  ``CHANGELOG.md``): they become site pages (``SITE_PAGES``) from the one file, never a copy.
- A relative link is written for the repository (``../agents/README.md`` from ``docs/``). On the
  site it is re-pointed: to the page a file became, to the docs page it names, or, for a file that
  is not a page (a source file, a game's ``BALANCE.md``), to the file's path in code, since the
  site has no copy of it. A link to a file that does not exist is a warning, so
  ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
# site page -> the repository file it is made from
SITE_PAGES = {"agents.md": "agents/README.md", "training.md": "configs/README.md", "changelog.md": "CHANGELOG.md"}
FROM_REPO = {source: page for page, source in SITE_PAGES.items()}

FENCE = re.compile(r"^( {0,3})(```|~~~).*?^\1\2[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?P<bang>!?)\[(?P<text>(?:[^\[\]]|\[[^\]]*\])*)\]\((?P<target>[^)\s]+)(?P<title>\s+\"[^\"]*\")?\)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
log = logging.getLogger("mkdocs.hooks.yokai")


def on_files(files: Files, config: Any) -> Files:
    for page, source in SITE_PAGES.items():
        files.append(File.generated(config, page, abs_src_path=str(ROOT / source)))
    return files


def repository_path(page_uri: str) -> str:
    """The repository file a site page is written in (``docs/x.md`` or one of ``SITE_PAGES``)."""
    return SITE_PAGES.get(page_uri, f"docs/{page_uri}")


def site_target(target: str, page_uri: str) -> str | None:
    """Where a repository-relative link of ``page_uri`` points on the site: a path relative to the
    page, or None when the file is not on the site (it is shown as its path instead)."""
    path, _, anchor = target.partition("#")
    anchor = f"#{anchor}" if anchor else ""
    source = posixpath.normpath(posixpath.join(posixpath.dirname(repository_path(page_uri)), unquote(path)))
    if not (ROOT / source).exists():
        log.warning("%s links to %s, which does not exist", repository_path(page_uri), source)
        return target
    if source in FROM_REPO:
        site_path = FROM_REPO[source]
    elif source.startswith("docs/"):
        site_path = source.removeprefix("docs/")
    else:
        return None
    return posixpath.relpath(site_path, posixpath.dirname(page_uri) or ".") + anchor


def rewrite_links(markdown: str, page_uri: str) -> str:
    """Re-point the links of a page outside code (fenced blocks and inline code are set aside first,
    so a link whose text is inline code still counts)."""
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match[0])
        return f"\x00{len(kept) - 1}\x00"

    def restore(text: str) -> str:
        return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m[1])], text)

    def link(match: re.Match[str]) -> str:
        target = match["target"]
        if target.startswith("#") or SCHEME.match(target):
            return match[0]
        new = site_target(target, page_uri)
        if new is not None:
            return f"{match['bang']}[{match['text']}]({new}{match['title'] or ''})"
        source = posixpath.normpath(posixpath.join(posixpath.dirname(repository_path(page_uri)),
                                                   unquote(target.partition("#")[0])))
        text = restore(match["text"]).strip("`")
        if text in (source, target, posixpath.basename(source)):
            return f"`{source}`"
        return f"{match['text']} (`{source}`)"

    masked = INLINE_CODE.sub(keep, FENCE.sub(keep, markdown))
    return restore(LINK.sub(link, masked))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return rewrite_links(markdown, page.file.src_uri)
