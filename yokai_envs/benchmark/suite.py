"""Benchmark suites as data: ``suites/<version>.yaml``, read with ``yaml.safe_load`` and checked.

A suite fixes everything a score depends on besides the agent: the configurations (env id,
options, levels), the ladder of reference agents, the deal seed of each configuration and the
games per cell. Its protocol hash is the SHA-256 of that content as canonical JSON (sorted keys,
the ``description`` left out), so two scores with the same hash were played on the same games.
Tests pin each version's hash: a changed suite needs a new version.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

SUITES_FOLDER = "suites"
DEFAULT_SUITE = "v1"
QUICK_SUITE = "v1-quick"
# A suite file is read whole; no suite needs more than this.
MAX_SUITE_BYTES = 64 * 1024
# The ladder rung every Co-op agent also plays with: itself in every seat.
SELF = "self"
LEVEL_OPTION = "difficulty"


class SuiteError(ValueError):
    """An unknown suite or configuration, or a suite file that is not a suite."""


@dataclass(frozen=True)
class Configuration:
    name: str
    env_id: str
    options: dict[str, Any]
    seed: int
    levels: tuple[int, ...] = ()  # one-team modes: the difficulty levels played

    def level_options(self, level: int | None) -> dict[str, Any]:
        return dict(self.options) if level is None else {**self.options, LEVEL_OPTION: level}


@dataclass(frozen=True)
class Suite:
    version: str
    description: str
    games: int
    ladder: dict[str, str]  # rung name -> agent spec
    scale: str  # the rung the score is read against
    configurations: dict[str, Configuration]
    protocol_hash: str

    def select(self, names: list[str] | None) -> list[Configuration]:
        """The named configurations (all when ``names`` is None), in the suite's order."""
        if names is None:
            return list(self.configurations.values())
        unknown = [name for name in names if name not in self.configurations]
        if unknown:
            raise SuiteError(f"unknown configuration {unknown[0]!r} in suite {self.version}; valid: "
                             f"{', '.join(self.configurations)}")
        if not names:
            raise SuiteError(f"name at least one configuration; valid: {', '.join(self.configurations)}")
        return [c for name, c in self.configurations.items() if name in names]


def available() -> list[str]:
    folder = resources.files("yokai_envs.benchmark") / SUITES_FOLDER
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".yaml"))


def protocol_hash(data: dict[str, Any]) -> str:
    protocol = {key: value for key, value in data.items() if key != "description"}
    canonical = json.dumps(protocol, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def load_suite(version: str = DEFAULT_SUITE) -> Suite:
    """The suite ``version`` shipped in the package; SuiteError naming the valid ones."""
    known = available()
    if version not in known:
        raise SuiteError(f"unknown suite {version!r}; valid suites: {', '.join(known)}")
    text = (resources.files("yokai_envs.benchmark") / SUITES_FOLDER / f"{version}.yaml").read_bytes()
    if len(text) > MAX_SUITE_BYTES:
        raise SuiteError(f"suite {version}: the file is larger than {MAX_SUITE_BYTES} bytes")
    return parse_suite(yaml.safe_load(text.decode("utf-8")), version)


def _need(where: str, value: Any, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SuiteError(f"{where}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def parse_suite(data: Any, version: str) -> Suite:
    """Check a suite's data (as loaded from its YAML) and build it."""
    from agents.specs import parse_spec
    from yokai_envs.registry import ENV_IDS

    where = f"suite {version}"
    _need(where, data, dict)
    if data.get("suite") != version:
        raise SuiteError(f"{where}: the file names itself {data.get('suite')!r}")
    extra = sorted(set(data) - {"suite", "description", "games", "ladder", "scale", "configurations"})
    if extra:
        raise SuiteError(f"{where}: unknown keys {extra}")
    games = _need(f"{where}: games", data.get("games"), int)
    if games < 1:
        raise SuiteError(f"{where}: games must be positive, got {games}")
    ladder = _need(f"{where}: ladder", data.get("ladder"), dict)
    for name, spec in ladder.items():
        if name == SELF:
            raise SuiteError(f"{where}: the rung name {SELF!r} is kept for the agent itself")
        try:
            parse_spec(_need(f"{where}: ladder.{name}", spec, str))
        except ValueError as err:
            raise SuiteError(f"{where}: ladder.{name}: {err}") from None
    scale = data.get("scale")
    if scale not in ladder or ladder[scale] != "heuristic" or "random" not in ladder.values():
        raise SuiteError(f"{where}: scale must name the heuristic's rung, and the ladder must hold random")
    configurations: dict[str, Configuration] = {}
    for name, raw in _need(f"{where}: configurations", data.get("configurations"), dict).items():
        here = f"{where}: configurations.{name}"
        _need(here, raw, dict)
        extra = sorted(set(raw) - {"env_id", "options", "seed", "levels"})
        if extra:
            raise SuiteError(f"{here}: unknown keys {extra}")
        if raw.get("env_id") not in ENV_IDS:
            raise SuiteError(f"{here}: env_id {raw.get('env_id')!r} is not a live env id ({', '.join(ENV_IDS)})")
        levels = tuple(_need(f"{here}: levels", level, int) for level in raw.get("levels", []))
        configurations[name] = Configuration(name, raw["env_id"], dict(_need(f"{here}: options", raw.get("options", {}),
                                                                             dict)),
                                             _need(f"{here}: seed", raw.get("seed"), int), levels)
    return Suite(version, str(data.get("description", "")), games, dict(ladder), scale, configurations,
                 protocol_hash(data))
