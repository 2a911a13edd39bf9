"""Config layering and validation: every error names its dotted path and the valid choices."""

from __future__ import annotations

import re

import pytest
import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.training.common.config import apply_override, game_name, load_config

QUICK = "configs/yonkai_no_yokai/quick.yaml"
MINIMAL = {"game": {"env_id": "yonkai_no_yokai_v1", "options": {"num_players": 4}},
           "training": {"total_timesteps": 1000}}


def write(tmp_path, data, name="cfg.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    return path


def errors_of(tmp_path, data, overrides=None) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, data), overrides)
    return str(info.value)


def test_defaults_layer_under_a_minimal_file(tmp_path):
    config = load_config(write(tmp_path, MINIMAL, "mini.yaml"))
    assert config["algorithm"]["name"] == "MaskablePPO"
    assert config["opponents"]["bots"] == [{"spec": "random", "weight": 1.0}]
    assert config["output"]["dir"] == "runs/yonkai_no_yokai/mini"


def test_ready_configs_validate():
    config = load_config(QUICK)
    assert config["game"]["env_id"] == "yonkai_no_yokai_v1"


@pytest.mark.parametrize("path", ["configs/yonkai_no_yokai/quick.yaml", "configs/yonkai_no_yokai/quick_vector.yaml",
                                  "configs/onmyoji/quick.yaml", "configs/yokaizo/quick.yaml",
                                  "configs/yyh_tcg/quick.yaml"])
def test_quick_configs_judge_the_policy_against_the_heuristic(path):
    evaluation = load_config(path)["evaluation"]
    assert evaluation["best_by"] == "heuristic" and "heuristic" in evaluation["bots"]


def test_unknown_key_gets_its_path_and_a_suggestion(tmp_path):
    data = {**MINIMAL, "algorithm": {"hyperparamters": {"n_steps": 64}}}
    message = errors_of(tmp_path, data)
    assert "algorithm.hyperparamters: unknown key (did you mean 'hyperparameters'?)" in message
    assert "valid keys: name, policy, hyperparameters, network" in message


def test_unknown_section_and_hyperparameter_and_game_option(tmp_path):
    data = {**MINIMAL, "trainig": {}, "algorithm": {"hyperparameters": {"learnig_rate": 0.1}}}
    data["game"] = {"env_id": "yonkai_no_yokai_v1", "options": {"num_player": 4}}
    message = errors_of(tmp_path, data)
    assert "trainig: unknown key (did you mean 'training'?)" in message
    assert "game.options.num_player: unknown key (did you mean 'num_players'?)" in message


def test_bad_hyperparameter_name_and_type(tmp_path):
    message = errors_of(tmp_path, {**MINIMAL, "algorithm": {"hyperparameters": {"learnig_rate": 0.1}}})
    assert "algorithm.hyperparameters.learnig_rate: unknown key (did you mean 'learning_rate'?)" in message
    message = errors_of(tmp_path, {**MINIMAL, "algorithm": {"hyperparameters": {"n_steps": "many"}}})
    assert "algorithm.hyperparameters.n_steps: must be a positive int, got str 'many'" in message


def test_bad_type_names_path_and_expected_type(tmp_path):
    data = {**MINIMAL, "training": {"total_timesteps": "lots", "n_envs": True}}
    message = errors_of(tmp_path, data)
    assert "training.total_timesteps: must be int, got str 'lots'" in message
    assert "training.n_envs: must be int, got bool True" in message


def test_bad_value_lists_valid_choices(tmp_path):
    data = {**MINIMAL, "training": {"total_timesteps": 10, "vec_env": "subprocess"}}
    message = errors_of(tmp_path, data)
    assert "training.vec_env: 'subprocess' is not valid (did you mean 'subproc'?); valid choices: dummy, subproc" \
        in message
    message = errors_of(tmp_path, {**MINIMAL, "training": {"total_timesteps": 0}})
    assert "training.total_timesteps: must be >= 1, got 0" in message


def test_bad_env_id_game_option_value_and_seat(tmp_path):
    message = errors_of(tmp_path, {**MINIMAL, "game": {"env_id": "yonkai_no_yokai_v2"}})
    assert "game.env_id: unknown env id 'yonkai_no_yokai_v2' (did you mean 'yonkai_no_yokai_v1'?)" in message
    message = errors_of(tmp_path, {**MINIMAL, "game": {"env_id": "yonkai_no_yokai_v1", "options": {"num_players": 5}}})
    assert "game.options:" in message and "num_players must be 3 or 4" in message
    data = {**MINIMAL, "game": {"env_id": "yonkai_no_yokai_v1", "options": {"num_players": 3}, "learner_seat": 3}}
    assert "game.learner_seat: 3 is not a seat" in errors_of(tmp_path, data)


def test_bad_bot_spec_and_missing_required(tmp_path):
    data = {**MINIMAL, "opponents": {"bots": [{"spec": "randm"}]}, "evaluation": {"bots": ["random", 7]}}
    message = errors_of(tmp_path, data)
    assert "evaluation.bots[1]: must be str, got int 7" in message
    message = errors_of(tmp_path, {**MINIMAL, "opponents": {"bots": ["randm"]}})
    assert "opponents.bots[0].spec: unknown agent kind 'randm'" in message
    message = errors_of(tmp_path, {"game": {"env_id": "yonkai_no_yokai_v1"}})
    assert "training.total_timesteps: required" in message


def test_all_problems_reported_at_once(tmp_path):
    data = {**MINIMAL, "training": {"total_timesteps": -1, "seed": "x"}, "output": {"csv": "yes"}}
    message = errors_of(tmp_path, data)
    assert message.count("; (") == 2 and "3 problems: (1) " in message and "\n" not in message


def test_overrides_and_out(tmp_path):
    config = load_config(QUICK, ["training.total_timesteps=5000", "algorithm.hyperparameters.learning_rate=1e-3",
                                 "opponents.bots.0.weight=2", "evaluation.bots=[heuristic, heuristic]"],
                         out="somewhere")
    assert config["training"]["total_timesteps"] == 5000
    assert config["algorithm"]["hyperparameters"]["learning_rate"] == pytest.approx(1e-3)  # "1e-3" is a YAML str
    assert config["opponents"]["bots"][0]["weight"] == 2.0
    assert config["evaluation"]["bots"] == ["heuristic", "heuristic"]
    assert config["output"]["dir"] == "somewhere"
    with pytest.raises(ConfigError, match=re.escape("training.n_env: unknown key (did you mean 'n_envs'?)")):
        load_config(QUICK, ["training.n_env=4"])
    with pytest.raises(ConfigError, match="expected key=value"):
        apply_override({}, "training.seed")


def test_not_yaml_and_not_a_mapping(tmp_path):
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(write(tmp_path, "game: [unclosed"))
    with pytest.raises(ConfigError, match="top level must be a mapping"):
        load_config(write(tmp_path, "- a\n- b\n"))
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "nope.yaml")


def test_game_name():
    assert game_name("yonkai_no_yokai_v1") == "yonkai_no_yokai"
    assert game_name("yyh_tcg_v6") == "yyh_tcg"
