"""The scribe's pages (``paifu view --scribe DIR``): write a record live, offered only legal actions.

A thin Flask layer over :mod:`viewer.scribe_session`, which asks the engine for everything.
Safety: every POST carries the server's CSRF token (a header for the page's requests, a
form field for the new-record form), a foreign ``Origin`` is refused, record names are plain
file names inside DIR (checked again with ``safe_join``; a link leading out of DIR is never
read nor written: ``paifu.files.within``), and each record is written by one
tab at a time (its token, kept in the tab's ``sessionStorage``).
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from pathlib import Path
from typing import Any, Callable

from flask import Blueprint, abort, current_app, g, jsonify, redirect, render_template, request, url_for
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from werkzeug.security import safe_join

from paifu.replay import games

from .scribe_session import GLYPHS, Locks, Scribe, ScribeError, create, list_records, record_name, record_path

bp = Blueprint("scribe", __name__, url_prefix="/scribe")
WRITING = threading.Lock()


class Change(BaseModel):
    """A change the page asks for (the body of ``POST /scribe/api/NAME``), checked before
    anything is read: each field of its type, ``written`` a seat -> points object, a line a
    list of [event, variation] pairs. Unknown fields are ignored."""

    model_config = ConfigDict(extra="ignore", strict=True)

    op: str = Field("", max_length=20)
    token: str = Field("", max_length=100)
    csrf: str = Field("", max_length=100)
    version: str = Field("", max_length=64)
    path: list[tuple[int, int]] = Field(default_factory=list, max_length=100)
    force: bool = False
    index: int = -1
    text: str | None = None
    comment: str | None = None
    glyphs: list[str] = Field(default_factory=list, max_length=len(GLYPHS))
    written: dict[str, int] | None = Field(None, max_length=8)
    seed: int | None = None
    setup: str | None = None
    result: str = ""
    steps: int = Field(1, ge=1, le=10_000)
    at: int = -1


def _body() -> tuple[Change | None, str]:
    """The request's change, read once, or why it cannot be read (in words, for the 400)."""
    if "scribe_body" not in g:
        g.scribe_body = _read_body()
    return g.scribe_body


def _read_body() -> tuple[Change | None, str]:
    if not request.is_json:
        return None, "a JSON object is expected (Content-Type: application/json)"
    try:
        return Change.model_validate_json(request.get_data(cache=True) or b"null"), ""
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        if first["type"] in ("json_invalid", "model_type"):
            return None, f"a JSON object is expected: {first['msg']}"
        return None, f"bad request: {where}: {first['msg']}"


def init_app(app: Any, folder: str | Path) -> None:
    """Serve the scribe over ``folder`` (created when missing) in ``app``."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    app.config["SCRIBE_DIR"] = root.resolve()
    app.config["SCRIBE_CSRF"] = secrets.token_urlsafe(32)
    app.config["SCRIBE_LOCKS"] = Locks()
    app.register_blueprint(bp)


def folder() -> Path:
    return current_app.config["SCRIBE_DIR"]


def locks() -> Locks:
    return current_app.config["SCRIBE_LOCKS"]


def checked_name(name: str) -> str:
    """The record's file name, or 404 when it is not a plain name inside the folder."""
    try:
        name = record_name(name)
    except ScribeError:
        abort(404)
    if safe_join(str(folder()), name) is None:
        abort(404)
    return name


def _csrf_ok() -> bool:
    body, _ = _body() if request.is_json else (None, "")
    from_body = body.csrf if body is not None else None
    # a header from the page's fetches, a form field from the new-record form, a body field
    # from the beacon that releases the record when the tab is closed (beacons send no header)
    sent = request.headers.get("X-Scribe-CSRF") or request.form.get("csrf") or from_body or ""
    if not hmac.compare_digest(sent.encode(), current_app.config["SCRIBE_CSRF"].encode()):
        return False
    # the site sends Referrer-Policy: no-referrer, so its own form posts say "Origin: null";
    # the token is the guard, a foreign origin is refused on top of it
    origin = request.headers.get("Origin")
    return origin in (None, "null") or origin.rstrip("/") == request.host_url.rstrip("/")


@bp.before_request
def _guard() -> Any:
    if request.method == "POST" and not _csrf_ok():
        if request.is_json:
            return jsonify({"error": "the page's token is out of date (the server restarted?): reload", "code": "csrf"}), 403
        abort(403)
    return None


