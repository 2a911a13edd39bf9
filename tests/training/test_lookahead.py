"""Lookahead distillation (Yonkai): the round-end value table, each move's lookahead value held
equal to the same lookahead played on the scalar engine, and the run that regresses them."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

pytest.importorskip("numba")

from agents.heuristics.yonkai_no_yokai import HeuristicAgent, batch_actions
from yokai_envs.core.errors import ConfigError
from yokai_envs.training.algorithms import yonkai_lookahead as lookahead
from yokai_envs.training.algorithms.ppo import Trainer
from yokai_envs.training.common.config import load_config
from yokai_envs.training.common.safety import RunInterrupted
from yokai_envs.yonkai_no_yokai.game import YonkaiGame
from yokai_envs.yonkai_no_yokai.vector import VectorGame

YONKAI = "yonkai_no_yokai_v1"

TINY = ["lookahead.labels=600", "lookahead.rounds=2", "lookahead.table_games=2", "lookahead.workers=1",
        "lookahead.epochs=2", "lookahead.batch_size=64", "training.total_timesteps=600", "training.n_envs=2",
        "algorithm.network.net_arch=[16]", "algorithm.network.vf=[16]", "evaluation.games=8",
        "evaluation.final_games=4", "output.progress_bar=false"]


def _config(tmp_path, extra=()):
    return load_config("configs/yonkai_no_yokai/lookahead.yaml", [*TINY, *extra], out=str(tmp_path / "run"))


def test_the_table_shares_each_starts_credit_and_turns_with_the_leader():
    starts = np.array([[4, 4, 4, 4], [1, 0, 3, 2]], dtype=np.int8)
    led = lookahead.round_value_table(4, games_per_start=50, seed=0, starts=starts)
    assert led.shape == (2, 4) and np.allclose(led.sum(axis=1), 1.0)  # one win credit per game
    rng = np.random.default_rng(0)
    zero = rng.random((5**3, 3))
    table = lookahead.by_leader(zero, 3)
    cubes = (1, 4, 2)
    row = {tuple(c): k for k, c in enumerate(lookahead.cube_starts(3).tolist())}
    assert np.allclose(table[(*cubes, 0)], zero[row[cubes]])  # seat 0 leads: the table as simulated
    # seat 2 leads: seat 2 is where seat 0 was, cubes turned with it
    assert np.allclose(table[(*cubes, 2)], zero[row[(2, 1, 4)]][[1, 2, 0]])


def _scalar_copy(vg: VectorGame, i: int) -> YonkaiGame:
    """A scalar game in the state of vector game ``i`` (a mid-round state, set field by field)."""
    game = YonkaiGame(num_players=vg.num_players)
    game.reset(seed=0)
    s = game.state
    s.hands[:] = vg.hands[i]
    s.hand_sizes = [int(x) for x in vg.hand_sizes[i]]
    s.cubes = [int(x) for x in vg.cubes[i]]
    s.button_available = [bool(x) for x in vg.button_available[i]]
    s.passed = [bool(x) for x in vg.passed[i]]
    s.played_by[:] = vg.played_by[i]
    s.played[:] = vg.played_by[i].sum(axis=0)
    s.passed_on[:] = vg.passed_on[i]
    s.direction = type(s.direction)(int(vg.direction[i]))
    s.last_count, s.last_value = int(vg.last_count[i]), int(vg.last_value[i])
    s.last_player, s.to_act = int(vg.last_player[i]), int(vg.to_act[i])
    s.rounds_completed = int(vg.rounds_completed[i])
    game.invalidate_mask()
    game.check_invariants()
    return game


def _scalar_lookahead(game: YonkaiGame, action: int, table: np.ndarray, network=None, value_of=None) -> float:
    """The same lookahead on the scalar engine with the heuristic agent (or the ``network``
    agent's most likely move from the observation of the seat to act); with ``value_of``, cut at
    the seat's next decision and valued by it."""
    seat, world = game.current_player, game.clone()
    heuristic = HeuristicAgent()
    rounds = world.rounds_completed
    world.step(action)
    while not world.is_terminal and world.rounds_completed == rounds:
        if value_of is not None and world.current_player == seat:
            return float(value_of(world.observation(seat)[None], world.legal_action_mask()[None])[0])
        if network is None:
            world.step(heuristic.act_in_world(world))
        else:
            mask = world.legal_action_mask()[None]
            world.step(int(network.batch_probabilities(world.observation(world.current_player)[None], mask).argmax()))
    if world.is_terminal:
        return 1 / len(world.winners) if seat in world.winners else 0.0
    return float(table[(*world.cubes, world.to_act, seat)])


@pytest.mark.parametrize("play", ["heuristic", "network", "network to the next turn"])
def test_each_moves_value_is_the_lookahead_played_on_the_scalar_engine(play):
    network, player, value_of = None, lookahead.heuristic_player, None
    if play != "heuristic":  # the shipped 4p network plays every seat after the move, from what each sees
        from agents import pretrained
        from agents.policy import PolicyAgent

        path = str(pretrained.find(YONKAI, {"num_players": 4}).path)
        network = PolicyAgent(path, YONKAI, {"num_players": 4})
        player = lookahead.network_player(path, YONKAI, {"num_players": 4})
        if play == "network to the next turn":
            value_of = lookahead.network_values(path, YONKAI, {"num_players": 4}, 100.0)
    table = np.random.default_rng(1).random((5,) * 4 + (4, 4)).astype(np.float32)  # any misread shows
    driver = VectorGame(64, 4, seed=3)
    rows = np.arange(64)
    masks = np.empty((64, 49), dtype=bool)
    checked = 0
    for step in range(300):
        driver.masks(masks)
        if step % 37 == 5:
            chosen = np.flatnonzero(masks.sum(axis=1) >= 2)[:6]
            before = {name: getattr(driver, name).copy() for name in VectorGame.STATE_ARRAYS}
            values = lookahead.move_values(driver, chosen, masks[chosen], VectorGame(400, 4, autoreset=False), table,
                                           player, value_of)
            for name, array in before.items():  # the driver's games are untouched
                assert np.array_equal(getattr(driver, name), array), name
            for k, i in enumerate(chosen):
                game = _scalar_copy(driver, int(i))
                assert np.array_equal(game.legal_action_mask(), masks[i])
                for action in np.flatnonzero(masks[i]):
                    expected = _scalar_lookahead(game, int(action), table, network, value_of)
                    assert values[k, action] == pytest.approx(expected, rel=1e-5, abs=1e-6), (step, i)
                    checked += 1
                assert (values[k, ~masks[i]] == 0).all()
        driver.step(batch_actions(driver.hands[rows, driver.to_act], masks))
    assert checked > 100


def test_a_networks_value_of_a_position_is_its_critic_plus_its_best_moves_advantage():
    import torch

    from agents import pretrained
    from agents.policy import PolicyAgent

    path = str(pretrained.find(YONKAI, {"num_players": 4}).path)
    driver = VectorGame(32, 4, seed=9)
    masks = np.empty((32, 49), dtype=bool)
    driver.masks(masks)
    observations = driver.observe(driver.to_act.astype(np.int64))
    values = lookahead.network_values(path, YONKAI, {"num_players": 4}, 50.0)(observations, masks)
    policy = PolicyAgent(path, YONKAI, {"num_players": 4}).policy
    with torch.no_grad():
        obs = torch.from_numpy(observations)
        critic = policy.predict_values(obs).numpy()[:, 0]
        logits = policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(obs))).numpy()
    for k in range(32):
        legal = logits[k, masks[k]]
        assert values[k] == pytest.approx(critic[k] + (legal.max() - legal.mean()) / 50.0, rel=1e-5, abs=1e-6)


