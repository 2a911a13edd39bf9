"""Your reward and your wrappers in a training run, by import path (config keys ``reward`` and
``env.wrappers``); the trainer's arena evaluation, checkpoints and metadata stay as they are.

``reward: pkg.mod:name`` names a function, or a class instantiated once per training env, called
after every learner step as ``fn(game, seat, reward, done) -> float``: ``game`` is the bare
:class:`~yokai_envs.core.game.Game` after the opponents' replies (the learner is about to decide
again, or the episode ended), ``seat`` the learner's seat, ``reward`` the default reward (the
change of the learner's return since its previous decision) and ``done`` whether the episode
ended. What it returns is the learner's reward. An instance with a ``reset(game, seat)`` method
hears about every new episode (potential-based shaping keeps its previous potential there).

``env.wrappers: [pkg.mod:Class, ...]`` wraps the training env, in order (the reward hook is
innermost): ``Class(env)`` must be a ``gymnasium.Wrapper`` that keeps the observation and action
spaces, since the saved policy is played by the arena on the game's own observations. Method
calls such as ``action_masks`` reach the env through the wrappers.

Evaluation never uses either: the arena counts wins, so a shaped reward is measured by what
it is for.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from yokai_envs.core.errors import ConfigError

_IDENTIFIERS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def import_path_problem(path: Any, where: str) -> str | None:
    """Why ``path`` is not of the form ``pkg.module:name`` with an installed top-level package,
    found without importing anything (importing a module runs its code), or None."""
    if not isinstance(path, str) or not path.strip():
        return f"{where}: expected an import path pkg.module:name, got {path!r}"
    module_name, sep, attr = path.partition(":")
    if not sep:
        module_name, _, attr = path.rpartition(".")
    if not (_IDENTIFIERS.fullmatch(module_name) and _IDENTIFIERS.fullmatch(attr)):
        return f"{where}: {path!r} is not an import path pkg.module:name (dotted Python names)"
    top = module_name.split(".")[0]
    try:
        found = importlib.util.find_spec(top)  # a top-level name is looked up, not imported
    except (ImportError, ValueError):
        found = None
    if found is None:
        return f"{where}: cannot import module {top!r} (not installed, or not on PYTHONPATH: {path!r})"
    return None


def _module_name(path: str) -> str:
    module_name, sep, _ = path.partition(":")
    return module_name if sep else path.rpartition(".")[0]


def load_object(path: str, where: str) -> Any:
    """The object named by ``pkg.mod:name`` (``pkg.mod.name`` also works); ConfigError naming
    ``where`` when the module or the name is missing."""
    if not isinstance(path, str) or not path.strip():
        raise ConfigError(f"{where}: expected an import path pkg.module:name, got {path!r}")
    module_name, sep, attr = path.partition(":")
    if not sep:
        module_name, _, attr = path.rpartition(".")
    if not module_name or not attr:
        raise ConfigError(f"{where}: {path!r} is not an import path pkg.module:name")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ConfigError(f"{where}: cannot import module {module_name!r} ({err}); is it on PYTHONPATH?") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ConfigError(f"{where}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    return obj


def _reward_signature_problem(obj: Any) -> str | None:
    """Why ``obj`` cannot be called as ``obj(game, seat, reward, done)``, or None."""
    if inspect.isbuiltin(obj):
        return f"is a built-in ({type(obj).__name__}), not a Python function"
    try:
        inspect.signature(obj).bind(None, 0, 0.0, False)
    except (TypeError, ValueError) as err:
        return f"does not take (game, seat, reward, done): {err}"
    return None


def check_hooks(config: dict[str, Any], errors: list[str], import_modules: bool = True) -> None:
    """Record a problem for every hook that cannot be imported or is not callable. Without
    ``import_modules`` (``yokai train --check``) a path into a module not yet imported is checked
    for its form and top-level package only: a module's code runs when it is imported, and a
    check must not run any (one already imported, e.g. ``builtins``, is checked whole)."""
    reward = config.get("reward")
    entries: list[tuple[str, str]] = [("reward", reward)] if reward else []
    entries += [(f"env.wrappers[{i}]", w) for i, w in enumerate(config.get("env", {}).get("wrappers", []))]
    for where, path in entries:
        problem = import_path_problem(path, where)
        if problem:
            errors.append(problem)
            continue
        if not import_modules and _module_name(path) not in sys.modules:
            continue  # a module already imported runs nothing when looked at again: those are checked whole
        try:
            obj = load_object(path, where)
        except ConfigError as err:
            errors.append(str(err))
            continue
        if not callable(obj):
            errors.append(f"{where}: {path!r} is a {type(obj).__name__}, not a function or class")
        elif where == "reward":
            problem = _reward_signature_problem(obj)
            if problem:
                errors.append(f"reward: {path!r} {problem}; a reward hook is called as hook(game, seat, reward, "
                              "done) and returns the learner's reward")
        elif where.startswith("env.wrappers") and not (isinstance(obj, type) and issubclass(obj, gym.Wrapper)):
            errors.append(f"{where}: {path!r} is not a gymnasium.Wrapper subclass")


class RewardHook(gym.Wrapper):
    """Replaces the env's reward with ``hook(game, seat, reward, done)``; the default reward is
    kept in ``info["default_reward"]`` on every step."""

    def __init__(self, env: gym.Env, hook: Any) -> None:
        super().__init__(env)
        self.hook = hook() if isinstance(hook, type) else hook

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        start = getattr(self.hook, "reset", None)
        if callable(start):
            base: Any = self.env.unwrapped
            start(base.game, base.learner_seat)
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        base: Any = self.env.unwrapped
        info["default_reward"] = reward
        shaped = self.hook(base.game, base.learner_seat, reward, bool(terminated or truncated))
        return obs, float(shaped), terminated, truncated, info


def apply_hooks(env: gym.Env, reward: str | None, wrappers: Sequence[str]) -> gym.Env:
    """``env`` with the reward hook and the wrappers of the config (ConfigError when a wrapper
    changes the observation or action space)."""
    if reward:
        env = RewardHook(env, load_object(reward, "reward"))
    for i, path in enumerate(wrappers):
        before = (env.observation_space, env.action_space)
        env = load_object(path, f"env.wrappers[{i}]")(env)
        if (env.observation_space, env.action_space) != before:
            raise ConfigError(f"env.wrappers[{i}]: {path} changes the observation or action space; the saved "
                              "policy is played on the game's own observations, so a wrapper must keep both")
    return env
