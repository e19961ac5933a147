"""Fuzzing: records from selfplay and from the grammar, corrupted every way a file can be.

Issue 18 (Robustness), §Systematic testing. Each input goes the way ``paifu validate``,
``paifu fmt`` and ``paifu convert`` take it (cut into records, parsed, replayed, written
back, converted to JSON and back) and must give: no exception, every diagnostic a known
code at a line and column of the input, no Python ``None`` in a message, no X901, and a
bounded time per input.

Profiles: by default (CI) a few thousand inputs in all. ``PAIFU_FUZZ=long`` runs 100,000
(split over the tests below in proportion to their CI share); ``PAIFU_FUZZ=N`` runs N in
all. The figures of the long run are in docs/robustness.md.
"""

from __future__ import annotations

import io
import json
import os
import re
import time
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paifu.notation import CODES, read_stream, write_record, write_records
from paifu.notation.model import content
from paifu.notation.reader import MAX_NUMBER_DIGITS, MAX_VARIATION_DEPTH, read_chunk, split_records
from paifu.notation.jsonform import json_as_text, read_json_records
from paifu.replay.validate import validate_read

ROOT = Path(__file__).parent.parent
CI_TOTAL = 2000  # inputs in all, CI profile
_MODE = os.environ.get("PAIFU_FUZZ", "")
TOTAL = 100_000 if _MODE == "long" else int(_MODE) if _MODE.isdigit() else CI_TOTAL
SECONDS_PER_INPUT = 10.0  # of CPU, plus SECONDS_PER_MB a megabyte: a few ms is usual (the long run reports the maximum)
SECONDS_PER_MB = 5.0
STATS: dict[str, float] = {"inputs": 0, "max_seconds": 0.0, "diagnostics": 0, "records": 0, "known_x901": 0}

# share of the inputs per test (sums to 1)
SHARES = {"selfplay": 0.35, "grammar": 0.2, "bytes": 0.2, "structure": 0.15, "json": 0.1}


# Hypothesis keeps a record of every choice it made during one run of a test until the run
# ends (about 260 ChoiceNode objects, 0.125 MB, an input from the grammar),
# which took the long profile's processes past 1.5 GB and slowed every input down. A run
# is therefore at most BATCH inputs; the long profile runs a test as several batches.
BATCH = 2000


def batches(kind: str) -> list[int]:
    """The batches a test's share of the inputs is run in (one in the CI profile)."""
    n = max(1, int(TOTAL * SHARES[kind]))
    return list(range((n + BATCH - 1) // BATCH))


def examples(kind: str) -> Callable:
    """A test's Hypothesis settings and its batches (``batch``: a parameter of the test)."""
    n = max(1, int(TOTAL * SHARES[kind]))
    count = len(batches(kind))
    hypothesis_settings = settings(max_examples=(n + count - 1) // count, deadline=None, derandomize=_MODE == "",
                                   suppress_health_check=list(HealthCheck), database=None)

    def wrap(test: Callable) -> Callable:
        return pytest.mark.parametrize("batch", batches(kind))(hypothesis_settings(test))
    return wrap


# -- the corpus: selfplay records of every game, and the record tests ----------------------
@lru_cache(maxsize=1)
def corpus() -> tuple[str, ...]:
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    texts = []
    for gid in games.game_ids():
        engine = games.engine(gid)
        for seed in range(3):
            texts.append(write_record(selfplay_record(engine, seed, 1 + seed % 2)))
    for path in sorted((ROOT / "tests/records").rglob("*.paifu"))[::3]:
        texts.append(path.read_text(encoding="utf-8"))
    return tuple(texts)


# -- the oracle: what every input must give -----------------------------------------------
NONE_WORD = re.compile(r"\bNone\b")


# Engine bugs the fuzzer found, for their owners to fix (docs/robustness.md has a reproducer
# for each): a record of this game may meet an X901 with this exception until then. Every
# other X901 fails the run.
KNOWN_ENGINE_X901: set[tuple[str, str]] = set()


def check(data: bytes) -> None:
    """Run an input the way validate, fmt and convert take it; assert the promises.

    The records are read once (as ``paifu validate`` and ``paifu fmt`` both read them),
    replayed, written as canonical text, read back and converted to JSON and back.
    """
    started = time.process_time()  # CPU time: a loaded machine must not fail the run
    lines = data.count(b"\n") + 1
    results = [read_chunk(chunk, "fuzz.paifu") for chunk in split_records(io.BytesIO(data))]
    for i, result in enumerate(results, 1):
        rep = validate_read(result, i)
        for d in rep.diagnostics:
            assert d.code in CODES, d.format()
            assert 1 <= d.line <= lines and d.col >= 1, d.format()
            assert not NONE_WORD.search(d.message), d.format()
            if d.code == "X901":
                assert any(rep.game == g and f"({exc}:" in d.message for g, exc in KNOWN_ENGINE_X901), d.format()
                STATS["known_x901"] += 1
        STATS["diagnostics"] += len(rep.diagnostics)
    STATS["records"] += len(results)
    if results and all(r.ok for r in results):  # what fmt would write
        records = [r.record for r in results]
        text = write_records(records)
        again = list(read_stream(io.BytesIO(text.encode("utf-8"))))
        assert all(r.ok for r in again), [d.format() for r in again for d in r.diagnostics]
        assert write_records([r.record for r in again]) == text  # canonical text is a fixed point
        as_json = "[" + ",".join(r.model_dump_json() for r in records) + "]"  # convert: loss-free
        back, problems = read_json_records(as_json, "fuzz.json")
        assert not problems, problems
        assert [content(r) for r in back] == [content(r) for r in records]
        written, problems, _ = json_as_text([(as_json, "fuzz.json")])  # and back to text: the same text
        assert not problems and written == text, problems
    elapsed = time.process_time() - started
    STATS["inputs"] += 1
    STATS["max_seconds"] = max(STATS["max_seconds"], elapsed)
    _progress()
    assert elapsed < SECONDS_PER_INPUT + SECONDS_PER_MB * len(data) / 1e6, f"{elapsed:.1f} s of CPU for one input of {len(data)} bytes"


def _progress() -> None:
    """With PAIFU_FUZZ_LOG=FILE, a line of running figures every 1000 inputs (for long runs)."""
    log = os.environ.get("PAIFU_FUZZ_LOG")
    if log and STATS["inputs"] % 1000 == 0:
        import resource

        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{time.strftime('%H:%M:%S')} {os.getpid()} " + " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in STATS.items())
                      + f" max_rss_mb={rss}\n")


