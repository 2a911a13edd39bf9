"""The rules: setup, turn structure, the Attack step's values and parts 3-7, damage, match end
and game end, and which abilities can be used. The pending decision (its mask and how an
action applies) is ``decisions.Decisions``, a subclass of :class:`Rules`; the phases are
``state.Phase``.
"""

from __future__ import annotations

from typing import NamedTuple

from yokai_envs.yyh_tcg import effects as fx
from yokai_envs.yyh_tcg.cards import Attack, CardType, Timing
from yokai_envs.yyh_tcg.state import (
    BASE_DAMAGE_CAP,
    DEFEAT_DAMAGE,
    MAX_SPIRIT,
    MIN_DAMAGE_DISCARD,
    OPENING_HAND,
    SETUP_PICKS,
    TURN_DRAW,
    TURN_SPIRIT,
    WINS_NEEDED,
    Attachment,
    Ev,
    Phase,
    PlayerState,
    Slot,
    TableState,
)

TECHNIQUE = CardType.TECHNIQUE  # bound once (see decisions.py on enum lookups in Python 3.11)


class AttackOption(NamedTuple):
    """An attack the fighter can pay for now."""

    action: int    # its action id (attack_own or attack_tech)
    card: int      # the card it is printed on (the fighter or an attached Technique)
    attack: Attack


