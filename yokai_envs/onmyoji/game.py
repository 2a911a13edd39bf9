"""Onmyoji: three nights -- the Game contract (Solo, Duel and Co-op), and only that.

The game holds the table as plain data (:class:`~yokai_envs.onmyoji.state.State`, ``self.state``;
the core's ``clone`` copies it with ``State.copy``) and wires the modules together: the flow of
the rulebook is in ``rules.py``, what each decision allows and does in ``decisions.py``, how much
damage or healing happens in ``effects.py`` (all functions over ``(state, ctx)``), the action
table in ``actions.py``, the observation and state tensors and the hidden-information sampling in
``observation.py``, the text and table views in ``view.py`` and the state invariants in
``invariants.py``.

The state's fields are also readable and writable as attributes of the game (``game.players``,
``game.first_seat``, ...) for tests, scenario builders and tools; the rules, views and the
heuristic read the state itself.
"""

from __future__ import annotations

from operator import attrgetter
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.core.information import FIRST_GAME_EVENT
from yokai_envs.core.information import Event as Seen
from yokai_envs.core.layout import layout_size
from yokai_envs.core.masks import mask_of
from yokai_envs.core.protocols import core_event_text
from yokai_envs.onmyoji import ENV_ID, actions, invariants, observation, rules, view
from yokai_envs.onmyoji.cards import CardPool, load_pool
from yokai_envs.onmyoji.decisions import ACTIONS, APPLY
from yokai_envs.onmyoji.state import EVENT_ARGS, MODES, Mode, State, phase_name


