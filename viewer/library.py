"""The records a viewer serves: the files under its path, each record's summary, one record.

Only files found under the served path are ever opened: a URL names a file by its path
relative to the served folder, and :meth:`Library.resolve` accepts it only when it is one
of the files the listing found (so ``..``, absolute paths and links leading out are refused
before anything is read). Every path found is resolved by ``paifu.files.within``: a link
leading out of the folder, or to nothing, is listed as unreadable (:meth:`Library.refused`)
and never opened.
"""

from __future__ import annotations

import io
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paifu.files import Refused, within
from paifu.notation import read_path
from paifu.notation.diagnostics import Diagnostic, internal_error
from paifu.notation.reader import Chunk, ReadResult, read_chunk, split_records
from paifu.replay import replay
from paifu.replay.report import RecordReport


@dataclass
class Summary:
    """One line of the index."""

    file: str  # path relative to the served folder, with '/' separators
    index: int  # 1-based position of the record in its file
    line: int
    game: str
    players: str
    date: str
    result: str
    event: str
    hands: int
    valid: bool
    errors: int
    notes: int
    first_error: str

    def sort_key(self, column: str) -> Any:
        value = getattr(self, column, "")
        return (value, self.file, self.index) if not isinstance(value, bool) else (not value, self.file, self.index)


def summarize(file: str, index: int, result: ReadResult) -> Summary:
    """Read and replay one record for the index (a record that cannot be read is listed too)."""
    record = result.record
    problems = list(result.diagnostics)
    report: RecordReport | None = None
    hands = 0
    if record is not None and not any(d.severity == "error" for d in problems):
        try:
            report = replay(record, file, index=index)
            problems += report.diagnostics
        except Exception as exc:  # noqa: BLE001 - listed with its error, never a 500
            problems.append(internal_error(exc, result.line, 1 if result.line else 0, file))
    if record is not None:
        hands = len(record.hands)
    errors = [d for d in problems if d.severity == "error"]
    first = errors[0] if errors else None
    players = record.players() if record is not None else {}
    return Summary(
        file=file, index=index, line=result.line,
        game=(record.game or "") if record is not None else "",
        players="; ".join(f"{seat}: {name}" for seat, name in players.items()),
        date=(record.tag("Date") or "") if record is not None else "",
        result=(record.tag("Result") or "") if record is not None else "",
        event=(record.tag("Event") or "") if record is not None else "",
        hands=hands, valid=not errors, errors=len(errors),
        notes=sum(1 for d in problems if d.severity == "note"),
        first_error=_first_error(first) if first else "",
    )


def _first_error(d: Diagnostic) -> str:
    return f"{d.line}:{d.col} {d.code} {d.message}"


def _crashed(file: str, index: int, line: int, error: Diagnostic) -> Summary:
    """The index line of a record paifu failed on: listed with its X901, never a 500."""
    return Summary(file=file, index=index, line=line, game="", players="", date="", result="", event="",
                   hands=0, valid=False, errors=1, notes=0, first_error=_first_error(error))


