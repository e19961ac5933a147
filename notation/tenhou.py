"""tenhou.net/6 JSON logs <-> paifu sanma records (formats only, no rules).

A tenhou.net/6 log (Tenhou, and Mahjong Soul through its exporters) is one JSON object:
``name`` (players), ``rule`` (``disp`` the lobby/rule name, ``aka51``..``aka53`` the red
fives), ``ref``, ``dan``, ``rate``, ``sx``, ``sc`` (final scores) and ``log``: one array per
round (kyoku)::

    [[kyoku, honba, sticks], [scores x4], [dora indicators], [ura indicators],
     hand0, takes0, discards0, hand1, takes1, discards1, hand2, ..., hand3, ..., result]

Three-player logs keep a dummy fourth seat (empty arrays, score 0). Tiles are numbers:
11-19 man, 21-29 pin, 31-39 sou, 41-47 East South West North White Green Red, 51/52/53
the red 5m/5p/5s. A take is a drawn tile or a call (``"p424242"`` a pon, ``"39m393939"`` an
open kong; the letter's place says from whom: 0 the seat before, 2 the one across, 4 (a
pon) or 6 (a kong) the one after, counted on four seats). A discard is a tile, 60 for the tile just drawn
(tsumogiri), ``"r45"`` a riichi discard, ``"f44"`` a North set aside (kita), ``"464646a46"``
a closed kong, ``"k52252525"`` an added kong, 0 the empty turn of an open kong.

The round is replayed turn by turn (as mjai-reviewer's convlog does) to put the seats'
separate lists in table order: one function per kind of entry (:func:`draw`,
:func:`discard`, :func:`call`, :func:`kita`, :func:`dora`, :func:`result`). What the reader
cannot place or map is a :class:`TenhouError` naming the round, the entry and where it
stands in the JSON text (``file:line:col``). The log's own results (deltas, yaku, points)
are kept in ``[%tenhou ...]`` comment commands for the replay side to compare
(``replay/mahjong/sanma/tenhou.py``); :func:`to_log` writes a record back as a tenhou.net/6 log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .model import CardsArg, Event, Hand, NumArg, OptionArg, Record, SeatArg, Tag, WordArg, comment_commands

SEATS = "ABC"
NORTH = 44
TSUMOGIRI = 60
ROUND_WINDS = "ESWN"
EXHAUSTIVE = ("流局", "全員聴牌", "全員不聴")
ABORTIVE = {"九種九牌": "nine_terminals"}
"""Abortive draws (途中流局) the sanma engine knows under ``rules=tenhou``; 四槓散了, 三家和了
and 流し満貫 are refused as not supported (the samples have none)."""


# --------------------------------------------------------------------------- errors and places


class TenhouError(ValueError):
    """An entry of the log that cannot be read or mapped: where it is and why."""

    def __init__(self, message: str, where: str = "", line: int = 0, col: int = 0, path: str = ""):
        self.message, self.where, self.line, self.col, self.path = message, where, line, col, path
        super().__init__(str(self))

    def __str__(self) -> str:
        place = f"{self.path or '<input>'}:{self.line}:{self.col}"
        return f"{place}: I601 {self.where + ': ' if self.where else ''}{self.message}"


def positions(text: str) -> dict[tuple, tuple[int, int]]:
    """(line, col) of every value of a JSON text, by its path of keys and indices."""
    out: dict[tuple, tuple[int, int]] = {}
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)

    def place(i: int) -> tuple[int, int]:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= i:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, i - starts[lo] + 1

    dec = json.JSONDecoder()

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, path: tuple) -> int:
        i = skip(i)
        out[path] = place(i)
        ch = text[i] if i < len(text) else ""
        if ch == "[":
            i = skip(i + 1)
            k = 0
            if text[i] == "]":
                return i + 1
            while True:
                i = skip(value(i, path + (k,)))
                k += 1
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        if ch == "{":
            i = skip(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key, i = dec.raw_decode(text, skip(i))
                i = skip(i) + 1  # the colon
                i = skip(value(i, path + (key,)))
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        _, end = dec.raw_decode(text, i)
        return end

    try:
        value(0, ())
    except (ValueError, IndexError):
        pass  # json.loads has accepted the text; a scan that stops early only loses places
    return out


# --------------------------------------------------------------------------- tiles


def tile(code: Any) -> str:
    """A tenhou tile number as a paifu tile code (``52`` -> ``0p``, ``44`` -> ``4z``)."""
    if isinstance(code, int) and not isinstance(code, bool):
        if code in (51, 52, 53):
            return "0" + "mps"[code - 51]
        suit, rank = divmod(code, 10)
        if 1 <= suit <= 3 and 1 <= rank <= 9:
            return f"{rank}{'mps'[suit - 1]}"
        if suit == 4 and 1 <= rank <= 7:
            return f"{rank}z"
    raise ValueError(f"{code!r} is not a tenhou tile number (11-19, 21-29, 31-39, 41-47, 51-53)")


def number(code: str) -> int:
    """A paifu tile code as a tenhou tile number (``0p`` -> 52)."""
    rank, suit = code[0], code[1]
    if rank == "0":
        return 51 + "mps".index(suit)
    return (1 + "mpsz".index(suit)) * 10 + int(rank)


def same_kind(a: str, b: str) -> bool:
    return a.replace("0", "5") == b.replace("0", "5")


# --------------------------------------------------------------------------- one round


@dataclass
class Call:
    """A call written in a take or discard entry: ``p``/``m``/``k``/``a`` (or ``c``), the
    called/added tile, the tiles from the hand, and the seat it came from (4-seat offset)."""

    kind: str
    tile: str
    own: list[str]
    offset: int  # 0 the seat before (kamicha), 2 across, 4 after; -1 for a closed kong


def parse_call(entry: str) -> Call:
    """Read ``"p424242"``, ``"4545p45"``, ``"39m393939"``, ``"k52252525"``, ``"464646a46"``."""
    for letter in "pmkac":
        at = entry.find(letter)
        if at >= 0:
            break
    else:
        raise ValueError(f"{entry!r} is no call: no p, m, k, a or c in it")
    if at % 2:
        raise ValueError(f"{entry!r}: the call letter must stand between two-digit tiles")
    digits = entry[:at] + entry[at + 1:]
    if len(digits) % 2 or not digits.isdigit():
        raise ValueError(f"{entry!r}: the tiles of a call are two-digit numbers")
    tiles = [tile(int(digits[i:i + 2])) for i in range(0, len(digits), 2)]
    called = tiles[at // 2]
    own = tiles[:at // 2] + tiles[at // 2 + 1:]
    if letter == "k":
        # the added tile follows the letter, the pon (called tile first by place) the rest
        return Call("k", called, own, -1)
    if letter == "a":
        return Call("a", called, own, -1)
    return Call(letter, called, own, at)


def written_call(c: Call) -> str:
    """The call string the exporter writes for ``c``: the tiles from the hand highest number
    first, the letter and the called tile at the place that names the discarder (a closed
    kong: three tiles, ``a``, the fourth)."""
    own = sorted((number(t) for t in c.own), reverse=True)
    if c.kind == "a":
        four = sorted(own + [number(c.tile)], reverse=True)
        return "".join(str(t) for t in four[:3]) + f"a{four[3]}"
    return _call_text(c.kind, number(c.tile), own, c.offset)


def call_comment(entry: str, c: Call) -> str | None:
    """``[%tenhou call=...]`` where the log orders a call's tiles otherwise than the exporter
    would (``35p3553``, not ``53p3535``): export writes the log's string back."""
    return None if written_call(c) == entry else f"[%tenhou call={entry}]"


