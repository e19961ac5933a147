"""The ``paifu`` command: it parses arguments, calls the library and prints.

Commands live by what they work on: :mod:`paifu.cli.records` (validate, convert, fmt,
schema, import, export), :mod:`paifu.cli.games` (rules, selfplay, bench, view) and
:mod:`paifu.cli.archive` (index, search). Nothing imports this package but
``python -m paifu`` and the ``paifu`` console script.

A command's module is imported when the command runs, so ``paifu --help`` or ``paifu
validate`` loads only what it needs (a user's start-up is a python-chess script's, or close).
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from typing import NoReturn, Sequence

from paifu import __version__
from paifu.files import DEFAULT_DB

from . import score


def _records(name: str):
    """``paifu.cli.records``'s command ``name``, imported when it runs."""
    def run(args: argparse.Namespace) -> int:
        from . import records
        return getattr(records, name)(args)
    return run


def _games(name: str):
    """``paifu.cli.games``'s command ``name``, imported when it runs."""
    def run(args: argparse.Namespace) -> int:
        from . import games
        return getattr(games, name)(args)
    return run


def _archive(name: str):
    """``paifu.cli.archive``'s command ``name``, imported when it runs."""
    def run(args: argparse.Namespace) -> int:
        from . import archive
        return getattr(archive, name)(args)
    return run


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line: ``paifu CMD: error: what``, exit 2
    (``--help`` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _whole(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def _jobs(text: str) -> int:
    """An argparse type for --jobs: 1 or more worker processes (left out: automatic)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not allowed: give 1 or more worker processes, or leave --jobs out (automatic)")
    return value


def _date(text: str) -> str:
    """An argparse type for --since and --until: a year, a month or a day that exists
    (2026, 2026.11, 2026-11-19; '.', '-' or '/' between the parts)."""
    parts = text.strip().replace("/", ".").replace("-", ".").split(".")
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() for p in parts) or len(parts[0]) != 4:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date: give a year, a month or a day (2026, 2026.11 or 2026-11-19)")
    year, month, day = (int(p) for p in parts + ["1"] * (3 - len(parts)))
    try:
        date(year, month, day)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date: {err}") from None
    return text


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
        raise argparse.ArgumentTypeError(f"{value} is not allowed: give 0 or more")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="paifu", description="Notation, validator and replay viewer for recorded card and tile games.")
    parser.add_argument("--version", action="version", version=f"paifu {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="replay records and report every problem")
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files, folders (every .paifu under them) or - for standard input")
    p.add_argument("--json", action="store_true", help="print one JSON report (schemas/report.schema.json)")
    p.add_argument("--jobs", type=_jobs, default=0, metavar="N", help="worker processes, 1 or more (default: automatic)")
    p.add_argument("--executor", choices=("processes", "dask"), default="processes",
                   help="where records are replayed: local processes (default) or a Dask cluster (docs/archives.md)")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="with --executor dask: the scheduler's address (default: a local cluster of --jobs workers, 2 if not given)")
    p.add_argument("--quiet", action="store_true", help="no progress bar on a terminal")
    p.add_argument("--notes", action="store_true",
                   help="list every note (what hidden cards leave unchecked); by default one line per record sums them up")
    p.add_argument("--explain", action="store_true",
                   help="print each hand's settlement: the scoring items, who pays whom, written beside computed, running totals")
    p.add_argument("--hand", type=_at_least_one, default=None, metavar="N", help="with --explain: only hand N (implies --explain)")
    p.set_defaults(func=_records("cmd_validate"))

    p = sub.add_parser("convert", help="convert records between text and JSON, loss-free")
    p.add_argument("--to", choices=("json", "text"), required=True)
    p.add_argument("--jsonl", action="store_true", help="with --to json: JSON Lines, one record per line, instead of one array")
    p.add_argument("--indent", type=_at_least_zero, default=None, metavar="N", help="with --to json: indent N spaces, for people (default: compact)")
    p.add_argument("--positions", action="store_true", help="with --to json: keep each item's source line and column ('at')")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (every .paifu under them) or - for standard input")
    p.set_defaults(func=_records("cmd_convert"))

    p = sub.add_parser("import", help="read other formats' game logs as paifu records (docs/import.md)")
    p.add_argument("format", choices=("tenhou", "mjlog", "mjai"),
                   help="tenhou: tenhou.net/6 JSON (Tenhou, Mahjong Soul); mjlog: Tenhou's mjlog XML (plain or gzip); "
                        "mjai: mjai JSON Lines (Mortal, mjai-reviewer); three-player logs")
    p.add_argument("paths", nargs="+", metavar="FILE",
                   help="log files, folders (every .json, .xml/.mjlog or .jsonl under them) or - for standard input")
    p.add_argument("-o", "--output", metavar="OUT", help="write the records here instead of standard output")
    p.set_defaults(func=_records("cmd_import"))

    p = sub.add_parser("export", help="write paifu records in other formats (docs/import.md)")
    p.add_argument("format", choices=("tenhou", "mjai"),
                   help="tenhou: tenhou.net/6 JSON, one log a line; mjai: mjai JSON Lines, one event a line")
    p.add_argument("path", metavar="RECORD", help="a record file or - for standard input")
    p.add_argument("--kita", action="store_true", help="mjai: write a North set aside as 'kita' (riichienv) instead of 'nukidora'")
    p.add_argument("-o", "--output", metavar="OUT", help="write the logs here instead of standard output")
    p.set_defaults(func=_records("cmd_export"))

    p = sub.add_parser("schema", help="print the JSON Schema of the record or of the report")
    p.add_argument("which", choices=("record", "report"))
    p.set_defaults(func=_records("cmd_schema"))

    p = sub.add_parser("selfplay", help="write random legal records")
    p.add_argument("game")
    p.add_argument("-n", type=_at_least_one, default=1, help="how many records (default 1)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a random one, written in the record's Seed tag)")
    p.add_argument("--hands", type=_at_least_one, default=None, help="hands per record (default: the game's)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rules option (repeatable)")
    p.add_argument("--seats", type=int, default=None, help="number of players, where the game allows several")
    p.add_argument("--stats", action="store_true", help="print, on standard error, the share of hands scored and the scoring items seen")
    p.add_argument("--aim", metavar="ITEM", help="steer deals and choices toward a scoring item or situation, named as --stats "
                   "names it (e.g. 'drawn hand', 海底捞, 'carte blanche'); the records stay legal")
    p.set_defaults(func=_games("cmd_selfplay"))

    score.add_parser(sub)  # paifu score GAME TILES ...: one hand, without a record


    p = sub.add_parser("fmt", help="rewrite files as canonical text",
                       description="Rewrite files as canonical text, each all or nothing. Exit 0 when every file is (now) "
                       "canonical, 1 when one would be reformatted (--check) or has errors (it is left as it is), "
                       "2 when a path cannot be read (P110) or a file cannot be written.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (every .paifu under them) or - (standard input to standard output)")
    p.add_argument("--check", action="store_true",
                   help="only report files that would change: exit 0 when none would, 1 when one would or has errors, "
                        "2 when one cannot be read (P110)")
    p.set_defaults(func=_records("cmd_fmt"))

    p = sub.add_parser("rules", help="list games, or a game's rules options and defaults")
    p.add_argument("game", nargs="?")
    p.set_defaults(func=_games("cmd_rules"))

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
    p.add_argument("--process-actions", type=_at_least_zero, default=40_000, metavar="N",
                   help="race whole `paifu validate --jobs 1` processes on about N actions of each game against a python-chess "
                        "script reading as many plies (0: skip; default %(default)s)")
    p.add_argument("--process-runs", type=_at_least_one, default=3, metavar="N",
                   help="runs of each process in the race, in turn; the median counts (default %(default)s)")
    p.add_argument("--no-win-checks", action="store_true", help="skip the mahjong win-check figures")
    p.add_argument("--archive", type=int, metavar="HANDS", help="instead: index build and search figures over this many selfplay hands")
    p.add_argument("--archive-dir", metavar="DIR", help="with --archive: the corpus folder (written when empty, kept)")
    p.set_defaults(func=_games("cmd_bench"))

    p = sub.add_parser("view", help="serve a local site that steps through records",
                       description="Serve a local site that steps through the records of PATH (a record file or a folder of .paifu files). "
                       "Exits 2, with one line saying why, when PATH holds nothing to view, the port is not a port or is in use.")
    p.add_argument("path", nargs="?", help="a record file (any name) or a folder (every .paifu file under it); "
                   "with --scribe: that folder by default")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s, this machine only; "
                   "requests naming another host are refused)")
    p.add_argument("--port", default="5000", help="the TCP port to listen on, 0 to 65535, 0 for any free one (default: %(default)s)")
    p.add_argument("--db", metavar="FILE", default=None, help="an index built by 'paifu index': unchanged files are listed from it, not read")
    p.add_argument("--scribe", metavar="DIR", default=None, help="also write records live, offered only legal actions, into DIR (/scribe/; docs/scribe.md)")
    p.set_defaults(func=_games("cmd_view"))

    p = sub.add_parser("index", help="index record files into an SQLite database, incrementally")
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders (every .paifu under them)")
    p.add_argument("--db", default=DEFAULT_DB, help=f"the index (default ./{DEFAULT_DB})")
    p.add_argument("--jobs", type=_jobs, default=0, metavar="N", help="worker processes, 1 or more (default: automatic)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no summary line")
    p.add_argument("--executor", choices=("processes", "dask"), default="processes",
                   help="where records are replayed: local processes (default) or a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="with --executor dask: the scheduler's address (default: a local cluster of --jobs workers, 2 if not given)")
    p.add_argument("--verify", action="store_true",
                   help="reread every file's content hash, even where size and modification time are unchanged")
    p.add_argument("--rebuild", action="store_true",
                   help="delete the index (an empty, damaged or sound paifu index; never another file) and build it again")
    p.set_defaults(func=_archive("cmd_index"))

    p = sub.add_parser("search", help="find records in an index built by 'paifu index'")
    p.add_argument("--db", default=DEFAULT_DB, help=f"the index (default ./{DEFAULT_DB})")
    p.add_argument("--game", help="a game id (see 'paifu rules')")
    p.add_argument("--player", metavar="NAME", help="a player's name, any case; * and ? are wildcards")
    p.add_argument("--since", metavar="DATE", type=_date, help="Date tag on or after (2026, 2026.11 or 2026-11-19)")
    p.add_argument("--until", metavar="DATE", type=_date, help="Date tag on or before")
    p.add_argument("--item", metavar="NAME", help="a scoring item scored in some hand, by its term in the rule text or its English name")
    p.add_argument("--invalid", action="store_true", help="only records the validator rejects")
    p.add_argument("--code", metavar="CODE", help="only records with this diagnostic code (e.g. L303)")
    p.add_argument("--limit", type=_at_least_one, default=None, help="at most this many results (1 or more)")
    p.add_argument("--json", action="store_true", help="print the results as a JSON list")
    p.set_defaults(func=_archive("cmd_search"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from paifu.batch import tune_gc

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
    except Exception as err:
        from paifu.replay.games import EngineUnavailable  # imported already where one is raised

        if not isinstance(err, EngineUnavailable):
            raise
        print(f"paifu {args.command}: {err}", file=sys.stderr)  # a broken installation: no record is to blame
        return 2


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass
