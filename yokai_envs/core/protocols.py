"""Optional hooks beside the Game contract: presentation (text and table views, how a seat sees
an action or an event), analysis (structured actions, balance content, outcome facts) and checks.

A game implements one by having the method (no base class to inherit): ``isinstance(game,
SeatText)`` tells whether it has it. The tools that use a hook go through the functions below,
each with its fallback (a generic text, the action's name, observations in [0, 1]) or, where
none would be honest, through :func:`require`, which raises :class:`MissingHookError` naming the
game, the hook and the tool. The package's games implement the hooks they have something to say
for (docs/architecture.md lists which); a new game may start with the contract alone
(:class:`yokai_envs.core.game.Game`) and add them one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from yokai_envs.core.errors import MissingHookError
from yokai_envs.core.information import CoreEvent, Event

if TYPE_CHECKING:
    from yokai_envs.core.game import Game


@runtime_checkable
class TableText(Protocol):
    """The omniscient text view: env render modes, ``yokai demo``, ``yokai replay``, OpenSpiel's
    ``str(state)``. Fallback: one line naming the game, its step, phase and seat to act."""

    def render(self) -> str: ...


@runtime_checkable
class SeatText(Protocol):
    """Text of only what ``seat`` may see: ``yokai play`` and ``yokai replay --seat`` need it;
    OpenSpiel's observation string falls back to the observation vector."""

    def render_for(self, seat: int) -> str: ...


@runtime_checkable
class TableView(Protocol):
    """A JSON-able picture of the table for viewers (``yokai replay --html``, ``yokai serve``).

    ``seat`` None is the omniscient view, else only what that seat may see. Keys: ``title``
    (str), ``phase`` (str), ``to_act`` (seat deciding, -1 when over), ``counters`` (name ->
    value, table-wide), ``zones`` (shared zones), ``seats`` (one dict per seat: ``seat``,
    ``label``, ``counters``, ``zones``, optional ``note``), ``text`` (preformatted, optional). A
    zone is ``{"name", "cards": [{"name", "info"}], "hidden": count of cards face down}``.
    Fallback: no zones, the text views as ``text``."""

    def table_view(self, seat: int | None = None) -> dict[str, Any]: ...


@runtime_checkable
class PublicActionNames(Protocol):
    """How ``seat`` sees ``action`` that ``current_player`` is about to take (asked before
    ``step``); None: it only learns that a decision was made. A game with it must agree with its
    ``public_action`` (the conformance suite checks). Fallback: the action's name to the seat
    taking it, None to every other seat (it can never leak)."""

    def public_action_name(self, action: int, seat: int) -> str | None: ...


@runtime_checkable
class ActionWords(Protocol):
    """A legal action of ``current_player`` as its button says it: ``(label, tip)``, the label
    naming the card or attack it uses and a one-line tooltip saying what it does, from what that
    seat sees (``yokai serve``). Fallback: the action's name, and no tooltip."""

    def action_words(self, action: int) -> tuple[str, str]: ...


@runtime_checkable
class EndWords(Protocol):
    """How a finished game ended, in its own terms: ``reason`` (the rule that ended it) and
    ``score`` (where every seat stands), seats written "player N" (``yokai serve``'s end screen).
    Fallback: the step cap or "the game ended", and the returns."""

    def end_words(self) -> dict[str, str]: ...


@runtime_checkable
class EventText(Protocol):
    """One readable line for an event ``seat`` saw (its public log). Fallback:
    :func:`core_event_text`."""

    def describe_event(self, event: Event, seat: int) -> str: ...


@runtime_checkable
class MultiPartChoices(Protocol):
    """Whether ``action`` completes a multi-part choice of ``current_player`` (``yokai play``
    asks a human to confirm it). None, and the fallback: the game does not say, and ``yokai
    play`` guesses (the seat decided before and will not decide next)."""

    def ends_multi_part_choice(self, action: int) -> bool | None: ...


@runtime_checkable
class ActionFields(Protocol):
    """``action`` as structured fields of the game's action table, for analysis (``yokai
    export``, the bots' pass detection): always ``kind``, ``id`` and ``name``, then the block's
    fields (card, target, ...). Fallback: kind ``"action"``, the id and the name."""

    def describe_action(self, action: int) -> dict[str, Any]: ...


@runtime_checkable
class BalanceAxis(Protocol):
    """The invented content ``yokai balance`` measures under ``options``: ``(option, choices,
    per_seat)`` (``per_seat``: one choice per seat, each pair played in both seats; otherwise one
    per game, measured by its clear rate), None when there is nothing to balance under them.
    A classmethod. ``yokai balance`` refuses a game without it."""

    @classmethod
    def balance_axis(cls, options: dict[str, Any]) -> tuple[str, tuple[Any, ...], bool] | None: ...


@runtime_checkable
class OutcomeFacts(Protocol):
    """How a finished game went, for balance tables: ``end`` (its cause) and the game's own
    facts (``first_player``: the seat that took the first turn, ...). Fallback: ``end`` only."""

    def outcome_facts(self) -> dict[str, Any]: ...


@runtime_checkable
class InvariantChecks(Protocol):
    """Raise AssertionError when the state breaks a rule (each card in one place, counters in
    range...). The conformance soak calls it after every step of random games when a game has it."""

    def check_invariants(self) -> None: ...


