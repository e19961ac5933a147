"""A record that starts from a written position (docs/notation.md §Starting from a position):
the ``[Start "..."]`` tag and the first hand line's keys survive the writer and the JSON form,
the JSON form matches the record schema, and the validator gives the same report for a record
read back from either. The records themselves (what the validator must say of each) are the
``start*.paifu`` files under tests/records/<game>/, run by tests/test_records.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from paifu.notation import Record, parse, same_content, write_record
from paifu.notation import read_path
from paifu.replay.validate import validate

ROOT = Path(__file__).parent.parent
RECORDS = ROOT / "tests" / "records"
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
FILES = sorted(RECORDS.glob("*/start*.paifu"))


def _records():
    for path in FILES:
        for index, result in enumerate(read_path(path), 1):
            assert result.record is not None, path
            yield pytest.param(result.record, id=f"{path.relative_to(RECORDS)}#{index}")


def _codes(record: Record) -> list[tuple[str, str]]:
    return sorted((d.code, d.message) for d in validate(record).diagnostics)


def test_every_game_has_start_records():
    """Each game's folder of record tests holds its start*.paifu, and each such file has a
    record that the validator finds valid (a start it can go on from) and one it refuses
    with R214 at the Start tag."""
    games = {p.name for p in RECORDS.iterdir() if p.is_dir()}
    assert {p.parent.name for p in FILES} == games
    for path in FILES:
        expects = [r.record.tag("Expect") for r in read_path(path)]
        assert "valid" in expects or any(e.startswith("N5") for e in expects), path
        assert any("R214@" in e for e in expects), path


@pytest.mark.parametrize("record", list(_records()))
def test_start_record_round_trips_through_text(record: Record):
    text = write_record(record)
    again = parse(text)
    assert same_content(again, record)
    assert again.tag("Start") == record.tag("Start")
    assert write_record(again) == text
    assert _codes(again) == _codes(record)


@pytest.mark.parametrize("record", list(_records()))
def test_start_record_round_trips_through_json(record: Record):
    doc = json.loads(record.model_dump_json())
    jsonschema.validate(doc, SCHEMA)
    assert {"name": "Start", "value": record.tag("Start")} in [{k: t[k] for k in ("name", "value")} for t in doc["tags"]]
    again = Record.model_validate(doc)
    assert same_content(again, record)
    assert _codes(again) == _codes(record)
