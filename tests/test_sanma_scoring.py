"""Sanma hand scoring, from the seed's own words.

Seed: 001_c3392f44b6f9c5c7.txt, 「三人麻雀」のルール ver. 1.3: the yaku tables under
「認められる役は以下で全てである」 (【手牌の組み合わせに制限のないもの】 and
【手牌の組み合わせに制限のあるもの】, closed han first, open han in brackets, 「無」 = no
yaku) and §基本ルール 11–13, 18, 20–28, 33, 35–40; where the seed is silent, RULINGS §sanma
(stacking: everything adds, implied yaku dropped) and standard riichi fu.

Every expected value below is worked out by hand in the comment above it. Unless a case
says otherwise the winner is South (a non-dealer) in the East round and wins by ron.
"""

from __future__ import annotations

import pytest

from paifu.replay.mahjong import tiles as T
from paifu.replay.mahjong.core import Meld
from paifu.replay.mahjong.sanma.hand import Payment, ScoringRules, WinContext
from paifu.replay.mahjong.sanma.points import (
    SCORING_OPTIONS,
    base_points,
    minimum_shortfall,
    ready_shortfall,
    rob_allowed,
    score,
    scoring_rules,
    yaku_han,
)
from paifu.replay.mahjong.sanma.yaku import YAKU

SEED = "001_c3392f44b6f9c5c7.txt 「三人麻雀」のルール ver. 1.3"


def ctx(hand: str, win: str, melds: str = "", **kw) -> WinContext:
    """``hand``: the concealed tiles, the winning tile included; ``melds``: e.g.
    ``"pon 5z, kong_concealed 1p"``."""
    ms = []
    for part in filter(None, (p.strip() for p in melds.split(","))):
        kind, tile = part.split()
        ms.append(Meld(kind, tile, None if kind == "kong_concealed" else "x"))
    kw.setdefault("seat_wind", 1)
    kw.setdefault("how", "ron")
    return WinContext(tuple(T.counts_of(hand)), tuple(ms), win, **kw)


def yaku(c: WinContext, rules: ScoringRules = ScoringRules()) -> dict[str, int]:
    s = score(c, rules)
    assert s is not None
    return {i.term: i.value for i in s.yaku}


PINFU_HAND = "123p456p345s789s99s"  # 6p completes 45p: a two-sided wait; the pair 9s is no value tile

