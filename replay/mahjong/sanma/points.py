"""Points of a sanma win: han and fu to base points, limits, payments, and rule 18's minimum.

「三人麻雀」のルール ver. 1.3: §基本ルール 11 (points rounded up at the hundreds:
「点数は百点の位を切り上げる」, each payment on its own), 12 (積み棒 1000 a stick, from each
payer on a tsumo), 13 (a tsumo pays the four-player share plus 1000), 18 (役による完全二翻縛り),
22 (抜きドラ), 23/24 (robbing a North or a closed kong: a ron by the extractor/konger), 33
(役満 = 15–19 han, ダブル役満 at 20, one more every 5 han). Mangan to sanbaiman and fu are
standard riichi (RULINGS §sanma).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from .. import tiles as T
from ...engine import RuleOption
from ..core import Meld
from .fu import fu_items, total_fu
from .hand import Item, Payment, Scored, ScoringRules, WinContext
from .play import waits_of
from .yaku import Reading, as_items, readings, whole_counts, yaku_items
from . import tenhou as TH

SEED = "「三人麻雀」のルール ver. 1.3"
RULING = "docs/rulings.md §sanma scoring"

SCORING_OPTIONS: list[RuleOption] = [
    RuleOption("scoring", "seed", ("seed", "standard"),
               "seed: the rule text's yaku list and han, yakuman from 15 han; standard: common Japanese "
               "riichi yaku and 13-han yakuman (for comparing with other scorers)",
               f"{SEED} §認められる役 / {RULING}"),
    RuleOption("double_wind_fu", "4", ("4", "2"),
               "fu of a pair of a wind that is both seat and round wind (the rule text is silent)", RULING),
    RuleOption("yakuman_stack", "add", ("add", "standard"),
               "add: yakuman yaku, other yaku and dora all add their han; standard: with a yakuman "
               "yaku only yakuman yaku count", f"{SEED} §基本ルール 33 / {RULING}"),
    RuleOption("tsumo_bonus", "per_payer", ("per_payer", "total"),
               "per_payer: each tsumo payer pays its four-player share plus 1000; total: 1000 once, "
               "split between the payers", f"{SEED} §基本ルール 13"),
]
"""The scoring options, for the engine's option list (``paifu rules sanma``)."""

SANMA_KINDS = tuple(i for i in range(34) if not 1 <= i <= 7)  # no 2m..8m (rule 1)
YAKUMAN_NAMES = ("役満", "ダブル役満", "トリプル役満", "四倍役満")


def scoring_rules(options: Mapping[str, str]) -> ScoringRules:
    """The :class:`ScoringRules` of a record's options (missing ones take their defaults)."""
    if TH.is_tenhou(options):  # rules=tenhou: common riichi yaku, 13-han yakuman, 1 han (tenhou.py)
        return ScoringRules(scoring="standard", yakuman_stack="standard", minimum_han=1, tenhou=True,
                            double_yakuman=options.get("double_yakuman", "no") == "yes")
    get = {o.name: options.get(o.name, o.default) for o in SCORING_OPTIONS}
    return ScoringRules(scoring=get["scoring"], double_wind_fu=int(get["double_wind_fu"]),
                        yakuman_stack=get["yakuman_stack"], tsumo_bonus=get["tsumo_bonus"])


# --------------------------------------------------------------------------- dora


def dora_kind(indicator: int) -> int:
    """The dora an indicator shows (RULINGS §sanma): 1m→9m, 9m→1m; pin and sou 9→1; winds
    E→S→W→N→E; dragons white→green→red→white."""
    if indicator < 9:
        return 8 if indicator == 0 else 0
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator < 31:
        return 27 + (indicator - 26) % 4
    return 31 + (indicator - 30) % 3


