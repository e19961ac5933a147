"""``paifu validate --explain``: each hand's settlement for people (issue 34).

The figures are worked out by hand from the rule text 「武漢の「紅中頼子槓」麻雀」
(000_d19ded950c7752da.txt, 2018-10-06) §点数計算 and §飜数, whose worked example is hand 1
of examples/wuhan-basics.paifu:

    A: 親, 開口          B: 放銃, 開口          C: 開口, 紅中槓 1 回, 頼子槓 1 回
    D: 上がり, 小胡, 硬胡, 開口
    A -> D: 1 (基本点) x2 (D 硬胡) x2 (D 開口) x2 (A 親) x2 (A 開口) = 16
    B -> D: 1 x2 x2 x2 (B 放銃) x2 (B 開口) = 16
    C -> D: 1 x2 x2 x2 (C 開口) x2 (C 紅中槓) x4 (C 頼子槓) = 64
    D gets 16 + 16 + 64 = 96.
"""

from __future__ import annotations

from pathlib import Path

from paifu.cli import main
from paifu.explain import explain
from paifu.notation import read_path
from paifu.replay.validate import validate_read

ROOT = Path(__file__).parent.parent
WUHAN = ROOT / "examples/wuhan-basics.paifu"


def run(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def report_of(path: Path, index: int = 1):
    return validate_read(list(read_path(path))[index - 1], index)


def wrong_copy(tmp_path: Path) -> Path:
    """wuhan-basics with hand 1's 頼子槓 counted x2 instead of x4 (rule text §飜数 (1): 「暗槓,
    頼子槓:1つにつき2飜(x4)」): C pays 32, not 64, and D gets 64, not 96."""
    text = WUHAN.read_text(encoding="utf-8")
    bad = text.replace("score A -16 B -16 C -64 D +96", "score A -16 B -16 C -32 D +64", 1)
    bad = bad.replace("total A -16 B -16 C -64 D +96", "total A -16 B -16 C -32 D +64", 1)
    assert bad != text
    f = tmp_path / "wrong.paifu"
    f.write_text(bad, encoding="utf-8")
    return f


def test_the_rule_texts_worked_example_item_by_item():
    expl = explain(report_of(WUHAN), hand=1)
    (hand,) = expl.hands
    assert hand.number == 1 and hand.line == 10 and hand.agrees
    fan = {(r.seat, r.item): r.detail for r in hand.items}
    assert fan[("D", "小胡 (平胡/屁胡) small hand")] == "base 1"  # 基礎点 小胡: 1点
    assert fan[("D", "硬胡 hard hand")] == fan[("D", "開口 open")] == "1 飜"
    assert fan[("A", "荘家 dealer")] == fan[("A", "開口 open")] == "1 飜"  # 荘家: 小胡なら1飜
    assert fan[("B", "放銃者 discarder")] == "1 飜"  # 放銃者: 小胡なら1飜
    assert fan[("C", "紅中槓 red dragon kong")] == "1 飜" and fan[("C", "頼子槓 頼子 kong")] == "2 飜"
    assert [(p.payer, p.payee, p.amount) for p in hand.payments] == [("A", "D", 16), ("B", "D", 16), ("C", "D", 64)]
    assert [(s.seat, s.name, s.written, s.computed, s.total) for s in hand.seats] == [
        ("A", "Hu", -16, -16, -16), ("B", "Chen", -16, -16, -16), ("C", "Liu", -64, -64, -64), ("D", "Zhang", 96, 96, 96)]


def test_running_totals_carry_to_the_next_hand():
    """Hand 2 of the example: C's 碰碰胡 tsumo, base 10 (大胡: 10点), 開口 x2, tsumo in a big hand
    半飜 x1.5: 10 x 2 x 1.5 = 30 from each of A, B and D (the dealer B counts 0 飜 in a big hand),
    so the totals after it are A -16-30 = -46, B -46, C -64+90 = +26, D 96-30 = +66."""
    (hand,) = explain(report_of(WUHAN), hand=2).hands
    assert [(p.payer, p.amount) for p in hand.payments] == [("A", 30), ("B", 30), ("D", 30)]
    assert {s.seat: s.total for s in hand.seats} == {"A": -46, "B": -46, "C": 26, "D": 66}


def test_explain_prints_the_settlement_as_plain_columns_when_piped(capsys):
    code, out, _ = run(["validate", "--explain", "--hand", "1", str(WUHAN)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{WUHAN}:1: record 1, wuhan: A Hu, B Chen, C Liu, D Zhang"
    assert "hand 1 (line 10)" in lines and "hand 2 (line 43)" not in out
    assert any(x.split() == ["C", "頼子槓", "頼子", "kong", "2", "2", "飜"] for x in lines)
    assert any(x.split() == ["C", "D", "64", "1", "×", "2^6", "=", "64"] for x in lines)
    assert any(x.split() == ["D", "Zhang", "+96", "+96", "+96"] for x in lines)
    assert "\x1b[" not in out and "─" not in out and not [x for x in lines if x != x.rstrip()]
    assert " N501 " not in out and "11 notes: unseen tiles taken on trust (N501); --notes lists them" in out


def test_a_differing_score_line_shows_the_line_and_the_items_behind_it(capsys, tmp_path):
    f = wrong_copy(tmp_path)
    code, out, _ = run(["validate", "--explain", "--hand", "1", str(f)], capsys)
    assert code == 1
    lines = [x.strip() for x in out.splitlines()]
    assert "the written score line (line 40) differs: A -16  B -16  C -32  D +64" in lines
    at = lines.index("C: written -32, computed -64 (32 more than the rules give), from:")
    assert lines[at + 1:at + 5] == ["開口 open: 1 飜", "紅中槓 red dragon kong: 1 飜", "頼子槓 頼子 kong: 2 飜", "C pays D 64 (1 × 2^6 = 64)"]
    assert "D: written +64, computed +96 (32 less than the rules give), from:" in lines
    assert any(x.split() == ["C", "Liu", "-32", "-64", "≠", "-64"] for x in lines)
    assert any(x.split() == ["A", "Hu", "-16", "-16", "-16"] for x in lines)  # A agrees: not marked
    score = f.read_text(encoding="utf-8").splitlines()[39]
    assert f"{f}:40:{score.index('-32') + 1}: S401 score of C: written -32, computed -64" in lines
    marked = [x.split()[1:3] for x in lines if x.startswith("≠")]
    assert ["C", "開口"] in marked and ["A", "開口"] not in marked and ["C", "D"] in marked


def test_explain_names_a_missing_hand_and_refuses_json(capsys):
    code, out, _ = run(["validate", "--hand", "9", str(WUHAN)], capsys)
    assert code == 0 and "no hand 9 in this record" in out
    code, _, err = run(["validate", "--explain", "--json", str(WUHAN)], capsys)
    assert code == 2 and "--explain" in err


def test_explain_keeps_the_errors_of_every_record(capsys):
    """A record with an illegal action: its error is printed under the hand it is in, and the
    other records are explained too."""
    settlement = ROOT / "tests/records/bigtwo/settlement.paifu"
    code, out, _ = run(["validate", "--explain", str(settlement)], capsys)
    assert code == 1
    assert out.count(": record ") == 4
    assert f"{settlement}:134:16: S401 score of B: written -36, computed -72" in out
    assert out.rstrip().endswith("4 record(s): 3 valid, 1 invalid; 2 error(s), 0 note(s)")


def test_figures_hidden_cards_leave_unknown_are_not_called_wrong(capsys):
    """tests/records/wuhan/bao.paifu, record 3: C wins 全求人 on D's discard, and D's hand was not
    seen, so whether D was ready, and so 包 (「聴牌していないで,全求人を放銃したら包です」), is not
    known: who pays is unknown, and the written 0 for A and B is no error (the validator notes
    it, N501). C's gain is checked: base 20 (碰碰胡 10 + 全求人 10), C's 開口 and 硬胡 2 飜:
    20 × 2^2 = 80 from A and from B, and D's 放銃 in a big hand 半飜: 80 × 1.5 = 120; 280."""
    bao = ROOT / "tests/records/wuhan/bao.paifu"
    (hand,) = explain(report_of(bao, 3)).hands
    assert hand.agrees
    assert [(s.seat, s.unknown) for s in hand.seats] == [("A", True), ("B", True), ("C", False), ("D", True)]
    assert [(s.written, s.computed) for s in hand.seats if s.seat == "C"] == [(280, 280)]
    code, out, _ = run(["validate", "--explain", str(bao)], capsys)
    third = out.split(": record 3, wuhan")[1].split(": record 4,")[0]
    assert "differs" not in third and "≠" not in third
    assert any(x.split() == ["A", "0", "?", "?"] for x in third.splitlines())
    assert "?: hidden cards leave the figure of A, B and D unknown: not checked, nor the running total from here on" in third
