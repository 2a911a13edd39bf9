"""``YYHGame``: the Yu Yu Hakusho TCG behind the Game contract (2 players).

Options: ``decks=(a, b)`` — each a starter-deck name (see ``decks.starter_decks()``), a deck
file path, a ``{card name: copies}`` mapping, or ``"random"`` (a starter deck drawn with the
game's rng at each reset); ``cards`` — an alternative card file (default: the bundled pool).
Rewards: +1 for winning the game, -1 for losing, 0 each for a drawn or truncated game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.yyh_tcg.actions import ActionTable
from yokai_envs.yyh_tcg.cards import load_pool
from yokai_envs.yyh_tcg.decks import resolve_deck, starter_decks
from yokai_envs.yyh_tcg.effects import PASSIVE_VERBS
from yokai_envs.yyh_tcg.encoding import Encoder
from yokai_envs.yyh_tcg.engine import SETUP_PICKS, Engine
from yokai_envs.yyh_tcg.view import public_action_name, table_view

_TABLES: dict[int, tuple[ActionTable, Encoder, dict[str, list[int]]]] = {}


class YYHGame(Engine, Game):
    env_id = "yyh_tcg_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"decks": ("random", "random"), "cards": None}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [
        {}, {"decks": ("Urameshi Detectives", "Toguro Brothers")}]
    DEFAULT_MAX_STEPS = 3000

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.pool = load_pool(self.options["cards"])
        key = id(self.pool)
        if key not in _TABLES:
            passive = {verb: [card.passive_value(verb) for card in self.pool.cards] for verb in PASSIVE_VERBS}
            _TABLES[key] = (ActionTable(self.pool), Encoder(self.pool), passive)
        self.table, self.encoder, self.passive = _TABLES[key]
        self.ability_timing = [c.ability.timing if c.ability else None for c in self.pool.cards]
        self.ability_cost = [c.ability.spirit if c.ability else 0 for c in self.pool.cards]
        decks = self.options["decks"]
        if not isinstance(decks, (tuple, list)) or len(decks) != 2:
            raise ConfigError(f"{self.env_id}: option decks must be a pair (deck for seat 0, deck for seat 1), "
                              f"got {decks!r}")
        self._deck_specs = [None if d == "random" else resolve_deck(d, self.pool) for d in decks]
        # "random" draws among the starter decks (resolved only when needed: a custom card file
        # may not hold their cards)
        self._starters = ([resolve_deck(name, self.pool) for name in starter_decks()]
                          if None in self._deck_specs else [])
        self.num_actions = self.table.size
        self.observation_layout = self.encoder.layout
        self.observation_size = self.encoder.size
        self.state_size = 2 * self.encoder.size
        self.players = []
        self.winner = None
        self.phase = "over"
        self.decider = -1

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return -1 if self.winner is not None else self.decider

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def phase_name(self) -> str:
        return self.phase

    def _reset(self) -> None:
        decks = []
        for spec in self._deck_specs:
            decks.append(spec if spec is not None else self._starters[int(self.rng.integers(len(self._starters)))])
        self.original_decks = [sorted(ids) for _, ids in decks]
        self.new_game(decks)

    def _legal_mask(self) -> np.ndarray:
        return self.pending_mask

    def _apply(self, action: int) -> None:
        self.act(action)

    def observation(self, seat: int) -> np.ndarray:
        return self.encoder.observe(self, seat)

    def state_tensor(self) -> np.ndarray:
        return np.concatenate([self.observation(0), self.observation(1)])

    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self.winner is not None and self.winner >= 0:
            out[self.winner] = 1.0
            out[1 - self.winner] = -1.0
        return out

    def action_name(self, action: int) -> str:
        return self.table.name(action)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return public_action_name(self, action, seat)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return table_view(self, seat)

    def clone(self) -> YYHGame:
        new = YYHGame.__new__(YYHGame)
        new.__dict__.update(self.__dict__)
        new.rng = np.random.Generator(np.random.PCG64())
        new.rng.bit_generator.state = self.rng.bit_generator.state
        new.action_history = self.action_history[:]
        new.copy_state_from(self)
        return new

    # ------------------------------------------------------------------ hidden information
    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """Own deck order; the opponent's hand, deck, face-down attachments and unrevealed picks."""
        me, opp = self.players[seat], self.players[1 - seat]
        # Sorting first makes the sample a function of the seat's information and rng only,
        # never of the real hidden order (ISMCTS must decide the same in either world).
        me.deck.sort()
        rng.shuffle(me.deck)
        cards = self.pool.cards
        hidden_slots = [] if self.revealed else opp.slots()
        face_down = [a for s in opp.slots() for a in s.attached if not a.face_up]
        hidden_hand = opp.hand[:]
        for cid in opp.revealed:  # revealed cards stay where the seat saw them go
            hidden_hand.remove(cid)
        unknown = sorted(hidden_hand + opp.deck + [s.char for s in hidden_slots] + [a.card for a in face_down])
        rng.shuffle(unknown)
        # Constrained places first: unrevealed picks are characters, face-down cards are attachables.
        for slot in hidden_slots:
            i = next(i for i, c in enumerate(unknown) if cards[c].is_character)
            slot.char = unknown.pop(i)
        for att in face_down:
            i = next(i for i, c in enumerate(unknown) if cards[c].type in ("technique", "item"))
            att.card = unknown.pop(i)
        n_hidden = len(hidden_hand)
        opp.hand = opp.revealed + unknown[:n_hidden]
        opp.deck = unknown[n_hidden:]
        # No Team Bonus refresh here: before the reveal nobody's bonus is computed (the reveal does it).
        self.pending_mask = self.legal() if self.winner is None else self.pending_mask

    # ------------------------------------------------------------------ checks and text
    def check_invariants(self) -> None:
        if not self.players:
            return
        for seat, p in enumerate(self.players):
            owned = sorted(p.all_cards())
            assert owned == sorted(self._original_deck(seat)), f"seat {seat}: cards appeared or vanished"
            assert 0 <= p.spirit <= 10, f"seat {seat}: spirit {p.spirit}"
            assert 0 <= p.wins <= 3
            assert len(p.sideline) <= 4
            assert p.wins == len(p.won)
            hand = list(p.hand)
            for cid in p.revealed:
                assert cid in hand, f"seat {seat}: revealed card {cid} is not in the hand"
                hand.remove(cid)
            if p.fighter is not None:
                assert 0 <= p.fighter.damage < 4
                assert all(a.face_up for a in p.fighter.attached), "face-down card on the fighter"
            if self.revealed and self.winner is None:
                assert p.fighter is not None
        if self.winner is None:
            assert self.pending_mask.any(), "no legal action while the game is running"
            if not self.revealed:
                assert self.phase == "setup"
                assert len(self.players[self.decider].slots()) < SETUP_PICKS

    def _original_deck(self, seat: int) -> list[int]:
        return self.original_decks[seat]

    def render(self) -> str:
        return self._text(None)

    def render_for(self, seat: int) -> str:
        return self._text(seat)

    def _text(self, viewer: int | None) -> str:
        cards = self.pool.cards
        lines = [f"{self.env_id} turn {self.turn_number} phase {self.phase} "
                 f"(turn player {self.turn_player}, deciding {self.current_player})"]
        for seat, p in enumerate(self.players):
            sees_all = viewer is None or viewer == seat
            bonus = (p.bonus_team or "-") if (sees_all or self.revealed) else "?"
            lines.append(f"seat {seat} [{p.deck_name}] wins {p.wins} spirit {p.spirit} deck {len(p.deck)} "
                         f"hand {len(p.hand)} bonus {bonus}")
            if sees_all:
                lines.append("  hand: " + ", ".join(cards[c].name for c in sorted(p.hand)))
            if not self.revealed and not sees_all:
                lines.append(f"  {len(p.slots())} face-down character(s) chosen")
                continue
            for label, slot in [("Arena", p.fighter)] + [(f"line {i + 1}", s) for i, s in enumerate(p.sideline)]:
                if slot is None:
                    continue
                atts = [cards[a.card].name if (a.face_up or sees_all) else "face-down card" for a in slot.attached]
                atts = [f"{n}{'' if a.face_up else ' (down)'}" for n, a in zip(atts, slot.attached)]
                extra = f" damage {slot.damage}" if label == "Arena" else ""
                lines.append(f"  {label}: {cards[slot.char].name}{extra} [{', '.join(atts)}]")
            lines.append(f"  discard: {len(p.discard)}  won: {[cards[c].name for c in p.won]} "
                         f"lost: {[cards[c].name for c in p.lost]}")
        if self.winner is not None:
            lines.append("drawn game" if self.winner < 0 else f"winner: seat {self.winner}")
        return "\n".join(lines)
