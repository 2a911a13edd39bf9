"""Checks of the one engine shape that every game's state tests run on its own games: the core
owns cloning, a state copy shares nothing a step changes, a dropped sampled world is freed at once, and a
new generator reaches the rules."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from yokai_envs.core.game import Game
from yokai_envs.registry import make_game


def recording_game_after(env_id: str, options: dict[str, Any], moves: int, seed: int = 3) -> Game:
    """A game of ``env_id`` that records its information, ``moves`` first-legal moves into deal ``seed``."""
    game = make_game(env_id, **options)
    game.record_information()
    game.reset(seed)
    for _ in range(moves):
        game.step(game.legal_actions()[0])
    return game


def assert_a_state_copy_shares_nothing(state: Any, keep: set[str], mutable_parts: Callable[[object], list[object]],
                                       where: str = "") -> None:
    """``state.copy()`` has the state's fields, and shares no part ``mutable_parts`` finds in any
    field but those in ``keep`` (fixed for the game, or replaced and never changed in place)."""
    copy = state.copy()
    assert set(vars(copy)) == set(vars(state))
    for name, value in vars(state).items():
        if name in keep:
            continue
        originals = {id(part) for part in mutable_parts(value)}
        shared = [part for part in mutable_parts(getattr(copy, name)) if id(part) in originals]
        assert not shared, f"State.copy shares part of field {name!r}{where}"


def assert_the_core_clones(game: Game, steps: int) -> None:
    """The game overrides none of the core's clone machinery, and stepping a clone ``steps``
    times leaves the original's observations as they were."""
    for method in ("clone", "is_over", "legal_actions", "__deepcopy__"):
        assert method not in vars(type(game)), method
    twin = game.clone()
    assert twin.state is not game.state and twin.rng is not game.rng
    before = [game.observation(seat) for seat in range(game.num_players)]
    for _ in range(steps):
        twin.step(twin.legal_actions()[-1])
    assert all(np.array_equal(game.observation(seat), seen) for seat, seen in enumerate(before))


def assert_a_dropped_world_is_freed(game: Game) -> None:
    """A world ``determinize`` sampled from ``game`` (recording) is freed once dropped, without
    the cycle collector: its rules context holds no reference back to it."""
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


def assert_a_new_generator_reaches_the_rules(game: Game, chance: Callable[[Game], Any]) -> None:
    """Rules read the generator through the rules context; invalidate_mask drops a context made
    with the old one, so twins handed equal generators keep equal ``chance(twin)`` and a different
    one diverges."""
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
        assert chance(twins[0]) == chance(twins[1])
        if action in twins[2].legal_actions():
            twins[2].step(action)
        diverged = diverged or chance(twins[2]) != chance(twins[0])
    assert diverged
