"""Options, the AEC env (Solo as a 1-agent game) and the Parallel env."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import yokai_envs
from yokai_envs.core.errors import ConfigError, IllegalActionError
from yokai_envs.onmyoji import ENV_ID, parallel_env
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji.game import OnmyojiGame
from yokai_envs.onmyoji.state import Decision


@pytest.mark.parametrize(("options", "message"), [
    ({"mode": "trio"}, "option mode must be one of"),
    ({"difficulty": 11}, "difficulty must be an int 1..10"),
    ({"difficulty": "hard"}, "difficulty must be an int 1..10"),
    ({"characters": ["Seimei"]}, "must list 2 Character"),
    ({"characters": ["Seimei", "Seimei"]}, "same Character twice"),
    ({"characters": ["Seimei", "Abe"]}, "unknown character 'Abe'"),
    ({"colour": "red"}, "unknown option"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(ConfigError, match=message):
        OnmyojiGame(**options)


def test_characters_option_and_solo_takes_one_name():
    g = OnmyojiGame(mode="solo", characters="Kuzunoha")
    g.reset(0)
    assert g.pool.characters[g.players[0].character].name == "Kuzunoha"
    g = OnmyojiGame(mode="duel", characters=["Doman", "Seimei"])
    g.reset(0)
    assert [g.pool.characters[p.character].name for p in g.players] == ["Doman", "Seimei"]


def test_solo_is_a_one_agent_aec_game():
    env = yokai_envs.make("onmyoji_v5", mode="solo")
    env.reset(seed=1)
    assert env.possible_agents == ["player_0"]
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        assert agent == "player_0"
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert env.unwrapped.game.current_player == -1


def test_wait_is_never_legal_in_the_aec_game():
    g = OnmyojiGame(mode="duel")
    rng = np.random.default_rng(0)
    for seed in range(5):
        g.reset(seed)
        while not g.is_over:
            mask = g.legal_action_mask()
            assert not mask[act.WAIT]
            g.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("mode", ["solo", "duel", "coop"])
def test_parallel_api(mode):
    parallel_api_test(parallel_env(mode=mode), num_cycles=500)


def test_parallel_face_down_step_is_simultaneous_and_others_wait():
    env = parallel_env(mode="duel")
    obs, _ = env.reset(seed=3)
    game = env.game
    while game.decision != Decision.PLAY:
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, *_ = env.step(actions)
    masks = {a: o["action_mask"] for a, o in obs.items()}
    assert all(m[act.PLAY:act.PLAY + 3].any() for m in masks.values())  # both choose in this step
    obs, *_ = env.step({a: int(np.flatnonzero(m)[0]) for a, m in masks.items()})
    assert all(p.revealed or p.played == -1 for p in game.players)
    waiting = [o["action_mask"] for o in obs.values() if o["action_mask"][act.WAIT]]
    assert all(m.sum() == 1 for m in waiting)
    assert env.state().shape == (game.state_size,)


@pytest.mark.parametrize("mode", ["duel", "coop"])
def test_parallel_every_seat_choosing_a_face_down_card_sees_it_is_to_decide(mode):
    """Both seats choose in the face-down step, so both observations say "to decide" (the game asks
    one seat at a time: the Parallel env must not pass on the AEC order); a waiting seat says 0."""
    from yokai_envs.onmyoji.observation import to_decide_index

    env = parallel_env(mode=mode)
    to_decide = to_decide_index(2)
    rng = np.random.default_rng(1)
    face_down_steps = waits = 0
    for seed in range(5, 10):
        obs, _ = env.reset(seed=seed)
        while env.agents and face_down_steps < 20:
            choosing = [a for a, o in obs.items() if o["action_mask"][act.PLAY:act.PLAY + 3].any()]
            for agent, o in obs.items():
                waiting = bool(o["action_mask"][act.WAIT]) and o["action_mask"].sum() == 1
                assert o["observation"][to_decide] == (0 if waiting else 1), (agent, env.game.decision)
                waits += waiting
            face_down_steps += len(choosing) == 2
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()})
    assert face_down_steps == 20 and waits > 0


def test_parallel_rejects_a_real_action_from_a_waiting_seat():
    env = parallel_env(mode="duel", illegal_action="raise")
    obs, _ = env.reset(seed=0)
    game = env.game
    rng = np.random.default_rng(0)
    while True:
        waiting = [a for a, o in obs.items() if o["action_mask"][act.WAIT]]
        if waiting:
            break
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()})
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    actions[waiting[0]] = act.PLAY
    steps = game.steps
    with pytest.raises(IllegalActionError, match="nothing to decide"):
        env.step(actions)
    assert game.steps == steps  # the deciding seat's legal action was not applied either


def test_solo_single_agent_gym_env_passes_sb3_check():
    check_env = pytest.importorskip("stable_baselines3.common.env_checker").check_env
    from yokai_envs.training import make_gym

    env = make_gym("onmyoji_v5", mode="solo")
    check_env(env)
    env.reset(seed=0)
    assert env.action_masks().shape == (act.NUM_ACTIONS,)


def test_readme_tables_match_the_code():
    """The package README's observation layout and action table agree with the code."""
    text = (Path(act.__file__).parent / "README.md").read_text()
    duel, solo = OnmyojiGame(mode="duel"), OnmyojiGame(mode="solo")
    widths = {m[1]: int(m[2]) for m in re.finditer(r"^\| `(\w+)` \| (\d+) \|", text, flags=re.M)}
    assert widths == {name: s.stop - s.start for name, s in duel.observation_layout.items()}
    assert f"Solo observations have {solo.observation_size} entries, Duel and Co-op {duel.observation_size}" in text
    blocks = {m[3]: (int(m[1]), int(m[2] or m[1])) for m in re.finditer(r"^\| (\d+)(?:-(\d+))? \| `(\w+)` \|",
                                                                        text, flags=re.M)}
    assert list(blocks) == [b.name for b in act.Block]
    for block, (first, last) in blocks.items():
        assert first == act.Block[block] and last == first + act.BLOCK_WIDTH[act.Block[block]] - 1
    assert f"{act.NUM_ACTIONS} actions" in text


