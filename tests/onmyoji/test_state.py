"""The Onmyoji table is plain data: a copy shares nothing that a step changes, the game leaves
cloning to the core, and sampled worlds are freed as soon as a search drops them."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from yokai_envs.onmyoji.game import OnmyojiGame
from yokai_envs.onmyoji.state import Enemy, Player, State

# Shared on purpose: a pending target choice is replaced, never changed in place.
SHARED_BY_DESIGN = {"target_ctx"}


def _played(steps: int, mode: str = "coop", seed: int = 5) -> OnmyojiGame:
    game = OnmyojiGame(mode=mode)
    game.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        game.step(legal[rng.integers(len(legal))])
    return game


def _mutable_parts(value: object) -> list[object]:
    """``value`` and every list, dict, set, array, Onmyoji or enemy inside it."""
    if isinstance(value, list):
        return [value, *(part for item in value for part in _mutable_parts(item))]
    if isinstance(value, dict):
        return [value, *(part for item in value.values() for part in _mutable_parts(item))]
    if isinstance(value, (set, np.ndarray)):
        return [value]
    if isinstance(value, (Player, Enemy)):
        return [value, *(part for name in type(value).__slots__ for part in _mutable_parts(getattr(value, name)))]
    return []


def test_a_state_copy_shares_nothing_mutable_but_the_fields_fixed_for_the_game() -> None:
    for mode in ("solo", "duel", "coop"):
        state = _played(60, mode).state
        copy = state.copy()
        assert set(vars(copy)) == set(vars(state))
        for name, value in vars(state).items():
            if name in State.FIXED or name in SHARED_BY_DESIGN:
                continue
            originals = {id(part) for part in _mutable_parts(value)}
            shared = [part for part in _mutable_parts(getattr(copy, name)) if id(part) in originals]
            assert not shared, f"State.copy shares part of field {name!r} ({mode})"


def test_the_game_leaves_clone_and_is_over_and_legal_actions_to_the_core() -> None:
    for method in ("clone", "is_over", "legal_actions", "__deepcopy__"):
        assert method not in vars(OnmyojiGame), method
    game = _played(40)
    twin = game.clone()
    assert twin.state is not game.state and twin.rng is not game.rng
    before = [game.observation(seat) for seat in (0, 1)]
    for _ in range(20):
        twin.step(twin.legal_actions()[-1])
    assert all(np.array_equal(game.observation(seat), seen) for seat, seen in enumerate(before))


def test_game_attributes_read_and_write_the_state() -> None:
    game = _played(10, "duel")
    assert game.players is game.state.players
    game.first_seat = 1
    assert game.state.first_seat == 1


def test_a_dropped_sampled_world_is_freed_without_the_cycle_collector() -> None:
    game = OnmyojiGame(mode="duel")
    game.record_information()
    game.reset(3)
    for _ in range(30):
        game.step(game.legal_actions()[0])
    rng = np.random.default_rng(1)
    gc.disable()
    try:
        world = game.determinize(game.current_player, rng)
        world.step(world.legal_actions()[0])  # the world's rules context is made and used
        ref = weakref.ref(world)
        del world
        assert ref() is None
    finally:
        gc.enable()


def test_a_game_handed_a_new_generator_draws_its_chance_from_it() -> None:
    """Rules read the generator through the rules context; invalidate_mask drops a context made
    with the old one, so twins handed equal generators stay equal and a different one diverges
    (Solo reshuffles its Yokai deck at the start of every battle)."""
    game = _played(10, "solo")
    twins = [game.clone() for _ in range(3)]
    for twin, seed in zip(twins, (9, 9, 10), strict=True):
        twin.step(twin.legal_actions()[0])  # each twin has made and used its context
        twin.rng = np.random.default_rng(seed)
        twin.invalidate_mask()
    pick = np.random.default_rng(2)
    diverged = False
    for _ in range(400):
        if any(twin.is_over for twin in twins):
            break
        legal = twins[0].legal_actions()
        action = legal[pick.integers(len(legal))]
        for twin in twins[:2]:
            twin.step(action)
        assert twins[0].state.yokai_deck == twins[1].state.yokai_deck
        if action in twins[2].legal_actions():
            twins[2].step(action)
        diverged = diverged or twins[2].state.yokai_deck != twins[0].state.yokai_deck
    assert diverged
