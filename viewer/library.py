"""The records a viewer serves: the files under its path, each record's summary, one record.

Only files found under the served path are ever opened: a URL names a file by its path
relative to the served folder, and :meth:`Library.resolve` accepts it only when it is one
of the files the listing found (so ``..``, absolute paths and links leading out are refused
before anything is read).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notation import read_path
from notation.diagnostics import Diagnostic, internal_error
from notation.reader import ReadResult, iter_paths, split_records
from replay import replay
from replay.report import RecordReport


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

    @classmethod
    def at(cls, path: str | os.PathLike[str], db: str | os.PathLike[str] | None = None) -> "Library":
        return cls(Path(path).resolve(), db=Path(db) if db else None)

    def _indexed(self, file: str, target: Path, stamp: tuple[int, int]) -> list[Summary] | None:
        """The index lines of a file from the database, when it holds this very version of it."""
        if self.db is None:
            return None
        if self._db_rows is None:
            from paifu_archive import viewer_rows

            self._db_rows = viewer_rows(self.db)
        entry = self._db_rows.get(str(target))
        if entry is None or tuple(entry[0]) != stamp:
            return None
        return [Summary(file=file, **row) for row in entry[1]]

    @property
    def root(self) -> Path:
        return self.path if self.path.is_dir() else self.path.parent

    def files(self) -> list[str]:
        """The record files served, relative to the root, sorted."""
        if not self.path.is_dir():
            return [self.path.name] if self.path.is_file() else []
        out = []
        for p in iter_paths([self.path]):
            try:
                real = p.resolve()
            except OSError:
                continue
            if real.is_file() and real.is_relative_to(self.root):
                out.append(p.relative_to(self.path).as_posix())
        return out

    def resolve(self, file: str) -> Path | None:
        """The file a URL names, or None unless it is one of :meth:`files`."""
        if not file or "\\" in file or "\0" in file:
            return None
        if file not in self.files():
            return None
        target = (self.root / file).resolve()
        if not target.is_relative_to(self.root) or not target.is_file():
            return None
        return target

    def summaries(self, file: str) -> list[Summary]:
        """The index lines of one file, cached until the file changes."""
        target = self.resolve(file)
        if target is None:
            return []
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

    def count(self, file: str) -> int:
        """How many records a served file holds (cut, not parsed, unless already checked)."""
        target = self.resolve(file)
        if target is None:
            return 0
        cached = self._cache.get(file)
        if cached:
            return len(cached[1])
        try:
            with open(target, "rb") as handle:
                return sum(1 for _ in split_records(handle))
        except OSError:
            return 0

    def all_summaries(self) -> list[Summary]:
        return [s for f in self.files() for s in self.summaries(f)]

    def record(self, file: str, index: int) -> ReadResult | None:
        """The ``index``-th record of a served file (1-based), read one record at a time."""
        target = self.resolve(file)
        if target is None or index < 1:
            return None
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

