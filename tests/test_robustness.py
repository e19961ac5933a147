"""Hostile input never crashes paifu, and what a user owns is not harmed.

Issue 18 (Robustness): each test here reproduces one item of the issue and failed before
its fix. docs/robustness.md lists the limits (nesting, number length) these tests pin.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import paifu.batch as batch
import paifu.cli.records as cli_records
import paifu.inputs as inputs
from paifu.notation import read_text, write_record
from paifu.notation.reader import MAX_NUMBER_DIGITS, MAX_VARIATION_DEPTH, read_chunk
from paifu.replay.validate import validate_read
from paifu.cli import main

ROOT = Path(__file__).parent.parent
PAIFU = [sys.executable, "-m", "paifu"]
CLUB_NIGHT = ROOT / "examples/bigtwo-club-night.paifu"

# a bigtwo hand opening, then D passes after C's full house: a variation of "D: pass"
# is "D: pass" again, so any depth of nesting is legal text and legal play
HEAD = (
    '[Game "bigtwo"]\n\nhand 1 dealer=A\n'
    "deal A: 4C 5H 6S 7C 8D JC JD JH QS KC KH AH AS\n"
    "deal B: 3S 4D 8H 9D 9S TD TS QD KS AC AD 2H 2S\n"
    "deal C: 3C 3D 3H 5C 5S 6D 7D 7S 8S 9H TH QC 2C\n"
    "deal D: 4H 4S 5D 6C 6H 7H 8C 9C TC JS QH KD 2D\n"
    "C: 3C 3D 3H 5C 5S\n"
)


def nested(depth: int) -> str:
    """A record whose line 9 is 'D: pass ( D: pass ( ... ) )' nested ``depth`` deep."""
    return HEAD + "D: pass " + "( D: pass " * depth + ")" * depth + "\n"


def run(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def cli(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(PAIFU + args, capture_output=True, text=True, cwd=ROOT, **kw)


# -- crashes: deep nesting -------------------------------------------------------------
# line 9 is "D: pass " (8 columns) then "( D: pass " (10 columns) per level: the
# variation one level too deep opens at column 8 + 10 * MAX_VARIATION_DEPTH + 1 = 1009
TOO_DEEP_AT = f"9:{8 + 10 * MAX_VARIATION_DEPTH + 1}: P112"


@pytest.mark.parametrize("depth", [MAX_VARIATION_DEPTH + 1, 600, 5000])
def test_deep_nesting_is_a_located_p112_in_validate(depth, capsys, tmp_path):
    f = tmp_path / "deep.paifu"
    f.write_text(nested(depth))
    code, out, _ = run(["validate", str(f), str(CLUB_NIGHT)], capsys)
    assert code == 1
    assert f"{f}:{TOO_DEEP_AT} variations nested more than {MAX_VARIATION_DEPTH} deep" in out
    assert "2 record(s): 1 valid, 1 invalid" in out


def test_deep_nesting_in_fmt_and_convert(capsys, tmp_path):
    f = tmp_path / "deep.paifu"
    f.write_text(nested(5000))
    code, _, err = run(["fmt", str(f)], capsys)
    assert code == 1 and TOO_DEEP_AT in err
    code, _, err = run(["convert", "--to", "json", str(f)], capsys)
    assert code == 1 and TOO_DEEP_AT in err


def test_nesting_at_the_limit_works_everywhere(capsys, tmp_path):
    """100 levels: validated, formatted, converted both ways and shown by the viewer."""
    f = tmp_path / "deep.paifu"
    f.write_text(nested(MAX_VARIATION_DEPTH))
    code, out, _ = run(["validate", str(f)], capsys)
    assert "P112" not in out and "X901" not in out
    code, _, err = run(["fmt", str(f)], capsys)
    assert code == 0, err
    code, out, _ = run(["fmt", "--check", str(f)], capsys)
    assert code == 0  # canonical now
    code, js, err = run(["convert", "--to", "json", str(f)], capsys)
    assert code == 0, err
    j = tmp_path / "deep.json"
    j.write_text(js)
    code, text, err = run(["convert", "--to", "text", str(j)], capsys)
    assert code == 0, err
    assert text == f.read_text()
    from paifu.viewer import create_app

    client = create_app(tmp_path).test_client()
    assert client.get("/").status_code == 200
    assert client.get("/api/record/deep.paifu?n=1").status_code == 200


def _deep_json(depth: int) -> str:
    inner = '{"seat": "D", "verb": "pass"}'
    for _ in range(depth):
        inner = '{"seat": "D", "verb": "pass", "variations": [{"events": [%s]}]}' % inner
    return '{"tags": [{"name": "Game", "value": "bigtwo"}], "hands": [{"args": [], "events": [%s]}]}' % inner


@pytest.mark.parametrize("depth", [MAX_VARIATION_DEPTH + 20, 5000])
def test_deep_json_is_a_located_p112(depth, capsys, tmp_path):
    j = tmp_path / "deep.json"
    j.write_text(_deep_json(depth))
    code, _, err = run(["convert", "--to", "text", str(j)], capsys)
    assert code == 1
    assert f"{j}:1:1: P112" in err


# -- crashes: huge numbers ---------------------------------------------------------------
def test_huge_number_in_a_score_line_is_located(capsys, tmp_path):
    text = CLUB_NIGHT.read_text(encoding="utf-8")
    assert text.splitlines()[77].startswith("score A -1 ")  # line 78
    f = tmp_path / "huge.paifu"
    f.write_text(text.replace("score A -1", "score A " + "9" * 5000, 1))
    code, out, _ = run(["validate", str(f), str(CLUB_NIGHT)], capsys)
    assert code == 1
    assert f"{f}:78:9: P113 a number of 5000 digits: paifu reads numbers of at most {MAX_NUMBER_DIGITS} digits" in out
    assert "2 record(s): 1 valid, 1 invalid" in out


def test_number_at_the_digit_limit_is_read():
    results = list(read_text('[Game "bigtwo"]\n\nhand 1 dealer=A\nscore A ' + "1" * MAX_NUMBER_DIGITS + "\n"))
    assert not any(d.code == "P113" for d in results[0].diagnostics)


# -- crashes: one bad record or file never stops the run -------------------------------
def _explode_on_boom(monkeypatch):
    """Make the validator fail, as a bug would, on a record tagged [Event "boom"]."""
    import importlib

    validator = importlib.import_module("paifu.replay.validate")  # the module (``paifu.replay.validate`` is also the function)
    real = validator.validate

    def buggy(record, path="", index=1):
        if record.tag("Event") == "boom":
            raise ZeroDivisionError("division by zero")
        return real(record, path, index)

    monkeypatch.setattr(validator, "validate", buggy)  # what validate_read replays with
    monkeypatch.setattr(batch, "validate", buggy)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_internal_error_in_one_record_is_x901_and_the_run_goes_on(jobs, capsys, monkeypatch, tmp_path):
    _explode_on_boom(monkeypatch)
    two = tmp_path / "two.paifu"
    good = CLUB_NIGHT.read_text(encoding="utf-8")
    two.write_text(good.replace("[Game", '[Event "boom"]\n[Game', 1) + "\n" + good)
    code, out, _ = run(["validate", "--jobs", jobs, str(two), str(CLUB_NIGHT)], capsys)
    assert code == 1
    assert (f"{two}:1:1: X901 internal error while checking this record (ZeroDivisionError: division by zero); "
            "this is a bug in paifu: please report it with this record") in out
    assert "3 record(s): 2 valid, 1 invalid" in out


def test_internal_error_while_cutting_a_file_is_x901_and_the_next_file_is_read(capsys, monkeypatch, tmp_path):
    real = inputs.split_records

    def buggy(stream):
        if "bad" in getattr(stream, "name", ""):
            raise MemoryError("out of memory")
        return real(stream)

    monkeypatch.setattr(inputs, "split_records", buggy)
    bad = tmp_path / "bad.paifu"
    bad.write_text(nested(1))
    code, out, _ = run(["validate", str(bad), str(CLUB_NIGHT)], capsys)
    assert f"{bad}:0:0: X901 internal error while reading this file (MemoryError: out of memory)" in out
    assert "2 record(s): 1 valid, 1 invalid" in out


def test_fmt_a_b_c_reaches_c(capsys, tmp_path):
    a, b, c = (tmp_path / n for n in ("a.paifu", "b.paifu", "c.paifu"))
    a.write_text(nested(1))
    b.write_text(nested(5000))
    c.write_text(nested(1).replace("D: pass", "D:   pass"))
    code, out, err = run(["fmt", str(a), str(b), str(c)], capsys)
    assert code == 1
    assert f"{c}: reformatted" in out and "D: pass" in c.read_text()
    assert TOO_DEEP_AT in err


def test_fmt_internal_error_in_one_file_is_x901_and_the_next_is_formatted(capsys, monkeypatch, tmp_path):
    real = cli_records._formatted

    def buggy(data, path):
        if path.endswith("b.paifu"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(data, path)

    monkeypatch.setattr(cli_records, "_formatted", buggy)
    b, c = tmp_path / "b.paifu", tmp_path / "c.paifu"
    b.write_text(nested(1))
    c.write_text(nested(1).replace("D: pass", "D:   pass"))
    code, out, err = run(["fmt", str(b), str(c)], capsys)
    assert code == 2
    assert f"{b}:0:0: X901 internal error while formatting this file (RecursionError" in err
    assert f"{c}: reformatted" in out


# -- crashes: the viewer's index ---------------------------------------------------------
def test_viewer_index_survives_a_deep_file(tmp_path):
    from paifu.viewer import create_app

    (tmp_path / "deep.paifu").write_text(nested(5000))
    (tmp_path / "good.paifu").write_text(nested(1))
    client = create_app(tmp_path).test_client()
    for _ in range(2):  # and again: the index is not broken from then on
        page = client.get("/")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert "P112" in html and "good.paifu" in html


def test_viewer_index_lists_an_internal_error_as_x901(tmp_path, monkeypatch):
    from paifu.viewer import create_app, library

    real = library.read_path

    def buggy(path):
        if Path(path).name == "bad.paifu":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path)

    monkeypatch.setattr(library, "read_path", buggy)
    (tmp_path / "bad.paifu").write_text(nested(1))
    (tmp_path / "good.paifu").write_text(nested(1))
    client = create_app(tmp_path).test_client()
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "X901" in html and "good.paifu" in html


# -- crashes: closed standard input, full standard output -------------------------------
def test_validate_with_stdin_closed_is_a_message_and_exit_2():
    proc = subprocess.run(["bash", "-c", f"'{sys.executable}' -m paifu validate - <&-"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "<stdin>:0:0: P110 standard input is closed" in proc.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_selfplay_to_a_full_device_is_a_message_and_exit_2():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(PAIFU + ["selfplay", "bigtwo", "-n", "20", "--seed", "1"], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "paifu selfplay: No space left on device"


# -- silent or misleading ---------------------------------------------------------------
GOOD = CLUB_NIGHT.read_text(encoding="utf-8")


@pytest.mark.parametrize("tag, value, first", [("Game", "piquet", "bigtwo"),
                                               ("Players", "A: W; B: X; C: Y; D: Z", "A: Mei; B: Ka-ho; C: Siu-wai; D: Tony")])
def test_a_second_game_or_players_tag_is_an_error(tag, value, first, capsys, tmp_path):
    f = tmp_path / "twice.paifu"
    lines = GOOD.splitlines(keepends=True)
    f.write_text("".join(lines[:6]) + f'[{tag} "{value}"]\n' + "".join(lines[6:]))  # becomes line 7
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 1
    first_line = 1 if tag == "Game" else 5
    assert f'{f}:7:1: R211 a second {tag} tag: the record already gives {tag} "{first}" on line {first_line}; give it once' in out


def test_no_seat_to_act_is_said_in_words_not_none(capsys, tmp_path):
    f = tmp_path / "undealt.paifu"
    f.write_text('[Game "bigtwo"]\n\nhand 1 dealer=A\n')
    code, out, _ = run(["validate", str(f)], capsys)
    assert f"{f}:3:1: L307 hand 1 ends here but the hand is not over (no seat is to act yet: a line the hand needs is missing)" in out
    assert "None" not in out


def _all_test_records() -> list[Path]:
    return sorted((ROOT / "tests/records").rglob("*.paifu")) + sorted((ROOT / "examples").glob("*.paifu"))


def test_no_python_none_in_any_message_of_the_test_records(capsys):
    """Every message of every record test and example, and of each truncated at every hand."""
    from paifu.replay.validate import validate

    leaks = []
    for path in _all_test_records():
        for result in read_text(path.read_text(encoding="utf-8"), str(path)):
            msgs = [d.format() for d in result.diagnostics]
            if result.record is not None:
                msgs += [d.format() for d in validate(result.record, str(path)).diagnostics]
                for hand in result.record.hands:  # each hand cut short: what waits is named
                    del hand.events[len(hand.events) // 2:]
                msgs += [d.format() for d in validate(result.record, str(path)).diagnostics]
            leaks += [m for m in msgs if re.search(r"\bNone\b", m)]
    assert not leaks, leaks[:5]


def test_lower_case_seat_gets_the_capital_letter_hint(capsys, tmp_path):
    f = tmp_path / "b.paifu"
    f.write_text('[Game "bigtwo"]\n\nhand 1 dealer=A\nb: pass\n')
    code, out, _ = run(["validate", str(f)], capsys)
    assert f"{f}:4:1: P108 'b:' cannot start an event: seats are capital letters, as in 'B: pass'" in out


@pytest.mark.parametrize("encoding, name", [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"),
                                            ("utf-32", "UTF-32"), ("utf-32-le", "UTF-32")])
def test_utf16_is_named_as_such(encoding, name, capsys, tmp_path):
    f = tmp_path / "wide.paifu"
    f.write_bytes(GOOD.encode(encoding))
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 1
    assert f"{f}:1:1: P103 the file is {name} text: save it as UTF-8" in out


def _as_other_user(args: list[str]) -> list[str]:
    """Run as user nobody when we are root (root reads every folder), else as we are."""
    if os.geteuid() != 0:
        return args
    import shutil

    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: cannot drop privileges")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *args]


@pytest.fixture
def open_tmp():
    """A temporary folder that another user can reach (pytest's tmp_path is private to us)."""
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="paifu-robust-"))
    os.chmod(path, 0o755)
    yield path
    for sub in path.rglob("*"):
        if sub.is_dir() and not sub.is_symlink():
            os.chmod(sub, 0o755)
    shutil.rmtree(path)


