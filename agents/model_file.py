"""Models as data: a network's weights (safetensors) and a JSON card that says how to build it.

A model is two files side by side::

    NAME.safetensors   the tensors (an 8-byte header length, a JSON header, raw numbers): no
                       pickle, nothing to execute
    NAME.json          its card, one JSON object:

    {"format": "yokai-model/1",
     "kind": "policy",                            what the tensors are (see KINDS)
     "algorithm": "MaskablePPO",                  from ALGORITHMS
     "policy_class": "MaskableActorCriticPolicy", from POLICY_CLASSES
     "net_arch": [256, 256],                      or {"pi": [...], "vf": [...]}
     "activation": "tanh",                        from ACTIVATIONS
     "observation_shape": [586], "num_actions": 1234,
     "env_id": "onmyoji_v5", "env_options": {"mode": "coop"},
     "play": {"deterministic": true, "temperature": 1.0},   how ``policy:PATH`` plays by default
                                                  (and "mixture": [w0, w1, ...] for a mixture:
                                                  below)
     "weights_sha256": "...",                     the digest of NAME.safetensors
     "num_timesteps": 1400000, "package_version": "..."}

and any other fields its writer keeps (a shipped model's card also holds how it was trained and
measured: agents/pretrained). :func:`load_policy` reads the card (bounded, regular files only,
duplicate keys refused), checks every field against those allow-lists, checks the weights'
digest (a card and weights from different saves do not load), builds the network the card
names with the classes this module imports itself (nothing the card names is imported), and
loads the tensors into it: each must be there with its exact shape and dtype, and nothing else
may be. :func:`read_arrays` and :func:`check_fit` hold a file to the same checks without torch,
for a player that runs the network in numpy (:mod:`agents.networks`). A training checkpoint
(``kind: "training_state"``, written by the trainer for ``--resume``) is the same pair of files
with the critic and the optimizer's moments besides.

A *mixture* is several networks of one architecture in one file (member ``i``'s tensors named
``member_i.NAME``) with ``play.mixture`` their weights: the player draws one member at the start
of each game, with those probabilities, and plays it for the whole game (a population's
meta-strategy, as in PSRO: a best response must beat every member at once). :func:`mix_models`
writes one from model files; :func:`load_policies` reads its members.

A legacy SB3 ``.zip`` is refused (:class:`PickledModelError`): its members are pickles, and
loading one runs whatever code its author put there. :func:`is_pickled_zip` tells one apart.
Whatever loads a pickled model anyway (a trusted zip, an RLlib checkpoint) passes
:func:`require_trusted` first; a folder this user's package signed when it saved it (an RLlib
checkpoint or policy folder) passes it without being said trusted
(:func:`require_signed_or_trusted`).

torch / stable-baselines3 / sb3-contrib are imported only when a network is built.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from yokai_envs.core.files import parse_json, read_regular_file
from yokai_envs.core.signing import check_signed_folder

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np
    import torch

T = TypeVar("T")

FORMAT = "yokai-model/1"
CARD_KEY = "yokai_card"
SUFFIX = ".safetensors"
KINDS = ("policy", "training_state")
MAX_MEMBERS = 64  # networks in one mixture
ALGORITHMS = ("MaskablePPO",)
#: The policy classes a card may name; a playing model is always the plain observation-only one.
POLICY_CLASSES = ("MaskableActorCriticPolicy", "StateCriticPolicy")
#: card name -> torch.nn class name (looked up in torch.nn by this module, never from the card).
ACTIVATIONS = {"tanh": "Tanh", "relu": "ReLU", "elu": "ELU", "leaky_relu": "LeakyReLU"}
#: A model bigger than this is not one of ours (the largest shipped one is ~4 MB of weights).
MAX_MODEL_BYTES = 2 << 30
MAX_CARD_BYTES = 1 << 20
MAX_LAYER = 65_536
#: The most hidden layers a card's net_arch may list (a trainer config is held to it too).
MAX_LAYERS = 64
ZIP_MAGIC = b"PK\x03\x04"
TRUST_RISK = ("an SB3 .zip holds pickles, and loading one runs any code its author put in it: "
              "trust only zips you made yourself")
RLLIB_TRUST_RISK = ("an RLlib checkpoint holds pickles (cloudpickle), and loading one runs any code its author "
                    "put in it: trust only folders you made yourself")
#: The commands whose ``--trust-pickles`` adds ``trusted=true`` to every spec they are given.
TRUST_FLAG_COMMANDS = ("demo", "evaluate", "play", "score")


class ModelFileError(ValueError):
    """A model file that is missing, not a model, damaged, or names something not allowed."""


class PickledModelError(ModelFileError):
    """A model that runs pickles when loaded (a legacy SB3 zip, an RLlib checkpoint), handed
    where only weights-only models are loaded or without being said to be trusted."""


@dataclass(frozen=True)
class PickledKind:
    """A kind of model file that unpickles when loaded: what to call it, why that is a risk (one
    sentence), and a safe alternative to loading it, if there is one."""

    name: str
    risk: str
    instead: str = ""


SB3_ZIP = PickledKind("a pickled SB3 .zip", TRUST_RISK, "convert it with scripts/convert_model.py, or ")
RLLIB_CHECKPOINT = PickledKind("an RLlib checkpoint", RLLIB_TRUST_RISK)


def model_path(path: str | Path) -> Path:
    """The weights file a user names: ``NAME.safetensors`` itself, its card ``NAME.json``, or
    ``NAME`` without a suffix."""
    p = Path(path)
    if p.suffix == ".json" or (not p.suffix and not p.exists()):
        return p.with_name((p.stem if p.suffix else p.name) + SUFFIX)
    return p


def card_path(weights: Path) -> Path:
    return weights.with_suffix(".json")


def _regular_file(path: Path) -> os.stat_result:
    try:
        info = path.stat()
    except FileNotFoundError:
        hint = ""
        if path.suffix == ".zip" and path.with_suffix(SUFFIX).exists():
            hint = f" (models are now saved as {path.with_suffix(SUFFIX).name})"
        raise ModelFileError(f"policy checkpoint not found: {str(path)!r}{hint}") from None
    except OSError as err:
        raise ModelFileError(f"{path}: cannot be read ({err.strerror or err})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ModelFileError(f"{path}: a folder, not a checkpoint file (expected NAME{SUFFIX}; an RLlib "
                             "policy folder is loaded with rllib:PATH)")
    if not stat.S_ISREG(info.st_mode):
        raise ModelFileError(f"{path}: not a regular file (a device, pipe or socket is never a model)")
    if info.st_size > MAX_MODEL_BYTES:
        raise ModelFileError(f"{path}: {info.st_size:,} bytes; a model file is at most {MAX_MODEL_BYTES:,}")
    return info


def is_pickled_zip(path: str | Path) -> bool:
    """True for a zip (what SB3 saves); reads 4 bytes of a regular file only."""
    p = Path(path)
    try:
        if not stat.S_ISREG(p.stat().st_mode):
            return False
        with open(p, "rb") as handle:
            return handle.read(4) == ZIP_MAGIC
    except OSError:
        return False


def pickled_refusal(name: str | Path, how_to_trust: str, kind: PickledKind = SB3_ZIP,
                    why: str = "") -> PickledModelError:
    """The one-line error for a pickled model: what it is (``why`` it is not loaded as it is), why
    it is refused, and how to load it anyway."""
    what = f"{kind.name} {why}" if why else kind.name
    return PickledModelError(f"{name}: {what}, refused ({kind.risk}); {kind.instead}load it anyway "
                             f"with {how_to_trust}")


def require_trusted(trusted: bool, name: str | Path, kind: PickledKind = SB3_ZIP,
                    spec_option: str = "the spec option trusted=true", why: str = "",
                    how_to_trust: str | None = None) -> None:
    """The one gate in front of every loader that unpickles: PickledModelError naming ``name``
    unless the caller said the model is trusted (``spec_option``, or ``--trust-pickles``;
    ``how_to_trust`` replaces that advice where a command has its own way)."""
    if not trusted:
        commands = ", ".join(TRUST_FLAG_COMMANDS[:-1]) + f" and {TRUST_FLAG_COMMANDS[-1]}"
        raise pickled_refusal(name, how_to_trust or f"{spec_option} (--trust-pickles on {commands})", kind, why)


def require_signed_or_trusted(folder: str | Path, trusted: bool, name: str | Path,
                              kind: PickledKind = RLLIB_CHECKPOINT, spec_option: str = "the spec option trusted=true",
                              how_to_trust: str | None = None) -> None:
    """:func:`require_trusted` for a folder of pickles this user may have saved: one signed with
    this user's key and unchanged since (``yokai_envs.core.signing.sign_folder``) loads as it is;
    any other (unsigned, signed with another key, a file edited, added or removed) only when
    trusted. The check hashes the files and unpickles nothing."""
    problem = None if trusted else check_signed_folder(folder)
    require_trusted(trusted or problem is None, name, kind, spec_option,
                    f"not signed with your key ({problem})", how_to_trust)


def _read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (opened without blocking, checked
    from its fstat: a FIFO swapped in after the first check still cannot hang the read)."""
    return read_regular_file(path, limit, str(path), "a model or card file", ModelFileError)


