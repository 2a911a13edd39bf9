"""The ``pretrained`` agent spec: the shipped network for the env it is given, alone or with its
search; every shipped model loads and its card names a live env id."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import agents
import agents.pretrained as pretrained
import yokai_envs
from agents.ismcts import ISMCTSAgent
from agents.policy import PolicyAgent
from yokai_envs.registry import ENV_IDS

YONKAI = "yonkai_no_yokai_v1"


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory):
    """A small MaskablePPO for Yonkai 3p, saved as a yokai checkpoint."""
    from sb3_contrib import MaskablePPO

    from agents.policy import save_checkpoint
    from yokai_envs.training.gym_env import make_gym

    env = make_gym(YONKAI, num_players=3, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=16, batch_size=16, seed=0)
    return save_checkpoint(model, tmp_path_factory.mktemp("ckpt") / "tiny", YONKAI, {"num_players": 3})


@pytest.fixture
def shipped(tmp_path, tiny_checkpoint, monkeypatch):
    """A models folder holding the tiny network as the Yonkai 3p model."""
    shutil.copy(tiny_checkpoint, tmp_path / "yonkai_3p.safetensors")
    card = {**json.loads(tiny_checkpoint.with_suffix(".json").read_text()),
            "env_id": YONKAI, "configuration": {"num_players": 3}, "search": "iterations=4;search=flat"}
    (tmp_path / "yonkai_3p.json").write_text(json.dumps(card))
    monkeypatch.setattr(pretrained, "models_dir", lambda: tmp_path)
    return tmp_path


def _play_one(agent, num_players=3):
    game = yokai_envs.make_game(YONKAI, num_players=num_players)
    game.reset(1)
    action = agents.base.act_in_game(agent, game)
    assert game.legal_action_mask()[action]


def test_pretrained_is_the_shipped_network_for_the_given_configuration(shipped):
    agent = agents.make("pretrained", YONKAI, {"num_players": 3}, seed=0)
    assert isinstance(agent, PolicyAgent) and agent.path == str(shipped / "yonkai_3p.safetensors")
    _play_one(agent)
    sampling = agents.make("pretrained:deterministic=false", YONKAI, {"num_players": 3}, seed=0)
    assert isinstance(sampling, PolicyAgent) and not sampling.deterministic


def test_the_network_alone_plays_the_way_its_card_says_unless_the_spec_says_otherwise(shipped):
    card_file = shipped / "yonkai_3p.json"
    card_file.write_text(json.dumps({**json.loads(card_file.read_text()), "play": {"deterministic": False}}))
    assert not agents.make("pretrained", YONKAI, {"num_players": 3}, seed=0).deterministic
    assert agents.make("pretrained:deterministic=true", YONKAI, {"num_players": 3}, seed=0).deterministic


def test_pretrained_search_uses_the_cards_search_and_takes_overrides(shipped):
    agent = agents.make("pretrained:search=true", YONKAI, {"num_players": 3}, seed=0)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 4 and agent.flat
    assert isinstance(agent.base_agent, PolicyAgent)
    _play_one(agent)
    stronger = agents.make("pretrained:search=true;iterations=9", YONKAI, {"num_players": 3}, seed=0)
    assert stronger.iterations == 9


@pytest.mark.parametrize(("spec", "message"), [
    ("pretrained:iterations=5", "search options; add search=true"),
    ("pretrained:search=maybe", "search must be true or false"),
    ("pretrained:search=true;policy=x.zip", "pretrained brings its own network"),
    ("pretrained:search=true;iteration=5", "unknown ismcts option 'iteration'"),
])
def test_bad_pretrained_specs_are_refused_before_any_game(spec, message):
    with pytest.raises(ValueError, match=message):
        agents.parse_spec(spec)


def test_a_configuration_without_a_model_is_refused_with_what_is_shipped(shipped):
    with pytest.raises(ValueError, match=r"no pretrained model for yonkai_no_yokai_v1 with options "
                                         r"\{'num_players': 4\}.*shipped: yonkai_no_yokai_v1 \(num_players=3\)"):
        agents.make("pretrained", YONKAI, {"num_players": 4})


def test_a_model_of_another_version_of_the_game_is_not_used(shipped):
    card = json.loads((shipped / "yonkai_3p.json").read_text())
    (shipped / "yonkai_3p.json").write_text(json.dumps({**card, "env_id": "yonkai_no_yokai_v0"}))
    with pytest.raises(ValueError, match="yonkai_3p were trained for another version of this game"):
        agents.make("pretrained", YONKAI, {"num_players": 3})
    with pytest.raises(ValueError, match=r"no pretrained model for yonkai_no_yokai_v0: .*retired"):
        pretrained.find("yonkai_no_yokai_v0", {"num_players": 3})


@pytest.mark.parametrize("card", pretrained.cards(), ids=lambda card: card.name)
def test_every_shipped_model_is_weights_only_and_holds_just_the_policy(card):
    from safetensors import safe_open

    with safe_open(str(card.path), "pt") as weights:
        names = list(weights.keys())
    # a mixture holds its networks' tensors under member_I. prefixes, and nothing else
    networks = [name.split(".", 1)[1] if name.startswith("member_") else name for name in names]
    assert names and all(name.split(".")[0] in ("mlp_extractor", "action_net", "value_net") for name in networks)
    assert card.data["kind"] == "policy"


@pytest.mark.parametrize("card", pretrained.cards(), ids=lambda card: card.name)
def test_every_shipped_model_loads_for_the_live_env_its_card_names(card):
    assert card.env_id in ENV_IDS, f"{card.name}: {card.env_id} is not a live env id"
    for key in ("command", "seed", "wall_time", "evaluation"):
        assert key in card.data, f"{card.name}.json has no {key}"
    assert (card.path.with_suffix(".md")).exists()
    agent = agents.make(f"pretrained:generation={pretrained.generation_of(card)}", card.env_id, card.configuration,
                        seed=0)
    assert isinstance(agent, PolicyAgent) and agent.meta["env_id"] == card.env_id and card.name in agent.path
    game = yokai_envs.make_game(card.env_id, **card.configuration)
    game.reset(0)
    assert np.asarray(game.legal_action_mask())[agents.base.act_in_game(agent, game)]
    # The numpy forward it plays with is its torch network's distribution, on the game's own
    # observations along a random game.
    assert agent._forward is not None
    rng = np.random.default_rng(0)
    observations, masks = [], []
    while not game.is_over and len(observations) < 24:
        observations.append(game.observation(game.current_player))
        masks.append(np.array(game.legal_action_mask(), dtype=bool))
        game.step(int(rng.choice(game.legal_actions())))
    observations_array, masks_array = np.asarray(observations, dtype=np.float32), np.asarray(masks)
    by_torch = np.where(masks_array, agent.torch_probabilities(observations_array, masks_array), 0.0)
    np.testing.assert_allclose(agent.batch_probabilities(observations_array, masks_array), by_torch, atol=2e-5)
    for observation, mask, row in zip(observations_array, masks_array, by_torch, strict=True):
        np.testing.assert_allclose(agent.action_probabilities(observation, mask), row, atol=2e-5)


def test_evaluate_and_play_take_the_pretrained_spec(shipped, tmp_path, capsys):
    from yokai_envs.cli import main as yokai_main

    out = tmp_path / "arena"
    assert yokai_main(["evaluate", "--game", YONKAI, "--env-kwargs", '{"num_players": 3}', "--agents", "heuristic",
                       "--gauntlet", "pretrained", "--games", "3", "--seed", "1", "--out", str(out),
                       "--no-progress"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["gauntlet"] == "pretrained" and results["total_games"] == 3
    assert yokai_main(["evaluate", "--game", YONKAI, "--env-kwargs", '{"num_players": 4}', "--agents",
                       "pretrained,random", "--games", "1", "--no-progress"]) == 2
    assert "no pretrained model for yonkai_no_yokai_v1" in capsys.readouterr().err


@pytest.mark.slow
def test_the_yonkai_4p_models_headline_holds_on_fresh_deals():
    """The card's network-alone win rate against three heuristics, measured again on deals the card
    never saw: the two estimates differ by less than three standard errors of their difference."""
    from yokai_envs.training.common.evaluate import evaluate_vector

    try:
        card = pretrained.find(YONKAI, {"num_players": 4})
    except pretrained.PretrainedError:
        pytest.skip("no Yonkai 4p model is shipped")
    headline = next(row for row in card.data["evaluation"] if row["agent"] == "pretrained")
    games = 2000
    fresh = evaluate_vector(str(card.path), YONKAI, {"num_players": 4}, ["heuristic"], games, seed=20261205)
    rate = fresh["heuristic"]["win_rate"]

    def variance(p, n):
        return max(p * (1 - p), 0.01) / n

    spread = 3 * (variance(headline["win_rate"], headline["games"]) + variance(rate, games)) ** 0.5
    assert abs(rate - headline["win_rate"]) < spread, (rate, headline)


def test_pretrained_plays_the_latest_generation_and_an_earlier_one_by_name():
    onmyoji = next(e for e in ENV_IDS if e.startswith("onmyoji_v"))
    duel = {"mode": "duel"}
    latest = pretrained.find(onmyoji, duel)
    first = pretrained.find(onmyoji, duel, generation=1)
    assert latest.name == "onmyoji_duel" and pretrained.generation_of(latest) == 4
    assert pretrained.find(onmyoji, duel, generation=3).name == "onmyoji_duel_gen3"
    assert pretrained.find(onmyoji, duel, generation=2).name == "onmyoji_duel_gen2"
    assert first.name == "onmyoji_duel_gen1" and pretrained.generation_of(first) == 1
    with pytest.raises(pretrained.PretrainedError, match=r"no generation 5 .* shipped generations: "):
        pretrained.find(onmyoji, duel, generation=5)
    # each plays the way its card says it was measured: the later generations sample
    now = agents.make("pretrained", onmyoji, duel, seed=0)
    before = agents.make("pretrained:generation=1", onmyoji, duel, seed=0)
    assert isinstance(now, PolicyAgent) and not now.deterministic and now.path.endswith("onmyoji_duel.safetensors")
    assert isinstance(before, PolicyAgent) and before.deterministic and "onmyoji_duel_gen1" in before.path
    searching = agents.make("pretrained:search=true;generation=1;iterations=2", onmyoji, duel, seed=0)
    assert isinstance(searching, ISMCTSAgent)
    # the latest is a mixture: each game it draws one of its networks by the card's weights, and
    # its search starts from the network drawn
    weights = latest.data["play"]["mixture"]
    assert len(now.networks.forwards) == len(weights) > 1
    drawn = []
    for seed in range(3000):
        now.reset(seed)
        drawn.append(now.member)
    assert np.bincount(drawn, minlength=len(weights)) / len(drawn) == pytest.approx(weights, abs=0.03)
    game = yokai_envs.make_game(onmyoji, **duel)
    game.reset(0)
    searching_now = agents.make("pretrained:search=true;iterations=2", onmyoji, duel, seed=0)
    assert np.asarray(game.legal_action_mask())[agents.base.act_in_game(searching_now, game)]
    with pytest.raises(ValueError, match="generation must be positive"):
        agents.make("pretrained:generation=0", onmyoji, duel)


@pytest.mark.parametrize(("prefix", "options", "name", "latest"), [
    ("yyh_tcg_v", {}, "yyh_tcg", 2),
    ("yokaizo_v", {}, "yokaizo", 2),
    ("onmyoji_v", {"mode": "solo"}, "onmyoji_solo", 2),
    ("onmyoji_v", {"mode": "coop"}, "onmyoji_coop", 2),
    ("yonkai_no_yokai_v", {"num_players": 3}, "yonkai_no_yokai_3p", 3),
    ("yonkai_no_yokai_v", {"num_players": 4}, "yonkai_no_yokai_4p", 2),
])
def test_a_new_generation_ships_under_the_name_and_keeps_the_earlier_ones_by_name(prefix, options, name, latest):
    env_id = next(e for e in ENV_IDS if e.startswith(prefix))
    card = pretrained.find(env_id, options)
    assert card.name == name and pretrained.generation_of(card) == latest
    for generation in range(1, latest):
        earlier = pretrained.find(env_id, options, generation=generation)
        assert earlier.name == f"{name}_gen{generation}" and "superseded" in earlier.data
        assert f"{name}_gen{generation}" in agents.make(f"pretrained:generation={generation}", env_id, options,
                                                        seed=0).path
    # all play argmax, as they were measured
    assert agents.make("pretrained", env_id, options, seed=0).deterministic
