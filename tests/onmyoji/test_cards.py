"""One test per card: each Yokai's Shikigami ability and each Equip edge do what their text says.

The expected change is computed by a small reference model of the vocabulary written here,
independently of ``effects.py``; the ability is driven through the real menus and masks.
"""

from __future__ import annotations

import copy
import itertools

import pytest
import yaml

from tests.onmyoji.helpers import POOL, T_LEFT, T_P0, A, G, S, Y, give, legal, new_game, play_turn, put_battle
from yokai_envs.core.errors import ConfigError
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji import rules
from yokai_envs.onmyoji.cards import CARDS_PATH, AbilityTarget, parse_pool
from yokai_envs.onmyoji.state import Decision

ENEMIES = ["Oni", "Jorogumo"]  # DEF 1 (left) and DEF 0 (right)


def _snapshot(g):
    p = g.players[0]
    left, right = g.enemies
    return {"hp": p.hp, "shield": p.shield, "atk_up": p.atk_up, "spl_up": p.spl_up, "act_first": p.act_first,
            "hand": p.hand[:], "left_hp": left.hp, "right_hp": right.hp, "left_weak": left.weak,
            "left_stopped": left.stopped}


def _expected(before, ability):
    """Reference model: what the card text says, aimed at the left enemy (DEF 1) or at seat 0."""
    exp = copy.deepcopy(before)
    def_left = 1
    for verb, n in ability.effects:
        if verb == "damage":
            absorbed = min(n, def_left)
            def_left -= absorbed
            exp["left_hp"] -= n - absorbed
        elif verb == "pierce":
            exp["left_hp"] -= n
        elif verb == "damage_all":
            absorbed = min(n, def_left)
            def_left -= absorbed
            exp["left_hp"] -= n - absorbed
            exp["right_hp"] -= n
        elif verb == "heal":
            exp["hp"] = min(20, exp["hp"] + n)
        elif verb == "shield":
            exp["shield"] += n
        elif verb == "weaken":
            exp["left_weak"] += n
            def_left = max(0, def_left - n)
        elif verb in ("atk_up", "spl_up"):
            exp[verb] += n
        elif verb == "stop":
            exp["left_stopped"] = True
        elif verb == "act_first":
            exp["act_first"] = True
        elif verb == "refresh":
            exp["hand"] = [h or i == 2 for i, h in enumerate(exp["hand"])]
    return exp


def _battle(card_name: str, choice: int):
    g = new_game("coop", characters=("Doman", "Seimei"))
    give(g, 0, card_name, choice)
    put_battle(g, ENEMIES, first=0)
    for e in g.enemies:
        e.hp = 60
    g.players[0].hp = 5
    return g


def _use(g, action):
    g.step(action)
    if g.decision == Decision.TARGET:
        options = legal(g)
        g.step(T_LEFT if T_LEFT in options else T_P0)


@pytest.mark.parametrize("name", [y.name for y in POOL.yokai])
def test_shikigami_ability_does_what_it_says(name):
    card = POOL.yokai[Y[name]]
    sk = card.shikigami
    g = _battle(name, 0)
    use = act.USE_SHIKIGAMI + card.index
    if sk.timing == "start_of_turn":
        assert g.decision == Decision.START_MENU and use in legal(g)
    else:
        assert g.decision != Decision.START_MENU  # nothing to do at the start of the turn
        g.step(A)  # seat 0 attacks
        g.step(G)  # seat 1 guards
        g.step(act.DONE)  # seat 1's Guard resolves
        assert g.decision == Decision.ACTION_MENU and g.current_player == 0 and use in legal(g)
    g.players[0].hand[2] = False  # a Used Spell, for "refresh"
    g.players[0].used[2] = True
    before = _snapshot(g)
    _use(g, use)
    assert _snapshot(g) == _expected(before, sk.ability)
    assert use not in legal(g)  # the same ability at most once per turn


@pytest.mark.parametrize("name", [y.name for y in POOL.yokai])
@pytest.mark.parametrize(("edge", "card"), [(0, A), (1, G), (2, S)])
def test_equip_edge_numbers_and_effect(name, edge, card):
    y = POOL.yokai[Y[name]]
    g = _battle(name, 1 + edge)
    base = (3, 0, 2)  # Doman's ATK, DEF, SPL
    p = g.players[0]
    from yokai_envs.onmyoji import effects as fx
    assert (fx.player_atk(g.state, p), fx.player_def(g.state, p), fx.player_spl(g.state, p)) == tuple(
        b + s for b, s in zip(base, y.edges[edge].stats))
    use = act.USE_EQUIP + y.index
    for other in (A, G, S):  # the effect is offered only on a turn with the matching card
        world = g.clone()
        world.step(other)
        world.step(G if other != G else A)
        while world.current_player != 0:
            world.step(act.DONE)
        assert (use in legal(world)) == (other == card and y.edges[edge].ability is not None)
    if y.edges[edge].ability is None:
        return
    g.step(card)
    g.step(G if card != G else A)
    while g.current_player != 0:
        if act.DONE in legal(g):
            g.step(act.DONE)
    g.players[0].hand[2 if card != S else 0] = False
    g.players[0].used[2 if card != S else 0] = True
    before = _snapshot(g)
    _use(g, use)
    assert _snapshot(g) == _expected(before, y.edges[edge].ability)


