"""Finding inputs and cutting them into records: what ``paifu validate``, ``paifu index``,
the viewer and the Dask executor share.

A path on the command line is a file, a folder (every ``.paifu`` under it) or ``-``
(standard input). Each input becomes a stream of *tasks*, one per record: ``(path, chunk,
index)``, where the chunk is the record's text as the reader cut it (its line, its byte
offset, the problems found while cutting). A path that cannot be read at all is one task
with index 0 and its P110. Files are cut one block at a time, so a large file never sits
in memory whole.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator, Sequence

from paifu.notation.diagnostics import diag, internal_error
from paifu.notation.reader import Chunk, iter_paths, split_records

Task = tuple[str, Chunk, int]  # (path, the record's text, its 1-based index in the file; 0: not read)

HASH_BLOCK = 1024 * 1024


def path_problem(arg: str) -> str | None:
    """Why a path given on the command line cannot be read at all, in words; None when it can be tried."""
    try:
        os.stat(arg)
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "cannot read: a loop of symbolic links"
        if err.errno == errno.ENOENT:
            return "no such file or directory" if not os.path.islink(arg) else "no such file or directory (a symbolic link to a missing file)"
        return f"cannot read: {err.strerror or err}"
    return None


def folder_problem(err: OSError) -> str:
    return f"cannot read this folder: {err.strerror or err}"


def unread(path: str, problem: str) -> Task:
    """The task of a path that cannot be read: its P110."""
    return path, Chunk("", 0, [diag("P110", problem, 0, 0)]), 0


def file_records(path: str, stream: IO[bytes]) -> Iterator[tuple[str, Chunk, int, int]]:
    """(path, chunk, index, byte offset) for every record of an open stream; P106 when it holds none."""
    any_chunk = False
    for index, chunk in enumerate(split_records(stream), 1):
        any_chunk = True
        yield path, chunk, index, chunk.offset
    if not any_chunk:
        yield path, Chunk("", 1, [diag("P106", "no record in this file (it is empty)", 1, 1)]), 1, 0


def stream_tasks(path: str, stream: IO[bytes]) -> Iterator[Task]:
    """The records of one stream; an internal error while cutting it is that file's X901."""
    index = 0
    try:
        for _, chunk, index, _ in file_records(path, stream):
            yield path, chunk, index
    except Exception as exc:  # noqa: BLE001 - the next file is still read
        yield path, Chunk("", 0, [internal_error(exc, 0, 0, path, "reading this file")]), index + 1


def tasks(paths: Sequence[str], unreadable: list[str]) -> Iterator[Task]:
    """Every record under ``paths``, in order; each path that cannot be read is appended to ``unreadable``."""
    for arg in paths:
        if arg == "-":
            if sys.stdin is None:  # started with standard input closed (<&-)
                unreadable.append("<stdin>")
                yield unread("<stdin>", "standard input is closed")
                continue
            yield from stream_tasks("<stdin>", sys.stdin.buffer)
            continue
        problem = path_problem(arg)
        if problem:
            unreadable.append(arg)
            yield unread(arg, problem)
            continue
        found = False
        folders: list[tuple[Path, OSError]] = []
        for path in iter_paths([arg], folders):
            found = True
            try:
                with open(path, "rb") as handle:
                    yield from stream_tasks(str(path), handle)
            except OSError as err:
                unreadable.append(str(path))
                yield unread(str(path), f"cannot read: {err.strerror or err}")
        for folder, err in folders:
            unreadable.append(str(folder))
            yield unread(str(folder), folder_problem(err))
        if not found and not folders:
            unreadable.append(arg)
            yield unread(arg, "the folder holds no .paifu file")


def total_bytes(paths: Sequence[str]) -> int:
    """The size of the files under ``paths`` (what cannot be read counts 0)."""
    total = 0
    for q in paths:
        if q == "-" or path_problem(q):
            continue
        for p in iter_paths([q]):
            try:
                total += p.stat().st_size
            except OSError:
                pass
    return total


