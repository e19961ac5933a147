"""The line-by-line record cutter paifu used before it cut a block at a time: the oracle the
block cutter (notation.reader.split_records) is checked against in tests/test_notation.py."""

from __future__ import annotations

from typing import BinaryIO, Iterator

from paifu.notation.diagnostics import Diagnostic, diag
from paifu.notation.reader import (MAX_LINE_BYTES, MAX_RECORD_BYTES, SNIFF_BYTES, _GAME_TAG_RE, _TAG_LINE_RE, Chunk, _outside_comments,
                             _Prefixed, _wide_encoding)


def split_records_by_line(stream: BinaryIO) -> Iterator[Chunk]:
    """Cut a byte stream into record texts, one at a time, with file-level problems attached.

    A record starts at a tag line (outside a comment) after a body line (a line with text
    outside comments), or at a Game tag line after a comment. Bytes that are
    not UTF-8 are reported at their line and column; the record holding them is not
    parsed. A NUL byte marks a binary file: reported once, and the file is not read on.
    """
    lines: list[str] = []
    size = 0
    start = 1
    has_body = False
    commented = False
    in_comment = False
    bad: list[Diagnostic] = []
    too_large = False
    line_no = 0
    pending = b""
    first = True

    def flush() -> Chunk | None:
        if not lines and not bad and not too_large:
            return None
        if too_large:
            return Chunk("", start, [diag("P105", f"record is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB; not read", start, 1)])
        return Chunk("".join(lines), start, list(bad))

    head = stream.read(SNIFF_BYTES)
    wide = _wide_encoding(head)
    if wide:  # UTF-16 or UTF-32: readable text, but not the UTF-8 paifu reads
        yield Chunk("", 1, [diag("P103", f"the file is {wide} text: save it as UTF-8", 1, 1)])
        return
    nul = head.find(b"\0")
    if nul >= 0:  # a binary file: one message, not one per line of garbage
        line = head.count(b"\n", 0, nul) + 1
        col = nul - (head.rfind(b"\n", 0, nul) + 1) + 1
        yield Chunk("", line, [diag("P104", "binary data (a NUL byte): this is not a paifu text file", line, col)])
        return
    stream = _Prefixed(head, stream)
    while True:  # line by line: paifu_archive's offsets table follows the reads (kept one record deep)
        raw = stream.readline(MAX_LINE_BYTES)
        if not raw:
            break
        if not raw.endswith(b"\n") and len(raw) >= MAX_LINE_BYTES:
            pending += raw  # a very long line: keep reading it, the size cap bounds memory
            if len(pending) <= MAX_RECORD_BYTES:
                continue
            raw, pending = pending, b""
        elif pending:
            raw, pending = pending + raw, b""
        line_no += 1
        if first:
            first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
        nul = raw.find(b"\0")
        if nul >= 0:
            chunk = flush()
            if chunk and chunk.text.strip():
                yield chunk
            yield Chunk("", line_no, [diag("P104", "binary data (a NUL byte): this is not a paifu text file", line_no, nul + 1)])
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            col = len(raw[: err.start].decode("utf-8", errors="replace")) + 1
            bad.append(diag("P103", f"byte 0x{raw[err.start]:02x} is not UTF-8 (save the file as UTF-8)", line_no, col))
            text = raw.decode("utf-8", errors="replace")
        if text.endswith("\r\n"):  # CRLF, and any run of CRs before the LF ("\r\r\n")
            text = text[:-1].rstrip("\r") + "\n"
        stripped = text.strip()
        if not in_comment and (has_body or (commented and _GAME_TAG_RE.match(text))) and _TAG_LINE_RE.match(text):
            chunk = flush()
            if chunk:
                yield chunk
            lines, size, start, has_body, commented, bad, too_large = [], 0, line_no, False, False, [], False
        if not stripped and not lines:
            start = line_no + 1
            continue
        if not in_comment and _TAG_LINE_RE.match(text):
            pass  # tag line: braces inside tag values do not open comments
        elif in_comment or "{" in text or "}" in text:  # text in comments is no body text
            commented = commented or in_comment or "{" in text
            body, in_comment = _outside_comments(text, in_comment)
            has_body = has_body or body
        elif stripped:
            has_body = True
        size += len(raw)
        if size > MAX_RECORD_BYTES:
            too_large = True
            lines = []
            continue
        if not too_large:
            lines.append(text)
    chunk = flush()
    if chunk and (chunk.text.strip() or chunk.diagnostics):
        yield chunk

