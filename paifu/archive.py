"""Archives: an SQLite index of record files, kept up to date incrementally, and its search.

``paifu index PATH... --db FILE`` reads every ``.paifu`` file under the paths one record at
a time (the reader's :func:`split_records`, so memory stays flat on a large file), replays
each record and writes one row per record and per hand. Each file is written in its own
transaction: an interrupted run leaves every file it finished indexed and the others as
they were. A file is read again only when its size or modification time changed *and* its
content hash differs; files that disappeared from the indexed folders drop out.

``paifu search`` queries the index (:func:`search`) and names, for every record found, its
path, its 1-based index in the file and its byte offset, so ``paifu validate`` or
``paifu view`` can find it.

The database layout is versioned (table ``schema_version``); :func:`open_db` brings an
older database up to :data:`SCHEMA_VERSION` with the steps in :data:`MIGRATIONS`.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import time
from contextlib import contextmanager
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from paifu import inputs
from paifu.files import DEFAULT_DB  # noqa: F401 - the index file paifu index and search name by default
from paifu.inputs import ByteRange
from paifu.notation.diagnostics import internal_error
from paifu.notation.model import Record
from paifu.notation.reader import Chunk, iter_paths, read_chunk
from paifu.replay.validate import validate_read

SCHEMA_VERSION = 2
BATCH_RECORDS = 500  # rows are written with executemany, this many records at a time

# -- schema --------------------------------------------------------------------------------
# Version 1 (kept for the migration and its test): no hand winners, no item terms.
SCHEMA_V1 = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, records INTEGER NOT NULL DEFAULT 0,
    indexed_at REAL NOT NULL);
CREATE TABLE records (
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL, byte_offset INTEGER NOT NULL, line INTEGER NOT NULL, game TEXT,
    players TEXT NOT NULL, date TEXT, date_iso TEXT, event TEXT, result TEXT,
    valid INTEGER NOT NULL, errors INTEGER NOT NULL, notes INTEGER NOT NULL,
    codes TEXT NOT NULL, totals TEXT NOT NULL, hands INTEGER NOT NULL);
CREATE TABLE players (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    seat TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL);
CREATE TABLE diagnostics (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    code TEXT NOT NULL, severity TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL,
    message TEXT NOT NULL);
CREATE TABLE hands (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    pos INTEGER NOT NULL, number INTEGER, line INTEGER NOT NULL, dealer TEXT,
    over INTEGER NOT NULL, events INTEGER NOT NULL, computed TEXT, written TEXT,
    PRIMARY KEY (record_id, pos));
CREATE TABLE items (
    record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    hand_pos INTEGER NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL);
CREATE INDEX records_file ON records(file_id);
CREATE INDEX records_game_date ON records(game, date_iso);
CREATE INDEX players_name ON players(name_key);
CREATE INDEX players_record ON players(record_id);
CREATE INDEX diagnostics_code ON diagnostics(code);
CREATE INDEX diagnostics_record ON diagnostics(record_id);
CREATE INDEX items_name ON items(name);
CREATE INDEX items_record ON items(record_id, hand_pos);
"""


def _migrate_1_to_2(conn: sqlite3.Connection) -> None:
    """Version 2: each hand's winners, each scoring item's seed term.

    Both are computed by replaying, which a migration cannot do: the new columns start
    empty and every file is marked for reading again (its hash is cleared), so the next
    ``paifu index`` fills them in.
    """
    conn.execute("ALTER TABLE hands ADD COLUMN winners TEXT NOT NULL DEFAULT ''")
    conn.execute("ALTER TABLE items ADD COLUMN term TEXT NOT NULL DEFAULT ''")
    conn.execute("CREATE INDEX items_term ON items(term)")
    conn.execute("CREATE INDEX items_name_nocase ON items(name COLLATE NOCASE)")
    conn.execute("UPDATE files SET sha256 = ''")


# from-version -> the step that brings a database to the next version
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2}


SQLITE_HEADER = b"SQLite format 3\x00"
TIMEOUT_ENV = "PAIFU_DB_TIMEOUT"  # seconds to wait for another writer (default DEFAULT_TIMEOUT)
DEFAULT_TIMEOUT = 5.0


class SchemaError(Exception):
    """The index cannot be used: missing, newer than this paifu, not a paifu index, damaged
    or in use; the message names the file and what to do."""


class IndexBusy(SchemaError):
    """Another program held the index's write lock for longer than the timeout."""


class IndexDamaged(SchemaError):
    """The file is an SQLite database that fails its check (or is empty)."""


