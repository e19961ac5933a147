"""The sanma half-game's busting levels and final points (「三人麻雀」のルール ver. 1.3 §基本ルール
9, 10, 15, 16; RULINGS §sanma), with values worked out by hand."""

from __future__ import annotations

import doctest

from paifu.replay.engine import Payment, Rules
from paifu.replay.mahjong.sanma import match as M
from paifu.replay.mahjong.sanma.engine import SanmaMatch


def test_doctests():
    assert doctest.testmod(M).failed == 0


def test_minus_30000_is_one_level_and_minus_30100_two():
    # RULINGS §sanma: "-30000 is one level, -30100 two" (rule 16.3: 零下三万点ごとに)
    one = M.busts_in({"A": 0}, [Payment("A", "B", 30000)])
    two = M.busts_in({"A": 0}, [Payment("A", "B", 30100)])
    assert [b.threshold for b in one] == [0]
    assert [b.threshold for b in two] == [0, -30000]


def test_zero_is_not_below_zero():
    # rule 15: 持ち点が零を下回った場合: exactly 0 is not a bust
    assert M.busts_in({"A": 8000}, [Payment("A", "B", 8000)]) == []


def test_a_bust_stays_when_the_score_comes_back():
    # rule 15.1: その結果が零以上であっても飛びとして半荘は終了する
    found = M.busts_in({"A": 1000, "B": 0}, [Payment("A", "B", 2000), Payment("pot", "A", 5000)])
    assert [(b.seat, b.receiver) for b in found] == [("A", "B")]


def _match(totals: dict[str, int]) -> SanmaMatch:
    rules = Rules({"bust_levels": "crossing", "double_bust": "each"})
    return SanmaMatch(rules=rules, seats=["A", "B", "C"], totals=totals, prizes=[])


def test_final_points_without_a_bust():
    # A 45000, B 35000, C 10000 (a pot of 0): A (45000 - 40000) / 1000 = +5, 丘 +30, 順位馬 +10 = +45;
    # B -5; C -30 - 10 = -40. Sum 0.
    final = M.final_settlement(_match({"A": 45000, "B": 35000, "C": 10000}))
    assert final.deltas == {"A": 45, "B": -5, "C": -40}


def test_a_pot_left_at_the_end_goes_to_first():
    # RULINGS §sanma: a pot left at the end goes to first. A 44000 + 1000 = 45000: +45 as above
    m = _match({"A": 44000, "B": 35000, "C": 10000})
    m.pot = 1000
    assert M.final_settlement(m).deltas == {"A": 45, "B": -5, "C": -40}


def test_equal_scores_by_seat_from_the_first_dealer():
    # B and C equal at 20000, the first dealer is B: B second (-20), C third (-20 - 10 = -30);
    # A 50000: +10 + 30 + 10 = +50. Sum 0.
    m = _match({"A": 50000, "B": 20000, "C": 20000})
    m.first_dealer = "B"  # type: ignore[attr-defined]
    assert M.final_settlement(m).deltas == {"A": 50, "B": -20, "C": -30}
    m.first_dealer = "C"  # type: ignore[attr-defined]
    assert M.final_settlement(m).deltas == {"A": 50, "B": -30, "C": -20}
