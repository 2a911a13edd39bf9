"""One test per ruling in yokai_envs/yokaizo/RULES_NOTES.md (R<N>)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.yokaizo.helpers import (
    NO,
    POOL,
    act,
    blank,
    effect,
    field,
    hand,
    legal,
    name_of,
    slot_souls,
    start,
    void,
)
from yokai_envs.yokaizo import moves
from yokai_envs.yokaizo.attacks import ActionChoice, ReturnSwap
from yokai_envs.yokaizo.cards import KEYWORDS
from yokai_envs.yokaizo.damage import Damage, banish
from yokai_envs.yokaizo.rules import NextTurn, Replace, Turn, VoidPlay, first_turn_reveal
from yokai_envs.yokaizo.state import BIG_TIER, ActiveYokai

S = "Oni Brute"
NOTES = Path(__file__).parents[2] / "yokai_envs" / "yokaizo" / "RULES_NOTES.md"


def board(**kw):
    g = blank(**kw)
    field(g, 0, 0, S)
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    return g


def test_every_ruling_has_a_test():
    text = NOTES.read_text()
    names = [line.split("(`")[1].split("`)")[0] for line in text.splitlines() if line.startswith("- R")]
    assert len(names) >= 29
    for name in names:
        assert name in globals(), f"{name} named in RULES_NOTES.md has no test"


def test_r1_shatter_hits_x_yokai():
    from tests.yokaizo.test_book_rules import (
        test_shatter_hits_every_yokai_when_fewer_than_x,
        test_shatter_hits_x_yokai_your_own_too_when_the_enemy_has_fewer,
    )

    assert "Shatter" in KEYWORDS and "Shatter" in NOTES.read_text()
    g = board()
    start(g, effect(g, 0, "[{shatter: 2}]"))
    assert "pass / done / no" not in legal(g)  # X Yokai, not up to X
    act(g, "enemy field yokai 0", "topdeck", "enemy field yokai 1", "topdeck")
    assert g.phase_name != "effect target"
    test_shatter_hits_x_yokai_your_own_too_when_the_enemy_has_fewer()
    test_shatter_hits_every_yokai_when_fewer_than_x()


def test_r2_first_grave_to_thirteen_loses_immediately():
    g = board()
    for _ in range(12):
        g.burned[0].append(g.deck[0].pop())
    start(g, effect(g, 0, "[{burn: 3}, {draw: 2}]"))
    act(g, "yes")
    assert g.is_terminal and g.winner == 1 and len(g.hand[0]) == 0  # the draw never happens


def test_r3_limbo_becomes_the_deck_as_the_deck_empties():
    from tests.yokaizo.test_book_rules import test_the_limbo_becomes_the_deck_as_soon_as_the_deck_empties

    test_the_limbo_becomes_the_deck_as_soon_as_the_deck_empties()
    g = board()
    g.exile += g.deck[0]
    g.deck[0] = []
    start(g, effect(g, 0, "[{draw: 2}, {token: 1}, {burn: 1}]"))
    assert not g.hand[0] and not g.void[0] and not g.burned[0]
    start(g, Damage(0, 0, g.field[0][0], 1, False))
    assert g.phase_name != "damage"  # R4: nothing can take the point


def test_r4_unplaceable_point_is_negated():
    g = board()
    g.exile += g.deck[1]
    g.deck[1] = []
    y = g.field[1][0]
    start(g, Damage(1, 0, y, 3, False))
    assert slot_souls(g, 1, 0) == (0, 0) and g.field[1][0] == y and not isinstance(g.stack[-1], Damage)


def test_r5_setup_reveal_is_not_an_entry():
    from yokai_envs.yokaizo.game import YokaizoGame
    g = YokaizoGame(decks=("Kappa Tide", "Kappa Tide"))  # Kappa Wrestler: Field entry Shield 2
    for seed in range(30):
        g.reset(seed)
        while g.hidden_setup or g.round == 0:
            g.step(int(np.flatnonzero(g.legal_action_mask())[0]))
        assert not any(g.shields[p][s] for p in (0, 1) for s in (0, 1))
    g = blank()
    field(g, 0, 1, S)
    hand(g, 0, "Kappa Wrestler")
    start(g, Replace(0, 0))
    act(g, "card Kappa Wrestler", "my field yokai 0")
    assert len(g.shields[0][0]) == 2  # a replacement is an entry


def test_r6_only_played_cards_trigger_void_entry():
    g = board()
    g.limbo[0].append(hand(g, 0, "Cucumber Trader")[0])
    g.hand[0].clear()
    start(g, effect(g, 0, "[{haunt: void}]"))  # the one card in the Limbo: Haunted unasked
    assert name_of(g, g.void[0][0]) == "Cucumber Trader" and not g.hand[0]
    y = g.field[0][0]
    hand(g, 0, "Cucumber Trader")
    start(g, VoidPlay(0, 0, y))
    act(g, "card Cucumber Trader")
    assert len(g.hand[0]) == 1  # played: draws 1


def test_r7_echo_cannot_echo_an_echo():
    from yokai_envs.yokaizo.cards import default_pool
    from yokai_envs.yokaizo.picks import _echoable
    pool = default_pool()
    assert not _echoable(pool.cards[pool.by_name["Nine-Tail Matron"]].stages)
    assert _echoable(pool.cards[pool.by_name["Cucumber Trader"]].void["on_entry"])
    g = board()
    void(g, 0, S)
    start(g, effect(g, 0, "[{echo: 1}]"))
    assert g.phase_name != "effect target"  # nothing to Echo: no entry effects


def test_r8_return_without_a_legal_swap():
    g = blank()
    y = field(g, 0, 0, "Karasu Scout", up=2)  # 3 Souls
    field(g, 1, 0, S)
    hand(g, 0, "Karasu Scout")
    start(g, ActionChoice(0, 0, y))
    act(g, "return", "topdeck")  # only one slot: then flips
    assert g.field[0][0] == y or g.field[0][0] == NO
    act(g, "soul 2")  # third face-up Soul: Banished by its own Return
    assert g.field[0][0] == NO and y in g.grave[0] and not isinstance(g.stack[-1], ReturnSwap)
    g = blank()
    y = field(g, 0, 0, S, up=2, down=1)
    field(g, 1, 0, S)
    hand(g, 0, "Karasu Scout")  # 3 Souls: would be Banished with 3 face-up
    start(g, ActionChoice(0, 0, y))
    act(g, "return", "soul 2", "topdeck")
    assert g.field[0][0] == y and "Karasu Scout" in [name_of(g, c) for c in g.hand[0]]


def test_r9_banish_at_soul_value_with_extra_souls():
    g = blank()
    field(g, 0, 0, S)
    y = field(g, 1, 0, "Karasu Scout", up=2, down=2)  # 3 Souls, 4 attached after a Swap
    start(g, Damage(1, 0, y, 1, False))
    act(g, "soul 2")
    assert g.field[1][0] == NO and len(g.limbo[1]) == 4


def test_r10_blight_stays_slow_does_not_on_swap():
    g = blank()
    y = field(g, 0, 0, S, down=2)
    field(g, 1, 0, S)
    g.blighted[g.souls[0][0][0]] = 1
    g.slowed[y] = 1
    hand(g, 0, "Karasu Scout")
    start(g, ReturnSwap(0, 0, y))
    act(g, "card Karasu Scout")
    new = g.field[0][0]
    assert g.blighted[g.souls[0][0][0]] and not g.slowed[new] and not g.slowed[y]


def test_r11_speed_with_slow_and_the_tier_inventory():
    g = board()
    y = g.field[0][0]
    g.slowed[y] = 1
    g.relics[0][0].append(g.deck[0].pop())
    assert g.field_speed(0, 0) == 1  # Slowed: base 1; attachments add nothing
    start(g, effect(g, 0, "[{slow: 1}]"))
    assert "my field yokai 1" in legal(g) and "my field yokai 0" not in legal(g)
    # not yet counted, and its Speed rises above the current tier: it waits for the next Round
    g = board()
    g.round, g.tier = 1, 3
    g.last_turn = 1
    first = g.field[0][0]
    g.c_speed[first] = 4  # (no card raises Speed today; the rule is about any rise)
    start(g)
    assert g.active is not None and g.active[2] != first
    g.turn_round[g.active[2]] = 1
    assert not g.still_to_act(0, 0)
    test_r11_a_yokai_counted_at_its_tier_keeps_its_turn()


def test_r11_a_yokai_counted_at_its_tier_keeps_its_turn():
    """Raised (or Slowed) after its tier's inventory, a Yokai still takes its Turn."""
    for change in ("raise", "slow"):
        g = board()
        a, b = g.field[0]
        g.round, g.round_stage, g.tier = 1, 1, 99
        for y in (g.field[1][0], g.field[1][1]):
            g.turn_round[y] = 1  # the enemy has acted: only a and b remain, both Speed 2
        g.last_turn = 1
        start(g)  # tier 2 is counted: a and b; seat 0 picks which goes first
        assert g.tier == 2 and set(g.counted) == {a, b}
        act(g, "my field yokai 0")
        if change == "raise":
            g.c_speed[b] = 5
        else:
            g.slowed[b] = 1
        g.turn_round[a] = 1
        g.stack = [g.stack[0]]  # a's Turn is over
        start(g)
        assert g.active is not None and g.active[2] == b, change


