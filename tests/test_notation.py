"""The notation: reading, writing, round trips, and located errors for bad input.

DESIGN.md §The notation and the foundation issue's "Bad input" list.
"""

from __future__ import annotations

import io

import pytest

from paifu.notation import CardsArg, NumArg, OptionArg, SeatArg, WordArg, parse, read_stream, read_text, same_content, write_record
from paifu.notation.cards import SPELLINGS
from paifu.notation.reader import MAX_RECORD_BYTES

CANONICAL = """[Game "bigtwo"]
[Players "A: Ann; B: Bo; C: Cy; D: Di"]
[Option "five_card=cross"]
[Annotator "Mx \\"Q\\" Lee"]

{A friendly game}

hand 1 dealer=D
deal A: 3C 4C 5D 6H 7S 8S 9S TS JS QS KS AS 2S
deal B: *************
A: 3C 4C 5D 6H 7S ! {straight [%clk 0:10]}
B: pass
  ( B: 8D 9D TD JD 2D {cross}
      ( B: pass ?! )
    C: pass )
C: TD ??
score A +26 B -4 C -4 D -18

hand 2 dealer=A
A: 3C
"""


def test_canonical_text_round_trips():
    record = parse(CANONICAL)
    assert write_record(record) == CANONICAL
    assert same_content(parse(write_record(record)), record)


def test_model_holds_what_the_text_says():
    record = parse(CANONICAL)
    assert record.game == "bigtwo"
    assert record.players() == {"A": "Ann", "B": "Bo", "C": "Cy", "D": "Di"}
    assert record.tag("Annotator") == 'Mx "Q" Lee'
    assert record.comments == ["A friendly game"]
    hand = record.hands[0]
    assert hand.number == 1 and hand.attr("dealer").value == "D"
    deal_b = hand.events[1]
    assert deal_b.verb == "deal" and isinstance(deal_b.args[0], SeatArg)
    assert deal_b.args[1].cards == ["*"] * 13
    lead = hand.events[2]
    assert (lead.seat, lead.verb, lead.cards()) == ("A", None, ["3C", "4C", "5D", "6H", "7S"])
    assert lead.glyphs == ["!"] and lead.comments == ["straight [%clk 0:10]"]
    assert (lead.at.line, lead.at.col) == (11, 1)
    assert len(lead.args) == 1  # French cards written apart: the five are one item, a run
    assert tuple(lead.args[0].at) == (11, 4) and tuple(lead.args[0].card_at(1)) == (11, 7)
    passed = hand.events[3]
    assert passed.verb == "pass" and len(passed.variations) == 1
    var = passed.variations[0]
    assert [e.seat for e in var.events] == ["B", "C"]
    assert var.events[0].variations[0].events[0].glyphs == ["?!"]
    score = hand.events[5]
    assert [type(a) for a in score.args] == [WordArg, NumArg] * 4
    assert score.args[1].value == 26 and score.args[1].signed


def test_aliases_are_read_and_written_canonically():
    record = parse('[Game "bigtwo"]\nhand 1 dealer=A\nA: 10D ♠A 3♣\n')
    assert record.hands[0].events[0].cards() == ["TD", "AS", "3C"] or record.hands[0].events[0].cards()[0] == "TD"
    assert write_record(record).splitlines()[-1].startswith("A: TD")


def test_tile_groups_read_and_write():
    tiles = SPELLINGS["tiles"]
    assert tiles.read("123m55p7z") == ["1m", "2m", "3m", "5p", "5p", "7z"]
    assert tiles.read("0p") == ["0p"]
    assert tiles.read("8z") is None and tiles.read("m") is None
    assert tiles.write(["1m", "2m", "3m", "5p", "5p", "7z"]) == "123m55p7z"


def test_comment_on_its_own_line_belongs_to_the_event_before_it():
    record = parse('[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C\n{a thought}\nB: pass\n')
    assert record.hands[0].events[0].comments == ["a thought"]