# ---------------------------------------------------------------- validation on load
def _raw():
    with CARDS_PATH.open() as f:
        return yaml.safe_load(f)


def test_shipped_pool_is_complete():
    assert len(POOL.characters) == 4 and len(POOL.yokai) == 18
    assert sorted(y.lv for y in POOL.yokai) == [1] * 6 + [2] * 6 + [3] * 6
    assert {c.name: c.evolve_at for c in POOL.characters}["Seimei"] == 3
    assert {c.name: c.evolve_at for c in POOL.characters}["Kuzunoha"] == 3
    assert all(c.evolve_at == 5 for c in POOL.characters if c.name not in ("Seimei", "Kuzunoha"))
    assert set(POOL.coop) == set(POOL.solo) == set(POOL.coop_balanced) == set(POOL.solo_balanced) == set(range(1, 11))


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["yokai"]["Kappa"].pop("hp"), "yokai 'Kappa': missing field(s) hp"),
    (lambda d: d["yokai"]["Kappa"].__setitem__("hp", 40), "yokai 'Kappa'.hp"),
    (lambda d: d["yokai"]["Kappa"]["shikigami"]["effects"].append({"explode": 1}), "unknown verb 'explode'"),
    (lambda d: d["yokai"]["Yuki-onna"]["shikigami"].pop("duel"), "needs a 'duel:' variant"),
    (lambda d: d["yokai"]["Kappa"]["shikigami"].__setitem__("timing", "whenever"), "Kappa'.shikigami.timing"),
    (lambda d: d["yokai"]["Kappa"]["actions"].pop(), "exactly 3 actions"),
    (lambda d: d["yokai"]["Kappa"]["actions"][1].__setitem__("target", "everyone"), "actions[1].target"),
    (lambda d: d["yokai"]["Kappa"]["equip"].pop("bottom"), "Kappa'.equip: missing field(s) bottom"),
    (lambda d: d["yokai"]["Kasa-obake"]["shikigami"].__setitem__("target", "none"), "needs target: enemy"),
    (lambda d: d["yokai"]["Kappa"]["shikigami"].__setitem__("per_game", 1), "exactly one limit"),
    (lambda d: d["characters"].pop("Doman"), "expected 4 Characters"),
    (lambda d: d["yokai"]["Kappa"].__setitem__("lv", 2), "expected 6 Yokai of Lv1"),
    (lambda d: d["solo_difficulty"][3].__setitem__("take", ["everyone"]), "solo_difficulty.3.take"),
    (lambda d: d["solo_difficulty_balanced"][7].__setitem__("night_plus", [1, 0]), "night_plus: expected a list of 3"),
    (lambda d: d["solo_difficulty_balanced"][7].__setitem__("night_plus", [1, 0, 4]),
     "solo_difficulty_balanced.7.night_plus[2]"),
    (lambda d: d["solo_difficulty_balanced"][7].pop("night_plus"), "solo_difficulty_balanced.7"),
    (lambda d: d["solo_difficulty"][7].__setitem__("night_plus", [1, 0, 0]),
     "solo_difficulty.7.night_plus: not a column of the book's table"),
    (lambda d: d["solo_difficulty"][7].__setitem__("boss_plus", 2),
     "solo_difficulty.7.boss_plus: not a column of the book's table"),
    (lambda d: d["coop_difficulty"][7].__setitem__("boss_hp_plus", 4),
     "coop_difficulty.7.boss_hp_plus: not a column of the book's table"),
    (lambda d: d["coop_difficulty"].pop(7), "coop_difficulty: missing field(s) 7"),
    (lambda d: d["yokai"]["Kodama"]["shikigami"].__setitem__("effects", [{"act_first": 1}]), "act_first works only"),
])
def test_bad_card_data_names_card_and_field(mutate, message):
    data = _raw()
    mutate(data)
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
                       .replace("]", r"\]")):
        parse_pool(data)


