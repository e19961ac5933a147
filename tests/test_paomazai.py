"""Paomazai: selfplay records validate; mutations are rejected with the right code."""

from __future__ import annotations


from hypothesis import assume, given, settings, strategies as st

from notation.model import CardsArg, NumArg
from notation.writer import write_records
from notation import parse
from replay import tiles as T
from replay.games import engine
from replay.paomazai import horse_matches
from replay.selfplay import selfplay_record
from replay.validate import validate

ENGINE = engine("paomazai")


def _codes(report):
    return [(d.code, d.line) for d in report.diagnostics if d.severity == "error"]


def test_horse_table_follows_the_seed():
    # ●奨馬 東…東・1・5・9 南…南・中・2・6 西…西・發・3・7 北…北・白・4・8
    wants = {0: "1z 1m 5p 9s", 1: "2z 7z 2m 6s", 2: "3z 6z 3p 7m", 3: "4z 5z 4s 8p"}
    for wind, tiles in wants.items():
        for t in tiles.split():
            assert horse_matches(wind, t)
            assert sum(horse_matches(w, t) for w in range(4)) == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed, hands=1)
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_changed_score_is_rejected(seed):
    record = selfplay_record(ENGINE, seed, hands=1)
    text = write_records([record])
    record = parse(text)
    score = next(e for e in record.hands[0].events if e.verb == "score")
    num = score.args[1]
    assert isinstance(num, NumArg)
    num.value += 100
    report = validate(parse(write_records([record])))
    assert ("S401", score.at.line) in _codes(report)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_discard_not_held_is_rejected(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    hand = record.hands[0]
    deal_a = next(e for e in hand.events if e.verb == "deal" and e.args[0].seat == "A")
    held = set(deal_a.cards())
    first = next((e for e in hand.events if e.seat == "A" and e.verb == "discard"), None)
    assume(first is not None)  # A may win or kong before any discard of his
    missing = next(c for c in T.CODES if c not in held)
    first.args[0] = CardsArg(cards=[missing], at=first.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L303", first.at.line) in _codes(report)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_draw_against_the_written_wall(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    hand = record.hands[0]
    draw = next((e for e in hand.events if e.verb == "draw"), None)
    if draw is None:
        return
    tile = draw.cards()[0]
    other = "1z" if tile != "1z" else "2z"
    draw.args[0] = CardsArg(cards=[other], at=draw.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L301", draw.at.line) in _codes(report)


def test_selfplay_wins_at_least_half_its_hands():
    won = hands = 0
    for seed in range(8):
        record = parse(write_records([selfplay_record(ENGINE, seed, hands=2)]))
        for hand in record.hands:
            hands += 1
            won += any(e.verb == "win" for e in hand.events)
    assert won * 2 >= hands


def test_selfplay_robs_an_added_kong():
    """Over these fixed seeds (measured), a ready hand robs an added kong (搶槓糊)."""
    terms: set[str] = set()
    for seed in range(135, 155):
        report = validate(parse(write_records([selfplay_record(ENGINE, seed)])))
        assert report.valid
        for out in report.hands:
            terms.update(i.term for i in out.items)
    assert "搶槓糊" in terms


def test_horse_count_message_quotes_the_seed_and_says_the_count_outside():
    """■奨馬の規則: 「自模上がりした人が、自模上がった牌の次の牌から5枚引く」. With horses=3 the
    message must quote the seed's 5枚 and give the computed 3 outside the quotation."""
    text = """[Game "paomazai"]
[Option "horses=3"]

hand 1 dealer=A
deal A: 123m456p789s11122z
deal B: *************
deal C: *************
deal D: *************
A: win tsumo 2z
horses 1m2m
"""
    report = validate(parse(text))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [("L301", 10)]
    message = errors[0].message
    assert "「自模上がった牌の次の牌から5枚引く」" in message
    assert message.startswith("3 horses are drawn here, not 2")
    quoted = message[message.index("「"):message.index("」")]
    assert "3" not in quoted
