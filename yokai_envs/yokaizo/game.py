"""YOKAIZO as a :class:`Game`: options and decks, wired to the state, rules, actions, observation
and view modules of this package."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.core.masks import mask_of
from yokai_envs.core.rng import copy_generator
from yokai_envs.yokaizo import rules, view
from yokai_envs.yokaizo.actions import describe_action, names_for, num_actions
from yokai_envs.yokaizo.cards import default_pool, ready_decks, resolve_deck
from yokai_envs.yokaizo.invariants import check_invariants
from yokai_envs.yokaizo.observation import known_placements, observer_for, placement_holds, resample_hidden
from yokai_envs.yokaizo.state import EVENT_ARGS, NO, Event, Table


class YokaizoGame(Table, Game):
    """Two-player YOKAIZO. Options: ``decks`` = ``"random"`` (two ready decks drawn each reset) or a
    pair ``(a, b)`` of ready-deck names, YAML deck paths or lists of card names; ``max_steps``."""

    env_id: ClassVar[str] = "yokaizo_v3"
    OPTIONS: ClassVar[dict[str, Any]] = {"decks": "random"}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{}, {"decks": ("Kitsune Blaze", "Kappa Tide")}]

    @classmethod
    def balance_axis(cls, options: dict[str, Any]) -> tuple[str, tuple[Any, ...], bool]:
        return "decks", tuple(ready_decks()), True
    def outcome_facts(self) -> dict[str, Any]:
        """How the game ended, for ``yokai balance``: ``end`` is an :class:`EndCause` (which card
        took the loser's Grave to 13 Souls, or a Round without Turns) or ``step cap``, and
        ``first_player`` the seat whose Yokai took the first Turn (absent if none was taken)."""
        facts: dict[str, Any] = {"end": super().outcome_facts()["end"] if self.end_cause is None
                                 else str(self.end_cause)}
        if self.first_turn != NO:
            facts["first_player"] = self.first_turn
        return facts

    DEFAULT_MAX_STEPS: ClassVar[int] = 6000
    EVENT_ARGS: ClassVar[int] = EVENT_ARGS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        pool = default_pool()
        self.pool = pool
        self.cards = pool.cards
        self.unseen = len(pool)
        self.ready = tuple(ready_decks().values())
        self.ready_names = tuple(ready_decks())
        decks = self.options["decks"]
        self.fixed_decks: tuple[tuple[int, ...], tuple[int, ...]] | None
        if decks == "random":
            self.fixed_decks = None
        elif isinstance(decks, (list, tuple)) and len(decks) == 2:
            self.fixed_decks = (resolve_deck(decks[0], pool), resolve_deck(decks[1], pool))
        else:
            raise ConfigError(f"{self.env_id}: option decks must be 'random' or a pair (a, b) of deck names, "
                              f"paths or card lists; got {decks!r}")
        self.num_actions = num_actions(pool)
        self.observer = observer_for(pool)
        self.observation_layout = self.observer.layout
        self.observation_size = self.observer.size
        self.state_size = self.observer.size + self.observer.private_size
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
        for p in (0, 1):  # decklists are public (RULES_NOTES R30): the ready deck, or one past them
            deck = self.deck_types[p]
            self.see(None, Event.DECKLIST, p, self.ready.index(deck) if deck in self.ready else len(self.ready))
        rules.deal(self, self.deck_types)

    # The rules list the pending decision's legal actions (ascending); the mask is built from
    # that list only when asked (step's check, observers), never in search rollouts.
    def _legal_mask(self) -> np.ndarray:
        assert self.pending is not None, "no pending decision"
        return mask_of(self.pending, self.num_actions)

    def _legal_actions(self) -> list[int]:
        assert self.pending is not None, "no pending decision"
        return self.pending[:]

    def legal_actions(self) -> list[int]:
        # Game.legal_actions with is_over and _legal_actions spelled out: search rollouts ask
        # this once per step, and the property and method calls were a few percent of a rules step
        if self.winner != NO or self.draw_game or self._cycles_capped or self.steps >= self.max_steps:
            return []
        pending = self.pending
        assert pending is not None, "no pending decision"
        return pending[:]  # a copy: clones share the pending list

    def _apply(self, action: int) -> None:
        # rules.choose spelled out (one call less on every step)
        self.stack[-1].choose(self, action)
        rules.advance(self)

    def returns(self) -> np.ndarray:
        if self.winner == NO:
            return np.zeros(2)
        out = np.full(2, -1.0)
        out[self.winner] = 1.0
        return out

    def observation(self, seat: int) -> np.ndarray:
        return self.observer.encode(self, seat)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.observer.bounds()

    def state_tensor(self) -> np.ndarray:
        return self.observer.encode(self, 0, omniscient=True)

    def action_name(self, action: int) -> str:
        return names_for(self.pool)[action]

    def describe_action(self, action: int) -> dict[str, Any]:
        return describe_action(self.pool, action)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return view.public_action_name(self, action, seat)

    def public_action(self, action: int, seat: int) -> int | None:
        return view.public_action(self, action, seat)

    def describe_event(self, event: tuple[int, ...], seat: int) -> str:
        return view.describe_event(self, event, seat)

    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        return known_placements(self, seat)

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        return placement_holds(self, placement)

    # ------------------------------------------------------------------ copies and hidden information
    def clone(self) -> YokaizoGame:
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for key in ("deck", "hand", "limbo", "grave", "burned", "void", "field"):
            d[key] = [list(d[key][0]), list(d[key][1])]
        for key in ("souls", "shields", "relics"):
            d[key] = [[list(x) for x in d[key][0]], [list(x) for x in d[key][1]]]
        for key in ("pub_hand", "pub_deck", "pub_burned", "deck_bound"):
            d[key] = [None if x is None else dict(x) for x in d[key]]
        for key in ("exile", "up", "blighted", "frozen", "facedown", "shown", "slowed", "turn_round", "enter_round",
                    "enter_tier", "known_top", "action_history"):
            d[key] = list(d[key])
        for key in ("_seen", "_seen_text"):
            if d[key] is not None:
                d[key] = [list(events) for events in d[key]]
        d["stack"] = [t.copy() for t in self.stack]
        d["rng"] = copy_generator(self.rng)
        new.__dict__ = d
        return new

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        resample_hidden(self, seat, rng)
        if self.pending is not None:  # the pending actions may name cards of the hand just dealt anew
            legal = self.stack[-1].run(self)
            if legal is None:
                rules.advance(self)
            else:
                self.pending = legal

    def deck_name(self, p: int) -> str:
        """Seat ``p``'s decklist as everyone knows it (decklists are public, RULES_NOTES R30)."""
        deck = self.deck_types[p]
        return self.ready_names[self.ready.index(deck)] if deck in self.ready else "a custom deck"

    # ------------------------------------------------------------------ checks and views
    def check_invariants(self) -> None:
        check_invariants(self)

    def render(self) -> str:
        return view.text(self, None)

    def render_for(self, seat: int) -> str:
        return view.text(self, seat)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return view.table_view(self, seat)
