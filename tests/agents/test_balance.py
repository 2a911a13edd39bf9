"""``yokai balance``: content pairs in both seats on duplicate deals, levels by clear rate."""

from __future__ import annotations

import json

import pytest

from agents.arena.balance import markdown, run_balance
from yokai_envs.cli.balance import main as balance_main
from yokai_envs.registry import ENV_IDS

YOKAIZO = next(e for e in ENV_IDS if e.startswith("yokaizo"))
ONMYOJI = next(e for e in ENV_IDS if e.startswith("onmyoji"))
YONKAI = next(e for e in ENV_IDS if e.startswith("yonkai"))
YYH = next(e for e in ENV_IDS if e.startswith("yyh_tcg"))
DECKS = ["Kitsune Blaze", "Yuki Blizzard", "Kappa Tide"]


def test_every_pair_plays_the_same_deals_in_both_seat_orders() -> None:
    result = run_balance(YOKAIZO, "heuristic", games=2, seed=4, choices=DECKS)
    assert result.per_seat and result.axis == "decks"
    assert len(result.rows) == 6 and result.overall["games"] == 3 * 2 * 2
    for row in result.rows:
        assert row["games"] == 4 and row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    by_pair = {(r["choice"], r["against"]): r["win_rate"] for r in result.rows}
    for a, b in by_pair:  # a two-seat game hands out one win per game: the pair's shares add to 1
        assert by_pair[a, b] + by_pair[b, a] == pytest.approx(1.0)
    assert sum(r["win_rate"] for r in result.field_rows) / 3 == pytest.approx(0.5)
    assert 0 <= result.overall["first_seat"]["win_rate"] <= 1
    assert sum(v["games"] for v in result.overall["endings"].values()) == 12


def test_levels_give_a_clear_rate_each() -> None:
    result = run_balance(ONMYOJI, "heuristic", games=4, seed=0, env_options={"mode": "solo"}, choices=["1", "10"])
    assert not result.per_seat and [r["choice"] for r in result.rows] == [1, 10]
    assert all(r["games"] == 4 for r in result.rows)


def test_the_table_names_the_rule_variant_it_was_played_under() -> None:
    """The book's game and a variant are different games: the table's title says which (the
    book's when no variant was asked for), with any other option the run was given."""
    pair = ["Urameshi Detectives", "Toguro Brothers"]
    book = markdown(run_balance(YYH, "heuristic", games=1, choices=pair)).splitlines()[0]
    balanced = markdown(run_balance(YYH, "heuristic", games=1, env_options={"variant": "balanced"},
                                    choices=pair)).splitlines()[0]
    assert book.startswith(f"## {YYH} variant='book' balance: decks")
    assert balanced.startswith(f"## {YYH} variant='balanced' balance: decks")
    solo = markdown(run_balance(ONMYOJI, "heuristic", games=1, env_options={"mode": "solo"}, choices=["1", "2"]))
    assert "mode='solo'" in solo.splitlines()[0]


