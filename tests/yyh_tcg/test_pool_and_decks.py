"""The card pool's shape, card-file validation, deck construction rules, deck files and options."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.yyh_tcg.helpers import NEUTRAL
from yokai_envs.core.errors import ConfigError
from yokai_envs.yyh_tcg.cards import CARDS_FILE, load_pool, parse_pool
from yokai_envs.yyh_tcg.decks import resolve_deck, starter_decks, validate_deck
from yokai_envs.yyh_tcg.game import YYHGame

POOL = load_pool()
RAW = yaml.safe_load(CARDS_FILE.read_text())


def test_pool_has_six_teams_with_bonuses_and_four_characters_each() -> None:
    assert len(POOL.teams) >= 6
    per_team = Counter(c.team for c in POOL.cards if c.is_character and c.team)
    for team in POOL.teams:
        assert POOL.team_bonus[team], team
        assert per_team[team] >= 4, team


def test_pool_has_forty_techniques_items_and_events_of_each_kind() -> None:
    kinds = Counter(c.type for c in POOL.cards)
    assert kinds["technique"] + kinds["item"] + kinds["event"] >= 40
    assert min(kinds["technique"], kinds["item"], kinds["event"]) >= 10
    assert any(c.limit1 for c in POOL.cards)
    assert {c.alignment for c in POOL.cards if c.is_character} == {"hero", "villain"}


def _broken(mutate) -> dict:
    data = copy.deepcopy(RAW)
    mutate(data)
    return data


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["cards"][0].update(defense="high"), "Yusuke Urameshi: field 'defense'"),
    (lambda d: d["cards"][0].update(team="Nobody"), "unknown team 'Nobody'"),
    (lambda d: d["cards"][0].update(alignment="neutral"), "field 'alignment'"),
    (lambda d: d["cards"][0].update(colour="red"), "unknown field(s) ['colour']"),
    (lambda d: d["cards"][0]["attacks"][1].update(effects={"explode": 1}), "unknown verb 'explode'"),
    (lambda d: d["cards"][0]["attacks"][1].update(effects={"draw": 0}), "verb 'draw' needs an integer"),
    (lambda d: d["cards"].append(dict(d["cards"][0])), "Yusuke Urameshi: duplicate card name"),
    (lambda d: d["cards"][-1].update(timing="draw"), "field 'timing'"),
    (lambda d: d["cards"][-1].update(type="spell"), "field 'type'"),
    (lambda d: d["teams"]["Urameshi"].update(bonus={"teleport": 1}), "team Urameshi"),
    (lambda d: d["cards"][-1].update(effects={"search": "character"}), "verb 'search' needs one of"),
    (lambda d: d.pop("teams"), "needs top-level keys"),
])
def test_card_file_errors_name_card_and_field(mutate, message: str) -> None:
    with pytest.raises(ConfigError, match=None) as info:
        parse_pool(_broken(mutate))
    assert message in str(info.value)


def test_a_custom_card_file_can_be_loaded(tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text(yaml.safe_dump(RAW))
    game = YYHGame(cards=str(path), decks=("Toguro Brothers", "Toguro Brothers"))
    game.reset(0)
    assert game.num_actions > 0
    path.write_text("cards: [")
    with pytest.raises(ConfigError, match="cannot read card file"):
        load_pool(path)


def test_at_least_four_legal_starter_decks() -> None:
    decks = starter_decks()
    assert len(decks) >= 4
    for name in decks:
        _, ids = resolve_deck(name)
        others = [c for c in ids if not POOL.cards[c].is_character]
        assert len(others) >= 40 and len(ids) - len(others) >= 4


def test_every_team_has_a_starter_deck_that_can_field_its_bonus() -> None:
    """Every team (and so every Team Bonus) appears in default play: a starter deck
    holds its team's four characters, and the three unaffiliated characters, so a 5th
    fighter is drawn in time (with one, a game waited for it and ended by a deck-out 10% of the time)."""
    unaffiliated = {c.name for c in POOL.cards if c.is_character and c.team is None}
    assert len(unaffiliated) == 3
    fielded = set()
    for name in starter_decks():
        _, ids = resolve_deck(name)
        chars = [POOL.cards[c] for c in ids if POOL.cards[c].is_character]
        assert len(chars) == 7 and unaffiliated <= {c.name for c in chars}, name
        for team in POOL.teams:
            if sum(c.team == team for c in chars) == 4:
                fielded.add(team)
    assert fielded == set(POOL.teams)


def test_random_decks_deal_every_starter() -> None:
    from yokai_envs.yyh_tcg.game import YYHGame

    seen = set()
    for seed in range(60):
        g = YYHGame()
        g.reset(seed)
        seen.update(p.deck_name for p in g.players)
    assert seen == set(starter_decks())


@pytest.mark.parametrize(("change", "message"), [
    ({"Rose Whip": 4}, "4 copies of 'Rose Whip' (at most 3 copies"),
    ({"Dimension Sword": 2}, "Limit 1 per Deck"),
    ({"M1": 2}, "a character is one fighter"),
    ({"Rose Whip": 0}, "positive copy count"),
    ({"Rose Wip": 1}, "unknown card 'Rose Wip' (did you mean 'Rose Whip'?)"),
])
def test_deck_construction_errors(change: dict, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate_deck({**NEUTRAL, **change}, POOL, "my deck")
    assert message in str(info.value) and "my deck" in str(info.value)


def test_deck_needs_forty_other_cards_and_four_characters() -> None:
    with pytest.raises(ConfigError, match="39 Techniques/Items/Events"):
        validate_deck({k: v for k, v in NEUTRAL.items() if k != "Mirror Counter"}, POOL)
    with pytest.raises(ConfigError, match="3 character"):
        validate_deck({k: v for k, v in NEUTRAL.items() if k not in ("M1", "Jin")}, POOL)


def test_deck_files_yaml_and_text(tmp_path: Path) -> None:
    yaml_file = tmp_path / "mine.yaml"
    yaml_file.write_text(yaml.safe_dump({"name": "Mine", "cards": NEUTRAL}))
    assert resolve_deck(str(yaml_file))[0] == "Mine"
    text_file = tmp_path / "mine.txt"
    text_file.write_text("# my deck\n" + "\n".join(f"{n} {name}" for name, n in NEUTRAL.items()))
    assert sorted(resolve_deck(str(text_file))[1]) == sorted(resolve_deck(NEUTRAL)[1])
    text_file.write_text("three Rose Whip\n")
    with pytest.raises(ConfigError, match="line 1"):
        resolve_deck(str(text_file))
    game = YYHGame(decks=(str(yaml_file), "Toguro Brothers"))
    game.reset(0)
    assert game.players[0].deck_name == "Mine"


def test_unknown_deck_name_suggests_a_starter() -> None:
    with pytest.raises(ConfigError, match="did you mean 'Toguro Brothers'"):
        YYHGame(decks=("Toguro Brother", "random"))


def test_decks_option_must_be_a_pair_and_unknown_options_fail() -> None:
    with pytest.raises(ConfigError, match="must be a pair"):
        YYHGame(decks="random")
    with pytest.raises(ConfigError, match="unknown option"):
        YYHGame(deck=("random", "random"))


def test_random_decks_vary_with_the_seed() -> None:
    names = set()
    game = YYHGame()
    for seed in range(20):
        game.reset(seed)
        names.add(game.players[0].deck_name)
    assert len(names) >= 3


def test_custom_card_file_needs_only_the_decks_it_plays(tmp_path: Path) -> None:
    data = copy.deepcopy(RAW)
    data["cards"] = [c for c in data["cards"] if c["name"] != "Genkai"]
    path = tmp_path / "no_genkai.yaml"
    path.write_text(yaml.safe_dump(data))
    game = YYHGame(cards=str(path), decks=(NEUTRAL, NEUTRAL))
    game.reset(1)
    assert "Genkai" not in game.pool.by_name
    with pytest.raises(ConfigError, match="unknown card 'Genkai'"):
        YYHGame(cards=str(path))


def test_starter_decks_are_long_enough_that_deck_outs_stay_rare() -> None:
    """Under search play, with 42-55 other cards a third of ISMCTS games ended by a
    deck-out (and equal decks hand those to the first player, who skips its first draw). The
    starter decks hold 58 other cards, Ichigaki Lab (whose Team Bonus draws a third card each
    turn) 60, and Healing Salve's repeatable heal costs 3 Spirit (RULES_NOTES 29, BALANCE.md)."""
    for name in starter_decks():
        _, ids = resolve_deck(name)
        others = sum(not POOL.cards[c].is_character for c in ids)
        assert others == (60 if name == "Ichigaki Lab" else 58), (name, others)
    salve = next(c for c in POOL.cards if c.name == "Healing Salve")
    assert salve.ability is not None and salve.ability.spirit == 3
