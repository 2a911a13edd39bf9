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


class MissingHookError(NotImplementedError):
    """A tool needs an optional hook (:mod:`yokai_envs.core.protocols`) the game does not have;
    the message names the game, the hook's methods and the tool."""

    def __init__(self, env_id: str, hook: str, methods: list[str], tool: str) -> None:
        self.env_id = env_id
        self.hook = hook
        self.methods = methods
        self.tool = tool
        super().__init__(f"{tool} needs {env_id}'s {hook} hook, which it does not have: implement "
                         f"{', '.join(methods)} (see yokai_envs.core.protocols)")