# (id, context, expected yaku: term -> han). Each comment cites the seed's table row.
CASES = [
    # 門前清自模和 一(無) + 平和 一(無)
    ("menzen_tsumo", ctx(PINFU_HAND, "6p", how="tsumo"), {"門前清自模和": 1, "平和": 1}),
    # 立直 一(無)
    ("riichi", ctx(PINFU_HAND, "6p", riichi="riichi"), {"立直": 1, "平和": 1}),
    # ダブル立直 二(無)
    ("double_riichi", ctx(PINFU_HAND, "6p", riichi="double"), {"ダブル立直": 2, "平和": 1}),
    # オープン立直 二(無), rule 21; the discarder is in riichi, so 21.1 does not apply
    ("open_riichi", ctx(PINFU_HAND, "6p", riichi="open"), {"オープン立直": 2, "平和": 1}),
    # double open riichi: ダブル立直 2 + オープン 1 more = 3 (RULINGS §sanma)
    ("double_open_riichi", ctx(PINFU_HAND, "6p", riichi="double_open"),
     {"ダブル立直・オープン立直": 3, "平和": 1}),
    # rule 21.1: ron on a player without an established riichi: 十五翻役 (replaces the 2)
    ("open_riichi_ron", ctx(PINFU_HAND, "6p", riichi="open", feeder_in_riichi=False),
     {"オープン立直 (立直を成立させていない競技者からの栄和)": 15, "平和": 1}),
    # RULINGS §sanma: a double open riichi won on a non-riichi discard is 15 + 1 = 16
    ("double_open_riichi_ron", ctx(PINFU_HAND, "6p", riichi="double_open", feeder_in_riichi=False),
     {"ダブル立直・オープン立直 (立直を成立させていない競技者からの栄和)": 16, "平和": 1}),
    # 一発 一(無)
    ("ippatsu", ctx(PINFU_HAND, "6p", riichi="riichi", ippatsu=True), {"立直": 1, "一発": 1, "平和": 1}),
    # 嶺上開花 一(一), rule 25: on the replacement draw after a nuki; a tsumo (25.1)
    ("rinshan_after_nuki", ctx(PINFU_HAND, "6p", how="tsumo", replacement=True, nuki=1),
     {"門前清自模和": 1, "平和": 1, "嶺上開花": 1}),
    # 樌振り 一(一), rule 26: ron on the discard right after a replacement draw
    ("kong_discard", ctx(PINFU_HAND, "6p", after_replacement_discard=True), {"樌振り": 1, "平和": 1}),
    # 海底撈月 一(一)
    ("haitei", ctx(PINFU_HAND, "6p", how="tsumo", last_tile=True), {"門前清自模和": 1, "平和": 1, "海底撈月": 1}),
    # 河底撈魚 一(一)
    ("houtei", ctx(PINFU_HAND, "6p", last_tile=True), {"河底撈魚": 1, "平和": 1}),
    # rule 40: 嶺上開花 and 海底撈月 do not combine: one of them (1 han) is counted
    ("rinshan_haitei_rule40", ctx(PINFU_HAND, "6p", how="tsumo", replacement=True, last_tile=True),
     {"門前清自模和": 1, "平和": 1, "嶺上開花": 1}),
    # rule 40: 樌振り and 河底撈魚 do not combine
    ("kong_discard_houtei_rule40", ctx(PINFU_HAND, "6p", after_replacement_discard=True, last_tile=True),
     {"樌振り": 1, "平和": 1}),
    # 槍槓 一(一): robbing an added kong
    ("chankan", ctx(PINFU_HAND, "6p", how="rob_added"), {"槍槓": 1, "平和": 1}),
    # 人和 八(無): a non-dealer's ron before his first draw
    ("renhou", ctx(PINFU_HAND, "6p", first_turn=True), {"人和": 8, "平和": 1}),
    # 八連荘 十五(十五), rule 35.1: the dealer with 8 honba
    ("renchan8", ctx(PINFU_HAND, "6p", seat_wind=0, honba=8), {"八連荘": 15, "平和": 1}),
    # 天和 十五(無) with 門前清自模和 and 平和: non-yakuman yaku add (RULINGS §sanma)
    ("tenhou", ctx(PINFU_HAND, "6p", how="tsumo", seat_wind=0, first_turn=True),
     {"天和": 15, "門前清自模和": 1, "平和": 1}),
    # 地和 十五(無)
    ("chiihou", ctx(PINFU_HAND, "6p", how="tsumo", first_turn=True),
     {"地和": 15, "門前清自模和": 1, "平和": 1}),
    # 十三不塔 十五(十五): 1m 9m / 1p 4p 7p / 2s 5s 8s / E S W N white, white twice; no two
    # tiles of a suit within two ranks. RULINGS: 十三不塔 + 門前清自摸和 = 16 (地和 is its own
    # first-draw condition, not counted again: docs/rulings.md)
    ("unconnected", ctx("19m147p258s123455z", "5z", how="tsumo", first_turn=True),
     {"十三不塔": 15, "門前清自模和": 1}),
    # 役牌 一(一): a white pung. Nothing else: 123p 456p is no straight
    ("yakuhai_white", ctx("555z123p456p789s99s", "6p"), {"役牌 (白)": 1}),
    # 役牌 for the dealer's East pung in the East round: seat and round wind, 1 each
    ("yakuhai_double_wind", ctx("111z123p456p789s99s", "6p", seat_wind=0),
     {"役牌 (自風)": 1, "役牌 (場風)": 1}),
    # rule 22 / RULINGS: North is no value tile: a North pung is worth no yaku
    ("north_is_no_value_tile", ctx("444z123p456p789s55z", "6p"), {}),
    # 平和 一(無)
    ("pinfu", ctx(PINFU_HAND, "6p"), {"平和": 1}),
    # 断么九 一(一): open (pon 2p), 345p 678p 345s and the 6s pair
    ("tanyao_open", ctx("345p678p345s66s", "6s", "pon 2p"), {"断么九": 1}),
    # 一盃口 一(無): 123p twice; 1p completes 23p (two-sided), so 平和 too
    ("iipeikou", ctx("123p123p456s789s99s", "1p"), {"一盃口": 1, "平和": 1}),
    # 二盃口 三(無) replaces 一盃口; read as seven pairs it would be only 2 han
    ("ryanpeikou", ctx("112233p445566s99s", "1p"), {"二盃口": 3, "平和": 1}),
    # 一気通貫 二(一): closed 2 (with 平和), open 1
    ("ittsu_closed", ctx("123p456p789p345s99s", "9p"), {"一気通貫": 2, "平和": 1}),
    ("ittsu_open", ctx("123p456p789p55s", "5s", "pon 4z"), {"一気通貫": 1}),
    # 七対子 二(二), rule 20
    ("chiitoitsu", ctx("11p44p77p22s55s88s33z", "3z"), {"七対子": 2}),
    # 対々和 無(二): open 2 (with 断么九: 2p 8p 3s 5s 6s are simples)
    ("toitoi_open", ctx("888p333s66s", "6s", "pon 2p, pon 5s"), {"対々和": 2, "断么九": 1}),
    # 対々和 「無」 closed; ron on the 5s of a two-pair wait leaves three 暗刻: 三暗刻 二(無)
    ("toitoi_closed_is_no_yaku", ctx("222p888p333s66s555s", "5s"), {"三暗刻": 2, "断么九": 1}),
    # 混全帯么九 一(一): 123p 789p 789s, a North pung, the 9s pair (1p completes 23p)
    ("chanta", ctx("123p789p789s444z99s", "1p"), {"混全帯么九": 1}),
    # 混老頭 二(二) and open 対々和 二; three 暗刻 in an open hand: 三暗刻 (無)
    ("honroutou", ctx("111p999p111s44z", "4z", "pon 9s"), {"混老頭": 2, "対々和": 2}),
    # 三樌子 二(二) with open 断么九
    ("sankantsu", ctx("345s66s", "6s", "kong_concealed 2p, kong_direct 5s, kong_added 8p"),
     {"三樌子": 2, "断么九": 1}),
    # 三連刻 二(二): pungs of 3p (pon), 4p, 5p; open, so 三暗刻 「無」
    ("sanrenkou", ctx("444p555p789s11s", "1s", "pon 3p"), {"三連刻": 2}),
    # 小三元 無(二): open 2 with both 役牌 and 混全帯么九 一(一): 5 han
    ("shousangen_open", ctx("666z77z123p789s", "3p", "pon 5z"),
     {"小三元": 2, "役牌 (白)": 1, "役牌 (發)": 1, "混全帯么九": 1}),
    # 小三元 「無」 closed: only the 役牌 and 混全帯么九 count
    ("shousangen_closed_is_no_yaku", ctx("555z666z77z123p789s", "3p"),
     {"役牌 (白)": 1, "役牌 (發)": 1, "混全帯么九": 1}),
    # 混一色 三(二)
    ("honitsu_closed", ctx("123p567p999p444z88p", "8p"), {"混一色": 3}),
    ("honitsu_open", ctx("123p567p999p88p", "8p", "pon 4z"), {"混一色": 2}),
    # 純全帯么九 三(二)
    ("junchan_closed", ctx("123p789p123s999s11m", "1p"), {"純全帯么九": 3}),
    ("junchan_open", ctx("123p789p123s11m", "1p", "pon 9s"), {"純全帯么九": 2}),
    # 清一色 六(五)
    ("chinitsu_closed", ctx("111p234p567p888p99p", "9p"), {"清一色": 6}),
    ("chinitsu_open", ctx("234p567p888p99p", "9p", "pon 1p"), {"清一色": 5}),
    # 小車輪 六(無), rule 36.1: 混一色 + 七対子, replaces both (3 + 2 would be 5)
    ("shousharin", ctx("11p22p44p66p88p11z33z", "3z"), {"小車輪": 6}),
    # 三色同刻 十五(十五) + 三暗刻 二 (ron on a run) + 純全帯么九 三 = 20 (everything adds)
    ("sanshoku_doukou", ctx("111m111p111s789p99s", "9p"), {"三色同刻": 15, "三暗刻": 2, "純全帯么九": 3}),
    # 大車輪 十五(無), rule 37.1: 平和 + 断么九 + 二盃口 + 清一色, which it replaces
    ("daisharin", ctx("22334455667788p", "8p"), {"大車輪": 15}),
    # 四連刻 十五(十五) replaces 三連刻 and 対々和: pungs 2p (pon) 3p 4p 5p
    ("suurenkou", ctx("333p444p555p99s", "9s", "pon 2p"), {"四連刻": 15}),
    # 國士無双 十五(無), a single wait (the 1z completes the hand, 7z is the pair)
    ("kokushi", ctx("19m19p19s12345677z", "1z"), {"國士無双": 15}),
    # 十三面待ち國士無双 二十(二十) replaces 國士無双
    ("kokushi13", ctx("19m19p19s12345677z", "7z"), {"十三面待ち國士無双": 20}),
    # 四暗刻 十五(無) by tsumo on a two-pair wait; replaces 三暗刻 and 対々和; + 門前 1 + 断么九 1
    ("suuankou", ctx("222p888p333s666s55s", "6s", how="tsumo"), {"四暗刻": 15, "門前清自模和": 1, "断么九": 1}),
    # 単騎待ち四暗刻 二十(二十) replaces 四暗刻
    ("suuankou_tanki", ctx("222p888p333s666s55s", "5s", how="tsumo"),
     {"単騎待ち四暗刻": 20, "門前清自模和": 1, "断么九": 1}),
    # 大三元 十五(十五) replaces the dragons' 役牌; 混全帯么九 一 adds
    ("daisangen", ctx("666z777z123p99s", "3p", "pon 5z"), {"大三元": 15, "混全帯么九": 1}),
    # 字一色 十五(十五) replaces 混老頭 and 対々和; the four 役牌 (白 發, South seat, East
    # round) add: 15 + 4 = 19
    ("tsuuiisou", ctx("111z222z666z44z", "4z", "pon 5z"),
     {"字一色": 15, "役牌 (白)": 1, "役牌 (發)": 1, "役牌 (自風)": 1, "役牌 (場風)": 1}),
    # 四喜和 十五(十五) (three wind pungs and a wind pair), the wind 役牌 dropped; open
    # 混一色 二 and 混全帯么九 一 add: 18
    ("suushii", ctx("111z222z44z123p", "3p", "pon 3z"), {"四喜和": 15, "混一色": 2, "混全帯么九": 1}),
    # 緑一色 十五(十五): 234s 234s 666s 88s and 發; 役牌 一, 一盃口 一, 混一色 三 add: 20
    ("ryuuiisou", ctx("234s234s666s88s666z", "8s"), {"緑一色": 15, "役牌 (發)": 1, "一盃口": 1, "混一色": 3}),
    # 清老頭 十五(十五) replaces 混老頭 and 対々和
    ("chinroutou", ctx("999p111s999s11m", "1m", "pon 1p"), {"清老頭": 15}),
    # 四樌子 十五(十五) replaces 三樌子 and 対々和; 役牌 白 and 混老頭 add: 18
    ("suukantsu", ctx("99s", "9s", "kong_concealed 1p, kong_direct 9p, kong_added 5z, kong_direct 4z"),
     {"四樌子": 15, "役牌 (白)": 1, "混老頭": 2}),
    # 九蓮宝燈 十五(無) replaces 清一色 (the hand before was 1112345678899p, not the nine-sided)
    ("chuuren", ctx("11123456788999p", "9p"), {"九蓮宝燈": 15}),
    # 九面待ち九蓮宝燈 二十(二十): the hand before was exactly 1112345678999p; read as
    # 11 123 456 789 999 it also holds 一気通貫 二: 22
    ("chuuren9", ctx("11123456789999p", "9p"), {"九面待ち九蓮宝燈": 20, "一気通貫": 2}),
    # 紅孔雀 二十(二十), rule 39.1: only 1s 5s 7s 9s 中; replaces 対々和 and 混一色; 役牌 中 adds
    ("benikujaku", ctx("111s555s999s77s", "7s", "pon 7z"), {"紅孔雀": 20, "役牌 (中)": 1}),
    # 萬子を使用した混一色 十五(十五), rule 38, replaces 混一色; 混老頭 2, open 対々和 2, the
    # East pon (round wind) and South pung (seat wind) 1 each: 21
    ("manzu_honitsu", ctx("111m999m222z55z", "5z", "pon 1z"),
     {"萬子を使用した混一色": 15, "混老頭": 2, "対々和": 2, "役牌 (自風)": 1, "役牌 (場風)": 1}),
]


