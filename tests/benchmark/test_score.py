"""``yokai score``: every kind of agent spec through the quick suite (at tiny counts: a test-only
override of the suite's games), the same JSON when an agent is scored twice, resume, bad input in
one line, and the leaderboard page from finished runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import yokai_envs.benchmark as benchmark
from agents.base import Agent
from yokai_envs.benchmark.suite import QUICK_SUITE, load_suite, parse_suite
from yokai_envs.cli import main as yokai_main

MODELS = Path(__file__).resolve().parents[2] / "agents" / "pretrained" / "models"


class FirstLegal(Agent):
    """A class the tests name by import path: plays its first legal action."""

    def __init__(self, env_id: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.env_id = env_id

    def act(self, observation, action_mask, game=None) -> int:
        return int(np.flatnonzero(action_mask)[0])


class NotAnAgent:
    pass


def tiny(version: str, games: int = 2):
    """``version`` with ``games`` games per cell: its ladder, configurations, levels and seeds."""
    from importlib import resources

    import yaml

    data = yaml.safe_load((resources.files("yokai_envs.benchmark") / "suites" / f"{version}.yaml").read_text())
    data["games"] = games
    return parse_suite(data, version)


@pytest.fixture()
def tiny_quick(monkeypatch):
    """`yokai score --quick` plays v1-quick at 2 games a cell (4 for 4 players: every seat)."""
    suite = tiny(QUICK_SUITE)
    real = benchmark.load_suite
    monkeypatch.setattr(benchmark, "load_suite", lambda version: suite if version == QUICK_SUITE else real(version))
    return suite


def score_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = yokai_main(["score", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


SPECS = [
    "random", "lowest", "heuristic", "ismcts:iterations=2;max_rollout_steps=5;leaf=heuristic",
    "pretrained", "pretrained:search=true;iterations=2",
    "openspiel:random", "openspiel:ismcts;simulations=2",
    "tests.benchmark.test_score:FirstLegal",
]


@pytest.mark.parametrize("spec", SPECS)
def test_every_kind_of_agent_runs_through_the_quick_suite(tiny_quick, capsys, tmp_path, spec):
    if spec.startswith("openspiel"):
        pytest.importorskip("pyspiel")
    code, out, err = score_cli(capsys, "--agent", spec, "--quick", "--configs", "yyh", "--format", "json")
    assert code == 0, err
    result = json.loads(out)["result"]
    assert result["suite"] == QUICK_SUITE and result["agent"] == spec
    (yyh,) = result["configurations"]
    assert [r["rung"] for r in yyh["rows"]] == list(tiny_quick.ladder)
    assert all(0.0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1.0 for r in yyh["rows"])


def test_one_seat_and_one_team_configurations_play_their_levels(tiny_quick, capsys, tmp_path):
    code, out, err = score_cli(capsys, "--agent", "tests.benchmark.test_score:FirstLegal", "--quick", "--configs",
                               "solo,coop", "--out", str(tmp_path / "run"), "--format", "json")
    assert code == 0, err
    solo, coop = json.loads(out)["result"]["configurations"]
    assert [(r["rung"], r["level"]) for r in solo["rows"]] == [("alone", 7), ("alone", 9)]
    assert [(r["rung"], r["level"]) for r in coop["rows"]] == [
        (rung, level) for level in (8, 10) for rung in [*tiny_quick.ladder, "self"]]
    assert solo["fair_share"] is None and solo["kind"] == "solo" and coop["kind"] == "team"
    written = json.loads((tmp_path / "run" / "score.json").read_text())
    assert written["result"] == json.loads(out)["result"]
    assert (tmp_path / "run" / "score.tex").read_text().startswith("\\begin{table}")


@pytest.mark.parametrize("checkpoint", ["policy:{zip}", "trained:{zip};iterations=2"])
def test_checkpoint_specs_run_through_the_quick_suite(tiny_quick, capsys, checkpoint):
    spec = checkpoint.format(zip=MODELS / "yyh_tcg.safetensors")
    code, out, err = score_cli(capsys, "--agent", spec, "--quick", "--configs", "yyh", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["result"]["configurations"][0]["name"] == "yyh"


def test_scoring_an_agent_twice_gives_the_same_json_and_the_scale_is_anchored():
    suite = tiny(QUICK_SUITE, games=2)
    first = benchmark.score_agent("heuristic", suite, ["yyh", "solo"])
    second = benchmark.score_agent("heuristic", suite, ["yyh", "solo"])
    assert json.dumps(first["result"]) == json.dumps(second["result"])
    for c in first["result"]["configurations"]:  # the heuristic is the scale's 1, random its 0
        assert c["score"] is None or c["score"] == pytest.approx(1.0)
    rand = benchmark.score_agent("random", suite, ["solo"])["result"]["configurations"][0]
    assert rand["score"] is None or rand["score"] == pytest.approx(0.0)


def test_a_cut_run_resumes_from_its_cells_with_the_same_result(capsys, tmp_path):
    suite = tiny(QUICK_SUITE, games=2)
    out = tmp_path / "run"
    whole = benchmark.score_agent("lowest", suite, ["yyh", "solo"], out=out)
    cells = sorted(p.parent.name for p in (out / "cells").rglob("results.json"))
    assert whole["metadata"]["cells_reused"] == 0 and cells
    (victim,) = (out / "cells" / "solo").glob("lowest-*__alone__level9/results.json")
    victim.unlink()  # that cell cut off before its end: its result not written, and its last game lost
    journal = victim.parent / "games.jsonl"
    games = journal.read_text().splitlines()
    journal.write_text("\n".join(games[:-1]) + "\n")
    again = benchmark.score_agent("lowest", suite, ["yyh", "solo"], out=out, resume=True)
    assert again["result"] == whole["result"]
    assert again["metadata"]["cells_reused"] == len(cells) - 1
    # CPU time is recorded per cell and kept by a reused one, so a resumed run still totals it; the
    # resumed cell's is that of the games it played, scaled to the whole cell, and it says so
    assert whole["metadata"]["cpu_seconds"] > 0 and again["metadata"]["cpu_seconds"] > 0
    assert (whole["metadata"]["cpu_extrapolated_cells"], again["metadata"]["cpu_extrapolated_cells"]) == (0, 1)
    assert len(games) == 2 and json.loads(victim.read_text())["cpu_games"] == 1
    victim.parent.joinpath("games.jsonl").unlink()
    victim.parent.joinpath("results.json").unlink()
    victim.parent.joinpath("results.json").write_text(victim.parent.parent.joinpath(
        next(p.name for p in victim.parent.parent.iterdir() if p.name.startswith("random-")), "results.json"
    ).read_text())  # another cell's record in this cell's folder
    with pytest.raises(ValueError, match="another cell"):
        benchmark.score_agent("lowest", suite, ["solo"], out=out)


def test_runs_sharing_a_cell_store_play_the_anchors_once(tmp_path):
    suite = tiny(QUICK_SUITE, games=2)
    store = tmp_path / "cells"
    first = benchmark.score_agent("lowest", suite, ["solo"], cells=store)
    second = benchmark.score_agent("heuristic", suite, ["solo"], cells=store)
    assert first["metadata"]["cells_reused"] == 0
    # heuristic alone at both levels is the heuristic anchor the first run played; random's anchors too
    assert second["metadata"]["cells_reused"] == 4
    assert second["result"] == benchmark.score_agent("heuristic", suite, ["solo"])["result"]


def test_a_cell_whose_shipped_network_changed_is_played_again(tmp_path, monkeypatch):
    """Cells are reused by spec only while the spec names the same network: a shipped model
    replaced under ``pretrained`` is played again, never read from the old cell."""
    import yokai_envs.benchmark.run as run

    suite = tiny(QUICK_SUITE, games=2)
    store = tmp_path / "cells"
    first = benchmark.score_agent("pretrained", suite, ["solo"], cells=store)
    assert benchmark.score_agent("pretrained", suite, ["solo"], cells=store)["metadata"]["cells_reused"] == \
        len(first["result"]["configurations"][0]["rows"]) + 4  # its own cells and the anchors at both levels
    real = run.model_digests
    monkeypatch.setattr(run, "model_digests", lambda specs, env_id, options: {
        spec: "0" * 64 if spec == "pretrained" else digest for spec, digest in real(specs, env_id, options).items()})
    again = benchmark.score_agent("pretrained", suite, ["solo"], cells=store)
    assert again["metadata"]["cells_reused"] == 4  # only the anchors (random, heuristic) are the same agents
    (cell,) = (store / "solo").glob("pretrained-*__alone__level7/results.json")
    assert json.loads(cell.read_text())["cell"]["models"] == {"pretrained": "0" * 64}


def test_a_search_over_a_network_is_keyed_by_the_network_its_policy_option_names(tmp_path):
    """``ismcts:...;policy=PATH`` plays the network at PATH: a cell of it is reused only while that
    file holds the same network, as for ``policy:PATH``."""
    import shutil

    from yokai_envs.benchmark.run import model_digests

    env_id = next(e for e in __import__("yokai_envs").ENV_IDS if e.startswith("onmyoji"))
    for name, shipped in (("a", "onmyoji_duel_gen1"), ("b", "onmyoji_duel_gen2")):
        for suffix in (".safetensors", ".json"):
            shutil.copy(MODELS / f"{shipped}{suffix}", tmp_path / f"{name}{suffix}")
    search = "ismcts:rollout=heuristic;confidence=1.0;policy={}"
    a, b = (model_digests([search.format(tmp_path / f"{n}.safetensors")], env_id, {"mode": "duel"}) for n in "ab")
    assert a and b and list(a.values()) != list(b.values())
    for suffix in (".safetensors", ".json"):  # a retrained network saved over the first one
        shutil.copy(tmp_path / f"b{suffix}", tmp_path / f"a{suffix}")
    assert model_digests([search.format(tmp_path / "a.safetensors")], env_id, {"mode": "duel"}) != a


def test_a_card_that_plays_its_weights_another_way_is_another_cell(tmp_path):
    """The same weights sampled instead of argmax, or searched with other settings, are another
    agent: the key follows the card's play and search settings, not only its weights digest."""
    import shutil

    from agents.model_file import read_card
    from yokai_envs.benchmark.run import model_digests

    env_id = next(e for e in __import__("yokai_envs").ENV_IDS if e.startswith("onmyoji"))
    for suffix in (".safetensors", ".json"):
        shutil.copy(MODELS / f"onmyoji_duel_gen1{suffix}", tmp_path / f"a{suffix}")
    spec = f"policy:{tmp_path / 'a.safetensors'}"
    before = model_digests([spec], env_id, {"mode": "duel"})
    card = json.loads((tmp_path / "a.json").read_text())
    assert before == model_digests([spec], env_id, {"mode": "duel"})
    for section, value in (("play", {"deterministic": False, "temperature": 1.0}), ("search", "iterations=9")):
        changed = {**card, section: value}
        (tmp_path / "a.json").write_text(json.dumps(changed))
        read_card(str(tmp_path / "a.safetensors"))  # still a valid card
        after = model_digests([spec], env_id, {"mode": "duel"})
        assert after[spec] != before[spec]
        assert after[spec].split(":")[0] == before[spec].split(":")[0]  # the same weights
    (tmp_path / "a.json").write_text(json.dumps(card))
    assert model_digests([spec], env_id, {"mode": "duel"}) == before


