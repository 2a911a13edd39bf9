"""``YYHGame``: the Yu Yu Hakusho TCG behind the Game contract (2 players).

Options: ``decks=(a, b)`` — each a starter-deck name (see ``decks.starter_decks()``), a deck
file path, a ``{card name: copies}`` mapping, or ``"random"`` (a starter deck drawn with the
game's rng at each reset); ``cards`` — an alternative card file (default: the bundled pool);
``variant`` — ``"book"`` (default) plays the rulebook's rules, ``"balanced"`` changes one for
balance (``VARIANTS``; RULES_NOTES ruling 3).
Rewards: +1 for winning the game, -1 for losing, 0 each for a drawn or truncated game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import Game
from yokai_envs.core.information import Event
from yokai_envs.core.rng import copy_generator
from yokai_envs.yyh_tcg import ENV_ID, hidden
from yokai_envs.yyh_tcg.actions import ActionTable, describe_action
from yokai_envs.yyh_tcg.cards import CardType, Timing, load_pool
from yokai_envs.yyh_tcg.decisions import NO_EVENT, Decisions
from yokai_envs.yyh_tcg.decks import resolve_deck, starter_decks
from yokai_envs.yyh_tcg.effects import passive_tables
from yokai_envs.yyh_tcg.observation import Observer, state_tensor
from yokai_envs.yyh_tcg.rules import WINS_NEEDED
from yokai_envs.yyh_tcg.state import EVENT_ARGS, Phase
from yokai_envs.yyh_tcg.view import describe_event, public_action, public_action_name, render_text, table_view

#: Per card pool (by id): its action table, observer and passive values, built once.
_TABLES: dict[int, tuple[ActionTable, Observer, dict[str, list[int]]]] = {}


class YYHGame(Decisions, Game):
    """The Game contract over the rules (``Decisions`` -> ``Rules`` -> ``TableState``)."""

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

    def outcome_facts(self) -> dict[str, Any]:
        """How the game ended and who took the first turn, for ``yokai balance``. Endings:
        ``three match wins``; ``deck out`` (a player had to draw from an empty deck);
        ``deck out, no fighter`` (the same while an Arena stood empty, waiting for a 5th
        character: the rulebook has no no-fighter ending, ruling 21, so this is how a game
        that ran out of fighters ends); ``step cap``."""
        facts: dict[str, Any] = {"end": "step cap" if self.is_truncated else "end", "first_player": self.first_player}
        if self.winner is not None and self.winner >= 0:
            if self.players[self.winner].wins >= WINS_NEEDED:
                facts["end"] = "three match wins"
            elif any(p.fighter is None for p in self.players):
                facts["end"] = "deck out, no fighter"
            else:
                facts["end"] = "deck out"
        return facts

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.pool = load_pool(self.options["cards"])
        self.first_turn_attacks = self.options["variant"] == "book"
        key = id(self.pool)
        if key not in _TABLES:
            _TABLES[key] = (ActionTable(self.pool), Observer(self.pool), passive_tables(self.pool.cards))
        self.table, self.observer, self.passive = _TABLES[key]
        self.ability_timing = [c.ability.timing if c.ability else None for c in self.pool.cards]
        self.ability_cost = [c.ability.spirit if c.ability else 0 for c in self.pool.cards]
        # timing -> per card id, the Spirit to play it as an Event of that timing (else more than
        # any Spirit): whether a hidden card could be played now is one min over these
        self.ability_spirit_at = {timing: [c.ability.spirit if c.ability and c.ability.timing == timing else NO_EVENT
                                           for c in self.pool.cards] for timing in Timing}
        self.event_spirit = {timing: [c.spirit if c.type == CardType.EVENT and c.timing == timing else NO_EVENT
                                      for c in self.pool.cards] for timing in Timing}
        self.events_by_cost = {timing: sorted((spirit, cid) for cid, spirit in enumerate(costs) if spirit != NO_EVENT)
                               for timing, costs in self.event_spirit.items()}
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
        self.players = []
        self.winner = None
        self.phase = Phase.OVER
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
        return self.phase.value

    def _reset(self) -> None:
        decks = []
        self.deck_index = []
        for spec, index in zip(self._deck_specs, self._spec_index):
            if spec is None:
                index = int(self.rng.integers(len(self._starters)))
                spec = self._starters[index]
            decks.append(spec)
            self.deck_index.append(index)
        self.original_decks = [sorted(ids) for _, ids in decks]
        self.new_game(decks)

    def _legal_mask(self) -> np.ndarray:
        return self.pending_mask

    def _legal_actions(self) -> list[int]:
        return self.pending_actions[:]

    @property
    def is_over(self) -> bool:
        # Game.is_over with is_terminal spelled out: a rollout asks it at every step
        return self.winner is not None or self._cycles_capped or self.steps >= self.max_steps

    def legal_actions(self) -> list[int]:
        # Game.legal_actions with is_over and _legal_actions spelled out: search rollouts ask
        # this once per step
        if self.winner is not None or self._cycles_capped or self.steps >= self.max_steps:
            return []
        return self.pending_actions[:]

    #: an action is the pending decision's (``Decisions.act``), bound directly: no call between
    _apply = Decisions.act

    def observation(self, seat: int) -> np.ndarray:
        return self.observer.observe(self, seat)

    def state_tensor(self) -> np.ndarray:
        return state_tensor(self.observer, self)

    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self.winner is not None and self.winner >= 0:
            out[self.winner] = 1.0
            out[1 - self.winner] = -1.0
        return out

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0

    @property
    def zero_sum(self) -> bool:
        return True  # a win and a loss, or nothing for both

    def action_name(self, action: int) -> str:
        return self.table.name(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return describe_action(self.table, action)

    def public_action_name(self, action: int, seat: int) -> str | None:
        return public_action_name(self, action, seat)

    def public_action(self, action: int, seat: int) -> int | None:
        return public_action(self, action, seat)

    def describe_event(self, event: Event, seat: int) -> str:
        return describe_event(self, event, seat)

    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        """The opponent's shown cards (each still in its hand or face-down) and both decklists."""
        facts: list[tuple[Any, ...]] = []
        if not self.players:
            return facts
        opp = 1 - seat
        for cid in sorted(set(self.players[opp].shown)):
            facts.append(("hidden_holds", opp, cid, self.players[opp].shown.count(cid)))
        for s in (seat, opp):
            facts.append(("decklist", s, tuple(self.original_decks[s])))
        return facts

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        kind, seat = placement[0], placement[1]
        p = self.players[seat]
        if kind == "hidden_holds":
            return p.hidden_cards().count(placement[2]) >= placement[3]
        if kind == "decklist":
            return tuple(sorted(p.all_cards())) == placement[2]
        raise ValueError(f"unknown placement {placement!r}")

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        return table_view(self, seat)

    def render(self) -> str:
        return render_text(self, None)

    def render_for(self, seat: int) -> str:
        return render_text(self, seat)

    def clone(self) -> YYHGame:
        new = YYHGame.__new__(YYHGame)
        new.__dict__.update(self.__dict__)
        new.rng = copy_generator(self.rng)
        new.action_history = self.action_history[:]
        if self._seen is not None:  # what each seat saw, when recording (lists of tuples)
            new._seen = [events[:] for events in self._seen]
            new._seen_text = [texts[:] for texts in self._seen_text or []]
        new.copy_state_from(self)
        return new

    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """Own deck order; the opponent's hand, deck, face-down attachments and unrevealed picks."""
        hidden.resample_hidden(self, seat, rng)
        if self.winner is None:
            self.pending_actions = self.legal_actions_now()

    def check_invariants(self) -> None:
        self.check_table()
