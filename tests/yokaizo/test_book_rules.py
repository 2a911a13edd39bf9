"""The rulebook's rules where the default game once played its own: one Turn per Yokai per
Round by card instance, face-down cards announced by name stay public, mandatory card texts,
Burn into the burner's Grave, the Limbo shuffled in as soon as the deck empties, and Shatter
hitting X Yokai."""

from __future__ import annotations

import numpy as np
import pytest

from tests.yokaizo.helpers import act, blank, effect, field, hand, legal, start, void
from yokai_envs.yokaizo import moves
from yokai_envs.yokaizo.attacks import ReturnSwap
from yokai_envs.yokaizo.damage import Damage, banish
from yokai_envs.yokaizo.rules import NextTurn

S = "Oni Brute"  # Speed 2
SLOW = "Iron Kanabo Oni"  # Speed 1
SPIN = "[{spin: {deck: own, if: {speed_min: 9}, then: [{draw: 1}]}}]"  # reveals, never fires
PASS = "pass / done / no"


# ------------------------------------------------------------------ one Turn per Yokai per Round
def test_a_yokai_that_returned_after_its_turn_never_acts_again_that_round():
    g = blank()
    y1 = field(g, 0, 0, S)
    field(g, 0, 1, SLOW)
    field(g, 1, 0, SLOW)
    field(g, 1, 1, SLOW)
    y2 = hand(g, 0, S)[0]  # a copy of the same name
    g.tier, g.counted = 2, (y1,)
    g.turn_round[y1] = g.round  # it took its Turn at tier 2
    start(g, ReturnSwap(0, 0, y1), halt=True)
    act(g, f"card {S}")  # it Returns; the copy comes in
    assert g.field[0][0] == y2 and y1 in g.hand[0]
    banish(g.state, g.rules_context(), 0, 0)  # the copy leaves; the Yokai that acted is the only card to replace it
    g.stack = [NextTurn()]
    start(g)
    act(g, f"card {S}")
    assert g.field[0][0] == y1
    assert g.active is not None and g.active.yid != y1, "the Yokai took a second Turn in one Round"
    assert g.tier == 1


def test_a_copy_swapped_in_is_not_taken_for_the_yokai_that_acted():
    g = blank()
    y1 = field(g, 0, 0, S)
    field(g, 0, 1, SLOW)
    field(g, 1, 0, SLOW)
    field(g, 1, 1, SLOW)
    y2 = hand(g, 0, S)[0]
    g.tier, g.counted = 2, (y1,)
    g.turn_round[y1] = g.round
    start(g, ReturnSwap(0, 0, y1), halt=True)
    act(g, f"card {S}")
    assert g.field[0][0] == y2 and g.turn_round[y2] != g.round  # the copy has not acted


# ------------------------------------------------------------------ announced face-down cards
def _spun_then(kind: str, seed: int = 0):
    """Seat 0 Spins its deck (the top card is shown to both), then makes that card a face-down
    Soul, Token or Shield; returns the game and the card."""
    g = blank(names0=["Karasu Scout", "Kappa Bowlkeeper", "Tengu Drummer", "Kitsune Emberling"])
    for p in (0, 1):
        field(g, p, 0, S)
        field(g, p, 1, S)
    g.rng = np.random.default_rng(seed)
    start(g, effect(g, 0, SPIN), halt=True)
    top = g.deck[0][-1]
    assert g.known_top[0] == top
    if kind == "soul":
        start(g, Damage(0, 0, g.field[0][0], 1, False), halt=True)
        act(g, "topdeck")
        assert g.souls[0][0] == [top]
    elif kind == "token":
        start(g, effect(g, 0, "[{token: 1}]"), halt=True)
        assert g.void[0] == [top]
    else:
        start(g, effect(g, 0, "[{shield: 1}]"), halt=True)
        act(g, "my field yokai 0")
        assert g.shields[0][0] == [top]
    return g, top


@pytest.mark.parametrize("kind", ["soul", "token", "shield"])
def test_a_face_down_card_announced_by_name_stays_in_place_in_every_sample(kind):
    g, top = _spun_then(kind)
    t = g.ctype[top]
    zone = {"soul": lambda w: w.souls[0][0], "token": lambda w: w.void[0], "shield": lambda w: w.shields[0][0]}[kind]
    kept = sum(w.ctype[zone(w)[0]] == t for w in (g.determinize(1, np.random.default_rng(k)) for k in range(200)))
    assert kept == 200
    assert all(g.determinize(1, np.random.default_rng(k)).placement_holds(f)
               for f in g.known_placements(1) for k in range(3))


