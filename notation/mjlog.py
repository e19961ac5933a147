"""Tenhou's mjlog XML (the file a player downloads) -> paifu sanma records (formats only).

An mjlog is one ``<mjloggm ver="2.3">`` element holding, in play order::

    <GO type="185" lobby="0"/>              the room: bit 0x10 three players, 0x08 東南戦,
                                            0x02 no red fives, 0x04 no 喰断, 0x20/0x80 the room
    <UN n0=".." n1=".." n2=".." n3="" dan="16,16,16,0" rate=".." sx=".."/>   the players
    <INIT seed="kyoku,honba,sticks,die,die,indicator" ten="350,350,350,0" oya="0" hai0=".." ...>
    <T88/> <U12/> <V40/>                    draws by seat 0, 1, 2 (W: a fourth seat)
    <D88/> <E12/> <F40/>                    discards by seat 0, 1, 2 (G: a fourth seat)
    <N who="0" m="31520"/>                  a call, bit-packed in m (pon, kan, added kan, nuki)
    <REACH who="1" step="1"/> ... <REACH who="1" ten=".." step="2"/>
    <DORA hai="121"/>                       a kan dora indicator
    <AGARI ba="honba,sticks" ten="fu,points,limit" yaku="id,han,..." yakuman="id,..."
           doraHai=".." doraHaiUra=".." who="0" fromWho="1" sc="score,delta,...x4" owari=".."/>
    <RYUUKYOKU ba=".." sc=".." type="yao9" hai0=".."/>

Tiles are ids 0–135 (id // 4 the kind: 0–8 man, 9–17 pin, 18–26 sou, 27–33 East South West
North White Green Red); ids 16, 52 and 88 are the red fives where the room has them. Scores
are in hundreds.

The log is rebuilt as the tenhou.net/6 JSON log Tenhou's own viewer derives from it (the
per-seat take and discard lists, the result entry with Tenhou's yaku names and points
string) and read by :func:`paifu.notation.tenhou.from_data`: one reader of the plays, so
both formats agree with the log in the same way, and an error points at the XML element
(``file:line:col: I601 ...``) that holds the entry it could not place.
"""

from __future__ import annotations

import gzip
import io
import re
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote
from xml.parsers import expat

from .model import Record
from .tenhou import TenhouError, from_data

MAX_XML = 50 * 1024 * 1024
"""The largest mjlog read (a whole 東南戦 is some 20 kB; a gzip one is inflated up to this)."""

YAKU = ("門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
        "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
        "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻",
        "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色", "清一色", "人和",
        "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈",
        "国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ")
"""Tenhou's yaku by their mjlog id (0–54), spelt as its tenhou.net/6 logs spell them."""

LIMITS = {1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}
"""The third figure of an AGARI's ``ten``: the limit reached (0: none, fu and han count)."""

DAN = ("新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級", "初段", "二段", "三段", "四段",
       "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位")
"""The ``dan`` numbers of a UN element, as the tenhou.net/6 log names them."""

