"""``yokai serve``'s page in headless Chromium, one behaviour a test: going Back to the form, a
phone-width screen, a second tab on the same game, the address's ``#auto=off``, the wait while
the AI loads, a Solo game, and where the keyboard focus goes after a move."""

from __future__ import annotations

import time

import pytest

from tests.play.chromium import needs_chromium
from tests.play.page_driver import DriverHandler, run_scenario
from tests.play.serve_client import running_server

pytestmark = needs_chromium


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path / "state", handler=DriverHandler) as running:
        yield running


def test_back_after_start_shows_the_form_as_drawn_and_starts_again(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var catalog = await (await fetch("/api/catalog", { headers: { "X-Yokai-Token": TOKEN } })).json();
      var tab = await open("/");
      await startGame(tab, { env_id: "yyh_tcg_v6", options: { decks: [null, "Toguro Brothers"] }, seat: 1,
                             opponents: "random", seed: 4 });
      tab.frame.contentWindow.history.back();
      await until(function () { return rendered(tab.doc(), "/") && tab.doc().location.pathname === "/"; }, "Back");
      await sleep(300);  // anything the browser restores into the form lands by now
      var d = tab.doc();
      var game = catalog.games.filter(function (g) { return g.env_id === d.getElementById("game").value; })[0];
      var fields = Array.prototype.map.call(d.querySelectorAll("[data-option]"), function (f) {
        var allowed = f.tagName === "SELECT" ? Array.prototype.map.call(f.options, function (o) { return o.value; })
                                            : [f.value];
        return { name: f.getAttribute("data-option"), value: f.value, ok: allowed.indexOf(f.value) >= 0 };
      });
      var shown = game.env_id;
      await startGame(tab, { env_id: shown, seed: 5, opponents: "random" });
      return { shown: shown, options: Object.keys(game.options), fields: fields,
               errors: tab.doc().getElementById("js-errors").textContent, path: tab.doc().location.pathname };
    """)
    assert {f["name"] for f in result["fields"]} == set(result["options"]), result
    assert all(f["ok"] for f in result["fields"]), result["fields"]
    assert result["errors"] == "" and result["path"].startswith("/games/")


def test_a_phone_width_page_has_no_side_scroll_and_the_log_stays_off_the_table(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/", 375, 700);
      var home = overflow(tab.doc());
      var d = await startGame(tab, { env_id: "yokaizo_v4", seat: 0, opponents: "random", seed: 3 });
      var seen = [];
      for (var k = 0; k < 12 && d.body.getAttribute("data-over") !== "yes"; k++) {
        var button = d.querySelector("[data-action]") || d.getElementById("next");
        await click(d, button);
        var board = d.getElementById("board").getBoundingClientRect();
        var side = d.getElementById("log").closest(".side").getBoundingClientRect();
        var overlap = !(side.top >= board.bottom || side.bottom <= board.top || side.left >= board.right ||
                        side.right <= board.left);
        seen.push({ overflow: overflow(d), overlap: overlap, boardWidth: board.width });
      }
      return { home: home, seen: seen };
    """)
    assert result["home"] <= 0, result
    assert result["seen"] and all(s["overflow"] <= 0 and not s["overlap"] for s in result["seen"]), result["seen"]
    assert all(s["boardWidth"] >= 300 for s in result["seen"]), result["seen"]  # the table keeps the width


def test_a_second_tab_follows_the_game_and_can_move_in_it(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var first = await open("/");
      var a = await startGame(first, { env_id: "yonkai_no_yokai_v1", options: { num_players: 3 }, seat: 0,
                                       opponents: "random", seed: 11, more: { rounds_per_game: 1 } });
      var second = await open(a.location.pathname + "#auto=off");
      var b = second.doc();
      var steps = [];
      for (var k = 0; k < 6; k++) {
        var mover = k % 2 ? b : a, watcher = k % 2 ? a : b;
        var button = mover.querySelector("[data-action]") || mover.getElementById("next");
        await click(mover, button);
        if (mover.body.getAttribute("data-error") === "yes") throw new Error(mover.getElementById("error").textContent);
        var want = mover.body.getAttribute("data-step");
        var began = Date.now();
        await until(function () { return watcher.body.getAttribute("data-step") === want; }, "the other tab", 5000);
        steps.push({ step: want, ms: Date.now() - began });
      }
      return { steps: steps };
    """)
    assert len(result["steps"]) == 6 and all(s["ms"] < 5000 for s in result["steps"]), result


def test_auto_off_in_the_address_stops_the_bots_on_an_open_page(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/");
      var d = await startGame(tab, { env_id: "yonkai_no_yokai_v1", options: { num_players: 4 }, seat: 3,
                                     opponents: "random", seed: 2 });
      d.getElementById("auto").click();  // startGame unticked it: tick it again, as on a fresh page
      var ticked = d.getElementById("auto").checked;
      tab.frame.contentWindow.location.hash = "auto=off";
      await sleep(100);
      var after = d.getElementById("auto").checked;
      var step = d.body.getAttribute("data-step");
      await sleep(1600);  // two bot delays: no bot moved
      return { ticked: ticked, after: after, moved: d.body.getAttribute("data-step") !== step };
    """)
    assert result == {"ticked": True, "after": False, "moved": False}


