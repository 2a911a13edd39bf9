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
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yokai_envs.core.errors import ConfigError

# name -> (low, high, low included, high included): values outside train to NaN, crash or hang.
from yokai_envs.training.common.memory import _check_memory
from yokai_envs.training.common.schema import ALGORITHMS, REQUIRED, SCHEMA, Field, defaults
from yokai_envs.training.common.yaml_io import parse_yaml, read_yaml

if TYPE_CHECKING:
    from stable_baselines3.common.base_class import BaseAlgorithm

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
        return f"must be in {interval}, got {_short_number(value)}"
    return None


# Constructor arguments the trainer sets itself: not allowed under algorithm.hyperparameters.
RESERVED_HYPERPARAMETERS = ("policy", "env", "policy_kwargs", "tensorboard_log", "verbose", "seed", "device",
                            "_init_setup_model", "rollout_buffer_class", "rollout_buffer_kwargs")


def load_config(path: str | Path | None = None, overrides: list[str] | None = None, out: str | None = None,
                base: dict[str, Any] | None = None, check_agents: bool = True,
                import_hooks: bool = True) -> dict[str, Any]:
    """The resolved, validated config (raises ConfigError listing every problem).

    ``import_hooks`` False checks the reward and wrapper import paths without importing them
    (``yokai train --check``: importing a module runs its code).

    ``base`` replaces the file (used by ``--resume`` with the run's saved config).
    """
    source = str(path) if path is not None else "config"
    if overrides:  # a bad key may come from the command line rather than the file
        source += "".join(f", --set {_brief(item)}" for item in overrides)
    if base is not None:
        user = base
    elif path is not None:
        from yokai_envs.training.common.shipped import resolve_config_path

        user = read_yaml(resolve_config_path(path))
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
    _check_semantics(config, errors, check_agents, import_hooks)
    if errors:
        raise ConfigError(f"invalid training config ({source}): {_listed(errors)}")
    config = _ordered(config, SCHEMA)
    if config["output"]["dir"] is None:
        name = Path(path).stem if path is not None else "run"
        config["output"]["dir"] = str(Path("runs") / game_name(config["game"]["env_id"]) / name)
    from yokai_envs.training.common.safety import check_writable_folder

    problem = check_writable_folder(config["output"]["dir"])
    if problem:  # found now, not after hours of training
        raise ConfigError(f"invalid training config ({source}): output.dir {config['output']['dir']}: "
                          f"cannot hold the run: {problem}")
    return config


#: A config expanded past this many YAML nodes (aliases counted every time they are used) is refused.
def _listed(problems: list[str]) -> str:
    """Every problem at once, on one line (a command's error is one line): "(1) ...; (2) ..."."""
    if len(problems) == 1:
        return problems[0]
    return f"{len(problems)} problems: " + "; ".join(f"({i}) {p}" for i, p in enumerate(problems, 1))


def game_name(env_id: str) -> str:
    """``yonkai_no_yokai_v1`` -> ``yonkai_no_yokai`` (the configs/ and runs/ folder name)."""
    head, _, version = env_id.rpartition("_v")
    return head if head and version.isdigit() else env_id


# ---------------------------------------------------------------------- layering
def _brief(item: str) -> str:
    """A ``--set`` item as messages show it: cut short when long (a message is one line)."""
    return item if len(item) <= 100 else f"{item[:80]}... ({len(item):,} characters)"