@pytest.mark.slow
def test_workers_and_a_class_agent_in_worker_processes_give_the_same_result():
    suite = tiny(QUICK_SUITE, games=4)
    spec = "tests.benchmark.test_score:FirstLegal"
    one = benchmark.score_agent(spec, suite, ["yyh"], workers=1)
    two = benchmark.score_agent(spec, suite, ["yyh"], workers=2)
    assert one["result"] == two["result"]


@pytest.mark.slow
def test_the_full_quick_suite_runs_every_configuration(tiny_quick, capsys):
    code, out, err = score_cli(capsys, "--agent", "heuristic", "--quick")
    assert code == 0, err
    assert "| yonkai_4p | 1.00" in out and "| coop |" in out


@pytest.mark.parametrize(("argv", "word"), [
    (["--agent", "heurstic", "--quick"], "heurstic"),
    (["--agent", "no_such_module_zz:Agent", "--quick"], "no_such_module_zz"),
    (["--agent", "tests.benchmark.test_score:NotAnAgent", "--quick"], "not a subclass"),
    (["--agent", "tests.benchmark.test_score:Missing", "--quick"], "not found"),
    (["--agent", "policy:/no/such/model.zip", "--quick", "--configs", "yyh"], "model.zip"),
    (["--agent", f"policy:{MODELS / 'yyh_tcg.safetensors'}", "--quick", "--configs", "yyh,duel"], "duel"),
    (["--agent", "random", "--quick", "--configs", "yonkai_5p"], "yonkai_5p"),
    (["--agent", "random", "--suite", "v9"], "v9"),
    (["--agent", "random", "--quick", "--suite", "v1"], "--quick"),
    (["--quick"], "--agent"),
    (["--agent", "random", "--quick", "--resume"], "--resume"),
    (["--leaderboard", "page.md"], "--runs"),
    (["--leaderboard", "page.md", "--cards-only"], "page.md"),
    (["--leaderboard", "page.md", "--cards-only", "--runs", "runs"], "--cards-only"),
    (["--leaderboard", "page.md", "--cards-only", "--references", "refs.json"], "no --references"),
    (["--agent", "random", "--quick", "--cards-only"], "--cards-only"),
])
def test_bad_specs_and_configurations_get_one_line(capsys, tmp_path, monkeypatch, argv, word):
    monkeypatch.chdir(tmp_path)
    code, _out, err = score_cli(capsys, *argv)
    lines = [line for line in err.splitlines() if line.strip() and "Warning" not in line
             and "check_checkpoint" not in line]
    assert code == 2 and len(lines) == 1 and word in lines[0], err
    assert "Traceback" not in err and not list(tmp_path.iterdir())


