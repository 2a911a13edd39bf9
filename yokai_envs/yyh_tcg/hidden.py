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
    or face-down, under a card attached after it was shown), the types its deck lacks (a search
    found none) and both decklists."""
    facts: list[tuple[Any, ...]] = []
    if not st.players:
        return facts
    opp = 1 - seat
    p = st.players[opp]
    for cid in sorted(set(p.shown)):
        facts.append(("hidden_holds", opp, cid, p.shown.count(cid)))
        facts.append(("shown_fits", opp, cid, tuple(sorted(at for c, at in zip(p.shown, p.shown_at, strict=True)
                                                           if c == cid))))
    for card_type in sorted(p.deck_lacks):
        facts.append(("deck_lacks", opp, card_type))
    for s in (seat, opp):
        facts.append(("decklist", s, tuple(st.original_decks[s])))
    return facts


def placement_holds(st: State, placement: tuple[Any, ...]) -> bool:
    """Whether the table satisfies a fact of :func:`known_placements`."""
    kind, seat = placement[0], placement[1]
    p = st.players[seat]
    if kind == "hidden_holds":
        return p.hidden_cards().count(placement[2]) >= placement[3]
    if kind == "shown_fits":
        # Each shown copy is a hand copy or a face-down one attached after its show. The places
        # a later show can take are among those an earlier one can, so it is enough that the
        # j-th latest show has j + 1 places: the hand's copies and those attached after it.
        cid, shown_at = placement[2], placement[3]
        in_hand = p.hand.count(cid)
        down = [a.shows_before for s in p.slots() for a in s.attached
                if a.card == cid and not (a.face_up or a.turned)]
        return all(in_hand + sum(b > at for b in down) >= j + 1 for j, at in enumerate(sorted(shown_at, reverse=True)))
    if kind == "deck_lacks":
        return not any(st.tables.cards[c].type == placement[2] for c in p.deck)
    if kind == "decklist":
        return tuple(sorted(p.all_cards())) == placement[2]
    raise ValueError(f"unknown placement {placement!r}")


def resample_hidden(st: State, seat: int, rng: np.random.Generator) -> None:
    """Own deck order; the opponent's hand, deck, face-down attachments and unrevealed picks.

    Decklists are public, so the opponent's hidden cards are its own deck's, reshuffled.
    Cards it has shown (``PlayerState.shown``) stay among its hand and the face-down cards
    attached after their show; a type a search found none of (``deck_lacks``) stays out of its
    deck. When the opponent is choosing what a search takes, its deck holds a card of that type
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
        dealt = _deal(st, opp, hidden_slots, face_down, n_hand, unknown[:], rng)
        if dealt is not None and (searched is None or any(cards[cid].type == searched for cid in dealt[1])):
            break
    else:
        raise RuntimeError(f"no deal of {MAX_DEALS} kept what the seat knows of the opponent's deck "
                           "(an engine invariant broke)")
    opp.hand, opp.deck = dealt
    # No Team Bonus refresh here: before the reveal nobody's bonus is computed (the reveal does it).


def _pending_search(st: State, opp: int) -> str | None:
    """The card type ``opp``'s search is taking now (its pending decision), else None."""
    if st.winner is None and st.phase == Phase.SEARCH and st.decider == opp:
        return str(st.choices[0][2])
    return None


def _deal(st: State, opp: PlayerState, hidden_slots: list[Slot], face_down: list[Attachment], n_hand: int,
          unknown: list[int], rng: np.random.Generator) -> tuple[list[int], list[int]] | None:
    """One uniform deal of ``unknown`` (a fresh list, consumed): the unrevealed picks and the
    face-down cards are set in place; the hand and the deck are returned, or None when the
    cards of a type the deck lacks do not fit in the hand left (the caller deals again)."""
    cards = st.tables.cards
    rng.shuffle(unknown)
    # Constrained places first: unrevealed picks are characters.
    for slot in hidden_slots:
        i = next(i for i, c in enumerate(unknown) if cards[c].is_character)
        slot.char = unknown.pop(i)
    places = place_shown(st, opp, n_hand, [a.shows_before for a in face_down], unknown, rng)
    for i, att in enumerate(face_down):
        if places[n_hand + i] < 0:
            j = next(j for j, c in enumerate(unknown) if cards[c].type in ATTACHABLE)
            att.card = unknown.pop(j)
        else:
            att.card = places[n_hand + i]
    free = [i for i in range(n_hand) if places[i] < 0]
    # What is left is split between the free hand places and the deck, uniformly among the
    # splits that keep every card of a type the deck lacks in the hand.
    barred = [c for c in unknown if cards[c].type in opp.deck_lacks]
    if len(barred) > len(free):
        return None
    if barred:
        others = [c for c in unknown if cards[c].type not in opp.deck_lacks]
        unknown = others + barred  # shuffled already; the hand takes from the end
    hand = places[:n_hand]
    for i in free:
        hand[i] = unknown.pop()
    return hand, unknown


