"""The JSON form of records: read back, every bad record located (``file:line:col``).

A JSON text holds one record, an array of records, or JSON Lines; each is checked against
the record model (``schemas/record.schema.json``) and named by where it starts.
"""

from __future__ import annotations

import json
import re
from typing import Iterator

from pydantic import ValidationError

from .model import Record, variation_depth
from .reader import MAX_VARIATION_DEPTH


def line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def json_items(text: str, path: str, problems: list[str]) -> Iterator[tuple[object, int, str]]:
    """Each JSON value of a text (one record, an array of records, or JSON Lines), with where it starts.

    Yields (value, start offset, how to name it); problems found on the way are appended.
    """
    decoder = json.JSONDecoder()
    pos = 0
    doc_no = 0

    def skip(p: int) -> int:
        while p < len(text) and text[p].isspace():
            p += 1
        return p

    def bad(p: int, msg: str) -> None:
        line, col = line_col(text, p)
        problems.append(f"{path}:{line}:{col}: P111 not JSON: {msg}")

    def deep(p: int) -> None:
        line, col = line_col(text, p)
        problems.append(f"{path}:{line}:{col}: P112 JSON nested too deeply to read "
                        f"(paifu reads variations nested at most {MAX_VARIATION_DEPTH} deep)")

    def decode(p: int) -> tuple[object, int] | None:
        """The JSON value at ``p`` and where it ends; None (the problem noted) when it cannot be read."""
        try:
            return decoder.raw_decode(text, p)
        except json.JSONDecodeError as err:
            bad(err.pos, err.msg)
        except RecursionError:
            deep(p)
        return None

    while True:
        pos = skip(pos)
        if pos >= len(text):
            return
        doc_no += 1
        if text[pos] != "[":
            got = decode(pos)
            if got is None:
                return
            doc, end = got
            yield doc, pos, f"document {doc_no}"
            pos = end
            continue
        pos = skip(pos + 1)  # an array: its elements one by one, each with its place
        element = 0
        if pos < len(text) and text[pos] == "]":
            pos += 1
            continue
        while True:
            element += 1
            got = decode(pos)
            if got is None:
                return
            doc, end = got
            yield doc, pos, f"element {element} of the array"
            pos = skip(end)
            if pos < len(text) and text[pos] == ",":
                pos = skip(pos + 1)
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 1
                break
            bad(pos, "expecting ',' or ']' after an element of the array")
            return


def read_json_records(text: str, path: str) -> tuple[list[Record], list[str]]:
    """The records of a JSON text, and located problems (every bad record is named)."""
    records: list[Record] = []
    problems: list[str] = []
    text = text.lstrip("\ufeff")
    for doc, pos, name in json_items(text, path, problems):
        line, col = line_col(text, pos)
        try:
            record = Record.model_validate(doc)
        except RecursionError:
            problems.append(f"{path}:{line}:{col}: P112 {name} is nested too deeply to read")
            continue
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "its top"
            more = f" (and {err.error_count() - 1} more problem(s))" if err.error_count() > 1 else ""
            msg = re.sub(r"\bNone\b", "null", first["msg"])  # pydantic speaks Python; the input was JSON
            problems.append(f"{path}:{line}:{col}: P111 {name} does not match the record schema at {where}: {msg}{more}")
            continue
        if variation_depth(record) > MAX_VARIATION_DEPTH:
            problems.append(f"{path}:{line}:{col}: P112 {name} has variations nested more than {MAX_VARIATION_DEPTH} deep")
            continue
        records.append(record)
    return records, problems