def test_the_leaderboard_page_is_generated_from_runs(capsys, tmp_path, monkeypatch):
    import yokai_envs.benchmark.leaderboard as leaderboard

    suite = tiny(QUICK_SUITE, games=2)
    real = leaderboard.load_suite
    monkeypatch.setattr(leaderboard, "load_suite", lambda version: suite if version == QUICK_SUITE else real(version))
    runs = tmp_path / "runs"
    for name, spec in (("random", "random"), ("heuristic", "heuristic"), ("pretrained", "pretrained")):
        benchmark.score_agent(spec, suite, ["solo"], out=runs / name)
    benchmark.score_agent("lowest", tiny(QUICK_SUITE, games=4), ["solo"], out=runs / "other-protocol")
    page, refs = tmp_path / "leaderboard.md", tmp_path / "references.json"
    code, _out, err = score_cli(capsys, "--leaderboard", str(page), "--runs", str(runs), "--references", str(refs))
    assert code == 0, err
    text = page.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows[:3]] == ["random", "heuristic", "pretrained"]
    assert "| `heuristic` | not run | not run | not run | not run | not run | 1.00" in text
    assert "score_c = (w_c(agent) - w_c(random)) / (w_c(heuristic) - w_c(random))" in text
    assert load_suite("v1").protocol_hash in text
    current, earlier = text.split("an earlier protocol")[:2]
    assert "| `heuristic` |" in current and "| `lowest` |" not in current and "| `lowest` |" in earlier
    positions = json.loads(refs.read_text())["suites"][QUICK_SUITE]["solo"]
    assert set(positions) == {"random", "heuristic", "pretrained"}  # never one from another protocol
    assert positions["pretrained"]["protocol_hash"] == suite.protocol_hash