class OnmyojiGame(Game):
    env_id = ENV_ID
    OPTIONS: ClassVar[dict[str, Any]] = {"mode": "duel", "difficulty": 1, "characters": None, "variant": "book"}
    VARIANTS: ClassVar[dict[str, str]] = {
        "balanced": "the Duel Final led turn by turn by the Onmyoji with less HP (R30); Co-op Boss actions at "
                    "the first/second player hit the one with less HP (R32); Start-of-turn damage hits a "
                    "player who then Guards (R28); invented modifiers: Co-op Boss HP +N (R33), Solo Night "
                    "damage +N (R31)",
    }
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [
        {"mode": "solo"}, {"mode": "duel"}, {"mode": "coop"}, {"mode": "solo", "difficulty": 10},
        {"mode": "coop", "difficulty": 10},
    ]
    DEFAULT_MAX_STEPS = 5_000
    EVENT_ARGS = EVENT_ARGS

    @classmethod
    def balance_axis(cls, options: dict[str, Any]) -> tuple[str, tuple[Any, ...], bool]:
        """Duel: every pair of Characters in both seats; Solo and Co-op: the ten difficulty levels."""
        if options.get("mode", cls.OPTIONS["mode"]) == "duel":
            return "characters", tuple(c.name for c in load_pool().characters), True
        return "difficulty", tuple(range(1, 11)), False

    def outcome_facts(self) -> dict[str, Any]:
        """How the game ended, for ``yokai balance``. Duel: ``a fall in the nights``, ``a fall in
        the Final``, ``the Final's turn cap`` (higher HP wins) or ``step cap``; when the Final was
        reached, ``final_first``, the seat that led its first turn, and ``final_last_first``, the
        seat that led its last turn (the same in the book's game; in variant "balanced" the lead
        can change from turn to turn, R30)."""
        st = self.state
        facts: dict[str, Any] = {"end": "step cap" if self.is_truncated else "end"}
        if st.mode != Mode.DUEL or self.is_truncated:
            return facts
        if st.final_duel:
            facts["final_first"] = st.final_opening_seat
            facts["final_last_first"] = st.first_seat
            fell = any(p.fallen or p.hp <= 0 for p in st.players)
            facts["end"] = "a fall in the Final" if fell else "the Final's turn cap"
        else:
            facts["end"] = "a fall in the nights"
        return facts

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        pool = load_pool()
        mode = self.options["mode"]
        if mode not in MODES:
            raise ConfigError(f"{ENV_ID}: option mode must be one of {MODES}, got {mode!r}")
        difficulty = self.options["difficulty"]
        if not isinstance(difficulty, int) or isinstance(difficulty, bool) or not 1 <= difficulty <= 10:
            raise ConfigError(f"{ENV_ID}: option difficulty must be an int 1..10, got {difficulty!r}")
        num_players = 1 if mode == Mode.SOLO else 2
        fixed_characters = self._parse_characters(pool, num_players, self.options["characters"])
        self.state = State(pool, Mode(mode), self.options["variant"] == "book", difficulty, fixed_characters)
        self.yokai_names = tuple(y.name for y in pool.yokai)
        self.num_actions = actions.NUM_ACTIONS
        self.observation_layout = observation.observation_layout(num_players)
        self.observation_size = layout_size(self.observation_layout)
        self.state_size = observation.state_size(num_players)

    @staticmethod
    def _parse_characters(pool: CardPool, num_players: int, chars: Any) -> list[int] | None:
        if chars is None:
            return None
        if isinstance(chars, str):
            chars = [chars]
        if not isinstance(chars, (list, tuple)) or len(chars) != num_players:
            raise ConfigError(f"{ENV_ID}: option characters must list {num_players} Character name(s), "
                              f"got {chars!r}")
        idx = [pool.character_index(c) for c in chars]
        if len(set(idx)) != len(idx):
            raise ConfigError(f"{ENV_ID}: option characters names the same Character twice: {chars!r}")
        return idx

    # ------------------------------------------------------------------ contract
    @property
    def cooperative(self) -> bool:
        return self.state.mode == Mode.COOP

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def current_player(self) -> int:
        st = self.state
        return -1 if st.over else st.decider

    @property
    def is_terminal(self) -> bool:
        return self.state.over

    @property
    def phase_name(self) -> str:
        return phase_name(self.state)

    def returns(self) -> np.ndarray:
        return self.state.final_returns.copy()

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0  # general sum in every mode: a Duel where both fall is two losses

    def action_name(self, action: int) -> str:
        return actions.action_name(action, self.yokai_names)

    def describe_action(self, action: int) -> dict[str, Any]:
        return actions.describe_action(action, self.yokai_names)

    def _reset(self) -> None:
        st = self.state
        self.state = State(st.pool, st.mode, st.book, st.difficulty, st.fixed_characters)
        rules.setup(self.state, self.rules_context())

    def _legal_mask(self) -> np.ndarray:
        st = self.state
        return mask_of(ACTIONS[st.decision](st, st.decider), actions.NUM_ACTIONS)

    def _legal_actions(self) -> list[int]:
        # the pending decision's rule, called directly: search loops ask this at every step
        st = self.state
        return ACTIONS[st.decision](st, st.decider)

    def _apply(self, action: int) -> None:
        st = self.state
        # the rule of the pending decision, called directly (then the flow runs to the next one)
        APPLY[st.decision](st, self._ctx or self.rules_context(), st.decider, action)

    # ------------------------------------------------------------------ observation and hidden information
    def observation(self, seat: int) -> np.ndarray:
        return observation.encode(self.state, seat)

    def state_tensor(self) -> np.ndarray:
        return observation.state_tensor(self.state)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return observation.observation_bounds(self.observation_layout)

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        observation.resample_hidden(self.state, seat, rng)

    # ------------------------------------------------------------------ views
    def render(self) -> str:
        return view.render(self, None)

    def render_for(self, seat: int) -> str:
        return view.render(self, seat)

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return view.table_view(self, seat)

    def action_words(self, action: int) -> tuple[str, str]:
        return view.action_words(self, action)

    def end_words(self) -> dict[str, str]:
        return view.end_words(self)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return view.public_action_name(self, action, seat)

    def public_action(self, action: int, seat: int) -> int | None:
        return view.public_action(self, action, seat)

    def describe_event(self, event: Seen, seat: int) -> str:
        if event[0] < FIRST_GAME_EVENT:
            return core_event_text(event)
        return view.describe_event(self, event, seat)

    # ------------------------------------------------------------------ what a seat knows of hidden places
    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        return observation.known_placements(self.state, seat)

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        return observation.placement_holds(self.state, placement)

    def check_invariants(self) -> None:
        invariants.check_invariants(self.state)


def _on_state(name: str) -> Any:
    """A game attribute that is the state's field ``name`` (read and written through)."""
    return property(attrgetter(f"state.{name}"), lambda game, value: setattr(game.state, name, value))


# The state's fields and queries as attributes of the game, for tests, views and tools (the rules
# take the state itself). An empty State lists its fields; a stand-in pool spares parsing the card
# file at import.
_NO_POOL: Any = SimpleNamespace(yokai=(), boss=None, coop={1: None}, solo={1: None})
for _name in [*State(_NO_POOL, Mode.DUEL, True, 1, None).__dict__,
              *(k for k, v in vars(State).items() if callable(v) and k[0] != "_")]:
    if _name != "copy" and not hasattr(OnmyojiGame, _name):
        setattr(OnmyojiGame, _name, _on_state(_name))