class SlowCreate(DriverHandler):
    """Creating a game takes as long as loading a network does."""

    def do_POST(self) -> None:
        if self.path == "/api/games":
            time.sleep(1.5)
        super().do_POST()


def test_the_form_says_the_ai_is_loading_while_the_game_is_made(tmp_path):
    with running_server(tmp_path / "state", handler=SlowCreate) as slow:
        result = run_scenario(slow, tmp_path, """
          var tab = await open("/");
          var d = tab.doc();
          setField(d.getElementById("game"), "yonkai_no_yokai_v1");
          d.getElementById("start").click();
          await sleep(200);
          var loading = d.getElementById("loading");
          var during = { shown: !!loading && !loading.hidden, text: loading ? loading.textContent : "",
                         disabled: d.getElementById("start").disabled };
          await until(function () { return rendered(tab.doc(), "/games/"); }, "the game page");
          return during;
        """)
    assert result["shown"] and result["disabled"], result
    assert "AI" in result["text"], result


def test_solo_asks_for_no_opponents_and_shows_no_bot_controls(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/");
      var d = tab.doc();
      setField(d.getElementById("game"), "onmyoji_v5");
      function visible(node) { return !!node && !node.closest("[hidden]") && node.offsetParent !== null; }
      var duel = visible(d.getElementById("opponent-choice"));
      setField(d.querySelector('[data-option="mode"]'), JSON.stringify("solo"));
      var solo = visible(d.getElementById("opponent-choice")) || visible(d.getElementById("opponents"));
      var g = await startGame(tab, { env_id: "onmyoji_v5", options: { mode: "solo" }, seed: 1 });
      return { duel: duel, solo: solo, next: visible(g.getElementById("next")),
               auto: visible(g.getElementById("auto")) };
    """)
    assert result == {"duel": True, "solo": False, "next": False, "auto": False}


def test_focus_stays_on_the_action_row_after_each_move(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/");
      var d = await startGame(tab, { env_id: "onmyoji_v5", options: { mode: "solo" }, seed: 6 });
      var seen = [];
      for (var k = 0; k < 8 && d.body.getAttribute("data-over") !== "yes"; k++) {
        var button = d.querySelector("[data-action]");
        button.focus();
        await click(d, button);
        var now = d.activeElement;
        seen.push(now && now.closest("#actions") ? "actions" : (now ? now.tagName + "#" + now.id : "none"));
      }
      return seen;
    """)
    assert result and all(where == "actions" for where in result), result


def test_rematch_starts_the_same_game_with_a_new_deal(server, tmp_path):
    from tests.play.serve_client import call, create, play_until

    request = {"env_id": "yonkai_no_yokai_v1", "options": {"num_players": 3, "rounds_per_game": 1}, "seat": 2,
               "opponents": "heuristic,random", "seed": 9}
    over = play_until(server, create(server, **request))
    result = run_scenario(server, tmp_path, """
      var tab = await open("/games/" + configs.game_id);
      var d = tab.doc();
      var end = { winner: d.getElementById("winner").textContent, reason: d.getElementById("reason").textContent };
      d.getElementById("rematch").click();
      await until(function () {
        return rendered(tab.doc(), "/games/") && tab.doc().location.pathname !== "/games/" + configs.game_id;
      }, "the new game");
      end.path = tab.doc().location.pathname;
      return end;
    """, configs={"game_id": over["game_id"]})
    assert result["reason"].startswith("Why: ") and result["winner"] == over["end"]["winner"]
    again = call(server, "GET", "/api/games/" + result["path"].rsplit("/", 1)[1])[1]
    assert (again["options"], again["seat"], again["agents"]) == (over["options"], 2, over["agents"])
    assert again["step"] < 5 and not again["over"]


