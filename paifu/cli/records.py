"""``paifu validate``, ``convert``, ``fmt``, ``schema``, ``import`` and ``export``: the
commands that read and write records. They parse no rules and hold no machinery: they call
:mod:`paifu.batch`, :mod:`paifu.inputs`, :mod:`paifu.files` and the notation, and print.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from pathlib import Path
from typing import Iterator, Sequence

from paifu.batch import ExecutorError, auto_jobs, close_dask, dask_client, validate_dask, validate_inputs
from paifu.files import write_keeping, write_whole
from paifu.inputs import file_bytes, folder_problem, path_problem
from paifu.notation import read_stream, write_records
from paifu.notation.diagnostics import internal_error
from paifu.notation.jsonform import json_as_text, line_col
from paifu.notation.model import Record, record_json_data
from paifu.notation.reader import iter_paths
from paifu.replay.report import RecordReport, Report, Summary, summarize
from paifu.schemas import schema_text


# -- validate ----------------------------------------------------------------------------
def cmd_validate(args: argparse.Namespace) -> int:
    jobs = args.jobs
    if jobs == 0:
        jobs = auto_jobs(args.paths)
    unreadable: list[str] = []
    reports: list[RecordReport] = []
    counts = Summary()
    client = None
    if getattr(args, "executor", "processes") == "dask":
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
def cmd_convert(args: argparse.Namespace) -> int:
    unread = False
    failed = False
    if args.to == "json":
        out: list[str] = []
        for path, data, problem in file_bytes(args.paths):
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
    sources: list[tuple[str, str]] = []
    for path, data, problem in file_bytes(args.paths):
        if data is None:
            print(f"{path}:0:0: P110 {problem}", file=sys.stderr)
            unread = True
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line, col = line_col(data[: err.start].decode("utf-8", errors="replace"), err.start)
            print(f"{path}:{line}:{col}: P103 byte 0x{data[err.start]:02x} is not UTF-8", file=sys.stderr)
            failed = True
            continue
        sources.append((text, path))
    try:
        written, problems, empty = json_as_text(sources)  # only text that reads back to the same records
    except Exception as exc:  # noqa: BLE001 - said as a located bug, never a traceback
        print(internal_error(exc, 0, 0, sources[0][1] if sources else "", "converting to text").format(), file=sys.stderr)
        return 1
    for p in problems:
        print(p, file=sys.stderr)
    for path in empty:
        print(f"{path}:1:1: P106 no record in this file", file=sys.stderr)
    if unread:
        return 2
    if failed or problems or empty:
        return 1
    sys.stdout.write(written)
    return 0


# -- import / export (Tenhou's tenhou.net/6 JSON and mjlog XML, mjai JSON Lines) ----------
IMPORT_SUFFIXES = {"tenhou": (".json",), "mjlog": (".xml", ".mjlog"), "mjai": (".jsonl", ".mjson")}
"""The files ``paifu import FORMAT FOLDER`` reads under a folder."""


def _log_inputs(paths: Sequence[str], suffixes: tuple[str, ...]) -> Iterator[tuple[str, bytes | None, str]]:
    """(path, bytes or None, why not) of each log named: a file, every file of the format under
    a folder, or -."""
    for p in paths:
        if p == "-":
            yield "<stdin>", sys.stdin.buffer.read(), ""
            continue
        path = Path(p)
        files = sorted(f for f in path.rglob("*") if f.is_file() and f.name.endswith(suffixes)) if path.is_dir() else [path]
        for f in files:
            try:
                yield str(f), f.read_bytes(), ""
            except OSError as err:
                yield str(f), None, err.strerror or str(err)


def _read_log(fmt: str, data: bytes, path: str) -> list[Record]:
    """The records of one log file of the format (a located I601 error for what cannot be read)."""
    from paifu.notation.tenhou import TenhouError

    if fmt == "mjlog":
        from paifu.notation.mjlog import decode_bytes, read_mjlog

        return [read_mjlog(decode_bytes(data, path), path)]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line, col = line_col(data[: err.start].decode("utf-8", errors="replace"), err.start)
        raise TenhouError(f"byte 0x{data[err.start]:02x} is not UTF-8", "", line, col, path) from None
    if fmt == "mjai":
        from paifu.notation.mjai import read_mjai

        return read_mjai(text, path)
    from paifu.notation.tenhou import read_log

    return [read_log(text, path)]


def _write_out(output: str | None, text: str, command: str) -> int:
    """The records or logs to -o OUT (all or nothing) or to standard output; 2 if OUT cannot be written."""
    if not output:
        sys.stdout.write(text)
        return 0
    problem = write_whole(Path(output), text)
    if problem:
        print(f"paifu {command}: {output}: {problem}", file=sys.stderr)
        return 2
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """paifu import tenhou|mjlog|mjai FILE|DIR|-: other formats' sanma logs as paifu records.
    One bad log never stops the others; where no log could be read, nothing is written (no
    empty -o file)."""
    from paifu.notation.tenhou import TenhouError

    records: list[Record] = []
    status = 0
    for path, data, problem in _log_inputs(args.paths, IMPORT_SUFFIXES[args.format]):
        if data is None:
            print(f"{path}:0:0: P110 {problem}", file=sys.stderr)
            status = 2
            continue
        try:
            records.extend(_read_log(args.format, data, path))
        except TenhouError as err:
            print(str(err), file=sys.stderr)
            status = max(status, 1)
        except Exception as exc:  # noqa: BLE001 - the next log is still read
            print(internal_error(exc, 0, 0, path, "importing this log").format(), file=sys.stderr)
            status = max(status, 1)
    if not records:
        return max(status, 1)
    return max(status, _write_out(args.output, write_records(records), "import"))


def cmd_export(args: argparse.Namespace) -> int:
    """paifu export tenhou|mjai RECORD: paifu sanma records as tenhou.net/6 JSON (one log a
    line) or as mjai JSON Lines (one event a line, the games one after another)."""
    from paifu.notation.mjai import write_mjai
    from paifu.notation.tenhou import to_log

    out: list[str] = []
    status = 0
    for path, data, problem in file_bytes([args.path]):
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
                if args.format == "mjai":
                    out.append(write_mjai(result.record, "kita" if args.kita else "nukidora"))
                else:
                    out.append(json.dumps(to_log(result.record), ensure_ascii=False, separators=(",", ":")) + "\n")
            except (ValueError, KeyError, IndexError, StopIteration) as err:
                print(f"{path}:{result.line}:1: I602 this record cannot be written as {FORMAT_NAMES[args.format]}: {err}",
                      file=sys.stderr)
                status = 1
    if not out:
        return max(status, 1)
    return max(status, _write_out(args.output, "".join(out), "export"))


FORMAT_NAMES = {"tenhou": "a tenhou.net/6 log", "mjai": "mjai events"}


# -- schema ------------------------------------------------------------------------------
def cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_text(args.which))
    return 0


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
    problem = write_keeping(target, new, data, read_stat)
    if problem:
        print(f"{path}: not formatted: {problem}", file=sys.stderr)
        return 2
    print(f"{path}: reformatted")
    return 0


def _formatted(data: bytes, path: str) -> str | None:
    """The canonical text of a file's records, or None (errors printed) when one is bad."""
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
