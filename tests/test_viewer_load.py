"""The viewer under load: 200 concurrent requests against a folder of 1,000 records.

Issue 18 (Robustness), §Systematic testing. The real server (``paifu view``) is started on
a free port of 127.0.0.1 over a folder of 1,000 record files (selfplay records of every
game, and a few files that cannot be read); 200 requests are sent at once from 200 threads
(the index and its pages, record pages, their JSON, sources, and pages that do not exist),
while the server is still reading the folder. Every answer must be the one expected (200 or
404), none a 500, and the server must still answer afterwards.
"""

from __future__ import annotations

import http.client
import random
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from paifu.notation import write_record
from paifu.replay import games
from paifu.replay.selfplay import selfplay_record

ROOT = Path(__file__).parent.parent
FILES = 1000
REQUESTS = 200
TIMEOUT = 300  # seconds for one answer: the machine may be loaded; the test is bounded by it


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """1,000 record files: 3 selfplay records of each game written under many names, and 10 unreadable files."""
    root = tmp_path_factory.mktemp("load")
    texts = [write_record(selfplay_record(games.engine(g), seed, hands=1)) for g in games.game_ids() for seed in range(3)]
    for i in range(FILES - 10):
        sub = root / f"set{i % 7}"
        sub.mkdir(exist_ok=True)
        (sub / f"r{i:04d}.paifu").write_text(texts[i % len(texts)], encoding="utf-8")
    for i in range(10):  # records the validator rejects: shown with their diagnostics, never a 500
        (root / f"bad{i}.paifu").write_bytes([b"\xff\xfe\x00junk", b'[Game "bigtwo"]\n\nhand 1 dealer=A\nA: 3C\n',
                                              b"( " * 300 + b"\n", b'[Game "nosuch"]\n'][i % 4])
    return root


@pytest.fixture(scope="module")
def server(folder):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "paifu", "view", str(folder), "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while True:
        try:
            if get(port, "/")[0] == 200:
                break
        except OSError:
            pass
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() < deadline, "the viewer did not answer within 120 s"
        time.sleep(0.2)
    yield port, proc
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def requests(folder: Path) -> list[tuple[str, int]]:
    """200 (path, expected status): a mix of every page the viewer serves, and missing ones."""
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.paifu"))
    rnd = random.Random(18)
    out: list[tuple[str, int]] = []
    kinds = ["index", "page", "record", "api", "hand", "source", "missing"]
    for k in range(REQUESTS):
        kind = kinds[k % len(kinds)]
        f = rnd.choice(files)
        if kind == "index":
            out.append((rnd.choice(["/", "/?sort=game", "/?sort=hands&order=desc", "/?game=bigtwo", "/?game=nosuch"]), 200))
        elif kind == "page":
            out.append((f"/?page={rnd.randint(1, 30)}", 200))
        elif kind == "record":
            out.append((f"/record/{f}", 200))
        elif kind == "api":
            out.append((f"/api/record/{f}", 200))
        elif kind == "hand":
            out.append((f"/record/{f}?hand=0", 200))
        elif kind == "source":
            out.append((f"/source/{f}", 200))
        else:
            out.append((rnd.choice([f"/record/{f}?n=5", "/record/nosuch.paifu", "/source/../../etc/passwd", "/nosuch",
                                    f"/api/record/{f}x"]), 404))
    return out


def test_200_concurrent_requests_against_1000_records(folder, server):
    port, proc = server
    asked = requests(folder)
    assert len(asked) == REQUESTS and len(list(folder.rglob("*.paifu"))) == FILES
    start = threading.Barrier(REQUESTS)

    def one(item: tuple[str, int]) -> tuple[str, int, int | str]:
        path, expected = item
        start.wait()  # all 200 go at once
        try:
            status, _ = get(port, path)
        except OSError as err:  # a refused or dropped connection is an error too
            return path, expected, f"{type(err).__name__}: {err}"
        return path, expected, status

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=REQUESTS) as pool:
        answers = list(pool.map(one, asked))
    elapsed = time.monotonic() - started
    wrong = [(path, expected, got) for path, expected, got in answers if got != expected]
    assert not wrong, wrong[:10]
    assert not any(got == 500 for _, _, got in answers)
    # the server still answers, and has not died
    assert get(port, "/")[0] == 200 and get(port, asked[2][0])[0] == 200
    assert proc.poll() is None
    print(f"\n{REQUESTS} concurrent requests answered in {elapsed:.1f} s")
