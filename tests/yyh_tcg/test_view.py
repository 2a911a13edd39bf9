"""Viewer support: table_view shape and secrecy, public_action_name."""

from __future__ import annotations

import json

from tests.yyh_tcg.helpers import attach, cid, give, new_game
from yokai_envs.yyh_tcg.game import YYHGame


def zone(view: dict, seat: int, name: str) -> dict:
    return next(z for z in view["seats"][seat]["zones"] if z["name"] == name)


def test_view_shape_after_reveal():
    g = new_game()
    for seat in (None, 0, 1):
        v = g.table_view(seat)
        json.dumps(v)
        assert {"title", "phase", "to_act", "counters", "zones", "seats", "text"} <= set(v)
        assert v["to_act"] == g.current_player
        assert set(v["counters"]) == {"turn", "phase"}
        assert len(v["seats"]) == 2
        for s, sv in enumerate(v["seats"]):
            assert sv["seat"] == s
            assert {"Spirit Energy", "wins", "Team Bonus", "deck"} <= set(sv["counters"])
            names = [z["name"] for z in sv["zones"]]
            assert names[0] == "Arena fighter"
            assert names[1:4] == ["Sideline line 1", "Sideline line 2", "Sideline line 3"]
            for z in sv["zones"]:
                assert {"name", "cards", "hidden"} <= set(z)
            fighter = zone(v, s, "Arena fighter")["cards"][0]
            assert fighter["name"] == g.pool.cards[g.players[s].fighter.char].name
            assert "damage 0" in fighter["info"]
            assert zone(v, s, "deck")["hidden"] == len(g.players[s].deck)


def test_hidden_things_hidden_from_opponent():
    g = new_game()
    give(g, 1, "Rose Whip")
    attach(g, 1, "Spirit Armor", slot=1)             # face-down on line 1
    p1 = g.players[1]
    secret = g.pool.cards[cid(g, "Spirit Armor")].name
    v0 = g.table_view(0)
    assert secret not in json.dumps(zone(v0, 1, "Sideline line 1"))
    assert zone(v0, 1, "Sideline line 1")["hidden"] == 1
    hand = zone(v0, 1, "hand")
    assert hand["cards"] == [] and hand["hidden"] == len(p1.hand)
    # the owner and the omniscient view see it
    for seat in (1, None):
        v = g.table_view(seat)
        assert secret in json.dumps(zone(v, 1, "Sideline line 1"))
        assert zone(v, 1, "Sideline line 1")["hidden"] == 0
        assert len(zone(v, 1, "hand")["cards"]) == len(p1.hand)
    # a shown card is listed (in the hand or face-down), the hand stays a count
    p1.shown.append(cid(g, "Rose Whip"))
    v0 = g.table_view(0)
    assert [c["name"] for c in zone(v0, 1, "shown (in hand or face-down)")["cards"]] == ["Rose Whip"]
    assert zone(v0, 1, "hand")["hidden"] == len(p1.hand) and zone(v0, 1, "hand")["cards"] == []


def test_setup_picks_and_bonus_hidden_before_reveal():
    g = YYHGame(decks=("Urameshi Detectives", "Toguro Brothers"))
    g.reset(0)
    seat = g.current_player
    pick = g.table.pick(next(c for c in g.original_decks[seat] if g.pool.cards[c].is_character))
    name = g.action_name(pick)
    assert g.public_action_name(pick, seat) == name
    other = g.public_action_name(pick, 1 - seat)
    assert other is not None and g.pool.cards[g.table.decoded[pick][1]].name not in other
    g.step(pick)
    v = g.table_view(1 - seat)
    picked = g.pool.cards[g.players[seat].slots()[0].char].name
    assert picked not in json.dumps(v["seats"][seat])
    assert zone(v, seat, "setup picks (face-down)")["hidden"] == 1
    assert v["seats"][seat]["counters"]["Team Bonus"] == "hidden"
    assert picked in json.dumps(g.table_view(seat)["seats"][seat])
    assert picked in json.dumps(g.table_view(None)["seats"][seat])


def test_public_action_names():
    g = new_game()
    t = g.table
    me = g.current_player
    armor = cid(g, "Spirit Armor")
    down = t.attach(armor, 2)
    assert g.public_action_name(down, me) == g.action_name(down)
    hidden = g.public_action_name(down, 1 - me)
    assert hidden == "attach a face-down card to Sideline slot 2"
    for action in (t.attach(armor, 0), t.DONE, t.discard(armor),
                   t.event(g.pool.events[0]), t.ability(g.pool.ability_cards[0])):
        assert g.public_action_name(action, 1 - me) == g.action_name(action)
    # a printed attack is named too (the fighter is face up in the Arena), to both seats
    fighter = g.pool.cards[g.state.players[me].fighter.char]
    for seat in (me, 1 - me):
        assert g.public_action_name(t.ATTACK_OWN, seat) == f"use printed attack 1 ({fighter.attacks[0].name})"


def test_random_games_views_never_leak_hidden_hand():
    import numpy as np
    rng = np.random.default_rng(3)
    for seed in range(3):
        g = YYHGame()
        g.reset(seed)
        for _ in range(300):
            if g.is_terminal:
                break
            for seat in (0, 1):
                v = g.table_view(seat)
                opp = g.players[1 - seat]
                hand = zone(v, 1 - seat, "hand")
                assert hand["hidden"] == len(opp.hand) and hand["cards"] == []
                assert len(zone(v, 1 - seat, "shown (in hand or face-down)")["cards"]) == len(opp.shown)
                json.dumps(v)
            legal = np.flatnonzero(g.legal_action_mask())
            a = int(rng.choice(legal))
            for seat in (0, 1):
                g.public_action_name(a, seat)
            g.step(a)
        json.dumps(g.table_view(None))