def test_r12_attach_gives_no_speed():
    from tests.yokaizo.test_book_rules import (
        test_a_copy_swapped_in_is_not_taken_for_the_yokai_that_acted,
        test_a_yokai_that_returned_after_its_turn_never_acts_again_that_round,
    )

    test_a_yokai_that_returned_after_its_turn_never_acts_again_that_round()
    test_a_copy_swapped_in_is_not_taken_for_the_yokai_that_acted()
    g = board()
    speed = g.field_speed(0, 1)
    start(g, effect(g, 0, "[{attach: 2}]"))
    act(g, "my field yokai 1", "my field yokai 1")
    assert g.field_speed(0, 1) == speed and len(g.relics[0][1]) == 2
    banish(g.state, g.rules_context(), 0, 1)
    assert len(g.exile) == 2


def test_r13_token_pays_as_a_non_matching_card():
    from yokai_envs.yokaizo.attacks import can_pay
    assert can_pay([NO], (), 1, NO)  # a generic
    assert not can_pay([NO], (0,), 0, NO)  # not an element alone
    assert can_pay([NO, NO], (0,), 0, NO)  # two cover an element
    from yokai_envs.yokaizo.attacks import void_elements
    g = board()
    start(g, effect(g, 0, "[{token: 1}]"))
    (token,) = g.void[0]
    assert g.facedown[token] and g.c_elem[token] != NO  # a face-down card whose face has an element ...
    elements = void_elements(g.state, g.rules_context(), 0)
    assert elements == [NO]  # ... that pays as no element: a generic, or half of a pair
    assert can_pay(elements, (), 1, NO) and not can_pay(elements, (g.c_elem[token],), 0, NO)
    assert g.observation(0)[g.observation_layout["my_void"]][g.observer.width - 1] == 0  # owner sees it


