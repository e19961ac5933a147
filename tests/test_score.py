"""``paifu score GAME``: one hand scored without a record, by the validator's own scoring code
(issue 34), for the five mahjong games; every figure worked out by hand from the game's rule
text. Sanma first: 「三人麻雀」のルール ver. 1.3
(001_c3392f44b6f9c5c7.txt): rule 11 (点数は百点の位を切り上げる: points are rounded up to the
thousand), rule 12 (積み棒: 1000 a stick, from each payer), rule 13 (自模: the four-player
points plus 1000 from each payer), rule 18 (役による完全二翻縛り), and the usual four-player
base points fu × 2^(han + 2), ×4 from the discarder on a ron (×6 for the dealer), on a tsumo
×2 from the dealer and ×1 from a non-dealer.
"""

from __future__ import annotations

import json

from paifu.cli import main

RIICHI_PINFU = ["123p567p23s678s99s4s", "--riichi", "--dora", "1z"]  # 23s waits on 1s/4s: a two-sided wait


def run(args, capsys):
    code = main(["score", "sanma", *args])
    out, err = capsys.readouterr()
    return code, out, err


def scored(args, capsys):
    code, out, err = run([*args, "--json"], capsys)
    assert not err
    return code, json.loads(out)


def test_riichi_pinfu_ron_by_a_non_dealer_and_by_the_dealer(capsys):
    """立直 1 + 平和 1 = 2 han; fu 副底 20 + 門前加符 10 = 30; base 30 × 2^4 = 480; a South
    non-dealer's ron: 4 × 480 = 1920, rounded up to 2000 (rule 11)."""
    code, got = scored(RIICHI_PINFU, capsys)
    assert code == 0 and got["may_win"]
    assert [(y["term"], y["value"]) for y in got["yaku"]] == [("立直", 1), ("平和", 1)]
    assert [(f["term"], f["value"]) for f in got["fu_items"]] == [("副底", 20), ("門前加符", 10)]
    assert (got["han"], got["fu"], got["base"], got["limit"]) == (2, 30, 480, "")
    assert [(p["role"], p["each"]) for p in got["payments"]] == [("discarder", 2000)] and got["total"] == 2000
    code, got = scored([*RIICHI_PINFU, "--seat", "E"], capsys)  # the dealer: 6 × 480 = 2880, rounded up: 3000
    assert code == 0 and [(p["role"], p["each"]) for p in got["payments"]] == [("discarder", 3000)]


def test_tsumo_with_honba(capsys):
    """門前清自模和 1 + 平和 1 = 2 han, 20 fu (a pinfu tsumo); base 20 × 2^4 = 320. The dealer pays
    2 × 320 = 640, rounded up to 1000, + 1000 (rule 13) + 2 sticks × 1000 (rule 12) = 4000; the
    other non-dealer 320 -> 1000, + 1000 + 2000 = 4000: 8000 in all."""
    code, got = scored(["123p567p23s678s99s4s", "--tsumo", "--honba", "2"], capsys)
    assert code == 0
    assert (got["han"], got["fu"], got["base"]) == (2, 20, 320)
    assert [(p["role"], p["hand"], p["honba"]) for p in got["payments"]] == [("dealer", 2000, 2000), ("non_dealer", 2000, 2000)]
    assert got["total"] == 8000