def test_generate_labels_decisions_with_a_choice_from_what_the_seat_sees():
    table = lookahead.by_leader(np.full((5**3, 3), 1 / 3), 3)
    data = lookahead.generate({"num_players": 3}, table, labels=500, sample=0.5, seed=2)
    assert data["observations"].shape == (500, VectorGame(1, 3).observation_size)
    assert (data["masks"].sum(axis=1) >= 2).all()
    assert ((data["values"] == 0) | data["masks"]).all()
    assert ((data["values"] >= 0) & (data["values"] <= 1)).all()


def test_a_seating_asks_each_seats_player_and_follows_its_games_into_the_rollouts():
    seen = []

    def player(mark):
        def play(game, games, masks):
            seen.append((mark, games.tolist(), game.to_act[games].tolist()))
            return np.full(len(games), mark)
        return play

    driver = VectorGame(3, 4, seed=0)
    who = np.array([[0, 1, 1, 1], [1, 0, 1, 1], [2, 2, 0, 2]])
    seating = lookahead.Seating([player(0), player(1), player(2)], who)
    driver.to_act[:] = [0, 0, 2]
    moves = seating(driver, np.arange(3), np.ones((3, 49), dtype=bool))
    assert moves.tolist() == [0, 1, 0]
    assert sorted(seen) == [(0, [0, 2], [0, 2]), (1, [1], [0])]
    copied = seating.of(np.array([2, 2, 1]))  # rollouts 0 and 1 copy game 2, rollout 2 game 1
    assert copied.who.tolist() == [who[2].tolist(), who[2].tolist(), who[1].tolist()]


