"""One test per card: its effect does what its (generated) text says, checked verb by verb.

Each card is put in a controlled position (NEUTRAL decks, M1 against M1), used at its timing,
and the state change is compared with the sum of what each of its verbs promises.
"""

from __future__ import annotations

import pytest

from tests.yyh_tcg.helpers import (
    attach,
    clear_hand,
    done,
    finish_choices,
    give,
    legal_names,
    neutral_game,
    pass_part2,
    play,
    refresh,
    set_fighter,
    take,
)
from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg.cards import load_pool
from yokai_envs.yyh_tcg.game import YYHGame
from yokai_envs.yyh_tcg.rules import attack_value, defense_value
from yokai_envs.yyh_tcg.state import Phase, Slot

POOL = load_pool()
SPIRIT = 6  # enough for every cost, low enough that gains are not capped


def _position(fighter: str | None = None) -> YYHGame:
    g = neutral_game(first=0)
    if fighter is not None:
        set_fighter(g, 0, fighter)
    me, opp = g.players
    me.spirit = SPIRIT
    me.fighter.damage = 3
    opp.spirit = 5
    give(g, 1, "Rose Whip", "Rose Whip", "Spirit Armor")
    attach(g, 0, "Spirit Armor", slot=1, face_up=False)  # something to flip
    clear_hand(g, 0)
    return g


def _snapshot(g: YYHGame) -> dict:
    me, opp = g.players
    return {"hand": len(me.hand), "deck": len(me.deck), "spirit": me.spirit, "opp_spirit": opp.spirit,
            "damage": me.fighter.damage, "power": g.power, "weaken": g.weaken, "guard": me.guard,
            "extra_damage": g.extra_damage, "opp_deck": len(opp.deck), "opp_discard": len(opp.discard),
            "opp_hand": len(opp.hand), "line": [s.char for s in me.sideline],
            "face_down": sum(not a.face_up for s in me.sideline for a in s.attached),
            "types": sorted(POOL.cards[c].type for c in me.hand)}


def _expect(before: dict, effects, spirit_paid: int = 0, cards_spent: int = 0) -> dict:
    """What the snapshot must look like after paying and resolving ``effects``."""
    exp = {**before, "types": None}
    exp["spirit"] -= spirit_paid
    exp["hand"] -= cards_spent
    for verb, value in effects:
        if verb == "draw":
            exp["hand"] += value
            exp["deck"] -= value
        elif verb == "gain_spirit":
            exp["spirit"] = min(10, exp["spirit"] + value)
        elif verb == "drain_spirit":
            exp["opp_spirit"] = max(0, exp["opp_spirit"] - value)
        elif verb == "heal":
            exp["damage"] = max(0, exp["damage"] - value)
        elif verb in ("power", "weaken", "guard", "extra_damage"):
            exp[verb] += value
        elif verb == "mill":
            exp["opp_deck"] -= value
            exp["opp_discard"] += value
        elif verb == "strip":
            exp["opp_hand"] -= value
            exp["opp_discard"] += value
        elif verb == "search":
            exp["hand"] += 1
            exp["deck"] -= 1
            exp["types"] = value
        elif verb == "flip_sideline":
            exp["spirit"] -= exp["face_down"] and POOL.by_name["Spirit Armor"].cost
            exp["face_down"] = 0
        elif verb == "rotate":
            exp["line"] = exp["line"][1:] + exp["line"][:1]
        else:
            raise AssertionError(f"no check for verb {verb}")
    return exp


def _check(g: YYHGame, before: dict, exp: dict) -> None:
    after = _snapshot(g)
    searched = exp.pop("types")
    if searched is not None:
        assert after["types"].count(searched) == before["types"].count(searched) + 1
    for key, value in exp.items():
        if key != "types":
            assert after[key] == value, f"{key}: {after[key]} != expected {value}"


def _attack_and_pause(g: YYHGame, action_name: str, attack) -> None:
    """Choose the attack, pay any discard, pass part 2, and stop in part 4 (Focus Bandana waits there)."""
    attach(g, 0, "Focus Bandana")
    give(g, 0, *["Rose Whip"] * attack.discard)
    if g.phase == Phase.MAIN:
        done(g)
    before = _snapshot(g)
    play(g, action_name)
    for _ in range(attack.discard):
        play(g, "discard Rose Whip")
    if g.phase == Phase.USE:
        done(g)
    assert g.phase == Phase.ABILITIES
    _check(g, before, _expect(before, attack.effects, attack.spirit, attack.discard))


