"""``paifu bench``: parsing and validation speed on selfplay records, beside python-chess.

Benchmarks report; they never fail tests. python-chess (and the ``mahjong`` package for
win checks) come with the ``bench`` extra; without them their rows say so.
"""

from __future__ import annotations

import io
import random
import time
from dataclasses import dataclass

from notation import read_text, write_records
from replay import games
from replay.selfplay import selfplay_record
from replay.validate import validate


@dataclass
class Rate:
    name: str
    units: int
    unit: str
    seconds: float

    @property
    def per_second(self) -> float:
        return self.units / self.seconds if self.seconds else float("inf")


def _timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bench_game(game: str, records: int, seed: int) -> list[Rate]:
    engine = games.engine(game)
    corpus = write_records(selfplay_record(engine, seed + i) for i in range(records))
    n_events = sum(1 for line in corpus.splitlines() if line[:2].rstrip(":").isalpha() and ":" in line[:3])
    parse_s, results = _timed(lambda: [r.record for r in read_text(corpus)])
    parsed = [r for r in results if r is not None]
    validate_s, reports = _timed(lambda: [validate(r) for r in parsed])
    actions = sum(r.actions for r in reports)
    return [
        Rate(f"{game}: parse", n_events, "events", parse_s),
        Rate(f"{game}: parse", len(parsed), "records", parse_s),
        Rate(f"{game}: replay + validate", actions, "actions", validate_s),
        Rate(f"{game}: parse + validate", actions, "actions", parse_s + validate_s),
    ]


def bench_chess(games_n: int, seed: int) -> list[Rate]:
    try:
        import chess
        import chess.pgn
    except ImportError:
        return []
    rng = random.Random(seed)
    out = io.StringIO()
    plies = 0
    for _ in range(games_n):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(rng.randrange(40, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            plies += 1
        print(game, file=out, end="\n\n")
    text = out.getvalue()

    def read_all():
        handle = io.StringIO(text)
        n = 0
        while chess.pgn.read_game(handle) is not None:
            n += 1
        return n

    seconds, _ = _timed(read_all)
    return [Rate("python-chess: read_game (legality)", plies, "plies", seconds)]


def bench_tiles() -> list[Rate]:
    try:
        from replay.tiles_bench import bench_win_checks
    except ImportError:
        return []
    hands = 20000
    figures = bench_win_checks(n_hands=hands)

    def rate(name: str, per_second: float) -> Rate:
        return Rate(name, hands, "checks", hands / per_second)

    rates = [
        rate("mahjong core: win checks (list hands)", figures["paifu_checks_per_s"]),
        rate("mahjong core: win checks (bytearray hands)", figures["paifu_bytearray_checks_per_s"]),
    ]
    if figures.get("mahjong_pkg_checks_per_s"):
        rates.append(rate("mahjong (PyPI) Agari.is_agari", figures["mahjong_pkg_checks_per_s"]))
    return rates


def run_bench(records: int = 200, seed: int = 1) -> list[Rate]:
    from rich.console import Console
    from rich.table import Table

    rates: list[Rate] = []
    for game in games.available():
        rates += bench_game(game, records if game == "bigtwo" else max(records // 4, 10), seed)
    rates += bench_chess(max(records, 50), seed)
    rates += bench_tiles()
    table = Table(title="paifu bench (one run; numbers vary with the machine's load)")
    for col in ("what", "count", "per second"):
        table.add_column(col, justify="right" if col != "what" else "left")
    for r in rates:
        table.add_row(r.name, f"{r.units} {r.unit}", f"{r.per_second:,.0f} {r.unit}/s")
    Console().print(table)
    chess_rate = next((r.per_second for r in rates if r.name.startswith("python-chess")), None)
    ours = next((r.per_second for r in rates if r.name == "bigtwo: parse + validate"), None)
    if chess_rate and ours:
        Console().print(f"Big Two parse + validate: {ours / chess_rate:.2f}× python-chess's plies/s (aim ≥ 0.5×)")
    core = next((r.per_second for r in rates if r.name == "mahjong core: win checks (list hands)"), None)
    pkg = next((r.per_second for r in rates if r.name.startswith("mahjong (PyPI)")), None)
    if core and pkg:
        Console().print(f"Win checks: {core / pkg:.1f}× the mahjong package's rate on list hands (target ≥ 10×)")
    return rates
