"""What a sanma win is, as the scorer reads it, and what the scorer answers.

The engine fills in a :class:`WinContext` when a seat wins (everything the yaku, fu, dora and
payment rules of 「三人麻雀」のルール ver. 1.3 need to know about the hand and its
circumstances); :func:`replay.sanma.points.score` turns it into a :class:`Scored`.
Both are plain data: no text, no seats, no state.

REQUESTS TO ENGINE
- ``first_turn``: true when the win comes on the winner's first draw (tsumo) or before his
  first draw (ron, 人和) and no pon or open kong has been made by anyone yet; nuki and
  closed kongs do not break it (rule 28).
- ``after_replacement_discard``: a ron on the discard made right after a replacement draw
  (kong or nuki), rule 26 槓振り.
- ``feeder_in_riichi``: on a ron, whether the discarder's riichi was established (its riichi
  discard passed unclaimed); the riichi discard itself being won on counts as not in riichi
  (RULINGS §sanma, rule 21.1).
- ``ura_indicators``: pass them only when the winner is in riichi (they are ignored otherwise).
- ノー聴立直 (rule 18.1: 「そのような状況に出来ないような立直は「ノー聴立直」として流局時の聴牌
  宣言(手牌開示)に於いて錯和になる」): a riichi player whose ready hand is not sure of 2 han
  (3 at 5+ honba) on every tile is noten at the draw; ``points.ready_shortfall(counts, melds,
  riichi_kind, seat_wind=..., round_wind=..., honba=...)`` answers it (None = fine).
- `paifu rules sanma` could list the yaku table after the options: ``yaku.table_rows()``
  gives (seed term, English name, closed han, open han) rows, 「無」 as the seed writes it.
- ``reds``: the winner's red fives (``0p``/``0s``) in hand and melds; the red 5m of the 赤五萬
  option is no 赤ドラ in hand (a North, clause 4); extracted it is a North (``nuki`` counts
  it) and one red five in ``reds`` (clause 5, RULINGS §sanma); read as a 5p/5s on a ron: one
  red five in ``reds``, as every 5p/5s is red under clause 2, and ``extra_dora`` 2, 6.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Meld

HOWS = ("tsumo", "ron", "rob_added", "rob_closed", "rob_north")
"""How a win is made: self-draw; ron on a discard; robbing an added kong (槍槓); robbing a
closed kong (rule 24) or an extracted North (rule 23), the last two paid as a ron by the
konger/extractor and allowed only with a 15+ han hand."""

RIICHI_KINDS = ("none", "riichi", "double", "open", "double_open")
"""立直 kinds: none, normal (ノーマル立直), ダブル立直, オープン立直, double open riichi."""


@dataclass(frozen=True)
class WinContext:
    """One win, as the engine saw it. Tiles are 34-kind indices (see ``replay.tiles``) or
    codes where a red five matters."""

    concealed: tuple[int, ...]
    """34 counts of the concealed hand, the winning tile included (14 - 3 × melds tiles)."""
    melds: tuple[Meld, ...]
    """Declared sets: ``pon``, ``kong_direct`` (明槓), ``kong_added`` (加槓), ``kong_concealed``
    (暗槓). Extracted Norths are not melds: see ``nuki``."""
    win_tile: str
    """The winning tile's code (``5p``, ``0p``...)."""
    how: str = "tsumo"
    """One of :data:`HOWS`."""
    seat_wind: int = 0
    """The winner's seat wind: 0 East (the dealer), 1 South, 2 West (rule 4)."""
    round_wind: int = 0
    """The round: 0 East, 1 South (rule 6: 東南戦)."""
    riichi: str = "none"
    """The winner's riichi, one of :data:`RIICHI_KINDS`."""
    ippatsu: bool = False
    """一発: won within the uninterrupted go-round after the riichi (nuki and closed-kong
    replacement draws do not break it, rule 27)."""
    first_turn: bool = False
    """The winner's first turn, uninterrupted by a pon or open kong (rule 28): with a tsumo it
    is 天和 (dealer) / 地和 (non-dealer) and the chance of 十三不塔; with a ron by a
    non-dealer before his first draw it is 人和."""
    last_tile: bool = False
    """The tile won on is the last live tile (tsumo: 海底撈月) or its discard (ron: 河底撈魚)."""
    replacement: bool = False
    """Won by tsumo on a replacement draw after a kong or a nuki (嶺上開花, rules 25/25.1)."""
    after_replacement_discard: bool = False
    """Won by ron on the discard made right after a replacement draw (樌振り, rule 26)."""
    feeder_in_riichi: bool = True
    """On a ron: the discarder had an established riichi. An open-riichi winner whose feeder
    had none scores 15 han (rule 21.1)."""
    honba: int = 0
    """積み棒 on the table (rule 12; 5+ makes the minimum 3 han, rule 18.4; a dealer's win
    with 8+ is 八連荘, rule 35)."""
    nuki: int = 0
    """Norths the winner extracted (抜きドラ, rule 22); four count as dora 8 (rule 22.2)."""
    dora_indicators: tuple[str, ...] = ()
    """Every revealed indicator, the first and the kan dora."""
    ura_indicators: tuple[str, ...] = ()
    """The ura indicators beneath them (counted only for a riichi winner)."""
    reds: int = 0
    """Red fives the winner holds, in hand, melds and extracted (rule 3)."""
    extra_dora: int = 0
    """Dora from elsewhere the rules may add (赤五萬 option 6.1: +2 when a discarded red 5m is
    read as a 5p/5s)."""

    @property
    def dealer(self) -> bool:
        """The winner is the dealer (East)."""
        return self.seat_wind == 0

    @property
    def is_tsumo(self) -> bool:
        return self.how == "tsumo"

    @property
    def closed(self) -> bool:
        """門前: no meld but closed kongs."""
        return all(m.kind == "kong_concealed" for m in self.melds)

    @property
    def in_riichi(self) -> bool:
        return self.riichi != "none"