def test_a_run_records_its_networks_and_the_page_marks_cells_played_with_a_replaced_one(capsys, tmp_path,
                                                                                         monkeypatch):
    """A row measured before a shipped model was replaced says so, cell by cell, on the page."""
    import yokai_envs.benchmark.leaderboard as leaderboard
    from agents.pretrained import find
    from agents.spec_files import recorded_model

    suite = tiny(QUICK_SUITE, games=2)
    real = leaderboard.load_suite
    monkeypatch.setattr(leaderboard, "load_suite", lambda version: suite if version == QUICK_SUITE else real(version))
    runs = tmp_path / "runs"
    for name in ("heuristic", "pretrained"):
        benchmark.score_agent(name, suite, ["duel"], out=runs / name)
    duel = suite.configurations["duel"]
    shipped = recorded_model(str(find(duel.env_id, duel.options).path))
    files = {name: runs / name / "score.json" for name in ("heuristic", "pretrained")}
    documents = {name: json.loads(path.read_text()) for name, path in files.items()}
    assert documents["heuristic"]["result"]["configurations"][0]["models"] == {"pretrained": shipped}

    def page() -> str:
        target = tmp_path / "leaderboard.md"
        assert score_cli(capsys, "--leaderboard", str(target), "--runs", str(runs))[0] == 0
        return target.read_text()

    def row(text: str, name: str) -> str:
        return next(line for line in text.splitlines() if line.startswith(f"| `{name}` |") and "not run" in line)

    assert "(replaced)" not in page()

    def page_of(changed: dict) -> str:
        for name, path in files.items():
            path.write_text(json.dumps(changed[name]))
        return page()

    documents["heuristic"]["result"]["configurations"][0]["models"]["pretrained"] = "0" * 64
    documents["pretrained"]["result"]["configurations"][0]["models"]["policy:elsewhere/mine.safetensors"] = "1" * 64
    text = page_of(documents)
    assert "(replaced)" in row(text, "heuristic") and "(replaced)" not in row(text, "pretrained")  # not here: unjudged
    del documents["pretrained"]["result"]["configurations"][0]["models"]  # a run from before runs recorded them
    text = page_of(documents)
    assert "(replaced)" in row(text, "heuristic") and "(replaced)" not in row(text, "pretrained")
    assert "a network that has been replaced since (`pretrained` in duel)" in text


