"""``paifu bench``: how fast paifu reads and validates, measured on the path the CLI takes.

For every game, a corpus of selfplay records is written to a file and validated the way
``paifu validate --jobs 1`` does it (``split_records`` -> ``read_chunk`` -> ``validate_read``),
with a timer around each stage. Then, as a user runs it, ``paifu validate --jobs 1`` on a file
of about 40,000 actions of each game races a python-chess script reading as many PGN plies,
whole process against whole process, in turn, by the median wall time of three
(:mod:`paifu.bench.process`), and start-up is timed alone. The same file is then validated in-process with ``--jobs 2``
(``validate_inputs``) and as a whole process (``paifu validate --jobs 1 FILE``), whose wall time,
less the time of the same process on a one-hand file (interpreter start, imports), is
compared with the in-process figure: the bench says whether the two agree within 20%.
python-chess's ``read_game`` runs in the same run, on random games, so the ratios hold on a
busy machine. ``--json`` prints the figures; ``--history FILE`` appends them (commit, load)
as one JSON line, to compare commits. Benchmarks report; they never fail tests.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from paifu.notation import write_records
from paifu.notation.model import walk_events
from paifu.notation.reader import read_chunk, split_records
from paifu.replay import games
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate_read

RACE_ACTIONS = 40_000  # issue #33: whole processes on about this many actions (plies) each
AGREEMENT = 0.20  # the bench's figure and the whole process's must agree within this share
WIN_CHECK_AIM = 10.0  # issue #14: win checks this many times the mahjong package's, on the same hands


@dataclass
class Rate:
    name: str
    units: int
    unit: str
    seconds: float

    @property
    def per_second(self) -> float:
        return self.units / self.seconds if self.seconds else float("inf")


# Timings are CPU seconds of this process (time.process_time) unless named wall: on a busy
# machine they stay close to what an idle one would take, where wall time stretches with the
# load. A speed-up of --jobs 2 is about wall time, and is timed so.
CLOCK = time.process_time


def _timed(fn, clock=CLOCK) -> tuple[float, object]:
    start = clock()
    result = fn()
    return clock() - start, result


@dataclass
class GameFigures:
    """One game's figures; rates are derived from the counts and seconds."""

    game: str
    records: int
    bytes: int
    events: int  # events and hand lines read (variations included)
    actions: int  # actions replayed
    split_s: float  # CPU seconds cutting the file into records (split_records)
    parse_s: float  # CPU seconds reading the records (read_chunk)
    replay_s: float  # CPU seconds replaying and checking them (validate_read)
    jobs1_wall_s: float | None = None  # wall seconds of validate_inputs(..., jobs=1) on the file
    jobs2_wall_s: float | None = None  # wall seconds of validate_inputs(..., jobs=2) on the file
    process_s: float | None = None  # `paifu validate --jobs 1 FILE`: CPU seconds (user + system)
    startup_s: float | None = None  # the same process on a one-hand file: CPU seconds
    process_wall_s: float | None = None
    peak_rss_mb: float | None = None  # of the whole process
    chess_plies_per_s: float | None = None
    items: int | None = None  # the events' items read (cards or tile groups, words, numbers...)
    release_s: float = 0.0  # CPU seconds dropping each record and its report once checked

    @property
    def read_s(self) -> float:
        return self.split_s + self.parse_s

    @property
    def total_s(self) -> float:
        return self.read_s + self.replay_s + self.release_s

    @property
    def parse_events_per_s(self) -> float:
        return self.events / self.read_s if self.read_s else float("inf")

    @property
    def parse_items_per_s(self) -> float | None:
        return self.items / self.read_s if self.items is not None and self.read_s else None

    @property
    def replay_actions_per_s(self) -> float:
        return self.actions / self.replay_s if self.replay_s else float("inf")

    @property
    def parse_validate_actions_per_s(self) -> float:
        return self.actions / self.total_s if self.total_s else float("inf")

    @property
    def parse_over_replay(self) -> float:
        return self.parse_events_per_s / self.replay_actions_per_s

    @property
    def vs_chess(self) -> float | None:
        return self.parse_validate_actions_per_s / self.chess_plies_per_s if self.chess_plies_per_s else None

    @property
    def jobs2_speedup(self) -> float | None:
        return self.jobs1_wall_s / self.jobs2_wall_s if self.jobs1_wall_s and self.jobs2_wall_s else None

    @property
    def process_vs_bench(self) -> float | None:
        """(process CPU time - its start-up's) / the bench's parse + validate CPU time; 1.0 agrees."""
        if self.process_s is None or self.startup_s is None or not self.total_s:
            return None
        return (self.process_s - self.startup_s) / self.total_s

    @property
    def agrees(self) -> bool | None:
        ratio = self.process_vs_bench
        return None if ratio is None else abs(ratio - 1) <= AGREEMENT

    def as_json(self) -> dict:
        out = asdict(self)
        for name in ("parse_events_per_s", "parse_items_per_s", "replay_actions_per_s", "parse_validate_actions_per_s", "parse_over_replay",
                     "vs_chess", "jobs2_speedup", "process_vs_bench", "agrees"):
            out[name] = getattr(self, name)
        return out