def apply_override(tree: dict[str, Any], item: str) -> None:
    """Apply one ``dotted.key=value`` override in place (value parsed as YAML)."""
    shown = _brief(item)
    if "=" not in item:
        raise ConfigError(f"--set {shown!r}: expected key=value, e.g. training.total_timesteps=100000")
    key, raw = item.split("=", 1)
    parts = [p for p in key.strip().split(".")]
    if not all(parts):
        raise ConfigError(f"--set {shown!r}: empty part in the dotted key {key!r}")
    try:
        value = parse_yaml(raw, f"--set {key.strip()}") if raw.strip() else None
    except ConfigError as exc:
        raise ConfigError(str(exc)) from None
    node: Any = tree
    for depth, part in enumerate(parts[:-1]):
        where = ".".join(parts[:depth + 1])
        if isinstance(node, list):
            node = node[_list_index(node, part, where, shown)]
        elif isinstance(node, dict):
            if not isinstance(node.get(part), dict | list):
                node[part] = {}
            node = node[part]
        else:
            raise ConfigError(f"--set {shown!r}: {where} is not a section")
    last = parts[-1]
    if isinstance(node, list):
        node[_list_index(node, last, key, shown)] = value
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
        errors.append(f"{where}: must be >= {_bound(node.minimum)}, got {value!r}")
    if node.maximum is not None and isinstance(value, int | float) and value > node.maximum:
        errors.append(f"{where}: must be <= {_bound(node.maximum)}, got {_short_number(value)}")
    elif node.maximum is None and _absurd_count(value):
        errors.append(f"{where}: {_absurd_count(value)}")
    if isinstance(value, list) and node.max_items is not None and len(value) > node.max_items:
        errors.append(f"{where}: at most {node.max_items} entries, got {len(value):,}{_help(node)}")
        return value
    if isinstance(value, list) and node.items is not None:
        for i, item in enumerate(value):
            value[i] = _check_item(item, node.items, f"{where}[{i}]", errors)
    if float in node.types and int in node.types and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return value


#: The ceiling of an integer setting without a bound of its own: a step or game count past it
#: would never finish (and a number like 99999999999999999999 is a typo, not a plan).
LARGEST_COUNT = 10**12


def _absurd_count(value: Any) -> str | None:
    """Why an integer setting without a bound of its own is too big (None: it is not)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > LARGEST_COUNT:
        return f"must be <= {LARGEST_COUNT:,} (no count this trainer keeps gets near it), got {_short_number(value)}"
    return None


def _short_number(value: float) -> str:
    try:
        text = repr(value)
    except ValueError:  # past Python's int-to-text limit (4,300 digits)
        return f"an integer of {int(math.log10(abs(value))) + 1:,} digits"
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} digits)"


def _short_value(value: Any) -> str:
    """``value`` as an error message shows it: cut short when long (a message is one line)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _short_number(value)
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text):,} characters)"


def _bound(limit: float) -> str:
    return str(limit) if isinstance(limit, int) else f"{limit:g}"


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
def _check_semantics(config: dict[str, Any], errors: list[str], check_agents: bool,
                     import_hooks: bool = True) -> None:
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
        from yokai_envs.training.common.hooks import check_hooks

        check_hooks(config, errors, import_modules=import_hooks)
    if not broken & {"algorithm", "training"}:
        _check_batch(config, errors)
    if "training" not in broken and config["training"]["device"] == "cuda":
        import torch

        if not torch.cuda.is_available():
            errors.append("training.device: cuda, but torch sees no CUDA GPU on this machine; use cpu or auto")
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
    if "distill" not in broken and config["distill"]["teacher"] is not None:
        _check_distill(config, errors)
    if "dmc" not in broken and config["dmc"]["steps"] is not None:
        _check_dmc(config, errors)
    if "lookahead" not in broken and config["lookahead"]["labels"] is not None:
        _check_lookahead(config, errors)
    if "league" not in broken and config["league"]["generations"] is not None:
        _check_league(config, errors)
    if "training" not in broken and config["training"]["init_from"] is not None:
        _check_policy_file("training.init_from", config["training"]["init_from"], errors)
        if "pretrain" not in broken and config["pretrain"]["imitate"]:
            errors.append("training.init_from and pretrain.imitate both set the starting network; keep one")
    if "training" not in broken and config["training"]["vec_env"] == "vector":
        _check_vector(config, errors)
    if "evaluation" not in broken and config["evaluation"]["engine"] == "vector":
        _check_vector_evaluation(config, errors)
    if check_agents:
        specs = []
        if "opponents" not in broken:
            specs += [(f"opponents.bots[{i}].spec", b["spec"]) for i, b in enumerate(config["opponents"]["bots"])]
        if "evaluation" not in broken:
            specs += [(f"evaluation.bots[{i}]", s) for i, s in enumerate(config["evaluation"]["bots"])]
        if "pretrain" not in broken and config["pretrain"]["imitate"]:
            specs.append(("pretrain.imitate", config["pretrain"]["imitate"]))
        if "league" not in broken and config["league"]["generations"] is not None:
            specs += [(f"league.bots[{i}]", s) for i, s in enumerate(config["league"]["bots"])]
            specs += [(f"league.mixture_against[{i}]", s) for i, s in enumerate(config["league"]["mixture_against"])]
        for where, spec in specs:
            _check_agent(where, spec, env_id, options, errors)


