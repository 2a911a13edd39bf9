"""The declarative effects vocabulary: validation, rules text, and the one interpreter.

Cards never carry Python: their YAML names verbs from three small vocabularies.

* Immediate verbs (an attack's effect, an Event, a "Draw:"/"Main:"/"Attack:"/"when you use an
  attack" ability) resolve once, for the player who uses the card ("you"; in part 4 of the
  Attack step that may be the defender, for whom ``power``, ``weaken`` and ``extra_damage``,
  which change "your attack", do nothing):
  ``draw N``, ``gain_spirit N``, ``drain_spirit N`` (opponent loses N), ``heal N`` (your fighter),
  ``power N`` (this turn's attack +N), ``weaken N`` (opponent fighter's Defense -N this turn),
  ``guard N`` (your fighter's Defense +N until the start of your next turn), ``extra_damage N``
  (this turn's attack deals N more damage if it deals any; the 2-a-turn cap rises by N),
  ``mill N`` (opponent's top N deck cards to their discard), ``strip N`` (opponent discards N
  random hand cards), ``search TYPE`` (you choose a TYPE card of your deck, show it and put it
  into your hand; the deck is shuffled),
  ``flip_sideline 1`` (flip your face-down Sideline attachments, paying or discarding each),
  ``rotate 1`` (your next-in-line Sideline character moves to the end of the line).
* Passive verbs (a character's "Effect:" or an attached Item): a character's apply while it is
  in play, in the Arena or on the Sideline (the same rule as its abilities); an Item's apply
  to the character it is attached face-up to, so they count while that character is your
  fighter: ``attack_plus N``, ``defense_plus N``,
  ``vs_villain_plus N`` / ``vs_hero_plus N`` (attack bonus against that alignment).
* Team Bonus verbs, active while 3 of your characters in play share the team's symbol:
  ``extra_spirit N`` (Draw step), ``end_draw N`` (end of your turn, never from an empty deck),
  ``rage N`` (when you use an attack, discard up to N cards for +3000 each),
  ``team_defense N`` (your characters of the team),
  ``damage_mill N`` (opponent mills N per point of damage you deal), ``villain_hunter N``
  (attack +N per Villain the opponent has in play), ``enter_search TYPE`` (a character of the
  team entering the Arena searches your deck for a TYPE card).

Values are in thousands of printed points. The rules call :func:`resolve` for immediate
verbs, :func:`attack_modifier` / :func:`defense_modifier` for passives and the Team Bonus
values in part 5, and the ``on_*`` hooks where a Team Bonus has its moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from yokai_envs.core.errors import ConfigError
from yokai_envs.yyh_tcg import moves
from yokai_envs.yyh_tcg.state import MAX_SPIRIT, Ev, PlayerState

if TYPE_CHECKING:
    from yokai_envs.core.context import Context
    from yokai_envs.yyh_tcg.cards import Card
    from yokai_envs.yyh_tcg.state import State

CARD_TYPES = ("character", "technique", "item", "event")
SEARCHABLE = ("technique", "item", "event")

IMMEDIATE_VERBS: dict[str, str] = {
    "draw": "int", "gain_spirit": "int", "drain_spirit": "int", "heal": "int", "power": "int",
    "weaken": "int", "guard": "int", "extra_damage": "int", "mill": "int", "strip": "int",
    "search": "type", "flip_sideline": "int", "rotate": "int",
}
PASSIVE_VERBS: dict[str, str] = {
    "attack_plus": "int", "defense_plus": "int", "vs_villain_plus": "int", "vs_hero_plus": "int",
}
BONUS_VERBS: dict[str, str] = {
    "extra_spirit": "int", "end_draw": "int", "rage": "int", "team_defense": "int",
    "damage_mill": "int", "villain_hunter": "int", "enter_search": "type",
}
#: Attack bonus per card discarded to the ``rage`` Team Bonus.
RAGE_POWER = 3

_TEXT = {
    "draw": "draw {n} card(s)", "gain_spirit": "gain {n} Spirit Energy",
    "drain_spirit": "your opponent loses {n} Spirit Energy", "heal": "heal {n} damage from your fighter",
    "power": "your attack this turn gets +{k}", "weaken": "the opposing fighter gets -{k} Defense this turn",
    "guard": "your fighter gets +{k} Defense until your next turn",
    "extra_damage": "if this turn's attack deals damage, it deals {n} more (the damage cap rises by {n})",
    "mill": "your opponent puts the top {n} card(s) of their deck into their discard pile",
    "strip": "your opponent discards {n} random card(s) from their hand",
    "search": "search your deck for {a}, show it and put it into your hand",
    "flip_sideline": "flip your face-down Sideline attachments face-up (pay each cost or discard it)",
    "rotate": "move your next-in-line Sideline character to the end of the line",
    "attack_plus": "your fighter's attacks get +{k}", "defense_plus": "your fighter gets +{k} Defense",
    "vs_villain_plus": "your fighter's attacks get +{k} against Villains",
    "vs_hero_plus": "your fighter's attacks get +{k} against Heroes",
    "extra_spirit": "gain {n} more Spirit Energy in your Draw step",
    "end_draw": "draw {n} card(s) at the end of your turn",
    "rage": f"when you use an attack, you may discard up to {{n}} card(s) for +{RAGE_POWER}000 Attack each",
    "team_defense": "your characters of this team get +{k} Defense",
    "damage_mill": "when your fighter deals damage, your opponent mills {n} card(s) per point",
    "villain_hunter": "your attacks get +{k} for each Villain your opponent has in play",
    "enter_search": "when a character of this team enters the Arena, search your deck for {a}, show it and put "
                    "it into your hand",
}


def validate(owner: str, field: str, raw: Any, vocabulary: dict[str, str]) -> tuple[tuple[str, Any], ...]:
    """Check a ``{verb: value}`` mapping against ``vocabulary``; errors name card and field."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        raise ConfigError(f"{owner}: field {field!r} must be a non-empty mapping of verb: value, got {raw!r}")
    out = []
    for verb, value in raw.items():
        if verb not in vocabulary:
            raise ConfigError(f"{owner}: field {field!r}: unknown verb {verb!r}; "
                              f"known verbs: {', '.join(sorted(vocabulary))}")
        if vocabulary[verb] == "int":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
                raise ConfigError(f"{owner}: field {field!r}: verb {verb!r} needs an integer 1..10, got {value!r}")
        elif value not in SEARCHABLE:
            raise ConfigError(f"{owner}: field {field!r}: verb {verb!r} needs one of {SEARCHABLE}, got {value!r}")
        out.append((verb, value))
    return tuple(out)


