"""The ``paifu`` command: validate, convert, schema, selfplay, fmt, rules, bench, view.

The one module that reaches notation/, replay/ and (lazily, for ``view``) viewer/.
"""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import random
import re
import sys
import tempfile
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import IO, Iterator, Sequence

from notation import diag, read_stream, write_records
from notation.diagnostics import internal_error
from notation.model import Record, record_json_data, variation_depth
from notation.reader import MAX_VARIATION_DEPTH, Chunk, ReadResult, iter_paths, read_chunk, read_chunk_by_hand, split_records
from replay import games
from replay.engine import Violation
from replay.report import RecordReport, Report, Summary, summarize
from replay.validate import validate, validate_read

PARALLEL_BYTES = 2 * 1024 * 1024  # inputs larger than this validate in worker processes
BY_HAND_CHARS = 256 * 1024  # records larger than this are read and replayed one hand at a time


# -- validate ----------------------------------------------------------------------------
def _report_for(result: ReadResult, index: int) -> RecordReport:
    """Replay a read record, or report why it could not be read."""
    return validate_read(result, index)


def _report_by_hand(chunk: Chunk, path: str, index: int) -> RecordReport | None:
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


def _validate_chunk(path: str, chunk: Chunk, index: int) -> RecordReport:
    """Worker: parse and replay one record's text; an internal error becomes its X901 report."""
    try:
        if len(chunk.text) > BY_HAND_CHARS:
            rep = _report_by_hand(chunk, path, index)
            if rep is not None:
                return rep
        return _report_for(read_chunk(chunk, path), index)
    except Exception as exc:  # noqa: BLE001 - one record's bug never ends the run
        return _crashed(path, chunk.line, index, exc)


def _crashed(path: str, line: int, index: int, exc: BaseException, what: str = "checking this record") -> RecordReport:
    return RecordReport(path=path, line=line, index=index, valid=False,
                        diagnostics=[internal_error(exc, line, 1 if line else 0, path, what)])


def _chunks(path: str, stream: IO[bytes]) -> Iterator[tuple[str, Chunk, int]]:
    any_chunk = False
    for index, chunk in enumerate(split_records(stream), 1):
        any_chunk = True
        yield path, chunk, index
    if not any_chunk:
        yield path, Chunk("", 1, [diag("P106", "no record in this file (it is empty)", 1, 1)]), 1


def _read_file(path: str, stream: IO[bytes]) -> Iterator[tuple[str, Chunk, int]]:
    """The records of one stream; an internal error while cutting it is that file's X901."""
    index = 0
    try:
        for item in _chunks(path, stream):
            index = item[2]
            yield item
    except Exception as exc:  # noqa: BLE001 - the next file is still read
        yield path, Chunk("", 0, [internal_error(exc, 0, 0, path, "reading this file")]), index + 1


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


def _inputs(args_paths: Sequence[str], unreadable: list[str]) -> Iterator[tuple[str, Chunk, int]]:
    for arg in args_paths:
        if arg == "-":
            if sys.stdin is None:  # started with standard input closed (<&-)
                unreadable.append("<stdin>")
                yield "<stdin>", Chunk("", 0, [diag("P110", "standard input is closed", 0, 0)]), 0
                continue
            yield from _read_file("<stdin>", sys.stdin.buffer)
            continue
        problem = path_problem(arg)
        if problem:
            unreadable.append(arg)
            yield arg, Chunk("", 0, [diag("P110", problem, 0, 0)]), 0
            continue
        found = False
        folders: list[tuple[Path, OSError]] = []
        for path in iter_paths([arg], folders):
            found = True
            try:
                with open(path, "rb") as handle:
                    yield from _read_file(str(path), handle)
            except OSError as err:
                unreadable.append(str(path))
                yield str(path), Chunk("", 0, [diag("P110", f"cannot read: {err.strerror or err}", 0, 0)]), 0
        for folder, err in folders:
            unreadable.append(str(folder))
            yield str(folder), Chunk("", 0, [diag("P110", folder_problem(err), 0, 0)]), 0
        if not found and not folders:
            unreadable.append(arg)
            yield arg, Chunk("", 0, [diag("P110", "the folder holds no .paifu file", 0, 0)]), 0


def _total_bytes(paths: Sequence[str]) -> int:
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


