"""``yokai replay FILE --html OUT.html``: one self-contained page (inline CSS and JS, no network).

Every step's ``table_view`` for every included view (each seat and the omniscient one) is
computed here and embedded as JSON; the page only draws it. Stepping: the buttons, the arrow
keys (Left/Right, Home/End) or the URL hash ``#step=3&view=1`` (``view=omniscient`` or a seat).
The hash may also carry ``press=ArrowRight,next,...``: keys/buttons the page presses after
loading, so headless tests can drive the real handlers. A script error writes a
``JS-ERROR`` marker into the page (``#js-errors``).
"""

from __future__ import annotations

import html
import json
from typing import Any

from yokai_envs.core.protocols import table_view
from yokai_envs.play.replay import Replay, game_result

OMNISCIENT = "omniscient"


# The drawing of a table_view's counters and zones, shared with ``yokai serve``'s page.
DRAW_JS = r"""
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function chips(counters) {
    var box = el("div", "chips");
    Object.keys(counters || {}).forEach(function (key) {
      var chip = el("span", "chip");
      chip.appendChild(el("span", "", key + ": "));
      chip.appendChild(el("b", "", counters[key]));
      box.appendChild(chip);
    });
    return box;
  }
  function zone(z) {
    var box = el("div", "zone");
    var cards = z.cards || [];
    var hidden = z.hidden || 0;
    box.appendChild(el("div", "zone-name", z.name + " (" + (cards.length + hidden) + ")"));
    var row = el("div", "cards");
    cards.forEach(function (c) {
      var card = el("div", "card");
      card.appendChild(el("div", "name", c.name));
      if (c.info) card.appendChild(el("div", "info", c.info));
      row.appendChild(card);
    });
    var shownBacks = Math.min(hidden, 12);
    for (var i = 0; i < shownBacks; i++) row.appendChild(el("div", "card back", "?"));
    if (hidden > shownBacks) row.appendChild(el("span", "chip", "+" + (hidden - shownBacks) + " face down"));
    if (!cards.length && !hidden) row.appendChild(el("span", "empty", "empty"));
    box.appendChild(row);
    return box;
  }
  // A table_view under its title: counters, shared zones, one box per seat, the text view.
  // opts (optional): skip(seat, zone) leaves a zone out (the serve page draws your hand apart);
  // collapseEmpty lists the empty zones of a box on one line instead of a box each.
  function drawTable(board, t, toAct, viewer, seatLabel, opts) {
    opts = opts || {};
    function zones(box, list, seat) {
      var empty = [];
      list.forEach(function (z) {
        if (opts.skip && opts.skip(seat, z)) return;
        if (opts.collapseEmpty && !(z.cards || []).length && !z.hidden) { empty.push(z.name); return; }
        box.appendChild(zone(z));
      });
      if (empty.length) box.appendChild(el("div", "empty-zones", "empty: " + empty.join(", ")));
    }
    board.appendChild(chips(t.counters));
    if ((t.zones || []).length) {
      var shared = el("div", "shared");
      zones(shared, t.zones, null);
      board.appendChild(shared);
    }
    if ((t.seats || []).length) {
      var seats = el("div", "seats");
      t.seats.forEach(function (s) {
        var box = el("div", "seat" + (s.seat === toAct ? " to-act" : "") + (s.seat === viewer ? " viewer" : ""));
        box.setAttribute("data-seat", s.seat);
        var head = el("div", "");
        head.appendChild(el("span", "seat-label", seatLabel(s)));
        if (s.note) head.appendChild(el("span", "seat-note", s.note));
        box.appendChild(head);
        box.appendChild(chips(s.counters));
        zones(box, s.zones || [], s.seat);
        seats.appendChild(box);
      });
      board.appendChild(seats);
    }
    if (t.text) board.appendChild(el("pre", "text", t.text));
  }
"""

_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_for_script(data: Any) -> str:
    # Inside <script>, "</script" closes the tag early and "<!--<script" puts the parser in a state
    # where the real "</script>" no longer closes it (the page goes blank). JSON lets every
    # "<", ">" and "&" be written as a \u escape, which no HTML parser reads as markup.
    text = json.dumps(data, separators=(",", ":"))
    return "".join(_SCRIPT_ESCAPES.get(c, c) for c in text)


