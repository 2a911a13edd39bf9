"""The docs site: the API reference documents every public name it lists, the site's link
re-pointing does what it says, and the code the docs mark runnable runs as written.

The site itself is built by ``mkdocs build --strict`` in scripts/test.sh (a broken link, anchor
or nav entry fails it); these tests keep the parts that are cheap to check in the suite.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
API_PAGE = ROOT / "docs" / "api.md"
DIRECTIVE = re.compile(r"^::: (?P<path>[\w.]+)\n(?:    options:\n      members: \[(?P<members>[^\]]*)\]\n)?", re.M)
# A ```python block right after this comment is run by the suite, in a fresh interpreter.
RUNNABLE = re.compile(r"^<!-- test: run -->\n```python\n(?P<code>.*?)^```", re.M | re.S)
RUNNABLE_PAGES = sorted({ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), ROOT / "agents" / "README.md",
                         ROOT / "configs" / "README.md"})


def api_names() -> list[str]:
    """Every object the API page renders: each directive's object, or the members it lists."""
    names = []
    for match in DIRECTIVE.finditer(API_PAGE.read_text(encoding="utf-8")):
        members = [m.strip() for m in (match["members"] or "").split(",") if m.strip()]
        names += [f"{match['path']}.{m}" for m in members] if members else [match["path"]]
    return names


# Methods of the PettingZoo, Gymnasium and SB3 interfaces the adapters implement: their base
# classes (outside this project) document them.
INTERFACE = {"reset", "step", "observe", "render", "close", "state", "observation_space", "action_space",
             "agent_iter", "step_wait", "env_method", "has_attr", "get_attr", "unwrapped"}


def inherited_docstring(cls, member: str) -> bool:
    """A method that overrides one of a project base class with a docstring shares its docs."""
    for base in cls.resolved_bases:
        if member in base.members and (base.members[member].docstring or inherited_docstring(base, member)):
            return True
    return False


def undocumented(names: list[str], root: Path = ROOT) -> list[str]:
    """The names (and, for a class, its public methods and properties) that have no docstring."""
    griffe = pytest.importorskip("griffe")
    packages = {top: griffe.load(top, search_paths=[str(root)]) for top in {n.split(".")[0] for n in names}}
    missing = []
    for name in names:
        top, _, rest = name.partition(".")
        obj = packages[top][rest] if rest else packages[top]
        obj = obj.final_target if obj.is_alias else obj
        if not obj.docstring and obj.kind.value != "attribute":
            missing.append(name)
        if obj.kind.value == "class":
            for member, child in obj.members.items():
                public_call = child.kind.value == "function" or "property" in child.labels
                if public_call and not member.startswith("_") and not child.is_alias and not child.docstring \
                        and member not in INTERFACE and not inherited_docstring(obj, member):
                    missing.append(f"{name}.{member}")
    return missing


def test_the_api_page_lists_the_front_doors() -> None:
    names = api_names()
    for expected in ("yokai_envs.make", "yokai_envs.core.game.Game", "yokai_envs.training.make_gym", "agents.make",
                     "agents.arena.run_match", "yokai_envs.play.load_replay"):
        assert expected in names


def test_every_public_name_on_the_api_page_has_a_docstring() -> None:
    missing = undocumented(api_names())
    assert not missing, "public names without a docstring (the API reference would show them bare):\n" + \
        "\n".join(missing)


def test_an_undocumented_name_is_caught(tmp_path: Path) -> None:
    (tmp_path / "toy.py").write_text(
        'class Base:\n    def act(self):\n        """Documented here."""\n\n\n'
        'class Bare(Base):\n    def act(self):\n        pass\n\n    def own(self):\n        pass\n\n\n'
        'def bare():\n    pass\n\n\ndef told():\n    """Told."""\n')
    assert undocumented(["toy.bare", "toy.told", "toy.Bare"], root=tmp_path) == ["toy.bare", "toy.Bare", "toy.Bare.own"]


def test_links_are_re_pointed_for_the_site() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from docs_hooks import rewrite_links
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    page = ("[guide](../configs/README.md#layering) [code](../agents/base.py) [`agents/base.py`](../agents/base.py) "
            "[here](results.md#speed) `[in code](../x.md)` [web](https://example.org)\n```\n[fenced](../y.md)\n```\n")
    assert rewrite_links(page, "getting-started.md") == (
        "[guide](training.md#layering) code (`agents/base.py`) `agents/base.py` "
        "[here](results.md#speed) `[in code](../x.md)` [web](https://example.org)\n```\n[fenced](../y.md)\n```\n")
    # from a page made of a file outside docs/, links are read relative to that file
    assert rewrite_links("[results](../docs/results.md)", "agents.md") == "[results](results.md)"


def runnable_blocks() -> list[tuple[str, str]]:
    return [(f"{page.relative_to(ROOT)}:{page.read_text(encoding='utf-8')[:m.start()].count(chr(10)) + 2}", m["code"])
            for page in RUNNABLE_PAGES for m in RUNNABLE.finditer(page.read_text(encoding="utf-8"))]


def run_snippet(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"})


def test_the_docs_mark_snippets_runnable() -> None:
    where = [place for place, _ in runnable_blocks()]
    assert any(p.startswith("docs/getting-started.md:") for p in where)
    assert any(p.startswith("README.md:") for p in where)


@pytest.mark.parametrize(("place", "code"), runnable_blocks(), ids=[p for p, _ in runnable_blocks()])
def test_a_runnable_snippet_runs_as_written(place: str, code: str, tmp_path: Path) -> None:
    done = run_snippet(code, tmp_path)
    assert done.returncode == 0, f"{place}: the snippet fails\n{done.stderr[-3000:]}"


def test_a_failing_snippet_is_caught(tmp_path: Path) -> None:
    page = "text\n<!-- test: run -->\n```python\nraise SystemExit(3)\n```\n"
    (code,) = [m["code"] for m in RUNNABLE.finditer(page)]
    assert run_snippet(code, tmp_path).returncode == 3
