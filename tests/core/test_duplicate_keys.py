"""A JSON object with a key given twice is refused wherever the package reads JSON (the last
value would otherwise win silently, and two readers of one file could disagree about it)."""

from __future__ import annotations

import json

import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.core.files import parse_json


def test_parse_json_refuses_a_key_given_twice_at_any_depth():
    with pytest.raises(ValueError, match="key 'a' appears twice in one object"):
        parse_json('{"b": {"a": 1, "a": 2}}', "x", ValueError)
    assert parse_json('{"a": {"a": 1}}', "x", ValueError) == {"a": {"a": 1}}


@pytest.mark.parametrize("command", ["evaluate", "demo"])
def test_env_kwargs_with_a_key_given_twice_is_refused(command, capsys):
    args = ["--agents", "random,random"] + (["--games", "2", "--no-progress"] if command == "evaluate" else [])
    try:  # evaluate checks it as the argument is parsed (argparse exits 2)
        code = yokai_main([command, "--game", "yonkai_no_yokai_v1", *args,
                           "--env-kwargs", '{"num_players": 3, "num_players": 4}'])
    except SystemExit as stop:
        code = stop.code
    assert code == 2 and "key 'num_players' appears twice" in capsys.readouterr().err


def test_a_run_state_with_a_key_given_twice_is_refused(tmp_path):
    from yokai_envs.core.errors import ConfigError
    from yokai_envs.training.common.run import RunFolder

    folder = RunFolder(tmp_path)
    folder.state_file.write_text('{"timesteps": 5, "evaluations": [], "sessions": 1, "timesteps": 9}')
    with pytest.raises(ConfigError, match="key 'timesteps' appears twice"):
        folder.load_state()


def test_a_games_journal_line_with_a_key_given_twice_is_refused(tmp_path):
    from agents.arena.journal import ResumeError, read_numbered_games

    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"index": 0}) + "\n" + '{"index": 1, "returns": [1], "returns": [-1]}\n')
    with pytest.raises(ResumeError, match="line 2: key 'returns' appears twice"):
        read_numbered_games(path)


def test_a_shipped_card_with_a_key_given_twice_is_refused(tmp_path, monkeypatch):
    import agents.pretrained as pretrained

    (tmp_path / "m.json").write_text('{"env_id": "yokaizo_v3", "env_id": "yyh_tcg_v5"}')
    monkeypatch.setattr(pretrained, "models_dir", lambda: tmp_path)
    with pytest.raises(pretrained.PretrainedError, match="key 'env_id' appears twice"):
        pretrained.cards()