def read_card(path: str | Path) -> dict[str, Any]:
    """The checked card of a model (no torch needed); ``card["path"]`` is its weights file."""
    weights = model_path(path)
    _regular_file(weights)
    if is_pickled_zip(weights):
        raise pickled_refusal(weights, "policy:PATH;trusted=true")
    where = card_path(weights)
    if not where.exists():
        raise ModelFileError(f"{weights}: no card beside it ({where.name}: how to build the network); "
                             "save models with agents.model_file.save_model")
    card = parse_json(_read_bounded(where, MAX_CARD_BYTES), str(where), ModelFileError)
    check_card(card, str(where))
    return {**card, "path": str(weights)}


def _sizes(value: Any) -> bool:
    return (isinstance(value, list) and len(value) <= MAX_LAYERS
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_LAYER for v in value))


def check_card(card: Any, where: str) -> None:
    """ModelFileError naming the first field that is missing or not allowed."""
    if not isinstance(card, dict):
        raise ModelFileError(f"{where}: the card is not a JSON object")

    def bad(field: str, wanted: str) -> ModelFileError:
        return ModelFileError(f"{where}: card field {field!r} must be {wanted}, got {card.get(field)!r}")

    if card.get("format") != FORMAT:
        raise bad("format", repr(FORMAT))
    for field, allowed in (("kind", KINDS), ("algorithm", ALGORITHMS), ("policy_class", POLICY_CLASSES),
                           ("activation", tuple(ACTIVATIONS))):
        if card.get(field) not in allowed:
            raise bad(field, "one of " + ", ".join(allowed))
    arch = card.get("net_arch")
    if not (_sizes(arch) or (isinstance(arch, dict) and set(arch) == {"pi", "vf"}
                             and _sizes(arch["pi"]) and _sizes(arch["vf"]))):
        raise bad("net_arch", "a list of layer sizes or {\"pi\": [...], \"vf\": [...]}")
    shape = card.get("observation_shape")
    if not (isinstance(shape, list) and _sizes(shape) and len(shape) == 1):
        raise bad("observation_shape", "[size]")
    actions = card.get("num_actions")
    if not (isinstance(actions, int) and not isinstance(actions, bool) and 1 <= actions <= 1 << 24):
        raise bad("num_actions", "a positive integer")
    if not isinstance(card.get("env_id"), str) or not isinstance(card.get("env_options"), dict):
        raise bad("env_id", "a string, with env_options an object")
    play = card.get("play")
    if not (isinstance(play, dict) and set(play) <= {"deterministic", "temperature", "mixture"}
            and isinstance(play.get("deterministic", True), bool)):
        raise bad("play", '{"deterministic": true|false, "temperature": T, "mixture": [weights]}')
    mixture = play.get("mixture")
    if mixture is not None and not (isinstance(mixture, list) and 2 <= len(mixture) <= MAX_MEMBERS and all(
            isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) and w >= 0
            for w in mixture) and sum(mixture) > 0):
        raise bad("play", f"a mixture of 2-{MAX_MEMBERS} non-negative finite weights, not all zero")
    temperature = play.get("temperature", 1.0)
    if not (isinstance(temperature, (int, float)) and not isinstance(temperature, bool)
            and math.isfinite(temperature) and temperature > 0):
        raise bad("play", "a positive finite temperature")
    if card["policy_class"] == "StateCriticPolicy" and card["kind"] == "policy":
        raise bad("policy_class", "MaskableActorCriticPolicy for a playing policy (the actor is exported)")
    digest = card.get("weights_sha256")
    if not (isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)):
        raise bad("weights_sha256", "the hex SHA-256 of the weights file")
    steps = card.get("num_timesteps", 0)
    if not (isinstance(steps, int) and not isinstance(steps, bool) and steps >= 0):
        raise bad("num_timesteps", "a non-negative integer")


