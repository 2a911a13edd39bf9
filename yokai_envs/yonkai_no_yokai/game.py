"""Yonkai no Yokai as a Game: the contract, wired to the modules beside it (pure Python + numpy;
no gym imports).

The table is plain data (:class:`~yokai_envs.yonkai_no_yokai.state.State`, held as
``self.state``; the core's ``clone`` copies it with ``State.copy``); ``rules`` changes it,
``moves`` holds the move tables, ``actions`` names the action table, ``observation`` encodes
what a seat sees, ``view`` draws it. The state's fields are also readable and writable as
attributes of the game (``game.hands``, ``game.hand_sizes``, ``game.cubes``, ...), as the
beliefs and tests use them; the rules never go through the game.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.core.information import Event
from yokai_envs.core.masks import mask_of
from yokai_envs.core.protocols import core_event_text
from yokai_envs.yonkai_no_yokai import ENV_ID, observation, rules, view
from yokai_envs.yonkai_no_yokai.actions import NUM_ACTIONS, action_name, describe_action
from yokai_envs.yonkai_no_yokai.moves import move_tables
from yokai_envs.yonkai_no_yokai.state import (
    COPIES_PER_VALUE,
    EVENT_ARGS,
    REWARD_MODES,
    STARTING_CUBES,
    Direction,
    Phase,
    Setup,
    State,
    YonkaiEvent,
)
from yokai_envs.yonkai_no_yokai.view import cards_text, direction_name


def _on_state(name: str) -> Any:
    """A game attribute that is the state's field ``name`` (read and written through)."""
    return property(attrgetter(f"state.{name}"), lambda game, value: setattr(game.state, name, value))


