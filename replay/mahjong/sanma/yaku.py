"""The yaku of 「三人麻雀」のルール ver. 1.3 as a table of named items.

The seed's list is closed (「認められる役は以下で全てである」): :data:`YAKU` holds every item of
it, each with the seed's term, an English name, the seed's closed and open han (``None`` for
the seed's 「無」: not a yaku), whether it is a shape yaku (read from a decomposition) or a
circumstance (riichi, tsumo, luck, state), and a predicate over a :class:`Reading` and the
:class:`~replay.sanma.hand.WinContext`. A second pair of han values scores the same hand as
common Japanese riichi does (``scoring=standard``: 13 han for a yakuman), for comparing with
other scorers; ``None`` there means the yaku does not exist in that game.

Stacking (RULINGS §sanma): everything adds, dora included; an implied yaku is dropped
(:data:`IMPLIES`); 嶺上開花/海底撈月 and 樌振り/河底撈魚 do not combine (rule 40).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache, cached_property

from .. import tiles as T
from .hand import Item, ScoringRules, WinContext

WHITE, GREEN, RED = T.DRAGONS
NORTH = 30
TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
ORPHANS = frozenset(T.ORPHANS)
GREENS = frozenset((19, 20, 21, 23, 25, GREEN))  # 2s 3s 4s 6s 8s 發
PEACOCK = frozenset((18, 22, 24, 26, RED))  # 1s 5s 7s 9s 中 (紅孔雀, rule 39.1)


# --------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class Set:
    """One set of a reading: ``run`` (lowest kind), ``pung`` or ``kong`` (its kind).

    ``open``: claimed, or a pung completed by a ron (not 暗刻, and open fu);
    ``declared``: a meld laid down (pon, kong)."""

    kind: str
    tile: int
    open: bool = False
    declared: bool = False

    @property
    def is_pung(self) -> bool:
        return self.kind != "run"

    def kinds(self) -> tuple[int, ...]:
        return (self.tile, self.tile + 1, self.tile + 2) if self.kind == "run" else (self.tile,)


@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand.

    ``form``: ``standard`` (four sets and a pair), ``seven_pairs``, ``orphans`` (國士無双),
    ``unconnected`` (十三不塔). ``wait``: ``ryanmen`` ``kanchan`` ``penchan`` ``shanpon``
    ``tanki`` for the standard form; ``tanki`` for seven pairs; ``thirteen`` or ``single``
    for thirteen orphans. ``counts``: the whole hand, melds included (a kong as four)."""

    form: str
    counts: tuple[int, ...]
    sets: tuple[Set, ...] = ()
    pair: int | None = None
    wait: str | None = None

    # what the predicates ask of a reading, each worked out once (a reading is scored by many yaku)
    @cached_property
    def kinds(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.counts) if n)

    @cached_property
    def suits(self) -> frozenset[str]:
        return frozenset(T.suit_of(i) for i in self.kinds if i < 27)

    @cached_property
    def runs(self) -> tuple[int, ...]:
        return tuple(s.tile for s in self.sets if s.kind == "run")

    @cached_property
    def pungs(self) -> tuple[Set, ...]:
        return tuple(s for s in self.sets if s.is_pung)

    def describe(self) -> str:
        if self.form != "standard":
            return " ".join(T.codes_of(self.counts))
        parts = []
        for s in self.sets:
            r, su = T.rank_of(s.tile), T.suit_of(s.tile)
            text = f"{r}{r + 1}{r + 2}{su}" if s.kind == "run" else f"{r}" * (3 if s.kind == "pung" else 4) + su
            parts.append(f"({text})" if s.declared else text)
        assert self.pair is not None
        parts.append(f"{T.rank_of(self.pair)}" * 2 + T.suit_of(self.pair))
        return " ".join(parts)


def _meld_sets(ctx: WinContext) -> list[Set]:
    out = []
    for m in ctx.melds:
        t = T.tile_index(m.tile)
        if m.kind == "pon":
            out.append(Set("pung", t, True, True))
        elif m.kind == "kong_concealed":
            out.append(Set("kong", t, False, True))
        else:
            out.append(Set("kong", t, True, True))
    return out


