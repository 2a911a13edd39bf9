"""Training hooks: reward and wrappers by import path, pi/vf net shapes, skipping forced
decisions, per-opponent training curves."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.training import custom_reward
from yokai_envs.core.errors import ConfigError
from yokai_envs.registry import ENV_IDS
from yokai_envs.training.common.config import load_config

YONKAI = next(e for e in ENV_IDS if e.startswith("yonkai_no_yokai_v"))
DUEL = next(e for e in ENV_IDS if e.startswith("onmyoji_v"))
TINY = ["training.total_timesteps=128", "training.n_envs=2", "algorithm.hyperparameters.n_steps=32",
        "algorithm.hyperparameters.batch_size=32", "algorithm.hyperparameters.n_epochs=1",
        "algorithm.network.net_arch=[8]", "evaluation.every=0", "evaluation.games=2",
        "evaluation.final_games=4", "output.checkpoint_every=128", "output.progress_bar=false",
        "output.tensorboard=false", f"game.env_id={YONKAI}", "game.options={num_players: 3, rounds_per_game: 1}",
        "opponents.bots=[{spec: random, weight: 1}, {spec: heuristic, weight: 1}]"]
CONFIG = "configs/yonkai_no_yokai/quick.yaml"


def test_bad_hooks_are_config_errors(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(CONFIG, [*TINY, "reward=tests.training.custom_reward:nope",
                             "env.wrappers=[no_such_module:Thing, tests.training.custom_reward:win_bonus]"],
                    out=str(tmp_path / "run"))
    text = str(err.value)
    assert "reward: module 'tests.training.custom_reward' has no 'nope'" in text
    assert "env.wrappers[0]: cannot import module 'no_such_module'" in text
    assert "env.wrappers[1]: 'tests.training.custom_reward:win_bonus' is not a gymnasium.Wrapper subclass" in text


def test_a_wrapper_that_changes_the_spaces_is_refused():
    from yokai_envs.training.algorithms.ppo import make_training_env

    with pytest.raises(ConfigError, match="changes the observation or action space"):
        make_training_env(YONKAI, False, wrappers=("tests.training.custom_reward:FlattenTwice",),
                          opponents=["random"], num_players=3)


def test_reward_hook_sees_the_game_and_replaces_the_reward():
    from yokai_envs.training.algorithms.ppo import make_training_env

    env = make_training_env(YONKAI, False, reward_hook="tests.training.custom_reward:Potential",
                            wrappers=("tests.training.custom_reward:CountSteps",), opponents=["random"],
                            num_players=3, rounds_per_game=1)
    env.reset(seed=1)
    done, steps = False, 0
    while not done:
        mask = env.get_wrapper_attr("action_masks")()
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        assert reward == pytest.approx(info["default_reward"] - 0.001)
        done, steps = terminated or truncated, steps + 1
    assert env.get_wrapper_attr("counted") == steps
    assert env.get_wrapper_attr("hook").episodes == 1


def test_skip_forced_plays_the_forced_decisions():
    import yokai_envs.training

    plain = yokai_envs.training.make_gym(DUEL, opponents=["random"], learner_seat=0)
    skipping = yokai_envs.training.make_gym(DUEL, opponents=["random"], learner_seat=0, skip_forced=True)
    counts = []
    for env in (plain, skipping):
        env.reset(seed=4)
        forced = decisions = 0
        done = False
        while not done:
            mask = env.action_masks()
            forced += int(mask.sum() == 1)
            decisions += 1
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[-1]))
            done = terminated or truncated
        counts.append((decisions, forced, info["skipped"], info["returns"]))
    (plain_steps, plain_forced, _, plain_returns), (skip_steps, skip_forced, skipped, skip_returns) = counts
    assert plain_forced > 0 and skip_forced == 0
    assert skipped == plain_forced and skip_steps == plain_steps - plain_forced  # the same game, fewer steps
    assert skip_returns == plain_returns


@pytest.mark.slow
def test_tiny_run_with_a_custom_reward_split_nets_and_per_opponent_curves(tmp_path):
    from yokai_envs.training.algorithms.ppo import Trainer

    custom_reward.CALLS.clear()
    out = tmp_path / "run"
    config = load_config(CONFIG, [*TINY, "reward=tests.training.custom_reward:win_bonus",
                                  "env.wrappers=[tests.training.custom_reward:CountSteps]", "env.skip_forced=true",
                                  "algorithm.network.pi=[16, 8]", "algorithm.network.vf=[4]"], out=str(out))
    report = Trainer(config, progress=False).run()
    assert custom_reward.CALLS, "the reward module was called by the training run"
    assert any(done for _, _, done in custom_reward.CALLS)
    assert 0.0 <= report["results"]["random"]["win_rate"] <= 1.0  # the arena evaluation is kept
    for name in ("model.safetensors", "best_model.safetensors", "checkpoints/latest.safetensors", "eval.json",
                 "learning_curve.png"):
        assert (out / name).exists(), name
    state = json.loads((out / "state.json").read_text())
    curves = state["opponent_curves"]
    assert set(curves) <= {"random", "heuristic"} and curves
    for points in curves.values():
        step, _reward, win, episodes = points[-1]
        assert step > 0 and 0.0 <= win <= 1.0 and episodes >= 1
    import agents

    policy = agents.make(f"policy:{out / 'model.safetensors'}", YONKAI, {"num_players": 3, "rounds_per_game": 1})
    arch = policy.policy.net_arch
    assert arch == {"pi": [16, 8], "vf": [4]}


def test_a_game_option_called_reward_reaches_the_game_beside_a_reward_hook():
    # Yonkai's own option `reward` once landed in the reward-hook parameter ("not an import path")
    from yokai_envs.training.algorithms.ppo import make_training_env

    env = make_training_env(YONKAI, False, reward="lives", opponents=["random"], num_players=3)
    env.reset(seed=1)
    assert env.unwrapped.game.options["reward"] == "lives"
    hooked = make_training_env(YONKAI, False, reward_hook="tests.training.custom_reward:Potential", reward="lives",
                               opponents=["random"], num_players=3)
    hooked.reset(seed=1)
    assert hooked.unwrapped.game.options["reward"] == "lives" and hooked.get_wrapper_attr("hook") is not None


def test_check_imports_no_module_the_config_names(tmp_path, capsys):
    """``reward: pkg.mod:x`` runs pkg.mod's code when imported; ``yokai train --check`` checks the
    path's form and that its top-level package exists, and imports nothing (training imports it)."""
    import sys

    from yokai_envs.cli import main as yokai_main

    package = tmp_path / "noisy_hook"
    package.mkdir()
    marker = tmp_path / "imported"
    (package / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (package / "hooks.py").write_text("def bonus(game, seat, reward, done):\n    return reward\n")
    sys.path.insert(0, str(tmp_path))
    try:
        args = ["train", "--config", CONFIG, "--out", str(tmp_path / "run"), "--check",
                *[a for item in TINY for a in ("--set", item)]]
        assert yokai_main([*args, "--set", "reward=noisy_hook.hooks:bonus"]) == 0
        assert not marker.exists() and "noisy_hook" not in sys.modules
        for bad, message in (("this:x", None), ("not a path", "is not an import path"),
                             ("nowhere_at_all.mod:x", "cannot import module 'nowhere_at_all'")):
            code = yokai_main([*args, "--set", f"reward={bad}"])
            err = capsys.readouterr().err
            assert (code == 0) if message is None else (code == 2 and message in err), err
        assert "this" not in sys.modules
        with pytest.raises(ConfigError, match=r"module 'noisy_hook\.hooks' has no 'nope'"):
            load_config(CONFIG, [*TINY, "reward=noisy_hook.hooks:nope"], out=str(tmp_path / "run"))
        assert marker.exists()  # a real run (load_config without --check) imports it
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("noisy_hook.hooks", None)
        sys.modules.pop("noisy_hook", None)
