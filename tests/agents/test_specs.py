"""Spec strings: every kind builds, every mistake is a clear ValueError before any game."""

from __future__ import annotations

import pytest

import agents
from agents.base import RandomAgent
from agents.heuristics import HEURISTIC_MODULES, NoHeuristicError, heuristic_class
from agents.ismcts import ISMCTSAgent
from agents.specs import parse_spec

YONKAI = "yonkai_no_yokai_v1"
ONMYOJI = next(e for e in __import__("yokai_envs").ENV_IDS if e.startswith("onmyoji"))


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
    ("policy:m.zip;temper=2", "unknown policy option"),
    ("policy:m.zip;temperature=0", "must be positive"),
    ("rllib:m;temperature=2", "unknown rllib option"),
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


def test_heuristic_options_are_the_games_own():
    bot = agents.make("heuristic:selfish=true;hold_back=no", ONMYOJI)
    assert (bot.selfish, bot.hold_back) == (True, False)
    plain = agents.make("heuristic", ONMYOJI)
    assert (plain.selfish, plain.hold_back) == (False, False)
    assert parse_spec("heuristic:selfish=true").options == {"selfish": "true"}  # typed by make, per game


@pytest.mark.parametrize(("spec", "env_id", "message"), [
    ("heuristic:selfsh=true", "onmyoji",
     r"unknown onmyoji_v\d heuristic option 'selfsh' \(did you mean 'selfish'\?\); valid options: selfish, hold_back"),
    ("heuristic:selfish=maybe", "onmyoji", "option selfish must be true or false"),
    ("heuristic:selfish", "onmyoji", "expected key=value"),
    ("heuristic:selfish=true;selfish=false", "onmyoji", "given twice"),
    ("heuristic:selfish=true", YONKAI, f"the {YONKAI} heuristic takes no options"),
])
def test_bad_heuristic_options_are_named(spec, env_id, message):
    with pytest.raises(ValueError, match=message):
        agents.make(spec, ONMYOJI if env_id == "onmyoji" else env_id)


def test_lowest_plays_its_lowest_legal_non_pass_action():
    import numpy as np

    from agents.arena.match import run_match
    from yokai_envs.registry import make_game

    bot = agents.make("lowest", YONKAI, {"num_players": 4})
    game = make_game(YONKAI, num_players=4)
    assert bot.pass_actions == {0} and game.describe_action(0)["kind"] == "pass"
    mask = np.zeros(game.num_actions, dtype=bool)
    mask[[0, 7, 30]] = True
    assert bot.act(np.zeros(0), mask) == 7
    mask[[7, 30]] = False
    assert bot.act(np.zeros(0), mask) == 0  # the pass only when nothing else is legal
    with pytest.raises(ValueError, match="takes no options"):
        parse_spec("lowest:x=1")
    # the trivial baseline beats three random seats by far: why "beats random" proves little
    result = run_match(YONKAI, ["L=lowest", "random"], games=20, seed=0, env_options={"num_players": 4})
    wins = sum(r["credits"][r["seats"].index("L")] for r in result.records)
    assert wins / len(result.records) > 0.7


def test_the_model_files_a_spec_names_are_the_ones_it_reads():
    from agents.pretrained import find
    from agents.spec_files import spec_paths

    shipped = str(find(ONMYOJI, {"mode": "duel"}).path)
    named = {"policy:m.safetensors;deterministic=false": ["m.safetensors"], "rllib:run/model": ["run/model"],
             "trained:m.safetensors;iterations=5": ["m.safetensors"],
             "ismcts:rollout=policy;policy=m.safetensors": ["m.safetensors"],
             "pretrained": [shipped], "pretrained:search=true;iterations=5": [shipped],
             "pretrained:generation=999": [], "heuristic": [], "ismcts:iterations=5": [], "no_such_kind": []}
    assert {spec: spec_paths(spec, ONMYOJI, {"mode": "duel"}) for spec in named} == named