def _check_distill(config: dict[str, Any], errors: list[str]) -> None:
    """distill.teacher: the network's own search labels the rounds (training/algorithms/distill.py)."""
    from agents.specs import parse_spec

    try:
        parse_spec(f"trained:model.safetensors;{config['distill']['teacher']}")
    except ValueError as error:
        errors.append(f"distill.teacher: {error}")
    if config.get("backend", "sb3") != "sb3":
        errors.append(f"distill.teacher: search distillation trains SB3 networks; backend {config.get('backend')} "
                      "has none")
    if config["algorithm"]["network"]["critic_state"]:
        errors.append("distill.teacher: the search plays from observations only; set "
                      "algorithm.network.critic_state false")


def _check_dmc(config: dict[str, Any], errors: list[str]) -> None:
    """dmc.steps: the actor becomes a Q network over the observation (training/algorithms/dmc.py)."""
    if config.get("backend", "sb3") != "sb3":
        errors.append(f"dmc.steps: deep Monte-Carlo trains SB3 networks; backend {config.get('backend')} has none")
    if config["algorithm"]["network"]["critic_state"]:
        errors.append("dmc.steps: Q reads the observation only; set algorithm.network.critic_state false")
    if config["dmc"]["steps"] > config["training"]["total_timesteps"]:
        errors.append(f"dmc.steps ({config['dmc']['steps']}) counts toward training.total_timesteps "
                      f"({config['training']['total_timesteps']}); raise the total to at least the DMC steps")


def exploiter_sections(path: str) -> dict[str, dict[str, Any]]:
    """The ``algorithm`` (hyperparameters, network) and ``pretrain`` sections of another config,
    resolved with their defaults: what a league's exploiters train with when
    ``league.exploiter_config`` names one (the pretrain is used by ``exploiter_start: heuristic``)."""
    config = load_config(path, check_agents=False, import_hooks=False)
    return {"algorithm": dict(config["algorithm"]), "pretrain": dict(config["pretrain"])}


def _check_policy_file(where: str, path: str, errors: list[str]) -> None:
    if not Path(path).is_file():
        errors.append(f"{where}: {path!r} is not a policy file")


def _check_single_network_start(start: str, game: dict[str, Any], errors: list[str]) -> None:
    """league.start_from names a shipped model: one network the main agent can continue."""
    from agents.model_file import ModelFileError, read_card, require_one_network
    from yokai_envs.training.algorithms.league import resolve_start

    try:
        path = resolve_start(start, game["env_id"], dict(game["options"]))
        require_one_network(read_card(str(path)), "and the main agent continues one network: name a generation "
                                                  "of one network (pretrained:generation=N) or a member's own file")
    except ConfigError as err:
        errors.append(str(err))
    except ModelFileError as err:
        errors.append(f"league.start_from: {start}: {err}")


def _check_league(config: dict[str, Any], errors: list[str]) -> None:
    """league.generations: two-player competitive games on the sb3 backend (training/algorithms/league.py)."""
    from yokai_envs.registry import make_game

    league, game = config["league"], config["game"]
    instance = make_game(game["env_id"], **game["options"])
    if instance.cooperative or instance.num_players < 2:
        errors.append(f"league.generations: {game['env_id']} with {game['options']} has no opponents to "
                      "build a league of")
    if config.get("backend") != "sb3":
        errors.append(f"league.generations: the league trains SB3 networks; backend {config.get('backend')} has none")
    for key in ("distill", "dmc", "lookahead"):
        if any(v is not None for k, v in config[key].items() if k in ("teacher", "steps", "labels")):
            errors.append(f"league.generations: {key} runs before a single run's PPO; train it as its own run and "
                          "start the league from it with league.start_from")
    if league["start_from"] is not None and not str(league["start_from"]).startswith("pretrained"):
        _check_policy_file("league.start_from", league["start_from"], errors)
    elif league["start_from"] is not None:
        _check_single_network_start(league["start_from"], game, errors)
    if league["exploiter_config"] is not None:
        try:
            exploiter_sections(league["exploiter_config"])
        except ConfigError as err:
            errors.append(f"league.exploiter_config: {err}")
    if not league["bots"] and league["past_generations"] == 0 and league["exploiters_kept"] == 0:
        errors.append("league: no members (league.bots is empty and nothing is kept); the main agent would have "
                      "no one to play")


