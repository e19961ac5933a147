"""`paifu selfplay GAME --aim ITEM`: deals and choices steered toward a named scoring item stay
legal (the records validate) and reach the item (issue 19, "Rare rules, reached")."""

from __future__ import annotations

import random

import pytest

from paifu.replay import games
from paifu.replay.deals import StackedShuffle
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate

AIMS = [
    # (game, aim as the settlements name it, the seed's situation)
    ("bigtwo", "dragon", "「中華圏の大富豪BIG2」: 一條龍 dealt"),
    ("bigtwo", "同花一條龍", "「中華圏の大富豪BIG2」: 同花一條龍 dealt"),
    ("piquet", "carte blanche", "「ピケ(piquet)」 §絵札なし(カルト・ブランシュ)"),
    ("piquet", "capot", "「ピケ(piquet)」: 12回全勝"),
    ("kawuxing", "双龙七对", "卡五星: Double Dragon Seven Pairs"),
    ("kawuxing", "海底捞", "卡五星: Fishing the Bottom"),
    ("kawuxing", "drawn hand", "卡五星: 流局"),
    ("paohuzi", "天胡", "「跑胡子(paohuzi)」: 天胡 by five triples"),
    ("paohuzi", "no red card", "「跑胡子(paohuzi)」 / RULINGS: 黑胡"),
    ("kawuxing", "Pure One Suit", "卡五星: 清一色"),
    ("kawuxing", "Greater Three Elements", "卡五星: 大三元"),
    ("piquet", "huitième", "「ピケ(piquet)」 §続き: 8 枚続き"),
    ("bigtwo", "no card played", "「中華圏の大富豪BIG2」: 1枚も出せずに負けた場合"),
    ("sanma", "Pinfu", "「三人麻雀」のルール ver. 1.3 §認められる役: 平和"),
    ("sanma", "槍槓", "「三人麻雀」のルール ver. 1.3 §認められる役: 槍槓 (an added kong robbed)"),
    ("sanma", "Last discard", "「三人麻雀」のルール ver. 1.3 §認められる役: 河底撈魚"),
    ("sanma", "Open riichi won on a non-riichi player", "「三人麻雀」のルール ver. 1.3 §基本ルール 21.1"),
    ("sanma", "Four kongs", "「三人麻雀」のルール ver. 1.3 §認められる役: 四樌子"),
    ("wuhan", "三陽", "武漢の「紅中頼子槓」麻雀 §点数計算: 3人全員が陽光頂のときは三陽"),
    ("wuhan", "全求人", "武漢の「紅中頼子槓」麻雀 §点数計算 大胡: 全求人 (4つ開口しての,裸単騎の振り込み上がり)"),
    ("wuhan", "robbing a kong", "武漢の「紅中頼子槓」麻雀 §点数計算 大胡: 搶槓; 包: 搶槓された人は包です"),
    ("sanma", "Won on the discard after a replacement draw", "「三人麻雀」のルール ver. 1.3 §認められる役: 樌振り (after a nuki)"),
    ("kawuxing", "抢杠胡", "卡五星: Robbing a Kong (a growing kong robbed by a plain hand)"),
    ("kawuxing", "Lone Tile", "卡五星: 手抓一 (four calls, one tile left)"),
    ("kawuxing", "明四归一", "卡五星: Open Four in One (the fourth tile of a pung)"),
    ("kawuxing", "杠上炮", "卡五星: Claimed on Kong"),
    ("paomazai", "搶槓糊", "「香港雀荘と澳門カジノの麻雀・跑馬仔」 ■得点一覧: 搶槓糊"),
    ("jiuzhi", "一色胡", "「四色牌の九支十仔」 得点計算: 一色胡"),
    ("jiuzhi", "開交胡", "「四色牌の九支十仔」 得点計算: 開交胡"),
    ("jiuzhi", "開交対子", "「四色牌の九支十仔」 得点計算: 開交対子"),
    ("paohuzi", "臭偎", "「跑胡子(paohuzi)」 §プレイ: 臭偎, a pon of a card already passed by"),
    ("yichang", "清碰", "湖北宜昌の「血流成河」: 清碰 through the exchange of three"),
    ("jiuzhi", "drawn hand", "「四色牌の九支十仔」: the stock runs out (claims are compulsory)"),
]


@pytest.mark.parametrize("game,aim,where", AIMS)
def test_aimed_records_validate_and_reach_the_item(game, aim, where):
    engine = games.engine(game)
    hits: list[bool] = []
    record = selfplay_record(engine, 19, hands=2, aim=aim, hits=hits)
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    assert hits and all(hits), (where, hits)
    names = {n for hand in report.hands for i in hand.items for n in (i.name.casefold(), i.term.casefold())}
    assert aim.casefold() in names or aim == "drawn hand", (where, sorted(names))


def test_a_stacked_deal_is_a_permutation_of_the_pack():
    """A stacked deal reorders the pack; one that would add or drop a card is refused."""
    pack = ["AS", "KS", "QS", "JS"]
    keep = StackedShuffle(random.Random(1), lambda cards, r: sorted(cards))
    x = list(pack)
    keep.shuffle(x)
    assert x == sorted(pack)
    cheat = StackedShuffle(random.Random(1), lambda cards, r: ["AS"] * len(cards))
    with pytest.raises(ValueError):
        cheat.shuffle(list(pack))
