"""scripts/paired_runs.py: the paired difference of two runs on the same deals, for gauntlet runs,
agents alone (Solo, a Co-op team, keyed by the deal's seed) and several pairs pooled."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "paired_runs.py"


@pytest.fixture(scope="module")
def paired():
    spec = importlib.util.spec_from_file_location("paired_runs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(folder: Path, agents: list[str], gauntlet: str | None, games: list[dict]) -> str:
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"agents": agents, "gauntlet": gauntlet}))
    (folder / "games.jsonl").write_text("".join(json.dumps(game) + "\n" for game in games))
    return str(folder)


def _alone(agent: str, table: int, seeds_and_credits: list[tuple[int, float]]) -> list[dict]:
    return [{"table": table, "deal": deal, "deal_seed": seed, "seats": [agent, agent], "credits": [credit, credit]}
            for deal, (seed, credit) in enumerate(seeds_and_credits)]


def test_agents_alone_pair_by_the_deals_seed_within_one_run_and_across_runs(paired, tmp_path, capsys):
    deals = [(11, 1.0), (12, 0.0), (13, 1.0), (14, 1.0)]
    other = [(11, 0.0), (12, 0.0), (13, 1.0), (14, 0.0)]
    # In one run each agent plays the deals at its own table; the seed, not the table, pairs them.
    both = _run(tmp_path / "both", ["net", "bot"], None, _alone("net", 0, deals) + _alone("bot", 1, other))
    assert paired.main([f"{both}::net", f"{both}::bot"]) == 0
    assert "4 deals: 0.750 vs 0.250, difference +0.500" in capsys.readouterr().out
    net = _run(tmp_path / "net", ["net"], None, _alone("net", 0, deals))
    bot = _run(tmp_path / "bot", ["bot"], None, _alone("bot", 0, other[:3]))
    assert paired.main([net, bot]) == 0
    assert "3 deals: 0.667 vs 0.333, difference +0.333" in capsys.readouterr().out  # only the shared deals


def test_gauntlet_runs_pair_by_table_and_deal_and_pairs_pool(paired, tmp_path, capsys):
    def gauntlet(name: str, agent: str, credits: list[float]) -> str:
        games = [{"table": 0, "deal": deal, "deal_seed": 100 + deal, "seats": [agent, "heuristic"],
                  "credits": [credit, 1 - credit]} for deal, credit in enumerate(credits)]
        return _run(tmp_path / name, [agent, "heuristic"], agent, games)

    a1, b1 = gauntlet("a1", "search", [1, 1, 0, 1]), gauntlet("b1", "alone", [1, 0, 0, 1])
    a2, b2 = gauntlet("a2", "search", [1, 0]), gauntlet("b2", "alone", [0, 0])
    assert paired.main([a1, b1, a2, b2]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6 deals: 0.667 vs 0.333, difference +0.333 [")
    assert paired.main([a1]) == 2  # pairs only
    with pytest.raises(SystemExit, match="not a gauntlet run nor one agent alone"):
        paired.per_deal(_run(tmp_path / "two", ["x", "y"], None, []))
