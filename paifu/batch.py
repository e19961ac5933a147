"""Validating many records: one at a time, in worker processes, or on a Dask cluster.

Every executor gives the same reports in the same order (input order): each record goes
through :func:`validate_chunk`, where an internal error becomes that record's X901, so
one record's bug never ends the run. The command line, the archive and the benchmarks
call this module; it calls nothing above it.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from paifu.inputs import (ByteRange, Task, folder_problem, path_problem, range_records, record_ranges, skipped_problem, tasks,
                          total_bytes, unread)
from paifu.notation.diagnostics import Diagnostic, diag, internal_error
from paifu.notation.reader import Chunk, iter_paths, read_chunk, read_chunk_by_hand
from paifu.replay.games import EngineUnavailable
from paifu.replay.report import RecordReport
from paifu.replay.validate import validate, validate_read

if TYPE_CHECKING:
    from concurrent.futures import Future

PARALLEL_BYTES = 2 * 1024 * 1024  # inputs larger than this validate in worker processes
BY_HAND_CHARS = 256 * 1024  # records larger than this are read and replayed one hand at a time
BATCH_CHARS = 64 * 1024  # records are sent to worker processes in batches of about this much text
FIRST_BATCH_CHARS = 4 * 1024
BATCHES_AHEAD = 4  # batches in flight per worker

# The cycle collector's young generation: records are trees, read and dropped by the
# thousand, and almost never cyclic; sweeping the young nodes every 700 allocations (the
# default) took a third of the time of reading them. Worker processes inherit it.
GC_YOUNG_THRESHOLD = 50_000


def tune_gc() -> None:
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


def auto_jobs(paths: Sequence[str]) -> int:
    """Worker processes when ``--jobs`` is left out: one per CPU (at most 8) for inputs larger than PARALLEL_BYTES, else 1."""
    return min(os.cpu_count() or 1, 8) if total_bytes(paths) > PARALLEL_BYTES else 1


def report_by_hand(chunk: Chunk, path: str, index: int) -> RecordReport | None:
    """A large record replayed hand by hand, holding one hand at a time; None when it has to
    be read whole (a problem in its text: the whole-record reading reports it)."""
    found = read_chunk_by_hand(chunk, path)
    if found is None:
        return None
    head, hands = found
    assert head.record is not None
    rep = validate(head.record, path, index, hands)
    hands.drain()
    return None if hands.failed else rep


def validate_chunk(path: str, chunk: Chunk, index: int) -> RecordReport:
    """Parse and replay one record's text; an internal error becomes its X901 report."""
    try:
        if len(chunk.text) > BY_HAND_CHARS:
            rep = report_by_hand(chunk, path, index)
            if rep is not None:
                return rep
        return validate_read(read_chunk(chunk, path), index)
    except EngineUnavailable:  # the installation is broken, not this record
        raise
    except Exception as exc:  # noqa: BLE001 - one record's bug never ends the run
        return crashed(path, chunk.line, index, exc)


def crashed(path: str, line: int, index: int, exc: BaseException, what: str = "checking this record") -> RecordReport:
    """The report of a record paifu failed on: its X901."""
    return RecordReport(path=path, line=line, index=index, valid=False,
                        diagnostics=[internal_error(exc, line, 1 if line else 0, path, what)])


def validate_batch(batch: list[Task], slim: bool) -> list[RecordReport]:
    """Worker: the reports of a batch of records (``slim``: without their hands, which only
    ``--json`` prints: less to send back)."""
    reports = [validate_chunk(*task) for task in batch]
    if slim:
        for rep in reports:
            rep.hands = []
    return reports


def batches(todo: Iterator[Task]) -> Iterator[list[Task]]:
    """Batches of records, the first small (every worker starts at once, a small input is
    shared out evenly), doubling up to BATCH_CHARS of text."""
    batch: list[Task] = []
    size = 0
    limit = FIRST_BATCH_CHARS
    for task in todo:
        batch.append(task)
        size += len(task[1].text)
        if size >= limit:
            yield batch
            batch, size, limit = [], 0, min(2 * limit, BATCH_CHARS)
    if batch:
        yield batch


def validate_inputs(paths: Sequence[str], jobs: int, unreadable: list[str], slim: bool = False) -> Iterator[RecordReport]:
    """Reports in input order; records are replayed in ``jobs`` processes when jobs > 1, sent
    in batches (a process's round trip costs more than a small record's replay). With
    ``slim`` the workers send the reports back without their hands (HandReport), which
    ``paifu validate`` prints only with ``--json``."""
    todo = tasks(paths, unreadable)
    if jobs <= 1:
        for path, chunk, index in todo:
            yield validate_chunk(path, chunk, index)
        return
    from concurrent.futures import ProcessPoolExecutor  # here: --jobs 1 never starts a pool

    window: deque[tuple[list[Task], Future]] = deque()

    def results(batch: list[Task], fut: Future) -> list[RecordReport]:
        try:
            return fut.result()
        except EngineUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - a worker that died is its records' X901
            return [crashed(task[0], task[1].line, task[2], exc) for task in batch]

    with ProcessPoolExecutor(max_workers=jobs, initializer=tune_gc) as pool:
        for batch in batches(todo):
            window.append((batch, pool.submit(validate_batch, batch, slim)))
            if len(window) >= jobs * BATCHES_AHEAD:
                yield from results(*window.popleft())
        while window:
            yield from results(*window.popleft())


