"""Arena statistics over duplicate deals: intervals over deals, paired differences between two
agents on the same deals (checked against a case worked by hand), degenerate tables, aliases,
and the tables and plots built from them."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from agents.arena import markdown, run_match, write_outputs
from agents.arena.match import split_alias
from agents.arena.report import latex, tex_escape
from agents.arena.schedule import build_tables
from agents.arena.stats import (
    correlation,
    deal_interval,
    paired_differences,
    paired_interval,
    t975,
    table_rows,
    wilson,
)
from tests.agents.toy_game import ToyTrickGame

Z = 1.959963984540054


def records_for(tables, credits_by_table):
    """Hand-made 2-player records: credits_by_table[t][deal] = the first agent's credit in each
    arrangement of table t (the other seat gets 1 - credit)."""
    records = []
    for table in tables:
        first = table.agents[0]
        for deal, credits in enumerate(credits_by_table[table.index]):
            for arrangement, (seats, credit) in enumerate(zip(table.arrangements, credits)):
                pair = [credit, 1.0 - credit] if seats[0] == first else [1.0 - credit, credit]
                records.append({"index": len(records), "table": table.index, "deal": deal, "arrangement": arrangement,
                                "seats": list(seats), "credits": pair, "returns": [2 * c - 1 for c in pair],
                                "steps": 1, "truncated": False})
    return records


# ------------------------------------------------------------------ the hand-computed case
# Gauntlet C against A and B: tables (C, A) and (C, B), 4 deals, both seat arrangements of each.
# A's credits on the deals: (1, 1), (1, 0), (1, 1), (0, 0) -> per-deal scores 1, .5, 1, 0
# B's credits on the same deals: (1, 0), (0, 1), (1, 1), (0, 0) -> .5, .5, 1, 0
#
# A: mean .625; deviations .375 -.125 .375 -.625, squares sum .6875, s^2 = .6875/3, se^2 = s^2/4
#    = .057292; n_eff = .625 * .375 / .057292 * (z / t_3)^2 = 4.090909 * (1.959964 / 3.182446)^2
#    = 1.551650; Wilson(.625, 1.551650) = [0.117789, 0.954139]
# B: mean .5; squares sum .5, se^2 = .5/12 = .041667; n_eff = 6 * .379297 = 2.275754;
#    Wilson(.5, 2.275754) = [0.103776, 0.896224]
# r = .5 / sqrt(.6875 * .5) = 0.852803
# A - B = .125; MOVER:
#    low  = .125 - sqrt((.625 - .117789)^2 + (.896224 - .5)^2 - 2r(.625 - .117789)(.896224 - .5)) = -0.142362
#    high = .125 + sqrt((.954139 - .625)^2 + (.5 - .103776)^2 - 2r(.954139 - .625)(.5 - .103776)) = 0.332107
HAND_A = (0.625, 0.117789, 0.954139)
HAND_B = (0.5, 0.103776, 0.896224)
HAND_R = 0.852803
HAND_DIFF = (0.125, -0.142362, 0.332107)


def hand_case():
    tables = build_tables(["A", "B"], 2, gauntlet="C")
    assert [t.agents for t in tables] == [("C", "A"), ("C", "B")]
    # first agent of each table is C: its credit is 1 - the other's
    a_credits = [(1, 1), (1, 0), (1, 1), (0, 0)]
    b_credits = [(1, 0), (0, 1), (1, 1), (0, 0)]
    flip = [[(1 - x, 1 - y) for x, y in deals] for deals in (a_credits, b_credits)]
    return tables, records_for(tables, flip)


def test_t_quantiles():
    assert t975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t975(3) == pytest.approx(3.18245, abs=1e-5)
    assert t975(30) == pytest.approx(2.04227, abs=1e-5)
    assert t975(31) == pytest.approx(2.03951, abs=1e-4)  # series beyond the table
    assert t975(120) == pytest.approx(1.97993, abs=1e-4)
    assert t975(10**6) == pytest.approx(Z, abs=1e-4)
    stats_scipy = pytest.importorskip("scipy.stats")
    for df in (1, 2, 5, 29, 30, 31, 40, 75, 500):
        assert t975(df) == pytest.approx(stats_scipy.t.ppf(0.975, df), abs=2e-4)


def test_interval_over_deals_hand_computed():
    a = deal_interval([1, 0.5, 1, 0], games=8)
    assert a["basis"] == "deals" and a["deals"] == 4
    assert a["n_eff"] == pytest.approx(0.625 * 0.375 / (0.6875 / 12) * (Z / 3.182446) ** 2, rel=1e-5)
    assert (a["mean"], a["low"], a["high"]) == pytest.approx(HAND_A, abs=1e-5)
    b = deal_interval([0.5, 0.5, 1, 0], games=8)
    assert (b["mean"], b["low"], b["high"]) == pytest.approx(HAND_B, abs=1e-5)


def test_paired_difference_hand_computed():
    tables, records = hand_case()
    rows = table_rows(tables, records, 2)
    row_a = next(r for r in rows if r["agent"] == "A")
    assert row_a["games"] == 8 and row_a["deals"] == 4 and row_a["win_rate"] == pytest.approx(0.625)
    assert (row_a["ci_low"], row_a["ci_high"]) == pytest.approx(HAND_A[1:], abs=1e-5)
    pairs = paired_differences(tables, records, ["C", "A", "B"])
    across = [p for p in pairs if p["where"] == "vs C"]
    assert len(across) == 1
    p = across[0]
    assert (p["a"], p["b"], p["table_a"], p["table_b"], p["deals"]) == ("A", "B", 0, 1, 4)
    assert p["correlation"] == pytest.approx(HAND_R, abs=1e-6)
    assert (p["difference"], p["low"], p["high"]) == pytest.approx(HAND_DIFF, abs=1e-5)
    # and C against each of them at its own table
    same = {(q["a"], q["b"]) for q in pairs if q["where"] == "same table"}
    assert same == {("C", "A"), ("C", "B")}


def test_paired_interval_is_the_paired_t_interval_in_large_samples():
    rng = np.random.default_rng(0)
    luck = rng.random(4000)  # a deal effect both agents share
    xa = np.clip(luck + rng.normal(0.1, 0.15, luck.size), 0, 1).round(1)
    xb = np.clip(luck + rng.normal(0.0, 0.15, luck.size), 0, 1).round(1)
    a, b = deal_interval(xa, 2 * luck.size), deal_interval(xb, 2 * luck.size)
    low, high = paired_interval(a, b, correlation(xa, xb))
    d = xa - xb
    half = Z * d.std(ddof=1) / math.sqrt(d.size)
    assert low == pytest.approx(d.mean() - half, abs=0.1 * half)
    assert high == pytest.approx(d.mean() + half, abs=0.1 * half)
    # pairing matters: the unpaired interval would be several times wider
    assert high - low < 0.5 * (a["high"] - a["low"] + b["high"] - b["low"])


# ------------------------------------------------------------------ degenerate tables
def test_a_sweep_gets_an_interval_not_a_point():
    tables = build_tables(["A", "B"], 2)
    records = records_for(tables, {0: [(1, 1)] * 5})
    rows = table_rows(tables, records, 2)
    winner = next(r for r in rows if r["agent"] == "A")
    assert winner["win_rate"] == 1.0 and winner["ci_basis"] == "games"
    assert (winner["ci_low"], winner["ci_high"]) == pytest.approx((0.722467, 1.0), abs=1e-5)  # Wilson, 10 of 10
    assert winner["ci_low"] < winner["ci_high"]
    (pair,) = paired_differences(tables, records, ["A", "B"])
    # the per-deal scores do not vary: correlation unknown, r = -1, the half-widths add
    assert pair["correlation"] is None
    assert pair["difference"] == 1.0 and pair["low"] == pytest.approx(1 - 2 * (1 - 0.722467), abs=1e-5)
    assert pair["high"] == 1.0


def test_wilson_with_effective_trials():
    assert wilson(0.5, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0.3, 0) == (0.0, 1.0)
    assert deal_interval([], 0)["basis"] == "none"
    single = deal_interval([0.5], 2)  # one deal: no variance to estimate
    assert single["basis"] == "games" and single["low"] < 0.5 < single["high"]


def test_self_play_table_says_so():
    result = run_match(ToyTrickGame, ["random"], games=6, seed=0)
    (row,) = result.rows
    assert row["self_play"] and result.summary()["tables"][0]["self_play"]
    assert row["win_rate"] == pytest.approx(0.5)
    assert result.paired == [] and result.head_to_head == []
    text = markdown(result)
    assert "itself (self-play)" in text and "is self-play" in text
    assert "self-play" in latex(result)


def test_head_to_head_is_the_two_player_win_rate():
    result = run_match(ToyTrickGame, ["random", "R2=random", "I=ismcts:iterations=10"], games=6, seed=1)
    cells = {(c["a"], c["b"]): c for c in result.head_to_head}
    for row in result.rows:
        table = result.tables[row["table"]]
        (other,) = [x for x in table.agents if x != row["agent"]]
        cell = cells[(row["agent"], other)]
        assert cell["score"] == pytest.approx(row["win_rate"])
        assert (cell["low"], cell["high"]) == pytest.approx((row["ci_low"], row["ci_high"]))
    assert ("I", "I") not in cells and len(cells) == 6


def test_head_to_head_with_more_seats():
    result = run_match(ToyTrickGame, ["I=ismcts:iterations=10", "random"], games=4, seed=0,
                       env_options={"num_players": 3})
    cells = {(c["a"], c["b"]): c for c in result.head_to_head}
    assert set(cells) == {("I", "random"), ("random", "I")}
    assert cells[("I", "random")]["comparisons"] == 2 * len(result.records)  # two randoms per game
    assert cells[("I", "random")]["score"] + cells[("random", "I")]["score"] == pytest.approx(1.0)


# ------------------------------------------------------------------ aliases and outputs
@pytest.mark.parametrize(("entry", "expected"), [
    ("H=heuristic", ("H", "heuristic")),
    ("ISMCTS-30=ismcts:iterations=30;rollout=heuristic", ("ISMCTS-30", "ismcts:iterations=30;rollout=heuristic")),
    (" my bot = random ", ("my bot", "random")),
    ("ismcts:iterations=30", (None, "ismcts:iterations=30")),
    ("policy:runs/a=b.zip", (None, "policy:runs/a=b.zip")),
    ("random", (None, "random")),
])
def test_split_alias(entry, expected):
    assert split_alias(entry) == expected


def test_aliases_name_agents_everywhere(tmp_path):
    spec = "ismcts:iterations=8;c=1.5"
    result = run_match(ToyTrickGame, [f"I8={spec}", ("R", "random")], games=4, seed=0)
    assert result.agents == ["I8", "R"] and result.specs == {"I8": spec, "R": "random"}
    assert {r["agent"] for r in result.rows} == {"I8", "R"} and set(result.ratings) == {"I8", "R"}
    assert all(set(r["seats"]) == {"I8", "R"} for r in result.records)
    paths = write_outputs(result, tmp_path)
    summary = json.loads(paths["json"].read_text())
    assert summary["agent_specs"] == {"I8": spec, "R": "random"}
    assert f"| I8 | `{spec}` |" in paths["md"].read_text()
    tex = paths["tex"].read_text()
    assert r"\texttt{ismcts:iterations=8;c=1.5}" in tex and r"\begin{tabular}" in tex
    assert paths["matrix"].read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="two different agents are labelled 'X'"):
        run_match(ToyTrickGame, ["X=random", "X=ismcts:iterations=3"], games=2)
    with pytest.raises(ValueError, match="unknown agent kind"):
        run_match(ToyTrickGame, ["X=rnd"], games=2)


def test_tex_escape():
    assert tex_escape("a_b & 50% #1 {x}") == r"a\_b \& 50\% \#1 \{x\}"
