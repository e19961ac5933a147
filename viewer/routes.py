"""The viewer's pages: the index of records, a record's page, its source, its steps as JSON."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request, url_for

from paifu.replay.games import ALL_GAMES

from .lazy import LazyRecord
from .library import Library
from .steps import build_steps, count_steps, diag_data

bp = Blueprint("viewer", __name__)

SORTABLE = ("file", "game", "players", "date", "result", "hands", "valid")
PAGE_ROWS = 500  # index lines on one page (a folder may hold 10,000 records)
PAGE_STEPS = 1500  # a record with more steps is sent a hand at a time
WINDOW = 12  # a long record's hands drawn at once: from 6 before the asked one to 11 after it
_built: "OrderedDict[tuple[Any, ...], dict[str, Any]]" = OrderedDict()  # the last records built, for paging
_built_lock = threading.Lock()
_lazy: "OrderedDict[tuple[Any, ...], LazyRecord | None]" = OrderedDict()  # long records read a hand at a time


def library() -> Library:
    return current_app.config["LIBRARY"]


def record_number() -> int:
    try:
        return max(int(request.args.get("n", "1")), 1)
    except ValueError:
        abort(404)


@bp.route("/")
def index() -> str:
    lib = library()
    scanning = getattr(lib, "scanning", False)
    if scanning:  # the first scan is still reading: show what it has, and come back for more
        rows, read = lib.known_summaries()
    else:
        rows, read = lib.all_summaries(), 0
    games = sorted({r.game for r in rows if r.game})
    game = request.args.get("game", "")
    if game:
        rows = [r for r in rows if r.game == game]
    sort = request.args.get("sort", "file")
    if sort not in SORTABLE:
        sort = "file"
    order = "desc" if request.args.get("order") == "desc" else "asc"
    rows = sorted(rows, key=lambda r: r.sort_key(sort), reverse=order == "desc")
    size = current_app.config.get("PAGE_ROWS", PAGE_ROWS)
    pages = max((len(rows) + size - 1) // size, 1)
    try:
        page = min(max(int(request.args.get("page", "1")), 1), pages)
    except ValueError:
        page = 1
    shown = rows[(page - 1) * size: page * size]
    return render_template("index.html", rows=shown, total=len(rows), page=page, pages=pages, first=(page - 1) * size + 1, games=games, game=game, sort=sort, order=order,
                           columns=SORTABLE, titles=ALL_GAMES, root=lib.path.name or str(lib.path),
                           files=len(lib.files()), scanning=scanning, read=read, refused=lib.refused(),
                           scribe="scribe" in current_app.blueprints,  # paifu view --scribe DIR: link to it
                           # one url_for per page, not two per row (a folder may hold 10,000 records)
                           record_base=url_for("viewer.record", file="x")[:-1], source_base=url_for("viewer.source", file="x")[:-1])


def _page_data(file: str, n: int) -> dict[str, Any]:
    """The steps of the n-th record of a served file; 404 when there is no such record."""
    lib = library()
    target = lib.resolve(file)
    if target is None:
        abort(404)
    quiz, seat = _seat_asked()
    key = (str(target), n, lib.stamp(file), quiz, seat)
    hand = _hand_asked()
    with _built_lock:  # the whole record built, or hands of it around this one
        for k in [key] + [k for k in _built if len(k) == 6 and k[:5] == key and hand is not None and hand in k[5]]:
            if k in _built:
                _built.move_to_end(k)
                return dict(_built[k])
    limit = current_app.config.get("PAGE_STEPS", PAGE_STEPS)
    if hand is not None:  # a long record: read and replayed a hand at a time (viewer/lazy.py)
        lazy = _lazy_record(key[:3] + (limit,), file, n, str(target), limit)
        if lazy is not None:
            try:
                return dict(lazy.page(hand, quiz, seat))
            except ValueError:  # a hand that cannot be read alone: the record is read whole
                pass
    result = lib.record(file, n)
    if result is None:
        abort(404)
    if result.record is None:
        diags = [diag_data(d) for d in result.diagnostics]
        return {"game": "", "unreadable": True, "all_diagnostics": diags, "diagnostics": diags, "steps": [],
                "parts": [], "seats": [], "players": {}, "tags": [], "comments": [], "valid": False,
                "hands": [], "totals": {}, "family": "", "stopped": None, "quiz": "", "seat": ""}
    if hand is not None and count_steps(result.record) > limit:
        # a long record: replayed whole, the tables drawn for the hands around this one only
        # (the next pages are cut from it; a page further away replays the record again)
        hand = min(hand, max(len(result.record.hands) - 1, 0))
        window = range(max(hand - WINDOW // 2, 0), hand + WINDOW)
        data = build_steps(result.record, file, n, result.diagnostics, quiz=quiz, only_hands=window, seat=seat)
        data["unreadable"] = False
        _keep(key + (window,), data)
        return dict(data)
    data = build_steps(result.record, file, n, result.diagnostics, quiz=quiz, seat=seat)
    data["unreadable"] = False
    _keep(key, data)
    return dict(data)


def _seat_asked() -> tuple[str | None, str | None]:
    """The quiz seat (``?quiz=B``) and the seat whose page this is (``?seat=B``, or the quiz's):
    a seat's page holds only what that seat sees. None: everything (a teacher's page)."""
    quiz = request.args.get("quiz") or None
    return quiz, quiz or request.args.get("seat") or None


def _lazy_record(key: tuple[Any, ...], file: str, n: int, path: str, limit: int) -> LazyRecord | None:
    """The long record of ``key`` read a hand at a time, made once; None for a record short
    enough to be sent whole (or one that cannot be read so)."""
    with _built_lock:
        if key in _lazy:
            _lazy.move_to_end(key)
            return _lazy[key]
    chunk = library().chunk(file, n)
    if chunk is None:
        abort(404)
    try:
        lazy: LazyRecord | None = LazyRecord(chunk, path, n)
    except ValueError:
        lazy = None
    if lazy is not None and lazy.total <= limit:
        lazy = None
    with _built_lock:
        _lazy[key] = lazy
        while len(_lazy) > 4:
            _lazy.popitem(last=False)
    return lazy


def _keep(key: tuple[Any, ...], data: dict[str, Any]) -> None:
    with _built_lock:
        _built[key] = data
        _built.move_to_end(key)
        while len(_built) > 6:
            _built.popitem(last=False)


def _hand_asked() -> int | None:
    """The hand (0-based) a record page asks for: ``?hand=K`` (1 by default); None for the
    JSON of the whole record."""
    if request.endpoint == "viewer.record_json" and not request.args.get("hand"):
        return None
    try:
        return max(int(request.args.get("hand", "1")), 1) - 1
    except ValueError:
        return 0


def parts_used(parts: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The parts (a list, or a dict keyed by index) the steps' tables and settlements use,
    with the parts they refer to, keyed by index."""
    get = (lambda k: parts[k]) if isinstance(parts, list) else (lambda k: parts[str(k)])
    used: set[int] = set()

    def use(k: int | None) -> None:
        if k is None or k in used:
            return
        used.add(k)
        part = get(k)
        if isinstance(part, dict) and "seats" in part:
            for s in part["seats"]:
                use(s)
            for z in part.get("center", []):
                use(z)
        elif isinstance(part, dict) and "zones" in part and isinstance(part["zones"], list):
            for z in part["zones"]:
                if isinstance(z, int):
                    use(z)

    for e in steps:
        for k in (e["views"] or {}).values():
            use(k)
        use(e["settlement"])
    return {str(k): get(k) for k in sorted(used)}


