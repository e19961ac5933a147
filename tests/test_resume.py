"""A hand the replay cannot finish does not stop the record: the next hand is replayed from
its own deal, with what the record writes (docs/rulings.md §Notation and validator).

The records are the examples and every valid multi-hand record test: hand k is broken by
cutting its play after its first move (its ``score`` line then comes before the hand is
over, L307, or the cut leaves some other illegal line). Every later hand must then replay exactly as in the valid record (no error outside
hand k, N505 at hand k+1's line), where the game can rebuild the next hand's start from
what the record writes; where it cannot, N502 at hand k+1's line says why.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from paifu.notation import read_text
from paifu.notation.reader import read_chunk, split_records
from paifu.replay import validate

ROOT = Path(__file__).parent.parent
# a hand's start that the record's lines cannot give: 99's trumps (trump= is not written on
# later hands of these records), three_wins' games, Paohuzi's draws in a row under the same 親
CANNOT = re.compile(r"trumps follow|format=three_wins|draws in a row is not known")


def _records() -> list:
    out = []
    for path in sorted(ROOT.glob("examples/*.paifu")) + sorted((ROOT / "tests" / "records").rglob("*.paifu")):
        for chunk in split_records(io.BytesIO(path.read_bytes())):
            result = read_chunk(chunk)
            record = result.record
            if record is None or len(record.hands) < 2 or record.tag("Expect") not in (None, "valid"):
                continue
            if validate(record).valid and next(_broken(chunk.text), None) is not None:
                out.append(pytest.param(chunk.text, id=f"{path.relative_to(ROOT)}:{chunk.line}"))
    return out


def _broken(text: str):
    """(k, text with hand k's play cut after its first move, hand k's lines, hand k+1's line)."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if re.match(r"hand\b", line)]
    for k, head in enumerate(heads[:-1]):
        end = heads[k + 1]
        plays = [i for i in range(head, end) if re.match(r"[A-Z]:", lines[i])]
        score = next((i for i in range(head, end) if lines[i].startswith("score")), None)
        if len(plays) < 2 or score is None:
            continue
        cut = {i for i in plays[1:] if i < score}
        kept = [line for i, line in enumerate(lines) if i not in cut]
        yield k, "\n".join(kept), range(head + 1, end - len(cut) + 1), end - len(cut) + 1


@pytest.mark.parametrize("text", _records())
def test_later_hands_replay_after_a_broken_hand(text: str) -> None:
    tried = 0
    for k, broken, hand_lines, next_line in _broken(text):
        tried += 1
        report = validate(next(iter(read_text(broken))).record)
        errors = [d for d in report.diagnostics if d.severity == "error"]
        shown = "\n".join(d.format() for d in report.diagnostics)
        assert errors and all(d.line in hand_lines for d in errors), f"hand {k + 1} broken:\n{shown}"
        at_next = [d for d in report.diagnostics if d.line == next_line and d.code in ("N505", "N502")]
        assert len(at_next) == 1, shown
        if at_next[0].code == "N502":
            assert CANNOT.search(at_next[0].message), shown
    assert tried


NINETYNINE = (ROOT / "examples" / "ninetynine-game.paifu").read_text(encoding="utf-8")


@pytest.mark.parametrize("trump,clean", [("S", True), ("H", False)])
def test_ninetynine_resumes_from_the_trumps_the_hand_line_writes(trump: str, clean: bool) -> None:
    """「99」 §カード勝負: 切札は，最初の手は 0 (ダイヤ)，以後は直前の手で目標どおりに勝った人数
    (0〜3) に対応する印. In ninetynine-game.paifu hand 1, B alone made the target (score
    A +33 B +62 C +4: only B has the 30 of one success): one success, spades (スペードは 1).
    Hand 1 broken, hand 2's line writes trump=S: hand 2 replays as written, no error. With
    trump=H the hand is played with the wrong trumps and its errors show."""
    k, broken, hand_lines, next_line = next(_broken(NINETYNINE))
    lines = broken.split("\n")
    lines[next_line - 1] += f" trump={trump}"
    report = validate(next(iter(read_text("\n".join(lines)))).record)
    later = [d for d in report.diagnostics if d.severity == "error" and d.line > next_line]
    assert any(d.code == "N505" and d.line == next_line for d in report.diagnostics)
    assert (later == []) is clean, [d.format() for d in later]