def test_the_committed_leaderboard_is_the_page_of_the_kept_runs(tmp_path):
    """docs/leaderboard.md and the positions file are what the runs kept in benchmarks/leaderboard
    give with the package as it is: no hand edit survives, and a shipped model replaced after the
    runs fails this until the page is written again (seconds), which then marks the cells it
    played with the replaced network."""
    from yokai_envs.benchmark.leaderboard import write_leaderboard

    root = Path(__file__).resolve().parents[2]
    page, refs = tmp_path / "leaderboard.md", tmp_path / "references.json"
    write_leaderboard(root / "benchmarks" / "leaderboard", page, refs)

    def body(path: Path) -> list[str]:
        return [line for line in path.read_text().splitlines() if not line.startswith("Generated on ")]

    assert body(page) == body(root / "docs" / "leaderboard.md")
    assert json.loads(refs.read_text()) == json.loads(
        (root / "yokai_envs" / "benchmark" / "suites" / "references.json").read_text())


def test_cards_only_rewrites_the_card_section_and_nothing_else(capsys, tmp_path, monkeypatch):
    """A model shipped after the runs changes its card: --cards-only refreshes the page's section
    read from the cards and keeps every other line as it was played."""
    import yokai_envs.benchmark.leaderboard as leaderboard

    heading = leaderboard.CARDS_HEADING
    before = ["# Benchmark and leaderboard", "", "| `random` | 0.00 |", "", heading, "", "| stale | row |", "",
              "## How the score is defined", "", "kept"]
    page = tmp_path / "leaderboard.md"
    page.write_text("\n".join(before))
    monkeypatch.setattr(leaderboard, "exploitability_section", lambda: [heading, "", "| fresh | row |", ""])
    code, out, err = score_cli(capsys, "--leaderboard", str(page), "--cards-only")
    assert code == 0 and str(page) in out, err
    assert page.read_text().split("\n") == [*before[:4], heading, "", "| fresh | row |", "", *before[8:]]
    page.write_text("# a page without the section\n")
    code, _out, err = score_cli(capsys, "--leaderboard", str(page), "--cards-only")
    assert code == 2 and heading in err and page.read_text() == "# a page without the section\n"