def whole_counts(ctx: WinContext) -> tuple[int, ...]:
    """34 counts of the whole hand: concealed tiles and melds (a kong as four)."""
    c = list(ctx.concealed)
    for m in ctx.melds:
        c[T.tile_index(m.tile)] += 4 if m.is_kong else 3
    return tuple(c)


def _run_wait(low: int, win: int) -> str:
    if win == low + 1:
        return "kanchan"
    if (win == low + 2 and T.rank_of(low) == 1) or (win == low and T.rank_of(low) == 7):
        return "penchan"
    return "ryanmen"


def is_unconnected(counts: tuple[int, ...] | list[int]) -> bool:
    """十三不塔's shape: thirteen kinds, one of them twice, and no two kinds of one suit within
    two ranks of each other (RULINGS §sanma)."""
    # asked at every discard: thirteen kinds held (21 of the 34 missing) rules out nearly every hand at once
    if counts.count(0) != 21 or sum(counts) != 14 or max(counts) > 2 or counts.count(2) != 1:
        return False
    for base in (0, 9, 18):
        held = [r for r in range(9) if counts[base + r]]
        if any(b - a <= 2 for a, b in zip(held, held[1:])):
            return False
    return True


def readings(ctx: WinContext) -> Iterator[Reading]:
    """Every reading of the winning hand, each placement of the winning tile apart."""
    win = T.tile_index(ctx.win_tile)
    whole = whole_counts(ctx)
    melds = _meld_sets(ctx)
    ron = not ctx.is_tsumo
    for d in T.decompositions(ctx.concealed, len(ctx.melds)):
        seen: set[tuple[str, int, str]] = set()
        hidden = [Set(k if k == "run" else "pung", t) for k, t in d.sets]
        if d.pair == win:
            yield Reading("standard", whole, tuple(melds + hidden), d.pair, "tanki")
        for i, s in enumerate(hidden):
            if win not in s.kinds():
                continue
            wait = _run_wait(s.tile, win) if s.kind == "run" else "shanpon"
            if (s.kind, s.tile, wait) in seen:
                continue
            seen.add((s.kind, s.tile, wait))
            sets = list(hidden)
            if s.kind == "pung" and ron:
                sets[i] = Set("pung", s.tile, True, False)
            yield Reading("standard", whole, tuple(melds + sets), d.pair, wait)
    if not ctx.melds:
        if T.is_seven_pairs(ctx.concealed):
            yield Reading("seven_pairs", whole, wait="tanki")
        if T.is_thirteen_orphans(ctx.concealed):
            yield Reading("orphans", whole, wait="thirteen" if ctx.concealed[win] == 2 else "single")
        if is_unconnected(ctx.concealed):
            yield Reading("unconnected", whole)


# --------------------------------------------------------------------------- predicates


def _kinds(r: Reading) -> tuple[int, ...]:
    return r.kinds


def _suits(r: Reading) -> frozenset[str]:
    return r.suits


def _has_honours(r: Reading) -> bool:
    return any(r.counts[27:])


def _pungs(r: Reading) -> tuple[Set, ...]:
    return r.pungs


def _runs(r: Reading) -> tuple[int, ...]:
    return r.runs


def _std(r: Reading) -> bool:
    return r.form == "standard"


def _value_kinds(c: WinContext) -> tuple[int, ...]:
    return (WHITE, GREEN, RED, 27 + c.seat_wind, 27 + c.round_wind)


def pinfu(r: Reading, c: WinContext) -> bool:
    """平和: closed, four runs, a pair that is no value tile, a two-sided wait."""
    return (_std(r) and c.closed and not c.melds and len(_runs(r)) == 4 and r.wait == "ryanmen"
            and r.pair not in _value_kinds(c))


def tanyao(r: Reading, c: WinContext) -> bool:
    """断么九: no terminal and no honour."""
    return r.form in ("standard", "seven_pairs") and not any(i in ORPHANS for i in _kinds(r))