BATCH_CHARS = 64 * 1024  # records are sent to worker processes in batches of about this much text
FIRST_BATCH_CHARS = 4 * 1024
BATCHES_AHEAD = 4  # batches in flight per worker


def _validate_batch(batch: list[tuple[str, Chunk, int]], slim: bool) -> list[RecordReport]:
    """Worker: the reports of a batch of records (``slim``: without their hands, which only
    ``--json`` prints: less to send back)."""
    reports = [_validate_chunk(*task) for task in batch]
    if slim:
        for rep in reports:
            rep.hands = []
    return reports


def _batches(tasks: Iterator[tuple[str, Chunk, int]]) -> Iterator[list[tuple[str, Chunk, int]]]:
    """Batches of records, the first small (every worker starts at once, a small input is
    shared out evenly), doubling up to BATCH_CHARS of text."""
    batch: list[tuple[str, Chunk, int]] = []
    size = 0
    limit = FIRST_BATCH_CHARS
    for task in tasks:
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
    tasks = _inputs(paths, unreadable)
    if jobs <= 1:
        for path, chunk, index in tasks:
            yield _validate_chunk(path, chunk, index)
        return
    window: deque[tuple[list[tuple[str, Chunk, int]], Future]] = deque()

    def results(batch: list[tuple[str, Chunk, int]], fut: Future) -> list[RecordReport]:
        try:
            return fut.result()
        except Exception as exc:  # noqa: BLE001 - a worker that died is its records' X901
            return [_crashed(task[0], task[1].line, task[2], exc) for task in batch]

    with ProcessPoolExecutor(max_workers=jobs, initializer=tune_gc) as pool:
        for batch in _batches(tasks):
            window.append((batch, pool.submit(_validate_batch, batch, slim)))
            if len(window) >= jobs * BATCHES_AHEAD:
                yield from results(*window.popleft())
        while window:
            yield from results(*window.popleft())


def cmd_validate(args: argparse.Namespace) -> int:
    jobs = args.jobs
    if jobs == 0:
        jobs = min(os.cpu_count() or 1, 8) if _total_bytes(args.paths) > PARALLEL_BYTES else 1
    unreadable: list[str] = []
    reports: list[RecordReport] = []
    counts = Summary()
    client = None
    if getattr(args, "executor", "processes") == "dask":
        from paifu_archive import ExecutorError, close_dask, dask_client, validate_dask

        try:
            client = dask_client(args.scheduler, jobs if args.jobs else 2)
        except ExecutorError as err:
            print(f"paifu validate: {err}", file=sys.stderr)
            return 2
    progress = None
    if not args.json and not getattr(args, "quiet", False) and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import Progress

        progress = Progress(transient=True, console=Console(stderr=True))  # the bar on stderr, never in the output
        task = progress.add_task("validating", total=None)
        progress.start()
    try:
        stream = (validate_dask(client, args.paths, unreadable) if client is not None
                  else validate_inputs(args.paths, jobs, unreadable, slim=not args.json))
        for rep in stream:
            if rep.index == 0:  # a path that could not be read at all
                rep.path = rep.path or (rep.diagnostics[0].path if rep.diagnostics else "")
            if args.json:
                reports.append(rep)
            else:  # only the counts are printed at the end: memory stays flat whatever the records
                counted = summarize([rep])
                for name in ("records", "valid", "invalid", "errors", "notes"):
                    setattr(counts, name, getattr(counts, name) + getattr(counted, name))
            if progress:
                progress.advance(task)
            if not args.json:
                for d in rep.diagnostics:
                    print(d.format())
    finally:
        if progress:
            progress.stop()
        if client is not None:
            close_dask(client)
    summary = summarize(reports) if args.json else counts
    if args.json:
        print(Report(records=reports, summary=summary).model_dump_json(indent=2))
    else:
        unread = f"; {len(unreadable)} path(s) not read" if unreadable else ""
        print(f"{summary.records} record(s): {summary.valid} valid, {summary.invalid} invalid; "
              f"{summary.errors} error(s), {summary.notes} note(s){unread}")
    if unreadable:
        return 2
    return 1 if summary.invalid else 0


