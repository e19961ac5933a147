"""``paifu rules``, ``selfplay``, ``bench`` and ``view``: the games, random legal play, the
benchmarks and the viewer, each started here and printed here.
"""

from __future__ import annotations

import argparse
import random
import sys

from paifu.notation import write_records
from paifu.replay import games
from paifu.replay.engine import Violation
from paifu.replay.report import RecordReport
from paifu.replay.validate import validate

FAMILIES = {"cards": "French cards", "mahjong": "mahjong tiles", "paper": "Chinese paper cards"}  # replay/'s folders

# -- selfplay ----------------------------------------------------------------------------
def cmd_selfplay(args: argparse.Namespace) -> int:
    from paifu.replay.selfplay import selfplay_record

    engine = games.engine(args.game)
    if engine is None:
        print(f"paifu selfplay: no engine for '{args.game}' (the games: {', '.join(games.game_ids())})", file=sys.stderr)
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


# -- rules -------------------------------------------------------------------------------
def cmd_rules(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not args.game:
        table = Table(title="paifu games")
        for col in ("id", "game", "seats", "family"):
            table.add_column(col)
        for gid, title in games.ALL_GAMES.items():
            eng = games.engine(gid)
            assert eng is not None  # every game in the registry has its engine (or EngineUnavailable)
            table.add_row(gid, title, "/".join(map(str, eng.seat_counts)), FAMILIES[games.GAME_MODULES[gid].split(".")[2]])
        console.print(table)
        return 0
    eng = games.engine(args.game)
    if eng is None:
        print(f"paifu rules: no engine for '{args.game}' (the games: {', '.join(games.game_ids())})", file=sys.stderr)
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
        for col in ("term", "item", "value", "condition"):
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
    from paifu.bench import run_archive_bench, run_bench

    if getattr(args, "archive", None):
        run_archive_bench(args.archive, seed=args.seed, folder=args.archive_dir)
        return 0
    only = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    run_bench(records=args.records, seed=args.seed, as_json=args.json, history=args.history, folder=args.corpus,
              process=not args.no_process, scale_mb=args.scale_mb, only=only, tiles=not args.no_win_checks,
              repeat=args.repeat, race_actions=args.process_actions, race_runs=args.process_runs)
    return 0


# -- view --------------------------------------------------------------------------------
def cmd_view(args: argparse.Namespace) -> int:
    try:
        from paifu.viewer import serve
    except ImportError as err:
        print(f"paifu view: the viewer is not available ({err})", file=sys.stderr)
        return 2
    port = port_number(args.port)
    if port is None:
        print(f"paifu view: --port {args.port}: a port is a whole number from 0 to 65535 (0: any free port)", file=sys.stderr)
        return 2
    return serve(args.path, host=args.host, port=port, db=args.db, scribe=args.scribe)


def port_number(text: str) -> int | None:
    """The TCP port ``text`` names (0 to 65535), or None."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        return None
    port = int(text)
    return port if port <= 65535 else None
