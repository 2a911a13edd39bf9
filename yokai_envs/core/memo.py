"""Remembered observations: what an encoder that recomputes only the changed blocks of an
observation keeps per game and seat.

A seat's observation changes little from one decision to the next (a card or two moves), so an
encoder may keep the last one it computed with the inputs of each block, and recompute only the
blocks whose inputs differ. The memos belong to one game: the core's ``clone`` and
``determinize`` give the copy none (it makes its own on first use), and an encoder that is not the
one that made them (a game observed by two encoders) starts afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

M = TypeVar("M")


class SeatMemos:
    """One encoder's memos of one game, one per seat (see :func:`seat_memos`)."""

    __slots__ = ("encoder", "seats")

    def __init__(self, encoder: object, seats: list[Any]) -> None:
        self.encoder = encoder
        self.seats = seats


def seat_memos(game: Game, encoder: object, new: Callable[[], M]) -> list[M]:
    """``encoder``'s per-seat memos of ``game`` (made with ``new()`` on first use, or when another
    encoder made the ones the game holds). The list is the game's own: an encoder replaces a seat's
    memo in it when what it remembers no longer holds (a reset dealt new cards, say)."""
    memos = game.observation_memos
    if memos is None or memos.encoder is not encoder:
        memos = game.observation_memos = SeatMemos(encoder, [new() for _ in range(game.num_players)])
    return memos.seats


def check_fresh(remembered: np.ndarray, fresh: np.ndarray, layout: dict[str, slice], seat: int) -> None:
    """Raise AssertionError naming the blocks where an observation computed from a memo differs
    from the same observation computed from scratch (the encoders' tests turn this check on)."""
    if not np.array_equal(remembered, fresh):
        bad = [name for name, span in layout.items() if not np.array_equal(remembered[span], fresh[span])]
        raise AssertionError(f"remembered observation of seat {seat} differs from a fresh one in {bad}")
