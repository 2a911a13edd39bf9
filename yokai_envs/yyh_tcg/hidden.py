"""What ``determinize`` redraws in YYH: the seat's own deck order and the opponent's hidden cards
(hand, deck, face-down attachments, unrevealed picks), keeping what the seat knows (decklists are
public; cards the opponent has shown stay among its hand and face-down cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from yokai_envs.yyh_tcg.cards import ATTACHABLE
from yokai_envs.yyh_tcg.state import PlayerState

if TYPE_CHECKING:
    from yokai_envs.yyh_tcg.rules import Rules


def resample_hidden(table: Rules, seat: int, rng: np.random.Generator) -> None:
    """Own deck order; the opponent's hand, deck, face-down attachments and unrevealed picks.

    Decklists are public, so the opponent's hidden cards are its own deck's, reshuffled.
    Cards it has shown (``PlayerState.shown``) stay among its hand and face-down cards.
    The pending mask is left to the caller (``Decisions.legal``)."""
    me, opp = table.players[seat], table.players[1 - seat]
    # Sorting first makes the sample a function of the seat's information and rng only,
    # never of the real hidden order (ISMCTS must decide the same in either world).
    me.deck.sort()
    rng.shuffle(me.deck)
    cards = table.pool.cards
    hidden_slots = [] if table.revealed else opp.slots()
    face_down = [a for s in opp.slots() for a in s.attached if not (a.face_up or a.turned)]
    n_hand = len(opp.hand)
    unknown = opp.hand + opp.deck + [s.char for s in hidden_slots] + [a.card for a in face_down]
    for cid in opp.shown:  # shown cards stay among the hand and the face-down cards
        unknown.remove(cid)
    unknown.sort()
    rng.shuffle(unknown)
    # Constrained places first: unrevealed picks are characters.
    for slot in hidden_slots:
        i = next(i for i, c in enumerate(unknown) if cards[c].is_character)
        slot.char = unknown.pop(i)
    places = place_shown(table, opp, n_hand, len(face_down), unknown, rng)
    hand: list[int] = []
    for i, att in enumerate(face_down):
        if places[n_hand + i] < 0:
            j = next(j for j, c in enumerate(unknown) if cards[c].type in ATTACHABLE)
            att.card = unknown.pop(j)
        else:
            att.card = places[n_hand + i]
    for i in range(n_hand):
        hand.append(places[i] if places[i] >= 0 else unknown.pop())
    opp.hand = hand
    opp.deck = unknown
    # No Team Bonus refresh here: before the reveal nobody's bonus is computed (the reveal does it).

def place_shown(table: Rules, opp: PlayerState, n_hand: int, n_down: int, unknown: list[int],
                rng: np.random.Generator) -> list[int]:
    """Where the shown cards go among hand places (first ``n_hand``) and face-down places:
    a card id per place, -1 where an unknown card goes. Non-attachables go to the hand;
    enough attachables must be left for the face-down places."""
    cards = table.pool.cards
    shown = sorted(opp.shown)
    if not shown:
        return [-1] * (n_hand + n_down)
    spare = sum(cards[c].type in ATTACHABLE for c in unknown)
    for _ in range(20):
        places = [-1] * (n_hand + n_down)
        free_hand = list(rng.permutation(n_hand))
        ok = True
        for cid in sorted(shown, key=lambda c: cards[c].type in ATTACHABLE):
            if cards[cid].type in ATTACHABLE:
                free = [p for p in range(n_hand + n_down) if places[p] < 0]
                if not free:
                    ok = False
                    break
                places[free[int(rng.integers(len(free)))]] = cid
            else:
                while free_hand and places[free_hand[-1]] >= 0:
                    free_hand.pop()
                if not free_hand:
                    ok = False
                    break
                places[free_hand.pop()] = cid
        if ok and sum(p < 0 for p in places[n_hand:]) <= spare:
            return places
    # Fall back to where the shown cards really are (always possible).
    places = [-1] * (n_hand + n_down)
    real = opp.hidden_cards()
    for cid in shown:
        i = next(i for i, c in enumerate(real) if c == cid and places[i] < 0)
        places[i] = cid
    return places
