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
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator, Sequence

from paifu.notation.diagnostics import diag, internal_error
from paifu.notation.reader import Chunk, iter_paths, special_kind, split_records

Task = tuple[str, Chunk, int]  # (path, the record's text, its 1-based index in the file; 0: not read)

HASH_BLOCK = 1024 * 1024


READ_BYTES = 1024 * 1024  # files are read this much at a time where they are read whole


def path_problem(arg: str) -> str | None:
    """Why a path given on the command line cannot be read at all, in words; None when it can be tried.

    Only regular files and folders are read: a FIFO, a socket or a device (a link to one
    too) is refused here, before anything opens it (a FIFO with no writer would block)."""
    try:
        mode = os.stat(arg).st_mode
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "cannot read: a loop of symbolic links"
        if err.errno == errno.ENOENT:
            return "no such file or directory" if not os.path.islink(arg) else "no such file or directory (a symbolic link to a missing file)"
        return f"cannot read: {err.strerror or err}"
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return f"not read: {special_kind(mode)}, not a regular file (paifu reads regular files, folders and -)"
    return None


def skipped_problem(reason: str) -> str:
    """The message of a ``.paifu`` name met in a folder that is no regular file."""
    return f"skipped: {reason} (paifu reads regular files only)"


class NotRegular(OSError):
    """A path opened for reading is no regular file (a FIFO, a socket, a device)."""


def open_regular(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a file for reading only if it is a regular file; :class:`NotRegular` otherwise.

    It is opened without blocking (``O_NONBLOCK``: a FIFO with no writer would wait for
    one) and checked on the open descriptor (``fstat``), so a file swapped for a FIFO after
    a check is refused too; the descriptor then blocks again, as an ordinary file's does."""
    nonblock = getattr(os, "O_NONBLOCK", 0)

    def opener(name: str, flags: int) -> int:
        return os.open(name, flags | nonblock)

    try:
        handle = open(path, "rb", opener=opener)  # noqa: SIM115 - returned open
    except OSError as err:
        if err.errno == errno.ENXIO:  # a socket cannot be opened: say what it is
            try:
                kind = special_kind(os.stat(path).st_mode)
            except OSError:
                raise err from None
            raise NotRegular(errno.EINVAL, f"{kind}, not a regular file", str(path)) from None
        raise
    try:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL,
                             "a folder" if stat.S_ISDIR(mode) else f"{special_kind(mode)}, not a regular file", str(path))
        if nonblock:
            os.set_blocking(handle.fileno(), True)
        return handle
    except BaseException:
        handle.close()
        raise


def read_bounded(stream: IO[bytes]) -> bytes:
    """A stream's bytes, read a block at a time up to its end, or up to the end of the block
    holding its first NUL byte: what the reader reads of it (it stops at a NUL, P104), so
    ``/dev/zero`` or a sparse file of gigabytes of zeros costs one block, not memory without end."""
    blocks: list[bytes] = []
    while block := stream.read(READ_BYTES):
        blocks.append(block)
        if b"\0" in block:
            break
    return b"".join(blocks)


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
        skipped: list[tuple[Path, str]] = []
        for path in iter_paths([arg], folders, skipped):
            found = True
            try:
                with open_regular(path) as handle:
                    yield from stream_tasks(str(path), handle)
            except OSError as err:
                unreadable.append(str(path))
                yield unread(str(path), f"cannot read: {err.strerror or err}")
        for path, reason in skipped:
            unreadable.append(str(path))
            yield unread(str(path), skipped_problem(reason))
        for folder, err in folders:
            unreadable.append(str(folder))
            yield unread(str(folder), folder_problem(err))
        if not found and not folders and not skipped:
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
                yield "<stdin>", read_bounded(sys.stdin.buffer), None
            continue
        problem = path_problem(arg)
        if problem:
            yield arg, None, problem
            continue
        folders: list[tuple[Path, OSError]] = []
        skipped: list[tuple[Path, str]] = []
        for path in iter_paths([arg], folders, skipped):
            try:
                with open_regular(path) as handle:
                    data = read_bounded(handle)
                yield str(path), data, None
            except OSError as err:
                yield str(path), None, f"cannot read: {err.strerror or err}"
        for path, reason in skipped:
            yield str(path), None, skipped_problem(reason)
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
    simulate an unreadable file); only a regular file is opened (:func:`open_regular`)."""
    return open_regular(path)


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
