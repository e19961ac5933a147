"""The JSON form of records: read back, every bad record located (``file:line:col``).

A JSON text holds one record, an array of records, or JSON Lines; each is checked against
the record model (``schemas/record.schema.json``) and named by where it starts.

JSON is read as paifu reads it everywhere (:func:`decode_value`): a key written twice in
one object, a string holding half a surrogate pair and an integer of more than
:data:`MAX_NUMBER_DIGITS` digits are refused at their place, as the text reader refuses a
longer number. The JSON form is loss-free: :func:`json_as_text` writes records as text only
when that text reads back to the same records, and names each record that does not.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from typing import Any, Iterable, Iterator

from pydantic import ValidationError

from .model import Record, content, variation_depth
from .reader import MAX_NUMBER_DIGITS, MAX_VARIATION_DEPTH, read_text
from .writer import write_record


def line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


# -- JSON as paifu reads it ----------------------------------------------------------------
class JsonFault(ValueError):
    """A JSON text paifu does not read: its code, what is wrong, and the offset where."""

    def __init__(self, code: str, message: str, offset: int, end: int | None = None):
        super().__init__(message)
        self.code, self.message, self.offset = code, message, offset
        self.end = end  # where the value it is found in ends, when known: the next one can be read


class _Refused(Exception):
    """Raised by the decoder's hooks: the value holds what :func:`_fault` will locate."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):  # a key written twice
        raise _Refused
    return found


def _integer(digits: str) -> int:
    if len(digits) - digits.startswith("-") > MAX_NUMBER_DIGITS:
        raise _Refused
    return int(digits)


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=_integer)
_SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89a-fA-F]")  # how a JSON text writes half a pair
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERAL_RE = re.compile(r"true|false|null|NaN|-?Infinity")
_SPACE = " \t\r\n"


def _fault(text: str, pos: int) -> JsonFault | None:
    """The first key written twice, string holding half a surrogate pair or integer too long
    in the JSON value at ``pos``, with where the value ends; None when it holds none. A scan
    of its tokens with a stack of the objects open (no recursion, whatever the nesting)."""
    stack: list[set[str] | None] = []  # the keys of each object open; None for an array
    key_next = False
    found: JsonFault | None = None
    i, n = pos, len(text)
    while True:
        while i < n and text[i] in _SPACE:
            i += 1
        if i >= n:
            return found
        ch = text[i]
        start = i
        if ch == '"':
            try:
                value, i = scanstring(text, i + 1)
            except ValueError:
                return found
            if found is None:
                half = _SURROGATE_RE.search(value)
                if half:
                    found = JsonFault("P118", f"this string holds \\u{ord(half.group()):04x}: half a surrogate pair is "
                                              "no character, and UTF-8 cannot write it", start)
                elif key_next:
                    keys = stack[-1]
                    assert keys is not None
                    if value in keys:
                        found = JsonFault("P117", f"the key {json.dumps(value, ensure_ascii=False)} is written twice in "
                                                  "this object: JSON readers differ on which one counts, so paifu reads neither",
                                          start)
                    keys.add(value)
            key_next = False
        elif ch in "{[":
            stack.append(set() if ch == "{" else None)
            key_next = ch == "{"
            i += 1
            continue
        elif ch in "}]":
            if stack:
                stack.pop()
            i += 1
        elif ch == ",":
            key_next = bool(stack) and stack[-1] is not None
            i += 1
            continue
        elif ch == ":":
            i += 1
            continue
        else:
            m = _NUMBER_RE.match(text, i)
            if m is None:
                m = _LITERAL_RE.match(text, i)
                if m is None:
                    return found
            elif found is None and m.group(1) is None and m.group(2) is None:  # an integer
                digits = m.end() - start - (ch == "-")
                if digits > MAX_NUMBER_DIGITS:
                    found = JsonFault("P113", f"a number of {digits} digits: paifu reads numbers of at most "
                                              f"{MAX_NUMBER_DIGITS} digits", start)
            i = m.end()
        if not stack:  # the value has ended
            if found is not None:
                found.end = i
            return found


