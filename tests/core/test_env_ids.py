"""Env ids: each written once, in its game package's ``ENV_ID``; everything else reads it, and
every id a config or a page names is one the registry knows."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from yokai_envs.registry import ENV_IDS, GAME_PACKAGES, RETIRED, game_class, live_id

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"\b((?:yonkai_no_yokai|yokaizo|onmyoji|yyh_tcg)_v\d+)\b")


def _code_strings(path: Path) -> set[str]:
    """The string constants of a module that are whole values (not docstrings or prose)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_the_game_and_its_envs_read_the_id_from_the_package(package: str) -> None:
    env_id = importlib.import_module(f"yokai_envs.{package}").ENV_ID
    assert env_id == live_id(package) and env_id in ENV_IDS and env_id.rpartition("_v")[0] == package
    assert game_class(env_id).env_id == env_id
    env_module = importlib.import_module(f"yokai_envs.{package}.env")
    assert env_module.raw_env.metadata["name"] == env_id
    for module in ("game.py", "env.py"):
        assert env_id not in _code_strings(ROOT / "yokai_envs" / package / module), \
            f"yokai_envs/{package}/{module} writes {env_id} itself: read ENV_ID"
    assert env_id not in _code_strings(ROOT / "yokai_envs" / "registry.py")


def test_the_onmyoji_parallel_env_is_named_after_the_same_version() -> None:
    from yokai_envs.onmyoji.env import OnmyojiParallelEnv

    version = live_id("onmyoji").rpartition("_v")[2]
    assert OnmyojiParallelEnv.metadata["name"] == f"onmyoji_parallel_v{version}"


def test_live_id_names_the_valid_games_when_asked_for_another() -> None:
    assert [live_id(package) for package in GAME_PACKAGES] == list(ENV_IDS)
    with pytest.raises(ValueError, match=r"unknown game 'yyh'.*yyh_tcg"):
        live_id("yyh")


def test_retired_ids_say_why_in_words() -> None:
    for old, (successor, why) in RETIRED.items():
        assert successor in ENV_IDS, f"{old} points at {successor}, which is not live"
        assert not re.search(r"\bissues? \d", why), f"{old}: say the reason, not an issue number"


def _files(*patterns: str) -> list[Path]:
    return sorted({path for pattern in patterns for path in ROOT.glob(pattern) if ".venv" not in path.parts})


def test_every_env_id_a_config_names_is_live() -> None:
    stale = {(str(path.relative_to(ROOT)), env_id) for path in _files("configs/**/*.yaml")
             for env_id in ID.findall(path.read_text(encoding="utf-8")) if env_id not in ENV_IDS}
    assert not stale, sorted(stale)


def test_every_env_id_the_docs_and_sources_name_is_live_or_retired() -> None:
    """Pages that record a measurement or a change name the id it was made on (a retired one is
    fine: the registry explains it); an id the registry never knew is a typo or a bump that
    forgot the registry."""
    files = _files("*.md", "docs/**/*.md", "agents/**/*.md", "agents/**/*.py", "yokai_envs/**/*.md",
                   "yokai_envs/**/*.py", "yokai_envs/**/*.yaml", "examples/**/*.py", "scripts/**/*.py",
                   "benchmarks/**/*.py", "benchmarks/**/*.md")
    assert len(files) > 100
    unknown = {(str(path.relative_to(ROOT)), env_id) for path in files
               for env_id in ID.findall(path.read_text(encoding="utf-8"))
               if env_id not in ENV_IDS and env_id not in RETIRED}
    assert not unknown, sorted(unknown)
