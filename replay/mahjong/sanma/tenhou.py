"""The ``rules=tenhou`` option set of the sanma engine: Tenhou's (and Mahjong Soul's)
three-player rules, for replaying imported tenhou.net/6 logs (``paifu import tenhou``).

Where the seed (「三人麻雀」のルール ver. 1.3) and Tenhou differ, ``rules=tenhou`` takes
Tenhou's value (docs/import.md, docs/rulings.md §tenhou):

| item | seed | rules=tenhou |
|---|---|---|
| start | 30,000 | 35,000 |
| points | rounded up to the thousand, tsumo +1000 per payer | rounded up to the hundred; tsumo loss (ツモ損: no North seat's share) |
| honba | 1000 per stick from each payer | 200 per stick on a ron, 100 per stick from each tsumo payer |
| minimum | 2 han from yaku on every winning tile (rule 18) | 1 yaku on the tile won on |
| yaku | the seed's list, yakuman at 15 han | common Japanese riichi (``scoring=standard``), yakuman at 13 han, kazoe yakuman; each yakuman yaku one yakuman (``double_yakuman=yes``: Mahjong Soul's doubles) |
| robbing | a closed kong or a North only with 15+ han | a closed kong only with thirteen orphans; an extracted North with any winning hand (no 槍槓) |
| dealer | stays on a draw in the South round | stays only when he wins or is tenpai at a draw, or on an abortive draw |
| dead wall | 18 tiles, fixed (8 replacement tiles) | 14 tiles, replenished: each replacement draw shortens the live wall; no kong or nuki once it is empty |
| abortive draw | none | 九種九牌 (``A: abort nine_terminals``) |
| double ron | honba to each winner | honba and pot to the first winner from the discarder (上家取り) |
| red fives | one 5p, one 5s | per the log's ``aka52``/``aka53`` (``aka51``: sanma has no 5m) |

Noten payments are the same (each noten seat pays each tenpai seat 1000), and 抜きドラ
(each North 1 han; they also count for the dora indicators).

The log's own figures, kept by the importer in ``[%tenhou ...]`` comment commands on each
win, are compared with the replay's settlement by :func:`check_win`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from paifu.notation.model import Event, comment_commands
from paifu.notation.figures import read_points, read_yaku

from ...engine import RuleOption

START_POINTS = 35000
DEAD_WALL = 14  # 王牌 of 14, replenished
HONBA_RON = 200
HONBA_TSUMO = 100  # from each payer
SOURCE = "Tenhou / Mahjong Soul three-player rules (rules=tenhou)"
DEAD_WALL_RULE = (f"{SOURCE}, docs/import.md §rules=tenhou (a 14-tile dead wall replenished from the live wall: "
                  "no kong and no North extraction once the live wall is empty)")

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("rules", "seed", ("seed", "tenhou"),
               "seed: 「三人麻雀」のルール ver. 1.3; tenhou: Tenhou/Mahjong Soul sanma (35,000 start, "
               "tsumo loss, honba 200/100, 1-han minimum, 13-han yakuman, 九種九牌), for imported logs",
               "docs/import.md"),
    RuleOption("double_yakuman", "no", ("no", "yes"),
               "rules=tenhou: no: each yakuman yaku is one yakuman (Tenhou); yes: 13-sided thirteen orphans, "
               "four concealed pungs on a single wait, 9-sided nine gates and big four winds count double (Mahjong Soul)",
               "docs/import.md"),
    RuleOption("aka51", "0", ("0", "1"), "tenhou logs' red 5m flag (sanma has no 5m: no effect)", "docs/import.md"),
    RuleOption("aka52", "1", ("0", "1"), "red 5p (rules=tenhou; 「三人麻雀」のルール ver. 1.3 always has one, §基本ルール 3)", "docs/import.md"),
    RuleOption("aka53", "1", ("0", "1"), "red 5s (rules=tenhou; 「三人麻雀」のルール ver. 1.3 always has one, §基本ルール 3)", "docs/import.md"),
)


def is_tenhou(options: Mapping[str, str]) -> bool:
    return options.get("rules", "seed") == "tenhou"


def reds(options: Mapping[str, str]) -> list[str]:
    """The red fives of the tile set under the log's aka flags (seed: 0p and 0s)."""
    if not is_tenhou(options):
        return ["0p", "0s"]
    return [c for c, k in (("0p", "aka52"), ("0s", "aka53")) if options.get(k, "1") == "1"]


