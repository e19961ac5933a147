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
from paifu.inputs import file_bytes, folder_problem, open_regular, path_problem, read_bounded, skipped_problem
from paifu.notation import read_stream, write_records
from paifu.notation.diagnostics import internal_error
from paifu.notation.model import Record, record_json_data
from paifu.notation.reader import iter_paths
from paifu.replay.report import RecordReport, Report, Summary, notes_summary, summarize


# -- validate ----------------------------------------------------------------------------
def cmd_validate(args: argparse.Namespace) -> int:
    if getattr(args, "explain", False) or getattr(args, "hand", None) is not None:
        return cmd_explain(args)
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
                _print_diagnostics(rep, getattr(args, "notes", False))
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


def _print_diagnostics(rep: RecordReport, notes: bool) -> None:
    """A record's errors, each on its line; its notes too with ``--notes``, else first one
    line that sums them up and names the record's first line. That line does not begin
    ``file:line:col: CODE`` as a diagnostic does: tools that read those skip it."""
    summary = "" if notes else notes_summary(rep)
    if summary:
        print(f"{summary}, in the record at {rep.path or '<input>'}:{rep.line}; --notes lists them")
    for d in rep.diagnostics:
        if notes or d.severity != "note":
            print(d.format())


# -- validate --explain: each hand's settlement, for people --------------------------------
def cmd_explain(args: argparse.Namespace) -> int:
    """``paifu validate --explain``: every hand's computed settlement beside the written line
    (only hand N with ``--hand N``); the errors printed under the hand they are in. Exit
    status as validate's."""
    from rich.console import Console

    from paifu.explain import explain

    if args.json:
        print("paifu validate: --explain prints tables; the JSON report (--json) already holds every hand's settlement",
              file=sys.stderr)
        return 2
    tty = sys.stdout.isatty()
    console = Console(highlight=False, soft_wrap=not tty, width=None if tty else 1000, no_color=not tty)
    unreadable: list[str] = []
    counts = Summary()
    jobs = args.jobs or auto_jobs(args.paths)
    for rep in validate_inputs(args.paths, jobs, unreadable, slim=False):
        counted = summarize([rep])
        for name in ("records", "valid", "invalid", "errors", "notes"):
            setattr(counts, name, getattr(counts, name) + getattr(counted, name))
        if rep.index == 0:  # a path that could not be read at all
            for d in rep.diagnostics:
                print(d.format())
            continue
        _print_explanation(console, explain(rep, args.hand), args.hand, getattr(args, "notes", False), tty)
    unread = f"; {len(unreadable)} path(s) not read" if unreadable else ""
    print(f"{counts.records} record(s): {counts.valid} valid, {counts.invalid} invalid; "
          f"{counts.errors} error(s), {counts.notes} note(s){unread}")
    if unreadable:
        return 2
    return 1 if counts.invalid else 0


def _print_explanation(console, expl, hand: int | None, notes: bool, tty: bool) -> None:  # noqa: ANN001 - rich's Console
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from paifu.explain import signed

    def table(*columns: str, right: tuple[str, ...] = ()) -> Table:
        t = Table(box=box.SIMPLE_HEAD if tty else None, show_edge=tty, pad_edge=False, header_style="bold" if tty else "")
        for c in columns:
            t.add_column(c, justify="right" if c in right else "left", overflow="fold")
        return t

    def show(t: Table) -> None:
        if tty:
            console.print(t)
            return
        with console.capture() as captured:  # plain columns when piped: no trailing blanks
            console.print(t)
        for line in captured.get().splitlines():
            print("  " + line.rstrip())

    def figure(n: int | None) -> str:
        return "?" if n is None else signed(n)

    where = f"{expl.path or '<input>'}:{expl.line}"
    players = ", ".join(f"{s} {n}" if n else s for s, n in expl.players.items())
    print(f"{where}: record {expl.index}, {expl.game or 'no game'}" + (f": {players}" if players else "")
          + ("" if expl.valid else " (invalid)"))
    for d in expl.diagnostics:
        if notes or d.severity != "note":
            print(f"  {d.format()}")
    if hand is not None and not expl.hands:
        print(f"  no hand {hand} in this record")
    for h in expl.hands:
        print()
        print(f"hand {h.number if h.number is not None else '?'} (line {h.line})" + ("" if h.over else ": not over"))
        mark = bool(h.differences)
        if h.items:
            t = table(*(("",) if mark else ()), "seat", "item", "value", "as the rules count it", right=("value",))
            for r in h.items:
                t.add_row(*((("≠" if r.differs else ""),) if mark else ()), r.seat, Text(r.item), str(r.value), Text(r.detail),
                          style="red" if r.differs and tty else None)
            show(t)
        if h.payments:
            t = table(*(("",) if mark else ()), "pays", "to", "amount", "how", right=("amount",))
            for p in h.payments:
                t.add_row(*((("≠" if p.differs else ""),) if mark else ()), p.payer, p.payee, str(p.amount),
                          Text("" if p.reason == str(p.amount) else p.reason), style="red" if p.differs and tty else None)
            show(t)
        if any(s.written is not None or s.computed is not None or s.total is not None for s in h.seats):
            named = any(s.name for s in h.seats)  # else no figures to show: the hand was not settled
            t = table("seat", *(("player",) if named else ()), "written", "computed", "total after",
                      right=("written", "computed", "total after"))
            for s in h.seats:
                computed = "?" if s.unknown else figure(s.computed) + (" ≠" if s.differs else "")
                total = "" if s.total is None else "?" if s.total_unknown else signed(s.total)
                t.add_row(s.seat, *((Text(s.name),) if named else ()), "" if s.written is None else signed(s.written),
                          computed, total, style="red" if s.differs and tty else None)
            show(t)
            hidden = [s.seat for s in h.seats if s.unknown]
            if hidden:
                who = hidden[0] if len(hidden) == 1 else ", ".join(hidden[:-1]) + " and " + hidden[-1]
                print(f"  ?: hidden cards leave the figure of {who} unknown: not checked, nor the running total from here on")
        if h.final:
            if h.final_items:
                t = table("seat", "final item", "value", "as the rules count it", right=("value",))
                for r in h.final_items:
                    t.add_row(r.seat, Text(r.item), str(r.value), Text(r.detail))
                show(t)
            print("  final: " + "  ".join(f"{s.seat} {figure(s.computed)}" for s in h.final))
        if h.differences:
            at = f" (line {h.score_line})" if h.score_line else ""
            written = "  ".join(f"{s.seat} {signed(s.written)}" for s in h.seats if s.written is not None)
            print(f"  the written score line{at} differs: {written}")
            for diff in h.differences:
                for line in diff.lines():
                    print(f"    {line}")
        for d in h.diagnostics:
            if notes or d.severity != "note":
                print(f"  {d.format()}")
        summary = "" if notes else _notes_of(h.diagnostics, expl.game)
        if summary:
            print(f"  {summary}; --notes lists them")
    print()


