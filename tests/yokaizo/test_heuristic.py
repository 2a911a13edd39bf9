"""The YOKAIZO heuristic under the book's rules: a Burned card is a Soul in the burner's Grave."""

from __future__ import annotations

from agents.heuristics.yokaizo import HeuristicAgent
from tests.yokaizo.helpers import blank, effect, field, legal, start, void

S = "Oni Brute"


def _burn_choice(own_grave_souls: int) -> str:
    g = blank()
    for p in (0, 1):
        field(g, p, 0, S)
        field(g, p, 1, S)
    for _ in range(own_grave_souls):
        g.burned[0].append(g.deck[0].pop())
    void(g, 1, "Karasu Scout")
    start(g, effect(g, 0, "[{burn: {up_to: 1, target: enemy_void}}]"), halt=True)
    assert legal(g) == {"pass / done / no", "enemy void card 0"}
    a = HeuristicAgent(0).act(g.observation(0), g.legal_action_mask(), g)
    return g.action_name(a)


def test_the_heuristic_burns_an_enemy_void_card_early_but_not_near_thirteen_grave_souls():
    assert _burn_choice(0) == "enemy void card 0"
    assert _burn_choice(12) == "pass / done / no"  # it would be its own 13th Grave Soul