@dataclass
class Round:
    """The reader's state for one round: the lists, a cursor in each, the events so far."""

    index: int
    data: list
    where: str
    locate: Any  # (path) -> (line, col)
    dealer: int
    takes: list[list] = field(default_factory=list)
    discards: list[list] = field(default_factory=list)
    ti: list[int] = field(default_factory=lambda: [0, 0, 0])
    di: list[int] = field(default_factory=lambda: [0, 0, 0])
    drawn: list[str | None] = field(default_factory=lambda: [None, None, None])
    events: list[Event] = field(default_factory=list)
    dora_shown: int = 1
    dora_due: int = 0  # open/added kongs whose indicator comes after the konger's discard
    riichi_pending: int | None = None  # the seat whose riichi discard has not yet passed
    sticks: list[int] = field(default_factory=lambda: [0, 0, 0])  # riichi sticks paid this round

    def error(self, message: str, path: tuple = ()) -> TenhouError:
        line, col = self.locate(("log", self.index) + path)
        return TenhouError(message, self.where, line, col)

    def take_path(self, seat: int, k: int) -> tuple:
        return (5 + 3 * seat, k)

    def disc_path(self, seat: int, k: int) -> tuple:
        return (6 + 3 * seat, k)


def _ev(seat: int | None, verb: str, *args: Any, comment: str | None = None) -> Event:
    out: list = []
    for a in args:
        if isinstance(a, str):
            out.append(CardsArg(cards=[a]) if a[:1].isdigit() else WordArg(text=a))
        else:
            out.append(a)
    return Event(seat=SEATS[seat] if seat is not None else None, verb=verb, args=out,
                 comments=[comment] if comment else [])


def draw(r: Round, seat: int) -> bool:
    """The seat's next take, a drawn tile: a ``draw`` event. False when the list is done."""
    k = r.ti[seat]
    if k >= len(r.takes[seat]):
        return False
    entry = r.takes[seat][k]
    if not isinstance(entry, int):
        raise r.error(f"seat {SEATS[seat]} takes {entry!r} where a drawn tile is due", r.take_path(seat, k))
    try:
        code = tile(entry)
    except ValueError as e:
        raise r.error(str(e), r.take_path(seat, k)) from None
    r.ti[seat] += 1
    r.drawn[seat] = code
    r.events.append(_ev(seat, "draw", code))
    return True


def dora(r: Round, n: int = 1) -> None:
    """The next ``n`` indicators of the log's dora list, as ``dora`` events (a closed kong's at
    once, an open or added kong's after the konger's discard). Indicators the log does not
    list were never turned (the round ended first)."""
    indicators = r.data[2]
    for _ in range(n):
        if r.dora_shown < len(indicators):
            try:
                code = tile(indicators[r.dora_shown])
            except ValueError as e:
                raise r.error(str(e), (2, r.dora_shown)) from None
            r.events.append(_ev(None, "dora", code))
            r.dora_shown += 1


def kita(r: Round, seat: int, k: int, entry: str) -> bool:
    """``f44``: a North set aside (抜きドラ), then the replacement draw; False when the round
    ends on it (the North is won on)."""
    if entry != "f44":
        raise r.error(f"seat {SEATS[seat]} sets aside {entry!r}: only a North (f44) is kita", r.disc_path(seat, k))
    r.events.append(_ev(seat, "nuki", "4z"))
    return draw(r, seat)


