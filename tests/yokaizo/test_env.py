"""The yokaizo_v4 env, observation encoding (what each seat may see), decision context, determinize."""

from __future__ import annotations

import numpy as np
import pytest

import yokai_envs
from tests.yokaizo.helpers import act, blank, field, hand, start, void
from yokai_envs.yokaizo.damage import Damage
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.observation import FIELD_EXTRA

S = "Oni Brute"


def test_env_is_registered_and_plays():
    env = yokai_envs.make("yokaizo_v4", decks=("Oni Rampage", "Yurei Lament"))
    env.reset(seed=4)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert obs["observation"].shape == (env.unwrapped.game.observation_size,)
        assert obs["observation"].min() >= 0 and obs["observation"].max() <= 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps > 10


def _layout(g, name):
    return g.observation_layout[name]


def test_owner_sees_its_face_down_souls_opponent_only_counts():
    g = blank()
    field(g, 0, 0, S, down=1, soul="Karasu Scout")
    field(g, 1, 0, S)
    mine = g.observation(0)[_layout(g, "my_souls")]
    theirs = g.observation(1)[_layout(g, "opp_souls")]
    w = g.observer.width
    karasu = g.ctype[g.souls[0][0][0]]
    ident = len(g.observer.features[0]) - g.observer.n_types - 1 + karasu
    assert mine[ident] == 1 and theirs[ident] == 0 and theirs[w - 1] == 1  # enemy: a hidden card


def test_hand_is_private_and_counts_public():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    hand(g, 0, "Karasu Scout")
    o0, o1 = g.observation(0), g.observation(1)
    assert o0[_layout(g, "my_hand_counts")].sum() > 0
    assert not np.array_equal(o0[_layout(g, "my_hand_counts")], o1[_layout(g, "my_hand_counts")])
    assert o1[_layout(g, "globals")][1] == 0.1  # opponent hand size 1/10


def test_decision_context_shows_damage_left_and_decider():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, S)
    start(g, Damage(1, 0, y, 3, False))
    ctx1 = g.observation(1)[_layout(g, "decision")]
    ctx0 = g.observation(0)[_layout(g, "decision")]
    assert ctx1[7] == 1 and ctx1[10] == 1 and ctx0[10] == 0  # phase damage; seat 1 decides
    assert abs(ctx1[11] - 0.3) < 1e-6
    act(g, "topdeck")
    assert abs(g.observation(1)[_layout(g, "decision")][11] - 0.2) < 1e-6


def test_determinize_keeps_what_the_seat_knows_and_varies_the_rest():
    g = YokaizoGame()
    g.reset(11)
    rng = np.random.default_rng(0)
    for _ in range(60):
        g.step(int(rng.choice(np.flatnonzero(g.legal_action_mask()))))
    seat = g.current_player
    world = g.determinize(seat, np.random.default_rng(1))
    assert world.hand[seat] == g.hand[seat] and sorted(world.deck[seat]) == sorted(g.deck[seat])
    assert np.array_equal(world.observation(seat), g.observation(seat))
    assert sorted(world.hand[1 - seat] + world.deck[1 - seat]) != [] and world.field == g.field
    world.check_invariants()


def test_clone_is_deep():
    g = YokaizoGame()
    g.reset(2)
    twin = g.clone()
    rng = np.random.default_rng(0)
    while not twin.is_over:
        twin.step(int(rng.choice(np.flatnonzero(twin.legal_action_mask()))))
    assert g.steps == 0 and g.phase_name.startswith("setup")


def test_token_hidden_from_the_opponent_in_render():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    c = void(g, 0, "Karasu Scout")[0]
    g.facedown[c] = 1
    assert "Karasu" not in g.render_for(1).split("Seat 0")[1].split("Seat 1")[0]
    assert "Karasu" in g.render_for(0)
    assert "Karasu" in g.render()


def test_public_action_names_hide_hidden_choices():
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"))
    g.reset(0)
    a = int(np.flatnonzero(g.legal_action_mask())[0])
    assert g.public_action_name(a, 0).startswith("card ")
    assert g.public_action_name(a, 1) == "choose a Field Yokai face-down"
    g2 = blank()
    field(g2, 0, 0, S)
    y = field(g2, 1, 0, S)
    hand(g2, 1, "Karasu Scout")
    start(g2, Damage(1, 0, y, 1, False))
    card_action = g2.num_actions - len(g2.cards) + g2.ctype[g2.hand[1][0]]
    assert g2.public_action_name(card_action, 0) == "place a face-down Soul from hand"
    assert g2.public_action_name(card_action, 1) == "card Karasu Scout"