def test_difficulty_tables_are_monotone():
    """Each modifier only gets harder as the level rises (Co-op and Solo)."""
    for lv, (coop, solo) in itertools.product(range(1, 10), ((POOL.coop, POOL.solo),
                                                              (POOL.coop_balanced, POOL.solo_balanced))):
        a, b = coop[lv], coop[lv + 1]
        boss_a = 2 * a.boss_boost + a.boss_plus + a.enemy_plus_one
        boss_b = 2 * b.boss_boost + b.boss_plus + b.enemy_plus_one
        assert boss_b >= boss_a and b.lone_plus_one >= a.lone_plus_one and b.enemy_plus_one >= a.enemy_plus_one
        assert b.boss_hp_plus >= a.boss_hp_plus
        assert b != a
        s, t = solo[lv], solo[lv + 1]
        assert t.character_plus <= s.character_plus and t.starting_shikigami_lv <= s.starting_shikigami_lv
        assert t.take >= s.take and t.heal_before_boss <= s.heal_before_boss
        assert t.lone_plus_one >= s.lone_plus_one and t.boss_plus >= s.boss_plus
        assert t != s


def test_solo_book_levels_each_one_column_harder():
    """The book's Solo table (its columns only, R26): each level is harder than the one below in
    exactly one column, so all ten differ and none is easier in any column."""
    def columns(s):
        return (-s.character_plus, -s.starting_shikigami_lv, len(s.take), -s.heal_before_boss, s.lone_plus_one)

    for lv in range(1, 10):
        low, high = columns(POOL.solo[lv]), columns(POOL.solo[lv + 1])
        assert sum(h > lo for h, lo in zip(high, low, strict=True)) == 1, lv
        assert all(h >= lo for h, lo in zip(high, low, strict=True)), lv
    assert all(POOL.solo[lv].boss_plus == 0 and POOL.solo[lv].night_plus == (0, 0, 0) for lv in range(1, 11))


@pytest.mark.parametrize("name", [y.name for y in POOL.yokai])
@pytest.mark.parametrize("index", [0, 1, 2])
def test_yokai_action_does_what_it_says(name, index):
    """Each printed Yokai action: its damage, its target, "marked" and "when no other Yokai is left"."""
    y = POOL.yokai[Y[name]]
    action = y.actions[index]
    g = new_game("duel", characters=("Doman", "Seimei"))  # both DEF 0 ...
    put_battle(g, [name], first=1)
    for p in g.players:
        p.equip_stats = p.equip_stats._replace(defense=1)  # ... plus 1 DEF each
    g.enemies[0].hp = 60
    g.enemies[0].next_action = index
    hp = [p.hp for p in g.players]
    play_turn(g, [A, A])
    hit = {"first": {1}, "second": {0}, "left": {0}, "right": {1}, "both": {0, 1}}.get(action.target, set())
    amount = 0 if action.rest else max(0, action.damage + action.lone_bonus - (0 if action.marked else 1))
    assert [hp[s] - g.players[s].hp for s in (0, 1)] == [amount if s in hit else 0 for s in (0, 1)]
    expected_next = 2 if y.repeat_third and index == 2 else (index + 1) % 3
    assert g.enemies[0].next_action == expected_next


def _duel_final(name: str):
    g = new_game("duel", characters=("Doman", "Yasunori"))  # Yasunori: DEF 1
    give(g, 0, name, 0)
    g.final_duel = True
    g.first_seat = 0
    rules.start_battle(g.state, g.rules_context(), [None, None])
    rules.advance(g.state, g.rules_context())
    g.players[0].hp = 5
    return g


@pytest.mark.parametrize("name", [y.name for y in POOL.yokai])
def test_shikigami_in_the_duel_final_uses_its_duel_text_on_the_other_onmyoji(name):
    card = POOL.yokai[Y[name]]
    sk = card.shikigami
    ability = sk.ability.duel or sk.ability
    g = _duel_final(name)
    use = act.USE_SHIKIGAMI + card.index
    if sk.timing == "on_action":
        g.step(A)
        g.step(S)
    assert g.current_player == 0 and use in legal(g)
    me, other = g.players
    before = (me.hp, me.shield, me.atk_up, me.spl_up, me.act_first, other.hp, other.weak)
    g.step(use)
    if sk.timing == "start_of_turn":  # R28: what it does to the other Onmyoji lands at the reveal
        if act.DONE in legal(g):
            g.step(act.DONE)
        g.step(A)
        g.step(S)
    hp, shield, atk_up, spl_up, act_first, other_hp, other_weak = before
    def_left = 1
    for verb, n in ability.effects:
        if verb in ("damage", "damage_all"):
            absorbed = min(n, def_left)
            def_left -= absorbed
            other_hp -= n - absorbed
        elif verb == "pierce":
            other_hp -= n
        elif verb == "weaken":
            other_weak += n
            def_left = max(0, def_left - n)
        elif verb == "heal":
            hp = min(20, hp + n)
        elif verb == "shield":
            shield += n
        elif verb == "atk_up":
            atk_up += n
        elif verb == "spl_up":
            spl_up += n
        elif verb == "act_first":
            act_first = True
    assert (me.hp, me.shield, me.atk_up, me.spl_up, me.act_first, other.hp, other.weak) == (
        hp, shield, atk_up, spl_up, act_first, other_hp, other_weak)
    assert "stop" not in {v for v, _ in ability.effects}


