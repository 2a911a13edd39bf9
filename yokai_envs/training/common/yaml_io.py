"""Reading YAML configs safely: UTF-8 only, no duplicate keys, no python tags, and aliases
expanded only up to a small bound (an alias bomb fails in milliseconds, not gigabytes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import read_limited

# name -> (low, high, low included, high included): values outside train to NaN, crash or hang.

MAX_YAML_NODES = 100_000
MAX_CONFIG_BYTES = 1_000_000
#: Far past any setting, and below Python's own 4,300-digit limit on reading an integer (past it
#: the YAML reader would fail with Python's error, naming neither the key nor the file).
MAX_INT_DIGITS = 1_000
_INT_TAG = "tag:yaml.org,2002:int"


class _StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping."""

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.get(key)
                except TypeError:
                    continue
                if first is not None:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r} (first at line {first.line + 1}; "
                                    "YAML would silently keep the last)", key_node.start_mark)
                seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


def _expanded_size(node: Any, memo: dict[int, int], open_nodes: set[int], source: str) -> int:
    """Nodes in the tree with every alias expanded (memoized: cheap even for an alias bomb)."""
    key = id(node)
    if key in open_nodes:
        raise ConfigError(f"{source}: a recursive alias (a node that contains itself)")
    if key in memo:
        return memo[key]
    open_nodes.add(key)
    if isinstance(node, yaml.MappingNode):
        size = 1 + sum(_expanded_size(k, memo, open_nodes, source) + _expanded_size(v, memo, open_nodes, source)
                       for k, v in node.value)
    elif isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded_size(v, memo, open_nodes, source) for v in node.value)
    else:
        size = 1
    open_nodes.discard(key)
    memo[key] = min(size, 10 * MAX_YAML_NODES)
    return memo[key]


def _check_integers(node: Any, path: str, source: str) -> None:
    """ConfigError naming the dotted key of an integer too long to be any setting."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _INT_TAG and len(node.value) > MAX_INT_DIGITS:
            where = f"{source}: {path}" if path else source
            raise ConfigError(f"{where}: an integer of {len(node.value):,} digits; no setting takes one of more "
                              f"than {MAX_INT_DIGITS:,} (line {node.start_mark.line + 1})")
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else "?"
            _check_integers(key, path, source)
            _check_integers(value, f"{path}.{name}" if path else str(name), source)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _check_integers(item, f"{path}[{i}]", source)


def parse_yaml(text: str, source: str) -> Any:
    """YAML text as plain data (safe tags only), refusing duplicate keys and alias expansion
    past :data:`MAX_YAML_NODES`; every failure is a ConfigError naming ``source``."""
    loader: _StrictLoader | None = None
    try:
        loader = _StrictLoader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        size = _expanded_size(node, {}, set(), source)
        if size > MAX_YAML_NODES:
            raise ConfigError(f"{source}: expands to more than {MAX_YAML_NODES:,} YAML nodes (aliases repeat "
                              "what they name); refusing it")
        _check_integers(node, "", source)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: nested too deeply (or a recursive alias)") from None
    finally:
        if loader is not None:
            loader.dispose()


def read_yaml_file(path: str | Path) -> Any:
    """A YAML file as data: UTF-8 only, bounded in size (see :func:`parse_yaml`)."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"config file {str(path)!r} is a folder; name a YAML file in it")
    if not p.is_file():
        raise ConfigError(f"config file not found: {str(path)!r}")
    raw = read_limited(p, MAX_CONFIG_BYTES, str(path), "a config", ConfigError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}: {raw[exc.start:exc.start + 1]!r})") from None
    return parse_yaml(text, str(path))


def read_yaml(path: str | Path) -> dict[str, Any]:
    data = read_yaml_file(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a mapping of sections, got {type(data).__name__}")
    return data
