"""A replay cannot be forged, and a malformed one is an error, not a traceback.

The stated result is checked against the rebuilt game (viewers show the rebuilt one), the
final-state hash is required, every field is type-checked, and the HTML page survives any
name and shows seeds exactly.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.play.helpers import finished_yonkai
from yokai_envs.cli import main as yokai_main
from yokai_envs.play import Replay, ReplayError, load_replay
from yokai_envs.play.html import write_html
from yokai_envs.registry import make_game


def _data(**changes):
    data = Replay.record(finished_yonkai(), ["random"] * 3).to_json()
    data.update(changes)
    return data


def _file(tmp_path, data, name="r.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _refused(tmp_path, capsys, data, message):
    path = _file(tmp_path, data)
    with pytest.raises(ReplayError, match=message):
        load_replay(path).build_game()
    for extra in (["--all"], ["--html", str(tmp_path / "out.html")]):
        assert yokai_main(["replay", str(path), *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith("yokai replay: error: ") and "Traceback" not in err
        assert re.search(message, err), err
    assert not (tmp_path / "out.html").exists()


def test_a_forged_winner_is_refused_everywhere(tmp_path, capsys):
    data = _data()
    true_returns = data["result"]["returns"]
    forged = [1.0] + [-1.0] * (len(true_returns) - 1)
    if forged == true_returns:
        forged = [-1.0, 1.0] + [-1.0] * (len(true_returns) - 2)
    _refused(tmp_path, capsys, {**data, "result": {**data["result"], "returns": forged}},
             r"states a result the game does not give \(returns\)")
    _refused(tmp_path, capsys, {**data, "result": {**data["result"], "terminal": False, "truncated": True}},
             r"does not give \(terminal, truncated\)")
    _refused(tmp_path, capsys, {**data, "result": {**data["result"], "steps": 1}}, r"does not give \(steps\)")


def test_the_hash_is_required(tmp_path, capsys):
    data = _data()
    del data["final_state_sha256"]
    _refused(tmp_path, capsys, data, "field 'final_state_sha256' must be the sha256 .* got nothing")
    _refused(tmp_path, capsys, _data(final_state_sha256=None), "field 'final_state_sha256' must be")
    _refused(tmp_path, capsys, _data(final_state_sha256="abc"), "field 'final_state_sha256' must be")


@pytest.mark.parametrize(("changes", "message"), [
    ({"seed": -1}, "field 'seed' must be a non-negative integer, got int -1"),
    ({"seed": 1.5}, "field 'seed' must be a non-negative integer, got float 1.5"),
    ({"seed": "7"}, "field 'seed' must be a non-negative integer"),
    ({"seed": True}, "field 'seed' must be a non-negative integer, got bool true"),
    ({"seed": None}, "field 'seed' must be a non-negative integer"),
    ({"options": {"num_players": 4.0, "rounds_per_game": 1}}, "option num_players must be an int, got float 4.0"),
    ({"options": {"num_players": 3, "colour": 1}}, r"unknown option\(s\) colour"),
    ({"options": []}, "field 'options' must be a JSON object"),
    ({"result": [1, 2]}, "field 'result' must be a JSON object"),
    ({"result": None}, "field 'result' must be a JSON object"),
    ({"result": {"returns": "1,0,0", "terminal": True, "truncated": False, "steps": 3}},
     "result.returns must be a list of numbers, got str"),
    ({"result": {"returns": ["1", 0, 0], "terminal": True, "truncated": False, "steps": 3}},
     "result.returns must be a list of numbers"),
    ({"result": {"returns": [1, 0, 0], "terminal": "yes", "truncated": False, "steps": 3}},
     "result.terminal must be true or false"),
    ({"result": {"returns": [1, 0, 0], "terminal": True, "truncated": False, "steps": -3}},
     "result.steps must be a non-negative integer"),
    ({"meta": [1, 2]}, "field 'meta' must be a JSON object, got list"),
    ({"agents": "random,random,random"}, "field 'agents' must be a list of agent names"),
    ({"agents": ["random", 3, "random"]}, r"agents\[1\] must be a string, got int 3"),
    ({"actions": [1, True]}, r"actions\[1\] must be a non-negative integer, got bool"),
    ({"actions": [-5]}, r"actions\[0\] must be a non-negative integer, got int -5"),
    ({"actions": [1.0]}, r"actions\[0\] must be a non-negative integer, got float"),
    ({"env_id": 7}, "field 'env_id' must be a string"),
    ({"package_version": 1}, "field 'package_version' must be a string"),
    ({"format_version": True}, "format version True is not supported"),
])
def test_malformed_fields_get_clear_errors(tmp_path, capsys, changes, message):
    _refused(tmp_path, capsys, _data(**changes), message)


@pytest.mark.parametrize(("text", "message"), [
    (b'{"format": "yokai-replay", "format": "yokai-replay"}', "key 'format' appears twice"),
    (b'{"seed": NaN}', "NaN is not a JSON number"),
    (b"\xff\xfe{}", "is not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply|not valid JSON"),
    (b"", "not valid JSON"),
])
def test_unreadable_files(tmp_path, capsys, text, message):
    path = tmp_path / "r.json"
    path.write_bytes(text)
    with pytest.raises(ReplayError, match=message):
        load_replay(path)
    assert yokai_main(["replay", str(path), "--all"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def _script_data(page: str) -> dict:
    opening = '<script id="replay-data" type="application/json">'
    start = page.index(opening) + len(opening)
    return json.loads(page[start:page.index("</script>", start)])


@pytest.mark.parametrize("name", ["<!--<script>", "</script><script>alert(1)</script>", "a&b<c>\u2028d",
                                  "<!--", "<script>"])
def test_any_agent_name_keeps_the_page_whole(name):
    page = write_html(Replay.record(finished_yonkai(), [name, "random", "random"]))
    assert "<!--" not in page and "<script>alert" not in page
    # The data block ends at its own </script> and parses back to the same names.
    assert _script_data(page)["agents"] == [name, "random", "random"]
    assert page.count("</script>") == 2  # the data block and the code, nothing injected


def test_seeds_above_2_53_reach_the_page_exactly(tmp_path):
    seed = 3386346886314495343
    game = make_game("yonkai_no_yokai_v1", num_players=3, rounds_per_game=1)
    game.reset(seed)
    from tests.play.helpers import play_random

    play_random(game, 2)
    page = write_html(Replay.record(game, ["random"] * 3))
    data = _script_data(page)
    assert data["seed"] == str(seed)  # a string: JavaScript would round the number to ...500
    assert f"seed {seed}" in page


def test_the_viewer_shows_the_rebuilt_result(tmp_path, capsys):
    game = finished_yonkai()
    path = _file(tmp_path, Replay.record(game, ["random"] * 3).to_json())
    assert yokai_main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    shown = ", ".join(f"player {s} (random): {r:+g}" for s, r in enumerate(game.returns()))
    assert f"finished; returns: {shown}" in out
    assert _script_data(write_html(load_replay(path)))["result"]["returns"] == [float(r) for r in game.returns()]


def test_an_edited_agents_list_is_refused(tmp_path, capsys):
    data = _data()
    data["agents"] = ["heuristic", "random", "random"]  # claim a stronger bot won
    _refused(tmp_path, capsys, data, "agents list differs")


def test_a_version_1_replay_still_plays_and_says_its_agents_are_unchecked(tmp_path, capsys):
    from yokai_envs.play.replay import state_digest

    game = finished_yonkai()
    data = Replay.record(game, ["random"] * 3).to_json()
    data.update(format_version=1, final_state_sha256=state_digest(game))
    path = _file(tmp_path, data)
    assert load_replay(path).build_game().steps == game.steps
    assert yokai_main(["replay", str(path), "--all"]) == 0
    assert "does not cover the agents list" in capsys.readouterr().err


def test_an_out_of_range_action_is_a_replay_error(tmp_path, capsys):
    data = _data()
    data["actions"][3] = 10**6
    _refused(tmp_path, capsys, data, "at step 4: action 1000000 is out of range")


def test_html_over_the_replay_itself_is_refused(tmp_path, capsys):
    path = _file(tmp_path, _data())
    before = path.read_bytes()
    for target in (str(path), str(tmp_path / "." / path.name)):
        assert yokai_main(["replay", str(path), "--html", target]) == 2
        err = capsys.readouterr().err
        assert "is the replay file itself" in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == before


def test_swapped_agents_with_a_recomputed_digest_are_refused(tmp_path, capsys):
    """The package's own digest can be redone by anyone; the signature needs this user's key."""
    from yokai_envs.play import replay_digest

    game = finished_yonkai()
    path = tmp_path / "r.json"
    Replay.record(game, ["heuristic", "random", "random"]).save(path)
    data = json.loads(path.read_text())
    assert load_replay(path).verified and data["hmac_sha256"]
    swapped = ["random", "heuristic", "random"]
    forged = {**data, "agents": swapped, "final_state_sha256": replay_digest(game, swapped)}
    _refused(tmp_path, capsys, forged, r"does not match its signature: it was edited after it was written")
    # without the signature it is shown, but as unsigned: who played is only what the file says
    unsigned = {k: v for k, v in forged.items() if k not in ("hmac_sha256", "key_id")}
    path.write_text(json.dumps(unsigned))
    assert not load_replay(path).verified and load_replay(path).build_game()
    assert yokai_main(["replay", str(path), "--all"]) == 0
    assert "is not signed with your key" in capsys.readouterr().err


def test_a_replay_signed_with_another_key_is_refused_naming_it(tmp_path, capsys, monkeypatch):
    from yokai_envs.core.signing import signing_key

    path = Replay.record(finished_yonkai(), ["random"] * 3).save(tmp_path / "r.json")
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", str(tmp_path / "another_key"))
    signing_key()  # another user, with a key of their own
    with pytest.raises(ReplayError, match="is signed with another key"):
        load_replay(path).build_game()
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", "none")  # no key here: shown, as unsigned
    assert not load_replay(path).verified and load_replay(path).build_game()


def test_the_key_is_private_and_created_once(tmp_path, monkeypatch):
    import stat

    from yokai_envs.core.signing import SigningError, signing_key

    key_file = tmp_path / "conf" / "key"
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", str(key_file))
    key = signing_key()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and signing_key() == key
    key_file.chmod(0o644)
    with pytest.raises(SigningError, match="readable or writable by other users"):
        signing_key()


def test_a_key_that_cannot_be_created_leaves_files_unsigned_with_a_warning(tmp_path, monkeypatch):
    blocked = tmp_path / "a_file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("YOKAI_ENVS_KEY_FILE", str(blocked / "key"))
    with pytest.warns(UserWarning, match="written unsigned"):
        path = Replay.record(finished_yonkai(), ["random"] * 3).save(tmp_path / "r.json")
    assert "hmac_sha256" not in json.loads(path.read_text()) and not load_replay(path).verified
