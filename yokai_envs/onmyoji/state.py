"""Mutable table state of Onmyoji: the Onmyoji (players), the enemies on the night road, the zones.

Plain ``__slots__`` classes with explicit ``copy()`` so that ``Game.clone`` stays cheap.
"""

from __future__ import annotations

ATTACK, GUARD, SPELL = 0, 1, 2
CARD_NAMES = ("Attack", "Guard", "Spell")

# Where each Yokai card is (one zone per card; the invariant check relies on it).
PILE, IN_PLAY, DEFEATED, SHIKIGAMI, EQUIP, UNDER, GONE = range(7)
ZONE_NAMES = ("pile", "in play", "defeated", "shikigami", "equip", "under character", "out of game")

# Stages of the flow (game.py).
S_SETUP, S_START, S_PLAY, S_GUARD, S_ATTACK, S_AFTER, S_OVER = range(7)
STAGE_NAMES = ("solo setup", "start of turn", "play cards", "guard step", "attack/spell step",
               "after the battle", "game over")

# Solo Yokai deck cards placed in front of the lone Yokai.
DECK_NONE = -1


class Player:
    """One Onmyoji: Character side, HP, the three action cards and the Yokai taken."""

    __slots__ = ("act_first", "atk_up", "character", "def_spent", "equip_stats", "equips", "evolved",
                 "fallen", "guarding", "hand", "hp", "played", "revealed", "shield", "shiki_uses",
                 "shikigami", "spl_up", "used", "used_this_turn", "weak")

    def __init__(self, character: int, hp: int) -> None:
        self.character = character
        self.evolved = False
        self.hp = hp
        self.fallen = False
        self.hand = [True, True, True]        # action cards in hand
        self.used = [False, False, False]     # face up as Used
        self.played = -1                      # card played this turn (face down until revealed)
        self.revealed = False
        self.shikigami: list[int] = []        # Yokai ids, in the order taken
        self.shiki_uses: dict[int, int] = {}  # Yokai id -> uses this battle (per_battle) / this game (per_game)
        self.equips: list[tuple[int, int]] = []  # (Yokai id, edge)
        self.equip_stats = [0, 0, 0]          # summed always-on ATK, DEF, SPL of the Equips
        self.used_this_turn: set[int] = set()  # Shikigami and Equip abilities used this turn (Yokai ids)
        self.reset_turn()

    def reset_turn(self) -> None:
        self.guarding = False
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
        p.equip_stats = self.equip_stats[:]
        p.used_this_turn = set(self.used_this_turn)
        return p


class Enemy:
    """A Yokai (or the Boss) on the night road."""

    __slots__ = ("alive", "deck_card", "def_spent", "hp", "is_boss", "next_action", "stopped", "weak", "yokai")

    def __init__(self, yokai: int, hp: int, is_boss: bool = False) -> None:
        self.yokai = yokai
        self.hp = hp
        self.alive = True
        self.is_boss = is_boss
        self.next_action = 0      # index of the action it takes next: (1) = 0
        self.reset_turn()

    def reset_turn(self) -> None:
        self.deck_card = DECK_NONE  # Solo Yokai deck card placed in front of it this turn
        self.stopped = False
        self.weak = 0
        self.def_spent = 0

    def copy(self) -> Enemy:
        e = Enemy.__new__(Enemy)
        for name in Enemy.__slots__:
            setattr(e, name, getattr(self, name))
        return e