@pytest.mark.parametrize("case,context,expected", CASES, ids=[c[0] for c in CASES])
def test_each_yaku_of_the_seeds_table(case, context, expected):
    """SEED §認められる役: each item with its closed (open) han, stacked per RULINGS §sanma."""
    assert yaku(context) == expected


def test_the_table_holds_the_seeds_whole_list():
    """SEED §認められる役: 15 unrestricted and 34 restricted items (役牌 is five rows here,
    one per kind of value tile; 立直's kinds and rule 21.1's upgrade are rows too)."""
    terms = {y.term for y in YAKU}
    seed_terms = ("門前清自模和 立直 ダブル立直 オープン立直 一発 嶺上開花 樌振り 海底撈月 河底撈魚 槍槓 人和 "
                  "八連荘 十三不塔 天和 地和 平和 断么九 一盃口 一気通貫 七対子 対々和 混全帯么九 混老頭 "
                  "三暗刻 三樌子 三連刻 小三元 混一色 純全帯么九 二盃口 清一色 小車輪 三色同刻 大車輪 四連刻 "
                  "國士無双 四暗刻 大三元 字一色 四喜和 緑一色 清老頭 四樌子 九蓮宝燈 単騎待ち四暗刻 "
                  "十三面待ち國士無双 九面待ち九蓮宝燈 紅孔雀").split()
    assert all(t in terms for t in seed_terms)
    assert any(t.startswith("役牌") for t in terms)