def activation_name(activation_fn: Any) -> str:
    """The card name of a torch.nn activation class (ModelFileError for one not allowed)."""
    by_class = {cls: name for name, cls in ACTIVATIONS.items()}
    name = getattr(activation_fn, "__name__", str(activation_fn))
    if name not in by_class:
        raise ModelFileError(f"activation {name} cannot be saved; allowed: {', '.join(ACTIVATIONS.values())}")
    return by_class[name]


def policy_card(policy: Any, kind: str = "policy") -> dict[str, Any]:
    """The card fields that describe how to build ``policy`` (an SB3 MaskableActorCriticPolicy)."""
    net_arch = policy.net_arch
    if isinstance(net_arch, dict):
        net_arch = {"pi": list(net_arch["pi"]), "vf": list(net_arch["vf"])}
    return {"format": FORMAT, "kind": kind, "algorithm": "MaskablePPO", "policy_class": type(policy).__name__,
            "net_arch": list(net_arch) if isinstance(net_arch, list) else net_arch,
            "activation": activation_name(policy.activation_fn),
            "observation_shape": [int(d) for d in policy.observation_space.shape],
            "num_actions": int(policy.action_space.n)}


def write_model_file(path: str | Path, tensors: dict[str, torch.Tensor], card: dict[str, Any]) -> Path:
    """Write ``tensors`` as ``path`` (a ``.safetensors`` name) and ``card`` beside it, each under a
    temporary name renamed into place. The card holds the weights' digest, so a kill between the
    two renames leaves a pair that refuses to load rather than one that plays the wrong network."""
    from safetensors.torch import save as save_bytes

    target = Path(path)
    if target.suffix != SUFFIX:
        raise ModelFileError(f"{target}: a model file is named NAME{SUFFIX}")
    data = save_bytes({name: t.detach().cpu().contiguous() for name, t in tensors.items()})
    card = {**card, "weights_sha256": hashlib.sha256(data).hexdigest()}
    check_card(card, str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    for final, content in ((target, data), (card_path(target), (json.dumps(card, indent=1) + "\n").encode())):
        tmp = final.with_name(f".{final.stem}.tmp-{os.getpid()}{final.suffix}")
        try:
            with open(tmp, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            tmp.replace(final)
        finally:
            tmp.unlink(missing_ok=True)
    return target


def _verified_bytes(card: dict[str, Any]) -> bytes:
    """The weights file's bytes, once their digest is the one the card records (a card and
    weights from different saves, or an edited file, do not load)."""
    path = Path(card["path"])
    data = _read_bounded(path, MAX_MODEL_BYTES)
    if hashlib.sha256(data).hexdigest() != card["weights_sha256"]:
        raise ModelFileError(f"{path}: its digest is not the one its card {card_path(path).name} records (the two "
                             "files come from different saves, or one was edited)")
    return data


def check_weights(card: dict[str, Any]) -> None:
    """ModelFileError unless the weights file is the one the card was written with (no torch)."""
    _verified_bytes(card)


def _load_verified(card: dict[str, Any], load: Callable[[bytes], dict[str, T]]) -> dict[str, T]:
    from safetensors import SafetensorError

    data = _verified_bytes(card)
    try:
        return load(data)
    except KeyError as err:  # from safetensors.numpy, which has no such dtype (bfloat16)
        raise ModelFileError(f"{card['path']}: a tensor of dtype {err}, where a played network's are "
                             "float32") from None
    except (SafetensorError, ValueError, RuntimeError) as err:
        raise ModelFileError(f"{card['path']}: damaged tensors ({type(err).__name__}: {err})") from None


def read_tensors(card: dict[str, Any]) -> dict[str, torch.Tensor]:
    """The tensors of the model ``card`` was read from (``read_card``'s result), once their
    digest matches the card's."""
    from safetensors.torch import load

    return _load_verified(card, load)


def read_arrays(card: dict[str, Any]) -> dict[str, np.ndarray]:
    """:func:`read_tensors` as numpy arrays, without importing torch."""
    from safetensors.numpy import load

    return _load_verified(card, load)


def save_model(model: Any, path: str | Path, card_fields: dict[str, Any]) -> Path:
    """Save the policy of ``model`` (a MaskablePPO, or its ``.policy``) as a playing model.

    ``card_fields`` must give ``env_id`` and may give ``env_options``, ``play`` and anything
    else worth keeping (``num_timesteps`` is taken from the model when it has one). The policy
    must be the plain observation-only MLP (``training.common.policies.export_actor`` makes one from a
    centralized-critic policy)."""
    policy = getattr(model, "policy", model)
    card = dict(card_fields)  # its own order first: a shipped card keeps its layout
    card.setdefault("env_options", {})
    card.setdefault("play", {"deterministic": True, "temperature": 1.0})
    card.setdefault("num_timesteps", int(getattr(model, "num_timesteps", 0)))
    card.setdefault("package_version", _package_version())
    card.update(policy_card(policy))
    return write_model_file(path, policy.state_dict(), card)


class _NoOptimizer:
    """Stands in for the optimizer SB3 builds with every policy: a played network is never
    trained (training starts from a file's tensors, not from this policy), and building an
    optimizer imports torch's compiler, about 40% of loading a model's CPU time."""

    def __init__(self, params: Any, lr: float) -> None:
        del params, lr


def build_policy(card: dict[str, Any]) -> Any:
    """An SB3 policy with the architecture ``card`` names, on the CPU, for loading weights into:
    its own weights are left as torch draws them (no orthogonal initialisation, the loaded tensors
    replace every one) and it has no optimizer."""
    import gymnasium as gym
    import numpy as np
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    if card["policy_class"] != "MaskableActorCriticPolicy":
        raise ModelFileError(f"{card.get('path')}: a {card['policy_class']} is built by the trainer, not played")
    observations = gym.spaces.Box(-np.inf, np.inf, tuple(card["observation_shape"]), np.float32)
    return MaskableActorCriticPolicy(observations, gym.spaces.Discrete(card["num_actions"]), lambda _: 0.0,
                                     net_arch=card["net_arch"],
                                     activation_fn=getattr(torch.nn, ACTIVATIONS[card["activation"]]),
                                     ortho_init=False,
                                     optimizer_class=cast("type[torch.optim.Optimizer]", _NoOptimizer))


Layer = tuple[str, int, int]  # tensor-name prefix, inputs, outputs
Layout = dict[str, tuple[tuple[int, ...], str]]  # tensor name -> (shape, dtype name)


def network_layers(card: dict[str, Any]) -> tuple[list[Layer], list[Layer]]:
    """The linear layers of the network :func:`build_policy` builds from ``card``, the actor's and
    the critic's, each in the order they run (no torch: a loader checks a file's tensors against
    them). SB3's MlpExtractor alternates linear layers and activations, so hidden layer k is
    module 2k of its Sequential."""
    arch = card["net_arch"]
    heads = []
    for net, head, last, outputs in (("policy_net", "pi", "action_net", card["num_actions"]),
                                     ("value_net", "vf", "value_net", 1)):
        layers, inputs = [], card["observation_shape"][0]
        for k, width in enumerate(arch[head] if isinstance(arch, dict) else arch):
            layers.append((f"mlp_extractor.{net}.{2 * k}", inputs, width))
            inputs = width
        heads.append([*layers, (last, inputs, outputs)])
    return heads[0], heads[1]


def _layout(tensors: dict[str, Any]) -> Layout:
    return {name: (tuple(t.shape), str(t.dtype).removeprefix("torch.")) for name, t in tensors.items()}


def _check_fit(expected: Layout, tensors: dict[str, Any], where: str) -> None:
    """ModelFileError unless ``tensors`` are the names of ``expected``, each with its (shape, dtype)."""
    missing = sorted(set(expected) - set(tensors))
    extra = sorted(set(tensors) - set(expected))
    if missing or extra:
        raise ModelFileError(f"{where}: the tensors do not fit the card's network (missing {missing[:3]}, "
                             f"unexpected {extra[:3]})")
    for name, (shape, dtype) in _layout(tensors).items():
        if (shape, dtype) != expected[name]:
            raise ModelFileError(f"{where}: tensor {name} is {shape} {dtype}, the card's "
                                 f"network has {expected[name][0]} {expected[name][1]}")


def check_fit(card: dict[str, Any], tensors: dict[str, Any], where: str) -> None:
    """ModelFileError unless ``tensors`` (torch or numpy) are exactly the float32 weights and
    biases of the network ``card`` names, as :func:`load_state` requires of a built one."""
    actor, critic = network_layers(card)
    expected: Layout = {}
    for prefix, inputs, outputs in actor + critic:
        expected[f"{prefix}.weight"] = ((outputs, inputs), "float32")
        expected[f"{prefix}.bias"] = ((outputs,), "float32")
    _check_fit(expected, tensors, where)


def load_state(module: Any, tensors: dict[str, torch.Tensor], where: str) -> None:
    """Load ``tensors`` into ``module``: the same names, each with its exact shape and dtype."""
    _check_fit(_layout(module.state_dict()), tensors, where)
    module.load_state_dict(tensors, strict=True)


def require_one_network(card: dict[str, Any], why: str) -> None:
    """Refuse a mixture where one network is needed; ``why`` says what needs one and what to name."""
    mixture = card["play"].get("mixture")
    if mixture:
        raise ModelFileError(f"{card['path']}: a mixture of {len(mixture)} networks, {why}")


def load_policy(path: str | Path) -> tuple[Any, dict[str, Any]]:
    """(policy, card): the playing network of a model file, in eval mode on the CPU."""
    policies, card = load_policies(path)
    require_one_network(card, "not one network (play it with policy:PATH; to start training from it, "
                              "name one member's file)")
    return policies[0], card


def member_prefix(index: int) -> str:
    return f"member_{index}."


def check_playing(card: dict[str, Any]) -> None:
    """ModelFileError unless ``card`` is a playing model's."""
    if card["kind"] != "policy":
        raise ModelFileError(f"{card['path']}: a {card['kind']} file (for train --resume), not a playing model; "
                             "play the run's model.safetensors or checkpoints/latest.safetensors")


def members(card: dict[str, Any], tensors: dict[str, T]) -> list[tuple[str, dict[str, T]]]:
    """Each network's tensors in a model file (one, or a mixture's members in order), named as a
    lone network's, with where to say it is in an error."""
    mixture = card["play"].get("mixture")
    if mixture is None:
        return [(card["path"], tensors)]
    groups = [{name[len(member_prefix(i)):]: t for name, t in tensors.items() if name.startswith(member_prefix(i))}
              for i in range(len(mixture))]
    if sum(map(len, groups)) != len(tensors):
        raise ModelFileError(f"{card['path']}: tensors that belong to no member of its {len(mixture)}-network mixture")
    return [(f"{card['path']} member {i}", group) for i, group in enumerate(groups)]


def policies_of(card: dict[str, Any], tensors: dict[str, torch.Tensor]) -> list[Any]:
    """The playing networks ``card`` names holding ``tensors`` (a file's, digest checked), each in
    eval mode on the CPU."""
    policies = []
    for where, group in members(card, tensors):
        policy = build_policy(card)
        load_state(policy, group, where)
        policy.set_training_mode(False)
        policies.append(policy)
    return policies


def load_policies(path: str | Path) -> tuple[list[Any], dict[str, Any]]:
    """(policies, card): the playing networks of a model file (one, or a mixture's members in
    order), each in eval mode on the CPU."""
    card = read_card(path)
    check_playing(card)
    return policies_of(card, read_tensors(card)), card


def mix_models(paths: list[str | Path], weights: list[float], target: str | Path,
               card_fields: dict[str, Any]) -> Path:
    """Write the mixture of the model files ``paths`` (one architecture, one game) with play
    probabilities ``weights`` as ``target``; ``card_fields`` adds to the card (the first member's
    env id and options are kept; its play rule, sampled or not, is every member's)."""
    if len(paths) != len(weights):
        raise ModelFileError(f"{len(paths)} members but {len(weights)} weights")
    cards = [read_card(p) for p in paths]
    first = cards[0]
    shape = ("net_arch", "activation", "observation_shape", "num_actions", "policy_class", "env_id")
    for card in cards[1:]:
        if any(card[k] != first[k] for k in shape):
            raise ModelFileError(f"{card['path']}: not the same network and game as {first['path']} "
                                 f"({', '.join(k for k in shape if card[k] != first[k])} differ)")
    tensors = {member_prefix(i) + name: t for i, card in enumerate(cards) for name, t in read_tensors(card).items()}
    card = {k: v for k, v in first.items() if k not in ("path", "weights_sha256")}
    card.update(card_fields)
    card["play"] = {**first["play"], **card_fields.get("play", {}), "mixture": [float(w) for w in weights]}
    card["num_timesteps"] = sum(int(c.get("num_timesteps", 0)) for c in cards)
    return write_model_file(target, tensors, card)


def _package_version() -> str:
    import yokai_envs

    return str(getattr(yokai_envs, "__version__", "unknown"))