def dora_items(ctx: WinContext, rules: ScoringRules = ScoringRules()) -> list[Item]:
    """ドラ (indicators, kan dora), 裏ドラ (riichi only), 赤ドラ (rule 3), 抜きドラ (rule 22:
    one a North, four by one player dora 8; 4 under ``scoring=standard``). Extracted
    Norths count for the indicators too."""
    counts = list(whole_counts(ctx))
    counts[30] += ctx.nuki

    def count(indicators: tuple[str, ...]) -> int:
        return sum(counts[dora_kind(T.tile_index(i))] for i in indicators)

    items = []
    if (n := count(ctx.dora_indicators)):
        items.append(Item("ドラ", "Dora", n))
    if ctx.in_riichi and (n := count(ctx.ura_indicators)):
        items.append(Item("裏ドラ", "Ura dora", n))
    if ctx.reds:
        items.append(Item("赤ドラ", "Red fives", ctx.reds))
    if ctx.nuki:
        items.append(Item("抜きドラ", "Norths extracted", 8 if ctx.nuki >= 4 and not rules.standard else ctx.nuki))
    if ctx.extra_dora:
        items.append(Item("赤五萬 (赤々五筒・赤々五索)", "Red 5m read as a five", ctx.extra_dora))
    return items


# --------------------------------------------------------------------------- base points


