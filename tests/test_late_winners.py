"""Late wins by hands the scribe did not see (the mahjong core's ``late_claimants``).

The replay ends a hand when no hand it sees can win on the last discard, or can also win on
a won discard; a seat with unseen tiles may still win there until the score line. The
record tests (tests/records/GAME/late-winners.paifu) say what the validator reports; these
check what the settlement holds, worked out by hand from each game's scoring rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paifu.notation import parse, read_path
from paifu.replay.validate import validate_read
from paifu.replay import validate

RECORDS = Path(__file__).parent / "records"


def _hand(game: str, index: int, hand: int = 0):
    result = list(read_path(RECORDS / game / "late-winners.paifu"))[index - 1]
    return validate_read(result, index).hands[hand]


def _payments(hand) -> list[tuple[str, str, int]]:
    return [(p.payer, p.payee, p.amount) for p in hand.payments]


def test_kawuxing_seen_winner_paid_beside_an_unseen_one():
    # B: 46p waits on 5p (卡五星, 1 double): x2 from the discarder A. C's win is unseen.
    hand = _hand("kawuxing", 1)
    assert _payments(hand) == [("A", "B", 2)]
    assert [(i.seat, i.term) for i in hand.items if i.term] == [("B", "卡五星")]


def test_kawuxing_four_players_seen_winner_paid():
    hand = _hand("kawuxing", 2)
    assert _payments(hand) == [("A", "C", 2)]


def test_sanma_double_ron_in_turn_from_the_discarder():
    # C is first from the discarder B: 清一色 6 han, 40 fu: 跳満 12000 + 1 honba = 13000 from B,
    # and the pot (1000) to C; the unseen dealer A, written second, is paid after C.
    hand = _hand("sanma", 1)
    assert _payments(hand) == [("B", "C", 13000), ("pot", "C", 1000)]
    assert any(i.term == "ダブロン" and i.detail.startswith("C then A on 9s") for i in hand.items)


def test_sanma_last_discard_winners_ordered_from_the_discarder():
    # written B then A; from the discarder C the order is A, B (rule 14.1)
    hand = _hand("sanma", 2)
    assert any(i.term == "ダブロン" and i.detail.startswith("A then B on 1m") for i in hand.items)


def test_yichang_both_late_winners_in_the_settlement():
    hand = _hand("yichang", 2)
    assert [(i.seat, i.name) for i in hand.items if i.name.startswith("win ")] == [
        ("B", "win 1 (hand unseen)"), ("A", "win 2 (hand unseen)")]


PAOMAZAI = """[Game "paomazai"]

hand 1 dealer=A
deal A: 2468m2468p2468s77z
deal B: 123m456p789s1117z
deal C: 123m456p789s2345z
deal D: *************
A: discard 7z
B: win ron 7z
"""


@pytest.mark.parametrize("late, code", [
    ("D: win ron 7z", None),  # unseen: taken on trust, paid 300 by the discarder
    ("D: pass\nD: win ron 7z", "L308"),  # passed first
    ("C: win ron 7z", "L308"),  # seen, and its hand does not win on 7z
    ("B: win ron 7z", "L308"),  # won already
    ("A: win ron 7z", "L308"),  # the discarder
    ("score A -300 B +300 C 0 D 0\nD: win ron 7z", "L308"),  # after the score line
    ("D: win tsumo 7z", "L301"),  # not a self-draw: the win is on the discard
])
def test_who_may_win_late(late: str, code: str | None):
    report = validate(parse(PAOMAZAI + late + "\n"))
    errors = [(d.code, d.line) for d in report.diagnostics if d.severity == "error"]
    if code is None:
        assert errors == [], [d.format() for d in report.diagnostics]
        assert report.hands[0].computed == {"A": -600, "B": 300, "C": 0, "D": 300}
    else:
        last = PAOMAZAI.count("\n") + late.count("\n") + 1
        assert errors == [(code, last)], [d.format() for d in report.diagnostics]


def test_a_failed_late_win_leaves_the_hand_as_it_was():
    """A late win on another tile is located (L301), and the hand stays as B's win left it."""
    from paifu.replay.validate import replay

    states = []
    report = replay(parse(PAOMAZAI + "D: win ron 6z\n"), on_step=lambda step: states.append(step.state))
    assert [(d.code, d.line) for d in report.diagnostics if d.severity == "error"] == [("L301", 10)]
    state = states[-1]
    assert (state.phase, state.over, [w.seat for w in state.wins]) == ("done", True, ["B"])