def round_up_100(points: int) -> int:
    return -(-points // 100) * 100


# --------------------------------------------------------------------------- the log's figures

YAKU_KEYS: dict[str, str] = {
    "門前清自摸和": "menzen_tsumo", "立直": "riichi", "両立直": "double_riichi", "ダブル立直": "double_riichi",
    "一発": "ippatsu", "槍槓": "chankan", "嶺上開花": "rinshan", "海底摸月": "haitei", "海底撈月": "haitei",
    "河底撈魚": "houtei", "平和": "pinfu", "断幺九": "tanyao", "断么九": "tanyao", "一盃口": "iipeikou",
    "役牌 白": "yakuhai_white", "役牌 發": "yakuhai_green", "役牌 中": "yakuhai_red",
    "役牌:白": "yakuhai_white", "役牌:發": "yakuhai_green", "役牌:中": "yakuhai_red",
    "役牌:自風牌": "yakuhai_seat", "役牌:場風牌": "yakuhai_round",
    "自風 東": "yakuhai_seat", "自風 南": "yakuhai_seat", "自風 西": "yakuhai_seat",
    "場風 東": "yakuhai_round", "場風 南": "yakuhai_round",
    "七対子": "chiitoitsu", "混全帯幺九": "chanta", "混全帯么九": "chanta", "一気通貫": "ittsu",
    "三色同刻": "sanshoku_doukou", "三槓子": "sankantsu", "対々和": "toitoi", "三暗刻": "sanankou",
    "小三元": "shousangen", "混老頭": "honroutou", "二盃口": "ryanpeikou", "純全帯幺九": "junchan",
    "純全帯么九": "junchan", "混一色": "honitsu", "清一色": "chinitsu", "天和": "tenhou", "地和": "chiihou",
    "大三元": "daisangen", "四暗刻": "suuankou", "四暗刻単騎": "suuankou_tanki", "字一色": "tsuuiisou",
    "緑一色": "ryuuiisou", "清老頭": "chinroutou", "九蓮宝燈": "chuuren", "純正九蓮宝燈": "chuuren9",
    "国士無双": "kokushi", "國士無双": "kokushi", "国士無双１３面": "kokushi13", "国士無双13面": "kokushi13",
    "国士無双十三面": "kokushi13", "国士無双十三面待ち": "kokushi13", "四暗刻単騎待ち": "suuankou_tanki",
    "小四喜": "suushii", "大四喜": "daisuushii", "四槓子": "suukantsu",
}
"""The log's yaku names (Tenhou's and Mahjong Soul's spellings) -> the engine's yaku keys."""

DORA_NAMES = ("ドラ", "赤ドラ", "裏ドラ", "抜きドラ")
"""Han that are not yaku: compared as one sum (Tenhou folds a North that is also dora into
ドラ, the engine lists it under ドラ and 抜きドラ alike)."""

def log_figures(event: Event) -> dict[str, list[str]]:
    """The ``[%tenhou key=value ...]`` commands of an event's comments, as key -> values
    (``yaku`` repeats): what the importer kept of the log's own result."""
    out: dict[str, list[str]] = {}
    for c in event.comments:
        for cmd, args in comment_commands(c):
            if cmd != "tenhou":
                continue
            starts = [m.start() for m in re.finditer(r"(?:^|\s)[a-z_]+=", args)]
            for i, s in enumerate(starts):
                part = args[s:starts[i + 1] if i + 1 < len(starts) else len(args)].strip()
                key, _, value = part.partition("=")
                out.setdefault(key, []).append(value)
    return out


DOUBLES = ("kokushi13", "chuuren9", "suuankou_tanki", "daisuushii")
"""The yakuman yaku ``double_yakuman=yes`` counts double (Mahjong Soul's ranked rules); its
logs still mark each one ``(役満)``, and its points say the double."""


def check_win(seat: str, log: Mapping[str, list[str]], scored, yaku_term: Mapping[str, str],
              dealer: bool, tsumo: bool, double: bool = False) -> list[str]:
    """Each disagreement between the log's figures for one win and the engine's ``scored``
    (a :class:`~replay.sanma.hand.Scored`), in words naming both figures; ``double``: the
    record's ``double_yakuman=yes``, under which a yaku of :data:`DOUBLES` marked ``(役満)``
    is two yakuman."""
    out: list[str] = []
    got_yaku: dict[str, int] = {}
    got_dora = 0
    for entry in log.get("yaku", []):
        read = read_yaku(entry)
        if read is None:
            out.append(f"{seat}: the log's yaku entry {entry!r} is not 'name(N飜)' or 'name(役満)'")
            continue
        name, han = read
        if name in DORA_NAMES:
            got_dora += han
            continue
        key = YAKU_KEYS.get(name)
        if key is None:
            out.append(f"{seat}: the log's yaku {name!r} is not one paifu knows (rules=tenhou)")
            continue
        if double and key in DOUBLES and entry.strip().endswith("(役満)"):
            han = 26
        got_yaku[key] = got_yaku.get(key, 0) + han
    mine = {}
    for item in scored.yaku:
        key = next((k for k, t in yaku_term.items() if t == item.term), item.term)
        mine[key] = mine.get(key, 0) + item.value
    for key in sorted(set(got_yaku) | set(mine)):
        a, b = got_yaku.get(key), mine.get(key)
        if a != b:
            name = yaku_term.get(key, key)
            out.append(f"{seat}'s yaku {name}: log {a if a is not None else 'none'}, replay {b if b is not None else 'none'} han")
    my_dora = sum(i.value for i in scored.dora)
    yakuman = any(v >= 13 for v in got_yaku.values())
    if not yakuman and got_dora != my_dora:
        out.append(f"{seat}'s dora (ドラ, 赤ドラ, 裏ドラ, 抜きドラ): log {got_dora}, replay {my_dora} han")
    pts = read_points(log.get("points", [""])[0])
    if pts is None:
        out.append(f"{seat}: the log's points {log.get('points', [''])[0]!r} are not read")
        return out
    if pts["han"] is not None and pts["han"] != scored.han:
        out.append(f"{seat}'s han: log {pts['han']}, replay {scored.han}")
    if pts["fu"] is not None and pts["fu"] != scored.fu:
        out.append(f"{seat}'s fu: log {pts['fu']}, replay {scored.fu}")
    limit = str(pts["limit"]).replace("数え役満", "役満")
    mine = scored.limit or ""
    if limit == "役満" and mine.endswith("役満"):
        mine = "役満"  # the logs write 役満 whatever the count of yakuman: the points tell the count
    if limit and limit != mine:
        out.append(f"{seat}'s limit: log {pts['limit']}, replay {scored.limit or 'none'}")
    hands = sorted(p.hand for p in scored.payments)
    want = sorted(pts["points"])  # type: ignore[arg-type]
    if tsumo and dealer and pts["all"]:
        want = [want[0]]
    if tsumo and not dealer:
        want = sorted(want)
    if hands != want:
        out.append(f"{seat}'s points: log {pts['points']}{'∀' if pts['all'] else ''}, replay {tuple(hands)}")
    return out


__all__ = ["OPTIONS", "START_POINTS", "DEAD_WALL", "DEAD_WALL_RULE", "HONBA_RON", "HONBA_TSUMO", "is_tenhou", "reds",
           "round_up_100", "read_yaku", "read_points", "check_win", "YAKU_KEYS"]
