"""YOKAIZO as a :class:`Game`: the contract only. It holds the table as plain data
(:class:`~yokai_envs.yokaizo.state.State`, ``self.state``) and wires it to the rules, actions,
observation and view modules of this package; the core's ``clone`` copies it (``State.copy``).

The state's fields are also readable and writable as attributes of the game (``game.field``,
``game.hand``, ``game.round``, ...) for tests, scenario builders, views and tools; the rules
never go through the game."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.context import Context
from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game, win_loss_returns
from yokai_envs.core.masks import mask_of
from yokai_envs.core.memo import seat_memos
from yokai_envs.yokaizo import ENV_ID, rules, view
from yokai_envs.yokaizo.actions import describe_action, names_for, num_actions
from yokai_envs.yokaizo.cards import default_pool, ready_decks, resolve_deck
from yokai_envs.yokaizo.invariants import check_invariants
from yokai_envs.yokaizo.observation import SeatMemo, known_placements, observer_for, placement_holds, resample_hidden
from yokai_envs.yokaizo.state import EVENT_ARGS, NO, Event, State


def _on_state(name: str) -> Any:
    """A game attribute that is the state's field ``name`` (read and written through)."""
    return property(attrgetter(f"state.{name}"), lambda game, value: setattr(game.state, name, value))


class YokaizoGame(Game):
    """Two-player YOKAIZO. Options: ``decks`` = ``"random"`` (two ready decks drawn each reset) or a
    pair ``(a, b)`` of ready-deck names, YAML deck paths or lists of card names; ``max_steps``."""

    env_id: ClassVar[str] = ENV_ID
    OPTIONS: ClassVar[dict[str, Any]] = {"decks": "random"}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{}, {"decks": ("Kitsune Blaze", "Kappa Tide")}]

    @classmethod
    def balance_axis(cls, options: dict[str, Any]) -> tuple[str, tuple[Any, ...], bool]:
        return "decks", tuple(ready_decks()), True
    def outcome_facts(self) -> dict[str, Any]:
        """How the game ended, for ``yokai balance``: ``end`` is an :class:`EndCause` (which card
        took the loser's Grave to 13 Souls, or a Round without Turns) or ``step cap``, and
        ``first_player`` the seat whose Yokai took the first Turn (absent if none was taken)."""
        st = self.state
        facts: dict[str, Any] = {"end": ("step cap" if self.is_truncated else "end") if st.end_cause is None
                                 else str(st.end_cause)}
        if st.first_turn != NO:
            facts["first_player"] = st.first_turn
        return facts

    DEFAULT_MAX_STEPS: ClassVar[int] = 6000
    STATE_LISTS_LEGAL_ACTIONS: ClassVar[bool] = True
    EVENT_ARGS: ClassVar[int] = EVENT_ARGS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        pool = default_pool()
        self.pool = pool
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
        self.state = State(pool.cards, ((), ()))
        self.reset(None)

    # ------------------------------------------------------------------ Game hooks
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        st = self.state
        return NO if st.winner != NO or st.draw_game else st.decider

    @property
    def is_terminal(self) -> bool:
        st = self.state
        return st.winner != NO or st.draw_game

    @property
    def phase_name(self) -> str:
        if self.is_terminal:
            return "game over"
        return self.state.stack[-1].phase

    def _reset(self) -> None:
        if self.fixed_decks is not None:
            deck_types = self.fixed_decks
        else:
            a, b = self.rng.integers(len(self.ready), size=2)
            deck_types = (self.ready[a], self.ready[b])
        for p in (0, 1):  # decklists are public (RULES_NOTES R30): the ready deck, or one past them
            deck = deck_types[p]
            self.see(None, Event.DECKLIST, p, self.ready.index(deck) if deck in self.ready else len(self.ready))
        self.state = State(self.pool.cards, deck_types)
        rules.deal(self.state, self.rules_context())

    # The rules list the pending decision's legal actions (ascending, in state.pending, which
    # legal_actions reads); the mask is built from that list only when asked (step's check,
    # observers), never in search rollouts.
    def _legal_mask(self) -> np.ndarray:
        pending = self.state.pending
        assert pending is not None, "no pending decision"
        return mask_of(pending, self.num_actions)

    def _apply(self, action: int) -> None:
        st = self.state
        ctx = self._ctx or self.rules_context()
        st.stack[-1].choose(st, ctx, action)  # the rule that applies; then the stack resolves on
        rules.advance(st, ctx)

    def returns(self) -> np.ndarray:
        return win_loss_returns(self.state.winner)  # NO, no winner yet, is negative

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0

    @property
    def zero_sum(self) -> bool:
        return True  # a win and a loss, or nothing for both

    def observation(self, seat: int) -> np.ndarray:
        return self.observer.encode(self.state, seat, memos=seat_memos(self, self.observer, SeatMemo))

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.observer.bounds()

    def state_tensor(self) -> np.ndarray:
        return self.observer.encode(self.state, 0, omniscient=True)

    def action_name(self, action: int) -> str:
        return names_for(self.pool)[action]

    def describe_action(self, action: int) -> dict[str, Any]:
        return describe_action(self.pool, action)

    def action_words(self, action: int) -> tuple[str, str]:
        return view.action_words(self, action)

    def end_words(self) -> dict[str, str]:
        return view.end_words(self)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return view.public_action_name(self, action, seat)

    def public_action(self, action: int, seat: int) -> int | None:
        return view.public_action(self, action, seat)

    def describe_event(self, event: tuple[int, ...], seat: int) -> str:
        return view.describe_event(self, event, seat)

    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        return known_placements(self.state, seat)

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        return placement_holds(self.state, placement)

    # ------------------------------------------------------------------ hidden information
    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        st = self.state
        resample_hidden(st, seat, rng)
        if st.pending is not None:  # the pending actions may name cards of the hand just dealt anew
            # a context of its own, not kept: the caller may hand the world a generator next
            ctx = Context(self.rng, self._seen, self._seen_text)
            legal = st.stack[-1].run(st, ctx)
            if legal is None:
                rules.advance(st, ctx)
            else:
                st.pending = legal

    def deck_name(self, p: int) -> str:
        """Seat ``p``'s decklist as everyone knows it (decklists are public, RULES_NOTES R30)."""
        deck = self.state.deck_types[p]
        return self.ready_names[self.ready.index(deck)] if deck in self.ready else "a custom deck"

    # ------------------------------------------------------------------ checks and views
    def check_invariants(self) -> None:
        check_invariants(self.state)

    def render(self) -> str:
        return view.text(self, None)

    def render_for(self, seat: int) -> str:
        return view.text(self, seat)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return view.table_view(self, seat)


# The state's fields and queries as attributes of the game (State.__init__ lists the fields). The
# rules never use these: they take the state itself.
for _name in [*State((), ((), ())).__dict__, *(k for k, v in vars(State).items() if callable(v) and k[0] != "_")]:
    if _name != "copy" and not hasattr(YokaizoGame, _name):
        setattr(YokaizoGame, _name, _on_state(_name))