# ------------------------------------------------------------------ fu (standard riichi)


def test_fu_of_a_closed_ron_with_an_honour_pung():
    """Fu (standard riichi, RULINGS §sanma): 20 base + 10 closed ron + 8 concealed honour
    pung (555z) = 38, rounded up to 40; the 6p completes 45p, no wait fu."""
    s = score(ctx("555z123p456p789s99s", "6p"))
    assert [(i.term, i.value) for i in s.fu_items] == [("副底", 20), ("門前加符", 10), ("暗刻", 8)]
    assert s.fu == 40


def test_pinfu_tsumo_is_20_fu_and_pinfu_ron_30():
    """Standard fu: 平和 by tsumo takes no tsumo fu (20); by ron 20 + 10 = 30."""
    assert score(ctx(PINFU_HAND, "6p", how="tsumo")).fu == 20
    assert score(ctx(PINFU_HAND, "6p")).fu == 30


def test_seven_pairs_is_25_fu():
    """SEED §基本ルール 20: 七対子は二十五符の二翻役である."""
    s = score(ctx("11p44p77p22s55s88s33z", "3z"))
    assert (s.han, s.fu) == (2, 25)
    # base 25 × 2^(2+2) = 400; ron 4 × 400 = 1600, rounded up (rule 11) to 2000
    assert s.payments == (Payment("discarder", 2000),)


def test_kongs_and_wait_fu():
    """Standard fu: 20 + 暗槓 simple 16 + 明槓 simple 8 + 加槓 simple 8 + single wait 2 = 54
    → 60 (open hand: no closed-ron fu)."""
    s = score(ctx("345s66s", "6s", "kong_concealed 2p, kong_direct 5s, kong_added 8p"))
    assert sum(i.value for i in s.fu_items) == 54 and s.fu == 60


def test_open_hand_fu_round_up_to_30():
    """Standard fu, rounded up to the ten: 20 + an open simple pung (pon 2p) 2 + single wait
    2 = 24 → 30. (Without chi (rule 19) an open hand always holds a pon or kong, so the
    open-pinfu-shape 30 never needs its own item in sanma.)"""
    s = score(ctx("345p678p345s66s", "6s", "pon 2p"))
    assert sum(i.value for i in s.fu_items) == 24 and s.fu == 30


@pytest.mark.parametrize("fu,expected", [("4", 4), ("2", 2)])
def test_double_wind_pair(fu, expected):
    """RULINGS §sanma: a pair of the seat and round wind is 4 fu (``double_wind_fu=2``: 2).
    The dealer (East) in the East round with an East pair: 20 + 10 closed ron + pair."""
    rules = scoring_rules({"double_wind_fu": fu})
    s = score(ctx("123p456p345s789s11z", "6p", seat_wind=0), rules)
    assert [i.value for i in s.fu_items if i.term == "連風牌の雀頭"] == [expected]


# ------------------------------------------------------------------ limits and points


@pytest.mark.parametrize("han,fu,base,limit,multiple", [
    (1, 30, 240, "", 0),  # 30 × 2^3
    (3, 60, 1920, "", 0),  # 60 × 2^5 = 1920 < 2000
    (3, 70, 2000, "満貫", 0),  # 70 × 32 = 2240 → capped at 2000
    (4, 40, 2000, "満貫", 0),  # 40 × 64 = 2560 → 2000
    (5, 30, 2000, "満貫", 0),
    (6, 30, 3000, "跳満", 0), (7, 30, 3000, "跳満", 0),
    (8, 30, 4000, "倍満", 0), (10, 30, 4000, "倍満", 0),
    (11, 30, 6000, "三倍満", 0), (14, 30, 6000, "三倍満", 0),  # RULINGS: 三倍満 11–14
    (15, 30, 8000, "役満", 1), (19, 30, 8000, "役満", 1),  # rule 33: 十五〜十九翻
    (20, 30, 16000, "ダブル役満", 2), (24, 30, 16000, "ダブル役満", 2),  # 二十翻はダブル役満
    (25, 30, 24000, "トリプル役満", 3),  # 以降、五翻毎に
    (30, 30, 32000, "四倍役満", 4),
])
def test_limits(han, fu, base, limit, multiple):
    """SEED §基本ルール 33 (役満は十五翻から五翻エブリ); 満貫..三倍満 per RULINGS §sanma."""
    assert base_points(han, fu) == (base, limit, multiple)