# -- validation on a Dask cluster ----------------------------------------------------------
def validate_range(r: ByteRange) -> list[RecordReport]:
    """Read and replay the records of one byte range (runs on a Dask worker).

    Each record goes through ``paifu validate``'s own worker step, so its report is the
    one the processes executor gives; a failure while reading is the range's X901."""
    reports: list[RecordReport] = []
    try:
        for path, chunk, index, _ in range_records(r):
            reports.append(validate_chunk(path, chunk, index))
    except OSError as err:
        reports.append(RecordReport(path=r.path, index=0, valid=False, diagnostics=[_path_diag(r.path, f"cannot read: {err.strerror or err}")]))
    except EngineUnavailable:
        raise
    except Exception as exc:  # noqa: BLE001 - as the processes executor does for a file
        index = reports[-1].index + 1 if reports else r.first_index
        reports.append(crashed(r.path, 0, index, exc, "reading this file"))
    return reports


def _path_diag(path: str, message: str) -> Diagnostic:
    d = diag("P110", message, 0, 0)
    d.path = path
    return d


class ExecutorError(Exception):
    """The Dask executor cannot run (not installed, scheduler unreachable)."""


def dask_client(scheduler: str | None, workers: int) -> Any:
    """A client of the scheduler at ``scheduler``, or of a LocalCluster of ``workers`` processes."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as err:
        raise ExecutorError(f"the dask executor needs dask.distributed (pip install 'paifu[dask]'): {err}") from err
    try:
        if scheduler:
            return Client(scheduler, timeout="10s")
        cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
        client = Client(cluster)
        client._paifu_cluster = cluster  # closed with the client (close_dask)
        return client
    except OSError as err:
        raise ExecutorError(f"cannot reach the Dask scheduler {scheduler}: {err}") from err


def close_dask(client: Any) -> None:
    cluster = getattr(client, "_paifu_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def validate_dask(client: Any, paths: Sequence[str], unreadable: list[str], window: int = 16) -> Iterator[RecordReport]:
    """Reports of every record under ``paths`` in input order, replayed on a Dask cluster.

    The same reports as ``paifu validate``'s processes: paths are checked here as
    ``paifu validate`` checks them (standard input and paths that cannot be read are
    handled here, by its own code), files are cut into byte ranges on record boundaries,
    each range is replayed on a worker, and the results are gathered back in order (at
    most ``window`` ranges in flight).
    """
    pending: deque = deque()

    def drain(limit: int) -> Iterator[RecordReport]:
        while len(pending) > limit:
            kind, value = pending.popleft()
            if kind == "done":
                yield from value
                continue
            try:
                yield from value.result()
            except EngineUnavailable:
                raise
            except Exception as exc:  # noqa: BLE001 - a lost worker is that range's X901
                yield crashed(kind.path, kind.first_line, kind.first_index, exc, "checking these records on the cluster")

    for arg in paths:
        if arg == "-" or path_problem(arg):  # read here, as without dask
            pending.append(("done", [validate_chunk(*task) for task in tasks([arg], unreadable)]))
            continue
        found = False
        folders: list[tuple[Path, OSError]] = []
        skipped: list[tuple[Path, str]] = []
        for path in iter_paths([arg], folders, skipped):
            found = True
            try:
                ranges = record_ranges(str(path))
            except OSError as err:
                unreadable.append(str(path))
                pending.append(("done", [validate_chunk(*unread(str(path), f"cannot read: {err.strerror or err}"))]))
                continue
            except Exception as exc:  # noqa: BLE001 - as the processes executor does for a file
                pending.append(("done", [crashed(str(path), 0, 1, exc, "reading this file")]))
                continue
            for r in ranges:
                pending.append((r, client.submit(validate_range, r, pure=False)))
                yield from drain(window)
        for path, reason in skipped:
            unreadable.append(str(path))
            pending.append(("done", [validate_chunk(*unread(str(path), skipped_problem(reason)))]))
        for folder, err in folders:
            unreadable.append(str(folder))
            pending.append(("done", [validate_chunk(*unread(str(folder), folder_problem(err)))]))
        if not found and not folders and not skipped:
            unreadable.append(arg)
            pending.append(("done", [validate_chunk(*unread(arg, "the folder holds no .paifu file"))]))
        yield from drain(window)
    yield from drain(0)