def write_corpus(game: str, records: int, seed: int, folder: Path) -> Path:
    """The game's selfplay corpus as one file (kept in ``folder`` and reused when present)."""
    path = folder / f"{game}-{records}-{seed}.paifu"
    if not path.exists():
        engine = games.engine(game)
        text = write_records(selfplay_record(engine, seed + i) for i in range(records))
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8", newline="\n")
        tmp.replace(path)
    return path


def _tiny_corpus(corpus: Path, folder: Path) -> Path:
    """A file holding the head and first hand line of the corpus's first record: the process's start-up."""
    head: list[str] = []
    with open(corpus, encoding="utf-8") as handle:
        for line in handle:
            head.append(line)
            if line.startswith("hand "):
                break
    path = folder / (corpus.stem + "-tiny.paifu")
    path.write_text("".join(head), encoding="utf-8", newline="\n")
    return path


def _events_and_items(record) -> tuple[int, int]:
    """How many events (hand lines included) and items a record holds, variations included."""
    events = items = 0
    for hand in record.hands:
        events += 1
        items += len(hand.args)
        for event in walk_events(hand.events):
            events += 1
            items += len(event.args)
    return events, items


def measure_reading(path: Path) -> tuple[float, float, float, float, int, int, int, int]:
    """Validate a file as ``paifu validate --jobs 1`` does, timing each stage: (split, parse,
    replay, release CPU seconds, records, events, actions, items). The release is dropping a
    record and its report once they are checked (the CLI drops them as its check returns):
    counted in the whole (parse + validate) but in neither stage. The CLI reads records over
    256 KiB hand by hand; selfplay records are smaller, so this is its path."""
    clock = CLOCK
    split_s = parse_s = replay_s = release_s = 0.0
    records = events = actions = items = 0
    with open(path, "rb") as handle:
        chunks = split_records(handle)
        index = 0
        while True:
            t0 = clock()
            chunk = next(chunks, None)
            t1 = clock()
            split_s += t1 - t0
            if chunk is None:
                break
            index += 1
            result = read_chunk(chunk, str(path))
            t2 = clock()
            report = validate_read(result, index)
            t3 = clock()
            parse_s += t2 - t1
            replay_s += t3 - t2
            records += 1
            actions += report.actions
            if result.record is not None:
                counted = _events_and_items(result.record)
                events += counted[0]
                items += counted[1]
            t4 = clock()
            del result, report
            release_s += clock() - t4
    return split_s, parse_s, replay_s, release_s, records, events, actions, items


