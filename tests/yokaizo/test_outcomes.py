"""How a YOKAIZO game ended (``outcome_facts``, read by ``yokai balance``): a scripted game for
each ending cause, and the seat that took the first Turn."""

from __future__ import annotations

import numpy as np
import pytest

from tests.yokaizo.helpers import NO, act, blank, effect, field, start, void
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.state import EndCause, Event

S = "Oni Brute"  # 5 Souls


def board() -> YokaizoGame:
    g = blank()
    for p in (0, 1):
        for s in (0, 1):
            field(g, p, s, S)
    return g


def test_a_banish_that_fills_the_grave_ends_the_game_by_banish() -> None:
    g = board()
    g.grave[1] += [g.deck[1].pop(), g.deck[1].pop()]  # two Oni Brutes: 10 Souls
    y = field(g, 1, 0, "Karasu Scout", up=2, down=1)  # 3 Souls, two face up
    start(g, Damage(1, 0, y, 1, True))  # BREAK DMG 1: the defender flips its last Soul
    assert not g.is_terminal
    act(g, "soul 2")  # all 3 Souls face up: Banished, the Grave holds 13 Souls
    assert g.is_terminal and g.winner == 0 and g.grave_souls(1) == 13
    assert g.outcome_facts()["end"] == EndCause.BANISH == "13 Grave Souls: a Banish"


def test_burning_your_own_deck_to_thirteen_loses_by_own_burn() -> None:
    g = board()
    for _ in range(12):
        g.burned[0].append(g.deck[0].pop())
    start(g, effect(g, 0, "[{burn: 3}]"))
    act(g, "yes")
    assert g.is_terminal and g.winner == 1
    assert g.outcome_facts()["end"] == EndCause.OWN_BURN


def test_burning_an_enemy_void_card_as_your_thirteenth_grave_soul_loses_by_own_burn() -> None:
    g = board()
    for _ in range(12):
        g.burned[0].append(g.deck[0].pop())
    void(g, 1, S)
    start(g, effect(g, 0, "[{burn: {up_to: 1, target: enemy_void}}]"))
    act(g, "enemy void card 0")  # the Burned card goes to the burner's own Grave (R14)
    assert g.is_terminal and g.winner == 1
    assert g.outcome_facts()["end"] == EndCause.OWN_BURN


def test_a_round_without_turns_is_a_draw_by_that_cause() -> None:
    g = blank()
    g.exile += g.deck[0] + g.deck[1]
    g.deck = [[], []]
    g.round_stage = 0
    start(g)
    assert g.is_terminal and g.winner == NO
    facts = g.outcome_facts()
    assert facts["end"] == EndCause.NO_TURNS and "first_player" not in facts  # nobody took a Turn


def test_the_step_cap_and_an_unfinished_game_are_named() -> None:
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"), max_steps=40)
    g.reset(3)
    while not g.is_over:
        g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
    assert g.is_truncated and g.outcome_facts()["end"] == "step cap"
    g.reset(3)
    assert g.outcome_facts() == {"end": "end"}  # not over, no Turn yet


@pytest.mark.parametrize("seed", range(12))
def test_first_player_is_the_seat_of_the_first_turn_and_causes_match_the_grave(seed: int) -> None:
    g = YokaizoGame()
    g.record_information(True)
    g.reset(seed)
    rng = np.random.default_rng(seed)
    while not g.is_over:
        g.step(int(rng.choice(np.flatnonzero(g.legal_action_mask()))))
    facts = g.outcome_facts()
    first_turn = next(e for e in g._seen[0] if e[0] == Event.TURN)
    assert facts["first_player"] == first_turn[1]
    if g.winner != NO:
        loser = 1 - g.winner
        assert g.grave_souls(loser) >= 13 > g.grave_souls(g.winner)
        assert facts["end"] in {EndCause.BANISH, EndCause.OWN_BURN}
        # the last card into the loser's Grave came the way the cause says
        last = next(e for e in reversed(g._seen[0]) if e[0] in (Event.BANISHED, Event.BURNED))
        assert last[1] == loser
        assert last[0] == (Event.BANISHED if facts["end"] == EndCause.BANISH else Event.BURNED)
