"""Onmyoji: three nights -- the rules engine (Solo, Duel and Co-op).

The flow of the rulebook lives here: setup, nights and battles, the six-step turn, the simultaneous
face-down card choice, the picks after a battle, evolution, the Boss battle and the Duel Final
Battle. How much damage or healing happens is in ``effects.py``; the action table is in
``encoding.py``; the observation tensor in ``observation.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji import encoding as enc
from yokai_envs.onmyoji import observation as obs
from yokai_envs.onmyoji.cards import Ability, Side, Yokai, load_pool
from yokai_envs.onmyoji.invariants import check_invariants
from yokai_envs.onmyoji.state import (
    ATTACK,
    DEFEATED,
    EQUIP,
    GONE,
    GUARD,
    IN_PLAY,
    PILE,
    S_AFTER,
    S_ATTACK,
    S_GUARD,
    S_OVER,
    S_PLAY,
    S_SETUP,
    S_START,
    SHIKIGAMI,
    SPELL,
    STAGE_NAMES,
    UNDER,
    Enemy,
    Player,
)

MODES = ("solo", "duel", "coop")
# Pending decisions.
D_NONE, D_PICK, D_TAKE, D_START_MENU, D_PLAY, D_ACTION_MENU, D_EVOLVE, D_TARGET = range(8)
DECISION_NAMES = ("none", "pick a Yokai", "Shikigami or Equip", "start-of-turn abilities",
                  "play a card face down", "on your action", "evolve: choose Shikigami", "choose a target")
#: Ruling: the Duel Final Battle ends after this many turns (higher HP wins, a tie goes to the first player).
DUEL_FINAL_TURN_CAP = 40
EDGE_OF_CARD = (0, 1, 2)  # Attack -> left edge, Guard -> right edge, Spell -> bottom edge


class OnmyojiGame(Game):
    env_id = "onmyoji_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"mode": "duel", "difficulty": 1, "characters": None}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [
        {"mode": "solo"}, {"mode": "duel"}, {"mode": "coop"}, {"mode": "solo", "difficulty": 10},
        {"mode": "coop", "difficulty": 10},
    ]
    DEFAULT_MAX_STEPS = 5_000

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.pool = load_pool()
        self.mode: str = self.options["mode"]
        if self.mode not in MODES:
            raise ConfigError(f"onmyoji_v0: option mode must be one of {MODES}, got {self.mode!r}")
        difficulty = self.options["difficulty"]
        if not isinstance(difficulty, int) or isinstance(difficulty, bool) or not 1 <= difficulty <= 10:
            raise ConfigError(f"onmyoji_v0: option difficulty must be an int 1..10, got {difficulty!r}")
        self.difficulty = difficulty
        self.coop_level = self.pool.coop[difficulty]
        self.solo_level = self.pool.solo[difficulty]
        self._num_players = 1 if self.mode == "solo" else 2
        self.fixed_characters = self._parse_characters(self.options["characters"])
        self.yokai_names = tuple(y.name for y in self.pool.yokai)
        self.num_actions = enc.NUM_ACTIONS
        self.observation_layout = obs.layout(self._num_players)
        self.observation_size = obs.size(self.observation_layout)
        self.state_size = self.observation_size * self._num_players + 3 * self._num_players + enc.N_YOKAI + 3
        self._init_empty()

    def _parse_characters(self, chars: Any) -> list[int] | None:
        if chars is None:
            return None
        if isinstance(chars, str):
            chars = [chars]
        if not isinstance(chars, (list, tuple)) or len(chars) != self._num_players:
            raise ConfigError(f"onmyoji_v0: option characters must list {self._num_players} Character name(s), "
                              f"got {chars!r}")
        idx = [self.pool.character_index(c) for c in chars]
        if len(set(idx)) != len(idx):
            raise ConfigError(f"onmyoji_v0: option characters names the same Character twice: {chars!r}")
        return idx

    def _init_empty(self) -> None:
        self.players: list[Player] = []
        self.enemies: list[Enemy | None] = [None, None]
        self.zone = [PILE] * enc.N_YOKAI
        self.owner = [-1] * enc.N_YOKAI
        self.stage = S_OVER
        self.decision = D_NONE
        self.decider = -1
        self.order: list[int] = []
        self.cursor = 0
        self.night = 1
        self.battle = 1
        self.turn = 1
        self.first_seat = 0
        self.finisher = -1
        self.final_duel = False
        self.boss_battle = False
        self.over = False
        self.pick_candidates: list[int] = []
        self.take_queue: list[int] = []
        self.taking = -1
        self.target_ctx: tuple | None = None
        self.evolve_sum = 0
        self.piles: list[list[int]] = [[], [], [], []]  # per Lv, face-down draw order (hidden)
        self.yokai_deck: list[int] = []  # Solo Yokai deck, face-down order (hidden)
        self._returns = np.zeros(self._num_players)

    # ------------------------------------------------------------------ card data helpers
    def card(self, yokai: int) -> Yokai:
        return self.pool.boss if yokai == len(self.pool.yokai) else self.pool.yokai[yokai]

    def side(self, p: Player) -> Side:
        c = self.pool.characters[p.character]
        return c.back if p.evolved else c.front

    # ------------------------------------------------------------------ contract
    @property
    def cooperative(self) -> bool:
        return self.mode == "coop"

    @property
    def num_players(self) -> int:
        return self._num_players

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.decider

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def phase_name(self) -> str:
        return f"{STAGE_NAMES[self.stage]}: {DECISION_NAMES[self.decision]}"

    def returns(self) -> np.ndarray:
        return self._returns.copy()

    def action_name(self, action: int) -> str:
        return enc.action_name(action, self.yokai_names)

    # ------------------------------------------------------------------ setup
    def _reset(self) -> None:
        self._init_empty()
        for lv in (1, 2, 3):
            pile = [y.index for y in self.pool.yokai if y.lv == lv]
            self.piles[lv] = [pile[i] for i in self.rng.permutation(len(pile))]
        n = self._num_players
        if self.fixed_characters is not None:
            chars = self.fixed_characters
        else:
            chars = [int(c) for c in self.rng.permutation(len(self.pool.characters))[:n]]
        for c in chars:
            front = self.pool.characters[c].front
            hp = front.hp + (self.solo_level.character_plus if self.mode == "solo" else 0)
            self.players.append(Player(c, min(fx.HP_CAP, hp)))
        if self.mode == "solo":
            # Solo setup 2: choose any 1 Yokai of the Starting Shikigami Lv.
            lv = self.solo_level.starting_shikigami_lv
            self.stage = S_SETUP
            self.pick_candidates = [y.index for y in self.pool.yokai if y.lv == lv]
            self.take_queue = [0]
            self._ask(D_PICK, 0)
            return
        # The player with lower HP goes first; if tied, the left player (seat 0).
        self.first_seat = 1 if self.players[1].hp < self.players[0].hp else 0
        self._start_night_battle()
        self._advance()

    def _ask(self, decision: int, seat: int) -> None:
        self.decision = decision
        self.decider = seat

    def _draw_yokai(self, lv: int) -> int:
        y = self.piles[lv].pop(0)  # the top of the shuffled pile: a random remaining Yokai of that Lv
        self.zone[y] = IN_PLAY
        return y

    def _start_night_battle(self) -> None:
        count = 1 if self.mode == "solo" and self.battle == 1 else 2
        ys = [self._draw_yokai(self.night) for _ in range(count)]
        self._start_battle([Enemy(y, self.card(y).hp) for y in ys] + [None] * (2 - count))

    def _start_boss_battle(self) -> None:
        self.boss_battle = True
        if self.mode == "solo" and self.solo_level.heal_before_boss:
            p = self.players[0]
            p.hp = max(p.hp, min(fx.HP_CAP, self.side(p).hp))
        minion = self._draw_yokai(3)
        boss = self.pool.boss
        # The minion stands to the right of the Boss.
        self._start_battle([Enemy(boss.index, boss.hp, is_boss=True), Enemy(minion, self.card(minion).hp)])

    def _start_duel_final(self) -> None:
        self.final_duel = True
        self._start_battle([None, None])

    def _start_battle(self, enemies: list[Enemy | None]) -> None:
        self.enemies = enemies
        self.finisher = -1
        self.turn = 1
        if self.mode == "solo":
            self._shuffle_yokai_deck()  # the Solo Yokai deck is reshuffled at the start of each battle
        for p in self.players:
            p.hand = [True, True, True]  # each player returns their hand to 3 cards
            p.used = [False, False, False]
            p.played = -1
            p.revealed = False
            for y in p.shikigami:
                if self.card(y).shikigami.per_battle:
                    p.shiki_uses[y] = 0
        self._begin_turn()

    def _turn_order(self) -> list[int]:
        seats = [self.first_seat, 1 - self.first_seat] if self._num_players == 2 else [0]
        return [s for s in seats if not self.players[s].fallen]

    def _begin_turn(self) -> None:
        for p in self.players:
            p.reset_turn()
            p.played = -1
            p.revealed = False
        for e in self.enemies:
            if e is not None:
                e.reset_turn()
        self.stage = S_START
        self.order = self._turn_order()
        self.cursor = 0

    # ------------------------------------------------------------------ targets
    def enemy_can_be_hurt(self, e: Enemy) -> bool:
        if e.deck_card == GUARD:
            return False
        # While the minion is alive, the Boss takes no damage.
        return not (e.is_boss and self.enemies[1] is not None and self.enemies[1].alive)

    def enemy_targets(self, seat: int, include_immune: bool = False) -> list[int]:
        if self.final_duel:
            return [fx.PLAYER_0 + 1 - seat]
        out = []
        for slot, e in enumerate(self.enemies):
            if e is None or not e.alive:
                continue
            # Ruling: the Boss cannot be chosen as a target while its minion is alive.
            if e.is_boss and not include_immune and not self.enemy_can_be_hurt(e):
                continue
            out.append(slot)
        return out

    def ally_targets(self, seat: int) -> list[int]:
        # Ruling: in Solo and Duel your only ally is yourself; in Co-op either living Onmyoji.
        if self.mode == "coop":
            return [fx.PLAYER_0 + s for s in range(2) if not self.players[s].fallen]
        return [fx.PLAYER_0 + seat]

    def alive_enemy_count(self) -> int:
        return sum(1 for e in self.enemies if e is not None and e.alive)

    # ------------------------------------------------------------------ falling and the end
    def on_hp_zero(self, seat: int) -> None:
        if self.final_duel:
            return  # the Duel Final is decided at the end of the turn (ruling)
        self.players[seat].fallen = True
        if self.mode != "duel":
            self._finish([-1.0] * self._num_players)  # Co-op/Solo: a fall loses at once
        elif all(p.fallen for p in self.players):
            self._finish([-1.0, -1.0])  # both fall: both lose

    def _finish(self, rewards: list[float]) -> None:
        self.over = True
        self.stage = S_OVER
        self.decision = D_NONE
        self.decider = -1
        self._returns = np.array(rewards, dtype=np.float64)

    def _duel_winner(self, seat: int) -> None:
        r = [-1.0, -1.0]
        r[seat] = 1.0
        self._finish(r)

    # ------------------------------------------------------------------ the flow
    def _advance(self) -> None:
        """Run the automatic parts of the flow until a seat must decide (or the game ends)."""
        while not self.over:
            st = self.stage
            if st == S_START:
                while self.cursor < len(self.order) and not self._start_menu_options(self.order[self.cursor]):
                    self.cursor += 1
                if self.cursor < len(self.order):
                    self._ask(D_START_MENU, self.order[self.cursor])
                    return
                self.stage = S_PLAY
                self.order = self._turn_order()
                self.cursor = 0
            elif st == S_PLAY:
                if self.cursor < len(self.order):
                    self._ask(D_PLAY, self.order[self.cursor])
                    return
                self._reveal()
            elif st in (S_GUARD, S_ATTACK):
                while self.cursor < len(self.order) and not self._can_act(self.order[self.cursor]):
                    self.cursor += 1
                if self.cursor < len(self.order):
                    self._ask(D_ACTION_MENU, self.order[self.cursor])
                    return
                if st == S_GUARD:
                    self._begin_attack_step()
                else:
                    self._yokai_step()
                    if not self.over:
                        self._end_turn()
            else:
                return

    def _can_act(self, seat: int) -> bool:
        p = self.players[seat]
        # Ruling: in the Duel Final a player brought to 0 still acts this turn; on the nights a
        # fallen Onmyoji does nothing more.
        return p.played >= 0 and not p.used[p.played] and (self.final_duel or not p.fallen)

    def _reveal(self) -> None:
        for s in self.order:
            p = self.players[s]
            p.revealed = True
            p.guarding = p.played == GUARD
        self.stage = S_GUARD
        self.order = [s for s in self._turn_order() if self.players[s].played == GUARD]
        self.cursor = 0

    def _begin_attack_step(self) -> None:
        seats = [s for s in self._turn_order() if self.players[s].played in (ATTACK, SPELL)]
        # A player with an "act first" effect acts first (stable: ties keep the first player first).
        seats.sort(key=lambda s: not self.players[s].act_first)
        self.stage = S_ATTACK
        self.order = seats
        self.cursor = 0

    def _yokai_step(self) -> None:
        if self.final_duel:
            return  # the Onmyoji do not take Yokai actions
        for slot in (1, 0):  # the right Yokai acts, then the left Yokai
            e = self.enemies[slot]
            if e is not None:
                fx.yokai_take_action(self, e)

    def _end_turn(self) -> None:
        for p in self.players:
            if p.played >= 0 and not p.used[p.played]:
                p.used[p.played] = True  # a card that was never resolved (a fallen player's) is Used too
            p.played = -1
            p.revealed = False
            if not any(p.hand):  # 0 cards in hand: return all used action cards
                p.hand = [True, True, True]
                p.used = [False, False, False]
        if self.final_duel:
            down = [p.hp == 0 for p in self.players]
            if all(down):
                self._duel_winner(self.first_seat)  # both reach 0 on the same turn: the first player wins
            elif any(down):
                self._duel_winner(down.index(False))
            elif self.turn >= DUEL_FINAL_TURN_CAP:
                hp = [p.hp for p in self.players]
                self._duel_winner(self.first_seat if hp[0] == hp[1] else int(np.argmax(hp)))
            else:
                self.turn += 1
                self._begin_turn()
            return
        if self.alive_enemy_count() == 0:
            self._after_battle()
        else:
            self.turn += 1
            self._begin_turn()

    def _after_battle(self) -> None:
        if self.boss_battle:
            self._finish([1.0] * self._num_players)  # the Boss falls with every Onmyoji alive
            return
        self.stage = S_AFTER
        self.pick_candidates = [e.yokai for e in self.enemies if e is not None]
        for y in self.pick_candidates:
            self.zone[y] = DEFEATED
        self.enemies = [None, None]
        alive = [s for s in range(self._num_players) if not self.players[s].fallen]
        if len(alive) == 1:
            self.take_queue = alive  # Solo, or a Duel survivor: takes only 1 of the defeated Yokai
        else:
            finisher = self.finisher if self.finisher >= 0 else self.first_seat
            self.take_queue = [finisher, 1 - finisher]
        self._next_take()

    def _next_take(self) -> None:
        if not self.take_queue or not self.pick_candidates:
            if self.stage != S_SETUP:  # Solo setup candidates not chosen stay in their pile
                for y in self.pick_candidates:
                    self.zone[y] = GONE
            self.pick_candidates = []
            if self.stage == S_SETUP:
                self.first_seat = 0
                self._start_night_battle()
                self._advance()
            else:
                self._next_battle()
            return
        seat = self.take_queue[0]
        if len(self.pick_candidates) == 1:
            self._take(seat, self.pick_candidates[0])
        else:
            self._ask(D_PICK, seat)

    def _take(self, seat: int, y: int) -> None:
        self.pick_candidates.remove(y)
        if self.stage == S_SETUP:
            self.piles[self.card(y).lv].remove(y)  # Solo: "choose any 1 Yokai" of the pile
        self.zone[y] = DEFEATED  # in the taker's hands until they decide Shikigami or Equip
        self.taking = y
        self._ask(D_TAKE, seat)

    def _next_battle(self) -> None:
        if self.battle == 1:
            self.battle = 2
        else:
            self.night += 1
            self.battle = 1
        if self.night <= 3:
            self._start_night_battle()
        elif self.mode == "duel":
            alive = [s for s in range(2) if not self.players[s].fallen]
            if len(alive) == 1:
                self._duel_winner(alive[0])  # only one player alive after Night 3 wins
                return
            self._start_duel_final()
        else:
            self._start_boss_battle()
        self._advance()

    # ------------------------------------------------------------------ menus
    def _shikigami_usable(self, p: Player, y: int, timing: str, seat: int) -> bool:
        sk = self.card(y).shikigami
        if sk.timing != timing or y in p.used_this_turn:
            return False
        limit = sk.per_battle or sk.per_game
        if p.shiki_uses.get(y, 0) >= limit:
            return False
        ability = fx.active_variant(self, sk.ability)
        return ability.target != "enemy" or bool(fx.ability_targets(self, seat, ability))

    def _start_menu_options(self, seat: int) -> list[int]:
        p = self.players[seat]
        return [enc.USE_SHIKIGAMI + y for y in p.shikigami if self._shikigami_usable(p, y, "start_of_turn", seat)]

    def _action_menu_options(self, seat: int) -> list[int]:
        p = self.players[seat]
        out = [enc.USE_SHIKIGAMI + y for y in p.shikigami if self._shikigami_usable(p, y, "on_action", seat)]
        if not p.evolved and self._shikigami_lv_total(p) >= self.pool.characters[p.character].evolve_at:
            out.append(enc.EVOLVE)
        edge = EDGE_OF_CARD[p.played]
        for y, e in p.equips:
            ability = self.card(y).edges[e].ability
            if e != edge or ability is None or y in p.used_this_turn:
                continue
            ability = fx.active_variant(self, ability)
            if ability.target != "enemy" or fx.ability_targets(self, seat, ability):
                out.append(enc.USE_EQUIP + y)
        return out

    def _shikigami_lv_total(self, p: Player) -> int:
        return sum(self.card(y).lv for y in p.shikigami)

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(enc.NUM_ACTIONS, dtype=bool)
        seat, d = self.decider, self.decision
        p = self.players[seat]
        if d == D_PLAY:
            for c in range(3):
                mask[enc.PLAY + c] = p.hand[c]
        elif d == D_START_MENU:
            mask[self._start_menu_options(seat)] = True
            mask[enc.DONE] = True
        elif d == D_ACTION_MENU:
            mask[self._action_menu_options(seat)] = True
            mask[enc.DONE] = True
        elif d == D_TARGET:
            mask[[enc.TARGET + t for t in self.target_ctx[-1]]] = True
        elif d == D_EVOLVE:
            mask[[enc.EVOLVE_WITH + y for y in p.shikigami]] = True
        elif d == D_PICK:
            mask[[enc.PICK + y for y in self.pick_candidates]] = True
        elif d == D_TAKE:
            mask[enc.TAKE:enc.TAKE + 4] = True
        return mask

    # ------------------------------------------------------------------ applying decisions
    def _apply(self, a: int) -> None:
        seat, d = self.decider, self.decision
        p = self.players[seat]
        if d == D_PLAY:
            c = a - enc.PLAY
            p.hand[c] = False
            p.played = c
            if self.mode == "solo":
                self._flip_yokai_deck()
            self.cursor += 1
        elif d in (D_START_MENU, D_ACTION_MENU):
            if a == enc.DONE:
                if d == D_ACTION_MENU:
                    self._resolve_played_card(seat)
                    return
                self.cursor += 1
            elif a == enc.EVOLVE:
                self.evolve_sum = 0
                self._ask(D_EVOLVE, seat)
                return
            elif a < enc.USE_EQUIP:
                y = a - enc.USE_SHIKIGAMI
                p.shiki_uses[y] = p.shiki_uses.get(y, 0) + 1  # a used 1/game Shikigami is flipped
                p.used_this_turn.add(y)
                self._use_ability(seat, self.card(y).shikigami.ability)
                return
            else:
                y = a - enc.USE_EQUIP
                edge = EDGE_OF_CARD[p.played]
                p.used_this_turn.add(y)
                self._use_ability(seat, self.card(y).edges[edge].ability)
                return
        elif d == D_TARGET:
            kind, ability_or_card = self.target_ctx[0], self.target_ctx[1]
            self.target_ctx = None
            target = a - enc.TARGET
            if kind == "card":
                fx.resolve_card(self, seat, ability_or_card, target)
                self._finish_action(seat)
                return
            fx.apply_ability(self, seat, ability_or_card, target)
            self._return_to_menu(seat)
            return
        elif d == D_EVOLVE:
            y = a - enc.EVOLVE_WITH
            p.shikigami.remove(y)
            self.zone[y] = UNDER
            self.evolve_sum += self.card(y).lv
            if self.evolve_sum >= self.pool.characters[p.character].evolve_at:
                p.evolved = True
                p.hp = max(p.hp, min(fx.HP_CAP, self.side(p).hp))  # heal up to the back side's HP
                self.evolve_sum = 0
                self.decision = D_ACTION_MENU
            return
        elif d == D_PICK:
            self._take(seat, a - enc.PICK)
            return
        elif d == D_TAKE:
            self._place_taken(seat, self.taking, a - enc.TAKE)
            self.taking = -1
            self.take_queue = self.take_queue[1:]
            if self.stage != S_SETUP:
                self.first_seat = seat  # the player who took a Yokai last goes first next battle
            self._next_take()
            return
        self._advance()

    def _place_taken(self, seat: int, y: int, choice: int) -> None:
        p = self.players[seat]
        self.owner[y] = seat
        if choice == 0:
            self.zone[y] = SHIKIGAMI
            p.shikigami.append(y)
            p.shiki_uses[y] = 0
        else:
            edge = choice - 1
            self.zone[y] = EQUIP
            p.equips.append((y, edge))
            stats = self.card(y).edges[edge].stats
            for i in range(3):
                p.equip_stats[i] += stats[i]

    def _use_ability(self, seat: int, ability: Ability) -> None:
        ability = fx.active_variant(self, ability)
        targets = fx.ability_targets(self, seat, ability)
        if len(targets) > 1:
            self.target_ctx = ("ability", ability, self.decision, targets)
            self._ask(D_TARGET, seat)
            return
        fx.apply_ability(self, seat, ability, targets[0] if targets else None)
        self._return_to_menu(seat)

    def _return_to_menu(self, seat: int) -> None:
        if self.over:
            return
        # Back to the menu we came from: the start-of-turn menu in S_START, else "on your action".
        self.decision = D_START_MENU if self.stage == S_START else D_ACTION_MENU
        if self.decision == D_START_MENU and not self._start_menu_options(seat):
            self.cursor += 1
            self._advance()

    def _resolve_played_card(self, seat: int) -> None:
        p = self.players[seat]
        card = p.played
        targets = self.enemy_targets(seat) if card in (ATTACK, SPELL) else []
        if len(targets) > 1:
            self.target_ctx = ("card", card, self.decision, targets)
            self._ask(D_TARGET, seat)
            return
        fx.resolve_card(self, seat, card, targets[0] if targets else None)
        self._finish_action(seat)

    def _finish_action(self, seat: int) -> None:
        p = self.players[seat]
        p.used[p.played] = True  # place the card face up as Used
        self.cursor += 1
        self._advance()

    def _flip_yokai_deck(self) -> None:
        """Solo: while only 1 Yokai is out (not in the Boss battle), flip a Yokai deck card."""
        if self.boss_battle or self.alive_enemy_count() != 1:
            return
        c = self.yokai_deck.pop(0)
        if not self.yokai_deck:
            self._shuffle_yokai_deck()  # shuffle again when all 3 have been flipped
        e = next(e for e in self.enemies if e is not None and e.alive)
        e.deck_card = c

    def _shuffle_yokai_deck(self) -> None:
        self.yokai_deck = [int(c) for c in self.rng.permutation(3)]

    # ------------------------------------------------------------------ observation & views
    def observation(self, seat: int) -> np.ndarray:
        return obs.encode(self, seat)

    def state_tensor(self) -> np.ndarray:
        parts = [obs.encode(self, s) for s in range(self._num_players)]
        hidden = np.zeros(self.state_size - self.observation_size * self._num_players, dtype=np.float32)
        for s, p in enumerate(self.players):
            if p.played >= 0:
                hidden[3 * s + p.played] = 1.0
        o = 3 * self._num_players
        for lv in (1, 2, 3):  # pile order: position of each Yokai still in a pile
            for pos, y in enumerate(self.piles[lv]):
                hidden[o + y] = (pos + 1) / 6
        o += enc.N_YOKAI
        for pos, c in enumerate(self.yokai_deck):
            hidden[o + c] = (pos + 1) / 3
        return np.concatenate([*parts, hidden])

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return obs.bounds(self.observation_layout, self.observation_size)

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        # Hidden: the order of the face-down Yokai piles and of the Solo Yokai deck, and a card
        # another seat has chosen face down but not revealed yet.
        # Sorted first, so a sample depends on the seat's information and rng, never on the real order.
        for lv in (1, 2, 3):
            pile = sorted(self.piles[lv])
            self.piles[lv] = [pile[i] for i in rng.permutation(len(pile))]
        deck = sorted(self.yokai_deck)
        self.yokai_deck = [deck[i] for i in rng.permutation(len(deck))]
        for s, p in enumerate(self.players):
            if s != seat and p.played >= 0 and not p.revealed:
                options = [c for c in range(3) if p.hand[c] or c == p.played]
                p.hand[p.played] = True
                c = options[int(rng.integers(len(options)))]
                p.hand[c] = False
                p.played = c

    def clone(self) -> OnmyojiGame:
        g = OnmyojiGame.__new__(OnmyojiGame)
        g.__dict__.update(self.__dict__)
        g.players = [p.copy() for p in self.players]
        g.enemies = [e.copy() if e is not None else None for e in self.enemies]
        g.zone = self.zone[:]
        g.owner = self.owner[:]
        g.order = self.order[:]
        g.pick_candidates = self.pick_candidates[:]
        g.take_queue = self.take_queue[:]
        g.piles = [pile[:] for pile in self.piles]
        g.yokai_deck = self.yokai_deck[:]
        g._returns = self._returns.copy()
        g.action_history = self.action_history[:]
        g.rng = np.random.default_rng()
        g.rng.bit_generator.state = self.rng.bit_generator.state
        return g

    def render(self) -> str:
        return obs.render(self, None)

    def render_for(self, seat: int) -> str:
        return obs.render(self, seat)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        from yokai_envs.onmyoji.view import table_view
        return table_view(self, seat)

    def public_action_name(self, action: int, seat: int) -> str | None:
        from yokai_envs.onmyoji.view import public_action_name
        return public_action_name(self, action, seat)

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        check_invariants(self)