class YonkaiGame(Game):
    env_id = ENV_ID
    OPTIONS: ClassVar[dict[str, Any]] = {"num_players": 4, "reward": "win", "rounds_per_game": None}
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{"num_players": 3}, {"num_players": 4}]
    DEFAULT_MAX_STEPS = 5_000
    EVENT_ARGS = EVENT_ARGS
    STATE_LISTS_LEGAL_ACTIONS = True

    # The state's fields, as attributes of the game (see state.State for their meaning).
    hands: np.ndarray = _on_state("hands")
    hand_sizes: list[int] = _on_state("hand_sizes")
    cubes: list[int] = _on_state("cubes")
    button_available: list[bool] = _on_state("button_available")
    passed: list[bool] = _on_state("passed")
    played: np.ndarray = _on_state("played")
    played_by: np.ndarray = _on_state("played_by")
    passed_on: np.ndarray = _on_state("passed_on")
    direction: Direction = _on_state("direction")
    last_count: int = _on_state("last_count")
    last_value: int = _on_state("last_value")
    last_player: int = _on_state("last_player")
    to_act: int = _on_state("to_act")
    rounds_completed: int = _on_state("rounds_completed")
    winners: list[int] = _on_state("winners")
    terminal: bool = _on_state("terminal")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.options["num_players"]
        if n not in COPIES_PER_VALUE:
            raise ConfigError(f"{self.env_id}: num_players must be 3 or 4, got {n!r}")
        if self.options["reward"] not in REWARD_MODES:
            raise ConfigError(f"{self.env_id}: reward must be one of {REWARD_MODES}, got {self.options['reward']!r}")
        cap = self.options["rounds_per_game"]
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
            raise ConfigError(f"{self.env_id}: rounds_per_game must be None or a positive int, got {cap!r}")
        self.setup = Setup(num_players=n, copies=COPIES_PER_VALUE[n], rewards_lives=self.options["reward"] == "lives",
                           rounds_per_game=cap)
        self.num_actions = NUM_ACTIONS
        self.observation_layout = observation.observation_layout(n)
        self.observer = observation.Observer(self.setup)
        self.observation_size = self.observer.size
        self.state_size = self.observer.state_size
        self.state = State(self.setup, move_tables())

    # ------------------------------------------------------------------ options
    @property
    def copies(self) -> int:
        """Copies of each value in the deck (8 with 3 players, 10 with 4)."""
        return self.setup.copies

    @property
    def rewards_lives(self) -> bool:
        return self.setup.rewards_lives

    @property
    def rounds_per_game(self) -> int | None:
        return self.setup.rounds_per_game

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return self.setup.num_players

    @property
    def current_player(self) -> int:
        return -1 if self.state.terminal or self.is_truncated else self.state.to_act

    @property
    def is_terminal(self) -> bool:
        return self.state.terminal

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def phase_name(self) -> str:
        return self.state.phase.value

    def returns(self) -> np.ndarray:
        return self.state.returns

    def utility_bounds(self) -> tuple[float, float]:
        # "lives": minus the cubes lost, at most all of them; "win": +1 or -1 at the end
        return (-float(STARTING_CUBES), 0.0) if self.options["reward"] == "lives" else (-1.0, 1.0)

    def _reset(self) -> None:
        self.state = State(self.setup, self.state.tables)
        rules.start_game(self.state, self.rules_context())

    # The rules list the pending decision's legal actions in state.pending, which the core's
    # legal_actions reads; the mask is built from that list only when asked.
    def _legal_mask(self) -> np.ndarray:
        pending = self.state.pending
        assert pending is not None, "no pending decision"
        return mask_of(pending, NUM_ACTIONS)

    def _apply(self, action: int) -> None:
        rules.apply(self.state, self._ctx or self.rules_context(), action)

    def invalidate_mask(self) -> None:
        """Forget what was derived from the state, after an edit by hand: the core's cached mask
        and context, and the state's listed legal actions (listed anew from the edited state)."""
        super().invalidate_mask()
        rules.list_pending(self.state)

    # ------------------------------------------------------------------ views
    def observation(self, seat: int) -> np.ndarray:
        return self.observer.observe(self.state, seat, self.is_over)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return observation.bounds(self.setup.num_players)

    def state_tensor(self) -> np.ndarray:
        return self.observer.state_tensor(self.state, self.is_over)

    def action_name(self, action: int) -> str:
        return action_name(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return describe_action(action)

    def render(self) -> str:
        return view.render(self.state, seat=None)

    def render_for(self, seat: int) -> str:
        return view.render(self.state, seat=seat)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return view.table_view(self.state, seat)

    def action_words(self, action: int) -> tuple[str, str]:
        return view.action_words(self.state, action)

    def end_words(self) -> dict[str, str]:
        return view.end_words(self.state)

    def public_action(self, action: int, seat: int) -> int | None:
        return action  # every play and pass is made face up

    def public_action_name(self, action: int, seat: int) -> str | None:
        return view.move_name(self.state, action)  # every play and pass is made face up

    def describe_event(self, event: Event, seat: int) -> str:
        kind, *args = event
        if kind == YonkaiEvent.ROUND_STARTED:
            return f"round {args[0]} dealt; player {args[1]} leads"
        if kind == YonkaiEvent.DEALT:
            return f"your hand: {cards_text(np.array(args))}"
        if kind == YonkaiEvent.DIRECTION:
            return f"the Direction card shows {direction_name(Direction(args[0]))}"
        if kind == YonkaiEvent.TRICK_ENDED:
            return f"all but player {args[0]} passed: the trick is cleared, player {args[0]} leads"
        if kind == YonkaiEvent.ROUND_ENDED:
            return f"player {args[0]} emptied their hand: the round ends"
        if kind == YonkaiEvent.CUBES_LOST:
            return f"player {args[0]} loses {args[1]} Life cube{'s' if args[1] != 1 else ''}"
        if kind == YonkaiEvent.GAME_ENDED:
            return "the game ends"
        return core_event_text(event)

    def ends_multi_part_choice(self, action: int) -> bool:
        return False  # every decision is a whole play (or a pass): nothing to confirm

    # ------------------------------------------------------------------ search support
    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        """What ``seat`` knows of the hidden hands: the union of the others' hands by value
        (the deck, less its own hand and the cards played this round) and every hand's size."""
        state = self.state
        others = np.delete(np.arange(state.num_players), seat)
        return [("hidden union", seat, *state.hands[others].sum(axis=0).tolist()),
                *(("hand size", s, state.hand_sizes[s]) for s in others.tolist())]

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        state = self.state
        if placement[0] == "hidden union":
            others = np.delete(np.arange(state.num_players), placement[1])
            return bool(state.hands[others].sum(axis=0).tolist() == list(placement[2:]))
        if placement[0] == "hand size":
            return bool(int(state.hands[placement[1]].sum()) == placement[2] == state.hand_sizes[placement[1]])
        raise ValueError(f"{self.env_id}: no placement {placement!r}")

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        rules.resample_hidden(self.state, seat, rng)

    def check_invariants(self) -> None:
        rules.check_invariants(self.state)
