"""Every card does what its text says.

Two halves, parametrized over the whole pool: (1) the card's text names every operation of its
effects with the right number (text <-> data), and (2) every operation, run from a rich board as
that card's effect, changes the table exactly as its vocabulary verb promises (data <-> engine).
"""

from __future__ import annotations

import re

import pytest

from tests.yokaizo.helpers import POOL, act, blank, field, hand, legal, start, void
from yokai_envs.yokaizo.cards import VOCABULARY, Op
from yokai_envs.yokaizo.damage import banish
from yokai_envs.yokaizo.effects import Effect
from yokai_envs.yokaizo.state import NO, ActiveYokai, EffectZone

S = "Oni Brute"
CARDS = POOL.cards


def effect_lists(card):
    yield "attack", card.stages
    for trig, ops in card.field.items():
        yield f"field.{trig}", ops
    for trig, ops in card.void.items():
        yield f"void.{trig}", ops
    if card.soul:
        yield "soul", card.soul


# ------------------------------------------------------------------ (1) text names the effects
PHRASES = {
    "damage": lambda p: ("BREAK DMG " if p["break"] else "DMG ") + str(p["amount"])
    + (" more to the same Yokai" if p["target"] == "same" else "")
    + (" to the enemy Yokai taking its Turn" if p["target"] == "active" else ""),
    "shatter": lambda p: f"Shatter {p['count']}", "draw": lambda p: f"draw {p['count']}",
    "destroy": lambda p: "Destroy", "exile": lambda p: "Exile", "attach": lambda p: f"Attach {p['count']}",
    "shield": lambda p: f"Shield {p['count']}", "token": lambda p: f"Token {p['count']}",
    "burn": lambda p: "Burn", "unburn": lambda p: "Burned card", "blight": lambda p: f"Blight {p['up_to']}",
    "echo": lambda p: f"Echo {p['count']}", "freeze": lambda p: f"Freeze {p['up_to']}",
    "haunt": lambda p: f"Haunt a card to your {p['to'].capitalize() if p['to'] == 'void' else p['to']}",
    "shine": lambda p: f"Shine {p['count']} ({p['match']})", "slow": lambda p: f"Slow {p['up_to']}",
    "spin": lambda p: "Spin", "uproot": lambda p: f"Uproot up to {p['up_to']}", "swap": lambda p: "Swap",
    "if_banished": lambda p: "if it Banished",
    "if_active": lambda p: ("another " if p["another"] else "") + f"Active {POOL_ELEMENT[p['element']]}",
}
POOL_ELEMENT = ("Fire", "Wind", "Earth", "Water", "Shadow")


def walk(ops):
    for verb, params in ops:
        yield verb, params
        if "then" in params:
            yield from walk(params["then"])


@pytest.mark.parametrize("card", CARDS, ids=[c.name for c in CARDS])
def test_card_text_names_its_effects(card):
    assert set(PHRASES) == set(VOCABULARY)
    text = card.text.replace("Haunt a card to your Void", "Haunt a card to your Void")
    for where, ops in effect_lists(card):
        for verb, params in walk(ops):
            phrase = PHRASES[verb](params)
            assert phrase.lower() in text.lower(), f"{card.name} {where}: text lacks {phrase!r}"
    if card.soul:
        assert "Soul:" in text
    for trig, word in (("on_return", "Return:"), ("round_end", "end of Round"), ("round_start", "start of Round")):
        if trig in card.field or trig in card.void:
            assert word in text
    assert card.text.startswith(f"{card.attack_name}:"), "the text opens with the Special Attack"


# ------------------------------------------------------------------ (2) each verb does what it says
def rich_board(card):
    """Seat 0 owns the card (Field slot 0 and a copy in the Void); both sides have Souls, Void cards,
    Limbo, Shields and Burned cards so that every verb has something to act on."""
    g = blank()
    src = field(g, 0, 0, card.name, down=2)
    field(g, 0, 1, S, down=1)
    field(g, 1, 0, S, up=1, down=1)
    field(g, 1, 1, S, up=1, down=1)
    g.shields[1][0].append(g.deck[1].pop())
    void(g, 1, S, "Karasu Scout")
    vsrc = void(g, 0, card.name, "Cucumber Trader")[0]
    hand(g, 0, "Karasu Scout", S)
    for c in hand(g, 0, "Kappa Bowlkeeper", "Karasu Scout"):
        g.hand[0].remove(c)
        g.limbo[0].append(c)
    for c in hand(g, 1, "Karasu Scout", "Karasu Scout"):
        g.hand[1].remove(c)
        g.limbo[1].append(c)
    burned = hand(g, 0, "Kitsune Emberling")[0]
    g.hand[0].remove(burned)
    g.burned[0].append(burned)
    for c in hand(g, 0, "Karasu Scout", "Kappa Wrestler"):  # deck cards Shine may find
        g.hand[0].remove(c)
        g.deck[0].insert(0, c)
    return g, src, vsrc