def test_the_bundled_examples_haneman_as_the_validator_scores_it(capsys):
    """examples/sanma-riichi-nuki.paifu hand 1: B (South) wins by tsumo on 6s, the replacement
    tile after a North, within the ippatsu go-round: 立直 1, 一発 1, 門前清自模和 1, 嶺上開花 1,
    平和 1, 抜きドラ 1 = 6 han, 跳満 (base 3000). A, the dealer, pays 2 × 3000 + 1000 = 7000, C
    3000 + 1000 = 4000 (rule 13): the record's score line, A -7000 C -4000 B +11000."""
    code, out, _ = run(["234p567p345s78s99s6s", "--tsumo", "--riichi", "--ippatsu", "--replacement", "--nuki", "1",
                        "--dora", "1z"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert "6 han 20 fu: 跳満, base 3000" in lines
    assert "  the dealer pays 7000" in lines and "  the non-dealer pays 4000" in lines
    assert "the winner receives 11000 (riichi sticks on the table aside)" in lines
    assert "  dora  抜きドラ Norths extracted: 1 han" in lines


def test_one_han_may_not_win(capsys):
    """平和 alone is 1 han from yaku: rule 18 asks for 2. The hand is scored and refused (exit 1);
    with rules=tenhou (one yaku) it may win: 1 han 30 fu, base 240, ×4 = 960, to the hundred 1000."""
    code, out, _ = run(["123p567p23s678s99s4s"], capsys)
    assert code == 1
    assert "but it may not win: a win on 4s holds 1 han from yaku, and the rules ask for 2" in out
    code, got = scored(["123p567p23s678s99s4s", "--option", "rules=tenhou"], capsys)
    assert code == 0 and got["may_win"] and got["han_needed"] == 1 and got["total"] == 1000


def test_a_hand_that_is_not_complete(capsys):
    code, out, _ = run(["123p567p23s678s99s7s"], capsys)
    assert code == 1 and out.startswith("not a complete hand")


def test_usage_errors_name_the_problem(capsys):
    code, _, err = run(["123m456p789p11z22z33z4z"], capsys)
    assert code == 2 and "2m, 3m: not sanma tiles (2m to 8m are taken out, rule 1)" in err
    code, _, err = run(["123p567p"], capsys)
    assert code == 2 and "6 concealed tiles: a winning hand holds 14, the winning tile included" in err
    code, _, err = run(["123p567p", "--pon", "55z"], capsys)
    assert code == 2 and "a pon is 3 of one tile" in err
    code, _, err = run(["x9"], capsys)
    assert code == 2 and "'x9' is not a tile token" in err
    code, _, err = run([*RIICHI_PINFU, "--option", "nosuch=1"], capsys)
    assert code == 2 and "sanma has no option 'nosuch'" in err
    code = main(["score", "bigtwo", "3C"])
    assert code == 2 and "'bigtwo' is not a mahjong game paifu scores" in capsys.readouterr().err


# -- kawuxing: the English text "New Three-Player Mahjong of Northwestern Hubei" (2018-10-05),
# Pay out scheme: the unit doubled once a double, at most 3 doubles (x8); a ron paid by the
# discarder, a self-draw by each of the other two.
def kawuxing(args, capsys):
    code = main(["score", "kawuxing", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_kawuxing_fit_five_by_self_draw(capsys):
    """卡五星 (a win by 5 with 4 and 6 in hand): one double, x2; a self-draw: B and C pay 2 each."""
    code, got, _ = kawuxing(["123p456p789p46p55s5p", "--tsumo"], capsys)
    assert code == 0 and [(p["term"], p["doubles"]) for p in got["patterns"]] == [("卡五星", 1)]
    assert [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 2), ("C", 2)] and got["total"] == 4


def test_kawuxing_doubles_are_capped_at_three(capsys):
    """七对 2 + 清一色 2 = 4 doubles, capped at 3 (x8): the discarder pays 8."""
    code, got, _ = kawuxing(["11223344556677p"], capsys)
    assert code == 0 and (got["doubles"], got["capped"], got["multiplier"]) == (4, 3, 8)
    assert {p["term"] for p in got["patterns"]} == {"七对", "清一色"}
    assert [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 8)]


def test_kawuxing_disclosed_hand_won_on_a_discard(capsys):
    """亮倒 is a double, and the hand "is scored as if it is won by a tile drawn from the walls
    even when it is won by claiming, and claimed player pays on behalf of all": 卡五星 1 + 亮倒 1
    = x4, from each of two: the discarder B pays 8."""
    code, got, _ = kawuxing(["123p456p789p46p55s5p", "--disclosed"], capsys)
    assert code == 0 and [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 8)]


def test_kawuxing_plain_hand_wins_by_self_draw_only(capsys):
    """Winning a Hand: "either it contains at least one of doubling patterns or it is won by a
    tile drawn from the wall": a plain hand on a discard is refused (exit 1), by self-draw x1."""
    code, got, _ = kawuxing(["234p567p234s678s55z", "--win", "5z"], capsys)
    assert code == 1 and not got["may_win"] and "self-draw only" in got["refusal"]
    code, got, _ = kawuxing(["234p567p234s678s55z", "--win", "5z", "--tsumo"], capsys)
    assert code == 0 and got["patterns"] == [] and got["total"] == 2


def test_kawuxing_usage_errors(capsys):
    code, _, err = kawuxing(["123m456p789p46p55s5p"], capsys)
    assert code == 2 and "1m, 2m, 3m: not kawuxing tiles" in err
    code, _, err = kawuxing(["123p456p789p46p55s5p", "--riichi"], capsys)
    assert code == 2 and "kawuxing has none" in err


# -- paomazai: 「香港雀荘と澳門カジノの麻雀・跑馬仔」 (2015-08-25) ■得点一覧 and ■奨馬の規則 --------------
def paomazai(args, capsys):
    code = main(["score", "paomazai", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_paomazai_the_rule_texts_horse_example(capsys):
    """「例えば、自分が東で、奨馬で1萬が1枚、5筒が2枚出たら、300点を各自から(合計900点)貰える」:
    East draws 1m once and 5p twice among five horses (2z and 3m do not match 東・1・5・9): 300
    from each, 900; with the 自模 600 (200 from each) the winner gets 1500."""
    code, got, _ = paomazai(["123m456p789s111z55m", "--tsumo", "--seat", "E", "--horses", "1m", "5p", "5p", "2z", "3m"], capsys)
    assert code == 0
    assert [(i["term"], i["amount"]) for i in got["items"]] == [("自模", 600), ("奨馬", 900)]
    assert sorted((p["payer"], p["amount"]) for p in got["payments"]) == [("B", 200), ("B", 300), ("C", 200), ("C", 300),
                                                                          ("D", 200), ("D", 300)]
    assert got["total"] == 1500


def test_paomazai_ron_and_robbing_a_kong(capsys):
    """食糊 300 from the discarder (※親のロンも300点: the dealer's too), 搶槓糊 600 from the konger,
    whatever the hand (役が無くても上がれる)."""
    for seat in ("S", "E"):
        code, got, _ = paomazai(["123m456p789s111z55m", "--seat", seat], capsys)
        assert code == 0 and [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 300)]
    code, got, _ = paomazai(["123m456p789s55m", "--pon", "111z", "--rob", "added"], capsys)
    assert code == 0 and [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 600)]


def test_paomazai_has_no_seven_pairs(capsys):
    code, got, _ = paomazai(["11m22m33p44p55s66s77z"], capsys)
    assert code == 1 and got["complete"] is False
    code, _, err = paomazai(["123m456p789s111z55m", "--horses", "1m"], capsys)
    assert code == 2 and "after a self-draw only" in err


# -- yichang: 「湖北宜昌の「血流成河」麻雀」 (003_3d526110ac5f85e4.txt) §手の役と点数 (番は足し算で,倍々計算は
# しません: 何もない手 1, 碰碰胡 3, 清一色 6, 清碰 9; 門前自摸 +1; 槓進槓出: 明槓 +1, 暗槓 +2, the winner's
# and the payer's) and §上がりの点数授受 (the discarder pays; on a tsumo each of the other three)
def yichang(args, capsys):
    code = main(["score", "yichang", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_yichang_pure_pungs_concealed_self_draw_with_kongs(capsys):
    """清碰 9 + 門前自摸 1 (a concealed kong keeps the hand concealed) + the winner's 暗槓 2 = 12
    from each of B, C and D; C's own open kong adds 1 to what C pays (槓出): 13. With
    kong_out=off (槓進槓不出) C pays 12 too."""
    args = ["111m222m999m55m", "--closed-kong", "7777m", "--tsumo", "--win", "5m", "--payer-kongs", "C:1:0"]
    code, got, _ = yichang(args, capsys)
    assert code == 0 and [(i["term"], i["fan"]) for i in got["items"]] == [("清碰", 9), ("門前自摸", 1), ("暗槓", 2)]
    assert {p: v["pays"] for p, v in got["payers"].items()} == {"B": 12, "C": 13, "D": 12} and got["total"] == 37
    code, got, _ = yichang([*args, "--option", "kong_out=off"], capsys)
    assert {p: v["pays"] for p, v in got["payers"].items()} == {"B": 12, "C": 12, "D": 12}


def test_yichang_a_pon_loses_the_concealed_self_draw(capsys):
    """「一度もポンしないでツモ上がりしたら」門前自摸: with a pon of 7m, 清碰 9 alone, from each: 27."""
    code, got, _ = yichang(["111m222m999m55m", "--pon", "777m", "--tsumo", "--win", "5m"], capsys)
    assert code == 0 and [(i["term"], i["fan"]) for i in got["items"]] == [("清碰", 9)] and got["total"] == 27


def test_yichang_a_discard_win_and_the_missing_suit(capsys):
    """何もない手 1 on B's discard: B pays 1, and B's own kongs (one open, one concealed) add
    1 + 2: B pays 4. A hand of all three suits cannot win (欠門でないと,上がれない): exit 1."""
    code, got, _ = yichang(["123m456m789m11p555p", "--win", "5p", "--payer-kongs", "B:1:1"], capsys)
    assert code == 0 and got["payers"]["B"]["pays"] == 4
    code, got, _ = yichang(["123m456p789s11p555p", "--win", "5p"], capsys)
    assert code == 1 and not got["may_win"] and "欠門" in got["refusal"]
    code, _, err = yichang(["123m456m789m11z555p"], capsys)
    assert code == 2 and "1z: not yichang tiles" in err


# -- wuhan: 「武漢の「紅中頼子槓」麻雀」 (000_d19ded950c7752da.txt, 2018-10-06) §点数計算 and §飜数 --------------
def wuhan(args, capsys):
    code = main(["score", "wuhan", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_wuhan_the_rule_texts_96_point_example(capsys):
    """The rule text's example, its winner seated as A: the winner 小胡, 硬胡, 開口 (a chi of
    234p); the discarder B 放銃, 開口; the dealer C 親, 開口; D 開口, 紅中槓 1回, 頼子槓 1回.
    B: 1 x2 (硬胡) x2 (開口) x2 (放銃) x2 (開口) = 16; C: 1 x2 x2 x2 (親) x2 (開口) = 16;
    D: 1 x2 x2 x2 (開口) x2 (紅中槓) x4 (頼子槓) = 64: 96 (「Dは16+16+64=96点を得ます」)."""
    code, got, _ = wuhan(["55567m34578s6s", "--chi", "234p", "--win", "6s", "--indicator", "1z", "--dealer", "C",
                          "--seat-has", "B:open", "--seat-has", "C:open", "--seat-has", "D:open,red,laizi"], capsys)
    assert code == 0 and got["laizi"] == "2z"  # 東 shows: 南 is the 頼子
    assert [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 16), ("C", 16), ("D", 64)]
    assert got["total"] == 96
    assert {(i["seat"], i["term"]) for i in got["items"]} >= {("A", "硬胡"), ("B", "放銃者"), ("C", "荘家"), ("D", "頼子槓")}


def test_wuhan_a_big_hand_by_self_draw(capsys):
    """examples/wuhan-basics.paifu hand 2, its winner seated as A: 碰碰胡 (大胡 10点), 開口 1 飜,
    tsumo in a big hand 半飜 (x1.5), the 頼子 5p (indicator 4p) read as the 4z pair; the dealer B
    counts 0 飜 in a big hand (荘家: 大胡なら0飜): 10 x 2 x 1.5 = 30 from each, 90."""
    code, got, _ = wuhan(["111m999p333s5p4z", "--pon", "999s", "--tsumo", "--win", "4z", "--indicator", "4p", "--dealer", "B"],
                         capsys)
    assert code == 0 and [(p["payer"], p["amount"]) for p in got["payments"]] == [("B", 30), ("C", 30), ("D", 30)]


def test_wuhan_a_win_needs_an_open_meld(capsys):
    """「少なくとも1つ“開口”している」: the same small hand with the chi kept in hand does not win."""
    code, got, _ = wuhan(["55567m234p34578s6s", "--win", "6s", "--indicator", "1z", "--dealer", "C"], capsys)
    assert code == 1 and not got["may_win"] and "開口" in got["refusal"]
    code, _, err = wuhan(["55567m234p34578s6s", "--win", "6s"], capsys)
    assert code == 2 and "wuhan needs --indicator TILE" in err
