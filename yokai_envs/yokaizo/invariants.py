"""The invariants of a YOKAIZO table (the conformance soak checks them after every step)."""

from __future__ import annotations

from yokai_envs.yokaizo.state import CARDS_PER_SEAT, MAX_SOULS, NO, VOID_SLOTS, Table


def check_invariants(g: Table) -> None:
    """Raise AssertionError when the table breaks a rule: each card in exactly one place, Soul and
    Void rotations only where they belong, zone sizes, a legal action while the game runs."""
    seen: list[int] = []
    for p in (0, 1):
        seen += g.deck[p] + g.hand[p] + g.limbo[p] + g.grave[p] + g.burned[p] + g.void[p]
        seen += [y for y in g.field[p] if y != NO]
        for s in (0, 1):
            seen += g.souls[p][s] + g.shields[p][s] + g.relics[p][s]
            assert len(g.souls[p][s]) <= MAX_SOULS, "too many Souls on a Yokai"
            if g.field[p][s] == NO:
                assert not g.souls[p][s] and not g.shields[p][s] and not g.relics[p][s], \
                    "attachments on an empty Field slot"
        assert len(g.void[p]) <= VOID_SLOTS, "Void over 6 slots"
        for c in g.void[p]:
            assert not g.up[c] and not g.blighted[c]
    seen += g.exile
    assert sorted(seen) == list(range(2 * CARDS_PER_SEAT)), "a card is missing or in two zones"
    souls = {c for p in (0, 1) for s in (0, 1) for c in g.souls[p][s]}
    voids = {c for p in (0, 1) for c in g.void[p]}
    for c in range(2 * CARDS_PER_SEAT):
        if g.up[c] or g.blighted[c]:
            assert c in souls, "a Soul rotation outside the Soul zone"
        if g.frozen[c] or g.facedown[c]:
            assert c in voids, "a Void rotation outside the Void"
    if g.winner != NO or g.draw_game:
        assert g.pending is None
    else:
        assert g.pending, "no legal action while the game runs"
        assert g.pending == sorted(set(g.pending)), "the legal actions are not ascending and distinct"
    for p in (0, 1):
        assert g.grave_souls(p) >= 0
        for known, zone in ((g.pub_hand[p], g.hand[p]), (g.known_in_deck(p), g.deck[p]),
                            (g.pub_burned[p], g.burned[p])):
            for t, k in known.items():
                assert sum(g.ctype[c] == t for c in zone) >= k, "a publicly known card is not where it is known to be"
        bound = g.deck_bound[p]
        if bound is not None:
            for c in g.deck[p]:
                assert bound.get(g.ctype[c], 0) >= sum(g.ctype[d] == g.ctype[c] for d in g.deck[p]), \
                    "the deck holds a card its public bound leaves out"
