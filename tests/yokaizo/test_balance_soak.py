"""The recorded seed-0 balance table of BALANCE.md, re-run: the ready decks stay fair.

The run is deterministic (fixed seed, one process), so this fails only if the content, the rules
or the heuristic changed; about a minute on one core, hence ``soak``."""

from __future__ import annotations

import pytest

from agents.arena.balance import run_balance
from yokai_envs.yokaizo.game import YokaizoGame

#: The command recorded in BALANCE.md: yokai balance --game yokaizo_v4 --agents heuristic --games 23 --seed 0
DEALS, SEED = 23, 0
DECK_RANGE = (0.40, 0.60)   # every ready deck against the field
SEAT_RANGE = (0.45, 0.55)   # seat 0, and the seat that took the first Turn


@pytest.mark.soak
def test_recorded_seed_0_table_is_inside_the_fairness_targets() -> None:
    result = run_balance(YokaizoGame.env_id, "heuristic", games=DEALS, seed=SEED)
    assert result.overall["games"] == 45 * 2 * DEALS
    rates = {row["choice"]: row["win_rate"] for row in result.field_rows}
    assert len(rates) == 10
    outside = {deck: round(rate, 3) for deck, rate in rates.items() if not DECK_RANGE[0] <= rate <= DECK_RANGE[1]}
    assert not outside, f"decks outside {DECK_RANGE} against the field: {outside}"
    for key in ("first_seat", "first_player"):
        rate = result.overall[key]["win_rate"]
        assert SEAT_RANGE[0] <= rate <= SEAT_RANGE[1], f"{key} wins {rate:.3f}, outside {SEAT_RANGE}"
    assert result.overall["length"]["truncated"] == 0