# -- convert -----------------------------------------------------------------------------
def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _json_items(text: str, path: str, problems: list[str]) -> Iterator[tuple[object, int, str]]:
    """Each JSON value of a text (one record, an array of records, or JSON Lines), with where it starts.

    Yields (value, start offset, how to name it); problems found on the way are appended.
    """
    decoder = json.JSONDecoder()
    pos = 0
    doc_no = 0

    def skip(p: int) -> int:
        while p < len(text) and text[p].isspace():
            p += 1
        return p

    def bad(p: int, msg: str) -> None:
        line, col = _line_col(text, p)
        problems.append(f"{path}:{line}:{col}: P111 not JSON: {msg}")

    def deep(p: int) -> None:
        line, col = _line_col(text, p)
        problems.append(f"{path}:{line}:{col}: P112 JSON nested too deeply to read "
                        f"(paifu reads variations nested at most {MAX_VARIATION_DEPTH} deep)")

    def decode(p: int) -> tuple[object, int] | None:
        """The JSON value at ``p`` and where it ends; None (the problem noted) when it cannot be read."""
        try:
            return decoder.raw_decode(text, p)
        except json.JSONDecodeError as err:
            bad(err.pos, err.msg)
        except RecursionError:
            deep(p)
        return None

    while True:
        pos = skip(pos)
        if pos >= len(text):
            return
        doc_no += 1
        if text[pos] != "[":
            got = decode(pos)
            if got is None:
                return
            doc, end = got
            yield doc, pos, f"document {doc_no}"
            pos = end
            continue
        pos = skip(pos + 1)  # an array: its elements one by one, each with its place
        element = 0
        if pos < len(text) and text[pos] == "]":
            pos += 1
            continue
        while True:
            element += 1
            got = decode(pos)
            if got is None:
                return
            doc, end = got
            yield doc, pos, f"element {element} of the array"
            pos = skip(end)
            if pos < len(text) and text[pos] == ",":
                pos = skip(pos + 1)
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 1
                break
            bad(pos, "expecting ',' or ']' after an element of the array")
            return


def _read_json_records(text: str, path: str) -> tuple[list[Record], list[str]]:
    """The records of a JSON text, and located problems (every bad record is named)."""
    from pydantic import ValidationError

    records: list[Record] = []
    problems: list[str] = []
    text = text.lstrip("\ufeff")
    for doc, pos, name in _json_items(text, path, problems):
        line, col = _line_col(text, pos)
        try:
            record = Record.model_validate(doc)
        except RecursionError:
            problems.append(f"{path}:{line}:{col}: P112 {name} is nested too deeply to read")
            continue
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "its top"
            more = f" (and {err.error_count() - 1} more problem(s))" if err.error_count() > 1 else ""
            msg = re.sub(r"\bNone\b", "null", first["msg"])  # pydantic speaks Python; the input was JSON
            problems.append(f"{path}:{line}:{col}: P111 {name} does not match the record schema at {where}: {msg}{more}")
            continue
        if variation_depth(record) > MAX_VARIATION_DEPTH:
            problems.append(f"{path}:{line}:{col}: P112 {name} has variations nested more than {MAX_VARIATION_DEPTH} deep")
            continue
        records.append(record)
    return records, problems


def _convert_inputs(paths: Sequence[str]) -> Iterator[tuple[str, bytes | None, str | None]]:
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


def cmd_convert(args: argparse.Namespace) -> int:
    import io

    unread = False
    failed = False
    if args.to == "json":
        out: list[str] = []
        for path, data, problem in _convert_inputs(args.paths):
            if data is None:
                print(f"{path}:0:0: P110 {problem}", file=sys.stderr)
                unread = True
                continue
            try:
                for result in read_stream(io.BytesIO(data), path):
                    errors = [d for d in result.diagnostics if d.severity == "error"]
                    if errors or result.record is None:
                        failed = True
                        for d in errors:
                            print(d.format(), file=sys.stderr)
                        continue
                    data = record_json_data(result.record, args.positions)
                    indent = None if args.jsonl else args.indent
                    out.append(json.dumps(data, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":")))
            except Exception as exc:  # noqa: BLE001 - the next file is still converted
                print(internal_error(exc, 0, 0, path, "converting this file").format(), file=sys.stderr)
                failed = True
        if unread:
            return 2
        if failed:
            return 1
        if args.jsonl:
            sys.stdout.write("".join(o + "\n" for o in out))
        else:
            sys.stdout.write("[" + ",\n".join(out) + "]\n")
        return 0
    records: list[Record] = []
    for path, data, problem in _convert_inputs(args.paths):
        if data is None:
            print(f"{path}:0:0: P110 {problem}", file=sys.stderr)
            unread = True
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line, col = _line_col(data[: err.start].decode("utf-8", errors="replace"), err.start)
            print(f"{path}:{line}:{col}: P103 byte 0x{data[err.start]:02x} is not UTF-8", file=sys.stderr)
            failed = True
            continue
        found, problems = _read_json_records(text, path)
        for p in problems:
            print(p, file=sys.stderr)
        failed = failed or bool(problems)
        if not found and not problems:
            print(f"{path}:1:1: P106 no record in this file", file=sys.stderr)
            failed = True
        records.extend(found)
    if unread:
        return 2
    if failed:
        return 1
    sys.stdout.write(write_records(records))
    return 0