CHARACTER_ATTACKS = [(c.name, i) for c in POOL.cards if c.is_character for i in range(len(c.attacks))]


@pytest.mark.parametrize(("name", "index"), CHARACTER_ATTACKS)
def test_character_printed_attack(name: str, index: int) -> None:
    g = _position(name)
    attack = POOL.by_name[name].attacks[index]
    _attack_and_pause(g, f"use printed attack {index + 1}", attack)
    assert g.attack is attack


TECHNIQUES = [c.name for c in POOL.cards if c.type == "technique"]


@pytest.mark.parametrize("name", TECHNIQUES)
def test_technique(name: str) -> None:
    g = _position()
    card = POOL.by_name[name]
    g.players[0].spirit = card.cost
    give(g, 0, name)
    play(g, f"attach {name} to the Arena fighter")
    assert g.players[0].spirit == 0  # its Spirit icons were paid
    g.players[0].spirit = SPIRIT
    refresh(g)
    _attack_and_pause(g, f"use technique {name}", card.attacks[0])


PASSIVE_CARDS = [c.name for c in POOL.cards if c.passive]


@pytest.mark.parametrize("name", PASSIVE_CARDS)
def test_passive_effect(name: str) -> None:
    card = POOL.by_name[name]
    g = _position()
    g.attack = POOL.by_name["M1"].attacks[0]
    base_attack, base_defense = attack_value(g.state), defense_value(g.state, 0)
    if card.is_character:
        set_fighter(g, 0, name)
        base_defense = card.defense
        base_attack = g.attack.value
    else:
        attach(g, 0, name)
    if card.passive_value("vs_hero_plus"):
        set_fighter(g, 1, "George Saotome")
    expected_attack = base_attack + sum(v for k, v in card.passive if k != "defense_plus")
    assert attack_value(g.state) == expected_attack
    assert defense_value(g.state, 0) == base_defense + card.passive_value("defense_plus")


def _place(g: YYHGame, name: str, place: str) -> None:
    """Put ``name`` (seat 0) at ``place``: the fighter, or on the Sideline (a character in line
    slot 1; a card attached under line slot 1, face-up or face-down)."""
    p = g.players[0]
    if POOL.by_name[name].is_character:
        if place == "fighter":
            set_fighter(g, 0, name)
        else:
            p.deck.append(p.sideline[0].char)
            p.sideline[0] = Slot(take(g, 0, name))
            refresh(g)
    elif place == "fighter":
        attach(g, 0, name)
    else:
        attach(g, 0, name, slot=1, face_up=place == "sideline face-up")


def _works_at(card, place: str) -> bool:
    """Where the rules say a card's text works (and its generated text says so)."""
    if card.is_character:
        return True  # in play: the fighter or the Sideline
    if card.passive and not card.ability:
        return place == "fighter"  # an Item boosts the character it is under
    return place != "sideline face-down"


def _places(card) -> list[str]:
    return ["fighter", "sideline"] if card.is_character else ["fighter", "sideline face-up", "sideline face-down"]


PASSIVE_PLACES = [(c.name, place) for c in POOL.cards if c.passive for place in _places(c)]


@pytest.mark.parametrize(("name", "place"), PASSIVE_PLACES)
def test_passive_effect_applies_where_its_text_says(name: str, place: str) -> None:
    """A passive works where the card's text says, the Sideline included for characters."""
    card = POOL.by_name[name]
    g = _position()
    if card.passive_value("vs_hero_plus"):
        set_fighter(g, 1, "George Saotome")
    g.attack = POOL.by_name["M1"].attacks[0]
    _place(g, name, place)
    fighter = POOL.cards[g.players[0].fighter.char]
    works = _works_at(card, place)
    assert attack_value(g.state) == g.attack.value + (sum(v for k, v in card.passive if k != "defense_plus")
                                                 if works else 0)
    assert defense_value(g.state, 0) == fighter.defense + (card.passive_value("defense_plus") if works else 0)
    assert ("on your Sideline" in card.text) == (card.is_character and works)
    assert ("attached face-up to your fighter" in card.text) == (not card.is_character)


