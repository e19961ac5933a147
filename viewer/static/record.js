/* paifu viewer: the record page. Every step's table comes embedded as JSON (built by
 * replay on the server); this file only draws it and moves between steps. A seat's page
 * (?seat=B, ?quiz=B) holds that seat's tables only: the server chose what it may see.
 * Deep link: #s=STEP (an old #s=STEP&p=SEAT opens ?seat=SEAT). Keys: ← → Home End, PageUp PageDown (hands). Record text is always set as text. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("paifu-data").textContent);
  var steps = [], parts = data.parts; // a long record comes a hand at a time: steps keep their numbers
  data.steps.forEach(function (e) { steps[e.i] = e; });
  var paged = data.paged || null, total = paged ? paged.total : (data.total_steps || steps.length);
  function handOfStep(i) { // paged: the hand holding step i
    if (!paged) return null;
    for (var h = 0; h < paged.ends.length; h++) if (i <= paged.ends[h]) return h;
    return null;
  }
  function load(i) { // paged: open the page of the hand holding step i
    var h = handOfStep(i);
    if (h === null || i < 0 || i >= total) return;
    var url = new URL(location.href);
    url.searchParams.set("hand", String(h + 1));
    url.hash = link(i).slice(1);
    location.href = url.toString();
  }
  var state = { i: 0, persp: data.seat || "", showLast: false, timer: null, quiz: data.quiz || "", answers: {}, results: {} };
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
    return { family: v.family, info: v.info || {}, last_trick: v.last_trick || null,
      seats: (v.seats || []).map(function (k) { var sv = parts[k]; return Object.assign({}, sv, { zones: zones(sv.zones) }); }),
      center: zones(v.center) };
  }

  /* -- comments: text and [%cmd args] commands ---------------------------------------- */
  var CMD = /\[%(\w+)\s*([^\]]*)\]/g;
  function commandsOf(text) { // [[name, args], ...]
    var out = [], m;
    CMD.lastIndex = 0;
    while ((m = CMD.exec(text)) !== null) out.push([m[1], m[2].trim()]);
    return out;
  }
  function plainText(text) { return text.replace(CMD, "").replace(/[ \t]+$/gm, "").trim(); }
  function cardList(args) { return args.split(/[\s,]+/).filter(function (c) { return c; }); }
  var CMD_NAMES = { clk: "clock", emt: "time used", csl: "highlight", cal: "arrow", eval: "evaluation" };
  function commentBox(text, cls) {
    var box = h("div", cls || "comment");
    var body = plainText(text);
    if (body) box.appendChild(h("p", "comment-text", body));
    commandsOf(text).forEach(function (c) {
      var chip = h("span", "cmd cmd-" + c[0]);
      chip.appendChild(h("span", "cmd-name", CMD_NAMES[c[0]] || c[0]));
      if (c[0] === "csl") {
        var cards = h("span", "cmd-cards");
        cardList(c[1]).forEach(function (code) { cards.appendChild(PaifuCards.draw(code, "")); });
        chip.appendChild(cards);
      } else chip.appendChild(h("span", "cmd-args", c[1]));
      box.appendChild(chip);
    });
    return box;
  }
  function highlights(entry) { // the cards a step's [%csl] commands mark on the table
    var out = [];
    (entry.var_comments || []).concat(entry.comments).forEach(function (t) {
      commandsOf(t).forEach(function (c) { if (c[0] === "csl") out = out.concat(cardList(c[1])); });
    });
    return out;
  }

  /* -- quiz: from one seat, the future hidden; the student picks the seat's move -------
   * The server lists every legal move (the one played among them, as the record writes it)
   * and none where the seat has no choice (a draw): those steps are not asked. Many moves
   * (99's 220 bids, Piquet's exchanges) are narrowed by clicking the cards they hold. */
  var MAX_CHOICES_SHOWN = 40;
  function quizHides(entry) { return false; }
  function strip(t) { return t.replace(/^[A-Z]:\s*/, ""); }
  function pending() { // the quiz seat's move comes next, with a choice, and is not answered yet
    var e = steps[state.i]; // the server sends choices only there, and nothing after them
    if (!state.quiz || !e || e.next === null || e.depth || !e.choices) return null;
    if (state.answers[e.next] !== undefined) return null;
    return { i: e.next };
  }
  function tally() {
    var n = 0, right = 0;
    Object.keys(state.results).forEach(function (k) { n++; if (state.results[k]) right++; });
    return { n: n, right: right };
  }
  var QUIZ_KEY = "paifu-quiz:" + location.pathname + "?n=" + (data.n || 1) + "&quiz=" + (data.quiz || "");
  function saveQuiz() { // the answers go on with the quiz to a long record's next hand
    try { sessionStorage.setItem(QUIZ_KEY, JSON.stringify({ answers: state.answers, results: state.results })); } catch (err) { /* private mode */ }
  }
  function loadQuiz() {
    try {
      var kept = JSON.parse(sessionStorage.getItem(QUIZ_KEY) || "null");
      if (kept) { state.answers = kept.answers || {}; state.results = kept.results || {}; }
    } catch (err) { /* none kept */ }
  }
  function more(upto, then) { // the steps as far as the next question after ``upto``, from the server
    if (data.quiz_until === undefined || data.quiz_until === null || upto <= data.quiz_until) { then(); return; }
    var url = new URL(location.href);
    url.pathname = url.pathname.replace(/\/record\//, "/api/record/");
    url.hash = "";
    url.searchParams.set("upto", String(upto));
    if (paged) url.searchParams.set("hand", String(paged.hand + 1));
    fetch(url.toString(), { headers: { Accept: "application/json" } }).then(function (r) { return r.json(); }).then(function (got) {
      got.steps.forEach(function (e) { steps[e.i] = e; });
      Object.keys(got.parts).forEach(function (k) { parts[k] = got.parts[k]; });
      data.hands = got.hands;
      data.quiz_until = got.quiz_until;
      buildMoves();
      then();
    }).catch(function () { $("quiz-box").appendChild(h("p", "diag error", "The next steps could not be fetched: reload the page.")); });
  }
  function answer(i, chosen) {
    state.answers[i] = chosen;
    state.picked = [];
    more(i, function () {
      if (steps[i]) state.results[i] = chosen === steps[i].text;
      saveQuiz();
      go(i);
    });
  }
  var CARD_TOKENS = { french: /^(?:[2-9TJQKA][CDHS]|JK)$/, paohuzi: /^(?:10|[1-9])[xd]$/, fourcolour: /^[YRGW][KAERHCS]$/ };
  function cardsOf(text) { // the cards a move names, read from its text (tiles grouped: 456m)
    var out = [];
    strip(text).split(/\s+/).forEach(function (w) {
      if (data.family === "tiles" && /^(?:[0-9]+[mps]|[1-7]+z)+$/.test(w)) {
        w.replace(/([0-9]+)([mps])|([1-7]+)(z)/g, function (m, d, suit, zd, z) {
          (d || zd).split("").forEach(function (x) { out.push(x + (suit || z)); });
        });
      } else if (CARD_TOKENS[data.family] && CARD_TOKENS[data.family].test(w)) out.push(w);
    });
    return out;
  }
  function holds(choice, picked) { // every picked card among the move's cards (with repeats)
    var left = cardsOf(choice);
    return picked.every(function (c) { var k = left.indexOf(c); if (k < 0) return false; left.splice(k, 1); return true; });
  }
  function quizCards(e, choices) { // the cards the moves name, in the order the seat's table shows them
    var order = [], v = viewOf(e, state.quiz), mine = v && v.seats ? v.seats.filter(function (s) { return s.seat === state.quiz; })[0] : null;
    (mine ? mine.zones : []).forEach(function (z) {
      (z.groups && z.groups.length ? [].concat.apply([], z.groups) : z.cards || []).forEach(function (c) { order.push(c); });
    });
    var out = [];
    choices.forEach(function (ch) { cardsOf(ch).forEach(function (c) { if (out.indexOf(c) < 0) out.push(c); }); });
    return out.sort(function (a, b) {
      var x = order.indexOf(a), y = order.indexOf(b);
      return (x < 0 ? 1e9 : x) - (y < 0 ? 1e9 : y) || (a < b ? -1 : a > b ? 1 : 0);
    });
  }
  function drawQuiz() {
    var box = $("quiz-box");
    box.textContent = "";
    box.hidden = !state.quiz;
    if (!state.quiz) return;
    var e = steps[state.i], nx = pending();
    var done = state.answers[state.i], t = tally();
    if (done !== undefined) {
      var ok = !!state.results[state.i];
      var p = h("p", "quiz-result " + (ok ? "right" : "other"));
      p.appendChild(h("strong", null, ok ? "✓ You played it: " : "You chose " + strip(done) + "; played: "));
      p.appendChild(h("span", "event-text", e.text));
      box.appendChild(p);
    }
    if (t.n) box.appendChild(h("p", "quiz-score", "Score: " + t.right + " of " + t.n + " as played"));
    if (!nx) {
      if (e.next === null && !e.depth) {
        box.appendChild(h("p", "quiz-over", "Quiz over: you played " + t.right + " of " + t.n + " moves as the record plays them"
          + (t.n ? " (" + Math.round(100 * t.right / t.n) + "%)." : ".")));
      } else if (done === undefined) {
        box.appendChild(h("p", "quiz-help", "Quiz as seat " + state.quiz + ": step forward (→) to the next move of " + state.quiz + " with a choice."));
      }
      return;
    }
    var choices = e.choices, picked = state.picked || [];
    var all = choices.filter(function (c) { return holds(c, picked); }), shown = all.slice(0, MAX_CHOICES_SHOWN);
    box.appendChild(h("p", "quiz-ask", "Your move as " + state.quiz + ": what do you play?"));
    var note = choices.length + " legal moves" + (picked.length ? "; " + all.length + " with the cards picked" : "")
      + (all.length > shown.length ? "; click cards to narrow them" : "");
    box.appendChild(h("p", "quiz-note", note));
    var cards = quizCards(e, choices);
    if (cards.length && choices.length > 1) {
      var row = h("div", "quiz-cards");
      cards.forEach(function (c) {
        var svg = PaifuCards.draw(c, data.family);
        svg.classList.add("pick");
        if (picked.indexOf(c) >= 0) svg.classList.add("picked");
        svg.addEventListener("click", function () {
          var k = picked.indexOf(c);
          if (k >= 0) picked.splice(k, 1); else picked.push(c);
          state.picked = picked;
          drawQuiz();
        });
        row.appendChild(svg);
      });
      box.appendChild(row);
    }
    var list = h("div", "choices");
    shown.forEach(function (c) {
      var b = h("button", "choice", strip(c));
      b.type = "button";
      b.addEventListener("click", function () { answer(nx.i, c); });
      list.appendChild(b);
    });
    box.appendChild(list);
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
    if (!v && data.stopped && !entry.replayed && entry.hand >= data.stopped.hand) {
      var hn = data.hands[entry.hand] ? data.hands[entry.hand].number : entry.hand + 1, st = data.stopped;
      table.appendChild(h("p", "no-table not-replayed", "Hand " + (hn || entry.hand + 1) + " is not replayed: "
        + (entry.hand === st.hand ? "" : "the replay gave up at hand " + (st.hand + 1) + " (line " + st.at + "): ") + st.why + "."
        + (st.code ? " The hand before could not be finished: line " + st.line + " (" + st.code + " " + st.message + ")." : "")
        + " Its lines are listed as written."));
      return;
    }
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
    var before = entry.prev !== null ? viewOf(steps[entry.prev], state.persp) : null;
    var lt = v.last_trick;
    var justTaken = lt && entry.replayed && (!before || !before.last_trick || before.last_trick.number !== lt.number);
    if (lt && (justTaken || state.showLast)) center.appendChild(trickBox(lt, v.family, justTaken));
    var info = h("dl", "info");
    Object.keys(v.info || {}).forEach(function (k) { info.appendChild(h("dt", null, k)); info.appendChild(h("dd", null, v.info[k])); });
    if (info.childNodes.length) center.appendChild(info);
    table.appendChild(center);
    var marks = highlights(entry);
    if (marks.length) table.querySelectorAll("svg.card").forEach(function (c) {
      if (marks.indexOf(c.getAttribute("data-card")) >= 0) c.classList.add("hl");
    });
  }

  function trickBox(lt, family, justTaken) {
    var box = h("div", "zone last-trick" + (justTaken ? " just-taken" : ""));
    box.appendChild(h("div", "zone-name", (justTaken ? "trick " + lt.number + " taken by " : "last trick (" + lt.number + "), taken by ") + lt.winner));
    var cards = h("div", "cards");
    lt.plays.forEach(function (p) {
      var one = h("span", "play" + (p[0] === lt.winner ? " winner" : ""));
      one.appendChild(PaifuCards.draw(p[1], family));
      one.appendChild(h("span", "play-seat", p[0]));
      cards.appendChild(one);
    });
    box.appendChild(cards);
    return box;
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
    if (!quizHides(entry)) (entry.var_comments || []).concat(entry.comments).forEach(function (c) { box.appendChild(commentBox(c)); });
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
    if (nx && nx.vars.length && !state.quiz) alts.push(["Instead of " + nx.text + ": ", nx.vars]);
    alts.forEach(function (a) {
      var p = h("p", "variations", a[0]);
      a[1].forEach(function (k, n) { p.appendChild(varButton(k, "(" + (n + 1) + ") ")); });
      box.appendChild(p);
    });
    if (entry.settlement !== null && entry.settlement !== undefined && parts[entry.settlement]) box.appendChild(settlementBox(entry));
  }

  /* -- the move list ----------------------------------------------------------------- */
  function link(i) { return "#s=" + i; }
  function seatPage(seat, quiz) { // the page of another perspective: the server sends what that seat sees
    var url = new URL(location.href);
    url.searchParams.delete("quiz");
    url.searchParams.delete("seat");
    if (quiz) url.searchParams.set("quiz", quiz); else if (seat) url.searchParams.set("seat", seat);
    url.hash = "s=" + state.i;
    return url.toString();
  }

  var items = [];
  function buildMoves() { // again when the quiz gets more steps
    var root = $("moves"), lists = [root];
    root.textContent = "";
    items = [];
    state.shown = undefined;
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
      if (e.comments.length) li.appendChild(h("span", "move-comment", e.comments.map(plainText).join("\n")));
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
  }
  function listenToMoves() {
    $("moves").addEventListener("click", function (ev) {
      var a = ev.target.closest("a.move-link");
      if (!a) return;
      ev.preventDefault();
      if (state.quiz && parseInt(a.dataset.i, 10) > state.i) return;
      go(parseInt(a.dataset.i, 10), true);
    });
  }

  /* -- moving ------------------------------------------------------------------------ */
  function lineEnd(i) {
    while (steps[i].next !== null) {
      if (!steps[steps[i].next]) return paged.ends[paged.ends.length - 1]; // the main line goes on in later hands
      i = steps[i].next;
    }
    return i;
  }

  function handStart(hand) { // the opening line of a hand (null when there is none)
    if (paged) { var at = paged.starts[hand]; return at === undefined ? null : at; }
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
    if (state.quiz) items.forEach(function (li, k) { if (li) li.classList.toggle("future", k > state.i); });
    if (items[state.shown] && state.shown !== state.i) items[state.shown].classList.remove("current");
    if (items[state.i]) items[state.i].classList.add("current");
    state.shown = state.i;
    drawQuiz();
    var li = items[state.i], list = $("move-list");
    if (li && list) { // scroll the move list only, never the page (the buttons stay where they are)
      var top = li.offsetTop - list.offsetTop, bottom = top + li.offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
    var handNo = data.hands[entry.hand] ? data.hands[entry.hand].number : entry.hand + 1;
    $("where").textContent = "hand " + handNo + " · step " + state.i + " of " + (total - 1) + (entry.depth ? " · in a variation" : "");
    $("btn-main").hidden = entry.depth === 0;
    $("btn-back").disabled = entry.prev === null;
    $("btn-forward").disabled = entry.next === null || !!pending();
    $("btn-trick").setAttribute("aria-pressed", String(state.showLast));
    $("perspective").value = state.persp;
    document.body.dataset.step = String(state.i);
  }

  function go(i, jump) { // a jump (move list, first, last, a hand, the box) is a page of history: Back returns
    if (i === null || i === undefined) return;
    if (!steps[i] && state.quiz && data.quiz_until !== undefined && data.quiz_until !== null && i > data.quiz_until) {
      more(i, function () { if (steps[i] || data.quiz_until === undefined || data.quiz_until === null || i <= data.quiz_until) go(i, jump); });
      return;
    }
    if (!steps[i]) { if (paged) load(i); return; }
    var moved = i !== state.i;
    if (moved) state.picked = []; // the quiz's picked cards belong to the step they were picked at
    state.i = i;
    if (jump && moved) history.pushState(null, "", link(i)); else history.replaceState(null, "", link(i));
    render();
  }

  function forward() { if (!pending()) go(steps[state.i].next); }

  function autoplay(on) {
    if (state.timer) { clearInterval(state.timer); state.timer = null; }
    if (on) state.timer = setInterval(function () {
      var e = steps[state.i];
      if (e.next === null || pending()) { autoplay(false); return; }
      go(e.next);
    }, parseInt($("speed").value, 10) || 1000);
    $("btn-play").textContent = state.timer ? "❚❚ pause" : "▶ play";
    $("btn-play").setAttribute("aria-pressed", String(!!state.timer));
  }

  function jumpTo(text) { // "12" is step 12, "h3" or "hand 3" the start of hand 3
    var t = text.trim().toLowerCase(), m = /^h(?:and)?\s*(\d+)$/.exec(t);
    if (m) {
      var want = parseInt(m[1], 10);
      for (var k = 0; k < (paged ? paged.starts.length : steps.length); k++) {
        var at = paged ? paged.starts[k] : k, e = steps[at];
        var hand = paged ? k : (e && e.kind === "hand" ? e.hand : null);
        if (hand !== null && at !== null && (data.hands[hand] ? data.hands[hand].number : hand + 1) === want) return at;
      }
      return null;
    }
    return /^\d+$/.test(t) && parseInt(t, 10) < total ? parseInt(t, 10) : null;
  }

  /* -- scores: a chart of running totals and a table of hands ------------------------ */
  var SVGNS = "http://www.w3.org/2000/svg";
  var COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
  function sv(name, attrs, text) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function handEnd(k) { // the main-line score line (or last event) of hand index k
    if (paged && !steps[paged.ends[k]]) return paged.ends[k];
    var last = null;
    steps.forEach(function (e) { if (e.hand === k && e.depth === 0) { if (e.kind === "score" || last === null || steps[last].kind !== "score") last = e.i; } });
    return last;
  }
  function drawScores() {
    var done = data.hands.filter(function (x) { return x.over && x.totals; });
    if (!done.length) return;
    $("scores").hidden = false;
    var seats = data.seats, W = 420, H = 180, L = 44, R = 10, T = 10, B = 24;
    var series = seats.map(function (st) { return [0].concat(done.map(function (x) { return x.totals[st] || 0; })); });
    var all = [].concat.apply([0], series), lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    if (hi === lo) hi = lo + 1;
    var X = function (k) { return L + (W - L - R) * k / Math.max(done.length, 1); };
    var Y = function (v) { return T + (H - T - B) * (hi - v) / (hi - lo); };
    var chart = sv("svg", { viewBox: "0 0 " + W + " " + H, "class": "score-chart", role: "img", "aria-label": "running totals after each hand" });
    chart.appendChild(sv("line", { x1: L, x2: W - R, y1: Y(0), y2: Y(0), stroke: "#999", "stroke-dasharray": "3 3" }));
    [lo, 0, hi].forEach(function (v) { chart.appendChild(sv("text", { x: L - 4, y: Y(v) + 4, "text-anchor": "end", "font-size": 10 }, String(v))); });
    done.forEach(function (x, k) { chart.appendChild(sv("text", { x: X(k + 1), y: H - 8, "text-anchor": "middle", "font-size": 10 }, String(x.number))); });
    series.forEach(function (pts, n) {
      var c = COLOURS[n % COLOURS.length];
      chart.appendChild(sv("polyline", { points: pts.map(function (v, k) { return X(k) + "," + Y(v); }).join(" "), fill: "none", stroke: c, "stroke-width": 2, "class": "series", "data-seat": seats[n] }));
      pts.forEach(function (v, k) { if (k) chart.appendChild(sv("circle", { cx: X(k), cy: Y(v), r: 2.5, fill: c })); });
      chart.appendChild(sv("text", { x: L + 6 + n * 46, y: T + 10, fill: c, "font-size": 11, "font-weight": 700 }, seats[n] + " " + pts[pts.length - 1]));
    });
    $("chart").appendChild(chart);
    var t = $("hand-table"), head = h("tr");
    head.appendChild(h("th", null, "hand"));
    seats.forEach(function (st) { head.appendChild(h("th", null, st)); });
    t.appendChild(head);
    data.hands.forEach(function (x, k) {
      var tr = h("tr", x.over ? null : "unfinished");
      var a = h("a", null, String(x.number));
      var end = handEnd(k);
      if (end !== null) { a.href = link(end); a.dataset.i = end; a.className = "hand-link"; }
      var td = h("td"); td.appendChild(a); tr.appendChild(td);
      seats.forEach(function (st) {
        var d = x.computed ? x.computed[st] : undefined, tot = x.totals ? x.totals[st] : undefined;
        var cell = h("td", "num", d === undefined ? "—" : signed(d));
        if (tot !== undefined && tot !== null) cell.appendChild(h("span", "total", " " + tot));
        tr.appendChild(cell);
      });
      t.appendChild(tr);
    });
    t.addEventListener("click", function (ev) {
      var a = ev.target.closest("a.hand-link");
      if (!a) return;
      ev.preventDefault();
      go(parseInt(a.dataset.i, 10), true);
    });
  }

  /* -- export: the table as a standalone SVG (the page's own style inside) or a PNG ---- */
  var styleText = null;
  function withStyle(then) {
    if (styleText !== null) { then(styleText); return; }
    var link = document.querySelector("link[rel=stylesheet]");
    fetch(link.href).then(function (r) { return r.text(); }).then(function (t) { styleText = t; then(t); })
      .catch(function () { styleText = ""; then(""); });
  }
  function exportName(ext) {
    var file = (location.pathname.split("/").pop() || "record").replace(/\.paifu$/, "");
    return file + "-step" + state.i + (state.persp ? "-" + state.persp : "") + "." + ext;
  }
  function wideOnly(css) { // the image is narrower than the phone breakpoint: keep the page's layout
    return css.replace(/@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}/g, "");
  }
  function tableSvg(css) { // the table's HTML in a foreignObject, with the page's style
    var table = $("table"), r = table.getBoundingClientRect(), w = Math.ceil(r.width), ht = Math.ceil(r.height);
    var copy = table.cloneNode(true);
    copy.setAttribute("xmlns", "http://www.w3.org/1999/xhtml");
    copy.style.margin = "0";
    var html = new XMLSerializer().serializeToString(copy);
    var caption = document.title + " · " + $("where").textContent;
    return '<svg xmlns="http://www.w3.org/2000/svg" width="' + w + '" height="' + ht + '" viewBox="0 0 ' + w + " " + ht + '">'
      + "<title>" + caption.replace(/&/g, "&amp;").replace(/</g, "&lt;") + "</title>"
      + '<foreignObject x="0" y="0" width="' + w + '" height="' + ht + '">'
      + '<div xmlns="http://www.w3.org/1999/xhtml" class="record-page" style="font-family: var(--ui); color: var(--ink)"><style>'
      + wideOnly(css).replace(/<\//g, "<\\/") + "</style>" + html + "</div>"
      + "</foreignObject></svg>";
  }
  function save(href, name) {
    var a = document.createElement("a");
    a.href = href; a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
  }
  function exportSvg() {
    withStyle(function (css) { save("data:image/svg+xml;charset=utf-8," + encodeURIComponent(tableSvg(css)), exportName("svg")); });
  }
  function exportPng() {
    withStyle(function (css) {
      var text = tableSvg(css), img = new Image(), scale = 2;
      img.onload = function () {
        var c = document.createElement("canvas");
        c.width = img.width * scale; c.height = img.height * scale;
        var g = c.getContext("2d");
        g.scale(scale, scale);
        g.drawImage(img, 0, 0);
        save(c.toDataURL("image/png"), exportName("png"));
      };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
    });
  }

  function readHash() {
    var m = /(?:^|[#&])s=(\d+)/.exec(location.hash), p = /(?:^|[#&])p=([^&]*)/.exec(location.hash);
    var later = m ? parseInt(m[1], 10) : null;
    if (m && steps[later]) state.i = later;
    else if (m && state.quiz && data.quiz_until !== undefined && data.quiz_until !== null && later > data.quiz_until
             && later < total && (!paged || handOfStep(later) === paged.hand)) state.want = later; // the quiz's later part: asked of the server
    else if (m && paged && parseInt(m[1], 10) < total) state.load = parseInt(m[1], 10);
    var asked = p ? decodeURIComponent(p[1]) : null;
    if (asked && asked !== (data.seat || "") && (asked === "" || data.seats.indexOf(asked) >= 0) && !data.quiz) state.move = asked;
    state.persp = data.seat || "";
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
    document.querySelectorAll("p.record-comment").forEach(function (p) { p.replaceWith(commentBox(p.textContent, "comment record-comment")); });
    buildMoves();
    listenToMoves();
    if (state.quiz) loadQuiz();
    readHash();
    if (state.move !== undefined) { location.replace(seatPage(state.move, null)); return; }
    if (state.load !== undefined) { load(state.load); return; }
    if (paged) {
      var nav = h("nav", "hand-nav");
      nav.appendChild(h("span", null, "This record is long: it comes a hand at a time. Hands: "));
      paged.starts.forEach(function (at, k) {
        if (at === null) return;
        var a = h("a", k === paged.hand ? "current-hand" : null, String(data.hands[k] ? data.hands[k].number : k + 1));
        a.href = "?" + new URLSearchParams(Object.assign(Object.fromEntries(new URLSearchParams(location.search)), { hand: String(k + 1) })).toString() + "#s=" + at;
        nav.appendChild(a);
        nav.appendChild(document.createTextNode(" "));
      });
      $("move-list").insertBefore(nav, $("moves"));
      if (!steps[state.i]) state.i = paged.starts[paged.hand] || data.steps[0].i;
    }
    if (state.quiz) { state.persp = state.quiz; $("perspective").disabled = true; }
    if (!state.quiz) drawScores(); // the totals would tell the quiz its future
    $("btn-first").addEventListener("click", function () { go(0, true); });
    $("btn-back").addEventListener("click", function () { go(steps[state.i].prev); });
    $("btn-forward").addEventListener("click", forward);
    $("btn-last").addEventListener("click", function () { go(state.quiz ? state.i : lineEnd(state.i), true); });
    $("btn-main").addEventListener("click", function () { go(mainLineOf(state.i), true); });
    $("btn-trick").addEventListener("click", function () { state.showLast = !state.showLast; render(); });
    $("btn-play").addEventListener("click", function () { autoplay(!state.timer); });
    $("btn-svg").addEventListener("click", exportSvg);
    $("btn-png").addEventListener("click", exportPng);
    $("speed").addEventListener("change", function () { if (state.timer) autoplay(true); });
    $("jump").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var to = jumpTo($("jump-to").value);
      $("jump-to").classList.toggle("bad-input", to === null);
      if (to !== null) { $("jump-to").blur(); go(to, true); }
    });
    $("quiz").addEventListener("change", function (ev) { location.href = seatPage(ev.target.value, ev.target.value); });
    $("perspective").addEventListener("change", function (ev) { location.href = seatPage(ev.target.value, null); });
    $("step-info").addEventListener("click", function (ev) {
      var a = ev.target.closest("a.var-link");
      if (!a) return;
      ev.preventDefault();
      var m = /s=(\d+)/.exec(a.getAttribute("href"));
      if (m) go(parseInt(m[1], 10), true);
    });
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var tag = (ev.target && ev.target.tagName) || "";
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
      var e = steps[state.i], to = null, jump = true;
      if (ev.key === "ArrowRight") { ev.preventDefault(); forward(); return; }
      else if (ev.key === "ArrowLeft") { to = e.prev; jump = false; }
      else if (ev.key === "Home") to = 0;
      else if (ev.key === "End") to = state.quiz ? state.i : lineEnd(state.i);
      else if (ev.key === "PageDown") to = state.quiz ? null : handStart(e.hand + 1);
      else if (ev.key === "PageUp") to = handStart(state.i === handStart(e.hand) ? e.hand - 1 : e.hand);
      else if (ev.key === "t" || ev.key === "T") { state.showLast = !state.showLast; render(); ev.preventDefault(); return; }
      else if (ev.key === "p" || ev.key === "P") { autoplay(!state.timer); ev.preventDefault(); return; }
      else return;
      ev.preventDefault();
      go(to, jump);
    });
    var back = function () {
      readHash();
      if (state.move !== undefined) { location.replace(seatPage(state.move, null)); return; }
      render();
    };
    window.addEventListener("hashchange", back);
    window.addEventListener("popstate", back);
    render();
    if (state.want !== undefined) go(state.want, true);
  }

  start();
})();
