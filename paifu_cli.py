"""The ``paifu`` command: validate, convert, schema, selfplay, fmt, rules, bench, view.

The one module that reaches notation/, replay/ and (lazily, for ``view``) viewer/.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import IO, Iterator, Sequence

from notation import diag, read_stream, write_records
from notation.model import Record
from notation.reader import Chunk, ReadResult, iter_paths, read_chunk, split_records
from replay import games
from replay.report import RecordReport, Report, summarize
from replay.validate import validate

PARALLEL_BYTES = 2 * 1024 * 1024  # inputs larger than this validate in worker processes


# -- validate ----------------------------------------------------------------------------
def _report_for(result: ReadResult, index: int) -> RecordReport:
    """Replay a read record, or report why it could not be read."""
    if result.record is None or any(d.severity == "error" for d in result.diagnostics):
        rep = RecordReport(path=result.path, line=result.line, index=index, valid=False, diagnostics=result.diagnostics)
        if result.record is not None:
            rep.game = result.record.game
            rep.players = result.record.players()
        return rep
    rep = validate(result.record, result.path, index)
    rep.diagnostics = result.diagnostics + rep.diagnostics
    rep.valid = not any(d.severity == "error" for d in rep.diagnostics)
    return rep


def _validate_chunk(path: str, chunk: Chunk, index: int) -> RecordReport:
    """Worker: parse and replay one record's text."""
    return _report_for(read_chunk(chunk, path), index)


def _chunks(path: str, stream: IO[bytes]) -> Iterator[tuple[str, Chunk, int]]:
    any_chunk = False
    for index, chunk in enumerate(split_records(stream), 1):
        any_chunk = True
        yield path, chunk, index
    if not any_chunk:
        yield path, Chunk("", 1, [diag("P106", "no record in this file (it is empty)", 1, 1)]), 1


def _inputs(args_paths: Sequence[str], unreadable: list[str]) -> Iterator[tuple[str, Chunk, int]]:
    for arg in args_paths:
        if arg == "-":
            yield from _chunks("<stdin>", sys.stdin.buffer)
            continue
        if not Path(arg).exists():
            unreadable.append(arg)
            yield arg, Chunk("", 0, [diag("P110", "no such file or directory", 0, 0)]), 0
            continue
        found = False
        for path in iter_paths([arg]):
            found = True
            try:
                with open(path, "rb") as handle:
                    yield from _chunks(str(path), handle)
            except OSError as err:
                unreadable.append(str(path))
                yield str(path), Chunk("", 0, [diag("P110", f"cannot read: {err.strerror or err}", 0, 0)]), 0
        if not found:
            unreadable.append(arg)
            yield arg, Chunk("", 0, [diag("P110", "the folder holds no .paifu file", 0, 0)]), 0


def _total_bytes(paths: Sequence[str]) -> int:
    total = 0
    for p in iter_paths([q for q in paths if q != "-" and Path(q).exists()]):
        try:
            total += p.stat().st_size
        except OSError:
            pass
    return total


def validate_inputs(paths: Sequence[str], jobs: int, unreadable: list[str]) -> Iterator[RecordReport]:
    """Reports in input order; records are replayed in ``jobs`` processes when jobs > 1."""
    tasks = _inputs(paths, unreadable)
    if jobs <= 1:
        for path, chunk, index in tasks:
            yield _validate_chunk(path, chunk, index)
        return
    window: list[Future] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for task in tasks:
            window.append(pool.submit(_validate_chunk, *task))
            if len(window) >= jobs * 8:
                yield window.pop(0).result()
        for fut in window:
            yield fut.result()


def cmd_validate(args: argparse.Namespace) -> int:
    jobs = args.jobs
    if jobs == 0:
        jobs = min(os.cpu_count() or 1, 8) if _total_bytes(args.paths) > PARALLEL_BYTES else 1
    unreadable: list[str] = []
    reports: list[RecordReport] = []
    progress = None
    if not args.json and sys.stderr.isatty():
        from rich.progress import Progress

        progress = Progress(transient=True)
        task = progress.add_task("validating", total=None)
        progress.start()
    try:
        for rep in validate_inputs(args.paths, jobs, unreadable):
            if rep.index == 0:  # a path that could not be read at all
                rep.path = rep.path or (rep.diagnostics[0].path if rep.diagnostics else "")
            reports.append(rep)
            if progress:
                progress.advance(task)
            if not args.json:
                for d in rep.diagnostics:
                    print(d.format())
    finally:
        if progress:
            progress.stop()
    summary = summarize(reports)
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
def _read_json_records(text: str, path: str) -> tuple[list[Record], list[str]]:
    from pydantic import ValidationError

    decoder = json.JSONDecoder()
    records: list[Record] = []
    problems: list[str] = []
    pos = 0
    text = text.lstrip("\ufeff")
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            doc, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as err:
            problems.append(f"{path}:{err.lineno}:{err.colno}: P111 not JSON: {err.msg}")
            break
        for item in doc if isinstance(doc, list) else [doc]:
            try:
                records.append(Record.model_validate(item))
            except ValidationError as err:
                first = err.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                problems.append(f"{path}:1:1: P111 record {len(records) + 1} does not match the record schema at {where}: {first['msg']}")
    return records, problems


