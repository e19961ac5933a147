"""mjai JSON Lines <-> paifu sanma records (formats only, no rules).

mjai is the event stream Mortal, mjai-reviewer and riichienv read: one JSON object a line,
``type`` naming the event and ``actor`` the seat (0–2 in three-player mahjong)::

    {"type":"start_game","names":["A","B","C"]}
    {"type":"start_kyoku","bakaze":"E","dora_marker":"4s","kyoku":1,"honba":0,"kyotaku":0,
     "oya":0,"scores":[35000,35000,35000],"tehais":[[13 tiles],[13 tiles],[13 tiles]]}
    {"type":"tsumo","actor":0,"pai":"6s"}          {"type":"dahai","actor":0,"pai":"1s","tsumogiri":false}
    {"type":"pon","actor":1,"target":0,"pai":"3p","consumed":["3p","3p"]}
    {"type":"daiminkan",...}  {"type":"kakan","actor":1,"pai":"3p","consumed":["3p","3p","3p"]}
    {"type":"ankan","actor":1,"consumed":[4 tiles]}  {"type":"nukidora","actor":0,"pai":"N"}
    {"type":"reach","actor":0}  (then its dahai)  {"type":"reach_accepted","actor":0}
    {"type":"dora","dora_marker":"6s"}
    {"type":"hora","actor":2,"target":0,"pai":"5p","deltas":[..],"ura_markers":[..],"han":3,"fu":40}
    {"type":"ryukyoku","deltas":[..]}  {"type":"end_kyoku"}  {"type":"end_game"}

Tiles: ``1m``…``9m``, ``1p``…, ``5mr``/``5pr``/``5sr`` the red fives, ``E S W N`` the winds,
``P F C`` white, green and red; ``?`` a tile not seen.

:func:`to_events` writes a record's hands in table order (the record already is); ``hora``
carries the log's own deltas (without this round's riichi sticks, which ``reach_accepted``
takes) and, where the record kept Tenhou's figures, ``han`` and ``fu``. :func:`read_mjai`
reads such a stream back into the record ``paifu import tenhou`` would give, but for what
mjai does not carry: a win's yaku and points strings.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from .model import CardsArg, Event, Hand, NumArg, OptionArg, Record, SeatArg, Tag, WordArg, comment_commands
from .figures import read_points, read_yaku
from .jsonform import JsonFault, loads
from .tenhou import SEATS, TenhouError, _clean, _ev, _offset, commands, kept_call, number, parse_call, pick

HONOURS = "ESWNPFC"
ROUND_WINDS = "ESW"
REASONS = {"nine_terminals": "kyushukyuhai"}
"""paifu's abortive draws (``A: abort ...``) by their mjai ``ryukyoku`` reason."""


def mjai_tile(code: str) -> str:
    """A paifu tile code as an mjai tile (``0p`` -> ``5pr``, ``4z`` -> ``N``, ``*`` -> ``?``)."""
    if code == "*":
        return "?"
    rank, suit = code[0], code[1]
    if suit == "z":
        return HONOURS[int(rank) - 1]
    return f"5{suit}r" if rank == "0" else code


def paifu_tile(pai: Any) -> str:
    """An mjai tile as a paifu tile code; ValueError for what is none."""
    if isinstance(pai, str):
        if pai == "?":
            return "*"
        if len(pai) == 1 and pai in HONOURS:
            return f"{HONOURS.index(pai) + 1}z"
        if len(pai) == 3 and pai[0] == "5" and pai[1] in "mps" and pai[2] == "r":
            return f"0{pai[1]}"
        if len(pai) == 2 and pai[0] in "123456789" and pai[1] in "mps":
            return pai
    raise ValueError(f"{pai!r} is not an mjai tile (1m-9m, 1p-9p, 1s-9s, 5mr/5pr/5sr, E S W N P F C, ?)")


# --------------------------------------------------------------------------- record -> mjai


def _tsumogiri(ev: Event) -> bool:
    return any(cmd == "tsumogiri" for c in ev.comments for cmd, _ in comment_commands(c))


