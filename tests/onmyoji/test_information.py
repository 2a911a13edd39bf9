"""What each seat sees: the events Onmyoji records, the face-down choice, the turn
feature, the Parallel env's ``history`` option and the README's event table."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from tests.onmyoji.helpers import A, G, S, new_game
from yokai_envs.onmyoji import actions as act
from yokai_envs.onmyoji import parallel_env, rules
from yokai_envs.onmyoji.game import OnmyojiGame
from yokai_envs.onmyoji.observation import GF
from yokai_envs.onmyoji.state import Decision, Event
from yokai_envs.onmyoji.view import FACE_DOWN


def _recording(mode: str = "duel", seed: int = 0, **options) -> OnmyojiGame:
    g = OnmyojiGame(mode=mode, **options)
    g.record_information()
    g.reset(seed)
    return g


def _final(turn: int) -> OnmyojiGame:
    g = new_game("duel", characters=("Doman", "Seimei"))
    g.final_duel = True
    rules.start_battle(g.state, g.rules_context(), [None, None])
    g.turn = turn
    rules.advance(g.state, g.rules_context())
    return g


def test_turn_feature_does_not_saturate_before_the_duel_final_ends():
    """Finding: turn/20 read 1 from turn 20 on while the Duel Final runs to turn 40."""
    turn = slice(GF["turn"], GF["turn"] + 1)
    late = [_final(t).observation(0)[turn][0] for t in (20, 25, 39, 40)]
    assert late == sorted(set(late)) and len(late) == 4
    assert late[-1] == 1.0


def test_the_first_face_down_card_reaches_nothing_of_the_second_seat():
    g = _recording(seed=4)
    while g.decision != Decision.PLAY:
        g.step(int(np.flatnonzero(g.legal_action_mask())[-1]))
    first = g.current_player
    second = 1 - first
    twins = [g.clone(), g.clone()]
    twins[0].step(A)
    twins[1].step(S)
    a, b = twins
    assert a.current_player == b.current_player == second
    assert a.information_state(second) == b.information_state(second)
    assert np.array_equal(a.observation(second), b.observation(second))
    assert np.array_equal(a.legal_action_mask(), b.legal_action_mask())
    assert a.public_log(second)[-1] == "play a card face down"
    assert a.seen_events(second)[-1] == (0, first, FACE_DOWN)
    assert a.information_state(first) != b.information_state(first)  # its own card it knows
    for t in twins:  # after the second card, the reveal tells them apart
        t.step(G)
    assert a.information_state(second) != b.information_state(second)
    assert (Event.REVEAL, first, 0) in a.seen_events(second) and (Event.REVEAL, first, 2) in b.seen_events(second)


def test_events_record_the_public_table():
    g = _recording("solo", seed=2)
    rng = np.random.default_rng(0)
    while not g.is_over:
        g.step(int(rng.choice(np.flatnonzero(g.legal_action_mask()))))
    kinds = {e[0] for e in g.seen_events(0)}
    for kind in (Event.CHARACTER, Event.BATTLE, Event.YOKAI_OUT, Event.REVEAL, Event.DECK_SHUFFLE, Event.DECK_FLIP,
                 Event.YOKAI_ACTS, Event.DAMAGE, Event.TURN, Event.GAME_OVER):
        assert kind in kinds, kind.name
    log = g.public_log(0)
    assert any(line.startswith("seat 0 is ") for line in log) and log[-1].startswith("game over")
    assert all(len(e) <= 1 + g.EVENT_ARGS for e in g.seen_events(0))


def test_known_placements_name_the_piles_and_the_own_face_down_card():
    g = _recording(seed=1)
    while g.decision != Decision.PLAY:
        g.step(int(np.flatnonzero(g.legal_action_mask())[-1]))
    seat = g.current_player
    g.step(G)
    facts = g.known_placements(seat)
    assert ("played", seat, 1) in facts and not any(f[0] == "played" for f in g.known_placements(1 - seat))
    assert sum(f[0] == "pile" for f in facts) == sum(len(p) for p in g.piles)
    for k in range(5):
        world = g.determinize(seat, np.random.default_rng(k))
        assert all(world.placement_holds(f) for f in facts)


def test_parallel_env_history_option():
    env = parallel_env(mode="duel", history=6)
    obs, _ = env.reset(seed=0)
    assert obs["player_0"]["history"].shape == (6, 1 + env.game.EVENT_ARGS)
    assert env.observation_space("player_0")["history"].contains(obs["player_0"]["history"])
    while env.game.decision != Decision.PLAY:
        obs, *_ = env.step({a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()})
    obs, *_ = env.step({a: act.PLAY + 1 for a in obs})  # both Guard
    rows = [tuple(int(x) for x in row) for row in obs["player_1"]["history"]]
    assert (Event.REVEAL, 0, 1, -1) in rows and (Event.REVEAL, 1, 1, -1) in rows
    assert all(o["history"].shape == (6, 4) for o in obs.values())


def test_readme_lists_every_event_kind():
    text = (Path(act.__file__).parent / "README.md").read_text()
    rows = {m[2]: int(m[1]) for m in re.finditer(r"^\| (\d+) \| ([A-Z_]+) \| ", text, flags=re.M)}
    assert rows == {k.name: int(k) for k in Event}
    assert "`history=K`" in text and f"{1 + OnmyojiGame.EVENT_ARGS} columns" in text


def test_strong_equip_builds_are_not_clipped_in_the_observation():
    """ATK/DEF/SPL were /12 and clipped: an ATK 13 and an ATK 16 build looked the same."""
    from yokai_envs.onmyoji.observation import PF
    from yokai_envs.onmyoji.state import Stats

    g = new_game("duel", characters=("Doman", "Seimei"))
    base = g.observation_layout["me"].start + PF["atk"]
    seen = []
    for extra in (10, 13):  # Doman ATK 3 + Equips
        g.players[0].equip_stats = Stats(extra, 0, 0)
        seen.append(g.observation(0)[base])
    assert seen[0] < seen[1] < 1.0
