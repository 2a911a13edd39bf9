"""Every ``scripts/NAME.py`` (or ``.sh``) that the code names, in a docstring, comment or message,
is a file of the repository: a reader sent to a script finds it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("yokai_envs", "agents", "scripts", "benchmarks", "examples")
SCRIPT = re.compile(r"\bscripts/[A-Za-z0-9_]+\.(?:py|sh)\b")


def named_scripts(text: str) -> set[str]:
    return set(SCRIPT.findall(text))


def test_the_pattern_finds_a_named_script():
    assert named_scripts("(scripts/model_cards.py writes it)") == {"scripts/model_cards.py"}
    assert named_scripts("python scripts/ship_model.py --cards-only; see myscripts/x.txt") == {"scripts/ship_model.py"}


def test_every_script_the_code_names_exists():
    missing = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name in sorted(named_scripts(path.read_text(encoding="utf-8"))):
                if not (ROOT / name).is_file():
                    missing.append(f"{path.relative_to(ROOT)} names {name}")
    assert not missing, missing
