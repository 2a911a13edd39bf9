"""League training: prioritized matchmaking, a tiny league end to end, resumed by generation."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

from yokai_envs.cli import main
from yokai_envs.core.errors import ConfigError
from yokai_envs.registry import ENV_IDS
from yokai_envs.training.algorithms.league import members_now, pfsp_weights
from yokai_envs.training.common.config import load_config

ONMYOJI = next(e for e in ENV_IDS if e.startswith("onmyoji_v"))
TINY = ["training.total_timesteps=64", "training.n_envs=2", "algorithm.hyperparameters.n_steps=32",
        "algorithm.hyperparameters.batch_size=32", "algorithm.hyperparameters.n_epochs=1",
        "algorithm.network.net_arch=[8]", "evaluation.final_games=4", "output.tensorboard=false",
        "output.progress_bar=false", "evaluation.every=0", "league.start_from=null", "league.main_steps=64",
        "league.exploiter_steps=64",
        "league.match_games=4", "league.workers=1", "league.bots=[random]", "opponents.bots=[random]"]


def _tiny(*extra: str) -> list[str]:
    return [a for item in [*TINY, *extra] for a in ("--set", item)]


def test_pfsp_weighs_members_by_how_often_they_beat_the_main_agent():
    weights = pfsp_weights({"beaten": 1.0, "even": 0.5, "winner": 0.0}, power=2.0, floor=0.05)
    assert weights == {"beaten": 0.05, "even": 0.25, "winner": 1.0}
    assert pfsp_weights({"a": 0.9, "b": 0.1}, power=0.0, floor=0.0) == {"a": 1.0, "b": 1.0}


def test_members_are_the_bots_the_last_mains_and_the_last_exploiters():
    state = {"members": [{"name": "heuristic", "kind": "bot"}]
             + [{"name": f"main_{g}", "kind": "main"} for g in range(5)]
             + [{"name": f"exploiter_{g}", "kind": "exploiter"} for g in range(1, 5)]}
    league = {"past_generations": 2, "exploiters_kept": 1}
    assert [m["name"] for m in members_now(state, league)] == ["heuristic", "main_3", "main_4", "exploiter_4"]


def test_league_config_errors_name_the_key(tmp_path):
    with pytest.raises(ConfigError, match=r"league\.start_from"):
        load_config("configs/onmyoji/league.yaml", ["league.start_from=/no/such/model.safetensors"],
                    str(tmp_path / "x"))
    with pytest.raises(ConfigError, match=r"league\.start_from: pretrained: .* a mixture of \d+ networks,"):
        load_config("configs/onmyoji/league.yaml", ["league.start_from=pretrained"], str(tmp_path / "x"))
    with pytest.raises(ConfigError, match=r"league\.generations: .* no opponents"):
        load_config("configs/onmyoji/league.yaml", ["game.options={mode: coop}"], str(tmp_path / "x"))
    with pytest.raises(ConfigError, match=r"init_from and pretrain\.imitate"):
        load_config("configs/onmyoji/full.yaml", ["training.init_from=configs/onmyoji/full.yaml"], str(tmp_path / "y"))


@pytest.mark.slow
def test_a_tiny_league_runs_end_to_end_and_resumes_by_generation(tmp_path, capsys):
    out = tmp_path / "league"
    assert main(["train", "--config", "configs/onmyoji/league.yaml", "--out", str(out),
                 *_tiny("league.generations=1")]) == 0
    state = json.loads((out / "league.json").read_text())
    assert state["generation"] == 1 and state["finished"]
    assert [g["generation"] for g in state["generations"]] == [0, 1]
    names = {m["name"] for m in state["members"]}
    assert names == {"random", "main_0", "main_1", "exploiter_1"}
    first = state["generations"][1]
    assert first["exploiter"]["against"] == "main_0" and first["exploiter"]["games"] == 4
    assert set(first["table"]) == {"random", "main_0", "exploiter_1"}  # the new main against every member
    assert (out / "gen_0" / "model.safetensors").exists()
    assert (out / "gen_1" / "exploiter" / "model.safetensors").exists()
    assert (out / "model.safetensors").exists() and json.loads((out / "eval.json").read_text())["generations"] == 1
    # the same number of generations again: nothing to do, said clearly
    assert main(["train", "--resume", "--out", str(out), "--set", "league.generations=1"]) == 2
    assert "already finished generation 1" in capsys.readouterr().err
    # one more generation: generation 1 is kept as it was, generation 2 is trained
    before = (out / "members" / "main_1.safetensors").read_bytes()
    assert main(["train", "--resume", "--out", str(out), "--set", "league.generations=2"]) == 0
    state = json.loads((out / "league.json").read_text())
    assert [g["generation"] for g in state["generations"]] == [0, 1, 2] and state["generation"] == 2
    assert (out / "members" / "main_1.safetensors").read_bytes() == before
    assert state["generations"][2]["exploiter"]["against"] == "main_1"
    config = yaml.safe_load((out / "config.yaml").read_text())
    assert config["league"]["generations"] == 2


@pytest.mark.slow
def test_a_stopped_generation_resumes_from_its_phase_checkpoints(tmp_path, monkeypatch):
    from yokai_envs.training.algorithms import league

    out = tmp_path / "league"
    calls: list[str] = []
    real = league.run_phase

    def stop_in_generation_one(config):
        calls.append(config["output"]["dir"])
        if config["output"]["dir"].endswith("exploiter"):
            raise KeyboardInterrupt
        return real(config)

    monkeypatch.setattr(league, "run_phase", stop_in_generation_one)
    assert main(["train", "--config", "configs/onmyoji/league.yaml", "--out", str(out),
                 *_tiny("league.generations=1")]) == 130
    state = json.loads((out / "league.json").read_text())
    assert state["generation"] == 0 and len(state["generations"]) == 1  # generation 0 is kept
    assert (out / "gen_1" / "main" / "model.safetensors").exists()  # its finished phase too
    monkeypatch.setattr(league, "run_phase", real)
    assert main(["train", "--resume", "--out", str(out)]) == 0
    assert json.loads((out / "league.json").read_text())["generation"] == 1


@pytest.mark.slow
def test_exploiters_first_trains_several_exploiters_that_the_main_agent_meets_in_the_same_generation(tmp_path):
    out = tmp_path / "league"
    assert main(["train", "--config", "configs/onmyoji/league_gen3.yaml", "--out", str(out),
                 *_tiny("league.generations=1", "league.exploiters=2",
                        "league.exploiter_config=configs/onmyoji/quick.yaml")]) == 0
    state = json.loads((out / "league.json").read_text())
    first = state["generations"][1]
    assert [row["name"] for row in first["exploiters"]] == ["exploiter_1", "exploiter_1_1"]
    assert first["exploiter"]["win_rate"] == max(row["win_rate"] for row in first["exploiters"])
    # the main agent met both exploiters: they are weighted by what they won against main_0
    assert set(first["weights"]) == {"random", "main_0", "exploiter_1", "exploiter_1_1"}
    for row in first["exploiters"]:
        assert first["weights"][row["name"]] == pytest.approx(max(row["win_rate"] ** 2, 0.05))
    # the exploiters trained with the quick config's network, the main agent with the league's
    exploiter = yaml.safe_load((out / "gen_1" / "exploiter_1" / "config.yaml").read_text())
    assert exploiter["algorithm"]["network"]["net_arch"] == [256, 128]
    assert exploiter["training"]["seed"] != yaml.safe_load(
        (out / "gen_1" / "exploiter" / "config.yaml").read_text())["training"]["seed"]
    main_config = yaml.safe_load((out / "gen_1" / "main" / "config.yaml").read_text())
    assert main_config["algorithm"]["network"]["net_arch"] == [8]


def test_a_bad_exploiter_config_is_named(tmp_path):
    with pytest.raises(ConfigError, match=r"league\.exploiter_config"):
        load_config("configs/onmyoji/league_gen3.yaml", ["league.exploiter_config=/no/such.yaml"],
                    str(tmp_path / "x"))


def test_the_minimax_mixture_maximizes_the_worst_row():
    from yokai_envs.training.algorithms.league import minimax_mixture

    cycle = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])  # rock, paper, scissors
    assert minimax_mixture(cycle) == pytest.approx([1 / 3] * 3, abs=0.02)
    dominated = np.array([[0.9, 0.6], [0.8, 0.1]])  # column 0 is better against every row
    assert minimax_mixture(dominated) == pytest.approx([1.0, 0.0], abs=0.01)
    # two holes: each main agent is beaten by one exploiter; the mixture covers both
    holes = np.array([[0.1, 0.9], [0.9, 0.1], [0.7, 0.7]])
    weights = minimax_mixture(holes)
    assert weights == pytest.approx([0.5, 0.5], abs=0.03)
    assert (holes @ weights).min() > 0.49


@pytest.mark.slow
def test_a_league_can_ship_the_minimax_mixture_of_its_main_agents(tmp_path, capsys):
    from agents.model_file import load_policies

    out = tmp_path / "league"
    assert main(["train", "--config", "configs/onmyoji/league.yaml", "--out", str(out),
                 *_tiny("league.generations=1")]) == 0
    assert json.loads((out / "eval.json").read_text())["final"] == "last"
    # the finished league, resumed asking for the mixture: nothing trained, the mixture built
    trained = (out / "members" / "main_1.safetensors").read_bytes()
    assert main(["train", "--resume", "--out", str(out), "--set", "league.final=mixture",
                 "--set", "league.mixture_of=2"]) == 0
    assert (out / "members" / "main_1.safetensors").read_bytes() == trained
    state = json.loads((out / "league.json").read_text())
    mixture = state["mixture"]
    assert set(mixture["table"]) == {"main_0", "main_1"}
    assert set(mixture["table"]["main_0"]) == {"random", "exploiter_1"}
    assert sum(mixture["weights"]) == pytest.approx(1.0, abs=1e-3)
    report = json.loads((out / "eval.json").read_text())
    assert report["final"] == "mixture" and report["mixture"]["members"] == mixture["members"]
    policies, card = load_policies(out / "model.safetensors")
    assert len(policies) == len(mixture["members"])
    # one member left (the other below 1%): that network alone, not a mixture of one
    assert card["play"].get("mixture") == (mixture["weights"] if len(policies) > 1 else None)
    # PSRO's next step: a best response to this mixture joins the rows; only its row is played
    assert main(["train", "--resume", "--out", str(out), "--set", "league.final=mixture",
                 "--set", "league.mixture_of=2"]) == 2  # the same mixture again: refused, nothing to do
    response = f"policy:{out / 'members' / 'exploiter_1.safetensors'};deterministic=true"
    marked = json.loads((out / "league.json").read_text())
    for name in ("main_0", "main_1"):  # a mark no arena game gives: kept rows are not played again
        marked["mixture"]["table"][name]["random"]["win_rate"] = 0.123
    (out / "league.json").write_text(json.dumps(marked))
    assert main(["train", "--resume", "--out", str(out), "--set", "league.final=mixture",
                 "--set", "league.mixture_of=2", "--set", f"league.mixture_against=[{response!r}]"]) == 0
    again = json.loads((out / "league.json").read_text())["mixture"]
    for name in ("main_0", "main_1"):
        assert again["table"][name]["random"]["win_rate"] == 0.123
        assert set(again["table"][name]) == {"random", "exploiter_1", response}
    assert json.loads((out / "eval.json").read_text())["mixture"]["mixture_against"] == [response]


def test_a_resumed_league_takes_in_the_bots_its_config_now_names(tmp_path):
    out = tmp_path / "league"
    assert main(["train", "--config", "configs/onmyoji/league.yaml", "--out", str(out),
                 *_tiny("league.generations=1")]) == 0
    # the next generation meets a member added on resume, and the mixture has a row for it
    assert main(["train", "--resume", "--out", str(out), "--set", "league.generations=2",
                 "--set", "league.bots=[random, heuristic]", "--set", "league.final=mixture",
                 "--set", "league.mixture_of=3"]) == 0
    state = json.loads((out / "league.json").read_text())
    assert [m["name"] for m in state["members"] if m["kind"] == "bot"] == ["random", "heuristic"]
    assert "heuristic" not in state["generations"][1]["weights"]
    assert "heuristic" in state["generations"][2]["weights"] and "heuristic" in state["generations"][2]["table"]
    assert all("heuristic" in row for row in state["mixture"]["table"].values())
    # a finished league resumed with one more bot measures the mixture's new row, training nothing
    assert main(["train", "--resume", "--out", str(out), "--set", "league.generations=2",
                 "--set", "league.bots=[random, heuristic, 'policy:" + str(out / "members" / "exploiter_2.safetensors")
                 + "']", "--set", "league.final=mixture", "--set", "league.mixture_of=3"]) == 0
    state = json.loads((out / "league.json").read_text())
    assert state["generation"] == 2
    assert all(len(row) == 5 for row in state["mixture"]["table"].values())


def test_heuristic_started_exploiters_copy_the_heuristic_with_the_exploiter_configs_pretrain(tmp_path):
    exploiter_yaml = tmp_path / "exploiter.yaml"
    exploiter_yaml.write_text(yaml.safe_dump({
        "game": {"env_id": ONMYOJI, "options": {"mode": "duel"}},
        "training": {"total_timesteps": 64},
        "pretrain": {"steps": 48, "epochs": 1, "batch_size": 16},
        "algorithm": {"network": {"net_arch": [16]},
                      "hyperparameters": {"n_steps": 32, "batch_size": 32, "n_epochs": 1}}}))
    out = tmp_path / "league"
    assert main(["train", "--config", "configs/onmyoji/league_gen3.yaml", "--out", str(out),
                 *_tiny("league.generations=1", "league.exploiter_start=heuristic",
                        f"league.exploiter_config={exploiter_yaml}")]) == 0
    exploiter = yaml.safe_load((out / "gen_1" / "exploiter" / "config.yaml").read_text())
    # a copy of the heuristic as `yokai exploit --warm-start heuristic` makes it, not of the main agent
    assert exploiter["pretrain"]["imitate"] == "heuristic"
    assert exploiter["pretrain"]["steps"] == 48
    assert exploiter["training"]["init_from"] is None
    assert exploiter["algorithm"]["network"]["net_arch"] == [16]
    main_config = yaml.safe_load((out / "gen_1" / "main" / "config.yaml").read_text())
    assert main_config["pretrain"]["imitate"] is None and main_config["training"]["init_from"]
