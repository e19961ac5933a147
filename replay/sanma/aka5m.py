"""The 赤五萬 option of 「三人麻雀」のルール ver. 1.3 (選択ルール「赤五萬」ver 1.2), ``aka5m=on``.

What paifu plays of it:

- 1: one of the four Norths is a red 5m (``0m``).
- 2: all four 5p and all four 5s are red (``0p``, ``0s``), permanent dora; a record writes
  them ``0p``/``0s`` (2.1: the players may only regard plain fives as red; the record says
  which tile it is, so it writes the red code).
- 3: the dead wall (王牌) is only the dora indicator (with its ura) and the replacement tiles
  beyond it; 3.1: the live wall runs up to the tile just before the indicator (58 draws
  after the deal instead of 50); the kan dora indicators lie in the live wall, so 3.2: a
  kong whose kan dora indicator or kan ura indicator has been drawn cannot be made; 3.3: a
  North among one's discards does not spoil 流し役満.
- 9: a red 5m indicator (or ura) makes dora whatever the winner chooses: the reading that
  scores best.

Not yet: the red 5m itself in play (4: a North in hand; 5: extracted as a North; 6, 6.1: its
readings when discarded; 7; 8: the extractor's doubled receipts or 満貫払い). A record under ``aka5m=on`` in which a seat's hand holds the red 5m is refused
with L310 at that line rather than replayed wrongly.
"""

from __future__ import annotations

from .. import tiles as T
from ..engine import RuleOption, Violation
from ..mahjong import MahjongState

TITLE = "「三人麻雀」のルール ver. 1.3 §選択ルール「赤五萬」ver 1.2"
RED_5M = "0m"
REPLACEMENTS = 8
DEAD = REPLACEMENTS + 2  # 3: the indicator with its ura, and the replacement tiles beyond it

OPTIONS = (
    RuleOption("aka5m", "off", ("off", "on"),
               "選択ルール「赤五萬」: one North is a red 5m, every 5p and 5s is red, the dead wall is only the "
               "indicator and beyond, a red 5m indicator read as the winner likes (its clauses 1–3, 9; the red 5m in a hand is not played yet)", TITLE),
)


def clause(n: str, words: str = "") -> str:
    return f"{TITLE} {n}" + (f" ({words})" if words else "")


def on(rules) -> bool:
    return rules.get("aka5m", "off") == "on"


def tile_set() -> list[str]:
    """Clauses 1 and 2: 0m for one North, four 0p and four 0s."""
    return T.tile_set("108", reds=("0p",) * 4 + ("0s",) * 4 + (RED_5M,))


def kong_problem(state: MahjongState, kongs: int) -> str | None:
    """3.2: the next kong's kan dora indicator (and its ura beneath) must still be in the wall.
    The k-th kan dora indicator is the (9 + 2k)-th tile from the wall's end, its ura the next."""
    if not on(state.match.rules):
        return None
    wall = state.wall
    k = kongs + 1
    ura_at = wall.size - REPLACEMENTS - 2 - 2 * k  # draw order: the ura comes before its indicator
    if wall.head > ura_at:
        return (f"the kan dora indicator of a kong number {k} has been drawn: no kong "
                f"({clause('3.2', 'その樌によって捲られる樌ドラ表示牌及び樌裏ドラ表示牌が最早無い場合、その樌を行うことは出来ない')})")
    return None


def north_spoils_nagashi(state: MahjongState) -> bool:
    """Rule 31 (iii) (no North discarded), except under the option (3.3)."""
    return not on(state.match.rules)


def check_red_5m(state: MahjongState) -> None:
    """The red 5m's own clauses (4–8) are not played yet: refuse a record whose hands hold it."""
    if not on(state.match.rules):
        return
    for seat in state.seats:
        if state.hands[seat].known[RED_5M]:
            raise Violation("L310", f"{seat} holds the red 5m: paifu does not play its clauses 4–8 yet "
                            f"(a North in hand, its extraction, its readings when discarded, rule 8's payments)",
                            clause("4", "赤五萬は、手牌にあるときは北として扱われる"))


def chosen_indicators(ctx, rules):
    """Clause 9 (「ドラ表示牌が赤五萬である場合、和了した競技者は、その赤五萬の分のドラが何であるかを
    任意に決定する」): each red 5m among the indicators (and the ura beneath, which are dora
    indicators too) is read as the indicator the winner likes best: the one giving the
    highest base, then the most han (docs/rulings.md §sanma 赤五萬)."""
    from dataclasses import replace

    from .points import score

    if RED_5M not in ctx.dora_indicators and RED_5M not in ctx.ura_indicators:
        return ctx
    candidates = sorted({c for c in T.tile_set("108") if not T.is_red(c)})

    def best(field: str, current):
        out = current
        while RED_5M in getattr(out, field):
            i = getattr(out, field).index(RED_5M)
            options = []
            for code in candidates:
                tiles = list(getattr(out, field))
                tiles[i] = code
                trial = replace(out, **{field: tuple(tiles)})
                scored = score(trial, rules)
                options.append(((scored.base, scored.han) if scored is not None else (0, 0), code, trial))
            out = max(options, key=lambda o: o[0])[2]
        return out

    return best("ura_indicators", best("dora_indicators", ctx))
