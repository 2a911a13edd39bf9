"""What a search tells the opponent, kept by ``determinize``: a card shown after a face-down card
was attached is not that card; a shown card stays known when an older face-down copy turns up;
a search that finds nothing tells that the deck holds none of that type."""

from __future__ import annotations

import numpy as np

from tests.yyh_tcg.helpers import cid, clear_hand, finish_choices, give, neutral_game, play, refresh
from yokai_envs.yyh_tcg.moves import flip_attachments
from yokai_envs.yyh_tcg.state import Phase


def _only_items_in_deck(g, seat: int, *keep: str) -> None:
    """Every Item of ``seat``'s deck but one copy of each of ``keep`` goes to the discard (public)."""
    p = g.players[seat]
    kept = [cid(g, name) for name in keep]
    for c in list(p.deck):
        if g.pool.cards[c].type == "item":
            if c in kept:
                kept.remove(c)
            else:
                p.deck.remove(c)
                p.discard.append(c)


def _knuckles_and_an_invitation():
    """Seat 0 holds a Brass Knuckles and a Dark Tournament Invitation, with 5 spirit, and its deck
    holds one other Brass Knuckles and no other Item: the Invitation's search can find only it."""
    g = neutral_game(first=0)
    g.players[0].spirit = 5
    clear_hand(g, 0)
    give(g, 0, "Brass Knuckles", "Dark Tournament Invitation")
    _only_items_in_deck(g, 0, "Brass Knuckles")
    return g
    refresh(g)


def _face_down_then_shown():
    """Seat 0 attaches a Brass Knuckles face-down, then searches and shows the other copy left in
    its deck: the face-down card was attached before the show, so the shown copy is in the hand."""
    g = _knuckles_and_an_invitation()
    play(g, "attach Brass Knuckles to Sideline slot 1")
    play(g, "play Dark Tournament Invitation")
    assert g.phase == Phase.SEARCH
    finish_choices(g)
    assert g.players[0].hand == [cid(g, "Brass Knuckles")] and g.players[0].shown == [cid(g, "Brass Knuckles")]
    return g


def test_a_card_shown_after_a_face_down_card_was_attached_is_not_under_it():
    g = _face_down_then_shown()
    knuckles = cid(g, "Brass Knuckles")
    rng = np.random.default_rng(0)
    outside_the_hand = 0
    for _ in range(2000):
        world = g.determinize(1, rng)
        outside_the_hand += knuckles not in world.players[0].hand
    assert outside_the_hand == 0  # was 976 of 2000: the shown copy under the older face-down card
    assert all(g.determinize(1, np.random.default_rng(k)).placement_holds(f)
               for f in g.known_placements(1) for k in range(20))


def test_a_shown_card_stays_known_when_an_older_face_down_copy_turns_up():
    g = _face_down_then_shown()
    knuckles = cid(g, "Brass Knuckles")
    flip_attachments(g.state, g.rules_context(), 0, (1,))  # the older copy turns face-up and is paid
    assert g.players[0].sideline[0].attached[0].face_up
    assert g.players[0].shown == [knuckles]
    assert g.observation(1)[g.observation_layout["opp_shown"]][knuckles] > 0
    rng = np.random.default_rng(1)
    # before: forgotten, and the sampled worlds left it out of the hand
    assert sum(knuckles not in g.determinize(1, rng).players[0].hand for _ in range(1000)) == 0


def test_a_face_down_card_attached_after_the_show_may_be_the_shown_one():
    """The other order: shown first, then a face-down Brass Knuckles. It may be the shown copy, so
    when it turns up the opponent no longer knows where the other one is."""
    g = _knuckles_and_an_invitation()
    play(g, "play Dark Tournament Invitation")
    finish_choices(g)
    knuckles = cid(g, "Brass Knuckles")
    play(g, "attach Brass Knuckles to Sideline slot 1")
    worlds = [g.determinize(1, np.random.default_rng(k)) for k in range(200)]
    assert any(knuckles not in w.players[0].hand for w in worlds)  # the shown copy may be face-down
    assert all(knuckles in w.players[0].hidden_cards() for w in worlds)
    flip_attachments(g.state, g.rules_context(), 0, (1,))
    assert g.players[0].shown == []


def test_a_search_that_finds_nothing_keeps_that_type_out_of_the_sampled_deck():
    g = neutral_game(first=0)
    g.players[0].spirit = 5
    clear_hand(g, 0)
    give(g, 0, "Dark Tournament Invitation", "Brass Knuckles", "Spirit Armor")  # two Items, unseen
    _only_items_in_deck(g, 0)
    play(g, "play Dark Tournament Invitation")
    assert g.phase == Phase.MAIN  # nothing to choose: the search found nothing, in public
    cards = g.pool.cards
    rng = np.random.default_rng(2)
    worlds = [g.determinize(1, rng) for _ in range(500)]
    assert sum(any(cards[c].type == "item" for c in w.players[0].deck) for w in worlds) == 0  # was 497 of 500
    assert all(sorted(cards[c].type for c in w.players[0].hand) == ["item", "item"] for w in worlds)
    assert g.players[0].deck_lacks == {"item"}
    assert ("deck_lacks", 0, "item") in g.known_placements(1)
    assert ("deck_lacks", 0, "item") not in g.known_placements(0)  # what seat 1 knows of seat 0
