"""docs/architecture.md's picture of the layout matches the tree: every entry exists, every
package folder and top-level folder is listed, and so is every large module of a folder whose
files the picture lists (a folder listed without files is described as a whole)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LARGE = 150  # lines: a module this long in a folder whose files are listed must be listed too
NOT_FOLDERS_OF_THE_PROJECT = {"site", "build", "dist", "venv", "__pycache__"}
ENTRY_COLUMN = 20  # an entry starts before this column; text further right continues a description


def layout_block(architecture: str) -> str:
    section = architecture.split("\n## Layout\n", 1)[1]
    found = re.search(r"^```\n(.*?)^```", section, re.M | re.S)
    assert found, "docs/architecture.md: the Layout section has no ``` block"
    return found.group(1)


def listed_paths(block: str) -> dict[str, bool]:
    """Each listed path (relative to the repository), with whether the picture lists files in it."""
    listed: dict[str, bool] = {}
    stack: list[str] = []
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent >= ENTRY_COLUMN:
            continue
        name = line.split()[0].rstrip("/")
        stack = [*stack[:indent // 2], name]
        path = "/".join(stack)
        listed[path] = False
        parent = "/".join(stack[:-1])
        if parent and not line.split()[0].endswith("/") and "." in name:
            listed[parent] = True
    return listed


def layout_problems(block: str, root: Path) -> list[str]:
    listed = listed_paths(block)
    problems = [f"{path} is listed but does not exist" for path in listed if not (root / path).exists()]
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        hidden = folder.name.startswith(".") or folder.name.endswith(".egg-info")
        if not hidden and folder.name not in NOT_FOLDERS_OF_THE_PROJECT and folder.name not in listed:
            problems.append(f"top-level folder {folder.name}/ is not listed")
    for package in ("yokai_envs", "agents"):
        for module in sorted((root / package).rglob("*.py")):
            folder = module.parent.relative_to(root).as_posix()
            if "__pycache__" in folder:
                continue
            if folder not in listed:
                problems.append(f"package folder {folder}/ is not listed")
            elif listed[folder] and module.relative_to(root).as_posix() not in listed:
                lines = module.read_text(encoding="utf-8").count("\n")
                if lines > LARGE:
                    problems.append(f"{module.relative_to(root)} ({lines} lines) is not listed in {folder}/")
    return sorted(set(problems))


def test_the_layout_picture_matches_the_tree() -> None:
    block = layout_block((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    expected = {"yokai_envs/cli", "yokai_envs/training/algorithms", "yokai_envs/training/common"}
    assert expected <= set(listed_paths(block))
    problems = layout_problems(block, ROOT)
    assert not problems, "docs/architecture.md's layout is out of date:\n" + "\n".join(problems)


def test_a_stale_picture_is_caught(tmp_path: Path) -> None:
    (tmp_path / "yokai_envs" / "core").mkdir(parents=True)
    (tmp_path / "yokai_envs" / "__init__.py").write_text("")
    (tmp_path / "yokai_envs" / "big.py").write_text("x = 1\n" * (LARGE + 1))
    (tmp_path / "yokai_envs" / "core" / "game.py").write_text("")
    (tmp_path / "yokai_envs" / "newpkg").mkdir()
    (tmp_path / "yokai_envs" / "newpkg" / "a.py").write_text("")
    (tmp_path / "agents").mkdir()
    (tmp_path / "stray").mkdir()
    block = "yokai_envs/\n  __init__.py            the front door\n  core/\n  gone/\nagents/\n"
    assert layout_problems(block, tmp_path) == [
        "package folder yokai_envs/newpkg/ is not listed",
        "top-level folder stray/ is not listed",
        "yokai_envs/big.py (151 lines) is not listed in yokai_envs/",
        "yokai_envs/gone is listed but does not exist",
    ]
