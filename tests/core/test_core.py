"""The core: registry, options, errors, the AEC adapter's rewards, the CLI and the benchmark."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import yokai_envs
from yokai_envs.cli import main
from yokai_envs.core.errors import IllegalActionError
from yokai_envs.registry import live_id


def test_env_ids_are_versioned() -> None:
    assert "yonkai_no_yokai_v1" in yokai_envs.ENV_IDS
    assert all(env_id.rsplit("_v", 1)[1].isdigit() for env_id in yokai_envs.ENV_IDS)


def test_unknown_env_id_suggests_the_closest() -> None:
    with pytest.raises(ValueError, match="did you mean 'yonkai_no_yokai_v1'"):
        yokai_envs.make("yonkai_no_yokai")


def test_bad_env_options_are_named() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        yokai_envs.make("yonkai_no_yokai_v1", illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        yokai_envs.make("yonkai_no_yokai_v1", render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_steps"):
        yokai_envs.make("yonkai_no_yokai_v1", max_steps=0)


def test_illegal_action_error_names_action_seat_and_phase() -> None:
    game = yokai_envs.make_game("yonkai_no_yokai_v1")
    game.reset(seed=0)
    with pytest.raises(IllegalActionError) as info:
        game.step(0)  # the leader cannot pass
    message = str(info.value)
    assert "0 (pass)" in message and f"seat {game.current_player}" in message and "'lead'" in message
    assert isinstance(info.value, ValueError)


def test_env_module_pair_and_metadata() -> None:
    from yokai_envs.yonkai_no_yokai import env as module

    raw = module.raw_env()
    assert raw.metadata["name"] == live_id("yonkai_no_yokai")
    assert set(raw.metadata["render_modes"]) == {"ansi", "human"}
    wrapped = module.env(num_players=3)
    assert wrapped.unwrapped.game.num_players == 3
    assert "hand" in wrapped.unwrapped.observation_layout


def test_intermediate_rewards_reach_the_right_agents() -> None:
    # reward="lives": rewards arrive at every round end, not only at the game end
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=3, reward="lives")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    seen_before_end = False
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        game = env.unwrapped.game
        if not game.is_over and any(env.unwrapped._cumulative_rewards.values()):
            seen_before_end = True
    game = env.unwrapped.game
    assert seen_before_end
    assert [totals[a] for a in env.possible_agents] == [-(4 - c) for c in game.cubes]


def test_state_is_the_full_state_tensor() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1")
    env.reset(seed=1)
    assert np.array_equal(env.state(), env.unwrapped.game.state_tensor())
    assert env.state_space.shape == env.state().shape


def test_render_modes() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1", render_mode="ansi")
    env.reset(seed=0)
    assert "player 0" in env.render()
    quiet = yokai_envs.make("yonkai_no_yokai_v1")
    quiet.reset(seed=0)
    assert quiet.render() is None


def test_reset_without_seed_after_a_seeded_reset_is_reproducible() -> None:
    def two_games() -> list[bytes]:
        env = yokai_envs.make("yonkai_no_yokai_v1")
        env.reset(seed=9)
        first = env.unwrapped.game.state_tensor().tobytes()
        env.reset()
        return [first, env.unwrapped.game.state_tensor().tobytes()]

    a, b = two_games(), two_games()
    assert a == b and a[0] != a[1]


HEAVY_OR_ABOVE = ("pettingzoo", "gymnasium", "torch", "yokai_envs.training", "yokai_envs.cli", "agents")


def test_import_is_light() -> None:
    code = ("import sys, yokai_envs; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY_OR_ABOVE!r} or m.startswith("
            f"{HEAVY_OR_ABOVE!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"importing yokai_envs must not import torch, gym, training code or bots: {out}"


@pytest.mark.parametrize(("statement", "new_place"), [
    ("import yokai_envs.gym_env", "yokai_envs.training.gym_env"),
    ("from yokai_envs import make_gym", "yokai_envs.training.make_gym"),
    ("import yokai_envs; yokai_envs.make_vec_gym", "yokai_envs.training.make_vec_gym"),
])
def test_retired_names_say_where_they_moved(statement: str, new_place: str) -> None:
    code = f"import sys\ntry:\n    {statement}\nexcept ImportError as error:\n    print(error)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "retired" in out and new_place in out


def test_rules_modules_never_import_gym() -> None:
    code = ("import sys, yokai_envs; g = yokai_envs.make_game('yonkai_no_yokai_v1'); g.reset(0); "
            "print(any(m.startswith(('pettingzoo', 'gymnasium')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_cli_list_and_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert "yonkai_no_yokai_v1" in capsys.readouterr().out
    assert main(["demo", "--agents", "random", "--seed", "3", "--quiet"]) == 0
    assert "returns:" in capsys.readouterr().out


def test_bench_writes_a_table_and_json(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "--seconds", "0.2", "--no-peers", "--json", str(out)]) == 0
    assert "| yonkai_no_yokai_v1 |" in capsys.readouterr().out
    rows = json.loads(out.read_text())
    assert rows[0]["aec_steps_per_s"] > 0 and rows[0]["raw_decisions_per_s"] > 0 and rows[0]["memory_kb"] > 0


def test_bench_repeat_reports_medians_and_per_round_ratios(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from yokai_envs.cli import bench

    out = tmp_path / "bench.json"
    assert main(["bench", "--seconds", "0.1", "--no-peers", "--env", "onmyoji_v5", "--vector", "0",
                 "--repeat", "2", "--json", str(out)]) == 0
    assert "medians of 2 interleaved rounds" in capsys.readouterr().out
    assert json.loads(out.read_text())[0]["rounds"] == 2
    with pytest.raises(SystemExit) as refused:  # argparse: one line naming --repeat, exit 2
        main(["bench", "--seconds", "0.1", "--no-peers", "--repeat", "0"])
    assert refused.value.code == 2 and "argument --repeat: must be a positive integer" in capsys.readouterr().err

    def round_rows(ours: float, leduc: float) -> list[dict]:
        return [{"env": "x_v0", "kind": "yokai-envs", "aec_steps_per_s": ours, "raw_decisions_per_s": None},
                {"env": "pettingzoo leduc_holdem_v4", "kind": "peer", "aec_steps_per_s": leduc}]

    rounds = [round_rows(100, 50), round_rows(300, 100), round_rows(90, 60)]  # ratios 2.0, 3.0, 1.5
    merged = bench.median_rows(rounds)
    assert merged[0]["aec_steps_per_s"] == 100 and merged[1]["aec_steps_per_s"] == 60
    (line,) = bench.ratios(merged, rounds)
    assert "2.00x leduc (1.50-3.00)" in line and "n/a texas" in line


def test_a_retired_env_id_is_refused_naming_its_successor(monkeypatch) -> None:
    import yokai_envs
    from yokai_envs import registry

    monkeypatch.setitem(registry.RETIRED, "yokaizo_v1", ("yokaizo_v2", "rules changed"))
    for build in (yokai_envs.make, yokai_envs.make_game):
        with pytest.raises(ValueError, match=r"'yokaizo_v1' was retired: rules changed; use 'yokaizo_v2'"):
            build("yokaizo_v1")
