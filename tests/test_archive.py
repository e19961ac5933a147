"""The archive index and its search (paifu/archive.py, ``paifu index`` / ``paifu search``).

Folders of selfplay records of every game with an engine are written in each test, with
Players and Date tags added so every search filter has something to find. Expected
results are worked out from what the test wrote (which names, which dates, which files),
not read back from the index.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

import paifu.archive as arc
import paifu.batch as batch
import paifu.inputs as inputs
from paifu.notation import write_records
from paifu.notation.model import Tag
from paifu.notation.reader import split_records
from paifu.cli import main
from paifu.replay import games
from paifu.replay.selfplay import selfplay_record

NAMES = ["Mei", "Li", "Wang", "Chen"]
DATES = ["2025.06.01", "2026.03.14", "2026.11.19"]

# A record test of 卡五星 (tests/records/kawuxing/patterns.paifu #3, seed: 「卡五星」ルール
# §One Double (x2) (All Pung (碰碰胡))) with names and a date added. B wins on A's discard
# with 111p 555p 333s 999s 77z: All Pung, one double: A pays 1 × 2 = 2 to B, C pays nothing.
ALL_PUNG = """[Game "kawuxing"]
[Players "A: Zhao; B: Qian; C: Sun"]
[Date "2024.02.10"]
[Event "club night"]