@pytest.mark.parametrize(("env_id", "options", "choices", "message"), [
    (YONKAI, {}, None, "no invented content"),
    (YOKAIZO, {}, ["Kitsune Blaze", "Nope Deck"], "unknown decks ['Nope Deck']"),
    (YOKAIZO, {}, ["Kitsune Blaze"], "at least two decks"),
    (YOKAIZO, {"decks": ("Kitsune Blaze", "Kappa Tide")}, None, "the option a balance run varies"),
])
def test_bad_requests_are_named(env_id: str, options: dict, choices: list | None, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        run_balance(env_id, "heuristic", games=1, env_options=options, choices=choices)


@pytest.mark.slow
def test_results_do_not_depend_on_workers_and_the_cli_writes_them(tmp_path, capsys) -> None:
    one = run_balance(YOKAIZO, "heuristic", games=2, seed=9, choices=DECKS[:2], workers=1).summary()
    two = run_balance(YOKAIZO, "heuristic", games=2, seed=9, choices=DECKS[:2], workers=2).summary()
    assert one == two
    code = balance_main(["--game", YOKAIZO, "--agents", "heuristic", "--choices", ",".join(DECKS[:2]),
                         "--games", "2", "--seed", "9", "--out", str(tmp_path), "--no-progress"])
    assert code == 0 and "against the field" in capsys.readouterr().out
    written = json.loads((tmp_path / "results.json").read_text())
    assert written[0]["matchups"] == json.loads(json.dumps(one["matchups"]))
    assert (tmp_path / "balance_0.png").stat().st_size > 1000 and (tmp_path / "results.csv").is_file()
    assert balance_main(["--game", YONKAI, "--agents", "heuristic", "--no-progress"]) == 2


def test_a_level_every_game_clears_draws_its_curve(tmp_path) -> None:
    """Level 1 is always cleared: its Wilson interval must reach exactly 1 (it used to stop a hair
    below, and the curve's error bar went negative and failed to draw)."""
    from agents.arena.balance import write_outputs
    from agents.arena.stats import wilson, wilson_interval

    for n in (1, 7, 200, 2000, 3333):
        assert wilson_interval(n, n)[1] == 1.0 and wilson_interval(0, n)[0] == 0.0
        assert wilson(1.0, n)[1] == 1.0 and wilson(0.0, n)[0] == 0.0
    result = run_balance(ONMYOJI, "heuristic", games=200, seed=0, env_options={"mode": "solo"}, choices=["1"])
    assert result.rows[0]["win_rate"] == 1.0 == result.rows[0]["ci_high"]
    write_outputs([result], str(tmp_path))
    assert (tmp_path / "balance_0.png").stat().st_size > 1000


def test_yyh_and_onmyoji_say_how_a_game_ended_and_who_moved_first() -> None:
    import numpy as np

    from yokai_envs.registry import make_game

    yyh = next(e for e in ENV_IDS if e.startswith("yyh_tcg"))
    ends = set()
    for seed in range(80):  # random play; the starter decks are long, so a deck-out is rare (seed 53)
        game = make_game(yyh)
        game.reset(seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            game.step(int(rng.choice(np.flatnonzero(game.legal_action_mask()))))
        facts = game.outcome_facts()
        assert facts["first_player"] == game.first_player
        loser = 1 - game.winner
        if facts["end"].startswith("deck out"):  # the loser had to draw from an empty deck
            assert not game.players[loser].deck and game.players[game.winner].wins < 3
            # "no fighter": it happened while an Arena waited for a 5th character
            empty_arena = any(p.fighter is None for p in game.players)
            assert empty_arena == (facts["end"] == "deck out, no fighter")
        else:
            assert facts["end"] == "three match wins" and game.players[game.winner].wins == 3
        ends.add(facts["end"])
    assert {"deck out", "three match wins"} <= ends <= {"deck out", "deck out, no fighter", "three match wins"}

    result = run_balance(ONMYOJI, "heuristic", games=3, seed=0, env_options={"mode": "duel"},
                         choices=["Seimei", "Doman"])
    final = result.overall["final_first"]
    assert final["games"] == 6 and 0 <= final["ci_low"] <= final["win_rate"] <= final["ci_high"] <= 1
    assert set(result.overall["endings"]) <= {"a fall in the nights", "a fall in the Final", "the Final's turn cap"}
    solo = make_game(ONMYOJI, mode="solo")
    solo.reset(0)
    assert "final_first" not in solo.outcome_facts()


def test_specs_on_levels_are_paired_on_the_same_deals(capsys) -> None:
    from agents.arena.balance import compare_levels, comparison_markdown

    options = {"mode": "coop"}
    coop = run_balance(ONMYOJI, "heuristic", games=12, seed=3, env_options=options, choices=["1", "6"])
    selfish = run_balance(ONMYOJI, "heuristic:selfish=true", games=12, seed=3, env_options=options,
                          choices=["1", "6"])
    rows = compare_levels([coop, selfish])
    assert [r["choice"] for r in rows] == [1, 6] and all(r["deals"] == 12 for r in rows)
    for row, a, b in zip(rows, coop.rows, selfish.rows, strict=True):
        assert (row["rate_a"], row["rate_b"]) == (a["win_rate"], b["win_rate"])
        assert row["difference"] == pytest.approx(a["win_rate"] - b["win_rate"])
        assert row["low"] <= row["difference"] <= row["high"]
    # The same deals: a game both cleared or both lost agrees deal by deal more than chance allows.
    agree = sum(coop.deal_credits[6][d] == selfish.deal_credits[6][d] for d in range(12))
    assert agree >= 6
    table = comparison_markdown(rows, "difficulty")
    assert "heuristic minus heuristic:selfish=true" in table and "| 6 |" in table
    assert compare_levels([coop]) == []
    other_seed = run_balance(ONMYOJI, "heuristic", games=12, seed=4, env_options=options, choices=["1", "6"])
    with pytest.raises(ValueError, match="did not play the same deals"):
        compare_levels([coop, other_seed])


def test_the_cli_prints_and_writes_the_comparison(tmp_path, capsys) -> None:
    code = balance_main(["--game", ONMYOJI, "--env-kwargs", '{"mode": "coop"}', "--agents",
                         "heuristic,heuristic:selfish=true", "--choices", "5", "--games", "6", "--seed", "0",
                         "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "Paired on the same deals: heuristic minus heuristic:selfish=true" in out
    written = json.loads((tmp_path / "results.json").read_text())
    assert "comparisons" not in written[0] and written[1]["comparisons"][0]["choice"] == 5
    assert balance_main(["--game", ONMYOJI, "--env-kwargs", '{"mode": "coop"}', "--agents", "heuristic:selfsh=1",
                         "--no-progress"]) == 2
    assert "did you mean 'selfish'" in capsys.readouterr().err


def test_yokaizo_endings_are_named_by_cause_and_first_player_is_reported() -> None:
    from yokai_envs.yokaizo.state import EndCause

    result = run_balance(YOKAIZO, "heuristic", games=2, seed=1, choices=DECKS[:2])
    assert set(result.overall["endings"]) <= {*map(str, EndCause), "step cap"}
    assert "end" not in result.overall["endings"]  # every finished game names its cause
    first = result.overall["first_player"]
    assert first["games"] == 4 and first["ci_low"] <= first["win_rate"] <= first["ci_high"]


def test_the_cli_measures_the_books_game_and_each_variant_and_names_them(tmp_path, capsys) -> None:
    code = balance_main(["--game", ONMYOJI, "--env-kwargs", '{"mode": "solo"}', "--agents", "heuristic",
                         "--choices", "1", "--games", "2", "--variants", "all", "--out", str(tmp_path),
                         "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert "variant='book' balance" in out and "variant='balanced' balance" in out
    for variant in ("book", "balanced"):
        written = json.loads((tmp_path / variant / "results.json").read_text())
        assert written[0]["env_options"]["variant"] == variant
    assert balance_main(["--game", ONMYOJI, "--agents", "heuristic", "--variants", "fair", "--no-progress"]) == 2
    assert "unknown variant(s) 'fair'" in capsys.readouterr().err
    assert balance_main(["--game", YONKAI, "--agents", "heuristic", "--variants", "all", "--no-progress"]) == 2
    assert "has no rule variants" in capsys.readouterr().err
