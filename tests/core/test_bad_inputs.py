"""Bad actions, options and seeds through ``yokai_envs.make`` get an error
that names them (or the penalty of ``illegal_action="penalize"``), and change nothing."""

from __future__ import annotations

import numpy as np
import pytest

import yokai_envs
from agents.specs import parse_spec
from yokai_envs.cli import main as yokai_main
from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.registry import ENV_IDS

NUM_ACTIONS = {env_id: yokai_envs.make_game(env_id).num_actions for env_id in ENV_IDS}


def bad_actions(num_actions: int) -> list:
    return [None, -1, num_actions, 10**12, 1.0, 0.5, float("nan"), True, False, np.bool_(True), "1", b"1",
            np.float32(1), np.array([1]), np.array(1.0), [1], {"action": 1}]


def _ids(actions: list) -> list[str]:
    return [f"{type(a).__name__}:{a!r}"[:30] for a in actions]


def _snapshot(env) -> tuple:
    agent = env.agent_selection
    obs = env.observe(agent)
    return agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), env.unwrapped.state().tobytes()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_bad_action_raises_illegal_action_error_and_changes_nothing(env_id):
    env = yokai_envs.make(env_id, illegal_action="raise")
    env.reset(seed=3)
    before = _snapshot(env)
    seat = env.unwrapped.game.current_player
    for action in bad_actions(NUM_ACTIONS[env_id]):
        with pytest.raises(IllegalActionError) as err:
            env.step(action)
        message = str(err.value)
        assert f"for seat {seat} in phase " in message and message.startswith("illegal action ")
        assert err.value.action is action
        assert _snapshot(env) == before, action
    # a legal move still plays
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


@pytest.mark.parametrize("action", bad_actions(49), ids=_ids(bad_actions(49)))
def test_penalize_mode_penalizes_every_bad_action(action):
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=4, illegal_action="penalize")
    env.reset(seed=3)
    offender = env.agent_selection
    env.step(action)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert sum(r for a, r in env.rewards.items() if a != offender) == 0.0
    assert env.infos[offender]["illegal_action"] is True


def test_integer_kinds_are_still_actions():
    for action in (np.int64(0), np.int8(0), np.array(0)):
        env = yokai_envs.make("yonkai_no_yokai_v1", num_players=4)
        env.reset(seed=3)
        legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        env.step(type(action)(legal) if not isinstance(action, np.ndarray) else np.array(legal))


@pytest.mark.parametrize(("options", "match"), [
    ({"num_players": 4.0}, "option num_players must be an int, got float 4.0"),
    ({"num_players": True}, "option num_players must be an int, got bool True"),
    ({"num_players": "4"}, "num_players must be 3 or 4, got '4'"),  # left to the game's own check
    ({"max_steps": True}, "option max_steps must be a positive int, got bool True"),
    ({"max_steps": 1.5}, "option max_steps must be a positive int, got float 1.5"),
    ({"max_steps": 0}, "option max_steps must be a positive int, got int 0"),
])
def test_option_types_are_checked(options, match):
    with pytest.raises(ConfigError, match=match):
        yokai_envs.make("yonkai_no_yokai_v1", **options)
    with pytest.raises(ConfigError, match=match):
        yokai_envs.make_game("yonkai_no_yokai_v1", **options)


ONMYOJI = next(e for e in ENV_IDS if e.startswith("onmyoji"))


def test_int_options_of_other_games_too():
    with pytest.raises(ConfigError, match=r"option difficulty must be an int, got float 2\.0"):
        yokai_envs.make(ONMYOJI, difficulty=2.0)
    assert yokai_envs.make_game(ONMYOJI, difficulty=np.int64(2)).options["difficulty"] == 2


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, np.float64(3), [1]], ids=repr)
def test_bad_seeds_name_seed_and_change_nothing(seed):
    env = yokai_envs.make("yonkai_no_yokai_v1", num_players=4)
    env.reset(seed=5)
    before = _snapshot(env)
    with pytest.raises(ConfigError, match=r"reset\(seed=\.\.\.\) takes None or a non-negative int, got "):
        env.reset(seed=seed)
    assert _snapshot(env) == before


def test_big_and_numpy_seeds_are_fine():
    game = yokai_envs.make_game("yonkai_no_yokai_v1")
    game.reset(3386346886314495343)
    game.reset(np.uint64(2**63 + 5))
    assert game.seed == 2**63 + 5 and isinstance(game.seed, int)


@pytest.mark.parametrize(("spec", "hint"), [("heurstic", "heuristic"), ("randm", "random"), ("ismtcs", "ismcts"),
                                            ("ismcts:iteratons=5", "iterations")])
def test_agent_typos_get_a_suggestion(spec, hint):
    with pytest.raises(ValueError, match=f"did you mean '{hint}'"):
        parse_spec(spec)


@pytest.mark.parametrize("argv", [["--agents", "heurstic,random"], ["--env-kwargs", "{nope"],
                                  ["--env-kwargs", "[4]"], ["--env-kwargs", '{"num_players": 4.0}'],
                                  ["--agents", "policy:/no/such/model.zip"]])
def test_demo_with_bad_input_is_an_error_not_a_traceback(argv, capsys):
    assert yokai_main(["demo", "--game", "yonkai_no_yokai_v1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yokai demo: error: ") and "Traceback" not in err


def test_evaluate_refuses_an_unwritable_out_before_any_game(capsys, tmp_path):
    code = yokai_main(["evaluate", "--game", "yonkai_no_yokai_v1", "--agents", "random,random", "--games", "4",
                       "--no-progress", "--out", "/dev/null/x"])
    assert code == 2
    out = capsys.readouterr()
    assert "--out /dev/null/x: /dev/null exists and is not a folder" in out.err
    assert "win" not in out.out.lower()  # no table: nothing was played


def test_balance_refuses_an_unwritable_out_before_any_game(capsys, monkeypatch):
    import agents.arena.balance as balance

    def must_not_play(*args, **kwargs):
        raise AssertionError("a game was played before --out was checked")

    monkeypatch.setattr(balance, "run_balance", must_not_play)
    code = yokai_main(["balance", "--game", "yokaizo_v4", "--agents", "random", "--games", "2",
                       "--no-progress", "--out", "/dev/null/x"])
    assert code == 2
    out = capsys.readouterr()
    assert "yokai balance: error: --out /dev/null/x: /dev/null exists and is not a folder" in out.err
    assert out.out == ""