def test_permission_denied_folder_is_named(open_tmp):
    top = open_tmp / "top"
    (top / "locked").mkdir(parents=True)
    (top / "locked" / "a.paifu").write_text(GOOD)
    (top / "open.paifu").write_text(GOOD)
    os.chmod(top / "locked", 0)
    try:
        proc = subprocess.run(_as_other_user(PAIFU + ["validate", str(top)]), capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 2, proc.stderr
        assert f"{top / 'locked'}:0:0: P110 cannot read this folder: Permission denied" in proc.stdout
        assert "1 record(s): 1 valid" in proc.stdout
        os.chmod(top, 0)
        proc = subprocess.run(_as_other_user(PAIFU + ["validate", str(top)]), capture_output=True, text=True, cwd=ROOT)
        assert f"{top}:0:0: P110 cannot read" in proc.stdout and "holds no .paifu" not in proc.stdout
    finally:
        os.chmod(top, 0o755)
        os.chmod(top / "locked", 0o755)


def test_permission_denied_folder_is_named_in_process(tmp_path, capsys, monkeypatch):
    """The same, whoever runs the tests: listing the folder fails as it would without permission."""
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.paifu").write_text(GOOD)
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, _ = run(["validate", str(tmp_path)], capsys)
    assert code == 2
    assert f"{tmp_path / 'locked'}:0:0: P110 cannot read this folder: Permission denied" in out
    assert "holds no .paifu" not in out


def test_symlink_loop_and_dangling_link_are_named(capsys, tmp_path):
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone.paifu")
    code, out, _ = run(["validate", str(tmp_path / "loop1"), str(tmp_path / "dangling"), str(tmp_path / "nothere")], capsys)
    assert code == 2
    assert f"{tmp_path / 'loop1'}:0:0: P110 cannot read: a loop of symbolic links" in out
    assert f"{tmp_path / 'dangling'}:0:0: P110 no such file or directory (a symbolic link to a missing file)" in out
    assert f"{tmp_path / 'nothere'}:0:0: P110 no such file or directory" in out


@pytest.mark.parametrize("args", [["--hands", "0"], ["--hands", "-2"], ["-n", "-1"], ["-n", "0"]])
def test_selfplay_counts_below_one_are_usage_errors(args, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["selfplay", "bigtwo", "--seed", "1", *args])
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "is not allowed: give 1 or more" in err


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == "paifu 0.1.0"


SETTLEMENT = ROOT / "tests/records/bigtwo/settlement.paifu"  # four records


def test_convert_several_records_is_one_json_array_and_jsonl(capsys, tmp_path):
    from paifu.notation.model import content

    originals = [content(r.record) for r in read_text(SETTLEMENT.read_text(encoding="utf-8"))] + \
                [content(r.record) for r in read_text(GOOD)]
    code, out, _ = run(["convert", "--to", "json", str(SETTLEMENT), str(CLUB_NIGHT)], capsys)  # several paths
    assert code == 0
    docs = json.loads(out)
    assert isinstance(docs, list) and len(docs) == 5
    code, out_l, _ = run(["convert", "--to", "json", "--jsonl", str(SETTLEMENT), str(CLUB_NIGHT)], capsys)
    assert code == 0
    lines = out_l.splitlines()
    assert len(lines) == 5 and all(isinstance(json.loads(line), dict) for line in lines)
    for name, text in (("a.json", out), ("l.jsonl", out_l)):
        (tmp_path / name).write_text(text)
        code, back, err = run(["convert", "--to", "text", str(tmp_path / name)], capsys)
        assert code == 0, err
        assert [content(r.record) for r in read_text(back)] == originals


def test_convert_to_text_names_every_bad_element(capsys, tmp_path):
    j = tmp_path / "two.json"
    j.write_text("[1,\n 2]")
    code, _, err = run(["convert", "--to", "text", str(j)], capsys)
    assert code == 1
    assert f"{j}:1:2: P111 element 1 of the array does not match the record schema" in err
    assert f"{j}:2:2: P111 element 2 of the array does not match the record schema" in err


# -- files a user owns -------------------------------------------------------------------
MESSY = GOOD.replace("hand 1 dealer=A", "hand 1    dealer=A", 1)  # fmt puts one space back
assert MESSY != GOOD


def test_fmt_keeps_the_mode(capsys, tmp_path):
    f = tmp_path / "m.paifu"
    f.write_text(MESSY)
    os.chmod(f, 0o664)
    code, out, _ = run(["fmt", str(f)], capsys)
    assert code == 0 and f.read_text() == GOOD
    assert oct(f.stat().st_mode & 0o777) == oct(0o664)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_fmt_keeps_the_owner(capsys, tmp_path):
    f = tmp_path / "o.paifu"
    f.write_text(MESSY)
    os.chown(f, 65534, 65534)
    code, _, _ = run(["fmt", str(f)], capsys)
    assert code == 0 and f.read_text() == GOOD
    assert (f.stat().st_uid, f.stat().st_gid) == (65534, 65534)


def test_fmt_formats_a_link_target_and_keeps_the_link(capsys, tmp_path):
    real = tmp_path / "real.paifu"
    real.write_text(MESSY)
    link = tmp_path / "link.paifu"
    link.symlink_to(real)
    code, out, _ = run(["fmt", str(link)], capsys)
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == GOOD


def test_fmt_replaces_a_hard_linked_file_all_at_once_and_its_other_names_keep_the_old_text(capsys, tmp_path):
    """Issue 29: a hard-linked file was rewritten in place (r+b, write, truncate: a crash left
    a mixture). Now it is replaced like any file; no write can change two names at once."""
    a, b = tmp_path / "a.paifu", tmp_path / "b.paifu"
    a.write_text(MESSY)
    os.link(a, b)
    inode = a.stat().st_ino
    code, out, _ = run(["fmt", str(a)], capsys)
    assert code == 0
    assert f"{a}: reformatted (a new file: its 1 other hard link(s) keep the old text)" in out
    assert a.read_text() == GOOD and a.stat().st_ino != inode and a.stat().st_nlink == 1
    assert b.read_text() == MESSY and b.stat().st_ino == inode and b.stat().st_nlink == 1


@pytest.mark.parametrize("linked", [False, True])
def test_fmt_writes_all_or_nothing_a_failed_rename_leaves_the_old_text(linked, capsys, monkeypatch, tmp_path):
    """The new text is written whole to a file beside the old one and flushed to disk before
    the rename; when the rename fails, the file and its links hold the old text, and no
    temporary file is left."""
    import errno

    a = tmp_path / "a.paifu"
    a.write_text(MESSY)
    if linked:
        os.link(a, tmp_path / "b.paifu")
    events: list[str] = []
    real_fsync = os.fsync

    def fsync(fd):
        events.append("fsync")
        return real_fsync(fd)

    def replace(src, dst):
        events.append("replace")
        assert Path(src).read_text() == GOOD and Path(dst).read_text() == MESSY  # the new text whole, the old untouched
        raise OSError(errno.EIO, "Input/output error", str(dst))

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    code, _, err = run(["fmt", str(a)], capsys)
    assert code == 2 and f"{a}: not formatted: cannot write: Input/output error" in err
    assert events == ["fsync", "replace"]
    assert sorted(p.name for p in tmp_path.iterdir()) == (["a.paifu", "b.paifu"] if linked else ["a.paifu"])
    assert all(p.read_text() == MESSY for p in tmp_path.iterdir())


def test_fmt_flushes_the_folder_after_the_rename(capsys, monkeypatch, tmp_path):
    a = tmp_path / "a.paifu"
    a.write_text(MESSY)
    synced: list[bool] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.path.isdir(f"/proc/self/fd/{fd}")), real_fsync(fd))[1])
    assert run(["fmt", str(a)], capsys)[0] == 0
    assert a.read_text() == GOOD
    if os.path.isdir("/proc/self/fd"):
        assert synced == [False, True]  # the new file, then its folder