def test_several_records_in_one_text():
    text = CANONICAL + "\n" + CANONICAL
    results = list(read_text(text))
    assert len(results) == 2 and all(r.ok for r in results)
    assert results[1].record.at.line == CANONICAL.count("\n") + 2


def test_bom_and_crlf_are_read_like_plain_lf():
    data = ("\ufeff" + CANONICAL.replace("\n", "\r\n")).encode("utf-8")
    (result,) = list(read_stream(io.BytesIO(data)))
    assert result.ok and same_content(result.record, parse(CANONICAL))


def _codes(data: bytes) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.col) for r in read_stream(io.BytesIO(data)) for d in r.diagnostics]


@pytest.mark.parametrize(
    "text,expected",
    [
        ('[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C {never closed\n', [("P102", 3, 7)]),
        ('[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C\n( B: pass\n', [("P102", 4, 1)]),
        ('[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C )\n', [("P101", 3, 7)]),
        ('[Game "bigtwo]\nhand 1 dealer=A\n', [("P102", 1, 7)]),
        ('[Game "bigtwo"]\nA: 3C\nhand 1 dealer=A\n', [("P107", 2, 1)]),
        ('[Game "bigtwo"]\nhand 1 dealer=A\n3C 4C\n', [("P108", 3, 1)]),
        ('[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C\n( hand 2 )\n', [("P109", 4, 3)]),
        ('[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C }\n', [("P101", 3, 7)]),
        ("", [("P106", 1, 1)]),
        ("\n\n  \n", [("P106", 1, 1)]),
    ],
)
def test_bad_text_gets_located_errors(text, expected):
    assert _codes(text.encode("utf-8")) == expected


def test_non_utf8_is_located_and_other_records_go_on():
    good = CANONICAL.encode("utf-8")
    bad = b'[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C {caf\xe9}\n'
    results = list(read_stream(io.BytesIO(bad + b"\n" + good)))
    assert [(d.code, d.line, d.col) for d in results[0].diagnostics] == [("P103", 3, 11)]
    assert results[1].ok


def test_binary_file_is_one_located_error():
    assert _codes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR") == [("P104", 3, 1)]


def test_huge_record_is_refused_in_bounded_memory():
    line = b"A: 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C {" + b"x" * 1000 + b"}\n"
    data = b'[Game "bigtwo"]\nhand 1 dealer=A\n' + line * (MAX_RECORD_BYTES // len(line) + 10)
    data += b'\n[Game "bigtwo"]\nhand 1 dealer=A\nA: 3C\n'
    results = list(read_stream(io.BytesIO(data)))
    assert [d.code for d in results[0].diagnostics] == ["P105"]
    assert results[1].ok


def test_a_line_with_no_end_is_refused():
    data = b'[Game "bigtwo"]\nhand 1 dealer=A\nA: ' + b"3C " * (MAX_RECORD_BYTES // 3 + 10)
    results = list(read_stream(io.BytesIO(data)))
    assert [d.code for d in results[0].diagnostics] == ["P105"]


def test_args_are_classified():
    record = parse('[Game "bigtwo"]\nhand 1 dealer=A\nA: foo 3C +5 -2 7 x=y B: zz\n')
    ev = record.hands[0].events[0]
    assert ev.verb == "foo"
    kinds = [type(a) for a in ev.args]
    assert kinds == [CardsArg, NumArg, NumArg, NumArg, OptionArg, SeatArg, WordArg]


def test_every_code_is_documented():
    from pathlib import Path

    from paifu.notation.diagnostics import CODES

    doc = (Path(__file__).parent.parent / "docs/errors.md").read_text(encoding="utf-8")
    for code, (severity, meaning) in CODES.items():
        assert f"| {code} | {severity} | {meaning} |" in doc, f"docs/errors.md lacks {code}"


def test_comment_commands():
    from paifu.notation.model import comment_commands

    assert comment_commands("good [%clk 0:10] and [%eval +1.5]") == [("clk", "0:10"), ("eval", "+1.5")]
    assert comment_commands("none here") == []


@pytest.mark.parametrize(
    "text,message",
    [
        ('[Game "bigtwo"\nhand 1\n', "P101 a tag is closed with ']' on its line"),
        ("[Game bigtwo]\nhand 1\n", "P101 a tag's value is written in double quotes"),
        ('[Game "bigtwo"]\nhand 1 dealer=A\nA 3C\n', "P108 'A' cannot start an event: a seat is followed by ':', as in 'A: 3C'"),
    ],
)
def test_common_slips_get_readable_messages(text, message):
    (result,) = list(read_text(text))
    assert message in result.diagnostics[0].format()


# -- the token walk reads what Lark's parser reads ----------------------------------------
# notation/reader.py reads a record by a walk over the grammar's own terminals and hands the
# record to Lark's LALR parser wherever the grammar may reject it. The two must agree on
# every text: the same record (positions included) and the same located messages.
from pathlib import Path  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from paifu.notation.reader import _Refused, _walk, parse_chunk, split_records  # noqa: E402

_FRAGMENTS = ['[Game "bigtwo"]', '[Game "sanma"]', '[Game "paohuzi"]', '[Event "a \\"b\\""]', "[Site x]", "[", "]", '"',
              "hand 1 dealer=A", "hand 2", "A: 3C 4C", "B:5D", "C: pass", "A: discard 5p", "deal B: 1x 2x 10d",
              "score A +4 B -4", "x", "X", "a:", ":", "Q", "*", "***", "123m", "9" * 1005,
              "(", ")", "( B: 6D )", "{c}", "{", "}", "!", "?", "!?", "??", "{a\nb}", "{x\nhand 2 dealer=B\n}",
              '{\n[Game "x"] }',  # comments of several lines, and ones that swallow a hand or tag line (P114)
              " ", "  ", "\t", "\u3000", "\f", "\v", "\n", "\r\n", "\n\n", "\r", "é", "牌"]


def _same_reading(text: str, line: int = 1) -> None:
    fast = parse_chunk(text, line)
    lark = parse_chunk(text, line, lark=True)
    assert [d.format() for d in fast.diagnostics] == [d.format() for d in lark.diagnostics]
    assert fast.record == lark.record  # dataclass equality: positions included


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=30), st.integers(1, 50))
def test_the_token_walk_reads_what_lark_reads(fragments, line):
    _same_reading("".join(fragments), line)


# Bodies with no comment, glyph, variation or bracket, and only spaces and line breaks for
# white space, are read line by line (each line one EVENT token): the same reading.
_PLAIN_FRAGMENTS = ['[Game "bigtwo"]\n', '[Game "sanma"]\n', '[Game "paohuzi"]\n', '[Game "jiuzhi"]\n',
                    "hand 1 dealer=A", "hand 2", "A: 3C 4C", "B:5D", "C: pass", "A: discard 5p", "deal B: 1x 2x 10d",
                    "score A +4 B -4", "total A +123456 B -99", "x", "X", "a:", ":", ": x", "Q", "*", "***", "123m",
                    "0p55s", "YK WS", "9" * 1005, "+12", "-7", "=x", "a=b", "A:", "A:x", "AB: 3C", "deal:", "é", "牌",
                    # runs of cards written apart: aliases, stars and words inside them
                    "10D 4C", "3♦ 5♠", "* 3C", "3C ***", "deal A: ** 1x 2x 10d", "A: JK 6C 7", "*" * 40, " 5d", " YK",
                    " ", "  ", "   ", "\n", "\n\n", "\n  ", "hand"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PLAIN_FRAGMENTS), max_size=40), st.integers(1, 50))
def test_the_line_walk_reads_plain_bodies_as_lark_does(fragments, line):
    _same_reading("".join(fragments), line)


