"""A scripted scenario per rule of the Yonkai no Yokai rulebook."""

from __future__ import annotations

import numpy as np
import pytest

import yokai_envs
from tests.yonkai_no_yokai.helpers import button, deal, legal, play, run
from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.yonkai_no_yokai.actions import (
    NUM_ACTIONS,
    PASS,
    ActionKind,
    action_kind,
    action_of_play,
    play_of,
    play_of_action,
)
from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.state import ASCENDING, DESCENDING, Phase

EVERYTHING = "111122223333444455556666"


@pytest.mark.parametrize(("players", "per_hand", "copies"), [(3, 16, 8), (4, 15, 10)])
def test_setup_deals_the_whole_deck(players: int, per_hand: int, copies: int) -> None:
    game = YonkaiGame(num_players=players)
    game.reset(seed=7)
    assert game.hand_sizes == [per_hand] * players
    assert (game.hands.sum(axis=0) == copies).all()
    assert game.cubes == [4] * players and all(game.button_available)
    assert game.direction == ASCENDING and game.last_count == 0


def test_lead_is_any_single_and_leader_cannot_pass() -> None:
    game = deal(["1135", "246", "66"], leader=0)
    assert legal(game) == {"play 1", "play 3", "play 5"}
    with pytest.raises(IllegalActionError, match="lead"):
        game.step(0)
    with pytest.raises(IllegalActionError):
        game.step(play("11"))


def test_ascending_same_count_higher_or_one_more_lower() -> None:
    # Rulebook example: after a single 3 the allowable plays are 4 - 5 - 6 - 11 - 22.
    game = run(deal(["3" + "1", EVERYTHING, "66"], leader=0), play("3"))
    plain = {name for name in legal(game) if not name.startswith("button")}
    assert plain == {"pass", "play 4", "play 5", "play 6", "play 11", "play 22"}


def test_descending_example_after_2222() -> None:
    # Rulebook example: after 2222 flipped to Descending: 1111 - 666 - 555 - 444 - 333.
    game = deal(["5", EVERYTHING, "66"], leader=0)  # seat 0's 2222 is among the played cards
    game.last_count, game.last_value, game.last_player, game.to_act = 4, 2, 0, 1
    game.invalidate_mask()
    plain = {name for name in legal(game) if not name.startswith("button")}
    going_down = {"play 1111", "play 333", "play 444", "play 555", "play 666"}
    going_up = {"play 3333", "play 4444", "play 5555", "play 6666"}
    assert plain == {"pass"} | going_down | going_up
    # the free flip: 1111 and the triples go down, 3333 keeps going up
    run(game, play("333"))
    assert game.direction == DESCENDING


def test_free_flip_at_a_single_while_descending() -> None:
    game = deal(["5", EVERYTHING, "6"], leader=0)
    game.direction, game.last_count, game.last_value, game.last_player, game.to_act = DESCENDING, 1, 4, 0, 1
    game.invalidate_mask()
    plain = {name for name in legal(game) if not name.startswith("button")}
    # lower singles continue down; higher singles and lower pairs flip up for free
    assert plain == {"pass", "play 1", "play 2", "play 3", "play 5", "play 6", "play 11", "play 22", "play 33"}
    run(game, play("22"))
    assert game.direction == ASCENDING


def test_automatic_flips() -> None:
    game = deal(["1", "6666" + "5", "4"], leader=1)
    game.last_count, game.last_value, game.last_player, game.to_act = 4, 5, 2, 1
    game.passed = [False, False, False]
    game.direction = ASCENDING
    game.invalidate_mask()
    run(game, play("6666"))
    assert game.direction == DESCENDING
    game2 = deal(["15", "4", "3"], leader=0)
    game2.direction, game2.last_count, game2.last_value, game2.last_player, game2.to_act = DESCENDING, 1, 2, 2, 0
    game2.invalidate_mask()
    run(game2, play("1"))
    assert game2.direction == ASCENDING