def discard(r: Round, seat: int, k: int, entry: Any) -> str:
    """A discard entry that is a discard: a tile, 60 (the tile just drawn) or ``rNN`` (riichi)."""
    riichi = isinstance(entry, str) and entry[:1] == "r"
    raw = entry[1:] if riichi else entry
    try:
        raw = int(raw)
    except (TypeError, ValueError):
        raise r.error(f"seat {SEATS[seat]} discards {entry!r}: not a tile", r.disc_path(seat, k)) from None
    comment = None
    if raw == TSUMOGIRI:
        if r.drawn[seat] is None:
            raise r.error(f"seat {SEATS[seat]} discards 60 (the tile just drawn) but drew none", r.disc_path(seat, k))
        code = r.drawn[seat]
        comment = "[%tsumogiri]"
    else:
        try:
            code = tile(raw)
        except ValueError as e:
            raise r.error(str(e), r.disc_path(seat, k)) from None
    assert code is not None
    r.events.append(_ev(seat, "riichi" if riichi else "discard", code, comment=comment))
    r.drawn[seat] = None
    if riichi:
        r.riichi_pending = seat
    return code


def call(r: Round, discarder: int, code: str) -> int | None:
    """A pon or open kong of the discard ``code``: the seat whose next take calls it (its
    letter's place pointing at the discarder); None when nobody calls."""
    for seat in range(3):
        if seat == discarder:
            continue
        k = r.ti[seat]
        if k >= len(r.takes[seat]) or not isinstance(r.takes[seat][k], str):
            continue
        entry = r.takes[seat][k]
        try:
            c = parse_call(entry)
        except ValueError as e:
            raise r.error(str(e), r.take_path(seat, k)) from None
        source = (seat + {0: 3, 2: 2, 4: 1, 6: 1}.get(c.offset, 0)) % 4
        if source != discarder or c.tile != code:
            continue  # a call of a later discard
        if c.kind == "c":
            raise r.error(f"seat {SEATS[seat]} calls chi {entry!r}: three-player mahjong has no chi", r.take_path(seat, k))
        if c.kind not in "pm":
            raise r.error(f"seat {SEATS[seat]} takes {entry!r}: only a pon or an open kong is taken from a discard",
                          r.take_path(seat, k))
        r.ti[seat] += 1
        r.drawn[seat] = None
        r.events.append(_ev(seat, "pon" if c.kind == "p" else "kong", code, comment=call_comment(entry, c)))
        if c.kind == "m":
            d = r.di[seat]
            if d >= len(r.discards[seat]) or r.discards[seat][d] != 0:
                raise r.error(f"seat {SEATS[seat]}'s open kong {entry!r} must be followed by 0 in its discards",
                              r.disc_path(seat, d))
            r.di[seat] += 1
            r.dora_due += 1
        return seat
    return None


