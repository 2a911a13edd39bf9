"""``table_view`` and ``public_action_name`` of onmyoji_v5: what each seat may see."""

from __future__ import annotations

import json

from tests.onmyoji.helpers import T_LEFT, A, G, S, Y, new_game
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji.state import Decision


def _zone(zones: list[dict], name: str) -> dict:
    return next(z for z in zones if z["name"] == name)


def test_view_shape_counters_and_seats():
    g = new_game("duel")
    for seat in (None, 0, 1):
        view = g.table_view(seat)
        json.dumps(view)
        assert {"title", "phase", "to_act", "counters", "zones", "seats", "text"} <= set(view)
        assert view["to_act"] == g.current_player
        assert set(view["counters"]) == {"night", "battle", "turn", "difficulty", "mode"}
        assert view["counters"]["mode"] == "duel"
        assert [s["seat"] for s in view["seats"]] == [0, 1]
        enemies = _zone(view["zones"], "enemies")["cards"]
        assert enemies and all("HP" in c["info"] and "DEF" in c["info"] and "next" in c["info"] for c in enemies)
        for s in view["seats"]:
            assert {"HP", "ATK", "DEF", "SPL", "side"} <= set(s["counters"])
            names = {z["name"] for z in s["zones"]}
            assert {"Character", "hand", "played", "used", "Shikigami", "Attack Equips (left edge)",
                    "Guard Equips (right edge)", "Spell Equips (bottom edge)"} <= names
        piles = [z for z in view["zones"] if z["name"].endswith("Yokai pile")]
        # R27: contents public (in card order), the draw order hidden
        assert piles and all(z["hidden"] == 0 and z["cards"] for z in piles)
        for z, lv in zip(piles, (1, 2, 3), strict=True):
            assert [c["name"] for c in z["cards"]] == [g.yokai_names[y] for y in sorted(g.piles[lv])]
    other = g.table_view(0)["seats"][1]
    assert _zone(other["zones"], "hand") == {"name": "hand", "cards": [], "hidden": 3}
    assert len(_zone(g.table_view(1)["seats"][1]["zones"], "hand")["cards"]) == 3


def test_face_down_card_hidden_from_the_other_seat_until_the_reveal():
    g = new_game("duel")
    assert g.decision == Decision.PLAY
    first = g.current_player
    other = 1 - first
    g.step(S)
    assert g.current_player == other and g.decision == Decision.PLAY
    mine = _zone(g.table_view(first)["seats"][first]["zones"], "played")
    assert mine["cards"] == [{"name": "Spell", "info": "face down"}] and mine["hidden"] == 0
    seen = g.table_view(other)["seats"][first]
    assert _zone(seen["zones"], "played") == {"name": "played", "cards": [], "hidden": 1}
    assert _zone(seen["zones"], "hand") == {"name": "hand", "cards": [], "hidden": 2}
    assert not any(c["name"] in ("Attack", "Guard", "Spell") for z in seen["zones"] for c in z["cards"])
    g.step(G)  # both cards chosen: they are revealed
    for seat in (0, 1):
        played = _zone(g.table_view(seat)["seats"][first]["zones"], "played")
        assert played["cards"] == [{"name": "Spell", "info": "revealed"}] and played["hidden"] == 0


def test_public_action_names():
    g = new_game("duel")
    me = g.current_player
    assert g.public_action_name(A, me) == "play Attack"
    assert g.public_action_name(A, 1 - me) == "play a card face down"
    # Public decisions are named the same for every seat.
    for action in (T_LEFT, act.DONE, act.EVOLVE, act.TAKE, act.TAKE + 2, act.PICK + Y["Kappa"],
                   act.USE_SHIKIGAMI + Y["Kappa"], act.USE_EQUIP + Y["Kappa"], act.EVOLVE_WITH + Y["Kappa"]):
        assert g.public_action_name(action, 1 - me) == g.action_name(action) == g.public_action_name(action, me)


def test_solo_view_hides_the_yokai_deck_order():
    g = new_game("solo")
    view = g.table_view(0)
    deck = _zone(view["zones"], "Solo Yokai deck")
    assert [c["name"] for c in deck["cards"]] == [("Attack", "Guard", "Spell")[c] for c in sorted(g.yokai_deck)]
    assert deck["hidden"] == 0  # R27: what the deck holds is public, listed in card order, never in deck order
    assert len(view["seats"]) == 1
    equips = _zone(view["seats"][0]["zones"], "Guard Equips (right edge)")["cards"]
    assert len(equips) == 1