def _check_lookahead(config: dict[str, Any], errors: list[str]) -> None:
    """lookahead.labels: Yonkai's vectorized engine labels, the actor regresses
    (training/algorithms/yonkai_lookahead.py)."""
    from yokai_envs.training.vec_env import VECTOR_ENV_IDS
    from yokai_envs.yonkai_no_yokai.vector import numba_available

    settings, env_id = config["lookahead"], config["game"]["env_id"]
    if env_id not in VECTOR_ENV_IDS:
        errors.append(f"lookahead.labels: the lookahead teacher runs on a vectorized engine, which {env_id} has not "
                      f"(only {', '.join(VECTOR_ENV_IDS)})")
    elif not numba_available():
        errors.append("lookahead.labels: the vectorized engine needs numba: pip install 'yokai-envs[fast]'")
    if config["game"]["options"].get("reward", "win") != "win":
        errors.append("lookahead.labels: moves are scored by win credit; game.options.reward must be 'win'")
    if config["game"]["options"].get("rounds_per_game") is not None:
        errors.append("lookahead.labels: the round-end values assume games played to the end; "
                      "game.options.rounds_per_game must be null")
    if config.get("backend", "sb3") != "sb3":
        errors.append(f"lookahead.labels: trains SB3 networks; backend {config.get('backend')} has none")
    if config["algorithm"]["network"]["critic_state"]:
        errors.append("lookahead.labels: the network reads the observation only; "
                      "set algorithm.network.critic_state false")
    uses_start = {"lookahead.play: start plays": settings["play"] == "start",
                  "lookahead.horizon: next_turn values positions with": settings["horizon"] == "next_turn",
                  "lookahead.accumulate: adds the move values of": bool(settings["accumulate"])}
    if not config["training"]["init_from"]:
        errors.extend(f"{what} the network the run starts from; name it in training.init_from"
                      for what, used in uses_start.items() if used)
    from yokai_envs.training.algorithms.yonkai_lookahead import member_player

    for i, entry in enumerate(settings["opponents"]):
        try:
            member = member_player(config, i)
        except ConfigError as err:
            errors.append(str(err))
            continue
        if entry["spec"] not in ("heuristic", "start"):  # start's file is training.init_from's, checked there
            _check_policy_file(f"lookahead.opponents[{i}].spec", member, errors)
    if settings["opponents"] and not sum(entry["weight"] for entry in settings["opponents"]) > 0:
        errors.append("lookahead.opponents: the weights sum to 0; give at least one member a positive weight")
    borrowed = _borrowed_labels(settings["fit_with"], errors)
    if settings["labels"] == 0 and (not settings["fit_with"] or settings["rounds"] != 1):
        errors.append("lookahead.labels: 0 only refits the labels of lookahead.fit_with, once: name the runs there "
                      "and set lookahead.rounds to 1")
    elif settings["rounds"] > max(settings["labels"], 1):
        errors.append(f"lookahead.rounds ({settings['rounds']}) is more than lookahead.labels ({settings['labels']})")
    if settings["labels"] + borrowed > config["training"]["total_timesteps"]:
        errors.append(f"lookahead.labels ({settings['labels']}) and the {borrowed} of lookahead.fit_with count toward "
                      f"training.total_timesteps ({config['training']['total_timesteps']}); raise the total to "
                      f"at least {settings['labels'] + borrowed}")


def _borrowed_labels(runs: list[str], errors: list[str]) -> int:
    """How many labels the runs of lookahead.fit_with saved (read from their files' headers)."""
    from yokai_envs.training.algorithms.yonkai_lookahead import saved_labels, saved_rounds

    total = 0
    for i, run in enumerate(runs):
        files = saved_rounds(Path(run))
        if not files:
            errors.append(f"lookahead.fit_with[{i}]: {run!r} holds no saved lookahead labels (lookahead/round_*.npz)")
            continue
        try:
            total += sum(saved_labels(path) for path in files)
        except (OSError, ValueError) as err:
            errors.append(f"lookahead.fit_with[{i}]: {run!r}: unreadable labels ({err})")
    return total