def describe(effects: tuple[tuple[str, Any], ...]) -> str:
    """Rules text for a validated effect list (values printed in thousands where they are points)."""
    parts = [_TEXT[verb].format(n=value, k=f"{value}000" if isinstance(value, int) else value, t=value,
                                a=f"{'an' if str(value)[:1] in 'aeiou' else 'a'} {value}")
             for verb, value in effects]
    return "; ".join(parts)


#: The immediate verbs that change "your attack": the defender has none, so they do nothing for it.
YOUR_ATTACK_VERBS = frozenset({"power", "weaken", "extra_damage"})


def does_something_for_the_defender(effects: tuple[tuple[str, Any], ...]) -> bool:
    return any(verb not in YOUR_ATTACK_VERBS for verb, _ in effects)


def resolve(st: State, ctx: Context, seat: int, effects: tuple[tuple[str, Any], ...]) -> None:
    """Resolve immediate effects for ``seat``, in printed order (stops if the game ends)."""
    me = st.players[seat]
    opp = st.players[1 - seat]
    attacking = seat == st.turn_player
    for verb, value in effects:
        if st.winner is not None:
            return
        if verb == "draw":
            moves.draw(st, ctx, seat, value)
        elif verb == "gain_spirit":
            me.spirit = min(MAX_SPIRIT, me.spirit + value)
        elif verb == "drain_spirit":
            opp.spirit = max(0, opp.spirit - value)
        elif verb == "heal":
            if me.fighter is not None:
                me.fighter.damage = max(0, me.fighter.damage - value)
        elif verb == "power":
            if attacking:  # "your attack": the defender has none
                st.power += value
        elif verb == "weaken":
            if attacking:  # this turn's attack is the attacker's: the defender's Defense is what counts
                st.weaken += value
        elif verb == "guard":
            me.guard += value
        elif verb == "extra_damage":
            if attacking:
                st.extra_damage += value
        elif verb == "mill":
            moves.mill(st, ctx, 1 - seat, value)
        elif verb == "strip":
            for _ in range(min(value, len(opp.hand))):
                card = opp.hand[int(ctx.rng.integers(len(opp.hand)))]
                opp.take_from_hand(card)
                opp.discard.append(card)
                ctx.see(None, Ev.STRIPPED, 1 - seat, card)
        elif verb == "search":
            moves.search(st, seat, value)
        elif verb == "flip_sideline":  # all slots at once: one payment choice over every card turned up
            moves.flip_attachments(st, ctx, seat, tuple(range(1, len(me.sideline) + 1)))
        elif verb == "rotate":
            if len(me.sideline) >= 2:
                me.sideline.append(me.sideline.pop(0))
        else:  # validated on load; reaching here is a bug
            raise AssertionError(f"unhandled verb {verb}")


