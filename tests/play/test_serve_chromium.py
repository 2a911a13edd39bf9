"""``yokai serve`` in real headless Chromium: every game configuration played through the page.

One chromium run loads a driver page from the same server; the driver opens the app in an
iframe (same origin, so it can reach the app's DOM), fills the new-game form, presses Start,
then clicks the page's own buttons (a random ``[data-action]`` on the human's turn, ``#next``
for a bot's) until ``#result`` is filled, fetches the ``#download`` link and reports back to
the server. The clicks go through the app's real handlers and API; one page-side loop keeps a
few hundred clicks per game cheap.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.play.chromium import FLAGS, binary, needs_chromium, run_chromium
from tests.play.serve_client import call, create, play_until, running_server, url
from yokai_envs.cli.serve import Handler
from yokai_envs.play.replay import Replay, game_result
from yokai_envs.play.words import seat_names

pytestmark = needs_chromium

# (env id, form options, your seat, more options as JSON): every game configuration.
CONFIGS: list[tuple[str, dict[str, Any], int, dict[str, Any]]] = [
    ("yonkai_no_yokai_v1", {"num_players": 3}, 1, {"rounds_per_game": 1}),
    ("yonkai_no_yokai_v1", {"num_players": 4}, 3, {"rounds_per_game": 1}),
    ("yokaizo_v4", {"decks": ["Kitsune Blaze", "Kappa Tide"]}, 0, {}),
    ("yyh_tcg_v6", {"decks": [None, "Toguro Brothers"]}, 1, {}),
    ("onmyoji_v5", {"mode": "solo", "difficulty": 2}, 0, {}),
    ("onmyoji_v5", {"mode": "duel"}, 1, {}),
    ("onmyoji_v5", {"mode": "coop"}, 0, {}),
]

_DRIVER = """<!DOCTYPE html><html><body>
<script>
var CONFIGS = __CONFIGS__;
function sleep(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
function drawn(d) {  // the next time the page draws the game (it draws after every answer)
  return new Promise(function (done) { d.addEventListener("yokai:drawn", done, { once: true }); });
}
async function until(doc, test, what) {
  var start = Date.now();
  while (!test()) {
    if (Date.now() - start > 20000) {
      var shown = doc() && doc().getElementById("error");
      throw new Error("timed out waiting for " + what + (shown ? "; the page shows: " + shown.textContent : ""));
    }
    await sleep(10);
  }
}
function ready(d, path) {
  return d && d.location.pathname.indexOf(path) === 0 && d.body && d.body.getAttribute("data-rendered") === "yes";
}
async function playOne(config, index) {  // in an iframe of its own: the games run side by side
  var began = Date.now();
  var seed = 12345 + index;
  function rand(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }
  var frame = document.createElement("iframe");
  frame.style.width = "375px"; frame.style.height = "700px";  // a phone: nothing may scroll sideways
  document.body.appendChild(frame);
  function doc() { return frame.contentDocument; }
  frame.src = "/";
  await until(doc, function () { return ready(doc(), "/") && doc().getElementById("start"); }, "the new-game page");
  var d = doc();
  var game = d.getElementById("game");
  game.value = config.env_id;
  game.dispatchEvent(new Event("change"));
  Object.keys(config.options).forEach(function (name) {
    var fields = d.querySelectorAll('[data-option="' + name + '"]');
    var values = Array.isArray(config.options[name]) ? config.options[name] : [config.options[name]];
    values.forEach(function (v, i) { fields[i].value = v === null ? "" : JSON.stringify(v); });
  });
  d.getElementById("seat").value = String(config.seat);
  if (d.getElementById("seat").value !== String(config.seat)) throw new Error("no seat " + config.seat + " offered");
  d.getElementById("opponents").value = "random";
  d.getElementById("seed").value = String(config.seed);
  d.getElementById("more-options").value = JSON.stringify(config.more);
  var refusals = [];
  if (index === 0) {  // a bad spec first: the form shows the server's refusal
    d.getElementById("opponents").value = "heuristik";
    d.getElementById("start").click();
    await until(doc, function () { return d.body.getAttribute("data-error") === "yes"; }, "the refusal");
    refusals.push(d.getElementById("error").textContent);
    d.getElementById("opponents").value = "random";
  }
  d.getElementById("start").click();
  await until(doc, function () { return ready(doc(), "/games/"); }, "the game page");
  d = doc();
  if (d.getElementById("auto").checked) d.getElementById("auto").click();  // the driver presses next itself
  if (index === 0) {  // another tab moves the bot: this page's next is stale and refused
    var path = "/api/games" + d.location.pathname.slice("/games".length);
    var token = JSON.parse(d.getElementById("page-data").textContent).token;  // as the other tab's page has it
    // the page follows the other tab once a second: retry in the rare case it did so before the click
    for (var tries = 0; tries < 5 && d.body.getAttribute("data-error") !== "yes"; tries++) {
      var at = Number(d.body.getAttribute("data-step"));
      await fetch(path + "/next", { method: "POST", body: JSON.stringify({ step: at }),
                                    headers: { "Content-Type": "application/json", "X-Yokai-Token": token } });
      var refused = drawn(d);
      d.getElementById("next").click();
      await refused;
    }
    refusals.push(d.getElementById("error").textContent + " | page step " + d.body.getAttribute("data-step"));
    var again = d.location.href;
    frame.src = "/";
    await until(doc, function () { return ready(doc(), "/") && doc().getElementById("start"); }, "leaving");
    frame.src = again;
    await until(doc, function () { return ready(doc(), "/games/"); }, "the game page again");
    d = doc();
    if (d.getElementById("auto").checked) d.getElementById("auto").click();
  }
  var pageToken = JSON.parse(d.getElementById("page-data").textContent).token;
  var names = (await (await fetch("/api/games" + d.location.pathname.slice("/games".length),
                                  { headers: { "X-Yokai-Token": pageToken } })).json()).names;
  var problems = [];
  function check(over) {  // what a new player must be able to rely on, after every click
    var moved = false;
    Array.prototype.forEach.call(d.querySelectorAll("#log li"), function (li) {
      var text = li.textContent, who = li.querySelector("b.who");
      moved = moved || li.classList.contains("move");
      var named = names.some(function (n) { return text.indexOf(n) >= 0; });
      var table = who && who.textContent === "Table" && !moved;  // the deal, before anyone moved
      if (!named && !table) problems.push("a log line names no player: " + text);
      if (li.classList.contains("move") && !(who && names.indexOf(who.textContent) >= 0))
        problems.push("a move does not start with its player: " + text);
    });
    if (!over && d.getElementById("revealed")) problems.push("cards revealed before the end");
    if (overflow() > 0) problems.push("the page scrolls sideways by " + overflow() + " px at step " +
                                      d.body.getAttribute("data-step"));
  }
  function overflow() { return d.documentElement.scrollWidth - d.documentElement.clientWidth; }
  var clicks = 0, cardClicks = 0;
  check(false);
  while (d.body.getAttribute("data-over") !== "yes") {
    var step = d.body.getAttribute("data-step");
    // your hand's playable cards and the move buttons, one of them at random; "next" on a bot's turn
    var buttons = Array.prototype.slice.call(d.querySelectorAll("[data-action], #hand button.card"));
    var target = buttons.length ? buttons[rand(buttons.length)] : d.getElementById("next");
    var answered = drawn(d);
    target.click();
    clicks++;
    await answered;
    if (target.classList.contains("card")) {
      cardClicks++;
      if (d.body.getAttribute("data-step") === step) {  // a card several moves use: pick one of those
        var uses = d.querySelectorAll("#actions [data-action]");
        if (!uses.length || d.getElementById("actions").getAttribute("data-card") !== target.getAttribute("data-card"))
          throw new Error("a card click showed no moves for " + target.getAttribute("data-card"));
        answered = drawn(d);
        uses[rand(uses.length)].click();
        await answered;
      }
    }
    if (d.body.getAttribute("data-error") === "yes") throw new Error(d.getElementById("error").textContent);
    if (d.body.getAttribute("data-step") === step) throw new Error("a click changed nothing at step " + step);
    check(d.body.getAttribute("data-over") === "yes");
  }
  var revealed = Array.prototype.map.call(d.querySelectorAll("#revealed .zone"), function (z) {
    return { seat: Number(z.getAttribute("data-seat")), cards: z.querySelectorAll(".card").length,
             name: z.querySelector(".zone-name").textContent };
  });
  var replay = await (await fetch(d.getElementById("download").href)).text();
  return { ms: Date.now() - began, refusals: refusals, path: d.location.pathname, clicks: clicks,
           result: d.getElementById("result").textContent, to_act: d.getElementById("to-act").textContent,
           download_name: d.getElementById("download").getAttribute("download"), replay: replay,
           js_errors: d.getElementById("js-errors").textContent, names: names, card_clicks: cardClicks,
           problems: problems.slice(0, 5),
           winner: d.getElementById("winner").textContent, reason: d.getElementById("reason").textContent,
           score: d.getElementById("score").textContent, revealed: revealed, rematch: !!d.getElementById("rematch") };
}
(async function () {
  var report = { games: [], error: null };
  try {
    report.games = await Promise.all(CONFIGS.map(playOne));
  } catch (err) { report.error = String(err && err.stack || err); }
  await fetch("/__report", { method: "POST", body: JSON.stringify(report) });
})();
</script></body></html>
"""


class DriverHandler(Handler):
    """The app plus the test's driver page and the route it reports to."""

    def do_GET(self) -> None:
        if self.path != "/__driver":
            return super().do_GET()
        body = _DRIVER.replace("__CONFIGS__", json.dumps(self.server.configs)).encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        if self.path != "/__report":
            return super().do_POST()
        self.server.reports.put(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))  # type: ignore[attr-defined]
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.mark.slow  # seven games to their end, a few hundred clicks each: 40-50 s
def test_every_game_configuration_plays_to_the_end_in_the_page_and_its_replay_rebuilds(tmp_path):
    configs: list[dict[str, Any]] = [{"env_id": env_id, "options": options, "seat": seat, "more": more, "seed": 20 + i}
               for i, (env_id, options, seat, more) in enumerate(CONFIGS)]
    with running_server(tmp_path / "state", handler=DriverHandler) as server:
        server.configs = configs  # type: ignore[attr-defined]
        server.reports = queue.Queue()  # type: ignore[attr-defined]
        profile = tmp_path / "profile"
        # a session of its own: the browser and every process it starts end together below
        browser = subprocess.Popen([binary(), *FLAGS, f"--user-data-dir={profile}", url(server, "/__driver")],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            report = server.reports.get(timeout=150)  # type: ignore[attr-defined]
        finally:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.wait(30)
        assert report["error"] is None, report["error"]
        assert len(report["games"]) == len(CONFIGS)
        revealed_any = False
        for config, played in zip(configs, report["games"], strict=True):
            assert played["js_errors"] == "" and played["to_act"] == "Game over"
            assert played["problems"] == [], (config, played["problems"])
            assert played["card_clicks"] > 0, config  # moves made by clicking a card of the hand
            assert played["winner"].endswith(("win", "wins", "Nobody wins", "A draw")), played["winner"]
            assert played["reason"].startswith("Why: ") and len(played["reason"]) > 20, played["reason"]
            assert any(name in played["score"] for name in played["names"]), played["score"]
            assert played["rematch"]
            game_id = played["path"].rsplit("/", 1)[1]
            view = call(server, "GET", f"/api/games/{game_id}")[1]
            assert view["env_id"] == config["env_id"] and view["seat"] == config["seat"] and view["over"]
            assert played["names"] == seat_names(view["agents"], config["seat"]) == view["names"]
            # the AIs' hidden cards, face up once the game is over (a bot may have emptied its hand)
            hidden = {(s["seat"], z["name"]) for s in view["table"]["seats"] for z in s["zones"]
                      if z["hidden"] and s["seat"] != config["seat"] and "deck" not in z["name"]}
            face_up = [(s["seat"], f"{s['name']}: {z['name']}", len(z["cards"])) for s in view["revealed"]["seats"]
                       for z in s["zones"] if (s["seat"], z["name"]) in hidden and z["cards"]]
            assert [(z["seat"], z["name"].rsplit(" (", 1)[0], z["cards"]) for z in played["revealed"]] == face_up
            revealed_any = revealed_any or bool(face_up)
            assert played["result"].startswith("Final result: ") and f"seed {config['seed']}" in played["result"]
            assert played["download_name"] == f"{config['env_id']}-{game_id}.json"
            replay = Replay.from_json(json.loads(played["replay"]))
            assert replay.seed == config["seed"] and replay.agents[config["seat"]] == "human"
            rebuilt = game_result(replay.build_game())
            assert rebuilt == view["result"]
            shown = ", ".join(f"{name} {'+' if r > 0 else ''}{r:g}"
                              for name, r in zip(played["names"], rebuilt["returns"], strict=True))
            assert shown in played["result"], (shown, played["result"])
    assert revealed_any  # some game ended with an AI holding cards, and the end screen showed them
    first = report["games"][0]
    assert "unknown agent kind 'heuristik'" in first["refusals"][0]
    stale = re.search(r"stale request: it was sent for step (\d+), but the game is at step (\d+)", first["refusals"][1])
    assert stale and int(stale[2]) == int(stale[1]) + 1, first["refusals"][1]
    assert first["refusals"][1].endswith(f"| page step {stale[2]}")  # refused, then the page shows the game as it is
    chosen = [json.loads(report["games"][i]["replay"])["options"]["decks"] for i in (2, 3)]
    assert chosen == [["Kitsune Blaze", "Kappa Tide"], ["random", "Toguro Brothers"]]  # per-seat choices


def _dom(tmp_path: Path, address: str) -> str:
    dom, log = run_chromium(tmp_path, address, "--dump-dom")
    assert "Uncaught" not in log, log[-2000:]
    assert 'data-rendered="yes"' in dom and 'data-errors="yes"' not in dom and 'class="error">JS-ERROR' not in dom
    return dom


def test_twin_games_differing_in_hidden_cards_give_the_seat_the_same_page_in_the_browser(tmp_path):
    """The twin-history check on the drawn page: the real game and a world ``determinize``
    sampled for the human's seat (other hidden cards) serve the same DOM to that seat."""
    import copy

    import numpy as np

    from yokai_envs.play.replay import state_digest

    with running_server(tmp_path / "real") as real, running_server(tmp_path / "twin") as twin:
        view = play_until(real, create(real, env_id="yokaizo_v4", seat=1, opponents="random", seed=3), stop_at=9)
        session = real.store.get(view["game_id"])  # type: ignore[attr-defined]
        other = copy.copy(session)
        worlds = (session.game.determinize(1, np.random.default_rng(k)) for k in range(20))
        other.game = next(w for w in worlds if state_digest(w) != state_digest(session.game))
        twin.store.sessions[session.game_id] = other  # type: ignore[attr-defined]
        twin.token = real.token  # the page holds its server's token: the same one, for the same page
        pages = [_dom(tmp_path, url(server, f"/games/{session.game_id}#auto=off")) for server in (real, twin)]
    assert pages[0] == pages[1]
    assert re.search(r'data-action="\d+"', pages[0]) and 'id="to-act"' in pages[0]
