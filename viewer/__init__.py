"""The viewer: a local Flask site that steps through records (``paifu view PATH``).

``create_app(path)`` builds the site over a record file or a folder of them;
``serve(path, host, port)`` checks the path and runs it. The viewer never knows a rule:
every table it shows comes from ``replay`` (see :mod:`viewer.steps`).
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from flask import Flask

from .library import Library

__all__ = ["create_app", "serve"]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")


def create_app(path: str | os.PathLike[str], db: str | os.PathLike[str] | None = None,
               scribe: str | os.PathLike[str] | None = None) -> Flask:
    """The Flask app serving the records under ``path`` (a file or a folder); ``db``, an
    index built by ``paifu index``, lists the files it holds unchanged without reading them;
    ``scribe``, a folder where records are written live (``/scribe/``, viewer/scribe.py)."""
    from .routes import bp

    app = Flask(__name__)
    app.config["LIBRARY"] = Library.at(path, db)
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
    if scribe is not None:
        if Path(scribe).exists() and not Path(scribe).is_dir():
            print(f"paifu view: {scribe}: not a folder", file=sys.stderr)
            return 2
        Path(scribe).mkdir(parents=True, exist_ok=True)
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
    app = create_app(path, db, scribe)
    library = app.config["LIBRARY"]
    count = len(library.files())
    # read and check the records while the browser opens, so the index comes at once
    threading.Thread(target=library.all_summaries, name="paifu-index", daemon=True).start()
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"paifu view: warning: serving on {host}, reachable from other machines", file=sys.stderr)
    shown = f"[{host}]" if ":" in host else host
    print(f"paifu view: {count} file(s) from {path} at http://{shown}:{port}/ (Ctrl-C to stop)", file=sys.stderr)
    if scribe is not None:
        print(f"paifu view: the scribe writes records into {scribe} at http://{shown}:{port}/scribe/", file=sys.stderr)
    try:
        app.run(host=host, port=port, debug=False, use_reloader=False)
    except OSError as err:
        print(f"paifu view: cannot listen on {host}:{port}: {err.strerror or err}", file=sys.stderr)
        return 2
    return 0
