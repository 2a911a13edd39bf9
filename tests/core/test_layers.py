"""Imports flow one way: core -> games -> env adapters -> agents -> training / play / cli.

Walks the source of every module (module-level and function-level imports alike) and fails on
an import that reaches a layer above the importer's. docs/architecture.md draws the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("yonkai_no_yokai", "yokaizo", "onmyoji", "yyh_tcg")
LAYER_NAMES = {1: "core", 2: "games", 3: "env adapters", 4: "agents", 5: "training/play/cli"}
# Third-party packages the rules engines must never import (rules never import gym).
FORBIDDEN_BELOW_ADAPTERS = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray")
# Front doors: the package and each game package hand out what they build (``yokai_envs.make``,
# ``yokai_envs.onmyoji.parallel_env``) and import it at call time, inside the function, so that
# importing them stays cheap. They may import any layer, but never at module level above core.
FACADE = {"yokai_envs", "yokai_envs.registry", *(f"yokai_envs.{game}" for game in GAMES)}


def layer_of(module: str) -> int | None:
    """The layer of a project module, or None for third-party and standard-library modules."""
    parts = module.split(".")
    if parts[0] == "agents":
        return 4
    if parts[0] != "yokai_envs" or len(parts) == 1:
        return None
    top = parts[1]
    if top == "core":
        return 1
    if top in GAMES:
        return 3 if len(parts) > 2 and parts[2] == "env" else 2
    if top == "envs":
        return 3
    return 5  # training, play, cli*, bench


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, imported module) for every import statement in the file, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # `from yokai_envs import training` imports a submodule: judge the submodule
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names
                      if layer_of(f"{target}.{alias.name}") not in (None, layer_of(target))]
    return found


def module_level_imports(path: Path, module: str) -> list[tuple[int, str]]:
    """Imports that run when the module is imported (not inside a function or TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lazy: set[int] = set()
    for node in ast.walk(tree):
        is_type_checking = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or is_type_checking:
            lazy |= {id(inner) for inner in ast.walk(node) if inner is not node}
    eager_lines = {n.lineno for n in ast.walk(tree)
                   if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in lazy}
    return [(line, target) for line, target in imports_of(path, module) if line in eager_lines]


def violations(files: list[Path]) -> list[str]:
    bad = []
    for path in files:
        module = module_name(path)
        if module in FACADE:
            bad += [f"{path.relative_to(ROOT)}:{line}: front door {module} imports {target} at module level"
                    for line, target in module_level_imports(path, module)
                    if ((layer_of(target) or 0) > 1 and target not in FACADE)
                    or target.split(".")[0] in FORBIDDEN_BELOW_ADAPTERS]
            continue
        own = layer_of(module)
        assert own is not None, module
        for line, target in imports_of(path, module):
            if target.split(".")[0] in FORBIDDEN_BELOW_ADAPTERS and own <= 2:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {LAYER_NAMES[own]} module imports {target}")
                continue
            theirs = layer_of(target)
            if theirs is not None and target not in FACADE and theirs > own:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {LAYER_NAMES[own]} module {module} imports "
                           f"{target} ({LAYER_NAMES[theirs]})")
    return bad


def project_files() -> list[Path]:
    return sorted([*ROOT.joinpath("yokai_envs").rglob("*.py"), *ROOT.joinpath("agents").rglob("*.py")])


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    bad = violations(project_files())
    assert not bad, "imports that reach up a layer:\n" + "\n".join(bad)


@pytest.mark.parametrize(("source", "expect"), [
    ("from agents.base import act_in_game\n", "games module"),          # a rules module reaching up to the bots
    ("import gymnasium\n", "imports gymnasium"),                          # rules never import gym
    ("from ..envs import aec\n", "yokai_envs.envs"),                      # relative imports count too
])
def test_the_walk_catches_an_upward_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           source: str, expect: str) -> None:
    fake_root = tmp_path
    game_dir = fake_root / "yokai_envs" / "yokaizo"
    game_dir.mkdir(parents=True)
    bad_module = game_dir / "rules.py"
    bad_module.write_text(source, encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", fake_root)
    found = violations([bad_module])
    assert len(found) == 1 and expect in found[0], found


def test_every_module_has_a_layer() -> None:
    assert {layer_of(module_name(p)) for p in project_files()} - {None} <= set(LAYER_NAMES)
    assert layer_of("yokai_envs.core.game") == 1 and layer_of("yokai_envs.yokaizo.rules") == 2
    assert layer_of("yokai_envs.yokaizo.env") == 3 and layer_of("agents.arena") == 4
    assert layer_of("yokai_envs.training.gym_env") == 5


# ---------------------------------------------------------------------- one shape for every game
SAME_FILES = ("__init__.py", "state.py", "rules.py", "actions.py", "observation.py", "game.py", "env.py",
              "view.py", "README.md", "RULES_NOTES.md")
CARD_GAMES = ("yokaizo", "onmyoji", "yyh_tcg")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_has_the_same_files(game: str) -> None:
    package = ROOT / "yokai_envs" / game
    wanted = [*SAME_FILES, *(("cards.py", "cards.yaml") if game in CARD_GAMES else ())]
    missing = [name for name in wanted if not (package / name).is_file()]
    assert not missing, f"yokai_envs/{game} lacks {missing} (see docs/architecture.md)"
    assert not (package / "encoding.py").exists(), "encoding.py was split into observation.py and actions.py"
    assert (ROOT / "tests" / game / "helpers.py").is_file()
    assert not (ROOT / "tests" / game / "scenario.py").exists()


def test_no_function_imports_a_private_name() -> None:
    """A name another module needs is public: a function-level ``from x import _name`` hides a
    dependency on another module's internals (a cycle may keep the import in the function)."""
    bad = []
    for path in project_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            bad += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.module} {alias.name}"
                    for node in ast.walk(function) if isinstance(node, ast.ImportFrom)
                    for alias in node.names if alias.name.startswith("_")]
    assert not bad, "private names imported inside functions:\n" + "\n".join(bad)
