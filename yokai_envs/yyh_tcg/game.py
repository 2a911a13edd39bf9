"""``YYHGame``: the Yu Yu Hakusho TCG behind the Game contract (2 players).

Options: ``decks=(a, b)`` — each a starter-deck name (see ``decks.starter_decks()``), a deck
file path, a ``{card name: copies}`` mapping, or ``"random"`` (a starter deck drawn with the
game's rng at each reset); ``cards`` — an alternative card file (default: the bundled pool);
``variant`` — ``"book"`` (default) plays the rulebook's rules, ``"balanced"`` changes one for
balance (``VARIANTS``; RULES_NOTES ruling 3).
Rewards: +1 for winning the game, -1 for losing, 0 each for a drawn or truncated game.

The game is the contract only: it holds the table as plain data
(:class:`~yokai_envs.yyh_tcg.state.State`, ``self.state``), which the core's ``clone`` copies
(``State.copy``), and hands it to the rules (``decisions``, ``rules``, ``moves``, ``effects``:
functions over ``(state, ctx)``). The state's fields are also readable and writable as
attributes of the game (``game.players``, ``game.phase``, ...) for tests, scenario builders
and tools; the rules, views and the heuristic read the state itself.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game, win_loss_returns
from yokai_envs.core.information import Event
from yokai_envs.core.masks import mask_of
from yokai_envs.core.memo import seat_memos
from yokai_envs.yyh_tcg import ENV_ID, decisions, hidden
from yokai_envs.yyh_tcg.actions import describe_action
from yokai_envs.yyh_tcg.cards import load_pool
from yokai_envs.yyh_tcg.decisions import act
from yokai_envs.yyh_tcg.decks import resolve_deck, starter_decks
from yokai_envs.yyh_tcg.invariants import check_invariants
from yokai_envs.yyh_tcg.observation import Observer
from yokai_envs.yyh_tcg.state import EVENT_ARGS, WINS_NEEDED, State
from yokai_envs.yyh_tcg.view import (
    action_words,
    describe_event,
    end_words,
    public_action,
    public_action_name,
    render_text,
    table_view,
)

#: Per card pool (by id): its observer, built once.
_OBSERVERS: dict[int, Observer] = {}


def _on_state(name: str) -> Any:
    """A game attribute that is the state's field ``name`` (read and written through)."""
    return property(attrgetter(f"state.{name}"), lambda game, value: setattr(game.state, name, value))