def play_out(g):
    """Greedy chooser: take every option (topdeck when defending), stop when the effect is done."""
    while g.phase_name != "halt":
        options = legal(g) - {"pass / done / no"}
        if g.phase_name == "damage":
            act(g, "topdeck" if "topdeck" in options else sorted(options)[0])
        elif options:
            act(g, sorted(options)[0])
        else:
            act(g, "pass / done / no")


def snapshot(g):
    def absorbed(p):
        return sum(len(g.souls[p][s]) + g.face_up_souls(p, s) - len(g.shields[p][s]) for s in (0, 1))
    return {
        "absorbed_enemy": absorbed(1), "absorbed_own": absorbed(0), "hand": len(g.hand[0]),
        "enemy_void": len(g.void[1]), "enemy_shields": sum(len(x) for x in g.shields[1]),
        "exile": len(g.exile), "enemy_limbo": len(g.limbo[1]), "relics": sum(len(x) for x in g.relics[0]),
        "own_shields": sum(len(x) for x in g.shields[0]), "tokens": sum(g.facedown[c] for c in g.void[0]),
        "burned": len(g.burned[0]), "enemy_burned": len(g.burned[1]), "own_void": len(g.void[0]),
        "blighted": sum(g.blighted[c] for s in (0, 1) for c in g.souls[1][s]),
        "frozen": sum(g.frozen[c] for p in (0, 1) for c in g.void[p]), "limbo": len(g.limbo[0]),
        "slowed": sum(g.slowed[y] for p in (0, 1) for y in g.field[p] if y != NO),
        "own_down": sum(len(g.souls[0][s]) - g.face_up_souls(0, s) for s in (0, 1)),
    }


def expected(verb, p, g0, card):
    """The change a verb promises on the rich board (only keys it touches)."""
    n = p.get("amount") or p.get("count") or p.get("up_to") or 1
    if verb == "damage":
        return {"absorbed_enemy": n * (2 if p["target"] == "all_enemies" else 1)}
    return {
        "shatter": {"absorbed_enemy": min(n, 2), "absorbed_own": max(0, n - 2)},
        "draw": {"hand": n},
        "destroy": {"enemy_void": -min(n, 2)} if p.get("what") == "void" else {"enemy_shields": -1},
        "exile": {"exile": min(n, 2), "enemy_limbo": -min(n, 2)},
        "attach": {"relics": n},
        "shield": {"own_shields": n},
        "token": {"tokens": n},
        "burn": {"burned": n} if p.get("target") == "deck" else {"burned": min(n, 2), "enemy_void": -min(n, 2)},
        "unburn": {"burned": -1, ("own_void" if p.get("to") == "void" else "hand"): 1},
        "blight": {"blighted": min(n, 2)},
        "freeze": {"frozen": min(n, 4)},
        "haunt": {"limbo": -1, ("own_void" if p.get("to") == "void" else "hand"): 1},
        "slow": {"slowed": min(n, 4)},
        "uproot": {"own_down": -min(n, 2)} | ({"own_void": min(n, 2)} if p.get("to") == "void" else
                                              {"hand": min(n, 2)} if p.get("to") == "hand" else {}),
    }.get(verb, {})


OPS = [(card, where, verb, params) for card in CARDS for where, ops in effect_lists(card)
       for verb, params in walk(ops)]


@pytest.mark.parametrize(("card", "where", "verb", "params"), OPS,
                         ids=[f"{c.name}-{w}-{v}" for c, w, v, _ in OPS])