def decode_value(text: str, pos: int = 0) -> tuple[Any, int]:
    """The JSON value at ``pos`` and where it ends; raises :class:`JsonFault` where paifu does
    not read it: not JSON (P111), nested too deeply (P112), an integer too long (P113), a key
    written twice (P117), half a surrogate pair (P118)."""
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except _Refused:
        fault = _fault(text, pos)
        raise fault or JsonFault("P111", "not JSON as paifu reads it", pos) from None
    except json.JSONDecodeError as err:
        raise JsonFault("P111", f"not JSON: {err.msg}", err.pos) from None
    except RecursionError:
        raise JsonFault("P112", f"JSON nested too deeply to read (paifu reads variations nested at most "
                                f"{MAX_VARIATION_DEPTH} deep)", pos) from None
    if _SURROGATE_ESCAPE_RE.search(text, pos, end):  # maybe half a pair (or a pair, or an escaped backslash)
        fault = _fault(text, pos)
        if fault is not None:
            raise fault
    return value, end


def loads(text: str) -> Any:
    """One JSON text read as :func:`decode_value` reads it (white space around it, nothing else)."""
    value, end = decode_value(text, len(text) - len(text.lstrip(_SPACE)))
    rest = len(text) - len(text[end:].lstrip(_SPACE))  # where anything after the value starts
    if rest < len(text):
        raise JsonFault("P111", "not JSON: Extra data", rest)
    return value


def json_items(text: str, path: str, problems: list[str]) -> Iterator[tuple[object, int, str]]:
    """Each JSON value of a text (one record, an array of records, or JSON Lines), with where it starts.

    Yields (value, start offset, how to name it); problems found on the way are appended. A
    value refused at a place inside it (see :func:`decode_value`) is named and the next one
    read; where the text cannot be read on, the reading stops.
    """
    pos = 0
    doc_no = 0

    def skip(p: int) -> int:
        while p < len(text) and text[p].isspace():
            p += 1
        return p

    def bad(p: int, msg: str) -> None:
        line, col = line_col(text, p)
        problems.append(f"{path}:{line}:{col}: P111 not JSON: {msg}")

    def decode(p: int) -> tuple[object, int] | int | None:
        """The JSON value at ``p`` and where it ends; where it ends alone when it is refused,
        None when the text cannot be read on (the problem noted either way)."""
        try:
            return decode_value(text, p)
        except JsonFault as fault:
            line, col = line_col(text, fault.offset)
            problems.append(f"{path}:{line}:{col}: {fault.code} {fault.message}")
            return fault.end

    while True:
        pos = skip(pos)
        if pos >= len(text):
            return
        doc_no += 1
        if text[pos] != "[":
            got = decode(pos)
            if got is None:
                return
            if isinstance(got, tuple):
                yield got[0], pos, f"document {doc_no}"
                got = got[1]
            pos = got
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
            if isinstance(got, tuple):
                yield got[0], pos, f"element {element} of the array"
                got = got[1]
            pos = skip(got)
            if pos < len(text) and text[pos] == ",":
                pos = skip(pos + 1)
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 1
                break
            bad(pos, "expecting ',' or ']' after an element of the array")
            return


def _json_records(text: str, path: str, problems: list[str]) -> Iterator[tuple[Record, str, str]]:
    """Each record of a JSON text that matches the schema, with where it starts
    (``path:line:col``) and how to name it; problems are appended."""
    for doc, pos, name in json_items(text, path, problems):
        line, col = line_col(text, pos)
        where = f"{path}:{line}:{col}"
        try:
            record = Record.model_validate(doc)
        except RecursionError:
            problems.append(f"{where}: P112 {name} is nested too deeply to read")
            continue
        except ValidationError as err:
            first = err.errors()[0]
            at = ".".join(str(p) for p in first["loc"]) or "its top"
            more = f" (and {err.error_count() - 1} more problem(s))" if err.error_count() > 1 else ""
            msg = re.sub(r"\bNone\b", "null", first["msg"])  # pydantic speaks Python; the input was JSON
            got = first.get("input")
            if isinstance(got, (str, int, float, bool)) or got is None:
                msg += f" (it is {_shown(got)})"
            problems.append(f"{where}: P111 {name} does not match the record schema at {at}: {msg}{more}")
            continue
        if variation_depth(record) > MAX_VARIATION_DEPTH:
            problems.append(f"{where}: P112 {name} has variations nested more than {MAX_VARIATION_DEPTH} deep")
            continue
        yield record, where, name