# -- corruptions ---------------------------------------------------------------------------
def _lines(text: str) -> list[str]:
    return text.split("\n")


@st.composite
def corrupt_text(draw, text: str) -> str:
    """One textual corruption: of tokens, lines, nesting, numbers or tags."""
    kind = draw(st.sampled_from(["token_drop", "token_dup", "token_swap", "token_replace", "line_drop", "line_dup",
                                 "line_swap", "line_splice", "nest", "huge_number", "huge_tag", "many_tags",
                                 "unbalance", "truncate", "crlf"]))
    lines = _lines(text)
    n = len(lines)
    i = draw(st.integers(0, max(n - 1, 0)))
    if kind.startswith("token_"):
        words = lines[i].split(" ")
        j = draw(st.integers(0, max(len(words) - 1, 0)))
        if kind == "token_drop" and words:
            del words[j]
        elif kind == "token_dup" and words:
            words.insert(j, words[j])
        elif kind == "token_swap" and len(words) > 1:
            k = draw(st.integers(0, len(words) - 1))
            words[j], words[k] = words[k], words[j]
        else:
            other = _lines(draw(st.sampled_from(corpus())))
            donor = draw(st.sampled_from(other)).split(" ")
            words[j:j + 1] = [draw(st.sampled_from(donor))]
        lines[i] = " ".join(words)
    elif kind == "line_drop":
        del lines[i]
    elif kind == "line_dup":
        lines.insert(i, lines[i])
    elif kind == "line_swap":
        k = draw(st.integers(0, max(n - 1, 0)))
        lines[i], lines[k] = lines[k], lines[i]
    elif kind == "line_splice":  # a line of another record, of any game
        other = _lines(draw(st.sampled_from(corpus())))
        lines.insert(i, draw(st.sampled_from(other)))
    elif kind == "nest":
        depth = draw(st.sampled_from([1, 2, 5, MAX_VARIATION_DEPTH - 1, MAX_VARIATION_DEPTH, MAX_VARIATION_DEPTH + 1, 300, 3000]))
        closed = draw(st.booleans())
        lines[i] = lines[i] + " " + "( " * depth + (lines[min(i + 1, n - 1)] + " ") + (")" * depth if closed else "")
    elif kind == "huge_number":
        digits = draw(st.sampled_from([18, 19, 20, 40, MAX_NUMBER_DIGITS, MAX_NUMBER_DIGITS + 1, 4301, 6000]))
        number = draw(st.sampled_from(["", "+", "-"])) + "9" * digits
        words = lines[i].split(" ")
        words.insert(draw(st.integers(0, len(words))), number)
        lines[i] = " ".join(words)
    elif kind == "huge_tag":
        size = draw(st.sampled_from([100, 1000, 10_000, 100_000, 1_000_000 if _MODE else 200_000]))
        name = draw(st.sampled_from(["Event", "Game", "Players", "Option", "Result", "X" * 200]))
        lines.insert(0, f'[{name} "{draw(st.sampled_from(["A", "é", "{", "(", "x=1;"])) * size}"]')
    elif kind == "many_tags":
        lines[0:0] = [f'[T{k} "{k}"]' for k in range(draw(st.sampled_from([10, 100, 2000])))]
    elif kind == "unbalance":
        ch = draw(st.sampled_from(["(", ")", "{", "}", "[", "]", '"', "\\", "!", "?", ":", "="]))
        pos = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:pos] + ch + lines[i][pos:]
    elif kind == "truncate":
        joined = "\n".join(lines)
        return joined[: draw(st.integers(0, len(joined)))]
    elif kind == "crlf":
        return "\r\n".join(lines)
    return "\n".join(lines)


