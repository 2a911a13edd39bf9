"""Errors raised by every game engine and env in the package."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that the current decision's mask does not allow.

    The message names the action (number and name when it has one), the seat that was asked
    and the phase of the game. The game state is unchanged when this is raised.
    """

    def __init__(self, action: object, seat: int, phase: str, action_name: str | None = None,
                 reason: str | None = None) -> None:
        self.action = action
        self.seat = seat
        self.phase = phase
        self.action_name = action_name
        shown = repr(action) if isinstance(action, str) else action
        named = f"{shown} ({action_name})" if action_name else f"{shown}"
        message = f"illegal action {named} for seat {seat} in phase {phase!r}"
        if reason:
            message += f": {reason}"
        super().__init__(message)


class ConfigError(ValueError):
    """A bad option, deck, card file or config key; the message names it."""