hand 1 dealer=A
deal A: **************
deal B: 111555p333999s7z
deal C: *************
A: discard 7z
B: win ron 7z {111p 555p 333s 999s 77z}
score A -2 B +2 C 0
"""


def _named(game: str, seed: int, names: list[str], date: str) -> str:
    """A one-hand selfplay record of ``game`` with a Players tag naming ``names`` and a Date."""
    engine = games.engine(game)
    record = selfplay_record(engine, seed, hands=1)
    seats = engine.seat_counts[0]
    players = "; ".join(f"{chr(65 + i)}: {names[i % len(names)]}" for i in range(seats))
    record.tags = [t for t in record.tags if t.name != "Players"] + [Tag(name="Players", value=players), Tag(name="Date", value=date)]
    return write_records([record])


def make_archive(root: Path) -> dict[str, list[tuple[str, str]]]:
    """Two records per game (file root/GAME.paifu, the second in a subfolder for half the games).

    Record 1 of every game names Mei as seat A and is dated 2025.06.01; record 2 names
    Li as seat A and is dated 2026.11.19. Returns game -> [(seat A's name, date)].
    """
    written = {}
    for k, game in enumerate(games.game_ids()):
        folder = root / ("sub" if k % 2 else "")
        folder.mkdir(parents=True, exist_ok=True)
        texts = [_named(game, 10 + k, NAMES, DATES[0]), _named(game, 20 + k, NAMES[1:] + NAMES[:1], DATES[2])]
        (folder / f"{game}.paifu").write_text("\n".join(texts), encoding="utf-8")
        written[game] = [("Mei", DATES[0]), ("Li", DATES[2])]
    (root / "kawuxing-club.paifu").write_text(ALL_PUNG, encoding="utf-8")
    return written


def index(db: Path, *paths: Path | str, jobs: int = 1) -> arc.IndexStats:
    conn = arc.open_db(db)
    try:
        return arc.build_index(conn, [str(p) for p in paths], jobs)
    finally:
        conn.close()


def find(db: Path, **query) -> list[dict]:
    conn = arc.open_db(db, create=False)
    try:
        return arc.search(conn, arc.Query(**query))
    finally:
        conn.close()


@pytest.fixture
def archive(tmp_path):
    root = tmp_path / "archive"
    written = make_archive(root)
    return root, written, tmp_path / "paifu.sqlite"


def test_index_has_every_record_and_hand_with_offsets(archive):
    root, written, db = archive
    stats = index(db, root)
    n_games = len(games.game_ids())
    assert stats.files_read == n_games + 1
    assert stats.records == 2 * n_games + 1  # two per game, plus the All Pung record
    assert stats.hands == 2 * n_games + 1  # one hand each
    hits = find(db)
    assert len(hits) == 2 * n_games + 1
    for hit in hits:
        with open(hit["path"], "rb") as handle:
            handle.seek(hit["offset"])
            assert handle.read(6) == b'[Game '  # the offset is where the record starts
            handle.seek(hit["offset"])
            first = next(split_records(handle))  # and the reader can start there
            assert first.text.startswith('[Game "' + hit["game"] + '"]')
        assert hit["hands"] == 1
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == arc.SCHEMA_VERSION


def test_all_pung_hand_row(archive):
    root, _, db = archive
    index(db, root)
    conn = sqlite3.connect(db)
    rid, players, date_iso, totals = conn.execute(
        "SELECT r.id, r.players, r.date_iso, r.totals FROM records r JOIN files f ON f.id = r.file_id"
        " WHERE f.path LIKE '%kawuxing-club.paifu'").fetchone()
    assert json.loads(players) == {"A": "Zhao", "B": "Qian", "C": "Sun"}
    assert date_iso == "2024-02-10"
    assert json.loads(totals) == {"A": -2, "B": 2, "C": 0}
    number, dealer, over, events, computed, written, winners = conn.execute(
        "SELECT number, dealer, over, events, computed, written, winners FROM hands WHERE record_id = ?", (rid,)).fetchone()
    # six lines after 'hand 1': three deals, the discard, the win, the score line
    assert (number, dealer, over, events, winners) == (1, "A", 1, 6, "B")
    assert json.loads(computed) == json.loads(written) == {"A": -2, "B": 2, "C": 0}
    terms = {r[0] for r in conn.execute("SELECT term FROM items WHERE record_id = ?", (rid,))}
    assert "碰碰胡" in terms


def test_incremental_reindex_touch_change_delete(archive):
    root, _, db = archive
    first = index(db, root)
    files = sorted(root.rglob("*.paifu"))
    changed, deleted, touched = files[0], files[1], files[2]
    with open(changed, "a", encoding="utf-8") as handle:
        handle.write("\n" + ALL_PUNG)
    deleted.unlink()
    st = touched.stat()
    os.utime(touched, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))  # new mtime, same bytes
    second = index(db, root)
    assert second.files_read == 1  # only the changed file; the touched one is confirmed by its hash
    assert second.files_removed == 1
    assert second.files_unchanged == first.files_read - 2
    paths = {h["path"] for h in find(db)}
    assert str(deleted) not in paths
    assert sum(1 for h in find(db) if h["path"] == str(changed)) == len(list(split_records(open(changed, "rb"))))
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT mtime_ns FROM files WHERE path = ?", (str(touched),)).fetchone()[0] == touched.stat().st_mtime_ns
    third = index(db, root)
    assert (third.files_read, third.files_removed, third.files_unchanged) == (0, 0, first.files_read - 1)


def test_pruning_stays_within_the_indexed_folder(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    make_archive(one)
    make_archive(two)
    db = tmp_path / "i.sqlite"
    index(db, one)
    index(db, two)
    (one / "kawuxing-club.paifu").unlink()
    stats = index(db, two)  # re-indexing 'two' leaves 'one' alone
    assert stats.files_removed == 0
    held = {r[0] for r in sqlite3.connect(db).execute("SELECT path FROM files")}
    assert str(one / "kawuxing-club.paifu") in held  # still indexed (search does not list it: it is gone)
    assert all(h["path"] != str(one / "kawuxing-club.paifu") for h in find(db))
    stats = index(db, one)
    assert stats.files_removed == 1


def test_interrupted_run_leaves_a_usable_index(archive, monkeypatch):
    root, _, db = archive
    seen: list[str] = []
    real = arc.record_rows

    def failing(path, chunk, index, offset):
        if path not in seen:
            seen.append(path)
        if len(seen) > 1 and index == 2:  # the second record of a later file: mid-file
            raise RuntimeError("simulated crash")
        return real(path, chunk, index, offset)

    monkeypatch.setattr(arc, "record_rows", failing)
    with pytest.raises(RuntimeError):
        index(db, root)
    done = seen[:-1]  # every file before the one that failed
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert [r[0] for r in conn.execute("SELECT path FROM files ORDER BY id")] == done
    in_done = sum(len(list(split_records(open(p, "rb")))) for p in done)
    assert conn.execute("SELECT count(*) FROM records").fetchone()[0] == in_done  # none of the failed file
    conn.close()
    assert len(find(db)) == in_done
    monkeypatch.setattr(arc, "record_rows", real)
    stats = index(db, root)
    assert stats.files_unchanged == len(done)
    assert len(find(db)) == 2 * len(games.game_ids()) + 1


def test_an_internal_error_in_one_record_is_its_x901_row(archive, monkeypatch):
    root, _, db = archive
    real = arc.validate_read

    def buggy(result, index=1):
        if result.record is not None and result.record.tag("Event") == "club night":
            raise ZeroDivisionError("a bug")
        return real(result, index)

    monkeypatch.setattr(arc, "validate_read", buggy)
    stats = index(db, root)
    assert stats.files_read == len(games.game_ids()) + 1  # the run went on
    [hit] = find(db, code="X901")
    assert Path(hit["path"]).name == "kawuxing-club.paifu" and not hit["valid"]
    assert "ZeroDivisionError" in hit["at"][0]


def test_interrupted_reindex_keeps_the_old_rows(archive, monkeypatch):
    root, _, db = archive
    index(db, root)
    club = root / "kawuxing-club.paifu"
    club.write_text(ALL_PUNG + "\n" + ALL_PUNG.replace("Zhao", "Zhou"), encoding="utf-8")
    monkeypatch.setattr(arc, "record_rows", lambda *task: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        index(db, club)
    assert [h["players"]["A"] for h in find(db, player="zhao")] == ["Zhao"]  # the file's previous rows
    assert find(db, player="zhou") == []


def test_search_filters(archive):
    root, written, db = archive
    index(db, root)
    n_games = len(games.game_ids())
    assert {h["game"] for h in find(db, game="bigtwo")} == {"bigtwo"}
    assert len(find(db, game="bigtwo")) == 2
    # Mei is seat A of every record 1; in record 2 the names start from Li, so Mei sits
    # fourth and plays only in the games of four or more
    four = sum(1 for g in games.game_ids() if games.engine(g).seat_counts[0] >= 4)
    mei = find(db, player="mei")
    assert len(mei) == n_games + four
    assert find(db, player="MEI") == mei
    assert len(find(db, player="zha*")) == 1  # Zhao, in the club record
    assert find(db, player="Nobody") == []
    # dates: 2024.02.10 (club), 2025.06.01 (record 1 of each game), 2026.11.19 (record 2)
    assert len(find(db, since="2026")) == n_games
    assert len(find(db, until="2025")) == n_games + 1
    assert len(find(db, since="2025-01-01", until="2025.12")) == n_games
    assert len(find(db, since="2024.02.10", until="2024.02.10")) == 1
    club = find(db, item="碰碰胡", player="Qian")
    assert [(Path(h["path"]).name, h["index"], h["item_hands"]) for h in club] == [("kawuxing-club.paifu", 1, [1])]
    assert find(db, item="all pung", player="qian") == club  # the English name, any case
    assert club[0] in find(db, item="碰碰胡")
    assert find(db, item="碰碰胡", game="bigtwo") == []
    assert find(db, invalid=True) == []
    assert find(db, code="S401") == []
    assert len(find(db, game="kawuxing", player="Li", since="2026")) == 1
    assert len(find(db, limit=3)) == 3


HOSTILE = {
    "syntax.paifu": ('[Game "bigtwo"]\n\nhand 1 dealer=A\nA: 3C (\n', "P102"),
    "empty.paifu": ("", "P106"),
    "latin1.paifu": (b'[Game "bigtwo"]\n[Event "caf\xe9"]\n\nhand 1 dealer=A\n', "P103"),
    "binary.paifu": (b"\x00\x01\x02PK", "P104"),
    "nogame.paifu": ("[Event \"x\"]\n\nhand 1 dealer=A\nA: 3C\n", "R201"),
    "unknown.paifu": ('[Game "go"]\n\nhand 1\n', "R202"),
    "badscore.paifu": (ALL_PUNG.replace("score A -2 B +2 C 0", "score A -4 B +4 C 0"), "S401"),
}


def _write_hostile(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for name, (content, _) in HOSTILE.items():
        path = root / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def test_hostile_inputs_are_indexed_invalid_with_their_codes(tmp_path, monkeypatch):
    root = tmp_path / "bad"
    _write_hostile(root)
    (root / "locked.paifu").write_text(ALL_PUNG, encoding="utf-8")
    real_open = inputs.open_file

    def open_file(path):
        if path.endswith("locked.paifu"):
            raise PermissionError(13, "Permission denied")
        return real_open(path)

    monkeypatch.setattr(inputs, "open_file", open_file)
    db = tmp_path / "bad.sqlite"
    stats = index(db, root)
    assert stats.files_read == len(HOSTILE) + 1
    invalid = find(db, invalid=True)
    assert len(invalid) == len(HOSTILE) + 1
    by_name = {Path(h["path"]).name: h for h in invalid}
    for name, (_, code) in HOSTILE.items():
        assert code in by_name[name]["codes"], (name, by_name[name]["codes"])
        assert [Path(h["path"]).name for h in find(db, code=code)] == [name]
    locked = find(db, code="P110")
    assert [Path(h["path"]).name for h in locked] == ["locked.paifu"]
    assert "Permission denied" in locked[0]["at"][0]
    # an unreadable file has no hash: it is tried again until it can be read
    monkeypatch.setattr(inputs, "open_file", real_open)
    again = index(db, root)
    assert again.files_read == 1
    assert find(db, code="P110") == []


def test_cli_index_and_search(archive, capsys, monkeypatch):
    root, _, db = archive
    _write_hostile(root / "bad")
    assert main(["index", str(root), "--db", str(db), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "file(s) read" in out
    assert main(["search", "--db", str(db), "--invalid", "--code", "p103", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert [Path(h["path"]).name for h in hits] == ["latin1.paifu"]
    assert hits[0]["index"] == 1 and hits[0]["offset"] == 0 and not hits[0]["valid"]
    assert main(["search", "--db", str(db), "--item", "碰碰胡"]) == 0
    table = capsys.readouterr().out
    assert "kawuxing-club.paifu" in table and "Qian" in table
    assert main(["search", "--db", str(db), "--player", "nobody", "--json"]) == 1  # nothing found
    assert json.loads(capsys.readouterr().out) == []
    assert main(["index", str(root), "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    # a result can be fed to the validator
    capsys.readouterr()
    for hit in find(db, item="碰碰胡", player="qian"):
        status = main(["validate", hit["path"]])
        out = capsys.readouterr().out
        if Path(hit["path"]).name == "badscore.paifu":
            assert status == 1 and "S401" in out
        else:
            assert status == 0 and hit["valid"]


def test_cli_errors_are_messages_not_tracebacks(tmp_path, capsys):
    missing_db = tmp_path / "none.sqlite"
    assert main(["search", "--db", str(missing_db)]) == 2
    assert "no index at" in capsys.readouterr().err
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    assert main(["index", str(tmp_path), "--db", str(junk)]) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    assert main(["search", "--db", str(other)]) == 2
    assert "not a paifu index" in capsys.readouterr().err
    assert main(["index", str(tmp_path / "gone"), "--db", str(tmp_path / "i.sqlite")]) == 2
    assert "P110" in capsys.readouterr().err
    nowhere = tmp_path / "no-such-folder" / "i.sqlite"
    assert main(["index", str(tmp_path), "--db", str(nowhere)]) == 2
    assert f"{nowhere}: the index cannot be opened or written here" in capsys.readouterr().err


def test_jobs_give_the_same_index(archive, tmp_path):
    root, _, db = archive
    index(db, root, jobs=1)
    db2 = tmp_path / "two.sqlite"
    index(db2, root, jobs=2)
    assert find(db) == find(db2)
    strip = "SELECT h.number, h.dealer, h.events, h.computed, h.winners FROM hands h JOIN records r ON r.id = h.record_id ORDER BY r.id, h.pos"
    assert sqlite3.connect(db).execute(strip).fetchall() == sqlite3.connect(db2).execute(strip).fetchall()


def test_schema_version_and_migration_from_version_1(archive):
    root, _, db = archive
    conn = sqlite3.connect(db)
    conn.executescript(arc.SCHEMA_V1 + "INSERT INTO schema_version VALUES (1);")
    conn.execute("INSERT INTO files (path, size, mtime_ns, sha256, records, indexed_at) VALUES (?, 1, 1, 'abc', 0, 0)",
                 (str(root / "kawuxing-club.paifu"),))
    conn.commit()
    conn.close()
    conn = arc.open_db(db)
    assert arc.schema_version(conn) == 2
    columns = {r[1] for r in conn.execute("PRAGMA table_info(hands)")} | {r[1] for r in conn.execute("PRAGMA table_info(items)")}
    assert {"winners", "term"} <= columns
    assert conn.execute("SELECT sha256 FROM files").fetchone()[0] == ""  # marked for reading again
    conn.close()
    stats = index(db, root)
    assert stats.files_read == len(games.game_ids()) + 1
    assert [h["item_hands"] for h in find(db, item="碰碰胡")] == [[1]]


def test_newer_schema_is_refused(tmp_path):
    db = tmp_path / "new.sqlite"
    arc.open_db(db).execute(f"UPDATE schema_version SET version = {arc.SCHEMA_VERSION + 1}")
    with pytest.raises(arc.SchemaError, match="layout version"):
        arc.open_db(db)


def test_offsets_are_right_on_a_long_file(tmp_path, monkeypatch):
    """Many records in one file, read in small blocks: each record's byte offset is where its
    first line starts, and the hash is the file's."""
    monkeypatch.setattr("paifu.notation.reader.READ_BLOCK", 1000)
    engine = games.engine("bigtwo")
    text = "\ufeff" + "\n".join(write_records([selfplay_record(engine, s, hands=1)]) for s in range(60))
    text = text.replace("{", "").replace('[Game "bigtwo"]\n', '[Game "bigtwo"]\n[Event "牌譜"]\n', 30)  # a BOM, some non-ASCII
    path = tmp_path / "long.paifu"
    path.write_text(text, encoding="utf-8")
    with open(path, "rb") as handle:
        tracked = inputs.Tracked(handle)
        offsets = [offset for _, _, _, offset in inputs.file_records(str(path), tracked)]
        digest = tracked.finish()
    data = path.read_bytes()
    starts = [i for i in range(len(data)) if data.startswith(b'[Game "', i)]
    assert offsets == [0] + starts[1:]  # the first record's line starts at byte 0, before the BOM
    assert len(offsets) == 60
    assert digest == inputs.file_hash(str(path))


def test_progress_bar_on_a_terminal_and_quiet(archive, capsys, monkeypatch):
    root, _, db = archive
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert main(["index", str(root), "--db", str(db)]) == 0
    captured = capsys.readouterr()
    assert "indexing" in captured.err  # the bar, drawn on standard error
    assert "file(s) read" in captured.out
    os.utime(root / "kawuxing-club.paifu", ns=(0, 0))
    (root / "kawuxing-club.paifu").write_text(ALL_PUNG + "\n" + ALL_PUNG, encoding="utf-8")
    assert main(["index", str(root), "--db", str(db), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


def test_archive_benchmark_runs_on_a_small_corpus():
    """The benchmark (figures, never a timed assertion) runs end to end on a few hands."""
    import paifu.bench as paifu_bench

    figures = paifu_bench.bench_archive(hands=28, jobs=(1,))
    assert figures["hands"] == 28  # 7 records of 4 hands
    assert figures["reindex_changed_files"] == 1
    assert set(figures["search_ms"]) >= {"game", "item (rarest term)", "date range"}


def test_viewer_lists_an_indexed_folder_from_the_database(archive, monkeypatch):
    import paifu.viewer.library as library
    from paifu.viewer import create_app

    root, _, db = archive
    _write_hostile(root / "bad")
    index(db, root)
    read_by_viewer = library.Library.at(root).all_summaries()
    from_db = library.Library.at(root, db).all_summaries()
    assert from_db == read_by_viewer  # the same lines, errors and all

    def no_reading(*args, **kwargs):
        raise AssertionError("an indexed, unchanged file was read")

    monkeypatch.setattr(library, "summarize", no_reading)
    assert library.Library.at(root, db).all_summaries() == read_by_viewer
    client = create_app(root, db=db).test_client()
    page = client.get("/")
    assert page.status_code == 200 and "Qian" in page.get_data(as_text=True)

    # a file changed since it was indexed is read again, and only that one
    club = root / "kawuxing-club.paifu"
    club.write_text(ALL_PUNG.replace("Zhao", "Zhou"), encoding="utf-8")
    reads = []
    monkeypatch.setattr(library, "summarize", lambda file, i, result: reads.append(file) or library.Summary(
        file=file, index=i, line=result.line, game="kawuxing", players="", date="", result="", event="",
        hands=1, valid=True, errors=0, notes=0, first_error=""))
    lib = library.Library.at(root, db)
    assert len(lib.all_summaries()) == len(read_by_viewer)
    assert reads == ["kawuxing-club.paifu"]


def test_paifu_view_refuses_a_missing_database(archive, capsys):
    root, _, db = archive
    assert main(["view", str(root), "--db", str(db)]) == 2
    assert "no index there" in capsys.readouterr().err


def test_byte_ranges_start_where_records_start(tmp_path):
    engine = games.engine("bigtwo")
    text = "\n".join(write_records([selfplay_record(engine, s, hands=1)]) for s in range(12))
    path = tmp_path / "many.paifu"
    path.write_text(text, encoding="utf-8")
    ranges = inputs.record_ranges(str(path), target=2000)
    assert len(ranges) > 2
    data = path.read_bytes()
    assert ranges[0].start == 0 and ranges[-1].end == -1
    for a, b in zip(ranges, ranges[1:]):
        assert a.end == b.start and data[b.start:b.start + 7] == b'[Game "'
        assert b.first_line == data[:b.start].count(b"\n") + 1
    reports = [rep for r in ranges for rep in batch.validate_range(r)]
    assert [r.index for r in reports] == list(range(1, 13))
    (tmp_path / "latin1.paifu").write_bytes(b'[Game "bigtwo"]\n\nhand 1 dealer=A\n\n[Game "bigtwo"]\n[Event "caf\xe9"]\n')
    assert len(inputs.record_ranges(str(tmp_path / "latin1.paifu"), target=1)) == 1  # bad bytes: read whole


def test_validate_on_a_dask_local_cluster_matches_processes(archive, capsys, monkeypatch):
    distributed = pytest.importorskip("distributed")
    root, _, _ = archive
    _write_hostile(root / "bad")
    engine = games.engine("bigtwo")
    long = "\n".join(write_records([selfplay_record(engine, s, hands=1)]) for s in range(30))
    (root / "long.paifu").write_text(long.replace("[Game", "[Date \"2026.01.01\"]\n[Game", 1), encoding="utf-8")
    monkeypatch.setattr(inputs, "RANGE_BYTES", 3000)  # several ranges per file
    paths = [str(root), str(root / "missing.paifu")]
    status = main(["validate", "--json", "--jobs", "2", *paths])
    expected = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        got_status = main(["validate", "--json", "--executor", "dask", "--scheduler", cluster.scheduler_address, *paths])
    got = json.loads(capsys.readouterr().out)
    assert got_status == status == 2  # a missing path
    assert got == expected  # the same reports, in the same order
    assert any(r["path"].endswith("long.paifu") and r["index"] == 30 for r in got["records"])


def test_dask_executor_without_a_scheduler_says_so(tmp_path, capsys):
    pytest.importorskip("distributed")
    (tmp_path / "a.paifu").write_text(ALL_PUNG, encoding="utf-8")
    assert main(["validate", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", str(tmp_path)]) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_dask_executor_starts_a_local_cluster_when_no_scheduler_is_given(tmp_path, capsys):
    pytest.importorskip("distributed")
    (tmp_path / "a.paifu").write_text(ALL_PUNG + "\n" + ALL_PUNG, encoding="utf-8")
    assert main(["validate", "--executor", "dask", "--jobs", "1", str(tmp_path)]) == 0
    assert "2 record(s): 2 valid, 0 invalid" in capsys.readouterr().out


def test_index_on_a_dask_local_cluster_matches_local(archive, tmp_path, capsys, monkeypatch):
    distributed = pytest.importorskip("distributed")
    root, _, db = archive
    _write_hostile(root / "bad")
    engine = games.engine("bigtwo")
    (root / "long.paifu").write_text("\n".join(write_records([selfplay_record(engine, s, hands=1)]) for s in range(20)), encoding="utf-8")
    monkeypatch.setattr(inputs, "RANGE_BYTES", 3000)
    index(db, root)
    db2 = tmp_path / "dask.sqlite"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        assert main(["index", str(root), "--db", str(db2), "--executor", "dask", "--scheduler", cluster.scheduler_address]) == 0
    assert find(db2) == find(db)  # offsets, lines, codes: the same rows
    hands = "SELECT h.number, h.dealer, h.events, h.computed, h.winners FROM hands h JOIN records r ON r.id = h.record_id ORDER BY r.id, h.pos"
    assert sqlite3.connect(db).execute(hands).fetchall() == sqlite3.connect(db2).execute(hands).fetchall()
    shas = "SELECT path, sha256 FROM files ORDER BY path"
    assert sqlite3.connect(db).execute(shas).fetchall() == sqlite3.connect(db2).execute(shas).fetchall()


def test_validate_progress_bar_and_quiet(tmp_path, capsys, monkeypatch):
    (tmp_path / "a.paifu").write_text(ALL_PUNG, encoding="utf-8")
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert main(["validate", str(tmp_path)]) == 0
    assert "validating" in capsys.readouterr().err  # the bar, on standard error
    assert main(["validate", "--quiet", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "1 record(s): 1 valid" in captured.out


# -- the commands at scale ----------------------------------------------------------------
# CI writes SCALE one-hand selfplay records of every game (a few seconds). For the issue's
# folder of 10,000 mixed records, give a folder of selfplay records written by
# `paifu bench --archive` (PAIFU_ARCHIVE_CORPUS=DIR PAIFU_ARCHIVE_RECORDS=10000): its first
# files holding that many records are copied and used.
SCALE = int(os.environ.get("PAIFU_ARCHIVE_RECORDS", "40"))


def _scale_corpus(root: Path) -> list[Path]:
    import shutil

    import paifu.bench as paifu_bench

    given = os.environ.get("PAIFU_ARCHIVE_CORPUS")
    if not given:
        paifu_bench.make_archive_corpus(root, SCALE, hands_per_record=1, jobs=2)
        return sorted(root.rglob("*.paifu"))
    root.mkdir(parents=True)
    taken, files = 0, []
    for k, source in enumerate(sorted(Path(given).rglob("*.paifu"))):
        if taken >= SCALE:
            break
        target = root / f"{k:05d}.paifu"
        shutil.copyfile(source, target)
        taken += sum(1 for line in target.read_text(encoding="utf-8").splitlines() if line.startswith('[Game "'))
        files.append(target)
    return files


def test_index_search_and_validate_a_mixed_folder_at_scale(tmp_path, capsys):
    """index, search and validate over a folder of mixed selfplay records: what they find is
    what the files say, counted here from the text itself (tag lines), not from the index."""
    import re
    from collections import Counter

    root = tmp_path / "corpus"
    files = _scale_corpus(root)
    games_in: Counter = Counter()
    named_mei = 0
    hands = 0
    for f in files:
        text = f.read_text(encoding="utf-8")
        games_in.update(re.findall(r'^\[Game "([^"]+)"\]$', text, flags=re.M))
        named_mei += sum(1 for p in re.findall(r'^\[Players "([^"]*)"\]$', text, flags=re.M)
                         if re.search(r"(^|; )[A-H]: Mei($|;)", p))
        hands += len(re.findall(r"^hand \d+", text, flags=re.M))
    records = sum(games_in.values())
    assert records >= SCALE and len(games_in) == len(games.game_ids())
    db = tmp_path / "scale.sqlite"

    assert main(["index", str(root), "--db", str(db), "--jobs", "2", "--quiet"]) == 0
    conn = arc.open_db(db, create=False)
    try:
        assert conn.execute("SELECT count(*) FROM records").fetchone()[0] == records
        assert conn.execute("SELECT count(*) FROM hands").fetchone()[0] == hands
    finally:
        conn.close()
    for game, n in games_in.items():
        assert len(find(db, game=game)) == n, game
    assert len(find(db, player="mei")) == named_mei
    assert find(db, invalid=True) == []  # selfplay records are valid

    # a re-index reads only what changed: 1% of the files touched (same bytes), then one changed
    touched = files[:: 100][: max(1, len(files) // 100)]
    for f in touched:
        st = f.stat()
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert index(db, root).files_read == 0
    with open(files[-1], "a", encoding="utf-8") as handle:
        handle.write("\n{ a comment appended }\n")
    again = index(db, root)
    assert again.files_read == 1 and again.files_unchanged == len(files) - 1

    capsys.readouterr()
    assert main(["validate", str(root), "--jobs", "2", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    reports = report["records"] if isinstance(report, dict) else report
    assert len(reports) == records


# -- the index under concurrency and corruption (issue 29) --------------------------------
def _hold_lock(db: Path, seconds: float) -> "subprocess.Popen[str]":
    """Another process (not paifu) that holds the database's write lock for ``seconds``."""
    import subprocess
    import sys

    code = ("import sqlite3, sys, time\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE')\n"
            "print('locked', flush=True)\n"
            "time.sleep(float(sys.argv[2]))\n"
            "c.execute('ROLLBACK')\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(db), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_a_writer_holding_the_lock_past_the_timeout_is_a_message(archive, capsys, monkeypatch):
    root, _, db = archive
    assert main(["index", str(root), "--db", str(db), "--quiet"]) == 0
    (root / "new.paifu").write_text(ALL_PUNG, encoding="utf-8")  # something to write
    monkeypatch.setenv("PAIFU_DB_TIMEOUT", "0.5")
    holder = _hold_lock(db, 4)
    try:
        assert main(["index", str(root), "--db", str(db), "--quiet"]) == 2
    finally:
        holder.wait()
    err = capsys.readouterr().err
    assert f"{db}: the index is in use by another program" in err and "Traceback" not in err
    if Path("/proc/locks").exists():  # Linux names the holder
        assert f"(pid {holder.pid}: " in err
    # the lock gone, the same run goes through and the new file is found
    assert main(["index", str(root), "--db", str(db), "--quiet"]) == 0
    assert {Path(h["path"]).name for h in find(db, player="qian")} == {"kawuxing-club.paifu", "new.paifu"}


def test_a_short_lock_is_waited_for(archive, capsys, monkeypatch):
    root, _, db = archive
    index(db, root)
    (root / "new.paifu").write_text(ALL_PUNG, encoding="utf-8")
    monkeypatch.setenv("PAIFU_DB_TIMEOUT", "10")
    holder = _hold_lock(db, 0.5)
    try:
        assert main(["index", str(root), "--db", str(db), "--quiet"]) == 0
    finally:
        holder.wait()
    assert len(find(db, player="qian")) == 2


def test_index_runs_started_together_on_one_new_database(archive):
    """Three runs started together on a database that does not exist yet: each finishes or says the index
    is in use (exit 2), never a traceback, and the index is then complete."""
    import subprocess
    import sys

    root, written, db = archive
    env = dict(os.environ, PAIFU_DB_TIMEOUT="20")
    cmd = [sys.executable, "-m", "paifu", "index", str(root), "--db", str(db), "--quiet", "--jobs", "1"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    results = [(p.wait(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    for rc, err in results:
        assert "Traceback" not in err
        assert rc == 0 or (rc == 2 and "in use by another" in err), err
    assert any(rc == 0 for rc, _ in results)
    assert len(find(db)) == 2 * len(written) + 1  # two records a game and the 卡五星 club record
    assert not [p.name for p in db.parent.iterdir() if p.name.endswith(".new")]  # nothing left beside it


def _corrupt_page_2(db: Path) -> bytes:
    conn = sqlite3.connect(db)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    assert conn.execute("PRAGMA page_count").fetchone()[0] > 3
    conn.close()  # the last connection checkpoints the WAL into the file
    with open(db, "r+b") as handle:
        handle.seek(page)
        handle.write(b"\xa5garbage!" * (page // 9))
    return db.read_bytes()


def test_corrupt_pages_are_a_message_for_search_and_index(archive, capsys):
    root, _, db = archive
    index(db, root)
    damaged = _corrupt_page_2(db)
    for argv in (["search", "--db", str(db), "--item", "碰碰胡"], ["search", "--db", str(db)],
                 ["index", str(root), "--db", str(db)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert f"{db}: the index is damaged" in err and "--rebuild" in err and "Traceback" not in err
    assert db.read_bytes() == damaged  # never written over without --rebuild
    assert main(["index", str(root), "--db", str(db), "--rebuild", "--quiet"]) == 0
    assert [h["item_hands"] for h in find(db, item="碰碰胡")] == [[1]]


def test_a_zero_byte_database_is_refused_not_made_an_index(archive, capsys):
    root, _, db = archive
    db.write_bytes(b"")
    assert main(["index", str(root), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"{db}: the file is empty" in err and "--rebuild" in err
    assert main(["search", "--db", str(db)]) == 2
    assert "the file is empty" in capsys.readouterr().err
    assert db.read_bytes() == b""
    assert main(["index", str(root), "--db", str(db), "--rebuild", "--quiet"]) == 0
    assert len(find(db, player="qian")) == 1


def test_a_foreign_or_non_sqlite_file_is_never_written(tmp_path, capsys):
    (tmp_path / "a.paifu").write_text(ALL_PUNG, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (x)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"SQLite is not what this is" * 50)
    for db, says in ((other, "not a paifu index"), (junk, "not an SQLite database")):
        before = db.read_bytes()
        for argv in (["index", str(tmp_path), "--db", str(db)], ["index", str(tmp_path), "--db", str(db), "--rebuild"],
                     ["search", "--db", str(db)]):
            assert main(argv) == 2, argv
            err = capsys.readouterr().err
            assert str(db) in err and says in err and "left as it is" in err
        assert db.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.paifu", "junk.sqlite", "other.sqlite"]  # no -wal, -shm


def test_search_never_lists_a_file_that_is_gone(archive, capsys):
    root, _, db = archive
    index(db, root)
    (root / "kawuxing-club.paifu").unlink()
    assert main(["search", "--db", str(db), "--player", "qian", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == []
    assert "kawuxing-club.paifu" in captured.err and "no longer exist" in captured.err
    assert all(Path(h["path"]).exists() for h in find(db))
    assert len(find(db, player="mei", limit=3)) == 3  # the limit counts results that are listed


def test_search_says_when_the_index_is_older_than_a_file(archive, capsys):
    root, _, db = archive
    index(db, root)
    club = root / "kawuxing-club.paifu"
    club.write_text(ALL_PUNG.replace("Zhao", "Zhou") + "\n", encoding="utf-8")
    assert main(["search", "--db", str(db), "--player", "qian", "--json"]) == 0
    captured = capsys.readouterr()
    hits = json.loads(captured.out)
    assert [h["stale"] for h in hits] == [True]
    assert "changed since it was indexed" in captured.err and "kawuxing-club.paifu" in captured.err
    assert main(["search", "--db", str(db), "--player", "mei"]) == 0
    captured = capsys.readouterr()
    assert "changed since" not in captured.err  # only the files it names
    assert all(h["stale"] is False for h in find(db, player="mei"))


def test_index_verify_rereads_a_change_behind_the_same_size_and_time(archive, capsys):
    root, _, db = archive
    index(db, root)
    club = root / "kawuxing-club.paifu"
    stamp = club.stat()
    club.write_text(ALL_PUNG.replace("Zhao", "Zhou"), encoding="utf-8")  # same length
    os.utime(club, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert club.stat().st_size == stamp.st_size
    assert main(["index", str(root), "--db", str(db), "--quiet"]) == 0
    assert find(db, player="zhou") == []  # size and time alone cannot see it (docs/archives.md)
    assert main(["index", str(root), "--db", str(db), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "1 file(s) read" in out and "1 changed behind the same size and time" in out
    assert [Path(h["path"]).name for h in find(db, player="zhou")] == ["kawuxing-club.paifu"]
    assert find(db, player="zhao") == []


def test_the_holder_of_the_lock_is_named_when_it_is_a_paifu(monkeypatch, tmp_path):
    db = tmp_path / "club.sqlite"
    monkeypatch.setattr(arc, "lock_holders", lambda path: [(4321, ["/usr/bin/python3", "-m", "paifu", "index", "club/", "--db", "club.sqlite"])])
    busy = arc.explain(db, sqlite3.OperationalError("database is locked"))
    assert isinstance(busy, arc.IndexBusy)
    assert str(busy).startswith(f"{db}: the index is in use by another paifu (pid 4321: paifu index club/ --db club.sqlite), which kept it locked")
    monkeypatch.setattr(arc, "lock_holders", lambda path: [])
    assert "in use by another program (another 'paifu index'?)" in str(arc.explain(db, sqlite3.OperationalError("database is locked")))


def test_a_database_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path):
    """A FIFO named as the index: refused (exit 2) without opening it, so nothing waits for a writer."""
    import subprocess
    import sys

    (tmp_path / "a.paifu").write_text(ALL_PUNG, encoding="utf-8")
    fifo = tmp_path / "fifo.sqlite"
    os.mkfifo(fifo)
    for argv in (["index", str(tmp_path / "a.paifu"), "--db", str(fifo)], ["search", "--db", str(fifo)],
                 ["index", str(tmp_path / "a.paifu"), "--db", str(tmp_path)]):
        run = subprocess.run([sys.executable, "-m", "paifu", *argv], capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "not a regular file" in run.stderr and "left as it is" in run.stderr, run.stderr
    assert fifo.is_fifo()