def test_positions_are_printed_only_from_the_same_protocol(monkeypatch):
    import yokai_envs.benchmark.score as score

    suite = tiny(QUICK_SUITE, games=2)
    entry = {"spec": "pretrained", "score": 1.5, "score_low": 1.2, "score_high": 1.8}
    monkeypatch.setattr(score, "references", lambda version: {"solo": {
        "pretrained": {**entry, "protocol_hash": suite.protocol_hash},
        "ismcts-8": {**entry, "protocol_hash": "sha256:another"}}})
    (solo,) = benchmark.score_agent("random", suite, ["solo"])["result"]["configurations"]
    assert set(solo["positions"]) == {"pretrained"}


def test_the_exploitability_column_calls_yokai_exploit_as_a_user_would(monkeypatch, tmp_path):
    """The coupling's arguments parse with `yokai exploit`'s own parser, and its exploit.json is
    read back (the training itself is yokai exploit's, tested there)."""
    import argparse

    import yokai_envs.cli as cli
    from yokai_envs.benchmark.exploit import exploitability
    from yokai_envs.cli import exploit as exploit_cli

    calls = []

    def fake_main(argv):
        parser = argparse.ArgumentParser()
        exploit_cli.add_arguments(parser)
        args = parser.parse_args(argv[1:])  # a flag exploit no longer takes fails here
        calls.append(args)
        Path(args.out).mkdir(parents=True)
        Path(args.out, "exploit.json").write_text(json.dumps(
            {"agent": args.agent, "budget": 512, "timesteps": 512, "games": 10, "win_rate": 0.4, "ci_low": 0.1,
             "ci_high": 0.7, "run": args.out, "command": "yokai exploit ..."}))
        return 0

    monkeypatch.setattr(cli, "main", fake_main)
    duel = load_suite("v1").configurations["duel"]
    row = exploitability("heuristic", duel, "versus", 512, tmp_path / "explo", resume=False)
    assert row == {"budget": 512, "timesteps": 512, "games": 10, "win_rate": 0.4, "ci_low": 0.1, "ci_high": 0.7}
    (args,) = calls
    assert (args.agent, args.game, json.loads(args.env_kwargs)) == ("heuristic", "onmyoji_v5", duel.options)
    assert exploitability("heuristic", duel, "versus", 512, tmp_path / "explo", resume=True) == row
    assert len(calls) == 1  # resumed from its exploit.json
    assert "note" in exploitability("heuristic", load_suite("v1").configurations["coop"], "team", 512,
                                    tmp_path / "none", resume=False)


def test_the_leaderboard_shows_each_shipped_networks_exploitability_from_its_card():
    from agents.pretrained import cards
    from yokai_envs.benchmark.leaderboard import exploitability_section

    lines = exploitability_section()
    rows = {line.split("`")[1]: line for line in lines if line.startswith("| `")}
    assert set(rows) == {card.name for card in cards()}  # every shipped model, measured or said why not
    duel = next(c for c in cards() if c.name == "onmyoji_duel")
    measured = duel.data["exploitability"]
    budget = max(r["budget"] for r in measured["rows"])
    network = next(r for r in measured["rows"] if r["agent"] == "pretrained" and r["budget"] == budget)
    assert f"{budget:,}" in rows["onmyoji_duel"] and f"{network['win_rate']:.3f}" in rows["onmyoji_duel"]
    assert "not applicable" in rows["onmyoji_solo"]
    # an older generation's rows are its own, never the latest generation's
    assert f"{network['win_rate']:.3f} [" not in rows["onmyoji_duel_gen1"].split("|")[6]