def test_league_labels_come_from_the_learners_seat_alone(monkeypatch):
    """With opponents, every labelled decision is the learner's, and the other seats of each table
    play the one member drawn for it."""
    table = lookahead.by_leader(np.full((5**4, 4), 1 / 4), 4)
    seatings, observed = [], []
    real_init, real_observe = lookahead.Seating.__init__, VectorGame.observe

    def keep(self, players, who):
        seatings.append(who)
        real_init(self, players, who)

    def spy(self, seats, games=None):
        if self.num_games == lookahead.DRIVER_GAMES and games is not None:
            observed.append((np.asarray(seats).copy(), np.asarray(games).copy()))
        return real_observe(self, seats, games=games)

    monkeypatch.setattr(lookahead.Seating, "__init__", keep)
    monkeypatch.setattr(VectorGame, "observe", spy)
    data = lookahead.generate({"num_players": 4}, table, labels=400, sample=1.0, seed=5,
                              opponents=[("heuristic", 1.0), ("heuristic", 3.0)])
    who = seatings[0]
    assert len(data["masks"]) == 400 and ((data["values"] == 0) | data["masks"]).all()
    assert ((who == 0).sum(axis=1) == 1).all()  # one learner a table
    members = who.max(axis=1)
    assert all((who[g][who[g] > 0] == members[g]).all() for g in range(len(who)))  # one member a table
    assert 0.65 < (members == 2).mean() < 0.85  # drawn by weight (3 to 1)
    seats = np.concatenate([s for s, _ in observed])
    games = np.concatenate([g for _, g in observed])
    assert len(seats) == 400 and (who[games, seats] == 0).all()  # only learners are labelled


def test_a_run_regresses_the_values_in_the_actor_and_resumes_by_round(tmp_path, monkeypatch):
    real, real_generate = lookahead.fit, lookahead.generate
    fits, labelled = [], []

    def count(options, table, labels, sample, seed, network, opponents=None, bootstrap=None):
        labelled.append(labels)
        return real_generate(options, table, labels, sample, seed, network, opponents, bootstrap)

    def stop_after_first(policy, data, settings, seed, prior=None):
        fits.append(len(data["masks"]))
        loss = real(policy, data, settings, seed, prior)
        if len(fits) == 1:
            raise KeyboardInterrupt
        return loss

    monkeypatch.setattr(lookahead, "fit", stop_after_first)
    monkeypatch.setattr(lookahead, "generate", count)
    with pytest.raises(RunInterrupted, match="lookahead round 1"):
        Trainer(_config(tmp_path)).run()
    state = json.loads((tmp_path / "run" / "state.json").read_text())
    assert state["lookahead"]["rounds"] == 0  # the interrupted round is fitted again
    assert lookahead.table_file(tmp_path / "run").exists() and lookahead.round_file(tmp_path / "run", 0).exists()
    Trainer(_config(tmp_path), resume=True).run()
    state = json.loads((tmp_path / "run" / "state.json").read_text())
    assert state["lookahead"]["rounds"] == 2 and state["timesteps"] == 600
    assert fits == [300, 300, 600]  # each fit uses every round so far
    assert labelled == [300, 300]  # the first round's saved labels were kept
    assert sum(not row["final"] for row in state["evaluations"]) == 3  # the start and after each round
    assert (tmp_path / "run" / "model.safetensors").exists()


