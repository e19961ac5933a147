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

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.security import safe_join

from paifu.replay import games

from .scribe_session import Locks, Scribe, ScribeError, create, list_records, record_name, record_path

bp = Blueprint("scribe", __name__, url_prefix="/scribe")
WRITING = threading.Lock()


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
    body = request.get_json(silent=True) if request.is_json else None
    from_body = body.get("csrf") if isinstance(body, dict) and isinstance(body.get("csrf"), str) else None
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
        return render_template("error.html", message=err.message), err.status
    return render_template("scribe.html", name=name, csrf=current_app.config["SCRIBE_CSRF"])


def _path_arg(raw: Any) -> list[list[int]]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw or "[]")
        except ValueError:
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


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _op(name: str, body: dict[str, Any]) -> tuple[Scribe, list[list[int]]] | None:
    op: str = body.get("op", "")
    token = str(body.get("token", ""))
    if op == "open":
        locks().acquire(name, token, bool(body.get("force")))
        return None
    if op == "release":
        locks().release(name, token)
        return None
    locks().check(name, token)
    scribe = Scribe(folder(), name)
    version = str(body.get("version", ""))
    path = _path_arg(body.get("path", []))
    handlers: dict[str, Callable[[], Any]] = {
        "act": lambda: scribe.act(version, path, int(body.get("index", -1)), _text(body.get("text"))),
        "write": lambda: scribe.write(version, path, str(body.get("text", ""))),
        "annotate": lambda: scribe.annotate(version, path, int(body.get("index", -1)), _text(body.get("comment")),
                                            [g for g in body.get("glyphs", []) if isinstance(g, str)]),
        "score": lambda: scribe.score(version, path, {str(k): int(v) for k, v in (body.get("written") or {}).items()}),
        "deal": lambda: scribe.deal(version, body["seed"] if isinstance(body.get("seed"), int) else None,
                                    body["setup"] if isinstance(body.get("setup"), str) else None),
        "finish": lambda: scribe.finish(version, str(body.get("result", ""))),
    }
    if op == "undo":
        _, path = scribe.undo(version, path, int(body.get("steps", 1)))
    elif op == "vary":
        path = scribe.vary(path, int(body.get("at", -1)))
    elif op in handlers:
        handlers[op]()
    else:
        raise ScribeError(f"unknown operation '{op}'")
    return scribe, path  # its record and text are the ones just saved


@bp.route("/api/<name>", methods=["POST"])
def change(name: str) -> Any:
    name = checked_name(name)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify({"error": "a JSON object is expected"}), 400
    try:
        with WRITING:  # one change at a time: the version check and the save go together
            done = _op(name, body)
        if done is None:
            return jsonify({"ok": True})
        scribe, path = done
        return jsonify(_snapshot(scribe, path))
    except ScribeError as err:
        return jsonify({"error": err.message, "status": err.status}), err.status
    except (TypeError, ValueError) as err:
        return jsonify({"error": f"bad request: {err}"}), 400