def test_fmt_refuses_a_file_changed_since_it_was_read(capsys, monkeypatch, tmp_path):
    f = tmp_path / "busy.paifu"
    f.write_text(MESSY)
    real = cli_records._formatted

    def editor_saves_meanwhile(data, path):
        text = real(data, path)
        f.write_text(MESSY + "\n{the user's edit}\n")
        return text

    monkeypatch.setattr(cli_records, "_formatted", editor_saves_meanwhile)
    code, out, err = run(["fmt", str(f)], capsys)
    assert code == 2
    assert f"{f}: not formatted: the file changed since it was read (run paifu fmt again)" in err
    assert f.read_text().endswith("{the user's edit}\n")


def test_fmt_in_an_unwritable_folder(open_tmp):
    folder = open_tmp / "ro"
    folder.mkdir()
    theirs, mine = folder / "theirs.paifu", folder / "mine.paifu"
    theirs.write_text(MESSY)
    mine.write_text(MESSY)
    os.chmod(theirs, 0o644)
    os.chmod(mine, 0o666)
    if os.geteuid() == 0:
        os.chown(mine, 65534, 65534)
    os.chmod(folder, 0o555)
    proc = subprocess.run(_as_other_user(PAIFU + ["fmt", str(theirs), str(mine)]), capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"{theirs}: not formatted: cannot write: Permission denied" in proc.stderr
    assert theirs.read_text() == MESSY
    # a file the user may write is rewritten in place, though the folder is not writable
    assert f"{mine}: reformatted" in proc.stdout and mine.read_text() == GOOD


def test_fmt_stdin_to_stdout():
    proc = subprocess.run(PAIFU + ["fmt", "-"], input=MESSY, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout == GOOD
    proc = subprocess.run(PAIFU + ["fmt", "--check", "-"], input=MESSY, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1 and proc.stdout == ""
    proc = subprocess.run(PAIFU + ["fmt", "--check", "-"], input=GOOD, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0


def test_fmt_check_tells_would_reformat_from_cannot_read(capsys, tmp_path):
    messy, good = tmp_path / "messy.paifu", tmp_path / "good.paifu"
    messy.write_text(MESSY)
    good.write_text(GOOD)
    assert run(["fmt", "--check", str(good)], capsys)[0] == 0
    assert run(["fmt", "--check", str(messy)], capsys)[0] == 1
    code, _, err = run(["fmt", "--check", str(tmp_path / "missing.paifu")], capsys)
    assert code == 2 and "P110 no such file or directory" in err
    code, _, _ = run(["fmt", "--check", str(messy), str(tmp_path / "missing.paifu")], capsys)
    assert code == 2
    assert messy.read_text() == MESSY


# -- users never see seed file names ------------------------------------------------------
SEED_FILE_NAME = re.compile(r"\b\d{3}_(?:[0-9a-f]{16}|…)\.txt|\b\d{3}_…")


def test_rules_listing_cites_no_seed_file(capsys):
    from paifu.replay import games

    shown = [run(["rules"], capsys)[1]]
    for gid in games.game_ids():
        code, out, _ = run(["rules", gid], capsys)
        assert code == 0
        shown.append(out)
        eng = games.engine(gid)
        shown += [eng.source, eng.title] + [f"{o.help} {o.source}" for o in eng.options]
    leaks = [s for s in shown if SEED_FILE_NAME.search(s)]
    assert not leaks, leaks[:3]


def test_messages_of_the_test_records_cite_no_seed_file():
    """Every message (and its rule citation) from every record test and example, whole and cut short."""
    from paifu.replay.validate import validate

    leaks = []
    for path in _all_test_records():
        for result in read_text(path.read_text(encoding="utf-8"), str(path)):
            msgs = [d.format() for d in result.diagnostics]
            if result.record is not None:
                rep = validate(result.record, str(path))
                msgs += [d.format() for d in rep.diagnostics]
                msgs += [f"{i.name} {i.term} {i.detail}" for h in rep.hands for i in h.items]
                for hand in result.record.hands:
                    del hand.events[len(hand.events) // 2:]
                msgs += [d.format() for d in validate(result.record, str(path)).diagnostics]
            leaks += [m for m in msgs if SEED_FILE_NAME.search(m)]
    assert not leaks, leaks[:5]


def test_user_docs_cite_no_seed_file():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    leaks = [f"{p.name}:{n}" for p in docs for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if SEED_FILE_NAME.search(line)]
    assert not leaks, leaks


# -- found by the fuzzer (tests/test_fuzz.py) ------------------------------------------------
def test_empty_variation_without_an_event_is_located(capsys, tmp_path):
    f = tmp_path / "v.paifu"
    f.write_text('[Game "bigtwo"] ( )\n\nhand 1 dealer=A\n( B: pass )\n')
    code, out, _ = run(["validate", str(f)], capsys)
    assert f"{f}:1:17: P101 a variation '(' must follow the event it is an alternative to" in out
    assert f"{f}:4:1: P101 a variation '(' must follow the event it is an alternative to" in out


def test_canonical_text_of_a_file_with_cr_cr_lf_line_ends_is_a_fixed_point(capsys, tmp_path):
    f = tmp_path / "cr.paifu"
    f.write_bytes(nested(1).replace("\nC: 3C 3D 3H 5C 5S", "\nC: 3C 3D 3H 5C 5S {two\nlines}", 1).replace("\n", "\r\r\n").encode())
    assert run(["fmt", str(f)], capsys)[0] == 0
    assert b"\r" not in f.read_bytes()
    assert run(["fmt", "--check", str(f)], capsys)[0] == 0


def test_an_engine_error_is_x901_with_the_pointer_to_report_it(capsys, tmp_path, monkeypatch):
    from paifu.replay import games

    engine = games.engine("bigtwo")

    def broken(state, action):
        raise KeyError("oops")

    monkeypatch.setattr(engine, "apply", broken)
    f = tmp_path / "e.paifu"
    f.write_text(nested(0))
    code, out, _ = run(["validate", str(f)], capsys)
    assert (f"{f}:8:1: X901 internal error while checking this record (KeyError: 'oops'); "
            "this is a bug in paifu: please report it with this record") in out


# -- JSON size ---------------------------------------------------------------------------------
def test_json_is_compact_and_loss_free(capsys, tmp_path):
    """Compact by default (no positions, no fields at their defaults): at most 5x the text."""
    from paifu.notation.model import content

    files = sorted((ROOT / "examples").glob("*.paifu"))
    text_bytes = sum(len(f.read_bytes()) for f in files)
    code, out, _ = run(["convert", "--to", "json", *map(str, files)], capsys)
    assert code == 0
    assert len(out.encode("utf-8")) <= 5 * text_bytes, (len(out.encode("utf-8")), text_bytes)
    assert '"at"' not in out and "\n  " not in out
    originals = [content(r.record) for f in files for r in read_text(f.read_text(encoding="utf-8"))]
    (tmp_path / "all.json").write_text(out)
    code, back, _ = run(["convert", "--to", "text", str(tmp_path / "all.json")], capsys)
    assert code == 0 and [content(r.record) for r in read_text(back)] == originals


def test_json_indent_and_positions_on_request(capsys, tmp_path):
    code, out, _ = run(["convert", "--to", "json", "--indent", "2", "--positions", str(CLUB_NIGHT)], capsys)
    assert code == 0
    docs = json.loads(out)
    assert docs[0]["tags"][1] == {"at": [2, 1], "name": "Event", "value": "Thursday club night"}
    assert '\n  "' in out or "\n    " in out
    (tmp_path / "p.json").write_text(out)
    code, back, _ = run(["convert", "--to", "text", str(tmp_path / "p.json")], capsys)
    assert code == 0 and back == GOOD


# -- a record of many hands is replayed one hand at a time ------------------------------------
def _both_ways(text: str):
    """The report of each record of ``text`` read whole and read hand by hand (None: not possible)."""
    from paifu.notation.reader import split_records

    out = []
    for i, chunk in enumerate(split_records(io.BytesIO(text.encode("utf-8"))), 1):
        whole = validate_read(read_chunk(chunk, "r.paifu"), i)
        by_hand = batch.report_by_hand(chunk, "r.paifu", i)
        out.append((whole, by_hand))
    return out


def _same(whole, by_hand) -> None:
    assert [d.format() for d in by_hand.diagnostics] == [d.format() for d in whole.diagnostics]
    assert by_hand.model_dump() == whole.model_dump()


def test_by_hand_reading_reports_what_whole_reading_does():
    """Every record test and example, whole and with its hands cut short: the same report."""
    compared = 0
    for path in _all_test_records():
        text = path.read_text(encoding="utf-8")
        for variant in (text, re.sub(r"\n(hand \d+)", r"\n{a comment with ( and hand}\n\1", text),
                        text.replace("\nscore ", "\n( hand 9 )\nscore ", 1)):
            for whole, by_hand in _both_ways(variant):
                if by_hand is not None:
                    _same(whole, by_hand)
                    compared += 1
    assert compared > 100


def test_a_record_of_many_hands_holds_one_hand_at_a_time():
    """Read hand by hand, memory grows with the hands only by the report's lines (a few KB a
    hand); read whole, the record's model grows too. 40 and 160 hands of bigtwo, both ways."""
    import tracemalloc

    from paifu.notation.reader import split_records
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    def peak(text: str, by_hand: bool) -> int:
        chunk = next(split_records(io.BytesIO(text.encode("utf-8"))))
        tracemalloc.start()
        if by_hand:
            rep = batch.report_by_hand(chunk, "big.paifu", 1)
        else:
            rep = validate_read(read_chunk(chunk, "big.paifu"), 1)
        top = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert rep is not None and rep.valid
        return top

    texts = [write_record(selfplay_record(games.engine("bigtwo"), 7, hands)) for hands in (40, 160)]
    peak(texts[1], False)  # the reader's bounded caches (numbers, cards) filled first: they are not the hands
    growth_by_hand = (peak(texts[1], True) - peak(texts[0], True)) / 120
    growth_whole = (peak(texts[1], False) - peak(texts[0], False)) / 120
    assert growth_by_hand < growth_whole / 3, (growth_by_hand, growth_whole)
    assert growth_by_hand < 12_000, growth_by_hand  # bytes a hand: the report's HandReport


def test_a_large_record_is_validated_hand_by_hand_in_the_cli(capsys, tmp_path, monkeypatch):
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    calls = []
    real = batch.report_by_hand
    monkeypatch.setattr(batch, "report_by_hand", lambda *a: calls.append(a) or real(*a))
    f = tmp_path / "big.paifu"
    f.write_text(write_record(selfplay_record(games.engine("bigtwo"), 7, 600)))
    assert f.stat().st_size > batch.BY_HAND_CHARS
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 0 and "1 record(s): 1 valid" in out and len(calls) == 1


def test_a_long_tag_value_is_read_in_memory_of_its_own_size():
    # The long fuzz run's RSS grew to 1.5 GB on records with 1 MB tags: the grammar's STRING
    # repeated a group once a character, and Python's re kept a backtracking record for each
    # (about 150 bytes a character: 190 MB traced for a 1 MB tag). Unrolled, it is read in
    # a few times its size.
    import tracemalloc

    from paifu.notation.reader import read_chunk, split_records

    value = "é{(" * 400_000  # 1.2 M characters, 2 MB of UTF-8
    data = f'[Game "bigtwo"]\n[Event "{value}"]\n\nhand 1 dealer=A\n'.encode("utf-8")
    chunk = next(split_records(io.BytesIO(data)))
    tracemalloc.start()
    result = read_chunk(chunk, "tag.paifu")
    top = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.ok and result.record.tag("Event") == value
    assert top < 12 * len(data), top  # it was 150 bytes a character


def _message_strings(root: Path) -> list[tuple[str, int, str]]:
    """Every string constant (f-string parts included) of the modules under root but docstrings."""
    import ast

    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # a string standing alone as a statement is a docstring (of a module, class, function
        # or attribute): documentation, never shown to a user
        docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                out.append((str(path.relative_to(root.parent)), node.lineno, node.value))
    return out


def test_no_message_cites_the_rulings_file_that_is_not_in_the_repository():
    # Issue 18, §Silent or misleading: messages cite the rule text by its own title and
    # section heading, or docs/rulings.md's section; RULINGS.md is not in the repository.
    root = Path(__file__).parent.parent
    strings = [s for d in ("replay", "notation", "viewer") for s in _message_strings(root / d)]
    assert strings and not [s for s in strings if "RULINGS" in s[2]], [s for s in strings if "RULINGS" in s[2]]
    headings = [line[3:] for line in (root / "docs/rulings.md").read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    cited = {m for _, _, s in strings for m in re.findall(r"docs/rulings\.md §([a-z][a-z -]*[a-z])", s)}
    assert cited and all(any(h.startswith(c) for h in headings) for c in cited), (cited, headings)


# "seed" where it is not a rule text: the random seed of selfplay and the scribe (`--seed N`,
# the Seed tag, "seed 19"), code spans (`straight_order=seed`, `INIT seed=`), and the option
# values literally named seed (`flush=seed|top_card`, a description's "seed: ..." label)
_SEED_ALLOWED = re.compile(
    r"`[^`\n]*`|--seed(?: [A-Z]+)?\b|\[Seed\b|\bSeed tags?\b|\brandom seeds?\b|\bseeds? \d+"
    r"|\b\w+=seed\b|\bseed(?=\|)|(?<=\|)seed\b|(?:^|; )seed:|^[Ss]eed$")
_SEED_FOR_RULE_TEXT = re.compile(r"(?i:\bseeds?\b|\bseed's\b)|\bRULINGS\b|\b\d{3}_[0-9a-f]{16}\b")


def _says_seed_for_a_rule_text(text: str) -> list[str]:
    """The places in ``text`` that call a rule text a seed, name RULINGS.md or cite a rule
    text by its file name (each with some context)."""
    found = []
    for line in text.splitlines():
        bare = _SEED_ALLOWED.sub(" ", line)
        found += [bare[max(0, m.start() - 40):m.end() + 40] for m in _SEED_FOR_RULE_TEXT.finditer(bare)]
    return found


def _user_facing_texts() -> list[tuple[str, str]]:
    """(where, text) for what a user reads: README, docs, examples, every --help, the strings
    of the code (messages, option descriptions, table titles), the viewer's templates and
    scripts (visible text and string literals) and the schemas' descriptions."""
    from paifu.cli import build_parser

    texts = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
             for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "examples").glob("*.paifu"))]]
    parser = build_parser()
    texts.append(("paifu --help", " ".join(parser.format_help().split())))  # on one line: as wrapped
    for action in parser._subparsers._group_actions:
        texts += [(f"paifu {name} --help", " ".join(sub.format_help().split())) for name, sub in action.choices.items()]
    texts += [(f"{where}:{line}", s) for d in ("replay", "notation", "viewer", "paifu")
              for where, line, s in _message_strings(ROOT / d)]
    for page in sorted((ROOT / "viewer/templates").glob("*.html")):
        texts.append((str(page.relative_to(ROOT)), re.sub(r"<[^>]*>|\{[{%#].*?[}%#]\}", " ", page.read_text(encoding="utf-8"))))
    for script in sorted((ROOT / "viewer/static").glob("*.js")):
        literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'', script.read_text(encoding="utf-8"))
        texts += [(str(script.relative_to(ROOT)), a or b) for a, b in literals]
    for schema in sorted((ROOT / "schemas").glob("*.json")):
        descriptions = re.findall(r'"description": "((?:[^"\\]|\\.)*)"', schema.read_text(encoding="utf-8"))
        texts += [(str(schema.relative_to(ROOT)), d) for d in descriptions]
    return texts


def test_user_facing_text_names_the_rule_texts_by_title_and_docs_rulings_not_seeds_or_rulings_md():
    # Issue 27, docs a user can follow: the rule texts are "the rule text" with their titles
    # (never "the seed", never a file name such as 002_34d3528b09b88dd0.txt), the defaults
    # are docs/rulings.md's (RULINGS.md is not in the repository), and the README cites no
    # issue numbers. Before, README, docs, examples, help and messages said "seed" for them.
    texts = _user_facing_texts()
    assert len(texts) > 100 and any(w == "paifu selfplay --help" for w, _ in texts)
    offending = [(where, hit) for where, text in texts for hit in _says_seed_for_a_rule_text(text)]
    assert not offending, offending
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.findall(r"(?i)\bissues? #?\d+|(?<![\w&])#\d+\b", readme)


def test_the_seed_check_tells_a_random_seed_and_an_option_value_from_a_rule_text():
    # the check above, on its own: what it must flag and what it must let pass
    for bad in ("the seed's five steps", "(the seed is silent)", "seed term", "RULINGS.md §sanma",
                "Seeds are named by file", "rule 3 of 001_c3392f44b6f9c5c7.txt", "seed: low card deals"):
        assert _says_seed_for_a_rule_text(bad if not bad.startswith("seed:") else f"x; y {bad}"), bad
    for good in ("`flush=seed|top_card`", "--seed N", '[Seed "19"]', "random seed (written in a Seed tag)",
                 "selfplay (seed 19)", "seed: 23456 highest", "a; seed: the rule text's list", "seed",
                 "straight_order=seed", "seeds 0 to N-1"):
        assert not _says_seed_for_a_rule_text(good), good


def test_jiuzhi_hand_after_an_unfinished_hand_without_a_dealer_is_located_not_x901():
    """Found by the long fuzz run (PAIFU_FUZZ=long, corrupted record tests): a bare 'hand'
    line after a jiuzhi hand that could not be finished reached an assertion (X901). Who deals
    is the last winner, unknown here: the hand line must say it (R206 at its line)."""
    from paifu.notation import parse as parse_text
    from paifu.replay.validate import validate as validate_record

    text = ('[Game "jiuzhi"]\n[Result "*"]\n\nhand 1 dealer=A\n'
            "deal A: YH YK RS RH GC GS GK WE WA WH\ndeal B: YC YC RA RA GE GE WR WR YA\n"
            "deal C: YA YE YR RK RE RR RC GA GR\ndeal D: GH GA WS WC WH YS RE RA YR\n"
            "A: discard RS\nhand\n")
    codes = [(d.code, d.line) for d in validate_record(parse_text(text)).diagnostics]
    assert ("L307", 9) in codes and ("R206", 10) in codes
    assert all(code != "X901" for code, _ in codes)
    named = validate_record(parse_text(text.replace("\nhand\n", "\nhand 2 dealer=C\n"))).diagnostics
    assert {d.code for d in named} == {"L307", "N505", "N503"}


# -- special files: only regular files are read (issue 29) ---------------------------------
def _measured(args: list[str], timeout: float = 60, stdin=subprocess.DEVNULL) -> tuple[int, str, str, int]:
    """Run paifu in a child process: (exit status, stdout, stderr, its maximum RSS in KiB).

    Killed after ``timeout`` seconds (a hang fails the test, it cannot hang the suite), and
    held to 2 GiB of address space (reading a file without end fails instead of filling
    the machine)."""
    import resource
    import tempfile
    import time

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(PAIFU + args, stdout=out, stderr=err, stdin=stdin, cwd=ROOT, preexec_fn=limit)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                pytest.fail(f"paifu {' '.join(args)} did not end in {timeout} s")
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


@needs_fifo
@pytest.mark.parametrize("command", [["validate"], ["fmt", "--check"], ["convert", "--to", "json"], ["export", "tenhou"],
                                     ["import", "tenhou"]])
def test_a_fifo_with_no_writer_named_on_the_command_line_is_refused_not_waited_on(command, tmp_path):
    fifo = tmp_path / "fifo.paifu"
    os.mkfifo(fifo)
    code, out, err, _ = _measured([*command, str(fifo)], timeout=30)
    assert code == 2
    assert f"{fifo}:0:0: P110 not read: a FIFO (named pipe), not a regular file" in out + err
    assert "Traceback" not in out + err


def _special_folder(folder: Path) -> dict[str, str]:
    """A folder with one good record and, named .paifu, a FIFO, a socket, a link to a
    device and a dangling link; what each special one is."""
    import socket

    folder.mkdir()
    (folder / "good.paifu").write_text(GOOD)
    os.mkfifo(folder / "fifo.paifu")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(folder / "sock.paifu"))
    sock.close()
    (folder / "zero.paifu").symlink_to("/dev/zero")
    (folder / "gone.paifu").symlink_to(folder / "nowhere.paifu")
    return {"fifo.paifu": "a FIFO (named pipe), not a regular file", "sock.paifu": "a socket, not a regular file",
            "zero.paifu": "a character device, not a regular file", "gone.paifu": "a symbolic link to a missing file"}