def _what_an_edge_changes(g, seat):
    """Everything an edge ability could change, except the shield of a Guarding user (Guard already
    keeps every damage off it, so that shield does nothing)."""
    me = g.players[seat]
    out = [(p.hp, p.atk_up, p.spl_up, p.weak, p.shield if s != seat or not me.guarding else None,
            tuple(p.hand)) for s, p in enumerate(g.players)]
    out += [(e.hp, e.weak, e.stopped) for e in g.enemies if e is not None]
    return out


EDGE_ABILITIES = [(y.name, edge) for y in POOL.yokai for edge in range(3) if y.edges[edge].ability is not None]


@pytest.mark.parametrize("mode", ["solo", "duel", "coop"])
@pytest.mark.parametrize(("name", "edge"), EDGE_ABILITIES)
def test_every_edge_ability_does_something_when_it_can_be_used(name, edge, mode):
    """Azukiarai's and Nue's right edge (shield yourself) could be used only while
    Guarding, when they did nothing."""
    g = new_game(mode, characters=("Doman", "Seimei"), solo_start="Kappa")
    for p in g.players:
        p.hp = 10
    give(g, 0, name, 1 + edge)
    enemies = [n for n in ("Oni", "Jorogumo", "Umibozu") if n != name][:2]
    put_battle(g, enemies, first=0)
    card = (A, G, S)[edge]
    g.step(card)
    if mode != "solo":
        g.step(A)
    assert g.decision == Decision.ACTION_MENU and g.current_player == 0
    use = act.USE_EQUIP + Y[name]
    assert use in legal(g)
    before = _what_an_edge_changes(g, 0)
    g.step(use)
    if g.decision == Decision.TARGET:
        g.step(max(legal(g)))  # the right enemy (DEF 0), or the partner in Co-op
    assert _what_an_edge_changes(g, 0) != before


NIGHT_FIELDS = ("character_plus", "starting_shikigami_lv", "take", "lone_plus_one", "night_plus")


def test_solo_levels_differ_in_their_nights():
    """Variant "balanced": every Solo level is harder than the one below in its nights, not only in
    the Boss battle (the fields that act before the Boss: starting HP and Shikigami, actions taken,
    +1 lone Yokai, Night N damage +K, R31). The book's table has no Night N column."""
    for lv in range(1, 10):
        below, above = POOL.solo_balanced[lv], POOL.solo_balanced[lv + 1]
        assert [getattr(below, f) for f in NIGHT_FIELDS] != [getattr(above, f) for f in NIGHT_FIELDS], (lv, lv + 1)
        assert all(a >= b for a, b in zip(above.night_plus, below.night_plus)), (lv, lv + 1)


def _heal_or_shield_abilities():
    for y in POOL.yokai:
        named = [("shikigami", y.shiki.ability)] + [(f"edge {i}", e.ability) for i, e in enumerate(y.edges)]
        for where, ability in named:
            if ability is not None and {e.verb.value for e in ability.effects} & {"heal", "shield"}:
                yield y.name, where, ability


def test_every_partner_able_heal_and_shield_aims_at_an_ally():
    """Co-op helping (onmyoji_v4): Tanuki's Shikigami shield and the Guard-edge heals of
    Tanuki, Yuki-onna and Umibozu aim at an ally, so in Co-op they can reach the partner;
    only Nure-onna's refresh-and-heal stays on its user (it refreshes the user's own hand)."""
    own = [(name, where) for name, where, a in _heal_or_shield_abilities() if a.target != AbilityTarget.ALLY]
    assert own == [("Nure-onna", "shikigami")]
    g = new_game("coop", characters=("Doman", "Seimei"))
    g.players[1].hp = 5
    for name, where, ability in _heal_or_shield_abilities():
        if ability.target == AbilityTarget.ALLY:
            assert fx.ability_targets(g.state, 0, ability) == [fx.PLAYER_0, fx.PLAYER_0 + 1], (name, where)
    heal_edge = POOL.yokai[Y["Yuki-onna"]].edges[1].ability
    fx.apply_ability(g.state, g.rules_context(), 0, heal_edge, fx.PLAYER_0 + 1)
    assert g.players[1].hp == 6 and g.players[0].hp == g.side(g.players[0]).hp


def test_boss_actions_in_order():
    """onmyoji_v4: the Boss's fifth action hits the first player alone (it hit both in v1)."""
    assert [(a.damage, a.target.value if a.target else None) for a in POOL.boss.actions] == [
        (2, "first"), (3, "second"), (0, None), (2, "both"), (3, "first")]
