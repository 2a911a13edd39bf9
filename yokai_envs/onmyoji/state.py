"""The Onmyoji table as plain data (:class:`State`): the enums of the flow, the Onmyoji (players),
the enemies.

Plain classes with explicit ``copy()`` so that ``Game.clone`` stays cheap; :meth:`State.copy` is
the one place that says which fields a copy must not share. The rules that change the table are
functions over ``(state, ctx)`` in ``rules.py``, ``decisions.py`` and ``effects.py``. The enums are
``IntEnum`` (actions, masks and observation offsets index by them) or ``str`` enums (``Mode``:
made from the option string, then used as members).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import numpy as np

from yokai_envs.core.information import FIRST_GAME_EVENT

if TYPE_CHECKING:
    from yokai_envs.onmyoji.cards import Ability, CardPool, CoopLevel, Side, SoloLevel, Verb, Yokai


class TextEnum(StrEnum):
    """A ``str`` enum that prints as its value (``f"{Mode.DUEL}"`` is ``"duel"``)."""


class Mode(TextEnum):
    SOLO = "solo"
    DUEL = "duel"
    COOP = "coop"


MODES: tuple[str, ...] = tuple(m.value for m in Mode)


class ActionCard(IntEnum):
    """The three action cards each Onmyoji holds (also the order of the ``play`` actions)."""

    ATTACK = 0
    GUARD = 1
    SPELL = 2


ATTACK, GUARD, SPELL = ActionCard.ATTACK, ActionCard.GUARD, ActionCard.SPELL
#: The cards by index (``CARDS[i]`` is ``ActionCard(i)``, without the enum call).
CARDS = (ATTACK, GUARD, SPELL)
CARD_NAMES = ("Attack", "Guard", "Spell")


class EquipEdge(IntEnum):
    """The edge a Yokai is equipped on; its effects work on a turn you play the matching card."""

    LEFT = 0    # Attack Equip
    RIGHT = 1   # Guard Equip
    BOTTOM = 2  # Spell Equip


#: Played card -> the Equip edge whose effects it unlocks (Attack left, Guard right, Spell bottom).
EDGE_OF_CARD = (EquipEdge.LEFT, EquipEdge.RIGHT, EquipEdge.BOTTOM)


class Stats(NamedTuple):
    """ATK, DEF and SPL numbers (an Equip edge's always-on numbers, or their sum)."""

    atk: int
    defense: int
    spl: int

    def plus(self, other: tuple[int, int, int]) -> Stats:
        return Stats(self.atk + other[0], self.defense + other[1], self.spl + other[2])


NO_STATS = Stats(0, 0, 0)


class Zone(IntEnum):
    """Where each Yokai card is (one zone per card; the invariant check relies on it)."""

    PILE = 0
    IN_PLAY = 1
    DEFEATED = 2
    SHIKIGAMI = 3
    EQUIP = 4
    UNDER = 5  # under a Character (evolution)
    GONE = 6   # out of the game


ZONE_NAMES = ("pile", "in play", "defeated", "shikigami", "equip", "under character", "out of game")


class Stage(IntEnum):
    """Stages of the flow (``rules.py``)."""

    SETUP = 0   # Solo setup: choose the starting Shikigami
    START = 1   # start of turn: Start-of-turn abilities
    PLAY = 2    # play cards face down
    GUARD = 3   # guard step
    ATTACK = 4  # attack/spell step
    AFTER = 5   # after the battle: picks
    OVER = 6    # game over


STAGE_NAMES = ("solo setup", "start of turn", "play cards", "guard step", "attack/spell step",
               "after the battle", "game over")


class Decision(IntEnum):
    """The pending decision (what the seat to decide is asked)."""

    NONE = 0
    PICK = 1
    TAKE = 2
    START_MENU = 3
    PLAY = 4
    ACTION_MENU = 5
    EVOLVE = 6
    TARGET = 7


DECISION_NAMES = ("none", "pick a Yokai", "Shikigami or Equip", "start-of-turn abilities",
                  "play a card face down", "on your action", "evolve: choose Shikigami", "choose a target")


class Event(IntEnum):
    """What the seats see happen by itself (``Game.see``; the README's event table). Every one is
    public; a seat's own face-down card reaches it as its own decision, the other seat's as
    "played a card face down" (``view.public_action``) until the ``REVEAL``. Target references
    (``Target``) name who is hurt or healed: enemy slot 0/1, Onmyoji seat 0/1 as 2/3."""

    CHARACTER = FIRST_GAME_EVENT  # (seat, character): the Characters are seated
    BATTLE = FIRST_GAME_EVENT + 1  # (night, battle, first seat): a battle begins (night 4: the Final / Boss battle)
    YOKAI_OUT = FIRST_GAME_EVENT + 2  # (slot, yokai): a Yokai comes out of its pile (yokai 18: the Boss)
    REVEAL = FIRST_GAME_EVENT + 3  # (seat, card): the face-down cards are revealed
    DECK_SHUFFLE = FIRST_GAME_EVENT + 4  # (): Solo, the Yokai deck is shuffled
    DECK_FLIP = FIRST_GAME_EVENT + 5  # (slot, card): Solo, a Yokai deck card is placed before that Yokai
    YOKAI_ACTS = FIRST_GAME_EVENT + 6  # (slot, action index, acted): a Yokai's action (acted 0: stopped, rest, Guard)
    DAMAGE = FIRST_GAME_EVENT + 7  # (target, HP lost): damage after DEF
    HEAL = FIRST_GAME_EVENT + 8  # (target, HP gained)
    FALL = FIRST_GAME_EVENT + 9  # (target,): an enemy is defeated or an Onmyoji falls
    TURN = FIRST_GAME_EVENT + 10  # (turn, first seat): a turn begins (balanced variant: the Final's lead may change)
    GAME_OVER = FIRST_GAME_EVENT + 11  # (outcome,): 0 seat 0 wins, 1 seat 1 wins, 2 every seat loses, 3 a clear


#: Most arguments an event carries (BATTLE, YOKAI_ACTS).
EVENT_ARGS = 3


class Target(IntEnum):
    """Target references (also the order of the target actions): enemy slots 0 (left) and 1
    (right), then Onmyoji seats 0 and 1."""

    ENEMY_LEFT = 0
    ENEMY_RIGHT = 1
    PLAYER_0 = 2
    PLAYER_1 = 3


class TargetFor(TextEnum):
    """What a pending target choice is for."""

    CARD = "card"        # the played Attack or Spell card
    ABILITY = "ability"  # a Shikigami ability or an Equip effect


class TargetChoice(NamedTuple):
    """A pending target choice (``Decision.TARGET``)."""

    kind: TargetFor
    what: Ability | ActionCard   # the ability to apply, or the played card to resolve
    menu: Decision               # the decision that asked for it
    targets: list[int]           # the legal target references


class Equip(NamedTuple):
    """A Yokai taken as an Equip, and the edge it is equipped on."""

    yokai: int
    edge: EquipEdge


#: Solo Yokai deck card placed in front of the lone Yokai: none this turn.
DECK_NONE = -1


class Player:
    """One Onmyoji: Character side, HP, the three action cards and the Yokai taken."""

    __slots__ = ("act_first", "atk_up", "character", "def_spent", "equip_stats", "equips", "evolved",
                 "fallen", "guarding", "hand", "hp", "incoming", "played", "revealed", "shield", "shiki_uses",
                 "shikigami", "spl_up", "used", "used_this_turn", "weak")

    def __init__(self, character: int, hp: int) -> None:
        self.character = character
        self.evolved = False
        self.hp = hp
        self.fallen = False
        self.hand = [True, True, True]        # action cards in hand, by ActionCard
        self.used = [False, False, False]     # face up as Used
        self.played = -1                      # ActionCard played this turn (face down until revealed), -1 none
        self.revealed = False
        self.shikigami: list[int] = []        # Yokai ids, in the order taken
        self.shiki_uses: dict[int, int] = {}  # Yokai id -> uses this battle (per_battle) / this game (per_game)
        self.equips: list[Equip] = []
        self.equip_stats = NO_STATS           # summed always-on ATK, DEF, SPL of the Equips
        self.used_this_turn: set[int] = set()  # Shikigami and Equip abilities used this turn (Yokai ids)
        self.reset_turn()

    def reset_turn(self) -> None:
        self.guarding = False
        self.incoming: list[tuple[Verb, int]] = []  # Start-of-turn effects held until the reveal (R28)
        self.act_first = False
        self.atk_up = 0
        self.spl_up = 0
        self.shield = 0
        self.weak = 0
        self.def_spent = 0
        self.used_this_turn = set()

    def copy(self) -> Player:
        p = Player.__new__(Player)
        for name in Player.__slots__:
            setattr(p, name, getattr(self, name))
        p.hand = self.hand[:]
        p.used = self.used[:]
        p.shikigami = self.shikigami[:]
        p.shiki_uses = dict(self.shiki_uses)
        p.equips = self.equips[:]
        p.used_this_turn = set(self.used_this_turn)
        p.incoming = self.incoming[:]
        return p


class Enemy:
    """A Yokai (or the Boss) on the night road."""

    __slots__ = ("alive", "deck_card", "def_spent", "full_hp", "hp", "is_boss", "next_action", "stopped", "weak",
                 "yokai")

    def __init__(self, yokai: int, hp: int, is_boss: bool = False) -> None:
        self.yokai = yokai
        self.hp = hp
        self.full_hp = hp  # its HP when it came out: the card's, or the Co-op Boss's with its level's +N (R33)
        self.alive = True
        self.is_boss = is_boss
        self.next_action = 0      # index of the action it takes next: (1) = 0
        self.reset_turn()

    def reset_turn(self) -> None:
        self.deck_card = DECK_NONE  # Solo Yokai deck card (ActionCard) placed in front of it this turn
        self.stopped = False
        self.weak = 0
        self.def_spent = 0

    def copy(self) -> Enemy:
        e = Enemy.__new__(Enemy)
        for name in Enemy.__slots__:
            setattr(e, name, getattr(self, name))
        return e


#: Yokai cards in the game (the Boss is not one of them: its index is ``N_YOKAI``).
N_YOKAI = 18


class State:
    """Everything on the Onmyoji table, as plain data. The fields are listed in :meth:`__init__`;
    :meth:`copy` is the one place that knows which of them a copy must not share."""

    #: Fields fixed for a game (its options and card data, never changed in place): copies share them.
    FIXED: ClassVar[tuple[str, ...]] = ("pool", "cards", "mode", "book", "difficulty", "coop_level", "solo_level",
                                        "num_players", "fixed_characters")

    def __init__(self, pool: CardPool, mode: Mode, book: bool, difficulty: int,
                 fixed_characters: list[int] | None) -> None:
        """An empty table of a game with these options (``rules.setup`` deals it)."""
        self.pool = pool
        #: Yokai index -> its card, the Boss last (``card()`` is asked several times per step)
        self.cards: tuple[Yokai, ...] = (*pool.yokai, pool.boss)
        self.mode = mode
        #: The rulebook's game (``variant="book"``); False: the ``balanced`` variant. Each rule the
        #: variant changes reads this flag in one place.
        self.book = book
        self.difficulty = difficulty
        # The balanced variant's tables add its invented modifiers (R31, R33); the book's have none.
        coop, solo = (pool.coop, pool.solo) if book else (pool.coop_balanced, pool.solo_balanced)
        self.coop_level: CoopLevel = coop[difficulty]
        self.solo_level: SoloLevel = solo[difficulty]
        self.num_players = 1 if mode == Mode.SOLO else 2
        self.fixed_characters = fixed_characters  # Character indices by seat, None: drawn at setup
        n = N_YOKAI
        self.players: list[Player] = []
        self.enemies: list[Enemy | None] = [None, None]
        self.zone: list[Zone] = [Zone.PILE] * n        # where each Yokai is
        self.owner: list[int] = [-1] * n               # the seat holding it (Shikigami, Equip, under)
        self.stage = Stage.OVER
        self.decision = Decision.NONE
        self.decider = -1
        self.order: list[int] = []                     # seats of the current step, in order
        self.cursor = 0                                # index into ``order``
        self.night = 1
        self.battle = 1
        self.turn = 1
        self.first_seat = 0
        self.finisher = -1                             # seat that defeated the last Yokai of the battle
        self.final_duel = False
        self.final_opening_seat = -1                   # first player of the Duel Final's first turn (R30)
        self.boss_battle = False
        self.over = False
        self.pick_candidates: list[int] = []
        self.take_queue: list[int] = []
        self.taking = -1                               # Yokai being taken (Shikigami or Equip), -1 none
        self.target_ctx: TargetChoice | None = None
        self.evolve_sum = 0                            # Lv put under the Character so far
        self.piles: list[list[int]] = [[], [], [], []]  # per Lv, face-down draw order (hidden)
        self.yokai_deck: list[int] = []                # Solo Yokai deck, face-down order (hidden)
        self.final_returns = np.zeros(self.num_players)

    def copy(self) -> State:
        """An independent copy: changing either never changes the other. Fields not named here hold
        immutable values (ints, enums, tuples) or are :attr:`FIXED`."""
        new = object.__new__(State)
        d = self.__dict__.copy()
        d["players"] = [p.copy() for p in self.players]
        d["enemies"] = [e.copy() if e is not None else None for e in self.enemies]
        for key in ("zone", "owner", "order", "pick_candidates", "take_queue", "yokai_deck"):
            d[key] = d[key][:]
        d["piles"] = [pile[:] for pile in self.piles]
        d["final_returns"] = self.final_returns.copy()
        new.__dict__ = d
        return new

    # ------------------------------------------------------------------ card data
    def card(self, yokai: int) -> Yokai:
        return self.cards[yokai] if yokai >= 0 else self.pool.yokai[yokai]

    def side(self, p: Player) -> Side:
        """The Character side ``p`` plays (the back once evolved)."""
        c = self.pool.characters[p.character]
        return c.back if p.evolved else c.front


def phase_name(st: State) -> str:
    """The stage and the pending decision, readable (error messages, views)."""
    return f"{STAGE_NAMES[st.stage]}: {DECISION_NAMES[st.decision]}"
