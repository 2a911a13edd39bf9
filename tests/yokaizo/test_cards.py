"""The card pool, its validation, the ready decks, deck files and the decks option."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.yokaizo.cards import (
    HERE,
    KEYWORDS,
    default_pool,
    load_pool,
    ready_decks,
    resolve_deck,
    validate_deck,
)
from yokai_envs.yokaizo.game import YokaizoGame

POOL = default_pool()


def test_pool_has_ten_factions_of_seven_and_the_required_elements():
    assert len(POOL.factions) == 10 and len(POOL) >= 70
    per_faction = Counter(c.faction for c in POOL.cards)
    assert set(per_faction) == set(POOL.factions) and min(per_faction.values()) >= 7
    assert {"Fire", "Wind", "Earth"} <= {c.element_name for c in POOL.cards}
    for c in POOL.cards:
        assert c.attack_name and c.stages and 1 <= c.speed <= 7 and 3 <= c.souls <= 5


def test_every_keyword_is_used_by_at_least_three_cards():
    used = Counter(k for c in POOL.cards for k in c.keywords)
    for k in KEYWORDS:
        assert used[k] >= 3, f"{k} used by {used[k]} cards"


def test_factions_have_distinct_styles():
    styles = {}
    for c in POOL.cards:
        styles.setdefault(c.faction, Counter()).update(c.keywords - {"Attack", "DMG"})
    signatures = {f: tuple(k for k, _ in s.most_common(2)) for f, s in styles.items()}
    assert len(set(signatures.values())) >= 8


def _write_pool(tmp_path, card: dict):
    data = yaml.safe_load((HERE / "cards.yaml").read_text())
    data["cards"] = [card]
    path = tmp_path / "pool.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


GOOD = {"name": "Test Imp", "faction": "Oni Warband", "element": "Fire", "speed": 3, "souls": 4,
        "attack": {"name": "Poke", "cost": ["Fire"], "stages": [{"damage": 2}]}}


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"element": "Plasma"}, "element", "not an element"),
    ({"speed": 11}, "speed", "1..7"),
    ({"souls": "many"}, "souls", "integer"),
    ({"faction": "Nobody"}, "faction", "unknown faction"),
    ({"attack": {"name": "x", "cost": ["Fire"]}}, "attack", "exactly name, cost, stages"),
    ({"attack": {"name": "x", "cost": ["Fyre"], "stages": [{"damage": 1}]}}, "attack.cost", "not an element"),
    ({"attack": {"name": "x", "cost": ["Fire"], "stages": [{"damgae": 1}]}}, "attack.stages[0]", "did you mean"),
    ({"attack": {"name": "x", "cost": ["Fire"], "stages": [{"damage": {"amount": 2, "range": 3}}]}},
     "attack.stages[0]", "no parameter"),
    ({"attack": {"name": "x", "cost": ["Fire"], "stages": [{"freeze": 9}]}}, "freeze.up_to", "1..4"),
    ({"soul": [{"haunt": {"to": "moon"}}]}, "soul[0].haunt.to", "not one of"),
    ({"void": {"on_exit": [{"draw": 1}]}}, "void.on_exit", "unknown trigger"),
    ({"colour": "red"}, "colour", "unknown field"),
])
def test_pool_validation_names_card_and_field(tmp_path, change, field, words):
    with pytest.raises(ConfigError) as info:
        load_pool(_write_pool(tmp_path, {**GOOD, **change}))
    message = str(info.value)
    assert "Test Imp" in message and field in message and words in message


def test_a_valid_custom_pool_loads(tmp_path):
    pool = load_pool(_write_pool(tmp_path, GOOD))
    assert pool.cards[0].name == "Test Imp" and pool.cards[0].keywords == {"Attack", "DMG"}


def test_ten_ready_decks_are_legal():
    decks = ready_decks()
    assert len(decks) == 10
    for name, deck in decks.items():
        assert len(deck) == 40, name
        assert max(Counter(deck).values()) <= 3, name


def test_deck_validation_errors():
    names = [POOL.cards[i].name for i in ready_decks()["Oni Rampage"]]
    assert len(validate_deck(names, POOL)) == 40
    with pytest.raises(ConfigError, match="exactly 40"):
        validate_deck(names[:39], POOL)
    with pytest.raises(ConfigError, match="at most 3"):
        validate_deck(names[:36] + ["Oni Brute"] * 4, POOL)
    with pytest.raises(ConfigError, match="did you mean 'Oni Brute'"):
        validate_deck([*names[:39], "Oni Brut"], POOL)


def test_deck_files_names_paths_and_lists(tmp_path):
    path = tmp_path / "mine.yaml"
    kappa = [{c.name: 3} for c in POOL.cards if c.faction == "Kappa Shallows"][:5]
    entries = [{"Oni Brute": 3}, "3 x Red Oni Raider", *kappa, "Kappa Chief", "Kappa Chief", "Kappa Chief",
               "Karasu Scout", "Karasu Scout", "Karasu Scout", "Dive Bomber", {"Oni Warlord": 3},
               {"Iron Kanabo Oni": 3}, {"Oni Gatekeeper": 3}, {"Oni Drummer": 3}]
    path.write_text(yaml.safe_dump({"cards": entries}))
    with pytest.raises(ConfigError, match=r"unknown card name 'Dive Bomber'; did you mean"):
        resolve_deck(str(path), POOL)
    lines = path.read_text().replace("- Dive Bomber", "- Featherblade")
    path.write_text(lines)
    deck = resolve_deck(str(path), POOL)
    assert len(deck) == 40
    g = YokaizoGame(decks=(str(path), "Kappa Tide"))
    g.reset(0)
    assert g.deck_types[0] == deck
    with pytest.raises(ConfigError, match="ready decks"):
        resolve_deck("Kappa Tyde", POOL)


def test_decks_option_random_draws_ready_decks_each_reset():
    g = YokaizoGame()
    seen = set()
    for seed in range(20):
        g.reset(seed)
        seen.add(g.deck_types)
    assert len(seen) > 5 and all(d in ready_decks().values() for pair in seen for d in pair)


def test_bad_decks_option_is_named():
    with pytest.raises(ConfigError, match="decks"):
        YokaizoGame(decks="Kappa Tide")
    with pytest.raises(ConfigError, match="unknown option"):
        YokaizoGame(deck="random")
    with pytest.raises(ConfigError, match="max_steps"):
        YokaizoGame(max_steps=0)


def test_max_steps_truncates():
    import numpy as np
    g = YokaizoGame(max_steps=20)
    g.reset(1)
    while not g.is_over:
        g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
    assert g.is_truncated and g.steps == 20
