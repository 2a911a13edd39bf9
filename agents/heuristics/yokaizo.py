"""YOKAIZO heuristic: what a sensible casual player does.

It looks at the table only through ``self.view(game)`` (a determinized copy: its own cards are
real, the opponent's hidden cards are a guess), and plays like this:

- Setup and replacements: field sturdy, fast Yokai; near 13 Grave Souls, a Yokai whose Souls
  would not lose the game when Banished.
- Void phase: play up to 3 cards, Void-effect cards and cards of the elements the Field Yokai's
  attacks need first, keeping one card in hand.
- Action: a payable Special Attack; else a Basic Attack with every Void card it can spend (3) when
  that is at least 2 DMG or finishes a Yokai; else forgo. Pays with the Ally, then matching cards,
  then the least useful cards.
- Targets the enemy Yokai closest to Banish. Takes every "up to" option that hurts the enemy
  (Freeze, Slow, Blight, Destroy, Exile, Burn their Void) or helps itself (Echo, Haunt, Shine,
  Uproot, Shields), never Burns its own deck, and Shatters only enemy Yokai.
- Defending: place face-down Souls (Soul-effect cards from hand first, else topdeck) while slots
  remain; flip Souls with Soul effects first (unless BREAK DMG).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from agents.base import ViewDecider
from yokai_envs.yokaizo import attacks, damage, effects, rules
from yokai_envs.yokaizo.actions import (
    A_ALLY,
    A_BASIC,
    A_CARD,
    A_MY_VOID,
    A_OPP_FIELD,
    A_OPP_VOID,
    A_PASS,
    A_RETURN,
    A_SOUL,
    A_SPECIAL,
    A_TOPDECK,
    A_YES,
)
from yokai_envs.yokaizo.state import NO, WIN_SOULS

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

HELPFUL_PICKS = {"freeze", "slow", "blight", "destroy_void", "destroy_shield", "exile", "burn_enemy_void",
                 "echo", "haunt", "shine", "uproot", "unburn"}


class HeuristicAgent(ViewDecider):
    needs_game = True
    reads_observation = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if len(legal) == 1 or game is None:
            return int(legal[0])
        return self._decide(self.view(game), legal)

    def _decide(self, view, legal: list[int]) -> int:
        w = view.state  # the table as plain data (yokaizo.state.State): every read below is a field or query
        task = w.stack[-1]
        handler = _HANDLERS.get(type(task))
        choice = handler(self, w, w.decider, task, legal) if handler else None
        return int(choice if choice in legal else legal[0])

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _card_of_action(w, a: int):
        return w.cards[a - A_CARD]

    @staticmethod
    def _danger(w, p: int, s: int) -> float:
        """How close the Yokai in (p, s) is to Banish (higher = closer)."""
        y = w.field[p][s]
        if y == NO:
            return -1.0
        return (w.face_up_souls(p, s) + 1) / w.c_souls[y] - 0.3 * len(w.shields[p][s])

    def _field_pick(self, w, me, task, legal):
        cards = [a for a in legal if a >= A_CARD]
        if not cards:
            return A_TOPDECK if A_TOPDECK in legal else legal[0]
        grave = w.grave_souls(me)

        def score(a):
            c = self._card_of_action(w, a)
            safe = grave + c.souls < WIN_SOULS
            return (safe, c.souls + 0.5 * c.speed)
        return max(cards, key=score)

    def _void_play(self, w, me, task, legal):
        cards = [a for a in legal if a >= A_CARD]
        if not cards or len(w.hand[me]) <= 1:
            return A_PASS
        needed = set()
        for s in (0, 1):
            y = w.field[me][s]
            if y != NO:
                needed.update(w.cards[w.ctype[y]].cost_elements)

        def score(a):
            c = self._card_of_action(w, a)
            return (2 if "on_entry" in c.void else 0) + (1 if c.element in needed else 0) - 0.1 * c.souls
        return max(cards, key=score)

    def _action(self, w, me, task, legal):
        if A_SPECIAL in legal:
            return A_SPECIAL
        if A_BASIC in legal:
            enemy = 1 - me
            usable = min(3, len(w.void[me])) + len(w.burned[me])
            finishing = any(w.field[enemy][s] != NO and w.c_souls[w.field[enemy][s]] - w.face_up_souls(enemy, s)
                            <= usable for s in (0, 1))
            if usable >= 2 or finishing:
                return A_BASIC
        if A_RETURN in legal:
            s = task.slot
            y = w.field[me][s]
            if w.c_souls[y] - w.face_up_souls(me, s) <= 1 and w.face_up_souls(me, s) >= 2:
                return A_RETURN
        return A_PASS

    def _pay(self, w, me, task, legal):
        if A_ALLY in legal:
            return A_ALLY
        want = task.elems[0] if task.elems and not task.pair else NO
        voids = [a for a in legal if A_MY_VOID <= a < A_OPP_VOID]

        def score(a):
            c = w.void[me][a - A_MY_VOID]
            if w.facedown[c]:
                return 3.0  # Tokens are the cheapest payment
            matching = w.c_elem[c] == want
            return (5.0 if matching else 0.0) + (1.0 if w.frozen[c] else 0.0) - 0.1 * w.c_souls[c]
        return max(voids, key=score) if voids else legal[0]

    def _basic(self, w, me, task, legal):
        if A_YES in legal:
            return A_YES
        voids = [a for a in legal if A_MY_VOID <= a < A_OPP_VOID]
        if voids:
            return voids[0]
        return self._target(w, me, legal)

    def _target(self, w, me, legal):
        enemy = [a for a in legal if A_OPP_FIELD <= a < A_OPP_FIELD + 2]
        if enemy:
            return max(enemy, key=lambda a: self._danger(w, 1 - me, a - A_OPP_FIELD))
        return legal[-1]

    def _defend(self, w, me, task, legal):
        cards = [a for a in legal if a >= A_CARD]
        soul_cards = [a for a in cards if self._card_of_action(w, a).soul]
        if soul_cards:
            return soul_cards[0]
        if A_TOPDECK in legal:
            return A_TOPDECK
        if cards:
            return min(cards, key=lambda a: self._card_of_action(w, a).souls)
        flips = [a for a in legal if A_SOUL <= a < A_CARD]
        souls = w.souls[task.p][task.s]
        with_effect = [a for a in flips if w.cards[w.ctype[souls[a - A_SOUL]]].soul]
        if with_effect and not task.brk:
            return with_effect[0]
        return flips[0] if flips else legal[0]

    def _pick(self, w, me, task, legal):
        verb = task.verb
        options = [a for a in legal if a != A_PASS]
        if verb in ("burn_deck", "swap") or not options:
            return A_PASS if A_PASS in legal else legal[0]
        if verb == "burn_enemy_void" and w.grave_souls(me) >= WIN_SOULS - 4:
            return A_PASS  # each Burned card is a Soul in your own Grave (R14): not near the end
        if verb in ("damage", "destroy_shield"):
            return self._target(w, me, options)
        if verb in ("shatter", "slow", "blight"):
            enemy = [a for a in options if A_OPP_FIELD <= a < A_OPP_FIELD + 2]
            if enemy:
                return self._target(w, me, enemy)
            if verb == "blight":
                return options[0]
            return A_PASS if A_PASS in legal else options[0]  # Slow may spare your own; Shatter may not (R1)
        if verb == "freeze":
            enemy = [a for a in options if A_OPP_VOID <= a < A_OPP_VOID + 6]
            return enemy[0] if enemy else (A_PASS if A_PASS in legal else options[0])
        if verb in ("haunt", "shine", "unburn", "exile"):
            return max(options, key=lambda a: self._card_of_action(w, a).souls if a >= A_CARD else 0)
        if verb in HELPFUL_PICKS or not task.optional:
            return options[0]
        return A_PASS if A_PASS in legal else options[0]


# The pending task's type -> the method deciding it.
_HANDLERS = {
    rules.SetupPick: HeuristicAgent._field_pick, rules.Replace: HeuristicAgent._field_pick,
    attacks.ReturnSwap: HeuristicAgent._field_pick, rules.VoidPlay: HeuristicAgent._void_play,
    attacks.ActionChoice: HeuristicAgent._action, attacks.Pay: HeuristicAgent._pay,
    attacks.Basic: HeuristicAgent._basic, damage.Damage: HeuristicAgent._defend, effects.Pick: HeuristicAgent._pick,
}

__all__ = ["HeuristicAgent", "evaluate"]


def evaluate(game) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (full-information) world: who is closer to 13 Grave Souls.

    Grave Souls count fully; face-up Souls on Field Yokai count as a fraction of a Banish to come.
    """
    if game.is_terminal:
        return np.asarray(game.returns(), dtype=np.float64)
    st = game.state
    pressure = []
    for p in (0, 1):
        value = float(st.grave_souls(p))
        for s in (0, 1):
            y = st.field[p][s]
            if y != NO:
                value += 0.5 * st.face_up_souls(p, s)
        pressure.append(value)
    diff = float(np.clip((pressure[1] - pressure[0]) / WIN_SOULS, -1.0, 1.0))
    return np.array([diff, -diff])