@st.composite
def corrupt_bytes(draw, data: bytes) -> bytes:
    """One corruption of the bytes: flips, inserted bytes (NUL, invalid UTF-8), re-encoding."""
    kind = draw(st.sampled_from(["flip", "insert", "delete", "encode", "bom", "nul", "invalid_utf8", "random_tail"]))
    b = bytearray(data)
    pos = draw(st.integers(0, len(b)))
    if kind == "flip" and b:
        p = min(pos, len(b) - 1)
        b[p] ^= 1 << draw(st.integers(0, 7))
    elif kind == "insert":
        b[pos:pos] = draw(st.binary(min_size=1, max_size=8))
    elif kind == "delete":
        b[pos:pos + draw(st.integers(1, 16))] = b""
    elif kind == "encode":
        enc = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "shift_jis", "gb18030", "cp1252"]))
        return data.decode("utf-8", errors="replace").encode(enc, errors="replace")
    elif kind == "bom":
        b[0:0] = draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf\xef\xbb\xbf"]))
    elif kind == "nul":
        b[pos:pos] = b"\0"
    elif kind == "invalid_utf8":
        b[pos:pos] = draw(st.sampled_from([b"\xff", b"\xc3", b"\xe3\x81", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]))
    else:
        b += draw(st.binary(max_size=64))
    return bytes(b)


# -- records from the grammar ---------------------------------------------------------------
GAMES = ["bigtwo", "jiuzhi", "kawuxing", "ninetynine", "paohuzi", "paomazai", "piquet", "sanma", "wuhan", "nosuch"]
WORDS = st.sampled_from(["3C", "4D", "TS", "AH", "2S", "1m", "5p", "9s", "7z", "1x", "10d", "*", "pass", "discard",
                         "draw", "pon", "kong", "win", "tsumo", "score", "total", "deal", "bid", "declare", "A:", "B:",
                         "0", "+4", "-26", "99999999999999999999", "dealer=A", "x=", "=y", "Q", "point", "foul"])
SEATS = st.sampled_from(["A", "B", "C", "D", "E", "Z"])


def _event() -> st.SearchStrategy[str]:
    head = st.one_of(SEATS.map(lambda s: s + ":"), st.sampled_from(["deal A:", "deal B:", "score", "total", "draw", "pass", "flip"]))
    return st.tuples(head, st.lists(WORDS, max_size=8)).map(lambda t: " ".join([t[0], *t[1]]))


def _line(depth: int) -> st.SearchStrategy[str]:
    ev = _event()
    annotated = st.tuples(ev, st.sampled_from(["", " !", " ?!", " {a comment}", " {[%clk 0:10]}"])).map("".join)
    if depth <= 0:
        return annotated
    variation = st.lists(_line(depth - 1), min_size=0, max_size=3).map(lambda ls: "( " + "\n".join(ls) + " )")
    return st.one_of(annotated, st.tuples(annotated, variation).map(lambda t: t[0] + "\n" + t[1]))


@st.composite
def grammar_record(draw) -> str:
    tags = [f'[Game "{draw(st.sampled_from(GAMES))}"]']
    if draw(st.booleans()):
        tags.append(f'[Players "{draw(st.sampled_from(["A: a; B: b; C: c; D: d", "A: a; B: b; C: c", "A: a; B: b", "B: x", "A: a; A: b", "nonsense"]))}"]')
    for _ in range(draw(st.integers(0, 3))):
        tags.append(f'[Option "{draw(st.sampled_from(["variant=x", "x=1", "noequals", "=", "limit=99999999999999999999999"]))}"]')
    if draw(st.booleans()):
        tags.append('[Result "*"]')
    body = []
    for h in range(draw(st.integers(0, 3))):
        body.append(f"hand {draw(st.sampled_from([h + 1, h + 1, 0, -1, 10**30]))} dealer={draw(SEATS)}")
        body += draw(st.lists(_line(2), max_size=12))
    return "\n".join(tags) + "\n\n" + "\n".join(body) + "\n"