def file_bytes(paths: Sequence[str]) -> Iterator[tuple[str, bytes | None, str | None]]:
    """(path, its bytes, None) for each input file, or (path, None, why it cannot be read)."""
    for arg in paths:
        if arg == "-":
            if sys.stdin is None:
                yield "<stdin>", None, "standard input is closed"
            else:
                yield "<stdin>", sys.stdin.buffer.read(), None
            continue
        problem = path_problem(arg)
        if problem:
            yield arg, None, problem
            continue
        folders: list[tuple[Path, OSError]] = []
        for path in iter_paths([arg], folders):
            try:
                yield str(path), path.read_bytes(), None
            except OSError as err:
                yield str(path), None, f"cannot read: {err.strerror or err}"
        for folder, err in folders:
            yield str(folder), None, folder_problem(err)


# -- files cut into byte ranges on record boundaries (the index, the viewer, Dask) ----------
class Tracked:
    """A byte stream that hashes what is read (the records' byte offsets come with them:
    :attr:`paifu.notation.reader.Chunk.offset`)."""

    def __init__(self, raw: IO[bytes]):
        self.raw = raw
        self.sha = hashlib.sha256()

    def _seen(self, data: bytes) -> bytes:
        self.sha.update(data)
        return data

    def read(self, n: int = -1) -> bytes:
        return self._seen(self.raw.read(n))

    def readline(self, limit: int = -1) -> bytes:
        return self._seen(self.raw.readline(limit))

    def finish(self) -> str:
        while self._seen(self.raw.read(HASH_BLOCK)):
            pass
        return self.sha.hexdigest()


def open_file(path: str) -> IO[bytes]:
    """Where record files are opened for the index and the ranges (tests replace it to
    simulate an unreadable file)."""
    return open(path, "rb")


def file_hash(path: str) -> str:
    sha = hashlib.sha256()
    with open_file(path) as handle:
        while block := handle.read(HASH_BLOCK):
            sha.update(block)
    return sha.hexdigest()


RANGE_BYTES = 1024 * 1024  # a file is cut into byte ranges of about this size, on record boundaries
TEXT_PROBLEMS = ("P103", "P104", "P105")  # bytes the reader must see from the file's start


@dataclass
class ByteRange:
    """Records ``first_index``.. of a file: bytes [start, end) (end -1: to the end)."""

    path: str
    start: int
    end: int
    first_index: int
    first_line: int


def record_ranges(path: str, target: int | None = None) -> list[ByteRange]:
    """Cut a file into byte ranges that start where records start (the reader's own cut).

    A file with bad bytes (not UTF-8, binary, a record too large) is one range, so the
    reader sees it as it would whole.
    """
    return cut(path, target)[0]


def cut(path: str, target: int | None = None) -> tuple[list[ByteRange], str]:
    """:func:`record_ranges` and the file's SHA-256, in one pass."""
    target = target or RANGE_BYTES
    ranges: list[ByteRange] = []
    whole = False
    with open_file(path) as handle:
        tracked = Tracked(handle)
        current: ByteRange | None = None
        for _, chunk, index, offset in file_records(path, tracked):  # type: ignore[arg-type]
            whole = whole or any(d.code in TEXT_PROBLEMS for d in chunk.diagnostics)
            if current is None:
                current = ByteRange(path, 0, -1, 1, 1)
            elif offset - current.start >= target:
                current.end = offset
                ranges.append(current)
                current = ByteRange(path, offset, -1, index, chunk.line)
        if current is not None:
            ranges.append(current)
        sha = tracked.finish()
    if whole or not ranges:
        return [ByteRange(path, 0, -1, 1, 1)], sha
    return ranges, sha


def range_records(r: ByteRange) -> Iterator[tuple[str, Chunk, int, int]]:
    """(path, chunk, index, offset) of the records of a byte range, lines and offsets as in the file."""
    with open_file(r.path) as handle:
        handle.seek(r.start)
        data = handle.read() if r.end < 0 else handle.read(r.end - r.start)
    shift = r.first_line - 1
    for _, chunk, i, offset in file_records(r.path, io.BytesIO(data)):
        chunk.line += shift
        for d in chunk.diagnostics:
            if d.line:
                d.line += shift
        yield r.path, chunk, r.first_index + i - 1, r.start + offset