def one_hand(data: dict[str, Any], hand: int) -> dict[str, Any]:
    """The page data of one hand of a long record: its steps, only the parts they use (as a
    dict keyed by their index), and where every hand starts, so the page can go on."""
    steps = [e for e in data["steps"] if e["hand"] == hand]
    out = dict(data, steps=steps, parts=parts_used(data["parts"], steps))
    starts: dict[int, int] = {}
    for e in data["steps"]:
        if e["kind"] == "hand":
            starts.setdefault(e["hand"], e["i"])
    ends = _hand_ends(data["steps"])
    out["paged"] = {"hand": hand, "total": len(data["steps"]), "starts": [starts.get(h) for h in range(len(ends))], "ends": ends}
    return out


def _hand_ends(steps: list[dict[str, Any]]) -> list[int]:
    """The last step index of every hand (any line), in hand order."""
    ends: dict[int, int] = {}
    for e in steps:
        ends[e["hand"]] = max(ends.get(e["hand"], 0), e["i"])
    return [ends[h] for h in sorted(ends)]


def quiz_cut(data: dict[str, Any]) -> dict[str, Any]:
    """A quiz page's data as far as its next question: the steps up to the first one at or
    after ``?upto=K`` where the quiz seat has a move to choose, the parts they use, the hands
    before it; nothing of what follows (not the move played, not the tables after it), so
    nothing the page must hide is sent. The page asks for more (``upto``) once answered."""
    if not data.get("quiz") or data.get("unreadable"):
        return data
    try:
        upto = max(int(request.args.get("upto", "0")), 0)
    except ValueError:
        upto = 0
    steps = sorted(data["steps"], key=lambda e: e["i"])
    ask = next((e for e in steps if e["i"] >= upto and e.get("choices")), None)
    if ask is None:
        return data
    kept = [e for e in steps if e["i"] <= ask["i"]]
    hands = [h if k < ask["hand"] else {"number": h["number"], "over": False, "computed": None, "written": None, "totals": None}
             for k, h in enumerate(data["hands"])]
    return dict(data, steps=kept, parts=parts_used(data["parts"], kept), hands=hands, totals={}, quiz_until=ask["i"],
                total_steps=len(steps))


def paged(data: dict[str, Any]) -> dict[str, Any]:
    """The data a record page embeds: all of it, or one hand (``?hand=K``) of a long record."""
    if data.get("unreadable") or "paged" in data or len(data["steps"]) <= current_app.config.get("PAGE_STEPS", PAGE_STEPS):
        return data
    hands = max((e["hand"] for e in data["steps"]), default=0) + 1
    return one_hand(data, min(_hand_asked() or 0, hands - 1))


@bp.route("/record/<path:file>")
def record(file: str) -> str:
    n = record_number()
    data = quiz_cut(paged(_page_data(file, n)))
    count = library().count(file)
    data["file"], data["n"] = file, n
    tags = {name: value for name, value in data["tags"]}
    return render_template("record.html", data=data, file=file, n=n, count=count, tags=data["tags"],
                           title=ALL_GAMES.get(data["game"], data["game"]), event=tags.get("Event", ""))


@bp.route("/api/record/<path:file>")
def record_json(file: str) -> Any:
    data = _page_data(file, record_number())
    return jsonify(quiz_cut(paged(data) if request.args.get("hand") else data))


@bp.route("/source/<path:file>")
def source(file: str) -> str:
    text = library().source(file)
    if text is None:
        abort(404)
    return render_template("source.html", file=file, lines=text.split("\n"))


@bp.app_errorhandler(404)
def not_found(_err: Exception) -> tuple[str, int]:
    return render_template("error.html", message="Not found: this viewer serves only the records under its path."), 404


@bp.app_errorhandler(500)
def server_error(_err: Exception) -> tuple[str, int]:
    return render_template("error.html", title="error", message="Something went wrong while showing this page."), 500
