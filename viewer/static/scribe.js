/* paifu scribe: write a record live. The server replays the file through the game's engine
 * and sends the table, the seat to act and the engine's legal actions; this file draws them
 * (cards through PaifuCards) and posts the one the scribe clicks. Text is always set as text.
 * Keys: 1-9 the n-th action shown, Enter the only one, P pass, D draw, Backspace undo, Esc clear. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };

  function h(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined && txt !== null) e.textContent = txt;
    return e;
  }

  /* -- the new-record form: show the chosen game's options only ----------------------- */
  var form = $("new-record");
  if (form) {
    var pick = function () {
      var g = $("rec-game").value;
      document.querySelectorAll("fieldset.options").forEach(function (f) { f.hidden = f.dataset.game !== g; });
    };
    $("rec-game").addEventListener("change", pick);
    pick();
    return;
  }

  var root = $("scribe");
  if (!root) return;
  var NAME = root.dataset.name, CSRF = root.dataset.csrf, API = root.dataset.api;
  var key = "paifu-scribe:" + NAME;
  var token = sessionStorage.getItem(key + ":token");
  if (!token) {
    token = (window.crypto && crypto.randomUUID) ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now();
    sessionStorage.setItem(key + ":token", token);
  }
  var st = { snap: null, path: JSON.parse(sessionStorage.getItem(key + ":path") || "[]"), selected: [], busy: false, locked: false };

  function signed(n) { return (n > 0 ? "+" : "") + n; }

  function say(text) { var m = $("message"); m.hidden = !text; m.textContent = text || ""; }

  function setPath(p) { st.path = p || []; sessionStorage.setItem(key + ":path", JSON.stringify(st.path)); }

  /* -- talking to the server --------------------------------------------------------- */
  function post(body) {
    body.token = token;
    return fetch(API, { method: "POST", headers: { "Content-Type": "application/json", "X-Scribe-CSRF": CSRF },
      body: JSON.stringify(body), credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); });
  }

  function load() {
    return fetch(API + "?path=" + encodeURIComponent(JSON.stringify(st.path)), { credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); })
      .then(function (res) {
        if (res.status !== 200) {
          if (st.path.length) { setPath([]); return load(); } // the variation is gone: the main line
          say(res.body.error || "cannot read the record");
          return;
        }
        show(res.body);
      })
      .catch(function () { say("The server does not answer: is 'paifu view --scribe' still running? Reload when it is."); });
  }

  function send(body) {
    if (st.busy || st.locked) return Promise.resolve();
    st.busy = true;
    if (st.snap && body.version === undefined) body.version = st.snap.version;
    if (body.path === undefined) body.path = st.path;
    return post(body).then(function (res) {
      st.busy = false;
      if (res.status === 403 && res.body.code === "csrf") { location.reload(); return; }
      if (res.status === 423) { locked(res.body.error); return; }
      if (res.status !== 200) { say(res.body.error || "refused"); if (res.status === 409) load(); return; }
      say("");
      if (res.body.path) setPath(res.body.path);
      show(res.body);
    }).catch(function () {
      st.busy = false;
      say("The server does not answer: nothing was written. Reload when 'paifu view --scribe' runs again.");
    });
  }

  function locked(text) {
    st.locked = true;
    $("lock").hidden = false;
    $("lock-text").textContent = text;
  }

  $("take-over").addEventListener("click", function () {
    post({ op: "open", force: true }).then(function (res) {
      if (res.status === 200) { st.locked = false; $("lock").hidden = true; load(); }
    });
  });

  /* -- the table (the engine's TableView) --------------------------------------------- */
  function drawZone(zone, family, pickable) {
    var wrap = h("div", "zone layout-" + (zone.layout || "row"));
    var cap = h("div", "zone-name", zone.name);
    wrap.appendChild(cap);
    var box = h("div", "cards");
    var total = (zone.groups && zone.groups.length ? zone.groups.reduce(function (n, g) { return n + g.length; }, 0) : (zone.cards || []).length) + (zone.hidden || 0);
    var add = function (into, c) {
      var svg = PaifuCards.draw(c, family);
      if (pickable && c !== "*") {
        svg.classList.add("pick");
        if (st.selected.indexOf(c) >= 0) svg.classList.add("picked");
        svg.addEventListener("click", function () { toggle(c); });
      }
      into.appendChild(svg);
    };
    if (zone.layout === "count") {
      if (total) box.appendChild(PaifuCards.back(family));
      box.appendChild(h("span", "count", total ? "× " + total : "0"));
    } else if (zone.groups && zone.groups.length) {
      zone.groups.forEach(function (g) { var grp = h("span", "group"); g.forEach(function (c) { add(grp, c); }); box.appendChild(grp); });
      var flat = [].concat.apply([], zone.groups).slice().sort().join(" ");
      var loose = (zone.cards || []).slice().sort().join(" ");
      if (loose && loose !== flat) { var rest = h("span", "group"); zone.cards.forEach(function (c) { add(rest, c); }); box.appendChild(rest); }
    } else if (zone.layout === "stack" && zone.cards.length > 8) {
      box.appendChild(h("span", "more", (zone.cards.length - 8) + " more ·"));
      zone.cards.slice(-8).forEach(function (c) { add(box, c); });
    } else {
      (zone.cards || []).forEach(function (c) { add(box, c); });
    }
    if (zone.hidden && zone.layout !== "count") box.appendChild(h("span", "more", "+" + zone.hidden + " hidden"));
    if (!total && zone.layout !== "count") box.appendChild(h("span", "empty", "—"));
    wrap.appendChild(box);
    return wrap;
  }

  var PLACES = { 1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

  function drawTable(snap) {
    var table = $("table");
    table.textContent = "";
    var v = snap.view;
    if (!v) { table.className = "table"; table.appendChild(h("p", "no-table", "No hand yet: deal one below.")); return; }
    var places = PLACES[v.seats.length] || [];
    table.className = "table seats-" + v.seats.length + " fam-" + v.family;
    v.seats.forEach(function (sv, k) {
      var act = sv.seat === snap.to_act;
      var box = h("section", "seat place-" + (places[k] || "ring") + (act ? " to-act" : ""));
      box.dataset.seat = sv.seat;
      var head = h("header", "seat-head");
      head.appendChild(h("span", "seat-letter", sv.seat));
      if (snap.players[sv.seat]) head.appendChild(h("span", "seat-name", snap.players[sv.seat]));
      (sv.labels || []).forEach(function (l) { head.appendChild(h("span", "label", l)); });
      if (act) head.appendChild(h("span", "label act", "to act"));
      head.appendChild(h("span", "score", signed(snap.totals[sv.seat] || 0)));
      box.appendChild(head);
      (sv.zones || []).forEach(function (z, i) { box.appendChild(drawZone(z, v.family, act && i === 0)); });
      table.appendChild(box);
    });
    var center = h("section", "center");
    (v.center || []).forEach(function (z) { center.appendChild(drawZone(z, v.family, false)); });
    var info = h("dl", "info");
    Object.keys(v.info || {}).forEach(function (k) { info.appendChild(h("dt", null, k)); info.appendChild(h("dd", null, v.info[k])); });
    if (info.childNodes.length) center.appendChild(info);
    table.appendChild(center);
  }

  /* -- the legal actions ----------------------------------------------------------------- */
  var MAX_SHOWN = 60;

  function toggle(card) {
    var k = st.selected.indexOf(card);
    if (k >= 0) st.selected.splice(k, 1); else st.selected.push(card);
    show(st.snap);
  }

  function matching(actions) {
    if (!st.selected.length) return actions;
    return actions.filter(function (a) {
      var left = a.cards.slice();
      return st.selected.every(function (c) { var k = left.indexOf(c); if (k < 0) return false; left.splice(k, 1); return true; });
    });
  }

  function visible() {
    return st.snap && st.snap.phase === "play" ? matching(st.snap.actions).slice(0, MAX_SHOWN) : [];
  }

  function actionButton(a, n) {
    var b = h("button", "act verb-" + (a.verb || "play") + (a.unseen ? " unseen" : ""));
    b.type = "button";
    b.dataset.i = a.i;
    b.dataset.text = a.text;
    b.title = a.text + (n < 9 ? " (key " + (n + 1) + ")" : "") +
      (a.unseen ? " (its cards could be among the unseen ones: not checked against the deal)" : "");
    if (n < 9) b.appendChild(h("kbd", null, String(n + 1)));
    b.appendChild(h("span", "verb", a.verb || (a.cards.length ? "play" : a.args)));
    if (a.cards.length) {
      var cards = h("span", "cards");
      a.cards.forEach(function (c) { cards.appendChild(PaifuCards.draw(c, st.snap.family)); });
      b.appendChild(cards);
      var rest = a.args.split(" ").filter(function (w) { return !/^[0-9A-Za-z*]{2,}$/.test(w) || /^[a-z]{3,}$/.test(w); });
      if (rest.length && a.verb) b.appendChild(h("span", "args", rest.join(" ")));
    } else if (a.args) b.appendChild(h("span", "args", a.args));
    b.addEventListener("click", function () { choose(a); });
    return b;
  }

  function choose(a) {
    st.selected = [];
    send({ op: "act", index: a.i, text: a.text });
  }

  function drawActions(snap) {
    var box = $("actions"), note = $("actions-note");
    box.textContent = "";
    note.textContent = "";
    $("actions-box").hidden = snap.phase !== "play";
    $("could").hidden = true;
    if (snap.phase !== "play") return;
    if (!snap.actions.length) {
      note.textContent = "The engine lists no legal action for seat " + (snap.to_act || "?") +
        " here (its hand is unseen, or this game does not list actions for unseen cards): write the event by hand below; the engine checks it.";
      $("write-box").open = true;
      return;
    }
    var all = matching(snap.actions), shown = all.slice(0, MAX_SHOWN);
    var unseen = snap.actions.filter(function (a) { return a.unseen; }).length;
    note.textContent = "Seat " + actor(snap) + " to act: " + snap.actions.length +
      (unseen ? " possible action(s) (" + unseen + " resting on cards that could be unseen, dashed)" : " legal action(s)") +
      (st.selected.length ? "; " + all.length + " with the selected cards" : "") +
      (all.length > shown.length ? "; " + shown.length + " shown: click cards in the hand" + (unseen ? " or below" : "") + " to narrow" : "") + ".";
    var could = $("could");
    could.textContent = "";
    could.hidden = !(snap.could || []).length;
    if (!could.hidden) {
      could.appendChild(h("span", "zone-name", "could be unseen:"));
      snap.could.forEach(function (c) {
        var svg = PaifuCards.draw(c, snap.family);
        svg.classList.add("pick");
        if (st.selected.indexOf(c) >= 0) svg.classList.add("picked");
        svg.addEventListener("click", function () { toggle(c); });
        could.appendChild(svg);
      });
    }
    if (st.selected.length) {
      var clear = h("button", "clear", "clear selection (Esc)");
      clear.type = "button";
      clear.addEventListener("click", function () { st.selected = []; show(st.snap); });
      note.appendChild(clear);
    }
    shown.forEach(function (a, n) { box.appendChild(actionButton(a, n)); });
  }

  /* -- score, deal, finish ------------------------------------------------------------- */
  function drawScore(snap) {
    var box = $("score-box");
    box.textContent = "";
    box.hidden = !snap.score;
    if (!snap.score) return;
    var s = snap.settlement;
    box.appendChild(h("h3", null, snap.phase === "score" ? "The hand is over: confirm the score" : "Score"));
    var items = h("table", "items");
    (s.items || []).forEach(function (it) {
      var tr = h("tr");
      [it.seat, it.name, it.term, it.detail, String(it.value)].forEach(function (c) { tr.appendChild(h("td", null, c)); });
      items.appendChild(tr);
    });
    if (items.childNodes.length) box.appendChild(items);
    var t = h("table", "compare"), head = h("tr"), rowC = h("tr"), rowW = h("tr"), rowT = h("tr");
    head.appendChild(h("th")); rowC.appendChild(h("th", null, "computed")); rowW.appendChild(h("th", null, "written")); rowT.appendChild(h("th", null, "totals after"));
    snap.seats.forEach(function (x) {
      head.appendChild(h("th", null, x));
      rowC.appendChild(h("td", "num", signed(snap.score.computed[x])));
      var cell = h("td", "num");
      if (snap.phase === "score") {
        var inp = h("input");
        inp.type = "number"; inp.value = snap.score.computed[x]; inp.dataset.seat = x; inp.className = "score-in"; inp.size = 5;
        cell.appendChild(inp);
      } else if (snap.score.written) {
        cell.textContent = signed(snap.score.written[x]);
        if (snap.score.disagree.indexOf(x) >= 0) { cell.classList.add("mismatch"); cell.title = "written differs from the computed score"; }
      }
      rowW.appendChild(cell);
      rowT.appendChild(h("td", "num", snap.score.totals ? signed(snap.score.totals[x]) : ""));
    });
    [head, rowC, rowW].forEach(function (r) { t.appendChild(r); });
    if (snap.score.totals) t.appendChild(rowT);
    box.appendChild(t);
    if (snap.score.disagree && snap.score.disagree.length) {
      box.appendChild(h("p", "diag error", "Disagreement: the written score of " + snap.score.disagree.join(" ") + " differs from the engine's (kept as written)."));
    }
    if (snap.phase === "score" && snap.late && snap.late.length) {
      // a hand the scribe did not see may still win on the tile the hand ended on
      var late = h("div", "late-wins");
      late.id = "late-wins";
      late.appendChild(h("p", null, "An unseen hand may still win here (taken on trust, as the validator takes it):"));
      snap.late.forEach(function (a) {
        var lb = h("button", "action late", a.text);
        lb.type = "button";
        lb.addEventListener("click", function () { send({ op: "act", index: a.i, text: a.text }); });
        late.appendChild(lb);
      });
      box.appendChild(late);
    }
    if (snap.phase === "score") {
      var b = h("button", "confirm", "Confirm score (Enter)");
      b.type = "button"; b.id = "btn-score";
      b.addEventListener("click", confirmScore);
      box.appendChild(b);
    }
  }

  function confirmScore() {
    var written = {};
    document.querySelectorAll("input.score-in").forEach(function (inp) {
      var v = parseInt(inp.value, 10);
      if (!isNaN(v) && v !== st.snap.score.computed[inp.dataset.seat]) written[inp.dataset.seat] = v;
    });
    send({ op: "score", written: written });
  }

  $("btn-practice").addEventListener("click", function () {
    var seed = parseInt($("seed").value, 10);
    send(isNaN(seed) ? { op: "deal" } : { op: "deal", seed: seed });
  });
  $("btn-deal").addEventListener("click", function () { send({ op: "deal", setup: $("setup").value }); });
  $("btn-finish").addEventListener("click", function () { send({ op: "finish", result: $("result").value }); });
  $("btn-write").addEventListener("click", function () { send({ op: "write", text: $("event-text").value }); });
  $("btn-undo").addEventListener("click", function () { undo(); });
  $("btn-main").addEventListener("click", function () { setPath([]); load(); });
  $("btn-annotate").addEventListener("click", function () {
    var line = st.snap.line, last = line[line.length - 1];
    if (!last) return;
    send({ op: "annotate", index: last.i, comment: $("comment").value, glyphs: $("glyph").value ? [$("glyph").value] : [] });
  });

  function undo() { send({ op: "undo", steps: Math.max(parseInt($("undo-steps").value, 10) || 1, 1) }); }

  /* -- the line being written ---------------------------------------------------------- */
  function drawLine(snap) {
    var ol = $("line");
    ol.textContent = "";
    $("line-where").textContent = snap.path.length ? "(a variation, depth " + snap.path.length + ")" : "(main line, hand " + snap.hands + ")";
    $("btn-main").hidden = !snap.path.length;
    snap.line.forEach(function (e) {
      var li = h("li", "move" + (e.score ? " kind-score" : ""));
      li.appendChild(h("span", "event-text", e.text));
      e.glyphs.forEach(function (g) { li.appendChild(h("span", "glyph-mark", g)); });
      if (!e.score) {
        var vary = h("button", "vary", "vary");
        vary.type = "button"; vary.title = "start a variation instead of this event";
        vary.addEventListener("click", function () { send({ op: "vary", at: e.i }); });
        li.appendChild(vary);
        for (var k = 0; k < e.variations; k++) {
          (function (k) {
            var open = h("button", "enter", "(" + (k + 1) + ")");
            open.type = "button"; open.title = "continue this variation";
            open.addEventListener("click", function () { setPath(st.path.concat([[e.i, k]])); load(); });
            li.appendChild(open);
          })(k);
        }
      }
      e.comments.forEach(function (c) { li.appendChild(h("span", "move-comment", c)); });
      ol.appendChild(li);
    });
    var side = ol.closest(".side");
    if (side && ol.lastChild) side.scrollTop = Math.max(0, ol.lastChild.offsetTop - side.clientHeight + 60); // the newest event in sight
    var last = snap.line[snap.line.length - 1];
    $("annotate").hidden = !last;
    if (last) { $("glyph").value = last.glyphs[0] || ""; $("comment").value = last.comments[0] || ""; }
  }

  // the seat to act; when the engine cannot say (Big Two's ♣3 in an unseen hand), the seats
  // whose actions are offered
  function actor(snap) {
    if (snap.to_act) return snap.to_act;
    var seats = [];
    (snap.actions || []).forEach(function (a) { if (a.seat && seats.indexOf(a.seat) < 0) seats.push(a.seat); });
    return seats.length ? seats.join(" or ") : "?";
  }

  function show(snap) {
    st.snap = snap;
    setPath(snap.path);
    $("saved").textContent = "saved · " + snap.version.slice(0, 8);
    var turn = { deal: "Deal the next hand", play: "Seat " + actor(snap) + " to act", score: "The hand is over",
      scored: "Hand scored", over: "The match is over" }[snap.phase];
    $("turn").textContent = turn || "";
    drawTable(snap);
    drawActions(snap);
    drawScore(snap);
    drawLine(snap);
    var dealing = (snap.phase === "deal" || snap.phase === "scored") && !snap.path.length;
    $("deal-box").hidden = !dealing;
    if (dealing && snap.template && !$("setup").dataset.touched) $("setup").value = snap.template;
    if (dealing) drawPalette(snap);
    $("finish-box").hidden = !snap.finish;
    if (snap.finish) proposeResult(snap.finish);
    $("write-box").hidden = snap.phase !== "play";
    $("record-text").textContent = snap.text;
  }
  $("setup").addEventListener("input", function () { $("setup").dataset.touched = "1"; });

  /* the Finish box proposes the result the totals give (the server's, checked as the
     validator checks it); what the scribe typed is kept until the proposal changes */
  function proposeResult(finish) {
    var input = $("result");
    if (input.dataset.proposed !== finish.result) {
      input.value = finish.result;
      input.dataset.proposed = finish.result;
    }
    input.placeholder = finish.result ? "" : "no result";
    $("result-how").textContent = finish.result ? "Proposed from the totals: " + finish.result + " (" + finish.how + ")."
      : "No result: " + finish.how + ".";
  }

  /* -- entering a deal by clicking: each card replaces the first * of the cursor's line -- */
  var caretLine = 0;
  function rememberLine() { caretLine = $("setup").value.slice(0, $("setup").selectionStart).split("\n").length - 1; }
  $("setup").addEventListener("keyup", rememberLine);
  $("setup").addEventListener("click", rememberLine);

  function putCard(code) {
    var lines = $("setup").value.split("\n");
    if (/^hand\b/.test(lines[caretLine] || "") && caretLine + 1 < lines.length) caretLine += 1;  // cards go on the set-up lines
    var line = lines[caretLine] || "";
    var k = line.search(/(^|\s)\*(?=\s|$)/);
    if (k < 0) lines[caretLine] = line + " " + code;
    else { var at = line.indexOf("*", k); lines[caretLine] = line.slice(0, at) + code + line.slice(at + 1); }
    $("setup").value = lines.join("\n");
    $("setup").dataset.touched = "1";
  }

  function drawPalette(snap) {
    var box = $("palette");
    if (box.dataset.game === snap.game || !snap.palette || !snap.palette.length) return;
    box.dataset.game = snap.game;
    box.textContent = "";
    snap.palette.forEach(function (code) {
      var svg = PaifuCards.draw(code, snap.family);
      svg.classList.add("pick");
      svg.addEventListener("click", function () { putCard(code); });
      box.appendChild(svg);
    });
  }

  /* -- keys -------------------------------------------------------------------------- */
  document.addEventListener("keydown", function (ev) {
    var t = ev.target && ev.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || ev.ctrlKey || ev.metaKey || ev.altKey || !st.snap) return;
    var shown = visible();
    // P and D: the one pass or draw shown (the engine's own when unseen cards add others, such as
    // the tiles an unseen wall could give)
    var byVerb = function (verb) {
      var all = shown.filter(function (a) { return a.verb === verb; });
      var seen = all.filter(function (a) { return !a.unseen; });
      return seen.length === 1 ? seen : all;
    };
    if (/^[1-9]$/.test(ev.key) && shown[+ev.key - 1]) { choose(shown[+ev.key - 1]); ev.preventDefault(); }
    else if (ev.key === "Enter" && st.snap.phase === "score") { confirmScore(); ev.preventDefault(); }
    else if (ev.key === "Enter" && shown.length === 1) { choose(shown[0]); ev.preventDefault(); }
    else if ((ev.key === "p" || ev.key === "P") && byVerb("pass").length === 1) { choose(byVerb("pass")[0]); ev.preventDefault(); }
    else if ((ev.key === "d" || ev.key === "D") && byVerb("draw").length === 1) { choose(byVerb("draw")[0]); ev.preventDefault(); }
    else if (ev.key === "Backspace") { undo(); ev.preventDefault(); }
    else if (ev.key === "Escape") { st.selected = []; show(st.snap); }
  });

  window.addEventListener("pagehide", function () { // a closed tab frees its record (a reload takes it again)
    if (navigator.sendBeacon && !st.locked) {
      navigator.sendBeacon(API, new Blob([JSON.stringify({ op: "release", token: token, csrf: CSRF })], { type: "application/json" }));
    }
  });

  post({ op: "open" }).then(function (res) {
    if (res.status === 403 && res.body.code === "csrf") { location.reload(); return; }
    if (res.status === 423) locked(res.body.error);
    load();
  }).catch(function () { say("The server does not answer."); });
})();
