"""The viewer: a local Flask site that steps through records (``paifu view PATH``).

``create_app(path)`` builds the site over a record file or a folder of them;
``serve(path, host, port)`` checks the path and runs it. The viewer never knows a rule:
every table it shows comes from ``replay`` (see :mod:`viewer.steps`).
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from .library import Library

__all__ = ["create_app", "serve"]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")


MAX_BODY = 1024 * 1024  # bytes a request may send (the scribe's largest, a hand's set-up lines, is a few KB)
REFUSALS = {  # the status of a request refused before any page ran, and what the page says
    400: ("bad request", "This request cannot be read: {error}"),
    405: ("not allowed", "This page does not take that kind of request."),
    413: ("too large", f"This request is larger than {MAX_BODY // 1024} KB, the most this viewer reads: nothing was read."),
}

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def host_name(header: str) -> str:
    """The host of a Host header, without its port ('[::1]:5000' -> '::1')."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def allowed_hosts(bound: str) -> frozenset[str] | None:
    """The Host names a site bound to ``bound`` answers; None (any) when bound to every address."""
    if bound in WILDCARDS:
        return None
    bound = bound.strip("[]").lower()
    return LOCAL_NAMES | {bound} if bound in LOCAL_NAMES or bound.startswith("127.") else frozenset({bound})


def create_app(path: str | os.PathLike[str], db: str | os.PathLike[str] | None = None,
               host: str = "127.0.0.1", scribe: str | os.PathLike[str] | None = None) -> Flask:
    """The Flask app serving the records under ``path`` (a file or a folder); ``db``, an
    index built by ``paifu index``, lists the files it holds unchanged without reading them;
    ``scribe``, a folder where records are written live (``/scribe/``, viewer/scribe.py).
    Requests whose Host header names another host than ``host`` are refused (DNS rebinding)."""
    from .routes import bp

    app = Flask(__name__)
    hosts = allowed_hosts(host)

    @app.before_request
    def _check_host():  # type: ignore[no-untyped-def]
        if hosts is not None and host_name(request.headers.get("Host", "")) not in hosts:
            return ("This viewer answers only requests for " + " or ".join(sorted(hosts)) + " (Host header refused).\n",
                    400, {"Content-Type": "text/plain; charset=utf-8"})
        return None

    app.config["LIBRARY"] = Library.at(path, db)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY  # a larger body is refused with 413 unread
    app.config["MAX_FORM_MEMORY_SIZE"] = MAX_BODY

    def _refused(err: HTTPException):  # type: ignore[no-untyped-def]
        title, message = REFUSALS[err.code or 400]
        message = message.format(error=err.description or "")
        if request.is_json or request.path.startswith("/scribe/api/"):
            return jsonify({"error": message, "status": err.code}), err.code
        return render_template("error.html", title=title, message=message), err.code

    for code in REFUSALS:
        app.register_error_handler(code, _refused)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the engines' order (info, seats)
    app.register_blueprint(bp)
    if scribe is not None:
        from .scribe import init_app as init_scribe

        init_scribe(app, scribe)

    @app.after_request
    def _headers(response):  # type: ignore[no-untyped-def]
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    return app


def check_path(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be viewed, or None when it holds something to show."""
    p = Path(path)
    if not p.exists():
        return f"{path}: no such file or directory"
    if p.is_dir():
        lib = Library.at(p)
        if not lib.files():
            refused = lib.refused()
            if refused:
                file, why = refused[0]
                more = f" and {len(refused) - 1} more" if len(refused) > 1 else ""
                return f"{path}: the folder holds no .paifu file that may be read ({file}{more}: {why})"
            return f"{path}: the folder holds no .paifu file"
        return None
    if not p.is_file():
        return f"{path}: not a regular file"
    try:
        with open(p, "rb") as handle:
            head = handle.read(4096)
    except OSError as err:
        return f"{path}: cannot read: {err.strerror or err}"
    if not head.strip():
        return f"{path}: the file is empty (no record to view)"
    return None


def serve(path: str | None, host: str = "127.0.0.1", port: int = 5000, db: str | None = None,
          scribe: str | None = None) -> int:
    """Run the site until interrupted; non-zero when ``path`` holds nothing to view. With
    ``scribe`` (a folder, created when missing) records are written live under ``/scribe/``;
    ``path`` is then that folder unless given."""
    if not 0 <= port <= 65535:
        print(f"paifu view: --port {port}: a port is a whole number from 0 to 65535 (0: any free port)", file=sys.stderr)
        return 2
    if scribe is not None:
        if Path(scribe).exists() and not Path(scribe).is_dir():
            print(f"paifu view: {scribe}: not a folder", file=sys.stderr)
            return 2
        try:
            Path(scribe).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            print(f"paifu view: {scribe}: cannot create the folder: {err.strerror or err}", file=sys.stderr)
            return 2
        path = path or scribe
    if path is None:
        print("paifu view: give a PATH to view, or --scribe DIR", file=sys.stderr)
        return 2
    problem = None if scribe is not None and Path(path) == Path(scribe) else check_path(path)
    if problem:
        print(f"paifu view: {problem}", file=sys.stderr)
        return 2
    if db is not None and not Path(db).is_file():
        print(f"paifu view: {db}: no index there (build one with 'paifu index {path} --db {db}')", file=sys.stderr)
        return 2
    app = create_app(path, db, host=host, scribe=scribe)
    library = app.config["LIBRARY"]
    count = len(library.files())
    try:
        probe_port(host, port)
        server = make_quiet_server(host, port, app)
    except (OSError, OverflowError) as err:
        if isinstance(err, OSError) and err.errno == errno.EADDRINUSE:
            print(f"paifu view: port {port} is in use on {host} (another paifu view?): choose another with --port", file=sys.stderr)
        else:
            print(f"paifu view: cannot listen on {host}:{port}: {getattr(err, 'strerror', None) or err}", file=sys.stderr)
        return 2
    # read and check the records while the browser opens; the index shows them as they come
    library.start_scan()
    if host not in LOCAL_NAMES:
        print(f"paifu view: warning: serving on {host}, reachable from other machines", file=sys.stderr)
    shown = f"[{host}]" if ":" in host else host
    print(f"paifu view: {count} file(s) from {path} at http://{shown}:{server.server_port}/ (Ctrl-C to stop)", file=sys.stderr)
    if scribe is not None:
        print(f"paifu view: the scribe writes records into {scribe} at http://{shown}:{server.server_port}/scribe/", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def probe_port(host: str, port: int) -> None:
    """Raise OSError when ``host:port`` cannot be listened on (werkzeug would exit instead)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself binds
        sock.bind((host, port))
        sock.listen(1)


def make_quiet_server(host: str, port: int, app: Flask):  # type: ignore[no-untyped-def]
    """Werkzeug's threaded server, bound now (so a port in use fails before anything is
    printed), answering with a plain ``Server: paifu`` header (no version numbers)."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    class Handler(WSGIRequestHandler):
        def version_string(self) -> str:
            return "paifu"

        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            pass  # no line per request on the terminal

    return make_server(host, port, app, threaded=True, request_handler=Handler)