def test_a_league_run_hands_its_members_to_the_labelling(tmp_path, monkeypatch):
    real_generate, members = lookahead.generate, []

    def keep(options, table, labels, sample, seed, network, opponents=None, bootstrap=None):
        members.append(opponents)
        return real_generate(options, table, labels, sample, seed, network, opponents, bootstrap)

    monkeypatch.setattr(lookahead, "generate", keep)
    from agents import pretrained

    first = str(pretrained.find(YONKAI, {"num_players": 4}, generation=1).path)
    config = _config(tmp_path, ["lookahead.opponents=[{spec: heuristic, weight: 3}, 'pretrained:generation=1']"])
    Trainer(config).run()
    assert members == [[("heuristic", 3.0), (first, 1.0)]] * 2
    state = json.loads((tmp_path / "run" / "state.json").read_text())
    assert state["lookahead"]["rounds"] == 2 and state["timesteps"] == 600


def test_a_next_turn_run_values_positions_with_the_network_it_starts_from(tmp_path, monkeypatch):
    Trainer(_config(tmp_path)).run()
    start = str(tmp_path / "run" / "model.safetensors")
    real_generate, cuts = lookahead.generate, []

    def keep(options, table, labels, sample, seed, network, opponents=None, bootstrap=None):
        cuts.append(bootstrap)
        return real_generate(options, table, labels, sample, seed, network, opponents, bootstrap)

    monkeypatch.setattr(lookahead, "generate", keep)
    config = load_config("configs/yonkai_no_yokai/lookahead.yaml",
                         [*TINY, f"training.init_from={start}", "lookahead.horizon=next_turn"],
                         out=str(tmp_path / "next"))
    Trainer(config).run()
    assert cuts == [(start, 100.0)] * 2
    data = lookahead.load_rounds(tmp_path / "next", 2)
    assert len(data["masks"]) == 600 and ((data["values"] == 0) | data["masks"]).all()


def test_a_run_fits_the_labels_of_earlier_runs_beside_its_own(tmp_path, monkeypatch):
    Trainer(_config(tmp_path)).run()  # 600 labels in two rounds
    earlier = str(tmp_path / "run")
    fits = []
    real = lookahead.fit

    def count(policy, data, settings, seed, prior=None):
        fits.append(len(data["masks"]))
        return real(policy, data, settings, seed, prior)

    monkeypatch.setattr(lookahead, "fit", count)
    refit = load_config("configs/yonkai_no_yokai/lookahead.yaml",
                        [*TINY, "lookahead.labels=0", "lookahead.rounds=1", f"lookahead.fit_with=[{earlier}]"],
                        out=str(tmp_path / "refit"))
    Trainer(refit).run()
    assert fits == [600]
    assert not lookahead.round_file(tmp_path / "refit", 0).exists()  # nothing labelled, no values needed
    assert not lookahead.table_file(tmp_path / "refit").exists()
    state = json.loads((tmp_path / "refit" / "state.json").read_text())
    assert state["timesteps"] == 600 and state["lookahead"]["history"][0]["fitted"] == 600
    fits.clear()
    both = load_config("configs/yonkai_no_yokai/lookahead.yaml",
                       [*TINY, "lookahead.labels=200", "lookahead.rounds=2", "training.total_timesteps=800",
                        f"lookahead.fit_with=[{earlier}]"], out=str(tmp_path / "both"))
    Trainer(both).run()
    assert fits == [700, 800]  # its own rounds so far and the 600 borrowed at each fit
    assert json.loads((tmp_path / "both" / "state.json").read_text())["timesteps"] == 800
    with pytest.raises(ConfigError, match=r"the 1200 of lookahead.fit_with .* at least 1800"):
        load_config("configs/yonkai_no_yokai/lookahead.yaml",
                    [*TINY, f"lookahead.fit_with=[{earlier}, {earlier}]"], out=str(tmp_path / "x"))


