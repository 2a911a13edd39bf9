"""Each live env id is written once in the code: ``ENV_ID`` in its game package's ``__init__.py``.
Everything else reads that constant, so a version bump is one edit (docstrings and comments,
which show a user what to type, are prose and are left to ``test_documented_entry_points``)."""

from __future__ import annotations

import ast
from pathlib import Path

from yokai_envs.registry import ENV_IDS

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("yokai_envs", "agents")


def literal_ids(source: str, ids: set[str], home: bool = False) -> list[int]:
    """Lines where ``source`` spells one of ``ids`` as a string literal outside a docstring (and,
    in a game package's ``__init__.py``, ``home``, outside its ``ENV_ID = "..."``)."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            skip.add(id(body[0].value))  # a docstring
        if home and isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["ENV_ID"]:
            skip.add(id(node.value))
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                  and node.value in ids)


def test_the_scan_finds_a_literal_id_and_passes_docstrings_and_env_id() -> None:
    source = '''"""make("game_v1") in a docstring"""
ENV_ID = "game_v1"
VECTOR = ("game_v1",)
def f():
    """also game_v1"""
    return {"game_v1": 1}
'''
    assert literal_ids(source, {"game_v1"}, home=True) == [3, 6]
    assert literal_ids(source, {"game_v1"}) == [2, 3, 6]  # a second ENV_ID outside the package's home


def test_each_live_env_id_is_written_once() -> None:
    ids = set(ENV_IDS)
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            home = path.name == "__init__.py" and path.parent.name in {i.rpartition("_v")[0] for i in ids}
            found += [f"{path.relative_to(ROOT)}:{line}"
                      for line in literal_ids(path.read_text(encoding="utf-8"), ids, home)]
    assert not found, f"env ids written as literals (read the package's ENV_ID instead): {found}"
