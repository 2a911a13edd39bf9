"""scripts/ship_model.py ships a run's model as a pretrained opponent in the weights-only format:
the run's weights file unchanged, its card merged into NAME.json, and ``pretrained`` plays it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import yaml

import agents
import agents.pretrained as pretrained
from agents.policy import PolicyAgent, save_checkpoint

ROOT = Path(__file__).resolve().parents[2]
YONKAI = "yonkai_no_yokai_v1"


def _ship_model_module():
    spec = importlib.util.spec_from_file_location("ship_model", ROOT / "scripts" / "ship_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_shipped_run_model_is_weights_and_one_card_that_pretrained_plays(tmp_path, monkeypatch):
    from sb3_contrib import MaskablePPO

    from yokai_envs.training.gym_env import make_gym

    run = tmp_path / "run"
    run.mkdir()
    env = make_gym(YONKAI, num_players=3, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=16, batch_size=16, seed=0)
    save_checkpoint(model, run / "model", YONKAI, {"num_players": 3})
    (run / "config.yaml").write_text(yaml.safe_dump({"game": {"env_id": YONKAI, "options": {"num_players": 3}},
                                                     "training": {"seed": 0}}))
    (run / "state.json").write_text(json.dumps({"timesteps": 16, "train_seconds": 60.0}))
    ship = _ship_model_module()
    monkeypatch.setattr(ship, "MODELS", tmp_path / "models")
    monkeypatch.setattr(ship, "CURVES", tmp_path / "curves")
    assert ship.main(["--run", str(run), "--name", "tiny_3p", "--configuration", '{"num_players": 3}',
                      "--search", "iterations=2;search=flat", "--sampled"]) == 0
    shipped = tmp_path / "models"
    assert (shipped / "tiny_3p.safetensors").read_bytes() == (run / "model.safetensors").read_bytes()
    card = json.loads((shipped / "tiny_3p.json").read_text())
    assert card["play"] == {"deterministic": False, "temperature": 1.0} and card["net_arch"] == [8]
    assert card["kind"] == "policy" and (shipped / "tiny_3p.md").exists()
    assert not list(shipped.glob("*.zip"))
    monkeypatch.setattr(pretrained, "models_dir", lambda: shipped)
    agent = agents.make("pretrained", YONKAI, {"num_players": 3}, seed=0)
    assert isinstance(agent, PolicyAgent) and not agent.deterministic
    assert agents.make("pretrained:search=true", YONKAI, {"num_players": 3}, seed=0).base_agent is not None


def test_a_cards_second_yardstick_is_its_own_group_with_its_warm_start():
    ship = _ship_model_module()
    row = {"ci": [0.2, 0.3], "games": 500, "seeds": 1, "command": "yokai exploit ..."}
    section = {"yardstick": "a best response", "warm_start": "heuristic", "fair_share": 0.25, "measured": "today",
               "rows": [{**row, "agent": "pretrained", "budget": 409600, "win_rate": 0.14},
                        {**row, "agent": "pretrained", "budget": 40960, "warm_start": "pretrained", "win_rate": 0.23},
                        {**row, "agent": "pretrained", "budget": 40960, "win_rate": 0.15}]}
    table = [line for line in ship.exploitability_markdown(section) if line.startswith("| pretrained")]
    assert table == ["| pretrained | heuristic | 40,960 | 0.150 | [0.200, 0.300] | 500 | 1 |",
                     "| pretrained | heuristic | 409,600 | 0.140 | [0.200, 0.300] | 500 | 1 |",
                     "| pretrained | pretrained | 40,960 | 0.230 | [0.200, 0.300] | 500 | 1 |"]
    # a card of one yardstick has no warm start column
    section["rows"].pop(1)
    assert "| pretrained | 40,960 | 0.150 |" in "\n".join(ship.exploitability_markdown(section))