def base_points(han: int, fu: int, rules: ScoringRules = ScoringRules(),
                named: int = 0) -> tuple[int, str, int]:
    """(基本点, limit name, yakuman multiple) of ``han`` and ``fu``.

    Seed: 満貫 at 5 han or from 2000 base (4 han 40 fu, 3 han 70 fu), 跳満 6–7, 倍満 8–10,
    三倍満 11–14, 役満 15–19, ダブル役満 20–24, one more every 5 han (rule 33).
    ``scoring=standard``: 三倍満 11–12, 役満 13; ``named`` (the han of yakuman yaku) counts
    one yakuman per 13, a counted (数え) yakuman is one whatever its han."""
    y = rules.yakuman_han
    if han >= y:
        if rules.standard:
            multiple = max(1, named // 13)
        else:
            multiple = 1 + (han - 15) // 5
        name = YAKUMAN_NAMES[multiple - 1] if multiple <= len(YAKUMAN_NAMES) else f"{multiple}倍役満"
        return 8000 * multiple, name, multiple
    if han >= 11:
        return 6000, "三倍満", 0
    if han >= 8:
        return 4000, "倍満", 0
    if han >= 6:
        return 3000, "跳満", 0
    base = fu * 2 ** (han + 2)
    if han >= 5 or base >= 2000:
        return 2000, "満貫", 0
    return base, "", 0


def round_up(points: int) -> int:
    """Rule 11: 「点数は百点の位を切り上げる」, up to the thousand."""
    return -(-points // 1000) * 1000


def payments(base: int, ctx: WinContext, rules: ScoringRules = ScoringRules()) -> tuple[Payment, ...]:
    """Who pays what (rules 11–13, 23, 24): a ron or any rob is paid by the discarder,
    konger or extractor alone (4× base, 6× for the dealer); a tsumo by each other seat, its
    four-player share (2× base the dealer or every payer of a dealer, 1× a non-dealer)
    rounded up plus 1000; honba 1000 a stick from each payer."""
    if rules.tenhou:  # rules=tenhou: to the hundred, tsumo loss, honba 200 / 100 a payer (tenhou.py)
        return _tenhou_payments(base, ctx)
    sticks = 1000 * ctx.honba
    if not ctx.is_tsumo:
        return (Payment("discarder", round_up(base * (6 if ctx.dealer else 4)), sticks),)
    bonus = 1000 if rules.tsumo_bonus == "per_payer" else 500
    if ctx.dealer:
        return (Payment("non_dealer", round_up(2 * base) + bonus, sticks, count=2),)
    return (Payment("dealer", round_up(2 * base) + bonus, sticks),
            Payment("non_dealer", round_up(base) + bonus, sticks))


def _tenhou_payments(base: int, ctx: WinContext) -> tuple[Payment, ...]:
    """rules=tenhou: a ron pays 4× base (6× the dealer's) rounded up to the hundred plus 200
    a honba; a tsumo the four-player shares of the two payers only (ツモ損), each rounded
    up to the hundred, plus 100 a honba from each."""
    up = TH.round_up_100
    if not ctx.is_tsumo:
        return (Payment("discarder", up(base * (6 if ctx.dealer else 4)), TH.HONBA_RON * ctx.honba),)
    sticks = TH.HONBA_TSUMO * ctx.honba
    if ctx.dealer:
        return (Payment("non_dealer", up(2 * base), sticks, count=2),)
    return (Payment("dealer", up(2 * base), sticks), Payment("non_dealer", up(base), sticks))


# --------------------------------------------------------------------------- scoring


def _score_reading(r: Reading, ctx: WinContext, rules: ScoringRules,
                   dora: list[Item]) -> Scored:
    found = yaku_items(r, ctx, rules)
    yaku = as_items(found)
    yaku_total = sum(i.value for i in yaku)
    if (rules.standard or rules.yakuman_stack == "standard") and any(
            i.value >= rules.yakuman_han for i in yaku):
        dora = []  # a yakuman yaku: only yakuman yaku count
    fus = fu_items(r, ctx, rules)
    fu = total_fu(fus) if fus else 0
    han = yaku_total + sum(i.value for i in dora)
    named = sum(i.value for i in yaku if i.value >= rules.yakuman_han)
    base, limit, multiple = base_points(han, fu, rules, named)
    return Scored(yaku, tuple(dora), tuple(fus), han, fu, limit, base,
                  payments(base, ctx, rules), multiple, r.describe())


def score(ctx: WinContext, rules: ScoringRules = ScoringRules()) -> Scored | None:
    """The best scoring of a win over every reading of the hand (most points, then a
    yakuman yaku's han over a counted yakuman's, then han, then fu); None when the hand is not complete. A result without yaku is still returned:
    whether it may win is :func:`minimum_shortfall`'s question."""
    return _score_once(_Asked(ctx, rules))


class _Asked:
    """One question to the scorer, equal to another with the same win and rules: the engine
    scores a win when it is made and again when the hand is settled. Melds are compared as
    they are now (a pon may later become an added kong in place)."""

    __slots__ = ("ctx", "rules", "key")

    def __init__(self, ctx: WinContext, rules: ScoringRules) -> None:
        self.ctx, self.rules = ctx, rules
        self.key = (replace(ctx, melds=()), tuple((m.kind, m.tile, m.source, m.run) for m in ctx.melds), rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Asked) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


@lru_cache(maxsize=32)
def _score_once(asked: _Asked) -> Scored | None:
    ctx, rules = asked.ctx, asked.rules
    dora = dora_items(ctx, rules)
    best: Scored | None = None
    best_key: tuple[int, ...] = ()
    for r in readings(ctx):
        s = _score_reading(r, ctx, rules, dora)
        named = sum(i.value for i in s.yaku if i.value >= rules.yakuman_han)
        key = (s.base, named, s.han, s.fu)
        if best is None or key > best_key:
            best, best_key = s, key
    return best


def yaku_han(ctx: WinContext, rules: ScoringRules = ScoringRules(),
             kinds: tuple[str, ...] | None = None, read: Sequence[Reading] | None = None) -> int:
    """Han from yaku only (no dora, red fives or nuki: rule 18's 役による翻), at best over
    the readings; 0 when the hand is not complete. ``kinds`` keeps only yaku of those kinds;
    ``read``: the hand's readings, when the caller has them already."""
    return max((sum(h for _, h in yaku_items(r, ctx, rules, kinds)) for r in (readings(ctx) if read is None else read)),
               default=0)


def minimum_han(ctx: WinContext, rules: ScoringRules = ScoringRules()) -> int:
    """Rule 18: 2 han from yaku; 3 with five or more honba (18.4)."""
    if rules.tenhou:  # rules=tenhou: one yaku, whatever the honba
        return rules.minimum_han
    return rules.minimum_han + (1 if ctx.honba >= 5 else 0)


def wait_kinds(ctx: WinContext) -> list[int]:
    """The winning tiles of the hand before the win (the ready hand's wait); a kind whose
    four copies the winner holds, melds included, is none (RULINGS §sanma)."""
    before = list(ctx.concealed)
    before[T.tile_index(ctx.win_tile)] -= 1
    held = list(whole_counts(ctx))
    held[T.tile_index(ctx.win_tile)] -= 1
    return [k for k in waits_of(before, len(ctx.melds)) if held[k] < 4]


def _with_tile(ctx: WinContext, kind: int) -> WinContext:
    counts = list(ctx.concealed)
    counts[T.tile_index(ctx.win_tile)] -= 1
    counts[kind] += 1
    return replace(ctx, concealed=tuple(counts), win_tile=T.tile_code(kind))


def riichi_guarantee(ctx: WinContext, rules: ScoringRules = ScoringRules()) -> int:
    """The han a riichi player is sure of on every winning tile (RULINGS §sanma): the riichi
    (its kind, not rule 21.1's upgrade) and 八連荘, plus the shape yaku present on every
    tile of the wait; tsumo, ippatsu and the other luck yaku do not count."""
    calm = replace(ctx, how="ron", feeder_in_riichi=True)
    return min((_sure_han(_with_tile(calm, k), rules) for k in wait_kinds(ctx)), default=0)


def _sure_han(ctx: WinContext, rules: ScoringRules) -> int:
    read = list(readings(ctx))
    return yaku_han(ctx, rules, ("riichi", "state"), read) + yaku_han(ctx, rules, ("shape",), read)


def ready_shortfall(concealed: Sequence[int], melds: Sequence[Meld], riichi: str, *,
                    seat_wind: int, round_wind: int = 0, honba: int = 0,
                    rules: ScoringRules = ScoringRules()) -> tuple[str, int] | None:
    """Rule 18.1 for a ready hand of ``13 - 3 × melds`` tiles under ``riichi`` (a kind of
    :data:`~replay.sanma.hand.RIICHI_KINDS`): None when every tile of the wait is sure of
    the minimum (the riichi, 八連荘 and the shape yaku), else the first tile that is not and
    its han: 「そのような状況に出来ないような立直は「ノー聴立直」」. A hand with no wait at
    all is no ready hand: ``("", 0)``."""
    kinds = [k for k in waits_of(concealed, len(melds))
             if concealed[k] + sum((4 if m.is_kong else 3) for m in melds
                                   if T.tile_index(m.tile) == k) < 4]
    if not kinds:
        return ("", 0)
    for k in kinds:
        counts = list(concealed)
        counts[k] += 1
        ctx = WinContext(tuple(counts), tuple(melds), T.tile_code(k), "ron", seat_wind=seat_wind,
                         round_wind=round_wind, riichi=riichi, honba=honba)
        got = _sure_han(ctx, rules)
        if got < minimum_han(ctx, rules):
            return (T.tile_code(k), got)
    return None


def minimum_shortfall(ctx: WinContext, rules: ScoringRules = ScoringRules()) -> tuple[str, int] | None:
    """Rule 18: None when the win holds 2 han (3 at 5+ honba) from yaku, else (the tile
    code whose win falls short, the han it gives).

    - A riichi player: :func:`riichi_guarantee` (18.1).
    - A tsumo without riichi: the hand made (18.2).
    - A ron or rob without riichi: every winning tile of the wait, each read at its best,
      in the same circumstances (河底, 樌振り... hold whatever the tile, 18.3)."""
    need = minimum_han(ctx, rules)
    if rules.tenhou:  # rules=tenhou: a yaku on the tile won on; the wait's other tiles do not matter
        got = yaku_han(ctx, rules)
        return None if got >= need else (ctx.win_tile, got)
    if ctx.in_riichi:
        got = riichi_guarantee(ctx, rules)
        return None if got >= need else (ctx.win_tile, got)
    if ctx.is_tsumo:
        got = yaku_han(ctx, rules)
        return None if got >= need else (ctx.win_tile, got)
    got = yaku_han(ctx, rules)
    if got < need:
        return (ctx.win_tile, got)
    for k in wait_kinds(ctx):
        other = yaku_han(_with_tile(ctx, k), rules)
        if other < need:
            return (T.tile_code(k), other)
    return None


def rob_allowed(scored: Scored, rules: ScoringRules = ScoringRules(), how: str = "") -> bool:
    """Rules 23/24: an extracted North or a closed kong's tile is won on only by a 役満
    (15+ han in all, rule 33)."""
    if rules.tenhou:  # rules=tenhou: a closed kong only by thirteen orphans; a North by any win
        return how == "rob_north" or any(i.name.startswith("Thirteen orphans") for i in scored.yaku)
    return scored.han >= rules.yakuman_han