class YYHGame(Game):
    """The Game contract over the table (``self.state``) and the rules functions."""

    env_id = ENV_ID
    OPTIONS: ClassVar[dict[str, Any]] = {"decks": ("random", "random"), "cards": None, "variant": "book"}
    VARIANTS: ClassVar[dict[str, str]] = {
        "balanced": "the game's first turn has no Attack step (the book skips only its draw), "
                    "which takes the first player from 0.55-0.57 of heuristic games to 0.46-0.47 (BALANCE.md)"}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [
        {}, {"decks": ("Urameshi Detectives", "Toguro Brothers")}]

    @classmethod
    def balance_axis(cls, options: dict[str, Any]) -> tuple[str, tuple[Any, ...], bool]:
        return "decks", tuple(starter_decks()), True

    DEFAULT_MAX_STEPS = 3000
    EVENT_ARGS = EVENT_ARGS
    STATE_LISTS_LEGAL_ACTIONS: ClassVar[bool] = True

    def outcome_facts(self) -> dict[str, Any]:
        """How the game ended and who took the first turn, for ``yokai balance``. Endings:
        ``three match wins``; ``deck out`` (a player had to draw from an empty deck);
        ``deck out, no fighter`` (the same while an Arena stood empty, waiting for a 5th
        character: the rulebook has no no-fighter ending, ruling 21, so this is how a game
        that ran out of fighters ends); ``step cap``."""
        st = self.state
        facts: dict[str, Any] = {"end": "step cap" if self.is_truncated else "end", "first_player": st.first_player}
        if st.winner is not None and st.winner >= 0:
            if st.players[st.winner].wins >= WINS_NEEDED:
                facts["end"] = "three match wins"
            elif any(p.fighter is None for p in st.players):
                facts["end"] = "deck out, no fighter"
            else:
                facts["end"] = "deck out"
        return facts

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.pool = load_pool(self.options["cards"])
        tables = decisions.tables_for(self.pool)
        self.table = tables.table
        key = id(self.pool)
        if key not in _OBSERVERS or _OBSERVERS[key].pool is not self.pool:
            _OBSERVERS[key] = Observer(self.pool)
        self.observer = _OBSERVERS[key]
        decks = self.options["decks"]
        if not isinstance(decks, (tuple, list)) or len(decks) != 2:
            raise ConfigError(f"{self.env_id}: option decks must be a pair (deck for seat 0, deck for seat 1), "
                              f"got {decks!r}")
        self._deck_specs = [None if d == "random" else resolve_deck(d, self.pool) for d in decks]
        # "random" draws among the starter decks (resolved only when needed: a custom card file
        # may not hold their cards)
        self._starters = ([resolve_deck(name, self.pool) for name in starter_decks()]
                          if None in self._deck_specs else [])
        starter_names = list(starter_decks())
        self._spec_index = [-1 if spec is None or spec[0] not in starter_names else starter_names.index(spec[0])
                            for spec in self._deck_specs]
        self.num_actions = self.table.size
        self.observation_layout = self.observer.layout
        self.observation_size = self.observer.size
        self.state_size = 2 * self.observer.size
        self.state = State(tables, self.options["variant"] == "book")

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        st = self.state
        return -1 if st.winner is not None else st.decider

    @property
    def is_terminal(self) -> bool:
        return self.state.winner is not None

    @property
    def phase_name(self) -> str:
        return self.state.phase.value

    def _reset(self) -> None:
        decks = []
        deck_index = []
        for spec, index in zip(self._deck_specs, self._spec_index):
            if spec is None:
                index = int(self.rng.integers(len(self._starters)))
                spec = self._starters[index]
            decks.append(spec)
            deck_index.append(index)
        self.state = State(self.state.tables, self.options["variant"] == "book", [sorted(ids) for _, ids in decks],
                           deck_index)
        decisions.new_game(self.state, self.rules_context(), decks)

    # The rules list the pending decision's legal actions (ascending, in state.pending, which
    # legal_actions reads); the mask is built from that list only when asked (step's check,
    # observers), never in search rollouts.
    def _legal_mask(self) -> np.ndarray:
        pending = self.state.pending
        assert pending is not None, "no pending decision"
        return mask_of(pending, self.num_actions)

    def _apply(self, action: int) -> None:
        act(self.state, self._ctx or self.rules_context(), action)  # the rule that applies

    def observation(self, seat: int) -> np.ndarray:
        observer = self.observer
        return observer.observe(self.state, seat, seat_memos(self, observer, observer.new_memo))

    def state_tensor(self) -> np.ndarray:
        """The full state: both seats' observations, seat 0 first."""
        return np.concatenate([self.observation(0), self.observation(1)])

    def returns(self) -> np.ndarray:
        return win_loss_returns(self.state.winner)

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0

    @property
    def zero_sum(self) -> bool:
        return True  # a win and a loss, or nothing for both

    def action_name(self, action: int) -> str:
        return self.table.name(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return describe_action(self.table, action)

    def action_words(self, action: int) -> tuple[str, str]:
        return action_words(self, action)

    def end_words(self) -> dict[str, str]:
        return end_words(self)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return public_action_name(self, action, seat)

    def public_action(self, action: int, seat: int) -> int | None:
        return public_action(self, action, seat)

    def describe_event(self, event: Event, seat: int) -> str:
        return describe_event(self, event, seat)

    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        """The opponent's shown cards (each still in its hand or face-down) and both decklists."""
        return hidden.known_placements(self.state, seat)

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        return hidden.placement_holds(self.state, placement)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return table_view(self, seat)

    def render(self) -> str:
        return render_text(self, None)

    def render_for(self, seat: int) -> str:
        return render_text(self, seat)

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """Own deck order; the opponent's hand, deck, face-down attachments and unrevealed picks."""
        st = self.state
        hidden.resample_hidden(st, seat, rng)
        if st.winner is None:  # the pending actions may name cards of the hand just dealt anew
            st.pending = decisions.legal_actions_now(st)

    def check_invariants(self) -> None:
        check_invariants(self.state)


# The state's fields as attributes of the game. The rules never use these: they take the state
# itself.
for _name in State.__slots__:
    if not hasattr(YYHGame, _name):
        setattr(YYHGame, _name, _on_state(_name))