def place_shown(st: State, opp: PlayerState, n_hand: int, down_shows_before: list[int], unknown: list[int],
                rng: np.random.Generator) -> list[int]:
    """Where the shown cards go among hand places (first ``n_hand``) and face-down places (one
    per entry of ``down_shows_before``, the owner's show count when it was attached): a card id
    per place, -1 where an unknown card goes.

    Non-attachables can only be in the hand. Each attachable shown card is in a hand place or a
    face-down place attached after its show, and the face-down places it leaves must still be
    fillable from the unknown attachables. The sample is uniform over the placements that fit
    (shown cards in distinct places, each equally likely), drawn exactly: first how many shown
    attachables are face-down, weighted by how many placements have that count, then which ones
    and where. It never looks at where the cards really are, and it always succeeds, since the
    real placement fits."""
    cards = st.tables.cards
    n_down = len(down_shows_before)
    places = [-1] * (n_hand + n_down)
    entries = sorted(zip(opp.shown, opp.shown_at, strict=True), key=lambda e: (-e[1], e[0]))
    plain = [c for c, _ in entries if cards[c].type not in ATTACHABLE]
    # latest show first: its face-down places (attached after it) are among every earlier one's
    attachable = [(c, at) for c, at in entries if cards[c].type in ATTACHABLE]
    if not plain and not attachable:
        return places
    spare = sum(cards[c].type in ATTACHABLE for c in unknown)
    hand_free = n_hand - len(plain)
    k = len(attachable)
    eligible = [[i for i in range(n_down) if down_shows_before[i] > at] for _, at in attachable]
    # ways[j][x]: ways to put x of the first j shown attachables face-down (each in a distinct
    # place it may take); nested places make the j-th card's choices len(eligible) - x.
    ways = [[0] * (k + 1) for _ in range(k + 1)]
    ways[0][0] = 1
    for j in range(k):
        for x in range(j + 1):
            ways[j + 1][x] += ways[j][x]
            ways[j + 1][x + 1] += ways[j][x] * max(0, len(eligible[j]) - x)
    fits = [x for x in range(k + 1) if ways[k][x] and k - x <= hand_free and n_down - x <= spare]
    if hand_free < 0 or not fits:
        raise RuntimeError("no placement of the shown cards fits what the seat saw (an engine invariant broke)")
    weights = np.array([ways[k][x] * math.perm(hand_free, k - x) for x in fits], dtype=float)
    x = fits[int(rng.choice(len(fits), p=weights / weights.sum()))]
    # which cards are face-down: backwards through the table, each in proportion to its ways
    down = [False] * k
    for j in range(k - 1, -1, -1):
        as_down = ways[j][x - 1] * max(0, len(eligible[j]) - (x - 1)) if x else 0
        if as_down and rng.random() * (as_down + ways[j][x]) < as_down:
            down[j], x = True, x - 1
    taken: set[int] = set()
    hand_places = [int(p) for p in rng.permutation(n_hand)]
    for cid in plain:
        places[hand_places.pop()] = cid
    for j, (cid, _) in enumerate(attachable):
        if down[j]:
            free = [i for i in eligible[j] if i not in taken]
            place = free[int(rng.integers(len(free)))]
            taken.add(place)
            places[n_hand + place] = cid
        else:
            places[hand_places.pop()] = cid
    return places
