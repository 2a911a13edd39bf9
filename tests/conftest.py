"""Shared fixtures: the list of (env id, options) every conformance test runs over."""

from __future__ import annotations

import os
import tempfile

import pytest

from yokai_envs.registry import ENV_IDS, game_class


def pytest_configure(config):
    """The tests sign replays and arena journals with a key of their own (yokai_envs/core/signing.py),
    never the user's ~/.config/yokai-envs/key; subprocesses inherit it."""
    os.environ["YOKAI_ENVS_KEY_FILE"] = os.path.join(tempfile.mkdtemp(prefix="yokai-test-key-"), "key")


def conformance_params() -> list:
    params = []
    for env_id in ENV_IDS:
        for options in game_class(env_id).CONFORMANCE_CONFIGS:
            label = env_id + "".join(f"-{k}={v}" for k, v in options.items())
            params.append(pytest.param(env_id, dict(options), id=label))
    return params


# ---------------------------------------------------------------------- tests that need an extra
# A test that needs a package from an optional extra skips, naming the extra, when that package
# is not installed (``pip install -e .[dev]`` alone runs the rules, env and bot tests). Only a
# ModuleNotFoundError for one of these packages, truly absent, is turned into a skip: an import
# error anywhere else still fails.
EXTRA_OF_PACKAGE = {
    "torch": "train", "stable_baselines3": "train", "sb3_contrib": "train", "tensorboard": "train",
    "safetensors": "train", "matplotlib": "train", "tqdm": "train", "rich": "train", "openskill": "train",
    "ray": "ray", "rlcard": "bench", "open_spiel": "bench", "pyspiel": "bench",
    "supersuit": "interop", "tianshou": "interop", "pandas": "analysis", "pyarrow": "analysis",
}


def missing_extra(error: BaseException | None) -> str | None:
    """The extra whose absent package raised ``error``, or None."""
    import importlib.util

    while error is not None:
        if isinstance(error, ModuleNotFoundError) and error.name:
            package = error.name.split(".")[0]
            if package in EXTRA_OF_PACKAGE and importlib.util.find_spec(package) is None:
                return EXTRA_OF_PACKAGE[package]
        error = error.__cause__ or error.__context__
    return None


def _skip_reason(extra: str, package_error: BaseException) -> str:
    return (f"needs the '{extra}' extra ({package_error}); "
            f"install it with: pip install -e '.[{extra}]' (torch==2.13.0 first, see README)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and report.failed:
        extra = missing_extra(call.excinfo.value)
        if extra:
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, _skip_reason(extra, call.excinfo.value))


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """A test module that imports an extra's package at the top skips whole, naming the extra."""
    import importlib.util

    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    text = str(report.longrepr)
    for package, extra in EXTRA_OF_PACKAGE.items():
        if f"No module named '{package}" in text and importlib.util.find_spec(package) is None:
            report.outcome = "skipped"
            report.longrepr = (str(collector.path), 0, _skip_reason(extra, ModuleNotFoundError(package)))
            report.result = []
            return