def test_the_token_walk_reads_every_record_file_as_lark_does():
    root = Path(__file__).parent
    walked = 0
    for path in sorted(root.glob("records/**/*.paifu")) + sorted((root.parent / "examples").glob("*.paifu")):
        with open(path, "rb") as handle:
            for chunk in split_records(handle):
                if chunk.text:
                    _same_reading(chunk.text, chunk.line)
                    try:
                        _walk(chunk.text, chunk.line - 1, [])
                        walked += 1
                    except _Refused:  # Lark reads it: its error is the message
                        pass
    assert walked > 500  # the walk, not Lark, reads the well-formed records


# -- the block cutter cuts as the line-by-line cutter did -----------------------------------
import paifu.notation.reader as reader_module  # noqa: E402
import split_reference  # noqa: E402  (tests/ is on sys.path, as for tests/mutation.py)

_BYTE_FRAGMENTS = [b'[Game "bigtwo"]\n', b'  [Event "x"]\n', b'[Site "{not a comment"]\n', b"\x0c[Date \"1\"]\n",
                   b"hand 1 dealer=A\n", b"A: 3C 4C\n", b"B: pass\n", b"{a comment\n", b"spanning [lines]}\n", b"}\n",
                   b"{c}\n", b"{ [Game \"in a comment\"] }\n", b"\n", b"\n\n", b"   \n", b"\t\n", b"\r\n", b"A: 5D\r\n",
                   b"\r", b"x\ry\n", b"\xe7\x89\x8c\n", b"\xef\xbb\xbf", b"\xff\n", b"\xe7\x89\n", b"\x00", b"[", b"{", b"}",
                   b"A: 3C", b" ", b"\xe3\x80\x80[Game \"x\"]\n", "\u3000\u00a0".encode("utf-8") + b"\n",
                   # comments among the tags are no body; a Game tag line after one starts a record
                   b'[Players "A: x"] {c}\n', b"{c} A: 3C\n", b"A: 3C {c}\n", b"{c}{d}\n", b"{c} }\n", b'[ Game "x"]\n',
                   b'[Gamer "x"]\n', b"{\n"]


def _cut(cutter, data: bytes) -> list[tuple]:
    return [(c.text, c.line, [d.format() for d in c.diagnostics]) for c in cutter(io.BytesIO(data))]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_BYTE_FRAGMENTS), max_size=40), st.sampled_from([1, 2, 3, 7, 16, 64, 4096]),
       st.sampled_from([4, 16, 8192]))
def test_the_block_cutter_cuts_as_the_line_cutter_did(fragments, block, sniff):
    data = b"".join(fragments)
    saved = reader_module.READ_BLOCK, reader_module.SNIFF_BYTES, split_reference.SNIFF_BYTES
    reader_module.READ_BLOCK, reader_module.SNIFF_BYTES, split_reference.SNIFF_BYTES = block, sniff, sniff
    try:
        new = _cut(split_records, data)
        old = _cut(split_reference.split_records_by_line, data)
        offsets = [c.offset for c in split_records(io.BytesIO(data))]
    finally:
        reader_module.READ_BLOCK, reader_module.SNIFF_BYTES, split_reference.SNIFF_BYTES = saved
    assert new == old
    line_starts = [0] + [i + 1 for i, b in enumerate(data) if b == 10]
    # each record's byte offset is where its first line starts (a file-level problem: line 0 or 1)
    assert offsets == [line_starts[line - 1] if 1 <= line <= len(line_starts) else 0 for _, line, _ in new]


def test_model_copy_deep_is_equal_and_independent():
    """The record model keeps pydantic's ``model_copy`` (tests/mutation.py mutates deep copies)."""
    text = "[Game \"bigtwo\"]\n\nhand 1\nA: play 3c\n"
    record = parse(text)
    twin = record.model_copy(deep=True)
    assert twin == record and twin is not record
    twin.hands[0].events[0].args.clear()
    assert len(record.hands[0].events[0].args) == 1
    renamed = record.model_copy(update={"hands": []})
    assert renamed.hands == [] and len(record.hands) == 1