def _game_choices() -> list[dict[str, Any]]:
    out = []
    for gid in games.game_ids():
        engine = games.engine(gid)
        out.append({"id": gid, "title": games.ALL_GAMES.get(gid, gid), "seats": list(engine.seat_counts),
                    "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help}
                                for o in engine.options]})
    return out


@bp.route("/")
def index() -> str:
    return render_template("scribe_index.html", records=list_records(folder()), games=_game_choices(),
                           csrf=current_app.config["SCRIBE_CSRF"], error=request.args.get("error", ""),
                           folder=folder().name)


@bp.route("/new", methods=["POST"])
def new() -> Any:
    form = request.form
    game = form.get("game", "")
    engine = games.engine(game) if game in games.GAME_MODULES else None
    options = {}
    if engine is not None:
        for o in engine.options:
            value = form.get(f"opt-{game}-{o.name}", "").strip()
            if value:
                options[o.name] = value
    try:
        count = int(form.get("seats", "0") or 0)
    except ValueError:
        count = 0
    if not count and engine is not None:
        count = engine.seat_counts[0]
    players = [form.get(f"player{i}", "") for i in range(count)] if count else None
    try:
        path = create(folder(), form.get("name", ""), game, options, players, form.get("event", ""))
    except ScribeError as err:
        return redirect(url_for("scribe.index", error=err.message))
    return redirect(url_for("scribe.page", name=path.name))


@bp.route("/r/<name>")
def page(name: str) -> str:
    name = checked_name(name)
    try:
        record_path(folder(), name)
    except ScribeError as err:
        return render_template("error.html", message=err.message, title="refused" if err.status == 403 else "not found"), err.status
    return render_template("scribe.html", name=name, csrf=current_app.config["SCRIBE_CSRF"])


def _path_arg(raw: Any) -> list[list[int]]:
    if isinstance(raw, str):
        if len(raw) > 2000:
            raise ScribeError("bad line")
        try:
            raw = json.loads(raw or "[]")
        except (ValueError, RecursionError):
            raise ScribeError("bad line") from None
    if not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p) for p in raw):
        raise ScribeError("bad line")
    return [list(p) for p in raw]


def _snapshot(scribe: Scribe, path: list[list[int]]) -> dict[str, Any]:
    data = scribe.snapshot(path)
    dealing = data["phase"] in ("deal", "scored") and not path
    data["template"] = scribe.template() if dealing else ""
    data["palette"] = scribe.palette() if dealing else []
    return data


@bp.route("/api/<name>")
def state(name: str) -> Any:
    name = checked_name(name)
    try:
        scribe = Scribe(folder(), name)
        return jsonify(_snapshot(scribe, _path_arg(request.args.get("path", "[]"))))
    except ScribeError as err:
        return jsonify({"error": err.message}), err.status


def _op(name: str, body: Change) -> tuple[Scribe, list[list[int]]] | None:
    op, token = body.op, body.token
    if op == "open":
        locks().acquire(name, token, body.force)
        return None
    if op == "release":
        locks().release(name, token)
        return None
    locks().check(name, token)
    scribe = Scribe(folder(), name)
    version = body.version
    path = [list(p) for p in body.path]
    handlers: dict[str, Callable[[], Any]] = {
        "act": lambda: scribe.act(version, path, body.index, body.text),
        "write": lambda: scribe.write(version, path, body.text or ""),
        "annotate": lambda: scribe.annotate(version, path, body.index, body.comment, body.glyphs),
        "score": lambda: scribe.score(version, path, body.written or {}),
        "deal": lambda: scribe.deal(version, body.seed, body.setup),
        "finish": lambda: scribe.finish(version, body.result),
    }
    if op == "undo":
        _, path = scribe.undo(version, path, body.steps)
    elif op == "vary":
        path = scribe.vary(path, body.at)
    elif op in handlers:
        handlers[op]()
    else:
        raise ScribeError(f"unknown operation '{op}'")
    return scribe, path  # its record and text are the ones just saved


@bp.route("/api/<name>", methods=["POST"])
def change(name: str) -> Any:
    name = checked_name(name)
    body, problem = _body()
    if body is None:
        return jsonify({"error": problem, "status": 400}), 400
    try:
        with WRITING:  # one change at a time: the version check and the save go together
            done = _op(name, body)
        if done is None:
            return jsonify({"ok": True})
        scribe, path = done
        return jsonify(_snapshot(scribe, path))
    except ScribeError as err:
        return jsonify({"error": err.message, "status": err.status}), err.status
