"""The Game contract: the one protocol every rules engine implements.

Everything else in the package (the PettingZoo env, the gymnasium wrapper, bots, the arena,
tests and benchmarks) is written once against this class. A game subclasses :class:`Game`
and fills in the abstract methods (the section "the contract" at the end, listed in
docs/architecture.md); views and analysis hooks are optional (:mod:`yokai_envs.core.protocols`).
The public methods here add what every game shares:
seeding, the step counter and hard step cap, the illegal-action check that leaves the state
untouched, the cached legal-action mask, the action history a replay is rebuilt from, and
``determinize`` (clone, re-seed future chance, resample what the seat cannot see).

A game that keeps its table as plain data in ``self.state`` (an object with a ``copy()``) gets
all of ``clone`` from here: the core copies its own bookkeeping and calls ``state.copy()``; its
rules functions take ``(state, ctx)`` with ``ctx = self.rules_context()`` (the game's generator
and record, :mod:`yokai_envs.core.context`).

Rules modules never import gymnasium or pettingzoo; this module does not either.
"""

from __future__ import annotations

import copy
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from yokai_envs.core.context import Context, record_event
from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.core.information import SAMPLED_VIEW, CoreEvent, Event, canonical
from yokai_envs.core.memo import SeatMemos
from yokai_envs.core.protocols import event_text, public_action_name
from yokai_envs.core.rng import NOT_COPIED, copy_generator


def is_integer(value: object) -> bool:
    """An int or numpy integer (a 0-d integer array too), never a bool, a float or a string."""
    if isinstance(value, bool | np.bool_):
        return False
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and np.issubdtype(value.dtype, np.integer)
    return isinstance(value, int | np.integer)


def win_credits(returns: np.ndarray | list[float], cooperative: bool = False) -> np.ndarray:
    """Per-seat win credit from final returns; see :meth:`Game.win_credits`."""
    values = np.asarray(returns, dtype=np.float64)
    if cooperative or values.size == 1:
        return np.where(values > 0, 1.0, np.where(values < 0, 0.0, 0.5))
    top = values == values.max()
    return top / top.sum()


def win_loss_returns(winner: int | None) -> np.ndarray:
    """A two-seat game's returns: +1 to ``winner`` and -1 to the other seat, or 0 to both while
    there is no winner (None or a negative seat: the game goes on, or it was drawn)."""
    out = np.zeros(2)
    if winner is not None and winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0
    return out


def returns_agree(recorded: Sequence[Any], rebuilt: Sequence[float]) -> bool:
    """Whether recorded returns are a rebuilt game's: as many, each within 1e-9 (a NaN never
    agrees). Replays, exports and arena records are checked by this one rule."""
    return len(recorded) == len(rebuilt) and all(
        abs(float(a) - float(b)) <= 1e-9 for a, b in zip(recorded, rebuilt, strict=True))


