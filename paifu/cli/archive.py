"""``paifu index`` and ``paifu search``: the archive index (:mod:`paifu.archive`), built and
searched from the command line.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys

from paifu.archive import Query, SchemaError, build_index, explain, open_db, search_checked
from paifu.batch import ExecutorError, auto_jobs, close_dask, dask_client


def _progress(quiet: bool):
    """A rich progress bar on stderr when it is a terminal (None otherwise or when quiet)."""
    if quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=Console(stderr=True), transient=True)


def cmd_index(args) -> int:
    try:
        conn = open_db(args.db, rebuild=getattr(args, "rebuild", False))
    except SchemaError as err:
        print(f"paifu index: {err}", file=sys.stderr)
        return 2
    jobs = args.jobs
    if jobs == 0:
        jobs = auto_jobs(args.paths)
    client = None
    if args.executor == "dask":
        try:
            client = dask_client(args.scheduler, args.jobs or 2)
        except ExecutorError as err:
            print(f"paifu index: {err}", file=sys.stderr)
            conn.close()
            return 2
    bar = _progress(args.quiet)
    task = None
    records = 0

    def plan(n: int) -> None:
        nonlocal task
        if bar is not None:
            task = bar.add_task("indexing", total=n)
            bar.start()

    def on_file(path: str, n: int) -> None:
        nonlocal records
        records += n
        if bar is not None and task is not None:
            bar.update(task, advance=1, description=f"indexing ({records} records)")

    try:
        stats = build_index(conn, args.paths, jobs, on_file, plan, client, verify=getattr(args, "verify", False))
    except sqlite3.Error as err:  # locked past the timeout, or damage met while writing
        print(f"paifu index: {explain(args.db, err)} (every file finished before this stays indexed)", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.stop()
        if client is not None:
            close_dask(client)
        conn.close()
    for m in stats.missing:
        print(f"{m}:0:0: P110 no such file or directory (dropped from the index)", file=sys.stderr)
    if not args.quiet:
        print(f"{args.db}: {stats.files_read} file(s) read ({stats.records} record(s), {stats.hands} hand(s), "
              f"{stats.invalid} invalid), {stats.files_unchanged} unchanged, {stats.files_removed} removed "
              f"in {stats.seconds:.2f}s" + (f"; verified: {stats.files_hidden} changed behind the same size and time"
                                            if stats.verified else ""))
    for problem in stats.unlisted:
        print(f"paifu index: {problem} (its files stay in the index as they were)", file=sys.stderr)
    return 2 if stats.missing or stats.unlisted else 0


def _shown_path(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def _say_freshness(db: str, hits: list[dict], gone: list[str]) -> None:
    """On standard error: indexed files that are gone (not listed) and files changed since
    they were indexed (listed, ``stale``), each with what to run."""
    stale = list(dict.fromkeys(h["path"] for h in hits if h["stale"]))
    for path in gone:
        print(f"paifu search: {_shown_path(path)}: indexed, but no longer exist(s); its records are not listed"
              f" ('paifu index FOLDER --db {db}' drops it)", file=sys.stderr)
    for path in stale:
        print(f"paifu search: {_shown_path(path)}: changed since it was indexed: the index is older than the file and its"
              f" results may be out of date ('paifu index FOLDER --db {db}' reads it again)", file=sys.stderr)


def cmd_search(args) -> int:
    try:
        conn = open_db(args.db, create=False)
    except SchemaError as err:
        print(f"paifu search: {err}", file=sys.stderr)
        return 2
    try:
        hits, gone = search_checked(conn, Query(game=args.game, player=args.player, since=args.since, until=args.until,
                                                item=args.item, invalid=args.invalid, code=args.code, limit=args.limit))
    except sqlite3.Error as err:
        print(f"paifu search: {explain(args.db, err)}", file=sys.stderr)
        return 2
    finally:
        conn.close()
    _say_freshness(args.db, hits, gone)
    if args.json:
        print(json.dumps(hits, ensure_ascii=False, indent=2))
        return 0 if hits else 1
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 200)
    table = Table(title=f"{len(hits)} record(s)", caption="#: the record's place in its file; @: its byte offset")
    for col in ("path:line", "#", "@", "game", "date", "players", "result", "valid", "codes") + (("hands",) if args.item else ()):
        table.add_column(col, overflow="fold", no_wrap=col == "path:line", justify="right" if col in "#@" else "left")
    for h in hits:
        players = "; ".join(f"{s}: {n}" for s, n in h["players"].items())
        row = [f"{_shown_path(h['path'])}:{h['line']}", str(h["index"]), str(h["offset"]), h["game"] or "", h["date"] or "",
               players, h["result"] or "", "yes" if h["valid"] else "[red]no[/red]", " ".join(h["codes"])]
        if args.item:
            row.append(" ".join(map(str, h.get("item_hands", []))))
        table.add_row(*row)
    console.print(table)
    return 0 if hits else 1