ABILITY_PLACES = [(c.name, place) for c in POOL.cards if c.ability is not None for place in _places(c)]


def _to_timing(g: YYHGame, timing: str) -> None:
    if timing == "draw":
        g.phase = Phase.DRAW
        refresh(g)
    elif timing in ("attack", "use"):
        # no damage and two cards in hand: the turn waits in part 6 after the ability resolves
        g.players[1].guard = 30
        give(g, 0, "Rose Whip", "Rose Whip")
        done(g)
        play(g, "use printed attack 1")
        if timing == "attack":
            pass_part2(g)  # part 4 is skipped when nothing can be used there


@pytest.mark.parametrize(("name", "place"), ABILITY_PLACES)
def test_ability_is_usable_where_its_text_says(name: str, place: str) -> None:
    """Abilities follow the same rule as passives, and the text states it."""
    card = POOL.by_name[name]
    g = _position()
    _place(g, name, place)
    _to_timing(g, card.ability.timing)
    works = _works_at(card, place)
    assert (f"use the ability of {name}" in legal_names(g)) == works
    if works:
        before = _snapshot(g)
        play(g, f"use the ability of {name}")
        finish_choices(g)
        _check(g, before, _expect(before, card.ability.effects, card.ability.spirit))
    assert ("on your Sideline" in card.text) == card.is_character


ABILITY_CARDS = [c.name for c in POOL.cards if c.ability is not None]


@pytest.mark.parametrize("name", ABILITY_CARDS)
def test_ability(name: str) -> None:
    card = POOL.by_name[name]
    g = _position(name if card.is_character else None)
    if not card.is_character:
        attach(g, 0, name)
    timing = card.ability.timing
    _to_timing(g, timing)
    if timing in ("attack", "use"):
        assert g.phase == (Phase.USE if timing == "use" else Phase.ABILITIES)
    before = _snapshot(g)
    play(g, f"use the ability of {name}")
    finish_choices(g)
    _check(g, before, _expect(before, card.ability.effects, card.ability.spirit))
    assert f"use the ability of {name}" not in legal_names(g)  # once per turn


EVENTS = [c.name for c in POOL.cards if c.type == "event"]


@pytest.mark.parametrize("name", EVENTS)
def test_event(name: str) -> None:
    card = POOL.by_name[name]
    g = _position()
    give(g, 0, name)
    if card.timing in ("use", "attack"):
        assert f"play {name}" not in legal_names(g)
        attach(g, 0, "Focus Bandana")
        done(g)
        play(g, "use printed attack 1")
        if card.timing == "attack":
            pass_part2(g)
        assert g.phase == (Phase.USE if card.timing == "use" else Phase.ABILITIES)
    before = _snapshot(g)
    play(g, f"play {name}")
    finish_choices(g)
    _check(g, before, _expect(before, card.effects, card.spirit, 1))
    assert POOL.by_name[name].id in g.players[0].discard


def test_every_verb_is_used_by_some_card_or_team() -> None:
    used = set()
    for c in POOL.cards:
        for attack in c.attacks:
            used.update(v for v, _ in attack.effects)
        used.update(v for v, _ in c.passive + c.effects)
        if c.ability:
            used.update(v for v, _ in c.ability.effects)
    for bonus in POOL.team_bonus.values():
        used.update(v for v, _ in bonus)
    assert used == set(fx.IMMEDIATE_VERBS) | set(fx.PASSIVE_VERBS) | set(fx.BONUS_VERBS)


@pytest.mark.parametrize("name", [c.name for c in POOL.cards])
def test_every_card_has_text_naming_its_numbers(name: str) -> None:
    card = POOL.by_name[name]
    assert card.text
    for attack in card.attacks:
        assert f"{attack.value}000" in card.text


def test_search_texts_take_the_article_of_their_card_type() -> None:
    assert "search your deck for an item," in POOL.by_name["Dark Tournament Invitation"].text
    assert "search your deck for a technique," in POOL.by_name["Spirit World Orders"].text
