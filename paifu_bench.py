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
        from paifu_bench_tiles import bench_win_checks
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


# -- archive: index build and search over many selfplay hands ------------------------------
BENCH_NAMES = ["Mei", "Li", "Wang", "Chen", "Zhao", "Qian", "Sun", "Zhou", "Wu", "Zheng"]
RECORDS_PER_FILE = 50


def _archive_file(args: tuple[str, int, int, int]) -> int:
    """Write one file of selfplay records, games in turn, with names and dates (a worker)."""
    from notation.model import Tag

    path, first, n_records, hands = args
    available = games.available()
    records = []
    for seed in range(first, first + n_records):
        engine = games.engine(available[seed % len(available)])
        record = selfplay_record(engine, seed, hands=hands)
        rng = random.Random(seed)
        seats = engine.seat_counts[0]
        names = rng.sample(BENCH_NAMES, seats) if seats <= len(BENCH_NAMES) else BENCH_NAMES[:seats]
        date = f"{rng.randrange(2020, 2027)}.{rng.randrange(1, 13):02d}.{rng.randrange(1, 29):02d}"
        record.tags = [t for t in record.tags if t.name != "Players"] + [
            Tag(name="Players", value="; ".join(f"{chr(65 + i)}: {n}" for i, n in enumerate(names))), Tag(name="Date", value=date)]
        records.append(record)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(write_records([r]) for r in records))
    return sum(len(r.hands) for r in records)


