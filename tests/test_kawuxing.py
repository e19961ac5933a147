"""Kawuxing: scoring table, selfplay records validate, mutations are rejected."""

from __future__ import annotations

import random
from hypothesis import assume, given, settings, strategies as st

from notation import parse
from notation.model import CardsArg, NumArg
from notation.writer import write_records
from replay import tiles as T
from replay.games import engine
from replay.kawuxing import PATTERNS, hand_score
from replay.mahjong import Meld, Move, Seen, Win
from replay.selfplay import selfplay_record
from replay.validate import validate

ENGINE = engine("kawuxing")


def _win(hand: str, tile: str, how: str = "ron", melds: list[Meld] | None = None, **kw) -> Win:
    counts = T.counts_of(hand)
    counts[T.tile_index(tile)] += 1
    return Win("B", how, tile, "A", counts, melds or [], **kw)


def _keys(score):
    return sorted(k for k, _ in score.patterns)


def test_pattern_table_values_follow_the_seed():
    doubles = {p.term: p.doubles for p in PATTERNS.values()}
    assert doubles["碰碰胡"] == doubles["卡五星"] == doubles["亮倒"] == doubles["海底捞"] == 1
    assert doubles["清一色"] == doubles["七对"] == doubles["手抓一"] == doubles["小三元"] == doubles["暗四归一"] == 2
    assert doubles["大三元"] == doubles["龙七对"] == 3
    assert doubles["双龙七对"] == 4


def test_fit_five_needs_the_five_between_four_and_six():
    assert _keys(hand_score(_win("46p123s789s555z66z", "5p"))) == ["fit_five"]
    # 5p as a pair wait is no 卡五星
    assert "fit_five" not in _keys(hand_score(_win("5p123s789s555z666z", "5p")))


def test_highest_reading_is_chosen():
    # 111222333p: three pungs (碰碰胡) or three runs; the pung reading scores more
    score = hand_score(_win("111222333p999s7z", "7z"))
    assert "all_pung" in _keys(score)


def test_dragon_seven_pairs_replace_seven_pairs_and_closed_four():
    assert _keys(hand_score(_win("11113355p7799s7z", "7z"))) == ["dragon_pairs"]
    assert hand_score(_win("1111333355p99s7z", "7z")).capped == 3
    assert hand_score(_win("1111333355p99s7z", "7z"), "double_dragon").capped == 4


def test_cap_is_three_doubles():
    score = hand_score(_win("1111234555678p", "9p"))
    assert score.raw == 4 and score.capped == 3 and score.multiplier == 8


def test_situational_patterns():
    assert _keys(hand_score(_win("12345s456789p66z", "3s", how="tsumo", replacement=True, turn_kongs=2))) == ["bloom"]
    assert hand_score(_win("12345s456789p66z", "3s", how="tsumo", replacement=True, turn_kongs=2)).raw == 2
    assert _keys(hand_score(_win("12345s456789p66z", "3s", how="rob"))) == ["rob"]
    assert _keys(hand_score(_win("12345s456789p66z", "3s", disclosed=True))) == ["disclosure"]
    assert _keys(hand_score(_win("12345s456789p66z", "3s", how="tsumo", last_tile=True))) == ["bottom"]
    assert _keys(hand_score(_win("12345s456789p66z", "3s", after_kong=True))) == ["kong_discard"]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed, hands=2)
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_changed_score_is_rejected(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    score = next(e for e in record.hands[0].events if e.verb == "score")
    num = score.args[1]
    assert isinstance(num, NumArg)
    num.value += 1
    report = validate(parse(write_records([record])))
    assert ("S401", score.at.line) in [(d.code, d.line) for d in report.diagnostics]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_discard_not_held_is_rejected(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    hand = record.hands[0]
    deal_a = next(e for e in hand.events if e.verb == "deal" and e.args[0].seat == "A")
    held = set(deal_a.cards())
    first = next((e for e in hand.events if e.seat == "A" and e.verb in ("discard", "disclose")), None)
    assume(first is not None)  # A may win or kong before any discard of his
    missing = next(c for c in T.tile_set("84", suits="ps") if c not in held)
    first.args[0] = CardsArg(cards=[missing], at=first.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L303", first.at.line) in [(d.code, d.line) for d in report.diagnostics if d.severity == "error"]


def test_selfplay_wins_and_reaches_the_scoring():
    won = hands = 0
    seen: set[str] = set()
    for seed in range(10):
        record = parse(write_records([selfplay_record(ENGINE, seed, hands=2)]))
        report = validate(record)
        assert report.valid
        for hand, out in zip(record.hands, report.hands):
            hands += 1
            won += any(e.verb == "win" for e in hand.events)
            seen.update(i.term for i in out.items)
    assert won * 2 >= hands
    assert {"亮倒", "暗杠"} & seen


def test_selfplay_robs_kongs_and_chains_them():
    """Over these fixed seeds (measured), the policy robs a growing kong and makes a kong chain."""
    terms: set[str] = set()
    details: list[str] = []
    for seed in range(30, 60):
        report = validate(parse(write_records([selfplay_record(ENGINE, seed)])))
        assert report.valid
        for out in report.hands:
            terms.update(i.term for i in out.items)
            details.extend(i.detail for i in out.items)
    assert "抢杠胡" in terms
    assert any("kong chain of" in d for d in details)


def test_policy_kongs_before_disclosing():
    # B ponned 9p and draws the fourth while ready: the growing kong pays at once, so it comes first
    counts = T.counts_of("123m456p78s11z9p")
    seen = Seen("B", counts, 1, list(counts), 40, False, list(range(34)), {})
    legal = [Move("B", "discard", t) for t in ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "1z", "9p")]
    legal += [Move("B", "disclose", "9p"), Move("B", "kong", "9p")]
    assert ENGINE.choose(seen, legal, random.Random(0)).verb == "kong"


def test_disclosed_hand_kong_cites_the_kawuxing_ruling():
    """亮倒 is Kawuxing's rule: a kong after it is refused citing docs/rulings.md §kawuxing, not the
    mahjong family's section."""
    text = """[Game "kawuxing"]
[Result "*"]

hand 1 dealer=A
deal A: **************
deal B: 12345s456789p66z
deal C: *************
A: discard 9s
B: draw 7z
B: disclose 7z
C: draw *
C: discard 1p
A: draw *
A: discard 2p
B: draw 6z
B: kong 6z
"""
    report = validate(parse(text))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [("L301", 16)]
    assert errors[0].rule == "docs/rulings.md §kawuxing"
