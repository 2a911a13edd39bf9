"""No test asserts a constant truth (``assert True``, ``assert x or True``, ``assert (x, "why")``):
such an assert passes whatever the code does, so the test it sits in cannot fail there."""

from __future__ import annotations

import ast
import operator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def always_true(node: ast.expr) -> bool:
    """Whether ``node`` is true whatever the names in it are bound to."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
        return bool(node.elts if not isinstance(node, ast.Dict) else node.keys)  # a non-empty display
    if isinstance(node, ast.JoinedStr):
        return any(not isinstance(v, ast.Constant) or v.value for v in node.values)
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.Or):
            return any(always_true(v) for v in node.values)
        return all(always_true(v) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return always_false(node.operand)
    if isinstance(node, ast.IfExp):
        return always_true(node.body) and always_true(node.orelse)
    try:
        return bool(ast.literal_eval(node))  # constants, and displays and arithmetic of constants
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Compare) and all(_constant(n) for n in (node.left, *node.comparators)):
        values = [ast.literal_eval(n) for n in (node.left, *node.comparators)]
        try:
            return all(COMPARE[type(op)](a, b) for op, a, b in zip(node.ops, values, values[1:], strict=False))
        except (TypeError, KeyError):  # a comparison of constants that raises is no constant truth
            return False
    return False


COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}


def always_false(node: ast.expr) -> bool:
    try:
        return not ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False


def _constant(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def constant_asserts(source: str, filename: str = "<test>") -> list[str]:
    """``file:line: assert ...`` for each assert in ``source`` that is a constant truth."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Assert) and always_true(node.test):
            found.append(f"{filename}:{node.lineno}: assert {ast.unparse(node.test)}")
    return found


PLANTED = '''
def test_planted():
    assert True
    assert 1
    assert "always"
    assert x == 0 or True
    assert (x == 0, "a message in the wrong place")
    assert [x]
    assert not None
    assert 2 > 1
    assert f"{x}"
    assert True if x else 1
    assert (x or 1) and True
'''

GOOD = '''
def test_good():
    assert x
    assert x == 0, "a message"
    assert x or y
    assert not x
    assert x == 0 or y == 1
    assert []
    assert x and True
    assert f""
'''


def test_the_scan_finds_every_planted_constant_truth() -> None:
    found = constant_asserts(PLANTED)
    assert len(found) == PLANTED.count("    assert "), found


def test_the_scan_passes_asserts_that_can_fail() -> None:
    assert constant_asserts(GOOD) == []


@pytest.mark.parametrize("path", sorted(TESTS.rglob("*.py")), ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_asserts_a_constant_truth(path: Path) -> None:
    assert constant_asserts(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS))) == []