def result(r: Round, how: str, last: int, tile_: str | None, after: list[int] | None) -> list[Event]:
    """The round's result entry: the winning events (``win tsumo``/``win ron``/``win rob``) with
    the log's own figures in ``[%tenhou ...]`` commands, or an exhaustive/abortive draw;
    the ``ura`` indicators; then the ``score`` line: how each seat's points moved, from this
    round's scores to the next round's (the final ``sc`` after the last), riichi sticks
    included, and the ``total`` line, those next scores. The log's own deltas (which leave
    out the sticks paid this round) are kept in the score line's ``[%tenhou deltas=...]``;
    where they and the scores' movement disagree beyond the sticks, a comment says so."""
    res = r.data[-1]
    path = (len(r.data) - 1,)
    if not isinstance(res, list) or not res or not isinstance(res[0], str):
        raise r.error(f"the result entry {res!r} is not [\"和了\"|\"流局\"|..., ...]", path)
    kind_ = res[0]
    out: list[Event] = []
    deltas_list: list[list[int]] = []
    if kind_ == "和了":
        if len(res) < 3 or len(res) % 2 == 0:
            raise r.error("a win result is [\"和了\", deltas, info, (deltas, info)...]", path)
        wins = [(res[i], res[i + 1]) for i in range(1, len(res), 2)]
        if how == "end":
            raise r.error("the log says 和了 but no seat could have won where its lists end", path)
        for j, (deltas, info) in enumerate(wins):
            if not (isinstance(info, list) and len(info) >= 4 and all(isinstance(x, int) for x in info[:3])):
                raise r.error(f"win info {info!r} is not [winner, from, pao, points, yaku...]", path + (2 + 2 * j,))
            who, frm, pao = info[:3]
            if not all(0 <= x < 3 for x in (who, frm)):
                raise r.error(f"win info names seat {who} from {frm}: a three-player log has seats 0-2", path + (2 + 2 * j,))
            if who == frm:
                if how != "tsumo" or who != last:
                    raise r.error(f"the log's tsumo by seat {SEATS[who]} is not where {SEATS[who]} has just drawn", path + (2 + 2 * j,))
                words = ("tsumo",)
            else:
                if how not in ("discard", "kakan", "ankan", "kita") or frm != last:
                    raise r.error(f"the log's win by {SEATS[who]} from {SEATS[frm]} is not on {SEATS[frm]}'s last tile", path + (2 + 2 * j,))
                words = ("ron",) if how == "discard" else ("rob",)
            assert tile_ is not None
            cmd = "[%tenhou " + " ".join(
                [f"win={SEATS[who]}", f"from={SEATS[frm]}"] + ([f"pao={SEATS[pao]}"] if pao != who and 0 <= pao < 3 else [])
                + ([f"deltas={','.join(f'{x:+d}' for x in deltas[:3])}"] if len(wins) > 1 and isinstance(deltas, list) else [])
                + [f"points={info[3]}"] + [f"yaku={y}" for y in info[4:]]) + "]"
            for bad in "{}[]":
                if bad in cmd[1:-1]:
                    raise r.error(f"the win info holds {bad!r}, which a comment command cannot keep", path + (2 + 2 * j,))
            out.append(_ev(who, "win", *words, tile_, comment=cmd))
            deltas_list.append(deltas)
        if r.riichi_pending is not None and how == "discard":
            r.riichi_pending = None  # a riichi discard won on: no stick
        ura = r.data[3]
        if ura:
            try:
                codes = [tile(t) for t in ura]
            except ValueError as e:
                raise r.error(str(e), (3,)) from None
            out.append(Event(verb="ura", args=[CardsArg(cards=codes)]))
    elif kind_ in EXHAUSTIVE:
        if how != "end":
            raise r.error(f"the log says {kind_} but seat {SEATS[last]} still had a turn to play", path)
        deltas_list = [res[1]] if len(res) > 1 else []
    elif kind_ in ABORTIVE:
        if how != "tsumo":
            raise r.error(f"{kind_} is declared by the seat that has just drawn", path)
        out.append(_ev(last, "abort", ABORTIVE[kind_], comment=f"[%tenhou result={kind_}]"))
        deltas_list = [res[1]] if len(res) > 1 else []
    else:
        raise r.error(f"the result {kind_!r} is not supported (known: 和了, {', '.join(EXHAUSTIVE)}, {', '.join(ABORTIVE)})", path)
    if r.riichi_pending is not None:
        r.sticks[r.riichi_pending] += 1000
        r.riichi_pending = None
    total = [0, 0, 0]
    for deltas in deltas_list:
        if not (isinstance(deltas, list) and len(deltas) >= 3 and all(isinstance(x, int) for x in deltas)):
            raise r.error(f"the deltas {deltas!r} are not four whole numbers", path)
        if len(deltas) > 3 and deltas[3]:
            raise r.error(f"the dummy fourth seat has a delta {deltas[3]}", path)
        for s in range(3):
            total[s] += deltas[s]
    before = r.data[1]
    moved = [after[s] - before[s] for s in range(3)] if after is not None else [total[s] - r.sticks[s] for s in range(3)]
    args: list = []
    raw = []
    for s in range(3):
        args += [WordArg(text=SEATS[s]), NumArg(value=moved[s], signed=True)]
        raw.append(f"{total[s]:+d}")
    comments = [f"[%tenhou result={kind_} deltas={','.join(raw)}]" if kind_ != "和了" else f"[%tenhou deltas={','.join(raw)}]"]
    odd = [SEATS[s] for s in range(3) if moved[s] != total[s] - r.sticks[s]]
    if odd:
        comments.append(f"the log's deltas less this round's riichi sticks ({', '.join(f'{SEATS[s]} {total[s] - r.sticks[s]:+d}' for s in range(3))}) "
                        f"differ from its scores' movement for {', '.join(odd)}: the score line follows the scores")
    out.append(Event(verb="score", args=args, comments=comments))
    if after is not None:
        tot: list = []
        for s in range(3):
            tot += [WordArg(text=SEATS[s]), NumArg(value=after[s], signed=after[s] < 0)]
        out.append(Event(verb="total", args=tot))
    return out


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_shape(r: Round) -> None:
    """Each entry of the round of the type the format gives it (before anything is read)."""
    data = r.data
    if not (isinstance(data[1], list) and len(data[1]) == 4 and all(_is_int(x) for x in data[1])):
        raise r.error(f"the scores {data[1]!r} are not four whole numbers", (1,))
    if data[1][3]:
        raise r.error(f"the fourth seat starts the round with {data[1][3]} points: a four-player game, not a three-player log",
                      (1, 3))
    for j, what in ((2, "dora indicators"), (3, "ura indicators")):
        if not isinstance(data[j], list) or not all(_is_int(x) for x in data[j]):
            raise r.error(f"the {what} {data[j]!r} are not a list of tiles", (j,))
    for s in range(4):
        for j, what in ((4, "hand"), (5, "takes"), (6, "discards")):
            entry = data[j + 3 * s]
            if not isinstance(entry, list):
                raise r.error(f"seat {s}'s {what} {entry!r} is not a list", (j + 3 * s,))
            for k, x in enumerate(entry):
                if not (_is_int(x) or (isinstance(x, str) and what != "hand")):
                    raise r.error(f"seat {s}'s {what} entry {x!r} is neither a tile number nor a call", (j + 3 * s, k))


