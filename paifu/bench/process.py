"""Whole processes against whole processes: ``paifu validate --jobs 1`` on a selfplay file of
about N actions of one game, beside a python-chess script reading a PGN file of about N plies,
run in turn (paifu, chess, paifu, chess, ...) and compared by the median wall time of each.

This is what a user runs: the interpreter's start, the imports, the grammar and the engines'
set-up count as much as the replay. Start-up is also timed alone (``paifu --help``, ``paifu
validate`` on a one-hand file, ``python -c 'import chess.pgn'``), and ``python -X importtime``
names the imports that cost most.

Both sides run with a bytecode cache, as an installed package has (pip compiles a wheel's
modules as it installs them): the processes get a ``PYTHONPYCACHEPREFIX`` in the bench's
folder and lose any ``PYTHONDONTWRITEBYTECODE``, and each command runs once untimed first.
Without it, a machine that sets ``PYTHONDONTWRITEBYTECODE`` (as this project's does) would
compile paifu's modules from source at every start, and python-chess's not, since they
came compiled from its wheel.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from paifu.notation import write_records
from paifu.replay import games
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate

# The python-chess side: read every game of a PGN file, as a user's script would.
CHESS_SCRIPT = ("import sys, chess.pgn\n"
                "with open(sys.argv[1], encoding='utf-8') as handle:\n"
                "    while chess.pgn.read_game(handle) is not None:\n"
                "        pass\n")


def paifu_command() -> list[str]:
    script = Path(sys.executable).with_name("paifu")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "paifu"]


def cached_env(folder: Path) -> dict[str, str]:
    """The environment of the timed processes: this one's, with a bytecode cache in ``folder``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def run_timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float | None, float | None]:
    """Run a command as a whole process: (wall seconds, CPU seconds, peak RSS in MB), the last
    two from ``/usr/bin/time`` (None without it). A process started straight from this one
    would report this process's own peak RSS (Linux keeps the larger of the two across fork
    and exec); ``time`` starts it from a small process."""
    timer = shutil.which("time", path="/usr/bin:/bin")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        wrap = [timer, "-f", "%U %S %M", "-o", out.name] if timer else []
        start = time.perf_counter()
        subprocess.run(wrap + command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
        seconds = time.perf_counter() - start
        text = out.read().strip().splitlines() if timer else []
    try:
        user, system, kb = text[-1].split()
        return seconds, float(user) + float(system), int(kb) / 1024  # GNU time gives kilobytes
    except (IndexError, ValueError):
        return seconds, None, None


def write_action_corpus(game: str, actions: int, seed: int, folder: Path) -> tuple[Path, int, int]:
    """A file of the game's selfplay records holding at least ``actions`` actions (kept in
    ``folder`` and reused when present): (path, records, actions). The actions are counted by
    validating the records, the way ``paifu validate`` counts them."""
    path = folder / f"{game}-actions{actions}-{seed}.paifu"
    engine = games.engine(game)
    if path.exists():
        from paifu.notation import read_path

        counted = records = 0
        for result in read_path(str(path)):
            records += 1
            counted += validate(result.record).actions if result.record is not None else 0
        return path, records, counted
    written = []
    counted = 0
    while counted < actions:
        record = selfplay_record(engine, seed + len(written))
        counted += validate(record).actions
        written.append(record)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(write_records(written), encoding="utf-8", newline="\n")
    tmp.replace(path)
    return path, len(written), counted


def write_chess_corpus(plies: int, seed: int, folder: Path) -> tuple[Path, int] | None:
    """A PGN file of random legal games holding at least ``plies`` plies (40 to 120 a game),
    or None without python-chess: (path, plies)."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    path = folder / f"chess-{plies}-{seed}.pgn"
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    while total < plies:
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
            total += 1
        parts.append(str(game))
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text("\n\n".join(parts) + "\n", encoding="utf-8", newline="\n")
        tmp.replace(path)
    return path, total


@dataclass
class Race:
    """One game's whole process against python-chess's, in turn, ``runs`` times each."""

    game: str
    records: int
    actions: int
    plies: int
    paifu_wall_s: float  # median
    chess_wall_s: float  # median
    paifu_cpu_s: float | None  # median (user + system)
    chess_cpu_s: float | None
    paifu_walls: list[float]
    chess_walls: list[float]

    @property
    def ratio(self) -> float:
        """paifu's actions per wall second over python-chess's plies per wall second."""
        return (self.actions / self.paifu_wall_s) / (self.plies / self.chess_wall_s)

    @property
    def cpu_ratio(self) -> float | None:
        if not self.paifu_cpu_s or not self.chess_cpu_s:
            return None
        return (self.actions / self.paifu_cpu_s) / (self.plies / self.chess_cpu_s)

    def as_json(self) -> dict:
        return {**asdict(self), "ratio": self.ratio, "cpu_ratio": self.cpu_ratio}


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def race(game: str, path: Path, records: int, actions: int, chess_path: Path, plies: int, runs: int = 3,
         env: dict[str, str] | None = None) -> Race:
    """``paifu validate --jobs 1`` on ``path`` and the python-chess script on ``chess_path``, in
    turn, ``runs`` times each, after one untimed run of each (it fills the bytecode cache of
    ``env``, :func:`cached_env`); the medians."""
    paifu = paifu_command() + ["validate", "--jobs", "1", "--quiet", str(path)]
    chess = [sys.executable, "-c", CHESS_SCRIPT, str(chess_path)]
    run_timed(paifu, env)
    run_timed(chess, env)
    p_walls, c_walls, p_cpus, c_cpus = [], [], [], []
    for _ in range(runs):
        wall, cpu, _ = run_timed(paifu, env)
        p_walls.append(wall)
        if cpu is not None:
            p_cpus.append(cpu)
        wall, cpu, _ = run_timed(chess, env)
        c_walls.append(wall)
        if cpu is not None:
            c_cpus.append(cpu)
    return Race(game, records, actions, plies, _median(p_walls), _median(c_walls), _median(p_cpus), _median(c_cpus),
                p_walls, c_walls)


@dataclass
class Startup:
    """Wall seconds (medians) of processes that do almost nothing but start."""

    python_s: float  # python -c pass
    chess_import_s: float  # python -c 'import chess.pgn'
    help_s: float  # paifu --help
    validate_tiny_s: float  # paifu validate --jobs 1 on a one-hand file
    validate_tiny_cpu_s: float | None
    imports: list[tuple[str, float]]  # the costliest imports of that process: (module, ms cumulative)

    def as_json(self) -> dict:
        return asdict(self)


def import_costs(args: list[str], top: int = 12, env: dict[str, str] | None = None) -> list[tuple[str, float]]:
    """``python -X importtime -m paifu ARGS``: the imports' own times summed by package (a paifu
    module's subpackage, ``paifu.notation`` or ``paifu.replay.mahjong``; another module's top
    package, ``pydantic``), the ``top`` costliest, in ms."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "paifu", *args], capture_output=True, text=True, check=False,
                          env=env)
    costs: dict[str, float] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        own, _, name = line[len("import time:"):].split("|")
        try:
            micros = int(own)
        except ValueError:
            continue
        parts = name.strip().split(".")
        key = ".".join(parts[:3] if parts[0] == "paifu" and len(parts) > 2 and parts[1] == "replay" else parts[:2] if parts[0] == "paifu" else parts[:1])
        costs[key] = costs.get(key, 0.0) + micros / 1000
    return sorted(costs.items(), key=lambda r: -r[1])[:top]


def measure_startup(tiny: Path, runs: int = 3, env: dict[str, str] | None = None) -> Startup:
    """Start-up alone, in ``env`` (:func:`cached_env`); each command once untimed first."""
    def median_wall(command: list[str]) -> tuple[float, float | None]:
        run_timed(command, env)
        timed = [run_timed(command, env) for _ in range(runs)]
        cpus = [t[1] for t in timed if t[1] is not None]
        return statistics.median(t[0] for t in timed), _median(cpus)

    python_s = median_wall([sys.executable, "-c", "pass"])[0]
    chess_s = median_wall([sys.executable, "-c", "import chess.pgn"])[0]
    help_s = median_wall(paifu_command() + ["--help"])[0]
    tiny_s, tiny_cpu = median_wall(paifu_command() + ["validate", "--jobs", "1", "--quiet", str(tiny)])
    imports = import_costs(["validate", "--jobs", "1", "--quiet", str(tiny)], env=env)
    return Startup(python_s, chess_s, help_s, tiny_s, tiny_cpu, imports)
