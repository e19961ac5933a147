"""The sanma wall: the live wall and its fixed dead wall (王牌) of 18 tiles.

「三人麻雀」のルール ver. 1.3 §基本ルール 2: 「試技開始時のドラ表示牌として、一枚目の嶺上牌から数えて
九枚目の牌を捲る。即ち、嶺上牌として八枚を確保する。」 With RULINGS §sanma: 8 replacement tiles
(嶺上牌), then the indicator stacks; 18 tiles, fixed, not replenished (51 live draws with
the dealer's fourteenth tile), at most four kongs.

A written ``wall`` line lists the 68 tiles left after the deal in draw order: the head is
drawn first; the LAST tile is the first replacement tile, the one before it the second,
and so on for eight; counting on from the tail, the 9th tile is the first dora indicator
with its ura indicator (the 10th) beneath it, the 11th the first kan dora indicator with
its ura (the 12th), and so on: five indicators with their five ura, 18 tiles in all.

Under ``rules=tenhou`` (Tenhou's three-player game) the dead wall is 14 tiles, replenished
from the live wall: each replacement draw shortens the live wall by one (55 draws in a hand,
replacements included, as the logs' exhaustive draws show), and once the live wall is empty
(its last tile, 海底, drawn) no kong and no North extraction is possible.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import UNSEEN, Wall

REPLACEMENTS = 8  # 嶺上牌: kongs and North extractions both draw from them
INDICATORS = 5  # the first indicator and four kan dora
DEAD = REPLACEMENTS + 2 * INDICATORS  # 18
MAX_KONGS = 4


@dataclass
class SanmaWall(Wall):
    """The core's wall with a fixed dead wall: at most eight replacement draws, and the
    indicators at fixed places counted from the tail."""

    replaced: int = 0

    def can_replace(self) -> bool:
        return replacement_problem(self) is None

    def take(self, end: str) -> str:
        tile = super().take(end)
        if end == "tail":
            self.replaced += 1
        return tile

    def untake(self, end: str) -> None:
        super().untake(end)
        if end == "tail":
            self.replaced -= 1

    def peek(self, end: str, n: int = 1) -> list[str]:
        if end == "tail":
            n = min(n, REPLACEMENTS - self.replaced)
        return super().peek(end, n)

    def indicator(self, k: int) -> str:
        """The ``k``-th dora indicator (0: the first; 1..4: kan dora), ``*`` when not written."""
        if self.tiles is None:
            return UNSEEN
        return self.tiles[self.size - REPLACEMENTS - 1 - 2 * k]

    def ura(self, k: int) -> str:
        """The ura indicator beneath the ``k``-th indicator, ``*`` when not written."""
        if self.tiles is None:
            return UNSEEN
        return self.tiles[self.size - REPLACEMENTS - 2 - 2 * k]


def replacement_problem(wall: SanmaWall) -> str | None:
    """Why no replacement tile (嶺上牌) can be drawn now, so that no kong and no North can be
    extracted; None when one can. The eight replacement tiles are shared and never
    replenished (rule 2); a dead wall replenished from the live wall (rules=tenhou) needs a
    live tile to replenish it from."""
    if wall.replaced >= REPLACEMENTS:
        return f"the {REPLACEMENTS} replacement tiles (嶺上牌) have all been drawn"
    if wall.replenish and wall.live <= 0:
        return "the live wall is empty (its last tile, 海底, is drawn): there is no tile to replenish the dead wall with"
    return None


def of_core(wall: Wall) -> SanmaWall:
    """The sanma wall for the core's wall built at the start of a hand."""
    out = SanmaWall(wall.size, tiles=wall.tiles, dead=wall.dead, replenish=False)  # DEAD, or the 赤五萬 option's
    return out


def dora_of(indicator: str) -> str:
    """The dora an indicator shows (RULINGS §sanma: 1m→9m, 9m→1m, N→E, dragons cycle; the
    suits 1→2…9→1). A red five indicates a six."""
    from .. import tiles as T

    k = T.tile_index(indicator)
    if k == 0:
        return "9m"
    if k == 8:
        return "1m"
    if k < 27:
        base = k - T.rank_of(k) + 1
        return T.tile_code(base + T.rank_of(k) % 9)
    if k <= 30:  # winds E S W N
        return T.tile_code(27 + (k - 27 + 1) % 4)
    return T.tile_code(31 + (k - 31 + 1) % 3)