def _peikou(r: Reading) -> int:
    return sum(n // 2 for n in Counter(_runs(r)).values())


def iipeikou(r: Reading, c: WinContext) -> bool:
    return _std(r) and c.closed and _peikou(r) == 1


def ryanpeikou(r: Reading, c: WinContext) -> bool:
    return _std(r) and c.closed and _peikou(r) >= 2


def ittsu(r: Reading, c: WinContext) -> bool:
    runs = set(_runs(r))
    return _std(r) and any({b, b + 3, b + 6} <= runs for b in (0, 9, 18))


def toitoi(r: Reading, c: WinContext) -> bool:
    return _std(r) and not _runs(r)


def _all_groups_hold(r: Reading, allowed: frozenset[int]) -> bool:
    return (r.pair in allowed
            and all(any(k in allowed for k in s.kinds()) for s in r.sets))


def chanta(r: Reading, c: WinContext) -> bool:
    """混全帯么九: every set and the pair hold a terminal or honour; honours and a run present."""
    return _std(r) and bool(_runs(r)) and _has_honours(r) and _all_groups_hold(r, ORPHANS)


def junchan(r: Reading, c: WinContext) -> bool:
    """純全帯么九: every set and the pair hold a terminal; a run present."""
    return _std(r) and bool(_runs(r)) and _all_groups_hold(r, TERMINALS)


def honroutou(r: Reading, c: WinContext) -> bool:
    return r.form in ("standard", "seven_pairs") and all(i in ORPHANS for i in _kinds(r))


def _concealed_pungs(r: Reading) -> int:
    return sum(1 for s in _pungs(r) if not s.open)


def sanankou(r: Reading, c: WinContext) -> bool:
    return _std(r) and _concealed_pungs(r) >= 3


def suuankou(r: Reading, c: WinContext) -> bool:
    return _std(r) and _concealed_pungs(r) == 4


def suuankou_tanki(r: Reading, c: WinContext) -> bool:
    return suuankou(r, c) and r.wait == "tanki"


def _kongs(r: Reading) -> int:
    return sum(1 for s in r.sets if s.kind == "kong")


def sankantsu(r: Reading, c: WinContext) -> bool:
    return _std(r) and _kongs(r) >= 3


def suukantsu(r: Reading, c: WinContext) -> bool:
    return _std(r) and _kongs(r) == 4


def _pung_run(r: Reading) -> int:
    """The longest chain of pungs of consecutive ranks in one suit."""
    held = {s.tile for s in _pungs(r) if s.tile < 27}
    best = 0
    for t in held:
        if t % 9 == 0 or t - 1 not in held:
            n = 1
            while t + n in held and (t + n) % 9 != 0:
                n += 1
            best = max(best, n)
    return best


def sanrenkou(r: Reading, c: WinContext) -> bool:
    """三連刻: three pungs of consecutive ranks in one suit."""
    return _std(r) and _pung_run(r) >= 3


def suurenkou(r: Reading, c: WinContext) -> bool:
    """四連刻: four."""
    return _std(r) and _pung_run(r) >= 4


def sanshoku_doukou(r: Reading, c: WinContext) -> bool:
    held = {s.tile for s in _pungs(r)}
    return _std(r) and any({k, k + 9, k + 18} <= held for k in range(9))


def shousangen(r: Reading, c: WinContext) -> bool:
    held = {s.tile for s in _pungs(r)}
    return _std(r) and r.pair in T.DRAGONS and len(held & set(T.DRAGONS)) == 2


def daisangen(r: Reading, c: WinContext) -> bool:
    return _std(r) and set(T.DRAGONS) <= {s.tile for s in _pungs(r)}


def suushii(r: Reading, c: WinContext) -> bool:
    """四喜和: four wind pungs, or three and a wind pair (one item, RULINGS §sanma)."""
    winds = len({s.tile for s in _pungs(r)} & set(T.WINDS))
    return _std(r) and (winds == 4 or (winds == 3 and r.pair in T.WINDS))


def honitsu(r: Reading, c: WinContext) -> bool:
    return r.form in ("standard", "seven_pairs") and len(_suits(r)) == 1 and _has_honours(r)


def manzu_honitsu(r: Reading, c: WinContext) -> bool:
    """萬子を使用した混一色 (rule 38)."""
    return honitsu(r, c) and _suits(r) == {"m"}


def chinitsu(r: Reading, c: WinContext) -> bool:
    return r.form in ("standard", "seven_pairs") and len(_suits(r)) == 1 and not _has_honours(r)


def tsuuiisou(r: Reading, c: WinContext) -> bool:
    return r.form in ("standard", "seven_pairs") and not _suits(r)


def ryuuiisou(r: Reading, c: WinContext) -> bool:
    return r.form in ("standard", "seven_pairs") and all(i in GREENS for i in _kinds(r))


def chinroutou(r: Reading, c: WinContext) -> bool:
    return r.form in ("standard", "seven_pairs") and all(i in TERMINALS for i in _kinds(r))


def benikujaku(r: Reading, c: WinContext) -> bool:
    """紅孔雀 (rule 39.1): only 1s 5s 7s 9s and 中."""
    return r.form in ("standard", "seven_pairs") and all(i in PEACOCK for i in _kinds(r))


def _nine_gates_suit(c: WinContext) -> int | None:
    if c.melds:
        return None
    for base in (0, 9, 18):
        part = c.concealed[base:base + 9]
        if sum(part) == 14 and part[0] >= 3 and part[8] >= 3 and all(x >= 1 for x in part[1:8]):
            return base
    return None


def chuuren(r: Reading, c: WinContext) -> bool:
    """九蓮宝燈: closed 1112345678999 of one suit and one more of it."""
    return _std(r) and _nine_gates_suit(c) is not None


def chuuren9(r: Reading, c: WinContext) -> bool:
    """九面待ち: the hand before the win was exactly 1112345678999."""
    base = _nine_gates_suit(c)
    if not _std(r) or base is None:
        return False
    part = list(c.concealed[base:base + 9])
    win = T.tile_index(c.win_tile) - base
    if not 0 <= win < 9:
        return False
    part[win] -= 1
    return part == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def daisharin(r: Reading, c: WinContext) -> bool:
    """大車輪 (rule 37.1): 平和 and 断么九 and 二盃口 and 清一色 together."""
    return pinfu(r, c) and tanyao(r, c) and ryanpeikou(r, c) and chinitsu(r, c)


def shousharin(r: Reading, c: WinContext) -> bool:
    """小車輪 (rule 36.1): 混一色 and 七対子 together."""
    return r.form == "seven_pairs" and honitsu(r, c)


def _yakuhai(kind: int | str) -> Callable[[Reading, WinContext], bool]:
    def test(r: Reading, c: WinContext) -> bool:
        k = 27 + c.seat_wind if kind == "seat" else 27 + c.round_wind if kind == "round" else kind
        return _std(r) and any(s.tile == k for s in _pungs(r))
    return test


# --------------------------------------------------------------------------- circumstances


def _riichi(kind: str, upgraded: bool) -> Callable[[Reading, WinContext], bool]:
    def test(r: Reading, c: WinContext) -> bool:
        return c.riichi == kind and open_riichi_ron(c) == upgraded
    return test


def open_riichi_ron(c: WinContext) -> bool:
    """Rule 21.1: an open riichi wins on a player who has not established a riichi."""
    return c.riichi in ("open", "double_open") and not c.is_tsumo and not c.feeder_in_riichi


def _when(test: Callable[[WinContext], bool]) -> Callable[[Reading, WinContext], bool]:
    return lambda r, c: test(c)


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Yaku:
    """One yaku of the seed's list.

    ``closed``/``open``: the seed's han (``None``: 「無」); ``std_closed``/``std_open``: the
    han in common Japanese riichi (``None``: no such yaku there; 13 = a yakuman).
    ``kind``: ``shape`` (from the tiles), ``riichi``, ``luck`` (the moment of the win: tsumo,
    ippatsu, last tile, replacement, robbing, first turn, 21.1) or ``state`` (八連荘)."""

    key: str
    term: str
    name: str
    closed: int | None
    open: int | None
    kind: str
    test: Callable[[Reading, WinContext], bool]
    std_closed: int | None = None
    std_open: int | None = None

    def han(self, closed: bool, rules: ScoringRules) -> int | None:
        if rules.standard:
            return self.std_closed if closed else self.std_open
        return self.closed if closed else self.open


_Y = Yaku
YAKU: tuple[Yaku, ...] = (
    # 【手牌の組み合わせに制限のないもの】
    _Y("menzen_tsumo", "門前清自模和", "Fully concealed self-draw", 1, None, "luck",
       _when(lambda c: c.is_tsumo and c.closed), 1, None),
    _Y("riichi", "立直", "Riichi", 1, None, "riichi", _riichi("riichi", False), 1, None),
    _Y("double_riichi", "ダブル立直", "Double riichi", 2, None, "riichi", _riichi("double", False), 2, None),
    _Y("open_riichi", "オープン立直", "Open riichi", 2, None, "riichi", _riichi("open", False), 2, None),
    _Y("double_open_riichi", "ダブル立直・オープン立直", "Double open riichi", 3, None, "riichi",
       _riichi("double_open", False), 3, None),
    _Y("open_riichi_ron", "オープン立直 (立直を成立させていない競技者からの栄和)",
       "Open riichi won on a non-riichi player", 15, None, "luck", _riichi("open", True)),
    _Y("double_open_riichi_ron", "ダブル立直・オープン立直 (立直を成立させていない競技者からの栄和)",
       "Double open riichi won on a non-riichi player", 16, None, "luck", _riichi("double_open", True)),
    _Y("ippatsu", "一発", "Ippatsu", 1, None, "luck", _when(lambda c: c.in_riichi and c.ippatsu), 1, None),
    _Y("rinshan", "嶺上開花", "After a kong or nuki", 1, 1, "luck",
       _when(lambda c: c.is_tsumo and c.replacement), 1, 1),
    _Y("kong_discard", "樌振り", "Won on the discard after a replacement draw", 1, 1, "luck",
       _when(lambda c: not c.is_tsumo and c.after_replacement_discard)),
    _Y("haitei", "海底撈月", "Last tile self-drawn", 1, 1, "luck",
       _when(lambda c: c.is_tsumo and c.last_tile), 1, 1),
    _Y("houtei", "河底撈魚", "Last discard", 1, 1, "luck",
       _when(lambda c: c.how == "ron" and c.last_tile), 1, 1),
    _Y("chankan", "槍槓", "Robbing a kong", 1, 1, "luck", _when(lambda c: c.how == "rob_added"), 1, 1),
    _Y("renhou", "人和", "Blessing of man", 8, None, "luck",
       _when(lambda c: c.how == "ron" and c.first_turn and not c.dealer)),
    _Y("renchan8", "八連荘", "Eight consecutive dealerships", 15, 15, "state",
       _when(lambda c: c.dealer and c.honba >= 8)),
    _Y("unconnected", "十三不塔", "Thirteen unconnected", 15, 15, "luck",
       lambda r, c: r.form == "unconnected" and c.is_tsumo and c.first_turn),
    _Y("tenhou", "天和", "Blessing of heaven", 15, None, "luck",
       _when(lambda c: c.is_tsumo and c.first_turn and c.dealer), 13, None),
    _Y("chiihou", "地和", "Blessing of earth", 15, None, "luck",
       _when(lambda c: c.is_tsumo and c.first_turn and not c.dealer), 13, None),
    # 【手牌の組み合わせに制限のあるもの】
    _Y("yakuhai_white", "役牌 (白)", "Value tile: white dragon", 1, 1, "shape", _yakuhai(WHITE), 1, 1),
    _Y("yakuhai_green", "役牌 (發)", "Value tile: green dragon", 1, 1, "shape", _yakuhai(GREEN), 1, 1),
    _Y("yakuhai_red", "役牌 (中)", "Value tile: red dragon", 1, 1, "shape", _yakuhai(RED), 1, 1),
    _Y("yakuhai_seat", "役牌 (自風)", "Value tile: seat wind", 1, 1, "shape", _yakuhai("seat"), 1, 1),
    _Y("yakuhai_round", "役牌 (場風)", "Value tile: round wind", 1, 1, "shape", _yakuhai("round"), 1, 1),
    _Y("pinfu", "平和", "Pinfu", 1, None, "shape", pinfu, 1, None),
    _Y("tanyao", "断么九", "All simples", 1, 1, "shape", tanyao, 1, 1),
    _Y("iipeikou", "一盃口", "Pure double run", 1, None, "shape", iipeikou, 1, None),
    _Y("ittsu", "一気通貫", "Pure straight", 2, 1, "shape", ittsu, 2, 1),
    _Y("chiitoitsu", "七対子", "Seven pairs", 2, 2, "shape", lambda r, c: r.form == "seven_pairs", 2, None),
    _Y("toitoi", "対々和", "All pungs", None, 2, "shape", toitoi, 2, 2),
    _Y("chanta", "混全帯么九", "Half outside hand", 1, 1, "shape", chanta, 2, 1),
    _Y("honroutou", "混老頭", "All terminals and honours", 2, 2, "shape", honroutou, 2, 2),
    _Y("sanankou", "三暗刻", "Three concealed pungs", 2, None, "shape", sanankou, 2, 2),
    _Y("sankantsu", "三樌子", "Three kongs", 2, 2, "shape", sankantsu, 2, 2),
    _Y("sanrenkou", "三連刻", "Three consecutive pungs", 2, 2, "shape", sanrenkou),
    _Y("shousangen", "小三元", "Little three dragons", None, 2, "shape", shousangen, 2, 2),
    _Y("honitsu", "混一色", "Half flush", 3, 2, "shape", honitsu, 3, 2),
    _Y("junchan", "純全帯么九", "Fully outside hand", 3, 2, "shape", junchan, 3, 2),
    _Y("ryanpeikou", "二盃口", "Twice pure double run", 3, None, "shape", ryanpeikou, 3, None),
    _Y("chinitsu", "清一色", "Full flush", 6, 5, "shape", chinitsu, 6, 5),
    _Y("shousharin", "小車輪", "Little wheels (half-flush seven pairs)", 6, None, "shape", shousharin),
    _Y("sanshoku_doukou", "三色同刻", "Triple pung", 15, 15, "shape", sanshoku_doukou, 2, 2),
    _Y("daisharin", "大車輪", "Big wheels", 15, None, "shape", daisharin),
    _Y("suurenkou", "四連刻", "Four consecutive pungs", 15, 15, "shape", suurenkou),
    _Y("kokushi", "國士無双", "Thirteen orphans", 15, None, "shape", lambda r, c: r.form == "orphans", 13, None),
    _Y("suuankou", "四暗刻", "Four concealed pungs", 15, None, "shape", suuankou, 13, None),
    _Y("daisangen", "大三元", "Big three dragons", 15, 15, "shape", daisangen, 13, 13),
    _Y("tsuuiisou", "字一色", "All honours", 15, 15, "shape", tsuuiisou, 13, 13),
    _Y("suushii", "四喜和", "Four winds", 15, 15, "shape", suushii, 13, 13),
    _Y("daisuushii", "大四喜", "Big four winds (scoring=standard only)", None, None, "shape",
       lambda r, c: suushii(r, c) and r.pair not in T.WINDS, 26, 26),
    _Y("ryuuiisou", "緑一色", "All green", 15, 15, "shape", ryuuiisou, 13, 13),
    _Y("chinroutou", "清老頭", "All terminals", 15, 15, "shape", chinroutou, 13, 13),
    _Y("suukantsu", "四樌子", "Four kongs", 15, 15, "shape", suukantsu, 13, 13),
    _Y("chuuren", "九蓮宝燈", "Nine gates", 15, None, "shape", chuuren, 13, None),
    _Y("suuankou_tanki", "単騎待ち四暗刻", "Four concealed pungs, single wait", 20, 20, "shape",
       suuankou_tanki, 26, None),
    _Y("kokushi13", "十三面待ち國士無双", "Thirteen orphans, 13-sided wait", 20, 20, "shape",
       lambda r, c: r.form == "orphans" and r.wait == "thirteen", 26, None),
    _Y("chuuren9", "九面待ち九蓮宝燈", "Nine gates, 9-sided wait", 20, 20, "shape", chuuren9, 26, None),
    _Y("benikujaku", "紅孔雀", "Red peacock", 20, 20, "shape", benikujaku),
    _Y("manzu_honitsu", "萬子を使用した混一色", "Half flush in characters", 15, 15, "shape", manzu_honitsu),
)
BY_KEY = {y.key: y for y in YAKU}

IMPLIES: dict[str, tuple[str, ...]] = {
    "suuankou": ("sanankou", "toitoi"),
    "suukantsu": ("sankantsu", "toitoi"),
    "daisangen": ("yakuhai_white", "yakuhai_green", "yakuhai_red", "shousangen"),
    "suushii": ("yakuhai_seat", "yakuhai_round"),
    "benikujaku": ("toitoi", "honitsu"),
    "manzu_honitsu": ("honitsu",),
    "shousharin": ("honitsu", "chiitoitsu"),
    "daisharin": ("pinfu", "tanyao", "ryanpeikou", "chinitsu"),
    "suuankou_tanki": ("suuankou",),
    "daisuushii": ("suushii",),
    "kokushi13": ("kokushi",),
    "chuuren9": ("chuuren",),
    "chinroutou": ("honroutou", "toitoi"),
    "tsuuiisou": ("honroutou", "toitoi"),
    "suurenkou": ("sanrenkou", "toitoi"),
    "chuuren": ("chinitsu",),
    "ryanpeikou": ("iipeikou",),
    "junchan": ("chanta",),
    "chinitsu": ("honitsu",),
    "unconnected": ("tenhou", "chiihou"),  # its condition is the first draw already
    # rule 40: one of the two is counted
    "rinshan": ("haitei",),
    "kong_discard": ("houtei",),
}
"""A yaku present drops the yaku it implies (RULINGS §sanma: 「implied yaku are dropped」)."""

def yaku_items(r: Reading, ctx: WinContext, rules: ScoringRules,
               kinds: tuple[str, ...] | None = None) -> list[tuple[Yaku, int]]:
    """The yaku of one reading with their han, implied ones dropped; ``kinds`` keeps only
    yaku of those kinds (``shape`` for a riichi's guarantee)."""
    if rules.standard:  # rule 21.1 is the seed's own
        ctx = replace(ctx, feeder_in_riichi=True)
    found = [(y, han) for y, han in _candidates(rules, ctx.closed, kinds) if y.test(r, ctx)]
    present = {y.key for y, _ in found}
    dropped = {k for key in present for k in IMPLIES.get(key, ())}
    kept = [(y, h) for y, h in found if y.key not in dropped]
    if rules.standard:
        kept = _standard_stack(kept)
    if not rules.double_yakuman:  # rules=tenhou: each yakuman yaku is one yakuman (Tenhou)
        kept = [(y, min(h, 13)) for y, h in kept]
    elif rules.yakuman_stack == "standard" and any(h >= rules.yakuman_han for _, h in kept):
        kept = [(y, h) for y, h in kept if h >= rules.yakuman_han]
    return kept


@cache
def _candidates(rules: ScoringRules, closed: bool, kinds: tuple[str, ...] | None) -> tuple[tuple[Yaku, int], ...]:
    """The yaku that can count for a hand so closed under ``rules`` (of ``kinds``), with their han."""
    return tuple((y, han) for y in YAKU if (kinds is None or y.kind in kinds)
                 and (han := y.han(closed, rules)) is not None)


def _standard_stack(kept: list[tuple[Yaku, int]]) -> list[tuple[Yaku, int]]:
    if any(h >= 13 for _, h in kept):
        return [(y, h) for y, h in kept if h >= 13]
    return kept


def as_items(found: list[tuple[Yaku, int]]) -> tuple[Item, ...]:
    return tuple(Item(y.term, y.name, h) for y, h in found)


def table_rows(rules: ScoringRules = ScoringRules()) -> list[tuple[str, str, str, str]]:
    """The yaku table as the seed prints it, for `paifu rules` and docs: (seed term, English
    name, closed han, open han), 「無」 where the item is no yaku; items that do not exist
    under ``rules`` (e.g. 大四喜 under the seed) are left out."""
    rows = []
    for y in YAKU:
        closed, open_ = y.han(True, rules), y.han(False, rules)
        if closed is None and open_ is None:
            continue
        rows.append((y.term, y.name, "無" if closed is None else str(closed), "無" if open_ is None else str(open_)))
    return rows