def _check_vector(config: dict[str, Any], errors: list[str]) -> None:
    """training.vec_env: vector runs the batched engine (training/vec_env.py): its game, its bots."""
    from yokai_envs.training.vec_env import BATCHED_OPPONENTS, VECTOR_ENV_IDS

    where = "training.vec_env: vector"
    env_id = config["game"]["env_id"]
    if env_id not in VECTOR_ENV_IDS:
        errors.append(f"{where}: no vectorized engine for {env_id} (only {', '.join(VECTOR_ENV_IDS)}); use dummy")
    for i, bot in enumerate(config["opponents"]["bots"]):
        if bot["spec"] not in BATCHED_OPPONENTS:
            errors.append(f"opponents.bots[{i}].spec: {where} plays only batched bots "
                          f"({', '.join(BATCHED_OPPONENTS)}), got {bot['spec']!r}")
    if config["opponents"]["self_play"]["enabled"]:
        errors.append(f"opponents.self_play.enabled: {where} has no batched self-play opponents yet; use dummy")
    env = config.get("env", {})
    if config.get("reward") or env.get("wrappers") or env.get("skip_forced"):
        errors.append(f"{where}: reward hooks, env.wrappers and env.skip_forced need the scalar env; use dummy")


def _check_vector_evaluation(config: dict[str, Any], errors: list[str]) -> None:
    """evaluation.engine: vector plays the network batched (training/common/evaluate.py evaluate_vector)."""
    from yokai_envs.training.vec_env import BATCHED_OPPONENTS, VECTOR_ENV_IDS

    where = "evaluation.engine: vector"
    if config["game"]["env_id"] not in VECTOR_ENV_IDS:
        errors.append(f"{where}: no vectorized engine for {config['game']['env_id']} "
                      f"(only {', '.join(VECTOR_ENV_IDS)}); use arena")
    for i, bot in enumerate(config["evaluation"]["bots"]):
        if bot not in BATCHED_OPPONENTS:
            errors.append(f"evaluation.bots[{i}]: {where} plays only batched bots ({', '.join(BATCHED_OPPONENTS)}), "
                          f"got {bot!r}")
    if config["evaluation"]["seats"] != "all":
        errors.append(f"evaluation.seats: {where} rotates the network over every seat; use 'all' or the arena")
    if config.get("backend", "sb3") != "sb3":
        errors.append(f"{where}: evaluates SB3 checkpoints only; use arena with backend {config.get('backend')}")


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
            parse_spec(f"trained:model.safetensors;{evaluation['search']}")
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


def _check_batch(config: dict[str, Any], errors: list[str]) -> None:
    """A minibatch larger than the rollout it is cut from (n_steps per env x n_envs)."""
    hyper = config["algorithm"]["hyperparameters"]
    params = inspect.signature(algorithm_class(config["algorithm"]["name"]).__init__).parameters
    if "n_steps" not in params or "batch_size" not in params:
        return
    n_steps = hyper.get("n_steps", params["n_steps"].default)
    batch = hyper.get("batch_size", params["batch_size"].default)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n_steps, batch)):
        return  # reported by the type check
    rollout = n_steps * config["training"]["n_envs"]
    if batch > rollout:
        errors.append(f"algorithm.hyperparameters.batch_size: {batch} is larger than one rollout, n_steps {n_steps} "
                      f"x training.n_envs {config['training']['n_envs']} = {rollout}")


def algorithm_class(name: str) -> type[BaseAlgorithm]:
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
                try:
                    hyper[key] = float(value)
                except OverflowError:  # past 1.8e308: no float holds it, so no rate or coefficient is one
                    errors.append(f"{where}: must be a finite number, got {_short_number(value)}")
                    continue
        else:
            ok, want = True, ""
        if not ok:
            errors.append(f"{where}: must be {want}, got {type(value).__name__} {_short_value(value)}")
        elif key in HYPERPARAMETER_RANGES and value is not None:
            problem = _out_of_range(hyper[key], *HYPERPARAMETER_RANGES[key])
            if problem:
                errors.append(f"{where}: {problem}")
        elif _absurd_count(value):  # an int argument without a range of its own (stats_window_size)
            errors.append(f"{where}: {_absurd_count(value)}")
