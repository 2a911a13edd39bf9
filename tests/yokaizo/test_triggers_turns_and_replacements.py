"""Triggers, replacements and Turns as the rulebook has them (fixes of yokaizo_v0, each test
failing on it), and the property that every Yokai takes exactly the Turns the tier inventory gives it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.yokaizo.helpers import POOL, act, blank, field, hand, legal, start
from yokai_envs.yokaizo import rules
from yokai_envs.yokaizo.attacks import ReturnSwap
from yokai_envs.yokaizo.effects import Effect
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.state import ActiveYokai, EffectZone

S = "Oni Brute"
IF_BANISHED = ["Kitsune Ember Priest", "Sojobo the Great", "Oni Warlord", "Onryo Avenger", "Web Matriarch"]


def attack(g: YokaizoGame, name: str, y: int) -> None:
    g.active = ActiveYokai(0, 0, y)
    start(g, Effect(POOL.cards[POOL.by_name[name]].stages, 0, y, EffectZone.NONE, g.banish_count), halt=True)


def defend(g: YokaizoGame, flip_first: bool) -> None:
    """Seat 1 takes the DMG: flip its trap Soul first (when asked), else topdeck."""
    while g.phase_name == "damage" and g.decider == 1:
        options = legal(g)
        act(g, "soul 0" if flip_first and "soul 0" in options else "topdeck")


# ------------------------------------------------------------------ 1. "if it Banished"
@pytest.mark.parametrize("name", IF_BANISHED)
def test_if_it_banished_ignores_the_attacker_banished_by_a_flipped_soul(name):
    g = blank()
    w = field(g, 0, 0, name, up=POOL.cards[POOL.by_name[name]].souls - 1, down=1)  # one flip from Banish
    field(g, 0, 1, S)
    target = field(g, 1, 0, S, down=1, soul="Funayurei Crew")  # Soul: DMG 1 to the enemy Yokai taking its Turn
    field(g, 1, 1, S)
    hand(g, 0, S)
    g.burned[0].append(g.deck[0].pop())  # something to unburn, should the follow-up fire
    attack(g, name, w)
    if g.phase_name == "effect target":
        act(g, "enemy field yokai 0")
    defend(g, flip_first=True)  # the trap flips: DMG 1 to the attacker
    assert g.decider == 0 and g.phase_name == "damage"
    act(g, f"soul {POOL.cards[POOL.by_name[name]].souls - 1}")  # its last face-down Soul: Banished
    defend(g, flip_first=False)
    assert w in g.grave[0] and target in g.field[1]  # the attacker was Banished, its target survived
    assert g.phase_name == "halt", f"{name}: the follow-up fired although its target survived"


@pytest.mark.parametrize("name", IF_BANISHED)
def test_if_it_banished_fires_when_its_target_is_banished(name):
    g = blank()
    w = field(g, 0, 0, name)
    field(g, 0, 1, S)
    field(g, 1, 0, S, up=4, down=1)  # one flip from Banish
    field(g, 1, 1, S, up=1)
    g.limbo[0].append(g.deck[0].pop())  # something to Haunt
    g.burned[0].append(g.deck[0].pop())  # something to unburn
    attack(g, name, w)
    if g.phase_name == "effect target":
        act(g, "enemy field yokai 0")
    while g.phase_name == "damage" and g.decider == 1 and g.field[1][0] != -1:
        act(g, "soul 4")
    assert g.field[1][0] == -1  # Banished
    assert g.phase_name != "halt" or len(g.stack) > 1 or g.souls[1][1] != [], f"{name}: follow-up did not fire"


# ------------------------------------------------------------------ 2. simultaneous replacements
def test_simultaneous_replacements_are_all_chosen_before_entry_effects():
    g = blank()
    field(g, 0, 1, S)
    field(g, 1, 1, S)
    hand(g, 0, "Lightning Beast")  # Field entry: DMG 1
    hand(g, 1, "Lightning Beast")
    g.last_turn = g.last_trigger = 1
    start(g)
    assert g.phase_name == "replace a Banished Yokai" and g.decider == 1
    act(g, "card Lightning Beast")
    assert g.phase_name == "replace a Banished Yokai" and g.decider == 0  # before any entry DMG
    act(g, "card Lightning Beast")
    # both Speed 6: seat 1 triggered last, so seat 0's entry effect resolves first
    assert g.phase_name == "effect target" and g.decider == 0


def test_two_empty_slots_and_one_card_left_fill_one_slot():
    g = blank()
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    hand(g, 0, S)
    g.exile += g.deck[0]
    g.deck[0] = []
    start(g)
    assert g.phase_name == "replace a Banished Yokai" and g.decider == 0
    act(g, f"card {S}")
    assert (g.field[0][0] == -1) != (g.field[0][1] == -1)  # one slot filled, the other stays empty
    g.check_invariants()


# ------------------------------------------------------------------ 3 and 4. Turns per Round
def test_a_yokai_that_acted_gets_no_second_turn_when_it_reenters():
    g = blank()
    y = field(g, 0, 0, S)  # Speed 2: it acts at tier 6 (say, Slowed... any tier above 2) and Returns
    field(g, 1, 0, "Iron Kanabo Oni")
    field(g, 1, 1, "Iron Kanabo Oni")
    g.round, g.round_stage, g.tier = 1, 1, 6
    for yy in (y, *g.field[1]):
        g.turn_round[yy] = 1
    hand(g, 0, "Karasu Scout")
    start(g, ReturnSwap(0, 0, y), halt=True)
    act(g, "card Karasu Scout")
    assert y in g.hand[0]
    from yokai_envs.yokaizo.damage import banish
    # the Yokai that came in is Banished; the Returned one is chosen to replace it
    banish(g.state, g.rules_context(), 0, 0)
    g.stack = [rules.NextTurn()]
    start(g)
    act(g, f"card {S}")
    assert g.field[0][0] == y
    assert g.active is None or g.active[2] != y  # no second Turn at tier 2
    assert not g.still_to_act(0, 0)


def test_attached_cards_give_no_speed():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S)
    before = g.field_speed(0, 0)
    g.relics[0][0].append(g.deck[0].pop())
    assert g.field_speed(0, 0) == before


def test_a_yokai_raised_after_its_tier_was_counted_keeps_its_turn():
    g = blank()
    a = field(g, 0, 0, S)
    b = field(g, 0, 1, S)
    for s in (0, 1):
        g.turn_round[field(g, 1, s, S)] = 1
    g.round, g.round_stage, g.tier, g.last_turn = 1, 1, 99, 1
    start(g)
    assert set(g.counted) == {a, b}
    act(g, "my field yokai 0")
    g.c_speed[b] = 6  # raised above the tier after it was counted
    g.turn_round[a] = 1
    g.stack = [g.stack[0]]
    start(g)
    assert g.active is not None and g.active[2] == b


def _turn_log(monkeypatch) -> tuple[list, list]:
    turns: list[tuple[int, int]] = []  # (round, Yokai) per Turn taken
    counts: list[tuple[int, int, tuple[int, ...]]] = []  # (round, tier, counted) per tier inventory
    run_turn, run_next = rules.Turn.run, rules.NextTurn.run

    def turn(self, g, ctx):
        if self.stage == 0:
            turns.append((g.round, g.field[self.seat][self.slot]))
        return run_turn(self, g, ctx)

    def next_turn(self, g, ctx):
        before = (g.round, g.tier, g.counted)
        out = run_next(self, g, ctx)
        if (g.round, g.tier, g.counted) != before and g.counted:
            counts.append((g.round, g.tier, g.counted))
        return out

    monkeypatch.setattr(rules.Turn, "run", turn)
    monkeypatch.setattr(rules.NextTurn, "run", next_turn)
    return turns, counts


def test_property_one_turn_per_yokai_per_round_and_every_counted_yokai_gets_one(monkeypatch):
    turns, counts = _turn_log(monkeypatch)
    g = YokaizoGame()
    rng = np.random.default_rng(18)
    for seed in range(120):
        turns.clear()
        counts.clear()
        g.reset(seed)
        while not g.is_over:
            g.step(int(rng.choice(np.flatnonzero(g.legal_action_mask()))))
        assert len(turns) == len(set(turns)), f"seed {seed}: a Yokai took two Turns in one Round"
        last_round = g.round
        for rnd, tier, counted in counts:
            for y in counted:
                banished = y in g.grave[y // 40]
                assert (rnd, y) in turns or banished or rnd == last_round, \
                    f"seed {seed}: Yokai {y} counted at tier {tier} of Round {rnd} got no Turn"


# ------------------------------------------------------------------ 6. card texts
def test_another_active_yokai_does_not_count_the_attacker_itself():
    for name in ("Flame-Tail Duelist", "Kappa Chief"):
        card = POOL.cards[POOL.by_name[name]]
        assert "another Active" in card.text
        g = blank()
        y = field(g, 0, 0, name)
        field(g, 0, 1, S)  # Earth: no other Active Yokai of that element
        field(g, 1, 0, S)
        attack(g, name, y)  # one enemy Yokai: the target is forced
        while g.phase_name == "damage":
            act(g, "topdeck")
        assert g.phase_name == "halt" and not g.shields[0][0], f"{name} satisfied its own condition"


def test_flame_tail_hits_the_same_yokai_again():
    g = blank()
    y = field(g, 0, 0, "Flame-Tail Duelist")
    field(g, 0, 1, "Flame-Tail Duelist")  # another Active Fire Yokai
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    attack(g, "Flame-Tail Duelist", y)
    act(g, "enemy field yokai 1")
    while g.phase_name == "damage":
        act(g, "topdeck")
    assert len(g.souls[1][1]) == 4 and not g.souls[1][0]  # 3 + 1 more, both on the chosen Yokai


# ------------------------------------------------------------------ 7. the README cites what exists
def test_game_readme_links_only_to_files_in_the_repository():
    readme = Path(__file__).parents[2] / "yokai_envs" / "yokaizo" / "README.md"
    text = readme.read_text()
    for link in re.findall(r"\]\(([^)#]+)", text):
        if not link.startswith("http"):
            assert (readme.parent / link).exists(), link
    assert "docs/rules-summaries/yokaizo.md" in text and "/work/" not in text and "shared/rules" not in text