@runtime_checkable
class ObservationBounds(Protocol):
    """(low, high) float32 arrays bounding every observation entry (the env's Box). Fallback:
    every entry in [0, 1]."""

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]: ...


def require(game: object, hook: type, tool: str) -> None:
    """Raise :class:`MissingHookError` (naming the game, the methods it lacks and ``tool``)
    unless ``game`` (an instance or, for a classmethod hook, a class) has ``hook``."""
    missing = [name for name in sorted(vars(hook)) if not name.startswith("_")
               and not callable(getattr(game, name, None))]
    if missing:
        env_id = getattr(game, "env_id", None) or getattr(type(game), "__name__", "this game")
        raise MissingHookError(str(env_id), hook.__name__, missing, tool)


# ---------------------------------------------------------------------- the fallbacks
def summary_text(game: Game) -> str:
    """One line for a game with no text view of its own."""
    to_act = "over" if game.is_over else f"seat {game.current_player} to act"
    return f"{game.env_id}: step {game.steps}, {game.phase_name}, {to_act}"


def render_text(game: Game) -> str:
    """The omniscient text view, or :func:`summary_text`."""
    return game.render() if isinstance(game, TableText) else summary_text(game)


def seat_text(game: Game, seat: int, tool: str) -> str:
    """What ``seat`` may see as text; a game without :class:`SeatText` is refused for ``tool``."""
    if not isinstance(game, SeatText):
        require(game, SeatText, tool)
    assert isinstance(game, SeatText)
    return game.render_for(seat)


def table_view(game: Game, seat: int | None = None) -> dict[str, Any]:
    """The game's :class:`TableView`, or a picture with no zones holding its text views."""
    if isinstance(game, TableView):
        return game.table_view(seat)
    if seat is None:
        text = render_text(game)
    elif isinstance(game, SeatText):
        text = game.render_for(seat)
    else:
        text = f"{summary_text(game)}\n({game.env_id} has no seat view: render_for)"
    title, _, rest = text.partition("\n")
    return {"title": title or game.env_id, "phase": game.phase_name, "to_act": int(game.current_player),
            "counters": {"step": game.steps}, "zones": [], "seats": [], "text": rest}


def public_action_name(game: Game, action: int, seat: int) -> str | None:
    """How ``seat`` sees ``action`` (asked before ``step``); see :class:`PublicActionNames`."""
    named = getattr(game, "public_action_name", None)
    if named is not None:
        return named(action, seat)
    return game.action_name(action) if seat == game.current_player else None


def action_words(game: Game, action: int) -> tuple[str, str]:
    """The game's :class:`ActionWords`, or the action's name and no tooltip."""
    if isinstance(game, ActionWords):
        return game.action_words(action)
    return game.action_name(action), ""


def end_words(game: Game) -> dict[str, str]:
    """The game's :class:`EndWords` (once it is over), or the step cap / the returns."""
    if game.is_truncated:
        reason = f"the game reached its step cap ({game.steps} steps) before its own end"
    elif isinstance(game, EndWords):
        return game.end_words()
    else:
        reason = "the game ended"
    returns = ", ".join(f"player {s} {r:+g}" for s, r in enumerate(game.returns()))
    return {"reason": reason, "score": f"returns: {returns}"}


def core_event_text(event: Event) -> str:
    """A readable line for any event: the core's decision events by name, others as numbers."""
    if event[0] == CoreEvent.DECIDED_UNSEEN:
        return f"seat {event[1]} made a decision"
    if event[0] == CoreEvent.ACTED:
        return f"seat {event[1]}: action {event[2]}"
    return f"event {event[0]} {' '.join(map(str, event[1:]))}".rstrip()


def event_text(game: Game, event: Event, seat: int) -> str:
    """The game's line for an event ``seat`` saw, or :func:`core_event_text`."""
    described = getattr(game, "describe_event", None)
    return described(event, seat) if described is not None else core_event_text(event)


def ends_multi_part_choice(game: Game, action: int) -> bool | None:
    """The game's answer (:class:`MultiPartChoices`), or None: it does not say."""
    return game.ends_multi_part_choice(action) if isinstance(game, MultiPartChoices) else None


def action_fields(game: Game, action: int) -> dict[str, Any]:
    """The game's :class:`ActionFields`, or kind ``"action"``, the id and the name."""
    described = getattr(game, "describe_action", None)
    if described is not None:
        return described(action)
    return {"kind": "action", "id": int(action), "name": game.action_name(action)}


def outcome_facts(game: Game) -> dict[str, Any]:
    """The game's :class:`OutcomeFacts`, or ``end``: ``"step cap"`` or ``"end"``."""
    if isinstance(game, OutcomeFacts):
        return game.outcome_facts()
    return {"end": "step cap" if game.is_truncated else "end"}


def observation_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The game's :class:`ObservationBounds`, or [0, 1] for every entry."""
    if isinstance(game, ObservationBounds):
        return game.observation_bounds()
    return (np.zeros(game.observation_size, dtype=np.float32), np.ones(game.observation_size, dtype=np.float32))


def check_invariants(game: Game) -> bool:
    """Run the game's :class:`InvariantChecks` (raising AssertionError on a broken rule);
    False when it has none."""
    checked = getattr(game, "check_invariants", None)
    if checked is None:
        return False
    checked()
    return True