def test_card_effect_does_what_it_says(card, where, verb, params):
    g, src, vsrc = rich_board(card)
    source = vsrc if where.startswith("void") else src
    ctl = 0
    if where == "soul":
        g.active = ActiveYokai(1, 0, g.field[1][0])  # a Soul flips while the enemy Yokai takes its Turn
    if verb == "damage" and params["target"] == "active":
        g.active = ActiveYokai(1, 0, g.field[1][0])
    targets = ()
    if (verb == "damage" and params["target"] == "same") or verb in ("if_active", "if_banished"):
        targets = (g.field[1][1],)  # "the same Yokai": the one this effect hit before (alive)
    before = snapshot(g)
    souls_before = [len(g.souls[1][s]) + g.face_up_souls(1, s) - len(g.shields[1][s]) for s in (0, 1)]
    start(g, Effect((Op(verb, params),), ctl, source, EffectZone.NONE, g.banish_count, targets), halt=True)
    if verb == "spin":
        deck = 0 if params["deck"] == "own" else 1
        top = g.known_top[deck]
        assert top == g.deck[deck][-1]
        c = POOL.cards[g.ctype[top]]
        key, value = params["if"]
        hit = {"element": lambda: c.element == value, "faction": lambda: c.faction == value,
               "speed_min": lambda: c.speed >= value, "souls_min": lambda: c.souls >= value}[key]()
        fired = g.phase_name != "halt" or snapshot(g) != before
        assert fired == hit, f"{card.name}: Spin revealed {c.name}, condition {key}={value}"
        play_out(g)
        return
    if verb in ("if_banished", "if_active"):
        ran = g.phase_name != "halt" or snapshot(g) != before
        if verb == "if_active":
            others = {POOL.cards[g.ctype[c]].element for c in g.active_cards(0)
                      if not (params["another"] and c == source)}
            assert ran == (params["element"] in others)
            g2, src2, _ = rich_board(card)  # only the source itself is Active of that element
            for c in g2.void[0] + [g2.field[0][1]] + [c for s in (0, 1) for c in g2.souls[0][s]]:
                g2.c_elem[c] = (params["element"] + 1) % 5
            g2.c_elem[src2] = params["element"]
            base = snapshot(g2)
            start(g2, Effect((Op(verb, params),), 0, src2, EffectZone.NONE, g2.banish_count, (g2.field[1][1],)),
                  halt=True)
            assert (g2.phase_name != "halt" or snapshot(g2) != base) == (not params["another"])
        else:
            assert not ran  # it hit nothing
            for banished, fires in (("its target", True), ("the attacker", False)):
                g2, src2, _ = rich_board(card)
                victim = g2.field[1][0]
                banish(g2.state, g2.rules_context(), *((1, 0) if banished == "its target" else (0, 0)))
                base = snapshot(g2)
                start(g2, Effect((Op(verb, params),), 0, src2, EffectZone.NONE, g2.banish_count, (victim,)),
                      halt=True)
                ran2 = g2.phase_name != "halt" or snapshot(g2) != base
                assert ran2 == fires, f"{card.name}: with {banished} Banished the follow-up fired: {ran2}"
        play_out(g)
        return
    if verb == "echo":
        play_out(g)
        assert len(g.hand[0]) >= before["hand"] + 1  # Echoed Cucumber Trader: draw 1
        return
    if verb == "shine":
        assert legal(g) - {"pass / done / no"}, "something in the deck matches an Active card"
        taken = sorted(legal(g) - {"pass / done / no"})[0]
        assert POOL.cards[g.ctype[source]].name not in taken
        play_out(g)
        assert len(g.hand[0]) >= before["hand"] + 1 and g.known_top[0] == NO
        return
    if verb == "swap":
        out = g.void[0][0]
        play_out(g)
        assert out in g.hand[0] and len(g.hand[0]) == before["hand"] and len(g.void[0]) == before["own_void"]
        return
    play_out(g)
    after = snapshot(g)
    if verb == "damage":  # the DMG lands on the Yokai the text names, and only there
        grew = [len(g.souls[1][s]) + g.face_up_souls(1, s) - len(g.shields[1][s]) - souls_before[s] for s in (0, 1)]
        hit = {"same": [False, True], "enemy": [True, False], "active": [True, False],
               "all_enemies": [True, True]}[params["target"]]  # (picks take enemy Yokai 0 first)
        assert [x > 0 for x in grew] == hit, f"{card.name} {where}: DMG landed on {grew}, expected {hit}"
    for key, delta in expected(verb, params, g, card).items():
        assert after[key] - before[key] == delta, f"{card.name} {where} {verb}: {key} changed by " \
                                                   f"{after[key] - before[key]}, expected {delta}"


LISTS = [(card, where, ops) for card in CARDS for where, ops in effect_lists(card)]


