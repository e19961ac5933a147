"""Yichang 血流成河: the scoring table, the hand's patterns, readiness, the exchange, selfplay.

Seed 003_3d526110ac5f85e4.txt 「湖北宜昌の「血流成河」麻雀」; each test names its section. The
whole-hand cases (payments, several wins, 花猪, the next dealer) are record tests in
tests/records/yichang/ with their arithmetic in comments.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from paifu.notation import parse
from paifu.notation.writer import write_records
from paifu.replay.mahjong import tiles as T
from paifu.replay.games import engine
from paifu.replay.mahjong.core import Meld, Move
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate
from paifu.replay.mahjong.yichang import (EXCHANGE_FROM, HOLDS, ITEMS, choose_exchange, concealed_self_draw, kong_fan, pattern_of,
                            ready_value)

ENGINE = engine("yichang")


def test_fan_table_is_the_seed_table():
    # §手の役と点数: 何もない手 1番, 碰碰胡 3番, 清一色 6番, 清碰 9番; 門前自摸 プラス1番;
    # 明槓 1つにつきプラス1番, 暗槓 1つにつきプラス2番
    fan = {i.term: i.fan for i in ITEMS.values()}
    assert fan["何もない手"] == 1 and fan["碰碰胡"] == 3 and fan["清一色"] == 6 and fan["清碰"] == 9
    assert fan["門前自摸"] == 1 and fan["明槓"] == 1 and fan["暗槓"] == 2
    assert fan["花猪"] == 2  # §欠門できなかった場合(花猪)の罰: 一番高い役の点の2倍


def test_patterns_of_winning_hands():
    # §手の役と点数: 碰碰胡 頭以外は刻子と槓子しかない手; 清一色 1種類の牌だけの手; 清碰 清一色の碰碰胡
    assert pattern_of(T.counts_of("123m456m789p11p234p"), []) == "plain"
    assert pattern_of(T.counts_of("111p999p555s222s77p"), []) == "all_pungs"
    assert pattern_of(T.counts_of("1112345678999s" + "2s"), []) == "one_suit"
    assert pattern_of(T.counts_of("111s333s555s777s99s"), []) == "pure_pungs"
    # a pon counts as a pung, and its suit counts: 111p 555p 99p + pon 777p, kong 3333p
    melds = [Meld("pon", "7p", "A"), Meld("kong_concealed", "3p")]
    assert pattern_of(T.counts_of("111p555p99p"), melds) == "pure_pungs"
    # §ゲームの目的と上がりの形: 1と9は連続していないので,912は組になりません
    assert pattern_of(T.counts_of("912m456m789m11p234p"), []) is None


def test_later_wins_hold_the_first_pattern():
    # §上がり: 1度目の役に他の役が複合した形の上がりは認められます
    assert HOLDS["all_pungs"] == {"all_pungs", "pure_pungs"}
    assert "plain" not in HOLDS["one_suit"] and "pure_pungs" in HOLDS["one_suit"]
    assert HOLDS["plain"] >= {"plain", "all_pungs", "one_suit", "pure_pungs"}


def test_concealed_self_draw():
    # §手の役と点数: 一度もポンしないでツモ上がりしたら 門前自摸; RULINGS: any claim breaks it (closed),
    # self_draw=no_pon: a pon only (an added kong was a pon)
    closed, direct = [Meld("kong_concealed", "3m")], [Meld("kong_direct", "1m", "B")]
    assert concealed_self_draw([], "closed") and concealed_self_draw(closed, "closed")
    assert not concealed_self_draw(direct, "closed") and concealed_self_draw(direct, "no_pon")
    for meld in (Meld("pon", "4m", "C"), Meld("kong_added", "2m", "C")):
        assert not concealed_self_draw([meld], "closed") and not concealed_self_draw([meld], "no_pon")


def test_kong_items():
    # §手の役と点数: 明槓 +1 each (直槓 and 補槓 are both 明槓), 暗槓 +2 each
    melds = [Meld("kong_direct", "1m", "B"), Meld("kong_added", "2m"), Meld("kong_concealed", "3m"), Meld("pon", "4m", "C")]
    assert dict(kong_fan(melds)) == {"open_kong": 2, "closed_kong": 1}


def test_ready_value_is_the_best_wait():
    # §聴牌できなかった場合の罰: それぞれの手で上がれる一番高い役の点
    # 111s 33s 45678s 999s waits on 2s 3s 6s 9s, each 清一色 (6); none is 清碰
    assert ready_value(T.counts_of("1113345678999s"), []) == 6
    # 111p 999p 555s 77p 22s: 7p or 2s, both 碰碰胡 (3)
    assert ready_value(T.counts_of("111p999p555s77p22s"), []) == 3
    # 123m 456p 789s 22s 34s is shape-ready on 2s 5s but holds three suits: no win, not ready
    assert ready_value(T.counts_of("123m456p789s22s34s"), []) is None
    # 123p 456p 789p 111s 4s waits on 4s (111s 44s) only: 1 (何もない手, runs in the hand)
    assert ready_value(T.counts_of("123p456p789p111s4s"), []) == 1


def test_a_wait_held_in_ones_own_melds_is_no_wait():
    # §聴牌できなかった場合の罰 (それぞれの手で上がれる…): a tile whose four copies the player holds
    # himself cannot come (docs/rulings.md §yichang): 46p beside a kong of 5p, or a lone 5p
    # beside a pon of 5p, waits on nothing
    assert ready_value(T.counts_of("111m222m88m46p"), [Meld("kong_concealed", "5p")]) is None
    assert ready_value(T.counts_of("123m456m789m5p"), [Meld("pon", "5p", "B")]) is None
    # a pon of 5p and 46p: the fourth 5p can still come
    assert ready_value(T.counts_of("111m222m88m46p"), [Meld("pon", "5p", "B")]) == 1


def test_exchange_direction_follows_the_die():
    # §換三張: 出た目が1か2なら下家(右隣),3か4なら対面(向かい),5か6なら上家(左隣)の人が出した牌を取り
    # seats A B C D in turn order; 下家 is one place on, 対面 two, 上家 three
    assert [EXCHANGE_FROM[d] for d in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_policy_puts_out_the_shortest_suit():
    from paifu.replay.mahjong.core import Seen

    counts = T.counts_of("1234567m11p345p9s8s7s")
    s = Seen("A", counts, 0, list(counts), 55, False, list(range(27)), {})
    moves = [Move("A", "exchange", None, None, tuple(c)) for c in (("1m", "2m", "3m"), ("7s", "8s", "9s"), ("1p", "1p", "3p"))]
    assert choose_exchange(s, moves).tiles == ("7s", "8s", "9s")


def test_options_are_listed():
    names = {o.name: o for o in ENGINE.options}
    assert names["self_draw"].default == "closed" and names["self_draw"].check("no_pon") is None
    assert names["repeat_pay"].default == "pattern" and names["repeat_pay"].check("full") is None
    assert names["kong_out"].default == "on" and names["kong_out"].check("off") is None
    assert names["flower_pig"].default == "2" and names["flower_pig"].check("3") is None
    assert names["hands"].check("4") is None and names["hands"].check("x") and names["hands"].check("0")


def _record_text(seed: int, hands: int = 1) -> str:
    return write_records([selfplay_record(ENGINE, seed, hands=hands)])


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_records_validate_and_wins_go_on(seed):
    text = _record_text(seed)
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert sum(report.totals.values()) == 0
    # the wall is used to the last tile: 55 tiles after the deal, each drawn once
    draws = sum(1 for line in text.split("\n") if ": draw " in line)
    assert draws == 108 - 53


def test_selfplay_reaches_repeated_wins_and_several_winners():
    reports = []
    for seed in range(40):
        reports.extend(validate(parse(_record_text(seed))).hands)
    lines = ENGINE.selfplay_summary(reports)
    two_plus = int(lines[1].split(":")[1].split()[0])
    multi = int(lines[2].split(":")[1].split()[0])
    assert two_plus >= 20 and multi >= 1, lines


def test_hands_option_ends_the_game():
    text = _record_text(4, hands=2).replace('[Seed "4"]', '[Seed "4"]\n[Option "hands=1"]')
    report = validate(parse(text))
    assert any(d.code == "R209" for d in report.diagnostics)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3))
def test_dropped_exchange_line_is_rejected_at_the_die(seed, which):
    # §換三張: 親がサイコロ1つを振ります, after the four have put out their tiles
    lines = _record_text(seed).split("\n")
    exchanges = [k for k, line in enumerate(lines) if ": exchange " in line]
    del lines[exchanges[which]]
    die = exchanges[-1]  # the die's line moves up one
    codes = {(d.code, d.line) for d in validate(parse("\n".join(lines))).diagnostics if d.severity == "error"}
    assert codes == {("L301", die + 1)}


def test_rules_command_lists_the_scoring_items(capsys):
    from paifu.cli import main

    assert main(["rules", "yichang"]) == 0
    out = capsys.readouterr().out
    for word in ("kong_out", "flower_pig", "碰碰胡", "清碰", "門前自摸", "花猪"):
        assert word in out


def test_stats_print_the_wins_summary(capsys):
    from paifu.cli import main

    assert main(["selfplay", "yichang", "-n", "2", "--seed", "1", "--stats"]) == 0
    err = capsys.readouterr().err
    assert "wins per hand" in err and "hands with 2+ wins" in err and "花猪" in err


def test_view_shows_the_exchange_face_down_and_the_tiles_set_aside():
    from paifu.notation import read_path
    from paifu.replay.engine import HandHeader

    record = next(iter(read_path("examples/yichang-three-wins.paifu"))).record
    hand = record.hands[0]
    match = ENGINE.start_match({o.name: o.default for o in ENGINE.options}, list("ABCD"))
    n = next(i for i, e in enumerate(hand.events) if e.seat is not None)  # the leading set-up lines
    setup = hand.events[:n]
    state = ENGINE.start_hand(match, HandHeader(1, "A", {}), setup)
    plays = [e for e in hand.events[len(setup):] if e.verb not in ("score", "total")]
    ENGINE.apply(state, ENGINE.read_action(state, plays[0]))  # A: exchange 456s
    a = next(s for s in ENGINE.view(state, "B").seats if s.seat == "A")
    assert [(z.name, z.hidden) for z in a.zones if z.name == "exchange"] == [("exchange", 3)]
    assert a.zones[0].hidden == 11  # B sees A's 14 - 3 tiles face down
    for event in plays[1:]:
        if event.verb == "win" and event.seat == "C" and event.args[0].text == "tsumo":
            ENGINE.apply(state, ENGINE.read_action(state, event))
            break
        ENGINE.apply(state, ENGINE.read_action(state, event))
    c = next(s for s in ENGINE.view(state, None).seats if s.seat == "C")
    assert next(z.cards for z in c.zones if z.name == "won") == ["2s", "3s"]  # two wins, tiles set aside
    assert "win" in c.labels and len(state.hands["C"]) == 13


def test_wrong_dealer_cites_the_rule_that_chose_the_dealer():
    # §席決め・親決め・配牌: the first winner deals; several winners on one discard: the discarder;
    # no win: the dealer stays. The L301 for a wrong dealer quotes the sentence that applied.
    from paifu.notation import read_path

    results = list(read_path("tests/records/yichang/several-winners.paifu"))
    report = validate(results[1].record)
    rules = [d.rule or "" for d in report.diagnostics if d.code == "L301"]
    assert len(rules) == 1 and "それに振りこんだ人が親です" in rules[0]