def _deltas(text: str | None) -> list[int] | None:
    return [int(x) for x in text.split(",")][:3] if text else None


def hand_events(hand: Hand, before: list[int] | None, north: str = "nukidora") -> list[dict[str, Any]]:
    """One paifu sanma hand as mjai events, ``start_kyoku`` to ``end_kyoku``; a North set
    aside is ``north`` (``nukidora``, Mortal's three-player event; riichienv reads ``kita``)."""
    head = commands(hand)
    dealer = SEATS.index(hand.attr("dealer").value) if hand.attr("dealer") else 0  # type: ignore[union-attr]
    rnd = hand.attr("round")
    honba = int(hand.attr("honba").value) if hand.attr("honba") else 0  # type: ignore[union-attr]
    pot = hand.attr("pot")
    scores = [int(x) for x in head["scores"][0].split(",")][:3] if "scores" in head else list(before or [35000] * 3)
    held: list[list[str]] = [[], [], []]  # each seat's tiles, to know which a call takes
    pons: dict[tuple[int, str], list[str]] = {}
    tehais: list[list[str]] = [[], [], []]
    first: str | None = None
    start: dict[str, Any] = {"type": "start_kyoku", "bakaze": rnd.value if rnd is not None else "E", "dora_marker": "?",
                             "kyoku": dealer + 1, "honba": honba, "kyotaku": int(pot.value) // 1000 if pot else 0,
                             "oya": dealer, "scores": scores, "tehais": tehais}
    out: list[dict[str, Any]] = [start]
    marker_given = False
    score: Event | None = None
    wins: list[Event] = []
    prev: Event | None = None
    last_discard: tuple[int, str] | None = None
    riichi_open: int | None = None
    drawn: list[str | None] = [None, None, None]
    for ev in hand.events:
        seat = SEATS.index(ev.seat) if ev.seat else None
        codes = ev.cards()
        if first is not None and ev.verb not in ("deal", "dora"):  # the deal is over: the dealer's first take
            out.append({"type": "tsumo", "actor": dealer, "pai": mjai_tile(first)})
            drawn[dealer], first = first, None
        if riichi_open is not None and ev.verb == "win" and ev.seat != SEATS[riichi_open] and ev.args \
                and isinstance(ev.args[0], WordArg) and ev.args[0].text == "ron":
            riichi_open = None  # the riichi discard won on: its stick is never paid
        if riichi_open is not None and ev.verb not in ("win", "dora"):
            out.append({"type": "reach_accepted", "actor": riichi_open})
            riichi_open = None
        if ev.verb == "deal":
            s = SEATS.index(next(a.seat for a in ev.args if isinstance(a, SeatArg)))
            tiles = list(codes)
            held[s] = list(tiles)
            if s == dealer and len(tiles) == 14:
                first = head.get("first", [tiles[-1]])[0]
                tiles.remove(first)
            tehais[s] = [mjai_tile(c) for c in tiles]
        elif ev.verb == "dora":
            if not marker_given:
                start["dora_marker"] = mjai_tile(codes[0])
                marker_given = True
            else:
                out.append({"type": "dora", "dora_marker": mjai_tile(codes[0])})
        elif ev.verb == "draw" and seat is not None:
            held[seat].append(codes[0])
            drawn[seat] = codes[0]
            out.append({"type": "tsumo", "actor": seat, "pai": mjai_tile(codes[0])})
        elif ev.verb in ("discard", "riichi") and seat is not None:
            code = codes[0]
            if ev.verb == "riichi":
                if any(isinstance(a, WordArg) and a.text == "open" for a in ev.args):
                    raise ValueError(f"{ev.seat}'s open riichi (オープン立直): mjai has no open riichi")
                out.append({"type": "reach", "actor": seat})
                riichi_open = seat
            pick(held[seat], code)
            out.append({"type": "dahai", "actor": seat, "pai": mjai_tile(code),
                        "tsumogiri": _tsumogiri(ev) or (not any(cmd == "tenhou" for c in hand.comments for cmd, _ in comment_commands(c))
                                                         and drawn[seat] == code)})
            drawn[seat] = None
            last_discard = (seat, code)
        elif ev.verb == "nuki" and seat is not None:
            pick(held[seat], codes[0] if codes else "4z")
            out.append({"type": north, "actor": seat, "pai": "N"})
        elif ev.verb == "pon" and seat is not None and last_discard is not None:
            source, code = last_discard
            own = _consumed(ev, "p", code, seat, source, held[seat], 2)
            pons[(seat, code.replace("0", "5"))] = own + [code]
            out.append({"type": "pon", "actor": seat, "target": source, "pai": mjai_tile(code), "consumed": [mjai_tile(c) for c in own]})
        elif ev.verb == "kong" and seat is not None:
            code = codes[0]
            plain = code.replace("0", "5")
            if prev is not None and prev.verb in ("discard", "riichi") and prev.seat != ev.seat and last_discard is not None:
                source, code = last_discard
                own = _consumed(ev, "m", code, seat, source, held[seat], 3)
                out.append({"type": "daiminkan", "actor": seat, "target": source, "pai": mjai_tile(code),
                            "consumed": [mjai_tile(c) for c in own]})
            elif (seat, plain) in pons:
                added = pick(held[seat], code)
                out.append({"type": "kakan", "actor": seat, "pai": mjai_tile(added),
                            "consumed": [mjai_tile(c) for c in pons.pop((seat, plain))]})
            else:
                kept = kept_call(ev, "a", code, -1, held[seat])
                four = _kept_tiles(kept) if kept else [pick(held[seat], code) for _ in range(4)]
                out.append({"type": "ankan", "actor": seat, "consumed": [mjai_tile(c) for c in four]})
            last_discard = None
        elif ev.verb == "win":
            wins.append(ev)
        elif ev.verb == "ura":
            for w in out:
                if w["type"] == "hora" and "ura_markers" not in w:
                    w["ura_markers"] = [mjai_tile(c) for c in codes]
        elif ev.verb == "abort" and seat is not None:
            how = ev.args[0].text if ev.args and isinstance(ev.args[0], WordArg) else ""
            out.append({"type": "ryukyoku", "reason": REASONS.get(how, how)})
        elif ev.verb == "score":
            score = ev
        if ev.verb == "win":
            out.append(_hora(ev, last_discard, prev, seat))
        if ev.verb not in ("dora", "ura"):
            prev = ev
    # the deltas: how the score line moved each seat, but for the riichi sticks reach_accepted took
    sticks = [1000 * sum(1 for e in out if e["type"] == "reach_accepted" and e["actor"] == s) for s in range(3)]
    moved = [x + sticks[s] for s, x in enumerate(_score_values(score))]
    horas = [e for e in out if e["type"] == "hora"]
    if len(horas) > 1:  # a double ron: each win's own deltas, where the record kept them
        for k, e in enumerate(horas):
            e["deltas"] = _deltas(commands(wins[k]).get("deltas", [None])[0]) or (moved if k == 0 else [0, 0, 0])
    elif horas:
        horas[0]["deltas"] = moved
    elif out[-1]["type"] == "ryukyoku":
        out[-1]["deltas"] = moved
    elif score is not None:
        out.append({"type": "ryukyoku", "reason": "exhaustive_draw", "deltas": moved})
    out.append({"type": "end_kyoku"})
    return out


