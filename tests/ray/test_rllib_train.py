"""``backend: rllib``: config checks, and a tiny RLlib run on Yonkai end to end (run folder,
evaluation through the arena, the policy as an ``rllib:`` agent, resume)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

import agents
from agents.policy import CheckpointError
from yokai_envs.cli import main as yokai_main
from yokai_envs.core.errors import ConfigError
from yokai_envs.training.common.config import load_config

YONKAI = "yonkai_no_yokai_v1"
QUICK = "configs/yonkai_no_yokai/quick.yaml"
TINY = ["training.total_timesteps=1200", "training.n_envs=2", "algorithm.hyperparameters.n_steps=200",
        "algorithm.hyperparameters.batch_size=200", "algorithm.hyperparameters.n_epochs=2",
        "algorithm.network.net_arch=[32]", "evaluation.every=800", "evaluation.games=4",
        "evaluation.final_games=8", "output.checkpoint_every=400", "output.progress_bar=false",
        "opponents.self_play.enabled=true", "opponents.self_play.snapshot_every=400",
        "opponents.self_play.pool_size=2", "rllib.num_env_runners=1"]


def sets(items):
    return [arg for item in items for arg in ("--set", item)]


# ---------------------------------------------------------------------- config (no Ray needed)
def test_backend_key_is_validated_with_a_suggestion():
    with pytest.raises(ConfigError, match=r"backend: 'rlib' is not valid \(did you mean 'rllib'\?\)"):
        load_config(QUICK, ["backend=rlib"])
    config = load_config(QUICK, ["backend=rllib", "rllib.num_env_runners=2"])
    assert config["backend"] == "rllib" and config["rllib"]["num_env_runners"] == 2
    assert load_config(QUICK)["backend"] == "sb3"  # the default stays the SB3 path


def test_train_cli_backend_flag(capsys):
    assert yokai_main(["train", "--config", QUICK, "--backend", "rllib", "--check"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["backend"] == "rllib"
    assert yokai_main(["train", "--config", QUICK, "--backend", "rllib", "--ray-address", "127.0.0.1:6379",
                       "--check"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["rllib"]["address"] == "127.0.0.1:6379"


def test_rllib_backend_refuses_what_it_cannot_do():
    pytest.importorskip("stable_baselines3")
    from yokai_envs.training.rllib_backend.trainer import check_rllib_config

    config = load_config(QUICK, ["backend=rllib", "algorithm.hyperparameters.normalize_advantage=false"])
    with pytest.raises(ConfigError, match="normalize_advantage: not supported by the rllib backend; supported: "):
        check_rllib_config(config)
    coop = load_config("configs/onmyoji/coop_quick.yaml", ["backend=rllib"])
    with pytest.warns(UserWarning, match="critic_state is ignored"):
        check_rllib_config(coop)


def test_missing_ray_is_a_clear_error(monkeypatch, tmp_path, capsys):
    import importlib.util

    pytest.importorskip("stable_baselines3")
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args, **kwargs: None if name == "ray" else find_spec(name, *args, **kwargs))
    code = yokai_main(["train", "--config", QUICK, "--backend", "rllib", "--out", str(tmp_path / "run")])
    assert code == 2
    assert "backend: rllib needs ray[rllib]: pip install 'yokai-envs[ray]'" in capsys.readouterr().err


def test_hyperparameters_translate_to_rllib_ppo():
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")
    from yokai_envs.training.rllib_backend.trainer import build_algorithm_config

    config = load_config(QUICK, ["backend=rllib", "algorithm.hyperparameters.target_kl=0.02",
                                 "rllib.num_env_runners=2", "opponents.self_play.enabled=true",
                                 "opponents.self_play.pool_size=3"])
    algo_config = build_algorithm_config(config)
    hyper = config["algorithm"]["hyperparameters"]
    assert algo_config.lr == hyper["learning_rate"] and algo_config.num_epochs == hyper["n_epochs"]
    assert algo_config.minibatch_size == hyper["batch_size"] and algo_config.lambda_ == hyper["gae_lambda"]
    assert algo_config.entropy_coeff == hyper["ent_coef"]
    assert algo_config.train_batch_size_per_learner == hyper["n_steps"] * config["training"]["n_envs"]
    assert algo_config.num_env_runners == 2 and algo_config.num_envs_per_env_runner == 4
    assert algo_config.use_kl_loss and algo_config.kl_target == 0.02
    assert set(algo_config.policies) == {"learner", "snapshot_0", "snapshot_1", "snapshot_2"}
    assert algo_config.policies_to_train == ["learner"]


# ---------------------------------------------------------------------- a tiny run
@pytest.fixture(scope="module")
def tiny_run(ray_local, tmp_path_factory):
    pytest.importorskip("ray.rllib")
    out = tmp_path_factory.mktemp("rllib") / "run"
    code = yokai_main(["train", "--config", QUICK, "--backend", "rllib", "--out", str(out), *sets(TINY)])
    assert code == 0
    return out


@pytest.mark.slow
def test_tiny_rllib_run_end_to_end(tiny_run):
    out = tiny_run
    for name in ("config.yaml", "state.json", "model/yokai_meta.json", "best_model/rl_module",
                 "checkpoints/latest/rl_module", "checkpoints/algorithm", "learning_curve.png", "eval.json",
                 "logs/progress.csv"):
        assert (out / name).exists(), name
    assert list((out / "logs").glob("events.out.tfevents.*"))
    state = json.loads((out / "state.json").read_text())
    assert state["finished"] and state["timesteps"] >= 1200
    assert [e["step"] for e in state["evaluations"]][:2] == [0, state["evaluations"][1]["step"]]
    assert len(state["snapshots"]) >= 2 and sorted(state["snapshot_slots"]) == [0, 1]
    assert state["rewards"]
    report = json.loads((out / "eval.json").read_text())
    assert report["backend"] == "rllib" and report["policy"] == f"rllib:{out / 'model'}"
    row = report["results"]["random"]
    assert row["games"] >= 8 and 0.0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1.0
    assert "eval/win_rate_random" in (out / "logs" / "progress.csv").read_text().splitlines()[0]


@pytest.mark.slow
def test_trained_policy_is_an_arena_agent(tiny_run):
    from agents.arena import run_match

    spec = f"rllib:{tiny_run / 'model'};trusted=true"
    agent = agents.make(spec, YONKAI, {"num_players": 4}, seed=0)
    from yokai_envs.registry import make_game

    game = make_game(YONKAI, num_players=4)
    game.reset(0)
    for _ in range(30):
        if game.is_over:
            break
        mask = game.legal_action_mask()
        action = agent.act(game.observation(game.current_player), mask)
        assert mask[action]
        probs = agent.action_probabilities(game.observation(game.current_player), mask)
        assert np.isclose(probs.sum(), 1.0) and np.all(probs[~mask] == 0)
        game.step(action)
    result = run_match(YONKAI, ["random"], games=4, seed=0, env_options={"num_players": 4}, gauntlet=spec)
    assert result.row(spec)["games"] == 4
    with pytest.raises(CheckpointError, match="trained for 'yonkai_no_yokai_v1', not 'onmyoji_v5'"):
        agents.make(spec, "onmyoji_v5", {"mode": "duel"})
    with pytest.raises(CheckpointError, match="not an RLlib policy folder"):
        agents.make(f"rllib:{tiny_run}", YONKAI, {"num_players": 4})


@pytest.mark.slow
def test_resume_continues_the_rllib_run(tiny_run):
    from yokai_envs.core.signing import check_signed_folder

    # the run signed its checkpoint as it saved it: its own user resumes it without --trust-pickles
    assert check_signed_folder(tiny_run / "checkpoints" / "algorithm") is None
    code = yokai_main(["train", "--resume", "--out", str(tiny_run), "--set", "training.total_timesteps=1600"])
    assert code == 0
    state = json.loads((tiny_run / "state.json").read_text())
    assert state["sessions"] == 2 and state["timesteps"] >= 1600
    assert (tiny_run / "logs" / "resume_1" / "progress.csv").exists()
    assert agents.make(f"rllib:{tiny_run / 'model'}", YONKAI, {"num_players": 4}) is not None  # signed too


@pytest.mark.slow
def test_snapshot_copies_the_learner_into_every_env_runner(ray_local, tmp_path):
    """A self-play snapshot is the learner's weights at that moment, in the env runners that
    sample with it, and the envs start seating it."""
    from yokai_envs.training.rllib_backend.trainer import RLlibTrainer, build_algorithm_config

    config = load_config(QUICK, ["backend=rllib", "opponents.self_play.enabled=true",
                                 "opponents.self_play.pool_size=2", "rllib.num_env_runners=1", "training.n_envs=1",
                                 "algorithm.hyperparameters.n_steps=100", "algorithm.hyperparameters.batch_size=100",
                                 "algorithm.hyperparameters.n_epochs=1", "algorithm.network.net_arch=[16]"],
                         out=str(tmp_path / "run"))
    trainer = RLlibTrainer(config)
    trainer.folder.root.mkdir(parents=True)
    trainer.algo = build_algorithm_config(config).build_algo()
    try:
        trainer.algo.train()
        learner = trainer.algo.learner_group.get_state(
            components="learner/rl_module/learner")["learner"]["rl_module"]["learner"]

        def runner_view(runner):
            from yokai_envs.training.rllib_backend.env import _LIVE_ENVS  # the runner process's envs

            state = runner.module["snapshot_1"].get_state()
            return {k: np.asarray(v) for k, v in state.items()}, [list(env.filled_slots) for env in _LIVE_ENVS]

        before, _ = trainer.algo.env_runner_group.foreach_env_runner(runner_view, local_env_runner=False)[0]
        trainer.state["snapshots"].append("first")  # the next snapshot goes to slot 1
        trainer.snapshot(100)
        after, pools = trainer.algo.env_runner_group.foreach_env_runner(runner_view, local_env_runner=False)[0]
        shared = [k for k in after if k in learner and k.endswith("weight")]
        assert shared and all(np.allclose(after[k], np.asarray(learner[k])) for k in shared)
        assert not all(np.allclose(before[k], np.asarray(learner[k])) for k in shared)
        assert pools and all(pool == [1] for pool in pools)
    finally:
        trainer.algo.stop()


@pytest.mark.slow
def test_tiny_coop_run_shares_one_policy(ray_local, tmp_path):
    """Onmyoji Co-op: both seats are the learner (no opponents); the table compares its clear
    rate with the bots played alone, as on the SB3 path."""
    out = tmp_path / "coop"
    tiny = [item for item in TINY if not item.startswith("opponents.")]
    with pytest.warns(UserWarning, match="critic_state is ignored"):
        code = yokai_main(["train", "--config", "configs/onmyoji/coop_quick.yaml", "--backend", "rllib",
                           "--out", str(out), *sets([*tiny, "training.total_timesteps=400", "evaluation.every=0"])])
    assert code == 0
    report = json.loads((out / "eval.json").read_text())
    assert report["results"]["self"]["kind"] == "self"
    assert {row["kind"] for label, row in report["results"].items() if label != "self"} == {"reference"}
    coop = {"mode": "coop", "difficulty": 1}
    assert agents.make(f"rllib:{out / 'model'};trusted=true", "onmyoji_v5", coop) is not None
