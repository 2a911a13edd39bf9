"""Yu Yu Hakusho TCG heuristic: what a sensible casual player does.

- Setup: field the deck's biggest team (for its Team Bonus), strongest character in the Arena.
- Draw/Main: place a 5th fighter at once; attach affordable Items and Techniques to the fighter
  (Items first, Techniques only when they beat the attacks it has), a spare card face-down
  under the next-in-line character; play Events that help now (a heal only when hurt); use
  every affordable ability.
- Attack: the attack with the most damage, then the best value per cost; spend "when you use
  an attack" cards, rage discards and Attack: abilities only when they raise the damage (as
  the defender in part 4: Attack: cards only when they lower it); take
  the two-card discard for 1 damage when the attack falls short.
- Discards: spare characters first, then the cheapest cards.
- Searches and paying for turned-up cards: the strongest Technique, else the biggest boost.

It reads the world only through ``self.view(game)`` (a determinized copy), and of it only its
table (``state``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from agents.base import ViewDecider
from yokai_envs.yyh_tcg.actions import Block
from yokai_envs.yyh_tcg.cards import CardType
from yokai_envs.yyh_tcg.rules import affordable_attacks, damage_now
from yokai_envs.yyh_tcg.state import Phase, State

if TYPE_CHECKING:
    from yokai_envs.core.game import Game
    from yokai_envs.yyh_tcg.cards import CardPool

B_FIFTH, B_ATTACH, B_EVENT, B_ABILITY, B_RAGE = Block.FIFTH, Block.ATTACH, Block.EVENT, Block.ABILITY, Block.RAGE
TECHNIQUE = CardType.TECHNIQUE
NO_TECHNIQUE = -(1 << 30)  # the tech_value of a card that is no Technique: below any attack


class CardFacts(NamedTuple):
    """What the Main step reads of each card, per card id (fixed card data, built once per pool)."""

    pool: CardPool
    cost: list[int]
    passive: list[bool]                  # it has a passive ("Effect:") text
    boost_item: list[bool]               # an Item with a passive, or a free one
    tech_value: list[int]                # a Technique's attack value, else NO_TECHNIQUE
    best_attack: list[int]               # a character's best printed attack value (0 without one)
    attack_spirit: list[int]             # the Spirit of its costliest printed attack (0 without one)
    effects: list[dict[str, Any]]        # an Event's effects, verb -> value (never mutated)
    ability_effects: list[dict[str, Any]]  # its ability's effects (empty without one; never mutated)


_FACTS: dict[int, CardFacts] = {}


def _card_facts(pool: CardPool) -> CardFacts:
    facts = _FACTS.get(id(pool))
    if facts is None or facts.pool is not pool:
        cards = pool.cards
        facts = _FACTS[id(pool)] = CardFacts(
            pool, [c.cost for c in cards], [bool(c.passive) for c in cards],
            [c.type == CardType.ITEM and bool(c.passive or c.cost == 0) for c in cards],
            [c.attacks[0].value if c.type == TECHNIQUE else NO_TECHNIQUE for c in cards],
            [max((a.value for a in c.attacks), default=0) for c in cards],
            [max((a.spirit for a in c.attacks), default=0) for c in cards],
            [dict(c.effects) for c in cards], [dict(c.ability.effects) if c.ability else {} for c in cards])
    return facts


class HeuristicAgent(ViewDecider):
    needs_game: ClassVar[bool] = True
    reads_observation = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if len(legal) == 1:
            return int(legal[0])
        if game is None:  # the heuristic needs the game; without it, play uniformly
            return int(self.rng.choice(legal))
        return self._decide(self.view(game), legal)

    def _decide(self, view: Game, legal: list[int]) -> int:
        st: State = view.state  # the table as plain data (yyh_tcg.state.State): every read below is a field
        handler = getattr(self, _HANDLER_NAMES[st.phase], None)
        choice = handler(st, legal) if handler is not None else None
        return int(choice if choice is not None and choice in legal else legal[-1])

    # ------------------------------------------------------------------ setup
    def _setup(self, st, legal: list[int]) -> int:
        cards = st.tables.cards
        me = st.players[st.decider]
        teams: dict[str, int] = {}
        for cid in me.deck:
            team = cards[cid].team
            if cards[cid].is_character and team:
                teams[team] = teams.get(team, 0) + 1
        def score(action: int) -> tuple:
            card = cards[st.tables.table.decoded[action][1]]
            strength = card.defense + max(a.value - a.spirit for a in card.attacks)
            return (teams.get(card.team, 0) if card.team else 0, strength)
        return max(legal, key=score)

    # ------------------------------------------------------------------ draw and main
    def _draw(self, st, legal: list[int]) -> int:
        me = st.players[st.decider]
        t, cards = st.tables.table, st.tables.cards
        abilities = [a for a in legal if t.decoded[a][0] == B_ABILITY
                     and self._worth_drawing(me, dict(cards[t.decoded[a][1]].ability.effects))]
        return abilities[0] if abilities else t.DONE

    def _main(self, st, legal: list[int]) -> int:
        t = st.tables.table
        facts = _card_facts(st.tables.pool)
        me = st.players[st.decider]
        # each legal action decoded once, in legal (ascending) order: the first 5th fighter
        # wins at once; attaches to the fighter (target 0) and to the next in line (target 1),
        # Events and abilities are kept as (action, card id)
        to_fighter, to_next, events, abilities = [], [], [], []
        for a in legal:
            block, cid, extra = t.decoded[a]
            if block == B_ATTACH:
                if extra == 0:
                    to_fighter.append((a, cid))
                elif extra == 1:
                    to_next.append((a, cid))
            elif block == B_EVENT:
                events.append((a, cid))
            elif block == B_ABILITY:
                abilities.append((a, cid))
            elif block == B_FIFTH:
                return a
        effects_of = facts.effects
        if me.fighter is None:  # waiting for the 5th character: nothing to attach to yet
            return next((a for a, cid in events if "draw" in effects_of[cid] or "search" in effects_of[cid]), t.DONE)
        fighter = me.fighter.char
        best_own = facts.best_attack[fighter]
        # keep enough Spirit for the fighter's strongest printed attack (none in a first turn
        # without an Attack step: the "balanced" variant's)
        reserve = facts.attack_spirit[fighter] if st.turn_number > 1 or st.first_turn_attacks else 0
        cost = facts.cost
        spirit = me.spirit
        to_fighter = [(a, cid) for a, cid in to_fighter if spirit - cost[cid] >= reserve]
        # Items that boost the fighter, or are free; an ability-only Item is not worth Spirit
        items = [(a, cid) for a, cid in to_fighter if facts.boost_item[cid]]
        if items:
            return max(items, key=lambda item: cost[item[1]])[0]
        have = {att.card for att in me.fighter.attached}
        tech_value = facts.tech_value
        techs = [(a, cid) for a, cid in to_fighter if cid not in have and tech_value[cid] > best_own]
        if techs:
            return max(techs, key=lambda tech: tech_value[tech[1]])[0]
        for a, cid in events:
            effects = effects_of[cid]
            if "heal" in effects and me.fighter.damage == 0:
                continue
            if "flip_sideline" in effects and not any(not x.face_up for s in me.sideline for x in s.attached):
                continue
            if "rotate" in effects or not self._worth_drawing(me, effects) or self._wasted(st, me, effects):
                continue
            return a
        ability_effects = facts.ability_effects
        for a, cid in abilities:
            effects = ability_effects[cid]
            if "rotate" in effects or ("heal" in effects and me.fighter.damage == 0) \
                    or not self._worth_drawing(me, effects):
                continue
            return a
        # a boosting Item face-down under the next in line, one each, when the hand is full
        if me.sideline and not me.sideline[0].attached and len(me.hand) > 4:
            passive = facts.passive
            spare = [(a, cid) for a, cid in to_next if passive[cid]]
            if spare:
                return min(spare, key=lambda item: cost[item[1]])[0]
        return t.DONE

    @staticmethod
    def _wasted(st, me, effects: dict) -> bool:
        """An Event whose every effect would do nothing now."""
        opp = st.players[1 - st.decider]
        useless = {"drain_spirit": opp.spirit == 0, "strip": not opp.hand, "gain_spirit": me.spirit >= 9,
                   "heal": me.fighter.damage == 0}
        return all(useless.get(verb, False) for verb in effects)

    @staticmethod
    def _worth_drawing(me, effects: dict) -> bool:
        """Drawing and searching thin the deck, and an empty deck loses: only when short of cards."""
        if "draw" not in effects and "search" not in effects:
            return True
        # ... or while still looking for the 5th fighter (without one, the Arena waits at 2-2);
        # a Team Bonus that draws every turn (end_draw) needs a deeper deck to spare cards
        reserve = 15 + 8 * int(me.bonus.get("end_draw", 0))
        return (len(me.hand) <= 2 or not me.fifth_placed) and len(me.deck) > reserve

    # ------------------------------------------------------------------ attack step
    def _attack(self, st, legal: list[int]) -> int:
        options = affordable_attacks(st)  # asked once: trying an attack below changes none of them

        def score(action: int) -> tuple:
            for action_id, _, attack in options:
                if action_id == action:
                    st.attack = attack
                    damage = damage_now(st)
                    st.attack = None
                    return (damage, attack.value - 2 * attack.spirit - 3 * attack.discard)
            return (-1, 0)
        return max(legal, key=score)

    def _gain(self, st, change, before: int) -> int:
        """How much the damage of the pending attack rises from ``before`` (``rules.damage_now``)
        if ``change`` is applied: tried on the world itself and undone (it changes only what
        ``_apply_mods`` touches: a copy of the whole game would cost more than the rest of the
        decision)."""
        saved = st.power, st.weaken, st.extra_damage, [p.guard for p in st.players]
        try:
            change(st)
            return damage_now(st) - before
        finally:
            st.power, st.weaken, st.extra_damage = saved[:3]
            for player, guard in zip(st.players, saved[3]):
                player.guard = guard

    def _use(self, st, legal: list[int]) -> int:
        t, cards = st.tables.table, st.tables.cards
        before = damage_now(st)  # _gain undoes what it tries: the same for every action
        if before >= 2 + st.extra_damage:
            extra = [a for a in legal if t.decoded[a][0] == B_EVENT
                     and "extra_damage" in dict(cards[t.decoded[a][1]].effects)]
            return extra[0] if extra else t.DONE
        for a in legal:
            block, cid, _ = t.decoded[a]
            effects = cards[cid].effects if block == B_EVENT else cards[cid].ability.effects if block == B_ABILITY \
                else (("power", 3),) if block == B_RAGE else ()
            if self._gain(st, lambda w, fx=effects: _apply_mods(w, fx), before) > 0:
                return a
        return t.DONE

    def _abilities(self, st, legal: list[int]) -> int:
        """Part 4: the attacker raises the damage; the defender lowers it (guard, Last Stand)."""
        t, cards = st.tables.table, st.tables.cards
        seat = st.decider
        defending = seat != st.turn_player
        before = damage_now(st)  # _gain undoes what it tries: the same for every action
        for a in legal:
            block, cid, _ = t.decoded[a]
            if block not in (B_ABILITY, B_EVENT):
                continue
            effects = cards[cid].ability.effects if block == B_ABILITY else cards[cid].effects
            gain = self._gain(st, lambda w, fx=effects: _apply_mods(w, fx, seat), before)
            if (gain < 0) if defending else (gain > 0):
                return a
        return t.DONE

    def _search(self, st, legal: list[int]) -> int:
        """The card that helps most: the strongest Technique, the biggest boost, a useful Event."""
        cards = st.tables.cards

        def value(action: int) -> tuple:
            card = cards[st.tables.table.decoded[action][1]]
            if card.type == TECHNIQUE:
                attack = card.attacks[0]
                return (attack.value - attack.spirit, -card.cost)
            return (sum(v for _, v in card.passive) * 2 + (1 if card.ability else 0), -card.cost)
        return max(legal, key=value)

    def _pay(self, st, legal: list[int]) -> int:
        """Pay first for the card worth most (the same order as the search)."""
        return self._search(st, legal)

    def _min_damage(self, st, legal: list[int]) -> int:
        return st.tables.table.MIN_DAMAGE

    def _discard(self, st, legal: list[int]) -> int:
        cards = st.tables.cards
        me = st.players[st.decider]

        def keep_value(action: int) -> tuple:
            card = cards[st.tables.table.decoded[action][1]]
            if card.is_character:
                return (0 if me.fifth_placed else 2, 0)
            if card.type == TECHNIQUE:
                return (3, card.attacks[0].value)
            return (1 if card.type == B_EVENT else 2, -card.cost)
        return min(legal, key=keep_value)


# phase -> the name of the method deciding it (``_`` + the phase's value)
_HANDLER_NAMES = {phase: f"_{phase}" for phase in Phase}


def _apply_mods(world, effects, seat: int | None = None) -> None:
    """The effects on this turn's damage, used by ``seat`` (default: the attacker): they change
    only ``power``, ``weaken``, ``extra_damage`` and the players' ``guard`` (``_gain`` undoes these)."""
    attacking = seat is None or seat == world.turn_player
    for verb, value in effects:
        if verb == "power" and attacking:
            world.power += value
        elif verb == "weaken" and attacking:
            world.weaken += value
        elif verb == "extra_damage" and attacking:
            world.extra_damage += value
        elif verb == "guard":
            world.players[world.turn_player if seat is None else seat].guard += value


def evaluate(game) -> np.ndarray:
    """Per-seat value in [-1, 1] of a full-information world (ISMCTS leaf=heuristic).

    Match wins dominate; then damage on the two fighters (4 defeats); then deck size, since
    an empty deck loses.
    """
    if game.is_terminal:
        return np.asarray(game.returns(), dtype=np.float64)
    a, b = game.state.players
    damage_a = a.fighter.damage if a.fighter is not None else 0
    damage_b = b.fighter.damage if b.fighter is not None else 0
    value = (0.6 * (a.wins - b.wins) / 3 + 0.3 * (damage_b - damage_a) / 4
             + 0.1 * (len(a.deck) - len(b.deck)) / 40)
    value = float(np.clip(value, -1.0, 1.0))
    return np.array([value, -value])