def cmd_convert(args: argparse.Namespace) -> int:
    path = args.path
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as err:
        print(f"{path}:0:0: P110 cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    if args.to == "json":
        import io

        failed = False
        out = []
        for result in read_stream(io.BytesIO(data), path):
            errors = [d for d in result.diagnostics if d.severity == "error"]
            if errors or result.record is None:
                failed = True
                for d in errors:
                    print(d.format(), file=sys.stderr)
                continue
            out.append(result.record.model_dump_json(indent=2, exclude_none=False))
        if failed:
            return 1
        sys.stdout.write("\n".join(out) + "\n")
        return 0
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        print(f"{path}:1:{err.start + 1}: P103 not UTF-8", file=sys.stderr)
        return 1
    records, problems = _read_json_records(text, path)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    if not records:
        print(f"{path}:1:1: P106 no record in this file", file=sys.stderr)
        return 1
    sys.stdout.write(write_records(records))
    return 0


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
    records = (selfplay_record(engine, seed + i, args.hands, options, args.seats) for i in range(args.n))
    stats = SelfplayStats() if args.stats else None
    first = True
    for record in records:
        if not first:
            sys.stdout.write("\n")
        sys.stdout.write(write_records([record]))
        first = False
        if stats:
            stats.add(validate(record))
    if stats:
        stats.print(args.game)
    return 0


class SelfplayStats:
    """What ``paifu selfplay --stats`` prints: hands scored and the scoring items seen."""

    def __init__(self) -> None:
        self.hands = 0
        self.scored = 0
        self.invalid = 0
        self.items: dict[str, int] = {}

    def add(self, report: RecordReport) -> None:
        self.invalid += not report.valid
        for hand in report.hands:
            self.hands += 1
            if hand.computed and any(hand.computed.values()):
                self.scored += 1
            for name in {i.name for i in hand.items}:
                self.items[name] = self.items.get(name, 0) + 1

    def print(self, game: str) -> None:
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


# -- fmt ---------------------------------------------------------------------------------
def cmd_fmt(args: argparse.Namespace) -> int:
    status = 0
    for path in iter_paths(args.paths):
        try:
            data = path.read_bytes()
        except OSError as err:
            print(f"{path}:0:0: P110 cannot read: {err.strerror or err}", file=sys.stderr)
            status = 2
            continue
        import io

        records = []
        bad = False
        for result in read_stream(io.BytesIO(data), str(path)):
            errors = [d for d in result.diagnostics if d.severity == "error"]
            if errors or result.record is None:
                bad = True
                for d in errors:
                    print(d.format(), file=sys.stderr)
            else:
                records.append(result.record)
        if bad:
            print(f"{path}: not formatted (fix the errors above first)", file=sys.stderr)
            status = max(status, 1)
            continue
        text = write_records(records)
        if text.encode("utf-8") == data:
            continue
        if args.check:
            print(f"{path}: would be reformatted")
            status = max(status, 1)
            continue
        fd, tmp = tempfile.mkstemp(prefix=".paifu-fmt-", dir=str(path.parent))
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
        print(f"{path}: reformatted")
    return status


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
        values = ", ".join(list(o.choices) + (["N (a whole number)"] if o.integer else []))
        table.add_row(o.name, o.default, values, o.help, o.source)
    console.print(table)
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
    from paifu_bench import run_bench

    run_bench(records=args.records, seed=args.seed)
    return 0


# -- view --------------------------------------------------------------------------------
def cmd_view(args: argparse.Namespace) -> int:
    try:
        from viewer import serve
    except ImportError as err:
        print(f"paifu view: the viewer is not available ({err})", file=sys.stderr)
        return 2
    return serve(args.path, host=args.host, port=args.port)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paifu", description="Notation, validator and replay viewer for recorded card and tile games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="replay records and report every problem")
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files, folders (every .paifu under them) or - for standard input")
    p.add_argument("--json", action="store_true", help="print one JSON report (schemas/report.schema.json)")
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: automatic)")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("convert", help="convert records between text and JSON, loss-free")
    p.add_argument("--to", choices=("json", "text"), required=True)
    p.add_argument("path", metavar="PATH", help="a file or - for standard input")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("schema", help="print the JSON Schema of the record or of the report")
    p.add_argument("which", choices=("record", "report"))
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("selfplay", help="write random legal records")
    p.add_argument("game")
    p.add_argument("-n", type=int, default=1, help="how many records (default 1)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a random one, written in a Seed tag)")
    p.add_argument("--hands", type=int, default=None, help="hands per record (default: the game's)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rules option (repeatable)")
    p.add_argument("--seats", type=int, default=None, help="number of players, where the game allows several")
    p.add_argument("--stats", action="store_true", help="print, on standard error, the share of hands scored and the scoring items seen")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("fmt", help="rewrite files as canonical text")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--check", action="store_true", help="only report files that would change (exit 1)")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("rules", help="list games, or a game's rules options and defaults")
    p.add_argument("game", nargs="?")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("bench", help="measure parsing and validation speed")
    p.add_argument("--records", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("view", help="serve a local site that steps through records")
    p.add_argument("path")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(func=cmd_view)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


if __name__ == "__main__":
    sys.exit(main())