def test_action_encode_decode_round_trip():
    for a in range(act.NUM_ACTIONS):
        block, arg = act.decode(a)
        assert act.encode(block, arg) == a
    with pytest.raises(ValueError, match="no action 86"):
        act.decode(act.NUM_ACTIONS)
    with pytest.raises(ValueError, match="has no argument"):
        act.encode(act.Block.PLAY, 3)


def _to_face_down_step(env, seed=3):
    obs, _ = env.reset(seed=seed)
    while env.game.decision != Decision.PLAY:
        obs, *_ = env.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    return obs


def test_parallel_step_is_atomic():
    """A joint action with one illegal action changes nothing, and can be retried."""
    env = parallel_env(mode="duel", illegal_action="raise")
    _to_face_down_step(env)
    game = env.game
    first, second = (f"player_{s}" for s in game.order)
    before = (game.steps, game.state_tensor().tobytes(), [p.played for p in game.players])
    with pytest.raises(IllegalActionError, match="evolve"):
        env.step({first: act.PLAY, second: act.EVOLVE})  # the first seat's card is legal, the second's not
    assert (game.steps, game.state_tensor().tobytes(), [p.played for p in game.players]) == before
    env.step({first: act.PLAY, second: act.PLAY + 1})  # the same joint step, now legal
    assert all(p.revealed for p in game.players)
    with pytest.raises(ConfigError, match="no action for"):
        env.step({})


def test_parallel_penalize_ends_the_game_for_the_offender():
    env = parallel_env(mode="duel", illegal_action="penalize")
    _to_face_down_step(env)
    game = env.game
    first, second = (f"player_{s}" for s in game.order)
    steps = game.steps
    _, rewards, terms, truncs, infos = env.step({first: act.PLAY, second: act.EVOLVE})
    assert rewards == {first: 0.0, second: -1.0}
    assert all(terms.values()) and not any(truncs.values())
    assert infos[second] == {"illegal_action": True} and infos[first] == {}
    assert env.agents == [] and game.steps == steps
    with pytest.raises(ConfigError, match="illegal_action 'ignore'"):
        parallel_env(illegal_action="ignore")


def test_parallel_penalize_passes_the_api_test():
    parallel_api_test(parallel_env(mode="coop", illegal_action="penalize", history=4), num_cycles=200)


def test_retired_v0_is_refused():
    with pytest.raises(ValueError, match=r"retired.*onmyoji_v5"):
        yokai_envs.make("onmyoji_v0", mode="duel")


def test_retired_v1_is_refused_naming_the_balance_changes():
    with pytest.raises(ValueError, match=r"'onmyoji_v1' was retired: the Duel Final's first player.*for balance.*"
                                         r"use 'onmyoji_v5'"):
        yokai_envs.make("onmyoji_v1", mode="duel")


def test_retired_v2_is_refused_naming_the_coop_rulings():
    with pytest.raises(ValueError, match=r"'onmyoji_v2' was retired: in the Co-op Boss battle.*R32.*R33.*"
                                         r"use 'onmyoji_v5'"):
        yokai_envs.make("onmyoji_v2", mode="coop")


def test_retired_v3_is_refused_naming_the_books_rules_and_the_balanced_variant():
    with pytest.raises(ValueError, match=r"'onmyoji_v3' was retired: the default game plays the rulebook.*"
                                         r"variant='balanced'.*use 'onmyoji_v5'"):
        yokai_envs.make("onmyoji_v3", mode="duel")


