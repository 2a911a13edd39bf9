"""The one layout builder every game's observer uses."""

from __future__ import annotations

import numpy as np
import pytest

from yokai_envs.core.layout import build_layout, layout_bounds, layout_size, layout_starts
from yokai_envs.registry import ENV_IDS, game_class


def test_blocks_are_laid_back_to_back_in_order() -> None:
    layout = build_layout([("hand", 6), ("flags", 0), ("cubes", 4)])
    assert list(layout) == ["hand", "flags", "cubes"]
    assert layout["hand"] == slice(0, 6) and layout["flags"] == slice(6, 6) and layout["cubes"] == slice(6, 10)
    assert layout_size(layout) == 10 and layout_starts(layout) == {"hand": 0, "flags": 6, "cubes": 6}
    assert layout_size({}) == 0


@pytest.mark.parametrize("blocks", [[("a", 2), ("a", 3)], [("a", -1)]])
def test_a_repeated_name_or_negative_width_is_refused(blocks: list[tuple[str, int]]) -> None:
    with pytest.raises(ValueError, match="'a'"):
        build_layout(blocks)


def test_bounds_default_to_unit_and_take_per_block_values() -> None:
    layout = build_layout([("hand", 3), ("signed", 2)])
    low, high = layout_bounds(layout, highs={"hand": np.array([1, 2, 3])}, lows={"signed": -1.0})
    assert low.dtype == np.float32 and list(low) == [0, 0, 0, -1, -1] and list(high) == [1, 2, 3, 1, 1]
    with pytest.raises(KeyError, match="nope"):
        layout_bounds(layout, highs={"nope": 2.0})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_layout_tiles_its_observation(env_id: str) -> None:
    """Blocks cover the observation exactly once, in order, with no gap and no overlap."""
    cls = game_class(env_id)
    for config in cls.CONFORMANCE_CONFIGS:
        game = cls(**config)
        game.reset(0)
        at = 0
        for name, block in game.observation_layout.items():
            assert block.start == at, (env_id, config, name)
            at = block.stop
        assert at == game.observation_size == game.observation(0).shape[0]
