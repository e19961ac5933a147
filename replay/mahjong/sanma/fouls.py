"""Irregularities of 「三人麻雀」のルール ver. 1.3, written ``A: foul KIND ...``.

§上のルールに関する裁定 1: a 錯和 (chombo) is settled by (i) turning time back to the start of
the hand (riichi sticks and fines go back to their owners, the pot and honba are as they
were), (ii) the offender's 満貫払い (4000 to each other seat, 6000 each from the dealer),
(iii) playing the hand again: the next ``hand`` line of the record is that replay, with the
same dealer, honba and pot (1.2: 「錯和によっては、局の終了は訪れない」). The order of (i) and
(ii) decides a bust (1.4); a bust by a 錯和 ends the half-game and the pot goes to the seat
with the most points (裁定 2). 誤碰 and 誤吃 put 1000 into the pot (裁定 3) and play goes on.

The kinds (each takes optional words after it, such as the tile or the action at fault,
kept as written): see :data:`KINDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from paifu.notation.model import Event

from ...engine import POT, Payment, ScoreItem, Settlement, Violation
from ..core import UNSEEN, MahjongState
from . import aka5m

TITLE = "「三人麻雀」のルール ver. 1.3"
MANGAN_EACH = 4000  # 子であれば二人の他の競技者に四千点ずつ (裁定 1.3)
MANGAN_EACH_DEALER = 6000  # 親であれば六千点ずつ
FINE = 1000  # 誤碰、誤吃は、千点を供託に提出する (裁定 3)


@dataclass(frozen=True)
class Kind:
    name: str
    term: str
    english: str
    rule: str
    chombo: bool  # a 錯和 (満貫払い, the hand replayed); else a fine of 1000 to the pot


def _ruling(n: str, words: str) -> str:
    return f"{TITLE} §上のルールに関する裁定 {n} ({words})"


def _rule(n: str, words: str) -> str:
    return f"{TITLE} §基本ルール {n} ({words})"


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("false_win", "誤栄・誤自模", "a win declared on a hand that is no win", _ruling("1", "錯和が起こったときには"), True),
    Kind("short_win", "誤栄・誤自模", "a win without two han from yaku on every winning tile",
         _rule("18.1", "役による二翻が確定している状況でなければ和了出来ない。これを破ると「誤栄」・「誤自模」になる"), True),
    Kind("noten_riichi", "ノー聴立直", "a riichi hand shown at the draw without a wait sure of two han from yaku",
         _rule("18.1", "「ノー聴立直」として流局時の聴牌宣言(手牌開示)に於いて錯和になる"), True),
    Kind("extra_tile", "錯和", "the dealer saw a fifteenth or sixteenth tile at the deal",
         _ruling("5", "親は、配牌時に自分の手牌として十五枚目や十六枚目の牌を見たことが発覚した段階で、錯和になる"), True),
    Kind("wrong_nuki", "錯和", "a tile that is no North set aside as one, found after the next discard",
         _ruling("6", "北でない牌で抜いたこと(抜いていること)が発覚した段階で錯和になる"), True),
    Kind("furiten_open_riichi", "錯和", "an open riichi while furiten",
         _ruling("7", "振聴してのオープン立直は錯和である"), True),
    Kind("missed_ron", "錯和", "an open-riichi player lets a winning discard go by",
         _ruling("7.1.1", "立直後、他家によって栄牌が打たれるに際して栄和しないことも(発覚すれば)錯和となる"), True),
    Kind("wrong_pon", "誤碰", "a pon called that cannot be made", _ruling("3", "誤碰、誤吃は、千点を供託に提出する"), False),
    Kind("wrong_chi", "誤吃", "「吃」 called (there is no chi)",
         _ruling("3.1", "吃が出来ないにも拘わらず「吃」と発声すること"), False),
)}


def _kind_of(event: Event) -> tuple[Kind, list[str]]:
    args = event.args
    word = getattr(args[0], "text", None) if args else None
    if word is None or word not in KINDS:
        names = ", ".join(KINDS)
        raise Violation("L306", f"'foul' names its kind first: 'foul false_win ron 5p' (kinds: {names})",
                        _ruling("1", "錯和が起こったときには"), arg=0 if args else None)
    words = [getattr(a, "text", None) or " ".join(getattr(a, "cards", []) or []) for a in args[1:]]
    return KINDS[word], words


def chombo_of(state: MahjongState) -> tuple[str, Kind] | None:
    """The 錯和 that ended this hand, if any: (offender, kind)."""
    return getattr(state, "chombo", None)


def fines_of(state: MahjongState) -> list[tuple[str, Kind]]:
    return list(getattr(state, "fines", None) or [])


def accepts(state: MahjongState, event: Event) -> bool:
    """A 錯和 found when the hand is over (ノー聴立直 at the draw's showing of hands)."""
    return event.verb == "foul" and event.seat is not None and chombo_of(state) is None and not state.wins


def irregularity(engine, state: MahjongState, event: Event) -> None:
    """Apply ``A: foul KIND ...``: a 錯和 ends the hand for its replay; a 誤碰/誤吃 is fined."""
    seat = event.seat
    assert seat is not None
    kind_, _ = _kind_of(event)
    problem = _check(engine, state, seat, kind_)
    if problem:
        raise Violation("L301", problem, kind_.rule, arg=0)
    if not kind_.chombo:
        state.fines = fines_of(state) + [(seat, kind_)]  # type: ignore[attr-defined]
        return
    if engine.hand_over(state) and not (kind_.name == "noten_riichi" and not state.wins):
        raise Violation("L308", "the hand is already over", kind_.rule)
    state.chombo = (seat, kind_)  # type: ignore[attr-defined]
    state.over = True  # the hand's own state stays for the viewer; the settlement ignores it


def _check(engine, state: MahjongState, seat: str, kind_: Kind) -> str | None:
    """What the record itself shows against the foul it writes (the rest is the players' word)."""
    play = state.play  # type: ignore[attr-defined]
    if kind_.name == "extra_tile" and seat != state.dealer:
        return f"only the dealer can see a fifteenth tile at the deal; {seat} is not the dealer"
    if kind_.name == "noten_riichi":
        if seat not in play.riichi:
            return f"{seat} has not declared riichi"
        if state.wins or not engine.hand_over(state):
            return "ノー聴立直 is found when the hands are shown at an exhaustive draw"
        if state.hand_known(seat) and engine.is_tenpai(state, seat) and not engine._riichi_short(state, seat, play.riichi[seat]):
            return f"{seat}'s riichi hand is ready with two han from yaku on every wait: no ノー聴立直"
    if kind_.name == "missed_ron":
        r = play.riichi.get(seat)
        if r is None or not r.open:
            return f"{seat} is not in open riichi"
    if kind_.name == "missed_ron" and state.discard is not None and state.hand_known(seat):
        tile = state.discard
        if tile != UNSEEN:
            counts = state.concealed_counts(seat)
            if not any(engine.is_winning(state, seat, [n + (j == k) for j, n in enumerate(counts)])
                       for k in aka5m.reading_kinds(state, seat, tile)):  # 赤五萬 6: each reading of a red 5m
                return f"{tile} does not complete {seat}'s hand: no winning discard was let go by"
    if engine.hand_over(state) and kind_.name != "noten_riichi":
        return None if kind_.chombo else "the hand is over: a fine is paid during play"
    return None


def settle_chombo(state: MahjongState, totals: dict[str, int]) -> Settlement:
    """裁定 1: time back to the hand's start (no stick, no fine, no hand payment), then the
    offender's 満貫払い to each other seat, his right-hand neighbour first (rule 17); a bust by
    it gives the pot to the seat then holding the most points (裁定 2)."""
    from .match import busts_in

    chombo = chombo_of(state)
    assert chombo is not None
    seat, kind_ = chombo
    out = Settlement({s: 0 for s in state.seats})
    each = MANGAN_EACH_DEALER if seat == state.dealer else MANGAN_EACH
    out.items.append(ScoreItem(seat, kind_.english, -each * (len(state.seats) - 1), kind_.term,
                               f"錯和: the hand goes back to its start and is played again; {seat} pays a mangan, "
                               f"{each} to each ({kind_.rule})"))
    for other in state.order_from(seat):
        out.payments.append(Payment(seat, other, each, "満貫払い (錯和)"))
        out.deltas[seat] -= each
        out.deltas[other] += each
    pot = state.play.pot  # type: ignore[attr-defined]
    if pot and busts_in(totals, out.payments):
        after = {s: totals[s] + out.deltas[s] for s in state.seats}
        order = [state.dealer] + state.order_from(state.dealer)
        leader = max(state.seats, key=lambda s: (after[s], -order.index(s)))
        out.payments.append(Payment(POT, leader, pot, "供託"))
        out.deltas[leader] += pot
        out.items.append(ScoreItem(leader, "pot", pot, "供託",
                                   "a 錯和 busted a seat: the pot goes to the seat with the most points (裁定 2)"))
        state.pot_taken = True  # type: ignore[attr-defined]
    return out


def settle_fines(state: MahjongState, out: Settlement) -> int:
    """誤碰・誤吃 (裁定 3): 1000 each into the pot; returns the points put in."""
    paid = 0
    for seat, kind_ in fines_of(state):
        out.items.append(ScoreItem(seat, kind_.english, -FINE, kind_.term, f"{FINE} into the pot ({kind_.rule})"))
        out.payments.append(Payment(seat, POT, FINE, kind_.term))
        out.deltas[seat] -= FINE
        paid += FINE
    return paid


def end_hand(match, state: MahjongState, settlement: Settlement) -> bool:
    """After a 錯和 the hand is played again: dealer, round and honba stay; the pot stays
    unless a bust gave it away (裁定 2). False when the hand had no 錯和."""
    if chombo_of(state) is None:
        return False
    if getattr(state, "pot_taken", False):
        match.pot = 0
    return True