DRAWS, DISCARDS = "TUVW", "DEFG"
RED = {16: 51, 52: 52, 88: 53}
REF_RE = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}")
ABORTS = {"yao9": "九種九牌"}
REFUSED = {"nm": "流し満貫", "kan4": "四槓散了", "ron3": "三家和了", "reach4": "四家立直", "kaze4": "四風連打"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    line: int
    col: int


def elements(text: str, path: str = "") -> list[Element]:
    """Every element of the XML text in document order, with its line and column (expat,
    the standard library's parser; a DOCTYPE, and with it any entity, is refused)."""
    out: list[Element] = []
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        out.append(Element(tag, attrs, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1))

    def doctype(*_: Any) -> None:
        raise TenhouError("an mjlog has no DOCTYPE (nor entities): not read", "", parser.CurrentLineNumber,
                          parser.CurrentColumnNumber + 1, path)

    parser.StartElementHandler = start
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    try:
        parser.Parse(text, True)
    except expat.ExpatError as e:
        raise TenhouError(f"not XML: {expat.errors.messages[e.code]}", "", e.lineno, e.offset + 1, path) from None
    return out


def decode_bytes(data: bytes, path: str = "") -> str:
    """The XML text of an mjlog file as downloaded: plain UTF-8, or gzip-compressed."""
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
                data = handle.read(MAX_XML + 1)
        except (OSError, EOFError, zlib.error) as e:
            raise TenhouError(f"a gzip mjlog that cannot be inflated ({e})", "", 1, 1, path) from None
    if len(data) > MAX_XML:
        raise TenhouError(f"an mjlog of more than {MAX_XML // 2**20} MB: not read", "", 1, 1, path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise TenhouError(f"byte 0x{data[e.start]:02x} is not UTF-8", "", line, col, path) from None


# --------------------------------------------------------------------------- tiles and melds


def tile_number(tid: int, red: bool = True) -> int:
    """A tile id 0–135 as a tenhou.net/6 tile number (11–19 man ... 47 red; 51–53 the red
    fives, ids 16, 52 and 88, in a room that has them)."""
    if red and tid in RED:
        return RED[tid]
    kind = tid // 4
    suit, rank = divmod(kind, 9)
    return 41 + rank if suit == 3 else (suit + 1) * 10 + rank + 1


@dataclass
class Meld:
    """An ``N`` element's ``m`` decoded: the kind (chi, pon, added kan, kan, nuki), its tile
    ids, the called one, and where it came from (0 the caller, 1 the next seat, 2 across,
    3 the seat before, counted on four seats)."""

    kind: str
    tiles: list[int]
    called: int | None
    source: int


def decode_meld(m: int) -> Meld:
    """The public description of Tenhou's meld bits: bit 2 a chi, bit 3 a pon, bit 4 an
    added kan, bit 5 a nuki (the North in the high byte), otherwise a kan (closed when it
    comes from the caller); the low two bits say from whom."""
    source = m & 3
    if m & 0x4:  # chi: base run and the called tile's place, three 2-bit copy numbers
        t = m >> 10
        r, t = t % 3, t // 3
        base = (t // 7) * 9 + t % 7
        tiles = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return Meld("chi", tiles, tiles[r], source)
    if m & 0x18:  # pon or added kan: the unused (or added) copy, the called one's place
        unused = (m >> 5) & 3
        t = m >> 9
        r, kind = t % 3, t // 3
        copies = [c for c in range(4) if c != unused]
        tiles = [kind * 4 + c for c in copies]
        if m & 0x8:
            return Meld("pon", tiles, tiles[r], source)
        return Meld("added", tiles + [kind * 4 + unused], tiles[r], source)
    if m & 0x20:
        return Meld("nuki", [m >> 8], m >> 8, 0)
    tid = m >> 8
    kind = tid // 4
    tiles = [kind * 4 + c for c in range(4)]
    return Meld("kan" if source else "closed", tiles, tid if source else None, source)


def _call(letter: str, called: int, own: list[int], source: int) -> str:
    """The tenhou.net/6 string of a call: the called tile after the letter, at the place that
    names the seat it came from (first: the seat before; second: across; last: the next)."""
    parts = [str(t) for t in own]
    at = {3: 0, 2: 1, 1: len(own)}[source]
    parts.insert(at, f"{letter}{called}")
    return "".join(parts)


# --------------------------------------------------------------------------- the log


@dataclass
class Builder:
    """The tenhou.net/6 log being rebuilt, and where each of its entries came from."""

    path: str
    red: bool = True  # the room has red fives (GO type without 0x02)
    where: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    rounds: list[list] = field(default_factory=list)
    rnd: list | None = None
    oya: int = 0
    honba: int = 0
    last_draw: list[int | None] = field(default_factory=lambda: [None] * 4)
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    pons: dict[tuple[int, int], str] = field(default_factory=dict)
    wins: list = field(default_factory=list)

    def error(self, message: str, el: Element) -> TenhouError:
        where = f"round {len(self.rounds)} (log[{len(self.rounds) - 1}])" if self.rnd is not None else ""
        return TenhouError(message, where, el.line, el.col, self.path)

    def put(self, key: tuple, el: Element) -> None:
        self.where[key] = (el.line, el.col)

    def ints(self, el: Element, name: str, count: int | None = None) -> list[int]:
        raw = el.attrs.get(name)
        if raw is None:
            raise self.error(f"<{el.tag}> has no {name}=", el)
        try:
            out = [int(x) for x in raw.split(",")] if raw != "" else []
        except ValueError:
            raise self.error(f"<{el.tag} {name}=\"{raw[:40]}\">: not whole numbers", el) from None
        if count is not None and len(out) != count:
            raise self.error(f"<{el.tag} {name}=...> holds {len(out)} numbers, not {count}", el)
        return out

    def seat(self, el: Element, name: str = "who") -> int:
        (s,) = self.ints(el, name, 1)
        if not 0 <= s <= 3:
            raise self.error(f"<{el.tag} {name}=\"{s}\">: seats are 0–3", el)
        return s

    def tid(self, el: Element, value: int) -> int:
        if not 0 <= value <= 135:
            raise self.error(f"tile id {value} is not 0–135", el)
        return tile_number(value, self.red)

    # -- one round ------------------------------------------------------------------------
    def init(self, el: Element) -> None:
        self.close(el)
        seed = self.ints(el, "seed", 6)
        ten = self.ints(el, "ten", 4)
        (self.oya,) = self.ints(el, "oya", 1)
        kyoku, honba, sticks = seed[:3]
        self.honba = honba
        index = len(self.rounds)
        hands = []
        for s in range(4):
            hands.append([self.tid(el, t) for t in self.ints(el, f"hai{s}")] if el.attrs.get(f"hai{s}") else [])
        self.rnd = [[kyoku, honba, sticks], [100 * x for x in ten], [self.tid(el, seed[5])], []]
        for s in range(4):
            self.rnd += [hands[s], [], []]
        self.rnd.append(None)
        self.rounds.append(self.rnd)
        for key in ((), (0,), (1,), (2, 0)) + tuple((4 + 3 * s,) for s in range(4)):
            self.put(("log", index) + key, el)
        self.last_draw = [None] * 4
        self.riichi = [False] * 4
        self.pons = {}
        self.wins = []

    def need_round(self, el: Element) -> list:
        if self.rnd is None:
            raise self.error(f"<{el.tag}> before the first <INIT>: no round is being played", el)
        if self.rnd[-1] is not None:
            raise self.error(f"<{el.tag}> after the round's result", el)
        return self.rnd

    def take(self, seat: int, entry: Any, el: Element) -> None:
        rnd = self.need_round(el)
        lst = rnd[5 + 3 * seat]
        self.put(("log", len(self.rounds) - 1, 5 + 3 * seat, len(lst)), el)
        lst.append(entry)

    def drop(self, seat: int, entry: Any, el: Element) -> None:
        rnd = self.need_round(el)
        lst = rnd[6 + 3 * seat]
        self.put(("log", len(self.rounds) - 1, 6 + 3 * seat, len(lst)), el)
        lst.append(entry)

    def draw(self, seat: int, tid: int, el: Element) -> None:
        self.take(seat, self.tid(el, tid), el)
        self.last_draw[seat] = tid

    def discard(self, seat: int, tid: int, el: Element) -> None:
        number = self.tid(el, tid)
        value: Any = 60 if tid == self.last_draw[seat] else number
        if self.riichi[seat]:
            value = f"r{value}"
            self.riichi[seat] = False
        self.drop(seat, value, el)
        self.last_draw[seat] = None

    def meld(self, el: Element) -> None:
        who = self.seat(el)
        (m,) = self.ints(el, "m", 1)
        meld = decode_meld(m)
        if any(not 0 <= t <= 135 for t in meld.tiles):
            raise self.error(f"<N m=\"{m}\"> decodes to no tile", el)
        nums = [tile_number(t, self.red) for t in meld.tiles]
        if meld.kind == "chi":
            raise self.error(f"<N who=\"{who}\" m=\"{m}\"> is a chi: three-player mahjong has no chi", el)
        if meld.kind == "nuki":
            if meld.tiles[0] // 4 != 30:
                raise self.error(f"<N who=\"{who}\" m=\"{m}\"> sets aside tile id {meld.tiles[0]}: only a North is nuki", el)
            self.drop(who, "f44", el)
            self.last_draw[who] = None
            return
        if meld.kind == "closed":
            four = sorted(nums, reverse=True)
            self.drop(who, "".join(str(t) for t in four[:3]) + f"a{four[3]}", el)
            self.last_draw[who] = None
            return
        if meld.kind == "added":
            pon = self.pons.pop((who, meld.tiles[0] // 4), None)
            if pon is None:
                raise self.error(f"<N who=\"{who}\" m=\"{m}\"> adds to a pon seat {who} never made", el)
            self.drop(who, pon.replace("p", f"k{nums[3]}", 1), el)
            self.last_draw[who] = None
            return
        assert meld.called is not None
        own = [tile_number(t, self.red) for t in meld.tiles if t != meld.called]
        if (who + meld.source) % 4 == who:
            raise self.error(f"<N who=\"{who}\" m=\"{m}\"> calls its own discard", el)
        if meld.kind == "pon":
            text = _call("p", tile_number(meld.called, self.red), own, meld.source)
            self.pons[(who, meld.called // 4)] = text
            self.take(who, text, el)
        else:
            self.take(who, _call("m", tile_number(meld.called, self.red), own, meld.source), el)
            self.drop(who, 0, el)
        self.last_draw[who] = None

    def agari(self, el: Element) -> None:
        rnd = self.need_round(el)
        who, frm = self.seat(el), self.seat(el, "fromWho")
        pao = self.seat(el, "paoWho") if "paoWho" in el.attrs else who
        fu, points, limit = self.ints(el, "ten", 3)
        sc = self.ints(el, "sc", 8)
        deltas = [100 * sc[2 * s + 1] for s in range(4)]
        yaku: list[str] = []
        han = 0
        if el.attrs.get("yaku"):
            pairs = self.ints(el, "yaku")
            for k in range(0, len(pairs) - 1, 2):
                yid, n = pairs[k], pairs[k + 1]
                if not 0 <= yid < len(YAKU):
                    raise self.error(f"<AGARI yaku=...> names yaku {yid}: Tenhou's are 0–{len(YAKU) - 1}", el)
                han += n
                if n:
                    yaku.append(f"{YAKU[yid]}({n}飜)")
        for yid in self.ints(el, "yakuman") if el.attrs.get("yakuman") else []:
            if not 0 <= yid < len(YAKU):
                raise self.error(f"<AGARI yakuman=...> names yaku {yid}: Tenhou's are 0–{len(YAKU) - 1}", el)
            yaku.append(f"{YAKU[yid]}(役満)")
        if limit and limit not in LIMITS:
            raise self.error(f"<AGARI ten=\"{fu},{points},{limit}\">: the limit is 0–5", el)
        name = LIMITS.get(limit, "")
        if name == "役満" and not el.attrs.get("yakuman"):
            name = "数え役満"
        head = name if name else f"{fu}符{han}飜"
        if who != frm:
            text = f"{head}{points}点"
        elif who == self.oya:
            text = f"{head}{points // 2}点∀"
        else:
            paid = sorted(-deltas[s] - 100 * self.honba for s in range(3) if s != who)
            text = f"{head}{paid[0]}-{paid[1]}点"
        self.wins += [deltas, [who, frm, pao, text, *yaku]]
        if el.attrs.get("doraHaiUra"):
            rnd[3] = [self.tid(el, t) for t in self.ints(el, "doraHaiUra")]
            self.put(("log", len(self.rounds) - 1, 3), el)
        self.put(("log", len(self.rounds) - 1, 16), el)

    def ryuukyoku(self, el: Element) -> None:
        rnd = self.need_round(el)
        kind = el.attrs.get("type", "")
        index = len(self.rounds) - 1
        self.put(("log", index, 16), el)
        if kind in REFUSED:
            raise self.error(f"<RYUUKYOKU type=\"{kind}\"> ({REFUSED[kind]}) is not supported: docs/import.md", el)
        sc = self.ints(el, "sc", 8) if "sc" in el.attrs else [0] * 8
        deltas = [100 * sc[2 * s + 1] for s in range(4)]
        if kind in ABORTS:
            rnd[-1] = [ABORTS[kind]]
        elif kind:
            raise self.error(f"<RYUUKYOKU type=\"{kind}\"> is not a kind of draw paifu knows", el)
        else:
            tenpai = sum(f"hai{s}" in el.attrs for s in range(3))
            rnd[-1] = [{3: "全員聴牌", 0: "全員不聴"}.get(tenpai, "流局"), deltas]

    def close(self, el: Element) -> None:
        """The round's result, once its last AGARI (a double ron writes two) is read."""
        if self.rnd is not None and self.rnd[-1] is None:
            if not self.wins:
                raise self.error("a round ends without <AGARI> or <RYUUKYOKU>", el)
            self.rnd[-1] = ["和了", *self.wins]
        self.wins = []


def read_mjlog(text: str, path: str = "") -> Record:
    """An mjlog XML text as a paifu ``sanma`` record under ``rules=tenhou``."""
    els = elements(text, path)
    if not els or els[0].tag != "mjloggm":
        at = els[0] if els else Element("", {}, 1, 1)
        raise TenhouError(f"an mjlog's root element is <mjloggm>, not <{at.tag}>", "", at.line, at.col, path)
    b = Builder(path)
    data: dict[str, Any] = {"ver": els[0].attrs.get("ver", "2.3")}
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    found = REF_RE.search(name)
    if found:
        data["ref"] = found.group(0)
    final: Element | None = None
    named = False
    for el in els[1:]:
        tag = el.tag
        if tag == "GO":
            data.update(_room(b, el))
        elif tag == "UN" and not named and "dan" in el.attrs:
            named = True
            data["name"] = [unquote(el.attrs.get(f"n{s}", "")) for s in range(4)]
            b.put(("name",), el)
            dan = b.ints(el, "dan", 4)
            data["dan"] = [DAN[d] if 0 <= d < len(DAN) else str(d) for d in dan]
            data["rate"] = [_number(b, el, "rate", x) for x in el.attrs.get("rate", "").split(",") if x]
            data["sx"] = el.attrs.get("sx", "").split(",") if el.attrs.get("sx") else []
        elif tag == "INIT":
            b.init(el)
        elif len(tag) > 1 and tag[0] in DRAWS and tag[1:].isdigit():
            b.draw(DRAWS.index(tag[0]), int(tag[1:]), el)
        elif len(tag) > 1 and tag[0] in DISCARDS and tag[1:].isdigit():
            b.discard(DISCARDS.index(tag[0]), int(tag[1:]), el)
        elif tag == "N":
            b.meld(el)
        elif tag == "REACH":
            if b.ints(el, "step", 1) == [1]:
                b.need_round(el)
                b.riichi[b.seat(el)] = True
        elif tag == "DORA":
            rnd = b.need_round(el)
            (hai,) = b.ints(el, "hai", 1)
            b.put(("log", len(b.rounds) - 1, 2, len(rnd[2])), el)
            rnd[2].append(b.tid(el, hai))
        elif tag == "AGARI":
            b.agari(el)
        elif tag == "RYUUKYOKU":
            b.ryuukyoku(el)
        if "owari" in el.attrs:
            final = el
    if b.rnd is not None:
        b.close(els[-1])
    if final is not None:
        owari = [_number(b, final, "owari", x) for x in final.attrs["owari"].split(",")]
        data["sc"] = [round(100 * x) if k % 2 == 0 else x for k, x in enumerate(owari)]  # scores in hundreds
        for k in range(len(data["sc"])):
            b.put(("sc", k), final)
    data["log"] = b.rounds
    b.put(("log",), els[0])

    def locate(p: tuple) -> tuple[int, int]:
        while p and p not in b.where:
            p = p[:-1]
        return b.where.get(p, (els[0].line, els[0].col))

    return from_data(data, locate, path)


def _room(b: Builder, el: Element) -> dict[str, Any]:
    """The GO element: the room and rules as a tenhou.net/6 ``rule`` (``disp`` as Tenhou's
    own logs write it, e.g. 三鳳南喰赤) and ``lobby``; a four-player room is refused."""
    (kind,) = b.ints(el, "type", 1)
    if not kind & 0x10:
        raise b.error(f"<GO type=\"{kind}\">: a four-player game (no three-player flag 0x10); paifu imports sanma logs", el)
    room = {0x00: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}[kind & 0xA0]
    red = 0 if kind & 0x02 else 1
    b.red = bool(red)
    disp = "三" + room + ("南" if kind & 0x08 else "東") + ("" if kind & 0x04 else "喰") + ("赤" if red else "") + ("速" if kind & 0x40 else "")
    out: dict[str, Any] = {"rule": {"disp": disp, "aka53": red, "aka52": red, "aka51": red}}
    if "lobby" in el.attrs:
        (out["lobby"],) = b.ints(el, "lobby", 1)
    b.put(("rule",), el)
    return out


def _number(b: Builder, el: Element, name: str, text: str) -> int | float:
    """A figure of a UN or owari attribute as written: ``66`` an int, ``18.0`` a float."""
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        raise b.error(f"<{el.tag} {name}=...> holds {text[:20]!r}, not a number", el) from None


__all__ = ["read_mjlog", "decode_bytes", "decode_meld", "elements", "tile_number", "YAKU"]
