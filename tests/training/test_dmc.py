"""Deep Monte-Carlo: returns-to-go from each env's game, exploration inside the mask, the Q
network trained in the actor's place, checkpoints and resume."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.core.errors import ConfigError
from yokai_envs.training.algorithms import dmc
from yokai_envs.training.algorithms.ppo import Trainer
from yokai_envs.training.common.config import load_config
from yokai_envs.training.common.safety import RunInterrupted

TINY = ["game.options.num_players=3", "pretrain.steps=300", "pretrain.epochs=1", "dmc.steps=1200",
        "dmc.fit_every=64", "dmc.batch_size=32", "training.total_timesteps=1200", "training.n_envs=2",
        "training.vec_env=dummy", "algorithm.network.net_arch=[16]", "evaluation.every=600",
        "evaluation.games=4", "evaluation.final_games=4", "evaluation.engine=arena", "output.progress_bar=false"]


def _config(tmp_path, extra=()):
    return load_config("configs/yonkai_no_yokai/dmc.yaml", [*TINY, *extra], out=str(tmp_path / "run"))


def test_a_finished_game_leaves_with_each_decisions_return_to_go():
    buffer = dmc.EpisodeBuffer(num_envs=2, obs_size=1, capacity=2)  # capacity 2: the third decision grows it
    for step, (rewards, dones) in enumerate([([0.5, 0.0], [False, False]), ([0.0, 1.0], [False, True]),
                                             ([-1.0, 0.0], [True, False])]):
        buffer.add(np.array([[step], [10 + step]], dtype=np.float32), np.array([step, step]))
        buffer.reward(np.array(rewards, dtype=np.float32), np.array(dones))
    observations, actions, returns = buffer.take()
    # env 1 finished first (two decisions, +1 at the end), then env 0 (three: +0.5, 0, -1)
    assert observations[:, 0].tolist() == [10, 11, 0, 1, 2]
    assert actions.tolist() == [0, 1, 0, 1, 2]
    assert returns.tolist() == [1.0, 1.0, -0.5, -1.0, -1.0]
    assert buffer.ready_count == 0 and buffer.length.tolist() == [0, 1]  # env 1's new game has begun


def test_exploration_replaces_moves_only_with_legal_ones():
    rng = np.random.default_rng(0)
    masks = np.zeros((4000, 5), dtype=bool)
    masks[:, [1, 3]] = True
    greedy = np.full(4000, 1)
    explored = dmc.explore(greedy, masks, 0.5, rng)
    assert set(explored.tolist()) == {1, 3}
    assert 0.2 < (explored == 3).mean() < 0.3  # half explored, half of those land on the other move
    assert np.array_equal(dmc.explore(greedy, masks, 0.0, rng), greedy)
    assert dmc.greedy(np.array([[5.0, 1.0, 2.0]]), np.array([[False, True, True]])).tolist() == [2]


def test_a_run_learns_q_in_the_actor_and_counts_its_decisions(tmp_path, monkeypatch):
    real = dmc.fit
    seen = []

    def watch(policy, *args, **kwargs):
        seen.append(policy.action_net.weight.detach().clone().numpy())
        return real(policy, *args, **kwargs)

    monkeypatch.setattr(dmc, "fit", watch)
    Trainer(_config(tmp_path)).run()
    out = tmp_path / "run"
    state = json.loads((out / "state.json").read_text())
    history = state["dmc"]["history"]
    assert [row["dmc_steps"] for row in history] == [600, 1200]
    assert state["timesteps"] == 1200  # the DMC decisions are the run's steps: no PPO after them
    assert all(row["q_loss"] is not None for row in history)
    assert [step for step, _ in state["rewards"]] == [600, 1200]  # the curve's training panel
    # The curve starts at the clone, then a point at each mark.
    assert [e["step"] for e in state["evaluations"] if not e["final"]] == [0, 600, 1200]
    # The actor starts as the clone (its logits are the first advantages) and is fitted from there.
    from agents.model_file import load_policy

    final = load_policy(out / "model.safetensors")[0].action_net.weight.detach().numpy()
    assert len(seen) >= 10 and not np.allclose(final, seen[0])


@pytest.mark.parametrize("marks", [[], ["evaluation.every=0", "output.checkpoint_every=600"]],
                         ids=["at-evaluations", "checkpoints-only"])
def test_a_stopped_run_resumes_from_its_last_checkpoint(tmp_path, monkeypatch, marks):
    real = dmc.fit
    calls = {"n": 0}

    def stop_late(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 12:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(dmc, "fit", stop_late)
    with pytest.raises(RunInterrupted, match="in deep Monte-Carlo after"):
        Trainer(_config(tmp_path, marks)).run()
    out = tmp_path / "run"
    stopped = json.loads((out / "state.json").read_text())
    assert stopped["dmc"]["steps"] == 600 and stopped["timesteps"] == 600  # the checkpoint at the mark
    monkeypatch.setattr(dmc, "fit", real)
    assert yokai_main(["train", "--resume", "--out", str(out)]) == 0
    state = json.loads((out / "state.json").read_text())
    assert state["dmc"]["steps"] == 1200 and state["timesteps"] == 1200


def test_bad_dmc_settings_are_refused_with_the_key():
    with pytest.raises(ConfigError, match=r"dmc.steps .*training.total_timesteps"):
        load_config("configs/yonkai_no_yokai/dmc.yaml", ["dmc.steps=5000", "training.total_timesteps=1000"])
    with pytest.raises(ConfigError, match=r"dmc.steps: .*critic_state"):
        load_config("configs/yonkai_no_yokai/dmc.yaml", ["algorithm.network.critic_state=true"])
    with pytest.raises(ConfigError, match=r"dmc.epsilon"):
        load_config("configs/yonkai_no_yokai/dmc.yaml", ["dmc.epsilon=2"])