#: ``python benchmarks/obs_fingerprint.py --games 4 --env onmyoji_v4`` on main at 07f50bf (the last
#: onmyoji_v4): every AEC observation, mask, history, state, reward and determinized world of 4
#: seeded random games per configuration. onmyoji_v5 changed only the book's Solo levels and the
#: Parallel env, so its Duel and Co-op must hash the same: the shipped Duel and Co-op networks see
#: the inputs they were trained on (their cards were carried forward to v5 on this check).
V4_FINGERPRINTS = {
    (("mode", "duel"),): "793bee3f0f2e69073d8ce80af8c72633f055ff930284368fae844d752d0eabcf",
    (("mode", "coop"),): "7bbba774d261796698d21a52fb391bc9019bb1307c82a07a377d590cdc8609e3",
    (("mode", "coop"), ("difficulty", 10)): "a29b26fa0de0df3fd22ed412173d3eb5dd85952f81a4c790bdf08d493b1a8ba6",
}


@pytest.mark.parametrize("options", list(V4_FINGERPRINTS), ids=lambda o: "-".join(str(v) for _, v in o))
def test_duel_and_coop_are_onmyoji_v4s_games_bit_for_bit(options):
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "obs_fingerprint.py"
    spec = importlib.util.spec_from_file_location("obs_fingerprint", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.fingerprint(ENV_ID, dict(options), 4) == V4_FINGERPRINTS[options]


def test_retired_v4_is_refused_naming_the_solo_boss_damage_and_the_parallel_step():
    with pytest.raises(ValueError, match=r"'onmyoji_v4' was retired: Solo's book levels no longer add the Co-op "
                                         r"modifier Boss damage.*Parallel env.*use 'onmyoji_v5'"):
        yokai_envs.make("onmyoji_v4", mode="solo")


def test_parallel_defaults_to_penalize_and_samples_from_each_agents_mask():
    """The Parallel env follows the AEC env's PettingZoo conventions."""
    env = parallel_env(mode="duel")
    assert env.penalize_illegal
    obs, _ = env.reset(seed=0)
    for agent, observed in obs.items():
        space = env.action_space(agent)
        space.seed(1)
        assert all(observed["action_mask"][space.sample()] for _ in range(100))
    illegal = {a: int(np.flatnonzero(o["action_mask"] == 0)[0]) for a, o in obs.items()}
    _, rewards, terms, _, infos = env.step(illegal)
    assert rewards == dict.fromkeys(obs, -1.0) and all(terms.values())
    assert all(info["illegal_action"] for info in infos.values())


def test_parallel_max_cycles_counts_parallel_steps():
    env = parallel_env(mode="duel", max_cycles=3, mask_in_infos=True)
    obs, infos = env.reset(seed=0)
    for _ in range(3):
        assert env.agents and not env.game.is_over
        assert all(np.array_equal(infos[a]["action_mask"], obs[a]["action_mask"]) for a in obs)
        obs, _, terms, truncs, infos = env.step({a: env.action_space(a).sample() for a in env.agents})
    assert all(truncs.values()) and not any(terms.values()) and env.agents == []
    assert not env.game.is_over  # the cap, not the game, ended it
    assert all(o["action_mask"].sum() == 1 and o["action_mask"][act.WAIT] for o in obs.values())
    for bad in (0, -1, True, 2.5):
        with pytest.raises(ConfigError, match="max_cycles"):
            parallel_env(mode="duel", max_cycles=bad)


def test_parallel_step_cap_between_the_two_face_down_cards_commits_nothing():
    """A ``max_steps`` cap that leaves room for only one of the two face-down cards truncates the
    parallel step before either card is played (no half-played joint action, no error)."""
    probe = parallel_env(mode="duel")
    _to_face_down_step(probe)
    cap = probe.game.steps + 1  # room for the first face-down card only
    env = parallel_env(mode="duel", max_steps=cap)
    _to_face_down_step(env)
    game = env.game
    assert game.steps == cap - 1 and len(game.order) == 2
    before = (game.steps, game.state_tensor().tobytes(), [p.played for p in game.players])
    first, second = (f"player_{s}" for s in game.order)
    obs, rewards, terms, truncs, _ = env.step({first: act.PLAY, second: act.PLAY + 1})
    assert (game.steps, game.state_tensor().tobytes(), [p.played for p in game.players]) == before
    assert all(truncs.values()) and not any(terms.values()) and rewards == dict.fromkeys(obs, 0.0)
    assert env.agents == [] and all(o["action_mask"].sum() == 1 and o["action_mask"][act.WAIT] for o in obs.values())


def test_the_book_is_the_default_game_and_balanced_is_the_only_variant():
    from yokai_envs.onmyoji.game import OnmyojiGame

    assert OnmyojiGame().book and not OnmyojiGame(variant="balanced").book
    assert list(OnmyojiGame.VARIANTS) == ["balanced"]
    with pytest.raises(ConfigError, match=r"unknown variant 'fair'; valid variants: 'book', 'balanced'"):
        OnmyojiGame(variant="fair")