def page_data(replay: Replay, seats: list[int] | None = None) -> dict[str, Any]:
    """Everything the page draws. ``seats`` limits the seat views (None: every seat + omniscient;
    a list: only those seats, no omniscient view, so the page can be shared with that player)."""
    steps = []
    keys: list[str] = []
    game = None
    for step in replay.steps():
        game = step.game
        if not keys:
            chosen = range(game.num_players) if seats is None else seats
            keys = ([OMNISCIENT] if seats is None else []) + [str(s) for s in chosen]
        views = {}
        for key in keys:
            seat = None if key == OMNISCIENT else int(key)
            view = table_view(game, seat)
            seen = step.seen.get(seat) if step.actor is not None else None
            view["action"] = seen
            if seat is not None:  # what else the seat saw happen (its public log; line 0 is the decision)
                view["log"] = step.log.get(seat, [])[0 if step.actor is None else 1:]
            views[key] = view
        steps.append({"actor": step.actor, "views": views})
    labels = {k: ("omniscient" if k == OMNISCIENT else f"player {k} ({replay.agents[int(k)]})") for k in keys}
    assert game is not None  # steps() yields at least the deal, and checked the whole file
    # The seed as a string: JavaScript numbers round integers above 2**53, and a user copies it.
    return {"env_id": replay.env_id, "options": replay.options, "seed": str(replay.seed), "agents": replay.agents,
            "result": game_result(game), "package_version": replay.package_version, "views": keys,
            "labels": labels, "steps": steps}


def write_html(replay: Replay, seats: list[int] | None = None, start_view: str | None = None) -> str:
    """The page as a string."""
    data = page_data(replay, seats)
    if start_view is not None:
        data["start_view"] = start_view
    title = html.escape(f"{replay.env_id} replay (seed {replay.seed})")
    return (_TEMPLATE.replace("__TITLE__", title).replace("__CSS__", CSS).replace("__JS__", _JS)
            .replace("__DATA__", json_for_script(data)))


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__CSS__</style>
</head><body data-rendered="no">
<div id="js-errors"></div>
<header>
  <h1>__TITLE__</h1>
  <div class="controls">
    <button id="first" title="first step (Home)">&laquo; first</button>
    <button id="prev" title="previous step (Left arrow)">&#x25C0; back</button>
    <span id="step-label">step</span>
    <button id="next" title="next step (Right arrow)">next &#x25B6;</button>
    <button id="last" title="last step (End)">last &raquo;</button>
    <label>view <select id="view"></select></label>
  </div>
</header>
<main>
  <div id="action" class="action"></div>
  <div id="board"></div>