def test_owner_sees_its_shields_opponent_only_the_count():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    g.shields[0][0].append(g.deck[0].pop())
    lay = g.observation_layout["my_shield_counts"]
    assert g.observation(0)[lay].sum() > 0 and g.observation(1)[lay].sum() == 0
    status = g.observation_layout["field_status"]
    assert g.observation(1)[status][FIELD_EXTRA * 2 + 3] == 0.2  # enemy Field Yokai 0: 1 Shield / 5


def test_table_view_hides_face_down_cards_from_the_other_seat():
    import json
    g = blank()
    field(g, 0, 0, S, down=1, soul="Karasu Scout")
    field(g, 1, 0, S)
    hand(g, 0, "Kappa Bowlkeeper")
    for seat, visible in ((0, True), (1, False), (None, True)):
        view = g.table_view(seat)
        json.dumps(view)
        zones = {z["name"]: z for z in view["seats"][0]["zones"]}
        assert bool(zones["hand"]["cards"]) == visible and zones["hand"]["hidden"] == (0 if visible else 1)
        assert bool(zones["souls of field 0"]["cards"]) == visible


def test_action_blocks_encode_decode_and_name_every_action():
    from yokai_envs.yokaizo.actions import ActionBlock, decode, encode

    g = YokaizoGame()
    prefixes = {ActionBlock.MY_FIELD: "my field yokai", ActionBlock.OPP_FIELD: "enemy field yokai",
                ActionBlock.MY_VOID: "my void card", ActionBlock.OPP_VOID: "enemy void card",
                ActionBlock.SOUL: "soul", ActionBlock.CARD: "card"}
    for a in range(g.num_actions):
        block, i = decode(a)
        assert encode(block, i) == a
        if block in prefixes:
            name = g.action_name(a)
            expected = g.cards[i].name if block == ActionBlock.CARD else str(i)
            assert name == f"{prefixes[block]} {expected}"
        else:
            assert i == 0
    assert decode(ActionBlock.CARD + len(g.cards) - 1) == (ActionBlock.CARD, len(g.cards) - 1)


def test_games_with_other_decks_sharing_one_observer_observe_as_if_alone() -> None:
    # The observer (one per card pool) keeps lookup lists per game, found by the game's card
    # types; games with other decks stepped in turn must never read each other's lists.
    from yokai_envs.yokaizo.observation import Observer

    games = [YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide")), YokaizoGame(decks=("Kappa Tide", "Kitsune Blaze"))]
    assert games[0].observer is games[1].observer
    rng = np.random.default_rng(3)
    for k, g in enumerate(games):
        g.reset(k)
    for _ in range(60):
        for g in games:
            if g.is_over:
                continue
            alone = Observer(g.pool)  # nothing remembered from another game
            for seat in (0, 1):
                assert np.array_equal(g.observation(seat), alone.encode(g.state, seat))
            assert np.array_equal(g.state_tensor(), alone.encode(g.state, 0, omniscient=True))
            legal = np.flatnonzero(g.legal_action_mask())
            g.step(int(legal[rng.integers(legal.size)]))


def test_retired_v3_is_refused_naming_the_echo_and_uproot_rulings() -> None:
    with pytest.raises(ValueError, match=r"'yokaizo_v3' was retired: Nine-Tail Matron's Blazing Talons may Echo.*"
                                         r"use 'yokaizo_v4'"):
        yokai_envs.make("yokaizo_v3")


def test_the_other_seat_reads_my_and_enemy_turned_around_as_whole_words():
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"))
    g.reset(3)
    rng = np.random.default_rng(0)
    seen: dict[str, str] = {}
    while not g.is_over and len(seen) < 2:
        for a in g.legal_actions():
            name = g.action_name(a)
            if name.startswith(("enemy ", "my ")) and name.split()[0] not in seen:
                seen[name.split()[0]] = g.public_action_name(a, 1 - g.current_player)
                assert g.public_action_name(a, g.current_player).startswith(name)  # + " (the card there)"
        g.step(int(rng.choice(g.legal_actions())))
    assert set(seen) == {"enemy", "my"}
    assert seen["enemy"].startswith("your ") and seen["my"].startswith("their "), seen
    assert all(text.endswith(")") for text in seen.values()), seen  # the face-up card the target holds
