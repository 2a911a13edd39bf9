"""`yokai score --backend ray` gives the local backend's result, class agents included."""

from __future__ import annotations

import pytest

pytest.importorskip("ray", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")

import yokai_envs.benchmark as benchmark
from tests.benchmark.test_score import tiny
from yokai_envs.benchmark.suite import QUICK_SUITE


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["heuristic", "tests.benchmark.test_score:FirstLegal"])
def test_score_on_ray_equals_local(ray_local, spec):
    suite = tiny(QUICK_SUITE, games=2)
    local = benchmark.score_agent(spec, suite, ["solo"])
    on_ray = benchmark.score_agent(spec, suite, ["solo"], backend="ray")
    assert on_ray["result"] == local["result"]
    assert on_ray["metadata"]["backend"] == "ray"


@pytest.mark.slow
def test_an_rllib_policy_runs_through_the_quick_suite(tmp_path, monkeypatch, capsys):
    """An RLlib policy folder (an untrained masked PPO module, saved the way training saves it)
    scored by `yokai score --quick` at tiny counts."""
    import json

    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    import yokai_envs
    from agents.rllib_agent import save_rllib_policy
    from yokai_envs.cli import main as yokai_main
    from yokai_envs.training.rllib_backend.module import MaskedPPOTorchRLModule

    env = yokai_envs.make("yyh_tcg_v6")
    seat = env.possible_agents[0]
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule, observation_space=env.observation_space(seat),
                          action_space=env.action_space(seat),
                          model_config={"fcnet_hiddens": [8], "vf_share_layers": False}).build()
    folder = save_rllib_policy(module, tmp_path / "model", "yyh_tcg_v6", {})
    suite = tiny(QUICK_SUITE)
    monkeypatch.setattr(benchmark, "load_suite", lambda version: suite)
    code = yokai_main(["score", "--agent", f"rllib:{folder}", "--trust-pickles", "--quick", "--configs", "yyh",
                       "--format", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    (yyh,) = json.loads(captured.out)["result"]["configurations"]
    assert [row["rung"] for row in yyh["rows"]] == list(suite.ladder)