@needs_fifo
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [["validate"], ["fmt", "--check"], ["fmt"], ["convert", "--to", "json"]])
def test_special_files_in_a_folder_are_reported_skipped_and_the_run_says_so(command, tmp_path):
    folder = tmp_path / "d"
    kinds = _special_folder(folder)
    code, out, err, _ = _measured([*command, str(folder)], timeout=30)
    assert code == 2  # as for any path not read (docs/robustness.md)
    for name, kind in kinds.items():
        assert f"{folder / name}:0:0: P110 skipped: {kind} (paifu reads regular files only)" in out + err
    assert "Traceback" not in out + err
    if command == ["validate"]:
        assert "1 record(s): 1 valid, 0 invalid; 4 error(s), 0 note(s); 4 path(s) not read" in out


@needs_fifo
def test_validate_dask_refuses_a_named_fifo_and_the_walk_lists_what_it_skips(tmp_path):
    folder = tmp_path / "d"
    import signal

    kinds = _special_folder(folder)
    unreadable: list[str] = []

    def hung(*_):
        raise TimeoutError("opening the FIFO blocked")

    signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a regression must not hang the suite
    try:
        reports = list(batch.validate_dask(None, [str(folder / "fifo.paifu")], unreadable))  # named: refused before any cluster
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    assert unreadable == [str(folder / "fifo.paifu")] and reports[0].diagnostics[0].code == "P110"
    listed: list[tuple[Path, str]] = []
    from paifu.notation.reader import iter_paths

    assert list(iter_paths([folder], skipped=listed)) == [folder / "good.paifu"]
    assert dict((p.name, why) for p, why in listed) == kinds


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_fmt_check_on_a_link_to_dev_zero_is_refused_at_once(tmp_path):
    link = tmp_path / "zero.paifu"
    link.symlink_to("/dev/zero")
    code, out, err, rss = _measured(["fmt", "--check", str(link)], timeout=30)
    assert code == 2
    assert f"{link}:0:0: P110 not read: a character device, not a regular file" in err
    assert rss < 300 * 1024