</main>
<script id="replay-data" type="application/json">__DATA__</script>
<script>__JS__</script>
</body></html>
"""

CSS = """
body { font-family: system-ui, sans-serif; margin: 0; background: #f3efe6; color: #222; }
header { background: #2b2d42; color: #fff; padding: 8px 16px; position: sticky; top: 0; }
header h1 { font-size: 18px; margin: 0 0 6px 0; }
.controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.controls button { font-size: 15px; padding: 3px 10px; cursor: pointer; }
#step-label { min-width: 120px; text-align: center; font-weight: bold; }
main { padding: 12px 16px; }
.action { font-size: 16px; padding: 8px 12px; background: #fff8dc; border: 1px solid #d9c98f;
          border-radius: 6px; margin-bottom: 10px; }
.title { font-size: 17px; font-weight: bold; margin: 6px 0; }
.meta { margin: 4px 0 10px 0; color: #444; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0; }
.chip { background: #e4e7f1; border-radius: 10px; padding: 2px 9px; font-size: 13px; }
.chip b { font-weight: 600; }
.zone { margin: 6px 0; }
.zone-name { font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; color: #555; }
.cards { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 2px; min-height: 20px; }
.card { background: #fff; border: 1px solid #888; border-radius: 5px; padding: 3px 6px; min-width: 22px;
        text-align: center; box-shadow: 1px 1px 0 #bbb; }
.card .name { font-weight: 600; font-size: 14px; }
.card .info { font-size: 11px; color: #555; }
.card.back { background: repeating-linear-gradient(45deg, #7a3b3b, #7a3b3b 4px, #8f4a4a 4px, #8f4a4a 8px);
             color: #fff; border-color: #5a2a2a; }
.empty { color: #999; font-size: 12px; font-style: italic; }
.empty-zones { color: #888; font-size: 12px; font-style: italic; margin: 4px 0; }
.seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 10px; margin-top: 10px; }
.seat { background: #fff; border: 2px solid #ccc; border-radius: 8px; padding: 8px 10px; }
.seat.to-act { border-color: #d2691e; box-shadow: 0 0 0 3px #f4c08c; }
.seat.viewer { background: #f6fbff; }
.seat-label { font-weight: bold; }
.seat-note { color: #a33; font-size: 13px; margin-left: 6px; }
.shared { background: #fbf8f0; border: 1px dashed #bba; border-radius: 8px; padding: 6px 10px; }
pre.text { background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 8px; white-space: pre-wrap; }
.result { margin-top: 12px; font-weight: bold; }
.recent-label { margin-top: 14px; }
ol.recent { margin: 4px 0; padding-left: 40px; font-size: 13px; color: #444; }
ul.log { margin: 4px 0 8px; padding-left: 22px; font-size: 13px; color: #333; }
ol.recent li.now { font-weight: bold; color: #222; }
.error { background: #fdd; color: #900; padding: 6px 12px; font-family: monospace; }
"""

_JS_BODY = r"""
(function () {
  "use strict";
  function reportError(message) {
    var box = document.getElementById("js-errors");
    var line = document.createElement("div");
    line.className = "error";
    line.textContent = "JS-ERROR: " + message;
    box.appendChild(line);
    document.body.setAttribute("data-errors", "yes");
  }
  window.onerror = function (message, source, line) { reportError(message + " (line " + line + ")"); };

  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var last = data.steps.length - 1;
  var state = { step: 0, view: data.start_view || data.views[0] };

__DRAW__  function seatName(seat) {
    return "player " + seat + " (" + data.agents[seat] + ")";
  }

  function draw() {
    var step = data.steps[state.step];
    var view = step.views[state.view];
    document.getElementById("step-label").textContent = "step " + state.step + " / " + last;
    var action = document.getElementById("action");
    if (step.actor === null || step.actor === undefined) {
      action.textContent = "The deal (seed " + data.seed + "). Step with the arrow keys or the buttons.";
    } else if (view.action === null || view.action === undefined) {
      action.textContent = seatName(step.actor) + " made a choice you cannot see";
    } else {
      action.textContent = seatName(step.actor) + ": " + view.action;
    }
    var board = document.getElementById("board");
    board.innerHTML = "";
    if ((view.log || []).length) {
      var log = el("ul", "log");
      view.log.forEach(function (line) { log.appendChild(el("li", "", line)); });
      board.appendChild(el("div", "zone-name", "what this seat saw happen"));
      board.appendChild(log);
    }
    board.appendChild(el("div", "title", view.title));
    var decider = view.to_act >= 0 ? seatName(view.to_act) + " to decide (" + view.phase + ")" : "game over";
    board.appendChild(el("div", "meta", decider));
    var viewer = Number(state.view);  // NaN for the omniscient view: no seat is the viewer
    drawTable(board, view, view.to_act, viewer, function (s) { return s.label + " · " + data.agents[s.seat]; });
    var recent = el("ol", "recent");
    recent.setAttribute("start", Math.max(1, state.step - 7));
    for (var k = Math.max(1, state.step - 7); k <= state.step; k++) {
      var past = data.steps[k];
      var seen = past.views[state.view].action;
      recent.appendChild(el("li", k === state.step ? "now" : "",
        seatName(past.actor) + ": " + (seen === null || seen === undefined ? "(hidden)" : seen)));
    }
    if (state.step > 0) {
      board.appendChild(el("div", "zone-name recent-label", "recent actions"));
      board.appendChild(recent);
    }
    if (state.step === last && data.result && data.result.returns) {
      var parts = data.result.returns.map(function (r, s) { return seatName(s) + " " + (r > 0 ? "+" : "") + r; });
      var end = data.result.terminal ? "Final result: " : (data.result.truncated ? "Truncated: " : "Unfinished: ");
      board.appendChild(el("div", "result", end + parts.join(", ")));
    }
    document.getElementById("prev").disabled = state.step === 0;
    document.getElementById("first").disabled = state.step === 0;
    document.getElementById("next").disabled = state.step === last;
    document.getElementById("last").disabled = state.step === last;
    document.getElementById("view").value = state.view;
    document.body.setAttribute("data-step", state.step);
    document.body.setAttribute("data-view", state.view);
    document.body.setAttribute("data-rendered", "yes");
    try { history.replaceState(null, "", "#step=" + state.step + "&view=" + state.view); } catch (e) { /* file: */ }
  }
  function go(step) { state.step = Math.max(0, Math.min(last, step)); draw(); }

  var select = document.getElementById("view");
  data.views.forEach(function (key) {
    var option = el("option", "", data.labels[key]);
    option.value = key;
    select.appendChild(option);
  });
  select.addEventListener("change", function () { state.view = select.value; draw(); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(state.step - 1); });
  document.getElementById("next").addEventListener("click", function () { go(state.step + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  document.addEventListener("keydown", function (event) {
    var moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in moves) { go(state.step + moves[event.key]); event.preventDefault(); }
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(last);
  });

  var hash = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
    var kv = pair.split("=");
    if (kv[0]) hash[kv[0]] = decodeURIComponent(kv[1] || "");
  });
  if (hash.view !== undefined && data.views.indexOf(hash.view) >= 0) state.view = hash.view;
  var wanted = parseInt(hash.step, 10);
  if (!isNaN(wanted)) state.step = Math.max(0, Math.min(last, wanted));
  draw();
  (hash.press ? hash.press.split(",") : []).forEach(function (name) {  // scripted input for headless tests
    var button = document.getElementById(name);
    if (button) button.click();
    else document.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true }));
  });
})();
"""
_JS = _JS_BODY.replace("__DRAW__", DRAW_JS)