def measure_jobs(path: Path, jobs: int) -> float:
    from paifu.batch import validate_inputs

    seconds, _ = _timed(lambda: sum(1 for _ in validate_inputs([str(path)], jobs, [])), time.perf_counter)
    return seconds


def run_process(args: list[str]) -> tuple[float, float | None, float | None]:
    """Run ``paifu ARGS`` as a whole process: (wall seconds, CPU seconds, peak RSS in MB)
    (:func:`paifu.bench.process.run_timed`)."""
    from paifu.bench.process import paifu_command, run_timed

    return run_timed(paifu_command() + args)


def measure_process(path: Path, folder: Path, runs: int = 2) -> tuple[float | None, float | None, float | None, float]:
    """``paifu validate --jobs 1`` on the file and on its one-hand head: (CPU seconds, start-up
    CPU seconds, peak RSS MB, wall seconds), the best of ``runs``."""
    tiny = _tiny_corpus(path, folder)
    cpus, startups, peaks, walls = [], [], [], []
    for _ in range(runs):
        wall, cpu, peak = run_process(["validate", "--jobs", "1", "--quiet", str(path)])
        walls.append(wall)
        if cpu is not None and peak is not None:
            cpus.append(cpu)
            peaks.append(peak)
        startup = run_process(["validate", "--jobs", "1", "--quiet", str(tiny)])[1]
        if startup is not None:
            startups.append(startup)
    return (min(cpus) if cpus else None, min(startups) if startups else None, max(peaks) if peaks else None, min(walls))


def bench_game(game: str, records: int, seed: int, folder: Path | None = None, process: bool = True,
               jobs2: bool = True, repeat: int = 2) -> GameFigures:
    """One game's figures; each timing is the best of ``repeat`` runs (the machine's load only adds)."""
    own = folder is None
    folder = Path(tempfile.mkdtemp(prefix="paifu-bench-")) if own else folder
    try:
        path = write_corpus(game, records, seed, folder)
        runs = [measure_reading(path) for _ in range(max(1, repeat))]
        split_s, parse_s, replay_s, release_s, n, events, actions, items = min(runs, key=lambda r: r[0] + r[1] + r[2] + r[3])
        fig = GameFigures(game, n, path.stat().st_size, events, actions, split_s, parse_s, replay_s, items=items,
                          release_s=release_s)
        if jobs2:
            fig.jobs1_wall_s = measure_jobs(path, 1)
            fig.jobs2_wall_s = measure_jobs(path, 2)
        if process:
            fig.process_s, fig.startup_s, fig.peak_rss_mb, fig.process_wall_s = measure_process(path, folder, max(1, repeat))
        return fig
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)


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


def bench_tiles() -> tuple[list[Rate], dict]:
    """The win checks' rates (:mod:`paifu.bench.tiles`) and its figures, ratios included."""
    try:
        from paifu.bench.tiles import bench_win_checks
    except ImportError:
        return [], {}
    hands = 20000
    figures = bench_win_checks(n_hands=hands)

    def rate(name: str, per_second: float) -> Rate:
        return Rate(name, hands, "checks", hands / per_second)

    rates = []
    for suffix, form in (("", "bytearray"), ("_list", "list")):
        rates.append(rate(f"mahjong core: win checks ({form} hands)", figures[f"paifu{suffix}_checks_per_s"]))
        if figures.get(f"mahjong_pkg{suffix}_checks_per_s"):
            rates.append(rate(f"mahjong (PyPI) Agari.is_agari ({form} hands)", figures[f"mahjong_pkg{suffix}_checks_per_s"]))
    return rates, figures


@dataclass
class ScaleFigures:
    """One large file of every game's records: whole ``paifu validate`` processes, --jobs 1 and 2."""

    megabytes: float
    records: int
    jobs1_s: float  # wall seconds
    jobs2_s: float  # wall seconds
    jobs1_cpu_s: float | None
    jobs1_rss_mb: float | None

    @property
    def speedup(self) -> float:
        return self.jobs1_s / self.jobs2_s if self.jobs2_s else float("inf")

    def as_json(self) -> dict:
        return {**asdict(self), "speedup": self.speedup}