def read_round(index: int, data: Any, locate: Any, after: list[int] | None = None) -> Hand:
    """One round of the log as a paifu hand."""
    where = f"round {index + 1} (log[{index}])"
    if not isinstance(data, list) or len(data) != 17:
        line, col = locate(("log", index))
        raise TenhouError("a round is 17 entries: [kyoku, honba, sticks], scores, dora, ura, 4 × (hand, takes, discards), result",
                          where, line, col)
    head = data[0]
    if not (isinstance(head, list) and len(head) == 3 and all(isinstance(x, int) for x in head)):
        line, col = locate(("log", index, 0))
        raise TenhouError(f"{head!r} is not [kyoku, honba, sticks]", where, line, col)
    kyoku, honba, sticks = head
    wind, dealer = divmod(kyoku, 4)
    where = f"{ROUND_WINDS[wind % 4]}{dealer + 1}-{honba} (log[{index}])"
    r = Round(index, data, where, locate, dealer)
    if dealer > 2 or wind > 2:  # East, South, and the West round a 東南戦 enters (西入) when nobody has 40000
        raise r.error(f"kyoku {kyoku} is not a round of East, South or West with dealer seat 0-2", (0, 0))
    _check_shape(r)
    if not (isinstance(data[16], list) and data[16] and isinstance(data[16][0], str)):
        raise r.error(f"the result {data[16]!r} is not [\"和了\"|\"流局\"|..., ...]", (16,))
    if data[13] or data[14] or data[15]:
        raise r.error("the fourth seat plays: this is not a three-player log", (13,))
    r.takes = [list(data[5 + 3 * s]) for s in range(3)]
    r.discards = [list(data[6 + 3 * s]) for s in range(3)]
    scores = data[1]
    hand = Hand(args=[NumArg(value=index + 1), OptionArg(key="dealer", value=SEATS[dealer]),
                      OptionArg(key="round", value=ROUND_WINDS[wind]), OptionArg(key="honba", value=str(honba)),
                      OptionArg(key="pot", value=str(1000 * sticks))],
                comments=[f"[%tenhou kyoku={kyoku} honba={honba} sticks={sticks} scores={','.join(str(x) for x in scores)}"
                          + (f" first={tile(r.takes[dealer][0])}]" if r.takes[dealer] and isinstance(r.takes[dealer][0], int) else "]")])
    events = r.events
    for s in range(3):
        dealt = data[4 + 3 * s]
        codes = []
        for k, t in enumerate(dealt):
            try:
                codes.append(tile(t))
            except ValueError as e:
                raise r.error(str(e), (4 + 3 * s, k)) from None
        if len(codes) != 13:
            raise r.error(f"seat {SEATS[s]} is dealt {len(codes)} tiles, not 13", (4 + 3 * s,))
        if s == dealer:
            if not r.takes[s] or not isinstance(r.takes[s][0], int):
                raise r.error("the dealer's first take is his fourteenth tile", r.take_path(s, 0))
            first = tile(r.takes[s][0])
            codes.append(first)
            r.ti[s] = 1
            r.drawn[s] = first
        codes.sort(key=lambda c: (number(c) % 10 == 5 and number(c) > 50, 0) and (number(c.replace("0", "5")) + 0.5) or number(c))
        events.append(Event(verb="deal", args=[SeatArg(seat=SEATS[s]), CardsArg(cards=codes)]))
    if not data[2]:
        raise r.error("no dora indicator", (2,))
    try:
        events.append(_ev(None, "dora", tile(data[2][0])))
    except ValueError as e:
        raise r.error(str(e), (2, 0)) from None
    actor = dealer
    how, last, last_tile = "end", actor, None
    while True:
        k = r.di[actor]
        if k >= len(r.discards[actor]):
            # the actor drew and played nothing: a tsumo (or an abortive draw) ends the round
            how, last, last_tile = "tsumo", actor, r.drawn[actor]
            break
        entry = r.discards[actor][k]
        r.di[actor] += 1
        if isinstance(entry, str) and entry.startswith("f"):
            if not kita(r, actor, k, entry):
                how, last, last_tile = "kita", actor, "4z"
                break
            continue
        if isinstance(entry, str) and ("a" in entry or "k" in entry):
            try:
                c = parse_call(entry)
            except ValueError as e:
                raise r.error(str(e), r.disc_path(actor, k)) from None
            r.events.append(_ev(actor, "kong", c.tile, comment=call_comment(entry, c) if c.kind == "a" else None))
            if c.kind != "a":
                r.dora_due += 1
            if not draw(r, actor):
                how, last, last_tile = ("ankan" if c.kind == "a" else "kakan"), actor, c.tile
                break
            if c.kind == "a":  # a closed kong's indicator, once nobody robbed it (after the replacement draw);
                dora(r, r.dora_due + 1)  # an open kong's still due comes first
                r.dora_due = 0
            continue
        if isinstance(entry, str) and entry[:1] not in ("r",):
            raise r.error(f"seat {SEATS[actor]} plays {entry!r}: not a discard, riichi, kita or kong", r.disc_path(actor, k))
        if entry == 0:
            raise r.error(f"seat {SEATS[actor]} has 0 (an open kong's empty turn) where a discard is due", r.disc_path(actor, k))
        code = discard(r, actor, k, entry)
        if r.dora_due:
            dora(r, r.dora_due)
            r.dora_due = 0
        caller = call(r, actor, code)
        if caller is not None:
            if r.riichi_pending is not None:
                r.sticks[r.riichi_pending] += 1000
                r.riichi_pending = None
            actor = caller
            if r.events[-1].verb == "kong":
                if not draw(r, actor):
                    raise r.error(f"seat {SEATS[actor]}'s open kong has no replacement draw", r.take_path(actor, r.ti[actor]))
            continue
        nxt = (actor + 1) % 3
        if all(r.ti[s] >= len(r.takes[s]) for s in range(3)) and all(r.di[s] >= len(r.discards[s]) for s in range(3)):
            how, last, last_tile = ("discard" if data[16][:1] == ["和了"] else "end"), actor, code
            break
        if r.riichi_pending is not None:
            r.sticks[r.riichi_pending] += 1000
            r.riichi_pending = None
        if not draw(r, nxt):
            raise r.error(f"seat {SEATS[nxt]} is to draw but its takes are done while other lists go on",
                          r.take_path(nxt, r.ti[nxt]))
        actor = nxt
    for s in range(3):
        if r.ti[s] < len(r.takes[s]):
            raise r.error(f"seat {SEATS[s]}'s take {r.takes[s][r.ti[s]]!r} is never reached", r.take_path(s, r.ti[s]))
        if r.di[s] < len(r.discards[s]):
            raise r.error(f"seat {SEATS[s]}'s discard {r.discards[s][r.di[s]]!r} is never reached", r.disc_path(s, r.di[s]))
    events.extend(result(r, how, last, last_tile, after))
    hand.events = events
    return hand


