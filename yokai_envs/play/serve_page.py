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
from typing import Any

from yokai_envs.play.html import CSS, DRAW_JS, json_for_script

AUTO_DELAY_MS = 700


def home_page(catalog: dict[str, Any], games: list[dict[str, Any]] | None = None) -> str:
    return _page("new game", {"kind": "home", "catalog": catalog, "games": games or []})


def game_page(view: dict[str, Any]) -> str:
    return _page(f"{view['env_id']} · game {view['game_id']}", {"kind": "game", "view": view})


def error_page(status: int, message: str) -> str:
    return _page(f"error {status}", {"kind": "error", "status": status, "message": message})


def _page(title: str, data: dict[str, Any]) -> str:
    return (_TEMPLATE.replace("__TITLE__", html.escape(title)).replace("__CSS__", CSS + _SERVE_CSS)
            .replace("__JS__", _JS.replace("__DRAW__", DRAW_JS).replace("__DELAY__", str(AUTO_DELAY_MS)))
            .replace("__DATA__", json_for_script(data)))


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

_SERVE_CSS = """
header h1 a { color: #fff; }
.refused { background: #fdd; color: #900; border: 1px solid #d99; border-radius: 6px; padding: 8px 12px;
           margin-bottom: 10px; }
.status { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; margin-bottom: 8px; }
#to-act { font-size: 17px; font-weight: bold; }
#result { font-size: 17px; font-weight: bold; color: #1d5e20; }
#actions { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 12px; }
#actions button { font-size: 15px; padding: 5px 12px; cursor: pointer; background: #fff; border: 2px solid #d2691e;
                  border-radius: 6px; }
#actions button:hover { background: #fde9d3; }
.columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(240px, 1fr); gap: 14px; }
.side { background: #fff; border: 1px solid #ccc; border-radius: 8px; padding: 6px 10px; font-size: 13px; }
#log { max-height: 420px; overflow-y: auto; }
form.new label { display: block; margin: 6px 0; }
form.new .field { display: inline-block; min-width: 190px; font-weight: 600; }
form.new input[type=text] { width: 320px; }
form.new button { font-size: 16px; padding: 5px 16px; margin-top: 8px; }
"""