def lock_timeout() -> float:
    """How long to wait for another writer: ``$PAIFU_DB_TIMEOUT`` seconds, else 5."""
    try:
        value = float(os.environ.get(TIMEOUT_ENV, DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value >= 0 else DEFAULT_TIMEOUT


def _errorname(err: sqlite3.Error) -> str:
    """SQLite's name of the error (``SQLITE_BUSY``...), its primary code only."""
    return "_".join((getattr(err, "sqlite_errorname", None) or "").split("_")[:2])


def _is_busy(err: sqlite3.Error) -> bool:
    text = str(err).lower()
    return _errorname(err) in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in text or "busy" in text


def lock_holders(path: str | os.PathLike[str]) -> list[tuple[int, list[str]]]:
    """The processes that hold the database's write lock, with their command lines, as far
    as this system tells (Linux's /proc/locks; elsewhere, or when unreadable, none).

    SQLite's locks are POSIX locks: a write lock on the database file (rollback journal),
    or on byte 120 of its ``-shm`` file (the WAL write lock)."""
    try:
        db = os.stat(path)
        targets = {(db.st_dev, db.st_ino): None}
        try:
            shm = os.stat(f"{path}-shm")
            targets[(shm.st_dev, shm.st_ino)] = 120
        except OSError:
            pass
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    pids: list[int] = []
    for line in lines:
        fields = line.split()
        try:
            kind, pid, (major, minor, inode), start = fields[3], int(fields[4]), fields[5].split(":"), fields[6]
            key = (os.makedev(int(major, 16), int(minor, 16)), int(inode))
        except (IndexError, ValueError):
            continue
        if kind != "WRITE" or pid == os.getpid() or key not in targets or pid in pids:
            continue
        if targets[key] is None or start == str(targets[key]):
            pids.append(pid)
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = [a.decode("utf-8", "replace") for a in handle.read().split(b"\0") if a]
        except OSError:
            argv = []
        out.append((pid, argv))
    return out


def _holder_text(path: str | os.PathLike[str]) -> str:
    """'another paifu (pid 123: paifu index club/)', 'another program (pid 9: sqlite3 x)' or
    'another program' when the holder cannot be told."""
    holders = lock_holders(path)
    if not holders:
        return "another program (another 'paifu index'?)"
    pid, argv = holders[0]
    is_paifu = bool(argv) and (Path(argv[0]).name == "paifu" or argv[1:3] == ["-m", "paifu"])
    shown = (["paifu"] + argv[3:] if argv[1:3] == ["-m", "paifu"] else argv) if is_paifu else argv
    command = " ".join(" ".join(shown).split())  # one line
    command = command if len(command) <= 80 else command[:77] + "..."
    return f"another {'paifu' if is_paifu else 'program'} (pid {pid}{': ' + command if command else ''})"


def explain(path: str | os.PathLike[str], err: sqlite3.Error) -> SchemaError:
    """An sqlite3 error while using the index at ``path``, as the message a user acts on."""
    if _is_busy(err):
        return IndexBusy(f"{path}: the index is in use by {_holder_text(path)}, which kept it locked for more than"
                         f" {lock_timeout():g} s; run again when it is done (${TIMEOUT_ENV}=SECONDS waits longer)")
    name = _errorname(err)
    if name == "SQLITE_FULL":
        return SchemaError(f"{path}: the disk is full ({err}); free some space and run again")
    if name in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"):
        return SchemaError(f"{path}: the index cannot be opened or written here ({err}); check the folder and the"
                           " file's permissions, or name another file with --db")
    if name == "SQLITE_IOERR":
        return SchemaError(f"{path}: the disk could not be read or written ({err}); run again, and if it goes on,"
                           f" rebuild the index with 'paifu index PATH... --db {path} --rebuild'")
    return IndexDamaged(f"{path}: the index is damaged ({err}); rebuild it with 'paifu index PATH... --db {path} --rebuild'"
                        f" (or delete it: rm {path})")


def _begin(conn: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE, tried again while another writer holds the lock, for at most the
    timeout in all (sqlite3's own busy wait covers most of it; this covers the cases where
    SQLite answers "busy" at once, such as a WAL being recovered)."""
    deadline = time.monotonic() + lock_timeout()
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as err:
            if not _is_busy(err) or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


@contextmanager
def _tx(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (the connection is in autocommit mode otherwise)."""
    _begin(conn)
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def schema_version(conn: sqlite3.Connection) -> int:
    """The layout version of a database; 0 when it has no paifu tables yet."""
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if not has:
        others = conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
        if others:
            raise SchemaError("this database is not a paifu index (it has other tables)")
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection) -> int:
    """Create the tables, or bring an older layout up to :data:`SCHEMA_VERSION`; return it.

    Each step reads the version inside its write transaction, so two paifu creating one new
    index at once make it once (the second waits, then finds the tables there)."""
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise SchemaError(f"the index has layout version {version}; this paifu reads up to {SCHEMA_VERSION}")
    while version < SCHEMA_VERSION:
        with _tx(conn):
            version = schema_version(conn)
            if version == 0:
                for statement in SCHEMA_V1.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT INTO schema_version VALUES (1)")
                version = 1
            elif version < SCHEMA_VERSION:
                MIGRATIONS[version](conn)
                version += 1
                conn.execute("UPDATE schema_version SET version = ?", (version,))
    return version


def _what_is_there(path: Path) -> str:
    """'none', 'empty', 'sqlite', 'other' or 'special' (not a regular file: a FIFO, a device,
    a folder), from the file's first bytes (nothing is written)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return "special"
    except FileNotFoundError:
        return "none"
    except OSError as err:
        raise SchemaError(f"{path}: cannot read the index: {err.strerror or err}") from err
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return "none"
    except OSError as err:
        raise SchemaError(f"{path}: cannot read the index: {err.strerror or err}") from err
    if not head:
        return "empty"
    return "sqlite" if head == SQLITE_HEADER else "other"


def _refuse_others(path: Path) -> str:
    """What is at ``path`` (:func:`_what_is_there`), refusing what is not SQLite or not a file."""
    kind = _what_is_there(path)
    if kind == "other":
        raise SchemaError(f"{path}: not an SQLite database (nor a paifu index): left as it is; name another file with --db")
    if kind == "special":
        raise SchemaError(f"{path}: not a regular file (a folder, a FIFO, a device or a socket): left as it is;"
                          " name a file with --db")
    return kind


def check_db(conn: sqlite3.Connection, path: str | os.PathLike[str]) -> None:
    """``PRAGMA quick_check`` and the tables: raise unless this is a sound paifu index (or a
    new, empty database). Reads only."""
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)").fetchall()]
        if problems != ["ok"]:
            raise IndexDamaged(f"{path}: the index is damaged (PRAGMA quick_check: {'; '.join(problems)}); rebuild it with"
                               f" 'paifu index PATH... --db {path} --rebuild' (or delete it: rm {path})")
        schema_version(conn)
    except sqlite3.Error as err:
        raise explain(path, err) from err
    except SchemaError as err:
        if isinstance(err, IndexDamaged):
            raise
        raise SchemaError(f"{path}: {err}: left as it is; name another file with --db") from err


def open_db(path: str | os.PathLike[str], create: bool = True, rebuild: bool = False) -> sqlite3.Connection:
    """Open (and create or migrate) an index; WAL journal, foreign keys on.

    Nothing is written before the file is known to be a paifu index or a new file: an empty
    file, a damaged index, another program's SQLite database or a file that is not SQLite at
    all is a :class:`SchemaError` naming it and what to do. With ``rebuild`` an empty file
    or a paifu index (sound or damaged) is deleted first and made again; other files still
    are not touched. Waiting for another writer is bounded by :func:`lock_timeout`."""
    where = Path(path)
    kind = _refuse_others(where)
    if rebuild and kind in ("empty", "sqlite"):
        _remove_index(where, kind)
        kind = "none"
    if kind == "none" and not create:
        raise SchemaError(f"no index at {path} (build one with 'paifu index PATH --db {path}')")
    if kind == "none":
        _create(where)
        kind = _refuse_others(where)
    if kind == "empty":
        raise IndexDamaged(f"{path}: the file is empty (0 bytes): not a paifu index; if it is one left by a failed run,"
                           f" make it again with 'paifu index PATH... --db {path} --rebuild' (or delete it: rm {path})")
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=lock_timeout())  # transactions are explicit (_tx)
    except sqlite3.Error as err:
        raise explain(path, err) from err
    try:
        if kind == "sqlite":
            check_db(conn, path)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
    except SchemaError as err:
        conn.close()
        if str(err).startswith(str(path)):
            raise
        raise SchemaError(f"{path}: {err}") from err
    except sqlite3.Error as err:
        conn.close()
        raise explain(path, err) from err
    return conn


def _create(path: Path) -> None:
    """Make a new, empty index at ``path`` all at once: written beside it under another name,
    then linked into place, so another paifu never sees a half-made file (an empty one it
    would refuse) and two creating it together keep one (the second finds it there)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.new")
    try:
        conn = sqlite3.connect(str(tmp), isolation_level=None, timeout=lock_timeout())
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            migrate(conn)
        finally:
            conn.close()  # the last connection: the WAL is folded in and removed
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # made by another paifu meanwhile (or a dangling link is there): not replaced
        except OSError:  # a file system without hard links
            if not os.path.lexists(path):
                os.replace(tmp, path)
    except sqlite3.Error as err:
        raise explain(path, err) from err
    except OSError as err:
        if err.errno == errno.ENOENT:
            raise SchemaError(f"{path}: the index cannot be made here: no such folder ({path.parent})") from err
        raise SchemaError(f"{path}: the index cannot be made here: {err.strerror or err}") from err
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(f"{tmp}{suffix}")
            except OSError:
                pass


def _remove_index(path: Path, kind: str) -> None:
    """For ``--rebuild``: delete an empty file or a paifu index, sound or damaged (its tables
    are named in the file's schema, or the schema cannot be read); refuse anything else."""
    if kind == "sqlite":
        try:
            conn = sqlite3.connect(f"file:{path.absolute().as_posix()}?mode=ro", uri=True, timeout=lock_timeout())
            try:
                names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            finally:
                conn.close()
            if names and not {"schema_version", "files", "records"} <= names:
                raise SchemaError(f"{path}: this database is not a paifu index (it has other tables): left as it is,"
                                  " even with --rebuild; name another file with --db")
        except sqlite3.Error as err:
            if _is_busy(err):
                raise explain(path, err) from err
            # the schema itself is unreadable: a damaged file that starts as SQLite; the
            # user named it as the index and asked for it to be made again
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(f"{path}{suffix}")
        except FileNotFoundError:
            pass


# -- reading a file into rows ------------------------------------------------------------
@dataclass
class RecordRows:
    """What the index keeps of one record (plain data: it crosses process boundaries)."""

    idx: int
    offset: int
    line: int
    game: str | None
    players: dict[str, str]
    date: str | None
    event: str | None
    result: str | None
    valid: bool
    totals: dict[str, int]
    diagnostics: list[tuple[str, str, int, int, str]]  # code, severity, line, col, message
    hands: list[tuple[int | None, int, str | None, bool, int, str | None, str | None, str]] = field(default_factory=list)
    items: list[tuple[int, str, str, int, str]] = field(default_factory=list)  # hand_pos, seat, name, value, term
    n_hands: int = 0  # hand lines in the record (the hands table holds those replayed)


def iso_date(text: str | None) -> str | None:
    """``2026.11.19`` -> ``2026-11-19``; unknown parts (``??``) end the date early."""
    if not text:
        return None
    parts = text.strip().replace("/", ".").replace("-", ".").split(".")
    out: list[str] = []
    for i, part in enumerate(parts[:3]):
        if not part.isdigit():
            break
        out.append(part.zfill(4 if i == 0 else 2))
    return "-".join(out) or None


def record_rows(path: str, chunk: Chunk, index: int, offset: int) -> RecordRows:
    """Parse and replay one record's text and keep what the index stores (runs in workers).

    An internal error in one record is that record's X901 row; the run goes on."""
    try:
        return _record_rows(path, chunk, index, offset)
    except Exception as exc:  # noqa: BLE001 - one record's bug never ends the run
        d = internal_error(exc, chunk.line, 1 if chunk.line else 0, path)
        return RecordRows(idx=index, offset=offset, line=chunk.line, game=None, players={}, date=None, event=None,
                          result=None, valid=False, totals={}, diagnostics=[(d.code, d.severity, d.line, d.col, d.message)])


def _record_rows(path: str, chunk: Chunk, index: int, offset: int) -> RecordRows:
    result = read_chunk(chunk, path)
    report = validate_read(result, index)
    record: Record | None = result.record
    rows = RecordRows(
        idx=index, offset=offset, line=result.line, game=report.game, players=dict(report.players),
        date=record.tag("Date") if record else None, event=record.tag("Event") if record else None,
        result=record.tag("Result") if record else None, valid=report.valid, totals=dict(report.totals),
        diagnostics=[(d.code, d.severity, d.line, d.col, d.message) for d in report.diagnostics],
    )
    hands = record.hands if record is not None else []
    rows.n_hands = len(hands)
    for pos, hand_report in enumerate(report.hands):
        hand = hands[pos] if pos < len(hands) else None
        dealer = hand.attr("dealer") if hand is not None else None
        computed = hand_report.computed
        winners = " ".join(s for s, v in (computed or {}).items() if v > 0)
        rows.hands.append((
            hand_report.number, hand_report.line, dealer.value if dealer else None, hand_report.over,
            len(hand.events) if hand is not None else 0,
            json.dumps(computed) if computed is not None else None,
            json.dumps(hand_report.written) if hand_report.written is not None else None,
            winners,
        ))
        rows.items += [(pos, i.seat, i.name, i.value, i.term) for i in hand_report.items]
    return rows


def _unreadable_rows(path: str, message: str, code: str = "P110") -> RecordRows:
    return RecordRows(idx=0, offset=0, line=0, game=None, players={}, date=None, event=None, result=None,
                      valid=False, totals={}, diagnostics=[(code, "error", 0, 0, message)])


# -- writing -------------------------------------------------------------------------------
@dataclass
class IndexStats:
    files_read: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    records: int = 0
    hands: int = 0
    invalid: int = 0
    missing: list[str] = field(default_factory=list)
    unlisted: list[str] = field(default_factory=list)  # folders that could not be listed, with why
    verified: bool = False  # every unchanged-looking file's content hash was read again (--verify)
    files_hidden: int = 0  # of those, files whose bytes changed behind the same size and mtime
    seconds: float = 0.0


class _FileWriter:
    """Writes one file's rows inside one transaction, in batches of executemany."""

    def __init__(self, conn: sqlite3.Connection, path: str):
        self.conn = conn
        self.path = path
        self.pending: list[RecordRows] = []
        self.count = 0
        self.hands = 0
        self.invalid = 0
        _begin(conn)
        conn.execute("DELETE FROM files WHERE path = ?", (path,))  # cascades to its records
        cur = conn.execute("INSERT INTO files (path, size, mtime_ns, sha256, records, indexed_at) VALUES (?, 0, 0, '', 0, ?)",
                           (path, time.time()))
        self.file_id = cur.lastrowid
        self.next_id = (conn.execute("SELECT coalesce(max(id), 0) FROM records").fetchone()[0]) + 1

    def add(self, rows: RecordRows) -> None:
        self.pending.append(rows)
        if len(self.pending) >= BATCH_RECORDS:
            self.flush()

    def flush(self) -> None:
        recs, players, diags, hands, items = [], [], [], [], []
        for r in self.pending:
            rid = self.next_id
            self.next_id += 1
            errors = sum(1 for d in r.diagnostics if d[1] == "error")
            codes = " ".join(dict.fromkeys(d[0] for d in r.diagnostics))
            recs.append((rid, self.file_id, r.idx, r.offset, r.line, r.game, json.dumps(r.players, ensure_ascii=False),
                         r.date, iso_date(r.date), r.event, r.result, int(r.valid), errors, len(r.diagnostics) - errors,
                         codes, json.dumps(r.totals), r.n_hands))
            players += [(rid, seat, name, name.casefold()) for seat, name in r.players.items()]
            diags += [(rid, *d) for d in r.diagnostics]
            hands += [(rid, pos, *h) for pos, h in enumerate(r.hands)]
            items += [(rid, *i) for i in r.items]
            self.count += 1
            self.hands += len(r.hands)
            self.invalid += not r.valid
        c = self.conn
        c.executemany("INSERT INTO records (id, file_id, idx, byte_offset, line, game, players, date, date_iso, event, result,"
                      " valid, errors, notes, codes, totals, hands) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", recs)
        c.executemany("INSERT INTO players (record_id, seat, name, name_key) VALUES (?,?,?,?)", players)
        c.executemany("INSERT INTO diagnostics (record_id, code, severity, line, col, message) VALUES (?,?,?,?,?,?)", diags)
        c.executemany("INSERT INTO hands (record_id, pos, number, line, dealer, over, events, computed, written, winners)"
                      " VALUES (?,?,?,?,?,?,?,?,?,?)", hands)
        c.executemany("INSERT INTO items (record_id, hand_pos, seat, name, value, term) VALUES (?,?,?,?,?,?)", items)
        self.pending = []

    def commit(self, size: int, mtime_ns: int, sha: str) -> None:
        self.flush()
        self.conn.execute("UPDATE files SET size = ?, mtime_ns = ?, sha256 = ?, records = ? WHERE id = ?",
                          (size, mtime_ns, sha, self.count, self.file_id))
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def _scope(paths: Sequence[str], unlisted: list[tuple[str, OSError]]) -> tuple[list[Path], list[str], list[str]]:
    """The files under the paths, the folders and files to prune within, the missing paths
    (folders that cannot be listed go to ``unlisted``)."""
    files: list[Path] = []
    dirs: list[str] = []
    missing: list[str] = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            dirs.append(os.path.abspath(p))
            folders: list[tuple[Path, OSError]] = []
            files += [Path(os.path.abspath(q)) for q in iter_paths([p], folders)]
            unlisted += [(os.path.abspath(folder), err) for folder, err in folders]
        elif p.exists():
            files.append(Path(os.path.abspath(p)))
        else:
            missing.append(os.path.abspath(p))
    seen: set[str] = set()
    unique = []
    for f in files:
        key = os.path.normpath(str(f))
        if key not in seen:
            seen.add(key)
            unique.append(Path(key))
    return unique, dirs, missing


def _prune(conn: sqlite3.Connection, dirs: list[str], missing: list[str], present: set[str], keep: list[str]) -> int:
    """Drop files of the indexed folders (or named paths) that are gone; return how many.

    Files under a folder in ``keep`` (one that could not be listed) stay."""
    gone: list[str] = [m for m in missing]
    kept = tuple(k.rstrip(os.sep) + os.sep for k in keep)
    for d in dirs:
        prefix = d.rstrip(os.sep) + os.sep
        rows = conn.execute("SELECT path FROM files WHERE substr(path, 1, ?) = ?", (len(prefix), prefix)).fetchall()
        gone += [r[0] for r in rows if r[0] not in present and not r[0].startswith(kept) and not Path(r[0]).is_file()]
    removed = 0
    with _tx(conn):
        for path in gone:
            removed += conn.execute("DELETE FROM files WHERE path = ?", (path,)).rowcount
    return removed


def _needs_reading(conn: sqlite3.Connection, path: str, st: os.stat_result, verify: bool = False) -> str:
    """'read' (new, or changed: size or mtime differ and the content hash confirms it),
    'unchanged', or with ``verify`` 'hidden': same size and mtime, yet another hash."""
    row = conn.execute("SELECT size, mtime_ns, sha256 FROM files WHERE path = ?", (path,)).fetchone()
    if row is None or not row[2]:
        return "read"
    size, mtime_ns, sha = row
    same_stamp = size == st.st_size and mtime_ns == st.st_mtime_ns
    if same_stamp and not verify:
        return "unchanged"
    try:
        if inputs.file_hash(path) != sha:
            return "hidden" if same_stamp else "read"
    except OSError:
        return "read"
    if not same_stamp:
        with _tx(conn):  # touched but the same bytes: remember the new stamp, read nothing
            conn.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (st.st_size, st.st_mtime_ns, path))
    return "unchanged"


Progress = Callable[[str, int], None]  # (path just done, records in it)


def build_index(conn: sqlite3.Connection, paths: Sequence[str], jobs: int = 1,
                on_file: Progress | None = None, plan: Callable[[int], None] | None = None, client: Any = None,
                verify: bool = False) -> IndexStats:
    """Index the ``.paifu`` files under ``paths`` into ``conn`` (see the module's docstring).

    With ``verify`` the content hash of every file is read again, even where size and
    modification time are those indexed, and a file whose bytes differ is read again.

    Records are replayed here (``jobs`` 1), in ``jobs`` worker processes, or, given a Dask
    ``client``, on its cluster in byte ranges (:func:`paifu.inputs.record_ranges`)."""
    start = time.perf_counter()
    stats = IndexStats(verified=verify)
    unlisted: list[tuple[str, OSError]] = []
    files, dirs, missing = _scope(paths, unlisted)
    stats.missing = missing
    stats.unlisted = [f"{folder}: cannot read this folder: {err.strerror or err}" for folder, err in unlisted]
    present = {str(f) for f in files}
    stats.files_removed = _prune(conn, dirs, missing, present, [folder for folder, _ in unlisted])
    todo: list[tuple[str, os.stat_result]] = []
    for f in files:
        path = str(f)
        try:
            st = f.stat()
        except OSError:
            continue
        state = _needs_reading(conn, path, st, verify)
        if state == "unchanged":
            stats.files_unchanged += 1
        else:
            todo.append((path, st))
            stats.files_hidden += state == "hidden"
    if plan:
        plan(len(todo))
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 and client is None else None
    try:
        for path, st in todo:
            writer = _FileWriter(conn, path)
            try:
                sha = _index_file_dask(path, writer, client) if client is not None else _index_file(path, writer, pool, jobs)
                writer.commit(st.st_size, st.st_mtime_ns, sha)
            except BaseException:
                writer.rollback()
                raise
            stats.files_read += 1
            stats.records += writer.count
            stats.hands += writer.hands
            stats.invalid += writer.invalid
            if on_file:
                on_file(path, writer.count)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    stats.seconds = time.perf_counter() - start
    return stats


def _index_file(path: str, writer: _FileWriter, pool: ProcessPoolExecutor | None, jobs: int) -> str:
    """Read one file record by record into the writer; return its content hash ('' if unread)."""
    try:
        handle = inputs.open_file(path)
    except OSError as err:
        writer.add(_unreadable_rows(path, f"cannot read: {err.strerror or err}"))
        return ""  # no hash: tried again on every run until it can be read
    with handle:
        tracked = inputs.Tracked(handle)
        try:
            tasks = inputs.file_records(path, tracked)  # type: ignore[arg-type]
            if pool is None:
                for task in tasks:
                    writer.add(record_rows(*task))
            else:
                window: list[Future] = []
                for task in tasks:
                    window.append(pool.submit(record_rows, *task))
                    if len(window) >= jobs * 8:
                        writer.add(window.pop(0).result())
                for fut in window:
                    writer.add(fut.result())
            return tracked.finish()
        except OSError as err:
            writer.add(_unreadable_rows(path, f"cannot read: {err.strerror or err}"))
            return ""


def _index_file_dask(path: str, writer: _FileWriter, client: Any, window: int = 16) -> str:
    """Like :func:`_index_file`, the records replayed on a Dask cluster, range by range."""
    try:
        ranges, sha = inputs.cut(path)
    except OSError as err:
        writer.add(_unreadable_rows(path, f"cannot read: {err.strerror or err}"))
        return ""
    pending: list = []
    for r in ranges:
        pending.append(client.submit(index_range, r, pure=False))
        if len(pending) >= window:
            for rows in pending.pop(0).result():
                writer.add(rows)
    for fut in pending:
        for rows in fut.result():
            writer.add(rows)
    return sha


# -- search --------------------------------------------------------------------------------
@dataclass
class Query:
    game: str | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None
    item: str | None = None
    invalid: bool = False
    code: str | None = None
    limit: int | None = None


def _until_bound(text: str) -> str:
    d = iso_date(text) or text
    return d + {4: "-12-31", 7: "-31"}.get(len(d), "")


def search(conn: sqlite3.Connection, q: Query) -> list[dict[str, Any]]:
    """The records matching every given filter, in path and index order (see :func:`search_checked`)."""
    return search_checked(conn, q)[0]


def _file_state(path: str, size: int, mtime_ns: int) -> str:
    """'gone' (no such file now), 'stale' (its size or mtime differ from the index) or 'same'."""
    try:
        st = os.stat(path)
    except OSError:
        return "gone"
    return "same" if (st.st_size, st.st_mtime_ns) == (size, mtime_ns) else "stale"


def search_checked(conn: sqlite3.Connection, q: Query) -> tuple[list[dict[str, Any]], list[str]]:
    """The records matching every given filter, in path and index order, and the indexed
    files that matched but no longer exist (their records are not listed).

    ``player`` matches a name in the Players tag regardless of case (``*`` and ``?`` are
    wildcards); ``item`` matches a scoring item by its English name or its seed term, and
    the hands where it was scored are listed; ``code`` matches any diagnostic's code. Each
    file named is looked at as the results are read: ``stale`` is true when its size or
    modification time is no longer the one indexed (the index is older than the file).
    """
    where: list[str] = []
    args: list[Any] = []
    if q.game:
        where.append("r.game = ?")
        args.append(q.game)
    if q.player:
        key = q.player.casefold()
        if "*" in key or "?" in key:
            where.append("EXISTS (SELECT 1 FROM players p WHERE p.record_id = r.id AND p.name_key GLOB ?)")
        else:
            where.append("EXISTS (SELECT 1 FROM players p WHERE p.record_id = r.id AND p.name_key = ?)")
        args.append(key)
    if q.since:
        where.append("r.date_iso >= ?")
        args.append(iso_date(q.since) or q.since)
    if q.until:
        where.append("r.date_iso <= ?")
        args.append(_until_bound(q.until))
    if q.invalid:
        where.append("r.valid = 0")
    if q.code:
        where.append("EXISTS (SELECT 1 FROM diagnostics d WHERE d.record_id = r.id AND d.code = ?)")
        args.append(q.code.upper())
    item_match = "(i.term = ? OR i.name = ? COLLATE NOCASE)"
    if q.item:  # two indexed look-ups, not a scan of every record's items
        where.append("r.id IN (SELECT record_id FROM items WHERE term = ? UNION SELECT record_id FROM items WHERE name = ? COLLATE NOCASE)")
        args += [q.item, q.item]
    sql = ("SELECT r.id, f.path, r.idx, r.byte_offset, r.line, r.game, r.players, r.date, r.event, r.result, r.valid,"
           " r.errors, r.notes, r.codes, r.totals, r.hands, f.size, f.mtime_ns FROM records r JOIN files f ON f.id = r.file_id")
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY f.path, r.idx"
    out: list[dict[str, Any]] = []
    states: dict[str, str] = {}
    for row in conn.execute(sql, args):  # read lazily: stops at the limit, files that are gone skipped
        if q.limit and len(out) >= q.limit:
            break
        rid, path, idx, offset, line, game, players, date, event, result, valid, errors, notes, codes, totals, hands, size, mtime = row
        if path not in states:
            states[path] = _file_state(path, size, mtime)
        if states[path] == "gone":
            continue
        hit: dict[str, Any] = {
            "path": path, "index": idx, "offset": offset, "line": line, "game": game,
            "players": json.loads(players), "date": date, "event": event, "result": result,
            "valid": bool(valid), "errors": errors, "notes": notes, "codes": codes.split(),
            "totals": json.loads(totals), "hands": hands, "stale": states[path] == "stale",
        }
        if q.item:
            found = conn.execute(
                f"SELECT DISTINCT h.number, h.pos FROM items i JOIN hands h ON h.record_id = i.record_id AND h.pos = i.hand_pos"
                f" WHERE i.record_id = ? AND {item_match} ORDER BY h.pos", (rid, q.item, q.item)).fetchall()
            hit["item_hands"] = [n if n is not None else pos + 1 for n, pos in found]
        if q.code:
            hit["at"] = [f"{path}:{l}:{c}: {code} {m}" for code, l, c, m in conn.execute(
                "SELECT code, line, col, message FROM diagnostics WHERE record_id = ? AND code = ?", (rid, q.code.upper()))]
        out.append(hit)
    return out, [path for path, state in states.items() if state == "gone"]


def index_summary(conn: sqlite3.Connection) -> dict[str, int]:
    one = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
    return {"files": one("SELECT count(*) FROM files"), "records": one("SELECT count(*) FROM records"),
            "hands": one("SELECT count(*) FROM hands"), "invalid": one("SELECT count(*) FROM records WHERE valid = 0")}


# -- for the viewer ------------------------------------------------------------------------
def viewer_rows(db: str | os.PathLike[str]) -> dict[str, tuple[tuple[int, int], list[dict[str, Any]]]]:
    """Every indexed file (by its real path) -> its (mtime_ns, size) and one summary per record.

    Read once by the viewer (``paifu view PATH --db FILE``) so a folder opens without
    replaying its files; a file whose stamp differs is read by the viewer as before. An
    index that cannot be opened read-only gives nothing.
    """
    try:
        conn = sqlite3.connect(f"file:{Path(db).absolute().as_posix()}?mode=ro", uri=True)
    except sqlite3.Error:
        return {}
    out: dict[str, tuple[tuple[int, int], list[dict[str, Any]]]] = {}
    try:
        if schema_version(conn) != SCHEMA_VERSION:
            return {}
        first_errors = {rid: text for rid, text, _ in conn.execute(  # the bare columns come from the min(rowid) row
            "SELECT record_id, line || ':' || col || ' ' || code || ' ' || message, min(rowid) FROM diagnostics"
            " WHERE severity = 'error' GROUP BY record_id")}
        files = {fid: (os.path.realpath(path), (mtime, size)) for fid, path, size, mtime in
                 conn.execute("SELECT id, path, size, mtime_ns FROM files WHERE sha256 != ''")}
        for fid, (real, stamp) in files.items():
            out[real] = (stamp, [])
        for row in conn.execute("SELECT id, file_id, idx, line, game, players, date, result, event, hands, valid, errors, notes"
                                " FROM records ORDER BY file_id, idx"):
            rid, fid, idx, line, game, players, date, result, event, hands, valid, errors, notes = row
            if fid not in files:
                continue
            out[files[fid][0]][1].append({
                "index": idx, "line": line, "game": game or "",
                "players": "; ".join(f"{s}: {n}" for s, n in json.loads(players).items()),
                "date": date or "", "result": result or "", "event": event or "", "hands": hands,
                "valid": bool(valid), "errors": errors, "notes": notes, "first_error": first_errors.get(rid, "")})
    except (sqlite3.Error, SchemaError):
        return {}
    finally:
        conn.close()
    return out


def index_range(r: ByteRange) -> list[RecordRows]:
    """The index rows of the records of one byte range (runs on a Dask worker)."""
    try:
        return [record_rows(*task) for task in inputs.range_records(r)]
    except OSError as err:
        return [_unreadable_rows(r.path, f"cannot read: {err.strerror or err}")]
