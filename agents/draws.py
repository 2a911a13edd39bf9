"""``rng.integers(n)`` for long runs of small draws: numpy's very numbers, several times cheaper.

A random rollout draws one ``rng.integers(len(legal))`` per step, and at about 1.5 us a call
that draw is a sixth of a rollout step. numpy's ``Generator.integers(n)`` (default int64, one
value, ``1 <= n < 2**32``) is Lemire's bounded method over the bit generator's 32-bit stream,
and PCG64 hands out each 64-bit output as two 32-bit halves, low first, keeping the high half
for the next call. :class:`IntegerDraws` replays exactly that in Python over blocks of raw
outputs fetched at once, and :meth:`IntegerDraws.close` leaves the generator exactly where the
same calls to ``rng.integers`` would have (its 128-bit state stepped back over the unused
outputs, the kept half restored). Between opening and closing, nothing else may draw from that
generator. The replay is checked against numpy once, at import; where it differs (another numpy)
or the bit generator is not PCG64, the draws are ``rng.integers`` itself.
"""

from __future__ import annotations

import numpy as np

_MASK32 = 0xFFFFFFFF
_BLOCK = 64  # raw outputs fetched at a time
_TURN = 1 << 128  # PCG64 advances modulo 2**128: advancing by _TURN - k steps back k outputs


class IntegerDraws:
    """``draws(n)`` is ``int(rng.integers(n))`` for ``1 <= n < 2**32``; call :meth:`close` when done."""

    __slots__ = ("_bits", "_fetched", "_half", "_has_half", "_raw", "_rng", "_used", "exact")

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._bits = rng.bit_generator
        self.exact = REPLAY_MATCHES_NUMPY and type(self._bits) is np.random.PCG64
        self._raw: list[int] = []
        self._fetched = self._used = 0
        self._has_half, self._half = 0, 0
        if self.exact:
            state = self._bits.state
            self._has_half, self._half = state["has_uint32"], state["uinteger"]

    def _next32(self) -> int:
        if self._has_half:
            self._has_half = 0
            return self._half
        used = self._used
        if used == self._fetched:
            self._raw = self._bits.random_raw(_BLOCK).tolist()
            self._fetched += _BLOCK
            used = self._used
        word = self._raw[used - self._fetched + _BLOCK]
        self._used = used + 1
        self._has_half, self._half = 1, word >> 32
        return word & _MASK32

    def __call__(self, n: int) -> int:
        if not self.exact or not 1 <= n <= _MASK32:
            return int(self._rng.integers(n))
        if n == 1:
            return 0  # numpy draws nothing for a range of one value
        while True:  # Lemire: scale a 32-bit draw by n, reject the few that would bias it
            if self._has_half:
                self._has_half = 0
                m = self._half * n
            else:
                m = self._next32() * n
            leftover = m & _MASK32
            if leftover >= n or leftover >= (_MASK32 - (n - 1)) % n:
                return m >> 32

    def close(self) -> None:
        """Put the generator where the same ``rng.integers`` calls would have left it."""
        if not self.exact:
            return
        unused = self._fetched - self._used
        if unused:
            self._bits.advance(_TURN - unused)
        state = self._bits.state
        if (state["has_uint32"], state["uinteger"]) != (self._has_half, self._half):
            state["has_uint32"], state["uinteger"] = self._has_half, self._half
            self._bits.state = state
        self._raw, self._fetched, self._used = [], 0, 0


def _replay_matches_numpy() -> bool:
    """Whether this numpy draws ``integers(n)`` as the replay does (checked on one fixed run,
    with every kind of ``n``: one value, small, a power of two, near 2**32)."""
    global REPLAY_MATCHES_NUMPY
    REPLAY_MATCHES_NUMPY = True
    sizes = [int(n) for n in np.random.default_rng(0).integers(1, 70, size=400)]
    sizes += [1, 2, 1 << 20, 3 << 30, _MASK32 - 1, _MASK32, 1, 5]
    reference = np.random.default_rng(12345)
    reference.integers(2)  # start with a kept half
    expected = [int(reference.integers(n)) for n in sizes]
    replayed = np.random.default_rng(12345)
    replayed.integers(2)
    draws = IntegerDraws(replayed)
    got = [draws(n) for n in sizes]
    draws.close()
    REPLAY_MATCHES_NUMPY = got == expected and replayed.bit_generator.state == reference.bit_generator.state
    return REPLAY_MATCHES_NUMPY


REPLAY_MATCHES_NUMPY = False
_replay_matches_numpy()
