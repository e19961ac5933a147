/* paifu viewer: the record page. Every step's table comes embedded as JSON (built by
 * replay on the server); this file only draws it and moves between steps.
 * Deep link: #s=STEP&p=SEAT. Keys: ← → Home End, PageUp PageDown (hands). Record text is always set as text. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("paifu-data").textContent);
  var steps = data.steps, parts = data.parts;
  var state = { i: 0, persp: "" };
  var $ = function (id) { return document.getElementById(id); };

  function h(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined && txt !== null) e.textContent = txt;
    return e;
  }

  function signed(n) { return (n > 0 ? "+" : "") + n; }

  /* -- reading a step's view --------------------------------------------------------- */
  function viewOf(entry, persp) {
    if (!entry || !entry.views) return null;
    var idx = entry.views[persp];
    if (idx === undefined) idx = entry.views[""];
    var v = parts[idx];
    if (!v || v.error) return v || null;
    var zones = function (list) { return (list || []).map(function (k) { return parts[k]; }); };
    return { family: v.family, info: v.info || {},
      seats: (v.seats || []).map(function (k) { var sv = parts[k]; return Object.assign({}, sv, { zones: zones(sv.zones) }); }),
      center: zones(v.center) };
  }

  /* -- drawing zones ----------------------------------------------------------------- */
  var MAX_BACKS = 24;

  function cardsInto(box, cards, family) {
    cards.forEach(function (c) { box.appendChild(PaifuCards.draw(c, family)); });
  }

  function backsInto(box, n, family) {
    var shown = Math.min(n, MAX_BACKS);
    for (var k = 0; k < shown; k++) box.appendChild(PaifuCards.back(family));
    if (n > shown) box.appendChild(h("span", "more", "+" + (n - shown)));
  }

  function drawZone(zone, family) {
    var wrap = h("div", "zone layout-" + (zone.layout || "row"));
    wrap.dataset.zone = zone.name;
    var cap = h("div", "zone-name", zone.name);
    wrap.appendChild(cap);
    var box = h("div", "cards");
    var total = (zone.groups && zone.groups.length ? zone.groups.reduce(function (n, g) { return n + g.length; }, 0) : (zone.cards || []).length) + (zone.hidden || 0);
    if (zone.layout === "count") {
      if (total) box.appendChild(PaifuCards.back(family));
      box.appendChild(h("span", "count", total ? "× " + total : "0"));
    } else if (zone.groups && zone.groups.length) {
      zone.groups.forEach(function (g) {
        var grp = h("span", "group");
        cardsInto(grp, g, family);
        box.appendChild(grp);
      });
      // some engines also list the grouped cards in ``cards``: draw them once
      var flat = [].concat.apply([], zone.groups).slice().sort().join(" ");
      var loose = (zone.cards || []).slice().sort().join(" ");
      if (loose && loose !== flat) { var rest = h("span", "group"); cardsInto(rest, zone.cards, family); box.appendChild(rest); }
      if (zone.hidden) { var hid = h("span", "group"); backsInto(hid, zone.hidden, family); box.appendChild(hid); }
    } else if (zone.layout === "stack" && zone.cards.length > 8) {
      box.appendChild(h("span", "more", (zone.cards.length - 8) + " more ·"));
      cardsInto(box, zone.cards.slice(-8), family);
      if (zone.hidden) backsInto(box, zone.hidden, family);
    } else {
      cardsInto(box, zone.cards || [], family);
      if (zone.hidden) backsInto(box, zone.hidden, family);
    }
    if (!total && zone.layout !== "count" && !(zone.groups && zone.groups.length)) box.appendChild(h("span", "empty", "—"));
    if (zone.layout !== "count" && total > 1) cap.appendChild(h("span", "n", " " + total));
    wrap.appendChild(box);
    return wrap;
  }

  var PLACES = { 1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

  function drawSeat(sv, place, family, totals) {
    var box = h("section", "seat place-" + place + (sv.to_act ? " to-act" : ""));
    box.dataset.seat = sv.seat;
    var head = h("header", "seat-head");
    head.appendChild(h("span", "seat-letter", sv.seat));
    var name = data.players[sv.seat];
    if (name) head.appendChild(h("span", "seat-name", name));
    (sv.labels || []).forEach(function (l) { head.appendChild(h("span", "label", l)); });
    if (sv.to_act) head.appendChild(h("span", "label act", "to act"));
    var now = steps[state.i];
    if (now && now.seat === sv.seat && now.kind === "event") { // what this seat just did
      box.classList.add("acted");
      head.appendChild(h("span", "label did", now.text.replace(/^[A-Z]:\s*/, "")));
    }
    var score = totals && totals[sv.seat] !== undefined ? totals[sv.seat] : sv.score;
    head.appendChild(h("span", "score", signed(score || 0)));
    box.appendChild(head);
    (sv.zones || []).forEach(function (z) { box.appendChild(drawZone(z, family)); });
    return box;
  }

  function drawTable(entry) {
    var table = $("table");
    table.textContent = "";
    var v = viewOf(entry, state.persp);
    if (!v) { table.appendChild(h("p", "no-table", "No table at this line: the hand could not be set up or replayed.")); return; }
    if (v.error) { table.appendChild(h("p", "no-table", "The engine could not show this step: " + v.error)); return; }
    var seats = v.seats.slice();
    var me = seats.findIndex(function (s) { return s.seat === state.persp; });
    if (me > 0) seats = seats.slice(me).concat(seats.slice(0, me)); // the chosen seat sits at the bottom
    var places = PLACES[seats.length] || seats.map(function (_, k) { return "ring-" + k; });
    table.className = "table seats-" + seats.length + " fam-" + (v.family || "none");
    seats.forEach(function (sv, k) { table.appendChild(drawSeat(sv, places[k] || "ring", v.family, entry.after || null)); });
    var center = h("section", "center");
    (v.center || []).forEach(function (z) { center.appendChild(drawZone(z, v.family)); });
    var info = h("dl", "info");
    Object.keys(v.info || {}).forEach(function (k) { info.appendChild(h("dt", null, k)); info.appendChild(h("dd", null, v.info[k])); });
    if (info.childNodes.length) center.appendChild(info);
    table.appendChild(center);
  }

  /* -- the step's text: event, comments, errors, settlement -------------------------- */
  function settlementBox(entry) {
    var s = parts[entry.settlement];
    var box = h("div", "settlement");
    box.appendChild(h("h3", null, "Settlement"));
    var t = h("table", "items");
    var hr = h("tr");
    ["seat", "item", "term", "detail", "value"].forEach(function (c) { hr.appendChild(h("th", null, c)); });
    t.appendChild(hr);
    (s.items || []).forEach(function (it) {
      var tr = h("tr");
      [it.seat, it.name, it.term, it.detail, String(it.value)].forEach(function (c, k) { tr.appendChild(h("td", k === 4 ? "num" : (k === 2 ? "term" : null), c)); });
      t.appendChild(tr);
    });
    box.appendChild(t);
    if (s.payments && s.payments.length) {
      var pay = h("ul", "payments");
      s.payments.forEach(function (p) { pay.appendChild(h("li", null, p.payer + " pays " + p.payee + " " + p.amount + (p.reason ? " (" + p.reason + ")" : ""))); });
      box.appendChild(pay);
    }
    var cmp = h("table", "compare");
    var head = h("tr"); head.appendChild(h("th", null, ""));
    var seats = Object.keys(s.deltas);
    seats.forEach(function (x) { head.appendChild(h("th", null, x)); });
    cmp.appendChild(head);
    var rowC = h("tr"); rowC.appendChild(h("th", null, "computed"));
    var rowW = h("tr"); rowW.appendChild(h("th", null, "written"));
    seats.forEach(function (x) {
      rowC.appendChild(h("td", "num", signed(s.deltas[x])));
      var w = entry.written ? entry.written[x] : undefined;
      var cell = h("td", "num", w === undefined ? "—" : signed(w));
      if (w !== undefined && w !== s.deltas[x] && (s.unknown || []).indexOf(x) < 0) cell.classList.add("mismatch");
      rowW.appendChild(cell);
    });
    cmp.appendChild(rowC); cmp.appendChild(rowW);
    if (entry.after) {
      var rowT = h("tr"); rowT.appendChild(h("th", null, "totals after"));
      seats.forEach(function (x) { rowT.appendChild(h("td", "num", entry.after[x] === undefined ? "" : signed(entry.after[x]))); });
      cmp.appendChild(rowT);
    }
    box.appendChild(cmp);
    if (s.unknown && s.unknown.length) box.appendChild(h("p", "note", "Not checkable (hidden cards): " + s.unknown.join(" ")));
    return box;
  }

  function varButton(k, label) {
    var b = h("a", "var-link", label + steps[k].text);
    b.href = link(k);
    return b;
  }

  function drawInfo(entry) {
    var box = $("step-info");
    box.textContent = "";
    var ev = h("div", "event-line");
    ev.appendChild(h("span", "event-text", entry.text));
    entry.glyphs.forEach(function (g) { ev.appendChild(h("span", "glyph-mark", g)); });
    if (!entry.replayed && entry.kind === "event") ev.appendChild(h("span", "label", "not replayed"));
    box.appendChild(ev);
    (entry.var_comments || []).concat(entry.comments).forEach(function (c) { box.appendChild(h("p", "comment", c)); });
    entry.diags.forEach(function (d) {
      var p = h("p", "diag " + d.severity);
      p.appendChild(h("code", null, d.code));
      p.appendChild(document.createTextNode(" " + d.line + ":" + d.col + " " + d.message));
      if (d.rule) p.appendChild(h("span", "rule", " [" + d.rule + "]"));
      box.appendChild(p);
    });
    var alts = [];
    if (entry.vars.length) alts.push(["Instead of this: ", entry.vars]);
    var nx = entry.next !== null ? steps[entry.next] : null;
    if (nx && nx.vars.length) alts.push(["Instead of " + nx.text + ": ", nx.vars]);
    alts.forEach(function (a) {
      var p = h("p", "variations", a[0]);
      a[1].forEach(function (k, n) { p.appendChild(varButton(k, "(" + (n + 1) + ") ")); });
      box.appendChild(p);
    });
    if (entry.settlement !== null && entry.settlement !== undefined && parts[entry.settlement]) box.appendChild(settlementBox(entry));
  }

  /* -- the move list ----------------------------------------------------------------- */
  function link(i) { return "#s=" + i + (state.persp ? "&p=" + encodeURIComponent(state.persp) : ""); }

  var items = [];
  function buildMoves() {
    var root = $("moves"), lists = [root];
    steps.forEach(function (e) {
      var li = h("li", "move kind-" + e.kind + (e.diags.some(function (d) { return d.severity === "error"; }) ? " has-error" : "")
        + (e.diags.length ? " has-diag" : "") + (e.replayed || e.kind !== "event" ? "" : " unreplayed"));
      var a = h("a", "move-link");
      a.href = link(e.i);
      a.dataset.i = e.i;
      if (e.kind === "hand") a.appendChild(h("span", "hand-mark", "▸ "));
      a.appendChild(h("span", "move-text", e.text));
      e.glyphs.forEach(function (g) { a.appendChild(h("span", "glyph-mark", g)); });
      li.appendChild(a);
      if (e.comments.length) li.appendChild(h("span", "move-comment", e.comments.join(" ")));
      items[e.i] = li;
      if (e.parent !== null && e.parent !== undefined) { // the first event of a variation
        var holder = h("li", "variation");
        var ol = h("ol", "var-line");
        holder.appendChild(ol);
        (lists[e.depth - 1] || root).appendChild(holder);
        lists[e.depth] = ol;
      }
      lists.length = e.depth + 1;
      (lists[e.depth] || root).appendChild(li);
    });
    root.addEventListener("click", function (ev) {
      var a = ev.target.closest("a.move-link");
      if (!a) return;
      ev.preventDefault();
      go(parseInt(a.dataset.i, 10));
    });
  }

  /* -- moving ------------------------------------------------------------------------ */
  function lineEnd(i) { while (steps[i].next !== null) i = steps[i].next; return i; }

  function handStart(hand) { // the opening line of a hand (null when there is none)
    for (var k = 0; k < steps.length; k++) if (steps[k].kind === "hand" && steps[k].hand === hand) return k;
    return null;
  }

  function mainLineOf(i) { // the main-line event a variation replaces
    var e = steps[i];
    while (e.depth > 0) {
      while (e.parent === null || e.parent === undefined) e = steps[e.prev];
      e = steps[e.parent];
    }
    return e.i;
  }

  function render() {
    var entry = steps[state.i];
    if (!entry) return;
    drawTable(entry);
    drawInfo(entry);
    items.forEach(function (li, k) { if (li) li.classList.toggle("current", k === state.i); });
    if (items[state.i] && items[state.i].scrollIntoView) items[state.i].scrollIntoView({ block: "nearest" });
    var handNo = data.hands[entry.hand] ? data.hands[entry.hand].number : entry.hand + 1;
    $("where").textContent = "hand " + handNo + " · step " + (state.i + 1) + "/" + steps.length + (entry.depth ? " · in a variation" : "");
    $("btn-main").hidden = entry.depth === 0;
    $("btn-back").disabled = entry.prev === null;
    $("btn-forward").disabled = entry.next === null;
    $("perspective").value = state.persp;
    document.querySelectorAll("a.move-link").forEach(function (a) { a.href = link(parseInt(a.dataset.i, 10)); });
    document.body.dataset.step = String(state.i);
  }

  function go(i) {
    if (i === null || i === undefined || !steps[i]) return;
    state.i = i;
    history.replaceState(null, "", link(i));
    render();
  }

  function readHash() {
    var m = /(?:^|[#&])s=(\d+)/.exec(location.hash), p = /(?:^|[#&])p=([^&]*)/.exec(location.hash);
    if (m && steps[parseInt(m[1], 10)]) state.i = parseInt(m[1], 10);
    state.persp = p && data.seats.indexOf(decodeURIComponent(p[1])) >= 0 ? decodeURIComponent(p[1]) : "";
  }

  function start() {
    if (data.unreadable || !steps.length) {
      var t = $("table");
      t.appendChild(h("p", "no-table", data.unreadable ? "This record could not be read:" : "This record has no hand to show."));
      var ul = h("ul");
      data.all_diagnostics.forEach(function (d) { ul.appendChild(h("li", "diag " + d.severity, d.line + ":" + d.col + " " + d.code + " " + d.message)); });
      t.appendChild(ul);
      return;
    }
    buildMoves();
    readHash();
    $("btn-first").addEventListener("click", function () { go(0); });
    $("btn-back").addEventListener("click", function () { go(steps[state.i].prev); });
    $("btn-forward").addEventListener("click", function () { go(steps[state.i].next); });
    $("btn-last").addEventListener("click", function () { go(lineEnd(state.i)); });
    $("btn-main").addEventListener("click", function () { go(mainLineOf(state.i)); });
    $("perspective").addEventListener("change", function (ev) {
      state.persp = ev.target.value;
      ev.target.blur(); // the arrow keys step again, instead of changing the perspective
      go(state.i);
    });
    $("step-info").addEventListener("click", function (ev) {
      var a = ev.target.closest("a.var-link");
      if (!a) return;
      ev.preventDefault();
      var m = /s=(\d+)/.exec(a.getAttribute("href"));
      if (m) go(parseInt(m[1], 10));
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var tag = (ev.target && ev.target.tagName) || "";
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
      var e = steps[state.i], to = null;
      if (ev.key === "ArrowRight") to = e.next;
      else if (ev.key === "ArrowLeft") to = e.prev;
      else if (ev.key === "Home") to = 0;
      else if (ev.key === "End") to = lineEnd(state.i);
      else if (ev.key === "PageDown") to = handStart(e.hand + 1);
      else if (ev.key === "PageUp") to = handStart(state.i === handStart(e.hand) ? e.hand - 1 : e.hand);
      else return;
      ev.preventDefault();
      go(to);
    });
    window.addEventListener("hashchange", function () { readHash(); render(); });
    render();
  }

  start();
})();
