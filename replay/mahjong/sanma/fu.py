"""Fu (符) of a sanma win: standard Japanese riichi, where the seed is silent, and the seed's
七対子 25 fu (「三人麻雀」のルール ver. 1.3 §基本ルール 20).

Each item is named (:class:`~replay.sanma.hand.Item`, value in fu); the total is rounded up
to the ten, and an open hand without fu is worth 30.
"""

from __future__ import annotations

from .. import tiles as T
from .hand import Item, ScoringRules, WinContext
from .yaku import ORPHANS, Reading, Set, pinfu

BASE = Item("副底", "Base", 20)
CLOSED_RON = Item("門前加符", "Concealed ron", 10)
TSUMO = Item("自摸符", "Self-draw", 2)
SEVEN_PAIRS = Item("七対子", "Seven pairs (flat, rule 20)", 25)
OPEN_NO_FU = Item("喰い平和形", "Open hand without fu, counted as 30", 10)
WAIT_FU = {"kanchan": ("嵌張待ち", "Closed wait"), "penchan": ("辺張待ち", "Edge wait"),
           "tanki": ("単騎待ち", "Single wait")}


def set_fu(s: Set) -> Item | None:
    """A pung or kong: 2 (open simple), doubled when concealed, doubled for a terminal or
    honour, ×4 for a kong."""
    if s.kind == "run":
        return None
    fu = 2 * (1 if s.open else 2) * (2 if s.tile in ORPHANS else 1) * (4 if s.kind == "kong" else 1)
    what = {"pung": ("明刻", "Open pung") if s.open else ("暗刻", "Concealed pung"),
            "kong": ("明槓", "Open kong") if s.open else ("暗槓", "Concealed kong")}[s.kind]
    return Item(what[0], f"{what[1]} of {T.tile_code(s.tile)}", fu)


def pair_fu(pair: int, ctx: WinContext, rules: ScoringRules) -> Item | None:
    """A pair of dragons, of the seat wind or of the round wind: 2; of both winds: 4 (or 2
    under ``double_wind_fu=2``). North is no value tile."""
    seat, round_ = pair == 27 + ctx.seat_wind, pair == 27 + ctx.round_wind
    if seat and round_:
        return Item("連風牌の雀頭", f"Pair of the double wind {T.tile_code(pair)}", rules.double_wind_fu)
    if seat or round_ or pair in T.DRAGONS:
        return Item("役牌の雀頭", f"Pair of the value tile {T.tile_code(pair)}", 2)
    return None


def fu_items(r: Reading, ctx: WinContext, rules: ScoringRules) -> list[Item]:
    """The fu items of a reading, before rounding; empty for thirteen orphans and
    十三不塔 (scored as limits only)."""
    if r.form == "seven_pairs":
        return [SEVEN_PAIRS]
    if r.form != "standard":
        return []
    items = [BASE]
    is_pinfu = pinfu(r, ctx)
    if ctx.closed and not ctx.is_tsumo:
        items.append(CLOSED_RON)
    if ctx.is_tsumo and not is_pinfu:
        items.append(TSUMO)
    for s in r.sets:
        item = set_fu(s)
        if item:
            items.append(item)
    assert r.pair is not None
    item = pair_fu(r.pair, ctx, rules)
    if item:
        items.append(item)
    if r.wait in WAIT_FU:
        term, name = WAIT_FU[r.wait]
        items.append(Item(term, name, 2))
    if not ctx.closed and sum(i.value for i in items) == 20:
        items.append(OPEN_NO_FU)
    return items


def total_fu(items: list[Item]) -> int:
    """The sum rounded up to the ten; 25 stays 25 (七対子)."""
    raw = sum(i.value for i in items)
    if raw == 25:
        return 25
    return -(-raw // 10) * 10
