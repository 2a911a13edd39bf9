"""The HTML replay page in headless Chromium (Debian's ``chromium`` package; scripts/test.sh installs it).

Each check loads the page from a file URL whose hash picks the step/view (and may press the
page's own buttons and keys), dumps the DOM, and looks at what was drawn. A script error would
leave a ``JS-ERROR`` marker in the DOM (window.onerror) and an "Uncaught" line in the log.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.play.chromium import needs_chromium, run_chromium
from tests.play.helpers import finished_yonkai, play_random
from yokai_envs.play import Replay
from yokai_envs.play.html import write_html
from yokai_envs.registry import ENV_IDS, make_game

pytestmark = needs_chromium


_chromium = run_chromium


def _dom(tmp_path: Path, page: Path, hash_: str) -> str:
    dom, log = _chromium(tmp_path, f"{page.as_uri()}#{hash_}", "--dump-dom")
    assert "Uncaught" not in log, log
    assert not re.search(r"CONSOLE\(\d+\)\].*(Error|error)", log), log
    assert 'data-errors="yes"' not in dom and 'class="error">JS-ERROR' not in dom
    assert 'data-rendered="yes"' in dom, dom[:2000]
    return dom


def _board(dom: str) -> str:
    return dom[dom.index('<div id="action"'):dom.index('<script id="replay-data"')]


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    replay = Replay.record(finished_yonkai(seed=6), ["heuristic", "random", "random"])
    path = tmp_path_factory.mktemp("html") / "replay.html"
    path.write_text(write_html(replay), encoding="utf-8")
    return path


def test_page_loads_and_stepping_changes_the_table(tmp_path, page):
    start = _dom(tmp_path, page, "step=0&view=omniscient")
    later = _dom(tmp_path, page, "step=5&view=omniscient")
    assert 'data-step="0"' in start and 'data-step="5"' in later
    assert "The deal (seed 6)" in start and "The deal" not in _board(later)
    assert _board(start) != _board(later)
    assert start.count('class="card"') > later.count('class="card"') - 5  # cards drawn as cards


def test_buttons_and_arrow_keys_step_forward_and_back(tmp_path, page):
    dom = _dom(tmp_path, page, "step=2&press=ArrowRight,next,next,ArrowLeft")
    assert 'data-step="4"' in dom
    assert 'data-step="0"' in _dom(tmp_path, page, "step=3&press=first")
    assert 'data-step="2"' in _dom(tmp_path, page, "step=3&press=prev")


def test_a_seat_view_shows_the_other_hands_face_down(tmp_path, page):
    seat = _dom(tmp_path, page, "step=0&view=1")
    everyone = _dom(tmp_path, page, "step=0&view=omniscient")
    assert 'data-view="1"' in seat and 'class="card back"' in seat
    assert 'class="card back"' not in everyone


def test_error_marker_catches_a_script_error(tmp_path, page):
    broken = tmp_path / "broken.html"
    broken.write_text(page.read_text().replace("</body>", "<script>undefinedFunction();</script></body>"))
    dom, _log = _chromium(tmp_path, broken.as_uri(), "--dump-dom")
    assert 'data-errors="yes"' in dom and 'class="error">JS-ERROR: ' in dom and "undefinedFunction" in dom


def test_screenshot(tmp_path, page):
    shot = tmp_path / "replay.png"
    _chromium(tmp_path, f"{page.as_uri()}#step=8&view=omniscient", f"--screenshot={shot}")
    assert shot.exists() and shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_draws_without_script_errors(tmp_path, env_id):
    game = make_game(env_id, max_steps=60)
    game.reset(3)
    play_random(game, seed=3)
    page = tmp_path / f"{env_id}.html"
    page.write_text(write_html(Replay.record(game, ["random"] * game.num_players)), encoding="utf-8")
    first = _dom(tmp_path, page, "step=0&view=0")
    last = _dom(tmp_path, page, f"step={game.steps}&view=omniscient&press=ArrowLeft,ArrowRight")
    assert f'data-step="{game.steps}"' in last and _board(first) != _board(last)


def test_a_hostile_name_and_a_huge_seed_render_exactly(tmp_path):
    """An agent named ``<!--<script>`` used to blank the page, and a seed above 2**53
    came out rounded in the banner (JavaScript numbers)."""
    seed = 3386346886314495343
    game = make_game("yonkai_no_yokai_v1", num_players=3, rounds_per_game=1)
    game.reset(seed)
    play_random(game, 1)
    path = tmp_path / "hostile.html"
    path.write_text(write_html(Replay.record(game, ["<!--<script>", "</script><b>x</b>", "random"])),
                    encoding="utf-8")
    dom = _dom(tmp_path, path, "step=0&view=omniscient")
    assert f"The deal (seed {seed})" in dom
    assert "&lt;!--&lt;script&gt;" in _board(dom)  # the name drawn as text
    assert "<b>x</b>" not in dom