def test_the_first_page_teaches_the_game_and_offers_opponents_as_choices(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/");
      var d = tab.doc();
      var games = Array.prototype.map.call(d.getElementById("game").options, function (o) { return o.textContent; });
      var labels = Array.prototype.map.call(d.querySelectorAll("#options > label .field"), function (f) {
        return f.textContent;
      });
      var folded = Array.prototype.map.call(d.querySelectorAll("#advanced-options [data-option]"), function (f) {
        return f.getAttribute("data-option");
      });
      setField(d.getElementById("game"), "yokaizo_v4");
      var about = d.getElementById("about").textContent;
      var how = d.getElementById("how-to-play");
      var choices = Array.prototype.map.call(d.getElementById("opponent-choice").options, function (o) {
        return o.value;
      });
      var specShown = d.getElementById("opponents").offsetParent !== null;
      setField(d.getElementById("opponent-choice"), "");
      var specAsked = d.getElementById("opponents").offsetParent !== null;
      setField(d.getElementById("opponent-choice"), "random");
      var g = await startGame(tab, { env_id: "yokaizo_v4", seed: 8 });
      var terms = Array.prototype.map.call(g.querySelectorAll("#board abbr.term"), function (a) {
        return [a.textContent.toLowerCase(), a.title];
      });
      var gameHow = g.getElementById("how-to-play");
      return { games: games, labels: labels, folded: folded, about: about, how: how.textContent, howOpen: how.open,
               choices: choices,
               specShown: specShown, specAsked: specAsked, terms: terms, gameHow: !!gameHow,
               agents: (await (await fetch("/api/games" + g.location.pathname.slice(6),
                                           { headers: { "X-Yokai-Token": TOKEN } })).json()).agents };
    """)
    assert result["games"] == ["Yonkai no Yokai", "Yu Yu Hakusho TCG", "Onmyoji: three nights", "YOKAIZO"]
    assert result["labels"][0] == "players" and result["labels"][1].startswith("rounds (blank: until")
    assert result["folded"] == ["reward"]  # an option for training, folded under "more options"
    assert result["about"].startswith("YOKAIZO \u2014 A two-player trading card game")
    assert "(2 players)" in result["about"]
    assert "How to play YOKAIZO" in result["how"] and "Grave" in result["how"] and not result["howOpen"]
    assert {"pretrained", "heuristic", "random"} <= set(result["choices"])
    assert [c for c in result["choices"] if c.startswith("ismcts:iterations=")] != []
    assert not result["specShown"] and result["specAsked"]
    assert result["agents"] == ["human", "random"]
    terms = dict(result["terms"])
    assert {"void", "limbo", "grave"} <= set(terms) and terms["limbo"].startswith("Where destroyed cards go")
    assert result["gameHow"]


def test_keys_play_the_numbered_moves_and_the_next_bot_move(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/");
      var d = await startGame(tab, { env_id: "yonkai_no_yokai_v1", options: { num_players: 3 }, seat: 2,
                                     opponents: "random", seed: 5 });
      function press(key) {
        var answered = drawn(d);
        d.dispatchEvent(new KeyboardEvent("keydown", { key: key, bubbles: true }));
        return answered;
      }
      var seen = [];
      for (var k = 0; k < 10; k++) {
        var step = Number(d.body.getAttribute("data-step"));
        var mine = !!d.querySelector("[data-action]");
        var first = mine ? d.querySelector('#actions [data-key="1"]').getAttribute("data-action") : null;
        await press(mine ? "1" : "n");
        var made = (await (await fetch("/api/games" + d.location.pathname.slice(6),
                                       { headers: { "X-Yokai-Token": TOKEN } })).json()).moves.pop();
        var banner = d.getElementById("last-play");
        seen.push({ mine: mine, moved: Number(d.body.getAttribute("data-step")) === step + 1,
                    first: first, seat: made.seat, banner: banner ? banner.textContent : "",
                    bannerSeat: banner ? Number(banner.closest(".seat").getAttribute("data-seat")) : -1 });
      }
      return seen;
    """)
    assert any(s["mine"] for s in result) and any(not s["mine"] for s in result), result
    assert all(s["moved"] for s in result), result
    assert all(s["seat"] == 2 for s in result if s["mine"]) and all(s["seat"] != 2 for s in result if not s["mine"])
    # the last play is on the table, in its player's box, in words ("AI 1 (random) plays 3 (lead), 14 cards left")
    assert all(s["bannerSeat"] == s["seat"] and (" play" in s["banner"] or " pass" in s["banner"]) for s in result)


def test_empty_zones_fold_into_one_line_and_your_hand_is_at_the_bottom(server, tmp_path):
    result = run_scenario(server, tmp_path, """
      var tab = await open("/");
      var d = await startGame(tab, { env_id: "yokaizo_v4", seat: 0, opponents: "random", seed: 3 });
      var seats = Array.prototype.map.call(d.querySelectorAll("#board .seat"), function (box) {
        var empty = box.querySelector(".empty-zones");
        return { zones: box.querySelectorAll(".zone").length, empty: empty ? empty.textContent : "" };
      });
      var dock = d.getElementById("dock");
      return { seats: seats, hand: d.querySelectorAll("#dock #hand .card").length,
               handInBoard: !!d.querySelector('#board .seat[data-seat="0"] .zone-name') &&
                 Array.prototype.some.call(d.querySelectorAll('#board .seat[data-seat="0"] .zone-name'),
                                           function (n) { return /^hand /.test(n.textContent); }),
               sticky: getComputedStyle(dock).position,
               afterBoard: !!(d.getElementById("board").compareDocumentPosition(dock) & 4) };
    """)
    assert all(s["zones"] <= 8 and s["empty"].startswith("empty: ") for s in result["seats"]), result
    assert result["hand"] == 6 and not result["handInBoard"] and result["sticky"] == "sticky" and result["afterBoard"]