def bench_scale(corpora: list[Path], megabytes: float, folder: Path) -> ScaleFigures:
    """A file of about ``megabytes`` MB, the corpora repeated in turn, validated whole by
    ``paifu validate --jobs 1`` and ``--jobs 2`` (wall time and peak RSS of each process)."""
    texts = [p.read_text(encoding="utf-8") for p in corpora]
    target = int(megabytes * 1_000_000)
    path = folder / f"scale-{megabytes:g}MB.paifu"
    written = records = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        while written < target:
            for text in texts:
                out.write(text)
                out.write("\n")
                written += len(text.encode("utf-8")) + 1
                records += text.count("[Game ")
                if written >= target:
                    break
    try:
        j1, cpu1, rss1 = run_process(["validate", "--jobs", "1", "--quiet", str(path)])
        j2, _, _ = run_process(["validate", "--jobs", "2", "--quiet", str(path)])
        return ScaleFigures(written / 1e6, records, j1, j2, cpu1, rss1)
    finally:
        path.unlink(missing_ok=True)


def _commit() -> str:
    try:
        here = Path(__file__).parent
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here, capture_output=True, text=True, timeout=10).stdout.strip()
        return rev + ("+dirty" if dirty and rev else "") or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def collect(records: int = 200, seed: int = 1, folder: str | None = None, process: bool = True,
            jobs2: bool = True, scale_mb: float = 0.0, only: list[str] | None = None, tiles: bool = True,
            repeat: int = 2, race_actions: int = RACE_ACTIONS, race_runs: int = 3) -> dict:
    """Every figure of one run, as JSON-ready data."""
    own = folder is None
    work = Path(tempfile.mkdtemp(prefix="paifu-bench-")) if own else Path(folder)
    work.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    started = time.time()
    try:
        chess_rates = bench_chess(max(records, 50), seed)
        chess_rate = chess_rates[0].per_second if chess_rates else None
        figures: list[GameFigures] = []
        corpora: list[Path] = []
        for game in games.game_ids():
            if only and game not in only:
                continue
            n = records if game == "bigtwo" else max(records // 4, 10)
            fig = bench_game(game, n, seed, work, process=process, jobs2=jobs2, repeat=repeat)
            fig.chess_plies_per_s = chess_rate
            figures.append(fig)
            corpora.append(work / f"{game}-{n}-{seed}.paifu")
        scale = bench_scale(corpora, scale_mb, work) if scale_mb > 0 and corpora else None
        races, startup = run_races(figures, race_actions, seed, work, race_runs) if process and race_actions > 0 else ([], None)
        tile_rates, tile_figures = bench_tiles() if tiles else ([], {})
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)
    return {
        "commit": _commit(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "seconds": round(time.time() - started, 1),
        "load_before": list(load_before),
        "load_after": list(os.getloadavg()),
        "records": records,
        "seed": seed,
        "chess_plies_per_s": chess_rate,
        "games": [f.as_json() for f in figures],
        "scale": scale.as_json() if scale else None,
        "races": [r.as_json() for r in races],
        "startup": startup.as_json() if startup else None,
        "win_checks": {r.name: r.per_second for r in tile_rates},
        "win_check_ratios": {form: tile_figures.get(key) for form, key in
                             (("bytearray", "ratio"), ("list", "ratio_list"), ("vs_best", "ratio_vs_best"))},
        "_figures": figures,
        "_scale": scale,
        "_races": races,
    }


def run_races(figures: list[GameFigures], actions: int, seed: int, folder: Path, runs: int = 3):
    """Each game's whole ``paifu validate --jobs 1`` against python-chess's on as many plies,
    and the start-up timings: (races, startup), none without python-chess."""
    from paifu.bench.process import cached_env, measure_startup, race, write_action_corpus, write_chess_corpus

    chess = write_chess_corpus(actions, seed, folder)
    if chess is None:
        return [], None
    chess_path, plies = chess
    env = cached_env(folder)
    races = []
    tiny = None
    for fig in figures:
        path, n, counted = write_action_corpus(fig.game, actions, seed, folder)
        races.append(race(fig.game, path, n, counted, chess_path, plies, runs, env))
        tiny = tiny or _tiny_corpus(path, folder)
    return races, (measure_startup(tiny, runs, env) if tiny else None)


def targets(data: dict) -> list[tuple[str, bool | None, str]]:
    """The issue's aims, each with whether this run reached it and the figure it rests on."""
    figs: list[GameFigures] = data["_figures"]
    out: list[tuple[str, bool | None, str]] = []
    by_game = {f.game: f for f in figs}
    if "bigtwo" in by_game and by_game["bigtwo"].vs_chess is not None:
        r = by_game["bigtwo"].vs_chess
        out.append(("Big Two parse + validate ≥ 2.0× python-chess", r >= 2.0, f"{r:.2f}×"))
    ratios = [(f.game, f.vs_chess) for f in figs if f.vs_chess is not None]
    if ratios:
        worst = min(ratios, key=lambda x: x[1])
        out.append(("every game's parse + validate ≥ 1.0× python-chess", worst[1] >= 1.0, f"lowest {worst[0]} {worst[1]:.2f}×"))
    races = data.get("_races") or []
    if races:
        worst = min(races, key=lambda r: r.ratio)
        out.append(("every game's whole `paifu validate --jobs 1` ≥ 1.0× python-chess's (wall, median of each)",
                    worst.ratio >= 1.0, f"lowest {worst.game} {worst.ratio:.2f}×"))
        big = [r for r in races if r.game == "bigtwo"]
        if big:
            out.append(("Big Two whole process ≥ 2.0× python-chess's", big[0].ratio >= 2.0, f"{big[0].ratio:.2f}×"))
    if figs:
        worst = min(figs, key=lambda f: f.parse_over_replay)
        out.append(("parse ≥ 3× replay, every game", worst.parse_over_replay >= 3, f"lowest {worst.game} {worst.parse_over_replay:.1f}×"))
    if "paohuzi" in by_game and len(figs) > 1:
        others = sorted(f.parse_events_per_s for f in figs if f.game != "paohuzi")
        median = others[len(others) // 2]
        p = by_game["paohuzi"].parse_events_per_s
        per_item = sorted(f.parse_items_per_s for f in figs if f.game != "paohuzi" and f.parse_items_per_s)
        item_note = ""
        if per_item and by_game["paohuzi"].parse_items_per_s:
            item_note = (f" (per item read: {by_game['paohuzi'].parse_items_per_s:,.0f} vs "
                         f"{per_item[len(per_item) // 2]:,.0f} items/s)")
        out.append(("paohuzi parse per event no slower than the others' (median)", p >= median,
                    f"{p:,.0f} vs {median:,.0f} events/s{item_note}"))
    agreements = [(f.game, f.process_vs_bench) for f in figs if f.process_vs_bench is not None]
    if agreements:
        # over all games: /usr/bin/time counts CPU in hundredths of a second, and a game's
        # corpus takes a few tenths, so one game's ratio carries an error of several percent
        timed = [f for f in figs if f.process_vs_bench is not None]
        whole = sum(f.process_s - f.startup_s for f in timed) / sum(f.total_s for f in timed)  # type: ignore[operator]
        worst = max(agreements, key=lambda x: abs(x[1] - 1))
        out.append((f"bench agrees with whole processes within {AGREEMENT:.0%} (all games' CPU time)", abs(whole - 1) <= AGREEMENT,
                    f"{whole:.2f}; games from {min(a[1] for a in agreements):.2f} to {max(a[1] for a in agreements):.2f} "
                    f"(furthest {worst[0]})"))
    ratios = data.get("win_check_ratios") or {}
    if ratios.get("bytearray") is not None:
        out.append((f"win checks ≥ {WIN_CHECK_AIM:.0f}× the mahjong package's Agari.is_agari (bytearray hands, the engines' form)",
                    ratios["bytearray"] >= WIN_CHECK_AIM,
                    f"{ratios['bytearray']:.1f}× (median per pass; list hands {ratios['list']:.1f}×; against the package "
                    f"on its faster form {ratios.get('vs_best') or 0:.1f}×)"))
    scale: ScaleFigures | None = data["_scale"]
    if scale is not None:
        big = scale.megabytes >= 50
        out.append((f"validate --jobs 2 ≥ 1.8× --jobs 1 ({scale.megabytes:.0f} MB{'' if big else ', aim set for 50 MB'})",
                    scale.speedup >= 1.8, f"{scale.speedup:.2f}×"))
        if scale.jobs1_rss_mb is not None:
            rss = scale.jobs1_rss_mb
            out.append((f"peak RSS ≤ 200 MB ({scale.megabytes:.0f} MB file, --jobs 1)", rss <= 200, f"{rss:.0f} MB"))
    return out


def print_report(data: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    figs: list[GameFigures] = data["_figures"]
    console = Console(width=max(Console().width, 150))
    load = ", ".join(f"{x:.2f}" for x in data["load_before"])
    table = Table(title=f"paifu bench: the path of `paifu validate` (commit {data['commit']}; load {load}; one run)")
    heads = ["game", "records", "parse events/s", "replay actions/s", "parse+validate actions/s", "× chess",
             "process × chess", "parse ÷ replay", "jobs 2 speed-up", "process ÷ bench", "peak RSS MB"]
    races = {r.game: r for r in data.get("_races") or []}
    for h in heads:
        table.add_column(h, justify="left" if h == "game" else "right")

    def opt(value: float | None, fmt: str) -> str:
        return "—" if value is None else format(value, fmt)

    for f in figs:
        table.add_row(f.game, str(f.records), f"{f.parse_events_per_s:,.0f}", f"{f.replay_actions_per_s:,.0f}",
                      f"{f.parse_validate_actions_per_s:,.0f}", opt(f.vs_chess, ".2f"),
                      opt(races[f.game].ratio if f.game in races else None, ".2f"), f"{f.parse_over_replay:.1f}",
                      opt(f.jobs2_speedup, ".2f"), opt(f.process_vs_bench, ".2f"), opt(f.peak_rss_mb, ".0f"))
    console.print(table)
    if data["chess_plies_per_s"]:
        console.print(f"python-chess read_game: {data['chess_plies_per_s']:,.0f} plies/s in this run")
    else:
        console.print("python-chess is not installed (pip install -e '.[bench]'): no ratios")
    if races:
        console.print(_race_table(list(races.values())))
    startup = data.get("startup")
    if startup:
        console.print(f"start-up (wall, median): python {startup['python_s']:.3f} s, python -c 'import chess.pgn' "
                      f"{startup['chess_import_s']:.3f} s, paifu --help {startup['help_s']:.3f} s, paifu validate on a "
                      f"one-hand file {startup['validate_tiny_s']:.3f} s; its imports' own time by package: "
                      + ", ".join(f"{name} {ms:.0f} ms" for name, ms in startup["imports"]))
    scale: ScaleFigures | None = data["_scale"]
    if scale is not None:
        console.print(f"{scale.megabytes:.0f} MB file, {scale.records} records: --jobs 1 {scale.jobs1_s:.1f} s "
                      f"wall ({scale.jobs1_cpu_s or 0:.1f} s CPU, peak RSS {scale.jobs1_rss_mb or 0:.0f} MB), --jobs 2 "
                      f"{scale.jobs2_s:.1f} s wall: {scale.speedup:.2f}× (whole processes)")
    for name, rate in data["win_checks"].items():
        console.print(f"{name}: {rate:,.0f} checks/s")
    for aim, reached, figure in targets(data):
        mark = "met" if reached else "not met"
        console.print(f"  {mark:>7}: {aim}: {figure}")
    console.print(f"load average after: {', '.join(f'{x:.2f}' for x in data['load_after'])}; "
                  "rates are per CPU second; process ÷ bench is the CPU time of `paifu validate --jobs 1` (less its "
                  "start-up on a one-hand file) over the bench's; the speed-ups are in wall time")


def _race_table(races):
    from rich.table import Table

    table = Table(title="whole processes: `paifu validate --jobs 1 FILE` against a python-chess script reading as many "
                        "plies (in turn, median wall time of each)")
    for h in ("game", "records", "actions", "plies", "paifu s", "chess s", "paifu actions/s", "chess plies/s",
              "× chess (wall)", "× chess (CPU)"):
        table.add_column(h, justify="left" if h == "game" else "right")
    for r in races:
        table.add_row(r.game, str(r.records), f"{r.actions:,}", f"{r.plies:,}", f"{r.paifu_wall_s:.2f}", f"{r.chess_wall_s:.2f}",
                      f"{r.actions / r.paifu_wall_s:,.0f}", f"{r.plies / r.chess_wall_s:,.0f}", f"{r.ratio:.2f}",
                      "—" if r.cpu_ratio is None else f"{r.cpu_ratio:.2f}")
    return table


def public(data: dict) -> dict:
    """The run's figures without the objects they were computed from."""
    out = {k: v for k, v in data.items() if not k.startswith("_")}
    out["targets"] = [{"aim": a, "met": m, "figure": f} for a, m, f in targets(data)]
    return out


def run_bench(records: int = 200, seed: int = 1, as_json: bool = False, history: str | None = None,
              folder: str | None = None, process: bool = True, scale_mb: float = 0.0,
              only: list[str] | None = None, tiles: bool = True, repeat: int = 2, race_actions: int = RACE_ACTIONS,
              race_runs: int = 3) -> dict:
    data = collect(records, seed, folder, process=process, scale_mb=scale_mb, only=only, tiles=tiles, repeat=repeat,
                   race_actions=race_actions, race_runs=race_runs)
    doc = public(data)
    if as_json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print_report(data)
    if history:
        Path(history).parent.mkdir(parents=True, exist_ok=True)
        with open(history, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
    return data


# -- archive: index build and search over many selfplay hands ------------------------------
BENCH_NAMES = ["Mei", "Li", "Wang", "Chen", "Zhao", "Qian", "Sun", "Zhou", "Wu", "Zheng"]
RECORDS_PER_FILE = 50


def _archive_file(args: tuple[str, int, int, int]) -> int:
    """Write one file of selfplay records, games in turn, with names and dates (a worker)."""
    from paifu.notation.model import Tag

    path, first, n_records, hands = args
    available = games.game_ids()
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

    import paifu.archive as arc

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
    from paifu.batch import validate_inputs

    out: dict = {}
    start = time.perf_counter()
    n = sum(1 for _ in validate_inputs([folder], workers, []))
    out["validate_processes_s"] = time.perf_counter() - start
    out["validate_records"] = n
    try:
        from paifu.batch import close_dask, dask_client, validate_dask

        start = time.perf_counter()
        client = dask_client(None, workers)
        out["dask_startup_s"] = time.perf_counter() - start
    except Exception:  # noqa: BLE001 - dask not installed: no row
        return out
    try:
        start = time.perf_counter()
        sum(1 for _ in validate_dask(client, [folder], []))
        out["validate_dask_s"] = time.perf_counter() - start
    finally:
        close_dask(client)
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
