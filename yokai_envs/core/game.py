"""The Game contract: the one protocol every rules engine implements.

Everything else in the package (the PettingZoo env, the gymnasium wrapper, bots, the arena,
tests and benchmarks) is written once against this class. A game subclasses :class:`Game`
and fills in the abstract hooks; the public methods here add what every game shares:
seeding, the step counter and hard step cap, the illegal-action check that leaves the state
untouched, the cached legal-action mask, the action history a replay is rebuilt from, and
``determinize`` (clone, re-seed future chance, resample what the seat cannot see).

Rules modules never import gymnasium or pettingzoo; this module does not either.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.errors import ConfigError, IllegalActionError


def win_credits(returns: np.ndarray | list[float], cooperative: bool = False) -> np.ndarray:
    """Per-seat win credit from final returns; see :meth:`Game.win_credits`."""
    values = np.asarray(returns, dtype=np.float64)
    if cooperative or values.size == 1:
        return np.where(values > 0, 1.0, np.where(values < 0, 0.0, 0.5))
    top = values == values.max()
    return top / top.sum()


class Game(ABC):
    """Base class of every rules engine.

    Subclasses set the class attributes, call ``super().__init__(**options)`` and implement
    the abstract methods. Seats are ``0..num_players-1``; actions are ``0..num_actions-1``.
    """

    #: Versioned env id, e.g. ``"yonkai_no_yokai_v0"``. Bump the version on any change to the rules,
    #: observations, masks or rewards (replays and checkpoints name the id they were made with);
    #: not on a refactor. Each bump, or the lack of one, is recorded in CHANGELOG.md.
    env_id: ClassVar[str]
    #: Option name -> default value. ``make`` rejects any option not named here.
    OPTIONS: ClassVar[dict[str, Any]] = {}
    #: Option sets the conformance suite runs (e.g. each player count, each mode).
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{}]
    #: Default hard step cap (option ``max_steps`` overrides it).
    DEFAULT_MAX_STEPS: ClassVar[int] = 10_000

    #: Fixed size of the action table.
    num_actions: int
    #: Name -> slice of the observation vector (fixed for an instance).
    observation_layout: dict[str, slice]
    #: Length of ``observation(seat)``.
    observation_size: int
    #: Length of ``state_tensor()``.
    state_size: int

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.OPTIONS) - {"max_steps"})
        if unknown:
            valid = ", ".join(sorted([*self.OPTIONS, "max_steps"]))
            raise ConfigError(f"{self.env_id}: unknown option(s) {', '.join(unknown)}; valid options: {valid}")
        merged = {**self.OPTIONS, **options}
        max_steps = merged.pop("max_steps", None)
        if max_steps is None:
            max_steps = self.DEFAULT_MAX_STEPS
        if not isinstance(max_steps, int) or max_steps <= 0:
            raise ConfigError(f"{self.env_id}: option max_steps must be a positive int, got {max_steps!r}")
        self.options: dict[str, Any] = merged
        self.max_steps: int = max_steps
        self.seed: int | None = None
        self.rng: np.random.Generator = np.random.default_rng()
        self.steps: int = 0
        self.action_history: list[int] = []
        self._mask_cache: np.ndarray | None = None

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None) -> None:
        """Start a new game; the same seed and the same actions give the same game."""
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.steps = 0
        self.action_history = []
        self._mask_cache = None
        self._reset()

    def step(self, action: int) -> None:
        """Apply ``action`` for ``current_player``.

        Raises :class:`IllegalActionError` (and changes nothing) when the action is out of
        range, masked out, or the game is over.
        """
        seat = self.current_player
        if self.is_terminal or self.is_truncated:
            raise IllegalActionError(action, seat, "game over", reason="the game has ended; call reset()")
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(action, seat, self.phase_name, reason="not an integer action") from None
        if a != action or not 0 <= a < self.num_actions:
            raise IllegalActionError(action, seat, self.phase_name,
                                     reason=f"actions are integers 0..{self.num_actions - 1}")
        if not self.legal_action_mask()[a]:
            raise IllegalActionError(a, seat, self.phase_name, self.action_name(a), reason="masked out")
        self._mask_cache = None
        self._apply(a)
        self.steps += 1
        self.action_history.append(a)

    def legal_action_mask(self) -> np.ndarray:
        """Boolean mask over ``num_actions`` for ``current_player`` (read-only, cached).

        All False once the game is over.
        """
        mask = self._mask_cache
        if mask is None:
            if self.is_terminal or self.is_truncated:
                mask = np.zeros(self.num_actions, dtype=bool)
            else:
                mask = self._legal_mask()
            mask.flags.writeable = False
            self._mask_cache = mask
        return mask

    @property
    def is_truncated(self) -> bool:
        """True when the hard step cap ended an unfinished game."""
        return self.steps >= self.max_steps and not self.is_terminal

    @property
    def is_over(self) -> bool:
        return self.is_terminal or self.is_truncated

    def invalidate_mask(self) -> None:
        """Forget the cached legal-action mask. Rules code never needs this (``step`` does it);
        tests and scenario builders that edit the state directly call it afterwards."""
        self._mask_cache = None

    # ------------------------------------------------------------------ facts about the game
    @property
    def cooperative(self) -> bool:
        """True when all seats form one team: they share one return, one policy, and there are
        no opponents to rate against. Games with a team mode override this."""
        return False

    def win_credits(self, returns: np.ndarray | None = None) -> np.ndarray:
        """Per-seat win credit of a finished game (``returns`` defaults to ``self.returns()``).

        Competitively the highest return wins: 1 for a sole winner, 1/k each when k seats share
        the top (all n seats level is a draw, 1/n each). Alone, or on one team, there is nobody
        to beat: a positive return is a win (a clear), zero half, negative nothing. The arena,
        the training env and evaluation all count wins with this one rule.
        """
        return win_credits(self.returns() if returns is None else returns, self.cooperative)

    def clone(self) -> Game:
        """An independent copy: stepping either never changes the other."""
        return copy.deepcopy(self)

    def determinize(self, seat: int, rng: np.random.Generator) -> Game:
        """A full state consistent with everything ``seat`` has observed.

        Unseen cards are reshuffled among the places they could be; future chance is re-seeded
        from ``rng`` so the sample cannot reveal the real deck order either.
        """
        world = self.clone()
        world.rng = np.random.default_rng(int(rng.integers(2**63)))
        world._mask_cache = None
        world._resample_hidden(seat, rng)
        return world

    def replay(self, seed: int | None, actions: list[int]) -> None:
        """Rebuild a game from its seed and action list (the event log)."""
        self.reset(seed)
        for a in actions:
            self.step(a)

    # ------------------------------------------------------------------ to implement
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat that must decide next (-1 when the game is over)."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @property
    @abstractmethod
    def phase_name(self) -> str:
        """Human-readable name of the pending decision (used in error messages)."""

    @abstractmethod
    def _reset(self) -> None:
        """Deal and set up using ``self.rng``."""

    @abstractmethod
    def _legal_mask(self) -> np.ndarray:
        """A fresh boolean mask for the pending decision (the game is not over)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action."""

    @abstractmethod
    def observation(self, seat: int) -> np.ndarray:
        """float32 vector of length ``observation_size``: a function of ``seat``'s information only."""

    @abstractmethod
    def state_tensor(self) -> np.ndarray:
        """float32 vector of length ``state_size``: the full state (for critics and oracles)."""

    @abstractmethod
    def returns(self) -> np.ndarray:
        """Per-seat rewards accumulated so far (float64, length ``num_players``).

        The env hands out the change since the last step, so games with intermediate
        rewards only need to keep a running total.
        """

    @abstractmethod
    def action_name(self, action: int) -> str: ...

    @abstractmethod
    def render(self) -> str:
        """Omniscient text view of the table."""

    @abstractmethod
    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """In place: reshuffle everything ``seat`` cannot see, keeping everything it knows."""

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) float32 arrays bounding every observation entry; default [0, 1]."""
        return (np.zeros(self.observation_size, dtype=np.float32),
                np.ones(self.observation_size, dtype=np.float32))

    def check_invariants(self) -> None:
        """Raise AssertionError when the state breaks a rule (each card in one place, ranges...).

        The conformance soak calls this after every step of random games.
        """
        return None

    def render_for(self, seat: int) -> str:
        """Text view of only what ``seat`` may see (for a human in that seat)."""
        raise NotImplementedError(f"{self.env_id} has no seat view yet")

    # ------------------------------------------------------------------ optional: viewers (play / replay)
    def public_action_name(self, action: int, seat: int) -> str | None:
        """How ``seat`` sees ``action`` that ``current_player`` is about to take (call before ``step``).

        None: ``seat`` does not learn which action it was, only that a decision was made. The
        default shows an action to the seat taking it and to nobody else, which can never leak;
        games whose actions are public (or partly public) override it.
        """
        return self.action_name(action) if seat == self.current_player else None

    def ends_multi_part_choice(self, action: int) -> bool | None:
        """Whether ``action`` completes a multi-part choice of ``current_player`` (``yokai play``
        asks a human to confirm such a step). None (the default) means the game does not say,
        and ``yokai play`` guesses: the seat made the previous decision too and will not make
        the next one. Games with no multi-part choices return False."""
        return None

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-able picture of the table for viewers (``yokai replay --html``).

        ``seat`` None is the omniscient view, else only what that seat may see. Keys:
        ``title`` (str), ``phase`` (str), ``to_act`` (seat deciding, -1 when over),
        ``counters`` (name -> value, table-wide), ``zones`` (shared zones), ``seats`` (one dict
        per seat: ``seat``, ``label``, ``counters``, ``zones``, optional ``note``), ``text``
        (preformatted text, optional). A zone is ``{"name", "cards": [{"name", "info"}],
        "hidden": count of cards face down}``; a card's ``info`` (its key numbers) may be left
        out. This default has no zones: it shows the text of ``render()`` /
        ``render_for(seat)``; games override it to draw their zones and cards.
        """
        try:
            text = self.render() if seat is None else self.render_for(seat)
        except NotImplementedError as err:
            text = str(err)
        title, _, rest = text.partition("\n")
        return {"title": title or self.env_id, "phase": self.phase_name, "to_act": int(self.current_player),
                "counters": {"step": self.steps}, "zones": [], "seats": [], "text": rest}
