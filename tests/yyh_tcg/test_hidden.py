"""determinize's placement of shown cards: exact, and blind to where they really are."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import numpy as np

from tests.yyh_tcg.helpers import give, neutral_game, new_game, play, refresh
from yokai_envs.yyh_tcg.cards import ATTACHABLE
from yokai_envs.yyh_tcg.hidden import place_shown
from yokai_envs.yyh_tcg.state import Phase


def _cards():
    g = new_game()
    cards = g.pool.cards
    attachable = [c.id for c in cards if c.type in ATTACHABLE]
    plain = [c.id for c in cards if c.type not in ATTACHABLE]
    return g.state, attachable, plain


def _opp(shown, really_hidden):
    # hidden_cards is what the rejected fallback read: the twins below differ only there
    return SimpleNamespace(shown=list(shown), shown_at=list(range(len(shown))),
                           hidden_cards=lambda: list(really_hidden))


def _after_every_show(shown, n_down):
    """The show count of ``n_down`` face-down places attached after every shown card."""
    return [len(shown)] * n_down


def test_shown_cards_are_placed_without_reading_where_they_really_are() -> None:
    """Three shown attachables must all be face-down (no unknown attachable is left for those
    places), so random placement rarely fits; the sample used to fall back to the real places."""
    table, attachable, plain = _cards()
    shown = [*attachable[:3], plain[0]]
    hand = [plain[0], *plain[1:8]]
    unknown = plain[8:12]  # no attachable: the three face-down places hold the three shown ones
    twin_a = _opp(shown, hand + attachable[:3])
    twin_b = _opp(shown, hand + attachable[2::-1][:3])
    for seed in range(200):
        a = place_shown(table, twin_a, 8, _after_every_show(shown, 3), list(unknown), np.random.default_rng(seed))
        b = place_shown(table, twin_b, 8, _after_every_show(shown, 3), list(unknown), np.random.default_rng(seed))
        assert a == b
        assert sorted(a[8:]) == sorted(attachable[:3]) and plain[0] in a[:8]


def test_placements_are_uniform_over_those_that_fit() -> None:
    """Two shown attachables, two hand places, two face-down places, one unknown attachable:
    of the 12 ways to place the pair, the 2 that leave both face-down places to unknown cards
    do not fit; the other 10 are equally likely."""
    table, attachable, plain = _cards()
    shown = attachable[:2]
    unknown = [attachable[2], plain[0], plain[1]]
    counts: Counter[tuple[int, ...]] = Counter()
    draws = 5000
    rng = np.random.default_rng(7)
    for _ in range(draws):
        counts[tuple(place_shown(table, _opp(shown, []), 2, _after_every_show(shown, 2), list(unknown), rng))] += 1
    assert len(counts) == 10
    assert all(tuple(p)[2:] != (-1, -1) for p in counts)
    for n in counts.values():
        assert abs(n / draws - 0.1) < 0.02


def test_a_sampled_world_keeps_the_card_a_pending_search_takes() -> None:
    """Seat 0 is choosing what its search for a Technique takes, with its last Technique in a
    deck of three cards and six cards in hand: seat 1's sampled worlds must leave a Technique in
    that deck (the search is only asked when there is one), or seat 0 would have no legal action."""
    g = neutral_game(first=0)
    p = g.players[0]
    cards = g.pool.cards
    give(g, 0, "Spirit World Orders", "Ambush", "Ambush", "Sneak Attack", "Sneak Attack", "Second Wind",
         "Second Wind")
    p.spirit = 5
    technique = next(c for c in p.deck if cards[c].type == "technique")
    p.deck.remove(technique)
    keep = [c for c in p.deck if cards[c].type not in ("technique", "character")][:2]
    for c in keep:
        p.deck.remove(c)
    p.discard.extend(p.deck)
    p.deck = [*keep, technique]
    refresh(g)
    play(g, "play Spirit World Orders")
    assert g.phase == Phase.SEARCH and g.current_player == 0 and len(p.hand) == 6
    rng = np.random.default_rng(0)
    for _ in range(60):
        world = g.determinize(1, rng)
        assert world.legal_actions() == [g.table.search(technique)]
        world.check_invariants()