_JS = r"""
(function () {
  "use strict";
  function reportError(message) {
    var line = document.createElement("div");
    line.className = "error";
    line.textContent = "JS-ERROR: " + message;
    document.getElementById("js-errors").appendChild(line);
    document.body.setAttribute("data-errors", "yes");
  }
  window.onerror = function (message, source, line) { reportError(message + " (line " + line + ")"); };
__DRAW__
  var data = JSON.parse(document.getElementById("page-data").textContent);
  var app = document.getElementById("app");
  var controls = document.getElementById("controls");

  function showError(message) {
    var box = document.getElementById("error");
    box.textContent = message || "";
    box.hidden = !message;
    document.body.setAttribute("data-error", message ? "yes" : "no");
  }
  function call(method, url, body) {  // a promise of [ok, json]; a refusal's json is {"error": ...}
    var init = { method: method, headers: { "Content-Type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    return fetch(url, init).then(function (response) {
      return response.json().then(function (json) { return [response.ok, json]; });
    }).catch(function (err) { return [false, { error: "the server did not answer: " + err }]; });
  }
  function labelled(text, field) {
    var label = el("label", "");
    label.appendChild(el("span", "field", text));
    label.appendChild(field);
    return label;
  }

  // ------------------------------------------------------------------ new game
  function home() {
    var games = data.catalog.games;
    var form = el("form", "new");
    form.id = "new-game";
    var pick = el("select", "");
    pick.id = "game";
    games.forEach(function (g) { var o = el("option", "", g.env_id); o.value = g.env_id; pick.appendChild(o); });
    form.appendChild(labelled("game", pick));
    var optionsBox = el("div", "");
    optionsBox.id = "options";
    form.appendChild(optionsBox);
    function input(id, value, placeholder) {
      var box = el("input", "");
      box.type = "text"; box.id = id; box.value = value; box.placeholder = placeholder || "";
      return box;
    }
    var seat = input("seat", "0");
    var opponents = input("opponents", "heuristic", "agent specs, comma-separated, cycled over the other seats");
    opponents.setAttribute("list", "spec-examples");
    var specs = el("datalist", "");
    specs.id = "spec-examples";
    data.catalog.spec_examples.forEach(function (s) { var o = el("option", ""); o.value = s; specs.appendChild(o); });
    var seed = input("seed", "", "blank: a random deal");
    var more = input("more-options", "", 'more options as JSON, e.g. {"max_steps": 400}');
    form.appendChild(labelled("your seat", seat));
    form.appendChild(labelled("opponents", opponents));
    form.appendChild(specs);
    form.appendChild(labelled("seed", seed));
    form.appendChild(labelled("more options", more));
    var start = el("button", "", "Start the game");
    start.id = "start"; start.type = "submit";
    form.appendChild(start);

    function fields() {
      optionsBox.innerHTML = "";
      var game = games.filter(function (g) { return g.env_id === pick.value; })[0];
      Object.keys(game.options).forEach(function (name) {
        var spec = game.options[name];
        var seats = spec.per_seat > 0 ? spec.per_seat : 1;
        for (var s = 0; s < seats; s++) {
          var field;
          if (spec.choices.length > 1 || spec.per_seat > 0) {
            field = el("select", "");
            if (spec.per_seat > 0) {
              var none = el("option", "", "(default)");
              none.value = "";
              field.appendChild(none);
            }
            spec.choices.forEach(function (c) {
              var o = el("option", "", c); o.value = JSON.stringify(c);
              if (spec.per_seat === 0 && c === spec.default) o.selected = true;
              field.appendChild(o);
            });
          } else {
            field = input("", "", "default " + JSON.stringify(spec.default));
          }
          field.setAttribute("data-option", name);
          field.setAttribute("data-seat-index", spec.per_seat > 0 ? s : -1);
          optionsBox.appendChild(labelled(spec.per_seat > 0 ? name + " (seat " + s + ")" : name, field));
        }
      });
    }
    function options() {
      var game = games.filter(function (g) { return g.env_id === pick.value; })[0];
      var out = {};
      Object.keys(game.options).forEach(function (name) {
        var spec = game.options[name];
        var boxes = optionsBox.querySelectorAll('[data-option="' + name + '"]');
        if (spec.per_seat > 0) {
          var values = Array.prototype.map.call(boxes, function (b) { return b.value ? JSON.parse(b.value) : null; });
          if (values.every(function (v) { return v === null; })) return;
          var fill = Array.isArray(spec.default) ? spec.default : [];  // unset seats keep a per-seat default
          values = values.map(function (v, i) { return v !== null ? v : (i < fill.length ? fill[i] : null); });
          while (values.length && values[values.length - 1] === null) values.pop();
          out[name] = values;
        } else if (boxes[0].value !== "") {
          var raw = boxes[0].value;
          try { out[name] = JSON.parse(raw); } catch (e) { out[name] = raw; }
        }
      });
      return out;
    }
    pick.addEventListener("change", fields);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var request = { env_id: pick.value, options: options(), opponents: opponents.value };
      try {
        if (more.value.trim()) Object.assign(request.options, JSON.parse(more.value));
      } catch (e) { showError("more options is not a JSON object: " + e.message); return; }
      request.seat = /^\s*\d+\s*$/.test(seat.value) ? parseInt(seat.value, 10) : seat.value;
      if (seed.value.trim()) request.seed = /^\d+$/.test(seed.value.trim()) ? Number(seed.value.trim()) : seed.value;
      document.body.setAttribute("data-busy", "yes");
      call("POST", "/api/games", request).then(function (answer) {
        document.body.setAttribute("data-busy", "no");
        if (!answer[0]) { showError(answer[1].error); return; }
        location.href = "/games/" + answer[1].game_id;
      });
    });
    fields();
    app.appendChild(form);
    if (data.games.length) {
      app.appendChild(el("h2", "", "Saved games"));
      var list = el("ul", "");
      list.id = "saved";
      data.games.forEach(function (g) {
        var item = el("li", "");
        var link = el("a", "", g.game_id);
        link.href = "/games/" + g.game_id;
        item.appendChild(link);
        item.appendChild(document.createTextNode(" " + g.env_id + ", seat " + g.seat + ", " + g.actions +
                                                 " steps, " + g.agents.join(" / ") + " (" + g.created + ")"));
        list.appendChild(item);
      });
      app.appendChild(list);
    }
    document.body.setAttribute("data-rendered", "yes");
  }

  // ------------------------------------------------------------------ one game
  function play() {
    var view = data.view;
    var busy = false;
    var timer = null;
    var wholeLog = false;
    var LOG_LINES = 80;
    var next = el("button", "", "next bot move \u25B6");
    next.id = "next";
    var auto = el("input", "");
    auto.type = "checkbox"; auto.id = "auto"; auto.checked = !/auto=off/.test(location.hash);
    var autoLabel = el("label", "");
    autoLabel.appendChild(auto);
    autoLabel.appendChild(document.createTextNode(" bots move on their own"));
    var download = el("a", "", "download the replay");
    download.id = "download"; download.hidden = true;
    controls.appendChild(next); controls.appendChild(autoLabel); controls.appendChild(download);

    function seatName(seat) {
      return seat === view.seat ? "you (player " + seat + ")" : "player " + seat + " (" + view.agents[seat] + ")";
    }
    function send(method, url, body) {
      if (busy) return;
      busy = true;
      if (timer) { clearTimeout(timer); timer = null; }
      document.body.setAttribute("data-busy", "yes");
      call(method, url, body).then(function (answer) {
        if (answer[0]) {
          view = answer[1];
          showError("");
          return answer;
        }
        showError(answer[1].error);
        auto.checked = false;  // a refused or failed move stops the bots until you look
        if (answer[1].status !== 409 || !/^stale request/.test(answer[1].error)) return answer;
        return call("GET", "/api/games/" + view.game_id).then(function (fresh) {  // show where the game is now
          if (fresh[0]) view = fresh[1];
          return fresh;
        });
      }).then(function () {
        busy = false;
        draw();
      });
    }
    function schedule() {
      if (timer) { clearTimeout(timer); timer = null; }
      if (auto.checked && !view.over && !view.your_turn) timer = setTimeout(step, __DELAY__);
    }
    function step() { send("POST", "/api/games/" + view.game_id + "/next", { step: view.step }); }
    next.addEventListener("click", step);
    auto.addEventListener("change", schedule);

    function draw() {
      app.innerHTML = "";
      var status = el("div", "status");
      var toAct = el("div", "");
      toAct.id = "to-act";
      toAct.textContent = view.over ? "Game over" : view.your_turn ? "Your turn: " + view.phase
        : seatName(view.to_act) + " to act (" + view.phase + ")";
      status.appendChild(toAct);
      var result = el("div", "");
      result.id = "result";
      if (view.over) {
        var r = view.result;
        result.textContent = (r.terminal ? "Final result: " : "Stopped at the step cap: ") +
          r.returns.map(function (x, s) { return seatName(s) + " " + (x > 0 ? "+" : "") + x; }).join(", ") +
          " (seed " + view.seed + ", " + r.steps + " steps)";
      }
      status.appendChild(result);
      app.appendChild(status);
      var actions = el("div", "");
      actions.id = "actions";
      view.legal.forEach(function (a) {
        var button = el("button", "", a.name);
        button.setAttribute("data-action", a.id);
        button.title = "action " + a.id;
        button.addEventListener("click", function () {
          send("POST", "/api/games/" + view.game_id + "/action", { action: a.id, step: view.step });
        });
        actions.appendChild(button);
      });
      app.appendChild(actions);

      var columns = el("div", "columns");
      var board = el("div", "");
      board.id = "board";
      var t = view.table;
      board.appendChild(el("div", "title", t.title));
      drawTable(board, t, view.to_act, view.seat, function (s) {
        return s.seat === view.seat ? s.label : s.label + " · " + view.agents[s.seat];
      });
      columns.appendChild(board);
      var side = el("div", "side");
      side.appendChild(el("div", "zone-name", "recent moves"));
      var moves = el("ol", "recent");
      moves.id = "moves";
      if (view.moves.length) moves.setAttribute("start", view.moves[0].step);  // numbered by step
      view.moves.forEach(function (m) {
        var seen = m.seen === null ? "(a choice you cannot see)" : m.seen;
        moves.appendChild(el("li", "", seatName(m.seat) + ": " + seen));
      });
      side.appendChild(moves);
      side.appendChild(el("div", "zone-name", "what you saw happen"));
      var log = el("ul", "log");
      log.id = "log";
      var hidden = wholeLog ? 0 : Math.max(0, view.log.length - LOG_LINES);  // a long log redrawn each move is slow
      if (hidden) {
        var more = el("button", "", "show the " + hidden + " earlier lines");
        more.id = "log-all";
        more.addEventListener("click", function () { wholeLog = true; draw(); });
        side.appendChild(more);
      }
      view.log.slice(hidden).forEach(function (line) { log.appendChild(el("li", "", line)); });
      side.appendChild(log);
      columns.appendChild(side);
      app.appendChild(columns);
      log.scrollTop = log.scrollHeight;

      next.disabled = view.over || view.your_turn;
      download.hidden = !view.over;
      if (view.over) {
        download.href = view.replay_url;
        download.setAttribute("download", view.env_id + "-" + view.game_id + ".json");
      }
      document.body.setAttribute("data-step", view.step);
      document.body.setAttribute("data-over", view.over ? "yes" : "no");
      document.body.setAttribute("data-busy", "no");
      document.body.setAttribute("data-rendered", "yes");
      schedule();
      document.dispatchEvent(new CustomEvent("yokai:drawn", { detail: { step: view.step, over: view.over } }));
    }
    draw();
  }

  if (data.kind === "home") home();
  else if (data.kind === "game") play();
  else {
    showError(data.message);
    var back = el("a", "", "start a new game");
    back.href = "/";
    app.appendChild(back);
    document.body.setAttribute("data-rendered", "yes");
  }
})();
"""
