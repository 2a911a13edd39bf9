"""What each seat sees: the events it is told, the observation that keeps every public
fact of the round, and the findings of the review (each test failed on ``yonkai_no_yokai_v0``)."""

from __future__ import annotations

import numpy as np
import pytest

import yokai_envs
from agents.base import RandomAgent, act_in_game
from tests.yonkai_no_yokai.helpers import button, deal, play, run
from yokai_envs.core.information import CoreEvent
from yokai_envs.yonkai_no_yokai.actions import action_of_play, play_index
from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.observation import most_rounds
from yokai_envs.yonkai_no_yokai.state import DESCENDING, NUM_PLAYS, VALUES, YonkaiEvent


def block(game: YonkaiGame, seat: int, name: str) -> np.ndarray:
    return game.observation(seat)[game.observation_layout[name]]


def recording(num_players: int = 4, seed: int = 0, **options) -> YonkaiGame:
    game = YonkaiGame(num_players=num_players, **options)
    game.record_information()
    game.reset(seed)
    return game


def random_steps(game: YonkaiGame, steps: int, seed: int = 0) -> None:
    bot = RandomAgent(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.step(act_in_game(bot, game))


# ---------------------------------------------------------------------- findings of the review
def test_plays_are_kept_per_seat_not_only_as_the_table_total() -> None:
    game = run(deal(["2" + "66", "3" + "1", "5" + "1"], leader=0), play("2"), play("3"), play("5"))
    played = block(game, 1, "played_by_seat").reshape(3, VALUES) * game.copies  # seat 1 first
    assert played[0].tolist() == [0, 0, 1, 0, 0, 0]  # its own 3
    assert played[1].tolist() == [0, 0, 0, 0, 1, 0]  # seat 2's 5
    assert played[2].tolist() == [0, 1, 0, 0, 0, 0]  # seat 0's 2


def test_passes_say_which_plays_a_seat_turned_down() -> None:
    game = run(deal(["3" + "66", "44" + "1", "5" + "1"], leader=0), play("3"), "pass")
    passed_on = block(game, 0, "passed_on").reshape(3, NUM_PLAYS)[1]  # seat 1, as seat 0 sees it
    # after a single 3 going up: 4 5 6 11 22 without the button, 1 2 with it (it still had it)
    expected = {play_index(1, v) for v in (1, 2, 4, 5, 6)} | {play_index(2, 1), play_index(2, 2)}
    assert set(np.flatnonzero(passed_on).tolist()) == expected
    assert not block(game, 0, "passed_on").reshape(3, NUM_PLAYS)[[0, 2]].any()


def test_a_pass_without_the_button_turned_down_only_the_plain_plays() -> None:
    game = run(deal(["3" + "66", "2" + "55", "6" + "4"], leader=0), play("3"), button("2"), play("4"), "pass")
    # seat 0 passed after seat 2's 4 going down: lower singles 1 2 3 (and, a single going down, a
    # free flip up to 5 6 and pairs 11 22 33); it held its button, so nothing more opens
    passed_on = block(game, 0, "passed_on").reshape(3, NUM_PLAYS)[0]
    free = game.state.tables.free[DESCENDING, 1, 4]
    assert np.flatnonzero(passed_on).tolist() == sorted(np.flatnonzero(free).tolist())


def test_the_round_is_observed_so_a_capped_game_is_markov() -> None:
    game = deal(["3", "1122", "12"], leader=0, rounds_per_game=3)
    before = game.observation(0)
    run(game, play("3"))
    assert game.rounds_completed == 1 and block(game, 0, "round")[0] == pytest.approx(1 / 3)
    twin = deal(["3", "1122", "12"], leader=0, rounds_per_game=3)
    twin.rounds_completed = 2
    assert not np.array_equal(twin.observation(0), before), "the same table in another round looks the same"
    assert most_rounds(YonkaiGame(num_players=4).setup) == 6 and most_rounds(YonkaiGame(num_players=3).setup) == 7


def test_nobody_is_to_act_once_the_game_is_truncated() -> None:
    game = YonkaiGame(num_players=4, max_steps=3)
    game.reset(0)
    random_steps(game, 3)
    assert game.is_truncated and game.current_player == -1
    for seat in range(4):
        assert not block(game, seat, "to_act").any()


def test_no_last_player_at_a_lead() -> None:
    game = deal(["3" + "2", "1", "1"], leader=0)
    assert not block(game, 0, "last_player").any()
    run(game, play("3"))
    assert block(game, 1, "last_player").tolist() == [0, 0, 1]  # seat 0, two seats on from seat 1
    run(game, "pass", "pass")  # seat 0 leads the next trick
    assert game.last_count == 0 and game.to_act == 0
    for seat in range(3):
        assert not block(game, seat, "last_player").any(), "the leader pointed at itself"
        assert block(game, seat, "leading")[0] == 1


def test_every_observation_entry_is_in_its_bounds() -> None:
    for players in (3, 4):
        game = YonkaiGame(num_players=players)
        low, high = game.observation_bounds()
        assert (low == 0).all() and (high == 1).all()
        for seed in range(3):
            game.reset(seed)
            bot = RandomAgent(seed)
            while not game.is_over:
                for seat in range(players):
                    observation = game.observation(seat)
                    assert ((observation >= low) & (observation <= high)).all()
                game.step(act_in_game(bot, game))
            observation = game.observation(0)
            assert ((observation >= low) & (observation <= high)).all()


# ---------------------------------------------------------------------- events
def test_each_seat_is_dealt_its_own_hand_alone() -> None:
    game = recording(seed=3)
    for seat in range(4):
        events = game.seen_events(seat)
        assert events[0] == (YonkaiEvent.ROUND_STARTED, 1, game.to_act)
        dealt = [e for e in events if e[0] == YonkaiEvent.DEALT]
        assert dealt == [(YonkaiEvent.DEALT, *game.hands[seat].tolist())]


def test_trick_direction_round_and_game_ends_are_public_events() -> None:
    game = recording(num_players=3, seed=1, rounds_per_game=2)
    random_steps(game, 10_000, seed=2)
    assert game.is_terminal
    events = game.seen_events(0)
    public = [e for e in events if e[0] != YonkaiEvent.DEALT]
    assert public == [e for e in game.seen_events(1) if e[0] != YonkaiEvent.DEALT]
    kinds = [e[0] for e in events]
    for kind in (YonkaiEvent.TRICK_ENDED, YonkaiEvent.DIRECTION, YonkaiEvent.ROUND_ENDED, YonkaiEvent.CUBES_LOST):
        assert kind in kinds, kind.name
    assert kinds.count(YonkaiEvent.ROUND_STARTED) == 2 and kinds.count(YonkaiEvent.DEALT) == 2
    assert kinds[-1] == YonkaiEvent.GAME_ENDED
    lost = {s: 0 for s in range(3)}
    for e in events:
        if e[0] == YonkaiEvent.CUBES_LOST:
            lost[e[1]] += e[2]
    assert [4 - lost[s] for s in range(3)] == game.cubes
    # every decision is seen whole by every seat
    assert sum(e[0] == CoreEvent.ACTED for e in events) == game.steps
    log = game.public_log(0)
    assert log[0].startswith("round 1 dealt") and log[1].startswith("your hand: ")
    assert any("Life cube" in line for line in log) and log[-1] == "the game ends"


def test_a_recording_game_and_its_clone_record_apart() -> None:
    game = recording(seed=4)
    before = game.information_state(1)
    other = game.clone()
    random_steps(other, 5)
    assert game.information_state(1) == before
    assert other.information_state(1).startswith(before) and other.information_state(1) != before


def test_determinize_keeps_what_the_seat_knows_of_the_hidden_hands() -> None:
    game = recording(seed=5)
    random_steps(game, 25)
    facts = game.known_placements(2)
    assert facts[0][0] == "hidden union" and len(facts) == 4
    assert all(game.placement_holds(f) for f in facts)
    rng = np.random.default_rng(0)
    worlds = [game.determinize(2, rng) for _ in range(20)]
    assert all(world.placement_holds(f) for world in worlds for f in facts)
    assert any(not np.array_equal(world.hands, game.hands) for world in worlds)


def test_history_option_rows_are_events() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=3, history=4)
    env.reset(seed=0)
    agent = env.agent_selection
    rows = env.observe(agent)["history"]
    assert rows.shape == (4, 7)  # (kind, up to 6 args): a deal carries one count per value
    seat = env.agents.index(agent)
    assert rows[-1].tolist() == [YonkaiEvent.DEALT, *env.unwrapped.game.hands[seat].tolist()]
    assert rows[-2].tolist()[:3] == [YonkaiEvent.ROUND_STARTED, 1, env.unwrapped.game.to_act]
    assert rows[0].tolist() == [-1] * 7


def test_the_retired_id_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'yonkai_no_yokai_v0' was retired.*yonkai_no_yokai_v1"):
        yokai_envs.make("yonkai_no_yokai_v0")


def test_decisions_are_public_under_their_names() -> None:
    game = recording(seed=6)
    action = int(np.flatnonzero(game.legal_action_mask())[0])
    assert all(game.public_action(action, s) == action for s in range(4))
    assert game.action_name(action) == "play " + str(action)
    left = game.hand_sizes[game.to_act] - 1
    assert game.public_action_name(action, 2) == f"play {action} (lead), {left} cards left"  # a trick's opener
    assert action == action_of_play(1, action)
