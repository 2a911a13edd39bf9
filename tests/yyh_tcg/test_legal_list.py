"""The pending decision's legal actions are listed directly (no mask per step): the list is
ascending with each action once, the mask is built from it, and the forced-pass check's shortcut
(only the few affordable Events of the timing) agrees with a minimum over every unseen card."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from yokai_envs.yyh_tcg.cards import Timing
from yokai_envs.yyh_tcg.decisions import NO_EVENT, legal, legal_actions_now, pass_is_public
from yokai_envs.yyh_tcg.game import YYHGame
from yokai_envs.yyh_tcg.state import PASSABLE, Phase


def _pass_is_public_by_min(g: YYHGame) -> bool:
    """The check as a minimum over every unseen card of the decklist (what the shortcut replaces)."""
    me = g.players[g.decider]
    if g.phase == Phase.MAIN:
        return not me.hand
    if g.phase in (Phase.USE, Phase.ABILITIES):
        if not me.hand:
            return True
        costs = g.state.tables.event_spirit[Timing.USE if g.phase == Phase.USE else Timing.ATTACK]
        return min((costs[c] for c in me.hidden_cards() + me.deck), default=NO_EVENT) > me.spirit
    return True


def _random_states(games: int) -> Iterator[YYHGame]:
    rng = np.random.default_rng(7)
    g = YYHGame()
    for seed in range(games):
        g.reset(seed)
        while not g.is_over:
            yield g
            legal = g.legal_actions()
            g.step(legal[int(rng.integers(len(legal)))])


def test_listed_actions_are_ascending_unique_and_match_the_mask() -> None:
    seen_phases = set()
    for g in _random_states(30):
        actions = legal_actions_now(g.state)
        assert actions, "a running game always has a legal action"
        assert actions == sorted(set(actions)), f"{g.phase}: {actions}"
        assert actions == g.legal_actions() == np.flatnonzero(g.legal_action_mask()).tolist()
        assert np.array_equal(legal(g.state), g.legal_action_mask())
        seen_phases.add(g.phase)
    assert {Phase.MAIN, Phase.ATTACK, Phase.USE, Phase.DISCARD} <= seen_phases


def test_pass_shortcut_agrees_with_the_minimum_over_unseen_cards() -> None:
    asked = 0
    for g in _random_states(30):
        if g.phase in PASSABLE:
            assert pass_is_public(g.state) == _pass_is_public_by_min(g), (g.phase, g.players[g.decider].spirit)
            asked += 1
    assert asked > 100