def _consumed(ev: Event, letter: str, code: str, seat: int, source: int, hand: list[str], n: int) -> list[str]:
    """The tiles a pon or open kong takes from the hand: those of the call string the importer
    kept, else the tile named (then its red or plain twin)."""
    kept = kept_call(ev, letter, code, _offset(seat, source, letter == "m"), hand)
    if kept:
        return _kept_tiles(kept, with_called=False)
    return [pick(hand, code) for _ in range(n)]


def _kept_tiles(text: str, with_called: bool = True) -> list[str]:
    c = parse_call(text)
    return c.own + ([c.tile] if with_called else [])


def _hora(ev: Event, last_discard: tuple[int, str] | None, prev: Event | None, seat: int | None) -> dict[str, Any]:
    assert seat is not None
    how = ev.args[0].text if ev.args and isinstance(ev.args[0], WordArg) else "tsumo"
    tile = ev.cards()[0] if ev.cards() else "*"
    fig = commands(ev)
    if how == "tsumo":
        target = seat
    elif "from" in fig:
        target = SEATS.index(fig["from"][0])
    elif how == "ron" and last_discard is not None:
        target = last_discard[0]
    else:
        target = SEATS.index(prev.seat) if prev is not None and prev.seat else seat
    out: dict[str, Any] = {"type": "hora", "actor": seat, "target": target, "pai": mjai_tile(tile)}
    pts = read_points(fig.get("points", [""])[0]) if "points" in fig else None
    if pts is None:  # a win read from mjai: its han and fu as the stream gave them
        for key, value in commands(ev, "mjai").items():
            if key in ("han", "fu") and value[0].isdigit():
                out[key] = int(value[0])
    else:
        han = pts["han"]
        if han is None:
            read = [read_yaku(y) for y in fig.get("yaku", [])]
            han = sum(r[1] for r in read if r is not None) if read and all(read) else None
        if han is not None:
            out["han"] = han
        if pts["fu"] is not None:
            out["fu"] = pts["fu"]
    return out


