"""The JSON form is loss-free: a JSON record either converts to text that reads back as the
same record, or is refused with a located error (issue 29, "Wrong, and accepted", and its
tracebacks 1 and 2). JSON is read one way everywhere: a key written twice, half a surrogate
pair and a too long integer are located errors, in ``convert`` and in ``import tenhou``.

Each case here was a traceback, a silent exit 0 or a different record before the JSON reader
was changed (docs/errors.md: P111, P113, P117, P118, P119).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from paifu.cli import main

ROOT = Path(__file__).parent.parent

# [Game "bigtwo"] / hand 1 dealer=A {c} / A: play 3C x=y !  as the JSON form writes it
RECORD = {"tags": [{"name": "Game", "value": "bigtwo"}],
          "hands": [{"args": [{"value": 1, "kind": "num"}, {"key": "dealer", "value": "A", "kind": "kv"}],
                     "comments": ["c"],
                     "events": [{"seat": "A", "verb": "play",
                                 "args": [{"cards": ["3C"], "kind": "cards"}, {"key": "x", "value": "y", "kind": "kv"}],
                                 "glyphs": ["!"]}]}]}
LOCATED = re.compile(r"^\S+:\d+:\d+: [A-Z]\d{3} ", re.M)


def convert(tmp_path: Path, text: str, capsys) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    try:
        code = main(["convert", "--to", "text", str(path)])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def changed(edit) -> str:
    record = copy.deepcopy(RECORD)
    edit(record)
    return json.dumps([record], ensure_ascii=False)


def test_the_record_itself_converts_and_reads_back(tmp_path, capsys):
    code, out, err = convert(tmp_path, json.dumps([RECORD]), capsys)
    assert (code, err) == (0, "")
    assert out == '[Game "bigtwo"]\n\nhand 1 dealer=A {c}\nA: play 3C x=y !\n'


def _verb(r):
    r["hands"][0]["events"][0]["verb"] = "play\n{"


def _tag(r):
    r["tags"].append({"name": "Bad Name", "value": '"]\n[Game "kawuxing"'})


def _comment(r):
    r["hands"][0]["comments"] = ["a } b"]


def _key(r):
    r["hands"][0]["events"][0]["args"][1]["key"] = "a=b c"


def _glyphs(r):
    r["hands"][0]["events"][0]["glyphs"] = ["!!!"]


def _number_as_text(r):
    r["hands"][0]["args"][0]["value"] = "9"


@pytest.mark.parametrize("text", [
    "{}",  # an empty record would write empty text
    changed(_verb),  # a verb holding a newline and a brace
    changed(_tag),  # a tag name with a space, its value holding '"]' and a new tag line
    changed(_comment),  # a comment holding '}' would close early
    changed(_key),  # a key holding '=' and a space
    changed(_glyphs),  # not a glyph
    changed(_number_as_text),  # "9" is text, not the number 9
], ids=["empty", "verb", "tag", "comment", "key", "glyphs", "number-as-text"])
def test_a_record_the_text_cannot_hold_is_refused_at_its_place(text, tmp_path, capsys):
    code, out, err = convert(tmp_path, text, capsys)
    assert code == 1 and out == ""
    assert LOCATED.search(err) and "Traceback" not in err, err
    assert re.search(r"P11[19] ", err), err


def test_a_key_written_twice_is_refused_at_the_second(tmp_path, capsys):
    # the body of one game under the Game tag of another: the last would win silently
    text = '{"tags": [{"name": "Game", "value": "kawuxing"}], "tags": [{"name": "Game", "value": "bigtwo"}], "hands": []}'
    code, out, err = convert(tmp_path, text, capsys)
    assert code == 1 and out == ""
    second = text.index('"tags"', 10) + 1
    assert f"record.json:1:{second}: P117 " in err, err


def test_half_a_surrogate_pair_is_refused_not_a_traceback(tmp_path, capsys):
    text = json.dumps([RECORD]).replace('"c"', '"\\ud800"')
    code, out, err = convert(tmp_path, text, capsys)
    assert code == 1 and out == ""
    where = text.index('"\\ud800"') + 1
    assert f"record.json:1:{where}: P118 " in err, err


def test_an_integer_of_5000_digits_is_refused_not_a_traceback(tmp_path, capsys):
    text = json.dumps([RECORD]).replace('"value": 1,', '"value": ' + "7" * 5000 + ",")
    assert "7" * 5000 in text
    code, out, err = convert(tmp_path, text, capsys)
    assert code == 1 and out == ""
    assert " P113 " in err and LOCATED.search(err) and "Traceback" not in err, err


def test_a_tenhou_log_with_half_a_surrogate_pair_is_a_located_refusal(tmp_path, capsys):
    log = (ROOT / "tests/data/tenhou/chankan.json").read_text(encoding="utf-8")
    bad = log.replace('"A",', '"\\ud800A",', 1)
    assert bad != log
    path = tmp_path / "log.json"
    path.write_text(bad, encoding="utf-8")
    try:
        code = main(["import", "tenhou", str(path)])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert re.search(r"log\.json:\d+:\d+: I601 .*surrogate", err), err
