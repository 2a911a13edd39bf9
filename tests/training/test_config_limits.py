"""``--check`` refuses every config that would crash, hang or exhaust memory
later, naming the key and the value; the YAML reader refuses what YAML lets through silently."""

from __future__ import annotations

import time

import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.core.errors import ConfigError
from yokai_envs.registry import make_game
from yokai_envs.training.common import memory as memory_module
from yokai_envs.training.common.config import load_config
from yokai_envs.training.common.memory import estimate_memory
from yokai_envs.training.common.yaml_io import MAX_YAML_NODES

QUICK = "configs/yonkai_no_yokai/quick.yaml"


def _refused(overrides: list[str], message: str) -> str:
    with pytest.raises(ConfigError, match=message) as info:
        load_config(QUICK, overrides)
    return str(info.value)


@pytest.mark.parametrize(("override", "message"), [
    ("algorithm.hyperparameters.learning_rate=-0.001", r"learning_rate: must be in \(0, 1\], got -0.001"),
    ("algorithm.hyperparameters.learning_rate=0", r"learning_rate: must be in \(0, 1\], got 0.0"),
    ("algorithm.hyperparameters.learning_rate=.nan", "learning_rate: must be a finite number"),
    ("algorithm.hyperparameters.gamma=1.5", r"gamma: must be in \[0, 1\], got 1.5"),
    ("algorithm.hyperparameters.gamma=-0.1", r"gamma: must be in \[0, 1\]"),
    ("algorithm.hyperparameters.gae_lambda=2", r"gae_lambda: must be in \[0, 1\], got 2.0"),
    ("algorithm.hyperparameters.clip_range=0", r"clip_range: must be in \(0, 1\], got 0.0"),
    ("algorithm.hyperparameters.clip_range=-0.2", r"clip_range: must be in \(0, 1\]"),
    ("algorithm.hyperparameters.ent_coef=-1", r"ent_coef: must be in \[0, 1\], got -1.0"),
    ("algorithm.hyperparameters.ent_coef=.inf", "ent_coef: must be a finite number"),
    ("algorithm.hyperparameters.vf_coef=-1", r"vf_coef: must be in \[0, inf\)"),
    ("algorithm.hyperparameters.max_grad_norm=0", r"max_grad_norm: must be in \(0, inf\)"),
    ("algorithm.hyperparameters.target_kl=-0.01", r"target_kl: must be in \(0, inf\)"),
    ("algorithm.hyperparameters.batch_size=1", r"batch_size: must be in \[2, 1e\+07\], got 1"),
    ("algorithm.hyperparameters.n_steps=1000000000", r"n_steps: must be in \[1, 1e\+07\], got 1000000000"),
    ("algorithm.hyperparameters.n_steps=1e9", "n_steps: must be a positive int, got str '1e9'"),
    ("training.n_envs=100000", "training.n_envs: must be <= 1024, got 100000"),
    ("algorithm.network.net_arch=[100000, 100000]", r"net_arch\[0\]: must be <= 65536, got 100000"),
    ("opponents.bots=[{spec: random, weight: .nan}]", r"weight: must be a finite number"),
    ("pretrain.learning_rate=0", "pretrain.learning_rate: must be >= 1e-12"),
])
def test_out_of_range_values_are_refused(override, message):
    _refused([override], message)


def test_check_flag_refuses_them_too(capsys):
    code = yokai_main(["train", "--config", QUICK, "--check", "--set", "algorithm.hyperparameters.gamma=7"])
    assert code == 2
    assert "algorithm.hyperparameters.gamma: must be in [0, 1], got 7.0" in capsys.readouterr().err


def test_memory_is_estimated_before_anything_starts(monkeypatch):
    # 4,096 steps x 1,024 envs of rollout and two 65,536-wide layers: far beyond this machine.
    big = ["training.n_envs=1024", "algorithm.hyperparameters.n_steps=4096",
           "algorithm.network.net_arch=[65536, 65536]"]
    message = _refused(big, r"memory: this config needs at least .* GiB \(rollout buffer .* GiB, network .* GiB")
    assert "this machine has" in message and "available" in message
    # The estimate comes from the config and the game's sizes, and grows with every part.
    config = load_config(QUICK)
    game = make_game("yonkai_no_yokai_v1", num_players=4)
    base = estimate_memory(config, game)
    config["training"]["n_envs"] *= 2
    assert estimate_memory(config, game)["rollout buffer"] == 2 * base["rollout buffer"]
    # A machine with little memory refuses the quick config itself, saying how much it has.
    monkeypatch.setattr(memory_module, "available_memory", lambda: 1024 * 1024)
    _refused([], r"and this machine has 1 MiB available")


def _write(tmp_path, data: bytes):
    path = tmp_path / "cfg.yaml"
    path.write_bytes(data)
    return path


def test_a_non_utf8_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match=r"cfg\.yaml: not UTF-8 text \(byte 7"):
        load_config(_write(tmp_path, b"game: {\xff\xfe}\n"))


