"""The checked-in JSON Schemas of the record and of the validation report.

They are generated from the pydantic models (``paifu schema record|report``); a test
fails when they are stale.
"""

from pathlib import Path

HERE = Path(__file__).parent
RECORD = HERE / "record.schema.json"
REPORT = HERE / "report.schema.json"
