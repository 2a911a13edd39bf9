"""Opponent-model inference for Yonkai: the heuristic's decisions narrow the hands behind them.

The model (``choices``) must be the heuristic exactly, the true hands of heuristic players must
never be ruled out, worlds must be legal and drawn from the seat's view alone, and a seat that
does not play the heuristic must not break anything.
"""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.base import RandomAgent, act_in_game
from agents.heuristics import NoHeuristicError
from agents.heuristics.yonkai_no_yokai import HeuristicAgent, choices
from agents.heuristics.yonkai_no_yokai_beliefs import Decision, dealt_hands, possible_hands, public_round, world_sampler
from yokai_envs.registry import make_game
from yokai_envs.yonkai_no_yokai.game import YonkaiGame


def games_of(players: list, num_players: int, seeds: range, record: bool = True):
    """Yield (game, seat to act) before every decision of games played by ``players`` (recording
    what each seat sees, unless ``record`` is False: then the beliefs replay the game for it)."""
    for seed in seeds:
        game = YonkaiGame(num_players=num_players)
        game.record_information(record)
        game.reset(seed)
        for bot in players:
            bot.reset(seed)
        while not game.is_over:
            yield game, game.current_player
            game.step(act_in_game(players[game.current_player], game))


@pytest.mark.parametrize("num_players", [3, 4])
def test_choices_is_the_heuristic_on_every_decision(num_players):
    heuristic = HeuristicAgent()
    checked = 0
    for game, seat in games_of([heuristic] * num_players, num_players, range(6)):
        hand = game.hands[seat][None].astype(np.int64)
        model = choices(hand, game.direction, game.last_count, game.last_value, game.button_available[seat])
        assert model[0] == act_in_game(heuristic, game), game.render()
        checked += 1
    assert checked > 300


def test_choices_scores_many_hands_at_once():
    game = YonkaiGame(num_players=4)
    game.reset(0)
    game.step(1 + 2)  # whoever leads plays a single 3 (legal for any hand holding a 3)
    hands = dealt_hands(15, 10)[::29]  # a spread of ~500 deals
    many = choices(hands, game.direction, game.last_count, game.last_value, True)
    one_by_one = [choices(h[None], game.direction, game.last_count, game.last_value, True)[0] for h in hands]
    assert many.tolist() == one_by_one
    assert len(set(one_by_one)) > 3, "different hands should answer differently"


def test_dealt_hands_are_every_deal():
    hands = dealt_hands(15, 10)
    assert (hands.sum(axis=1) == 15).all() and hands.max() == 10 and hands.min() == 0
    # C(20, 5) ways to split 15 cards over 6 values, minus the splits holding 11+ of a value
    assert len({tuple(h) for h in hands.tolist()}) == len(hands) == 15504 - 6 * 126