def make_archive_corpus(folder, hands: int, hands_per_record: int = 4, seed: int = 1, jobs: int = 2) -> int:
    """Write about ``hands`` selfplay hands of every game under ``folder``; return the hands written."""
    from concurrent.futures import ProcessPoolExecutor
    from pathlib import Path

    folder = Path(folder)
    n_records = max(1, hands // hands_per_record)
    tasks = []
    for k, first in enumerate(range(0, n_records, RECORDS_PER_FILE)):
        sub = folder / f"part{k // 100:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        tasks.append((str(sub / f"f{k:05d}.paifu"), seed * 1_000_000 + first, min(RECORDS_PER_FILE, n_records - first), hands_per_record))
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        return sum(pool.map(_archive_file, tasks, chunksize=4))


def _median_ms(fn, runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1000


def bench_archive(hands: int = 2000, seed: int = 1, folder: str | None = None, jobs: tuple[int, ...] = (1, 2)) -> dict:
    """Index build time (1 and 2 jobs), re-index after touching and after changing 1% of the
    files, and the latency of searches over the index. Figures, not a test."""
    import os
    import shutil
    import tempfile
    from pathlib import Path

    import paifu_archive as arc

    work = Path(tempfile.mkdtemp(prefix="paifu-archive-bench-"))
    corpus = Path(folder) if folder else work / "corpus"
    figures: dict = {}
    try:
        start = time.perf_counter()
        if not (corpus.exists() and any(corpus.rglob("*.paifu"))):
            make_archive_corpus(corpus, hands, seed=seed, jobs=max(jobs))
        figures["generate_s"] = time.perf_counter() - start
        files = sorted(corpus.rglob("*.paifu"))
        figures["files"] = len(files)
        figures["bytes"] = sum(f.stat().st_size for f in files)
        for n in jobs:
            db = work / f"index-{n}.sqlite"
            conn = arc.open_db(db)
            stats = arc.build_index(conn, [str(corpus)], n)
            conn.close()
            figures[f"index_{n}_jobs_s"] = stats.seconds
            figures["records"], figures["hands"] = stats.records, stats.hands
        db = work / f"index-{jobs[0]}.sqlite"
        figures["db_bytes"] = db.stat().st_size
        some = files[:: max(1, len(files) // max(1, len(files) // 100))][: max(1, len(files) // 100)]
        for f in some:  # a new stamp, the same bytes: the hash confirms nothing changed
            st = f.stat()
            os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        conn = arc.open_db(db)
        stats = arc.build_index(conn, [str(corpus)], jobs[0])
        figures["touched_files"] = len(some)
        figures["reindex_touched_s"] = stats.seconds
        for f in some:  # changed bytes: these files are read again
            with open(f, "a", encoding="utf-8") as handle:
                handle.write("\n{ appended by the benchmark }\n")
        stats = arc.build_index(conn, [str(corpus)], jobs[0])
        figures["reindex_changed_s"] = stats.seconds
        figures["reindex_changed_files"] = stats.files_read
        item = conn.execute("SELECT term FROM items WHERE term != '' GROUP BY term ORDER BY count(*) LIMIT 1").fetchone()
        common = conn.execute("SELECT term FROM items WHERE term != '' GROUP BY term ORDER BY count(*) DESC LIMIT 1").fetchone()
        queries = {
            "game": arc.Query(game="kawuxing"),
            "player + game": arc.Query(player="mei", game="bigtwo"),
            "date range": arc.Query(since="2026.01", until="2026.03"),
            "item (rarest term)": arc.Query(item=item[0] if item else "碰碰胡"),
            "item (commonest term)": arc.Query(item=common[0] if common else "碰碰胡"),
            "player + since, first 50": arc.Query(player="li", since="2025", limit=50),
            "invalid": arc.Query(invalid=True),
        }
        figures["search_ms"] = {name: (_median_ms(lambda q=q: arc.search(conn, q)), len(arc.search(conn, q))) for name, q in queries.items()}
        conn.close()
        figures.update(bench_validate_executors(str(corpus)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def bench_validate_executors(folder: str, workers: int = 2) -> dict:
    """``paifu validate`` over a folder: local processes (--jobs) against a Dask LocalCluster."""
    from paifu_cli import validate_inputs

    out: dict = {}
    start = time.perf_counter()
    n = sum(1 for _ in validate_inputs([folder], workers, []))
    out["validate_processes_s"] = time.perf_counter() - start
    out["validate_records"] = n
    try:
        import paifu_archive as arc

        start = time.perf_counter()
        client = arc.dask_client(None, workers)
        out["dask_startup_s"] = time.perf_counter() - start
    except Exception:  # noqa: BLE001 - dask not installed: no row
        return out
    try:
        start = time.perf_counter()
        sum(1 for _ in arc.validate_dask(client, [folder], []))
        out["validate_dask_s"] = time.perf_counter() - start
    finally:
        arc.close_dask(client)
    return out


def run_archive_bench(hands: int, seed: int = 1, folder: str | None = None, jobs: tuple[int, ...] = (1, 2)) -> dict:
    from rich.console import Console
    from rich.table import Table

    f = bench_archive(hands, seed, folder, jobs)
    size = f"{f['hands']} hands, {f['records']} records, {f['files']} files, {f['bytes'] / 1e6:.1f} MB"
    table = Table(title=f"paifu index / search ({size}; one run)")
    table.add_column("what")
    table.add_column("figure", justify="right")
    for n in jobs:
        s = f[f"index_{n}_jobs_s"]
        table.add_row(f"index build, --jobs {n}", f"{s:.1f} s ({f['hands'] / s:,.0f} hands/s)")
    table.add_row(f"re-index, {f['touched_files']} files touched (same bytes)", f"{f['reindex_touched_s']:.2f} s")
    table.add_row(f"re-index, {f['reindex_changed_files']} files changed", f"{f['reindex_changed_s']:.2f} s")
    table.add_row("index size", f"{f['db_bytes'] / 1e6:.1f} MB")
    for name, (ms, n) in f["search_ms"].items():
        table.add_row(f"search: {name} ({n} results)", f"{ms:.2f} ms")
    table.add_row(f"validate, --jobs 2 ({f['validate_records']} records)", f"{f['validate_processes_s']:.1f} s")
    if "validate_dask_s" in f:
        table.add_row("validate, --executor dask (LocalCluster, 2 workers)",
                      f"{f['validate_dask_s']:.1f} s (+ {f['dask_startup_s']:.1f} s to start the cluster)")
    Console().print(table)
    return f
