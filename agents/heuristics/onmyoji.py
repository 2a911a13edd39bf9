"""A casual player's heuristic for Onmyoji: three nights (``onmyoji_v5``, every mode).

What a sensible human does: Guard on a turn a heavy Yokai action is coming at you (or when the
other Onmyoji could finish you in the Duel Final), otherwise play the card that deals the most
damage and aim it where it kills or hurts most; use every free Equip effect and damaging
Shikigami; heal when hurt; evolve at once; take Shikigami until evolution is in reach, then Equips.
It reads the table only through ``self.view(game).state`` (a determinized copy's table).

Options (agent spec ``heuristic:selfish=true``, ``heuristic:hold_back=true``), probes for
``BALANCE.md``; without them the heuristic plays as it always did:

- ``selfish`` (Co-op): never aims a heal or a shield at its partner. It heals and shields only
  itself and judges whether they are worth using by its own HP and the damage coming at it
  alone. In Solo and the Duel your only ally is yourself (R9), so it changes nothing there.
- ``hold_back`` (Duel): does not try to finish the last Yokai of the nights. In Night 3, battle
  2, once a single Yokai is left and the other Onmyoji is alive, it plays Guard while it holds
  Guard (else the card that would deal that Yokai less damage) and uses no ability that damages
  it, leaving the finishing blow, and the first pick, to the other player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from agents.base import ViewDecider
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji.cards import Ability, AbilityTarget, Verb
from yokai_envs.onmyoji.state import ATTACK, GUARD, SPELL, Decision, Mode, State, TargetFor

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

#: Guard when the coming Yokai actions would deal at least this much to you (after DEF).
HEAVY_HIT = 3
#: Verbs of an ability that damage its enemy target (``hold_back`` uses none on the last Yokai).
DAMAGE_VERBS = frozenset({Verb.DAMAGE, Verb.PIERCE, Verb.DAMAGE_ALL})


class HeuristicAgent(ViewDecider):
    needs_game: ClassVar[bool] = True
    reads_observation = False
    #: Spec options (``heuristic:NAME=VALUE``) and their types; see the module docstring.
    OPTIONS: ClassVar[dict[str, type]] = {"selfish": bool, "hold_back": bool}

    def __init__(self, seed: int | None = None, selfish: bool = False, hold_back: bool = False) -> None:
        super().__init__(seed)
        self.selfish = selfish
        self.hold_back = hold_back

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if game is None or len(legal) == 1:
            return legal[0]
        return self._decide(self.view(game).state, legal)

    def _decide(self, st: State, legal: list[int]) -> int:
        seat = st.decider
        d = st.decision
        if d == Decision.PLAY:
            return self._play(st, seat, legal)
        if d in (Decision.START_MENU, Decision.ACTION_MENU):
            return self._menu(st, seat, legal)
        if d == Decision.TARGET:
            return self._target(st, seat, legal)
        if d == Decision.EVOLVE:  # give up the highest-Lv Shikigami first: fewest cards under the Character
            return max(legal, key=lambda a: st.card(a - act.EVOLVE_WITH).lv)
        if d == Decision.PICK:
            return max(legal, key=lambda a: _yokai_value(st, a - act.PICK))
        if d == Decision.TAKE:
            return self._take(st, seat, legal)
        return legal[0]

    # ------------------------------------------------------------------ card choice
    def _play(self, st: State, seat: int, legal: list[int]) -> int:
        cards = [a - act.PLAY for a in legal]
        p = st.players[seat]
        if self._holding_back(st, seat):
            if GUARD in cards:
                return act.PLAY + GUARD
            return act.PLAY + min(cards, key=lambda c: best_card_damage(st, seat, c))
        if GUARD in cards and len(cards) > 1:
            danger = incoming_damage(st, seat)
            if danger >= min(HEAVY_HIT, p.hp) or (danger > 0 and danger >= p.hp - 2):
                return act.PLAY + GUARD
        attackish = [c for c in cards if c != GUARD]
        if not attackish:
            return act.PLAY + GUARD
        return act.PLAY + max(attackish, key=lambda c: (best_card_damage(st, seat, c), c == SPELL))

    # ------------------------------------------------------------------ menus
    def _menu(self, st: State, seat: int, legal: list[int]) -> int:
        p = st.players[seat]
        if act.EVOLVE in legal:
            return act.EVOLVE
        holding_back = self._holding_back(st, seat)
        for a in legal:
            if a == act.DONE:
                continue
            if a < act.USE_EQUIP:
                y = a - act.USE_SHIKIGAMI
                sk = st.card(y).shikigami
                assert sk is not None, "a Shikigami use is offered only for a Yokai that has one"
                ability, once = fx.active_variant(st, sk.ability), bool(sk.per_game)
            else:
                y = a - act.USE_EQUIP
                edge = st.card(y).edges[p.played].ability
                assert edge is not None, "an Equip use is offered only for an edge with an ability"
                ability, once = fx.active_variant(st, edge), False
            if holding_back and any(v in DAMAGE_VERBS for v, _ in ability.effects):
                continue
            if _worth_using(st, seat, ability, once_per_game=once, selfish=self.selfish):
                return a
        return act.DONE

    def _target(self, st: State, seat: int, legal: list[int]) -> int:
        targets = [a - act.TARGET for a in legal]
        assert st.target_ctx is not None
        kind, what = st.target_ctx.kind, st.target_ctx.what
        if kind == TargetFor.ABILITY and isinstance(what, Ability) and what.target == AbilityTarget.ALLY:
            if self.selfish:  # its heals and shields go to itself only
                return act.TARGET + fx.PLAYER_0 + seat
            return act.TARGET + min(targets, key=lambda t: st.players[t - fx.PLAYER_0].hp)
        amount = 0
        if kind == TargetFor.CARD:
            p = st.players[seat]
            amount = fx.player_spl(st, p) if what == SPELL else fx.player_atk(st, p)
        pierce = kind == TargetFor.CARD and what == SPELL
        return act.TARGET + max(targets, key=lambda t: _target_score(st, t, amount, pierce))

    def _holding_back(self, st: State, seat: int) -> bool:
        """Whether the ``hold_back`` probe is leaving the last Yokai of the nights alone now."""
        return (self.hold_back and st.mode == Mode.DUEL and not st.final_duel and st.night == 3 and st.battle == 2
                and fx.alive_enemy_count(st) == 1 and not st.players[1 - seat].fallen)

    # ------------------------------------------------------------------ after a battle
    def _take(self, st: State, seat: int, legal: list[int]) -> int:
        p = st.players[seat]
        y = st.taking
        card = st.card(y)
        need = st.pool.characters[p.character].evolve_at
        have = sum(st.card(s).lv for s in p.shikigami)
        if not p.evolved and have < need:
            return act.TAKE  # Shikigami: work towards evolution
        weights = (1.0, 1.4, 1.2)  # ATK, DEF, SPL

        def edge_value(edge: int) -> float:
            e = card.edges[edge]
            return sum(w * s for w, s in zip(weights, e.stats)) + (0.8 if e.ability is not None else 0.0)

        return act.TAKE + 1 + max(range(3), key=edge_value)


# ---------------------------------------------------------------------------------- estimates
def incoming_damage(st: State, seat: int) -> int:
    """Damage the coming enemy actions of this turn would deal to ``seat`` if it does not Guard."""
    p = st.players[seat]
    if st.final_duel:
        other = st.players[1 - seat]
        hand = [c for c in range(3) if not other.used[c]]
        # Start-of-turn damage held for the reveal (R28, the book's game): a Guard stops it too.
        held = sum(n for verb, n in p.incoming if verb in DAMAGE_VERBS)
        hit = 0
        if ATTACK in hand:
            hit = max(hit, fx.player_atk(st, other) - fx.player_def(st, p))
        if SPELL in hand:
            hit = max(hit, fx.player_spl(st, other))
        return held + hit
    total = 0
    marked = 0
    for e in st.enemies:
        if e is None or not e.alive or e.stopped:
            continue
        action = st.card(e.yokai).actions[e.next_action]
        if action.rest or seat not in fx.yokai_action_seats(st, action.target):
            continue
        amount = fx.yokai_damage(st, e, action)
        if action.marked:
            marked += amount
        else:
            total += amount
    return marked + max(0, total - fx.player_def(st, p))


def best_card_damage(st: State, seat: int, card: int) -> int:
    p = st.players[seat]
    targets = fx.enemy_targets(st, seat)
    if not targets:
        return 0
    if card == SPELL:
        return fx.player_spl(st, p)
    atk = fx.player_atk(st, p)
    best = 0
    for t in targets:
        if t >= fx.PLAYER_0:
            best = max(best, atk - fx.player_def(st, st.players[t - fx.PLAYER_0]))
        else:
            enemy = st.enemies[t]
            assert enemy is not None, "only a present enemy is a target"
            best = max(best, atk - fx.enemy_def(st, enemy))
    return best


def _target_score(st: State, t: int, amount: int, pierce: bool) -> float:
    if t >= fx.PLAYER_0:
        return 0.0
    e = st.enemies[t]
    assert e is not None, "only a present enemy is a target"
    dealt = amount if pierce else amount - max(0, fx.enemy_def(st, e) - e.def_spent)
    kills = dealt >= e.hp
    action = st.card(e.yokai).actions[e.next_action]
    threat = 0 if action.rest or e.stopped else action.damage
    # Kill what can be killed (the most threatening first), else wear down the weakest.
    return (100 + threat if kills else 0) + threat * 2 - e.hp * 0.5


def _worth_using(st: State, seat: int, ability, once_per_game: bool, selfish: bool = False) -> bool:
    p = st.players[seat]
    verbs = {v for v, _ in ability.effects}
    if Verb.HEAL in verbs:
        heal = max(n for v, n in ability.effects if v == Verb.HEAL)
        allies = [seat] if selfish else [t - fx.PLAYER_0 for t in fx.ally_targets(st, seat)]
        lowest = min((st.players[s].hp for s in allies), default=p.hp)
        if once_per_game:
            return lowest <= 8
        return 20 - lowest >= heal
    if selfish and Verb.SHIELD in verbs and Verb.STOP not in verbs:
        return incoming_damage(st, seat) > 0  # a shield for itself alone
    if verbs & {Verb.SHIELD, Verb.STOP}:
        return incoming_damage(st, seat) > 0 or st.mode == Mode.COOP
    if verbs == {Verb.ATK_UP}:
        return p.played == ATTACK
    if verbs == {Verb.SPL_UP}:
        return p.played == SPELL
    if Verb.WEAKEN in verbs and not verbs & {Verb.DAMAGE, Verb.PIERCE}:
        return p.played == ATTACK
    if Verb.REFRESH in verbs:
        return sum(p.hand) == 0 and p.hp <= 10
    return True


def _yokai_value(st: State, y: int) -> float:
    card = st.card(y)
    return card.lv * 2 + max(sum(e.stats) + (0.8 if e.ability is not None else 0) for e in card.edges)


def evaluate(game: Game) -> np.ndarray:
    """Per-seat value in [-1, 1] of a position (for search leaves): HP, strength and progress."""
    if game.is_over:
        return np.asarray(game.returns(), dtype=np.float64)
    st: State = game.state

    def strength(p) -> float:
        if p.fallen:
            return 0.0
        return p.hp / 20 + 0.05 * (fx.player_atk(st, p) + fx.player_spl(st, p) + 2 * fx.player_def(st, p))

    if st.mode == Mode.DUEL:
        v = float(np.tanh(2.0 * (strength(st.players[0]) - strength(st.players[1]))))
        return np.array([v, -v])
    done: float = 6 if st.boss_battle else (st.night - 1) * 2 + st.battle - 1
    if st.boss_battle and st.enemies[0] is not None:
        done += 1 - st.enemies[0].hp / st.enemies[0].full_hp
    weakest = min(strength(p) for p in st.players)
    v = float(np.clip(2 * (0.5 * done / 7 + 0.5 * min(1.0, weakest)) - 1, -1, 1))
    return np.full(st.num_players, v)