def _notes_of(diagnostics, game: str | None) -> str:  # noqa: ANN001
    return notes_summary(RecordReport(index=1, game=game, diagnostics=list(diagnostics)))


# -- convert -----------------------------------------------------------------------------
def cmd_convert(args: argparse.Namespace) -> int:
    from paifu.notation.jsonform import json_as_text, line_col  # pydantic: loaded for JSON only

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
        problem = path_problem(p)
        if problem:
            yield p, None, problem
            continue
        path = Path(p)
        files = sorted(f for f in path.rglob("*") if f.is_file() and f.name.endswith(suffixes)) if path.is_dir() else [path]
        for f in files:
            try:
                with open_regular(f) as handle:  # a log may be gzip: read whole, NUL bytes and all
                    data = handle.read()
                yield str(f), data, ""
            except OSError as err:
                yield str(f), None, err.strerror or str(err)


def _read_log(fmt: str, data: bytes, path: str) -> list[Record]:
    """The records of one log file of the format (a located I601 error for what cannot be read)."""
    from paifu.notation.jsonform import line_col
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
    from paifu.schemas import schema_text

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
        skipped: list[tuple[Path, str]] = []
        found = False
        for path in iter_paths([arg], folders, skipped):
            found = True
            try:
                status = max(status, _fmt_file(path, args.check))
            except Exception as exc:  # noqa: BLE001 - the next file is still formatted
                print(internal_error(exc, 0, 0, str(path), "formatting this file").format(), file=sys.stderr)
                status = 2
        for path, reason in skipped:
            print(f"{path}:0:0: P110 {skipped_problem(reason)}", file=sys.stderr)
            status = 2
        for folder, err in folders:
            print(f"{folder}:0:0: P110 {folder_problem(err)}", file=sys.stderr)
            status = 2
        if not found and not folders and not skipped:  # as validate says it
            print(f"{arg}:0:0: P110 the folder holds no .paifu file", file=sys.stderr)
            status = 2
    return status


def _fmt_stdin(check: bool) -> int:
    """``fmt -``: standard input to standard output (with --check: only the exit status)."""
    if sys.stdin is None:
        print("<stdin>:0:0: P110 standard input is closed", file=sys.stderr)
        return 2
    data = read_bounded(sys.stdin.buffer)
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

    A symbolic link is followed: its target is formatted and the link stays. The file is
    replaced all at once (:func:`paifu.files.write_keeping`), keeping its mode and owner (a
    hard-linked file's other names keep the old text), and is not written when it changed
    since it was read.
    """
    target = Path(os.path.realpath(path))
    try:
        with open_regular(target) as handle:  # read as validate reads: up to a NUL byte (P104), no further
            read_stat = os.fstat(handle.fileno())
            data = read_bounded(handle)
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
    problem, in_place = write_keeping(target, new, data, read_stat)
    if problem:
        print(f"{path}: not formatted: {problem}", file=sys.stderr)
        return 2
    others = read_stat.st_nlink - 1
    if others and not in_place:  # replaced all at once: the file's other names keep what they held
        print(f"{path}: reformatted (a new file: its {others} other hard link(s) keep the old text)")
    else:
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