def _score_values(score: Event | None) -> list[int]:
    if score is None:
        return [0, 0, 0]
    written = {a.text: n.value for a, n in zip(score.args[::2], score.args[1::2]) if isinstance(a, WordArg) and isinstance(n, NumArg)}
    return [int(written.get(s, 0)) for s in SEATS]


NORTH_EVENTS = ("nukidora", "kita")


def to_events(record: Record, north: str = "nukidora") -> list[dict[str, Any]]:
    """A paifu sanma record as mjai events (``start_game`` ... ``end_game``)."""
    if north not in NORTH_EVENTS:
        raise ValueError(f"a North set aside is written as one of {', '.join(NORTH_EVENTS)}, not {north!r}")
    if record.game != "sanma":
        raise ValueError(f"only sanma records are written as mjai three-player events, not {record.game!r}")
    players = record.players()
    options = dict(t.value.partition("=")[::2] for t in record.option_tags())
    aka = any(options.get(k, "1") == "1" for k in ("aka52", "aka53"))
    out: list[dict[str, Any]] = [{"type": "start_game", "names": [players.get(s, s) for s in SEATS], "aka_flag": aka}]
    before: list[int] | None = None
    for hand in record.hands:
        out += hand_events(hand, before, north)
        total = next((e for e in hand.events if e.verb == "total"), None)
        if total is not None:
            before = [a.value for a in total.args if isinstance(a, NumArg)][:3]
    out.append({"type": "end_game"})
    return out


def write_mjai(record: Record, north: str = "nukidora") -> str:
    """The record as mjai JSON Lines text, one event a line."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in to_events(record, north))


# --------------------------------------------------------------------------- mjai -> record


def events_of(text: str, path: str = "") -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, event) of each non-blank line; a line that is no JSON object is a located error."""
    for n, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            ev = loads(raw)  # as paifu reads JSON: half a surrogate pair, a key twice, 5000 digits refused
        except JsonFault as e:
            what = e.message if e.code == "P111" else f"not read as JSON: {e.message}"
            raise TenhouError(what, "", n, e.offset + 1, path) from None
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise TenhouError("an mjai event is a JSON object with a \"type\"", "", n, 1, path)
        yield n, ev


def read_mjai(text: str, path: str = "") -> list[Record]:
    """An mjai JSON Lines text as paifu ``sanma`` records under ``rules=tenhou``: one a game
    (each ``start_game`` begins one; a stream without it is one game)."""
    events = list(events_of(text, path))
    if not events:
        raise TenhouError("no mjai event in the text: nothing to import", "", 1, 1, path)
    games: list[list[tuple[int, dict[str, Any]]]] = []
    for line, ev in events:
        if ev["type"] == "start_game" or not games:
            games.append([])
        games[-1].append((line, ev))
    return [_read_game(g, path) for g in games]