# --------------------------------------------------------------------------- the whole log


def read_log(text: str, path: str = "") -> Record:
    """A tenhou.net/6 JSON text as a paifu ``sanma`` record under ``rules=tenhou``."""
    from .jsonform import JsonFault, line_col, loads

    try:
        data = loads(text)  # as paifu reads JSON: half a surrogate pair, a key twice, 5000 digits refused
    except JsonFault as e:
        raise TenhouError(e.message, "", *line_col(text, e.offset), path) from None
    where = positions(text)

    def locate(p: tuple) -> tuple[int, int]:
        while p and p not in where:
            p = p[:-1]
        return where.get(p, (1, 1))

    try:
        return _record(data, locate)
    except TenhouError as e:
        e.path = path
        raise


def from_data(data: Any, locate: Any, path: str = "") -> Record:
    """A tenhou.net/6 log already decoded (by :func:`read_log`, or built from another format
    such as Tenhou's mjlog XML, :mod:`paifu.notation.mjlog`) as a paifu record; ``locate``
    gives the (line, col) in the source text of a path of keys and indices into ``data``."""
    try:
        return _record(data, locate)
    except TenhouError as e:
        e.path = path
        raise


def _record(data: Any, locate: Any) -> Record:
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise TenhouError("a tenhou.net/6 log is an object with a 'log' array", "", *locate(()))
    names = data.get("name") or ["", "", "", ""]
    if not isinstance(names, list) or len(names) != 4 or names[3]:
        raise TenhouError("'name' must list four seats with the fourth empty (a three-player log)", "", *locate(("name",)))
    known = {"ver", "ref", "log", "ratingc", "rule", "lobby", "dan", "rate", "sx", "sc", "name", "title", "_target_actor"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TenhouError(f"unknown log field(s) {', '.join(map(repr, unknown))}: not mapped", "", *locate((unknown[0],)))
    rule = data.get("rule") or {}
    if not isinstance(rule, dict) or set(rule) - {"disp", "aka", "aka51", "aka52", "aka53"}:
        raise TenhouError(f"rule {rule!r}: only disp, aka, aka51..aka53 are known", "", *locate(("rule",)))
    aka = {k: int(rule.get(k, rule.get("aka", 0))) for k in ("aka51", "aka52", "aka53")}
    tags = [Tag(name="Game", value="sanma"),
            Tag(name="Players", value="; ".join(f"{SEATS[i]}: {_clean(names[i]) or SEATS[i]}" for i in range(3))),
            Tag(name="Option", value="rules=tenhou")]
    tags += [Tag(name="Option", value=f"{k}={v}") for k, v in aka.items()]
    if is_majsoul(rule):  # Mahjong Soul's ranked rules: 国士無双十三面, 純正九蓮宝燈, 四暗刻単騎, 大四喜 are double
        tags.append(Tag(name="Option", value="double_yakuman=yes"))
    ref = data.get("ref") or ""
    if ref:
        tags.append(Tag(name="Site", value=f"tenhou.net/0/?log={ref}"))
        if len(ref) >= 10 and ref[:10].isdigit():
            tags.append(Tag(name="Date", value=f"{ref[0:4]}.{ref[4:6]}.{ref[6:8]}"))
    tags.append(Tag(name="Event", value=str(rule.get("disp", ""))))
    meta = {k: data[k] for k in ("ver", "ref", "ratingc", "lobby", "dan", "rate", "sx", "sc", "title", "_target_actor") if k in data}
    meta["rule"] = rule
    if any(_clean(names[i]) != names[i] or not names[i] for i in range(3)):
        meta["name"] = names  # the names as written, where the Players tag had to change them
    tags.append(Tag(name="TenhouLog", value=json.dumps(meta, ensure_ascii=False, separators=(",", ":"))))
    rounds = data["log"]
    if not rounds:
        raise TenhouError("the log holds no round ('log' is empty): there is nothing to import", "", *locate(("log",)))
    final = data.get("sc")
    if isinstance(final, list) and len(final) >= 8 and final[6]:
        raise TenhouError(f"the final scores 'sc' give the fourth seat {final[6]}: a four-player game, not a three-player log",
                          "", *locate(("sc", 6)))
    ends: list[list[int] | None] = []
    for i in range(len(rounds)):
        nxt = rounds[i + 1] if i + 1 < len(rounds) else None
        if isinstance(nxt, list) and len(nxt) > 1 and isinstance(nxt[1], list) and len(nxt[1]) >= 3 \
                and all(_is_int(x) for x in nxt[1][:3]):
            ends.append([int(x) for x in nxt[1][:3]])
        elif nxt is None and isinstance(final, list) and len(final) >= 6 and all(isinstance(final[2 * s], (int, float)) for s in range(3)):
            ends.append([int(final[2 * s]) for s in range(3)])  # sc: score, result per seat
        else:
            ends.append(None)
    hands = []
    for i, rnd in enumerate(rounds):
        try:
            hands.append(read_round(i, rnd, locate, ends[i]))
        except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
            if isinstance(exc, TenhouError):
                raise
            raise TenhouError(f"the round cannot be read ({type(exc).__name__}: {exc})", f"round {i + 1} (log[{i}])",
                              *locate(("log", i))) from None
    return Record(tags=tags, hands=hands)


def _clean(name: str) -> str:
    return "".join(ch for ch in str(name) if ch not in ";\"\\").strip()


MAJSOUL_ROOMS = ("銅の間", "銀の間", "金の間", "玉の間", "王座の間")


def is_majsoul(rule: dict) -> bool:
    """Whether the log is a Mahjong Soul game: its ``rule.disp`` names one of Mahjong Soul's
    ranked rooms (三銀の間赤, 三玉の間赤...); Tenhou's name its own (三鳳南喰赤)."""
    disp = str(rule.get("disp", ""))
    return any(room in disp for room in MAJSOUL_ROOMS)


# --------------------------------------------------------------------------- back to a log


def commands(event: Event | Hand, name: str = "tenhou") -> dict[str, list[str]]:
    """The ``[%tenhou k=v ...]`` commands of a node's comments, as key -> values."""
    out: dict[str, list[str]] = {}
    for c in event.comments:
        for cmd, args in comment_commands(c):
            if cmd != name:
                continue
            for part in _split_args(args):
                key, _, value = part.partition("=")
                out.setdefault(key, []).append(value)
    return out


def _split_args(args: str) -> list[str]:
    """Split ``win=C points=30符4飜3900点 yaku=役牌 中(1飜) yaku=...`` at each ``key=``."""
    import re

    starts = [m.start() for m in re.finditer(r"(?:^|\s)[a-z_]+=", args)]
    parts = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(args)
        parts.append(args[s:end].strip())
    return parts


def _offset(caller: int, source: int, kong: bool) -> int:
    """The place of the call letter for a call by ``caller`` on ``source``'s discard."""
    rel = (source - caller) % 4  # on four seats: 3 the seat before, 2 across, 1 after
    return {3: 0, 2: 2, 1: 6 if kong else 4}[rel]


def _call_text(letter: str, called: int, own: list[int], offset: int) -> str:
    parts = [f"{t}" for t in own]
    at = offset // 2
    parts.insert(at, f"{letter}{called}")
    return "".join(parts)


def pick(hand: list[str], code: str) -> str:
    """The tile a claim takes from a hand: the one named, else its red/plain twin."""
    twin = {"5p": "0p", "0p": "5p", "5s": "0s", "0s": "5s", "5m": "0m", "0m": "5m"}.get(code)
    for c in (code, twin):
        if c is not None and c in hand:
            hand.remove(c)
            return c
    raise ValueError(f"{code} is not in the hand {' '.join(hand)}")


def kept_call(ev: Event, letter: str, code: str, offset: int, hand: list[str]) -> str | None:
    """The call string kept by the importer (``[%tenhou call=...]``) when it is this call (its
    kind, tile and place) and its tiles are in the hand, which gives them up; else None."""
    kept = commands(ev).get("call")
    if not kept:
        return None
    try:
        c = parse_call(kept[0])
    except ValueError:
        return None
    tiles = c.own + ([c.tile] if letter == "a" else [])
    rest = list(hand)
    for t in tiles:
        if t not in rest:
            return None
        rest.remove(t)
    if c.kind != letter or not (c.tile == code if letter in "pm" else same_kind(c.tile, code)) or c.offset != offset or len(tiles) != (4 if letter == "a" else 2 if letter == "p" else 3):
        return None
    hand[:] = rest
    return kept[0]


def _open_call(ev: Event, letter: str, code: str, offset: int, hand: list[str]) -> str:
    """A pon's or open kong's call string: the one the importer kept, else the named tile (then
    its twin) taken from the hand, highest number first."""
    text = kept_call(ev, letter, code, offset, hand)
    if text is None:
        own = sorted((number(pick(hand, code)) for _ in range(2 if letter == "p" else 3)), reverse=True)
        text = _call_text(letter, number(code), own, offset)
    return text


def hand_to_round(hand: Hand, before: list[int] | None) -> list:
    """One paifu sanma hand as a tenhou.net/6 round (what the record says; figures kept in
    ``[%tenhou ...]`` commands are written back as they were)."""
    head = commands(hand)
    dealer = SEATS.index(hand.attr("dealer").value) if hand.attr("dealer") else 0  # type: ignore[union-attr]
    rnd = hand.attr("round")
    wind = ROUND_WINDS.index(rnd.value) if rnd is not None and rnd.value in ROUND_WINDS[:3] else 0
    kyoku = int(head["kyoku"][0]) if "kyoku" in head else 4 * wind + dealer
    honba_attr = hand.attr("honba")
    honba = int(honba_attr.value) if honba_attr else 0
    pot = hand.attr("pot")
    sticks = int(pot.value) // 1000 if pot else 0
    scores = [int(x) for x in head["scores"][0].split(",")] if "scores" in head else (before or [35000] * 3) + [0]
    scores = (scores + [0])[:4]
    dealt: list[list[str]] = [[], [], []]
    takes: list[list] = [[], [], []]
    discards: list[list] = [[], [], []]
    held: list[list[str]] = [[], [], []]
    pons: dict[tuple[int, str], str] = {}
    dora: list[int] = []
    ura: list[int] = []
    wins: list[tuple[Event, dict[str, list[str]]]] = []
    last_discard: tuple[int, str] | None = None
    result_event: Event | None = None
    abort: Event | None = None
    prev: Event | None = None
    for ev in hand.events:
        seat = SEATS.index(ev.seat) if ev.seat else None
        codes = ev.cards()
        if ev.verb == "deal":
            s = SEATS.index(next(a.seat for a in ev.args if isinstance(a, SeatArg)))
            dealt[s] = list(codes)
            held[s] = list(codes)
            if s == dealer:
                first = head.get("first", [codes[-1]])[0]
                rest = list(codes)
                rest.remove(first)
                dealt[s] = rest
                takes[s].append(number(first))
        elif ev.verb == "dora":
            dora.extend(number(c) for c in codes)
        elif ev.verb == "ura":
            ura.extend(number(c) for c in codes)
        elif ev.verb == "draw" and seat is not None:
            takes[seat].append(number(codes[0]))
            held[seat].append(codes[0])
        elif ev.verb in ("discard", "riichi") and seat is not None:
            code = codes[0]
            tsumogiri = any(cmd == "tsumogiri" for c in ev.comments for cmd, _ in comment_commands(c))
            value: Any = TSUMOGIRI if tsumogiri else number(code)
            discards[seat].append(f"r{value}" if ev.verb == "riichi" else value)
            pick(held[seat], code)
            last_discard = (seat, code)
        elif ev.verb == "nuki" and seat is not None:
            discards[seat].append("f44")
            pick(held[seat], "4z")
        elif ev.verb == "pon" and seat is not None and last_discard is not None:
            source, code = last_discard
            text = _open_call(ev, "p", code, _offset(seat, source, False), held[seat])
            takes[seat].append(text)
            pons[(seat, code.replace("0", "5"))] = text
        elif ev.verb == "kong" and seat is not None:
            code = codes[0]
            plain = code.replace("0", "5")
            if prev is not None and prev.verb in ("discard", "riichi") and prev.seat != ev.seat and last_discard is not None:
                source, code = last_discard  # an open kong of the discard just made
                takes[seat].append(_open_call(ev, "m", code, _offset(seat, source, True), held[seat]))
                discards[seat].append(0)
            elif (seat, plain) in pons:
                added = number(pick(held[seat], code))
                pon = pons.pop((seat, plain))
                discards[seat].append(pon.replace("p", f"k{added}", 1))
            else:
                text = kept_call(ev, "a", code, -1, held[seat])
                if text is None:
                    four = [number(pick(held[seat], code)) for _ in range(4)]
                    four.sort(key=lambda t: -t)
                    text = "".join(str(t) for t in four[:3]) + f"a{four[3]}"
                discards[seat].append(text)
            last_discard = None
        elif ev.verb == "win":
            wins.append((ev, commands(ev)))
        elif ev.verb == "abort":
            abort = ev
        elif ev.verb == "score":
            result_event = ev
        if ev.verb != "dora":
            prev = ev
    result: list = []
    score_cmd = commands(result_event) if result_event is not None else {}

    def deltas_of(text: str | None) -> list[int]:
        if text:
            return [int(x) for x in text.split(",")][:3] + [0]
        written = {a.text: n.value for a, n in zip(result_event.args[::2], result_event.args[1::2])} if result_event else {}  # type: ignore[union-attr]
        return [int(written.get(SEATS[s], 0)) for s in range(3)] + [0]

    if wins:
        result.append("和了")
        for ev, fig in wins:
            who = SEATS.index(ev.seat)  # type: ignore[arg-type]
            frm = SEATS.index(fig["from"][0]) if "from" in fig else who
            pao = SEATS.index(fig["pao"][0]) if "pao" in fig else who
            text = fig.get("deltas", score_cmd.get("deltas", [None]))[0] if len(wins) > 1 else score_cmd.get("deltas", [None])[0]
            result.append(deltas_of(text))
            result.append([who, frm, pao, fig.get("points", [""])[0], *fig.get("yaku", [])])
    elif abort is not None:
        result.append(commands(abort).get("result", ["九種九牌"])[0])
    else:
        kind_ = score_cmd.get("result", ["流局"])[0]
        result.append(kind_)
        if result_event is not None and (kind_ == "流局" or "deltas" in score_cmd):
            result.append(deltas_of(score_cmd.get("deltas", [None])[0]))
    out: list = [[kyoku, honba, sticks], scores, dora, ura]
    for s in range(3):
        out += [[number(c) for c in dealt[s]], takes[s], discards[s]]
    out += [[], [], [], result]
    return out


def to_log(record: Record) -> dict[str, Any]:
    """A paifu sanma record as a tenhou.net/6 log (the form Tenhou-format viewers read)."""
    if record.game != "sanma":
        raise ValueError(f"only sanma records are written as tenhou.net/6 logs, not {record.game!r}")
    meta_text = record.tag("TenhouLog")
    from .jsonform import loads

    meta: dict[str, Any] = loads(meta_text) if meta_text else {}  # a JsonFault is a ValueError: I602
    players = record.players()
    log: list = []
    before: list[int] | None = None
    for hand in record.hands:
        log.append(hand_to_round(hand, before))
        total = next((e for e in hand.events if e.verb == "total"), None)
        if total is not None:
            before = [a.value for a in total.args if isinstance(a, NumArg)][:3]
    out: dict[str, Any] = {"ver": meta.get("ver", "2.3"), "ref": meta.get("ref", ""), "log": log}
    for key in ("ratingc", "lobby", "dan", "rate", "sx"):
        if key in meta:
            out[key] = meta[key]
    out["rule"] = meta.get("rule", {"disp": record.tag("Event") or "", "aka": 1})
    out["name"] = meta.get("name") or [players.get(s, s) for s in SEATS] + [""]
    if "sc" in meta:
        out["sc"] = meta["sc"]
    elif before is not None:
        out["sc"] = [x for s in before for x in (s, 0)] + [0, 0]
    for key in ("title", "_target_actor"):
        if key in meta:
            out[key] = meta[key]
    return out
