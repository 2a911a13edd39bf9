"""Every ready config under configs/ validates, and (slow) trains a hundred-odd steps end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yokai_envs.cli import main as yokai_main
from yokai_envs.registry import ENV_IDS
from yokai_envs.training.common.config import game_name, load_config

CONFIGS = sorted(str(p) for p in Path("configs").glob("*/*.yaml"))
TINY = ["training.total_timesteps=128", "training.n_envs=2", "training.vec_env=dummy",
        "algorithm.hyperparameters.n_steps=64", "algorithm.hyperparameters.batch_size=64",
        "algorithm.hyperparameters.n_epochs=1", "algorithm.network.net_arch=[16]", "evaluation.every=0",
        "evaluation.final_games=4", "evaluation.workers=1", "output.progress_bar=false",
        "pretrain.steps=64", "pretrain.epochs=1", "evaluation.search_games=1",
        "distill.rounds=1", "distill.decisions=30", "distill.workers=1", "distill.epochs=1"]


def test_every_registered_game_has_quick_and_full_configs():
    for env_id in ENV_IDS:
        folder = Path("configs") / game_name(env_id)
        assert (folder / "quick.yaml").exists() and (folder / "full.yaml").exists(), env_id


def _earlier_run_files(raw: dict) -> list[str]:
    """The networks under runs/ a config (as written) continues from (``training.init_from``,
    ``policy:`` opponents): it is the second stage of a recipe whose first stage is another config's run."""
    specs = [(raw.get("training") or {}).get("init_from") or ""]
    specs += [str(bot.get("spec", "") if isinstance(bot, dict) else bot)  # {spec, weight} or a bare spec
              for bot in [*((raw.get("opponents") or {}).get("bots") or []),
                          *((raw.get("league") or {}).get("bots") or [])]]
    files = [spec.removeprefix("policy:") for spec in specs]
    return [f for f in files if f.startswith("runs/") and f.endswith(".safetensors")]


def _with_stand_ins(path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``path``, made runnable: the earlier stage's networks are stood in for by the game's shipped
    model (the same network shape; the latest of one network), in a scratch folder the config's
    relative paths resolve in."""
    import shutil

    import yaml

    from agents import pretrained

    raw = yaml.safe_load(Path(path).read_text())
    files = _earlier_run_files(raw)
    labelled = [run for run in (raw.get("lookahead") or {}).get("fit_with") or [] if run.startswith("runs/")]
    if not files and not labelled:
        return path
    game = raw["game"]
    card = pretrained.find(game["env_id"], game.get("options") or {})
    generation = pretrained.generation_of(card)
    while card.data["play"].get("mixture"):  # a stand-in the trainer can start from: one network
        generation -= 1
        card = pretrained.find(game["env_id"], game.get("options") or {}, generation=generation)
    for name in files:
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(card.path, target)
        shutil.copy(Path(card.path).with_suffix(".json"), target.with_suffix(".json"))
    for run in labelled:  # an earlier lookahead run's labels: 128 in all, in the shapes the game's labels have
        _stand_in_labels(tmp_path / run, card.data["observation_shape"][0], card.data["num_actions"],
                         128 // len(labelled) + (run == labelled[0]) * (128 % len(labelled)))
    (tmp_path / "agents").symlink_to(Path("agents").resolve())  # a shipped network it continues, as written
    absolute = str(Path(path).resolve())
    monkeypatch.chdir(tmp_path)
    return absolute


def _stand_in_labels(run: Path, observation_size: int, num_actions: int, count: int) -> None:
    import numpy as np

    from yokai_envs.training.algorithms.distill import save_round
    from yokai_envs.training.algorithms.yonkai_lookahead import round_file

    rng = np.random.default_rng(0)
    masks = np.zeros((count, num_actions), dtype=bool)
    masks[:, :2] = True
    save_round(round_file(run, 0), {"observations": rng.random((count, observation_size), dtype=np.float32),
                                    "masks": masks, "values": (rng.random(masks.shape) * masks).astype(np.float32)})


def test_a_config_continuing_a_named_generation_points_at_that_generations_file():
    """An ``init_from: agents/pretrained/models/NAME.safetensors   # generation N`` line names the
    network the recipe started from: once a later generation ships under NAME, the line must name
    NAME_genN instead, or the recipe silently continues from the wrong network."""
    import re

    from agents.pretrained import cards, generation_of

    line = re.compile(r"^\s*init_from:\s*(agents/pretrained/models/\S+\.safetensors)\s*#\s*generation (\d+)", re.M)
    shipped = {f"agents/pretrained/models/{card.name}.safetensors": card for card in cards()}
    checked = 0
    for path in CONFIGS:
        for file, generation in line.findall(Path(path).read_text()):
            card = shipped[file]
            assert generation_of(card) == int(generation), (path, file, generation_of(card))
            checked += 1
    assert checked >= 5  # the Yonkai recipes that continue a shipped network


@pytest.mark.parametrize("path", CONFIGS)
def test_ready_config_validates(path, tmp_path, monkeypatch):
    path = _with_stand_ins(path, tmp_path, monkeypatch)
    config = load_config(path)
    assert config["game"]["env_id"] in ENV_IDS
    assert game_name(config["game"]["env_id"]) == Path(path).parent.name


@pytest.mark.slow
@pytest.mark.parametrize("path", CONFIGS)
def test_ready_config_trains_a_few_steps(path, tmp_path, monkeypatch):
    # the full configs too: their behaviour cloning, self-play pool and evaluation settings run as written
    out = tmp_path / "run"
    path = _with_stand_ins(path, tmp_path, monkeypatch)
    config = load_config(path)
    tiny = TINY + (["dmc.steps=128"] if config["dmc"]["steps"] else [])  # within the 128 steps
    if config["training"]["init_from"] or config["league"]["generations"]:
        # the network it continues (a league's first main agent: a shipped model) fixes the shape
        tiny = [item for item in tiny if not item.startswith("algorithm.network.")]
    if config["league"]["generations"]:
        # the exploiters copy the heuristic with their own config's pretrain (100,000 decisions): this one's, tiny
        tiny += ["league.generations=1", "league.main_steps=64", "league.exploiter_steps=64", "league.match_games=2",
                 "league.exploiter_config=null",
                 "league.workers=1"]
    if config["lookahead"]["labels"] is not None:
        tiny += ["lookahead.table_games=1", "lookahead.workers=1", "lookahead.epochs=1", "evaluation.engine=arena"]
        if config["lookahead"]["labels"]:  # a refit only (labels: 0) fits its 128 stand-in labels
            tiny += ["lookahead.labels=128", "lookahead.rounds=1"]
    assert yokai_main(["train", "--config", path, "--out", str(out),
                       *[arg for item in tiny for arg in ("--set", item)]]) == 0
    report = json.loads((out / "eval.json").read_text())
    assert report["results"] and all(0 <= row["win_rate"] <= 1 for row in report["results"].values())
    assert (out / "model.safetensors").exists()
    assert config["league"]["generations"] or (out / "best_model.safetensors").exists()  # a league keeps its members