# -- import / export (tenhou.net/6 logs) ---------------------------------------------------
def _tenhou_inputs(paths: Sequence[str]) -> Iterator[tuple[str, str | None, str]]:
    """(path, text or None, why not) of each log named: a file, every .json under a folder, or -."""
    for p in paths:
        if p == "-":
            yield "<stdin>", sys.stdin.read(), ""
            continue
        path = Path(p)
        files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
        for f in files:
            try:
                yield str(f), f.read_text(encoding="utf-8-sig"), ""
            except (OSError, UnicodeDecodeError) as err:
                yield str(f), None, str(err)


def cmd_import(args: argparse.Namespace) -> int:
    """paifu import tenhou FILE|DIR|-: tenhou.net/6 JSON logs as paifu sanma records."""
    from notation.tenhou import TenhouError, read_log

    records: list[Record] = []
    status = 0
    for path, text, problem in _tenhou_inputs(args.paths):
        if text is None:
            print(f"{path}:0:0: P110 {problem}", file=sys.stderr)
            status = 2
            continue
        try:
            records.append(read_log(text, path))
        except TenhouError as err:
            print(str(err), file=sys.stderr)
            status = max(status, 1)
        except Exception as exc:  # noqa: BLE001 - the next log is still read
            print(internal_error(exc, 0, 0, path, "importing this log").format(), file=sys.stderr)
            status = max(status, 1)
    text_out = write_records(records)
    if args.output:
        Path(args.output).write_text(text_out, encoding="utf-8")
    else:
        sys.stdout.write(text_out)
    return status


def cmd_export(args: argparse.Namespace) -> int:
    """paifu export tenhou RECORD: paifu sanma records as tenhou.net/6 JSON (one log a line)."""
    import io

    from notation.tenhou import to_log

    out: list[str] = []
    status = 0
    for path, data, problem in _convert_inputs([args.path]):
        if data is None:
            print(f"{path}:0:0: P110 {problem}", file=sys.stderr)
            return 2
        for result in read_stream(io.BytesIO(data), path):
            errors = [d for d in result.diagnostics if d.severity == "error"]
            if errors or result.record is None:
                for d in errors:
                    print(d.format(), file=sys.stderr)
                status = 1
                continue
            try:
                out.append(json.dumps(to_log(result.record), ensure_ascii=False, separators=(",", ":")))
            except (ValueError, KeyError, IndexError) as err:
                print(f"{path}:{result.line}:1: I602 this record cannot be written as a tenhou.net/6 log: {err}", file=sys.stderr)
                status = 1
    text_out = "".join(o + "\n" for o in out)
    if args.output:
        Path(args.output).write_text(text_out, encoding="utf-8")
    else:
        sys.stdout.write(text_out)
    return status


# -- schema ------------------------------------------------------------------------------
def schema_text(which: str) -> str:
    """The JSON Schema of the record or of the report, as checked in under schemas/."""
    if which == "record":
        schema = Record.model_json_schema()
        schema["$id"] = "https://paifu.invalid/schemas/record.schema.json"
    else:
        schema = Report.model_json_schema()
        schema["$id"] = "https://paifu.invalid/schemas/report.schema.json"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_text(args.which))
    return 0


