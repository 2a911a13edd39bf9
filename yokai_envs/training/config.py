"""Read, layer and validate a training config.

    config = load_config("configs/yonkai_no_yokai/quick.yaml", overrides=["training.seed=3"])

Layers, lowest first: the defaults of ``schema.SCHEMA``, the YAML file (``yaml.safe_load``),
``--set key=value`` overrides (dotted paths, values parsed as YAML), ``--out DIR``.
Validation runs before anything is built and reports every problem at once, each with its
dotted path, what was expected and the valid choices (a near-miss gets "did you mean").
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import inspect
import itertools
import math
import os
from pathlib import Path
from typing import Any

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.training.schema import ALGORITHMS, REQUIRED, SCHEMA, Field, defaults

# name -> (low, high, low included, high included): values outside train to NaN, crash or hang.
HYPERPARAMETER_RANGES: dict[str, tuple[float, float, bool, bool]] = {
    "learning_rate": (0.0, 1.0, False, True),
    "gamma": (0.0, 1.0, True, True),
    "gae_lambda": (0.0, 1.0, True, True),
    "clip_range": (0.0, 1.0, False, True),
    "clip_range_vf": (0.0, math.inf, False, False),
    "ent_coef": (0.0, 1.0, True, True),
    "vf_coef": (0.0, math.inf, True, False),
    "max_grad_norm": (0.0, math.inf, False, False),
    "target_kl": (0.0, math.inf, False, False),
    "n_steps": (1, 10_000_000, True, True),
    "batch_size": (2, 10_000_000, True, True),  # 1: the advantage normalisation divides by a zero std
    "n_epochs": (1, 10_000, True, True),
}


def _out_of_range(value: float, low: float, high: float, low_in: bool, high_in: bool) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number, got {value!r}"
    below = value < low if low_in else value <= low
    above = value > high if high_in else value >= high
    if below or above:
        interval = (("[" if low_in else "(") + f"{low:g}, " + (f"{high:g}" if math.isfinite(high) else "inf")
                    + ("]" if high_in else ")"))
        return f"must be in {interval}, got {value!r}"
    return None


# Constructor arguments the trainer sets itself: not allowed under algorithm.hyperparameters.
RESERVED_HYPERPARAMETERS = ("policy", "env", "policy_kwargs", "tensorboard_log", "verbose", "seed", "device",
                            "_init_setup_model", "rollout_buffer_class", "rollout_buffer_kwargs")


def load_config(path: str | Path | None = None, overrides: list[str] | None = None, out: str | None = None,
                base: dict[str, Any] | None = None, check_agents: bool = True) -> dict[str, Any]:
    """The resolved, validated config (raises ConfigError listing every problem).

    ``base`` replaces the file (used by ``--resume`` with the run's saved config).
    """
    source = str(path) if path is not None else "config"
    if overrides:  # a bad key may come from the command line rather than the file
        source += "".join(f", --set {item}" for item in overrides)
    if base is not None:
        user = base
    elif path is not None:
        user = read_yaml(path)
    else:
        raise ConfigError("no config: pass --config FILE (or --resume with a run folder)")
    user = _copy_tree(user)
    for item in overrides or []:
        apply_override(user, item)
    if out is not None:
        user.setdefault("output", {})
        if not isinstance(user["output"], dict):
            raise ConfigError(f"{source}: output must be a mapping")
        user["output"]["dir"] = out
    config = merge(defaults(), user)
    errors: list[str] = []
    _check_tree(config, SCHEMA, "", errors)
    _check_semantics(config, errors, check_agents)
    if errors:
        raise ConfigError(f"invalid training config ({source}):\n  - " + "\n  - ".join(errors))
    config = _ordered(config, SCHEMA)
    if config["output"]["dir"] is None:
        name = Path(path).stem if path is not None else "run"
        config["output"]["dir"] = str(Path("runs") / game_name(config["game"]["env_id"]) / name)
    from yokai_envs.training.safety import check_writable_folder

    problem = check_writable_folder(config["output"]["dir"])
    if problem:  # found now, not after hours of training
        raise ConfigError(f"invalid training config ({source}):\n  - output.dir {config['output']['dir']}: "
                          f"cannot hold the run: {problem}")
    return config


#: A config expanded past this many YAML nodes (aliases counted every time they are used) is refused.
MAX_YAML_NODES = 100_000
MAX_CONFIG_BYTES = 1_000_000


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
    if not p.is_file():
        raise ConfigError(f"config file not found: {str(path)!r}")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: {len(raw):,} bytes; a config is at most {MAX_CONFIG_BYTES:,}")
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


def game_name(env_id: str) -> str:
    """``yonkai_no_yokai_v1`` -> ``yonkai_no_yokai`` (the configs/ and runs/ folder name)."""
    head, _, version = env_id.rpartition("_v")
    return head if head and version.isdigit() else env_id


# ---------------------------------------------------------------------- layering
def apply_override(tree: dict[str, Any], item: str) -> None:
    """Apply one ``dotted.key=value`` override in place (value parsed as YAML)."""
    if "=" not in item:
        raise ConfigError(f"--set {item!r}: expected key=value, e.g. training.total_timesteps=100000")
    key, raw = item.split("=", 1)
    parts = [p for p in key.strip().split(".")]
    if not all(parts):
        raise ConfigError(f"--set {item!r}: empty part in the dotted key {key!r}")
    try:
        value = parse_yaml(raw, f"--set {item!r}: the value") if raw.strip() else None
    except ConfigError as exc:
        raise ConfigError(str(exc)) from None
    node: Any = tree
    for depth, part in enumerate(parts[:-1]):
        where = ".".join(parts[:depth + 1])
        if isinstance(node, list):
            node = node[_list_index(node, part, where, item)]
        elif isinstance(node, dict):
            if not isinstance(node.get(part), dict | list):
                node[part] = {}
            node = node[part]
        else:
            raise ConfigError(f"--set {item!r}: {where} is not a section")
    last = parts[-1]
    if isinstance(node, list):
        node[_list_index(node, last, key, item)] = value
    else:
        node[last] = value


def _list_index(node: list, part: str, where: str, item: str) -> int:
    if not part.isdigit() or int(part) >= len(node):
        raise ConfigError(f"--set {item!r}: {where}: list index must be 0..{len(node) - 1}, got {part!r}")
    return int(part)


def merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """``top`` over ``base``: mappings merge key by key, everything else (lists too) replaces."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def _ordered(tree: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``tree`` with its keys in schema order (so saved configs read like the schema)."""
    out: dict[str, Any] = {}
    for key, node in schema.items():
        if key not in tree:
            continue
        value = tree[key]
        if isinstance(node, dict):
            value = _ordered(value, node)
        elif isinstance(node.items, dict) and isinstance(value, list):
            value = [_ordered(v, node.items) if isinstance(v, dict) else v for v in value]
        out[key] = value
    return out


def _copy_tree(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_tree(v) for v in value]
    return value


# ---------------------------------------------------------------------- structure
def unknown_key_message(path: str, key: Any, valid: list[str]) -> str:
    close = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"{_join(path, key)}: unknown key{hint}; valid keys: {', '.join(valid)}"


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _check_tree(tree: Any, schema: dict[str, Any], path: str, errors: list[str]) -> None:
    if not isinstance(tree, dict):
        errors.append(f"{path}: expected a mapping of {', '.join(schema)}, got {type(tree).__name__}")
        return
    for key in list(tree):
        if key not in schema:
            errors.append(unknown_key_message(path, key, list(schema)))
    for key, node in schema.items():
        where = _join(path, key)
        if isinstance(node, dict):
            _check_tree(tree.setdefault(key, {}), node, where, errors)
        elif key not in tree:
            if node.default is REQUIRED:
                errors.append(f"{where}: required ({node.type_names()}){_help(node)}")
        else:
            tree[key] = _check_value(tree[key], node, where, errors)


def _help(node: Field) -> str:
    return f" — {node.help}" if node.help else ""


def _check_value(value: Any, node: Field, where: str, errors: list[str]) -> Any:
    if value is None:
        if not node.nullable:
            errors.append(f"{where}: must be {node.type_names()}, got null{_help(node)}")
        return value
    value = _coerce(value, node)
    if (isinstance(value, bool) and bool not in node.types) or not isinstance(value, node.types):
        errors.append(f"{where}: must be {node.type_names()}, got {type(value).__name__} {value!r}{_help(node)}")
        return value
    if node.choices is not None and value not in node.choices:
        close = difflib.get_close_matches(str(value), [str(c) for c in node.choices], n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        errors.append(f"{where}: {value!r} is not valid{hint}; valid choices: {', '.join(map(str, node.choices))}")
    if isinstance(value, float) and not math.isfinite(value):
        errors.append(f"{where}: must be a finite number, got {value!r}")
        return value
    if node.minimum is not None and isinstance(value, int | float) and value < node.minimum:
        errors.append(f"{where}: must be >= {node.minimum:g}, got {value!r}")
    if node.maximum is not None and isinstance(value, int | float) and value > node.maximum:
        errors.append(f"{where}: must be <= {node.maximum:g}, got {value!r}")
    if isinstance(value, list) and node.items is not None:
        for i, item in enumerate(value):
            value[i] = _check_item(item, node.items, f"{where}[{i}]", errors)
    if float in node.types and int in node.types and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return value


def _coerce(value: Any, node: Field) -> Any:
    """YAML reads ``3e-4`` (no dot) as a string; accept numeric strings where a float is due."""
    if float in node.types and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _check_item(item: Any, spec: Any, where: str, errors: list[str]) -> Any:
    if isinstance(spec, Field):
        return _check_value(item, spec, where, errors)
    if isinstance(item, str):  # a bare spec string is shorthand for {spec: ..., weight: 1}
        item = {"spec": item}
    merged = {**defaults(spec), **item} if isinstance(item, dict) else item
    _check_tree(merged, spec, where, errors)
    return merged


# ---------------------------------------------------------------------- meaning
def _check_semantics(config: dict[str, Any], errors: list[str], check_agents: bool) -> None:
    """Checks that need the game, the algorithm or the bots; each section only when its
    structure is sound (so one typo does not hide the other problems, nor cause false ones)."""
    broken = {e.split(":")[0].split(".")[0].split("[")[0] for e in errors}
    if "algorithm" not in broken:
        _check_hyperparameters(config["algorithm"], errors)
        algorithm = config["algorithm"]
        if algorithm["network"]["critic_state"] and algorithm["policy"] != "MlpPolicy":
            errors.append(f"algorithm.network.critic_state: needs algorithm.policy MlpPolicy, "
                          f"got {algorithm['policy']!r}")
    if not broken & {"env", "reward"}:
        from yokai_envs.training.hooks import check_hooks

        check_hooks(config, errors)
    instance = None if "game" in broken else _check_game(config["game"], errors)
    if instance is None:
        return
    env_id, options, seats = config["game"]["env_id"], config["game"]["options"], instance.num_players
    if not errors:  # sizes are only meaningful when every value is sound
        _check_memory(config, instance, errors)
    if "evaluation" not in broken:
        _check_evaluation(config["evaluation"], seats, errors)
    if "opponents" not in broken:

        bots = config["opponents"]["bots"]
        if seats > 1 and not instance.cooperative:
            if not bots:
                errors.append(f"opponents.bots: {env_id} with {seats} seats needs at least one opponent bot "
                              "(self-play too: bots play until the first snapshot)")
            elif sum(b["weight"] for b in bots) <= 0:
                errors.append("opponents.bots: the weights sum to 0; give at least one bot a positive weight")
    if check_agents:
        specs = []
        if "opponents" not in broken:
            specs += [(f"opponents.bots[{i}].spec", b["spec"]) for i, b in enumerate(config["opponents"]["bots"])]
        if "evaluation" not in broken:
            specs += [(f"evaluation.bots[{i}]", s) for i, s in enumerate(config["evaluation"]["bots"])]
        if "pretrain" not in broken and config["pretrain"]["imitate"]:
            specs.append(("pretrain.imitate", config["pretrain"]["imitate"]))
        for where, spec in specs:
            _check_agent(where, spec, env_id, options, errors)


def _check_game(game: dict[str, Any], errors: list[str]) -> Any:
    """The game instance the options build, or None (with the errors recorded)."""
    from yokai_envs.registry import ENV_IDS, game_class

    env_id = game["env_id"]
    if env_id not in ENV_IDS:
        close = difflib.get_close_matches(env_id, ENV_IDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        errors.append(f"game.env_id: unknown env id {env_id!r}{hint}; valid env ids: {', '.join(ENV_IDS)}")
        return None
    cls = game_class(env_id)
    valid_options = [*cls.OPTIONS, "max_steps"]
    unknown = [key for key in game["options"] if key not in valid_options]
    for key in unknown:
        errors.append(unknown_key_message("game.options", key, valid_options))
    if unknown:
        return None
    try:
        instance = cls(**game["options"])
    except (ConfigError, ValueError, TypeError) as exc:
        errors.append(f"game.options: {exc}")
        return None
    seats = instance.num_players
    if game["learner_seat"] is not None and game["learner_seat"] >= seats:
        errors.append(f"game.learner_seat: {game['learner_seat']} is not a seat of {env_id} "
                      f"with {seats} players; valid: null (rotate) or 0..{seats - 1}")
    return instance


def estimate_memory(config: dict[str, Any], game: Any) -> dict[str, int]:
    """Bytes the run will hold at once, by part (a lower bound: what the config alone decides).

    rollout buffer: per env step the observation, the action mask (float32 in sb3-contrib), the
    action and six float32 columns, twice (the buffer is flattened into a copy for training);
    network: actor and critic weights, gradients and Adam's two moments (4 copies, float32);
    activations: one minibatch through every layer of both nets, forward and backward;
    pretrain: the teacher's decisions (observation, mask) held for behaviour cloning.
    """
    algorithm, training = config["algorithm"], config["training"]
    hyper = algorithm["hyperparameters"]
    obs, actions = int(game.observation_size), int(game.num_actions)
    n_envs = training["n_envs"]
    n_steps = int(hyper.get("n_steps", 2048))
    batch = int(hyper.get("batch_size", 64))
    network = algorithm["network"]
    pi = [int(h) for h in (network["pi"] if network["pi"] is not None else network["net_arch"])]
    vf = [int(h) for h in (network["vf"] if network["vf"] is not None else network["net_arch"])]
    critic_in = obs + (int(game.state_size) if algorithm["network"]["critic_state"] else 0)
    per_step = 4 * obs + 4 * actions + 8 + 6 * 4
    if algorithm["network"]["critic_state"]:
        per_step += 4 * int(game.state_size)

    def params(inputs: int, layers: list[int], out: int) -> int:
        sizes = [inputs, *layers, out]
        return sum(a * b + b for a, b in itertools.pairwise(sizes))

    parts = {
        "rollout buffer": 2 * n_steps * n_envs * per_step,
        "network": 16 * (params(obs, pi, actions) + params(critic_in, vf, 1)),
        "activations": 3 * 4 * batch * (sum(pi) + sum(vf) + actions + obs + critic_in),
    }
    if config["pretrain"]["imitate"]:
        parts["pretrain data"] = int(config["pretrain"]["steps"]) * (4 * obs + 4 * actions + 16)
    return parts


def available_memory() -> int | None:
    """Bytes this machine can give a new process now (MemAvailable), or None when unknown."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    with contextlib.suppress(OSError, ValueError, AttributeError):
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    return None


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 / 10 else f"{n / 2**20:.0f} MiB"


def _check_memory(config: dict[str, Any], game: Any, errors: list[str]) -> None:
    parts = estimate_memory(config, game)
    need = sum(parts.values())
    have = available_memory()
    if have is not None and need > have:
        detail = ", ".join(f"{name} {_gib(size)}" for name, size in parts.items())
        errors.append(f"memory: this config needs at least {_gib(need)} ({detail}), and this machine has "
                      f"{_gib(have)} available; lower training.n_envs, algorithm.hyperparameters.n_steps / "
                      "batch_size or algorithm.network.net_arch")


def _check_evaluation(evaluation: dict[str, Any], seats: int, errors: list[str]) -> None:
    eval_seats = evaluation["seats"]
    if isinstance(eval_seats, str) and eval_seats != "all":
        errors.append(f"evaluation.seats: {eval_seats!r} is not valid; use 'all' or a list of seats 0..{seats - 1}")
    elif isinstance(eval_seats, list):
        if not eval_seats:
            errors.append("evaluation.seats: empty list; use 'all' or a list of seats")
        for i, seat in enumerate(eval_seats):
            if isinstance(seat, int) and seat >= seats:
                errors.append(f"evaluation.seats[{i}]: {seat} is not a seat; valid: 0..{seats - 1}")
    if evaluation.get("search") is not None:
        from agents.specs import parse_spec

        try:
            parse_spec(f"trained:model.zip;{evaluation['search']}")
        except ValueError as error:
            errors.append(f"evaluation.search: {error}")
    if evaluation["best_by"] is not None and evaluation["best_by"] not in evaluation["bots"]:
        errors.append(f"evaluation.best_by: {evaluation['best_by']!r} is not one of evaluation.bots: "
                      f"{', '.join(evaluation['bots'])}")


def _check_agent(where: str, spec: str, env_id: str, options: dict[str, Any], errors: list[str]) -> None:
    from agents.specs import make

    try:
        make(spec, env_id, options, seed=0)
    except (ValueError, OSError, ImportError) as exc:
        errors.append(f"{where}: {exc}")


def algorithm_class(name: str) -> type:
    module, cls = ALGORITHMS[name]
    return getattr(importlib.import_module(module), cls)


def _check_hyperparameters(algorithm: dict[str, Any], errors: list[str]) -> None:
    params = inspect.signature(algorithm_class(algorithm["name"]).__init__).parameters
    valid = [p for p in params if p not in RESERVED_HYPERPARAMETERS and p != "self"]
    hyper = algorithm["hyperparameters"]
    for key in list(hyper):
        where = f"algorithm.hyperparameters.{key}"
        if key in RESERVED_HYPERPARAMETERS:
            errors.append(f"{where}: set by the trainer (see training.seed/device, algorithm.network, output); "
                          f"valid keys: {', '.join(valid)}")
            continue
        if key not in valid:
            errors.append(unknown_key_message("algorithm.hyperparameters", key, valid))
            continue
        default = params[key].default
        value = hyper[key]
        if isinstance(default, bool):
            ok = isinstance(value, bool)
            want = "bool"
        elif isinstance(default, int) and default is not None:
            ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
            want = "a positive int"
        elif isinstance(default, float) or default is None:
            if isinstance(value, str):
                with contextlib.suppress(ValueError):
                    value = hyper[key] = float(value)
            ok = (value is None and default is None) or (isinstance(value, int | float) and not isinstance(value, bool))
            want = "a number" + (" or null" if default is None else "")
            if ok and isinstance(value, int):
                hyper[key] = float(value)
        else:
            ok, want = True, ""
        if not ok:
            errors.append(f"{where}: must be {want}, got {type(value).__name__} {value!r}")
        elif key in HYPERPARAMETER_RANGES and value is not None:
            problem = _out_of_range(hyper[key], *HYPERPARAMETER_RANGES[key])
            if problem:
                errors.append(f"{where}: {problem}")