class Game(ABC):
    """Base class of every rules engine.

    Subclasses set the class attributes, call ``super().__init__(**options)`` and implement
    the abstract methods. Seats are ``0..num_players-1``; actions are ``0..num_actions-1``.
    """

    #: Versioned env id, e.g. ``"yonkai_no_yokai_v1"``. Bump the version on any change to the rules,
    #: observations, masks or rewards (replays and checkpoints name the id they were made with);
    #: not on a refactor. Each bump, or the lack of one, is recorded in CHANGELOG.md.
    env_id: ClassVar[str]
    #: Option name -> default value. ``make`` rejects any option not named here.
    OPTIONS: ClassVar[dict[str, Any]] = {}
    #: Option sets the conformance suite runs (e.g. each player count, each mode).
    CONFORMANCE_CONFIGS: ClassVar[list[dict[str, Any]]] = [{}]
    #: Default hard step cap (option ``max_steps`` overrides it).
    DEFAULT_MAX_STEPS: ClassVar[int] = 10_000
    #: Options every game accepts beside its own: the step caps.
    CAP_OPTIONS: ClassVar[tuple[str, ...]] = ("max_steps", "max_cycles")
    #: Named rule variants beside the book's game: name -> what it changes. The default game
    #: (``variant="book"``) plays every rule its rulebook states; a variant changes a stated rule
    #: (for balance, say) and is only ever chosen by name. A game with variants lists
    #: ``"variant": "book"`` in its OPTIONS.
    VARIANTS: ClassVar[dict[str, str]] = {}

    #: Most arguments an event of this game carries (the ``history`` observation is
    #: ``1 + EVENT_ARGS`` columns wide). The core events carry two.
    EVENT_ARGS: ClassVar[int] = 2

    #: Fixed size of the action table.
    num_actions: int
    #: Name -> slice of the observation vector (fixed for an instance).
    observation_layout: dict[str, slice]
    #: Length of ``observation(seat)``.
    observation_size: int
    #: Length of ``state_tensor()``.
    state_size: int
    #: The table as plain data, for a game built that way (None: the game keeps its table in its
    #: own attributes). Its ``copy()`` is the only place that lists its fields: ``clone`` calls it.
    state: Any = None
    #: True for a game whose ``state`` keeps the pending decision's legal actions, ascending, as a
    #: list in ``state.pending`` (None once the game has ended; replaced, never changed in place):
    #: ``legal_actions`` then reads it directly.
    STATE_LISTS_LEGAL_ACTIONS: ClassVar[bool] = False

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.OPTIONS) - set(self.CAP_OPTIONS))
        if unknown:
            valid = ", ".join(sorted([*self.OPTIONS, *self.CAP_OPTIONS]))
            raise ConfigError(f"{self.env_id}: unknown option(s) {', '.join(unknown)}; valid options: {valid}")
        options = dict(options)
        for name, value in options.items():
            default = self.OPTIONS.get(name)
            # An option whose default is an int takes an int: 4.0, True or a list are not player
            # counts (a string is left to the game's own check, which names the valid values).
            if isinstance(default, int) and not isinstance(default, bool) and value is not None:
                if not is_integer(value) and not isinstance(value, str):
                    raise ConfigError(f"{self.env_id}: option {name} must be an int, got "
                                      f"{type(value).__name__} {value!r}")
                if is_integer(value):
                    options[name] = int(value)
        merged = {**self.OPTIONS, **options}
        if "variant" in self.OPTIONS and merged["variant"] != "book" and merged["variant"] not in self.VARIANTS:
            valid = ", ".join(repr(v) for v in ["book", *self.VARIANTS])
            raise ConfigError(f"{self.env_id}: unknown variant {merged['variant']!r}; valid variants: {valid}")
        max_steps = merged.pop("max_steps", None)
        if max_steps is None:
            max_steps = self.DEFAULT_MAX_STEPS
        if not is_integer(max_steps) or max_steps <= 0:
            raise ConfigError(f"{self.env_id}: option max_steps must be a positive int, got "
                              f"{type(max_steps).__name__} {max_steps!r}")
        max_steps = int(max_steps)
        max_cycles = merged.pop("max_cycles", None)
        if max_cycles is not None and (not is_integer(max_cycles) or max_cycles <= 0):
            raise ConfigError(f"{self.env_id}: option max_cycles must be None or a positive int, got {max_cycles!r}")
        self.options: dict[str, Any] = merged
        self.max_steps: int = max_steps
        #: PettingZoo's name for a step cap: no seat makes more than ``max_cycles`` decisions in
        #: a game; the game is truncated when a seat would make one more (None: no such cap).
        self.max_cycles: int | None = max_cycles
        self._decisions: tuple[int, ...] = ()
        self._cycles_capped = False
        self.seed: int | None = None
        self.rng: np.random.Generator = np.random.default_rng()
        self.steps: int = 0
        self.action_history: list[int] = []
        self._mask_cache: np.ndarray | None = None
        # What each seat has seen, when recording (see yokai_envs.core.information).
        self._recording = False
        self._seen: list[list[Event]] | None = None
        self._seen_text: list[list[str | None]] | None = None
        self._ctx: Context | None = None
        #: An incremental observation encoder's memos of this game (:mod:`yokai_envs.core.memo`).
        self.observation_memos: SeatMemos | None = None

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None) -> None:
        """Start a new game; the same seed and the same actions give the same game."""
        if seed is not None:
            if not is_integer(seed) or seed < 0:
                raise ConfigError(f"{self.env_id}: reset(seed=...) takes None or a non-negative int, got "
                                  f"{type(seed).__name__} {seed!r}")
            seed = int(seed)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.steps = 0
        self.action_history = []
        self._decisions = (0,) * self.num_players if self.max_cycles is not None else ()
        self._cycles_capped = False
        self._mask_cache = None
        if self._recording:
            self._seen = [[] for _ in range(self.num_players)]
            self._seen_text = [[] for _ in range(self.num_players)]
        else:
            self._seen = self._seen_text = None
        self._ctx = None
        self._reset()

    def step(self, action: int) -> None:
        """Apply ``action`` for ``current_player``.

        Raises :class:`IllegalActionError` (and changes nothing) when the action is out of
        range, masked out, or the game is over.
        """
        # the seat is asked only for an error (or by _commit when recording or capping needs it)
        if self.is_over:
            raise IllegalActionError(action, self.current_player, "game over",
                                     reason="the game has ended; call reset()")
        if type(action) is not int and not is_integer(action):  # the plain int first: the common case
            raise IllegalActionError(action, self.current_player, self.phase_name,
                                     reason=f"not an integer action ({type(action).__name__}); "
                                            f"actions are integers 0..{self.num_actions - 1}")
        a = int(action)
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(action, self.current_player, self.phase_name,
                                     reason=f"actions are integers 0..{self.num_actions - 1}")
        if not self.legal_action_mask()[a]:
            raise IllegalActionError(a, self.current_player, self.phase_name, self.action_name(a),
                                     reason="masked out")
        self._commit(a)

    def step_unchecked(self, action: int) -> None:
        """Apply ``action``, a plain int the caller took from :meth:`legal_actions` (or the mask)
        of this very state, with none of :meth:`step`'s checks.

        For trusted callers that pick only legal actions by construction (search rollouts in
        the worlds they sampled): the same game as ``step(action)``, minus the checks' cost. An
        illegal action, or a call on a finished game, corrupts the state without a word; anything
        else calls :meth:`step`.
        """
        self._commit(action)

    def _commit(self, a: int, seat: int = -1) -> None:
        """What the legal action ``a`` of ``seat`` does, checked or not: the one place both step
        paths share. ``seat`` -1: ``current_player``, asked only when recording or capping needs it."""
        self._mask_cache = None
        if seat < 0 and (self._seen is not None or self._decisions):
            seat = self.current_player
        if self._seen is not None:
            self._record_decision(seat, a)
        self._apply(a)
        self.steps += 1
        self.action_history.append(a)
        if self._decisions:
            # A new tuple each time: the games' fast clone() copies attributes shallowly.
            counts = self._decisions = (*self._decisions[:seat], self._decisions[seat] + 1, *self._decisions[seat + 1:])
            if not self.is_terminal:
                after = self.current_player  # read before the cap is set (current_player may ask is_truncated)
                self._cycles_capped = 0 <= after < len(counts) and counts[after] >= (self.max_cycles or 0)

    def legal_action_mask(self) -> np.ndarray:
        """Boolean mask over ``num_actions`` for ``current_player`` (read-only, cached).

        All False once the game is over.
        """
        mask = self._mask_cache
        if mask is None:
            if self.is_over:  # is_terminal or is_truncated, asked once
                mask = np.zeros(self.num_actions, dtype=bool)
            else:
                mask = self._legal_mask()
            mask.setflags(write=False)  # not ``flags.writeable``: that builds a flags object per call
            self._mask_cache = mask
        return mask

    def legal_actions(self) -> list[int]:
        """The legal actions for ``current_player``, ascending: ``np.flatnonzero(legal_action_mask())``
        as a fresh list of plain ints (empty once the game is over). Search loops ask this
        instead of the mask: picking among them needs no array."""
        # is_over spelled out, and for a game whose state lists them, no call at all: search
        # loops ask this at every step, and each call is a few percent of a fast game's step
        if self._cycles_capped or self.steps >= self.max_steps:
            return []
        if self.STATE_LISTS_LEGAL_ACTIONS:
            pending = self.state.pending
            return [] if pending is None else pending[:]
        if self.is_terminal:
            return []
        return self._legal_actions()

    def _legal_actions(self) -> list[int]:
        """The legal actions of the pending decision (the game is not over). This default reads
        the cached mask; a game whose rules can list them faster without it overrides this."""
        return self.legal_action_mask().nonzero()[0].tolist()

    @property
    def is_truncated(self) -> bool:
        """True when a step cap (``max_steps``, or ``max_cycles`` decisions of one seat) ended an
        unfinished game."""
        return (self._cycles_capped or self.steps >= self.max_steps) and not self.is_terminal

    @property
    def is_over(self) -> bool:
        """True once the game has ended by its rules or a step cap cut it short."""
        # is_truncated spelled out: it would ask is_terminal a second time (this is asked several
        # times per step, and in every search rollout step)
        return self.is_terminal or self._cycles_capped or self.steps >= self.max_steps

    def invalidate_mask(self) -> None:
        """Forget the cached legal-action mask (and the rules context). Rules code never needs
        this (``step`` does it); tests and scenario builders that edit the state directly, or hand
        a game that has stepped a new generator, call it afterwards."""
        self._mask_cache = None
        self._ctx = None

    # ------------------------------------------------------------------ facts about the game
    def action_name(self, action: int) -> str:
        """A short readable name of ``action`` (error messages, logs, viewers). Until a game
        names its actions, an action is its number."""
        return f"action {int(action)}"

    @property
    def zero_sum(self) -> bool:
        """True when in this configuration the seats' returns always sum to zero (two seats,
        one's win the other's loss). False (the default) claims nothing: general sum."""
        return False

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

    # ------------------------------------------------------------------ information states
    def record_information(self, on: bool = True) -> None:
        """Record what every seat sees from the next ``reset`` on (viewers, the ``history``
        observation, the conformance suite). Off by default: training pays nothing for it."""
        self._recording = on

    @property
    def recording(self) -> bool:
        """Whether this game keeps what every seat sees as it goes (see :meth:`record_information`)."""
        return self._seen is not None

    def see(self, seat: int | None, kind: int, *args: int) -> None:
        """Rules call this where an automatic event happens: ``seat`` sees ``(kind, *args)``
        (``None``: every seat does). Free when not recording."""
        seen = self._seen
        if seen is None:
            return
        assert self._seen_text is not None
        record_event(seen, self._seen_text, seat, kind, args)

    def _record_decision(self, actor: int, action: int) -> None:
        assert self._seen is not None and self._seen_text is not None
        for s in range(len(self._seen)):
            view = self.public_action(action, s)
            if view is None:
                self._seen[s].append((CoreEvent.DECIDED_UNSEEN, actor))
                self._seen_text[s].append(None)
            else:
                self._seen[s].append((CoreEvent.ACTED, actor, int(view)))
                self._seen_text[s].append(public_action_name(self, action, s))

    def _recorded(self) -> Game:
        """This game, or a replay of it that recorded what every seat saw."""
        if self._seen is not None:
            return self
        if self.seed is None and self.action_history:
            raise RuntimeError(f"{self.env_id}: this game was not recording and has no seed (it was reset without "
                               "one, or it is a world determinize sampled), so what each seat saw cannot be "
                               "rebuilt; call record_information() before reset()")
        rebuilt = type(self)(**{**self.options, "max_steps": self.max_steps, "max_cycles": self.max_cycles})
        rebuilt.record_information()
        rebuilt.replay(self.seed, list(self.action_history))
        return rebuilt

    def detach_record(self) -> None:
        """Give this game its own copy of the seen-event record. A clone made by copying
        attributes shallowly (the games' fast ``clone``) shares its original's lists; call this on
        the clone before stepping it, or its events land in the original's record too."""
        if self._seen is not None and self._seen_text is not None:
            self._seen = [list(events) for events in self._seen]
            self._seen_text = [list(texts) for texts in self._seen_text]
            self._ctx = None  # it holds the record it replaced

    def seen_events(self, seat: int) -> list[Event]:
        """Every event ``seat`` has seen, in order (its own private facts and the public record)."""
        seen = self._recorded()._seen
        assert seen is not None
        return list(seen[seat])

    def recent_events(self, seat: int, count: int) -> list[Event]:
        """The last ``count`` events ``seat`` saw (recording must be on: the ``history`` option)."""
        if self._seen is None:
            raise RuntimeError(f"{self.env_id}: call record_information() before reset() to keep recent events")
        return self._seen[seat][-count:] if count else []

    def events_since(self, seat: int, start: int) -> list[Event]:
        """The events ``seat`` saw from the ``start``-th on (recording must be on). Two games
        cloned from one share what came before: comparing what came after is comparing their
        information states, at a cost that does not grow with the game's length."""
        if self._seen is None:
            raise RuntimeError(f"{self.env_id}: call record_information() before reset() to keep events")
        return self._seen[seat][start:]

    def information_state(self, seat: int) -> str:
        """Canonical string of everything ``seat`` has seen, in order. Equal strings mean
        histories ``seat`` cannot tell apart; each one is a prefix of the next (perfect recall)."""
        return canonical(self.seen_events(seat))

    def public_log(self, seat: int) -> list[str]:
        """The same events as readable lines, for replays, ``yokai play`` and the HTML viewer."""
        game = self._recorded()
        assert game._seen is not None and game._seen_text is not None
        return [text if text is not None else event_text(game, event, seat)
                for event, text in zip(game._seen[seat], game._seen_text[seat])]

    def public_action(self, action: int, seat: int) -> int | None:
        """The public view of ``action`` (by ``current_player``, before ``step``) as ``seat`` sees
        it: an int equal for exactly the actions ``seat`` cannot tell apart (the action id when it
        sees all of it), None when it only sees that a decision was made. The default shows an
        action to the seat taking it alone; games whose actions are public override it together
        with ``public_action_name`` (:class:`~yokai_envs.core.protocols.PublicActionNames`; the
        conformance suite checks that the two agree)."""
        return action if seat == self.current_player else None

    def known_placements(self, seat: int) -> list[tuple[Any, ...]]:
        """Facts ``seat`` knows about hidden places (a card it saw returned to a hand, searched,
        shown, a public decklist), as tuples the game's :meth:`placement_holds` can check.
        ``determinize(seat)`` must keep every one of them; games with such knowledge override."""
        return []

    def placement_holds(self, placement: tuple[Any, ...]) -> bool:
        """Whether the state satisfies a fact from :meth:`known_placements`."""
        raise NotImplementedError(f"{self.env_id} names no known placements")

    def rules_context(self) -> Context:
        """What this game's rules functions take beside its ``state``: its generator and record.
        Kept while the generator is the same object (``determinize`` and tests hand a game a new
        one); a clone, a reset, ``detach_record`` and ``invalidate_mask`` drop it. A game's step
        may use the one it holds (``self._ctx``) without asking this: it is dropped whenever the
        core replaces the generator or the record."""
        ctx = self._ctx
        if ctx is None or ctx.rng is not self.rng:
            ctx = self._ctx = Context(self.rng, self._seen, self._seen_text)
        return ctx

    def clone(self) -> Game:
        """An independent copy: stepping either never changes the other.

        A game with a ``state`` gets a copy of its attributes with the core's own bookkeeping
        copied (generator, action history, the record of what each seat saw) and
        ``state.copy()``; the cached mask is shared (it is read-only and the state is equal).
        Everything else a game holds beside its state must be fixed for the game (options,
        card pools, encoders). A game without a ``state`` is deep-copied."""
        state = self.state
        if state is None:
            return copy.deepcopy(self)
        new = object.__new__(type(self))
        # dict(), not .copy(): reading __dict__ leaves it a split-table dict, whose copy Python
        # 3.11's attribute cache cannot serve (every attribute read of the clone would take the
        # slow path); dict() builds a combined one
        attrs = dict(self.__dict__)
        attrs["state"] = state.copy()
        attrs["rng"] = copy_generator(self.rng)
        attrs["action_history"] = list(self.action_history)
        attrs["_ctx"] = None
        attrs["observation_memos"] = None
        if self._seen is not None and self._seen_text is not None:
            attrs["_seen"] = [list(events) for events in self._seen]
            attrs["_seen_text"] = [list(texts) for texts in self._seen_text]
        new.__dict__ = attrs
        return new

    def determinize(self, seat: int, rng: np.random.Generator) -> Game:
        """A full state consistent with everything ``seat`` has observed.

        Unseen cards are reshuffled among the places they could be; future chance is re-seeded
        from ``rng`` so the sample cannot reveal the real deck order either.
        """
        real, self.rng = self.rng, NOT_COPIED  # the world gets a generator of its own just below
        try:
            world = self.clone()
        finally:
            self.rng = real
        world.detach_record()
        world.rng = np.random.default_rng(int(rng.integers(2**63)))
        world._mask_cache = None
        world._ctx = None  # the rules context goes with the generator
        world._resample_hidden(seat, rng)
        # Replaying the real seed would rebuild the real deal: a world has no seed of its own.
        world.seed = None
        world._sampled_records(seat)
        return world

    def _sampled_records(self, seat: int) -> None:
        """In a sampled world, what the other seats have seen is ``seat``'s belief, not the real
        record: the sample redraws their hidden cards but not their private past, so their real
        events (their dealt hands, their draws) would both contradict the world and reveal the
        real cards to whoever reads them (a search keying its nodes by their information states).
        Each of them gets ``seat``'s record, then one ``SAMPLED_VIEW`` event: a digest of its
        observation and mask in this world, so equal strings mean equal views (and equal legal
        actions); events after the sample are recorded as they happen."""
        if self._seen is None or self._seen_text is None:
            return
        others = [other for other in range(self.num_players) if other != seat]
        for other in others:  # first, so that no view below reads a real record
            self._seen[other] = list(self._seen[seat])
            self._seen_text[other] = list(self._seen_text[seat])
        for other in others:
            view = hashlib.blake2b(np.ascontiguousarray(self.observation(other)).tobytes(), digest_size=7)
            if not self.is_over and self.current_player == other:
                view.update(np.packbits(self.legal_action_mask()).tobytes())
            self._seen[other].append((SAMPLED_VIEW, int.from_bytes(view.digest(), "big")))
            self._seen_text[other].append("(a sampled world: this seat's past is not drawn)")

    def replay(self, seed: int | None, actions: list[int]) -> None:
        """Rebuild a game from its seed and action list (the event log)."""
        self.reset(seed)
        for a in actions:
            self.step(a)

    # ------------------------------------------------------------------ the contract: a game implements these
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Seats in this configuration."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat that must decide next (-1 when the game is over)."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game has ended by its rules (a step cap is :attr:`is_truncated`)."""

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
    def utility_bounds(self) -> tuple[float, float]:
        """(lowest, highest) value any seat's ``returns()`` can take in this configuration (its
        options), at any step: a game's end, a truncation, a running total."""

    @abstractmethod
    def _resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """In place: reshuffle everything ``seat`` cannot see, keeping everything it knows."""
