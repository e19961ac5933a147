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
- 4: the red 5m in a hand is a North, for the hand's shape, yaku, dora and waits (the core's
  ``tile_identity``: ``0m`` is ``4z``); in a hand it is no 赤ドラ. A pon or kong takes it as
  a North.
- 5: it may be extracted (``A: nuki 0m``) like a North, with a replacement draw; extracted it
  is a North (抜きドラ 1) and a red five (赤ドラ 1: 「赤五萬であると同時に北である」, RULINGS
  §sanma) and makes its extractor the one of clause 8. 5.1 (a riichi player
  may set it face up beside his hand to think) is not written: the record has the draw,
  then the extraction or the discard.
- 6: discarded, it is a North for its discarder (6 (iii): furiten, 流し役満) and for every
  seat not tenpai on 5p or 5s (6 (ii)); a seat tenpai on 5p or 5s reads it as North, 5p or
  5s (6 (i)), for a ron only: ``B: win ron 0m as=5p`` (unwritten: a North). 6.1: read as 5p
  or 5s it is a red five in the normal count (clause 2) and adds 2 han more (「通常の翻数に二を
  増して」: 3 in all for the tile, as RULINGS §sanma reads it), dora not yaku.
- 7: for 真似満 it is the red 5m (discards compare by code), so no North copies it.
- 8: its extractor who wins has each payer's payment for the win doubled (hand, tsumo's 1000
  and honba; not the pot); when the hand ends without his win he pays a 満貫払い (4000 to
  each, 6000 as the dealer) last of all the hand's exchanges, his right-hand neighbour
  first; 8.2: not after a 錯和 (the chombo's settlement replaces the hand's).
- 9: a red 5m indicator (or ura) makes dora whatever the winner chooses: the reading that
  scores best.
"""

from __future__ import annotations

from functools import cache

from paifu.notation.model import Event, OptionArg

from .. import tiles as T
from ...engine import Payment, RuleOption, Rules, ScoreItem, Settlement, Violation
from ..core import MahjongState, Move

TITLE = "「三人麻雀」のルール ver. 1.3 §選択ルール「赤五萬」ver 1.2"
RED_5M = "0m"
REPLACEMENTS = 8
DEAD = REPLACEMENTS + 2  # 3: the indicator with its ura, and the replacement tiles beyond it

OPTIONS = (
    RuleOption("aka5m", "off", ("off", "on"),
               "選択ルール「赤五萬」: one North is a red 5m, every 5p and 5s is red, the dead wall is only the "
               "indicator and beyond, the red 5m a North in hand and when extracted, read as North/5p/5s (+2 han) by a "
               "seat tenpai on 5p or 5s ('win ron 0m as=5p'), its extractor's receipts doubled or his 満貫払い, "
               "a red 5m indicator read as the winner likes (its clauses 1–9)", TITLE),
    RuleOption("aka5m_extracted", "north", ("north", "red_five"),
               "aka5m=on, 5 「抜かれた赤五萬は、赤五萬であると同時に北である」: an extracted red 5m is a North only, "
               "抜きドラ 1, its worth being clause 8's, never a 赤ドラ (north: clause 2 makes only the 5p and 5s dora), "
               "or also a red five, 赤ドラ 1 for its extractor's win (red_five)", f"{TITLE} 5; docs/rulings.md §sanma 赤五萬 option"),
)


def clause(n: str, words: str = "") -> str:
    return f"{TITLE} {n}" + (f" ({words})" if words else "")


def on(rules) -> bool:
    return rules.get("aka5m", "off") == "on"


def tile_set() -> list[str]:
    """Clauses 1 and 2: 0m for one North, four 0p and four 0s."""
    return list(_tile_set())


@cache
def _tile_set() -> tuple[str, ...]:
    return tuple(T.tile_set("108", reds=("0p",) * 4 + ("0s",) * 4 + (RED_5M,)))


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


def red_dora(code: str) -> bool:
    """A red five that is a 赤ドラ in a hand or a meld: 0p and 0s. The red 5m there is a North
    (4 「赤五萬は、手牌にあるときは北として扱われる」), no 赤ドラ."""
    return T.is_red(code) and code != RED_5M


def extracted_reds(extracted: list[str], rules: Rules) -> int:
    """5 「抜かれた赤五萬は、赤五萬であると同時に北である」: an extracted red 5m counts as a North
    (抜きドラ 1) and the red 5m of clause 8, never a 赤ドラ (RULINGS §sanma: clause 5 names no dora
    for it, clause 2 makes only the 5p and 5s 常設のドラ); under ``aka5m_extracted=red_five`` also
    as a red five (赤ドラ 1)."""
    return extracted.count(RED_5M) if rules.get("aka5m_extracted", "north") == "red_five" else 0


# -- 6: the discarded red 5m, read by each seat -----------------------------------------
READINGS = ("4z", "5p", "5s")  # 北・五筒・五索
FIVES = (T.tile_index("5p"), T.tile_index("5s"))


def allowed_readings(state: MahjongState, seat: str) -> tuple[str, ...]:
    """6 (i), (ii): North, 5p or 5s for a seat tenpai with 5p or 5s among its winning
    tiles; North for any other seat (and the discarder, (iii))."""
    from .play import waits_of

    if seat == state.discarder:
        return ("4z",)
    if not state.hand_known(seat):  # a hand the record does not show: its reading on trust, as its win
        return READINGS
    waits = waits_of(state.concealed_counts(seat), len(state.melds[seat]))
    return READINGS if any(k in waits for k in FIVES) else ("4z",)


def is_open_red(state: MahjongState, tile: str) -> bool:
    return tile == RED_5M and on(state.match.rules)


def claim_kind(state: MahjongState, seat: str, tile: str) -> int:
    """The kind a tile open to a win counts as for ``seat``: a discarded red 5m is the seat's
    reading of it (North unless written otherwise), any other tile its identity."""
    if is_open_red(state, tile) and state.phase in ("claim", "wins"):
        reading = state.play.reading.get(seat)  # type: ignore[attr-defined]
        if reading is not None:
            return T.tile_index(reading)
    return state.kind_of(tile)


def reading_kinds(state: MahjongState, seat: str, tile: str) -> list[int]:
    """Every kind ``tile``, discarded, may be for ``seat``."""
    if is_open_red(state, tile):
        return [T.tile_index(r) for r in allowed_readings(state, seat)]
    return [state.kind_of(tile)]


def readings_to_try(engine, state: MahjongState, seat: str, tile: str, how: str) -> tuple[str, ...] | None:
    """The readings to try for a ron on a discarded red 5m (None: not such a ron)."""
    if how != "ron" or not is_open_red(state, tile) or state.phase not in ("claim", "wins"):
        return None
    return allowed_readings(state, seat)


def read_win_reading(engine, state: MahjongState, event: Event, read) -> Move:
    """``B: win ron 0m as=5p``: a ron on the discarded red 5m read as 5p (or 5s, or 4z, the
    default when ``as=`` is not written)."""
    options = [(i, a) for i, a in enumerate(event.args) if isinstance(a, OptionArg)]
    i, opt = options[0]
    if len(options) > 1 or opt.key != "as" or opt.value not in READINGS:
        raise Violation("L306", "a ron on the discarded red 5m may say how its winner reads it: "
                        "'win ron 0m as=5p' (as=4z, as=5p or as=5s)", clause("6"), arg=i)
    rest = Event(seat=event.seat, verb=event.verb, args=[a for a in event.args if a is not opt])
    move = read(rest)
    if not on(state.match.rules) or move.tile != RED_5M or move.how not in (None, "ron"):
        raise Violation("L301", "only a ron on a discarded red 5m (選択ルール「赤五萬」, aka5m=on) is read as another tile",
                        clause("6"), arg=i)
    return Move(move.seat, "win", RED_5M, "ron", (opt.value,))


def begin_reading(state: MahjongState, move: Move) -> None:
    """Before a ron on the discarded red 5m is applied: the winner's reading, checked (6)."""
    if not is_open_red(state, move.tile or "") or state.phase not in ("claim", "wins"):
        return
    seat = move.seat
    assert seat is not None
    reading = move.tiles[0] if move.tiles else "4z"
    allowed = allowed_readings(state, seat)
    if reading not in allowed:
        raise Violation("L301", f"{seat} is not tenpai with 5p or 5s among his winning tiles: the discarded red 5m is a North "
                        f"for him, not {reading}",
                        clause("6 (ii)", "和了牌として五筒或いは五索を持って聴牌していない競技者にとっては北である"))
    state.play.reading[seat] = reading  # type: ignore[attr-defined]