@dataclass
class Library:
    """The served path: a folder of ``.paifu`` files, or one file of any name."""

    path: Path
    _cache: dict[str, tuple[tuple[int, int], list[Summary]]] = field(default_factory=dict)
    db: Path | None = None  # an index built by 'paifu index': its rows stand in for reading unchanged files
    _db_rows: dict[str, Any] | None = None
    listing_ttl: float = 3.0  # seconds a folder's listing is reused before it is walked again
    _listing: tuple[float, list[str], dict[str, Path]] | None = None
    _refused: dict[str, str] = field(default_factory=dict)  # file -> why it is not read (the last walk)
    _offsets: dict[str, tuple[tuple[int, int], list[Any]]] = field(default_factory=dict)  # file -> byte ranges
    _counts: dict[str, tuple[tuple[int, int] | None, int]] = field(default_factory=dict)  # file -> its records, counted once
    _lock: threading.Lock = field(default_factory=threading.Lock)
    scanning: bool = False  # the first scan is running (the index shows what it has so far)

    @classmethod
    def at(cls, path: str | os.PathLike[str], db: str | os.PathLike[str] | None = None) -> "Library":
        return cls(Path(path).resolve(), db=Path(db) if db else None)

    def _indexed(self, file: str, target: Path, stamp: tuple[int, int]) -> list[Summary] | None:
        """The index lines of a file from the database, when it holds this very version of it."""
        if self.db is None:
            return None
        if self._db_rows is None:
            from paifu.archive import viewer_rows

            self._db_rows = viewer_rows(self.db)
        entry = self._db_rows.get(str(target))
        if entry is None or tuple(entry[0]) != stamp:
            return None
        return [Summary(file=file, **row) for row in entry[1]]

    @property
    def root(self) -> Path:
        return self.path if self.path.is_dir() else self.path.parent

    def files(self) -> list[str]:
        """The record files served, relative to the root, sorted (the folder is walked again
        after ``listing_ttl`` seconds, not once per file per request)."""
        return list(self._listed()[0])

    def _listed(self) -> tuple[list[str], dict[str, Path]]:
        """The files served and the real path of each (checked to lie under the root)."""
        now = time.monotonic()
        listing = self._listing
        if listing is not None and now - listing[0] < self.listing_ttl:
            return listing[1], listing[2]
        found = self._walk()
        self._listing = (now, list(found), found)
        return self._listing[1], found

    def _walk(self) -> dict[str, Path]:
        if not self.path.is_dir():
            return {self.path.name: self.path} if self.path.is_file() else {}
        out: dict[str, Path] = {}
        refused: dict[str, str] = {}
        # os.walk does not enter linked folders: only the file itself may be a link
        for folder, _dirs, names in os.walk(self.path):
            for name in names:
                if not name.endswith(".paifu"):
                    continue
                p = Path(folder) / name
                file = p.relative_to(self.path).as_posix()
                try:
                    real = within(self.root, p)
                except Refused as err:
                    refused[file] = err.message
                    continue
                if real.is_file():
                    out[file] = real
        self._refused = refused
        return dict(sorted(out.items()))

    def refused(self) -> list[tuple[str, str]]:
        """The files found but not read (links leading out of the folder or to nothing), each
        with why: the index lists them apart, as unreadable."""
        self._listed()
        return sorted(self._refused.items())

    def resolve(self, file: str) -> Path | None:
        """The file a URL names, or None unless it is one of :meth:`files`."""
        if not file or "\\" in file or "\0" in file:
            return None
        return self._listed()[1].get(file)  # resolved and checked by the walk

    def summaries(self, file: str) -> list[Summary]:
        """The index lines of one file, cached until the file changes."""
        target = self.resolve(file)
        if target is None:
            return []
        return self._summaries(file, target)

    def _summaries(self, file: str, target: Path) -> list[Summary]:
        try:
            st = target.stat()
        except OSError:
            return []
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self._cache.get(file)
        if cached and cached[0] == stamp:
            return cached[1]
        out = self._indexed(file, target, stamp)
        if out is not None:
            self._cache[file] = (stamp, out)
            return out
        out: list[Summary] = []
        line = 0
        try:
            for i, result in enumerate(read_path(target), 1):
                line = result.line
                try:
                    out.append(summarize(file, i, result))
                except Exception as exc:  # noqa: BLE001 - one bad record never breaks the index
                    out.append(_crashed(file, i, line, internal_error(exc, line, 1 if line else 0, file)))
        except Exception as exc:  # noqa: BLE001 - nor does one file that cannot be cut into records
            out.append(_crashed(file, len(out) + 1, line, internal_error(exc, line, 0, file, "reading this file")))
        self._cache[file] = (stamp, out)
        return out

    def stamp(self, file: str) -> tuple[int, int] | None:
        """A served file's (mtime, size): a cached reading of it stands while this holds."""
        target = self.resolve(file)
        try:
            st = target.stat() if target is not None else None
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size) if st else None

    def count(self, file: str) -> int:
        """How many records a served file holds (cut, not parsed, unless already checked)."""
        target = self.resolve(file)
        if target is None:
            return 0
        cached = self._cache.get(file)
        if cached:
            return len(cached[1])
        ranges = self._ranges(file, target)
        if ranges is not None and len(ranges) > 1:
            return len(ranges)
        stamp = self.stamp(file)
        with self._lock:
            counted = self._counts.get(file)
        if counted and counted[0] == stamp:
            return counted[1]
        try:
            with open(target, "rb") as handle:
                count = sum(1 for _ in split_records(handle))
        except OSError:
            return 0
        with self._lock:
            self._counts[file] = (stamp, count)
        return count

    def all_summaries(self) -> list[Summary]:
        """Every index line, the folder walked once for the whole pass (a first scan of
        10,000 files takes minutes: the listing is not walked again meanwhile)."""
        files, targets = self._listed()
        return [s for f in files for s in self._summaries(f, targets[f])]

    def known_summaries(self) -> tuple[list[Summary], int]:
        """The index lines read so far (while the first scan runs) and how many files are read."""
        files = self.files()
        done = [self._cache[f][1] for f in files if f in self._cache]
        return [s for lines in done for s in lines], len(done)

    def start_scan(self) -> threading.Thread:
        """Read every record in the background; the index shows the lines as they come."""
        self.scanning = True

        def scan() -> None:
            try:
                self.all_summaries()
            finally:
                self.scanning = False

        thread = threading.Thread(target=scan, name="paifu-index", daemon=True)
        thread.start()
        return thread

    def _ranges(self, file: str, target: Path) -> list[Any] | None:
        """Byte ranges of the records of a file, one per record (the reader's own cut), kept
        until the file changes: the n-th record is read alone, not after records 1..n-1."""
        try:
            st = target.stat()
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        with self._lock:
            cached = self._offsets.get(file)
            if cached and cached[0] == stamp:
                return cached[1]
        from paifu.inputs import record_ranges

        try:
            ranges = record_ranges(str(target), target=1)
        except Exception:  # noqa: BLE001 - read the file from its start instead
            return None
        with self._lock:
            self._offsets[file] = (stamp, ranges)
        return ranges

    _NO_INDEX = object()  # the file has no offset index: read it from its start

    def _indexed_chunk(self, file: str, target: Path, index: int) -> Chunk | None | object:
        """The ``index``-th record's chunk read alone through the file's offset index, with
        its lines and diagnostics where they stand in the file; None when there is no such
        record, ``_NO_INDEX`` when the file has no index (one record, or bad bytes)."""
        ranges = self._ranges(file, target)
        if ranges is None or len(ranges) <= 1:
            return self._NO_INDEX
        if index > len(ranges):
            return None
        r = ranges[index - 1]
        try:
            with open(target, "rb") as handle:
                handle.seek(r.start)
                data = handle.read() if r.end < 0 else handle.read(r.end - r.start)
        except OSError:
            return None
        chunk = next(iter(split_records(io.BytesIO(data))), None)
        if chunk is None:
            return None
        shift = r.first_line - 1
        for d in chunk.diagnostics:
            if d.line:
                d.line += shift
        return Chunk(chunk.text, chunk.line + shift, chunk.diagnostics)

    def chunk(self, file: str, index: int) -> Chunk | None:
        """The text of the ``index``-th record of a served file (1-based), not yet read: a
        long record's page reads it a hand at a time (viewer/lazy.py)."""
        target = self.resolve(file)
        if target is None or index < 1:
            return None
        indexed = self._indexed_chunk(file, target, index)
        if indexed is not self._NO_INDEX:
            return indexed  # type: ignore[return-value]
        found: Chunk | None = None
        stamp = self.stamp(file)
        try:
            with open(target, "rb") as handle:
                count = 0
                for count, chunk in enumerate(split_records(handle), 1):  # counted too: the page shows the count
                    if count == index:
                        found = chunk
        except OSError:
            return None
        with self._lock:
            self._counts[file] = (stamp, count)
        return found

    def record(self, file: str, index: int) -> ReadResult | None:
        """The ``index``-th record of a served file (1-based): its bytes found in the file's
        offset index, then read alone (a file with bad bytes is read from its start)."""
        target = self.resolve(file)
        if target is None or index < 1:
            return None
        indexed = self._indexed_chunk(file, target, index)
        if indexed is not self._NO_INDEX:
            return None if indexed is None else read_chunk(indexed, str(target))  # type: ignore[arg-type]
        for i, result in enumerate(read_path(target), 1):
            if i == index:
                return result
        return None

    def source(self, file: str) -> str | None:
        """A served file's text (bad bytes replaced), for the source page."""
        target = self.resolve(file)
        if target is None:
            return None
        try:
            with open(target, "rb") as handle:
                data = handle.read(8 * 1024 * 1024 + 1)
        except OSError:
            return None
        text = data[: 8 * 1024 * 1024].decode("utf-8", errors="replace")
        return text + ("\n… (the rest of this file is not shown)" if len(data) > 8 * 1024 * 1024 else "")

