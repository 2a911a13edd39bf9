"""The rules: setup, turn structure, the Main step, the seven parts of the Attack step, damage,
match end and game end. Each pending decision is a phase; ``legal`` lists its actions and
``act`` applies one, then ``settle`` skips decisions whose only option is to pass.

Phases (who decides):
  setup        each seat in turn picks 4 characters (Arena first, then the Sideline line)
  draw         turn player: "Draw:" abilities, or done
  main         turn player: 5th character, attach, Events, "Main:" abilities, or done
  attack       part 1: choose the attack (mandatory when one is affordable)
  discard      choose a card to discard (attack discard cost, rage, minimum-damage discard)
  use          part 2: "when you use an attack" Events/abilities, Team Bonus rage, or done
  abilities    part 4: "Attack:" abilities, or done
  min_damage   part 6: discard 2 cards for 1 damage, or done
  over         the game has ended
"""

from __future__ import annotations

import numpy as np

from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg.actions import ATTACH_TARGETS, ActionTable
from yokai_envs.yyh_tcg.cards import Attack, CardPool
from yokai_envs.yyh_tcg.state import Attachment, PlayerState, Slot

SETUP_PICKS = 4
WINS_NEEDED = 3
DEFEAT_DAMAGE = 4
MAX_SPIRIT = 10
BASE_DAMAGE_CAP = 2
OPENING_HAND = 4
TURN_DRAW = 2
TURN_SPIRIT = 2
MIN_DAMAGE_DISCARD = 2
PASSABLE = ("draw", "main", "use", "abilities")
ABILITY_PHASE_TIMING = {"draw": "draw", "main": "main", "use": "use", "abilities": "attack"}