def read_json_records(text: str, path: str) -> tuple[list[Record], list[str]]:
    """The records of a JSON text, and located problems (every bad record is named)."""
    problems: list[str] = []
    records = [record for record, _, _ in _json_records(text.lstrip("\ufeff"), path, problems)]
    return records, problems


# -- JSON to text, loss-free ---------------------------------------------------------------
def _shown(value: Any) -> str:
    """A JSON value as it is written, cut short."""
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _first_difference(a: Any, b: Any, at: str = "") -> tuple[str, Any, Any] | None:
    """Where two JSON values first differ (a dotted path, as the schema's messages say it), and
    what each holds there (``...`` for what one of them lacks)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            found = _first_difference(a.get(key, ...), b.get(key, ...), f"{at}.{key}" if at else key)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            found = _first_difference(a[i] if i < len(a) else ..., b[i] if i < len(b) else ..., f"{at}.{i}" if at else str(i))
            if found:
                return found
        return None
    if a == b and type(a) is type(b):
        return None
    return at or "its top", a, b


def read_back_problem(record: Record, text: str) -> str | None:
    """Why ``text`` (the record's canonical text) does not read back to the record, in words;
    None when it does."""
    results = list(read_text(text))
    if not results or results[0].record is None and results[0].diagnostics[0].code == "P106":
        return "its text holds nothing to read (a record in text has a tag, a comment or a hand)"
    if len(results) > 1:
        return f"its text reads back as {len(results)} records"
    result = results[0]
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if errors or result.record is None:
        d = errors[0] if errors else result.diagnostics[0]
        lines = text.split("\n")
        written = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
        return f"its text line {_shown(written)} does not read back: {d.code} {d.message}"
    diff = _first_difference(content(record), content(result.record))
    if diff is None:
        return None
    at, was, back = diff
    if was is ...:
        return f"its text reads back with {at} added: {_shown(back)}"
    if back is ...:
        return f"its text reads back without {at} ({_shown(was)})"
    return f"{at} is {_shown(was)} but its text reads back as {_shown(back)}"


def json_as_text(sources: Iterable[tuple[str, str]]) -> tuple[str, list[str], list[str]]:
    """The canonical text of the records of JSON texts ((text, path) each), located problems,
    and the paths that hold no record (nor a problem). A record that does not match the
    schema, or whose text would not read back to the same record (P119), is named; the text
    is only to be written when there are no problems."""
    problems: list[str] = []
    found: list[tuple[Record, str, str]] = []
    empty: list[str] = []
    for text, path in sources:
        before = len(found), len(problems)
        found.extend(_json_records(text.lstrip("\ufeff"), path, problems))
        if (len(found), len(problems)) == before:
            empty.append(path)
    if not found:
        return "", problems, empty
    written = [write_record(record) for record, _, _ in found]
    whole = "\n".join(written)  # as write_records joins them
    back = list(read_text(whole))
    if len(back) == len(found) and all(r.ok and r.record is not None and content(r.record) == content(record)
                                       for r, (record, _, _) in zip(back, found)):
        return whole, problems, empty  # the whole text reads back, record by record: the fast way
    alone_ok = []
    for (record, where, name), own in zip(found, written):
        problem = read_back_problem(record, own)
        alone_ok.append(problem is None)
        if problem:
            problems.append(f"{where}: P119 {name} cannot be written as text that reads back the same: {problem}")
    if all(alone_ok):  # each reads back alone, not after the one before it
        for k in range(1, len(found)):
            both = list(read_text(written[k - 1] + "\n" + written[k]))
            if len(both) != 2 or not all(r.ok and r.record is not None and content(r.record) == content(f[0])
                                         for r, f in zip(both, found[k - 1:k + 1])):
                record, where, name = found[k]
                problems.append(f"{where}: P119 {name} cannot be written as text after {found[k - 1][2]}: the two read "
                                "back as one record (in text, a record starts at its tags, after the hands of the one before)")
                break
    if not problems:  # cannot be: said rather than written wrong
        problems.append(f"{found[0][1]}: P119 these records cannot be written as text that reads back the same")
    return whole, problems, empty
