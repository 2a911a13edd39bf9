"""The AEC env through the registry: options, observation dict, layout, render."""

from __future__ import annotations

import numpy as np
import pytest

import yokai_envs


def test_env_plays_a_game_with_deck_options_and_renders() -> None:
    env = yokai_envs.make("yyh_tcg_v6", decks=("Toguro Brothers", "Saint Beasts Gate"), render_mode="ansi")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    layout = env.unwrapped.observation_layout
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert observation["observation"].dtype == np.float32
        assert observation["observation"][layout["phase"]].sum() == 1.0
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    game = env.unwrapped.game
    assert game.is_terminal and "Toguro Brothers" in env.render()
    assert {p.deck_name for p in game.players} == {"Toguro Brothers", "Saint Beasts Gate"}


def test_layout_names_slots_for_both_sides() -> None:
    env = yokai_envs.make("yyh_tcg_v6")
    layout = env.unwrapped.observation_layout
    for side in ("my", "opp"):
        for slot in ("fighter", "line1", "line4"):
            assert f"{side}_{slot}_char" in layout
    assert "my_fighter_face_down_cards" in layout and "opp_fighter_face_down_cards" not in layout


def test_hand_features_summarise_the_printed_cards() -> None:
    from tests.yyh_tcg.helpers import give, neutral_game
    from yokai_envs.yyh_tcg.observation import CARD_FEATURES

    g = neutral_game()
    block = g.observation(0)[g.observation_layout["my_hand_features"]]
    assert not block.any()
    give(g, 0, "Wind Cyclone", "Ambush")
    block = g.observation(0)[g.observation_layout["my_hand_features"]]
    named = dict(zip(CARD_FEATURES, block))
    assert named["technique"] == named["event"] == 0.1 and named["timing_use"] == 0.1
    assert named["attack_value/15"] > 0 and named["item"] == 0


def test_package_readme_states_the_default_sizes_and_every_block() -> None:
    from pathlib import Path

    from yokai_envs.yyh_tcg.game import YYHGame

    text = (Path(__file__).parents[2] / "yokai_envs" / "yyh_tcg" / "README.md").read_text(encoding="utf-8")
    g = YYHGame()
    g.reset(0)
    assert f"{g.num_actions} actions" in text and f"{g.observation_size:,} entries" in text
    assert all(f"`{block}`" in text for block in g.table.ranges)


@pytest.mark.parametrize("old", ["yyh_tcg_v0", "yyh_tcg_v1", "yyh_tcg_v2", "yyh_tcg_v3", "yyh_tcg_v4", "yyh_tcg_v5"])
def test_the_retired_ids_are_refused_with_the_current_successor(old: str) -> None:
    with pytest.raises(ValueError, match=rf"'{old}' was retired.*'yyh_tcg_v6'"):
        yokai_envs.make(old)


def test_history_option_gives_the_recent_events_as_rows() -> None:
    from yokai_envs.yyh_tcg.state import EVENT_ARGS, Ev

    env = yokai_envs.make("yyh_tcg_v6", history=64)
    env.reset(seed=1)
    obs, *_ = env.last()
    rows = obs["history"]
    assert rows.shape == (64, 1 + EVENT_ARGS)
    kinds = set(rows[:, 0].tolist())
    assert {int(Ev.DECK), int(Ev.SHUFFLE)} <= kinds and int(Ev.DREW) not in kinds  # before the deal
