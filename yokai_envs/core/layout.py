"""Named blocks of a flat observation vector, laid out once per game configuration.

Every game's observer builds its ``observation_layout`` here, so the layout loop exists in one
place. A layout is a plain ``dict[str, slice]`` in vector order (the public
``Game.observation_layout``); the helpers below read sizes and start offsets from it and build
the Box bounds from per-block highs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

Layout = dict[str, slice]


def build_layout(blocks: Iterable[tuple[str, int]]) -> Layout:
    """``[(name, width), ...]`` -> ``{name: slice}``, blocks back to back in the order given.

    Raises ValueError on a repeated name or a negative width (a layout is fixed, so a mistake
    here would silently shift every later block).
    """
    layout: Layout = {}
    start = 0
    for name, width in blocks:
        if name in layout:
            raise ValueError(f"observation block {name!r} appears twice")
        if width < 0:
            raise ValueError(f"observation block {name!r} has negative width {width}")
        layout[name] = slice(start, start + int(width))
        start += int(width)
    return layout


def layout_size(layout: Mapping[str, slice]) -> int:
    """Length of the vector a layout describes (0 for an empty layout)."""
    return max((s.stop for s in layout.values()), default=0)


def layout_starts(layout: Mapping[str, slice]) -> dict[str, int]:
    """Start offset of every block (for observers that write with integer offsets)."""
    return {name: int(s.start) for name, s in layout.items()}


def layout_bounds(layout: Mapping[str, slice], highs: Mapping[str, float | np.ndarray] | None = None,
                  lows: Mapping[str, float | np.ndarray] | None = None,
                  default_low: float = 0.0, default_high: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """float32 ``(low, high)`` arrays for a layout: every block in ``[default_low, default_high]``
    unless ``lows``/``highs`` name it (a scalar or an array of the block's width)."""
    size = layout_size(layout)
    low = np.full(size, default_low, dtype=np.float32)
    high = np.full(size, default_high, dtype=np.float32)
    for target, values in ((low, lows), (high, highs)):
        for name, value in (values or {}).items():
            if name not in layout:
                raise KeyError(f"no observation block named {name!r}")
            target[layout[name]] = value
    return low, high