def _read_game(events: list[tuple[int, dict[str, Any]]], path: str) -> Record:
    names: list[str] = ["A", "B", "C"]
    aka = True
    hands: list[Hand] = []
    k = 0
    if events[0][1]["type"] == "start_game":
        got = events[0][1].get("names")
        if isinstance(got, list):
            if len(got) != 3 or not all(isinstance(x, str) for x in got):
                raise TenhouError("start_game names four players, or not three strings: paifu imports three-player logs",
                                  "", events[0][0], 1, path)
            names = [x for x in got]
        aka = events[0][1].get("aka_flag", True) is not False
        k = 1
    kyokus: list[list[tuple[int, dict[str, Any]]]] = []
    for line, ev in events[k:]:
        t = ev["type"]
        if t == "start_kyoku":
            kyokus.append([(line, ev)])
        elif t == "end_game":
            break
        elif not kyokus:
            raise TenhouError(f"{t!r} before the first start_kyoku", "", line, 1, path)
        else:
            kyokus[-1].append((line, ev))
    if not kyokus:
        raise TenhouError("no start_kyoku: the log holds no round", "", events[0][0], 1, path)
    for idx, kyoku in enumerate(kyokus):
        nxt = kyokus[idx + 1][0][1].get("scores") if idx + 1 < len(kyokus) else None
        hands.append(_read_kyoku(idx, kyoku, nxt, path))
    tags = [Tag(name="Game", value="sanma"),
            Tag(name="Players", value="; ".join(f"{SEATS[i]}: {_clean(names[i]) or SEATS[i]}" for i in range(3))),
            Tag(name="Option", value="rules=tenhou")]
    tags += [Tag(name="Option", value=f"{key}={int(aka and key != 'aka51')}") for key in ("aka51", "aka52", "aka53")]
    return Record(tags=tags, hands=hands)


def _seat(ev: dict[str, Any], key: str, line: int, path: str, where: str) -> int:
    s = ev.get(key)
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < 3:
        raise TenhouError(f"{ev['type']}'s {key} {s!r} is not a seat 0-2 (a three-player log)", where, line, 1, path)
    return s


def _tiles(value: Any, n: int | None, line: int, path: str, where: str, what: str) -> list[str]:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        raise TenhouError(f"{what} {value!r} is not a list of {n if n is not None else 'some'} tiles", where, line, 1, path)
    try:
        return [paifu_tile(p) for p in value]
    except ValueError as e:
        raise TenhouError(str(e), where, line, 1, path) from None


def _tile(value: Any, line: int, path: str, where: str) -> str:
    try:
        return paifu_tile(value)
    except ValueError as e:
        raise TenhouError(str(e), where, line, 1, path) from None