def test_r14_burn_goes_to_the_burners_grave():
    from tests.yokaizo.test_book_rules import test_a_burned_enemy_void_card_goes_to_the_burners_grave

    test_a_burned_enemy_void_card_goes_to_the_burners_grave()
    g = board()  # the enemy's card in your Grave never joins your hand
    c = void(g, 1, S)[0]
    start(g, effect(g, 0, "[{burn: {up_to: 1, target: enemy_void}}]"))
    act(g, "enemy void card 0")
    start(g, effect(g, 0, "[{unburn: hand}]"), halt=True)
    assert g.burned[0] == [c] and g.phase_name == "halt"
    start(g, effect(g, 0, "[{burn: 1}]"), halt=True)
    act(g, "yes")
    start(g, effect(g, 0, "[{unburn: hand}]"), halt=True)  # mandatory: your own Burned card comes back
    act(g, f"card {S}")
    assert g.burned[0] == [c] and len(g.hand[0]) == 1 and g.grave_souls(0) == 1


def test_r15_limbo_is_public():
    g = board()
    g.limbo[1].append(g.deck[1].pop())
    obs = g.observation(0)
    assert obs[g.observation_layout["opp_limbo_counts"]].sum() > 0
    world = g.determinize(0, np.random.default_rng(1))
    assert world.limbo[1] == g.limbo[1]


