"""The viewer's pages: the index of records, a record's page, its source, its steps as JSON."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request

from replay.games import ALL_GAMES

from .library import Library
from .steps import build_steps, diag_data

bp = Blueprint("viewer", __name__)

SORTABLE = ("file", "game", "players", "date", "result", "hands", "valid")


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
    scanning = lib.scanning
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
    return render_template("index.html", rows=rows, games=games, game=game, sort=sort, order=order,
                           columns=SORTABLE, titles=ALL_GAMES, root=lib.path.name or str(lib.path),
                           files=len(lib.files()), scanning=scanning, read=read)


def _page_data(file: str, n: int) -> dict[str, Any]:
    """The steps of the n-th record of a served file; 404 when there is no such record."""
    lib = library()
    if lib.resolve(file) is None:
        abort(404)
    result = lib.record(file, n)
    if result is None:
        abort(404)
    if result.record is None:
        diags = [diag_data(d) for d in result.diagnostics]
        return {"game": "", "unreadable": True, "all_diagnostics": diags, "diagnostics": diags, "steps": [],
                "parts": [], "seats": [], "players": {}, "tags": [], "comments": [], "valid": False,
                "hands": [], "totals": {}, "family": "", "stopped": None, "quiz": ""}
    data = build_steps(result.record, file, n, result.diagnostics, quiz=request.args.get("quiz") or None)
    data["unreadable"] = False
    return data


@bp.route("/record/<path:file>")
def record(file: str) -> str:
    n = record_number()
    data = _page_data(file, n)
    count = library().count(file)
    data["file"], data["n"] = file, n
    tags = {name: value for name, value in data["tags"]}
    return render_template("record.html", data=data, file=file, n=n, count=count, tags=data["tags"],
                           title=ALL_GAMES.get(data["game"], data["game"]), event=tags.get("Event", ""))


@bp.route("/api/record/<path:file>")
def record_json(file: str) -> Any:
    data = _page_data(file, record_number())
    return jsonify(data)


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
    return render_template("error.html", message="Something went wrong while showing this page."), 500
