"""A tiny training run end to end: files, checkpoints loadable as ``policy:`` agents, resume."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

import agents
import yokai_envs
import yokai_envs.training
from yokai_envs.cli import main as yokai_main
from yokai_envs.core.errors import ConfigError
from yokai_envs.training.algorithms.ppo import Trainer
from yokai_envs.training.common.config import load_config

YONKAI = "yonkai_no_yokai_v1"
TINY = ["training.total_timesteps=256", "training.n_envs=2", "algorithm.hyperparameters.n_steps=64",
        "algorithm.hyperparameters.batch_size=64", "algorithm.hyperparameters.n_epochs=1",
        "algorithm.network.net_arch=[16]", "evaluation.every=128", "evaluation.games=4",
        "evaluation.final_games=8", "output.checkpoint_every=128", "output.progress_bar=false",
        "opponents.self_play.enabled=true", "opponents.self_play.snapshot_every=128",
        "opponents.self_play.pool_size=1"]


@pytest.mark.slow
def test_tiny_run_end_to_end_then_resume(tmp_path):
    out = tmp_path / "run"
    code = yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--out", str(out),
                       *[arg for item in TINY for arg in ("--set", item)]])
    assert code == 0
    for name in ("config.yaml", "state.json", "model.safetensors", "best_model.safetensors",
                 "checkpoints/latest.safetensors", "checkpoints/resume.json", "learning_curve.png", "eval.json",
                 "logs/progress.csv"):
        assert (out / name).exists(), name
    assert list((out / "logs").glob("events.out.tfevents.*"))
    saved = yaml.safe_load((out / "config.yaml").read_text())
    assert saved["training"]["total_timesteps"] == 256 and saved["output"]["dir"] == str(out)

    report = json.loads((out / "eval.json").read_text())
    row = report["results"]["random"]
    assert row["games"] == 8 and 0.0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1.0
    state = json.loads((out / "state.json").read_text())
    assert [e["step"] for e in state["evaluations"]][:1] == [0] and state["evaluations"][-1]["final"]
    assert len(state["snapshots"]) == 1  # pool_size 1 keeps the newest snapshot only
    snapshot = agents.make(f"policy:{state['snapshots'][0]}", YONKAI, {"num_players": 4})
    assert snapshot.model is None and snapshot.path.endswith(".safetensors")  # weights only: no rollout buffer

    # Both policies load through the policy: spec and play legal moves.
    game = yokai_envs.make_game(YONKAI, num_players=4)
    game.reset(0)
    for name in ("model.safetensors", "best_model.safetensors"):
        agent = agents.make(f"policy:{out / name}", YONKAI, {"num_players": 4})
        action = agent.act(game.observation(game.current_player), game.legal_action_mask())
        assert game.legal_action_mask()[action]

    # A second run into the same folder is refused; --resume continues to the new total.
    with pytest.raises(ConfigError, match="already holds a run"):
        Trainer(load_config("configs/yonkai_no_yokai/quick.yaml", TINY, out=str(out)))
    code = yokai_main(["train", "--resume", "--out", str(out), "--set", "training.total_timesteps=512"])
    assert code == 0
    state = json.loads((out / "state.json").read_text())
    assert state["timesteps"] == 512 and state["sessions"] == 2
    assert (out / "logs" / "resume_1" / "progress.csv").exists()

    # --overwrite starts afresh (and refuses to delete a folder that holds no run).
    code = yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--out", str(out), "--overwrite",
                       *[arg for item in TINY for arg in ("--set", item)]])
    assert code == 0 and json.loads((out / "state.json").read_text())["sessions"] == 1
    (tmp_path / "not_a_run").mkdir()
    (tmp_path / "not_a_run" / "notes.txt").write_text("keep me")
    assert yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--overwrite",
                       "--out", str(tmp_path / "not_a_run")]) == 2
    assert (tmp_path / "not_a_run" / "notes.txt").exists()


def test_policy_opponents_are_loaded_once_per_process(tmp_path):
    from sb3_contrib import MaskablePPO

    from agents.policy import save_checkpoint

    env = yokai_envs.training.make_gym(YONKAI, opponents=["random"], num_players=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]}, device="cpu")
    spec = f"policy:{save_checkpoint(model, tmp_path / 'snap', YONKAI, {'num_players': 4})}"
    envs = [yokai_envs.training.make_gym(YONKAI, opponents=[spec], num_players=4, learner_seat=0) for _ in range(2)]
    for e in envs:
        e.reset(seed=0)
    seated = {id(a) for e in envs for a in e._seat_agents if a is not None}
    assert len(seated) == 1
    envs[0].set_opponent_pool(["random"])
    envs[0].reset()
    assert all(type(a).__name__ == "RandomAgent" for a in envs[0]._seat_agents if a is not None)


def test_gym_policy_round_trip_through_policy_spec(tmp_path):
    from sb3_contrib import MaskablePPO

    from agents.policy import save_checkpoint

    env = yokai_envs.training.make_gym(YONKAI, opponents=["random"], num_players=3)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]}, seed=0,
                        device="cpu")
    path = save_checkpoint(model, tmp_path / "m", YONKAI, {"num_players": 3})
    agent = agents.make(f"policy:{path}", YONKAI, {"num_players": 3})
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert agent.act(obs, mask) == int(expected)
    assert np.isfinite(agent.action_probabilities(obs, mask)).all()


def test_check_flag_prints_the_resolved_config(capsys):
    assert yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--check",
                       "--set", "training.seed=7"]) == 0
    printed = yaml.safe_load(capsys.readouterr().out)
    assert printed["training"]["seed"] == 7


def test_cli_reports_config_errors(capsys):
    assert yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--set", "trainng.seed=1"]) == 2
    assert "trainng: unknown key (did you mean 'training'?)" in capsys.readouterr().err


def test_keys_lists_every_config_key(capsys):
    assert yokai_main(["train", "--keys"]) == 0
    out = capsys.readouterr().out
    for key in ("game.env_id", "opponents.self_play.pool_size", "evaluation.best_by", "output.dir"):
        assert key in out


def test_resume_needs_a_run_to_continue(tmp_path):
    with pytest.raises(ConfigError, match=r"has no checkpoints/resume\.safetensors to continue from"):
        Trainer(load_config("configs/yonkai_no_yokai/quick.yaml", TINY, out=str(tmp_path / "empty")), resume=True)


@pytest.mark.slow
def test_evaluation_search_reports_the_network_with_its_search(tmp_path):
    out = tmp_path / "run"
    code = yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--out", str(out),
                       *[arg for item in [*TINY, "evaluation.search=iterations=4", "evaluation.search_games=4"]
                         for arg in ("--set", item)]])
    assert code == 0
    report = json.loads((out / "eval.json").read_text())
    assert report["search"]["spec"] == f"trained:{out / 'model.safetensors'};iterations=4"
    assert set(report["search"]["results"]) == set(report["results"])
    row = report["search"]["results"]["random"]
    assert row["games"] >= 4 and 0.0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1.0
    state = json.loads((out / "state.json").read_text())
    assert state["search_evaluation"]["results"] == report["search"]["results"]


def test_evaluation_search_is_checked_with_the_config():
    with pytest.raises(ConfigError, match=r"evaluation\.search"):
        load_config("configs/yonkai_no_yokai/quick.yaml", overrides=["evaluation.search=depth=3"])