def test_r16_shine_match_and_shuffle():
    g = blank()
    src = field(g, 0, 0, "Lucky Cat Tanuki")
    field(g, 1, 0, S)
    g.known_top[0] = g.deck[0][-1]
    start(g, effect(g, 0, "[{shine: {count: 1, match: name}}]", src=src))
    # by name: only the Active Oni Brute? none Active but Lucky Cat itself (a copy is excluded);
    # still asked (only pass), so the other seat does not learn that the deck holds no match
    assert g.phase_name == "effect target" and legal(g) == {"pass / done / no"}
    act(g, "pass / done / no")
    assert g.known_top[0] == NO  # shuffled anyway
    field(g, 0, 1, S)
    start(g, effect(g, 0, "[{shine: {count: 2, match: name}}]", src=src))
    assert legal(g) == {f"card {S}"}  # X cards where the deck has them: no pass
    act(g, f"card {S}", f"card {S}")
    assert len(g.hand[0]) == 2


def test_r17_spin_top_card_stays_known():
    g = board()
    start(g, effect(g, 0, "[{spin: {deck: own, if: {element: Fire}, then: [{draw: 1}]}}]"), halt=True)
    top = g.known_top[0]
    assert top == g.deck[0][-1]
    world = g.determinize(1, np.random.default_rng(3))
    assert world.deck[0][-1] == top  # even the opponent's sample keeps the revealed top card
    assert ("top", 0, g.ctype[top]) in g.known_placements(1)
    assert all(world.placement_holds(f) for f in g.known_placements(1))
    moves.draw(g.state, g.rules_context(), 0, 1)
    assert g.known_top[0] == NO


def test_r18_frozen_cards_still_pay():
    g = board()
    for c in void(g, 0, S, S):
        g.frozen[c] = 1
    start(g, ActionChoice(0, 0, g.field[0][0]))
    assert "special attack" in legal(g)  # Club Smash: Earth Earth


def test_r19_same_seat_trigger_order():
    g = blank()
    a = field(g, 0, 0, "Tengu Drummer")
    b = field(g, 0, 1, "Tengu Drummer")
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    from yokai_envs.yokaizo.rules import RoundTriggers
    from yokai_envs.yokaizo.state import RoundTrigger
    g.last_trigger = 1
    start(g, RoundTriggers(RoundTrigger.END))
    effects = [t for t in g.stack if t.__class__.__name__ == "Effect"]
    assert ([e.src for e in effects] == [b] and g.stack[-1].src == a) or effects[-1].src in (a, b)
    assert g.stack[-2].src == a  # slot 0's trigger resolves first (below it waits slot 1's)


def test_r20_reveal_off_tie_falls_back_to_a_coin():
    g = board()
    winners = set()
    for seed in range(20):
        g.rng = np.random.default_rng(seed)
        winners.add(first_turn_reveal(g.state, g.rules_context()))  # every card is Speed 2: always tied
    assert winners == {0, 1}


def test_r21_replacement_order():
    g = blank()
    field(g, 0, 1, S)
    field(g, 1, 1, S)
    g.last_turn = 1
    start(g)
    assert g.phase_name == "replace a Banished Yokai" and g.decider == 1
    g = blank()
    field(g, 0, 1, S)
    field(g, 1, 0, S)
    field(g, 1, 1, S)
    g.exile += g.deck[0]
    g.deck[0] = []
    start(g)
    assert g.field[0][0] == NO and g.phase_name != "replace a Banished Yokai"  # no card: stays empty
    test_r21_simultaneous_replacements_trigger_together()


def test_r22_turn_ends_when_its_yokai_leaves():
    g = blank()
    y = field(g, 0, 0, S, up=4, down=1)
    field(g, 0, 1, S)
    field(g, 1, 0, S, down=1, soul="Funayurei Crew")
    field(g, 1, 1, S)
    g.last_turn = 1
    void(g, 0, S, S)
    g.round, g.tier = 1, BIG_TIER
    start(g, Turn(0, 0))
    act(g, "pass / done / no", "basic attack", "my void card 0", "pass / done / no", "enemy field yokai 0")
    act(g, "soul 0")  # Funayurei Soul: DMG 1 to the attacker
    act(g, "soul 4")  # the attacker is Banished
    assert y in g.grave[0] and not any(isinstance(t, (Turn, ActionChoice)) for t in g.stack)