def test_tsumo_rounds_each_payment_and_adds_1000_per_payer():
    """Rules 11 and 13: 平和 門前清自模和, 2 han 20 fu: base 20 × 2^4 = 320. Four-player shares:
    the dealer 640, the other 320; each rounded up to 1000 (rule 11, each payment on its own;
    rounding the 960 total would give 1000), then + 1000 (rule 13): 2000 and 2000."""
    s = score(ctx(PINFU_HAND, "6p", how="tsumo"))
    assert s.payments == (Payment("dealer", 2000), Payment("non_dealer", 2000))
    assert s.total == 4000


def test_dealer_tsumo():
    """Rule 13: the dealer's 2 han 20 fu tsumo: each non-dealer 2 × 320 = 640 → 1000 + 1000."""
    s = score(ctx(PINFU_HAND, "6p", how="tsumo", seat_wind=0))
    assert s.payments == (Payment("non_dealer", 2000, count=2),)
    assert s.total == 4000


def test_ron_rounds_up():
    """Rule 11: 立直 平和 30 fu: base 30 × 16 = 480; non-dealer ron 4 × 480 = 1920 → 2000;
    the dealer's 6 × 480 = 2880 → 3000."""
    assert score(ctx(PINFU_HAND, "6p", riichi="riichi")).payments == (Payment("discarder", 2000),)
    assert score(ctx(PINFU_HAND, "6p", riichi="riichi", seat_wind=0)).payments == (
        Payment("discarder", 3000),)


def test_honba_1000_per_stick():
    """Rule 12: a ron takes 1000 a stick more; a tsumo 1000 a stick from each payer. 3 sticks:
    ron 2000 + 3000; tsumo 2000 + 3000 from each of the two payers (total 10000)."""
    ron = score(ctx(PINFU_HAND, "6p", riichi="riichi", honba=3))
    assert ron.payments == (Payment("discarder", 2000, 3000),) and ron.total == 5000
    tsumo = score(ctx(PINFU_HAND, "6p", how="tsumo", honba=3))
    assert [p.total for p in tsumo.payments] == [5000, 5000] and tsumo.total == 10000


def test_tsumo_bonus_total_option():
    """`tsumo_bonus=total` (RULINGS §sanma): 1000 once, 500 from each of the two payers."""
    s = score(ctx(PINFU_HAND, "6p", how="tsumo"), scoring_rules({"tsumo_bonus": "total"}))
    assert s.total == 3000


def test_mangan_tsumo_and_ron():
    """5 han is 満貫 (base 2000): non-dealer ron 8000; tsumo: dealer 4000 + 1000, other
    2000 + 1000. The hand: 小三元 2 + 役牌 白 1 + 役牌 發 1 + 混全帯么九 1 (open)."""
    hand = ("666z77z123p789s", "3p", "pon 5z")
    assert score(ctx(*hand)).payments == (Payment("discarder", 8000),)
    s = score(ctx(*hand, how="tsumo"))
    assert (s.limit, s.payments) == ("満貫", (Payment("dealer", 5000), Payment("non_dealer", 3000)))


# ------------------------------------------------------------------ kazoe, multiple yakuman

# 123p 123p 456p 789p 55p, tsumo on the 9p (78p waits 6p/9p), riichi: 立直 1 + 門前清自模和 1 +
# 平和 1 + 一盃口 1 + 一気通貫 2 + 清一色 6 = 12 han of yaku. Three 5p are held.
KAZOE = "123p123p456p789p55p"


def _kazoe(**kw):
    return score(ctx(KAZOE, "9p", how="tsumo", riichi="riichi", **kw))


def test_exactly_15_han_by_kazoe_is_yakuman():
    """Rule 33: 役満とは、十五〜十九翻の和了 (33.2 数え役満). 12 han of yaku + dora: the 4p
    indicator makes 5p dora, three held: 15. Base 8000: tsumo by a non-dealer, the dealer pays
    16000 + 1000, the other 8000 + 1000."""
    s = _kazoe(dora_indicators=("4p",))
    assert s.yaku_han == 12 and s.han == 15 and (s.limit, s.base, s.yakuman) == ("役満", 8000, 1)
    assert s.payments == (Payment("dealer", 17000), Payment("non_dealer", 9000))
    assert _kazoe(dora_indicators=("3p",)).limit == "三倍満"  # 4p is held once: 13 han


def test_20_han_is_double_and_25_triple():
    """Rule 33: 二十翻はダブル役満とし、以降、五翻毎にトリプル役満. 12 yaku + 4p indicator ×3
    (9 dora) + 1 red five + nuki: 2 Norths → 24 (double), 3 Norths → 25 (triple)."""
    common = {"dora_indicators": ("4p", "4p", "4p"), "reds": 1}
    s24 = _kazoe(nuki=2, **common)
    assert (s24.han, s24.limit, s24.base) == (24, "ダブル役満", 16000)
    s25 = _kazoe(nuki=3, **common)
    assert (s25.han, s25.limit, s25.base) == (25, "トリプル役満", 24000)
    s20 = _kazoe(dora_indicators=("4p", "8p"), ura_indicators=("4p",), reds=1)
    # 12 + 5p×3 + 9p×1 (8p shows 9p) + ura 5p×3 + red 1 = 20
    assert (s20.han, s20.limit, s20.yakuman) == (20, "ダブル役満", 2)


