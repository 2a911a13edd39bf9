"""What ``determinize`` redraws in YYH: the seat's own deck order and the opponent's hidden cards
(hand, deck, face-down attachments, unrevealed picks), keeping what the seat knows (decklists are
public; cards the opponent has shown stay among its hand and face-down cards)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from yokai_envs.yyh_tcg.cards import ATTACHABLE
from yokai_envs.yyh_tcg.state import Attachment, Phase, PlayerState, Slot

if TYPE_CHECKING:
    from yokai_envs.yyh_tcg.state import State


#: Deals tried before giving up on one that keeps the opponent's pending search possible. The real
#: deal fits, so some attachable is left over for the deck: a deal keeps a card of the type there
#: with a chance of at least 1 / (face-down places + 1) x deck / (deck + hand), e.g. 1/300 with
#: 16 face-down cards, a deck of one and a hand of 17; 10,000 deals all miss only below ~1/1,000.
MAX_DEALS = 10_000


def known_placements(st: State, seat: int) -> list[tuple[Any, ...]]:
    """What ``seat`` knows of hidden places: the opponent's shown cards (each still in its hand
    or face-down) and both decklists."""
    facts: list[tuple[Any, ...]] = []
    if not st.players:
        return facts
    opp = 1 - seat
    for cid in sorted(set(st.players[opp].shown)):
        facts.append(("hidden_holds", opp, cid, st.players[opp].shown.count(cid)))
    for s in (seat, opp):
        facts.append(("decklist", s, tuple(st.original_decks[s])))
    return facts


def placement_holds(st: State, placement: tuple[Any, ...]) -> bool:
    """Whether the table satisfies a fact of :func:`known_placements`."""
    kind, seat = placement[0], placement[1]
    p = st.players[seat]
    if kind == "hidden_holds":
        return p.hidden_cards().count(placement[2]) >= placement[3]
    if kind == "decklist":
        return tuple(sorted(p.all_cards())) == placement[2]
    raise ValueError(f"unknown placement {placement!r}")


def resample_hidden(st: State, seat: int, rng: np.random.Generator) -> None:
    """Own deck order; the opponent's hand, deck, face-down attachments and unrevealed picks.

    Decklists are public, so the opponent's hidden cards are its own deck's, reshuffled.
    Cards it has shown (``PlayerState.shown``) stay among its hand and face-down cards.
    When the opponent is choosing what a search takes, its deck holds a card of that type
    (the search is asked only then, in public): deals without one are redrawn, so the sample is
    uniform over the deals that keep that choice. The pending mask is left to the caller
    (``decisions.legal_actions_now``)."""
    me, opp = st.players[seat], st.players[1 - seat]
    # Sorting first makes the sample a function of the seat's information and rng only,
    # never of the real hidden order (ISMCTS must decide the same in either world).
    me.deck.sort()
    rng.shuffle(me.deck)
    hidden_slots = [] if st.revealed else opp.slots()
    face_down = [a for s in opp.slots() for a in s.attached if not (a.face_up or a.turned)]
    n_hand = len(opp.hand)
    unknown = opp.hand + opp.deck + [s.char for s in hidden_slots] + [a.card for a in face_down]
    for cid in opp.shown:  # shown cards stay among the hand and the face-down cards
        unknown.remove(cid)
    unknown.sort()
    searched = _pending_search(st, 1 - seat)
    cards = st.tables.cards
    for _ in range(MAX_DEALS):
        hand, deck = _deal(st, opp, hidden_slots, face_down, n_hand, unknown[:], rng)
        if searched is None or any(cards[cid].type == searched for cid in deck):
            break
    else:
        raise RuntimeError(f"no deal of {MAX_DEALS} kept a {searched} in the searching deck "
                           "(an engine invariant broke)")
    opp.hand = hand
    opp.deck = deck
    # No Team Bonus refresh here: before the reveal nobody's bonus is computed (the reveal does it).


def _pending_search(st: State, opp: int) -> str | None:
    """The card type ``opp``'s search is taking now (its pending decision), else None."""
    if st.winner is None and st.phase == Phase.SEARCH and st.decider == opp:
        return str(st.choices[0][2])
    return None


def _deal(st: State, opp: PlayerState, hidden_slots: list[Slot], face_down: list[Attachment], n_hand: int,
          unknown: list[int], rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """One uniform deal of ``unknown`` (a fresh list, consumed): the unrevealed picks and the
    face-down cards are set in place; the hand and the deck are returned."""
    cards = st.tables.cards
    rng.shuffle(unknown)
    # Constrained places first: unrevealed picks are characters.
    for slot in hidden_slots:
        i = next(i for i, c in enumerate(unknown) if cards[c].is_character)
        slot.char = unknown.pop(i)
    places = place_shown(st, opp, n_hand, len(face_down), unknown, rng)
    for i, att in enumerate(face_down):
        if places[n_hand + i] < 0:
            j = next(j for j, c in enumerate(unknown) if cards[c].type in ATTACHABLE)
            att.card = unknown.pop(j)
        else:
            att.card = places[n_hand + i]
    hand = [places[i] if places[i] >= 0 else unknown.pop() for i in range(n_hand)]
    return hand, unknown


def place_shown(st: State, opp: PlayerState, n_hand: int, n_down: int, unknown: list[int],
                rng: np.random.Generator) -> list[int]:
    """Where the shown cards go among hand places (first ``n_hand``) and face-down places:
    a card id per place, -1 where an unknown card goes.

    Non-attachables can only be in the hand. Each attachable shown card is in a hand place or a
    face-down place, and the face-down places it leaves must still be fillable from the unknown
    attachables. The sample is uniform over the placements that fit (shown cards in distinct
    places, each equally likely), drawn exactly: first how many shown attachables are face-down,
    weighted by how many placements have that count, then which ones and where. It never looks
    at where the cards really are, and it always succeeds, since the real placement fits."""
    cards = st.tables.cards
    places = [-1] * (n_hand + n_down)
    plain = [c for c in sorted(opp.shown) if cards[c].type not in ATTACHABLE]
    attachable = [c for c in sorted(opp.shown) if cards[c].type in ATTACHABLE]
    if not plain and not attachable:
        return places
    spare = sum(cards[c].type in ATTACHABLE for c in unknown)
    hand_free = n_hand - len(plain)
    k = len(attachable)
    fits = range(max(0, k - hand_free, n_down - spare), min(k, n_down) + 1)
    if hand_free < 0 or not fits:
        raise RuntimeError("no placement of the shown cards fits what the seat saw (an engine invariant broke)")
    weights = np.array([math.comb(k, x) * math.perm(n_down, x) * math.perm(hand_free, k - x) for x in fits],
                       dtype=float)
    face_down = fits[int(rng.choice(len(fits), p=weights / weights.sum()))]
    hand_places = [int(p) for p in rng.permutation(n_hand)]
    for cid in plain:
        places[hand_places.pop()] = cid
    order = [attachable[int(i)] for i in rng.permutation(k)]
    down_places = [n_hand + int(p) for p in rng.permutation(n_down)[:face_down]]
    for cid, place in zip(order[:face_down], down_places, strict=True):
        places[place] = cid
    for cid in order[face_down:]:
        places[hand_places.pop()] = cid
    return places