def _ints(value: Any, line: int, path: str, where: str, what: str) -> list[int]:
    if not (isinstance(value, list) and len(value) in (3, 4) and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise TenhouError(f"{what} {value!r} are not three whole numbers", where, line, 1, path)
    if len(value) == 4 and value[3]:
        raise TenhouError(f"{what} {value!r} give a fourth seat {value[3]}: a four-player game, not a three-player log",
                          where, line, 1, path)
    return list(value[:3])


def _read_kyoku(idx: int, kyoku: list[tuple[int, dict[str, Any]]], after: Any, path: str) -> Hand:
    line0, start = kyoku[0]
    oya = _seat(start, "oya", line0, path, f"kyoku {idx + 1}")
    bakaze = start.get("bakaze", "E")
    if bakaze not in ROUND_WINDS:
        raise TenhouError(f"bakaze {bakaze!r} is not E, S or W", f"kyoku {idx + 1}", line0, 1, path)
    honba = start.get("honba", 0)
    kyotaku = start.get("kyotaku", 0)
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (honba, kyotaku)):
        raise TenhouError("honba and kyotaku are whole numbers of 0 or more", f"kyoku {idx + 1}", line0, 1, path)
    where = f"{bakaze}{oya + 1}-{honba} (kyoku {idx + 1})"
    scores = _ints(start.get("scores"), line0, path, where, "the scores")
    tehais = start.get("tehais")
    if not isinstance(tehais, list) or len(tehais) != 3:
        raise TenhouError("tehais must list three hands of 13 tiles (a three-player log)", where, line0, 1, path)
    deals = [_tiles(t, 13, line0, path, where, f"seat {s}'s tehai") for s, t in enumerate(tehais)]
    marker = _tile(start.get("dora_marker"), line0, path, where)
    events: list[Event] = []
    first: str | None = None
    body = kyoku[1:]
    if body and body[0][1]["type"] == "tsumo" and body[0][1].get("actor") == oya:
        first = _tile(body[0][1].get("pai"), body[0][0], path, where)
        body = body[1:]
    else:
        raise TenhouError("the dealer's first tsumo must follow start_kyoku", where, body[0][0] if body else line0, 1, path)
    for s in range(3):
        tiles = sorted(deals[s] + ([first] if s == oya else []), key=lambda c: number(c.replace("0", "5")) if c != "*" else 99)
        events.append(Event(verb="deal", args=[SeatArg(seat=SEATS[s]), CardsArg(cards=tiles)]))
    if marker != "*":  # "?": an indicator the stream does not show (a record whose wall line alone held it)
        events.append(Event(verb="dora", args=[CardsArg(cards=[marker])]))
    reach: int | None = None
    sticks = [0, 0, 0]
    deltas: list[list[int]] = []
    horas: list[Event] = []
    result: str | None = None
    last_actor = oya
    ura: list[str] | None = None
    for line, ev in body:
        t = ev["type"]
        if t in ("tsumo", "dahai", "pon", "daiminkan", "kakan", "ankan", "nukidora", "kita", "reach", "reach_accepted", "hora"):
            actor = _seat(ev, "actor", line, path, where)
        if result is not None and t not in ("hora", "end_kyoku"):
            raise TenhouError(f"{t!r} after the round's result", where, line, 1, path)
        if t == "tsumo":
            events.append(_ev(actor, "draw", _tile(ev.get("pai"), line, path, where)))
        elif t == "dahai":
            code = _tile(ev.get("pai"), line, path, where)
            verb = "riichi" if reach == actor else "discard"
            comments = ["[%tsumogiri]"] if ev.get("tsumogiri") is True else []
            events.append(Event(seat=SEATS[actor], verb=verb, args=[CardsArg(cards=[code])], comments=comments))
        elif t == "reach":
            reach = actor
        elif t == "reach_accepted":
            sticks[actor] += 1000
            reach = None
        elif t in ("pon", "daiminkan"):
            _seat(ev, "target", line, path, where)
            events.append(_ev(actor, "pon" if t == "pon" else "kong", _tile(ev.get("pai"), line, path, where)))
        elif t == "kakan":
            events.append(_ev(actor, "kong", _tile(ev.get("pai"), line, path, where)))
        elif t == "ankan":
            four = _tiles(ev.get("consumed"), 4, line, path, where, "ankan's consumed")
            events.append(_ev(actor, "kong", sorted(four, key=lambda c: c[0] == "0")[0]))
        elif t in ("nukidora", "kita"):
            if ev.get("pai", "N") != "N":
                raise TenhouError(f"{t} of {ev.get('pai')!r}: only a North is set aside", where, line, 1, path)
            events.append(_ev(actor, "nuki", "4z"))
        elif t == "dora":
            marker = _tile(ev.get("dora_marker"), line, path, where)
            if marker != "*":
                events.append(Event(verb="dora", args=[CardsArg(cards=[marker])]))
        elif t == "hora":
            target = _seat(ev, "target", line, path, where)
            pai = _tile(ev.get("pai"), line, path, where) if "pai" in ev else _last_tile(events, target)
            prev = next((e for e in reversed(events) if e.verb not in ("dora", "win")), None)
            how = "tsumo" if target == actor else ("ron" if prev is not None and prev.verb in ("discard", "riichi") else "rob")
            d = _ints(ev.get("deltas"), line, path, where, "hora's deltas") if "deltas" in ev else None
            if d is None:
                raise TenhouError("hora without deltas: paifu needs each win's score movement", where, line, 1, path)
            deltas.append(d)
            kept = [f"{key}={ev[key]}" for key in ("han", "fu") if isinstance(ev.get(key), int) and not isinstance(ev[key], bool)]
            win = Event(seat=SEATS[actor], verb="win", args=[WordArg(text=how), CardsArg(cards=[pai])],
                        comments=[f"[%mjai {' '.join(kept)}]"] if kept else [])
            horas.append(win)
            events.append(win)
            if "ura_markers" in ev and ev["ura_markers"]:
                ura = _tiles(ev["ura_markers"], None, line, path, where, "ura_markers")
            result = "和了"
            if reach is not None and how == "ron":
                reach = None  # the riichi discard won on: no stick
        elif t == "ryukyoku":
            d = _ints(ev.get("deltas", [0, 0, 0]), line, path, where, "ryukyoku's deltas")
            deltas.append(d)
            reason = ev.get("reason")
            if reason in ("kyushukyuhai", "kyushu_kyuhai"):
                events.append(_ev(last_actor, "abort", "nine_terminals"))
                result = "九種九牌"
            elif reason in (None, "exhaustive_draw", "ryukyoku", "fanpai"):
                result = "流局"
            else:
                raise TenhouError(f"ryukyoku for {reason!r} is not supported (known: an exhaustive draw, kyushukyuhai)",
                                  where, line, 1, path)
        elif t == "end_kyoku":
            break
        elif t == "chi":
            raise TenhouError("chi: three-player mahjong has no chi", where, line, 1, path)
        else:
            raise TenhouError(f"the event type {t!r} is not one paifu reads", where, line, 1, path)
        if t in ("tsumo", "dahai", "pon", "daiminkan", "kakan", "ankan", "nukidora", "kita"):
            last_actor = actor
    if result is None:
        raise TenhouError("the round ends without hora or ryukyoku", where, kyoku[-1][0], 1, path)
    if reach is not None:
        sticks[reach] += 1000
    if len(horas) > 1:  # a double ron: each win's own deltas, as the tenhou import keeps them
        for win, d in zip(horas, deltas):
            win.comments.append(f"[%tenhou deltas={','.join(f'{x:+d}' for x in d)}]")
    if ura:
        events.append(Event(verb="ura", args=[CardsArg(cards=ura)]))
    total = [sum(d[s] for d in deltas) for s in range(3)]
    ends = _ints(after, line0, path, where, "the next kyoku's scores") if after is not None else None
    moved = [ends[s] - scores[s] for s in range(3)] if ends is not None else [total[s] - sticks[s] for s in range(3)]
    args: list = []
    for s in range(3):
        args += [WordArg(text=SEATS[s]), NumArg(value=moved[s], signed=True)]
    raw = ",".join(f"{x:+d}" for x in total)
    comment = f"[%tenhou deltas={raw}]" if result == "和了" else f"[%tenhou result={result} deltas={raw}]"
    events.append(Event(verb="score", args=args, comments=[comment]))
    if ends is not None:
        tot: list = []
        for s in range(3):
            tot += [WordArg(text=SEATS[s]), NumArg(value=ends[s], signed=ends[s] < 0)]
        events.append(Event(verb="total", args=tot))
    head = (f"[%tenhou kyoku={4 * ROUND_WINDS.index(bakaze) + oya} honba={honba} sticks={kyotaku} "
            f"scores={','.join(str(x) for x in scores + [0])} first={first}]")
    return Hand(args=[NumArg(value=idx + 1), OptionArg(key="dealer", value=SEATS[oya]), OptionArg(key="round", value=bakaze),
                      OptionArg(key="honba", value=str(honba)), OptionArg(key="pot", value=str(1000 * kyotaku))],
                comments=[head], events=events)


def _last_tile(events: list[Event], seat: int) -> str:
    for e in reversed(events):
        if e.seat == SEATS[seat] and e.cards():
            return e.cards()[-1]
    return "*"


__all__ = ["to_events", "write_mjai", "read_mjai", "events_of", "mjai_tile", "paifu_tile"]