# -- the tests -----------------------------------------------------------------------------
@examples("selfplay")
@given(st.data())
def test_corrupted_selfplay_and_record_tests(batch, data):
    text = data.draw(st.sampled_from(corpus()))
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(corrupt_text(text))
    check(text.encode("utf-8"))


@examples("grammar")
@given(grammar_record())
def test_records_from_the_grammar(batch, text):
    check(text.encode("utf-8"))


@examples("bytes")
@given(st.data())
def test_corrupted_bytes(batch, data):
    raw = data.draw(st.sampled_from(corpus())).encode("utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        raw = data.draw(corrupt_bytes(raw))
    check(raw)


@examples("structure")
@given(st.data())
def test_corrupted_grammar_records_and_archives(batch, data):
    """Several records in one file, from the grammar and selfplay, corrupted as text and bytes."""
    parts = data.draw(st.lists(st.one_of(grammar_record(), st.sampled_from(corpus())), min_size=1, max_size=4))
    text = "\n".join(parts)
    if data.draw(st.booleans()):
        text = data.draw(corrupt_text(text))
    raw = text.encode("utf-8")
    if data.draw(st.booleans()):
        raw = data.draw(corrupt_bytes(raw))
    check(raw)


@examples("json")
@given(st.data())
def test_corrupted_json_for_convert(batch, data):
    """JSON records (as convert writes them) corrupted: convert --to text names every problem."""
    text = data.draw(st.sampled_from(corpus()))
    records = [r.record for r in read_stream(io.BytesIO(text.encode("utf-8"))) if r.record is not None]
    doc = json.dumps([json.loads(r.model_dump_json()) for r in records])
    kind = data.draw(st.sampled_from(["bytes", "truncate", "value", "nest", "jsonl"]))
    if kind == "bytes":
        doc = data.draw(corrupt_bytes(doc.encode("utf-8"))).decode("utf-8", errors="replace")
    elif kind == "truncate":
        doc = doc[: data.draw(st.integers(0, len(doc)))]
    elif kind == "value":
        target = data.draw(st.sampled_from(['"cards"', '"value"', '"seat"', '"events"', '"at"', '"kind"']))
        doc = doc.replace(target + ": ", target + ": " + data.draw(st.sampled_from(["null, \"x\": ", "[[[", "1e999, \"y\": ", "\"\\ud800\", \"z\": "])), 1)
    elif kind == "nest":
        depth = data.draw(st.sampled_from([10, MAX_VARIATION_DEPTH + 5, 2000]))
        doc = "[" * depth + doc + "]" * depth
    else:
        doc = "\n".join(json.dumps(json.loads(r.model_dump_json())) for r in records) + "\n{"
    started = time.process_time()
    back, problems = read_json_records(doc, "fuzz.json")
    for p in problems:
        assert re.match(r"fuzz\.json:\d+:\d+: P11[0-37-8] ", p), p
        assert not NONE_WORD.search(p), p
    for r in back:
        write_record(r)
    elapsed = time.process_time() - started
    assert elapsed < SECONDS_PER_INPUT + SECONDS_PER_MB * len(doc) / 1e6
    STATS["inputs"] += 1
    STATS["max_seconds"] = max(STATS["max_seconds"], elapsed)
    _progress()


def test_the_long_profile_runs_each_test_in_batches(monkeypatch):
    # the long run's memory grew with the inputs (to 1.3 GB after 11,000 records from the
    # grammar, each input slower than the last): Hypothesis's nodes of one run, freed when
    # the run ends. Each run is at most BATCH inputs; the batches cover the test's share.
    import sys

    monkeypatch.setattr(sys.modules[__name__], "TOTAL", 100_000)
    for kind, share in SHARES.items():
        runs = batches(kind)
        assert len(runs) * BATCH >= int(100_000 * share) > (len(runs) - 1) * BATCH, kind


def test_zz_report_fuzz_figures():
    """Prints the figures of this run (read them with ``pytest -s``); runs last in the module."""
    if STATS["inputs"]:
        print(f"\nfuzz: {int(STATS['inputs'])} inputs, {int(STATS['records'])} records, "
              f"{int(STATS['diagnostics'])} diagnostics, {int(STATS['known_x901'])} known engine X901, "
              f"slowest input {STATS['max_seconds']:.3f} s")
