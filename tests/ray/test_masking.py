"""The masking RLModule never gives an illegal action any probability, and the RLlib env
(RLlib's PettingZooEnv with bots inside) plays whole games on masked samples alone."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")
import torch
from ray.rllib.core.columns import Columns

from yokai_envs.registry import make_game
from yokai_envs.training.rllib_backend.env import (
    LEARNER,
    YokaiMultiAgentEnv,
    module_for_agent,
    seat_of,
    snapshot_id,
)
from yokai_envs.training.rllib_backend.module import MaskedPPOTorchRLModule, apply_mask

YONKAI = "yonkai_no_yokai_v1"


def make_env(**extra):
    config = {"env_id": YONKAI, "options": {"num_players": 4}, "bots": [("random", 1.0)], "seed": 0, **extra}
    return YokaiMultiAgentEnv(config)


def make_module(env, seed=0):
    torch.manual_seed(seed)
    return MaskedPPOTorchRLModule(observation_space=env.observation_spaces[env.possible_agents[0]],
                                  action_space=env.action_spaces[env.possible_agents[0]],
                                  model_config={"fcnet_hiddens": [32], "fcnet_activation": "tanh"})


def batch_of(observations, masks):
    return {Columns.OBS: {"observation": torch.as_tensor(np.asarray(observations, dtype=np.float32)),
                          "action_mask": torch.as_tensor(np.asarray(masks, dtype=np.int8))}}


def test_masked_logits_sample_only_legal_actions():
    env = make_env()
    module = make_module(env)
    rng = np.random.default_rng(1)
    n_actions = env.action_spaces[env.possible_agents[0]].n
    obs_size = env.observation_spaces[env.possible_agents[0]]["observation"].shape[0]
    masks = rng.random((64, n_actions)) < 0.1
    masks[np.arange(64), rng.integers(n_actions, size=64)] = True  # at least one legal action per row
    masks[0] = False
    masks[0, 5] = True  # exactly one legal action
    observations = rng.random((64, obs_size))
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(batch_of(observations, masks))[Columns.ACTION_DIST_INPUTS]
        dist = torch.distributions.Categorical(logits=logits)
        samples = dist.sample((200,)).numpy()  # 200 draws per row
        assert masks[np.arange(64)[None, :], samples].all(), forward.__name__
        probs = dist.probs.detach().numpy()
        assert np.all(probs[~masks] == 0.0)
        assert np.allclose(probs.sum(axis=1), 1.0)
        assert np.all(masks[np.arange(64), logits.argmax(dim=1).numpy()])


def test_all_zero_mask_rows_stay_finite():
    """A finished game's last observation has no legal action; it must not produce NaNs."""
    logits = torch.tensor([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]])
    masked = apply_mask(logits, torch.tensor([[0, 0, 0], [0, 1, 0]], dtype=torch.int8))
    assert torch.equal(masked[0], logits[0])
    assert torch.distributions.Categorical(logits=masked[1]).probs[1] == 1.0


def test_module_plays_whole_games_without_an_illegal_action():
    """The env raises on any illegal action; sampled actions from the masked module never trigger it."""
    env = make_env(bots=[("random", 1.0), ("heuristic", 1.0)])
    module = make_module(env, seed=3)
    obs, _ = env.reset(seed=7)
    games = decisions = 0
    while games < 8:
        (agent, ob), = obs.items()
        with torch.no_grad():
            logits = module.forward_exploration(batch_of([ob["observation"]], [ob["action_mask"]]))
        action = int(torch.distributions.Categorical(logits=logits[Columns.ACTION_DIST_INPUTS]).sample())
        assert ob["action_mask"][action] == 1
        obs, _, terminated, truncated, _ = env.step({agent: action})
        decisions += 1
        if terminated["__all__"] or truncated["__all__"]:
            games += 1
            obs, _ = env.reset()
    assert decisions > 8 * 5


def play_random_episode(env, rng, seed=None):
    obs, _ = env.reset(seed=seed)
    totals: dict[str, float] = {}
    seen = set()
    while True:
        (agent, ob), = obs.items()
        seen.add(agent)
        action = int(rng.choice(np.flatnonzero(ob["action_mask"])))
        obs, rewards, terminated, truncated, infos = env.step({agent: action})
        for key, value in rewards.items():
            totals[key] = totals.get(key, 0.0) + value
        if terminated["__all__"] or truncated["__all__"]:
            return seen, totals, infos


def test_only_the_learner_seat_is_exposed_and_gets_its_own_return():
    env = make_env()
    rng = np.random.default_rng(0)
    seats = []
    for episode in range(8):
        seen, totals, infos = play_random_episode(env, rng, seed=11 if episode == 0 else None)
        assert len(seen) == 1
        (agent,) = seen
        assert module_for_agent(agent) == LEARNER
        seat = seat_of(agent)
        seats.append(seat)
        # The learner's summed rewards are its own final return (not another seat's).
        assert totals[agent] == pytest.approx(env.game.returns()[seat])
        assert infos[agent]["returns"] == pytest.approx(list(env.game.returns()))
    assert sorted(set(seats)) == [0, 1, 2, 3]  # the learner's seat rotates


def test_snapshot_slots_join_the_pool_once_filled():
    env = make_env(pool_size=2, snapshot_weight=100.0)
    rng = np.random.default_rng(0)
    seen, _, _ = play_random_episode(env, rng, seed=3)
    assert {module_for_agent(a) for a in seen} == {LEARNER}  # no snapshot yet: bots only
    env.set_pool([1])
    modules = set()
    for _ in range(4):
        seen, _, _ = play_random_episode(env, rng)
        modules |= {module_for_agent(a) for a in seen}
    assert modules == {LEARNER, snapshot_id(1)}
    assert all(a in env.possible_agents for a in seen)


def test_same_seed_same_episode():
    def run():
        env = make_env(bots=[("random", 1.0), ("heuristic", 1.0)], pool_size=1)
        env.set_pool([0])
        rng = np.random.default_rng(5)
        return [play_random_episode(env, rng, seed=21 if i == 0 else None)[1] for i in range(3)]

    assert run() == run()


def test_cooperative_game_shares_one_policy_over_both_seats():
    env = YokaiMultiAgentEnv({"env_id": "onmyoji_v5", "options": {"mode": "coop", "difficulty": 1}, "seed": 0})
    assert make_game("onmyoji_v5", mode="coop").num_players == 2
    seen, _, _ = play_random_episode(env, np.random.default_rng(0), seed=1)
    assert {module_for_agent(a) for a in seen} == {LEARNER}
    assert {seat_of(a) for a in seen} == {0, 1}


def test_competitive_game_without_bots_is_refused():
    from yokai_envs.core.errors import ConfigError

    with pytest.raises(ConfigError, match="opponent bot"):
        make_env(bots=[])


def test_env_streams_differ_across_env_runners_with_colliding_seeds():
    """RLlib seeds env i of runner w with seed + w + i: runner 1 env 1 and runner 2 env 0 get the
    same seed. The runner index keeps their games apart."""
    from ray.rllib.env.env_context import EnvContext

    config = {"env_id": YONKAI, "options": {"num_players": 4}, "bots": [("random", 1.0)], "seed": 0}
    deals = []
    for worker_index in (1, 2, 1):
        env = YokaiMultiAgentEnv(EnvContext(config, worker_index=worker_index))
        env.reset(seed=2)
        deals.append(env.game.state_tensor().tolist())
    assert deals[0] == deals[2]  # same runner, same seed: the same deal
    assert deals[0] != deals[1]
