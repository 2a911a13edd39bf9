"""Payment masks are exact: can_pay agrees with a brute-force search, and every offered payment
choice leads to a completed payment (no dead ends), for random Void contents and costs."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.yokaizo.helpers import blank, field, legal, start
from tests.yokaizo.helpers import void as put_void
from yokai_envs.yokaizo.attacks import Pay, can_pay
from yokai_envs.yokaizo.state import NO

ELEMENT_CARDS = ("Kitsune Emberling", "Karasu Scout", "Oni Brute", "Kappa Bowlkeeper", "Weeping Yurei")


@cache
def brute(void: tuple[int, ...], elems: tuple[int, ...], generic: int, ally: int) -> bool:
    """Try every way: Ally, a matching card, or any two cards per element; any card per generic."""
    if not elems:
        return len(void) >= generic
    e, rest = elems[0], elems[1:]
    if ally == e and brute(void, rest, generic, NO):
        return True
    for i, c in enumerate(void):
        others = void[:i] + void[i + 1:]
        if c == e and brute(others, rest, generic, ally):
            return True
        for j in range(len(others)):
            if brute(others[:j] + others[j + 1:], rest, generic, ally):
                return True
    return False


voids = st.lists(st.integers(-1, 4), max_size=6)
costs = st.lists(st.integers(0, 4), min_size=0, max_size=3)


@settings(max_examples=300, deadline=None)
@given(voids, costs, st.integers(0, 2), st.integers(-1, 4))
def test_can_pay_matches_brute_force(void, elems, generic, ally):
    elems = tuple(sorted(elems))
    assert can_pay(void, elems, generic, ally) == brute(tuple(void), elems, generic, ally)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-1, 4), min_size=1, max_size=6), costs.filter(bool), st.integers(0, 2),
       st.integers(0, 4), st.integers(0, 2**31))
def test_every_offered_payment_choice_completes(void, elems, generic, ally, seed):
    elems = tuple(sorted(elems))
    if not can_pay(void, elems, generic, ally):
        return
    g = blank()
    field(g, 0, 0, "Oni Brute")
    field(g, 0, 1, ELEMENT_CARDS[ally])
    field(g, 1, 0, "Oni Brute")
    for e in void:
        c = put_void(g, 0, ELEMENT_CARDS[e] if e >= 0 else "Oni Brute")[0]
        g.facedown[c] = 1 if e < 0 else 0  # -1: a face-down Token
    rng = np.random.default_rng(seed)
    start(g, Pay(0, 0, elems, generic, ally), halt=True)
    while g.phase_name == "pay the Special Attack":
        options = np.flatnonzero(g.legal_action_mask())
        assert options.size, "a payable cost reached a dead end"
        g.step(int(rng.choice(options)))
    assert g.phase_name == "halt" and legal(g) == {"pass / done / no"}


def test_can_pay_matches_brute_force_on_every_small_case():
    """Every Void of up to 4 cards (as a multiset: order cannot matter), every cost of up to 3
    elements and 2 generics, every Ally."""
    from itertools import combinations_with_replacement

    checked = 0
    for size in range(5):
        for void in combinations_with_replacement(range(-1, 5), size):
            for count in range(4):
                for elems in combinations_with_replacement(range(5), count):
                    for generic in range(3):
                        for ally in range(-1, 5):
                            assert can_pay(list(void), elems, generic, ally) == brute(void, elems, generic, ally), \
                                (void, elems, generic, ally)
                            checked += 1
    assert checked > 100_000
