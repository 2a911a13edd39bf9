"""Spec strings: every kind builds, every mistake is a clear ValueError before any game."""

from __future__ import annotations

import pytest

import agents
from agents.base import RandomAgent
from agents.heuristics import HEURISTIC_MODULES, NoHeuristicError, heuristic_class
from agents.ismcts import ISMCTSAgent
from agents.specs import parse_spec

YONKAI = "yonkai_no_yokai_v1"


def test_kinds_build():
    assert isinstance(agents.make("random", YONKAI), RandomAgent)
    assert type(agents.make("heuristic", YONKAI)).__name__ == "HeuristicAgent"
    bot = agents.make("ismcts:iterations=7;c=0.5;rollout=heuristic;time=0.2", YONKAI)
    assert isinstance(bot, ISMCTSAgent)
    assert (bot.iterations, bot.c, bot.time_budget) == (7, 0.5, 0.2)
    assert type(bot.rollout_agent).__name__ == "HeuristicAgent"


def test_policy_spec_parses_path_and_options():
    spec = parse_spec("policy:runs/a b/model.zip;deterministic=false")
    assert (spec.kind, spec.path, spec.options) == ("policy", "runs/a b/model.zip", {"deterministic": False})


def test_trained_spec_is_the_network_with_its_search():
    spec = parse_spec("trained:runs/a b/model.zip")
    assert (spec.kind, spec.text) == ("ismcts", "trained:runs/a b/model.zip")
    assert spec.options == {"iterations": 100, "rollout": "heuristic", "leaf": "heuristic",
                            "confidence": 1.0, "policy": "runs/a b/model.zip"}
    tuned = parse_spec("trained:m.zip;iterations=20;beliefs=heuristic;leaf=returns")
    options = tuned.options
    assert (options["iterations"], options["beliefs"], options["leaf"]) == (20, "heuristic", "returns")
    with pytest.raises(ValueError, match=r"policy checkpoint not found: 'nowhere/model\.zip'"):
        agents.make("trained:nowhere/model.zip", YONKAI)


@pytest.mark.parametrize(("spec", "message"), [
    ("randm", "valid kinds: random, heuristic, ismcts, policy"),
    ("", "non-empty"),
    ("ismcts:iterations=0", "positive"),
    ("ismcts:iterations=ten", "must be int"),
    ("ismcts:depth=3", "unknown ismcts option 'depth'; valid options: iterations, time, rollout, c"),
    ("ismcts:rollout=smart", "rollout must be one of random, heuristic"),
    ("ismcts:iterations", "expected key=value"),
    ("ismcts:leaf=oracle", "leaf must be one of returns, heuristic"),
    ("ismcts:search=deep", "search must be tree or flat"),
    ("ismcts:opponents=mirror", "opponents must be one of tree, rollout"),
    ("random:fast=1", "takes no options"),
    ("policy:", "needs a checkpoint path"),
    ("trained:", "trained needs a checkpoint path"),
    ("trained:m.zip;policy=n.zip", "not policy="),
    ("trained:m.zip;depth=3", "unknown ismcts option 'depth'"),
    ("policy:m.zip;deterministic=maybe", "true or false"),
    ("policy:m.zip;temperature=2", "unknown policy option"),
])
def test_bad_specs(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        agents.make(spec, YONKAI)


def test_missing_checkpoint_is_clear():
    with pytest.raises(ValueError, match=r"policy checkpoint not found: 'nowhere/model\.zip'"):
        agents.make("policy:nowhere/model.zip", YONKAI)


def test_game_without_heuristic_is_clear():
    with pytest.raises(NoHeuristicError, match="no heuristic bot for 'toy_trick_v0' yet"):
        heuristic_class("toy_trick_v0")
    with pytest.raises(NoHeuristicError):
        agents.make("ismcts:rollout=heuristic", "toy_trick_v0")


def test_every_heuristic_module_names_a_known_game():
    from yokai_envs.registry import ENV_IDS

    assert set(HEURISTIC_MODULES) <= set(ENV_IDS)  # current ids (the version moves with each bump)