def test_fmt_reads_a_file_of_zeros_as_validate_does_p104_in_bounded_memory(tmp_path):
    """A regular file of 1 GiB of NUL bytes (sparse: no disk used): fmt --check stops at the
    first block, as validate does, with P104; it read the whole file into memory before."""
    zeros = tmp_path / "zeros.paifu"
    with open(zeros, "wb") as f:
        f.truncate(1 << 30)
    for command in (["fmt", "--check"], ["fmt"], ["validate"], ["convert", "--to", "json"]):
        code, out, err, rss = _measured([*command, str(zeros)], timeout=60)
        assert code == 1, command
        assert f"{zeros}:1:1: P104 binary data (a NUL byte)" in out + err, command
        assert rss < 300 * 1024, (command, rss)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [["fmt", "--check"], ["fmt"], ["convert", "--to", "json"]])
def test_standard_input_of_zeros_stops_at_the_first_block(command):
    """`cat /dev/zero | paifu fmt -`: P104 at once, as validate says it (it read until memory ran out)."""
    with open("/dev/zero", "rb") as zero:
        code, out, err, rss = _measured([*command, "-"], timeout=60, stdin=zero)
    assert code == 1
    assert "<stdin>:1:1: P104 binary data (a NUL byte)" in err
    assert rss < 300 * 1024


def test_a_first_hand_dealt_by_no_seat_does_not_break_the_next_hand(tmp_path, capsys):
    """Found by the long fuzz profile (test_corrupted_bytes, batch 5): in 99 a hand line with
    ``dealer=@`` is R206 at its key, and the hand after it was X901 ('@' is not in list) because
    the broken hand's dealer was carried on. The next hand follows the seat order
    (「99」 §カードを配る: そのあとは順番に交代します) from a dealer that exists."""
    from paifu.cli import main

    deal = "deal A: AS KS QS JS TS 9S 8S 7S 6S AD KD QD\n"
    path = tmp_path / "at.paifu"
    path.write_text(f'[Game "ninetynine"]\n\nhand 1 dealer=@ trump=D\n{deal}\nhand 2 dealer=B trump=D\n{deal}',
                    encoding="utf-8")
    assert main(["validate", "--quiet", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:3:8: R206 dealer=@ is not a seat of this game (A B C)" in out
    assert "X901" not in out
