"""紅中頼子槓 Hongzhong Laizi Gang: the Wuhan mahjong of the 頼子 wildcard and one-tile kongs.

The rule text 武漢の「紅中頼子槓」麻雀 (2018-10-06, with its dated change log, which
overrides older text) and its three-player section 荆州?麻雀(紅中頼子槓の三麻) as
``variant=jingzhou``; defaults from RULINGS §wuhan. Four players, 136 tiles, two dice.

- The 頼子 indicator (``indicator 3m`` set-up line) is turned face up and out of play; its
  successor (:func:`successor`) is the 頼子, a wildcard for any tile but 中.
- 中 (and 發 with 紅中發財, the 皮子 with ``variant=pizi``) and the 頼子 are konged one
  tile at a time (``A: kong 7z``, a replacement ``draw`` from the tail follows) or simply
  discarded; either way it counts as a 紅中槓 / 頼子槓. Nobody claims them.
- Chi (from the player before), pon and kongs; a meld may never hold a 頼子.
- A win needs an open meld (開口), no kong tile in hand, four sets and a 2/5/8 pair
  (free pair for 碰碰胡 and the one-suit hands; 風一色 / 将一色 need no shape), at most
  one 頼子 in a small hand; a wait on any tile wins by tsumo or 搶槓 only; no missed-win
  rule; head-bump on one discard.
- The last 14 wall tiles are draw-only (each draws once, no discard, claim or kong); the
  hand is drawn with 10 left. The 10 are kept out as the core's replenished dead wall, so
  ``wall.live`` counts the tiles above them.
- Payment per payer = base × 2^(winner's 飜 + payer's 飜) (× 1.5 per 半飜), capped, with
  金頂 / 陽光頂 / 三陽 and 包 (:data:`ITEMS` is the scoring table).
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from fractions import Fraction
from typing import Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg, SeatArg

from . import tiles as T
from ..engine import HandHeader, Match, Payment, RuleOption, Rules, ScoreItem, Settlement, TableView, Violation, WholeNumber, Zone
from . import aim as aiming
from .core import (
    UNSEEN,
    MahjongEngine,
    MahjongState,
    Meld,
    Move,
    Refusal,
    Seen,
    Win,
    choose_toward_win,
    kind,
)

TITLE = "武漢の「紅中頼子槓」麻雀"
SOURCE = f"{TITLE} (2018.12.10)"
JZ = f"{TITLE} §荆州?麻雀(紅中頼子槓の三麻)"


def sec(heading: str) -> str:
    return f"{TITLE} §{heading}"


OPTIONS = (
    RuleOption("variant", "wuhan", ("wuhan", "hongzhong_facai", "pizi", "jingzhou"),
               "hongzhong_facai: 發 konged one tile at a time like 中 (紅中發財頼子槓); pizi: the indicator and the tile "
               "before it are (皮子, 七皮四頼; 中 and 發 ordinary); jingzhou: the three-player 荊州 rules (96 tiles: one suit and 東 removed)",
               f"{sec('バリエーション')}; {JZ}"),
    RuleOption("suits", "mp", ("mp", "ms", "ps"), "jingzhou: the two suits kept", JZ),
    RuleOption("kaikou", "once", ("once", "each"), "開口飜: one 飜 for any open melds (once); 口口飜: one per open meld (each)",
               sec("バリエーション")),
    WholeNumber("minimum", "auto", ("auto",), "points each payer must pay at least for a win to stand (auto: 8; 16 with 紅中發財, 皮子 or 口口飜)",
                sec("上がり"), what="a whole number of points, 0 or more"),
    RuleOption("caps", "auto", ("auto", "300", "400", "400_800", "600"),
               "封頂/金頂/陽光頂/三陽: 300/400/500/600; 400/500/600/700; 400/500/600/800; 600/800/1000/1200 (auto: 300, 400 with 紅中發財 or 皮子, 600 with 口口飜)",
               sec("バリエーション")),
    RuleOption("big_base", "per_item", ("per_item", "doubling", "yise15"),
               "big-hand base: 10 per item; 10/20/40 for 1/2/3 items; 一色 hands 15 with +5 for tsumo or discarder",
               sec("バリエーション 大胡の基礎点")),
    RuleOption("bao_yise", "off", ("off", "on"), "包 for a 将一色 or 風一色 fed its third open meld, as for 清一色", sec("バリエーション 包")),
    RuleOption("cash", "none", ("none", "10", "20"), "cash per payment: points ÷ 10 (一分) or ÷ 20 (五厘), 四捨六入", sec("点数計算")),
    RuleOption("multi_ron", "head_bump", ("head_bump",), "one winner per discard: the nearest in turn order from the discarder (頭ハネ)",
               sec("上がり")),
)


# -- the scoring table -------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    """One scoring item of the rule text: key, seed term, English name, value, group, condition."""

    key: str
    term: str
    name: str
    value: str
    group: str  # base | both | winner | payer | cap | bao
    condition: str


ITEMS = {i.key: i for i in (
    Item("small", "小胡 (平胡/屁胡)", "small hand", "base 1", "base", "a hand with no big-hand item"),
    Item("pengpeng", "碰碰胡", "all pungs", "base 10", "base", "four triplets (or kongs) and a pair; any pair"),
    Item("fengyise", "風一色", "all honours", "base 10", "base", "winds, 發 and 白 only (中 and 頼子 kongs aside); no shape needed"),
    Item("jiangyise", "将一色", "all 2-5-8", "base 10", "base", "2s, 5s and 8s only; no shape needed"),
    Item("qingyise", "清一色", "one suit", "base 10", "base", "one suit only, melds included; any pair"),
    Item("haidi", "海底撈", "last tiles", "base 10", "base", "tsumo in the draw-only phase; 2/5/8 pair"),
    Item("gangshang", "槓上開", "win on a kong replacement", "base 10", "base", "tsumo on a replacement tile (頼子 and 紅中 kongs too); 2/5/8 pair"),
    Item("qianggang", "搶槓", "robbing a kong", "base 10", "base", "won on a tile added to a pon; 2/5/8 pair"),
    Item("quanqiuren", "全求人", "all melds called", "base 10", "base", "four open melds, a bare single won on a discard; 2/5/8 pair"),
    Item("kaikou", "開口", "open", "1 飜", "both", "chi, pon or open kong: 1 飜 once (口口飜: each)"),
    Item("angang", "暗槓", "concealed kong", "2 飜 each", "both", ""),
    Item("laizi_kong", "頼子槓", "頼子 kong", "2 飜 each", "both", "a 頼子 konged or discarded"),
    Item("minggang", "明槓", "open kong", "1 飜 each", "both", "a direct or added kong (a robbed one does not count)"),
    Item("red_kong", "紅中槓", "red dragon kong", "1 飜 each", "both", "中 (發, 皮子 with those options) konged or discarded"),
    Item("dealer", "荘家", "dealer", "1 飜 small / 0 big", "both", "the dealer, winning or paying"),
    Item("yinghu", "硬胡", "hard hand", "1 飜", "winner", "no 頼子 used as a wildcard"),
    Item("zimo", "ツモ", "self-draw", "1 飜 small / 半飜 big", "winner", "not with 槓上開 or 海底撈 (荊州: 1 飜)"),
    Item("fangchong", "放銃者", "discarder", "1 飜 small / 半飜 big", "payer", "the discarder, or the robbed konger (荊州: 1 飜)"),
    Item("fengding", "封頂", "cap", "300", "cap", "each payer pays at most the cap"),
    Item("jinding", "金頂", "golden cap", "400", "cap", "every payer reaches the cap (荊州: also 風一色 and 将一色)"),
    Item("yangguang", "陽光頂", "sunlit cap", "500", "cap", "in 金頂, a payer with no open meld"),
    Item("sanyang", "三陽", "three suns", "600", "cap", "in 金頂, no payer has an open meld"),
    Item("bao", "包", "liability", "all shares", "bao", "robbed konger; feeder of a 清一色's third open; non-ready discarder of 全求人"),
)}

BIG = ("pengpeng", "fengyise", "jiangyise", "qingyise", "haidi", "gangshang", "qianggang", "quanqiuren")
YISE = ("fengyise", "jiangyise", "qingyise")
CAP_TABLES = {"300": (300, 400, 500, 600), "400": (400, 500, 600, 700), "400_800": (400, 500, 600, 800),
              "600": (600, 800, 1000, 1200)}
OPEN_KINDS = ("chi", "pon", "kong_direct", "kong_added")

# 東南西北中發白: the honour order of the 頼子 successor (numbers: +1, 9 → 1).
HONOUR_ORDER = ("1z", "2z", "3z", "4z", "7z", "6z", "5z")
RED = "7z"
GREEN = "6z"


def successor(indicator: str, present: set[str], skip: set[str]) -> str:
    """The 頼子 of an indicator: the next number of its suit (9 → 1), or the next honour of
    東南西北中發白 that is in the set (``present``) and not in ``skip`` (中 never is one)."""
    k = kind(indicator)
    if k < 27:
        return T.tile_code(k - k % 9 + (k % 9 + 1) % 9)
    i = HONOUR_ORDER.index(T.tile_code(k))
    for step in range(1, 8):
        code = HONOUR_ORDER[(i + step) % 7]
        if code in present and code not in skip:
            return code
    raise ValueError(indicator)  # pragma: no cover


def predecessor(indicator: str, present: set[str], skip: set[str]) -> str:
    """The tile one below the indicator in the same order (皮子)."""
    k = kind(indicator)
    if k < 27:
        return T.tile_code(k - k % 9 + (k % 9 - 1) % 9)
    i = HONOUR_ORDER.index(T.tile_code(k))
    for step in range(1, 8):
        code = HONOUR_ORDER[(i - step) % 7]
        if code in present and code not in skip:
            return code
    raise ValueError(indicator)  # pragma: no cover


def kong_rule(rules) -> str:
    """Which tiles besides the 頼子 are konged one at a time: hongzhong (中), hongzhong_facai
    (中 and 發), pizi (the 皮子)."""
    variant = rules.get("variant", "wuhan")
    return variant if variant in ("hongzhong_facai", "pizi") else "hongzhong"


def dice_break(dice: tuple[int, int], seats: list[str], dealer: str) -> str:
    """Where the wall is opened: the sum counts seats from the dealer (1 = the dealer), the
    smaller die the stacks from the right of that wall (§配牌)."""
    total = dice[0] + dice[1]
    wall_of = seats[(seats.index(dealer) + total - 1) % len(seats)]
    low = min(dice)
    return f"{dice[0]}-{dice[1]}: {wall_of}'s wall (sum {total}), split after {low} stack(s) from its right"


# -- hand shapes with the 頼子 ---------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand: its pair (None: a shapeless 風一色/将一色), whether the
    pair is a 2/5/8, whether every set is a triplet, whether every 頼子 is at face value."""

    pair: int | None
    pair258: bool
    pungs: bool
    hard: bool


