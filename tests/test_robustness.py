"""Hostile input never crashes paifu, and what a user owns is not harmed.

Issue 18 (Robustness): each test here reproduces one item of the issue and failed before
its fix. docs/robustness.md lists the limits (nesting, number length) these tests pin.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import paifu_cli
from notation import read_text
from notation.reader import MAX_NUMBER_DIGITS, MAX_VARIATION_DEPTH
from paifu_cli import main

ROOT = Path(__file__).parent.parent
PAIFU = [sys.executable, str(ROOT / "paifu_cli.py")]
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
    from viewer import create_app

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
    real = paifu_cli.validate

    def buggy(record, path="", index=1):
        if record.tag("Event") == "boom":
            raise ZeroDivisionError("division by zero")
        return real(record, path, index)

    monkeypatch.setattr(paifu_cli, "validate", buggy)


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
    real = paifu_cli.split_records

    def buggy(stream):
        if "bad" in getattr(stream, "name", ""):
            raise MemoryError("out of memory")
        return real(stream)

    monkeypatch.setattr(paifu_cli, "split_records", buggy)
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
    real = paifu_cli._formatted

    def buggy(data, path):
        if path.endswith("b.paifu"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(data, path)

    monkeypatch.setattr(paifu_cli, "_formatted", buggy)
    b, c = tmp_path / "b.paifu", tmp_path / "c.paifu"
    b.write_text(nested(1))
    c.write_text(nested(1).replace("D: pass", "D:   pass"))
    code, out, err = run(["fmt", str(b), str(c)], capsys)
    assert code == 2
    assert f"{b}:0:0: X901 internal error while formatting this file (RecursionError" in err
    assert f"{c}: reformatted" in out


# -- crashes: the viewer's index ---------------------------------------------------------
def test_viewer_index_survives_a_deep_file(tmp_path):
    from viewer import create_app

    (tmp_path / "deep.paifu").write_text(nested(5000))
    (tmp_path / "good.paifu").write_text(nested(1))
    client = create_app(tmp_path).test_client()
    for _ in range(2):  # and again: the index is not broken from then on
        page = client.get("/")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert "P112" in html and "good.paifu" in html


def test_viewer_index_lists_an_internal_error_as_x901(tmp_path, monkeypatch):
    from viewer import create_app, library

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
    proc = subprocess.run(["bash", "-c", f"'{sys.executable}' paifu_cli.py validate - <&-"], capture_output=True, text=True, cwd=ROOT)
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
