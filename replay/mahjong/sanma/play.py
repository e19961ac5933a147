"""What a sanma hand carries beyond the mahjong core's state: riichi, nuki, the river, the
revealed indicators and the go-round flags that ippatsu, double riichi and 天和/地和/人和 read.

Pure data and small pure helpers; the engine (``engine.py``) keeps one :class:`SanmaPlay`
on each hand's state as ``state.play``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from .. import tiles as T


@dataclass
class Riichi:
    """A seat's riichi: ``open`` (オープン立直), ``double`` (ダブル立直), the discard that
    declared it, whether it is established (the discard passed unclaimed: the stick is in
    the pot) and whether ippatsu still holds."""

    open: bool = False
    double: bool = False
    tile: str = ""
    established: bool = False
    ippatsu: bool = True
    converted: bool = False  # a normal riichi made open afterwards (裁定 8.1)

    @property
    def kind(self) -> str:
        """The WinContext kind: riichi, double, open, double_open."""
        if self.open:
            return "double_open" if self.double else "open"
        return "double" if self.double else "riichi"


@dataclass
class SanmaPlay:
    riichi: dict[str, Riichi] = field(default_factory=dict)
    river: dict[str, list[str]] = field(default_factory=dict)  # every discard, claimed ones too
    nuki: dict[str, list[str]] = field(default_factory=dict)  # extracted Norths (抜きドラ)
    meld_reds: dict[str, int] = field(default_factory=dict)  # red fives in each seat's melds
    called: bool = False  # a pon or open/added kong was made (breaks the first go-round and ippatsu)
    discarded: set[str] = field(default_factory=set)  # seats that have discarded this hand
    indicators: list[str] = field(default_factory=list)  # revealed dora indicators (``*`` unknown)
    named: int = 0  # indicators a ``dora`` line has named
    due_open: int = 0  # open kongs whose kan dora is revealed after the konger's discard
    kongs: int = 0
    ura: list[str] | None = None  # ura indicators written by an ``ura`` line
    replacement_discard: bool = False  # the open discard was made right after a replacement draw
    last_discard: bool = False  # the open discard is the last one (河底)
    rob_kind: str = ""  # rob_added, rob_closed, rob_north while a rob window is open
    honba: int = 0
    pot: int = 0  # riichi sticks carried from earlier hands, in points
    round_wind: int = 0  # 0 East, 1 South
    events: list[str] = field(default_factory=list)  # play items for the settlement (nuki, kongs)
    reading: dict[str, str] = field(default_factory=dict)  # 赤五萬 6: a seat's reading of a discarded red 5m


def waits_of(counts: Sequence[int], melds: int) -> list[int]:
    """The kinds that complete the hand: four sets and a pair, seven pairs, thirteen orphans
    (sanma's tiles only: no 2m–8m)."""
    return list(_waits(bytes(counts), melds))


@lru_cache(maxsize=32)
def _waits(counts: bytes, melds: int) -> tuple[int, ...]:
    # a ready hand's wait is asked again and again: at its riichi, its win (furiten, rule 18),
    # its kongs, and at the draw
    return tuple(T.waits(counts, melds, allowed=SANMA_KINDS, seven_pairs=melds == 0, thirteen_orphans=melds == 0))


SANMA_KINDS = tuple([0, 8] + list(range(9, 34)))