def is258(k: int) -> bool:
    return k < 27 and T.rank_of(k) in (2, 5, 8)


_NOT_258 = operator.itemgetter(*(k for k in range(34) if not is258(k)))  # counts of the other kinds


def readings(counts: Sequence[int], laizi: int, melds_done: int) -> list[Reading]:
    """Every distinct reading of concealed ``counts`` (14 - 3 × melds) as four sets and a pair,
    the 頼子 (kind ``laizi``) at face value or as wildcards for any tile. A pair of two 頼子
    stands at face value only (頼子2枚の頭は,額面が2,5,8でなければ認められない)."""
    return list(_readings(bytes(counts), laizi, melds_done))


@lru_cache(maxsize=32)
def _readings(counts: bytes, laizi: int, melds_done: int) -> tuple[Reading, ...]:
    # a ready hand that may not win on a discard (a wait on any tile, the minimum) is read
    # again at every discard, and for each of the 34 tiles when its wait is asked
    out: set[Reading] = set()
    for d in T.decompositions(counts, melds_done):
        out.add(Reading(d.pair, is258(d.pair), not d.runs(), True))
    w = counts[laizi]
    if w == 0:
        return tuple(sorted(out, key=repr))
    c = list(counts)
    c[laizi] = 0
    for p in range(34):
        options = []
        if p == laizi:
            if w >= 2:
                options.append((0, 2))
        else:
            options.extend((r, 2 - r) for r in (1, 2) if c[p] >= r and 2 - r <= w)
        for real, wild in options:
            c[p] -= real
            left = w - wild
            need = sum(s for s, _ in T.wild_needs(c))
            if need <= left:
                pung_need = sum((-x) % 3 for x in c)
                out.add(Reading(p, is258(p), pung_need <= left, False))
            c[p] += real
    return tuple(sorted(out, key=repr))


@cache
def _kinds_of(codes: frozenset[str]) -> tuple[int, ...]:
    """The kinds of a hand's kong tiles (asked at every discard)."""
    return tuple(kind(c) for c in codes)


@cache
def _tile_set(jingzhou_suits: str | None) -> tuple[str, ...]:
    """The game's tiles in canonical order, sorted once (every hand starts from them):
    136, or 荊州's two suits with 東 removed."""
    if jingzhou_suits is not None:
        return tuple(T.tile_set(suits=jingzhou_suits, honours="234567"))
    return tuple(T.tile_set("136"))


