"""The command line: exit codes, located messages, JSON that matches the schemas, fmt, convert.

The foundation issue, §What a user gets 3, 5 and 6.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from paifu.cli import main
from paifu.notation.jsonform import read_json_records
from paifu.schemas import RECORD, REPORT, schema_text

ROOT = Path(__file__).parent.parent
SETTLEMENT = ROOT / "tests/records/bigtwo/settlement.paifu"


def run(args, capsys, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_schemas_are_not_stale():
    assert RECORD.read_text(encoding="utf-8") == schema_text("record"), "run: paifu schema record > schemas/record.schema.json"
    assert REPORT.read_text(encoding="utf-8") == schema_text("report"), "run: paifu schema report > schemas/report.schema.json"


def test_validate_valid_file_exits_0(capsys, tmp_path):
    f = tmp_path / "ok.paifu"
    f.write_text(SETTLEMENT.read_text(encoding="utf-8").split("\n\n[Game")[0] + "\n", encoding="utf-8")
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 0
    assert out.strip().endswith("1 record(s): 1 valid, 0 invalid; 0 error(s), 0 note(s)")


def test_validate_invalid_exits_1_with_located_message(capsys):
    code, out, _ = run(["validate", str(SETTLEMENT)], capsys)
    assert code == 1
    assert f"{SETTLEMENT}:134:16: S401 score of B: written -36, computed -72" in out


# -- notes: one line per record by default, each note once with --notes (issue 34) --------------------
WUHAN_BASICS = ROOT / "examples/wuhan-basics.paifu"


def test_bundled_examples_sum_up_their_notes_in_one_line_per_record(capsys):
    """No N501 line by default: each record with notes gets one line that counts them and
    names the record's first line (not as a diagnostic: it does not begin with the path). wuhan-basics, counted by hand from the record: hand 1 has 11 tiles shown out
    of unseen hands (lines 17, 18 (the pon's two 9s make one note), 19, 20, 21, 24, 25, 27, 31,
    36, 38; D's hand is dealt face up), hand 2 has 4 (lines 49, 53, 55, 57; C's is face up)."""
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.paifu"))
    code, out, _ = run(["validate", *examples], capsys)
    assert code == 0
    lines = out.splitlines()
    assert not [x for x in lines if " N50" in x]
    assert f"15 notes: unseen tiles taken on trust (N501), in the record at {WUHAN_BASICS}:1; --notes lists them" in lines
    summed = [x for x in lines if "--notes lists them" in x]
    assert len(summed) == len({x.split(" at ")[1] for x in summed})  # one line per record (each example holds one)
    assert lines[-1].endswith(f"{sum(int(x.split()[0]) for x in summed)} note(s)")


def test_notes_lists_each_note_once(capsys):
    """--notes prints every note: B's pon of 9s at line 18 takes two tiles from B's unseen hand,
    and is one note, not one per tile."""
    code, out, _ = run(["validate", "--notes", str(WUHAN_BASICS)], capsys)
    assert code == 0
    notes = [x for x in out.splitlines() if ": N501 " in x]
    assert len(notes) == 15 == len(set(notes))
    assert [x for x in notes if ":18:1: " in x] == [f"{WUHAN_BASICS}:18:1: N501 B's 9s is taken from B's unseen tiles: not checked against the deal"]
    assert "--notes lists them" not in out


def test_notes_of_several_kinds_are_counted_by_kind():
    from paifu.notation.diagnostics import diag
    from paifu.replay.report import RecordReport, notes_summary

    rep = RecordReport(game="bigtwo", diagnostics=[diag("N501", "a"), diag("L301", "x"), diag("N501", "b"), diag("N503", "c")])
    assert notes_summary(rep) == "3 notes: 2 unseen cards taken on trust (N501), 1 record unfinished (N503)"
    assert notes_summary(RecordReport(game="sanma", diagnostics=[diag("N501", "a")])) == "1 note: unseen tiles taken on trust (N501)"
    assert notes_summary(RecordReport(game="sanma")) == ""


def test_unreadable_path_exits_2_and_others_go_on(capsys, tmp_path):
    code, out, _ = run(["validate", str(tmp_path / "missing.paifu"), str(SETTLEMENT)], capsys)
    assert code == 2
    assert "missing.paifu:0:0: P110" in out and "S401" in out


def test_empty_file_is_invalid(capsys, tmp_path):
    f = tmp_path / "empty.paifu"
    f.write_text("")
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 1 and f"{f}:1:1: P106" in out


def test_empty_folder_is_a_usage_error(capsys, tmp_path):
    code, out, _ = run(["validate", str(tmp_path)], capsys)
    assert code == 2 and "P110" in out


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2


def test_json_report_matches_schema(capsys):
    code, out, _ = run(["validate", "--json", str(SETTLEMENT)], capsys)
    assert code == 1
    doc = json.loads(out)
    jsonschema.validate(doc, json.loads(REPORT.read_text(encoding="utf-8")))
    first = doc["records"][0]
    assert first["valid"] and first["hands"][0]["computed"] == {"A": 332, "B": -72, "C": -52, "D": -208}
    assert first["hands"][0]["written"] == {"A": 332, "B": -72, "C": -52, "D": -208}
    items = {(i["seat"], i["name"]): i["value"] for i in first["hands"][0]["items"]}
    assert items[("B", "twos held")] == 4 and items[("C", "no card played")] == 4
    assert doc["summary"] == {"records": 4, "valid": 3, "invalid": 1, "errors": 2, "notes": 0}


def test_convert_json_round_trip(capsys, tmp_path):
    code, out, _ = run(["convert", "--to", "json", str(SETTLEMENT)], capsys)
    assert code == 0
    docs = json.loads(out)  # one JSON array of the file's records (issue 18)
    assert len(docs) == 4
    schema = json.loads(RECORD.read_text(encoding="utf-8"))
    for doc in docs:
        jsonschema.validate(doc, schema)
    j = tmp_path / "s.json"
    j.write_text(out, encoding="utf-8")
    code, text, _ = run(["convert", "--to", "text", str(j)], capsys)
    assert code == 0
    f = tmp_path / "s.paifu"
    f.write_text(text, encoding="utf-8")
    code, again, _ = run(["convert", "--to", "json", str(f)], capsys)
    assert code == 0
    from paifu.notation.model import Record, content

    before = [content(Record.model_validate(d)) for d in docs]
    after = [content(r) for r in read_json_records(again, "x")[0]]
    assert before == after
    code, text2, _ = run(["convert", "--to", "text", str(f)], capsys)  # text -> text is refused: a JSON input is expected
    assert code == 1


def test_convert_bad_json_is_located(capsys, tmp_path):
    j = tmp_path / "bad.json"
    j.write_text('{"tags": [{"name": 3}]}')
    code, _, err = run(["convert", "--to", "text", str(j)], capsys)
    assert code == 1 and "P111" in err


def test_fmt_rewrites_keeping_comments_and_unknown_tags(capsys, tmp_path):
    f = tmp_path / "messy.paifu"
    f.write_text('[Game "bigtwo"]   [Table "7"]\nhand 1   dealer=A\nA:   10C {keep me}\n\n\n{and me}\nB: pass\n', encoding="utf-8")
    code, _, _ = run(["fmt", "--check", str(f)], capsys)
    assert code == 1
    code, _, _ = run(["fmt", str(f)], capsys)
    assert code == 0
    assert f.read_text(encoding="utf-8") == '[Game "bigtwo"]\n[Table "7"]\n\nhand 1 dealer=A\nA: TC {keep me} {and me}\nB: pass\n'
    code, _, _ = run(["fmt", "--check", str(f)], capsys)
    assert code == 0


def test_fmt_leaves_unparseable_file_untouched(capsys, tmp_path):
    f = tmp_path / "broken.paifu"
    text = '[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C {open\n'
    f.write_text(text, encoding="utf-8")
    code, _, err = run(["fmt", str(f)], capsys)
    assert code == 1 and "P102" in err
    assert f.read_text(encoding="utf-8") == text


def test_rules_lists_games_and_options(capsys):
    code, out, _ = run(["rules"], capsys)
    assert code == 0 and "bigtwo" in out and "piquet" in out
    code, out, _ = run(["rules", "bigtwo"], capsys)
    assert code == 0 and "straight_order" in out and "a2345_top" in out
    code, _, err = run(["rules", "go"], capsys)
    assert code == 2


@pytest.fixture
def sanma_cannot_import(monkeypatch):
    """A sanma engine that fails to import, as in a wheel that left its folder out."""
    from paifu.replay import games

    monkeypatch.setitem(games.GAME_MODULES, "sanma", "paifu.replay.mahjong.no_such_module")
    games.engine.cache_clear()
    yield
    games.engine.cache_clear()


@pytest.mark.parametrize("args", [["validate", str(ROOT / "examples" / "sanma-half-game.paifu")], ["rules"], ["rules", "sanma"],
                                  ["selfplay", "sanma"]])
def test_an_engine_that_fails_to_import_is_named_with_its_error_and_exit_2(sanma_cannot_import, args, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert ("the engine of 'sanma' (paifu.replay.mahjong.no_such_module) cannot be imported: ModuleNotFoundError: "
            "No module named 'paifu.replay.mahjong.no_such_module' (reinstall paifu)") in err
    assert "not yet" not in out + err and "R202" not in out + err


def test_an_engine_that_fails_to_import_stops_validate_jobs_2(sanma_cannot_import, capsys, tmp_path):
    import shutil

    for name in ("sanma-half-game.paifu", "bigtwo-club-night.paifu"):
        shutil.copy(ROOT / "examples" / name, tmp_path / name)
    code, _, err = run(["validate", "--jobs", "2", str(tmp_path)], capsys)
    assert code == 2 and "ModuleNotFoundError" in err


def test_rules_say_what_a_number_option_counts(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # one table row a line
    code, out, _ = run(["rules", "ninetynine"], capsys)
    row = next(line for line in out.splitlines() if "│ hands " in line)
    assert code == 0 and "N (a multiple of 9 (9, 18, 27...))" in row


def test_selfplay_is_reproducible_and_validates_through_a_pipe():
    exe = [sys.executable, "-m", "paifu"]
    one = subprocess.run(exe + ["selfplay", "bigtwo", "-n", "3", "--seed", "11"], capture_output=True, check=True, cwd=ROOT)
    two = subprocess.run(exe + ["selfplay", "bigtwo", "-n", "3", "--seed", "11"], capture_output=True, check=True, cwd=ROOT)
    assert one.stdout == two.stdout and b'[Seed "11"]' in one.stdout
    val = subprocess.run(exe + ["validate", "-"], input=one.stdout, capture_output=True, cwd=ROOT)
    assert val.returncode == 0, val.stdout.decode()
    assert b"3 record(s): 3 valid" in val.stdout


def test_validate_in_parallel_gives_the_same_reports(capsys, tmp_path):
    f = tmp_path / "many.paifu"
    f.write_text(SETTLEMENT.read_text(encoding="utf-8") * 1, encoding="utf-8")
    code1, out1, _ = run(["validate", "--jobs", "1", str(f)], capsys)
    code2, out2, _ = run(["validate", "--jobs", "2", str(f)], capsys)
    assert (code1, out1) == (code2, out2)


def test_validate_in_parallel_batches_keeps_every_report_in_order(capsys, tmp_path, monkeypatch):
    """Records of every game, valid and invalid, in several files and many batches (small
    batches forced): --jobs 2 prints what --jobs 1 prints, in the same order, with --json too."""
    monkeypatch.setattr("paifu.batch.FIRST_BATCH_CHARS", 512)
    monkeypatch.setattr("paifu.batch.BATCH_CHARS", 2048)
    records = sorted((ROOT / "tests/records").glob("*/*.paifu"))
    for k in range(3):
        text = "\n".join(p.read_text(encoding="utf-8") for p in records[k::3])
        (tmp_path / f"part{k}.paifu").write_text(text, encoding="utf-8")
    code1, out1, _ = run(["validate", "--jobs", "1", str(tmp_path)], capsys)
    code2, out2, _ = run(["validate", "--jobs", "2", str(tmp_path)], capsys)
    assert code1 == code2 == 1 and out1 == out2
    assert out1.count(": S401 ") > 5 and out1.splitlines()[-1].endswith("note(s)")
    json1 = run(["validate", "--json", "--jobs", "1", str(tmp_path)], capsys)[1]
    json2 = run(["validate", "--json", "--jobs", "2", str(tmp_path)], capsys)[1]
    assert json1 == json2 and json.loads(json1)["summary"]["records"] > 600


def test_fifty_megabyte_line_is_refused_quickly(capsys, tmp_path):
    f = tmp_path / "huge.paifu"
    with open(f, "wb") as handle:
        handle.write(b'[Game "bigtwo"]\nhand 1 dealer=A\nA: ')
        block = b"3C " * (1024 * 1024 // 3)
        for _ in range(50):
            handle.write(block)
    code, out, _ = run(["validate", "--jobs", "1", str(f)], capsys)
    assert code == 1 and f"{f}:1:1: P105" in out


def test_selfplay_stats_go_to_stderr(capsys):
    code, out, err = run(["selfplay", "bigtwo", "-n", "2", "--seed", "4", "--stats"], capsys)
    assert code == 0 and out.startswith('[Game "bigtwo"]')
    assert "bigtwo: 8 hands, 8 scored (100%), 0 invalid record(s)" in err
    assert "cards left" in err


def test_bundled_examples_are_valid_and_canonical(capsys):
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.paifu"))
    assert len(examples) >= 10
    code, out, _ = run(["validate", *examples], capsys)
    assert code == 0, out
    code, out, _ = run(["fmt", "--check", *examples], capsys)
    assert code == 0, out


# -- paifu view: a bad port, a port in use, a bad folder: one line, exit 2 (issue 28) -------
def _view(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paifu", "view", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "abc", "80.5", "٣"])
def test_view_with_a_bad_port_says_so_in_one_line(port: str) -> None:
    done = _view(str(ROOT / "examples"), "--port", port)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [f"paifu view: --port {port}: a port is a whole number from 0 to 65535 (0: any free port)"]


def test_view_on_a_port_in_use_or_a_bad_folder_says_so_in_one_line(tmp_path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = _view(str(ROOT / "examples"), "--port", str(port))
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"paifu view: port {port} is in use on 127.0.0.1 (another paifu view?): choose another with --port"]
    (tmp_path / "file").write_text("x", encoding="utf-8")
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "passwd.paifu").symlink_to("/etc/passwd")
    for args, said in (([str(tmp_path / "missing")], f"paifu view: {tmp_path / 'missing'}: no such file or directory"),
                       ([str(tmp_path)], f"paifu view: {tmp_path}: the folder holds no .paifu file that may be read "
                                         "(links/passwd.paifu: a symbolic link leading outside the folder (not read))"),
                       ([str(tmp_path / "file" / "..")], f"paifu view: {tmp_path / 'file' / '..'}: no such file or directory"),
                       (["--scribe", str(tmp_path / "file")], f"paifu view: {tmp_path / 'file'}: not a folder"),
                       (["--scribe", str(tmp_path / "file" / "sub")],
                        f"paifu view: {tmp_path / 'file' / 'sub'}: cannot create the folder: Not a directory")):
        done = _view(*args, "--port", "0")
        assert done.returncode == 2 and done.stderr.splitlines() == [said], args


# -- usage values: one-line usage errors, exit 2 (issue 29) --------------------------------
@pytest.mark.parametrize("args, message", [
    (["validate", "--jobs", "0", "x.paifu"], "paifu validate: error: argument --jobs: 0 is not allowed: give 1 or more"),
    (["validate", "--jobs", "-3", "x.paifu"], "paifu validate: error: argument --jobs: -3 is not allowed: give 1 or more"),
    (["index", "--jobs", "0", "x.paifu"], "paifu index: error: argument --jobs: 0 is not allowed: give 1 or more"),
    (["index", "--jobs", "two", "x.paifu"], "paifu index: error: argument --jobs: 'two' is not a whole number"),
    (["search", "--since", "2026-13-45"], "paifu search: error: argument --since: '2026-13-45' is not a date: month must be in 1..12"),
    (["search", "--until", "2026.02.30"], "paifu search: error: argument --until: '2026.02.30' is not a date: day is out of range"),
    (["search", "--since", "2026.00"], "paifu search: error: argument --since: '2026.00' is not a date: month must be in 1..12"),
    (["search", "--since", "last week"], "paifu search: error: argument --since: 'last week' is not a date: give a year, a month or a day"),
    (["search", "--limit", "0"], "paifu search: error: argument --limit: 0 is not allowed: give 1 or more"),
    (["validate"], "paifu validate: error: the following arguments are required: PATH"),
])
def test_bad_usage_values_are_one_line_usage_errors(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing is read or written if the check were missed
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    assert exc.value.code == 2
    assert out == "" and err.startswith(message) and err.count("\n") == 1, err
    assert err.rstrip().endswith(f"(see '{message.split(': error')[0]} --help')")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["2026", "2026.11", "2026-11-19", "2024.02.29", "2026/1/5"])
def test_dates_that_exist_are_taken(value, capsys, tmp_path):
    code, _, err = run(["search", "--db", str(tmp_path / "none.sqlite"), "--since", value, "--until", value], capsys)
    assert code == 2 and "no index at" in err  # past the usage check, to the missing index


def test_fmt_check_exits_as_its_help_says(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["fmt", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "exit 0 when none would, 1 when one would or has errors, 2 when one cannot be read" in shown
    good = (ROOT / "examples/bigtwo-club-night.paifu").read_text(encoding="utf-8")
    (tmp_path / "good.paifu").write_text(good)
    (tmp_path / "messy.paifu").write_text(good.replace("hand 1 dealer=A", "hand 1   dealer=A", 1))
    (tmp_path / "bad.paifu").write_text("hand 1 dealer=A\nA: frob\n[Game\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "gone.paifu").symlink_to(tmp_path / "nowhere")
    expect = {"good.paifu": 0, "messy.paifu": 1, "bad.paifu": 1, "empty": 2, "gone.paifu": 2, "missing.paifu": 2}
    for name, code in expect.items():
        assert run(["fmt", "--check", str(tmp_path / name)], capsys)[0] == code, name
    code, _, err = run(["fmt", "--check", str(tmp_path / "empty")], capsys)
    assert f"{tmp_path / 'empty'}:0:0: P110 the folder holds no .paifu file" in err
    code, _, err = run(["fmt", "--check", str(tmp_path)], capsys)  # the folder: messy, bad and the dangling link
    assert code == 2 and f"{tmp_path / 'gone.paifu'}:0:0: P110 skipped: a symbolic link to a missing file" in err
    assert (tmp_path / "messy.paifu").read_text() != good  # --check writes nothing
