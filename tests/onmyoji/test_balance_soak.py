"""The Onmyoji balance tables, re-run from the seed-0 commands recorded in BALANCE.md: the book's
game (the default) and variant "balanced".

The balanced variant's tests replay its recorded commands through
``agents.arena.balance.run_balance`` (or the arena, for the hold-back probe) and assert the
targets; the book's game is checked on cuts of its tables (a few levels, fewer games), so that
the suite's time grows little, asserting the facts its tables record. Results depend only on the
seed, so a change to the cards, the levels or the heuristic that moves a table fails here.
"""

from __future__ import annotations

import itertools

import pytest

from agents.arena.balance import compare_levels, run_balance
from agents.arena.match import run_match

ENV = "onmyoji_v5"
BALANCED = {"variant": "balanced"}

pytestmark = pytest.mark.soak


def _field_rates(result) -> dict:
    return {row["choice"]: row["win_rate"] for row in result.field_rows}


def test_the_books_duel_final_favours_its_first_mover():
    """A cut of BALANCE.md's book Duel table (its full command takes about 35 s: 20 deals per
    pairing here, 240 games): whoever took a Yokai second in the last night battle leads the Final
    (R30) and wins about 3 in 4 (0.735 over 2,040 games), a fact of the book's rule."""
    result = run_balance(ENV, "heuristic", games=20, seed=0, env_options={"mode": "duel"})
    assert result.overall["final_first"]["win_rate"] >= 0.62, result.overall["final_first"]


def test_duel_characters_and_first_mover_of_the_final_in_the_balanced_variant():
    """yokai balance ... '{"mode": "duel"}' --agents heuristic --games 170 --seed 0 --variants balanced"""
    result = run_balance(ENV, "heuristic", games=170, seed=0, env_options={"mode": "duel", **BALANCED})
    rates = _field_rates(result)
    assert all(0.42 <= rate <= 0.58 for rate in rates.values()), rates
    assert result.overall["games"] >= 2000
    assert result.overall["final_first"]["win_rate"] <= 0.58, result.overall["final_first"]


def test_holding_back_buys_no_edge_in_the_balanced_variant():
    """yokai evaluate --game onmyoji_v5 --env-kwargs '{"mode": "duel", "variant": "balanced"}'
    --agents H=heuristic,HB=heuristic:hold_back=true --games 2000 --seed 0"""
    match = run_match(ENV, ["H=heuristic", "HB=heuristic:hold_back=true"], games=2000, seed=0,
                      env_options={"mode": "duel", **BALANCED})
    score = next(row for row in match.head_to_head if row["a"] == "HB")
    # No edge to buy: the holding-back player is not significantly above even, and far below the
    # edge the Final's first move is worth under the book's rule.
    assert score["low"] <= 0.5 and score["score"] <= 0.53, score


def _solo_rates(options: dict) -> list[float]:
    result = run_balance(ENV, "heuristic", games=400, seed=0, env_options={"mode": "solo", **options})
    return [row["win_rate"] for row in sorted(result.rows, key=lambda row: int(row["choice"]))]


def test_the_books_solo_turns_on_heal_before_boss():
    """A cut of BALANCE.md's book Solo table (Lv6, Lv7 and Lv10, 100 games each instead of 400 at
    every level): without Boss damage +N (R26) turning Heal before Boss off is the one big step
    (0.948 to 0.662 over 400 games), and Lv10 clears about half its games (0.542)."""
    result = run_balance(ENV, "heuristic", games=100, seed=0, env_options={"mode": "solo"}, choices=[6, 7, 10])
    lv6, lv7, lv10 = (row["win_rate"] for row in sorted(result.rows, key=lambda row: int(row["choice"])))
    assert lv6 >= 0.85 and lv6 - lv7 >= 0.15 and 0.40 <= lv10 <= 0.70 and lv10 <= lv7, (lv6, lv7, lv10)


def test_solo_curve_can_be_climbed_in_the_balanced_variant():
    """yokai balance ... '{"mode": "solo"}' --agents heuristic --games 400 --seed 0 --variants balanced"""
    rates = _solo_rates(BALANCED)
    assert len(rates) == 10
    steps = [easier - harder for easier, harder in itertools.pairwise(rates)]  # Lv1-2, Lv2-3, ...
    assert all(0 <= step <= 0.20 for step in steps), steps
    assert 0.02 <= rates[-1] <= 0.15, rates


COOP_COMMAND = ("yokai balance --game onmyoji_v5 --env-kwargs '{\"mode\": \"coop\"}' "
                "--agents heuristic,heuristic:selfish=true --games 200 --seed 0 --variants balanced")


def _coop_comparison(options: dict) -> dict[int, dict]:
    runs = [run_balance(ENV, spec, games=200, seed=0, env_options={"mode": "coop", **options})
            for spec in ("heuristic", "heuristic:selfish=true")]
    return {int(row["choice"]): row for row in compare_levels(runs)}


@pytest.fixture(scope="module")
def coop_comparison() -> dict[int, dict]:
    return _coop_comparison(BALANCED)


def test_the_books_coop_lv10_is_hard_but_not_hopeless():
    """A cut of BALANCE.md's book Co-op table (Lv10 only, 60 games instead of 200 at every level
    and for two pairs): Boss damage +6 leaves about 1 clear in 5 (0.215 over 200 games)."""
    result = run_balance(ENV, "heuristic", games=60, seed=0, env_options={"mode": "coop"}, choices=[10])
    assert 0.05 <= result.rows[0]["win_rate"] <= 0.40, result.rows


def test_coop_helping_never_hurts(coop_comparison):
    """COOP_COMMAND, variant "balanced": at no level does helping make the team clear significantly
    less often (no level's paired 95% interval lies below zero), and it helps on average."""
    assert all(row["high"] >= 0 for row in coop_comparison.values()), coop_comparison
    assert sum(row["difference"] for row in coop_comparison.values()) > 0, coop_comparison


def test_coop_helping_matters_by_a_tenth_where_play_is_hard(coop_comparison):
    """COOP_COMMAND, variant "balanced": where fewer than 3 in 4 games are cleared, helping adds at
    least 0.10, and the hard levels are most of the table (Lv4-10 on seed 0), not one or two."""
    hard = [row for row in coop_comparison.values() if row["rate_a"] < 0.75]
    assert len(hard) >= 6 and all(row["difference"] >= 0.10 for row in hard), hard


def test_coop_curve_falls_and_lv10_can_be_cleared(coop_comparison):
    """COOP_COMMAND, variant "balanced": the cooperative clear rate falls with the level (within
    0.03 of noise on a flat step), no step drops more than 0.20, and Lv10 is hard but not hopeless."""
    rates = [coop_comparison[level]["rate_a"] for level in range(1, 11)]
    steps = [easier - harder for easier, harder in itertools.pairwise(rates)]
    assert all(-0.03 <= step <= 0.20 for step in steps), steps
    assert 0.10 <= rates[-1] <= 0.40, rates