class Engine:
    """Mutable game state plus the rules that change it. ``rng`` is the game's seeded Generator."""

    pool: CardPool
    table: ActionTable
    rng: np.random.Generator
    #: passive verb -> value per card id (precomputed once per pool)
    passive: dict[str, list[int]]
    #: per card id: its ability's timing (None without one) and Spirit cost
    ability_timing: list[str | None]
    ability_cost: list[int]

    # ------------------------------------------------------------------ setup
    def new_game(self, decks: list[tuple[str, list[int]]]) -> None:
        self.players = [PlayerState(list(ids), name) for name, ids in decks]
        for p in self.players:
            self.rng.shuffle(p.deck)
        self.phase = "setup"
        self.decider = 0
        self.turn_player = 0
        self.first_player = 0
        self.turn_number = 0
        self.revealed = False
        self.winner: int | None = None  # seat, or -1 for a drawn game
        self._clear_turn()
        self.settle()

    def _clear_turn(self) -> None:
        self.attack: Attack | None = None
        self.attack_card = -1
        self.power = 0
        self.weaken = 0
        self.extra_damage = 0
        self.rage_used = 0
        self.pending_discard = 0
        self.after_discard = ""

    def _pick(self, seat: int, cid: int) -> None:
        me = self.players[seat]
        me.deck.remove(cid)
        if me.fighter is None:
            me.fighter = Slot(cid)
        else:
            me.sideline.append(Slot(cid))
        if len(me.sideline) == SETUP_PICKS - 1:
            if seat == 0:
                self.decider = 1
            else:
                self._reveal()

    def _reveal(self) -> None:
        """Both lines are turned face-up; decks shuffled; coin flip; both draw 4."""
        self.revealed = True
        for seat, p in enumerate(self.players):
            self.rng.shuffle(p.deck)
            self.refresh_bonus(seat)
        self.first_player = int(self.rng.integers(2))
        for seat in (self.first_player, 1 - self.first_player):
            self.draw(seat, OPENING_HAND)
        self.start_turn(self.first_player)

    # ------------------------------------------------------------------ primitives
    def draw(self, seat: int, n: int) -> None:
        """Draw ``n``; a player who must draw from an empty deck loses at once."""
        me = self.players[seat]
        for _ in range(n):
            if not me.deck:
                self.end_game(1 - seat)
                return
            me.hand.append(me.deck.pop())

    def mill(self, seat: int, n: int) -> None:
        me = self.players[seat]
        for _ in range(min(n, len(me.deck))):
            me.discard.append(me.deck.pop())

    def search(self, seat: int, card_type: str) -> None:
        me = self.players[seat]
        cards = self.pool.cards
        found = [i for i, cid in enumerate(me.deck) if cards[cid].type == card_type]
        if found:
            card = me.deck.pop(found[int(self.rng.integers(len(found)))])
            me.hand.append(card)
            me.revealed.append(card)  # shown to the opponent

    def flip_attachments(self, seat: int, slot: Slot) -> None:
        """Face-down cards under ``slot`` turn face-up, in attach order: pay each cost or discard it."""
        me = self.players[seat]
        kept = []
        for att in slot.attached:
            if not att.face_up:
                cost = self.pool.cards[att.card].cost
                if me.spirit < cost:
                    me.discard.append(att.card)
                    continue
                me.spirit -= cost
                att.face_up = True
            kept.append(att)
        slot.attached = kept

    def refresh_bonus(self, seat: int) -> None:
        """Team Bonus: active while 3 characters on your field share a Team Symbol."""
        me = self.players[seat]
        counts: dict[str, int] = {}
        for slot in me.slots():
            team = self.pool.cards[slot.char].team
            if team is not None:
                counts[team] = counts.get(team, 0) + 1
        me.bonus_team = next((t for t, n in counts.items() if n >= 3), None)
        me.bonus = dict(self.pool.team_bonus[me.bonus_team]) if me.bonus_team else {}

    def end_game(self, winner: int) -> None:
        if self.winner is None:
            self.winner = winner
            self.phase = "over"
            self.decider = -1

    # ------------------------------------------------------------------ turn structure
    def start_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.decider = seat
        self.turn_number += 1
        self._clear_turn()
        me = self.players[seat]
        me.guard = 0
        for slot in me.slots():
            slot.used = False
            for att in slot.attached:
                att.used = False
        if self.turn_number > 1:
            self.draw(seat, TURN_DRAW)
            if self.winner is not None:
                return
        me.spirit = min(MAX_SPIRIT, me.spirit + TURN_SPIRIT + fx.bonus(me, "extra_spirit"))
        self.phase = "draw"

    def end_turn(self) -> None:
        seat = self.turn_player
        fx.on_end_of_turn(self, seat)
        if self.winner is None:
            self.start_turn(1 - seat)

    def begin_attack(self) -> None:
        """Part 1 starts; with no affordable attack the Attack step (and turn) ends."""
        if self.affordable_attacks():
            self.phase = "attack"
        else:
            self.end_turn()

    def affordable_attacks(self) -> list[tuple[int, int, Attack]]:
        """(action, source card, attack) for each attack the fighter can pay for now."""
        me = self.players[self.turn_player]
        out: list[tuple[int, int, Attack]] = []
        if me.fighter is None:
            return out
        cards = self.pool.cards
        spirit, hand = me.spirit, len(me.hand)
        for i, attack in enumerate(cards[me.fighter.char].attacks):
            if attack.spirit <= spirit and attack.discard <= hand:
                out.append((self.table.ATTACK_OWN + i, me.fighter.char, attack))
        seen = set()
        for att in me.fighter.attached:
            card = cards[att.card]
            if att.face_up and card.type == "technique" and att.card not in seen:
                seen.add(att.card)
                attack = card.attacks[0]
                if attack.spirit <= spirit and attack.discard <= hand:
                    out.append((self.table.attack_tech(att.card), att.card, attack))
        return out

    # ------------------------------------------------------------------ values
    def attack_value(self) -> int:
        """Part 5: the final Attack of this turn's attack (0 floor)."""
        seat = self.turn_player
        value = (self.attack.value if self.attack else 0) + self.power + fx.attack_modifier(self, seat)
        return max(0, value)

    def defense_value(self, seat: int) -> int:
        """Final Defense of ``seat``'s fighter (1 floor); this turn's weaken hits the defender."""
        me = self.players[seat]
        if me.fighter is None:
            return 1
        value = self.pool.cards[me.fighter.char].defense + me.guard + fx.defense_modifier(self, seat)
        if seat != self.turn_player:
            value -= self.weaken
        return max(1, value)

    def damage_now(self) -> int:
        """Part 5: 1 when Attack >= Defense, 2 when >= twice, + extra_damage; capped."""
        attack = self.attack_value()
        defense = self.defense_value(1 - self.turn_player)
        damage = 2 if attack >= 2 * defense else 1 if attack >= defense else 0
        if damage:
            damage = min(damage + self.extra_damage, BASE_DAMAGE_CAP + self.extra_damage)
        return damage

    # ------------------------------------------------------------------ attack parts 3-7
    def _after_use(self) -> None:
        """Part 3: the attack's own effect; then part 4 (Attack: abilities)."""
        fx.resolve(self, self.turn_player, self.attack.effects)
        if self.winner is None:
            self.phase = "abilities"

    def _compare(self) -> None:
        """Parts 5 and 6."""
        damage = self.damage_now()
        if damage == 0 and len(self.players[self.turn_player].hand) >= MIN_DAMAGE_DISCARD:
            self.phase = "min_damage"
        else:
            self._deal(damage)

    def _deal(self, damage: int) -> None:
        """Part 7: the defender's fighter takes the damage; at 4 the match ends; the turn ends."""
        seat = self.turn_player
        opp = self.players[1 - seat]
        if damage and opp.fighter is not None:
            opp.fighter.damage += damage
            fx.on_damage(self, seat, damage)
            if opp.fighter.damage >= DEFEAT_DAMAGE:
                self.end_match(seat)
        if self.winner is None:
            self.end_turn()

    def end_match(self, match_winner: int) -> None:
        """Both fighters leave (winner face-up, loser face-down), attachments are discarded,
        and the next in line enter the Arena, flipping and paying for their attachments."""
        for seat, p in enumerate(self.players):
            slot = p.fighter
            p.discard.extend(a.card for a in slot.attached)
            (p.won if seat == match_winner else p.lost).append(slot.char)
            p.fighter = None
            p.guard = 0
        self.players[match_winner].wins += 1
        if self.players[match_winner].wins >= WINS_NEEDED:
            self.end_game(match_winner)
            return
        ready = [bool(p.sideline) for p in self.players]
        if not all(ready):
            # A player who cannot send a character into the Arena loses (both: a drawn game).
            self.end_game(-1 if not any(ready) else ready.index(True))
            return
        order = (self.turn_player, 1 - self.turn_player)
        for seat in order:
            p = self.players[seat]
            p.fighter = p.sideline.pop(0)
            self.flip_attachments(seat, p.fighter)
            self.refresh_bonus(seat)
        for seat in order:
            fx.on_enter(self, seat)

    # ------------------------------------------------------------------ abilities
    def _ability_instance(self, seat: int, cid: int, timing: str) -> Slot | Attachment | None:
        """The first unused face-up instance of ``cid`` in play whose ability has ``timing``."""
        me = self.players[seat]
        ability = self.pool.cards[cid].ability
        if ability is None or ability.timing != timing or ability.spirit > me.spirit:
            return None
        for slot in me.slots():
            if slot.char == cid and not slot.used:
                return slot
            for att in slot.attached:
                if att.card == cid and att.face_up and not att.used:
                    return att
        return None

    def _usable_abilities(self, seat: int, timing: str) -> list[int]:
        """Cards with an unused, affordable ``timing`` ability face-up in play (each id once)."""
        me = self.players[seat]
        timings, costs = self.ability_timing, self.ability_cost
        spirit = me.spirit
        out = []
        for slot in me.slots():
            cid = slot.char
            if timings[cid] == timing and not slot.used and costs[cid] <= spirit and cid not in out:
                out.append(cid)
            for att in slot.attached:
                cid = att.card
                if timings[cid] == timing and att.face_up and not att.used and costs[cid] <= spirit \
                        and cid not in out:
                    out.append(cid)
        return out

    # ------------------------------------------------------------------ decisions
    def legal(self) -> np.ndarray:
        """A fresh mask for the pending decision."""
        t = self.table
        mask = np.zeros(t.size, dtype=bool)
        phase = self.phase
        if phase == "over":
            return mask
        seat = self.decider
        me = self.players[seat]
        cards = self.pool.cards
        if phase == "setup":
            for cid in me.deck:
                if cards[cid].is_character:
                    mask[t.pick(cid)] = True
            return mask
        if phase == "discard":
            for cid in me.hand:
                mask[t.DISCARD + cid] = True
            return mask
        if phase == "attack":
            for action, _, _ in self.affordable_attacks():
                mask[action] = True
            return mask
        if phase == "min_damage":
            mask[t.MIN_DAMAGE] = True
            mask[t.DONE] = True
            return mask
        mask[t.DONE] = True
        for cid in self._usable_abilities(seat, ABILITY_PHASE_TIMING[phase]):
            mask[t.ability(cid)] = True
        if phase == "main":
            n_side = len(me.sideline)
            for cid in me.hand:
                card = cards[cid]
                kind = card.type
                if kind == "character":
                    if not me.fifth_placed:
                        mask[t.fifth(cid)] = True
                elif kind == "event":
                    if card.timing == "main" and card.spirit <= me.spirit:
                        mask[t.event(cid)] = True
                else:
                    base = t.attach(cid, 0)
                    if me.fighter is not None and card.cost <= me.spirit:
                        mask[base] = True
                    mask[base + 1:base + 1 + n_side] = True
        elif phase == "use":
            for cid in me.hand:
                card = cards[cid]
                if card.type == "event" and card.timing == "use" and card.spirit <= me.spirit:
                    mask[t.event(cid)] = True
            if self.rage_used < fx.bonus(me, "rage") and me.hand:
                mask[t.RAGE] = True
        return mask

    def act(self, action: int) -> None:
        """Apply a legal action for ``decider``, then skip forced passes."""
        block, cid, extra = self.table.decoded[action]
        seat = self.decider
        me = self.players[seat]
        cards = self.pool.cards
        if block == "pick":
            self._pick(seat, cid)
        elif block == "done":
            self._pass()
        elif block == "discard":
            me.take_from_hand(cid)
            me.discard.append(cid)
            self.pending_discard -= 1
            if self.pending_discard == 0:
                self._discards_paid()
        elif block == "fifth":
            me.take_from_hand(cid)
            me.sideline.append(Slot(cid))
            me.fifth_placed = True
            self.refresh_bonus(seat)
        elif block == "attach":
            me.take_from_hand(cid)
            if extra == 0:
                me.spirit -= cards[cid].cost
                me.fighter.attached.append(Attachment(cid, True))
            else:
                me.sideline[extra - 1].attached.append(Attachment(cid, False))
        elif block == "event":
            card = cards[cid]
            me.take_from_hand(cid)
            me.spirit -= card.spirit
            me.discard.append(cid)
            fx.resolve(self, seat, card.effects)
        elif block == "ability":
            timing = ABILITY_PHASE_TIMING[self.phase]
            source = self._ability_instance(seat, cid, timing)
            source.used = True
            ability = cards[cid].ability
            me.spirit -= ability.spirit
            fx.resolve(self, seat, ability.effects)
        elif block in ("attack_own", "attack_tech"):
            for action_id, source, attack in self.affordable_attacks():
                if action_id == action:
                    self.attack, self.attack_card = attack, source
            me.spirit -= self.attack.spirit
            self.phase = "use"
            if self.attack.discard:
                self._start_discard(self.attack.discard, "use")
        elif block == "rage":
            self.rage_used += 1
            self._start_discard(1, "rage")
        elif block == "min_damage":
            self._start_discard(MIN_DAMAGE_DISCARD, "min")
        self.settle()

    def _start_discard(self, count: int, then: str) -> None:
        self.pending_discard = count
        self.after_discard = then
        self.phase = "discard"

    def _discards_paid(self) -> None:
        then = self.after_discard
        self.after_discard = ""
        if then == "use":
            self.phase = "use"
        elif then == "rage":
            self.power += fx.RAGE_POWER
            self.phase = "use"
        else:  # minimum damage
            self._deal(1)

    def _pass(self) -> None:
        phase = self.phase
        if phase == "draw":
            self.phase = "main"
        elif phase == "main":
            self.begin_attack()
        elif phase == "use":
            self._after_use()
        elif phase == "abilities":
            self._compare()
        elif phase == "min_damage":
            self._deal(0)

    def settle(self) -> None:
        """Skip decisions whose only legal option is to pass; cache the next real mask."""
        while True:
            if self.winner is not None:
                self.phase = "over"
                self.decider = -1
                self.pending_mask = self.legal()
                return
            mask = self.legal()
            if self.phase in PASSABLE and mask[self.table.DONE] and np.count_nonzero(mask) == 1:
                self._pass()
                continue
            self.pending_mask = mask
            return

    # ------------------------------------------------------------------ copying
    def copy_state_from(self, other: Engine) -> None:
        self.players = [p.copy() for p in other.players]
        for name in ("phase", "decider", "turn_player", "first_player", "turn_number", "revealed", "winner",
                     "attack", "attack_card", "power", "weaken", "extra_damage", "rage_used", "pending_discard",
                     "after_discard", "pending_mask"):
            setattr(self, name, getattr(other, name))


__all__ = ["ATTACH_TARGETS", "Engine"]