def test_yakuman_yaku_and_everything_else_add():
    """RULINGS §sanma: two yakuman yaku add; other yaku add to a yakuman's han.
    111s 555s 777s 999s 中中 tsumo on the 中 (single wait): 紅孔雀 20 (replaces 対々和 and
    混一色) + 単騎待ち四暗刻 20 (replaces 四暗刻, 三暗刻) + 門前清自模和 1 = 41 → 1 + (41-15)//5
    = 6 yakuman; `yakuman_stack=standard` keeps the yakuman yaku only: 40 → 6 as well, and
    the dora go."""
    c = ctx("111s555s777s999s77z", "7z", how="tsumo", dora_indicators=("6z",))
    s = score(c)
    assert {i.term: i.value for i in s.yaku} == {"紅孔雀": 20, "単騎待ち四暗刻": 20, "門前清自模和": 1}
    assert s.han == 41 + 2 and s.yakuman == 1 + (43 - 15) // 5
    std = score(c, scoring_rules({"yakuman_stack": "standard"}))
    assert std.han == 40 and not std.dora


# ------------------------------------------------------------------ dora and nuki


def test_nukidora_and_four_norths_are_dora_8():
    """Rule 22: 北は抜きドラ (1 each); 22.2: all four by one player: ドラ八."""
    assert {i.term: i.value for i in _kazoe(nuki=1).dora} == {"抜きドラ": 1}
    assert {i.term: i.value for i in _kazoe(nuki=4).dora} == {"抜きドラ": 8}


def test_indicator_order_and_extracted_norths_count_for_the_indicator():
    """RULINGS §sanma: 1m shows 9m, 9m shows 1m, West shows North; extracted Norths are
    Norths. With the 3z indicator and 2 Norths extracted: 2 dora + 2 抜きドラ."""
    d = {i.term: i.value for i in _kazoe(nuki=2, dora_indicators=("3z",)).dora}
    assert d == {"ドラ": 2, "抜きドラ": 2}
    s = score(ctx("111m999m222z55z", "5z", "pon 1z", dora_indicators=("1m", "9m")))
    assert {i.term: i.value for i in s.dora} == {"ドラ": 6}  # 9m ×3 and 1m ×3


def test_ura_only_for_riichi():
    """Ura dora count only for a riichi winner."""
    assert _kazoe(ura_indicators=("4p",)).han == 15
    s = score(ctx(PINFU_HAND, "6p", ura_indicators=("5p",)))
    assert not s.dora


# ------------------------------------------------------------------ rule 18


def test_rule18_second_han_from_dora_only_is_no_win():
    """Rule 18: 役による完全二翻縛り. 平和 1 + dora 1 (5p indicator, one 6p): 2 han, 1 from
    yaku: short."""
    c = ctx(PINFU_HAND, "6p", dora_indicators=("5p",))
    assert score(c).han == 2 and yaku_han(c) == 1
    assert minimum_shortfall(c) == ("6p", 1)


# 12345678p 234s 99s waits on 3p, 6p and 9p (123 345 678 / 123 456 678 / 123 456 789): the
# 9p makes 一気通貫 2 + 平和 1, the 3p and the 6p 平和 only.
ITTSU_WAIT = "123p456p789p234s99s"


def test_rule18_1_every_winning_tile_of_the_wait():
    """Rule 18.1: 聴牌形式の如何なる和了牌によっても役による二翻が確定している状況でなければ
    和了出来ない: a ron on the 9p (3 han) is refused because the 3p (first of the wait) gives 1."""
    c = ctx(ITTSU_WAIT, "9p")
    assert yaku_han(c) == 3
    assert minimum_shortfall(c) == ("3p", 1)


def test_rule18_2_a_non_riichi_tsumo_counts_the_hand_made():
    """Rule 18.2: 立直をしていない状態での自模によって揃った手牌で、役による二翻が出来上がる
    ならばそれで和了してよい: 門前清自模和 + 平和 + 一気通貫 = 4."""
    assert minimum_shortfall(ctx(ITTSU_WAIT, "9p", how="tsumo")) is None
    assert minimum_shortfall(ctx(ITTSU_WAIT, "6p", how="tsumo")) is None  # 門前 + 平和 = 2


def test_rule18_3_houtei_counts_on_every_tile():
    """Rule 18.3: 河底 (and 樌振り) hold whatever tile is discarded: 3p, 6p → 平和 + 1 = 2."""
    assert minimum_shortfall(ctx(ITTSU_WAIT, "9p", last_tile=True)) is None
    assert minimum_shortfall(ctx(ITTSU_WAIT, "9p", after_replacement_discard=True)) is None


