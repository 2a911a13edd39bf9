"""The words of ``yokai serve``'s table (``play/words.py`` and each game's ``action_words`` and
``end_words``): one name per seat, "You" agreeing with its verb, a named log, buttons that say
what they do, and an end that names the winner, the rule and the score."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import conformance_params
from yokai_envs.play.about import about, player_counts
from yokai_envs.play.serve import Session, options_of
from yokai_envs.play.words import named, seat_names, winner_words
from yokai_envs.registry import ENV_IDS, make_game


def test_one_name_per_seat():
    assert seat_names(["pretrained", "human"], 1) == ["AI (pretrained)", "You"]
    assert seat_names(["human", "heuristic", "ismcts:iterations=200", "random"], 0) == [
        "You", "AI 1 (heuristic)", "AI 2 (ismcts)", "AI 3 (random)"]
    assert seat_names(["human"], 0) == ["You"]


@pytest.mark.parametrize(("text", "expected"), [
    ("player 0 loses 2 HP", "You lose 2 HP"), ("seat 0's Arena fighter", "Your Arena fighter"),
    ("seat 0 is Doman", "You are Doman"), ("player 1 loses 1 Life cube", "AI (random) loses 1 Life cube"),
    ("Life cubes left: player 0 3, player 1 4", "Life cubes left: You 3, AI (random) 4"),
    ("seat 0 searches and shows X", "You search and shows X"), ("player 7 is no seat", "player 7 is no seat"),
    ("the Final battle begins; player 0 is the first player", "the Final battle begins; you are the first player"),
    ("round 2 ended with player 0 owing", "round 2 ended with you owing")])
def test_seat_mentions_become_names_and_you_agrees_with_its_verb(text, expected):
    assert named(text, ["You", "AI (random)"]) == expected


def test_the_winner_in_words():
    names = ["You", "AI 1 (heuristic)", "AI 2 (random)"]
    assert winner_words([1.0, -1.0, -1.0], names) == "You win"
    assert winner_words([-1.0, 1.0, -1.0], names) == "AI 1 (heuristic) wins"
    assert winner_words([1.0, -1.0, 1.0], names) == "You and AI 2 (random) win"
    assert winner_words([-1.0, -1.0, -1.0], names) == "Nobody wins"
    assert winner_words([1.0, 1.0, 1.0], names) == "Everybody wins"


@pytest.mark.parametrize(("env_id", "options"), conformance_params())
def test_every_game_names_its_buttons_its_log_and_its_end(env_id, options):
    """Random games to their end: every legal action has a label and a tooltip, every move of the
    log names its seat, and the end says who won, why, and the score naming every seat."""
    seats = make_game(env_id, **options).num_players
    session = Session.start("0" * 12, env_id, options, 3, 0, ["human"] + ["random"] * (seats - 1))
    rng = np.random.default_rng(1)
    while not session.game.is_over and session.game.steps < 3000:
        if session.game.current_player == 0:
            view = session.view()
            for legal in view["legal"]:
                assert legal["label"] and legal["tip"], (env_id, legal)
            session.act(view["legal"][int(rng.integers(len(view["legal"])))]["id"])
        else:
            session.advance()
    view = session.view()
    assert view["over"] and view["names"][0] == "You"
    assert all(line["by"] is not None for line in view["story"] if line["move"])
    end = view["end"]
    assert end["winner"] and len(end["reason"]) > 15, end
    assert all(name in end["score"] for name in view["names"]), end


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_tells_a_new_player_its_name_its_rules_and_its_terms(env_id):
    told = about(env_id)
    assert told["title"] != env_id and 20 < len(told["blurb"]) <= 120, told["blurb"]
    assert told["players_text"].endswith("players") and len(told["how_to_play"]) >= 2
    assert told["glossary"] and all(len(line) < 200 for line in told["glossary"].values())
    assert set(told["option_words"]) <= set(options_of(env_id)), "OPTION_WORDS names an option the game lacks"


def test_the_player_count_follows_the_option_that_sets_it():
    assert player_counts("onmyoji_v5")["option"] == "mode"
    assert player_counts("onmyoji_v5")["counts"] == {'"duel"': 2, '"solo"': 1, '"coop"': 2}
    assert player_counts("yonkai_no_yokai_v1")["counts"] == {"3": 3, "4": 4}
    assert player_counts("yokaizo_v4") == {"default": 2, "option": None, "counts": {}}
