"""YOKAIZO as a :class:`Game`: options, decks, the decision loop, views, determinize and invariants."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.yokaizo.cards import ELEMENTS, default_pool, ready_decks, resolve_deck
from yokai_envs.yokaizo.encoding import action_names, encoder_for
from yokai_envs.yokaizo.flow import NextTurn, Reveal, SetupPick
from yokai_envs.yokaizo.table import (
    A_CARD,
    CARDS_PER_SEAT,
    HAND_SIZE,
    MAX_SOULS,
    NO,
    VOID_SLOTS,
    Table,
)

_NAMES: dict[int, list[str]] = {}


class YokaizoGame(Table, Game):
    """Two-player YOKAIZO. Options: ``decks`` = ``"random"`` (two ready decks drawn each reset) or a
    pair ``(a, b)`` of ready-deck names, YAML deck paths or lists of card names; ``max_steps``."""

    env_id: ClassVar[str] = "yokaizo_v0"
    OPTIONS: ClassVar[dict[str, Any]] = {"decks": "random"}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{}, {"decks": ("Kitsune Blaze", "Kappa Tide")}]
    DEFAULT_MAX_STEPS: ClassVar[int] = 6000

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        pool = default_pool()
        self.pool = pool
        self.cards = pool.cards
        decks = self.options["decks"]
        if decks == "random":
            self.fixed_decks = None
            self.ready = tuple(ready_decks().values())
        elif isinstance(decks, (list, tuple)) and len(decks) == 2:
            self.fixed_decks = (resolve_deck(decks[0], pool), resolve_deck(decks[1], pool))
        else:
            raise ConfigError(f"yokaizo_v0: option decks must be 'random' or a pair (a, b) of deck names, "
                              f"paths or card lists; got {decks!r}")
        self.num_actions = A_CARD + len(pool)
        self.encoder = encoder_for(pool)
        self.observation_layout = self.encoder.layout
        self.observation_size = self.encoder.size
        self.state_size = self.encoder.size + self.encoder.private_size
        self.deck_types: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.reset(None)

    # ------------------------------------------------------------------ Game hooks
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return NO if self.is_terminal else self.decider

    @property
    def is_terminal(self) -> bool:
        return self.winner != NO or self.draw_game

    @property
    def phase_name(self) -> str:
        if self.is_terminal:
            return "game over"
        return self.stack[-1].phase

    def _reset(self) -> None:
        if self.fixed_decks is not None:
            self.deck_types = self.fixed_decks
        else:
            a, b = self.rng.integers(len(self.ready), size=2)
            self.deck_types = (self.ready[a], self.ready[b])
        self.new_table(self.deck_types)
        for p in (0, 1):
            self.draw(p, HAND_SIZE)
        self.stack = [NextTurn(), Reveal(), SetupPick(1, 1), SetupPick(1, 0), SetupPick(0, 1), SetupPick(0, 0)]
        self._advance()

    def _advance(self) -> None:
        stack = self.stack
        while self.winner == NO and not self.draw_game:
            m = stack[-1].run(self)
            if m is not None:
                self.pending = m
                return
        self.pending = None

    def _legal_mask(self) -> np.ndarray:
        return self.pending

    def _apply(self, action: int) -> None:
        self.stack[-1].choose(self, action)
        self._advance()

    def returns(self) -> np.ndarray:
        if self.winner == NO:
            return np.zeros(2)
        out = np.full(2, -1.0)
        out[self.winner] = 1.0
        return out

    def observation(self, seat: int) -> np.ndarray:
        return self.encoder.encode(self, seat)

    def state_tensor(self) -> np.ndarray:
        return self.encoder.encode(self, 0, omniscient=True)

    def action_name(self, action: int) -> str:
        names = _NAMES.get(id(self.pool))
        if names is None:
            names = _NAMES[id(self.pool)] = action_names(self.pool)
        return names[action]

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        from yokai_envs.yokaizo.view import table_view
        return table_view(self, seat)

    def public_action_name(self, action: int, seat: int) -> str | None:
        """How ``seat`` sees the pending ``action``: card names chosen into hidden places (setup picks,
        face-down Souls, Shine into hand, unburning into hand) are not shown to the other seat."""
        name = self.action_name(action)
        if seat == self.current_player or self.is_terminal:
            return name
        task = self.stack[-1]
        if action >= A_CARD:
            from yokai_envs.yokaizo.damage import Damage
            from yokai_envs.yokaizo.effects import Pick
            if isinstance(task, SetupPick):
                return "choose a Field Yokai face-down"
            if isinstance(task, Damage):
                return "place a face-down Soul from hand"
            if isinstance(task, Pick) and (task.verb == "shine" or (task.verb == "unburn"
                                                                     and task.params["to"] == "hand")):
                return f"{task.verb}: take a card into hand"
        return name.replace("my ", "their ").replace("enemy ", "your ")

    # ------------------------------------------------------------------ copies and hidden information
    def clone(self) -> YokaizoGame:
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for key in ("deck", "hand", "limbo", "grave", "burned", "void", "field"):
            d[key] = [list(d[key][0]), list(d[key][1])]
        for key in ("souls", "shields", "relics"):
            d[key] = [[list(x) for x in d[key][0]], [list(x) for x in d[key][1]]]
        for key in ("exile", "up", "blighted", "frozen", "facedown", "slowed", "turn_round", "enter_round",
                    "enter_tier", "known_top", "action_history"):
            d[key] = list(d[key])
        d["stack"] = [t.copy() for t in self.stack]
        bit = type(self.rng.bit_generator)()
        bit.state = self.rng.bit_generator.state
        d["rng"] = np.random.Generator(bit)
        new.__dict__ = d
        return new

    def _hidden_places(self, seat: int) -> list[tuple[list[int], int]]:
        """Positions (zone list, index) holding cards of the opponent that ``seat`` cannot see."""
        opp = 1 - seat
        places: list[tuple[list[int], int]] = []
        places += [(self.hand[opp], i) for i in range(len(self.hand[opp]))]
        deck = self.deck[opp]
        top_known = self.known_top[opp] != NO
        places += [(deck, i) for i in range(len(deck) - (1 if top_known else 0))]
        places += [(self.burned[opp], i) for i in range(len(self.burned[opp]))]
        for s in (0, 1):
            souls = self.souls[opp][s]
            places += [(souls, i) for i in range(len(souls)) if not self.up[souls[i]]]
            places += [(self.shields[opp][s], i) for i in range(len(self.shields[opp][s]))]
        void = self.void[opp]
        places += [(void, i) for i in range(len(void)) if self.facedown[void[i]]]
        if self.hidden_setup:
            places += [(self.field[opp], s) for s in (0, 1) if self.field[opp][s] != NO]
        return places

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        places = self._hidden_places(seat)
        if places:
            # sorted first: the sample depends only on what the seat knows, not the real order
            cards = sorted(zone[i] for zone, i in places)
            flags = [(self.blighted[zone[i]], self.frozen[zone[i]], self.facedown[zone[i]]) for zone, i in places]
            order = rng.permutation(len(cards))
            for (zone, i), k, (bl, fr, fd) in zip(places, order, flags):
                c = cards[k]
                zone[i] = c
                self.blighted[c], self.frozen[c], self.facedown[c] = bl, fr, fd
        own = self.deck[seat]
        n = len(own) - (1 if self.known_top[seat] != NO else 0)
        if n > 1:
            head = sorted(own[:n])
            rng.shuffle(head)
            own[:n] = head

    # ------------------------------------------------------------------ checks and text
    def check_invariants(self) -> None:
        seen: list[int] = []
        for p in (0, 1):
            seen += self.deck[p] + self.hand[p] + self.limbo[p] + self.grave[p] + self.burned[p] + self.void[p]
            seen += [y for y in self.field[p] if y != NO]
            for s in (0, 1):
                seen += self.souls[p][s] + self.shields[p][s] + self.relics[p][s]
                assert len(self.souls[p][s]) <= MAX_SOULS, "too many Souls on a Yokai"
                if self.field[p][s] == NO:
                    assert not self.souls[p][s] and not self.shields[p][s] and not self.relics[p][s], \
                        "attachments on an empty Field slot"
            assert len(self.void[p]) <= VOID_SLOTS, "Void over 6 slots"
            for c in self.void[p]:
                assert not self.up[c] and not self.blighted[c]
        seen += self.exile
        assert sorted(seen) == list(range(2 * CARDS_PER_SEAT)), "a card is missing or in two zones"
        souls = {c for p in (0, 1) for s in (0, 1) for c in self.souls[p][s]}
        voids = {c for p in (0, 1) for c in self.void[p]}
        for c in range(2 * CARDS_PER_SEAT):
            if self.up[c] or self.blighted[c]:
                assert c in souls, "a Soul rotation outside the Soul zone"
            if self.frozen[c] or self.facedown[c]:
                assert c in voids, "a Void rotation outside the Void"
        if self.is_terminal:
            assert self.pending is None
        else:
            assert self.pending is not None and self.pending.any(), "no legal action while the game runs"
        for p in (0, 1):
            assert self.grave_souls(p) >= 0

    def _card(self, c: int) -> str:
        card = self.cards[self.ctype[c]]
        return f"{card.name}[{ELEMENTS[card.element][0:2]} S{card.speed} {card.souls}♦]"

    def _seat_text(self, p: int, viewer: int | None) -> list[str]:
        see = viewer is None or viewer == p
        lines = [f"Seat {p}: Grave {self.grave_souls(p)}/13 souls, hand {len(self.hand[p])}, "
                 f"deck {len(self.deck[p])}, limbo {len(self.limbo[p])}, burned {len(self.burned[p])}"]
        for s in (0, 1):
            y = self.field[p][s]
            if y == NO:
                lines.append(f"  Field {s}: (empty)")
                continue
            if self.hidden_setup and not see:
                lines.append(f"  Field {s}: (face-down)")
                continue
            souls = " ".join(
                (self._card(c) if (self.up[c] or see) else "??") + ("^" if self.up[c] else "v")
                + ("B" if self.blighted[c] else "") for c in self.souls[p][s])
            lines.append(f"  Field {s}: {self._card(y)} speed {self.field_speed(p, s)}"
                         f"{' SLOWED' if self.slowed[y] else ''} | souls [{souls}] "
                         f"shields {len(self.shields[p][s])} relics {len(self.relics[p][s])}")
        void = ", ".join(("??" if (self.facedown[c] and not see) else self._card(c))
                         + ("(frozen)" if self.frozen[c] else "") + ("(token)" if self.facedown[c] else "")
                         for c in self.void[p])
        lines.append(f"  Void: {void}")
        if see:
            lines.append("  Hand: " + ", ".join(self._card(c) for c in self.hand[p]))
        return lines

    def _text(self, viewer: int | None) -> str:
        head = f"YOKAIZO round {self.round} tier {'-' if self.tier >= 99 else self.tier}"
        if self.is_terminal:
            head += f" - over, winner {self.winner if self.winner != NO else 'none (draw)'}"
        else:
            head += f" - seat {self.decider} to decide: {self.phase_name}"
        return "\n".join([head, *self._seat_text(0, viewer), *self._seat_text(1, viewer)])

    def render(self) -> str:
        return self._text(None)

    def render_for(self, seat: int) -> str:
        return self._text(seat)