def test_rule18_riichi_guarantee():
    """Rule 18.1 with a riichi (RULINGS §sanma: the riichi plus the shape yaku on every
    tile): 立直 1 + 平和 1 on the 6p = 2: a win. 444z (North) 123p 45p 789s 99s has no shape
    yaku on either tile (3p, 6p): its riichi is sure of 1 han only, and a tsumo with 一発
    (3 han in the hand) is still short; a double riichi is sure of 2."""
    assert minimum_shortfall(ctx(ITTSU_WAIT, "9p", riichi="riichi")) is None
    assert minimum_shortfall(ctx(ITTSU_WAIT, "6p", riichi="riichi", how="tsumo")) is None
    short = ctx("444z123p456p789s99s", "6p", riichi="riichi", how="tsumo", ippatsu=True)
    # 立直 1 + 門前 1 + 一発 1 = 3 in the hand, but only 立直 is sure: short
    assert yaku_han(short) == 3 and minimum_shortfall(short) == ("6p", 1)
    assert minimum_shortfall(ctx("444z123p456p789s99s", "6p", riichi="double")) is None


def test_rule18_4_three_han_with_five_honba():
    """Rule 18.4: 積み棒が五本以上あるときは … 役による完全三翻縛り. 七対子 (2) on a single
    wait: a win at 4 honba, short at 5."""
    assert minimum_shortfall(ctx("11p44p77p22s55s88s33z", "3z", honba=4)) is None
    assert minimum_shortfall(ctx("11p44p77p22s55s88s33z", "3z", honba=5)) == ("3z", 2)


# ------------------------------------------------------------------ rules 23, 24


def test_rule23_a_north_robbed_by_a_yakuman_is_paid_as_ron_by_the_extractor():
    """Rule 23: 北が抜かれたとき、他家は役満でのみその北で和了できる; 23.1 これは栄和扱い.
    國士無双 on the extracted North: 15 han, base 8000, a non-dealer's ron: 32000 from the
    extractor; no 槍槓 han (RULINGS §sanma)."""
    s = score(ctx("19m19p19s12345677z", "4z", how="rob_north"))
    assert {i.term: i.value for i in s.yaku} == {"國士無双": 15}
    assert s.payments == (Payment("discarder", 32000),) and rob_allowed(s)


def test_rule24_a_closed_kong_needs_a_yakuman():
    """Rule 24: 暗樌が行われたとき、他家は役満でのみその牌で和了出来る. 平和 + 一気通貫 (3 han)
    may not rob; 國士無双 may (24.1: a ron: the dealer's 6 × 8000 = 48000)."""
    assert not rob_allowed(score(ctx(ITTSU_WAIT, "9p", how="rob_closed")))
    s = score(ctx("19m19p19s12345677z", "1z", how="rob_closed", seat_wind=0))
    assert rob_allowed(s) and s.payments == (Payment("discarder", 48000),)


# ------------------------------------------------------------------ options


def test_scoring_options_are_rule_options():
    """The scoring options for `paifu rules sanma`, each with help and a source."""
    names = {o.name for o in SCORING_OPTIONS}
    assert names == {"scoring", "double_wind_fu", "yakuman_stack", "tsumo_bonus"}
    assert all(o.help and o.source and o.default in o.choices for o in SCORING_OPTIONS)


def test_standard_scoring_drops_seed_only_yaku():
    """`scoring=standard`: 八連荘, 三連刻, 紅孔雀... are not yaku; 対々和 counts closed."""
    std = ScoringRules(scoring="standard")
    assert yaku(ctx(PINFU_HAND, "6p", seat_wind=0, honba=8), std) == {"平和": 1}
    assert "対々和" in yaku(ctx("222p888p333s66s555s", "5s"), std)


def test_rule18_a_tile_held_four_times_is_no_wait():
    """RULINGS §sanma (waiting only on a tile one holds all four of is noten): with 3333s
    konged, 456s + 6s waits on 3s and 6s by shape, but the 3s cannot come: rule 18.1's
    "every winning tile" is the 6s alone."""
    from paifu.replay.mahjong.sanma.points import wait_kinds
    c = ctx("456s66s", "6s", "kong_concealed 3s, kong_concealed 2p, kong_concealed 8p")
    assert [T.tile_code(k) for k in wait_kinds(c)] == ["6s"]
    open_wait = ctx("456s66s", "6s", "kong_concealed 9m, kong_concealed 2p, kong_concealed 8p")
    assert [T.tile_code(k) for k in wait_kinds(open_wait)] == ["3s", "6s"]


def test_rule18_1_a_riichi_without_two_sure_han_is_a_noten_riichi():
    """Rule 18.1: 「そのような状況に出来ないような立直は「ノー聴立直」として…錯和になる」.
    444z 123p 45p 789s 99s under a normal riichi: 3p and 6p give no shape yaku, 立直 1 < 2:
    short on the 3p. An open riichi (2) or a double riichi (2) is sure of 2; 12345678p 234s
    99s (waits 3p 6p 9p, 平和 on each) is sure of 立直 1 + 平和 1 = 2."""
    north = T.counts_of("444z123p45p789s99s")
    assert ready_shortfall(north, (), "riichi", seat_wind=1) == ("3p", 1)
    assert ready_shortfall(north, (), "open", seat_wind=1) is None
    assert ready_shortfall(north, (), "double", seat_wind=1) is None
    # 18.4: with 5 honba an open riichi needs 3 (2 + nothing): short
    assert ready_shortfall(north, (), "open", seat_wind=1, honba=5) == ("3p", 2)
    assert ready_shortfall(T.counts_of("12345678p234s99s"), (), "riichi", seat_wind=1) is None
    assert ready_shortfall(T.counts_of("1239p234s99s1z2z3z"), (), "riichi", seat_wind=1) == ("", 0)


# ------------------------------------------------------------------ properties

from dataclasses import replace  # noqa: E402

from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from paifu.replay.mahjong.sanma.points import SANMA_KINDS, dora_kind, minimum_han, round_up  # noqa: E402


