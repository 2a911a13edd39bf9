"""The invariants of a YOKAIZO table (the conformance soak checks them after every step)."""

from __future__ import annotations

from yokai_envs.yokaizo.state import CARDS_PER_SEAT, MAX_SOULS, NO, VOID_SLOTS, State


def check_invariants(st: State) -> None:
    """Raise AssertionError when the table breaks a rule: each card in exactly one place, Soul and
    Void rotations only where they belong, zone sizes, a legal action while the game runs."""
    seen: list[int] = []
    for p in (0, 1):
        seen += st.deck[p] + st.hand[p] + st.limbo[p] + st.grave[p] + st.burned[p] + st.void[p]
        seen += [y for y in st.field[p] if y != NO]
        for s in (0, 1):
            seen += st.souls[p][s] + st.shields[p][s] + st.relics[p][s]
            assert len(st.souls[p][s]) <= MAX_SOULS, "too many Souls on a Yokai"
            if st.field[p][s] == NO:
                assert not st.souls[p][s] and not st.shields[p][s] and not st.relics[p][s], \
                    "attachments on an empty Field slot"
        assert len(st.void[p]) <= VOID_SLOTS, "Void over 6 slots"
        for c in st.void[p]:
            assert not st.up[c] and not st.blighted[c]
    seen += st.exile
    assert sorted(seen) == list(range(2 * CARDS_PER_SEAT)), "a card is missing or in two zones"
    souls = {c for p in (0, 1) for s in (0, 1) for c in st.souls[p][s]}
    voids = {c for p in (0, 1) for c in st.void[p]}
    for c in range(2 * CARDS_PER_SEAT):
        if st.up[c] or st.blighted[c]:
            assert c in souls, "a Soul rotation outside the Soul zone"
        if st.frozen[c] or st.facedown[c]:
            assert c in voids, "a Void rotation outside the Void"
    if st.winner != NO or st.draw_game:
        assert st.pending is None
    else:
        assert st.pending, "no legal action while the game runs"
        assert st.pending == sorted(set(st.pending)), "the legal actions are not ascending and distinct"
    for p in (0, 1):
        assert st.grave_souls(p) >= 0
        for known, zone in ((st.pub_hand[p], st.hand[p]), (st.known_in_deck(p), st.deck[p]),
                            (st.pub_burned[p], st.burned[p])):
            for t, k in known.items():
                assert sum(st.ctype[c] == t for c in zone) >= k, "a publicly known card is not where it is known to be"
        bound = st.deck_bound[p]
        if bound is not None:
            for c in st.deck[p]:
                assert bound.get(st.ctype[c], 0) >= sum(st.ctype[d] == st.ctype[c] for d in st.deck[p]), \
                    "the deck holds a card its public bound leaves out"
