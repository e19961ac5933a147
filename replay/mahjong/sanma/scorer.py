"""One sanma hand, scored without a record: what ``paifu score sanma`` answers.

The validator's own scorer (:func:`points.score`, the yaku of ``yaku.py``, the fu of
``fu.py``) is asked about a hand described by its tiles and circumstances, as the
``mahjong`` package's ``HandCalculator`` is: the concealed tiles with the winning tile,
the declared sets, how it is won, the winds, the dora indicators, the Norths extracted,
riichi and the rest. Plain data in, plain data out: codes, not text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

from .. import tiles as T
from ..core import Meld
from . import points
from .hand import RIICHI_KINDS, Scored, WinContext

MELD_KINDS = ("pon", "kong_direct", "kong_concealed", "kong_added")
"""Sanma has no chi (「三人麻雀」のルール ver. 1.3, rule 1: 吃は無し)."""

NO_MANZU = frozenset(f"{n}m" for n in range(2, 9))  # rule 1: 二萬から八萬は使わない


@dataclass(frozen=True)
class Asked:
    """A hand to score. Tiles are codes (``5p``, ``0p`` a red five, ``1z`` East)."""

    concealed: tuple[str, ...]  # the concealed tiles, the winning tile included
    melds: tuple[Meld, ...] = ()
    win_tile: str = ""  # default: the last concealed tile
    how: str = "ron"  # ron or tsumo (rob_added, rob_closed, rob_north: robbing a kong or a North)
    seat_wind: int = 1  # 0 East (the dealer), 1 South, 2 West
    round_wind: int = 0  # 0 East, 1 South
    riichi: str = "none"
    ippatsu: bool = False
    first_turn: bool = False
    last_tile: bool = False
    replacement: bool = False
    after_replacement_discard: bool = False
    honba: int = 0
    nuki: int = 0
    dora_indicators: tuple[str, ...] = ()
    ura_indicators: tuple[str, ...] = ()
    meld_reds: int = 0  # red fives among the declared sets' tiles (a Meld keeps one tile code)


def problems(asked: Asked) -> list[str]:
    """Why the hand cannot be scored as asked (empty: it can be)."""
    out: list[str] = []
    every = [*asked.concealed, *(c for m in asked.melds for c in m.codes())]
    manzu = sorted({c for c in every if c in NO_MANZU})
    if manzu:
        out.append(f"{', '.join(manzu)}: not sanma tiles (2m to 8m are taken out, rule 1)")
    kinds = Counter(T.tile_index(c) for c in every + list(asked.dora_indicators) + list(asked.ura_indicators))
    over = sorted(T.tile_code(k) for k, n in kinds.items() if n > 4)
    if over:
        out.append(f"more than four of {', '.join(over)} (the hand, its sets and the indicators together)")
    want = 14 - 3 * len(asked.melds)
    if len(asked.concealed) != want:
        sets = f" beside {len(asked.melds)} declared set(s)" if asked.melds else ""
        out.append(f"{len(asked.concealed)} concealed tiles{sets}: a winning hand holds {want}, the winning tile included")
    if asked.win_tile and asked.win_tile not in asked.concealed and not (
            asked.win_tile in ("0p", "0s", "5p", "5s") and T.tile_index(asked.win_tile) in {T.tile_index(c) for c in asked.concealed}):
        out.append(f"the winning tile {asked.win_tile} is not among the concealed tiles")
    if asked.riichi not in RIICHI_KINDS:
        out.append(f"riichi is one of {', '.join(RIICHI_KINDS)}")
    if asked.riichi != "none" and any(m.kind != "kong_concealed" for m in asked.melds):
        out.append("a riichi hand has no open set (rule 18: 門前)")
    if asked.ippatsu and asked.riichi == "none":
        out.append("一発 (ippatsu) needs a riichi")
    if asked.ura_indicators and asked.riichi == "none":
        out.append("ura dora count only for a riichi winner")
    return out


def context(asked: Asked) -> WinContext:
    win = asked.win_tile or asked.concealed[-1]
    reds = sum(1 for c in asked.concealed if T.is_red(c)) + asked.meld_reds
    return WinContext(
        concealed=tuple(T.counts_of(asked.concealed)), melds=asked.melds, win_tile=win, how=asked.how,
        seat_wind=asked.seat_wind, round_wind=asked.round_wind, riichi=asked.riichi, ippatsu=asked.ippatsu,
        first_turn=asked.first_turn, last_tile=asked.last_tile, replacement=asked.replacement,
        after_replacement_discard=asked.after_replacement_discard, honba=asked.honba, nuki=asked.nuki,
        dora_indicators=asked.dora_indicators, ura_indicators=asked.ura_indicators, reds=reds)


def score_hand(asked: Asked, options: Mapping[str, str] | None = None) -> Scored | None:
    """The validator's scoring of the hand under the record options ``options`` (``scoring``,
    ``double_wind_fu``, ``yakuman_stack``, ``tsumo_bonus``, ``rules=tenhou``); None when it
    is not a complete hand."""
    return points.score(context(asked), points.scoring_rules(options or {}))


def shortfall(asked: Asked, options: Mapping[str, str] | None = None) -> tuple[str, int] | None:
    """Why a complete hand may still not win (rule 18's two han from yaku), as the validator
    says it; None when it may."""
    return points.minimum_shortfall(context(asked), points.scoring_rules(options or {}))


def needed(asked: Asked, options: Mapping[str, str] | None = None) -> int:
    """The han from yaku a win needs (rule 18: 2, 3 with 5 or more honba; rules=tenhou: 1)."""
    return points.minimum_han(context(asked), points.scoring_rules(options or {}))


def meld(kind: str, codes: Sequence[str]) -> Meld:
    """A declared set of ``kind`` from its tiles (three or four of one tile)."""
    return Meld(kind, codes[0])