def test_accumulate_adds_the_start_networks_move_values_to_the_labels(tmp_path, monkeypatch):
    import torch

    from agents.policy import PolicyAgent

    Trainer(_config(tmp_path)).run()  # 600 labels and a network to start from
    earlier = tmp_path / "run"
    start = str(earlier / "model.safetensors")
    priors = {}
    real = lookahead.fit

    def keep(policy, data, settings, seed, prior=None):
        priors[settings["accumulate"]] = prior
        return real(policy, data, settings, seed, prior)

    monkeypatch.setattr(lookahead, "fit", keep)
    for weight in (1, 2):
        refit = load_config("configs/yonkai_no_yokai/lookahead.yaml",
                            [*TINY, "lookahead.labels=0", "lookahead.rounds=1", f"lookahead.fit_with=[{earlier}]",
                             f"training.init_from={start}", f"lookahead.accumulate={weight}"],
                            out=str(tmp_path / f"refit{weight}"))
        Trainer(refit).run()
    data = lookahead.load_rounds(earlier, 2)
    legal = data["masks"]
    one = priors[1.0]
    assert one.shape == legal.shape and (one[~legal] == 0).all()
    assert np.abs(one.sum(axis=1)).max() < 1e-4 and np.abs(one).max() > 0  # centered over the legal moves
    np.testing.assert_allclose(priors[2.0], 2 * one, rtol=1e-5, atol=1e-7)
    agent = PolicyAgent(start, YONKAI, {"num_players": 4})
    played = agent.batch_probabilities(data["observations"], legal).argmax(axis=1)
    assert (np.where(legal, one, -np.inf).argmax(axis=1) == played).all()  # the values it plays by

    # The fit takes the prior as part of each label: zero labels with the prior train the network
    # exactly as the prior given as the labels does.
    target = one * 1000  # the tiny network's own values are too flat to steer a fit
    settings = {"epochs": 2, "batch_size": 64, "learning_rate": 1e-3, "logit_scale": 100.0}
    with_prior, as_labels = (PolicyAgent(start, YONKAI, {"num_players": 4}).policy for _ in range(2))
    real(with_prior, {**data, "values": np.zeros_like(data["values"])}, settings, 0, target)
    real(as_labels, {**data, "values": target}, settings, 0)
    moved = False
    for (name, first), second, original in zip(with_prior.state_dict().items(), as_labels.state_dict().values(),
                                               agent.policy.state_dict().values(), strict=True):
        torch.testing.assert_close(first, second, rtol=1e-4, atol=1e-6, msg=name)
        moved |= not torch.equal(first, original)
    assert moved


def test_a_stop_while_labelling_ends_the_workers_at_once():
    class StopAtFirst:
        def update(self, count):
            raise KeyboardInterrupt

    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        lookahead._pool_map([(0.0,), (60.0,), (60.0,), (60.0,)], time.sleep, workers=2, bar=StopAtFirst(),
                            size=lambda result: 1)
    assert time.perf_counter() - started < 30  # the queued sleeps were not waited for


@pytest.mark.parametrize(("extra", "message"), [
    (["game.options.reward=lives"], "reward must be 'win'"),
    (["game.options.rounds_per_game=2"], "rounds_per_game must be null"),
    (["lookahead.rounds=700"], "more than lookahead.labels"),
    (["training.total_timesteps=100"], "raise the total"),
    (["algorithm.network.critic_state=true"], "observation only"),
    (["lookahead.play=start"], "name it in training.init_from"),
    (["lookahead.accumulate=1"], r"accumulate: .* name it in training.init_from"),
    (["lookahead.horizon=next_turn"], r"horizon: next_turn .* name it in training.init_from"),
    (["lookahead.horizon=forever"], "horizon"),
    (["lookahead.opponents=[start]"], r"opponents\[0\].spec: start .* name it in training.init_from"),
    (["lookahead.opponents=[heuristic, missing.safetensors]"], r"opponents\[1\].spec: 'missing.safetensors' is not"),
    (["lookahead.opponents=['pretrained:generation=99']"], r"opponents\[0\].spec: .*no generation 99"),
    (["lookahead.opponents=[{spec: heuristic, weight: 0}]"], "weights sum to 0"),
    (["lookahead.opponents=[{spec: heuristic, wieght: 1}]"], "wieght"),
    (["lookahead.labels=0"], "only refits the labels of lookahead.fit_with"),
    (["lookahead.fit_with=[no/such/run]"], r"fit_with\[0\]: 'no/such/run' holds no saved lookahead labels"),
])
def test_bad_settings_are_refused(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        _config(tmp_path, extra)


def test_other_games_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="vectorized engine"):
        load_config("configs/yokaizo/quick.yaml", ["lookahead.labels=10", "training.total_timesteps=10"],
                    out=str(tmp_path / "run"))