def test_duplicate_keys_are_refused(tmp_path):
    text = b"game:\n  env_id: yonkai_no_yokai_v1\ntraining:\n  total_timesteps: 10\ntraining:\n  seed: 3\n"
    with pytest.raises(ConfigError, match=r"duplicate key 'training' \(first at line 3"):
        load_config(_write(tmp_path, text))
    with pytest.raises(ConfigError, match="duplicate key 'seed'"):
        load_config(QUICK, ["training={seed: 1, seed: 2}"])


def test_an_alias_bomb_is_refused_quickly(tmp_path):
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for name, prev in zip("bcdefghi", "abcdefgh", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    bomb = ("\n".join(lines) + "\n").encode()
    assert len(bomb) < 400
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=f"expands to more than {MAX_YAML_NODES:,} YAML nodes"):
        load_config(_write(tmp_path, bomb))
    assert time.perf_counter() - started < 2.0
    with pytest.raises(ConfigError, match="recursive alias"):
        load_config(_write(tmp_path, b"game: &g {env_id: yonkai_no_yokai_v1, again: *g}\n"))


def test_small_aliases_and_merge_keys_still_work(tmp_path):
    text = (b"game: {env_id: yonkai_no_yokai_v1, options: &opts {num_players: 4}}\n"
            b"training: {total_timesteps: 1000}\noutput: &out {csv: true}\n")
    assert load_config(_write(tmp_path, text))["game"]["options"] == {"num_players": 4}


@pytest.mark.parametrize("out", ["/dev/null/x", "/proc/version/run"])
def test_an_output_dir_that_cannot_be_written_fails_before_training(out, capsys, tmp_path):
    with pytest.raises(ConfigError, match=f"output.dir {out}: cannot hold the run: .* is not a folder"):
        load_config(QUICK, out=out)
    assert yokai_main(["train", "--config", QUICK, "--out", out, "--check"]) == 2
    assert "cannot hold the run" in capsys.readouterr().err


def test_python_tags_are_refused(tmp_path):
    text = b"game: !!python/object/apply:os.system ['echo hacked']\ntraining: {total_timesteps: 10}\n"
    with pytest.raises(ConfigError, match="not valid YAML: could not determine a constructor"):
        load_config(_write(tmp_path, text))


@pytest.mark.parametrize(("override", "message"), [
    ("evaluation.games=99999999999999999999", r"evaluation\.games: must be <= 10000000, got 99999999999"),
    ("evaluation.final_games=10000001", r"evaluation\.final_games: must be <= 10000000"),
    ("training.total_timesteps=99999999999999999999", r"training\.total_timesteps: must be <= 1,000,000,000,000"),
    ("output.checkpoint_every=" + "9" * 400, r"output\.checkpoint_every: must be <= .* \(400 digits\)"),
    # the network and the algorithm's own arguments
    ("algorithm.network.net_arch=[99999999999]", r"net_arch\[0\]: must be <= 65536, got 99999999999"),
    ("algorithm.network.net_arch=[" + ",".join(["64"] * 3000) + "]", r"net_arch: at most 64 entries, got 3,000"),
    ("algorithm.network.vf=[" + ",".join(["8"] * 65) + "]", r"network\.vf: at most 64 entries, got 65"),
    ("algorithm.hyperparameters.n_steps=1000000000000", r"n_steps: must be in \[1, 1e\+07\], got 1000000000000"),
    ("algorithm.hyperparameters.batch_size=" + "9" * 400,
     r"batch_size: must be in \[2, 1e\+07\], got .* \(400 digits\)"),
    ("algorithm.hyperparameters.stats_window_size=10000000000000",
     r"stats_window_size: must be <= 1,000,000,000,000 \(no count"),
    ("algorithm.hyperparameters.learning_rate=" + "9" * 400,
     r"learning_rate: must be a finite number, got .* \(400 digits\)"),
    ("algorithm.hyperparameters.n_steps=" + "9" * 5000,
     r"--set algorithm\.hyperparameters\.n_steps: an integer of 5,000 digits; no setting takes one of more than 1,000"),
    ("rllib.num_env_runners=99999999999", r"rllib\.num_env_runners: must be <= 1024, got 99999999999"),
])
def test_absurd_integers_fail_the_check(override, message, capsys):
    _refused([override], message)
    assert yokai_main(["train", "--config", QUICK, "--check", "--set", override]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err) < 2000


def test_an_integer_too_long_to_read_names_its_key_in_a_file(tmp_path):
    text = f"game:\n  env_id: yonkai_no_yokai_v1\nalgorithm:\n  network:\n    net_arch: [64, {'9' * 5000}]\n"
    with pytest.raises(ConfigError, match=r"cfg\.yaml: algorithm\.network\.net_arch\[1\]: an integer of 5,000 digits; "
                                          r"no setting takes one of more than 1,000 \(line 5\)"):
        load_config(_write(tmp_path, text.encode()))
