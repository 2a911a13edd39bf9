"""The mask against a plain reading of the rulebook, on positions drawn by hypothesis."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.state import ASCENDING, DESCENDING


def rulebook_plays(direction: int, count: int, value: int) -> tuple[set, set]:
    """(plays without the button, plays only with it), written straight from the rulebook."""
    def going(d: int) -> set:
        if d == ASCENDING:  # same number of cards higher, or one more card lower
            return {(count, v) for v in range(value + 1, 7)} | {(count + 1, v) for v in range(1, value) if count < 4}
        return {(count, v) for v in range(1, value)} | {(count - 1, v) for v in range(value + 1, 7) if count > 1}

    onward, back = going(direction), going(1 - direction)
    at_free_flip = (direction == ASCENDING and count == 4) or (direction == DESCENDING and count == 1)
    free = onward | back if at_free_flip else onward
    return free, back - free


positions = st.tuples(
    st.lists(st.integers(0, 4), min_size=6, max_size=6).filter(lambda h: sum(h) > 0),
    st.sampled_from([ASCENDING, DESCENDING]),
    st.integers(0, 4),  # 0 = the trick's lead
    st.integers(1, 6),
    st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(positions)
def test_mask_matches_the_rulebook(position: tuple) -> None:
    hand, direction, count, value, has_button = position
    game = YonkaiGame(num_players=4)
    game.reset(seed=0)
    game.hands[1] = hand
    game.hand_sizes[1] = sum(hand)
    game.to_act, game.direction, game.last_count, game.last_value = 1, direction, count, value
    game.last_player = 0 if count else -1
    game.button_available[1] = has_button
    game.invalidate_mask()
    mask = game.legal_action_mask()

    holds = {(c, v) for v in range(1, 7) for c in range(1, 5) if hand[v - 1] >= c}
    if count == 0:
        expected_plain, expected_button = {(1, v) for v in range(1, 7)} & holds, set()
    else:
        free, button_only = rulebook_plays(direction, count, value)
        expected_plain, expected_button = free & holds, (button_only & holds if has_button else set())
    plain = {(i // 6 + 1, i % 6 + 1) for i in np.flatnonzero(mask[1:25])}
    with_button = {(i // 6 + 1, i % 6 + 1) for i in np.flatnonzero(mask[25:49])}
    assert plain == expected_plain
    assert with_button == expected_button
    assert bool(mask[0]) == (count != 0), "pass is legal except at a lead"
