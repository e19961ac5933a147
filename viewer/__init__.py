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

from flask import Flask, request

from .library import Library

__all__ = ["create_app", "serve"]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")


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
               host: str = "127.0.0.1") -> Flask:
    """The Flask app serving the records under ``path`` (a file or a folder); ``db``, an
    index built by ``paifu index``, lists the files it holds unchanged without reading them.
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
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the engines' order (info, seats)
    app.register_blueprint(bp)

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


def serve(path: str, host: str = "127.0.0.1", port: int = 5000, db: str | None = None) -> int:
    """Run the site until interrupted; non-zero when ``path`` holds nothing to view."""
    problem = check_path(path)
    if problem:
        print(f"paifu view: {problem}", file=sys.stderr)
        return 2
    if db is not None and not Path(db).is_file():
        print(f"paifu view: {db}: no index there (build one with 'paifu index {path} --db {db}')", file=sys.stderr)
        return 2
    app = create_app(path, db, host=host)
    library = app.config["LIBRARY"]
    count = len(library.files())
    try:
        probe_port(host, port)
        server = make_quiet_server(host, port, app)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            print(f"paifu view: port {port} is in use on {host} (another paifu view?): choose another with --port", file=sys.stderr)
        else:
            print(f"paifu view: cannot listen on {host}:{port}: {err.strerror or err}", file=sys.stderr)
        return 2
    # read and check the records while the browser opens; the index shows them as they come
    library.start_scan()
    if host not in LOCAL_NAMES:
        print(f"paifu view: warning: serving on {host}, reachable from other machines", file=sys.stderr)
    shown = f"[{host}]" if ":" in host else host
    print(f"paifu view: {count} file(s) from {path} at http://{shown}:{server.server_port}/ (Ctrl-C to stop)", file=sys.stderr)
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
