"""The vectorized training env (make_vec_gym): learner rewards, seats, batched bots, SB3 and gymnasium."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import yokai_envs
import yokai_envs.training
from yokai_envs.core.errors import ConfigError

pytest.importorskip("numba")

YONKAI = "yonkai_no_yokai_v1"


def random_learner(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly drawn legal action per row."""
    scores = np.where(masks, rng.random(masks.shape), -1.0)
    return scores.argmax(axis=1)


def run_episodes(env: Any, episodes: int, seed: int = 0) -> list[dict[str, Any]]:
    """Random learner play until ``episodes`` episodes ended; checks each step's invariants and
    that the rewards of an episode add up to the learner's final return."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    n = env.core.num_players
    layout = env.core.game.observation_layout
    totals = np.zeros(env.num_envs)
    finished: list[dict[str, Any]] = []
    while len(finished) < episodes:
        masks = env.action_masks()
        assert masks.any(axis=1).all(), "a pending decision with no legal action"
        # the learner is always the one to act: its own seat (relative 0) in the to_act block
        assert (obs[:, layout["to_act"]] == np.eye(n)[0]).all()
        obs, reward, terminated, truncated, infos = env.step(random_learner(masks, rng))
        totals += reward
        ended = np.flatnonzero(terminated | truncated)
        if ended.size:  # gymnasium 1.x: a dict of arrays, each key masked by the envs that ended
            np.testing.assert_array_equal(np.flatnonzero(infos["_final_info"]), ended)
            assert isinstance(infos["final_info"], dict)
            assert all(infos["final_info"][f"_{key}"][ended].all() for key in ("returns", "win", "learner_seat"))
        for i in ended:
            final = {key: infos["final_info"][key][i] for key in ("returns", "learner_seat", "win", "opponents")}
            assert totals[i] == pytest.approx(final["returns"][final["learner_seat"]]), "rewards != return"
            assert not infos["final_obs"][i][layout["to_act"]].any()  # the game is over in the final obs
            totals[i] = 0.0
            finished.append(final)
    return finished


@pytest.mark.parametrize("options", [{"num_players": 4}, {"num_players": 3, "reward": "lives"}])
def test_episode_rewards_add_up_to_the_learners_return(options: dict[str, Any]) -> None:
    env = yokai_envs.training.make_vec_gym(YONKAI, num_envs=32, opponents=["random", "heuristic"], **options)
    finished = run_episodes(env, 100)
    seats = {f["learner_seat"] for f in finished}
    assert seats == set(range(options["num_players"]))  # the seat rotates
    assert all(set(f["opponents"]) <= {"random", "heuristic"} for f in finished)
    assert {lab for f in finished for lab in f["opponents"]} == {"random", "heuristic"}


def test_learner_seat_fixed_and_heuristic_bots_are_stronger_than_random_ones() -> None:
    rates = {}
    for bot in ("random", "heuristic"):
        env = yokai_envs.training.make_vec_gym(YONKAI, num_envs=64, opponents=[bot], learner_seat=2, seed=1)
        finished = run_episodes(env, 300, seed=1)
        assert {f["learner_seat"] for f in finished} == {2}
        rates[bot] = np.mean([f["win"] for f in finished])
    # a random learner wins about a quarter of its games against random bots, far fewer against heuristics
    assert 0.17 < rates["random"] < 0.33
    assert rates["heuristic"] < rates["random"] - 0.08


def test_sb3_vec_env_trains_maskable_ppo_and_gives_masks() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    venv = yokai_envs.training.make_vec_gym(YONKAI, num_envs=16, opponents=["heuristic"], api="sb3", seed=0)
    assert is_masking_supported(venv)
    venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (16, 49) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, n_epochs=1, seed=0, verbose=0)
    model.learn(16 * 32 * 2)
    assert model.num_timesteps == 16 * 32 * 2
    # episodes ended and were counted, with no VecMonitor added by the user
    assert len(model.ep_info_buffer) > 0
    assert all(set(info) >= {"r", "l", "t"} and info["l"] > 0 for info in model.ep_info_buffer)


def test_sb3_infos_carry_the_terminal_observation() -> None:
    venv = yokai_envs.training.make_vec_gym(YONKAI, num_envs=8, opponents=["random"], api="sb3", seed=3)
    venv.reset()
    rng = np.random.default_rng(0)
    ended = 0
    while ended < 5:
        venv.step_async(random_learner(venv.action_masks(), rng))
        obs, rewards, dones, infos = venv.step_wait()
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            assert infos[i]["TimeLimit.truncated"] is False
            assert rewards[i] in (-1.0, 1.0)
            ended += 1


def test_bad_input_is_refused() -> None:
    with pytest.raises(ConfigError, match="batched bots"):
        yokai_envs.training.make_vec_gym(YONKAI, num_envs=4, opponents=["ismcts"])
    with pytest.raises(ConfigError, match="needs at least one opponent"):
        yokai_envs.training.make_vec_gym(YONKAI, num_envs=4, opponents=[])
    with pytest.raises(ConfigError, match="no vectorized engine"):
        yokai_envs.training.make_vec_gym("yokaizo_v4", num_envs=4, opponents=["random"])
    with pytest.raises(ConfigError, match="api"):
        yokai_envs.training.make_vec_gym(YONKAI, num_envs=4, opponents=["random"], api="rllib")
    with pytest.raises(ConfigError, match="learner_seat"):
        yokai_envs.training.make_vec_gym(YONKAI, num_envs=4, opponents=["random"], learner_seat=4)
    env = yokai_envs.training.make_vec_gym(YONKAI, num_envs=4, opponents=["random"])
    env.reset(seed=0)
    with pytest.raises(yokai_envs.IllegalActionError):
        env.step(np.full(4, 48))  # not every learner can button-play 6666 right now


@pytest.mark.slow
def test_win_rates_match_the_scalar_env() -> None:
    """A random learner against heuristic bots wins as often in the vector env as in make_gym."""
    vector = np.mean([f["win"] for f in run_episodes(
        yokai_envs.training.make_vec_gym(YONKAI, num_envs=64, opponents=["heuristic"], seed=5), 600, seed=5)])
    env = yokai_envs.training.make_gym(YONKAI, opponents=["heuristic"])
    rng = np.random.default_rng(5)
    wins = []
    env.reset(seed=5)
    while len(wins) < 600:
        _, _, terminated, truncated, info = env.step(int(random_learner(env.action_masks()[None], rng)[0]))
        if terminated or truncated:
            wins.append(info["win"])
            env.reset()
    scalar = float(np.mean(wins))
    assert abs(vector - scalar) < 0.05, (vector, scalar)


def test_yaml_vec_env_vector_trains(tmp_path) -> None:
    from yokai_envs.cli import main as yokai_main

    out = tmp_path / "run"
    tiny = ["training.total_timesteps=256", "training.n_envs=16", "algorithm.hyperparameters.n_steps=16",
            "algorithm.hyperparameters.batch_size=64", "algorithm.hyperparameters.n_epochs=1",
            "algorithm.network.net_arch=[16]", "evaluation.every=0", "evaluation.final_games=4",
            "evaluation.workers=1", "output.progress_bar=false"]
    assert yokai_main(["train", "--config", "configs/yonkai_no_yokai/quick_vector.yaml", "--out", str(out),
                       *[arg for item in tiny for arg in ("--set", item)]]) == 0
    assert (out / "model.safetensors").exists()


def test_yaml_vec_env_vector_refuses_what_it_cannot_run() -> None:
    from yokai_envs.training.common.config import load_config

    with pytest.raises(ConfigError, match="batched bots"):
        load_config("configs/yonkai_no_yokai/quick_vector.yaml", ["opponents.bots=[ismcts]"])
    with pytest.raises(ConfigError, match="self_play"):
        load_config("configs/yonkai_no_yokai/quick_vector.yaml", ["opponents.self_play.enabled=true"])
    with pytest.raises(ConfigError, match="no vectorized engine"):
        load_config("configs/yokaizo/quick.yaml", ["training.vec_env=vector"])


@pytest.fixture(scope="module")
def untrained_model(tmp_path_factory) -> str:
    """A freshly initialised MaskablePPO policy for 4-player Yonkai, saved (a fixed, odd player)."""
    from sb3_contrib import MaskablePPO

    from agents.policy import save_checkpoint
    from yokai_envs.training.gym_env import make_gym

    env = make_gym(YONKAI, opponents=["random"], num_players=4)
    model = MaskablePPO("MlpPolicy", env, seed=3, policy_kwargs={"net_arch": [16]})

    path = save_checkpoint(model, tmp_path_factory.mktemp("untrained") / "model", YONKAI, {"num_players": 4})
    return str(path)


def test_vector_evaluation_counts_exactly_the_games_asked_and_agrees_with_the_arena(untrained_model) -> None:
    """evaluation.engine: vector gives the arena's row (fresh deals instead of duplicate ones):
    the same keys, exactly ``games`` games, every seat, and a win rate the arena's interval
    agrees with for the same network."""
    from yokai_envs.training.common.evaluate import evaluate_checkpoint, evaluate_vector

    options = {"num_players": 4}
    vector = evaluate_vector(untrained_model, YONKAI, options, ["random", "heuristic"], games=37, seed=1,
                             num_envs=8)
    arena = evaluate_checkpoint(untrained_model, YONKAI, options, ["random"], games=8, seed=1)
    assert set(vector) == {"random", "heuristic"}
    for row in vector.values():
        assert set(row) == set(arena["random"]) | {"engine"} and row["engine"] == "vector"
        assert row["games"] == 37 and row["ci_low"] <= row["win_rate"] <= row["ci_high"]
        assert all(rate is not None for rate in row["win_rate_by_seat"])
    assert vector["random"]["opponents"] == arena["random"]["opponents"] == "random + random + random"
    # the same network over 400 games on each engine: the two rates differ by less than 4 standard errors
    big = evaluate_vector(untrained_model, YONKAI, options, ["random"], games=400, seed=2)["random"]
    ref = evaluate_checkpoint(untrained_model, YONKAI, options, ["random"], games=400, seed=2)["random"]
    spread = (big["win_rate"] * (1 - big["win_rate"]) / 400 + ref["win_rate"] * (1 - ref["win_rate"]) / 400) ** 0.5
    assert abs(big["win_rate"] - ref["win_rate"]) < 4 * spread + 1e-9
    # sampled play is reproducible (drawn from the seed, not from torch)
    once = evaluate_vector(untrained_model, YONKAI, options, ["random"], games=40, seed=5, deterministic=False)
    again = evaluate_vector(untrained_model, YONKAI, options, ["random"], games=40, seed=5, deterministic=False)
    assert once == again


def test_vector_evaluation_config_is_checked() -> None:
    from yokai_envs.training.common.config import load_config

    with pytest.raises(ConfigError, match=r"evaluation.bots\[0\]: evaluation.engine: vector plays only batched"):
        load_config("configs/yonkai_no_yokai/quick_vector.yaml", ["evaluation.bots=[ismcts]"])
    with pytest.raises(ConfigError, match="no vectorized engine for yokaizo"):
        load_config("configs/yokaizo/quick.yaml", ["evaluation.engine=vector"])
    with pytest.raises(ConfigError, match=r"evaluation\.seats"):
        load_config("configs/yonkai_no_yokai/quick_vector.yaml", ["evaluation.seats=[0]"])
    with pytest.raises(ConfigError, match=r"evaluation\.engine"):
        load_config("configs/yonkai_no_yokai/quick_vector.yaml", ["evaluation.engine=gpu"])