def win_reading(state: MahjongState, seat: str, how: str, tile: str) -> tuple[str, int]:
    """The winning tile the scorer sees, and 6.1's extra han: a red 5m is a North (4: in
    hand, drawn; 5: robbed when extracted; 6: discarded, unless its winner reads it as 5p or
    5s, then +2: 「通常の翻数に二を増して」)."""
    if not is_open_red(state, tile):
        return tile, 0
    reading = state.play.reading.get(seat, "4z") if how == "ron" else "4z"  # type: ignore[attr-defined]
    return reading, (2 if reading in ("5p", "5s") else 0)


# -- 8: the extractor's doubled receipts or 満貫払い ----------------------------------------
MANGAN_EACH = 4000  # 満貫払い: 四千点ずつ (6000 each by the dealer), 裁定 1.3
DEALER_MANGAN_EACH = 6000


def extractor(state: MahjongState) -> str | None:
    """The seat that extracted the red 5m this hand (5), if any."""
    if not on(state.match.rules):
        return None
    play = state.play  # type: ignore[attr-defined]
    return next((s for s in state.seats if RED_5M in play.nuki.get(s, [])), None)


def doubles(state: MahjongState, winner: str) -> bool:
    """8: 「赤五萬を抜いた競技者が和了した場合、その競技者が他の競技者から受け取る最終的な得点を
    (それぞれ)倍にする」."""
    return extractor(state) == winner


def settle_mangan(state: MahjongState, out: Settlement) -> None:
    """8, 8.1: the extractor who did not win pays a mangan (4000 to each other seat, 6000 by
    the dealer), last of all the hand's exchanges, his right-hand neighbour first (rule 17).
    Not after a 錯和 (8.2): the engine settles a chombo without calling this."""
    seat = extractor(state)
    if seat is None or any(w.seat == seat for w in state.wins):
        return
    each = DEALER_MANGAN_EACH if seat == state.dealer else MANGAN_EACH
    for other in state.order_from(seat):
        out.payments.append(Payment(seat, other, each, "満貫払い (赤五萬)"))
        out.deltas[seat] -= each
        out.deltas[other] += each
    out.items.append(ScoreItem(seat, "red 5m mangan payment", -each * (len(state.seats) - 1), "満貫払い (赤五萬)",
                               f"{seat} extracted the red 5m and did not win: {each} to each other seat, last of the hand's "
                               f"exchanges ({clause('8', '赤五萬を抜いた競技者が和了せずにその局が終了した場合…満貫払いをする')})"))


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