def one_kind_of_hand(codes: Sequence[int], melds: Sequence[Meld]) -> dict[str, bool]:
    """The one-suit flags of a hand's tiles (``codes``: kinds, the 頼子 left out when wild)
    and melds: 風一色, 将一色, 清一色."""
    kinds = list(codes)
    for m in melds:
        kinds.extend(kind(c) for c in m.codes())
    honours = all(k >= 27 for k in kinds)
    jiang = all(is258(k) for k in kinds)
    suits = {k // 9 for k in kinds}
    return {"fengyise": honours, "jiangyise": jiang, "qingyise": len(suits) == 1 and all(k < 27 for k in kinds)}


# -- state ---------------------------------------------------------------------------------
@dataclass
class WuhanState(MahjongState):
    indicator: str = ""
    laizi: str = ""
    kong_tiles: frozenset = frozenset()  # tiles konged one at a time besides the 頼子
    tile_kongs: dict = field(default_factory=dict)  # seat -> [(tile, discarded)]
    dice: tuple | None = None
    draw_only: bool = False
    set_aside: list = field(default_factory=list)  # draw-only tiles not won with
    last_draw_passed: bool = False


@dataclass
class WuhanMatch(Match):
    passes: int = 0  # times the deal has passed to the next seat


@dataclass
class WuhanSeen(Seen):
    laizi: int = -1
    kong_kinds: tuple = ()
    opens: int = 0


@dataclass
class Score:
    """A win's value: the reading, the items of each seat, each payer's amount."""

    reading: Reading
    big: list[str]
    base: Fraction
    winner_fan: list[tuple[str, int]]  # (item key, 飜)
    winner_half: int
    payer_fan: dict[str, list[tuple[str, int]]]
    payer_half: dict[str, int]
    raw: dict[str, Fraction]
    final: dict[str, int]
    caps: dict[str, str]  # payer -> cap item key applied
    bao: str | None = None
    bao_why: str = ""
    bao_unseen: str | None = None  # the discarder of 全求人 whose readiness (so 包) the record does not show

    @property
    def small(self) -> bool:
        return not self.big

    @property
    def total(self) -> int:
        return sum(self.final.values())


def cash(points: int, divisor: int) -> int:
    """Points to cash: ÷ divisor, 四捨六入 (a half goes to the even neighbour)."""
    return round(Fraction(points, divisor))


class Wuhan(MahjongEngine):
    id = "wuhan"
    title = "紅中頼子槓 Hongzhong Laizi Gang"
    seat_counts = (4, 3)
    options = OPTIONS
    source = SOURCE
    zero_sum = True  # the three others (or the one who is 包) pay the winner
    zero_sum_rule = f"{TITLE} §点数計算: 「包でなければ,上がった人以外の3人が,それぞれ上がった人に点を払います」"
    seed_rule = TITLE
    dealer_rule = sec("進行") + " (流局か親が上がると連荘です.子が上がると,親の下家が次の親です)"
    setup_verbs = frozenset({"deal", "wall", "dice", "indicator"})
    may_chi = True
    set_aside = 1
    state_class = WuhanState
    shape_words = "four sets and a 2/5/8 pair, or 風一色 / 将一色"
    selfplay_hands = 2
    items = ITEMS

    # -- rules of the variant ------------------------------------------------------------
    @staticmethod
    def jingzhou(rules) -> bool:
        return rules.get("variant") == "jingzhou"

    def tile_set(self, rules) -> list[str]:
        return list(_tile_set(rules.get("suits", "mp") if self.jingzhou(rules) else None))

    def dead_wall(self, rules) -> tuple[int, bool]:
        # the last 10 tiles are never drawn: a replenished reserve of 10 at the tail
        return 10, True

    def minimum(self, rules) -> int:
        value = rules.get("minimum", "auto")
        if value != "auto":
            return int(value)
        if kong_rule(rules) != "hongzhong" or rules.get("kaikou") == "each":
            return 16
        return 8

    def caps(self, rules) -> tuple[int, int, int, int]:
        value = rules.get("caps", "auto")
        if value == "auto":
            value = "600" if rules.get("kaikou") == "each" else "400" if kong_rule(rules) != "hongzhong" else "300"
        return CAP_TABLES[value]

    # -- match and hand ------------------------------------------------------------------
    def default_seats(self, rules: Rules) -> int:
        return 3 if self.jingzhou(rules) else 4

    def start_match(self, rules: Rules, seats: list[str]) -> Match:
        return WuhanMatch(rules=rules, seats=seats, totals={s: 0 for s in seats})

    def end_hand(self, match: Match, state: MahjongState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        assert isinstance(match, WuhanMatch)
        if state.wins and state.wins[0].seat != state.dealer:
            match.dealer = state.next_seat(state.dealer)
            match.passes += 1
        else:
            match.dealer = state.dealer  # 連荘
        # 親4周: the deal goes round the table four times
        match.over = match.passes >= 4 * len(state.seats)

    def has_end(self, match: Match) -> bool:
        """1回のゲームは,親4周: the game ends when the deal has gone round the table four times."""
        return True

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A game written from a later hand (docs/notation.md §Starting from a position): each
        seat's running total (Start, adding up to 0), the hand's number, its dealer and, after
        the first hand, how many times the deal has passed to the next seat so far
        (``passes=N``): the game is 親4周, over at 4 × the seats. The deal passes once a hand at
        most (子が上がると,親の下家が次の親です), so N is at most the hands before."""
        assert isinstance(match, WuhanMatch)
        end = 4 * len(match.seats)
        written = header.attrs.get("passes")
        before = match.hands_before
        rule_end = sec("進行") + " (1回のゲームは,親4周(一荘戦)です)"
        if written is None:
            if before:
                return (f"the game ends when the deal has passed {end} times (親4周): the first hand line says how many "
                        f"times it has passed before hand {before + 1} (passes=N) ({rule_end})")
            passes = 0
        elif not written.isdigit() or len(written) > 3:
            return f"passes={written[:20]}: a whole number, the times the deal has passed to the next seat before this hand"
        else:
            passes = int(written)
        if passes >= end:
            return f"passes={passes}: the deal has gone round the table four times ({end} passes), and the game with it ({rule_end})"
        if passes > before:
            return (f"passes={passes}, but only {before} hand(s) came before hand {before + 1}: the deal passes once a hand at "
                    f"most ({sec('進行')}: 子が上がると,親の下家が次の親です)")
        problem = super().start_from(match, header, totals)
        if problem is None:
            match.passes = passes
        return problem

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the dealer as the next hand's line writes
        it; the deal has passed once more when that is the unfinished hand's dealer's 下家
        (流局か親が上がると連荘です.子が上がると,親の下家が次の親です)."""
        assert isinstance(match, WuhanMatch)
        was = match.dealer or broken.dealer or match.seats[0]
        if header.dealer is None:
            return "its dealer follows from how the hand before ended, and its hand line writes none (dealer=...)"
        passed = header.dealer != was
        if passed and header.dealer != self.next_seat(match.seats, was):
            return f"{was} dealt the hand before: the next dealer is {was} or {self.next_seat(match.seats, was)}, not {header.dealer}"
        match.passes += 1 if passed else 0
        return self.resume_carried(match, broken, header, totals)  # the dealer named above, the totals

    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> MahjongState:
        rules = match.rules
        first = setup[0] if setup else None
        if self.jingzhou(rules):
            if len(match.seats) != 3:
                raise Violation("L309", "荊州 is played by three players ([Players \"A: ..; B: ..; C: ..\"])", JZ, event=first)
            if rules.get("kaikou") != "once":
                raise Violation("L301", "荊州 plays without 口口飜 (後述の發を槓牌にするオプションや口口飜は使わない)", JZ, event=first)
        elif len(match.seats) != 4:
            raise Violation("L309", "紅中頼子槓 is played by four players (three only with variant=jingzhou)", sec("道具"), event=first)
        indicator_events = [e for e in setup if e.verb == "indicator"]
        if len(indicator_events) != 1:
            raise Violation("L306", "a hand names its 頼子 indicator once, after the deal: 'indicator 5p'", sec("配牌"),
                            event=indicator_events[1] if indicator_events else first)
        ind_ev = indicator_events[0]
        args = ind_ev.args
        if len(args) != 1 or not isinstance(args[0], CardsArg) or len(args[0].cards) != 1 or args[0].cards[0] == UNSEEN:
            raise Violation("L306", "'indicator' names one tile, the face-up 頼子 indicator: 'indicator 5p'", sec("配牌"), arg=0, event=ind_ev)
        indicator = args[0].cards[0]
        full = self.tile_set(rules)
        if indicator not in full:
            raise Violation("L305", f"{indicator} is not one of this game's tiles", sec("道具"), arg=0, event=ind_ev)
        wall_written = any(e.verb == "wall" for e in setup)
        try:
            state = super().start_hand(match, header, [e for e in setup if e.verb != "indicator"])
        except Violation as v:
            if v.event is None and setup and not v.at_hand:
                v.event = first
            raise
        assert isinstance(state, WuhanState)
        if wall_written:
            # the core filled an unseen hand with what the deal and wall leave: the
            # indicator is not in it
            for s in state.seats:
                h = state.hands[s]
                if len(h) > self.hand_size + (1 if s == state.dealer else 0) and h.has(indicator):
                    h.take(indicator)
                    state.located[indicator] -= 1
        state.located[indicator] += 1
        in_wall = state.wall.tiles.count(indicator) if state.wall.tiles is not None else 0
        if state.located[indicator] + in_wall > state.copies[indicator]:
            raise Violation("L304", f"more than {state.copies[indicator]} {indicator} in the deal, the wall and the indicator",
                            sec("道具"), arg=0, event=ind_ev)
        present = set(full)
        skip = {RED}
        tiles_rule = kong_rule(rules)
        if tiles_rule == "hongzhong_facai":
            skip.add(GREEN)
        state.indicator = indicator
        state.laizi = successor(indicator, present, skip)
        if tiles_rule == "pizi":
            state.kong_tiles = frozenset({indicator, predecessor(indicator, present, skip)})
        elif tiles_rule == "hongzhong_facai":
            state.kong_tiles = frozenset({RED, GREEN})
        else:
            state.kong_tiles = frozenset({RED})
        state.tile_kongs = {s: [] for s in state.seats}
        dice = next((e for e in setup if e.verb == "dice"), None)
        if dice is not None:
            state.dice = tuple(a.value for a in dice.args if isinstance(a, NumArg))
        return state

    # -- tiles of the hand ---------------------------------------------------------------
    def is_kong_tile(self, state: WuhanState, tile: str) -> bool:
        return tile == state.laizi or tile in state.kong_tiles

    def opens(self, state: MahjongState, seat: str, melds: Sequence[Meld] | None = None) -> int:
        return sum(1 for m in (state.melds[seat] if melds is None else melds) if m.kind in OPEN_KINDS)

    def draw_only_phase(self, state: MahjongState) -> bool:
        """Whether a draw from the head now is a draw-only draw (the wall is down to 14)."""
        return not self.jingzhou(state.match.rules) and state.wall.live <= 4

    # -- restrictions --------------------------------------------------------------------
    def _claim_barred(self, state: MahjongState) -> str | None:
        """A claim would begin a turn with 14 or fewer tiles in the wall: the draw-only phase
        has no claim (RULINGS §wuhan: from the first turn that begins with ≤14 wall tiles)."""
        if state.phase == "claim" and self.draw_only_phase(state):
            return ("no claim once the wall is down to 14 tiles: the next turn is a draw-only turn "
                    "(残り14枚になったら,1人1回1枚ずつ,順に山からツモるだけで,牌を捨てません)")
        return None

    def may_pon(self, state: MahjongState, seat: str, tile: str) -> str | None:
        assert isinstance(state, WuhanState)
        barred = self._claim_barred(state)
        if barred:
            return barred
        if tile == state.laizi:
            return "a meld holding a 頼子 cannot be made (頼子を含むメンツは,チー・ポン・カンできません)"
        if tile in state.kong_tiles:
            name = "中" if tile == RED else "發 (紅中發財)" if tile == GREEN and kong_rule(state.match.rules) == "hongzhong_facai" else "a 皮子"
            return f"{tile} is {name}, konged one tile at a time and never ponned (中は,ポンも4枚揃えてのカンもできません)"
        return None

    def may_kong(self, state: MahjongState, seat: str, meld_kind: str, tile: str) -> str | None:
        why = self.may_pon(state, seat, tile)
        if why:
            return why
        if self.draw_only_phase(state):
            return "no kong once the wall is down to 14 tiles (このときカンはできません)"
        return None

    def may_chi_run(self, state: MahjongState, seat: str, run: tuple[str, ...]) -> str | None:
        assert isinstance(state, WuhanState)
        barred = self._claim_barred(state)
        if barred:
            return barred
        for t in run:
            why = self.may_pon(state, seat, t)
            if why:
                return why
        return None

    def is_winning(self, state: MahjongState, seat: str, counts: Sequence[int]) -> bool:
        assert isinstance(state, WuhanState)
        for k in _kinds_of(state.kong_tiles):
            if counts[k]:
                return False
        melds = len(state.melds[seat])
        L = kind(state.laizi)
        w = counts[L]
        c = bytearray(counts)  # the tile core's fastest form
        c[L] = 0
        if T.is_complete_with_wild(c, w, melds):
            return True
        if any(c[:27]) and any(_NOT_258(c)):  # a suited tile and one not 2, 5, 8: neither flag
            return False
        codes = [k for k in range(34) for _ in range(c[k])]
        flags = one_kind_of_hand(codes, state.melds[seat])
        return flags["fengyise"] or flags["jiangyise"]

    def may_win(self, state: MahjongState, win: Win) -> str | None:
        assert isinstance(state, WuhanState)
        if win.how == "ron" and win.tile == state.laizi:
            return Refusal("a discarded 頼子 is never won on (捨てられた頼子では上がれません)", sec("進行"))
        if win.how == "ron" and self._any_tile_wait(state, win):
            return Refusal("a wait on any tile at all wins only by tsumo or 搶槓 "
                           "(どんな牌でも上がれる待ちは,自摸か搶槓でしか上がれません)", sec("上がり"))
        score = self.score(state, win)
        return Refusal(score, sec("上がり")) if isinstance(score, str) else None

    def _apply_win(self, state: MahjongState, move: Move) -> None:
        assert isinstance(state, WuhanState)
        if state.phase == "replace" and move.seat != state.turn and move.how in (None, "rob") and move.tile is not None:
            kong = self._kong_just_made(state, move.tile)
            if kong:
                raise Violation("L301", f"{state.turn}'s {kong} cannot be robbed: 搶槓 is a win on a tile added to a pon "
                                "(ポンに牌を付け加えるカンが上がり牌のとき,その牌であがること)", sec("大胡"))
        try:
            super()._apply_win(state, move)
        except Violation as v:
            # the shape check leaves out hands holding a kong tile: say why
            hand = state.hands.get(move.seat or "")
            held = next((t for t in sorted(state.kong_tiles) if hand is not None and (hand.known[t] or move.tile == t)), None)
            if v.code == "L301" and self.shape_words in v.message and held is not None:
                raise Violation("L301", f"{move.seat} holds {held}: a kong tile must be konged or discarded before a win "
                                "(手に中がなく,あった中はすべてカンするか捨ててある)", sec("上がり")) from None
            raise

    @staticmethod
    def _kong_just_made(state: WuhanState, tile: str) -> str | None:
        """The kong of ``tile`` the player to draw a replacement has just made, if any: a
        one-tile kong of 中 or the 頼子, a direct kong, a concealed kong (none can be robbed)."""
        kongs = state.tile_kongs.get(state.turn, [])
        if kongs and kongs[-1] == (tile, False):
            return f"kong of {tile} (one tile)"
        melds = state.melds[state.turn]
        if melds and melds[-1].kind in ("kong_direct", "kong_concealed") and melds[-1].tile in state.same(tile):
            return f"{'direct' if melds[-1].kind == 'kong_direct' else 'concealed'} kong of {tile}"
        return None

    def _any_tile_wait(self, state: WuhanState, win: Win) -> bool:
        pre = list(win.concealed)
        pre[kind(win.tile)] -= 1
        for code in sorted(set(state.copies)):
            if self.is_kong_tile(state, code):
                continue
            k = kind(code)
            pre[k] += 1
            ok = self.is_winning(state, win.seat, pre) and self.score(
                state, Win(win.seat, "tsumo", code, None, list(pre), win.melds), shape_only=True) is None
            pre[k] -= 1
            if not ok:
                return False
        return True

    # -- scoring -------------------------------------------------------------------------
    def both_sides(self, state: WuhanState, seat: str, small: bool, melds: Sequence[Meld] | None = None) -> list[tuple[str, int]]:
        """The 飜 counted for ``seat`` whether it wins or pays (§飜数 (1))."""
        ms = state.melds[seat] if melds is None else melds
        out: list[tuple[str, int]] = []
        opens = self.opens(state, seat, ms)
        if opens:
            out.append(("kaikou", opens if state.match.rules.get("kaikou") == "each" else 1))
        for m in ms:
            if m.kind == "kong_concealed":
                out.append(("angang", 2))
            elif m.kind in ("kong_direct", "kong_added"):
                out.append(("minggang", 1))
        for tile, _ in state.tile_kongs.get(seat, []):
            out.append(("laizi_kong", 2) if tile == state.laizi else ("red_kong", 1))
        if seat == state.dealer and small:
            out.append(("dealer", 1))
        return out

    def score(self, state: MahjongState, win: Win, shape_only: bool = False, bao: bool = True) -> Score | str | None:
        """The best reading of a win and what each payer pays; a string says why it cannot win.
        ``shape_only``: None when some reading meets the pair and 頼子 rules (no situational
        items, no minimum), else why not."""
        assert isinstance(state, WuhanState)
        c = win.concealed
        if any(c[kind(t)] for t in state.kong_tiles):
            return f"{win.seat} still holds {next(t for t in state.kong_tiles if c[kind(t)])}: a kong tile must be konged or discarded before a win (手に中がなく,あった中はすべてカンするか捨ててある)"
        if self.opens(state, win.seat, win.melds) == 0:
            return f"{win.seat} has no open meld: a win needs 開口 (少なくとも1つ“開口”している)"
        L = kind(state.laizi)
        melds = win.melds
        cands: list[Reading] = readings(c, L, len(melds))
        real = [k for k in range(34) if k != L for _ in range(c[k])]
        face = real + [L] * c[L]
        shapeless = [(c[L] == 0, one_kind_of_hand(real, melds))]  # no 頼子 at all: 硬胡
        if c[L]:
            shapeless.append((True, one_kind_of_hand(face, melds)))
        for hard, flags in shapeless:
            if flags["fengyise"] or flags["jiangyise"]:
                cands.append(Reading(None, flags["jiangyise"], False, hard))
        if not cands:
            return f"{win.seat}'s hand is not four sets and a pair"
        cands.sort(key=lambda r: (not r.pair258, not r.hard))  # say why a 2/5/8 reading (the hard one: it pays more) fails first
        best: Score | None = None
        why = ""
        for r in cands:
            got = self._evaluate(state, win, r, one_kind_of_hand(face if r.hard else real, melds), shape_only, bao)
            if got is None:
                return None
            if isinstance(got, str):
                why = why or got
                continue
            if best is None or self._worth(got) > self._worth(best):
                best = got
        return best if best is not None else why

    @staticmethod
    def _worth(score: Score) -> tuple:
        """How readings of one hand rank: what the winner receives, then the payments before
        the caps, then the number of 大胡 named (a pair of two 頼子 read wild in a 一色 hand
        pays as much as the same pair at face value with 硬胡: the hand is its 一色, and its
        包 follows), then 硬胡."""
        return score.total, sum(score.raw.values()), len(score.big), score.reading.hard

    def _evaluate(self, state: WuhanState, win: Win, r: Reading, flags: dict[str, bool], shape_only: bool = False,
                  bao: bool = True) -> Score | str | None:
        rules = state.match.rules
        jz = self.jingzhou(rules)
        melds = win.melds
        big: list[str] = []
        if r.pungs and r.pair is not None and all(m.kind != "chi" for m in melds):
            big.append("pengpeng")
        if r.pair is None:
            big += [k for k in ("fengyise", "jiangyise") if flags[k]]
        else:
            big += [k for k in YISE if flags[k]]
        free_pair = bool(big)
        if not r.pair258 and not free_pair:
            return "the pair must be a 2, 5 or 8 (頭が2か5か8)"
        if r.pair258 and not shape_only:
            if win.how == "tsumo" and getattr(state, "draw_only", False) and not jz:
                big.append("haidi")
            if win.how == "tsumo" and win.replacement:
                big.append("gangshang")
            if win.how == "rob":
                big.append("qianggang")
            if win.how == "ron" and len(melds) == 4 and self.opens(state, win.seat, melds) == 4:
                big.append("quanqiuren")
        small = not big
        if small and win.concealed[kind(state.laizi)] > 1:
            return "a small hand holds at most one 頼子 (小胡の場合,手にある頼子が1枚か0枚)"
        if shape_only:
            return None
        big_rule = rules.get("big_base", "per_item")
        half_as_five = False
        if small:
            base = Fraction(1)
        elif big_rule == "doubling":
            base = Fraction(10 * 2 ** (len(big) - 1))
        elif big_rule == "yise15":
            base = Fraction(sum(15 if k in YISE else 10 for k in big))
            half_as_five = any(k in YISE for k in big)
        else:
            base = Fraction(10 * len(big))
        winner_fan = self.both_sides(state, win.seat, small, melds)
        if r.hard:
            winner_fan.append(("yinghu", 1))
        winner_half = 0
        if win.how == "tsumo" and not ({"haidi", "gangshang"} & set(big)):
            if small or jz:
                winner_fan.append(("zimo", 1))
            else:
                winner_half = 1
        payers = state.others(win.seat)
        payer_fan: dict[str, list[tuple[str, int]]] = {}
        payer_half: dict[str, int] = {}
        raw: dict[str, Fraction] = {}
        w_total = sum(n for _, n in winner_fan)
        for p in payers:
            fan = self.both_sides(state, p, small)
            half = 0
            if win.payer == p:
                if small or jz:
                    fan.append(("fangchong", 1))
                else:
                    half = 1
            payer_fan[p] = fan
            payer_half[p] = half
            halves = winner_half + half
            b = base + 5 * halves if half_as_five else base * Fraction(3, 2) ** halves
            raw[p] = b * 2 ** (w_total + sum(n for _, n in fan))
        minimum = self.minimum(rules)
        short = [p for p in payers if raw[p] < minimum]
        if (jz and len(short) == len(payers)) or (not jz and short):
            return (f"{', '.join(short)} would pay {', '.join(str(int(raw[p])) for p in short)}: below the minimum of {minimum} "
                    f"points per payer (下限{'; 荊州: at least one payer' if jz else ''})")
        cap, jin, yang, sanyang = self.caps(rules)
        final: dict[str, int] = {}
        caps: dict[str, str] = {}
        for p in payers:
            final[p] = int(min(raw[p], cap))
            if raw[p] >= cap:
                caps[p] = "fengding"
        if jz and ({"fengyise", "jiangyise"} & set(big)) or all(raw[p] >= cap for p in payers):
            for p in payers:
                final[p], caps[p] = jin, "jinding"
            if not jz:
                closed = [p for p in payers if self.opens(state, p) == 0]
                for p in closed:
                    final[p], caps[p] = (sanyang, "sanyang") if len(closed) == len(payers) else (yang, "yangguang")
        score = Score(r, big, base, winner_fan, winner_half, payer_fan, payer_half, raw, final, caps)
        if bao:
            self._bao(state, win, score)
        return score

    def _bao(self, state: WuhanState, win: Win, score: Score) -> None:
        """Who pays for all (包), in the order 搶槓 > 清一色 feeder > 全求人 (RULINGS §wuhan)."""
        if win.how == "rob":
            score.bao, score.bao_why = win.payer, "搶槓された人は包です"
            return
        yise = {"qingyise"} | ({"fengyise", "jiangyise"} if state.match.rules.get("bao_yise") == "on" else set())
        if yise & set(score.big):
            opens = [m for m in win.melds if m.kind in OPEN_KINDS]
            if len(opens) >= 3 and opens[2].source and opens[2].source != win.seat:
                score.bao, score.bao_why = opens[2].source, "3開口以上ある一色の3つめの開口を泣かせた人は包です"
                return
        if "quanqiuren" in score.big and win.payer:
            if not state.hand_known(win.payer):
                score.bao_unseen = win.payer
            elif not self.ready(state, win.payer):
                score.bao, score.bao_why = win.payer, "聴牌していないで,全求人を放銃したら包です"

    def ready(self, state: WuhanState, seat: str) -> bool:
        """聴牌: some tile wins ``seat``'s hand by a self-draw or on a discard; a hand that
        wins only by 搶槓 or 槓上開 is not ready (チャンカンか槓上開でないと上がれない手は聴牌ではありません),
        and one that wins only on a discard is (RULINGS §wuhan)."""
        counts = state.concealed_counts(seat)
        saved = state.draw_only
        state.draw_only = False
        try:
            for code in sorted(set(state.copies)):
                k = kind(code)
                counts[k] += 1
                try:
                    if self.is_winning(state, seat, counts) and self._wins_somehow(state, seat, code, counts):
                        return True
                finally:
                    counts[k] -= 1
        finally:
            state.draw_only = saved
        return False

    def _wins_somehow(self, state: WuhanState, seat: str, code: str, counts: list[int]) -> bool:
        """Whether ``code`` completes ``seat``'s hand by an ordinary self-draw or on some other
        seat's discard (no 包 is asked of these trial wins: they only test readiness)."""
        melds = list(state.melds[seat])
        trials = [Win(seat, "tsumo", code, None, list(counts), melds)]
        if code != state.laizi:
            trials += [Win(seat, "ron", code, p, list(counts), melds) for p in state.others(seat)]
        for trial in trials:
            if trial.how == "ron" and self._any_tile_wait(state, trial):
                return False
            if not isinstance(self.score(state, trial, bao=False), str):
                return True
        return False

    # -- the one-tile kongs and the draw-only phase ----------------------------------------
    def apply(self, state: MahjongState, move: Move) -> None:
        assert isinstance(state, WuhanState)
        seat = move.seat
        if state.draw_only and state.phase == "act" and seat is not None:
            self._apply_draw_only(state, move)
            return
        if move.verb == "kong" and move.tile is not None and self.is_kong_tile(state, move.tile) and state.phase == "act":
            self._apply_tile_kong(state, move)
            return
        if move.verb == "discard" and move.tile is not None and self.is_kong_tile(state, move.tile):
            super().apply(state, move)
            state.tile_kongs[seat].append((move.tile, True))
            state.log.append("頼子槓" if move.tile == state.laizi else "紅中槓")
            return
        if move.verb == "draw" and state.phase in ("claim", "draw") and self.draw_only_phase(state):
            super().apply(state, move)
            state.draw_only = True
            return
        super().apply(state, move)

    def _apply_tile_kong(self, state: WuhanState, move: Move) -> None:
        seat, tile = move.seat, move.tile
        assert seat is not None and tile is not None
        self._require_act(state, move)
        if self.draw_only_phase(state):
            raise Violation("L301", "no kong once the wall is down to 14 tiles (このときカンはできません)", sec("進行"))
        if not state.wall.can_replace():
            raise Violation("L301", "no kong without a replacement tile left", sec("進行"))
        self._take(state, seat, tile)
        state.tile_kongs[seat].append((tile, False))
        state.log.append("頼子槓" if tile == state.laizi else "紅中槓")
        state.turn_kongs += 1
        state.phase = "replace"
        state.can_tsumo = False

    def _apply_draw_only(self, state: WuhanState, move: Move) -> None:
        seat = move.seat
        assert seat is not None
        rule = sec("進行") + " (山からツモるだけで,牌を捨てません)"
        if move.verb == "win":
            super().apply(state, move)
            return
        if move.verb in ("draw", "pass"):
            nxt = state.next_seat(state.turn)
            want = state.turn if move.verb == "pass" else nxt
            if seat != want:
                raise Violation("L302", f"it is {want}'s turn to {move.verb} (the draw-only phase)", rule)
            if move.verb == "draw" and state.wall.live == 0:
                raise Violation("L301", "the hand is drawn: 10 tiles are left (残り10枚になっても誰も上がらなければ,流局)", rule)
            drawn = state.drawn
            hand = state.hands[state.turn]
            if drawn not in (None, UNSEEN):
                hand.take(drawn)
            elif hand.unseen:
                hand.unseen -= 1
            state.set_aside.append(drawn or UNSEEN)
            state.drawn = None
            state.phase = "draw"
            state.turn = nxt
            if move.verb == "pass":
                state.last_draw_passed = True
                state.over = state.wall.live == 0
                return
            self.apply(state, move)
            return
        raise Violation("L301", f"no {move.verb} in the draw-only phase: each player draws once and only wins or not "
                        "(1人1回1枚ずつ,順に山からツモるだけで,牌を捨てません.このときカンはできません)", rule)

    def _can_tsumo(self, state: WuhanState) -> bool:
        seat = state.turn
        if not state.hand_known(seat) or not state.can_tsumo:
            return False
        counts = state.concealed_counts(seat)
        if not self.is_winning(state, seat, counts):
            return False
        tile = state.drawn if state.drawn not in (None, UNSEEN) else None
        if tile is None:
            return False
        return self.may_win(state, self._make_win(state, seat, "tsumo", tile, counts)) is None

    def hand_over(self, state: MahjongState) -> bool:
        if super().hand_over(state):
            return True
        assert isinstance(state, WuhanState)
        if state.draw_only and state.phase == "act" and state.wall.live == 0 and state.hand_known(state.turn):
            return not self._can_tsumo(state)
        return False

    def legal_actions(self, state: MahjongState) -> list[Move]:
        assert isinstance(state, WuhanState)
        if self.hand_over(state):
            return []
        if state.draw_only and state.phase == "act":
            out = []
            if self._can_tsumo(state):
                out.append(Move(state.turn, "win", state.drawn, "tsumo"))
            if state.wall.live > 0:
                out.append(Move(state.next_seat(state.turn), "draw", self._next_tile(state, "head")))
            else:
                out.append(Move(state.turn, "pass"))
            return out
        return super().legal_actions(state)

    def _act_actions(self, state: MahjongState, seat: str) -> list[Move]:
        assert isinstance(state, WuhanState)
        out = super()._act_actions(state, seat)
        h = state.hands[seat]
        if not h.unseen and not self.draw_only_phase(state) and state.wall.can_replace():
            for code in sorted(state.kong_tiles | {state.laizi}):
                if h.known[code]:
                    out.append(Move(seat, "kong", code))
        return out

    def end_reason(self, state: MahjongState) -> str | None:
        if not state.wins and getattr(state, "draw_only", False):
            return "the hand is drawn: nobody won on the last draws before the final 10 tiles"
        return None

    # -- settlement ------------------------------------------------------------------------
    def settle_hand(self, state: MahjongState) -> Settlement:
        assert isinstance(state, WuhanState)
        deltas = {s: 0 for s in state.match.seats}
        out = Settlement(deltas)
        if not state.wins:
            out.items.append(ScoreItem(state.dealer, "drawn hand", 0, "流局", "the dealer deals again (連荘)"))
            return out
        win = state.wins[0]
        score = self.score(state, win) if win.known else None
        if not isinstance(score, Score):
            out.unknown.update(state.seats)
            return out
        for key in score.big or ["small"]:
            it = ITEMS[key]
            value = 1 if key == "small" else 15 if state.match.rules.get("big_base") == "yise15" and key in YISE else 10
            out.items.append(ScoreItem(win.seat, it.name, value, it.term, it.value))
            state.log.append(it.term)
        for key, n in score.winner_fan:
            it = ITEMS[key]
            out.items.append(ScoreItem(win.seat, it.name, n, it.term, f"{n} 飜"))
            state.log.append(it.term)
        if score.winner_half:
            out.items.append(ScoreItem(win.seat, "self-draw (big hand)", 0, ITEMS["zimo"].term, "半飜 ×1.5"))
        payments: list[Payment] = []
        w_fan = sum(n for _, n in score.winner_fan)
        for p in state.others(win.seat):
            for key, n in score.payer_fan[p]:
                it = ITEMS[key]
                out.items.append(ScoreItem(p, it.name, n, it.term, f"{n} 飜"))
            if score.payer_half[p]:
                out.items.append(ScoreItem(p, "discarder (big hand)", 0, ITEMS["fangchong"].term, "半飜 ×1.5"))
            fan = w_fan + sum(n for _, n in score.payer_fan[p])
            halves = score.winner_half + score.payer_half[p]
            text = f"{score.base} × 2^{fan}" + (f" × 1.5^{halves}" if halves else "") + f" = {score.raw[p]}"
            if p in score.caps:
                it = ITEMS[score.caps[p]]
                text += f" → {it.term} {score.final[p]}"
                out.items.append(ScoreItem(p, it.name, score.final[p], it.term, it.condition))
                state.log.append(it.term)
            payments.append(Payment(p, win.seat, score.final[p], text))
        if score.bao is not None:
            total = sum(pay.amount for pay in payments)
            shares = ", ".join(f"{pay.payer} {pay.amount}" for pay in payments)
            payments = [Payment(score.bao, win.seat, total, f"包: pays every share ({shares})")]
            out.items.append(ScoreItem(score.bao, "liability", total, "包", score.bao_why))
            state.log.append("包")
        divisor = state.match.rules.get("cash", "none")
        if divisor != "none":
            for pay in payments:
                money = cash(pay.amount, int(divisor))
                out.items.append(ScoreItem(pay.payer, "cash", money, "現金",
                                           f"{pay.amount} ÷ {divisor} = {Fraction(pay.amount, int(divisor))} → {money} to {pay.payee} (四捨六入)"))
        if score.bao_unseen is not None:
            # 包 moves the shares between the payers only: the winner's gain stands either way
            out.items.append(ScoreItem(score.bao_unseen, "liability not known", 0, "包",
                                       "聴牌していないで,全求人を放銃したら包です: the discarder's hand was not seen"))
            out.unknown.update(state.others(win.seat))
        out.items.append(ScoreItem(win.seat, "hand value", score.total, "", f"received {score.total}"))
        for pay in payments:
            deltas[pay.payer] -= pay.amount
            deltas[pay.payee] += pay.amount
        out.payments = payments
        return out

    # -- views -----------------------------------------------------------------------------
    def view(self, state: MahjongState, seat: str | None) -> TableView:
        table = super().view(state, seat)
        assert isinstance(state, WuhanState)
        for sv in table.seats:
            kongs = [t for t, _ in state.tile_kongs.get(sv.seat, [])]
            melds = sv.zones[1]
            if kongs:
                melds.groups = (melds.groups or []) + [[t] for t in kongs]
                melds.cards = melds.cards + kongs
        table.center.insert(0, Zone("頼子", [state.indicator, state.laizi], layout="row"))
        table.info["頼子"] = f"{state.laizi} (indicator {state.indicator})"
        table.info["wall"] = str(state.wall.live + 10)
        if state.draw_only:
            table.info["phase"] = "draw only"
        if state.dice:
            table.info["dice"] = dice_break(state.dice, state.seats, state.dealer)
        return table

    # -- selfplay --------------------------------------------------------------------------
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        """The core's deal, with the dice first and the wall's first tile turned as the 頼子 indicator."""
        hand = super().deal_hand(match, number, rng)
        hand.events.insert(0, Event(verb="dice", args=[NumArg(value=rng.randint(1, 6)), NumArg(value=rng.randint(1, 6))]))
        wall = hand.events[-1].args[0]
        hand.events.insert(-1, Event(verb="indicator", args=[CardsArg(cards=[wall.cards[0]])]))
        wall.cards = wall.cards[1:]
        return hand

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """``paifu selfplay wuhan --aim ITEM``: a deal stacked toward a big hand, a cap or 包
        (:func:`aim_plans`), with the plan's 頼子 indicator turned up."""
        plan = aim_plans().get(AIM_NAMES.get(aim.casefold(), ""))
        if plan is None or len(match.seats) != 4 or kong_rule(match.rules) != "hongzhong":
            return super().aim_deal(match, number, rng, aim)
        laizi = successor(plan.before, set(self.tile_set(match.rules)), {RED})
        return aiming.stacked(self, match, number, rng, plan, no_junk=frozenset({RED, laizi}))

    def aim_choose(self, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
        plan = aim_plans().get(AIM_NAMES.get(aim.casefold(), ""))
        if plan is None or len(state.seats) != 4:
            return super().aim_choose(state, legal, rng, aim)
        return aiming.steer(self, state, legal, rng, plan)

    def seat_view(self, state: MahjongState, seat: str) -> Seen:
        assert isinstance(state, WuhanState)
        base = super().seat_view(state, seat)
        return WuhanSeen(**{f.name: getattr(base, f.name) for f in fields(Seen)}, laizi=kind(state.laizi),
                         kong_kinds=tuple(kind(t) for t in state.kong_tiles), opens=self.opens(state, seat))

    def shanten_of(self, seen: Seen, counts: Sequence[int], melds: int) -> int:
        assert isinstance(seen, WuhanSeen)
        c = list(counts)
        for k in seen.kong_kinds:
            c[k] = 0
        w = c[seen.laizi]
        c[seen.laizi] = 0
        value = T.shanten(c, melds) - w
        if w == 0 and not any(c[k] >= 2 for k in range(27) if is258(k)):
            value += 1  # no 2/5/8 pair in sight
        return max(value, -1)

    def choose(self, seen: Seen, legal: list[Move], rng: random.Random) -> Move:
        assert isinstance(seen, WuhanSeen)
        for m in legal:
            if m.verb in ("win", "draw"):
                return m
        discards = [m for m in legal if m.verb == "discard"]
        kongs = [m for m in legal if m.verb == "kong"]
        if discards:
            # konging a kong tile (and a second 頼子) gives a replacement and 飜 for both sides
            for m in kongs:
                k = kind(m.tile)  # type: ignore[arg-type]
                if k in seen.kong_kinds or (k == seen.laizi and seen.counts[k] >= 2):
                    return m
            for m in discards:
                if kind(m.tile) in seen.kong_kinds:  # type: ignore[arg-type]
                    return m
            plain = [m for m in discards if kind(m.tile) != seen.laizi] or discards  # type: ignore[arg-type]
            others = [m for m in legal if m.verb != "discard" and not (m.verb == "kong" and kind(m.tile) in seen.kong_kinds + (seen.laizi,))]  # type: ignore[arg-type]
            return choose_toward_win(seen, others + plain, rng, self.shanten_of)
        claims = [m for m in legal if m.verb in ("pon", "chi", "kong")]
        if claims and seen.opens == 0:
            now = self.shanten_of(seen, seen.counts, seen.melds)
            for m in claims:
                after = list(seen.counts)
                used = list(m.tiles) if m.verb == "chi" else [m.tile] * (3 if m.verb == "kong" else 2)  # type: ignore[list-item]
                if m.verb == "chi":
                    used.remove(m.tile)  # type: ignore[arg-type]
                for t in used:
                    after[kind(t)] -= 1
                if min(self.shanten_of(seen, [x - (j == i) for j, x in enumerate(after)], seen.melds + 1)
                       for i in range(34) if after[i]) <= now:
                    return m
        return choose_toward_win(seen, legal, rng, self.shanten_of)


@cache
def aim_plans() -> dict[str, aiming.Plan]:
    """``paifu selfplay wuhan --aim ITEM``: a plan per rare item (replay/mahjong/aim.py), by
    the item's English name. Four seats, winds 0 (the dealer) to 3; with no call, live-wall
    index ``i`` is drawn by wind ``(i + 1) % 4``. Every win needs an open meld (開口), so
    each plan has the target pon a tile another seat throws (``feed``). The 頼子 indicator
    (``before``) is chosen so that no 頼子 falls in the target's hand: a hard hand (硬胡)."""
    P = aiming.Plan
    # the dealer throws his junk, South throws X, the dealer pons it and throws his other
    # junk; South, West and North draw 1–3, the dealer draws 4: the winning tile
    def ponned(keep: str, x: str, win: str, wins: str | None = None, before: str = "5m") -> aiming.Plan:
        return P(keep, wins or win, head={0: x, 4: win}, pon=x, feed={1: x}, before=before)

    # 金頂 and above: 清一色 碰碰胡 (base 20) with two 中 konged (1 飜 each), 開口 and 硬胡:
    # 20 × 2^4 × 1.5 (a big hand's self-draw) = 480 from every payer, over the cap of 300
    def capped(sunlit: bool) -> aiming.Plan:
        return P("11p222p444p666p9p", "9p", head={4 if sunlit else 5: "9p"}, tail="2z3z", pon="1p", tile_kong="7z",
                 dealt={0: "7z7z", 2: "1p", **({1: "3z3z"} if sunlit else {})}, feed={2: "1p"},
                 calls={1: "pon:3z"} if sunlit else {}, before="5m")

    # South pons North's 7p and adds the fourth, drawn from index 8; the dealer, who ponned
    # West's 3z and waits on 7p alone, robs it (搶槓: the robbed konger is liable, 包)
    rob = P("33z55p234p678s68p", "7p", head={8: "7p"}, pon="3z", how="rob", dealt={1: "7p7p", 2: "3z", 3: "7p"},
            feed={2: "3z", 3: "7p"}, calls={1: "pon:7p kong:7p"}, before="5m")
    # a small hand: West's 3z ponned, 234p 678s, the 2/5/8 pair 55p and 68p waiting on 7p
    small = "33z234p678s55p68p"
    return {
        "self-draw": ponned(small, "3z", "7p"),
        # the dealer draws 中 (index 4), konges it and draws 7p from the tail (槓上開)
        "win on a kong replacement": P(small, "7p", head={0: "3z", 4: RED}, tail="7p", pon="3z", feed={1: "3z"},
                                       tile_kong=RED, how="replacement", before="5m"),
        # a concealed kong of 1s once the dealer has thrown his junk; its replacement wins
        "concealed kong": P("1111s33z234p55p68p", "7p", head={0: "3z"}, tail="7p", pon="3z", feed={1: "3z"},
                            kong=True, how="replacement", before="5m"),
        # South throws the fourth 3z to the dealer's three: an open kong, and its replacement wins
        "open kong": P("333z234p678s55p68p", "7p", head={0: "3z"}, tail="7p", feed={1: "3z"}, kong=True,
                       how="replacement", before="5m"),
        # after the pon the dealer draws every fourth tile (4, 8, ...): 7p comes at index 68,
        # his draw in the draw-only phase (the last 14 tiles: 海底撈); no 7p before
        "last tiles": P(small, "7p", head={0: "3z", 68: "7p"}, pon="3z", feed={1: "3z"}, avoid=True, draws=0,
                        before="5m"),
        "all pungs": ponned("222p888p333s99s7s", "9s", "7s"),
        "one suit": ponned("11p234p567p888p9p", "1p", "9p"),
        "all 2-5-8": ponned("22p555p888s258s5s", "2p", "8p"),
        "all honours": ponned("11z222z333z55z66z", "1z", "5z", "5z6z", before="9s"),
        "robbing a kong": rob,
        "liability": rob,
        # four pons fed by South (1z 2z), West (9s) and North (3p); South then throws the
        # 5p the bare single waits on (全求人)
        "all melds called": P("11z22z99s33p5p", "5p", pon="1z2z9s3p", how="ron", dealt={1: "1z2z5p", 2: "9s", 3: "3p"},
                              feed={1: "1z2z", 2: "9s", 3: "3p"}, late={1: "5p"}, before="5m"),
        "golden cap": capped(True),  # South pons: he pays 金頂, West and North with no open meld 陽光頂
        "sunlit cap": capped(True),
        "three suns": capped(False),  # nobody else calls: 三陽
    }


AIM_NAMES = {w.casefold(): i.name for i in ITEMS.values() for w in (i.name, i.term)}


ENGINE = Wuhan()


# -- one hand without a record (paifu score wuhan) ---------------------------------------------
SEAT_ITEMS = ("open", "minggang", "angang", "red", "laizi")
"""What ``paifu score wuhan --seat-has`` may say of a seat: an open meld (開口), an open or
added kong (明槓), a concealed kong (暗槓), a 紅中槓, a 頼子槓 (each repeatable)."""


@dataclass
class OneHand:
    """``paifu score wuhan``: a win scored without a record by the validator's own
    :meth:`Wuhan.score` and :meth:`Wuhan.settle_hand`. The winner is A; B is the discarder
    (on a ron) or the robbed konger."""

    problems: list[str]
    refusal: str | None = None  # why these tiles do not win (a complete hand that may not, or no hand)
    settlement: Settlement | None = None
    laizi: str = ""


def score_one(concealed: list[str], melds: list[Meld], tile: str, how: str, indicator: str, dealer: str,
              seat_items: dict[str, list[str]] | None = None, options: dict[str, str] | None = None,
              replacement: bool = False, draw_only: bool = False) -> OneHand:
    """Score A's win: ``melds`` A's declared sets, ``indicator`` the face-up tile that names the
    頼子, ``seat_items`` each seat's 開口 and kongs that count on both sides (§飜数 (1)),
    ``draw_only`` a win in the last four draws (海底撈)."""
    engine = ENGINE
    rules = Rules({o.name: o.default for o in engine.options} | dict(options or {}))
    seats = ["A", "B", "C"] if engine.jingzhou(rules) else ["A", "B", "C", "D"]
    problems: list[str] = []
    kinds = set(engine.tile_set(rules))
    every = [*concealed, *(c for m in melds for c in m.codes())]
    foreign = sorted({c for c in every + [indicator] if c not in kinds})
    if foreign:
        problems.append(f"{', '.join(foreign)}: not tiles of this game's set")
    want = 14 - 3 * len(melds)
    if len(concealed) != want:
        sets = f" beside {len(melds)} declared set(s)" if melds else ""
        problems.append(f"{len(concealed)} concealed tiles{sets}: a winning hand holds {want}, the winning tile included")
    if tile not in concealed:
        problems.append(f"the winning tile {tile} is not among the concealed tiles")
    if dealer not in seats:
        problems.append(f"the dealer is one of {' '.join(seats)}")
    for seat, items in (seat_items or {}).items():
        if seat not in seats:
            problems.append(f"{seat} is not a seat here ({' '.join(seats)})")
        problems += [f"'{i}' is not one of {', '.join(SEAT_ITEMS)}" for i in items if i not in SEAT_ITEMS]
    if how not in ("tsumo", "ron", "rob"):
        problems.append("a win is tsumo, ron or rob")
    if problems:
        return OneHand(problems)
    match = engine.start_match(rules, seats)
    setup = [Event(verb="deal", args=[SeatArg(seat=s), CardsArg(cards=[UNSEEN] * (14 if s == dealer else 13))]) for s in seats]
    setup.append(Event(verb="indicator", args=[CardsArg(cards=[indicator])]))
    state = engine.start_hand(match, HandHeader(1, dealer, {}), setup)
    assert isinstance(state, WuhanState)
    laizi = state.laizi
    for seat in seats:
        items = (seat_items or {}).get(seat, [])
        ms = list(melds) if seat == "A" else []
        filler = next(c for c in sorted(kinds) if c not in state.kong_tiles and c != laizi)  # a meld's tile: only its kind counts
        ms += [Meld("pon", filler)] * items.count("open") + [Meld("kong_direct", filler)] * items.count("minggang")
        ms += [Meld("kong_concealed", filler)] * items.count("angang")
        state.melds[seat] = ms
        state.tile_kongs[seat] = [(RED, False)] * items.count("red") + [(laizi, False)] * items.count("laizi")
    win = Win("A", how, tile, None if how == "tsumo" else "B", T.counts_of(concealed), list(melds), replacement=replacement)
    state.draw_only = draw_only
    got = engine.score(state, win)
    if not isinstance(got, Score):
        return OneHand([], got or "not a complete hand: no reading makes four sets and a pair", None, laizi)
    state.wins = [win]
    return OneHand([], None, engine.settle_hand(state), laizi)
