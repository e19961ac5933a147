"""The checked-in JSON Schemas of the record and of the validation report.

They are generated from the models (:func:`schema_text`, ``paifu schema record|report``);
a test fails when they are stale.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
RECORD = HERE / "record.schema.json"
REPORT = HERE / "report.schema.json"


def schema_text(which: str) -> str:
    """The JSON Schema of the record (``record``) or of the report (``report``), as checked in."""
    if which == "record":
        from paifu.notation.model import Record

        schema = Record.model_json_schema()
    else:
        from paifu.replay.report import Report

        schema = Report.model_json_schema()
    schema["$id"] = f"https://paifu.invalid/schemas/{which}.schema.json"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
