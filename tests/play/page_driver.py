"""Drive ``yokai serve``'s pages in headless Chromium with a scenario written in JavaScript.

One chromium run loads a driver page from the same server as the app; the driver opens the app
in iframes (same origin, so it reaches their DOM and clicks the page's own buttons, whose real
handlers call the real API), runs the scenario and posts what it found back to the server, where
the test reads it. An iframe's width is the app's viewport width, so a 375 px frame is a phone.

A scenario is the body of an ``async function (configs)`` returning a JSON-able report; these
helpers are in scope:

- ``sleep(ms)``; ``until(test, what, ms)`` waits for ``test()`` (throws naming ``what``);
- ``open(path, width, height)`` an iframe on ``path`` once its page has drawn: ``{frame, doc()}``;
- ``drawn(d)`` a promise of the next ``yokai:drawn`` of document ``d``;
- ``startGame(tab, config)`` fills the new-game form of ``tab`` (``env_id``, ``options`` per field,
  ``seat``, ``opponents``, ``seed``, ``more``), presses Start and waits for the game page;
- ``click(d, node)`` clicks and waits for the redraw; ``playToEnd(d, rand, cards)`` clicks the
  page's cards and buttons (``#next`` on a bot's turn) until the game is over, checking each
  click moved the game and that no AI card reaches the page before the end;
- ``overflow(d)`` how many pixels the page is wider than its viewport (0: no horizontal scroll).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.play.chromium import FLAGS, binary
from tests.play.serve_client import url
from yokai_envs.cli.serve import Handler

HELPERS = r"""
function sleep(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
async function until(test, what, ms) {
  var start = Date.now();
  while (!test()) {
    if (Date.now() - start > (ms || 20000)) throw new Error("timed out waiting for " + what);
    await sleep(10);
  }
}
function drawn(d) {
  return new Promise(function (done) { d.addEventListener("yokai:drawn", done, { once: true }); });
}
function rendered(d, path) {
  return d && d.location.pathname.indexOf(path) === 0 && d.body && d.body.getAttribute("data-rendered") === "yes";
}
async function open(path, width, height) {
  var frame = document.createElement("iframe");
  frame.style.width = (width || 1000) + "px"; frame.style.height = (height || 700) + "px";
  document.body.appendChild(frame);
  var tab = { frame: frame, doc: function () { return frame.contentDocument; } };
  frame.src = path;
  await until(function () { return rendered(tab.doc(), path.split("#")[0]); }, "the page " + path);
  return tab;
}
function setField(node, value) {
  node.value = value;
  node.dispatchEvent(new Event("change", { bubbles: true }));
}
async function startGame(tab, config) {
  var d = tab.doc();
  setField(d.getElementById("game"), config.env_id);
  Object.keys(config.options || {}).forEach(function (name) {
    var fields = d.querySelectorAll('[data-option="' + name + '"]');
    var values = Array.isArray(config.options[name]) ? config.options[name] : [config.options[name]];
    values.forEach(function (v, i) { setField(fields[i], v === null ? "" : JSON.stringify(v)); });
  });
  if (config.seat !== undefined) setField(d.getElementById("seat"), String(config.seat));
  if (config.opponents !== undefined) setField(d.getElementById("opponents"), config.opponents);
  if (config.seed !== undefined) d.getElementById("seed").value = String(config.seed);
  if (config.more) d.getElementById("more-options").value = JSON.stringify(config.more);
  d.getElementById("start").click();
  await until(function () {
    var now = tab.doc();
    var refused = now.body && now.body.getAttribute("data-error") === "yes";
    if (refused) throw new Error(now.getElementById("error").textContent);
    return rendered(now, "/games/");
  }, "the game page");
  var game = tab.doc();
  if (game.getElementById("auto") && game.getElementById("auto").checked) game.getElementById("auto").click();
  return game;
}
async function click(d, node) {
  var answered = drawn(d);
  node.click();
  await answered;
}
function overflow(d) {
  return Math.max(d.documentElement.scrollWidth, d.body.scrollWidth) - d.documentElement.clientWidth;
}
"""

_PAGE = """<!DOCTYPE html><html><body>
<script>
__HELPERS__
var CONFIGS = __CONFIGS__;
var TOKEN = __TOKEN__;  // the server's API token, as its pages hold it
var scenario = async function (configs) {
__SCENARIO__
};
(async function () {
  var report = { error: null, result: null };
  try { report.result = await scenario(CONFIGS); } catch (err) { report.error = String(err && err.stack || err); }
  await fetch("/__report", { method: "POST", body: JSON.stringify(report) });
})();
</script></body></html>
"""


class DriverHandler(Handler):
    """The app plus the driver page (``/__driver``) and the route it reports to."""

    def do_GET(self) -> None:
        if self.path != "/__driver":
            return super().do_GET()
        server: Any = self.server
        body = (_PAGE.replace("__HELPERS__", HELPERS).replace("__CONFIGS__", json.dumps(server.configs))
                .replace("__TOKEN__", json.dumps(server.token))
                .replace("__SCENARIO__", server.scenario)).encode()
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


def run_scenario(server: ThreadingHTTPServer, tmp_path: Path, scenario: str, configs: Any = None,
                 timeout: float = 150) -> Any:
    """Run ``scenario`` in chromium against ``server`` (made with :class:`DriverHandler`); its
    result, or AssertionError with the scenario's exception."""
    srv: Any = server
    srv.scenario, srv.configs, srv.reports = scenario, configs, queue.Queue()
    profile = tmp_path / f"profile-{os.getpid()}-{id(scenario)}"
    # a session of its own: the browser and every process it starts end together below
    browser = subprocess.Popen([binary(), *FLAGS, f"--user-data-dir={profile}", url(server, "/__driver")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        report = srv.reports.get(timeout=timeout)
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait(30)
    assert report["error"] is None, report["error"]
    return report["result"]
