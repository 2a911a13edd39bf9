"""The suites are fixed by version: their protocol hashes, counts, seeds, ladders and levels."""

from __future__ import annotations

import copy

import pytest
import yaml

from yokai_envs.benchmark.suite import SuiteError, available, load_suite, parse_suite, protocol_hash

# A change to a suite file changes its hash: ship it as a new version (v2...), never edit v1.
# (One exception, before any score was recorded: on 2026-12-06 v1's env ids moved to the live
# versions, onmyoji_v5, yyh_tcg_v6 and yokaizo_v4, since a retired id cannot be played.)
PINNED = {
    "v1": "sha256:97ca040dd47a95b080ab959da853de9343f5456643ced43ddbe8758f444b1fcd",
    "v1-quick": "sha256:b896c40df539e95b78d2c848d2e806b3d9514d8d48edee93121b7e302a0908c2",
}
SEEDS = {"yonkai_3p": 1, "yonkai_4p": 2, "yokaizo": 3, "yyh": 4, "duel": 5, "solo": 6, "coop": 7}


def test_every_shipped_suite_is_pinned():
    assert available() == sorted(PINNED)


def test_v1_protocol_is_pinned():
    suite = load_suite("v1")
    assert suite.protocol_hash == PINNED["v1"]
    assert suite.games == 1068  # 1.96 * sqrt(0.25 / 1068) = 0.0300
    assert list(suite.ladder) == ["random", "lowest", "heuristic", "ismcts-8", "ismcts-32", "pretrained",
                                  "pretrained+search"]
    assert {name: c.seed for name, c in suite.configurations.items()} == SEEDS
    assert suite.configurations["solo"].levels == (7, 9) and suite.configurations["coop"].levels == (8, 10)


def test_quick_suite_is_pinned_and_shares_v1_deals():
    quick, full = load_suite("v1-quick"), load_suite("v1")
    assert quick.protocol_hash == PINNED["v1-quick"]
    assert quick.games == 120 and list(quick.ladder) == ["random", "lowest", "heuristic", "pretrained"]
    assert all(quick.ladder[name] == full.ladder[name] for name in quick.ladder)
    assert {n: (c.env_id, c.options, c.seed, c.levels) for n, c in quick.configurations.items()} == \
        {n: (c.env_id, c.options, c.seed, c.levels) for n, c in full.configurations.items()}


def _data(version: str = "v1") -> dict:
    from importlib import resources

    return yaml.safe_load((resources.files("yokai_envs.benchmark") / "suites" / f"{version}.yaml").read_text())


@pytest.mark.parametrize("edit", [
    lambda d: d.__setitem__("games", 1000),
    lambda d: d["configurations"]["yyh"].__setitem__("seed", 40),
    lambda d: d["ladder"].__setitem__("ismcts-8", "ismcts:iterations=9"),
    lambda d: d["configurations"]["solo"].__setitem__("levels", [7]),
])
def test_any_protocol_change_changes_the_hash(edit):
    data = _data()
    changed = copy.deepcopy(data)
    edit(changed)
    assert protocol_hash(changed) != protocol_hash(data)
    described = copy.deepcopy(data)
    described["description"] = "reworded"
    assert protocol_hash(described) == protocol_hash(data)  # the prose is not the protocol


@pytest.mark.parametrize(("edit", "word"), [
    (lambda d: d.__setitem__("games", 0), "games"),
    (lambda d: d.__setitem__("extra", 1), "extra"),
    (lambda d: d["configurations"]["yyh"].__setitem__("env_id", "yyh_tcg_v1"), "yyh_tcg_v1"),
    (lambda d: d["ladder"].__setitem__("bad", "heurstic"), "heurstic"),
    (lambda d: d["ladder"].__setitem__("self", "random"), "self"),
    (lambda d: d.__setitem__("scale", "random"), "scale"),
    (lambda d: d["configurations"]["yyh"].__setitem__("seed", "4"), "seed"),
])
def test_a_broken_suite_is_refused_naming_the_problem(edit, word):
    data = _data()
    edit(data)
    with pytest.raises(SuiteError, match=word):
        parse_suite(data, "v1")


def test_unknown_suite_and_configuration_name_the_valid_ones():
    with pytest.raises(SuiteError, match="v1-quick"):
        load_suite("v9")
    with pytest.raises(SuiteError, match="yonkai_3p"):
        load_suite("v1").select(["yonkai_5p"])