# -- selfplay ----------------------------------------------------------------------------
def cmd_selfplay(args: argparse.Namespace) -> int:
    from replay.selfplay import selfplay_record

    engine = games.engine(args.game)
    if engine is None:
        print(f"paifu selfplay: no engine for '{args.game}' (games with engines: {', '.join(games.available())})", file=sys.stderr)
        return 2
    options = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        known = {o.name: o for o in engine.options}
        if not sep or key not in known or known[key].check(value):
            print(f"paifu selfplay: bad option '{item}' (see 'paifu rules {args.game}')", file=sys.stderr)
            return 2
        options[key] = value
    if args.seats is not None and args.seats not in engine.seat_counts:
        print(f"paifu selfplay: {args.game} is played by {' or '.join(map(str, engine.seat_counts))} players", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    hits: list[bool] = []
    aim = getattr(args, "aim", None)
    records = (selfplay_record(engine, seed + i, args.hands, options, args.seats, aim=aim, hits=hits) for i in range(args.n))
    stats = SelfplayStats() if args.stats else None
    first = True
    try:
        for record in records:
            if not first:
                sys.stdout.write("\n")
            sys.stdout.write(write_records([record]))
            first = False
            if stats:
                stats.add(validate(record))
    except Violation as err:  # options that cannot be played together (e.g. a seat count a variant refuses)
        print(f"paifu selfplay: {err.message}", file=sys.stderr)
        return 2
    if stats:
        stats.print(args.game, engine)
    if aim:
        print(f"aimed at '{aim}': reached in {sum(hits)} of {len(hits)} hands", file=sys.stderr)
        if not any(hits):
            print(f"paifu selfplay: '{aim}' was never reached (names as 'paifu selfplay {args.game} --stats' shows them)", file=sys.stderr)
            return 1
    return 0


class SelfplayStats:
    """What ``paifu selfplay --stats`` prints: hands scored and the scoring items seen."""

    def __init__(self) -> None:
        self.hands = 0
        self.scored = 0
        self.invalid = 0
        self.items: dict[str, int] = {}
        self.reports: list = []  # every hand's report, for a game's own summary

    def add(self, report: RecordReport) -> None:
        self.invalid += not report.valid
        for hand in report.hands:
            self.hands += 1
            self.reports.append(hand)
            if hand.computed and any(hand.computed.values()):
                self.scored += 1
            for name in {i.name for i in hand.items}:
                self.items[name] = self.items.get(name, 0) + 1

    def print(self, game: str, engine=None) -> None:
        from rich.console import Console
        from rich.table import Table

        console = Console(stderr=True)
        share = 100 * self.scored / self.hands if self.hands else 0
        console.print(f"{game}: {self.hands} hands, {self.scored} scored ({share:.0f}%), {self.invalid} invalid record(s)")
        table = Table(title="scoring items seen (hands)")
        table.add_column("item")
        table.add_column("hands", justify="right")
        for name, n in sorted(self.items.items(), key=lambda kv: -kv[1]):
            table.add_row(name, str(n))
        console.print(table)
        summary = getattr(engine, "selfplay_summary", None)  # a game's own lines (Yichang: wins per hand)
        for line in summary(self.reports) if summary else []:
            console.print(line)


# -- fmt ---------------------------------------------------------------------------------
def cmd_fmt(args: argparse.Namespace) -> int:
    """Exit 0 when every file is (now) canonical; 1 when one would be reformatted (--check) or
    has errors; 2 when one cannot be read or written."""
    status = 0
    for arg in args.paths:
        if arg == "-":
            status = max(status, _fmt_stdin(args.check))
            continue
        problem = path_problem(arg)
        if problem:
            print(f"{arg}:0:0: P110 {problem}", file=sys.stderr)
            status = 2
            continue
        folders: list[tuple[Path, OSError]] = []
        for path in iter_paths([arg], folders):
            try:
                status = max(status, _fmt_file(path, args.check))
            except Exception as exc:  # noqa: BLE001 - the next file is still formatted
                print(internal_error(exc, 0, 0, str(path), "formatting this file").format(), file=sys.stderr)
                status = 2
        for folder, err in folders:
            print(f"{folder}:0:0: P110 {folder_problem(err)}", file=sys.stderr)
            status = 2
    return status


def _fmt_stdin(check: bool) -> int:
    """``fmt -``: standard input to standard output (with --check: only the exit status)."""
    if sys.stdin is None:
        print("<stdin>:0:0: P110 standard input is closed", file=sys.stderr)
        return 2
    data = sys.stdin.buffer.read()
    text = _formatted(data, "<stdin>")
    if text is None:
        return 1
    if check:
        if text.encode("utf-8") != data:
            print("<stdin>: would be reformatted", file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text)
    return 0


def _fmt_file(path: Path, check: bool) -> int:
    """Format one file in place; its exit status (see :func:`cmd_fmt`).

    A symbolic link is followed: its target is formatted and the link stays. The file keeps
    its mode, owner and hard links, and is not written when it changed since it was read.
    """
    target = Path(os.path.realpath(path))
    try:
        with open(target, "rb") as handle:
            data = handle.read()
            read_stat = os.fstat(handle.fileno())
    except OSError as err:
        print(f"{path}:0:0: P110 cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    text = _formatted(data, str(path))
    if text is None:
        print(f"{path}: not formatted (fix the errors above first)", file=sys.stderr)
        return 1
    new = text.encode("utf-8")
    if new == data:
        return 0
    if check:
        print(f"{path}: would be reformatted")
        return 1
    problem = _write_keeping(target, new, data, read_stat)
    if problem:
        print(f"{path}: not formatted: {problem}", file=sys.stderr)
        return 2
    print(f"{path}: reformatted")
    return 0


def _unchanged(target: Path, data: bytes, read_stat: os.stat_result) -> bool:
    """Whether the file is still the one read (same inode, size, time and bytes)."""
    try:
        now = os.stat(target)
        if (now.st_ino, now.st_size, now.st_mtime_ns) != (read_stat.st_ino, read_stat.st_size, read_stat.st_mtime_ns):
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def _write_keeping(target: Path, new: bytes, data: bytes, read_stat: os.stat_result) -> str | None:
    """Write ``new`` over ``target``, keeping what the user owns; why not, in words, or None.

    A temporary file renamed over the target (all or nothing) is used when it can carry
    the file's mode and owner; a file with hard links, or whose owner this user cannot
    give, or in a folder this user cannot write, is rewritten in place instead.
    """
    import stat as stat_

    if not _unchanged(target, data, read_stat):
        return "the file changed since it was read (run paifu fmt again)"
    mode = stat_.S_IMODE(read_stat.st_mode)
    in_place = read_stat.st_nlink > 1
    tmp = None
    if not in_place:
        try:
            fd, tmp = tempfile.mkstemp(prefix=".paifu-fmt-", dir=str(target.parent))
        except OSError:
            in_place = True  # an unwritable folder: the file itself may still be writable
    if tmp is not None:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(new)
                handle.flush()
                os.fchmod(handle.fileno(), mode)
                if (read_stat.st_uid, read_stat.st_gid) != (os.geteuid(), os.getegid()):
                    try:
                        os.fchown(handle.fileno(), read_stat.st_uid, read_stat.st_gid)
                    except OSError:
                        in_place = True  # we cannot give the file back to its owner
            if not in_place:
                if not _unchanged(target, data, read_stat):
                    return "the file changed since it was read (run paifu fmt again)"
                os.replace(tmp, target)
                tmp = None
                return None
        except OSError as err:
            return f"cannot write: {err.strerror or err}"
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
    try:
        with open(target, "r+b") as handle:
            if not _unchanged(target, data, read_stat):
                return "the file changed since it was read (run paifu fmt again)"
            handle.write(new)
            handle.truncate()
    except OSError as err:
        return f"cannot write: {err.strerror or err}"
    return None


def _formatted(data: bytes, path: str) -> str | None:
    """The canonical text of a file's records, or None (errors printed) when one is bad."""
    import io

    records = []
    bad = False
    for result in read_stream(io.BytesIO(data), path):
        errors = [d for d in result.diagnostics if d.severity == "error"]
        if errors or result.record is None:
            bad = True
            for d in errors:
                print(d.format(), file=sys.stderr)
        else:
            records.append(result.record)
    return None if bad else write_records(records)


# -- rules -------------------------------------------------------------------------------
def cmd_rules(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not args.game:
        table = Table(title="paifu games")
        for col in ("id", "game", "seats", "engine"):
            table.add_column(col)
        for gid, title in games.ALL_GAMES.items():
            eng = games.engine(gid)
            table.add_row(gid, title, "/".join(map(str, eng.seat_counts)) if eng else "", "yes" if eng else "not yet")
        console.print(table)
        return 0
    eng = games.engine(args.game)
    if eng is None:
        print(f"paifu rules: no engine for '{args.game}' (games with engines: {', '.join(games.available())})", file=sys.stderr)
        return 2
    table = Table(title=f"{eng.title} — options ([Option \"name=value\"])", caption=eng.source)
    for col in ("option", "default", "values", "meaning", "source"):
        table.add_column(col, overflow="fold")
    for o in eng.options:
        number = f"N ({getattr(o, 'what', '') or 'a whole number'})"  # WholeNumber options say what N counts
        values = ", ".join(list(o.choices) + ([number] if o.integer else []))
        table.add_row(o.name, o.default, values, o.help, o.source)
    console.print(table)
    items = getattr(eng, "scoring_items", None) or getattr(eng, "items", None)  # a game's table of named scoring items
    if items:
        scoring = Table(title=f"{eng.title} — scoring items")
        for col in ("seed term", "item", "value", "condition"):
            scoring.add_column(col, overflow="fold")
        for item in items.values():
            value = next((getattr(item, k) for k in ("value", "fan", "han", "amount") if hasattr(item, k)), "")
            scoring.add_row(item.term, item.name, str(value), getattr(item, "condition", ""))
        console.print(scoring)
    for title, columns, rows in eng.rule_tables():
        extra = Table(title=title)
        for col in columns:
            extra.add_column(col, overflow="fold")
        for row in rows:
            extra.add_row(*row)
        console.print(extra)
    return 0


# -- bench -------------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    from paifu_bench import run_archive_bench, run_bench

    if getattr(args, "archive", None):
        run_archive_bench(args.archive, seed=args.seed, folder=args.archive_dir)
        return 0
    only = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    run_bench(records=args.records, seed=args.seed, as_json=args.json, history=args.history, folder=args.corpus,
              process=not args.no_process, scale_mb=args.scale_mb, only=only, tiles=not args.no_win_checks,
              repeat=args.repeat)
    return 0


# -- view --------------------------------------------------------------------------------
def cmd_view(args: argparse.Namespace) -> int:
    try:
        from viewer import serve
    except ImportError as err:
        print(f"paifu view: the viewer is not available ({err})", file=sys.stderr)
        return 2
    return serve(args.path, host=args.host, port=args.port, db=args.db, scribe=args.scribe)


def _at_least_one(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a usage error otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not allowed: give 1 or more")
    return value


def _at_least_zero(text: str) -> int:
    """An argparse type: a whole number of at least 0 (0: automatic)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not allowed: give 0 (automatic) or more")
    return value


def version() -> str:
    try:
        from importlib.metadata import version as dist_version

        return dist_version("paifu")
    except Exception:  # noqa: BLE001 - not installed: the source tree's own number
        found = re.search(r'^version = "([^"]+)"', (Path(__file__).parent / "pyproject.toml").read_text(encoding="utf-8"), re.M)
        return found.group(1) if found else "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paifu", description="Notation, validator and replay viewer for recorded card and tile games.")
    parser.add_argument("--version", action="version", version=f"paifu {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="replay records and report every problem")
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files, folders (every .paifu under them) or - for standard input")
    p.add_argument("--json", action="store_true", help="print one JSON report (schemas/report.schema.json)")
    p.add_argument("--jobs", type=_at_least_zero, default=0, help="worker processes (default: automatic)")
    p.add_argument("--executor", choices=("processes", "dask"), default="processes",
                   help="where records are replayed: local processes (default) or a Dask cluster (docs/archives.md)")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="with --executor dask: the scheduler's address (default: a local cluster of --jobs workers, 2 if not given)")
    p.add_argument("--quiet", action="store_true", help="no progress bar on a terminal")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("convert", help="convert records between text and JSON, loss-free")
    p.add_argument("--to", choices=("json", "text"), required=True)
    p.add_argument("--jsonl", action="store_true", help="with --to json: JSON Lines, one record per line, instead of one array")
    p.add_argument("--indent", type=_at_least_zero, default=None, metavar="N", help="with --to json: indent N spaces, for people (default: compact)")
    p.add_argument("--positions", action="store_true", help="with --to json: keep each item's source line and column ('at')")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (every .paifu under them) or - for standard input")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("import", help="read other formats' game logs as paifu records (docs/import.md)")
    p.add_argument("format", choices=("tenhou",), help="tenhou: tenhou.net/6 JSON (Tenhou, Mahjong Soul) three-player logs")
    p.add_argument("paths", nargs="+", metavar="FILE", help="log files, folders (every .json under them) or - for standard input")
    p.add_argument("-o", "--output", metavar="OUT", help="write the records here instead of standard output")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", help="write paifu records in other formats (docs/import.md)")
    p.add_argument("format", choices=("tenhou",), help="tenhou: tenhou.net/6 JSON, one log a line")
    p.add_argument("path", metavar="RECORD", help="a record file or - for standard input")
    p.add_argument("-o", "--output", metavar="OUT", help="write the logs here instead of standard output")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("schema", help="print the JSON Schema of the record or of the report")
    p.add_argument("which", choices=("record", "report"))
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("selfplay", help="write random legal records")
    p.add_argument("game")
    p.add_argument("-n", type=_at_least_one, default=1, help="how many records (default 1)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a random one, written in a Seed tag)")
    p.add_argument("--hands", type=_at_least_one, default=None, help="hands per record (default: the game's)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rules option (repeatable)")
    p.add_argument("--seats", type=int, default=None, help="number of players, where the game allows several")
    p.add_argument("--stats", action="store_true", help="print, on standard error, the share of hands scored and the scoring items seen")
    p.add_argument("--aim", metavar="ITEM", help="steer deals and choices toward a scoring item or situation, named as --stats "
                   "names it (e.g. 'drawn hand', 海底捞, 'carte blanche'); the records stay legal")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("fmt", help="rewrite files as canonical text")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (every .paifu under them) or - (standard input to standard output)")
    p.add_argument("--check", action="store_true", help="only report files that would change (exit 1; 2 when one cannot be read)")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("rules", help="list games, or a game's rules options and defaults")
    p.add_argument("game", nargs="?")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("bench", help="measure parsing and validation speed")
    p.add_argument("--records", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON document")
    p.add_argument("--history", metavar="FILE", help="append the figures (commit, load) as one JSON line, e.g. benchmarks/history.jsonl")
    p.add_argument("--corpus", metavar="DIR", help="keep the selfplay corpora here and reuse them (default: a temporary folder)")
    p.add_argument("--games", metavar="LIST", help="only these games, comma-separated")
    p.add_argument("--scale-mb", type=float, default=4.0, metavar="MB",
                   help="also validate a file of this size whole with --jobs 1 and 2: speed-up and peak RSS (0: skip; default %(default)s)")
    p.add_argument("--repeat", type=_at_least_one, default=2, help="best of this many runs of each timing (default %(default)s)")
    p.add_argument("--no-process", action="store_true", help="skip the whole-process timings (and their check against the bench)")
    p.add_argument("--no-win-checks", action="store_true", help="skip the mahjong win-check figures")
    p.add_argument("--archive", type=int, metavar="HANDS", help="instead: index build and search figures over this many selfplay hands")
    p.add_argument("--archive-dir", metavar="DIR", help="with --archive: the corpus folder (written when empty, kept)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("view", help="serve a local site that steps through records",
                       description="Serve a local site that steps through the records of PATH (a record file or a folder of .paifu files). "
                       "Exits 2 when PATH holds nothing to view or the port is in use.")
    p.add_argument("path", nargs="?", help="a record file (any name) or a folder (every .paifu file under it); "
                   "with --scribe: that folder by default")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s, this machine only; "
                   "requests naming another host are refused)")
    p.add_argument("--port", type=int, default=5000, help="the TCP port to listen on (default: %(default)s)")
    p.add_argument("--db", metavar="FILE", default=None, help="an index built by 'paifu index': unchanged files are listed from it, not read")
    p.add_argument("--scribe", metavar="DIR", default=None, help="also write records live, offered only legal actions, into DIR (/scribe/; docs/scribe.md)")
    p.set_defaults(func=cmd_view)

    from paifu_archive import add_parsers as add_archive_parsers  # index, search

    add_archive_parsers(sub)
    return parser


# The cycle collector's young generation: records are trees, read and dropped by the
# thousand, and almost never cyclic; sweeping the young nodes every 700 allocations (the
# default) took a third of the time of reading them. Worker processes inherit it.
GC_YOUNG_THRESHOLD = 50_000


def tune_gc() -> None:
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    tune_gc()
    try:
        status = args.func(args)
        if sys.stdout is not None:
            sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as err:  # standard output full or gone (> /dev/full), a disk error...
        _silence_stdout()
        where = f" {err.filename}:" if err.filename else ""
        print(f"paifu {args.command}:{where} {err.strerror or err}", file=sys.stderr)
        return 2


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
