"""Information states for every game and every declared configuration (the design card's
promise: an observation is a function of what its seat has seen, and nothing seen is lost).

The checks live in ``information.py``; the toy games in ``toys.py`` show each one can fail.
"""

from __future__ import annotations

import functools

import pytest

from tests.conftest import conformance_params
from yokai_envs.registry import game_class, live_id

from .information import (
    deal_twin_problems,
    placement_problems,
    recall_problems,
    recorded_game,
    twin_problems,
    views_problems,
)
from .toys import ForgetfulPeekGame, PeekGame

YONKAI = live_id("yonkai_no_yokai")


def _maker(env_id: str, options: dict):
    return functools.partial(game_class(env_id), **options)


# Games whose every decision is public (Yonkai: each play and pass is made face up) have no two
# actions a seat sees alike, so no twin points: all they hide is dealt, which the deal twins check.
ALL_DECISIONS_PUBLIC: set[str] = {YONKAI}


# ---------------------------------------------------------------------- the checks can fail
def test_an_honest_toy_passes_every_check() -> None:
    for options in ({}, {"shown": True}):
        make = functools.partial(PeekGame, **options)
        tried, problems = twin_problems(make, range(30))
        assert tried > 0 and problems == []
        assert deal_twin_problems(make, range(30))[1] == []
        assert recall_problems(make, range(5)) == [] and views_problems(make, range(5)) == []
    checked, problems = placement_problems(functools.partial(PeekGame, shown=True), range(10), every=1)
    assert checked > 0 and problems == []


@pytest.mark.parametrize("leak", ["observation", "mask"])
def test_twins_catch_a_leaking_observation_or_mask(leak: str) -> None:
    tried, problems = twin_problems(functools.partial(PeekGame, leak=leak), range(30))
    assert tried > 0 and problems, "the twin check missed a leak"
    assert ("observations differ in own_secret" if leak == "observation" else "masks differ") in problems[0]
    assert deal_twin_problems(functools.partial(PeekGame, leak=leak), range(30))[1]


def test_determinize_that_forgets_a_shown_card_is_caught() -> None:
    _, problems = placement_problems(functools.partial(PeekGame, shown=True, leak="determinize"), range(10), every=1)
    assert problems and "knows" in problems[0]


def test_an_information_state_that_forgets_is_caught() -> None:
    assert recall_problems(functools.partial(ForgetfulPeekGame), range(3))


# ---------------------------------------------------------------------- every game
@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_public_views_and_public_names_agree(env_id: str, options: dict) -> None:
    assert views_problems(_maker(env_id, options), range(3)) == []


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_twin_histories_give_equal_observations_and_masks(env_id: str, options: dict) -> None:
    tried, problems = twin_problems(_maker(env_id, options), range(40))
    assert problems == [], "\n".join(problems[:5])
    alone = _maker(env_id, options)().num_players == 1  # one seat: no other seat's decision to split at
    if env_id in ALL_DECISIONS_PUBLIC:
        assert tried == 0, "a decision some seat sees only in part: not every decision is public"
    else:
        assert tried >= 100 or alone, f"only {tried} twin pairs"


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_deal_twins_give_equal_observations_and_masks(env_id: str, options: dict) -> None:
    tried, problems = deal_twin_problems(_maker(env_id, options), range(40))
    assert problems == [], "\n".join(problems[:5])
    assert tried >= 40


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_information_states_only_grow(env_id: str, options: dict) -> None:
    assert recall_problems(_maker(env_id, options), range(3)) == []


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_determinize_keeps_every_known_placement(env_id: str, options: dict) -> None:
    _, problems = placement_problems(_maker(env_id, options), range(4))
    assert problems == [], "\n".join(problems)


@pytest.mark.soak
@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_soak_thousands_of_twins(env_id: str, options: dict) -> None:
    tried, problems = twin_problems(_maker(env_id, options), range(1000, 1400))
    assert problems == [], "\n".join(problems[:5])
    deal_tried, deal_problems = deal_twin_problems(_maker(env_id, options), range(1000, 1400))
    assert deal_problems == [], "\n".join(deal_problems[:5])
    # A game whose every decision is public, or that has one seat, has no twin points: its
    # hidden cards are all dealt, and the deal twins (two per seed) carry the check.
    alone = _maker(env_id, options)().num_players == 1
    assert tried + deal_tried >= (700 if env_id in ALL_DECISIONS_PUBLIC or alone else 2000)


@pytest.mark.parametrize(("env_id", "options"), conformance_params()[:1] + conformance_params()[-1:])
def test_comparing_events_since_a_split_is_comparing_information_states(env_id: str, options: dict) -> None:
    """The twin check compares what the observer saw since the split; that must be the same test
    as comparing whole information states."""
    import numpy as np

    from .helpers import random_action

    game = recorded_game(_maker(env_id, options), 8)
    rng = np.random.default_rng(0)
    for _ in range(5):
        game.step(random_action(game, rng))
    first, second = game.clone(), game.clone()
    shared = len(game.seen_events(0))
    for _ in range(60):
        if first.is_over or second.is_over:
            break
        for seat in range(game.num_players):
            same_events = first.events_since(seat, shared) == second.events_since(seat, shared)
            assert same_events == (first.information_state(seat) == second.information_state(seat))
        first.step(random_action(first, rng))
        second.step(random_action(second, rng))


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_a_sampled_world_gives_other_seats_a_belief_not_their_real_past(env_id: str, options: dict) -> None:
    """In a world ``determinize(seat)`` sampled, another seat's record is ``seat``'s own plus a
    digest of its view of the world: never its real private past (which would contradict the
    world and hand the real cards to a search keying nodes by information states), and equal
    strings give equal legal actions (what OpenSpiel's ISMCTS asks of them)."""
    import numpy as np

    from yokai_envs.core.information import SAMPLED_VIEW

    from .helpers import random_action

    rng = np.random.default_rng(0)
    masks: dict[tuple[int, str], bytes] = {}
    for seed in range(3):
        game = recorded_game(_maker(env_id, options), seed)
        while not game.is_over:
            for seat in range(game.num_players):
                world = game.determinize(seat, rng)
                assert world.seed is None
                assert world.seen_events(seat) == game.seen_events(seat)
                for other in range(game.num_players):
                    if other != seat:
                        events = world.seen_events(other)
                        assert events[:-1] == game.seen_events(seat) and events[-1][0] == SAMPLED_VIEW
                if not world.is_over and world.current_player != seat:
                    key = (world.current_player, world.information_state(world.current_player))
                    mask = world.legal_action_mask().tobytes()
                    assert masks.setdefault(key, mask) == mask, "one sampled information state, two action sets"
            game.step(random_action(game, rng))
            if game.steps > 60:
                break


def test_a_world_of_a_game_not_recording_cannot_replay_the_real_deal() -> None:
    import numpy as np

    game = game_class(YONKAI)(num_players=4)
    game.reset(3)
    game.step(int(np.flatnonzero(game.legal_action_mask())[0]))
    assert "your hand" in game.public_log(1)[1]  # the real game rebuilds its record from its seed
    world = game.determinize(0, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="world determinize sampled"):
        world.seen_events(1)