def test_button_is_a_flip_and_play_in_one_action() -> None:
    game = run(deal(["3" + "6", "2" + "1" + "55", "66"], leader=0), play("3"))
    # ascending after a single 3: a lower single needs the button
    assert "button, flip, play 2" in legal(game) and "play 2" not in legal(game)
    run(game, button("2"))
    assert game.direction == DESCENDING and not game.button_available[1]
    assert game.last_count == 1 and game.last_value == 2 and game.to_act == 2


def test_button_play_of_a_single_1_flips_back_up() -> None:
    game = run(deal(["3" + "6", "1" + "55", "66"], leader=0), play("3"), button("1"))
    assert game.direction == ASCENDING, "a single 1 played going down flips the direction automatically"


def test_button_masked_where_free_flip_allows() -> None:
    game = deal(["5", "3333" + "444" + "6", "6"], leader=0)
    game.last_count, game.last_value, game.last_player, game.to_act = 4, 4, 0, 1
    game.invalidate_mask()
    names = legal(game)
    assert "play 3333" in names and "play 666" not in names
    assert not any(name.startswith("button") for name in names), "free flip needs no button"


def test_button_reclaimed_on_pass_and_new_round() -> None:
    game = run(deal(["36" + "1", "2" + "55", "66"], leader=0), play("3"), button("2"))
    assert not game.button_available[1]
    run(game, "pass")  # seat 2 passes
    run(game, play("6"))  # seat 0: at a single going down, a higher single flips up for free
    assert game.last_value == 6 and game.direction == ASCENDING
    assert game.to_act == 1 and legal(game) == {"pass", "play 55"}, "a spent button cannot flip to a 5"
    run(game, "pass")  # seat 1 passes and takes its button back
    assert game.button_available[1]


def test_passed_players_sit_out_then_rejoin_on_single() -> None:
    game = run(deal(["3" + "11" + "5", "44" + "6", "6" + "2"], leader=0), play("3"))
    run(game, "pass")  # seat 1 sits out
    assert game.passed[1]
    run(game, play("6"))  # seat 2 plays a single: the elevator is back on the 1st floor
    assert not game.passed[1], "a single lets passed players rejoin"
    run(game, play("11"))  # seat 0: one more card of lower value
    assert game.to_act == 1
    run(game, play("44"))  # seat 1 plays again after rejoining
    assert game.last_player == 1


def test_trick_ends_when_all_but_one_passed() -> None:
    game = run(deal(["3" + "2", "1", "1"], leader=0), play("3"))
    run(game, "pass", "pass")
    # seat 0 played last and is the only one left: it leads a new trick, ascending
    assert game.to_act == 0 and game.last_count == 0 and game.direction == ASCENDING
    assert not any(game.passed)
    assert legal(game) == {"play 2"}


def test_round_end_losses_and_winner_leads() -> None:
    game = deal(["3", "1122", "12"], leader=0)
    run(game, play("3"))
    assert game.rounds_completed == 1
    assert game.cubes == [4, 2, 3], "most cards lose 2, every other seat loses 1, the emptier is safe"
    assert game.to_act == 0 and game.hand_sizes == [16, 16, 16], "new deal, winner leads"
    assert all(game.button_available)


def test_round_end_tied_most_cards_all_lose_two() -> None:
    game = run(deal(["3", "12", "12"], leader=0), play("3"))
    assert game.cubes == [4, 2, 2]


def test_game_end_counts_after_losses_clamped() -> None:
    game = run(deal(["3", "1122", "12"], leader=0, cubes=[1, 1, 3]), play("3"))
    assert game.is_terminal
    assert game.cubes == [1, 0, 2]
    assert game.winners == [2]
    assert list(game.returns()) == [-1.0, -1.0, 1.0]


