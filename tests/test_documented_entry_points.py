"""What the docs tell a user to type names ids that exist, and runs as written.

Historical measurements (BALANCE.md files, docs/results.md, the generated game pages that quote
them) name the version they were measured on and are left out; everything a user copies from
(the READMEs, the guides, docstrings, examples) must name the registry's current ids.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from yokai_envs.registry import ENV_IDS

ROOT = Path(__file__).resolve().parents[1]
GAME_PAGES = {f"{env_id.rpartition('_v')[0]}.md" for env_id in ENV_IDS}
USER_DOCS = sorted({ROOT / "README.md", ROOT / "agents" / "README.md", ROOT / "configs" / "README.md",
                    *(p for p in (ROOT / "docs").glob("*.md") if p.name not in GAME_PAGES | {"results.md"}),
                    *(ROOT / "yokai_envs").glob("*/README.md"), *(ROOT / "yokai_envs").glob("**/*.py"),
                    *(ROOT / "examples").glob("*.py")})
_CALL = r"\b(?:make|make_gym|make_vec_gym|make_game|load_game|sb3_vec_env|parallel_env|flat_env|flat_parallel_env)"
# an id where a user passes one: a builder's first argument, or --game / --env on a command line
ID_USE = re.compile(_CALL + r"""\(\s*["']((?:yokai_envs:)?(?:yokai_envs/)?[a-z_]+[_-]v\d+)"""
                    r"""|--(?:game|env)[ =]([a-z_]+_v\d+)""")
# a call with literal arguments only, runnable as written
SNIPPET = re.compile(r"""(?:gymnasium|gym)\.make\("[^"]+"[^()]*\)|yokai_envs\.make\("[^"]+"[^()]*\)"""
                     r"""|yokai_envs\.training\.make(?:_gym|_vec_gym)\("[^"]+"[^()]*\)"""
                     r"""|pyspiel\.load_game\("[^"]+"(?:, \{[^{}]*\})?\)|sb3_vec_env\("[^"]+"[^()]*\)""")


def _literal_call(snippet: str) -> bool:
    """A call whose arguments are all literals (no placeholder such as K or env_id)."""
    try:
        call = ast.parse(snippet, mode="eval").body
        assert isinstance(call, ast.Call)
        for node in [*call.args, *(k.value for k in call.keywords)]:
            ast.literal_eval(node)
    except (SyntaxError, ValueError, AssertionError):
        return False
    return True


def _gym_ids() -> set[str]:
    from yokai_envs.envs.gymnasium_ids import GYM_IDS

    return set(GYM_IDS.values())


def test_documented_ids_are_the_registrys() -> None:
    current = set(ENV_IDS) | _gym_ids() | {f"yokai_envs:{g}" for g in _gym_ids()}
    stale = [f"{path.relative_to(ROOT)}:{number}: {found}"
             for path in USER_DOCS for number, line in enumerate(path.read_text().splitlines(), 1)
             for match in ID_USE.finditer(line) for found in match.groups() if found and found not in current]
    assert not stale, "docs name ids the registry does not have (retired?):\n" + "\n".join(stale)


@pytest.mark.slow  # one interpreter importing torch, SB3 and pyspiel: about 10 CPU-seconds
def test_every_documented_entry_point_runs_in_a_fresh_interpreter() -> None:
    snippets = sorted({m.group(0) for path in USER_DOCS for m in SNIPPET.finditer(path.read_text())
                       if not re.search(r"\.\.\.|<", m.group(0)) and _literal_call(m.group(0))})
    assert any(s.startswith(("gymnasium.make", "gym.make")) for s in snippets)
    assert any(s.startswith("yokai_envs.make(") for s in snippets)
    program = "\n".join([
        "import gymnasium, gymnasium as gym", "import yokai_envs", "import yokai_envs.training", "import pyspiel",
        "from yokai_envs.envs import openspiel", "from yokai_envs.envs.vector import sb3_vec_env",
        "openspiel.register_all()",
        *(f"print({s!r}); built = {s}; getattr(built, 'close', lambda: None)()" for s in snippets)])
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert done.stdout.count("\n") == len(snippets)


@pytest.mark.parametrize("retired", ["yonkai_no_yokai_v0"])
def test_a_retired_id_in_a_doc_would_be_caught(retired: str) -> None:
    assert ID_USE.search(f'gymnasium.make("yokai_envs/{retired.replace("_v", "-v")}")')
    assert ID_USE.search(f"yokai play --game {retired}")
