"""What each YOKAIZO seat has seen, publicly known cards kept by ``determinize``, and
the public facts the observation must not forget (each test failed on yokaizo_v0)."""

from __future__ import annotations

import numpy as np

import yokai_envs
from tests.yokaizo.helpers import POOL, act, blank, effect, field, hand, legal, start, void
from yokai_envs.yokaizo import moves
from yokai_envs.yokaizo.attacks import ReturnSwap
from yokai_envs.yokaizo.cards import ELEMENTS
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.observation import FIELD_EXTRA, PICK_VERBS
from yokai_envs.yokaizo.rules import VoidPlay
from yokai_envs.yokaizo.state import Decision, Event, PickVerb

S = "Oni Brute"
K = "Kappa Bowlkeeper"
N = len(POOL)


def t(name: str) -> int:
    return POOL.by_name[name]


def block(g: YokaizoGame, seat: int, name: str) -> np.ndarray:
    return g.observation(seat)[g.observation_layout[name]]


def returned() -> YokaizoGame:
    """Seat 1's Oni Brute Returns to its hand in view of seat 0 (the rest of seat 1's cards are Kappa)."""
    g = blank(names1=[S], filler1=K)
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    hand(g, 1, K)
    moves.draw(g.state, g.rules_context(), 1, 5)
    start(g, ReturnSwap(1, 0, g.field[1][0]), halt=True)
    act(g, f"card {K}")
    assert t(S) in [g.ctype[c] for c in g.hand[1]]
    return g


def test_determinize_keeps_a_returned_yokai_in_its_owners_hand():
    g = returned()
    kept = sum(t(S) in [w.ctype[c] for c in w.hand[1]]
               for w in (g.determinize(0, np.random.default_rng(k)) for k in range(200)))
    assert kept == 200
    assert ("hand", 1, t(S), 1) in g.known_placements(0)


def test_observation_shows_hand_cards_everyone_saw_arrive():
    g = returned()
    assert block(g, 0, "opp_public_hand_counts")[t(S)] == 1 / 3
    assert block(g, 1, "my_public_hand_counts")[t(S)] == 1 / 3  # and its owner knows they know
    g2 = returned()  # a public play of the card takes it off the known hand
    start(g2, VoidPlay(1, 0, g2.field[1][0]), halt=True)
    act(g2, f"card {S}")
    assert block(g2, 0, "opp_public_hand_counts")[t(S)] == 0


def test_opponent_deck_after_its_limbo_is_reshuffled_in_is_known():
    g = blank(names1=[S] * 5, filler1=K)
    field(g, 0, 0, S)
    field(g, 1, 0, K)
    for _ in range(5):
        g.hand[1].append(g.deck[1].pop())  # five Oni Brute in hand, unseen by seat 0
    g.limbo[1], g.deck[1] = g.deck[1][:10], []  # ten Kappa in Limbo
    g.exile += g.deck[1]
    moves.draw(g.state, g.rules_context(), 1, 1)  # the Limbo becomes the deck; one unseen card is drawn
    assert block(g, 0, "opp_deck_bound_counts")[t(K)] == 1.0  # 10 Kappa, counted to 3
    assert block(g, 0, "opp_public_deck_counts")[t(K)] == 1.0  # 9 of them surely still there
    assert block(g, 0, "globals")[-1] == 1.0
    for k in range(50):
        w = g.determinize(0, np.random.default_rng(k))
        assert all(w.ctype[c] == t(K) for c in w.deck[1])


def test_observation_says_whether_an_unacted_yokai_still_gets_a_turn():
    g = blank()
    a = field(g, 0, 0, S)
    field(g, 1, 0, S)
    status = g.observation_layout["field_status"]
    still = FIELD_EXTRA - 1
    assert g.observation(0)[status][still] == 1 and g.observation(0)[status][2 * FIELD_EXTRA + still] == 1
    g.turn_round[a] = g.round
    assert g.observation(0)[status][still] == 0


def test_observation_names_the_attached_cards():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 1, S)
    g.relics[1][1].append(g.deck[1].pop())
    attached = block(g, 0, "attached_counts")
    assert attached[3 * N + t(S)] == 1 / 3 and attached.sum() == 1 / 3  # enemy slot 1
    assert block(g, 1, "attached_counts")[N + t(S)] == 1 / 3  # its owner's slot 1


def test_observation_and_determinize_keep_the_burned_enemy_void_card():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    void(g, 0, "Karasu Scout")
    start(g, effect(g, 1, "[{burn: {up_to: 1, target: enemy_void}}]"), halt=True)
    act(g, "enemy void card 0")  # seat 1 Burns seat 0's card into its own Grave (R14)
    assert block(g, 0, "opp_public_burned_counts")[t("Karasu Scout")] == 1 / 3
    assert block(g, 1, "my_burned_counts")[t("Karasu Scout")] == 1 / 3
    for k in range(20):
        w = g.determinize(0, np.random.default_rng(k))
        assert [w.ctype[c] for c in w.burned[1]] == [t("Karasu Scout")] and w.burned[1] == g.burned[1]


def test_swap_void_position_does_not_spill_into_the_field_focus():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    void(g, 0, S, S, S, S, S)
    hand(g, 0, K, "Karasu Scout")
    start(g, effect(g, 0, "[{swap: 1}]"), halt=True)
    act(g, "my void card 4")
    ctx = block(g, 0, "decision")
    focus = len(Decision) + 1 + 3 + len(ELEMENTS) + 3
    verbs = focus + 4
    assert ctx[focus:verbs].sum() == 0
    assert ctx[verbs:verbs + len(PICK_VERBS)].tolist() == [float(v == PickVerb.SWAP) for v in PICK_VERBS]
    assert ctx[verbs + len(PICK_VERBS) + 4] == 1 and ctx[verbs + len(PICK_VERBS):].sum() == 1


def test_decklists_are_public_in_the_observation_and_the_views():
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"))
    g.reset(0)
    expected = np.minimum(np.bincount(g.deck_types[1], minlength=N), 3) / 3
    assert np.allclose(block(g, 0, "opp_decklist_counts"), expected)
    assert "decklist Kappa Tide" in g.render_for(0)
    assert "decklist Kappa Tide" in g.table_view(0)["seats"][1]["label"]


def test_a_return_with_no_fitting_hand_yokai_still_asks():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, S, up=3)  # Oni Brute: 3 face-up; a 3-Soul hand card would be Banished
    hand(g, 1, "Karasu Scout")
    start(g, ReturnSwap(1, 0, y), halt=True)
    assert g.decider == 1 and legal(g) == {"pass / done / no"}


def test_seats_see_private_cards_and_public_events():
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"))
    g.record_information()
    g.reset(0)
    drew = [e for e in g.seen_events(0) if e[0] == Event.DREW]
    assert len(drew) == 12
    assert all(e[2] < N for e in drew if e[1] == 0) and all(e[2] == N for e in drew if e[1] == 1)
    assert g.information_state(0) != g.information_state(1)


def test_history_option_gives_event_tokens():
    env = yokai_envs.make("yokaizo_v4", history=8)
    env.reset(seed=0)
    obs, *_ = env.last()
    assert obs["history"].shape == (8, 5)
    assert (obs["history"][:, 0] >= 0).all()
