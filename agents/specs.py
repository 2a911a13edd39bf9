"""Agent spec strings: one name for every bot, usable everywhere (arena, training, CLI).

    random                                   uniform over the mask
    lowest                                   its lowest legal action id that is not a pass (a trivial
                                             baseline: in Yonkai no Yokai it beats random seats by far)
    heuristic                                the game's heuristic bot
    heuristic:selfish=true                   ... with options its game's heuristic declares (Onmyoji:
    heuristic:hold_back=true                 selfish, hold_back; separated by ';'), checked by make()
    ismcts:iterations=200                    information-set MCTS; options separated by ';':
    ismcts:iterations=200;rollout=heuristic;time=0.5;c=1.0
    ismcts:iterations=300;rollout=heuristic;max_rollout_steps=30;leaf=heuristic
                                             ... rollouts cut short, scored by the heuristic module's evaluate()
    ismcts:rollout=heuristic;confidence=1.0  ... plays the heuristic's move unless the search finds one
                                             better by more than 1 standard error
    ismcts:rollout=heuristic;beliefs=heuristic   ... samples hidden cards as if the others play the
                                             heuristic (opponent-model inference; games with world_sampler)
    ismcts:rollout=heuristic;confidence=1.0;policy=path/to/model.safetensors
                                             ... improves on a trained policy's move instead of the
                                             rollout policy's (which still plays the rollouts)
    ismcts:rollout=policy;confidence=1.0;policy=path/to/model.safetensors
                                             ... the network plays the rollouts too, sampling its
                                             distribution (AlphaGo's fast rollout policy, here the same net)
    ismcts:rollout=own_policy;confidence=1.0;policy=path/to/model.safetensors
                                             ... the network plays the searching seat's own rollout moves
                                             (its most likely), the heuristic every other seat
    policy:path/to/model.safetensors         a trained network (agents/model_file.py), playing the way its
                                             card says (by default: its most likely action)
    policy:path/to/model.safetensors;deterministic=false   ... sampling its action distribution
    policy:path/to/model.safetensors;deterministic=false;temperature=0.5   ... sharpened (T < 1)
    policy:path/to/legacy.zip;trusted=true   a legacy SB3 zip: refused without trusted=true, because its
                                             pickles run any code its author put in them
    rllib:path/to/run/model;trusted=true     an RLlib policy folder (training backend: rllib): RLlib
                                             checkpoints are pickles, so one not signed with your key as
                                             you trained it is refused without trusted=true;
                                             takes deterministic too
    trained:path/to/model.safetensors                the trained opponent: the network with its play-time search,
                                             i.e. ismcts:iterations=100;rollout=heuristic;leaf=heuristic;
                                             confidence=1.0;policy=path/to/model.safetensors
    trained:path/to/model.safetensors;iterations=50;beliefs=heuristic   ... any ismcts option overrides those
    pretrained                               the network shipped with the package for the env it is
                                             given (agents/pretrained: one per game configuration)
    pretrained:search=true                   ... with the play-time search its model card names
    pretrained:search=true;iterations=200    ... any ismcts option overrides the card's
    pretrained:generation=1                  an earlier generation the package still ships (default: the latest)
    openspiel:ismcts;simulations=50;uct_c=2  an OpenSpiel bot through the OpenSpiel bridge (random or
                                             ismcts; agents/openspiel_agent.py); needs open_spiel

:func:`make` builds the agent and checks everything (kind, options, the game's heuristic,
the checkpoint) at once, so bad input fails before any game runs.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agents.base import Agent, RandomAgent

KINDS = ("random", "heuristic", "ismcts", "policy", "rllib", "trained", "pretrained", "lowest", "openspiel")
ISMCTS_OPTIONS = {"iterations": int, "time": float, "rollout": str, "c": float, "max_rollout_steps": int,
                  "leaf": str, "opponents": str, "search": str, "confidence": float, "beliefs": str,
                  "policy": str, "trusted": bool}
POLICY_OPTIONS = {"deterministic": bool, "temperature": float, "trusted": bool}
RLLIB_OPTIONS = {"deterministic": bool, "trusted": bool}
ROLLOUTS = ("random", "heuristic", "policy", "own_policy")
LEAVES = ("returns", "heuristic")
OPPONENT_MODELS = ("tree", "rollout")
BELIEFS = ("uniform", "heuristic")
# What ``trained:PATH`` searches with unless told otherwise (the search of docs/record/2026-12-05.md's
# "Search on top of trained networks", cut to 100 iterations).
TRAINED_SEARCH = "iterations=100;rollout=heuristic;leaf=heuristic;confidence=1.0"


@dataclass(frozen=True)
class AgentSpec:
    kind: str
    # Typed values, except a heuristic's: kept as written until :func:`make` knows the game
    # (each game's heuristic declares its own options, ``HeuristicAgent.OPTIONS``).
    options: dict[str, Any] = field(default_factory=dict)
    path: str | None = None
    text: str = ""


def _convert(kind: str, key: str, raw: str, spec: str, valid: Mapping[str, type]) -> Any:
    if key not in valid:
        close = difflib.get_close_matches(key, list(valid), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"agent spec {spec!r}: unknown {kind} option {key!r}{hint}; "
                         f"valid options: {', '.join(valid)}")
    wanted = valid[key]
    if wanted is bool:
        low = raw.strip().lower()
        if low in ("true", "1", "yes"):
            return True
        if low in ("false", "0", "no"):
            return False
        raise ValueError(f"agent spec {spec!r}: option {key} must be true or false, got {raw!r}")
    try:
        value = wanted(raw.strip())
    except ValueError:
        raise ValueError(f"agent spec {spec!r}: option {key} must be {wanted.__name__}, got {raw!r}") from None
    if wanted is float and not math.isfinite(value):  # time=inf never ends, c=nan breaks every comparison
        raise ValueError(f"agent spec {spec!r}: option {key} must be a finite number, got {raw!r}")
    if wanted in (int, float) and value <= 0:
        raise ValueError(f"agent spec {spec!r}: option {key} must be positive, got {raw!r}")
    return value


def _key_values(kind: str, parts: list[str], spec: str, valid: Mapping[str, type]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for part in parts:
        if not part.strip():
            continue
        if "=" not in part:
            raise ValueError(f"agent spec {spec!r}: expected key=value, got {part!r}; "
                             f"valid {kind} options: {', '.join(valid)}")
        key, raw = part.split("=", 1)
        if key.strip() in options:
            raise ValueError(f"agent spec {spec!r}: {kind} option {key.strip()!r} is given twice")
        options[key.strip()] = _convert(kind, key.strip(), raw, spec, valid)
    return options


def _raw_key_values(kind: str, parts: list[str], spec: str) -> dict[str, str]:
    """``key=value`` parts kept as text (their meaning depends on the game)."""
    options: dict[str, str] = {}
    for part in parts:
        if not part.strip():
            continue
        if "=" not in part:
            raise ValueError(f"agent spec {spec!r}: expected key=value, got {part!r}")
        key, raw = part.split("=", 1)
        if key.strip() in options:
            raise ValueError(f"agent spec {spec!r}: {kind} option {key.strip()!r} is given twice")
        options[key.strip()] = raw.strip()
    return options


def heuristic_options(spec: str, env_id: str, raw: dict[str, str]) -> dict[str, Any]:
    """Check and convert a heuristic spec's options against what ``env_id``'s heuristic declares
    (``HeuristicAgent.OPTIONS``, name -> type); ValueError naming the valid ones."""
    from agents.heuristics import heuristic_class

    valid: Mapping[str, type] = getattr(heuristic_class(env_id), "OPTIONS", {})
    if raw and not valid:
        raise ValueError(f"agent spec {spec!r}: the {env_id} heuristic takes no options")
    return {key: _convert(f"{env_id} heuristic", key, value, spec, valid) for key, value in raw.items()}


def parse_spec(spec: str) -> AgentSpec:
    """Parse a spec string; ValueError naming the valid kinds/options when it is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}; valid kinds: {', '.join(KINDS)}")
    text = spec.strip()
    kind, _, rest = text.partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        close = difflib.get_close_matches(kind, KINDS, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown agent kind {kind!r} in spec {spec!r}{hint}; valid kinds: {', '.join(KINDS)} "
                         "(e.g. random, heuristic, ismcts:iterations=200, policy:path/to/model.safetensors)")
    if kind == "trained":
        path, *parts = rest.split(";")
        if not path.strip():
            raise ValueError(f"agent spec {spec!r}: trained needs a checkpoint path, e.g. "
                             "trained:runs/model.safetensors")
        if any(part.split("=", 1)[0].strip() == "policy" for part in parts):
            raise ValueError(f"agent spec {spec!r}: trained takes its checkpoint as the path, not policy=")
        given = [part.split("=", 1)[0].strip() for part in parts if part.strip()]
        twice = sorted({key for key in given if given.count(key) > 1})
        if twice:
            raise ValueError(f"agent spec {spec!r}: trained option {twice[0]!r} is given twice")
        defaults = [part for part in TRAINED_SEARCH.split(";") if part.split("=", 1)[0] not in given]
        search = parse_spec("ismcts:" + ";".join([*defaults, *parts, f"policy={path.strip()}"]))
        return AgentSpec("ismcts", search.options, None, text)
    if kind == "pretrained":
        return _parse_pretrained(rest, spec, text)
    if kind == "openspiel":
        from agents.openspiel_agent import BOTS, OPTIONS

        bot, *parts = rest.split(";")
        if bot.strip() not in BOTS:
            raise ValueError(f"agent spec {spec!r}: openspiel needs a bot, one of {', '.join(BOTS)} "
                             "(e.g. openspiel:ismcts;simulations=50)")
        return AgentSpec(kind, {"bot": bot.strip(), **_key_values(kind, parts, spec, OPTIONS)}, None, text)
    if kind in ("random", "lowest"):
        if rest.strip():
            raise ValueError(f"agent spec {spec!r}: {kind} takes no options")
        return AgentSpec(kind, {}, None, text)
    if kind == "heuristic":
        return AgentSpec(kind, _raw_key_values(kind, rest.split(";"), spec), None, text)
    if kind == "ismcts":
        options = _key_values(kind, rest.split(";"), spec, ISMCTS_OPTIONS)
        rollout = options.get("rollout", "random")
        if rollout not in ROLLOUTS:
            raise ValueError(f"agent spec {spec!r}: rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        leaf = options.get("leaf", "returns")
        if leaf not in LEAVES:
            raise ValueError(f"agent spec {spec!r}: leaf must be one of {', '.join(LEAVES)}, got {leaf!r}")
        if options.get("search", "tree") not in ("tree", "flat"):
            raise ValueError(f"agent spec {spec!r}: search must be tree or flat, got {options['search']!r}")
        model = options.get("opponents", "tree")
        if model not in OPPONENT_MODELS:
            raise ValueError(f"agent spec {spec!r}: opponents must be one of {', '.join(OPPONENT_MODELS)}, "
                             f"got {model!r}")
        if options.get("beliefs", "uniform") not in BELIEFS:
            raise ValueError(f"agent spec {spec!r}: beliefs must be one of {', '.join(BELIEFS)}, "
                             f"got {options['beliefs']!r}")
        if rollout in ("policy", "own_policy") and "policy" not in options:
            raise ValueError(f"agent spec {spec!r}: rollout={rollout} rolls out with a trained network; it needs "
                             "policy=PATH (or trained:PATH, pretrained:search=true)")
        if options.get("confidence", 0.0) > 0 and rollout == "random" and "policy" not in options:
            raise ValueError(f"agent spec {spec!r}: confidence keeps a policy's move unless the search "
                             "beats it; it needs rollout=heuristic or policy=PATH")
        if "policy" in options and not options["policy"]:  # _convert strips it
            raise ValueError(f"agent spec {spec!r}: policy needs a checkpoint path, e.g. policy=runs/model.safetensors")
        return AgentSpec(kind, options, None, text)
    path, *parts = rest.split(";")
    if not path.strip():
        example = "policy:runs/model.safetensors" if kind == "policy" else "rllib:runs/<game>/<run>/model"
        raise ValueError(f"agent spec {spec!r}: {kind} needs a checkpoint path, e.g. {example}")
    valid = POLICY_OPTIONS if kind == "policy" else RLLIB_OPTIONS
    return AgentSpec(kind, _key_values(kind, parts, spec, valid), path.strip(), text)


def _parse_pretrained(rest: str, spec: str, text: str) -> AgentSpec:
    """``pretrained[:search=true|false][;deterministic=...][;ISMCTS OPTIONS]`` (the model is
    found by :func:`make`, which knows the env)."""
    raw = _raw_key_values("pretrained", rest.split(";"), spec)
    search = _convert("pretrained", "search", raw.pop("search", "false"), spec, {"search": bool})
    generation = _convert("pretrained", "generation", raw.pop("generation"), spec, {"generation": int}) \
        if "generation" in raw else None
    chosen = {} if generation is None else {"generation": generation}
    if not search:
        extra = [key for key in raw if key not in POLICY_OPTIONS]
        if extra:
            raise ValueError(f"agent spec {spec!r}: {', '.join(extra)} are search options; add search=true "
                             "(the network alone takes only deterministic)")
        alone = _key_values("pretrained", [f"{k}={v}" for k, v in raw.items()], spec, POLICY_OPTIONS)
        return AgentSpec("pretrained", {"search": False, **alone, **chosen}, None, text)
    if "policy" in raw:
        raise ValueError(f"agent spec {spec!r}: pretrained brings its own network; policy= is not an option")
    overrides = [f"{key}={value}" for key, value in raw.items()]
    parse_spec(";".join(["trained:model.safetensors", *overrides]))  # checked now, not at the first game
    return AgentSpec("pretrained", {"search": True, "overrides": overrides, **chosen}, None, text)


def trusting_pickles(entry: str) -> str:
    """``entry`` (``SPEC`` or ``ALIAS=SPEC``) with ``trusted=true`` added when its spec loads a
    network file (``--trust-pickles``: a legacy SB3 zip or an RLlib checkpoint is then loaded,
    running its pickles)."""
    from agents.arena.match import split_alias

    alias, spec = split_alias(entry)
    try:
        parsed = parse_spec(spec)
    except ValueError:
        return entry  # refused with its own message when it is built
    if parsed.kind not in ("policy", "ismcts", "rllib") or "trusted" in parsed.options or (
            parsed.kind == "ismcts" and "policy" not in parsed.options):
        return entry
    return (f"{alias}=" if alias else "") + spec + ";trusted=true"


def make(spec: str | AgentSpec, env_id: str, env_options: dict[str, Any] | None = None,
         seed: int | None = None) -> Agent:
    """Build the agent named by ``spec`` for ``env_id`` (the heuristic of that game, etc.)."""
    parsed = spec if isinstance(spec, AgentSpec) else parse_spec(spec)
    if parsed.kind == "pretrained":
        from agents.pretrained import spec_for

        options = dict(parsed.options)
        target = spec_for(env_id, env_options, options.pop("search"), options.pop("overrides", []),
                          options.pop("deterministic", None), options.pop("generation", None))
        return make(target, env_id, env_options, seed)
    if parsed.kind == "random":
        return RandomAgent(seed)
    if parsed.kind == "lowest":
        from agents.base import LowestAgent, pass_actions_of
        from yokai_envs.registry import make_game

        return LowestAgent(pass_actions_of(make_game(env_id, **(env_options or {}))), seed)
    if parsed.kind == "heuristic":
        from agents.heuristics import heuristic_class

        options = heuristic_options(parsed.text, env_id, parsed.options)
        return heuristic_class(env_id)(seed=seed, **options)
    if parsed.kind == "ismcts":
        from agents.ismcts import ISMCTSAgent

        options = dict(parsed.options)
        rollout = options.pop("rollout", "random")
        base_agent = None
        trusted = options.pop("trusted", False)
        if "policy" in options:
            from agents.policy import PolicyAgent

            # the search's default move is the network's most likely one, whatever its card plays
            base_agent = PolicyAgent(options.pop("policy"), env_id, env_options, deterministic=True, seed=seed,
                                     trusted=trusted)
        rollout_agent: Agent | None = None
        if rollout == "heuristic":
            from agents.heuristics import heuristic_class

            rollout_agent = heuristic_class(env_id)(seed=seed)
        elif rollout == "policy":
            assert base_agent is not None  # the parser asks rollout=policy for its network
            rollout_agent = base_agent.sampling_twin(seed)
        elif rollout == "own_policy":
            from agents.heuristics import heuristic_class
            from agents.ismcts import OwnSeatRollout

            assert base_agent is not None
            rollout_agent = OwnSeatRollout(base_agent.twin(seed), heuristic_class(env_id)(seed=seed), seed=seed)
        leaf_evaluator = None
        if options.pop("leaf", "returns") == "heuristic":
            from agents.heuristics import heuristic_evaluator

            leaf_evaluator = heuristic_evaluator(env_id)
        world_sampler = None
        if options.pop("beliefs", "uniform") == "heuristic":
            from agents.heuristics import heuristic_world_sampler

            world_sampler = heuristic_world_sampler(env_id)
        return ISMCTSAgent(seed=seed, rollout_agent=rollout_agent, leaf_evaluator=leaf_evaluator,
                           world_sampler=world_sampler, base_agent=base_agent, **options)
    if parsed.kind == "openspiel":
        from agents.openspiel_agent import OpenSpielAgent

        return OpenSpielAgent(env_id=env_id, env_options=env_options, seed=seed, **parsed.options)
    if parsed.kind == "rllib":
        from agents.rllib_agent import RLlibAgent

        assert parsed.path is not None  # the parser gives every checkpoint kind its path
        return RLlibAgent(parsed.path, env_id, env_options, seed=seed, **parsed.options)
    from agents.policy import PolicyAgent

    assert parsed.path is not None
    return PolicyAgent(parsed.path, env_id, env_options, seed=seed, **parsed.options)
