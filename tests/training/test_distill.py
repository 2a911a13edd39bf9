"""Search distillation (expert iteration): rounds that label with the network-guided search, fit,
checkpoint per round and resume from the last whole round."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.core.errors import ConfigError
from yokai_envs.training.algorithms import distill
from yokai_envs.training.algorithms.ppo import Trainer
from yokai_envs.training.common.config import load_config
from yokai_envs.training.common.safety import RunInterrupted

TINY = ["game.options.num_players=3", "pretrain.imitate=heuristic", "pretrain.steps=200", "pretrain.epochs=1",
        "distill.teacher=iterations=6;opponents=rollout;search=flat;beliefs=heuristic", "distill.rounds=2",
        "distill.decisions=40", "distill.workers=1", "distill.epochs=2", "training.total_timesteps=80",
        "training.n_envs=1", "training.vec_env=dummy", "algorithm.network.net_arch=[16]",
        "algorithm.hyperparameters.n_steps=64", "algorithm.hyperparameters.batch_size=64",
        "evaluation.every=1", "evaluation.games=4", "evaluation.final_games=4", "evaluation.bots=[heuristic]",
        "evaluation.engine=arena", "evaluation.best_by=heuristic", "output.progress_bar=false"]


def _config(tmp_path, extra=()):
    return load_config("configs/yonkai_no_yokai/distill.yaml", [*TINY, *extra], out=str(tmp_path / "run"))


def test_each_round_labels_with_the_search_and_fits_the_network(tmp_path):
    Trainer(_config(tmp_path)).run()
    out = tmp_path / "run"
    state = json.loads((out / "state.json").read_text())
    history = state["distill"]["history"]
    assert [row["round"] for row in history] == [1, 2] and state["distill"]["rounds"] == 2
    # Distilled decisions are the run's timesteps, and with total_timesteps reached no PPO follows.
    assert state["timesteps"] == sum(row["decisions"] for row in history) >= 80
    with np.load(out / "distill" / "round_1.npz") as saved:
        assert saved["actions"].shape[0] == history[0]["decisions"]
        assert saved["masks"][np.arange(saved["actions"].size), saved["actions"]].all()  # every label legal
    # The curve starts at the clone and has a point after each round.
    assert [e["step"] for e in state["evaluations"] if not e["final"]] == [
        0, history[0]["timesteps"], history[1]["timesteps"]]


def test_a_run_stopped_in_a_round_resumes_from_the_last_whole_round(tmp_path, monkeypatch):
    calls = []
    real = distill.generate_round

    def stop_in_round_two(config, checkpoint, index, gamma, progress):
        calls.append(index)
        if index == 1 and len(calls) == 2:
            raise KeyboardInterrupt
        return real(config, checkpoint, index, gamma, progress)

    monkeypatch.setattr(distill, "generate_round", stop_in_round_two)
    with pytest.raises(RunInterrupted, match="in distillation round 2"):
        Trainer(_config(tmp_path)).run()
    out = tmp_path / "run"
    first = (out / "distill" / "round_1.npz").read_bytes()
    assert not (out / "distill" / "round_2.npz").exists()
    assert yokai_main(["train", "--resume", "--out", str(out)]) == 0
    assert calls == [0, 1, 1]  # round 1 is not generated again
    assert (out / "distill" / "round_1.npz").read_bytes() == first
    assert json.loads((out / "state.json").read_text())["distill"]["rounds"] == 2


def test_a_bad_teacher_is_refused_with_the_key():
    with pytest.raises(ConfigError, match=r"distill.teacher: .*unknown ismcts option 'iteration'"):
        load_config("configs/yonkai_no_yokai/distill.yaml", ["distill.teacher=iteration=5"])
    with pytest.raises(ConfigError, match=r"distill.teacher: .*critic_state"):
        load_config("configs/yonkai_no_yokai/distill.yaml", ["algorithm.network.critic_state=true"])


@pytest.mark.slow
def test_a_rounds_decisions_do_not_depend_on_the_number_of_workers(tmp_path):
    from sb3_contrib import MaskablePPO

    from agents.policy import save_checkpoint
    from yokai_envs.training.gym_env import make_gym

    config = _config(tmp_path, ["distill.decisions=500", "distill.teacher=iterations=4;opponents=rollout;search=flat"])
    env = make_gym("yonkai_no_yokai_v1", num_players=3, opponents=["heuristic"])
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=16, batch_size=16, seed=0)
    checkpoint = save_checkpoint(model, tmp_path / "net", "yonkai_no_yokai_v1", {"num_players": 3})
    one = distill.generate_round({**config, "distill": {**config["distill"], "workers": 1}}, checkpoint, 0, 0.99,
                                 progress=False)
    two = distill.generate_round({**config, "distill": {**config["distill"], "workers": 2}}, checkpoint, 0, 0.99,
                                 progress=False)
    for key in distill.KEYS:
        assert np.array_equal(one[key], two[key]), key