@pytest.mark.parametrize("kind", ["soul", "token", "shield"])
def test_the_observation_shows_an_announced_face_down_card_to_both_seats(kind):
    block = {"soul": "opp_souls", "token": "opp_void", "shield": "opp_known_shield_counts"}[kind]
    g, top = _spun_then(kind, seed=0)
    twin = None
    for seed in range(1, 30):  # the same history, but the Spin showed another card
        twin, other = _spun_then(kind, seed)
        if twin.ctype[other] != g.ctype[top]:
            break
    assert twin is not None and twin.ctype[other] != g.ctype[top]
    ours, theirs = g.observation(1), twin.observation(1)
    span = g.observation_layout[block]
    assert not np.array_equal(ours[span], theirs[span]), "the opponent does not see the announced card"
    # the owner sees it too, as it always did
    assert not np.array_equal(g.observation(0), twin.observation(0))


def test_a_face_down_soul_placed_from_hand_stays_hidden():
    obs = []
    for name in ("Karasu Scout", "Kappa Bowlkeeper"):
        g = blank()
        for p in (0, 1):
            field(g, p, 0, S)
            field(g, p, 1, S)
        hand(g, 0, name)
        start(g, Damage(0, 0, g.field[0][0], 1, False), halt=True)
        act(g, f"card {name}")
        obs.append(g.observation(1)[g.observation_layout["opp_souls"]])
    assert np.array_equal(obs[0], obs[1])


# ------------------------------------------------------------------ Burn, the Limbo, Shatter
def test_a_burned_enemy_void_card_goes_to_the_burners_grave():
    g = blank()
    for p in (0, 1):
        field(g, p, 0, S)
    c = void(g, 1, "Karasu Scout")[0]
    start(g, effect(g, 0, "[{burn: {up_to: 1, target: enemy_void}}]"), halt=True)
    act(g, "enemy void card 0")
    assert c in g.burned[0] and g.grave_souls(0) == 1 and g.grave_souls(1) == 0


def test_the_limbo_becomes_the_deck_as_soon_as_the_deck_empties():
    g = blank()
    for p in (0, 1):
        field(g, p, 0, S)
    g.exile += g.deck[0][:-1]
    g.deck[0] = g.deck[0][-1:]
    g.limbo[0] = [g.exile.pop() for _ in range(3)]
    moves.draw(g.state, g.rules_context(), 0, 1)
    assert len(g.deck[0]) == 3 and not g.limbo[0]
    moves.to_limbo(g.state, g.rules_context(), g.hand[0].pop())  # a card Destroyed after the shuffle stays in the Limbo
    assert len(g.deck[0]) == 3 and len(g.limbo[0]) == 1


def test_shatter_hits_x_yokai_your_own_too_when_the_enemy_has_fewer():
    g = blank()
    field(g, 0, 0, S)
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    start(g, effect(g, 0, "[{shatter: 3}]"), halt=True)
    assert PASS not in legal(g)
    act(g, "enemy field yokai 0", "topdeck", "my field yokai 0", "topdeck", "topdeck")
    assert len(g.souls[1][0]) == 1 and len(g.souls[0][0]) == 1 and len(g.souls[0][1]) == 1


def test_shatter_hits_every_yokai_when_fewer_than_x():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    start(g, effect(g, 0, "[{shatter: 3}]"), halt=True)
    assert PASS not in legal(g)
    act(g, "enemy field yokai 0", "topdeck", "topdeck")  # the last Yokai left takes its point unasked
    assert len(g.souls[1][0]) == 1 and len(g.souls[0][0]) == 1


@pytest.mark.parametrize("kind", ["soul", "token", "shield"])
def test_the_views_name_an_announced_face_down_card_to_the_opponent(kind):
    g, top = _spun_then(kind)
    name = g.cards[g.ctype[top]].name
    zone = {"soul": "souls of field 0", "token": "void", "shield": "shields of field 0"}[kind]
    seat0 = g.table_view(1)["seats"][0]
    shown = next(z for z in seat0["zones"] if z["name"] == zone)
    assert [c["name"] for c in shown["cards"]] == [name] and shown["hidden"] == 0
    if kind != "shield":  # the text view counts Shields only
        assert name in g.render_for(1).split("Seat 1")[0]


def test_a_shine_that_takes_the_decks_last_card_leaves_the_limbo_as_the_deck():
    g = blank()
    src = field(g, 0, 0, "Lucky Cat Tanuki")
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    g.exile += g.deck[0][:-1]
    g.deck[0] = g.deck[0][-1:]  # one Oni Brute left: it matches the Active Oni Brute by name
    g.limbo[0] = [g.exile.pop() for _ in range(2)]
    start(g, effect(g, 0, "[{shine: {count: 1, match: name}}]", src=src), halt=True)
    act(g, f"card {S}")
    assert len(g.hand[0]) == 1 and len(g.deck[0]) == 2 and not g.limbo[0]


def test_a_mandatory_burned_card_to_hand_is_asked_even_with_one_name():
    g = blank()
    for p in (0, 1):
        field(g, p, 0, S)
    g.burned[0].append(g.deck[0].pop())  # face-down: the other seat does not know its name
    start(g, effect(g, 0, "[{unburn: hand}]"), halt=True)
    assert g.phase_name == "effect target" and legal(g) == {f"card {S}"}  # asked, and no pass
