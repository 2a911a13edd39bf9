"""The pages of ``yokai serve``: self-contained HTML (inline CSS and JS, no network but the API).

The page contract (docs/serve.md), kept stable for tests and users' scripts:
- every legal action of the human is a ``<button data-action="ID">`` labelled with its name;
- ``#to-act`` says whose turn it is, ``#result`` holds the result once the game is over;
- ``#next`` plays one bot move, ``#auto`` (checked by default) plays them one by one on a timer;
- ``#error`` shows why the server refused a request (the game is unchanged; ``#auto`` is unticked,
  and after a stale request the game is redrawn as it now is);
- ``#download`` links to the replay file once the game is over;
- ``<body>`` carries ``data-step``, ``data-over`` and ``data-busy`` (``yes`` while a request runs);
- the document gets a ``yokai:drawn`` event each time the game is drawn (after every answer).
"""

from __future__ import annotations

import html
import importlib.resources
from functools import cache
from typing import Any

from yokai_envs.play.html import CSS, DRAW_JS, json_for_script

AUTO_DELAY_MS = 700


def home_page(catalog: dict[str, Any], games: list[dict[str, Any]] | None = None, token: str = "") -> str:
    return _page("new game", {"kind": "home", "catalog": catalog, "games": games or [], "token": token})


def game_page(view: dict[str, Any], token: str = "") -> str:
    """``token``: the server's, which the page sends with every API call."""
    from yokai_envs.play.about import about

    told = about(view["env_id"])
    return _page(f"{told['title']} · game {view['game_id']}",
                 {"kind": "game", "view": view, "token": token, "about": told})


def error_page(status: int, message: str) -> str:
    return _page(f"error {status}", {"kind": "error", "status": status, "message": message})


@cache
def _static(name: str) -> str:
    """A file of ``static/`` (the page's script and style sheet, inlined into every page)."""
    return (importlib.resources.files("yokai_envs.play") / "static" / name).read_text(encoding="utf-8")


def _page(title: str, data: dict[str, Any]) -> str:
    script = _static("serve.js").replace("__DRAW__", DRAW_JS).replace("__DELAY__", str(AUTO_DELAY_MS))
    return (_TEMPLATE.replace("__TITLE__", html.escape(title)).replace("__CSS__", CSS + _static("serve.css"))
            .replace("__JS__", script).replace("__DATA__", json_for_script(data)))


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__CSS__</style>
</head><body data-rendered="no" data-busy="no">
<div id="js-errors"></div>
<header><h1><a href="/">yokai serve</a> <span id="heading">__TITLE__</span></h1>
  <div class="controls" id="controls"></div></header>
<main>
  <div id="error" class="refused" hidden></div>
  <div id="app"></div>
</main>
<script id="page-data" type="application/json">__DATA__</script>
<script>__JS__</script>
</body></html>
"""