def test_tied_winners_share_victory() -> None:
    game = run(deal(["3", "12", "1"], leader=0, cubes=[2, 1, 3]), play("3"))
    assert game.is_terminal and game.cubes == [2, 0, 2]
    assert game.winners == [0, 2]
    assert list(game.returns()) == [1.0, -1.0, 1.0]


def test_lives_reward() -> None:
    game = run(deal(["3", "1122", "12"], leader=0, cubes=[4, 1, 4], reward="lives"), play("3"))
    assert list(game.returns()) == [0.0, -1.0, -1.0], "never more than the cubes a seat had"
    assert game.is_terminal


def test_rounds_per_game_cap() -> None:
    game = run(deal(["3", "1122", "12"], leader=0, rounds_per_game=1), play("3"))
    assert game.is_terminal and not game.is_truncated
    assert game.winners == [0]


def test_first_leader_from_seed() -> None:
    leaders = set()
    for seed in range(20):
        game = YonkaiGame(num_players=4)
        game.reset(seed)
        leaders.add(game.current_player)
        again = YonkaiGame(num_players=4)
        again.reset(seed)
        assert again.current_player == game.current_player
    assert leaders == {0, 1, 2, 3}


def test_observation_shows_own_hand_and_no_other() -> None:
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=4)
    env.reset(seed=1)
    game = env.unwrapped.game
    layout = env.unwrapped.observation_layout
    for seat in range(4):
        observation = game.observation(seat)
        assert np.allclose(observation[layout["hand"]] * game.copies, game.hands[seat])
        assert observation[layout["hand_sizes"]][0] == game.hand_sizes[seat] / 15
    # swapping two other seats' hands (same sizes) leaves seat 0's view unchanged
    before = game.observation(0)
    game.hands[[1, 2]] = game.hands[[2, 1]]
    assert np.array_equal(game.observation(0), before)


def test_bad_options_are_named() -> None:
    with pytest.raises(ConfigError, match="num_players must be 3 or 4"):
        YonkaiGame(num_players=5)
    with pytest.raises(ConfigError, match="reward must be one of"):
        YonkaiGame(reward="points")
    with pytest.raises(ConfigError, match="rounds_per_game"):
        YonkaiGame(rounds_per_game=0)
    with pytest.raises(ValueError, match="valid options"):
        yokai_envs.make("yonkai_no_yokai_v1", players=4)


def test_action_table_is_fixed() -> None:
    game = YonkaiGame()
    assert game.num_actions == 49
    assert game.action_name(0) == "pass"
    assert game.action_name(1 + 6 * 2 + 4) == "play 555"
    assert game.action_name(25 + 6 * 1 + 0) == "button, flip, play 11"


def test_action_encode_decode_round_trip() -> None:
    for action in range(1, NUM_ACTIONS):
        play, with_button = play_of_action(action)
        count, value = play_of(play)
        assert action_of_play(count, value, with_button) == action
        assert action_kind(action) == (ActionKind.BUTTON_PLAY if with_button else ActionKind.PLAY)
    assert action_kind(PASS) == ActionKind.PASS


def test_phase_names() -> None:
    game = deal(["3" + "2", "1", "1"], leader=0)
    assert game.phase == Phase.LEAD and game.phase_name == "lead"
    run(game, play("3"))
    assert game.phase == Phase.FOLLOW and game.phase_name == "follow"
    game = run(deal(["3", "1122", "12"], leader=0, cubes=[1, 1, 3]), play("3"))
    assert game.phase == Phase.GAME_OVER and game.phase_name == "game over"


def test_game_attributes_are_the_state() -> None:
    game = deal(["3" + "2", "1", "1"], leader=0)
    game.cubes = [1, 2, 3]
    assert game.state.cubes == [1, 2, 3]
    assert game.hands is game.state.hands and game.played_by is game.state.played_by
    run(game, play("3"))
    assert game.played_by[0].tolist() == [0, 0, 1, 0, 0, 0]
