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
    var init = { method: method, headers: { "Content-Type": "application/json", "X-Yokai-Token": data.token } };
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

  function howToPlay(about, open) {  // the rules summary, folded
    var box = el("details", "how-to-play");
    box.id = "how-to-play";
    box.open = !!open;
    box.appendChild(el("summary", "", "How to play " + about.title));
    about.how_to_play.forEach(function (p) { box.appendChild(el("p", "", p)); });
    return box;
  }
  // Each glossary term in the text under `root` gets a one-line tooltip (an <abbr title>).
  function markTerms(root, glossary) {
    var terms = Object.keys(glossary || {}).sort(function (a, b) { return b.length - a.length; });
    if (!terms.length) return;
    var escaped = terms.map(function (t) { return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
    var pattern = new RegExp("\\b(" + escaped.join("|") + ")\\b", "i");
    var lookup = {};
    terms.forEach(function (t) { lookup[t.toLowerCase()] = glossary[t]; });
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, null);
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      if (node.parentNode.closest("abbr, button, summary, pre")) return;
      var text = node.nodeValue, match, parts = document.createDocumentFragment(), marked = false;
      while ((match = pattern.exec(text))) {
        parts.appendChild(document.createTextNode(text.slice(0, match.index)));
        var term = el("abbr", "term", match[0]);
        term.title = lookup[match[0].toLowerCase()];
        parts.appendChild(term);
        text = text.slice(match.index + match[0].length);
        marked = true;
      }
      if (!marked) return;
      parts.appendChild(document.createTextNode(text));
      node.parentNode.replaceChild(parts, node);
    });
  }

  // ------------------------------------------------------------------ new game
  function home() {
    var games = data.catalog.games;
    var form = el("form", "new");
    form.id = "new-game";
    // Back to this page would otherwise have the browser put the last form's values back into
    // fields drawn for another game (shifted by one); every choice starts from its default.
    form.setAttribute("autocomplete", "off");
    var pick = el("select", "");
    pick.id = "game";
    games.forEach(function (g) { var o = el("option", "", g.title || g.env_id); o.value = g.env_id; pick.appendChild(o); });
    form.appendChild(labelled("game", pick));
    var aboutBox = el("div", "about");
    aboutBox.id = "about";
    form.appendChild(aboutBox);
    var optionsBox = el("div", "");
    optionsBox.id = "options";
    form.appendChild(optionsBox);
    function input(id, value, placeholder) {
      var box = el("input", "");
      box.type = "text"; box.id = id; box.value = value; box.placeholder = placeholder || "";
      return box;
    }
    var seat = el("select", "");
    seat.id = "seat";
    var opponents = input("opponents", "heuristic", "agent specs, comma-separated, cycled over the other seats");
    opponents.setAttribute("list", "spec-examples");
    var specs = el("datalist", "");
    specs.id = "spec-examples";
    data.catalog.spec_examples.forEach(function (s) { var o = el("option", ""); o.value = s; specs.appendChild(o); });
    var seed = input("seed", "", "blank: a random deal");
    var more = input("more-options", "", 'more options as JSON, e.g. {"max_steps": 400}');
    // the opponents as choices; "another agent spec" shows the spec itself (#opponents is what is sent)
    var OPPONENTS = [["heuristic", "Heuristic: hand-written rules, answers at once"],
                     ["pretrained", "Pretrained network: the shipped AI for this game (a few seconds to load)"],
                     ["ismcts:iterations=50;rollout=heuristic", "ISMCTS search, easy (50 iterations a move)"],
                     ["ismcts:iterations=200;rollout=heuristic", "ISMCTS search, medium (200 iterations a move)"],
                     ["ismcts:iterations=800;rollout=heuristic", "ISMCTS search, strong (800 iterations, slower)"],
                     ["random", "Random: any legal move"], ["", "another agent spec\u2026"]];
    var choice = el("select", "");
    choice.id = "opponent-choice";
    OPPONENTS.forEach(function (o) { var item = el("option", "", o[1]); item.value = o[0]; choice.appendChild(item); });
    var opponentsRow = labelled("opponents", choice);
    var specRow = labelled("agent spec", opponents);
    function showSpec() { specRow.hidden = opponentsRow.hidden || choice.value !== ""; }
    choice.addEventListener("change", function () { if (choice.value) opponents.value = choice.value; showSpec(); });
    opponents.addEventListener("change", function () {  // a spec typed (or set) that is one of the choices
      choice.value = OPPONENTS.some(function (o) { return o[0] === opponents.value; }) ? opponents.value : "";
      showSpec();
    });
    form.appendChild(labelled("your seat", seat));
    form.appendChild(opponentsRow);
    form.appendChild(specRow);
    form.appendChild(specs);
    form.appendChild(labelled("seed", seed));
    form.appendChild(labelled("more options", more));
    var start = el("button", "", "Start the game");
    start.id = "start"; start.type = "submit";
    form.appendChild(start);
    var loading = el("div", "loading", "Starting the game: dealing the cards and loading the AI players " +
                                       "(a trained network takes a few seconds)\u2026");
    loading.id = "loading"; loading.hidden = true;
    loading.setAttribute("role", "status");
    form.appendChild(loading);

    function chosen() { return games.filter(function (g) { return g.env_id === pick.value; })[0]; }
    function describe() {
      var game = chosen();
      aboutBox.innerHTML = "";
      var line = el("p", "");
      line.appendChild(el("b", "", game.title));
      line.appendChild(document.createTextNode(" \u2014 " + game.blurb + " (" + game.players_text + ")"));
      aboutBox.appendChild(line);
      if (game.how_to_play.length) aboutBox.appendChild(howToPlay(game, false));
    }
    function fields() {
      optionsBox.innerHTML = "";
      var game = chosen();
      describe();
      var words = game.option_words || {};
      var advanced = el("details", "advanced");  // the options a new player need not touch
      advanced.id = "advanced-options";
      advanced.appendChild(el("summary", "", "more options of " + game.title));
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
          var label = words[name] || name;
          (words[name] ? optionsBox : advanced).appendChild(
            labelled(spec.per_seat > 0 ? label + " (seat " + s + ")" : label, field));
        }
      });
      if (advanced.childNodes.length > 1) optionsBox.appendChild(advanced);
      seats();
    }
    function players() {  // how many seats the chosen options give
      var counts = chosen().players;
      var field = counts.option && optionsBox.querySelector('[data-option="' + counts.option + '"]');
      return field && counts.counts[field.value] !== undefined ? counts.counts[field.value] : counts.default;
    }
    function seats() {
      var n = players(), was = seat.value;
      seat.innerHTML = "";
      for (var s = 0; s < n; s++) { var o = el("option", "", "seat " + s); o.value = String(s); seat.appendChild(o); }
      seat.value = was !== "" && Number(was) < n ? was : "0";
      opponentsRow.hidden = n < 2;  // a Solo game has no opponent to choose
      showSpec();
    }
    function options() {  // read from the fields as drawn, so they always belong to the chosen game
      var game = chosen();
      var out = {};
      Object.keys(game.options).forEach(function (name) {
        var spec = game.options[name];
        var boxes = optionsBox.querySelectorAll('[data-option="' + name + '"]');
        if (!boxes.length) return;
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
    function waiting(yes) {
      start.disabled = yes;
      loading.hidden = !yes;
      document.body.setAttribute("data-busy", yes ? "yes" : "no");
    }
    pick.addEventListener("change", fields);
    optionsBox.addEventListener("change", function (event) {
      if (event.target.getAttribute("data-option") === chosen().players.option) seats();
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var request = { env_id: pick.value, options: options(), seat: parseInt(seat.value, 10) };
      if (!opponentsRow.hidden) request.opponents = opponents.value;
      try {
        if (more.value.trim()) Object.assign(request.options, JSON.parse(more.value));
      } catch (e) { showError("more options is not a JSON object: " + e.message); return; }
      if (seed.value.trim()) request.seed = /^\d+$/.test(seed.value.trim()) ? Number(seed.value.trim()) : seed.value;
      showError("");
      waiting(true);
      call("POST", "/api/games", request).then(function (answer) {
        if (!answer[0]) { waiting(false); showError(answer[1].error); return; }
        location.href = "/games/" + answer[1].game_id;
      });
    });
    window.addEventListener("pageshow", function (event) { if (event.persisted) waiting(false); });
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
    var howOpen = false;
    var picked = null;  // {card, step}: the hand card whose moves the action row shows
    var LOG_LINES = 80;
    var FOLLOW_MS = 1000;  // how often a page asks whether another tab moved the game
    var hasBots = view.agents.some(function (a, s) { return s !== view.seat; });
    var next = el("button", "", "next bot move \u25B6");
    next.id = "next";
    var auto = el("input", "");
    auto.type = "checkbox"; auto.id = "auto";
    function autoFromAddress() { auto.checked = !/auto=off/.test(location.hash); }
    autoFromAddress();
    var autoLabel = el("label", "");
    autoLabel.appendChild(auto);
    autoLabel.appendChild(document.createTextNode(" bots move on their own"));
    controls.appendChild(next); controls.appendChild(autoLabel);
    next.hidden = autoLabel.hidden = !hasBots;  // Solo: nobody else moves

    function seatName(seat) { return view.names[seat]; }
    function take(fresh) {  // a newer view than the one drawn (steps only go up)
      if (fresh.step < view.step) return false;
      view = fresh;
      return true;
    }
    // quiet: a timer's bot move that another tab made first is no refusal to show
    function send(method, url, body, quiet) {
      if (busy) return;
      busy = true;
      if (timer) { clearTimeout(timer); timer = null; }
      document.body.setAttribute("data-busy", "yes");
      call(method, url, body).then(function (answer) {
        var stale = !answer[0] && answer[1].status === 409 && /^stale request/.test(answer[1].error);
        if (answer[0]) {
          take(answer[1]);
          showError("");
          return answer;
        }
        if (!(quiet && stale)) {
          showError(answer[1].error);
          auto.checked = false;  // a refused or failed move stops the bots until you look
        }
        if (!stale) return answer;
        return call("GET", "/api/games/" + view.game_id).then(function (fresh) {  // show where the game is now
          if (fresh[0]) take(fresh[1]);
          return fresh;
        });
      }).then(function () {
        busy = false;
        draw();
      });
    }
    function schedule() {
      if (timer) { clearTimeout(timer); timer = null; }
      if (hasBots && auto.checked && !view.over && !view.your_turn) timer = setTimeout(botMove, __DELAY__);
    }
    function step() { send("POST", "/api/games/" + view.game_id + "/next", { step: view.step }); }
    function botMove() { timer = null; send("POST", "/api/games/" + view.game_id + "/next", { step: view.step }, true); }
    function follow() {  // another tab on this game may have moved it: draw what it did
      if (busy || document.hidden || view.over) return;  // a finished game changes no more
      var shown = view.step;
      call("GET", "/api/games/" + view.game_id).then(function (answer) {
        if (!busy && answer[0] && answer[1].step !== shown && view.step === shown && take(answer[1])) draw();
      });
    }
    next.addEventListener("click", step);
    auto.addEventListener("change", schedule);
    window.addEventListener("hashchange", function () { autoFromAddress(); schedule(); });
    setInterval(follow, FOLLOW_MS);

    function rematch(button) {  // the same game, seat and opponents, a new deal
      var others = view.agents.filter(function (a, s) { return s !== view.seat; });
      var request = { env_id: view.env_id, options: view.options, seat: view.seat };
      if (others.length) request.opponents = others;
      button.disabled = true;
      button.textContent = "Dealing and loading the AI players\u2026";
      call("POST", "/api/games", request).then(function (answer) {
        if (!answer[0]) { button.disabled = false; button.textContent = "Play again"; showError(answer[1].error); return; }
        location.href = "/games/" + answer[1].game_id;
      });
    }
    function endPanel() {  // who won, the rule that ended it, the score, the hands now face up
      var end = view.end, box = el("section", "end");
      box.id = "end";
      box.appendChild(el("h2", "", end.winner));
      box.lastChild.id = "winner";
      var reason = el("p", "", "Why: " + end.reason);
      reason.id = "reason";
      box.appendChild(reason);
      var score = el("p", "", end.score);
      score.id = "score";
      box.appendChild(score);
      var revealed = el("div", "revealed");
      revealed.id = "revealed";
      view.revealed.seats.forEach(function (s) {
        if (s.seat === view.seat) return;
        var before = view.table.seats.filter(function (b) { return b.seat === s.seat; })[0];
        s.zones.forEach(function (z) {  // the zones that were face down to you, face up now
          var was = before && before.zones.filter(function (b) { return b.name === z.name; })[0];
          // (a deck's order is no one's hand: the replay has it, the end screen does not)
          if (!was || !was.hidden || !(z.cards || []).length || /deck/i.test(z.name)) return;
          var shown = zone({ name: s.name + ": " + z.name, cards: z.cards, hidden: 0 });
          shown.setAttribute("data-seat", s.seat);
          revealed.appendChild(shown);
        });
      });
      if (revealed.childNodes.length) {
        box.appendChild(el("div", "zone-name", "the cards you could not see, face up now"));
        box.appendChild(revealed);
      }
      var buttons = el("div", "end-buttons");
      var again = el("button", "", "Play again (same settings, a new deal)");
      again.id = "rematch";
      again.addEventListener("click", function () { rematch(again); });
      var download = el("a", "", "Download the replay");
      download.id = "download";
      download.href = view.replay_url + "?token=" + encodeURIComponent(data.token);  // a link sends no header
      download.setAttribute("download", view.env_id + "-" + view.game_id + ".json");
      download.title = "the file `yokai replay FILE` reads (it holds the seed: every card of the deal)";
      buttons.appendChild(again); buttons.appendChild(download);
      box.appendChild(buttons);
      return box;
    }
    function drawLog(side) {
      side.appendChild(el("div", "zone-name", "what happened (newest last)"));
      var log = el("ol", "log");
      log.id = "log";
      var lines = view.story;
      var hidden = wholeLog ? 0 : Math.max(0, lines.length - LOG_LINES);  // a long log redrawn each move is slow
      if (hidden) {
        var more = el("button", "", "show the " + hidden + " earlier lines");
        more.id = "log-all";
        more.addEventListener("click", function () { wholeLog = true; draw(); });
        side.appendChild(more);
      }
      var lastMove = -1;
      lines.forEach(function (line, i) { if (line.move) lastMove = i; });
      lines.slice(hidden).forEach(function (line, k) {
        var i = k + hidden;
        var who = line.by === null ? "Table" : view.names[line.by];
        var item = el("li", (line.move ? "move" : "effect") + (i === lastMove ? " last" : "") +
                            (line.by === view.seat ? " mine" : ""));
        item.setAttribute("data-by", line.by === null ? "" : line.by);
        var text = line.text;
        if (line.move && text.indexOf(who) === 0) {  // "AI 2 (heuristic) plays 33": the name in bold
          item.appendChild(el("b", "who", who));
          text = text.slice(who.length);
        } else if (text.indexOf(who) < 0) item.appendChild(el("b", "who", who));
        item.appendChild(el("span", "", text));
        log.appendChild(item);
      });
      side.appendChild(log);
      return log;
    }

    function play(action) { send("POST", "/api/games/" + view.game_id + "/action", { action: action, step: view.step }); }
    // Your hand as cards: a card one move plays is played by a click; a card several moves use
    // (a set of a size, a slot to attach to) narrows the moves to those.
    function drawHand() {
      var box = el("div", "hand");
      box.id = "hand";
      var mine = view.table.seats.filter(function (s) { return s.seat === view.seat; })[0];
      var hand = mine && mine.zones.filter(function (z) { return z.name === "hand"; })[0];
      if (!hand) return box;
      box.appendChild(el("div", "zone-name", "your hand (" + hand.cards.length + ")"));
      var row = el("div", "cards");
      hand.cards.forEach(function (c) {
        var moves = view.legal.filter(function (a) { return a.cards.indexOf(c.name) >= 0; });
        var card = el(moves.length ? "button" : "div", "card" + (moves.length ? " playable" : "") +
                      (picked && picked.card === c.name ? " picked" : ""));
        card.setAttribute("data-card", c.name);
        card.appendChild(el("div", "name", c.name));
        if (c.info) card.appendChild(el("div", "info", c.info));
        if (moves.length) {
          card.title = moves.length === 1 ? (moves[0].tip || moves[0].name) : moves.length + " moves use " + c.name;
          card.addEventListener("click", function () {
            if (moves.length === 1) { play(moves[0].id); return; }
            picked = { card: c.name, step: view.step };
            draw();
          });
        }
        row.appendChild(card);
      });
      if (!hand.cards.length) row.appendChild(el("span", "empty", "empty"));
      box.appendChild(row);
      return box;
    }
    document.addEventListener("keydown", function (event) {  // 1-9: the moves shown; n: next bot move; Esc
      if (event.ctrlKey || event.metaKey || event.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
      var button = null;
      if (/^[1-9]$/.test(event.key)) button = document.querySelector('#actions [data-key="' + event.key + '"]');
      else if (event.key === "n" && !next.hidden && !next.disabled) button = next;
      else if (event.key === "Escape" && picked) { picked = null; draw(); return; }
      if (button) { event.preventDefault(); button.focus(); button.click(); }
    });

    function draw() {
      // the keyboard stays on the action row: a redraw replaces its buttons, so the focus goes to the new ones
      var focused = document.activeElement;
      var keepFocus = !focused || focused === document.body || focused === next || !!focused.closest("#dock");
      app.innerHTML = "";
      var status = el("div", "status");
      var toAct = el("div", "");
      toAct.id = "to-act";
      toAct.textContent = view.over ? "Game over" : view.your_turn ? "Your turn: " + view.phase
        : seatName(view.to_act) + " to act (" + view.phase + ")";
      status.appendChild(toAct);
      var last = view.story.filter(function (line) { return line.move; }).pop();
      if (last) {
        var lastMove = el("div", "", "Last move: " + last.text);  // a move's line starts with its player
        lastMove.id = "last-move";
        lastMove.setAttribute("aria-live", "polite");
        status.appendChild(lastMove);
      }
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
      if (view.over) app.appendChild(endPanel());
      if (picked && picked.step !== view.step) picked = null;  // a card picked for another position
      var shown = picked ? view.legal.filter(function (a) { return a.cards.indexOf(picked.card) >= 0; }) : view.legal;
      var actions = el("div", "");
      actions.id = "actions";
      if (picked) actions.setAttribute("data-card", picked.card);
      shown.forEach(function (a, k) {
        var button = el("button", "", a.label || a.name);
        button.setAttribute("data-action", a.id);
        if (k < 9) button.setAttribute("data-key", k + 1);
        button.title = (a.tip || a.name) + (k < 9 ? " (key " + (k + 1) + ")" : "");
        button.addEventListener("click", function () { play(a.id); });
        actions.appendChild(button);
      });
      if (picked) {
        var all = el("button", "all-moves", "all moves (Esc)");
        all.id = "all-moves";
        all.addEventListener("click", function () { picked = null; draw(); });
        actions.appendChild(all);
      }

      var columns = el("div", "columns");
      var board = el("div", "");
      board.id = "board";
      var t = view.table;
      board.appendChild(el("div", "title", t.title));
      drawTable(board, t, view.to_act, view.seat, function (s) { return s.label; }, {
        collapseEmpty: true, skip: function (seat, z) { return seat === view.seat && z.name === "hand"; } });
      if (last) {  // the last play, on the table: a banner in its player's box
        var mover = board.querySelector('.seat[data-seat="' + last.by + '"]');
        if (mover) {
          mover.classList.add("moved-last");
          var said = el("div", "last-play", last.text);
          said.id = "last-play";
          mover.insertBefore(said, mover.childNodes[1] || null);
        }
      }
      var yours = board.querySelector('.seat[data-seat="' + view.seat + '"]');
      if (yours) yours.appendChild(el("div", "your-hand-note", "your hand: at the bottom, with your moves"));
      columns.appendChild(board);
      var side = el("div", "side");
      var log = drawLog(side);
      columns.appendChild(side);
      app.appendChild(columns);
      var dock = el("section", "dock");  // your hand and your moves, at the bottom of the screen
      dock.id = "dock";
      dock.appendChild(drawHand());
      dock.appendChild(actions);
      app.insertBefore(dock, columns.nextSibling);
      if (data.about) {
        app.appendChild(howToPlay(data.about, howOpen));
        app.lastChild.addEventListener("toggle", function (e) { howOpen = e.target.open; });
        markTerms(board, data.about.glossary);
        markTerms(toAct, data.about.glossary);
        markTerms(log, data.about.glossary);
      }
      log.scrollTop = log.scrollHeight;

      next.disabled = view.over || view.your_turn;
      if (keepFocus) {
        var target = actions.querySelector("button") || (next.hidden || next.disabled ? null : next);
        if (target) target.focus();
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
