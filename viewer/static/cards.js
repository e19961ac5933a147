/* paifu viewer: cards and tiles drawn as SVG, no images, no fonts fetched.
 *
 * PaifuCards.draw(code, family) returns an <svg> for one card or tile code:
 *   French cards   3C TD AS (T = ten; C D H S)
 *   mahjong tiles  1m..9m 1p..9p 1s..9s 1z..7z (E S W N, white, green, red); 0m 0p 0s red fives
 *   paohuzi        1x..10x small 一..十, 1d..10d big 壹..拾 (2 7 10 in red)
 *   four-colour    colour Y R G W + piece K A E R H C S (帥將 仕士 相象 俥車 傌馬 炮砲 兵卒)
 *   '*'            a card back (also PaifuCards.back(family))
 * The shape follows the code; the family only decides the back of unseen cards.
 */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var RED = "#c8102e", BLACK = "#1b1b1b", GREEN = "#16803c", BLUE = "#1f4e9a";

  function el(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svg(kind, w, h, code, label) {
    var s = el("svg", { viewBox: "0 0 " + w + " " + h, "class": "card " + kind, role: "img",
      "aria-label": label, "data-card": code });
    s.appendChild(el("title", {}, label));
    return s;
  }

  function text(s, x, y, size, fill, str, extra) {
    var attrs = { x: x, y: y, "font-size": size, fill: fill, "text-anchor": "middle", "class": "glyph" };
    for (var k in extra || {}) attrs[k] = extra[k];
    s.appendChild(el("text", attrs, str));
  }

  /* -- French cards ------------------------------------------------------------------ */
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  var RANK_NAME = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

  function french(code) {
    var rank = code[0], suit = code[1];
    var shown = RANK_NAME[rank] || rank, colour = (suit === "H" || suit === "D") ? RED : BLACK;
    var s = svg("french", 50, 70, code, shown + " of " + SUIT_NAME[suit]);
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 49, height: 69, rx: 4, fill: "#fff", stroke: "#8a8a8a" }));
    var small = shown.length > 1 ? 12 : 14;
    text(s, 9, 15, small, colour, shown, { "font-weight": "700", "class": "glyph latin" });
    text(s, 9, 27, 12, colour, SUIT[suit]);
    var g = el("g", { transform: "rotate(180 25 35)" });
    s.appendChild(g);
    text(g, 9, 15, small, colour, shown, { "font-weight": "700", "class": "glyph latin" });
    text(g, 9, 27, 12, colour, SUIT[suit]);
    if ("JQK".indexOf(rank) >= 0) {
      s.appendChild(el("rect", { x: 16, y: 12, width: 20, height: 46, rx: 2, fill: "none", stroke: colour, "stroke-width": 0.8 }));
      text(s, 26, 34, 18, colour, shown, { "font-weight": "700", "class": "glyph latin" });
      text(s, 26, 52, 14, colour, SUIT[suit]);
    } else {
      text(s, 27, 45, rank === "A" ? 30 : 24, colour, SUIT[suit]);
    }
    return s;
  }

  /* -- mahjong tiles ----------------------------------------------------------------- */
  var MAN = ["", "一", "二", "三", "四", "伍", "六", "七", "八", "九"];
  var HONOR = { 1: ["東", BLACK, "east wind"], 2: ["南", BLACK, "south wind"], 3: ["西", BLACK, "west wind"],
    4: ["北", BLACK, "north wind"], 5: ["", BLUE, "white dragon"], 6: ["發", GREEN, "green dragon"], 7: ["中", RED, "red dragon"] };
  // dot and stick positions inside the tile face (x, y in a 30 x 40 box)
  var PIPS = {
    1: [[15, 20]], 2: [[15, 11], [15, 29]], 3: [[8, 9], [15, 20], [22, 31]],
    4: [[9, 11], [21, 11], [9, 29], [21, 29]], 5: [[8, 9], [22, 9], [15, 20], [8, 31], [22, 31]],
    6: [[9, 8], [21, 8], [9, 20], [21, 20], [9, 32], [21, 32]],
    7: [[7, 7], [15, 10], [23, 13], [9, 23], [21, 23], [9, 32], [21, 32]],
    8: [[9, 6], [21, 6], [9, 15], [21, 15], [9, 25], [21, 25], [9, 34], [21, 34]],
    9: [[7, 8], [15, 8], [23, 8], [7, 20], [15, 20], [23, 20], [7, 32], [15, 32], [23, 32]]
  };

  function tileFace(code, label) {
    var s = svg("tile", 30, 40, code, label);
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 29, height: 39, rx: 3, fill: "#2f7a4d" }));
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 29, height: 37, rx: 3, fill: "#fbf6e6", stroke: "#9c927a", "stroke-width": 0.6 }));
    return s;
  }

  function tile(code) {
    var n = parseInt(code[0], 10), suit = code[1], red = n === 0, v = red ? 5 : n, s, i, p;
    if (suit === "z") {
      var h = HONOR[n];
      s = tileFace(code, h[2]);
      if (n === 5) s.appendChild(el("rect", { x: 7, y: 7, width: 16, height: 23, rx: 1.5, fill: "none", stroke: BLUE, "stroke-width": 1.6 }));
      else text(s, 15, 27, 20, h[1], h[0], { "font-weight": "700" });
      return s;
    }
    var name = { m: "characters", p: "dots", s: "bamboo" }[suit];
    s = tileFace(code, (red ? "red five" : v) + " of " + name);
    if (suit === "m") {
      text(s, 15, 17, 13, red ? RED : BLACK, MAN[v], { "font-weight": "700" });
      text(s, 15, 34, 14, RED, "萬", { "font-weight": "700" });
    } else if (suit === "p") {
      var big = v === 1 ? 9 : (v <= 4 ? 5 : 3.8);
      for (i = 0; i < PIPS[v].length; i++) {
        p = PIPS[v][i];
        var ring = red ? RED : (v === 1 ? RED : (i % 3 === 0 ? BLUE : (i % 3 === 1 ? GREEN : RED)));
        s.appendChild(el("circle", { cx: p[0], cy: p[1], r: big, fill: "#fff", stroke: ring, "stroke-width": v === 1 ? 2.4 : 1.5 }));
        s.appendChild(el("circle", { cx: p[0], cy: p[1], r: big * 0.35, fill: ring }));
      }
    } else {
      if (v === 1) { // 一索: a tall stick with a red knot (the bird is left to real tiles)
        s.appendChild(el("rect", { x: 11, y: 5, width: 8, height: 29, rx: 4, fill: GREEN }));
        s.appendChild(el("rect", { x: 10, y: 17, width: 10, height: 4, rx: 1, fill: RED }));
        text(s, 25, 10, 6, RED, "一");
      } else {
        for (i = 0; i < PIPS[v].length; i++) {
          p = PIPS[v][i];
          var c = red ? RED : ((v === 5 || v === 7 || v === 9) && i === (v === 7 ? 0 : 4) ? RED : GREEN);
          var len = v >= 8 ? 7 : 9;
          s.appendChild(el("rect", { x: p[0] - 2, y: p[1] - len / 2, width: 4, height: len, rx: 1.6, fill: c }));
          s.appendChild(el("line", { x1: p[0] - 2, y1: p[1], x2: p[0] + 2, y2: p[1], stroke: "#fbf6e6", "stroke-width": 0.6 }));
        }
      }
    }
    if (red) s.appendChild(el("circle", { cx: 26, cy: 4.5, r: 2, fill: RED }));
    return s;
  }

  /* -- paohuzi paper cards ----------------------------------------------------------- */
  var SMALL = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
  var BIG = ["", "壹", "貳", "叁", "肆", "伍", "陸", "柒", "捌", "玖", "拾"];

  function paperFace(kind, code, label) {
    var s = svg("paper " + kind, 24, 64, code, label);
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 23, height: 63, rx: 2, fill: "#fffaf0", stroke: "#8f8570" }));
    return s;
  }

  function paohuzi(code) {
    var n = parseInt(code, 10), big = code[code.length - 1] === "d";
    var ch = (big ? BIG : SMALL)[n], colour = (n === 2 || n === 7 || n === 10) ? RED : BLACK;
    var s = paperFace("paohuzi", code, (big ? "big " : "small ") + n + " " + ch);
    text(s, 12, 20, 17, colour, ch, { "font-weight": "700" });
    var g = el("g", { transform: "rotate(180 12 32)" });
    s.appendChild(g);
    text(g, 12, 20, 17, colour, ch, { "font-weight": "700" });
    s.appendChild(el("line", { x1: 4, y1: 32, x2: 20, y2: 32, stroke: "#d8ccb0", "stroke-width": 0.6 }));
    return s;
  }

  /* -- four-colour cards (四色牌) ----------------------------------------------------- */
  var PIECES = "KAERHCS";
  var RED_SIDE = ["帥", "仕", "相", "俥", "傌", "炮", "兵"];   // Y, R
  var BLACK_SIDE = ["將", "士", "象", "車", "馬", "砲", "卒"]; // G, W
  var COLOUR = { Y: ["#9c7400", "yellow"], R: [RED, "red"], G: [GREEN, "green"], W: ["#ffffff", "white"] };

  function fourColour(code) {
    var c = code[0], k = PIECES.indexOf(code[1]);
    var ch = (c === "Y" || c === "R" ? RED_SIDE : BLACK_SIDE)[k], col = COLOUR[c];
    var s = paperFace("fourcolour", code, col[1] + " " + ch);
    s.appendChild(el("rect", { x: 3, y: 3, width: 18, height: 58, rx: 1.5, fill: "none", stroke: c === "W" ? "#9a9a9a" : col[0], "stroke-width": 0.8 }));
    var extra = { "font-weight": "700" };
    if (c === "W") { extra.stroke = "#2b2b2b"; extra["stroke-width"] = "1.3"; extra["paint-order"] = "stroke"; }
    if (c === "Y") { extra.stroke = "#f2c200"; extra["stroke-width"] = "0.6"; } // an ochre glyph with a yellow edge: 4:1 on ivory
    text(s, 12, 24, 16, col[0], ch, extra);
    var g = el("g", { transform: "rotate(180 12 32)" });
    s.appendChild(g);
    text(g, 12, 24, 16, col[0], ch, extra);
    return s;
  }

  /* -- backs and unknown codes ------------------------------------------------------- */
  function back(family) {
    var s;
    if (family === "tiles" || family === "mahjong") {
      s = svg("tile back", 30, 40, "*", "face-down tile");
      s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 29, height: 39, rx: 3, fill: "#fbf6e6" }));
      s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 29, height: 37, rx: 3, fill: "#2f7a4d", stroke: "#1d4d30", "stroke-width": 0.6 }));
      return s;
    }
    if (family === "paohuzi" || family === "fourcolour" || family === "paper") {
      s = svg("paper back", 24, 64, "*", "face-down card");
      s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 23, height: 63, rx: 2, fill: "#7d2a20", stroke: "#4a1610" }));
      s.appendChild(el("rect", { x: 3.5, y: 3.5, width: 17, height: 57, rx: 1, fill: "none", stroke: "#d9b26a", "stroke-width": 0.7 }));
      return s;
    }
    s = svg("french back", 50, 70, "*", "face-down card");
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 49, height: 69, rx: 4, fill: "#fff", stroke: "#8a8a8a" }));
    s.appendChild(el("rect", { x: 4, y: 4, width: 42, height: 62, rx: 2.5, fill: "#24477e" }));
    s.appendChild(el("path", { d: "M25 10 L40 35 L25 60 L10 35 Z", fill: "none", stroke: "#9fb6dd", "stroke-width": 1.2 }));
    return s;
  }

  function joker(code) {
    // 99's early version: the joker (written JK) stands for the turned card
    var s = svg("french joker", 50, 70, code, "joker");
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 49, height: 69, rx: 4, fill: "#fff", stroke: "#8a8a8a" }));
    text(s, 25, 30, 20, RED, "\u2605");
    text(s, 25, 50, 10, BLACK, "JOKER", { "font-weight": "700", "class": "glyph latin" });
    return s;
  }

  function unknownCode(code) {
    var s = svg("french other", 50, 70, code, code);
    s.appendChild(el("rect", { x: 0.5, y: 0.5, width: 49, height: 69, rx: 4, fill: "#f4f4f4", stroke: "#8a8a8a", "stroke-dasharray": "3 2" }));
    text(s, 25, 40, 13, BLACK, code, { "class": "glyph latin" });
    return s;
  }

  var SHAPES = [
    [/^[2-9TJQKA][CDHS]$/, french],
    [/^JK$/, joker],
    [/^[0-9][mps]$|^[1-7]z$/, tile],
    [/^(10|[1-9])[xd]$/, paohuzi],
    [/^[YRGW][KAERHCS]$/, fourColour]
  ];

  function draw(code, family) {
    if (!code || code === "*") return back(family);
    for (var i = 0; i < SHAPES.length; i++) if (SHAPES[i][0].test(code)) return SHAPES[i][1](code);
    return unknownCode(String(code));
  }

  window.PaifuCards = { draw: draw, back: back };
})();