@dataclass(frozen=True)
class ScoringRules:
    """The scoring options in force (see ``replay.sanma.points.SCORING_OPTIONS``)."""

    scoring: str = "seed"
    """``seed``: the seed's yaku table and 15-han yakuman; ``standard``: common Japanese
    riichi (13-han yakuman, no seed-only yaku), for comparing with other scorers."""
    double_wind_fu: int = 4
    """Fu of a pair of a wind that is both the seat and the round wind."""
    yakuman_stack: str = "add"
    """``add``: every yaku and dora add to a yakuman yaku's han (RULINGS §sanma);
    ``standard``: with a yakuman yaku, only yakuman yaku count."""
    tsumo_bonus: str = "per_payer"
    """``per_payer``: each tsumo payer pays 1000 more (rule 13); ``total``: 1000 once, split."""
    minimum_han: int = 2
    """役による二翻縛り (rule 18); 3 with 5+ honba (18.4)."""
    tenhou: bool = False
    """``rules=tenhou`` (replay/mahjong/sanma/tenhou.py): Tenhou's payments, 1-yaku minimum, robbing."""
    double_yakuman: bool = True
    """Whether one yakuman yaku may count double (四暗刻単騎...); ``rules=tenhou`` with
    ``double_yakuman=no`` (Tenhou's own rule) counts each as one."""

    @property
    def standard(self) -> bool:
        return self.scoring == "standard"

    @property
    def yakuman_han(self) -> int:
        """Han of one yakuman: 15 (rule 33) or 13 (standard)."""
        return 13 if self.standard else 15


@dataclass(frozen=True)
class Item:
    """One line of a breakdown: the seed's term, the English name, and its han or fu."""

    term: str
    name: str
    value: int


@dataclass(frozen=True)
class Payment:
    """What each seat of ``role`` pays the winner: ``discarder`` (ron, a rob: the discarder,
    the konger or the extractor), ``dealer``, or ``non_dealer`` (each non-dealer payer; on a
    dealer's tsumo both pay this). ``hand`` is the hand's points for that payer (rounded up
    to the thousand, rule 11; +1000 on a tsumo, rule 13), ``honba`` the sticks' share
    (rule 12). The pot (riichi sticks) is not included."""

    role: str
    hand: int
    honba: int = 0
    count: int = 1
    """How many seats pay this (2 for ``non_dealer`` on a dealer's tsumo)."""

    @property
    def total(self) -> int:
        """What one payer of this role pays."""
        return self.hand + self.honba


@dataclass(frozen=True)
class Scored:
    """A scored win: the breakdown and the points."""

    yaku: tuple[Item, ...]
    """The yaku counted (implied ones dropped), each with its han."""
    dora: tuple[Item, ...]
    """ドラ, 裏ドラ, 赤ドラ, 抜きドラ: han that are not yaku (rule 18 ignores them)."""
    fu_items: tuple[Item, ...]
    """The fu items before rounding (empty where fu do not matter: thirteen orphans...)."""
    han: int
    """All han: yaku and dora."""
    fu: int
    """Fu rounded up to the ten (七対子: 25)."""
    limit: str
    """``""``, 満貫, 跳満, 倍満, 三倍満, 役満, ダブル役満, トリプル役満..."""
    base: int
    """基本点: fu × 2^(han+2), or the limit's."""
    payments: tuple[Payment, ...] = ()
    yakuman: int = 0
    """1 for 役満, 2 for ダブル役満...: the multiple of the rule 32 prize."""
    reading: str = ""
    """The decomposition chosen, e.g. ``123p 456p 789s 111z 55s``."""

    @property
    def yaku_han(self) -> int:
        """Han from yaku only (rule 18's 役による二翻)."""
        return sum(i.value for i in self.yaku)

    @property
    def total(self) -> int:
        """What the winner receives in all (hand and honba, pot excluded)."""
        return sum(p.total * p.count for p in self.payments)


__all__ = ["HOWS", "RIICHI_KINDS", "WinContext", "ScoringRules", "Item", "Payment", "Scored"]