def test_r23_round_without_turns_is_a_draw():
    g = blank()
    g.exile += g.deck[0] + g.deck[1]
    g.deck = [[], []]
    g.round_stage = 0
    start(g)
    assert g.is_terminal and g.winner == NO and list(g.returns()) == [0.0, 0.0]


def test_r24_void_space_needed():
    g = board()
    void(g, 0, S, S, S, S, S, S)
    g.limbo[0].append(hand(g, 0, "Karasu Scout")[0])
    g.hand[0].clear()
    start(g, effect(g, 0, "[{haunt: void}]"), halt=True)
    assert g.phase_name == "halt"
    start(g, effect(g, 0, "[{haunt: hand}]"), halt=True)
    assert [name_of(g, c) for c in g.hand[0]] == ["Karasu Scout"]


def test_r25_payment_masks_keep_cost_payable():
    g = blank()
    y = field(g, 0, 0, "Oni Warlord")  # Earth, Fire, generic, generic
    field(g, 0, 1, "Red Oni Raider")   # Fire Ally
    field(g, 1, 0, S)
    void(g, 0, "Red Oni Raider", "Red Oni Raider", "Karasu Scout", "Kappa Bowlkeeper", S)
    start(g, ActionChoice(0, 0, y))
    act(g, "special attack")
    assert "ally pays this element" in legal(g)  # Fire first
    act(g, "my void card 3")  # Water as the first of a pair for Fire
    assert "my void card 3" not in legal(g)  # the Earth card must be kept for the Earth cost
    rng = np.random.default_rng(0)
    while g.phase_name == "pay the Special Attack":
        g.step(int(rng.choice(np.flatnonzero(g.legal_action_mask()))))
    assert g.phase_name == "damage" and len(g.void[0]) in (0, 1, 2)


def test_r26_blight_one_yokai_any_soul():
    g = blank()
    field(g, 0, 0, S)
    field(g, 1, 0, S, up=1, down=1)
    start(g, effect(g, 0, "[{blight: 3}]"))
    act(g, "enemy field yokai 0")
    assert legal(g) == {"pass / done / no", "soul 0", "soul 1"}
    act(g, "soul 0", "soul 1")
    assert g.phase_name != "effect target"


def test_r27_swap_effect():
    g = board()
    c = void(g, 0, S)[0]
    hand(g, 0, "Cucumber Trader", "Karasu Scout")
    start(g, effect(g, 0, "[{swap: 1}]"))  # mandatory: the one Void card is chosen unasked
    act(g, "card Cucumber Trader")
    assert c in g.hand[0] and len(g.hand[0]) == 2  # no entry draw


def test_r28_active_target_must_be_enemy():
    texts = [c.text for c in POOL.cards if "Yokai taking its Turn" in c.text]
    assert len(texts) == 3 and all("Soul: DMG 1 to the enemy Yokai taking its Turn" in t for t in texts)
    g = board()
    g.active = ActiveYokai(1, 0, g.field[1][0])
    y = g.field[1][0]
    start(g, effect(g, 1, "[{damage: {amount: 2, target: active}}]", src=y))
    assert g.phase_name != "damage"
    g.active = ActiveYokai(0, 0, g.field[0][0])
    start(g, effect(g, 1, "[{damage: {amount: 2, target: active}}]", src=y))
    assert g.phase_name == "damage" and g.decider == 0


