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

It reads the world only through ``self.view(game)`` (a determinized copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from agents.base import ViewDecider
from yokai_envs.yyh_tcg.state import Phase

if TYPE_CHECKING:
    from yokai_envs.core.game import Game


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

    def _decide(self, view, legal: list[int]) -> int:
        handler = getattr(self, _HANDLER_NAMES[view.phase], None)
        choice = handler(view, legal) if handler is not None else None
        return int(choice if choice is not None and choice in legal else legal[-1])

    # ------------------------------------------------------------------ setup
    def _setup(self, g, legal: list[int]) -> int:
        cards = g.pool.cards
        me = g.players[g.decider]
        teams: dict[str, int] = {}
        for cid in me.deck:
            team = cards[cid].team
            if cards[cid].is_character and team:
                teams[team] = teams.get(team, 0) + 1
        def score(action: int) -> tuple:
            card = cards[g.table.decoded[action][1]]
            strength = card.defense + max(a.value - a.spirit for a in card.attacks)
            return (teams.get(card.team, 0) if card.team else 0, strength)
        return max(legal, key=score)

    # ------------------------------------------------------------------ draw and main
    def _draw(self, g, legal: list[int]) -> int:
        me = g.players[g.decider]
        abilities = [a for a in legal if g.table.decoded[a][0] == "ability"
                     and self._worth_drawing(me, dict(g.pool.cards[g.table.decoded[a][1]].ability.effects))]
        return abilities[0] if abilities else g.table.DONE

    def _main(self, g, legal: list[int]) -> int:
        t, cards = g.table, g.pool.cards
        me = g.players[g.decider]
        by_block: dict[str, list[int]] = {}
        for a in legal:
            by_block.setdefault(t.decoded[a][0], []).append(a)
        if "fifth" in by_block:
            return by_block["fifth"][0]
        if me.fighter is None:  # waiting for the 5th character: nothing to attach to yet
            events = [a for a in by_block.get("event", []) if "draw" in dict(cards[t.decoded[a][1]].effects)
                      or "search" in dict(cards[t.decoded[a][1]].effects)]
            return events[0] if events else t.DONE
        best_own = max((a.value for a in cards[me.fighter.char].attacks), default=0)
        # keep enough Spirit for the fighter's strongest printed attack (none in the game's
        # first turn, which has no Attack step)
        reserve = max((a.spirit for a in cards[me.fighter.char].attacks), default=0) if g.turn_number > 1 else 0
        to_fighter = [a for a in by_block.get("attach", []) if t.decoded[a][2] == 0
                      and me.spirit - cards[t.decoded[a][1]].cost >= reserve]
        # Items that boost the fighter, or are free; an ability-only Item is not worth Spirit
        items = [a for a in to_fighter if cards[t.decoded[a][1]].type == "item"
                 and (cards[t.decoded[a][1]].passive or cards[t.decoded[a][1]].cost == 0)]
        if items:
            return max(items, key=lambda a: cards[t.decoded[a][1]].cost)
        have = {att.card for att in me.fighter.attached}
        techs = [a for a in to_fighter if t.decoded[a][1] not in have and cards[t.decoded[a][1]].type == "technique"
                 and cards[t.decoded[a][1]].attacks[0].value > best_own]
        if techs:
            return max(techs, key=lambda a: cards[t.decoded[a][1]].attacks[0].value)
        for a in by_block.get("event", []):
            effects = dict(cards[t.decoded[a][1]].effects)
            if "heal" in effects and me.fighter.damage == 0:
                continue
            if "flip_sideline" in effects and not any(not x.face_up for s in me.sideline for x in s.attached):
                continue
            if "rotate" in effects or not self._worth_drawing(me, effects) or self._wasted(g, me, effects):
                continue
            return a
        for a in by_block.get("ability", []):
            effects = dict(cards[t.decoded[a][1]].ability.effects)
            if "rotate" in effects or ("heal" in effects and me.fighter.damage == 0) \
                    or not self._worth_drawing(me, effects):
                continue
            return a
        # a boosting Item face-down under the next in line, one each, when the hand is full
        if me.sideline and not me.sideline[0].attached and len(me.hand) > 4:
            spare = [a for a in by_block.get("attach", []) if t.decoded[a][2] == 1
                     and cards[t.decoded[a][1]].passive]
            if spare:
                return min(spare, key=lambda a: cards[t.decoded[a][1]].cost)
        return t.DONE

    @staticmethod
    def _wasted(g, me, effects: dict) -> bool:
        """An Event whose every effect would do nothing now."""
        opp = g.players[1 - g.decider]
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
    def _attack(self, g, legal: list[int]) -> int:
        def score(action: int) -> tuple:
            for action_id, _, attack in g.affordable_attacks():
                if action_id == action:
                    g.attack = attack
                    damage = g.damage_now()
                    g.attack = None
                    return (damage, attack.value - 2 * attack.spirit - 3 * attack.discard)
            return (-1, 0)
        return max(legal, key=score)

    def _gain(self, g, change) -> int:
        """How much the damage of the pending attack rises if ``change`` is applied: tried on
        the world itself and undone (it changes only what ``_apply_mods`` touches: a copy of the
        whole game would cost more than the rest of the decision)."""
        before = g.damage_now()
        saved = g.power, g.weaken, g.extra_damage, [p.guard for p in g.players]
        try:
            change(g)
            return g.damage_now() - before
        finally:
            g.power, g.weaken, g.extra_damage = saved[:3]
            for player, guard in zip(g.players, saved[3]):
                player.guard = guard

    def _use(self, g, legal: list[int]) -> int:
        t, cards = g.table, g.pool.cards
        if g.damage_now() >= 2 + g.extra_damage:
            extra = [a for a in legal if t.decoded[a][0] == "event"
                     and "extra_damage" in dict(cards[t.decoded[a][1]].effects)]
            return extra[0] if extra else t.DONE
        for a in legal:
            block, cid, _ = t.decoded[a]
            effects = cards[cid].effects if block == "event" else cards[cid].ability.effects if block == "ability" \
                else (("power", 3),) if block == "rage" else ()
            if self._gain(g, lambda w, fx=effects: _apply_mods(w, fx)) > 0:
                return a
        return t.DONE

    def _abilities(self, g, legal: list[int]) -> int:
        """Part 4: the attacker raises the damage; the defender lowers it (guard, Last Stand)."""
        t, cards = g.table, g.pool.cards
        seat = g.decider
        defending = seat != g.turn_player
        for a in legal:
            block, cid, _ = t.decoded[a]
            if block not in ("ability", "event"):
                continue
            effects = cards[cid].ability.effects if block == "ability" else cards[cid].effects
            gain = self._gain(g, lambda w, fx=effects: _apply_mods(w, fx, seat))
            if (gain < 0) if defending else (gain > 0):
                return a
        return t.DONE

    def _search(self, g, legal: list[int]) -> int:
        """The card that helps most: the strongest Technique, the biggest boost, a useful Event."""
        cards = g.pool.cards

        def value(action: int) -> tuple:
            card = cards[g.table.decoded[action][1]]
            if card.type == "technique":
                attack = card.attacks[0]
                return (attack.value - attack.spirit, -card.cost)
            return (sum(v for _, v in card.passive) * 2 + (1 if card.ability else 0), -card.cost)
        return max(legal, key=value)

    def _pay(self, g, legal: list[int]) -> int:
        """Pay first for the card worth most (the same order as the search)."""
        return self._search(g, legal)

    def _min_damage(self, g, legal: list[int]) -> int:
        return g.table.MIN_DAMAGE

    def _discard(self, g, legal: list[int]) -> int:
        cards = g.pool.cards
        me = g.players[g.decider]

        def keep_value(action: int) -> tuple:
            card = cards[g.table.decoded[action][1]]
            if card.is_character:
                return (0 if me.fifth_placed else 2, 0)
            if card.type == "technique":
                return (3, card.attacks[0].value)
            return (1 if card.type == "event" else 2, -card.cost)
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
    a, b = game.players
    damage_a = a.fighter.damage if a.fighter is not None else 0
    damage_b = b.fighter.damage if b.fighter is not None else 0
    value = (0.6 * (a.wins - b.wins) / 3 + 0.3 * (damage_b - damage_a) / 4
             + 0.1 * (len(a.deck) - len(b.deck)) / 40)
    value = float(np.clip(value, -1.0, 1.0))
    return np.array([value, -value])
