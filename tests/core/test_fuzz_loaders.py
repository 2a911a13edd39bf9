"""Fuzz the loaders (hypothesis): random bytes and random JSON/YAML trees into the
training-config, replay and card/deck loaders. Only the package's own errors may come out
(ConfigError, ReplayError), never a traceback from yaml, json, a KeyError or a TypeError.

The card and deck loaders live in the game packages; they are called through their public
functions only.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yokai_envs.core.errors import ConfigError
from yokai_envs.play.replay import Replay, ReplayError, load_replay
from yokai_envs.registry import ENV_IDS

# Derandomized: the same examples on every run, so CI never fails on a newly drawn case.
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
OWN_ERRORS = (ConfigError, ReplayError)

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
           | st.text(max_size=12) | st.sampled_from(["random", "yonkai_no_yokai_v1", "heuristic", "cards", "decks",
                                                     "num_players", "<!--<script>", ""]))
keys = st.text(max_size=10) | st.sampled_from(["game", "env_id", "options", "training", "total_timesteps", "algorithm",
                                               "hyperparameters", "format", "seed", "actions", "result", "returns",
                                               "agents", "meta", "cards", "name", "factions", "characters"])
trees = st.recursive(scalars, lambda children: st.lists(children, max_size=4)
                     | st.dictionaries(keys, children, max_size=4), max_leaves=20)


def _only_own_errors(call, *args: Any) -> None:
    with contextlib.suppress(OWN_ERRORS):
        call(*args)


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _yaml_bytes(tree: Any) -> bytes:
    return yaml.safe_dump(tree, allow_unicode=True).encode("utf-8")


# ---------------------------------------------------------------------- the training config
def _config(path: Path) -> None:
    from yokai_envs.training.common.config import load_config

    load_config(path)


@FUZZ
@given(game=trees, training=trees, algorithm=trees)
def test_config_loader_random_sections(tmp_path_factory, game, training, algorithm):
    tree = {"game": {"env_id": "yonkai_no_yokai_v1", "options": game}, "training": training,
            "algorithm": algorithm}
    _only_own_errors(_config, _write(tmp_path_factory.mktemp("c"), "cfg.yaml", _yaml_bytes(tree)))


@FUZZ
@given(item=st.text(max_size=40))
def test_config_overrides_random_text(item):
    from yokai_envs.training.common.config import load_config

    _only_own_errors(load_config, "configs/yonkai_no_yokai/quick.yaml", [item])


# ---------------------------------------------------------------------- replays
def _replay_file(path: Path) -> None:
    load_replay(path).build_game()


def _valid_replay() -> dict[str, Any]:
    from yokai_envs.registry import make_game

    game = make_game("yonkai_no_yokai_v1", num_players=3, rounds_per_game=1, max_steps=30)
    game.reset(4)
    while not game.is_over:
        game.step(int(game.legal_action_mask().nonzero()[0][0]))
    return Replay.record(game, ["random"] * 3).to_json()


VALID = _valid_replay()


@FUZZ
@given(key=st.sampled_from(sorted(VALID)), value=trees)
def test_replay_loader_one_field_replaced(tmp_path_factory, key, value):
    data = {**VALID, key: value}
    _only_own_errors(_replay_file, _write(tmp_path_factory.mktemp("r"), "r.json", json.dumps(data).encode()))


# ---------------------------------------------------------------------- the config and replay files
# loader, file name, a tree written as that file's format
WHOLE_FILE_LOADERS = {"config": (_config, "cfg.yaml", _yaml_bytes),
                      "replay": (_replay_file, "r.json", lambda tree: json.dumps(tree).encode())}


@pytest.mark.parametrize("loader", list(WHOLE_FILE_LOADERS))
@FUZZ
@given(data=st.binary(max_size=300))
def test_loader_random_bytes(tmp_path_factory, loader, data):
    load, name, _ = WHOLE_FILE_LOADERS[loader]
    _only_own_errors(load, _write(tmp_path_factory.mktemp("f"), name, data))


@pytest.mark.parametrize("loader", list(WHOLE_FILE_LOADERS))
@FUZZ
@given(tree=trees)
def test_loader_random_trees(tmp_path_factory, loader, tree):
    load, name, encode = WHOLE_FILE_LOADERS[loader]
    _only_own_errors(load, _write(tmp_path_factory.mktemp("f"), name, encode(tree)))


# ---------------------------------------------------------------------- card pools and decks
def _yokaizo_pool(path: Path) -> None:
    from yokai_envs.yokaizo.cards import load_pool

    load_pool(path)


def _yokaizo_deck(spec: Any) -> None:
    from yokai_envs.yokaizo.cards import default_pool, resolve_deck

    resolve_deck(spec, default_pool())


def _yyh_pool(path: Path) -> None:
    from yokai_envs.yyh_tcg.cards import load_pool

    load_pool(path)


def _yyh_deck(spec: Any) -> None:
    from yokai_envs.yyh_tcg.decks import resolve_deck

    resolve_deck(spec)


def _onmyoji_pool(tree: Any) -> None:
    from yokai_envs.onmyoji.cards import parse_pool

    parse_pool(tree)


def _game_options(env_id: str, options: dict) -> None:
    from yokai_envs.registry import make_game

    make_game(env_id, **options)


FILE_LOADERS = {"yokaizo pool": _yokaizo_pool, "yokaizo deck file": _yokaizo_deck, "yyh pool": _yyh_pool,
                "yyh deck file": _yyh_deck}


@pytest.mark.parametrize("loader", list(FILE_LOADERS), ids=list(FILE_LOADERS))
@FUZZ
@given(text=st.text(max_size=300))
def test_card_and_deck_files_random_text(tmp_path_factory, loader, text):
    _only_own_errors(FILE_LOADERS[loader], _write(tmp_path_factory.mktemp("d"), "deck.yaml", text.encode("utf-8")))


@pytest.mark.parametrize("loader", list(FILE_LOADERS), ids=list(FILE_LOADERS))
def test_card_and_deck_files_that_are_not_utf8(tmp_path, loader):
    _only_own_errors(FILE_LOADERS[loader], _write(tmp_path, "deck.yaml", b"cards: [\x80\xff]\n"))


@pytest.mark.parametrize("loader", list(FILE_LOADERS), ids=list(FILE_LOADERS))
@FUZZ
@given(tree=trees)
def test_card_and_deck_files_random_trees(tmp_path_factory, loader, tree):
    _only_own_errors(FILE_LOADERS[loader], _write(tmp_path_factory.mktemp("d"), "deck.yaml", _yaml_bytes(tree)))


@FUZZ
@given(tree=trees)
def test_deck_specs_and_pools_as_trees(tree):
    _only_own_errors(_yokaizo_deck, tree)
    _only_own_errors(_yyh_deck, tree)
    _only_own_errors(_onmyoji_pool, tree)


YYH = next(e for e in ENV_IDS if e.startswith("yyh_tcg"))


@FUZZ
@given(env_id=st.sampled_from(ENV_IDS),
       options=st.dictionaries(st.sampled_from(["num_players", "reward", "rounds_per_game", "decks", "mode",
                                                "difficulty", "characters", "max_steps"]), trees, max_size=3))
def test_game_options_as_trees(env_id, options):
    _only_own_errors(_game_options, env_id, options)


def test_yyh_cards_option_that_is_not_a_path():
    _only_own_errors(_game_options, YYH, {"cards": []})


# ---------------------------------------------------------------------- model cards
_CARD_FIELDS = ["format", "kind", "algorithm", "policy_class", "net_arch", "activation", "observation_shape",
                "num_actions", "env_id", "env_options", "play", "weights_sha256", "num_timesteps"]


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    """A real model file (a tiny Yonkai 3p network) and its card."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from agents.policy import save_checkpoint
    from yokai_envs.training.gym_env import make_gym

    env = make_gym("yonkai_no_yokai_v1", num_players=3, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [4]}, n_steps=16, batch_size=16, seed=0)
    path = save_checkpoint(model, tmp_path_factory.mktemp("model") / "m", "yonkai_no_yokai_v1", {"num_players": 3})
    return path, json.loads(path.with_suffix(".json").read_text())


@FUZZ
@given(field=st.sampled_from(_CARD_FIELDS), tree=trees)
def test_a_card_field_replaced_by_any_tree_gives_a_model_file_error_only(model_file, tmp_path_factory, field, tree):
    from agents.model_file import ModelFileError, load_policy

    path, card = model_file
    folder = tmp_path_factory.mktemp("fuzzed")
    (folder / path.name).write_bytes(path.read_bytes())
    (folder / "m.json").write_text(json.dumps({**card, field: tree}))
    with contextlib.suppress(ModelFileError):
        load_policy(folder / path.name)


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_as_a_card_or_weights_give_a_model_file_error_only(model_file, tmp_path_factory, data):
    from agents.model_file import ModelFileError, load_policy

    path, card = model_file
    folder = tmp_path_factory.mktemp("bytes")
    (folder / "w.safetensors").write_bytes(data)
    (folder / "w.json").write_text(json.dumps(card))
    (folder / "c.safetensors").write_bytes(path.read_bytes())
    (folder / "c.json").write_bytes(data)
    for name in ("w.safetensors", "c.safetensors"):
        with contextlib.suppress(ModelFileError):
            load_policy(folder / name)