# ---------------------------------------------------------------- passives and Team Bonus
def bonus(player: PlayerState, verb: str) -> int:
    """The active Team Bonus value of an int ``verb`` (0 when not active)."""
    return int(player.bonus.get(verb, 0))


def _passive_total(player: PlayerState, table: list[int]) -> int:
    """``table`` (a value per card id) summed over the cards whose passive applies to the
    fighter: every character on the field (the fighter and the Sideline: a character's text
    works wherever it is in play, as its abilities do), and the Items attached face-up to the
    fighter (an Item boosts the character it is under). 0 without a fighter."""
    fighter = player.fighter
    if fighter is None:
        return 0
    value = table[fighter.char]
    for attached in fighter.attached:
        if attached.face_up:
            value += table[attached.card]
    for waiting in player.sideline:
        value += table[waiting.char]
    return value


def passive_tables(cards: Sequence[Card]) -> dict[str, list[int]]:
    """Verb -> value per card id of every passive verb, and the two sums :func:`attack_modifier`
    reads: ``attack_vs_villain`` (attack_plus + vs_villain_plus) and ``attack_vs_hero``
    (attack_plus + vs_hero_plus). Built once per card pool."""
    tables = {verb: [card.passive_value(verb) for card in cards] for verb in PASSIVE_VERBS}
    for versus in ("villain", "hero"):
        tables[f"attack_vs_{versus}"] = [a + v for a, v in zip(tables["attack_plus"], tables[f"vs_{versus}_plus"])]
    return tables


def attack_modifier(st: State, seat: int) -> int:
    """Passive attack verbs of ``seat``'s fighter and its Items, plus ``villain_hunter``."""
    me, opp = st.players[seat], st.players[1 - seat]
    cards = st.tables.cards
    passive = st.tables.passive  # verb -> value per card id, precomputed
    target = cards[opp.fighter.char].alignment if opp.fighter else None
    # attack_plus, plus the versus verb of the target's alignment (a villain, else a hero)
    value = _passive_total(me, passive["attack_vs_villain"] if target == "villain"
                           else passive["attack_vs_hero"] if target else passive["attack_plus"])
    hunter = bonus(me, "villain_hunter")
    if hunter:
        value += hunter * sum(cards[s.char].alignment == "villain" for s in opp.slots())
    return value


def defense_modifier(st: State, seat: int) -> int:
    """Passive ``defense_plus`` on ``seat``'s fighter and its Items, plus ``team_defense``."""
    me = st.players[seat]
    fighter = me.fighter
    if fighter is None:
        return 0
    value = _passive_total(me, st.tables.passive["defense_plus"])
    if me.bonus_team is not None and st.tables.cards[fighter.char].team == me.bonus_team:
        value += bonus(me, "team_defense")
    return value


def on_end_of_turn(st: State, ctx: Context, seat: int) -> None:
    """The end-of-turn draw bonus is one the player "can" use: it never draws from an empty deck
    (drawing there would lose the game), so it takes what the deck holds, up to its N."""
    me = st.players[seat]
    extra = min(bonus(me, "end_draw"), len(me.deck))
    if extra:
        moves.draw(st, ctx, seat, extra)


def on_damage(st: State, ctx: Context, seat: int, damage: int) -> None:
    """``seat``'s fighter just dealt ``damage``."""
    mill = bonus(st.players[seat], "damage_mill")
    if mill:
        moves.mill(st, ctx, 1 - seat, mill * damage)


def on_enter(st: State, seat: int) -> None:
    """``seat``'s next in line just entered the Arena after a match."""
    me = st.players[seat]
    kind = me.bonus.get("enter_search")
    if kind and me.fighter is not None and st.tables.cards[me.fighter.char].team == me.bonus_team:
        moves.search(st, seat, str(kind))
