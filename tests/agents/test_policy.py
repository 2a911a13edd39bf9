"""MaskablePPO checkpoints: save with metadata, load checked against the env, act legally."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import agents
from agents.arena import run_match
from agents.policy import CheckpointError, PolicyAgent, save_checkpoint
from yokai_envs.registry import make_game

YONKAI = "yonkai_no_yokai_v1"
OPTIONS = {"num_players": 3}


class YonkaiShapedEnv(gym.Env):
    """A stand-in single-agent env with Yonkai 3p spaces: random observations, random masks."""

    def __init__(self) -> None:
        game = make_game(YONKAI, **OPTIONS)
        self.observation_space = gym.spaces.Box(0.0, 1.0, (game.observation_size,), np.float32)
        self.action_space = gym.spaces.Discrete(game.num_actions)
        self.t = 0

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self.observation_space.seed(seed)  # the checkpoint comes out the same on every run
        self.t = 0
        return self.observation_space.sample(), {}

    def step(self, action):
        self.t += 1
        return self.observation_space.sample(), float(action % 2), self.t >= 8, False, {}

    def action_masks(self) -> np.ndarray:
        mask = self.np_random.random(self.action_space.n) < 0.3
        mask[0] = True
        return mask


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", YonkaiShapedEnv(), n_steps=32, batch_size=16, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(64)
    path = save_checkpoint(model, tmp_path_factory.mktemp("ckpt") / "tiny", YONKAI, OPTIONS)
    return model, path


def test_the_card_beside_the_weights(checkpoint):
    _, path = checkpoint
    assert path.name == "tiny.safetensors"
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["env_id"] == YONKAI and meta["env_options"] == OPTIONS
    assert meta["observation_shape"] == [make_game(YONKAI, **OPTIONS).observation_size]
    assert meta["num_actions"] == 49 and meta["package_version"]


def test_roundtrip_acts_like_the_model(checkpoint):
    model, path = checkpoint
    bot = agents.make(f"policy:{path}", YONKAI, OPTIONS)
    sampler = agents.make(f"policy:{path};deterministic=false", YONKAI, OPTIONS, seed=0)
    game = make_game(YONKAI, **OPTIONS)
    game.reset(0)
    for _ in range(20):
        obs, mask = game.observation(game.current_player), game.legal_action_mask()
        expected, _ = model.predict(obs, action_masks=mask.copy(), deterministic=True)
        action = bot.act(obs, mask)
        assert action == int(expected) and mask[action]
        assert mask[sampler.act(obs, mask)]
        game.step(action)


def test_arena_plays_a_policy(checkpoint):
    _, path = checkpoint
    result = run_match(YONKAI, [f"policy:{path}", "random"], games=3, seed=0, env_options=OPTIONS)
    assert len(result.records) == 3


def test_the_arena_records_the_policys_probability_of_each_action(checkpoint):
    _, path = checkpoint
    bot = agents.make(f"policy:{path}", YONKAI, OPTIONS)
    result = run_match(YONKAI, [f"P=policy:{path}", "R=random"], games=1, seed=0, env_options=OPTIONS)
    record = result.records[0]
    game = make_game(YONKAI, **OPTIONS)
    game.reset(record["deal_seed"])
    for action, entry in zip(record["actions"], record["behaviour"], strict=True):
        seat = game.current_player
        mask = game.legal_action_mask()
        if record["seats"][seat] == "P":
            probs = bot.action_probabilities(game.observation(seat), mask)
            assert entry[0] == pytest.approx(probs[action])
            assert entry[1] == pytest.approx(-(probs[probs > 0] * np.log(probs[probs > 0])).sum())
        else:
            assert entry[0] == pytest.approx(1 / mask.sum())
        game.step(action)


def test_wrong_game_or_spaces_fail_clearly(checkpoint, tmp_path):
    _, path = checkpoint
    with pytest.raises(CheckpointError, match="was trained for 'yonkai_no_yokai_v1', not 'yyh_tcg_v6'"):
        PolicyAgent(path, "yyh_tcg_v6")
    with pytest.raises(CheckpointError, match="observation shape"):
        agents.make(f"policy:{path}", YONKAI, {"num_players": 4})
    plain = tmp_path / "plain.safetensors"
    plain.write_bytes(path.read_bytes())
    with pytest.raises(CheckpointError, match="no card beside it"):
        agents.make(f"policy:{plain}", YONKAI, OPTIONS)
    junk = tmp_path / "junk.safetensors"
    junk.write_text("not a model")
    junk.with_suffix(".json").write_text("not a card")
    with pytest.raises(CheckpointError, match=r"junk\.json is not valid JSON"):
        agents.make(f"policy:{junk}", YONKAI, OPTIONS)
    with pytest.warns(UserWarning, match="trained with env options"):
        agents.make(f"policy:{path}", YONKAI, {"num_players": 3, "reward": "lives"})
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an option spelled out at its default is the same game
        reward_default = make_game(YONKAI).OPTIONS["reward"]
        agents.make(f"policy:{path}", YONKAI, {"num_players": 3, "reward": reward_default})


def test_search_improves_on_a_policy_named_in_the_spec(checkpoint, tmp_path):
    """``ismcts:...;policy=PATH`` starts from the checkpoint's move: when the search cannot
    show another move better it plays exactly the policy's move (not the heuristic's), and it
    plays whole games in the arena."""
    _, path = checkpoint
    bot = agents.make(f"policy:{path}", YONKAI, OPTIONS)
    # One sampled world gives no error estimate, so no margin passes the confidence test.
    # (With a few worlds that all agree exactly the error is 0 and any margin would pass.)
    search = agents.make(f"ismcts:iterations=1;rollout=heuristic;search=flat;confidence=1;policy={path}",
                         YONKAI, OPTIONS, seed=0)
    game = make_game(YONKAI, **OPTIONS)
    game.reset(1)
    heuristic = agents.make("heuristic", YONKAI, OPTIONS)
    unlike_the_heuristic = 0
    for _ in range(30):
        obs, mask = game.observation(game.current_player), game.legal_action_mask()
        action = search.act(obs, mask, game)
        assert action == bot.act(obs, mask) or int(mask.sum()) == 1
        unlike_the_heuristic += action != heuristic.act(obs, mask)
        game.step(action)
    assert unlike_the_heuristic > 0  # so the moves kept are the network's, not the rollout policy's
    spec = f"ismcts:iterations=4;rollout=heuristic;opponents=rollout;search=flat;confidence=1;policy={path}"
    result = run_match(YONKAI, [spec, "heuristic", "random"], games=6, seed=0, env_options=OPTIONS)
    assert len(result.records) == 6  # every seating of the three
    with pytest.raises(CheckpointError, match="not found"):
        agents.make(f"ismcts:rollout=heuristic;confidence=1;policy={tmp_path / 'nope.safetensors'}", YONKAI, OPTIONS)
    with pytest.raises(ValueError, match="policy needs a checkpoint path"):
        agents.make("ismcts:rollout=heuristic;policy= ", YONKAI, OPTIONS)
    # A trained policy is a base to improve on, so confidence no longer needs the heuristic.
    assert agents.make(f"ismcts:iterations=2;confidence=1;policy={path}", YONKAI, OPTIONS).base_agent is not None


def test_broken_checkpoints_name_the_file(checkpoint, tmp_path):
    """A folder, a card without its weights, and damaged weights each give a CheckpointError
    naming the file, never a traceback from safetensors or torch."""
    _, path = checkpoint
    folder = tmp_path / "a_folder.safetensors"
    folder.mkdir()
    with pytest.raises(CheckpointError, match=r"a_folder\.safetensors: a folder, not a checkpoint file"):
        agents.make(f"policy:{folder}", YONKAI, OPTIONS)

    card_only = tmp_path / "card_only.json"
    card_only.write_text(path.with_suffix(".json").read_text())
    with pytest.raises(CheckpointError, match=r"not found: .*card_only\.safetensors"):
        agents.make(f"policy:{card_only}", YONKAI, OPTIONS)

    raw = path.read_bytes()
    for name, damaged in (("truncated", raw[: len(raw) // 2]),
                          ("flipped", raw[:200] + bytes(b ^ 0xFF for b in raw[200:1200]) + raw[1200:]),
                          ("zeros", bytes(len(raw)))):
        bad = tmp_path / f"{name}.safetensors"
        bad.write_bytes(damaged)
        bad.with_suffix(".json").write_text(path.with_suffix(".json").read_text())
        with pytest.raises(CheckpointError, match=rf"{name}\.safetensors: its digest is not the one"):
            agents.make(f"policy:{bad}", YONKAI, OPTIONS)


def test_the_policy_hands_torch_writable_masks(checkpoint, monkeypatch):
    """A game's legal mask is read-only (cached); torch warns about undefined behaviour when one
    reaches it (once per process, so the check is on what SB3 is handed, not on the warning)."""
    _, path = checkpoint
    bot = agents.make(f"policy:{path}", YONKAI, OPTIONS)
    bot._forward = None  # torch's path, as a network the numpy forward does not cover takes
    handed = []
    original = bot.policy.get_distribution

    def spy(obs, action_masks=None):
        handed.append(action_masks.flags.writeable)
        return original(obs, action_masks=action_masks)

    monkeypatch.setattr(bot.policy, "get_distribution", spy)
    game = make_game(YONKAI, **OPTIONS)
    game.reset(0)
    mask = game.legal_action_mask()
    assert not mask.flags.writeable
    bot.act(game.observation(game.current_player), mask)
    assert handed == [True]


@pytest.mark.parametrize("activation", ["Tanh", "ReLU", "ELU", "LeakyReLU"])
def test_the_numpy_forward_is_the_torch_networks_distribution(activation, tmp_path):
    """The agent decides with numpy matrix products copied from the network; on dense and on
    mostly-zero observations, one at a time and in batches, they give torch's distribution, and
    so the same argmax."""
    from sb3_contrib import MaskablePPO
    from torch import nn

    model = MaskablePPO("MlpPolicy", YonkaiShapedEnv(), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32, 16], "activation_fn": getattr(nn, activation)})
    bot = PolicyAgent(save_checkpoint(model, tmp_path / "net", YONKAI, OPTIONS), YONKAI, OPTIONS)
    assert bot._forward is not None
    rng = np.random.default_rng(0)
    size = model.observation_space.shape[0]
    dense = rng.random((12, size)).astype(np.float32)
    sparse = (rng.random((12, size)) < 0.05).astype(np.float32) * rng.random((12, size)).astype(np.float32)
    masks = rng.random((12, 49)) < 0.3
    masks[:, 5] = True
    for observations in (dense, sparse):
        expected = np.where(masks, bot.torch_probabilities(observations, masks), 0.0)
        np.testing.assert_allclose(bot.batch_probabilities(observations, masks), expected, atol=1e-5)
        for row in range(len(observations)):
            single = bot.action_probabilities(observations[row], masks[row])
            np.testing.assert_allclose(single, expected[row], atol=1e-5)
            assert bot.act(observations[row], masks[row]) == int(np.argmax(expected[row]))


def test_a_network_the_numpy_forward_does_not_cover_plays_through_torch():
    from sb3_contrib import MaskablePPO
    from torch import nn

    from agents.networks import NumpyForward

    model = MaskablePPO("MlpPolicy", YonkaiShapedEnv(), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16], "activation_fn": nn.SiLU})
    assert NumpyForward.of(model.policy) is None
    leaky = MaskablePPO("MlpPolicy", YonkaiShapedEnv(), seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16], "activation_fn": lambda: nn.LeakyReLU(0.2)})
    assert NumpyForward.of(leaky.policy) is None  # another slope than the one it knows


def test_a_search_can_roll_out_with_the_network(checkpoint):
    """``rollout=policy``: the rollouts are played by the network of ``policy=`` (one copy of its
    weights, sampling), beside its argmax move as the search's default; it plays whole games and
    a seed fixes them."""
    _, path = checkpoint
    spec = f"ismcts:iterations=6;rollout=policy;max_rollout_steps=5;confidence=1;policy={path}"
    search = agents.make(spec, YONKAI, OPTIONS, seed=0)
    assert isinstance(search.rollout_agent, PolicyAgent) and isinstance(search.base_agent, PolicyAgent)
    assert search.rollout_agent is not search.base_agent
    assert search.rollout_agent.policy is search.base_agent.policy
    assert not search.rollout_agent.deterministic and search.base_agent.deterministic
    first = run_match(YONKAI, [spec, "heuristic", "random"], games=3, seed=0, env_options=OPTIONS)
    again = run_match(YONKAI, [spec, "heuristic", "random"], games=3, seed=0, env_options=OPTIONS)
    assert [r["actions"] for r in first.records] == [r["actions"] for r in again.records]
    with pytest.raises(ValueError, match="rollout=policy rolls out with a trained network"):
        agents.make("ismcts:rollout=policy", YONKAI, OPTIONS)


def test_a_search_can_roll_out_its_own_seat_with_the_network(checkpoint):
    """``rollout=own_policy``: in the rollouts the searching seat plays the network's most likely
    move and every other seat the heuristic; the seat is the one deciding at the root."""
    from agents.heuristics.yonkai_no_yokai import HeuristicAgent
    from agents.ismcts import OwnSeatRollout

    _, path = checkpoint
    spec = f"ismcts:iterations=4;rollout=own_policy;max_rollout_steps=6;confidence=1;search=flat;policy={path}"
    search = agents.make(spec, YONKAI, OPTIONS, seed=0)
    rollout = search.rollout_agent
    assert isinstance(rollout, OwnSeatRollout) and rollout.plays_in_sampled_worlds
    assert isinstance(rollout.own, PolicyAgent) and rollout.own.deterministic
    assert rollout.own.policy is search.base_agent.policy and isinstance(rollout.others, HeuristicAgent)
    game = make_game(YONKAI, **OPTIONS)
    game.reset(seed=3)
    while len(game.legal_actions()) < 2:
        game.step(game.legal_actions()[0])
    seat = game.current_player
    assert search.act(game.observation(seat), game.legal_action_mask(), game) in game.legal_actions()
    assert rollout.seat == seat
    world = game.clone()
    assert rollout.act_in_world(world) == rollout.own.act_in_world(world)  # the searching seat: the network
    rollout.seat = (seat + 1) % game.num_players
    assert rollout.act_in_world(world) == rollout.others.act_in_world(world)  # another seat: the heuristic
    first = run_match(YONKAI, [spec, "heuristic", "random"], games=2, seed=0, env_options=OPTIONS)
    again = run_match(YONKAI, [spec, "heuristic", "random"], games=2, seed=0, env_options=OPTIONS)
    assert [r["actions"] for r in first.records] == [r["actions"] for r in again.records]
    with pytest.raises(ValueError, match="rollout=own_policy rolls out with a trained network"):
        agents.make("ismcts:rollout=own_policy", YONKAI, OPTIONS)