class Rules(TableState):
    """The transitions of the table. ``rng`` is the game's seeded Generator."""

    #: timing -> per card id, the Spirit its ability of that timing costs, else more than any
    #: Spirit (built once per game from the pool): "usable now" is one lookup and compare
    ability_spirit_at: dict[Timing, list[int]]
    #: whether the game's first turn has an Attack step: the book's game (the "balanced" variant
    #: ends that turn after its Main step instead; RULES_NOTES ruling 3)
    first_turn_attacks: bool

    # ------------------------------------------------------------------ setup
    def new_game(self, decks: list[tuple[str, list[int]]]) -> None:
        """Both decks shuffled; seat 0 picks first (``Decisions.new_game`` then settles)."""
        self.players = [PlayerState(list(ids), name) for name, ids in decks]
        for seat, p in enumerate(self.players):
            self.see(None, Ev.DECK, seat, self.deck_index[seat])
            self.rng.shuffle(p.deck)
            self.see(None, Ev.SHUFFLE, seat)
        self.phase = Phase.SETUP
        self.decider = 0
        self.turn_player = 0
        self.first_player = 0
        self.turn_number = 0
        self.revealed = False
        self.winner = None
        self.choices = ()
        self.choice_return = (Phase.SETUP, 0)
        self.end_turn_after_choices = False
        self.clear_turn()

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
            for i, slot in enumerate(p.slots()):
                self.see(None, Ev.LINE, seat, i, slot.char)
        for seat, p in enumerate(self.players):
            self.rng.shuffle(p.deck)
            self.see(None, Ev.SHUFFLE, seat)
            self.refresh_bonus(seat)
        self.first_player = int(self.rng.integers(2))
        self.see(None, Ev.FIRST, self.first_player)
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
            card = me.deck.pop()
            me.hand.append(card)
            if self._seen is not None:  # asked first: draws are on the search's hot path
                self.see(seat, Ev.DREW, seat, card)
                self.see(1 - seat, Ev.DREW_HIDDEN, seat)

    def mill(self, seat: int, n: int) -> None:
        me = self.players[seat]
        for _ in range(min(n, len(me.deck))):
            card = me.deck.pop()
            me.discard.append(card)
            self.see(None, Ev.MILLED, seat, card)

    def search(self, seat: int, card_type: str) -> None:
        """Search the deck for a card of ``card_type``: the player looks through the deck and
        chooses one (a ``search`` choice, asked even with one candidate: whether there is a
        choice depends on the hidden deck); it is shown to the opponent and goes to the hand;
        the deck is shuffled. A search that finds nothing shows nothing."""
        me = self.players[seat]
        cards = self.pool.cards
        if any(cards[cid].type == card_type for cid in me.deck):
            self.choices = (*self.choices, ("search", seat, card_type))

    def take_searched(self, seat: int, card: int) -> None:
        me = self.players[seat]
        me.deck.remove(card)
        me.hand.append(card)
        me.shown.append(card)  # shown to the opponent
        self.see(None, Ev.SEARCHED, seat, card)
        self.rng.shuffle(me.deck)
        self.see(None, Ev.SHUFFLE, seat)

    def slot_at(self, seat: int, index: int) -> Slot:
        """Slot ``index`` of ``seat``: 0 the fighter, i the Sideline's i-th."""
        p = self.players[seat]
        slot = p.fighter if index == 0 else p.sideline[index - 1]
        assert slot is not None
        return slot

    def flip_attachments(self, seat: int, indices: tuple[int, ...]) -> None:
        """Face-down cards under the slots ``indices`` (0 the fighter, i the Sideline's i-th) turn
        face-up together: each is paid for or discarded. When the Spirit covers them all or at
        most one of them (a card under a slot) can be paid, that happens at once; otherwise they
        are all turned up (shown) and the owner chooses which to pay for (a ``pay`` choice over
        every slot's cards) before any is paid."""
        down = self._face_down_under(seat, indices)
        if not down:
            return
        me = self.players[seat]
        if not self._pay_is_a_choice(me.spirit, down):
            self.pay_flipped(seat, indices)
            return
        for _, att in down:
            att.turned = True
            me.forget_shown(att.card)
            if self._seen is not None:  # see() is free when not recording, but not its call
                self.see(None, Ev.TURNED, seat, att.card)
        self.choices = (*self.choices, ("pay", seat, indices))

    def _face_down_under(self, seat: int, indices: tuple[int, ...]) -> list[tuple[int, Attachment]]:
        """(slot index, card) of each face-down card under those slots, slot by slot in attach order."""
        return [(index, att) for index in indices for att in self.slot_at(seat, index).attached if not att.face_up]

    def _pay_is_a_choice(self, spirit: int, down: list[tuple[int, Attachment]]) -> bool:
        """Whether paying for ``down`` is the owner's choice: the Spirit does not cover them all
        and more than one (card, slot) could be paid for first."""
        cards = self.pool.cards
        if sum(cards[att.card].cost for _, att in down) <= spirit:
            return False
        return len({(index, att.card) for index, att in down if cards[att.card].cost <= spirit}) > 1

    def pay_flipped(self, seat: int, indices: tuple[int, ...], first: tuple[int, int] | None = None) -> bool:
        """Pay for ``first`` (card id, slot index) if given, then for the rest slot by slot in
        attach order while the Spirit lasts, discarding what cannot be paid; stop (False) while
        a choice remains."""
        me = self.players[seat]
        cards = self.pool.cards
        if first is not None:
            card, index = first
            att = next(a for a in self.slot_at(seat, index).attached if a.card == card and not a.face_up)
            self._pay(seat, att)
        while True:
            down = self._face_down_under(seat, indices)
            if not down:
                return True
            if self._pay_is_a_choice(me.spirit, down):
                return False  # the owner chooses
            index, att = down[0]
            if cards[att.card].cost <= me.spirit:
                self._pay(seat, att)
            else:
                self.slot_at(seat, index).attached.remove(att)
                if not att.turned:
                    me.forget_shown(att.card)
                me.discard.append(att.card)
                if self._seen is not None:
                    self.see(None, Ev.FLIPPED, seat, att.card, 0)

    def _pay(self, seat: int, att: Attachment) -> None:
        me = self.players[seat]
        if not att.turned:
            me.forget_shown(att.card)
        me.spirit -= self.pool.cards[att.card].cost
        att.face_up = True
        att.turned = False
        if self._seen is not None:
            self.see(None, Ev.FLIPPED, seat, att.card, 1)

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
            self.phase = Phase.OVER
            self.decider = -1
            self.see(None, Ev.GAME_OVER, winner)

    # ------------------------------------------------------------------ turn structure
    def start_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.decider = seat
        self.turn_number += 1
        if self._seen is not None:
            self.see(None, Ev.TURN, seat, self.turn_number)
        self.clear_turn()
        me = self.players[seat]
        me.guard = 0
        for p in self.players:  # once per turn: each turn, either player's (a defender acts in part 4)
            for slot in p.sideline if p.fighter is None else (p.fighter, *p.sideline):  # p.slots()
                slot.used = False
                for att in slot.attached:
                    att.used = False
        if self.turn_number > 1:
            self.draw(seat, TURN_DRAW)
            if self.winner is not None:
                return
        me.spirit = min(MAX_SPIRIT, me.spirit + TURN_SPIRIT + fx.bonus(me, "extra_spirit"))
        self.phase = Phase.DRAW

    def end_turn(self) -> None:
        seat = self.turn_player
        fx.on_end_of_turn(self, seat)
        if self.winner is None:
            self.start_turn(1 - seat)

    def begin_attack(self) -> None:
        """Part 1 starts; the Attack step (and turn) ends at once with no affordable attack, with
        no opposing fighter to attack (the opponent's Arena waits for its 5th character), or in
        the game's first turn of the "balanced" variant (RULES_NOTES ruling 3)."""
        if (self.first_turn_attacks or self.turn_number > 1) \
                and self.players[1 - self.turn_player].fighter is not None and self.affordable_attack_actions():
            self.phase = Phase.ATTACK
        else:
            self.end_turn()

    def affordable_attacks(self) -> list[AttackOption]:
        """Each attack the fighter can pay for now (its printed ones, then its Techniques)."""
        me = self.players[self.turn_player]
        out: list[AttackOption] = []
        if me.fighter is None:
            return out
        cards = self.pool.cards
        spirit, hand = me.spirit, len(me.hand)
        for i, attack in enumerate(cards[me.fighter.char].attacks):
            if attack.spirit <= spirit and attack.discard <= hand:
                out.append(AttackOption(self.table.ATTACK_OWN + i, me.fighter.char, attack))
        seen = set()
        for att in me.fighter.attached:
            card = cards[att.card]
            if att.face_up and card.type == TECHNIQUE and att.card not in seen:
                seen.add(att.card)
                attack = card.attacks[0]
                if attack.spirit <= spirit and attack.discard <= hand:
                    out.append(AttackOption(self.table.attack_tech(att.card), att.card, attack))
        return out

    def affordable_attack_actions(self) -> list[int]:
        """The action ids of :meth:`affordable_attacks`, in its order, without building its
        options (asked as each Main step ends and at each part 1, on the search's hot path)."""
        me = self.players[self.turn_player]
        fighter = me.fighter
        if fighter is None:
            return []
        cards = self.pool.cards
        spirit, hand = me.spirit, len(me.hand)
        first = self.table.ATTACK_OWN
        out = [first + i for i, attack in enumerate(cards[fighter.char].attacks)
               if attack.spirit <= spirit and attack.discard <= hand]
        if fighter.attached:
            attack_tech_of = self.table.attack_tech_of
            for att in fighter.attached:
                card = cards[att.card]
                if att.face_up and card.type == TECHNIQUE:
                    attack = card.attacks[0]
                    if attack.spirit <= spirit and attack.discard <= hand:
                        action = attack_tech_of[att.card]
                        if action not in out:
                            out.append(action)
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
        assert self.attack is not None, "part 3 without an attack"
        fx.resolve(self, self.turn_player, self.attack.effects)
        if self.winner is None:
            self.phase = Phase.ABILITIES

    def _compare(self) -> None:
        """Parts 5 and 6."""
        damage = self.damage_now()
        if damage == 0 and len(self.players[self.turn_player].hand) >= MIN_DAMAGE_DISCARD:
            self.phase = Phase.MIN_DAMAGE
        else:
            self._deal(damage)

    def _deal(self, damage: int) -> None:
        """Part 7: the defender's fighter takes the damage; at 4 the match ends; the turn ends."""
        seat = self.turn_player
        opp = self.players[1 - seat]
        if damage and opp.fighter is not None:
            opp.fighter.damage += damage
            if self._seen is not None:  # asked first: an attack's damage is on the search's hot path
                self.see(None, Ev.DAMAGE, 1 - seat, damage)
            fx.on_damage(self, seat, damage)
            if opp.fighter.damage >= DEFEAT_DAMAGE:
                self.end_match(seat)
        if self.winner is None:
            if self.choices:  # owed by the match end (flips, searches): the turn ends after them
                self.end_turn_after_choices = True
            else:
                self.end_turn()

    def end_match(self, match_winner: int) -> None:
        """Both fighters leave (winner face-up, loser face-down), attachments are discarded,
        and the next in line enter the Arena, flipping and paying for their attachments."""
        self.see(None, Ev.MATCH, match_winner)
        for seat, p in enumerate(self.players):
            slot = p.fighter
            assert slot is not None, "a match ends between two fighters"
            p.discard.extend(a.card for a in slot.attached)
            (p.won if seat == match_winner else p.lost).append(slot.char)
            p.fighter = None
            p.guard = 0
        self.players[match_winner].wins += 1
        if self.players[match_winner].wins >= WINS_NEEDED:
            self.end_game(match_winner)
            return
        order = (self.turn_player, 1 - self.turn_player)
        for seat in order:
            p = self.players[seat]
            if p.sideline:
                p.fighter = p.sideline.pop(0)
                self.flip_attachments(seat, (0,))
            # else: no one in line (the 5th not yet placed): the Arena waits for the 5th, which
            # the player may place there in a later Main step; until then nobody can attack
            self.refresh_bonus(seat)
        for seat in order:
            if self.players[seat].fighter is not None:
                fx.on_enter(self, seat)

    # ------------------------------------------------------------------ abilities
    def _ability_instance(self, seat: int, cid: int, timing: Timing) -> Slot | Attachment | None:
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

    def _usable_abilities(self, seat: int, timing: Timing) -> list[int]:
        """Cards with an unused, affordable ``timing`` ability face-up in play (each id once)."""
        me = self.players[seat]
        costs = self.ability_spirit_at[timing]
        spirit = me.spirit
        out: list[int] = []
        fighter = me.fighter  # me.slots() without building its list: asked at every passable decision
        for slot in me.sideline if fighter is None else (fighter, *me.sideline):
            cid = slot.char
            if costs[cid] <= spirit and not slot.used and cid not in out:
                out.append(cid)
            for att in slot.attached:
                cid = att.card
                if costs[cid] <= spirit and att.face_up and not att.used and cid not in out:
                    out.append(cid)
        return out