@pytest.mark.parametrize("num_players", [3, 4])
def test_true_hands_are_never_ruled_out_and_knowledge_grows(num_players):
    heuristic = HeuristicAgent()
    sizes_late = []
    for step, (game, seat) in enumerate(games_of([heuristic] * num_players, num_players, range(4))):
        if step % 3:
            continue
        for other, hands in possible_hands(game, seat).items():
            assert (hands == game.hands[other]).all(axis=1).any(), f"seat {other}'s real hand was ruled out"
            assert (hands.sum(axis=1) == game.hand_sizes[other]).all()
            if game.played.sum() >= 20:
                sizes_late.append(len(hands))
    full = len(dealt_hands(game.copies * 6 // num_players, game.copies))
    assert sizes_late and np.median(sizes_late) < full / 50, "the decisions should narrow the hands a lot"


def test_seats_off_the_model_still_give_legal_worlds():
    """Random players are not the model: their hands may be misjudged (that is what an opponent
    model risks), but the heuristic seat's never is, and every world stays a legal one."""
    players = [HeuristicAgent(), RandomAgent(1), HeuristicAgent(), RandomAgent(2)]
    checked = 0
    for game, seat in games_of(players, 4, range(3)):
        if seat != 0:
            continue
        hands = possible_hands(game, seat)[2]
        assert (hands == game.hands[2]).all(axis=1).any(), "the heuristic seat's real hand was ruled out"
        world = world_sampler(game, seat)(np.random.default_rng(checked))
        world.check_invariants()
        assert np.array_equal(world.observation(seat), game.observation(seat))
        checked += 1
    assert checked > 20


def test_sampled_worlds_are_legal_and_fit_the_beliefs():
    heuristic = HeuristicAgent()
    rng = np.random.default_rng(0)
    for step, (game, seat) in enumerate(games_of([heuristic] * 4, 4, range(3))):
        if step % 5:
            continue
        beliefs = possible_hands(game, seat)
        draw = world_sampler(game, seat)
        for _ in range(3):
            world = draw(rng)
            world.check_invariants()
            assert np.array_equal(world.hands[seat], game.hands[seat])
            assert np.array_equal(world.observation(seat), game.observation(seat))
            for other, hands in beliefs.items():
                assert (hands == world.hands[other]).all(axis=1).any()


def test_worlds_depend_only_on_what_the_seat_sees():
    """A twin with the same public history and other hidden cards gives the same samples."""
    heuristic = HeuristicAgent()
    compared = differing = 0
    for step, (game, seat) in enumerate(games_of([heuristic] * 4, 4, range(2))):
        if step % 6:
            continue
        twin = game.determinize(seat, np.random.default_rng(step))
        differing += not np.array_equal(twin.hands, game.hands)
        for real_world, twin_world in zip(
                (world_sampler(game, seat)(np.random.default_rng(k)) for k in range(3)),
                (world_sampler(twin, seat)(np.random.default_rng(k)) for k in range(3))):
            assert np.array_equal(real_world.hands, twin_world.hands)
        compared += 1
    assert compared > 10 and differing > 5


def test_ismcts_beliefs_option():
    bot = agents.make("ismcts:iterations=12;rollout=heuristic;search=flat;opponents=rollout;beliefs=heuristic",
                      "yonkai_no_yokai_v1", seed=0)
    game = make_game("yonkai_no_yokai_v1", num_players=4)
    game.reset(5)
    for _ in range(30):
        if game.is_over:
            break
        action = act_in_game(bot, game) if game.current_player == 0 else act_in_game(HeuristicAgent(), game)
        assert game.legal_action_mask()[action]
        game.step(action)
    with pytest.raises(ValueError, match="beliefs must be one of uniform, heuristic"):
        agents.make("ismcts:beliefs=oracle", "yonkai_no_yokai_v1")
    with pytest.raises(NoHeuristicError, match=r"world_sampler.*yonkai_no_yokai_v1"):
        agents.make("ismcts:beliefs=heuristic", "yokaizo_v4")


def test_ismcts_with_beliefs_decides_the_same_for_hidden_twins():
    """The whole search, not just the sampler: same public history, other hidden cards."""
    heuristic = HeuristicAgent()
    compared = 0
    for step, (game, seat) in enumerate(games_of([heuristic] * 4, 4, range(2))):
        if step % 9 or np.count_nonzero(game.legal_action_mask()) < 2:
            continue
        twin = game.determinize(seat, np.random.default_rng(step))
        decisions = []
        for state in (game, twin):
            bot = agents.make("ismcts:iterations=12;rollout=heuristic;search=flat;opponents=rollout;beliefs=heuristic",
                              "yonkai_no_yokai_v1", seed=step)
            bot.reset(step)
            decisions.append(bot.act(state.observation(seat), state.legal_action_mask(), state))
        assert decisions[0] == decisions[1]
        compared += 1
    assert compared > 5


def test_the_replay_memo_gives_what_a_fresh_replay_gives():
    """possible_hands continues the last replay when the log has grown; asked about two games
    in turn it must start over each time, and always agree with a replay from scratch."""
    from agents.heuristics import yonkai_no_yokai_beliefs as beliefs

    heuristic = HeuristicAgent()
    first, second = YonkaiGame(num_players=4), YonkaiGame(num_players=4)
    first.record_information()
    second.record_information()
    first.reset(1)
    second.reset(2)
    for step in range(120):
        game = first if step % 3 else second  # mostly growing logs, sometimes the other game
        if game.is_over:
            break
        seat = game.current_player
        fresh = beliefs._Replay(4, game.copies)
        fresh.advance(public_round(game.seen_events(seat), 4).decisions)
        unseen = game.copies - game.played - game.hands[seat]
        for other, hands in possible_hands(game, seat).items():
            expected = fresh.hands[other][(fresh.hands[other] <= unseen).all(axis=1)]
            assert np.array_equal(hands, expected)
        game.step(act_in_game(heuristic, game))


@pytest.mark.parametrize("num_players", [3, 4])
def test_the_public_record_gives_every_decision_and_its_moment(num_players):
    """One source for what was public: the decisions the beliefs replay, rebuilt from a seat's
    information state, are the engine's own moments (direction, last play, the decider's
    button), for every seat's record alike; the cards played and the seat's hand agree too."""
    players = [HeuristicAgent(), RandomAgent(1), HeuristicAgent(), RandomAgent(2)][:num_players]
    checked = 0
    for seed in range(3):
        game = YonkaiGame(num_players=num_players)
        game.record_information()
        game.reset(seed)
        truth: list[Decision] = []
        rounds = game.rounds_completed
        while not game.is_over:
            seat = game.current_player
            if game.rounds_completed != rounds:
                truth, rounds = [], game.rounds_completed
            for observer in range(num_players):
                seen = public_round(game.seen_events(observer), num_players)
                assert seen.decisions == truth
                assert np.array_equal(seen.played_by, game.played_by)
                assert np.array_equal(seen.dealt - seen.played_by[observer], game.hands[observer])
                checked += 1
            action = act_in_game(players[seat], game)
            truth.append(Decision(seat, int(game.direction), game.last_count, game.last_value,
                                  game.button_available[seat], action))
            game.step(action)
    assert checked > 500


def test_a_game_that_is_not_recording_is_replayed_for_the_same_beliefs():
    heuristic = HeuristicAgent()
    compared = 0
    for live, seat in games_of([heuristic] * 4, 4, range(1), record=False):
        if live.steps % 7 or live.steps > 60:
            continue
        compared += 1
        twin = YonkaiGame(num_players=4)
        twin.record_information()
        twin.replay(live.seed, list(live.action_history))
        for a, b in zip(possible_hands(live, seat).values(), possible_hands(twin, seat).values()):
            assert np.array_equal(a, b)
    assert compared > 5