def test_r29_reentry_tier_check():
    g = blank()
    y = field(g, 0, 0, S)
    g.round, g.round_stage, g.tier = 1, 1, 5
    g.turn_round[y] = 1
    g.field[0][0] = NO
    g.hand[0].append(y)  # it Returned after its Turn
    field(g, 0, 1, "Iron Kanabo Oni")
    field(g, 1, 0, "Iron Kanabo Oni")
    field(g, 1, 1, "Iron Kanabo Oni")
    g.stack = [NextTurn()]
    start(g)
    act(g, f"card {S}")  # the Yokai that took its Turn this Round re-enters at tier 5: no second Turn
    entered = g.field[0][0]
    assert entered == y and g.turn_round[entered] == 1 and not g.still_to_act(0, 0)
    assert g.active is None or g.active[2] != entered
    # a Yokai that has not acted, entering at tier 5 with Speed 2, is counted at tier 2
    g = blank()
    field(g, 0, 1, "Iron Kanabo Oni")
    field(g, 1, 0, "Iron Kanabo Oni")
    field(g, 1, 1, "Iron Kanabo Oni")
    g.round, g.round_stage, g.tier = 1, 1, 5
    for yy in (g.field[0][1], *g.field[1]):
        g.turn_round[yy] = 1
    hand(g, 0, S)
    start(g)
    act(g, f"card {S}")
    assert g.active is not None and g.ctype[g.active[2]] == POOL.by_name[S] and g.tier == 2


def test_r30_decklists_are_public():
    from tests.yokaizo.test_information import test_decklists_are_public_in_the_observation_and_the_views

    test_decklists_are_public_in_the_observation_and_the_views()


def test_r31_hidden_forced_choices_are_asked():
    from tests.yokaizo.test_information import test_a_return_with_no_fitting_hand_yokai_still_asks

    test_a_return_with_no_fitting_hand_yokai_still_asks()
    g = board()
    hand(g, 0, "Kappa Bowlkeeper")
    void(g, 0, S)
    start(g, effect(g, 0, "[{swap: 1}]"))  # (the one Void card: chosen unasked, it is public)
    assert legal(g) == {"card Kappa Bowlkeeper"}  # one name in hand, asked all the same
    g = board()
    start(g, effect(g, 0, "[{shine: {count: 1, match: element}}]", src=g.field[0][0]))
    g.deck[0][:] = [c for c in g.deck[0] if name_of(g, c) != S]
    g.stack[-1].run(g.state, g.rules_context())
    assert g.phase_name == "effect target" and "pass / done / no" in legal(g)


def test_r33_announced_face_down_cards_stay_public():
    from tests.yokaizo.test_book_rules import (
        test_a_face_down_card_announced_by_name_stays_in_place_in_every_sample,
        test_the_observation_shows_an_announced_face_down_card_to_both_seats,
    )

    for kind in ("soul", "token", "shield"):
        test_a_face_down_card_announced_by_name_stays_in_place_in_every_sample(kind)
        test_the_observation_shows_an_announced_face_down_card_to_both_seats(kind)


def test_r32_publicly_known_cards_stay_known():
    from tests.yokaizo.test_information import returned

    g = returned()
    world = g.determinize(0, np.random.default_rng(0))
    assert all(world.placement_holds(f) for f in g.known_placements(0))
    assert g.observation(0)[g.observation_layout["opp_public_hand_counts"]].sum() > 0


def test_r21_simultaneous_replacements_trigger_together():
    from tests.yokaizo.test_triggers_turns_and_replacements import (
        test_simultaneous_replacements_are_all_chosen_before_entry_effects,
    )

    test_simultaneous_replacements_are_all_chosen_before_entry_effects()


def test_r34_mandatory_texts_offer_no_pass():
    from tests.yokaizo.test_card_effects import test_card_choices_offer_a_pass_exactly_where_the_text_says_may_or_up_to
    from tests.yokaizo.test_keywords import test_uproot_is_up_to_x_by_the_book

    test_uproot_is_up_to_x_by_the_book()

    for name in ("Kitsune Ember Priest", "Weeping Yurei", "Lantern Ghost", "Onryo Avenger", "Grave Keeper",
                 "Hollow Husk", "Nine-Tail Matron", "Raijin Stormlord"):
        test_card_choices_offer_a_pass_exactly_where_the_text_says_may_or_up_to(POOL.cards[POOL.by_name[name]])


def test_r35_blazing_talons_may_echo_as_the_rulebook_example_says():
    from tests.yokaizo.test_rules import test_multi_stage_attack_resolves_in_order

    card = POOL.cards[POOL.by_name["Nine-Tail Matron"]]
    assert "then you may Echo 1" in card.text
    test_multi_stage_attack_resolves_in_order()  # the Echo stage offers a pass