@st.composite
def winning_contexts(draw):
    """A complete sanma hand (four sets and a pair of the 108 tiles, some pungs declared),
    a winning tile from the concealed part, and random circumstances."""
    whole = [0] * 34
    sets = []
    for _ in range(4):
        if draw(st.booleans()):
            k = draw(st.sampled_from([k for k in range(9, 27) if k % 9 <= 6]))
            sets.append(("run", k))
            for j in range(3):
                whole[k + j] += 1
        else:
            k = draw(st.sampled_from(SANMA_KINDS))
            sets.append(("pung", k))
            whole[k] += 3
    pair = draw(st.sampled_from(SANMA_KINDS))
    whole[pair] += 2
    assume(max(whole) <= 4)
    concealed = list(whole)
    melds = []
    for kind, k in sets:
        if kind == "pung" and whole[k] == 3 and draw(st.integers(0, 3)) == 0:
            mk = draw(st.sampled_from(["pon", "kong_direct", "kong_added", "kong_concealed"]))
            melds.append(Meld(mk, T.tile_code(k), None if mk == "kong_concealed" else "x"))
            concealed[k] -= 3
    win = draw(st.sampled_from([k for k in range(34) if concealed[k]]))
    closed = all(m.kind == "kong_concealed" for m in melds)
    return WinContext(
        tuple(concealed), tuple(melds), T.tile_code(win),
        draw(st.sampled_from(["tsumo", "ron", "rob_added"])),
        seat_wind=draw(st.integers(0, 2)), round_wind=draw(st.integers(0, 1)),
        riichi=draw(st.sampled_from(["none", "riichi", "double", "open", "double_open"])) if closed else "none",
        honba=draw(st.integers(0, 9)), nuki=draw(st.integers(0, 4 - whole[30])),
        dora_indicators=tuple(draw(st.lists(st.sampled_from([T.tile_code(k) for k in SANMA_KINDS]), max_size=3))),
        reds=draw(st.integers(0, 2)))


@settings(deadline=None, max_examples=300)
@given(winning_contexts())
def test_score_invariants(c):
    """What any score must satisfy (rules 11–13, 18, 33): han is yaku plus dora; fu is 25 or
    a multiple of ten; the base is the limit table's; every payment is whole thousands plus
    1000 a stick; a ron is 4× (6× the dealer's) base rounded up; a tsumo is each payer's
    share rounded up + 1000; more dora never lowers the base; a win that passes rule 18 has
    its minimum in yaku han."""
    s = score(c)
    assert s is not None
    assert s.han == s.yaku_han + sum(i.value for i in s.dora)
    assert s.fu in (0, 25) or (s.fu % 10 == 0 and s.fu >= 20)
    assert s.base == base_points(s.han, s.fu)[0]
    assert all(p.hand % 1000 == 0 and p.honba == 1000 * c.honba for p in s.payments)
    if c.is_tsumo:
        shares = {p.role: p.hand for p in s.payments}
        if c.dealer:
            assert shares == {"non_dealer": round_up(2 * s.base) + 1000}
        else:
            assert shares == {"dealer": round_up(2 * s.base) + 1000, "non_dealer": round_up(s.base) + 1000}
    else:
        assert [p.hand for p in s.payments] == [round_up((6 if c.dealer else 4) * s.base)]
    more = score(replace(c, dora_indicators=c.dora_indicators + ("1z",)))
    assert more.base >= s.base and more.han >= s.han
    if minimum_shortfall(c) is None and not c.in_riichi:
        assert yaku_han(c) >= minimum_han(c)


@pytest.mark.parametrize("indicator,dora", [("1m", "9m"), ("9m", "1m"), ("9p", "1p"), ("4p", "5p"),
                                            ("9s", "1s"), ("3z", "4z"), ("4z", "1z"), ("5z", "6z"),
                                            ("7z", "5z")])
def test_dora_order(indicator, dora):
    """RULINGS §sanma: Dora order 1m→9m, 9m→1m, N→E (winds), dragons cycle."""
    assert T.tile_code(dora_kind(T.tile_index(indicator))) == dora


def test_table_rows_print_the_seeds_values():
    """SEED §認められる役: e.g. 「対々和 無(二)」, 「清一色 六(五)」, 「紅孔雀 二十(二十)」."""
    from paifu.replay.mahjong.sanma.yaku import table_rows
    rows = {term: (closed, open_) for term, _, closed, open_ in table_rows()}
    assert rows["対々和"] == ("無", "2") and rows["清一色"] == ("6", "5") and rows["紅孔雀"] == ("20", "20")
    assert "大四喜" not in rows


def test_red_5m_read_as_a_five_adds_two_han_that_are_not_yaku():
    """選択ルール「赤五萬」 6.1: 「通常の翻数に二を増して点数を計算する」; RULINGS §sanma: the +2
    is dora, not yaku (rule 18 ignores it). 平和 alone + 2 = 3 han, yaku 1."""
    c = ctx(PINFU_HAND, "6p", extra_dora=2)
    s = score(c)
    assert (s.han, s.yaku_han) == (3, 1) and [i.value for i in s.dora] == [2]
    assert minimum_shortfall(c) == ("6p", 1)


def test_standard_scoring_limits():
    """`scoring=standard`: 13 han is a counted yakuman, one however many han; yakuman yaku
    count one per 13 (26 = double)."""
    std = ScoringRules(scoring="standard")
    assert base_points(12, 30, std) == (6000, "三倍満", 0)
    assert base_points(27, 30, std) == (8000, "役満", 1)
    assert base_points(26, 30, std, named=26) == (16000, "ダブル役満", 2)