def test_the_exploitability_row_is_at_the_largest_budget_measured_against_the_network():
    from agents.pretrained import cards
    from yokai_envs.benchmark.leaderboard import exploitability_section

    rows = {line.split("`")[1]: line for line in exploitability_section() if line.startswith("| `")}
    for card in cards():
        measured = (card.data.get("exploitability") or {}).get("rows") or []
        names = ("pretrained", f"pretrained:generation={card.data.get('generation', 1)}")
        mine = [r for r in measured if r["agent"] in names]
        if mine and max(r["budget"] for r in measured) > max(r["budget"] for r in mine):
            # the heuristic's rows reach further than the network's: the row is where both were measured
            assert f"| {max(r['budget'] for r in mine):,} |" in rows[card.name], card.name
            assert rows[card.name].split("|")[6].strip() != "-", card.name


def _exploit_row(agent: str, budget: int, win_rate: float, ci_low: float,
                 warm_start: str | None = None) -> dict:
    return {"agent": agent, "budget": budget, "win_rate": win_rate, "ci": [ci_low, round(win_rate + 0.04, 3)],
            "games": 500, "seeds": 1, "seed_range": [win_rate, win_rate],
            **({"warm_start": warm_start} if warm_start else {})}


def test_the_exploitability_row_is_the_worst_judged_point_else_the_largest_budget_of_the_own_warm_start(monkeypatch):
    import agents.pretrained as pretrained
    from yokai_envs.benchmark.leaderboard import exploitability_section

    # the card's own yardstick (a heuristic copy) never judges; a copy of the network does at 40,960
    rows = [_exploit_row("heuristic", 40960, 0.268, 0.231), _exploit_row("pretrained", 40960, 0.150, 0.121),
            _exploit_row("heuristic", 409600, 0.278, 0.240), _exploit_row("pretrained", 409600, 0.144, 0.116),
            _exploit_row("heuristic", 40960, 0.375, 0.334, "pretrained"),
            _exploit_row("pretrained", 40960, 0.235, 0.200, "pretrained")]
    card = pretrained.Card("tiny_4p", Path("tiny_4p.safetensors"), "yonkai_no_yokai_v1", {"num_players": 4}, "",
                           {"exploitability": {"warm_start": "heuristic", "fair_share": 0.25, "rows": rows}})
    monkeypatch.setattr(pretrained, "cards", lambda: [card])
    monkeypatch.setattr(pretrained, "find", lambda env_id, options=None, generation=None: card)

    def cells() -> list[str]:
        line = next(line for line in exploitability_section() if line.startswith("| `tiny_4p`"))
        return [cell.strip() for cell in line.split("|")[4:-1]]

    assert cells() == ["pretrained", "40,960", "0.235 [0.200, 0.275]", "0.375 [0.334, 0.415]", "0.250", "yes"]
    # two judging budgets: the worst case is shown, here the smaller budget (the longer refinement won less)
    rows += [_exploit_row("heuristic", 131072, 0.364, 0.323, "pretrained"),
             _exploit_row("pretrained", 131072, 0.242, 0.207, "pretrained"),
             _exploit_row("heuristic", 409600, 0.384, 0.343, "pretrained"),
             _exploit_row("pretrained", 409600, 0.235, 0.200, "pretrained")]
    assert cells()[:3] == ["pretrained", "131,072", "0.242 [0.207, 0.282]"]
    del rows[-4:]
    # a second yardstick that does not judge either: the card's own warm start at its largest budget
    rows[4] = _exploit_row("heuristic", 40960, 0.270, 0.232, "pretrained")
    assert cells() == ["heuristic", "409,600", "0.144 [0.116, 0.184]", "0.278 [0.240, 0.318]", "0.250",
                       "too small"]


def test_the_heuristics_full_run_states_its_cpu_time_and_a_dedicated_machines_wall_time():
    from yokai_envs.benchmark.leaderboard import _cpu_line

    assert _cpu_line({"cpu_seconds": None}) == ""  # a cell played before CPU time was recorded
    line = _cpu_line({"cpu_seconds": 3000.0})
    assert "50 min of CPU time" in line and "about 25 min of wall time on a dedicated 2-core machine" in line
    assert "resumed" not in line and "2 resumed cell(s)" in _cpu_line({"cpu_seconds": 3000.0,
                                                                      "cpu_extrapolated_cells": 2})
