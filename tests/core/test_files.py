"""Files a user names (configs, replays) are read bounded in size, every failure a clear error."""

from __future__ import annotations

import os

import pytest

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import read_limited
from yokai_envs.play import replay as replay_module
from yokai_envs.play.replay import ReplayError, load_replay
from yokai_envs.training.common import yaml_io


def test_a_file_within_the_limit_is_read_whole(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_limited(path, 10, "f", "a thing", ConfigError) == b"x" * 10


def test_a_file_over_the_limit_is_refused_with_its_size(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 11)
    with pytest.raises(ConfigError, match=r"^f: 11 bytes; a thing is at most 10$"):
        read_limited(path, 10, "f", "a thing", ConfigError)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_refused_without_reading_it_all():
    with pytest.raises(ReplayError, match="is at most 1,000"):
        read_limited("/dev/zero", 1000, "zeros", "a replay", ReplayError)


def test_a_folder_cannot_be_read(tmp_path):
    with pytest.raises(ReplayError, match=r"^somewhere: cannot be read: "):
        read_limited(tmp_path, 10, "somewhere", "a replay", ReplayError)


def test_a_config_over_its_limit_is_a_config_error(tmp_path, monkeypatch):
    path = tmp_path / "c.yaml"
    path.write_text("game: {env_id: yonkai_no_yokai_v1}\n")
    monkeypatch.setattr(yaml_io, "MAX_CONFIG_BYTES", 8)
    with pytest.raises(ConfigError, match="bytes; a config is at most 8"):
        yaml_io.read_yaml_file(path)


def test_a_replay_over_its_limit_is_a_replay_error(tmp_path, monkeypatch):
    path = tmp_path / "r.json"
    path.write_text('{"format": 1}')
    monkeypatch.setattr(replay_module, "MAX_REPLAY_BYTES", 8)
    with pytest.raises(ReplayError, match=r"^replay file '.*r\.json': 13 bytes; a replay is at most 8$"):
        load_replay(path)
