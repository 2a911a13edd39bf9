"""ISMCTS sees the world only through determinize: it cannot cheat, and it plays 1-4 seats."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.base import act_in_game
from agents.ismcts import ISMCTSAgent, UniformBelow
from tests.agents.toy_game import ToyTrickGame
from tests.conftest import conformance_params
from yokai_envs.registry import make_game

VARIANTS = [{}, {"search": "flat"}, {"opponents": "rollout"}]


def decide(game, seed: int, iterations: int = 60, **variant) -> tuple[int, dict[int, int]]:
    bot = ISMCTSAgent(iterations=iterations, seed=seed, **variant)
    bot.reset(seed)
    visits = bot.search(game)
    bot.reset(seed)
    return bot.act(game.observation(game.current_player), game.legal_action_mask(), game), visits


def swap_hidden(game: ToyTrickGame, seat: int) -> ToyTrickGame:
    """The same information set for ``seat`` with the other hands and the stock dealt differently."""
    other = game.clone()
    hidden = np.flatnonzero((other.location != seat) & (other.location != -2))
    other.location[hidden] = np.roll(other.location[hidden], 1)
    return other


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_toy_hidden_cards_do_not_change_the_decision(variant):
    differing = 0
    for seed in range(12):
        game = ToyTrickGame(num_players=3)
        game.reset(seed)
        if seed % 2:
            game.step(int(np.flatnonzero(game.legal_action_mask())[0]))
        seat = game.current_player
        twin = swap_hidden(game, seat)
        assert np.array_equal(game.observation(seat), twin.observation(seat))
        differing += not np.array_equal(game.location, twin.location)
        assert decide(game, seed, **variant) == decide(twin, seed, **variant)
    assert differing >= 9, "the twin states should really differ in hidden cards"


def test_an_oracle_would_decide_differently_so_the_test_can_fail():
    """A cheating bot (searching the true state) changes its mind between such twins."""

    class Cheater(ISMCTSAgent):
        def search(self, game):
            real = game.clone()
            game = type("Peek", (), {"determinize": lambda self_, seat, rng: real.clone(),
                                     "current_player": real.current_player})()
            return super().search(game)

    changed = 0
    for seed in range(20):
        game = ToyTrickGame(num_players=2)
        game.reset(seed)
        twin = swap_hidden(game, game.current_player)
        bot = Cheater(iterations=60, seed=seed)
        first = bot.search(game)
        bot.reset(seed)
        changed += first != bot.search(twin)
    assert changed > 0


# Games whose _resample_hidden shuffles the hidden cards in the order they really lie, so the
# same rng gives a different (equally likely) sample for a different hidden arrangement: the
# decision is drawn from the same distribution but not equal for one seed. The fix is in the
# game (sort the unknown cards before shuffling); ISMCTS cannot do it for them.
NON_CANONICAL_DETERMINIZE: set[str] = set()


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_registered_games_hidden_cards_do_not_change_the_decision(env_id, options, request):
    """Twins from determinize itself: same information set, other hidden cards."""
    if env_id in NON_CANONICAL_DETERMINIZE:
        request.applymarker(pytest.mark.xfail(reason=f"{env_id}: determinize sample depends on the real "
                                                     "hidden order (game-side fix: sort before shuffling)"))
    game = make_game(env_id, **{**options, "max_steps": 400})
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(3):
        game.reset(seed)
        for _ in range(int(rng.integers(0, 15))):
            if game.is_over:
                break
            legal = np.flatnonzero(game.legal_action_mask())
            game.step(int(legal[rng.integers(legal.size)]))
        if game.is_over or np.count_nonzero(game.legal_action_mask()) < 2:
            continue
        seat = game.current_player
        twin = game.determinize(seat, np.random.default_rng(seed + 99))
        assert np.array_equal(game.observation(seat), twin.observation(seat))
        first = decide(game, seed, iterations=15)
        assert first == decide(twin, seed, iterations=15)
        checked += 1
    if not checked:
        pytest.skip("no state with a choice reached")


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_the_rollout_policy_never_gets_the_live_game(variant):
    """The rollout policy reads the worlds it is handed whole (they are the search's samples),
    so the search must never hand it the live game, not even for its tie-break default."""
    from agents.base import RandomAgent

    class Spy(RandomAgent):
        needs_game = True
        seen: list[object] = []

        def act(self, observation, action_mask, game=None):
            Spy.seen.append(game)
            return super().act(observation, action_mask)

    for seed in range(5):
        game = ToyTrickGame(num_players=3)
        game.reset(seed)
        spy = Spy()
        bot = ISMCTSAgent(iterations=20, seed=seed, rollout_agent=spy, **variant)
        assert spy.plays_in_sampled_worlds
        bot.reset(seed)
        Spy.seen.clear()
        bot.act(game.observation(game.current_player), game.legal_action_mask(), game)
        assert Spy.seen and all(world is not game for world in Spy.seen)


def play_legally(bot, game, decisions: int | None = None) -> None:
    """Let ``bot`` play every seat for ``decisions`` moves (or to the end), each one legal."""
    while not game.is_over and (decisions is None or decisions > 0):
        action = act_in_game(bot, game)
        assert game.legal_action_mask()[action]
        game.step(action)
        decisions = None if decisions is None else decisions - 1


@pytest.mark.parametrize("num_players", [1, 2, 3, 4])
def test_plays_every_seat_count(num_players):
    game = ToyTrickGame(num_players=num_players)
    bot = agents.make("ismcts:iterations=30", "toy_trick_v0", seed=0)
    for seed in range(3):
        game.reset(seed)
        bot.reset(seed)
        play_legally(bot, game)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_finds_the_safe_play(variant):
    """Seat 1 follows a led 2 holding {3, 0}: taking the trick with 3 guarantees at least a
    shared win (+1) whatever seat 0 holds; ducking with 0 loses unless seat 0 holds the 1."""
    game = ToyTrickGame(num_players=2)
    game.reset(0)
    game.location[:] = [1, -1, 0, 1, -1, 0]  # seat 0: {2, 5}; seat 1: {0, 3}; stock: {1, 4}
    game.step(2)
    for seed in range(3):
        action, visits = decide(game, seed, iterations=200, **variant)
        assert action == 3, visits


class LowestCard(agents.base.Agent):
    """A deterministic rollout policy: always the lowest legal card (here: ducking with the 0)."""

    def act(self, observation, action_mask, game=None):
        return int(np.flatnonzero(action_mask)[0])


@pytest.mark.parametrize("search", ["tree", "flat"])
def test_confidence_keeps_the_rollout_policys_move_unless_beaten(search):
    """The safe-play position: the rollout policy ducks with 0, which loses unless seat 0 holds
    the 1; taking with 3 is better by far. A modest confidence still switches to 3; an
    impossible one keeps the rollout policy's move; a move that is no better is never taken."""
    game = ToyTrickGame(num_players=2)
    game.reset(0)
    game.location[:] = [1, -1, 0, 1, -1, 0]
    game.step(2)
    mask = game.legal_action_mask()
    for confidence, expected in ((1.0, 3), (1e9, 0)):
        bot = ISMCTSAgent(iterations=200, seed=1, rollout_agent=LowestCard(), search=search,
                          confidence=confidence)
        bot.reset(1)
        assert bot.act(game.observation(1), mask, game) == expected


class HighestCard(agents.base.Agent):
    """A deterministic base policy that disagrees with LowestCard: always the highest legal action."""

    def act(self, observation, action_mask, game=None):
        return int(np.flatnonzero(action_mask)[-1])


@pytest.mark.parametrize("search", ["tree", "flat"])
def test_confidence_keeps_the_base_policys_move_not_the_rollouts(search):
    """With a base policy, an impossible confidence plays the base policy's move (here the
    highest card, 3), not the rollout policy's (the 0); with a base policy that ducks like the
    rollout policy, a modest confidence still switches to the better 3."""
    game = ToyTrickGame(num_players=2)
    game.reset(0)
    game.location[:] = [1, -1, 0, 1, -1, 0]
    game.step(2)
    mask = game.legal_action_mask()
    cases = ((HighestCard(), 1e9, 3), (LowestCard(), 1e9, 0), (LowestCard(), 1.0, 3))
    for base, confidence, expected in cases:
        bot = ISMCTSAgent(iterations=200, seed=1, rollout_agent=LowestCard(), base_agent=base,
                          search=search, confidence=confidence)
        bot.reset(1)
        assert bot.act(game.observation(1), mask, game) == expected


def test_confidence_needs_a_rollout_policy_and_a_sane_value():
    with pytest.raises(ValueError, match="needs rollout=heuristic or policy=PATH"):
        agents.make("ismcts:confidence=1", "yokaizo_v4")
    with pytest.raises(ValueError, match="confidence must be positive"):
        agents.make("ismcts:rollout=heuristic;confidence=-1", "yokaizo_v4")


def test_time_budget_and_single_action():
    game = ToyTrickGame(num_players=2)
    game.reset(0)
    bot = ISMCTSAgent(time=0.05, seed=0)
    visits = bot.search(game)
    assert sum(visits.values()) >= 1
    only = np.zeros(game.num_actions, dtype=bool)
    only[3] = True
    assert bot.act(game.observation(0), only, game) == 3
    with pytest.raises(ValueError, match="needs the game"):
        bot.act(game.observation(0), game.legal_action_mask(), None)


def test_leaf_evaluator_scores_cut_rollouts():
    """Rollouts cut at once; the evaluator alone says playing the 0 is best."""
    calls = []

    def evaluator(world):
        calls.append(1)
        return np.array([1.0 if world.location[0] == -2 else -1.0, 0.0])

    game = ToyTrickGame(num_players=2)
    game.reset(0)
    game.location[:] = [0, 0, 1, 1, -1, -1]
    for variant in VARIANTS:
        bot = ISMCTSAgent(iterations=40, seed=0, max_rollout_steps=0, leaf_evaluator=evaluator, **variant)
        assert bot.act(game.observation(0), game.legal_action_mask(), game) == 0
    assert len(calls) >= 40


@pytest.mark.parametrize("search", ["flat", "tree"])
def test_yonkai_spec_with_every_option_plays(search):
    game = make_game("yonkai_no_yokai_v1", num_players=3)
    spec = (f"ismcts:search={search};iterations=12;rollout=heuristic;max_rollout_steps=10;leaf=heuristic;"
            "opponents=rollout;confidence=1;c=0.5")
    bot = agents.make(spec, "yonkai_no_yokai_v1", seed=0)
    game.reset(0)
    play_legally(bot, game, decisions=15)


def test_the_readme_yokaizo_spec_plays():
    """The spec of the YOKAIZO row in docs/record/2026-12-05.md, at a CI-sized budget."""
    spec = "ismcts:iterations=10;rollout=heuristic;max_rollout_steps=20;leaf=heuristic;opponents=rollout;confidence=1"
    game = make_game("yokaizo_v4")
    bot = agents.make(spec, "yokaizo_v4", seed=0)
    game.reset(0)
    play_legally(bot, game, decisions=40)


def test_yonkai_evaluate_plays_out_the_round_and_scores_cubes():
    from agents.heuristics.yonkai_no_yokai import evaluate

    game = make_game("yonkai_no_yokai_v1", num_players=4)
    game.reset(3)
    world = game.determinize(game.current_player, np.random.default_rng(0))
    values = evaluate(world)
    assert world.rounds_completed == 1 or world.is_over
    assert values.shape == (4,) and np.all(np.abs(values) <= 1)
    best = np.flatnonzero(np.array(world.cubes) == max(world.cubes))
    assert np.all(values[best] > 0) and values.argmax() in best


class _ScriptedWords(UniformBelow):
    """4-bit words, each of 0..15 exactly once (then no more): what ``below`` makes of them."""

    BITS = 4

    def __init__(self) -> None:
        super().__init__(np.random.default_rng(0))
        self.blocks = [list(range(16))]

    def _draw_words(self) -> list[int]:
        if not self.blocks:
            raise LookupError("no words left")
        return self.blocks.pop()


@pytest.mark.parametrize("n", range(1, 17))
def test_uniform_below_takes_every_residue_from_equally_many_words(n: int) -> None:
    # Every 4-bit word once: the words kept must give each residue below n equally often
    # (taking w % n of every word would favour the low residues whenever n does not divide 16).
    draws = _ScriptedWords()
    out = []
    with pytest.raises(LookupError):
        while True:
            out.append(draws.below(n))
    assert len(out) == 16 - 16 % n
    assert np.bincount(out, minlength=n).tolist() == [16 // n] * n


def test_uniform_below_is_uniform_on_the_generator_words() -> None:
    draws = UniformBelow(np.random.default_rng(1))
    for n in (2, 3, 7, 30):
        counts = np.bincount([draws.below(n) for _ in range(30_000)], minlength=n)
        expected = 30_000 / n
        assert counts.size == n
        # each count within 5 standard deviations of its binomial mean
        assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected * (1 - 1 / n))), counts.tolist()


def test_random_rollouts_pick_each_legal_action_uniformly() -> None:
    # The first random move of a rollout from the start of a YYH game (setup: each character of
    # the deck is a pick), counted over many seeded rollouts: uniform over the legal actions.
    game = make_game("yyh_tcg_v6")
    game.reset(0)
    legal = game.legal_actions()
    assert len(legal) > 5
    first: list[int] = []
    agent = ISMCTSAgent(iterations=1, seed=0)

    class _Stop(Exception):
        pass

    class _Recorder:
        """A world that records its first step and ends the rollout there."""

        def __init__(self, world):
            self.world = world

        def legal_actions(self):
            return self.world.legal_actions()

        def step_unchecked(self, action):
            first.append(action)
            raise _Stop

    for seed in range(4000):
        with pytest.raises(_Stop):
            agent._rollout(_Recorder(game), np.random.default_rng(seed))  # type: ignore[arg-type]
    counts = np.array([first.count(a) for a in legal])
    assert sum(counts) == 4000 and set(first) <= set(legal)
    expected = 4000 / len(legal)
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected)), counts.tolist()