@pytest.mark.parametrize(("card", "where", "ops"), LISTS, ids=[f"{c.name}-{w}" for c, w, _ in LISTS])
def test_whole_effect_resolves_and_keeps_invariants(card, where, ops):
    g, src, vsrc = rich_board(card)
    g.active = ActiveYokai(1, 0, g.field[1][0])
    start(g, Effect(ops, 0, vsrc if where.startswith("void") else src, EffectZone.NONE, g.banish_count), halt=True)
    play_out(g)
    g.pending = None if g.is_terminal else g.pending
    seen = sorted(c for p in (0, 1) for zone in (g.deck[p], g.hand[p], g.limbo[p], g.grave[p], g.burned[p],
                                                  g.void[p], [y for y in g.field[p] if y != NO],
                                                  *g.souls[p], *g.shields[p], *g.relics[p]) for c in zone)
    assert sorted(seen + g.exile) == list(range(80))


# ------------------------------------------------------------------ (3) "may" and "up to" <-> pass
#: the keyword each choice verb's text uses; Burn, Blight, Freeze and Slow are "up to X" by the
#: rulebook's own definitions of those keywords, whatever the card says
CHOICE_WORDS = {"burn": "Burn", "blight": "Blight", "freeze": "Freeze", "slow": "Slow", "shatter": "Shatter",
                "echo": "Echo", "haunt": "Haunt", "shine": "Shine", "uproot": "Uproot", "swap": "Swap",
                "exile": "Exile", "destroy": "Destroy", "attach": "Attach", "shield": "Shield",
                "unburn": "Burned card"}
UP_TO_KEYWORDS = {"Burn", "Blight", "Freeze", "Slow"}
LABELS = {"Void entry": "void.on_entry", "Field entry": "field.on_entry", "Return": "field.on_return",
          "Soul": "soul", "Field, end of Round": "field.round_end", "Void, end of Round": "void.round_end",
          "Field, start of Round": "field.round_start"}
WORD = re.compile(r"\b(" + "|".join(w for w in CHOICE_WORDS.values() if " " not in w) + r")\b|Burned card")


def text_choices(card):
    """Per effect list, the choice keywords of the card's text in order, each with whether the
    text lets the player stop early ("may" before it in its clause, "up to" after it)."""
    parts = re.split(r"(?:^|\. )(" + "|".join(map(re.escape, LABELS)) + r"): ", card.text)
    segments = {"attack": parts[0].split(": ", 1)[1]}
    segments |= {LABELS[label]: body for label, body in zip(parts[1::2], parts[2::2])}
    out = {}
    for where, body in segments.items():
        found, clause_start = [], 0
        for m in WORD.finditer(body):
            before = body[clause_start:m.start()]
            may = bool(re.search(r"\bmay\b", before)) or body[m.end():].startswith(" up to")
            found.append((m.group(0), may or m.group(0) in UP_TO_KEYWORDS))
            clause_start = m.end()
        out[where] = found
    return out


def rich_choice_board(card):
    """The rich board, with a deck card of every faction so that Shine always finds a match."""
    g, src, vsrc = rich_board(card)
    for name in ("Kitsune Emberling", "Karasu Scout", "Kappa Bowlkeeper", "Weeping Yurei", "Kasa-obake",
                 "Yuki-onna", "Tanuki Gambler", "Jorogumo", "Raiju Pup"):
        c = hand(g, 0, name)[0]
        g.hand[0].remove(c)
        g.deck[0].insert(0, c)
    return g, src, vsrc


@pytest.mark.parametrize("card", CARDS, ids=[c.name for c in CARDS])
def test_card_choices_offer_a_pass_exactly_where_the_text_says_may_or_up_to(card):
    texts = text_choices(card)
    for where, ops in effect_lists(card):
        choices = [(verb, params) for verb, params in walk(ops) if verb in CHOICE_WORDS]
        words = texts.get(where, [])
        assert [w for w, _ in words] == [CHOICE_WORDS[v] for v, _ in choices], \
            f"{card.name} {where}: the text's choices {words} do not match the data's {choices}"
        for (verb, params), (word, may) in zip(choices, words):
            g, src, vsrc = rich_choice_board(card)
            source = vsrc if where.startswith("void") else src
            before = snapshot(g)
            start(g, Effect((Op(verb, params),), 0, source, EffectZone.NONE, g.banish_count), halt=True)
            asked = g.phase_name == "effect target"
            if may:
                assert asked and "pass / done / no" in legal(g), f"{card.name} {where} {word}: no pass"
            else:
                assert not asked or "pass / done / no" not in legal(g), \
                    f"{card.name} {where} {word}: a pass where the text makes it mandatory"
                assert asked or g.phase_name == "damage" or snapshot(g) != before, \
                    f"{card.name} {where} {word}: nothing to choose on the rich board"
