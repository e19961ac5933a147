"""Record tests: every record under tests/records/<game>/ states what the validator must say.

Each record carries two tags:
- ``[Rule "..."]``: the seed file and section (or RULINGS section) the record checks;
- ``[Expect "valid"]``, or ``[Expect "CODE@LINE CODE@LINE ..."]``: the diagnostics the
  validator must give (line numbers in the file). Every error must be expected; every
  expected code (errors or notes) must be given at its line.

Expected scores are the record's own ``score``/``total`` lines, worked out by hand from the
rules: a record that expects "valid" fails on any S401/S402 difference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paifu.notation import read_path
from paifu.replay.validate import validate_read

RECORDS = Path(__file__).parent / "records"
FILES = sorted(RECORDS.rglob("*.paifu"))


def _cases():
    for path in FILES:
        for index, result in enumerate(read_path(path), 1):
            yield pytest.param(path, index, result, id=f"{path.relative_to(RECORDS)}#{index}")


@pytest.mark.parametrize("path,index,result", list(_cases()))
def test_record(path, index, result):
    assert result.record is not None, [d.format() for d in result.diagnostics]
    rule = result.record.tag("Rule")
    expect = result.record.tag("Expect")
    assert rule, f"{path}#{index}: every record test names its seed section in a Rule tag"
    assert expect, f"{path}#{index}: every record test says what to expect in an Expect tag"
    report = validate_read(result, index)
    given = {(d.code, d.line) for d in report.diagnostics}
    shown = "\n".join(d.format() for d in report.diagnostics)
    if expect == "valid":
        assert report.valid, shown
        return
    wanted = set()
    for item in expect.split():
        code, _, line = item.partition("@")
        wanted.add((code, int(line)))
    missing = wanted - given
    assert not missing, f"expected {sorted(missing)}, got:\n{shown}"
    unexpected = {(d.code, d.line) for d in report.diagnostics if d.severity == "error"} - wanted
    assert not unexpected, f"unexpected errors {sorted(unexpected)}:\n{shown}"
    assert not report.valid or all(c.startswith("N") for c, _ in wanted)
