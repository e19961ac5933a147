"""三人麻雀 Sanma: three-player riichi mahjong by 「三人麻雀」のルール ver. 1.3.

The play on the mahjong core (:mod:`replay.mahjong`): 108 tiles (2m–8m removed, one red
5p and one red 5s, rule 1 and 3), seat winds East South West (rule 4), a fixed dead wall
of 18 tiles with eight replacement tiles (rule 2, ``wall.py``), no chi (rule 19), North
extraction (抜きドラ, rule 22: ``A: nuki 4z``) with a replacement draw, riichi (``A: riichi
5p``: the discard that declares it; ``A: riichi open 5p``: オープン立直, rule 21; ``A: riichi
open`` afterwards turns a normal riichi open until the next discard, 裁定 8.1), furiten,
robbing a kong or an extracted North (rules 23/24), double ron (rule 14) and the
two-han-from-yaku minimum (rule 18). The hand's value comes from the scorer
(``yaku.py``, ``fu.py``, ``points.py``) through a :class:`~replay.sanma.hand.WinContext`.
Defaults where the rule text is silent: RULINGS §sanma and docs/rulings.md §sanma.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cache
from typing import Sequence

from paifu.notation.model import CardsArg, Event, OptionArg, WordArg

from .. import tiles as T
from ...engine import POT, HandHeader, Match, Payment, Rules, ScoreItem, Settlement, TableView, Violation, WholeNumber, Zone
from ..core import (
    UNSEEN,
    MahjongEngine,
    MahjongState,
    Meld,
    MissedWinRule,
    Move,
    Seen,
    Win,
    best_discard,
    choose_kong,
    kind,
)
from . import aim as aiming
from . import aka5m, fouls
from . import match as half_game
from . import tenhou as TH
from . import wall as W
from .hand import Payment as HandPayment
from .hand import Scored, WinContext
from .play import Riichi, SanmaPlay, waits_of
from .points import SCORING_OPTIONS, minimum_shortfall, payments, ready_shortfall, rob_allowed, score, scoring_rules
from .yaku import is_unconnected, table_rows

TITLE = "「三人麻雀」のルール ver. 1.3"
RULING = "docs/rulings.md §sanma play"
LAST_DISCARD_RULE = f"{RULING} (the end of the wall: no kong on the last discard, only a win)"
START_POINTS = 30000  # 配給原点は三万点 (rule 9)
RIICHI_STICK = 1000
NORTH = "4z"
RED_TWIN = {"5p": "0p", "0p": "5p", "5s": "0s", "0s": "5s"}


def rule(n: str, words: str = "") -> str:
    """A citation of a numbered basic rule, with the rule's own words where they help."""
    return f"{TITLE} §基本ルール {n}" + (f" ({words})" if words else "")


def dead_wall_rule(state: MahjongState) -> str:
    """The rule a kong or a North extraction without a replacement tile breaks."""
    if TH.is_tenhou(state.match.rules):
        return TH.DEAD_WALL_RULE
    return rule("2", "嶺上牌として八枚を確保する")


def ruling(n: str, words: str = "") -> str:
    """A citation of the rule text's own rulings section (上のルールに関する裁定)."""
    return f"{TITLE} §上のルールに関する裁定 {n}" + (f" ({words})" if words else "")


ROUND_LETTERS = "ESW"  # round= on a hand line: East, South; West under rules=tenhou only
ROUND_NAMES = ("East", "South", "West")


def round_letters(rules: Rules) -> str:
    """The rounds a half-game plays: 東南戦 (rule 6); Tenhou's enters the West round (西入)
    when nobody has reached 40000 after the South (its own end, which paifu does not check)."""
    return ROUND_LETTERS if TH.is_tenhou(rules) else ROUND_LETTERS[:2]


def round_problem(letter: str, rules: Rules) -> str | None:
    """Why ``round=letter`` is no round of this half-game, or None."""
    letters = round_letters(rules)
    if letter in letters:
        return None
    return f"round={letter}: the round is {' or '.join(letters)} ({'東南戦, 西入' if len(letters) == 3 else '東南戦'})"


OPTIONS = (
    # 0 up to the live wall's 58 draws (the 赤五萬 option's; 51 without it)
    WholeNumber("riichi_draws", "1", (), "live-wall draws that must be left to declare riichi "
                "(docs/rulings.md §sanma play: 'a live draw left'): 0 to 58", RULING, most=58,
                what="a whole number of draws from 0 to 58"),
    *SCORING_OPTIONS,
    *half_game.OPTIONS,  # the half-game's prizes (match.py)
    *aka5m.OPTIONS,  # the 赤五萬 option (aka5m.py)
    *TH.OPTIONS,  # rules=tenhou and the logs' red-five flags (tenhou.py)
)


@dataclass
class SanmaMatch(Match):
    """What carries across hands: points (from 30,000), 積み棒, the riichi sticks in the pot,
    the round (東場/南場) and how many times the deal has passed on."""

    honba: int = 0
    pot: int = 0
    round_wind: int = 0
    passes: int = 0
    prizes: list[tuple[str, str, int, str]] | None = None  # (payee, payer, points of the final settlement, why)


FURITEN = MissedWinRule(f"{RULING} (furiten: temporary, riichi)", ends_at_own_draw=True)


@cache
def _tile_set_108(reds: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The 108 tiles in canonical order, sorted once (every hand starts from them)."""
    return tuple(T.tile_set("108") if reds is None else T.tile_set("108", reds=reds))


def seat_wind(state: MahjongState, seat: str) -> int:
    """0 East (the dealer), 1 South (his right), 2 West (rule 4)."""
    return (state.seats.index(seat) - state.seats.index(state.dealer)) % len(state.seats)


def _play(state: MahjongState) -> SanmaPlay:
    return state.play  # type: ignore[attr-defined]


def _wall(state: MahjongState) -> W.SanmaWall:
    return state.wall  # type: ignore[return-value]  # every sanma hand's wall (start_hand)


class Sanma(MahjongEngine):
    id = "sanma"
    title = "三人麻雀 Sanma"
    seat_counts = (3,)
    options = OPTIONS
    source = TITLE
    # the seats pay each other; riichi sticks and fines go into the pot (供託), which the first
    # winner takes: a hand's scores add up to what the pot gives less what it takes
    zero_sum = True
    zero_sum_rule = f"{TITLE} 14.1: 「供託の点数は、栄和した競技者の一人目が受け取る」; 裁定 3: 「誤碰、誤吃は、千点を供託に提出する」"
    seed_rule = TITLE
    setup_verbs = frozenset({"deal", "wall", "dice", "dora"})
    dealer_rule = rule("7", "東場は、親は聴牌連荘であり、南場は、親はノー聴連荘である")
    no_chi_rule = rule("19", "吃は出来ない。「吃」を発声した場合、誤吃となる")
    shape_words = "four sets and a pair, seven pairs or thirteen orphans"
    multi_ron_option = "multi_ron"
    selfplay_hands = 40  # a cap: selfplay plays whole half-games (match_over)

    def rule_tables(self) -> list[tuple[str, tuple[str, ...], list[tuple[str, ...]]]]:
        return [(f"{TITLE} §認められる役 (han closed / open; 無: not a yaku)", ("yaku", "name", "closed", "open"),
                 [tuple(row) for row in table_rows()])]

    # -- match ------------------------------------------------------------------------
    def start_match(self, rules: Rules, seats: list[str]) -> Match:
        start = TH.START_POINTS if TH.is_tenhou(rules) else START_POINTS  # rules=tenhou: 35,000
        return SanmaMatch(rules=rules, seats=seats, totals={s: start for s in seats}, prizes=[])

    def tile_set(self, rules) -> list[str]:
        if aka5m.on(rules):  # 赤五萬 1, 2 (aka5m.py)
            return aka5m.tile_set()
        if TH.is_tenhou(rules):  # rules=tenhou: the red fives of the log's aka flags
            return list(_tile_set_108(tuple(TH.reds(rules))))
        return list(_tile_set_108())

    def tile_identity(self, rules) -> dict[str, str]:
        """A red 5p/5s is its plain five for every claim and kong; under 赤五萬 (4) the red 5m
        is a North (aka5m.py)."""
        return {"0p": "5p", "0s": "5s", aka5m.RED_5M: NORTH if aka5m.on(rules) else "5m"}

    def dead_wall(self, rules) -> tuple[int, bool]:
        if aka5m.on(rules):  # 赤五萬 3, 3.1: the dead wall is the indicator and beyond (aka5m.py)
            return aka5m.DEAD, False
        return W.DEAD, False

    def hand_line_extra(self, match: Match, header: HandHeader) -> list:
        assert isinstance(match, SanmaMatch)
        out: list = []
        if match.round_wind:
            out.append(OptionArg(key="round", value=ROUND_LETTERS[match.round_wind]))
        if match.honba:
            out.append(OptionArg(key="honba", value=str(match.honba)))
        if match.pot:
            out.append(OptionArg(key="pot", value=str(match.pot)))
        return out

    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> MahjongState:
        assert isinstance(match, SanmaMatch)
        try:
            state = super().start_hand(match, header, setup)
        except Violation as v:
            if v.event is None and setup and not v.at_hand:
                v.event = setup[0]
            raise
        state.wall = W.of_core(state.wall)
        if TH.is_tenhou(match.rules):  # rules=tenhou: a 14-tile dead wall, replenished from the live wall
            state.wall.dead, state.wall.replenish = TH.DEAD_WALL, True
        play = SanmaPlay(honba=match.honba, pot=match.pot, round_wind=match.round_wind)
        first = match.hands_played == 0
        for key, carried in (("honba", match.honba), ("pot", match.pot)):
            value = header.attrs.get(key)
            if value is None:
                continue
            if not (value.isascii() and value.isdigit()) or len(value) > 6:
                raise Violation("L306", f"{key}={value[:40]}: a whole number (at most six digits) is expected", RULING)
            if key == "pot" and int(value) % RIICHI_STICK:
                raise Violation("L306", f"pot={value}: the pot holds 1000-point sticks (riichi sticks, 裁定 3's fines)",
                                ruling("3"))
            if not first and int(value) != carried:
                raise Violation("L301", f"this hand has {key}={carried} (carried from the hands before), not {value}",
                                rule("12") if key == "honba" else rule("14.1"))
            setattr(play, key, int(value))
        round_attr = header.attrs.get("round")
        if round_attr is not None:
            problem = round_problem(round_attr, match.rules)
            if problem:
                raise Violation("L306", problem, rule("6"))
            value = ROUND_LETTERS.index(round_attr)
            if not first and value != match.round_wind:
                raise Violation("L301", f"this hand is in the {ROUND_NAMES[match.round_wind]} round, not round={round_attr}",
                                rule("6"))
            play.round_wind = value
        if first:
            match.honba, match.pot, match.round_wind = play.honba, play.pot, play.round_wind
            half_game.begin(match, header, state.dealer)  # the first dealer, the deal's passes so far (match.py)
        for s in state.seats:
            play.river[s] = []
            play.nuki[s] = []
        play.meld_reds = {s: 0 for s in state.seats}
        play.indicators.append(state.wall.indicator(0))
        state.play = play  # type: ignore[attr-defined]
        for ev in setup:
            if ev.verb == "dora":
                try:
                    self._name_indicators(state, self._indicator_args(ev))
                except Violation as v:
                    v.event = ev
                    raise
        return state

    def expected_dealer(self, match: Match) -> str | None:
        return match.dealer

    def has_end(self, match: Match) -> bool:
        """The half-game (東南戦) ends after the South round, or with a bust (rules 6, 15)."""
        return True

    def start_sum(self, match: Match, header: HandHeader) -> int | None:
        """The points always add up to 30,000 each less the riichi sticks in the pot (rule 9;
        the first hand line's ``pot=``): a pot comes from the players' points."""
        pot = header.attrs.get("pot", "0")
        start = sum(self.start_match(match.rules, match.seats).totals.values())
        return start - int(pot) if pot.isdigit() else None

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A record that starts mid-game: the points (Start), with the first hand line's round,
        kyoku, honba and pot (read by :meth:`start_hand`). A seat below zero has busted, and
        the half-game ended with it (rule 15): no hand starts there."""
        below = [s for s in match.seats if totals.get(s, 0) < 0]
        if below:
            return (f"{' '.join(below)} {'is' if len(below) == 1 else 'are'} below zero: the half-game ended with the bust "
                    f"({rule('15', '持ち点が零を下回った場合、飛びになって半荘が終了する')})")
        return super().start_from(match, header, totals)

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the next hand's dealer, honba, pot and
        round as its hand line writes them (paifu writes honba=, pot= and round=S whenever they
        are not 0, 0 and East: absent, they are read so), the deal's passes from its dealer and
        round (rule 6), as a record that starts mid-game gives them (match.py ``begin``)."""
        assert isinstance(match, SanmaMatch)
        seats = match.seats
        first = getattr(match, "first_dealer", None)
        if header.dealer is None or header.dealer not in seats:
            return "its dealer follows from how the hand before ended, and its hand line writes none (dealer=...)"
        if first is None:  # the first hand broke before it was set up: its line says who dealt first
            letter = broken.attrs.get("round", "E")
            problem = round_problem(letter, match.rules)
            if problem:
                return f"the first hand's {problem}: the first dealer (起家) is not known"
            match.round_wind = ROUND_LETTERS.index(letter)
            try:
                half_game.begin(match, broken, broken.dealer or seats[0])
            except Violation as v:
                return f"the first dealer (起家) is not known: {v.message}"
            first = match.first_dealer
        values = {key: header.attrs.get(key, "0") for key in ("honba", "pot")}
        if not all(v.isdigit() for v in values.values()):
            return "its hand line's honba= and pot= are not whole numbers"
        round_attr = header.attrs.get("round", "E")
        problem = round_problem(round_attr, match.rules)
        if problem:
            return problem
        wind = ROUND_LETTERS.index(round_attr)
        passes = wind * len(seats) + (seats.index(header.dealer) - seats.index(first)) % len(seats)
        if passes < match.passes:
            return f"dealer={header.dealer} round={round_attr} would take the deal back (rule 6)"
        match.honba, match.pot, match.round_wind, match.passes = int(values["honba"]), int(values["pot"]), wind, passes
        return self.resume_carried(match, broken, header, totals)  # the dealer named above, the totals

    # -- reading ------------------------------------------------------------------------
    def read_action(self, state: MahjongState, event: Event) -> Move:
        verb = event.verb
        if verb == "abort" and event.seat is not None and event.seat in state.seats:
            return self._read_abort(state, event)  # rules=tenhou: 九種九牌
        if event.seat is not None and event.seat in state.seats and verb in ("riichi", "nuki"):
            seat = event.seat
            if verb == "nuki":
                if len(event.args) != 1 or not isinstance(event.args[0], CardsArg) or len(event.args[0].cards) != 1:
                    raise Violation("L306", "'nuki' names the North it extracts: 'nuki 4z'", rule("22"), arg=0 if event.args else None)
                tile = event.args[0].cards[0]
                if tile == aka5m.RED_5M and aka5m.on(state.match.rules):  # 赤五萬 5: extracted as a North
                    return Move(seat, "nuki", tile)
                if tile == UNSEEN:  # an extracted North is set face up among the melds (22.1): it is seen
                    raise Violation("L305", "an unseen tile '*' cannot be named in 'nuki': the North set aside is seen; "
                                    "name it (4z)", rule("22"), arg=0)
                if tile != NORTH:
                    raise Violation("L301", f"only a North (4z) is extracted, not {tile}", rule("22", "北は抜きドラである"), arg=0)
                return Move(seat, "nuki", NORTH)
            args = list(event.args)
            how = None
            if args and isinstance(args[0], WordArg):
                if args[0].text != "open":
                    raise Violation("L306", f"a riichi is 'riichi 5p' or 'riichi open 5p', not 'riichi {args[0].text}'", rule("21"), arg=0)
                how = "open"
                args = args[1:]
            if not args:
                if how != "open":
                    raise Violation("L306", "'riichi' names the tile discarded with it: 'riichi 5p'", rule("21"))
                return Move(seat, "riichi", None, "open")
            at = len(event.args) - len(args)
            if len(args) != 1 or not isinstance(args[0], CardsArg) or len(args[0].cards) != 1 or args[0].cards[0] == UNSEEN:
                raise Violation("L306", "'riichi' takes the one tile discarded with it: 'riichi 5p'", rule("21"), arg=at)
            tile = args[0].cards[0]
            self._check_in_set(state, tile, at)
            return Move(seat, "riichi", tile, how)
        if event.seat is not None and verb == "win" and any(isinstance(a, OptionArg) for a in event.args):
            return aka5m.read_win_reading(self, state, event, lambda ev: super(Sanma, self).read_action(state, ev))
        return super().read_action(state, event)

    def read_extra(self, state: MahjongState, event: Event) -> Move | None:
        if event.verb not in ("dora", "ura"):
            return None
        return Move(None, event.verb, None, None, tuple(self._indicator_args(event)))

    def _indicator_args(self, event: Event) -> list[str]:
        codes: list[str] = []
        for i, arg in enumerate(event.args):
            if not isinstance(arg, CardsArg):
                raise Violation("L305", f"'{event.verb}' names indicator tiles: '{event.verb} 5p'", RULING, arg=i)
            codes.extend(arg.cards)
        if not codes or UNSEEN in codes:
            raise Violation("L306", f"'{event.verb}' names the indicator tiles shown: '{event.verb} 5p'", RULING, arg=0 if event.args else None)
        return codes

    def accepts_after_end(self, state: MahjongState, event: Event) -> bool:
        if fouls.accepts(state, event):  # ノー聴立直 found at the draw (fouls.py)
            return True
        if event.seat is not None:  # a win (or pass) by a seat the replay did not wait for (the core)
            return super().accepts_after_end(state, event)
        play = _play(state)
        if event.verb == "ura":
            return any(w.seat in play.riichi for w in state.wins) and play.ura is None
        if event.verb == "dora":
            return play.named < len(play.indicators)
        return False

    # -- red fives: a 5 and its red twin are the same tile for every claim (the core's
    # tile_identity); the tiles a pon or kong took are noted for the red fives in melds --------
    def _take(self, state: MahjongState, seat: str, tile: str, arg: int | None = 0) -> None:
        taken = getattr(state, "taken", None)
        if taken is not None:
            taken.append(tile)
        super()._take(state, seat, tile, arg)

    def claim_kind(self, state: MahjongState, seat: str, tile: str) -> int:
        """赤五萬 6: a discarded red 5m is what ``seat`` reads it as (aka5m.py)."""
        return aka5m.claim_kind(state, seat, tile)

    def could_win_on(self, state: MahjongState, seat: str, tile: str, how: str) -> Win | None:
        """赤五萬 6 (i): a seat tenpai on 5p or 5s may win on a discarded red 5m read as any of
        North, 5p and 5s: the first reading that wins."""
        readings = aka5m.readings_to_try(self, state, seat, tile, how)
        if readings is None:
            return super().could_win_on(state, seat, tile, how)
        play = _play(state)
        keep = play.reading.pop(seat, None)
        try:
            for r in readings:
                play.reading[seat] = r
                win = super().could_win_on(state, seat, tile, how)
                if win is not None:
                    return win
            return None
        finally:
            play.reading.pop(seat, None)
            if keep is not None:
                play.reading[seat] = keep

    # -- applying -----------------------------------------------------------------------
    def apply(self, state: MahjongState, move: Move) -> None:
        play = _play(state)
        verb = move.verb
        if move.seat is None:
            if verb == "dora":
                self._name_indicators(state, list(move.tiles))
                return
            if verb == "ura":
                self._apply_ura(state, list(move.tiles))
                return
            return super().apply(state, move)
        if verb == "abort":
            self._apply_abort(state, move)
            return
        if verb == "riichi":
            self._apply_riichi(state, move)
            return
        if verb == "nuki":
            self._apply_nuki(state, move)
            return
        phase = state.phase
        if verb in ("pon", "kong"):
            play.added_tile = move.tile  # type: ignore[attr-defined]  # the tile as written: a robbed added red five stays red
            state.taken = []  # type: ignore[attr-defined]
            try:
                super().apply(state, move)
                reds = sum(1 for t in state.taken if aka5m.red_dora(t))  # type: ignore[attr-defined]
            finally:
                del state.taken  # type: ignore[attr-defined]
            if phase == "claim" and move.tile and aka5m.red_dora(move.tile):
                reds += 1
            play.meld_reds[move.seat] += reds  # type: ignore[index]
            if phase == "claim":  # a pon or direct kong: a call
                self._call_made(state)
            self._establish(state)
            if phase == "act" and state.phase == "replace" and move.tile is not None:
                self._open_rob(state, move.seat, "rob_closed", move.tile)
            elif phase == "act" and state.phase == "rob":
                play.rob_kind = "rob_added"
            return
        if verb == "draw" and phase == "rob" and state.pending_kong is not None and (
                state.pending_kong.kind == "pon" or (state.pending_kong.kind == "nuki" and TH.is_tenhou(state.match.rules))):
            # the added kong stands: it breaks ippatsu and the first go-round; under rules=tenhou an
            # extracted North does too (Tenhou: 北抜きは鳴きと同じ扱い), where the rule text's rule 27 says it does not
            self._call_made(state)
        super().apply(state, move)
        if verb == "discard":
            self._after_discard(state, move.seat, move.tile)  # type: ignore[arg-type]
        elif verb == "draw":
            self._establish(state)
            play.rob_kind = ""
            if getattr(play, "due_closed", False):  # rules=tenhou: a closed kong's indicator, now that nobody robbed it
                play.due_closed = False  # type: ignore[attr-defined]
                while play.due_open:
                    play.due_open -= 1
                    self._reveal(state)
                self._reveal(state)

    def _call_made(self, state: MahjongState) -> None:
        play = _play(state)
        play.called = True
        for r in play.riichi.values():
            r.ippatsu = False

    def _establish(self, state: MahjongState) -> None:
        """A riichi discard that passed unclaimed by a win: the riichi stands, its stick is in the pot."""
        for r in _play(state).riichi.values():
            r.established = True

    def _after_discard(self, state: MahjongState, seat: str, tile: str, riichi: bool = False) -> None:
        play = _play(state)
        play.river[seat].append(tile)
        play.replacement_discard = state.from_replacement
        play.last_discard = state.wall.live == 0
        r = play.riichi.get(seat)
        if r is not None and not riichi:
            r.ippatsu = False  # his own next discard ends ippatsu
        play.discarded.add(seat)
        while play.due_open:
            play.due_open -= 1
            self._reveal(state)
        state.convertible = None  # type: ignore[attr-defined]

    def check_discard(self, state: MahjongState, seat: str, tile: str) -> None:
        r = _play(state).riichi.get(seat)
        if r is not None and state.drawn not in (None, UNSEEN) and tile != state.drawn:
            raise Violation("L301", f"{seat} is in riichi: the tile drawn ({state.drawn}) is discarded unless it wins or is extracted or konged",
                            ruling("8", "立直は取り消すことが出来ない"))

    # -- riichi -------------------------------------------------------------------------
    def _riichi_problem(self, state: MahjongState, seat: str, tile: str, open_: bool) -> str | None:
        play = _play(state)
        if open_ and TH.is_tenhou(state.match.rules):
            return "Tenhou's three-player game has no open riichi (オープン立直, the rule text's rule 21): rules=tenhou"
        if seat in play.riichi:
            return f"{seat} is already in riichi"
        if any(m.kind != "kong_concealed" for m in state.melds[seat]):
            return f"{seat}'s hand is open (a pon or open kong): riichi needs a closed hand"
        match = state.match
        if match.totals.get(seat, 0) < RIICHI_STICK:
            return f"{seat} has {match.totals.get(seat, 0)} points: riichi needs at least {RIICHI_STICK} for the stick"
        need = state.match.rules.int("riichi_draws") or 0
        if state.wall.live < need:
            return f"the live wall has {state.wall.live} tile(s) left: riichi needs a draw left after it"
        if open_ and state.hand_known(seat) and self._holds(state, seat, tile, 1):
            counts = state.concealed_counts(seat)
            counts[state.kind_of(tile)] -= 1
            waits = waits_of(counts, len(state.melds[seat]))
            if self._furiten(state, seat, waits, tile):
                return (f"{seat} is furiten ({self._furiten(state, seat, waits, tile)}): an open riichi while furiten is 錯和 "
                        f"(振聴してのオープン立直は錯和である)")
        return None

    def _apply_riichi(self, state: MahjongState, move: Move) -> None:
        seat = move.seat
        assert seat is not None
        play = _play(state)
        if move.tile is None:  # ノーマル立直 → オープン立直 (裁定 8.1)
            r = play.riichi.get(seat)
            if TH.is_tenhou(state.match.rules):
                raise Violation("L301", "Tenhou's three-player game has no open riichi (オープン立直): rules=tenhou", TH.SOURCE)
            if r is None or r.open:
                raise Violation("L301", f"{seat} has no normal riichi to make open", ruling("8.1"))
            if getattr(state, "convertible", None) != seat:
                raise Violation("L301", f"{seat}'s riichi can be made open only until the next discard after it",
                                ruling("8.1", "その直後の競技者による打牌までは、ノーマル立直からオープン立直への変更に限り、これを行ってよい"))
            if state.hand_known(seat):
                waits = waits_of(state.concealed_counts(seat), len(state.melds[seat]))
                why = self._furiten(state, seat, waits)
                if why:
                    raise Violation("L301", f"{seat} is furiten ({why}): an open riichi while furiten is 錯和", ruling("7", "振聴してのオープン立直は錯和である"))
            r.open = True
            r.converted = True
            return
        self._require_act(state, move)
        why = self._riichi_problem(state, seat, move.tile, move.how == "open")
        if why:
            raise Violation("L301", why, ruling("7") if "furiten" in why else TH.SOURCE if "rules=tenhou" in why else RULING)
        double = seat not in play.discarded and not play.called
        self._apply_discard(state, Move(seat, "discard", move.tile))
        play.riichi[seat] = Riichi(open=move.how == "open", double=double, tile=move.tile)
        self._after_discard(state, seat, move.tile, riichi=True)
        state.convertible = seat  # type: ignore[attr-defined]

    # -- abortive draws (rules=tenhou) ---------------------------------------------------
    def _read_abort(self, state: MahjongState, event: Event) -> Move:
        if not TH.is_tenhou(state.match.rules):
            raise Violation("L301", "the rule text knows no abortive draw (途中流局); 'abort' needs rules=tenhou", TITLE)
        words = [a.text for a in event.args if isinstance(a, WordArg)]
        if words != ["nine_terminals"] or len(event.args) != 1:
            raise Violation("L306", "an abortive draw is 'abort nine_terminals' (九種九牌)", TH.SOURCE, arg=0 if event.args else None)
        return Move(event.seat, "abort", None, "nine_terminals")

    def _apply_abort(self, state: MahjongState, move: Move) -> None:
        """九種九牌: on one's first draw, no call made yet, nine kinds of terminals and honours."""
        seat = move.seat
        assert seat is not None
        self._require_act(state, move)
        play = _play(state)
        if seat in play.discarded or play.called:
            raise Violation("L301", f"{seat} may declare 九種九牌 only on his first draw, before any call", TH.SOURCE)
        if state.hand_known(seat):
            counts = state.concealed_counts(seat)
            kinds = sum(1 for k in T.ORPHANS if counts[k])
            if kinds < 9:
                raise Violation("L301", f"{seat} holds {kinds} kinds of terminals and honours: 九種九牌 needs nine", TH.SOURCE)
        state.aborted = move.how  # type: ignore[attr-defined]
        state.over = True

    # -- nuki (抜きドラ) -------------------------------------------------------------------
    def _apply_nuki(self, state: MahjongState, move: Move) -> None:
        seat = move.seat
        assert seat is not None
        self._require_act(state, move)
        tile = move.tile or NORTH
        why = W.replacement_problem(_wall(state))
        if why:
            raise Violation("L301", f"no North can be extracted: {why}", dead_wall_rule(state))
        why = self._nuki_problem(state, seat, tile)
        if why:
            raise Violation("L301", why, rule("22.1", "暗樌を行うタイミングで、手牌にある北を「副露牌を置く場所」に置く"))
        self._take(state, seat, tile)
        _play(state).nuki[seat].append(tile)  # 赤五萬 5: an extracted red 5m is a North (and the red 5m)
        state.can_tsumo = False
        self._open_rob(state, seat, "rob_north", tile)

    def _nuki_problem(self, state: MahjongState, seat: str, tile: str = NORTH) -> str | None:
        if state.after_pon:
            return f"{seat} began this turn with a pon: a North is extracted only when a closed kong could be declared"
        why = W.replacement_problem(_wall(state))
        if why:
            return f"no North can be extracted: {why}"
        r = _play(state).riichi.get(seat)
        if r is not None and state.drawn != tile:
            return f"{seat} is in riichi: only the North just drawn may be extracted"
        return None

    def _open_rob(self, state: MahjongState, seat: str, rob_kind: str, tile: str) -> None:
        """A closed kong or an extracted North: the others may rob it with a 15+ han hand
        (rules 23/24) before the replacement draw."""
        play = _play(state)
        meld = Meld("nuki" if rob_kind == "rob_north" else "kong_concealed_rob", tile, None)
        state.pending_kong = meld
        state.pending_kong_seat = seat
        state.discard = None
        state.phase = "rob"
        state.passed = set()
        play.rob_kind = rob_kind

    def _require_act(self, state: MahjongState, move: Move) -> None:
        meld = state.pending_kong
        if state.phase == "rob" and meld is not None and meld.kind in ("nuki", "kong_concealed_rob"):
            what = "extracted North" if meld.kind == "nuki" else "closed kong"
            raise Violation("L302", f"{state.pending_kong_seat} draws the replacement tile for the {what} first, not {move.seat}'s {move.verb}",
                            rule("22.1", "(ii) 嶺山牌を自模する") if meld.kind == "nuki" else TITLE)
        super()._require_act(state, move)

    def _commit_added_kong(self, state: MahjongState) -> None:
        meld = state.pending_kong
        if meld is not None and meld.kind in ("nuki", "kong_concealed_rob"):
            state.pending_kong = None
            state.pending_kong_seat = None
            state.passed = set()
            return
        super()._commit_added_kong(state)

    # -- kongs and the kan dora ---------------------------------------------------------
    def _kong_room(self, state: MahjongState) -> None:
        """A kong needs a replacement tile (wall.py: the eight 嶺上牌; under rules=tenhou also
        a live tile to replenish the dead wall with), and none is made on the last discard (河底)."""
        if state.phase == "claim" and state.wall.live == 0:
            raise Violation("L301", "no kong on the last discard (河底): the live wall is empty", LAST_DISCARD_RULE)
        why = W.replacement_problem(_wall(state))
        if why:
            raise Violation("L301", f"no kong: {why}", dead_wall_rule(state))

    def may_kong(self, state: MahjongState, seat: str, meld_kind: str, tile: str) -> str | None:
        play = _play(state)
        why = aka5m.kong_problem(state, play.kongs)  # 赤五萬 3.2 (aka5m.py)
        if why:
            return why
        if play.kongs >= W.MAX_KONGS:
            return "four kongs have been made: no fifth kong (docs/rulings.md §sanma play: at most 4 kongs)"
        if meld_kind != "kong_direct" and state.after_pon:
            return f"{seat} began this turn with a pon: no kong before the discard"
        if seat in play.riichi:
            # an unseen draw ('draw *') may be the kong's tile: taken on trust, as the hand is unseen
            if meld_kind != "kong_concealed" or state.drawn is None or (
                    state.drawn != UNSEEN and state.kind_of(state.drawn) != state.kind_of(tile)):
                return f"{seat} is in riichi: only a closed kong of the tile just drawn that keeps the wait"
            if state.hand_known(seat):
                counts = state.concealed_counts(seat)
                before = list(counts)
                before[state.kind_of(tile)] -= 1
                after = list(counts)
                after[state.kind_of(tile)] -= 4
                melds = len(state.melds[seat])
                if waits_of(before, melds) != waits_of(after, melds + 1):
                    return f"{seat} is in riichi: a closed kong of {tile} would change the wait"
        return None

    def may_pon(self, state: MahjongState, seat: str, tile: str) -> str | None:
        if seat in _play(state).riichi:
            return f"{seat} is in riichi: no pon"
        return None

    def on_kong(self, state: MahjongState, seat: str, meld: Meld, chain: int) -> None:
        play = _play(state)
        play.kongs += 1
        play.events.append(f"{seat} {meld.kind} {meld.tile}")
        if meld.kind == "kong_concealed" and TH.is_tenhou(state.match.rules):
            play.due_closed = True  # type: ignore[attr-defined]  # rules=tenhou: turned with the replacement draw, after the window to rob it
        elif meld.kind == "kong_concealed":
            while play.due_open:  # an open kong's indicator not yet shown comes first
                play.due_open -= 1
                self._reveal(state)
            self._reveal(state)  # 暗槓: the kan dora at once
        else:
            play.due_open += 1  # 明槓/加槓: after the konger's discard

    def _reveal(self, state: MahjongState) -> None:
        play = _play(state)
        k = len(play.indicators)
        if k < W.INDICATORS:
            play.indicators.append(state.wall.indicator(k))  # type: ignore[attr-defined]

    def _name_indicators(self, state: MahjongState, codes: list[str]) -> None:
        play = _play(state)
        for i, code in enumerate(codes):
            if code != UNSEEN and state.copies[code] == 0:
                raise Violation("L305", f"{code} is not one of this game's tiles", TITLE, arg=0)
            if play.named >= len(play.indicators):
                raise Violation("L301", f"no dora indicator is waiting to be shown here ({len(play.indicators)} shown so far): "
                                f"the first at the start, a kan dora at once on a closed kong, after the discard on an open one",
                                RULING, arg=0)
            known = play.indicators[play.named]
            if known != UNSEEN and known != code:
                raise Violation("L301", f"the wall shows {known} as indicator {play.named + 1}, not {code}", rule("2"), arg=0)
            if known == UNSEEN:
                self._locate(state, code)
                play.indicators[play.named] = code
            play.named += 1

    def _apply_ura(self, state: MahjongState, codes: list[str]) -> None:
        play = _play(state)
        if not any(w.seat in play.riichi for w in state.wins):
            raise Violation("L301", "ura indicators are shown only for a riichi winner", RULING, arg=0)
        if len(codes) != len(play.indicators):
            raise Violation("L301", f"{len(play.indicators)} ura indicator(s) lie beneath the {len(play.indicators)} indicator(s), not {len(codes)}", RULING, arg=0)
        for k, code in enumerate(codes):
            known = state.wall.ura(k)  # type: ignore[attr-defined]
            if known != UNSEEN and known != code:
                raise Violation("L301", f"the wall shows {known} as ura indicator {k + 1}, not {code}", rule("2"), arg=0)
            if known == UNSEEN:
                self._locate(state, code)
        play.ura = list(codes)

    # -- furiten ------------------------------------------------------------------------
    def missed_rule(self, rules) -> MissedWinRule:
        """Temporary furiten (a win let go by, until one's own next draw) and riichi furiten
        (after riichi it lasts the hand): the core's one missed-win mechanism."""
        return FURITEN

    def missed_lasts(self, state: MahjongState, seat: str) -> bool:
        return seat in _play(state).riichi

    def _river_furiten(self, state: MahjongState, seat: str, waits: list[int], also: str | None = None) -> str | None:
        """Permanent furiten: a tile of the wait among the seat's own discards (claimed ones too)."""
        river = {state.kind_of(t) for t in _play(state).river.get(seat, [])}  # 赤五萬 6 (iii): his red 5m is a North
        if also is not None:
            river.add(state.kind_of(also))
        hit = [T.tile_code(k) for k in waits if k in river]
        if hit and NORTH in hit and aka5m.RED_5M in _play(state).river.get(seat, []):
            hit[hit.index(NORTH)] = f"{NORTH} (his red 5m: 赤五萬 6 (iii), a North for its discarder)"
        return f"{', '.join(hit)} among his own discards" if hit else None

    def _furiten(self, state: MahjongState, seat: str, waits: list[int], also: str | None = None) -> str | None:
        """Why ``seat`` with ``waits`` is furiten, of any kind (None when not)."""
        why = self._river_furiten(state, seat, waits, also)
        if why:
            return why
        if seat in state.missed_for_hand:
            return "a win let go by since his riichi"
        if seat in state.missed:
            return "a win let go by since his last draw"
        return None

    def missed_win(self, state: MahjongState, seat: str, win: Win) -> None:
        super().missed_win(state, seat, win)
        r = _play(state).riichi.get(seat)
        if r is not None and r.open and win.how == "ron":
            raise Violation("L301", f"{seat} is in open riichi and lets a winning {win.tile} go by: that is 錯和",
                            ruling("7.1.1", "立直後、他家によって栄牌が打たれるに際して栄和しないことも(発覚すれば)錯和となる"))

    # -- wins -----------------------------------------------------------------------------
    def is_winning(self, state: MahjongState, seat: str, counts: list[int]) -> bool:
        melds = len(state.melds[seat])
        # four sets and a pair, seven pairs or thirteen orphans in one look-up; else 十三不塔
        return T.is_winning_shape(counts, melds) or (melds == 0 and is_unconnected(counts))

    def may_win(self, state: MahjongState, win: Win) -> str | None:
        state.why_rule = RULING + " (furiten, standard riichi)"  # type: ignore[attr-defined]
        if win.how in ("ron", "rob"):
            counts = list(win.concealed)
            counts[self.claim_kind(state, win.seat, win.tile)] -= 1
            why = self._river_furiten(state, win.seat, waits_of(counts, len(win.melds)))
            if why:
                return f"{win.seat} is furiten ({why}): no win on another's tile"
        if not win.known:
            return None
        return self.win_value_problem(state, win)

    def _apply_win(self, state: MahjongState, move: Move) -> None:
        state.why_rule = None  # type: ignore[attr-defined]
        if move.tiles and not aka5m.is_open_red(state, move.tile or ""):
            raise Violation("L301", "only a ron on a discarded red 5m is read as another tile", aka5m.clause("6"))
        keep = dict(_play(state).reading)
        try:
            aka5m.begin_reading(state, move)  # 赤五萬 6: the winner's reading of a discarded red 5m
            self._apply_win_read(state, move)
        except Violation:
            _play(state).reading = keep
            raise

    def _apply_win_read(self, state: MahjongState, move: Move) -> None:
        pending = state.pending_kong
        red_robbed = (state.phase == "rob" and pending is not None and pending.kind == "pon" and move.tile is not None
                      and RED_TWIN.get(pending.tile) == move.tile == getattr(_play(state), "added_tile", None))
        if red_robbed:  # robbing an added kong whose added tile is the red five: the win is on the red five
            move = Move(move.seat, move.verb, pending.tile, move.how, move.tiles)
        try:
            super()._apply_win(state, move)
            if red_robbed:
                state.wins[-1].tile = RED_TWIN[pending.tile]  # type: ignore[union-attr]
        except Violation as v:
            why_rule = getattr(state, "why_rule", None)
            if v.rule == self.seed_rule and why_rule:
                v.rule = why_rule  # the rule of the reason may_win gave
            raise

    def win_value_problem(self, state: MahjongState, win: Win) -> str | None:
        """Rules 18, 23 and 24 (and 十三不塔's first draw) on a complete, known hand."""
        ctx, unknown = self.context(state, win)
        rules = scoring_rules(state.match.rules)
        scored = score(ctx, rules)
        if scored is None:
            return f"{win.seat}'s hand with {win.tile} is not a winning hand ({self.shape_words})"
        state.why_rule = RULING + " (十三不塔)"  # type: ignore[attr-defined]
        plain = (T.is_complete(ctx.concealed, len(ctx.melds)) or T.is_seven_pairs(ctx.concealed)
                 or T.is_thirteen_orphans(ctx.concealed))
        if not plain and not (ctx.is_tsumo and ctx.first_turn):
            return f"{win.seat}'s hand is 十三不塔 at best, which wins only by self-draw on the first draw (docs/rulings.md §sanma play)"
        state.why_rule = rule("18.4" if ctx.honba >= 5 else "18", "役による完全二翻縛り")  # type: ignore[attr-defined]
        short = minimum_shortfall(ctx, rules)
        if short is not None:
            tile, han = short
            need = 3 if ctx.honba >= 5 else 2
            where = "" if tile == win.tile else f" on {tile}, another winning tile of the wait,"
            return (f"{win.seat}'s win{where} has {han} han from yaku; {need} are needed"
                    + (" (five or more honba: 3 han, 18.4)" if need == 3 else "")
                    + ": 誤栄/誤自模 (聴牌形式の如何なる和了牌によっても役による二翻が確定している状況でなければ和了出来ない)")
        state.why_rule = rule("23" if ctx.how == "rob_north" else "24")  # type: ignore[attr-defined]
        if ctx.how in ("rob_closed", "rob_north") and not rob_allowed(scored, rules, ctx.how) and unknown and not rules.tenhou:
            note = f"{win.seat}'s rob needs 15 han; with indicators not shown the dora are not known: taken on trust"
            if note not in state.notes:
                state.notes.append(note)
        elif ctx.how in ("rob_closed", "rob_north") and not rob_allowed(scored, rules, ctx.how):
            what = "an extracted North" if ctx.how == "rob_north" else "a closed kong's tile"
            return (f"{win.seat}'s hand has {scored.han} han: {what} is won on only with a yakuman (15+ han) "
                    f"({'北が抜かれたとき、他家は役満でのみその北で和了できる' if ctx.how == 'rob_north' else '暗樌が行われたとき、他家は役満でのみその牌で和了出来る'})")
        return None

    def context(self, state: MahjongState, win: Win) -> tuple[WinContext, bool]:
        """The scorer's view of a win, and whether some indicator it needs is unknown."""
        play = _play(state)
        seat = win.seat
        r = play.riichi.get(seat)
        how = win.how if win.how != "rob" else (play.rob_kind or "rob_added")
        feeder = win.payer
        feeder_riichi = feeder is None or (feeder in play.riichi and play.riichi[feeder].established)
        unknown = False
        dora = tuple(i for i in play.indicators if i != UNSEEN)
        unknown |= len(dora) < len(play.indicators)
        ura: tuple[str, ...] = ()
        if r is not None:
            if state.wall.tiles is not None:
                ura = tuple(state.wall.ura(k) for k in range(len(play.indicators)))  # type: ignore[attr-defined]
            elif play.ura is not None:
                ura = tuple(play.ura)
            else:
                unknown = True
        reds = sum(n for c, n in state.hands[seat].known.items() if aka5m.red_dora(c))
        reds += play.meld_reds[seat]
        if how != "tsumo" and aka5m.red_dora(win.tile):
            reds += 1
        reds += aka5m.extracted_reds(play.nuki[seat], state.match.rules)  # RULINGS §sanma: a red five too
        win_tile, extra = aka5m.win_reading(state, seat, win.how, win.tile)  # 赤五萬 4–6.1: a red 5m is a North, or read
        if extra:  # 6.1 「通常の翻数に二を増して」: the normal count reads it as a five, and every 5p/5s is red (2)
            reds += 1
        ctx = WinContext(
            concealed=tuple(win.concealed), melds=tuple(win.melds), win_tile=win_tile, how=how, extra_dora=extra,
            seat_wind=seat_wind(state, seat), round_wind=play.round_wind,
            riichi=r.kind if r is not None else "none", ippatsu=r is not None and r.ippatsu,
            first_turn=seat not in play.discarded and not play.called,
            last_tile=(state.wall.live == 0) if how == "tsumo" else (how == "ron" and play.last_discard),
            replacement=how == "tsumo" and state.from_replacement,
            after_replacement_discard=how == "ron" and play.replacement_discard,
            feeder_in_riichi=feeder_riichi, honba=play.honba, nuki=len(play.nuki[seat]),
            dora_indicators=dora, ura_indicators=ura, reds=reds)
        if aka5m.on(state.match.rules):  # 赤五萬 9: the winner reads a red 5m indicator (aka5m.py)
            ctx = aka5m.chosen_indicators(ctx, scoring_rules(state.match.rules))
        return ctx, unknown

    def _make_win(self, state: MahjongState, seat: str, how: str, tile: str, counts: list[int]) -> Win:
        win = super()._make_win(state, seat, how, tile, counts)
        if how == "tsumo":
            win.last_tile = state.wall.live == 0
        return win

    # -- settlement -----------------------------------------------------------------------
    def settle_hand(self, state: MahjongState) -> Settlement:
        play = _play(state)
        if fouls.chombo_of(state) is not None:  # 錯和: time back to the hand's start, 満貫払い (fouls.py)
            return fouls.settle_chombo(state, state.match.totals)
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        for s in state.seats:
            if play.nuki[s]:
                out.items.append(ScoreItem(s, "nuki", 0, "抜きドラ", f"{len(play.nuki[s])} North(s) extracted"))
        for ev in play.events:
            seat, what, tile = ev.split()
            out.items.append(ScoreItem(seat, {"kong_concealed": "closed kong", "kong_direct": "open kong", "kong_added": "added kong"}[what],
                                       0, {"kong_concealed": "暗槓", "kong_direct": "明槓", "kong_added": "加槓"}[what], tile))
        sticks = 0
        for s, r in play.riichi.items():
            if r.established:
                name = {"riichi": "riichi", "double": "double riichi", "open": "open riichi", "double_open": "double open riichi"}[r.kind]
                out.items.append(ScoreItem(s, f"{name} stick", -RIICHI_STICK, "供託", "1000 into the pot"))
                out.payments.append(Payment(s, POT, RIICHI_STICK, "立直棒"))
                deltas[s] -= RIICHI_STICK
                sticks += RIICHI_STICK
        state.new_sticks = sticks + fouls.settle_fines(state, out)  # type: ignore[attr-defined]  # 誤碰/誤吃 (fouls.py)
        if getattr(state, "aborted", None):  # rules=tenhou: 九種九牌, nobody pays, the sticks stay
            out.items.append(ScoreItem(state.dealer, "abortive draw", 0, "九種九牌", "nobody pays; the pot stays"))
        elif state.wins:
            self.settle_wins(state, out)
        else:
            self.settle_draw(state, out)
        if not TH.is_tenhou(state.match.rules):  # rules=tenhou: no 真似満
            self.settle_mane(state, out)
        aka5m.settle_mangan(state, out)  # 赤五萬 8: the extractor who did not win pays a mangan, last of all
        return out

    def settle_mane(self, state: MahjongState, out: Settlement) -> None:
        """真似満 (rule 34): a seat whose first 5, 7, 9, 11, 13... discards are the same as an
        upstream seat's (one discarding before him from the dealer) receives from that seat,
        at the end of the hand, a non-dealer ron of 満貫, 跳満, 倍満, 三倍満, 役満...
        (RULINGS §sanma: 8000 / 12000 / 16000 / 24000 / 32000); no prize."""
        play = _play(state)
        order = [state.dealer] + state.order_from(state.dealer)
        for i, copier in enumerate(order):
            for upstream in order[:i]:
                a, b = play.river[upstream], play.river[copier]
                n = 0
                while n < min(len(a), len(b)) and a[n] == b[n]:
                    n += 1
                amount = mane_amount(n)
                if not amount:
                    continue
                out.items.append(ScoreItem(copier, "copied discards", amount, "真似満",
                                           f"the first {n} discards the same as {upstream}'s: {amount} from {upstream} (rule 34)"))
                out.payments.append(Payment(upstream, copier, amount, "真似満"))
                out.deltas[upstream] -= amount
                out.deltas[copier] += amount

    def settle_wins(self, state: MahjongState, out: Settlement) -> None:
        """Each win scored (rules 11–13, 33), the wins of a double ron in turn from the
        discarder (rule 14.1), the pot to the first of them."""
        play = _play(state)
        rules = scoring_rules(state.match.rules)
        wins = list(state.wins)
        payer = wins[0].payer
        if payer is not None:
            order = state.order_from(payer)
            wins.sort(key=lambda w: order.index(w.seat))
        if len(wins) > 1:
            out.items.append(ScoreItem(payer or wins[0].seat, "double ron", 0, "ダブロン",
                                       f"{' then '.join(w.seat for w in wins)} on {wins[0].tile}, paid in turn from {payer} (rule 14.1)"))
        prizes: list[tuple[str, str, int, str]] = []
        for win in wins:
            if not win.known:  # its value and prize are unknown; the pot's sticks and others' scores are not
                out.unknown.update(state.win_parties(win))
                continue
            ctx, unknown = self.context(state, win)
            if rules.tenhou and win is not wins[0]:  # rules=tenhou: the honba to the first winner only
                ctx = replace(ctx, honba=0)
            if unknown:  # an indicator it needs is not known: this win's value is not
                out.unknown.update(state.win_parties(win))
            scored = score(ctx, rules)
            state.scored = getattr(state, "scored", []) + [(win.seat, scored, ctx)]  # type: ignore[attr-defined]
            if scored is None:  # pragma: no cover - may_win checked the shape
                raise Violation("L301", f"{win.seat}'s hand does not score", TITLE)
            self._score_items(state, win, scored, out)
            double = aka5m.doubles(state, win.seat)  # 赤五萬 8: the extractor's receipts doubled
            if double:
                out.items.append(ScoreItem(win.seat, "red 5m receipts doubled", 2, "赤五萬 (倍)",
                                           f"{win.seat} extracted the red 5m and wins: what each payer pays him is doubled "
                                           f"({aka5m.clause('8', 'その競技者が他の競技者から受け取る最終的な得点を(それぞれ)倍にする')})"))
            due: list[tuple[str, HandPayment]] = []
            for p in scored.payments:
                if p.role == "discarder":
                    payers = [win.payer]
                elif p.role == "dealer":
                    payers = [state.dealer]
                else:
                    payers = [s for s in state.order_from(win.seat) if s != state.dealer]
                due += [(who, p) for who in payers if who is not None]
            # rule 17: the winner settles with his right-hand neighbour first, then the next
            turn = state.order_from(win.seat)
            for who, p in sorted(due, key=lambda d: turn.index(d[0])):
                reason = f"{p.hand}" + (f" + {p.honba} 積み棒" if p.honba else "") + (" × 2 (赤五萬)" if double else "")
                amount = p.total * (2 if double else 1)
                out.payments.append(Payment(who, win.seat, amount, reason))
                out.deltas[who] -= amount
                out.deltas[win.seat] += amount
            if scored.yakuman:
                each = (10 if ctx.is_tsumo else 20) * scored.yakuman
                who = "each other player" if ctx.is_tsumo else "the discarder"
                out.items.append(ScoreItem(win.seat, "yakuman prize", each, "役満祝儀",
                                           f"{each} points from {who}, in the final settlement (not in the running score; rule 32)"))
                for p_ in (state.others(win.seat) if ctx.is_tsumo else [win.payer]):
                    prizes.append((win.seat, p_ or "", each, "役満祝儀"))
        pot = play.pot + getattr(state, "new_sticks", 0)
        if pot:
            first = wins[0].seat
            out.payments.append(Payment(POT, first, pot, "供託"))
            out.deltas[first] += pot
            out.items.append(ScoreItem(first, "riichi sticks", pot, "供託", "the pot to the (first) winner (rule 14.1)"))
        state.prizes = prizes  # type: ignore[attr-defined]

    def check_written(self, state: MahjongState, settlement: Settlement, events: list[Event]) -> list[tuple[Event, str, str]]:
        """rules=tenhou: each win's figures kept from the log (yaku, han, fu, points) against
        the settlement (tenhou.py)."""
        super().check_written(state, settlement, events)  # the score line: no late win after it
        if not TH.is_tenhou(state.match.rules):
            return []
        from .yaku import BY_KEY
        terms = {k: y.term for k, y in BY_KEY.items()}
        scored = {seat: (s, ctx) for seat, s, ctx in getattr(state, "scored", [])}
        out: list[tuple[Event, str, str]] = []
        for ev in events:
            figures = TH.log_figures(ev)
            if ev.verb != "win" or "win" not in figures or ev.seat is None:
                continue
            if ev.seat not in scored:
                out.append((ev, f"the log scores {ev.seat}'s win; the replay has no score for it", TH.SOURCE))
                continue
            s, ctx = scored[ev.seat]
            double = state.match.rules.get("double_yakuman", "no") == "yes"
            out.extend((ev, p, TH.SOURCE) for p in TH.check_win(ev.seat, figures, s, terms, ctx.dealer, ctx.is_tsumo, double))
        return out

    def _score_items(self, state: MahjongState, win: Win, scored: Scored, out: Settlement) -> None:
        seat = win.seat
        for y in scored.yaku:
            out.items.append(ScoreItem(seat, y.name, y.value, y.term, f"{y.value} han"))
            state.log.append(y.term)
        for d in scored.dora:
            out.items.append(ScoreItem(seat, d.name, d.value, d.term, f"{d.value} han (not a yaku)"))
        for f in scored.fu_items:
            out.items.append(ScoreItem(seat, f.name, f.value, f.term, f"{f.value} fu"))
        how = {"tsumo": "tsumo", "ron": f"ron on {win.payer}", "rob_added": f"robbing {win.payer}'s kong",
               "rob_closed": f"robbing {win.payer}'s closed kong", "rob_north": f"robbing {win.payer}'s North"}
        ctx_how = win.how if win.how != "rob" else (_play(state).rob_kind or "rob_added")
        limit = scored.limit or f"{scored.han} han {scored.fu} fu"
        out.items.append(ScoreItem(seat, "hand", scored.base, scored.limit,
                                   f"{how[ctx_how]} {win.tile}: {scored.han} han, {scored.fu} fu → {limit}, base {scored.base}"
                                   + (f" ({scored.reading})" if scored.reading else "")))

    def settle_draw(self, state: MahjongState, out: Settlement) -> None:
        """流局: each noten seat pays each tenpai seat 1000 (RULINGS §sanma), in the order of
        rule 17 (each payer settles with his right-hand neighbour first)."""
        play = _play(state)
        # rules=tenhou: no 流し役満 (Tenhou's 流し満貫 is refused at import)
        state.nagashi = [] if TH.is_tenhou(state.match.rules) else self.settle_nagashi(state, out)  # type: ignore[attr-defined]
        tenpai = {s: self.is_tenpai(state, s) for s in state.seats if state.hand_known(s)}
        state.tenpai = tenpai  # type: ignore[attr-defined]
        if len(tenpai) < len(state.seats):
            if not state.nagashi:  # type: ignore[attr-defined]
                out.unknown.update(state.seats)  # tenpai payments hang on hands not seen
            return
        for s, r in play.riichi.items():
            why = "without a ready hand" if not tenpai[s] else self._riichi_short(state, s, r)
            if why:
                raise Violation("L310", f"{s} declared riichi {why} (ノー聴立直): at the draw that is 錯和, "
                                f"written '{s}: foul noten_riichi' after the last discard (満貫払い, 裁定 1)",
                                rule("18.1", "そのような状況に出来ないような立直は「ノー聴立直」として流局時の聴牌宣言(手牌開示)に於いて錯和になる"))
        out.items.append(ScoreItem(state.dealer, "exhaustive draw", 0, "流局",
                                   "tenpai: " + (", ".join(s for s in state.seats if tenpai[s]) or "nobody")))
        if state.nagashi:  # type: ignore[attr-defined]
            return  # no tenpai payments in a hand a 流し役満 ends (RULINGS §sanma)
        for payer in state.seats:
            if tenpai[payer]:
                continue
            for payee in state.order_from(payer):
                if tenpai[payee]:
                    out.payments.append(Payment(payer, payee, 1000, "ノー聴罰符"))
                    out.deltas[payer] -= 1000
                    out.deltas[payee] += 1000
        for s in state.seats:
            got = sum(p.amount for p in out.payments if p.payee == s and p.reason == "ノー聴罰符") - \
                sum(p.amount for p in out.payments if p.payer == s and p.reason == "ノー聴罰符")
            if got:
                out.items.append(ScoreItem(s, "tenpai" if tenpai[s] else "noten", got, "聴牌" if tenpai[s] else "ノー聴", "1000 per noten→tenpai pair"))

    def nagashi_seats(self, state: MahjongState) -> list[str]:
        """流し役満 (rule 31): every discard of the seat a terminal or honour, none of them
        claimed, no North among them (the seat's own calls do not matter, 31.2)."""
        play = _play(state)
        out = []
        for s in state.seats:
            river = play.river[s]
            if not river or len(state.discards[s]) != len(river):
                continue  # no discard, or one of them was claimed
            if all(state.kind_of(t) in T.ORPHANS for t in river) and not (aka5m.north_spoils_nagashi(state) and any(state.kind_of(t) == kind(NORTH) for t in river)):
                out.append(s)
        return out

    def settle_nagashi(self, state: MahjongState, out: Settlement) -> list[str]:
        """流し役満 (rules 29–31): paid as a self-drawn 役満 (ダブル役満 after a double riichi,
        31.3), without honba (RULINGS §sanma); it is no yaku, so the dealer moves as after any
        draw (rule 30). Its 役満祝儀 (10 from each) belongs to the final settlement."""
        seats = self.nagashi_seats(state)
        play = _play(state)
        rules = scoring_rules(state.match.rules)
        prizes: list[tuple[str, str, int, str]] = getattr(state, "prizes", [])
        for s in seats:
            r = play.riichi.get(s)
            multiple = 2 if r is not None and r.double else 1
            name = "流しダブル役満" if multiple == 2 else "流し役満"
            ctx = WinContext(concealed=tuple([0] * 34), melds=(), win_tile=NORTH, how="tsumo", seat_wind=seat_wind(state, s))
            out.items.append(ScoreItem(s, "nagashi yakuman", 8000 * multiple, name,
                                       f"every discard a terminal or honour, none claimed, no North: paid as a self-drawn "
                                       f"{'double ' if multiple == 2 else ''}yakuman (rule 31)"))
            owed = [(who, p) for p in payments(8000 * multiple, ctx, rules)
                    for who in ([state.dealer] if p.role == "dealer" else [x for x in state.order_from(s) if x != state.dealer])]
            turn = state.order_from(s)
            for who, p in sorted(owed, key=lambda d: turn.index(d[0])):  # rule 17: his right-hand neighbour first
                out.payments.append(Payment(who, s, p.hand, name))
                out.deltas[who] -= p.hand
                out.deltas[s] += p.hand
            for who in state.others(s):
                prizes.append((s, who, 10 * multiple, "役満祝儀 (" + name + ")"))
        state.prizes = prizes  # type: ignore[attr-defined]
        return seats

    def _riichi_short(self, state: MahjongState, seat: str, r: Riichi) -> str | None:
        """Why a ready riichi hand is still ノー聴立直: no wait sure of 2 han from yaku (18.1)."""
        return self._guarantee_short(state, seat, state.concealed_counts(seat), r.kind)

    def _guarantee_short(self, state: MahjongState, seat: str, counts: list[int], riichi_kind: str) -> str | None:
        play = _play(state)
        short = ready_shortfall(counts, state.melds[seat], riichi_kind, seat_wind=seat_wind(state, seat),
                                round_wind=play.round_wind, honba=play.honba, rules=scoring_rules(state.match.rules))
        if short is None:
            return None
        tile, got = short
        if not tile:
            return "without a ready hand"
        return f"with a hand sure of only {got} han from yaku on {tile} ({3 if play.honba >= 5 else 2} needed)"

    def is_tenpai(self, state: MahjongState, seat: str) -> bool:
        """A ready shape (RULINGS §sanma: without 2 han it is still tenpai), not waiting only
        on tiles the seat holds all four of."""
        counts = state.concealed_counts(seat)
        held = list(counts)
        for m in state.melds[seat]:
            held[kind(m.tile)] += 4 if m.is_kong else 3
        held[kind(NORTH)] += len(_play(state).nuki[seat])
        return any(held[k] < 4 for k in waits_of(counts, len(state.melds[seat])))

    def end_hand(self, match: Match, state: MahjongState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        assert isinstance(match, SanmaMatch)
        half_game.record_busts(match, settlement)  # rules 15/16: a bust while the hand is settled (match.py)
        if fouls.end_hand(match, state, settlement):  # 錯和: the same hand is played again (fouls.py)
            return
        play = _play(state)
        sticks = getattr(state, "new_sticks", 0)
        if match.prizes is not None:
            match.prizes.extend(getattr(state, "prizes", []))  # for the final settlement (rule 32)
        winners = {w.seat for w in state.wins}
        dealer_stays: bool
        if winners:
            match.pot = 0
            dealer_stays = state.dealer in winners
            match.honba = play.honba + 1 if dealer_stays else 0
        elif getattr(state, "aborted", None):  # rules=tenhou: an abortive draw, the dealer stays
            match.pot = play.pot + sticks
            match.honba = play.honba + 1
            dealer_stays = True
        else:
            match.pot = play.pot + sticks
            match.honba = play.honba + 1
            tenpai = getattr(state, "tenpai", {})
            if state.dealer not in tenpai and play.round_wind == 0:
                # the dealer's hand is not known: whether he was tenpai (rule 7) is not known either
                match.dealer = None
                match.round_wind = play.round_wind
                return
            dealer_stays = tenpai.get(state.dealer, False)
            if play.round_wind == 1 and not TH.is_tenhou(match.rules):  # rules=tenhou: tenpai in the South too
                dealer_stays = True
        match.round_wind = play.round_wind
        if dealer_stays:
            match.dealer = state.dealer
        else:
            match.dealer = state.next_seat(state.dealer)
            match.passes += 1
            if match.passes % len(state.seats) == 0 and match.round_wind < len(round_letters(match.rules)) - 1:
                match.round_wind += 1  # East to South; under rules=tenhou South to West (西入: Tenhou ends it, not paifu)

    # -- the half-game (match.py) and irregularities (fouls.py) ---------------------------
    def irregularity(self, state: MahjongState, event: Event) -> None:
        fouls.irregularity(self, state, event)

    def match_over(self, match: Match) -> bool:
        return half_game.half_game_over(match)

    def final_settlement(self, match: Match) -> Settlement | None:
        return half_game.final_settlement(match) if half_game.seed_game(match) else None

    # -- actions --------------------------------------------------------------------------
    def _act_actions(self, state: MahjongState, seat: str) -> list[Move]:
        out = super()._act_actions(state, seat)
        if not out:
            return out
        play = _play(state)
        h = state.hands[seat]
        for north in (NORTH, aka5m.RED_5M):  # 赤五萬 5: the red 5m is extracted too
            if h.known[north] and self._nuki_problem(state, seat, north) is None:
                out.insert(0, Move(seat, "nuki", north))
        if seat not in play.riichi:
            for m in [m for m in out if m.verb == "discard"]:
                counts = state.concealed_counts(seat)
                counts[state.kind_of(m.tile)] -= 1  # type: ignore[arg-type]
                if not waits_of(counts, len(state.melds[seat])):
                    continue
                double = seat not in play.discarded and not play.called
                for how in (None, "open"):
                    kind_ = ("double_" if double else "") + ("open" if how else "riichi")
                    if kind_ == "double_riichi":
                        kind_ = "double"
                    # a riichi sure to be ノー聴立直 at a draw (18.1) is an irregularity, not a play offered
                    if self._riichi_problem(state, seat, m.tile, how == "open") is None and \
                            self._guarantee_short(state, seat, counts, kind_) is None:  # type: ignore[arg-type]
                        out.append(Move(seat, "riichi", m.tile, how))
        return out

    def legal_actions(self, state: MahjongState) -> list[Move]:
        """A ron on a discarded red 5m is offered once for each reading that wins (赤五萬 6)."""
        out = super().legal_actions(state)
        if not aka5m.on(state.match.rules):
            return out
        expanded: list[Move] = []
        for m in out:
            readings = aka5m.readings_to_try(self, state, m.seat or "", m.tile or "", m.how or "") if m.verb == "win" else None
            if readings is None:
                expanded.append(m)
                continue
            for r in sorted(readings, key=lambda r: r == "4z"):  # the 5p/5s readings (+2 han) first
                if self._wins_reading(state, m.seat or "", r):
                    expanded.append(Move(m.seat, "win", m.tile, "ron", () if r == NORTH else (r,)))
        return expanded

    def _wins_reading(self, state: MahjongState, seat: str, reading: str) -> bool:
        play = _play(state)
        keep = play.reading.pop(seat, None)
        try:
            play.reading[seat] = reading
            return super().could_win_on(state, seat, aka5m.RED_5M, "ron") is not None
        finally:
            play.reading.pop(seat, None)
            if keep is not None:
                play.reading[seat] = keep

    def unseen_actions(self, state: MahjongState) -> list[Move]:
        """The core's, and for a hand not wholly seen on its turn: 北抜き (nuki) when it could hold
        a North, and a riichi with each discard it could make (an open riichi shows the hand:
        the scribe writes it)."""
        out = super().unseen_actions(state)
        seat = state.turn
        if state.phase == "act" and not state.hand_known(seat) and not self.hand_over(state):
            if self._holds(state, seat, NORTH, 1) and W.replacement_problem(_wall(state)) is None:
                out.append(Move(seat, "nuki", NORTH))
            if seat not in _play(state).riichi:
                out += [Move(seat, "riichi", m.tile) for m in out if m.verb == "discard" and m.seat == seat]
        return out

    def discard_actions(self, state: MahjongState, seat: str) -> list[Move]:
        if seat in _play(state).riichi and state.drawn not in (None, UNSEEN):
            return [Move(seat, "discard", state.drawn)]
        return super().discard_actions(state, seat)

    def event_for(self, state: MahjongState, action: Move) -> Event:
        if action.verb == "riichi":
            args: list = []
            if action.how == "open":
                args.append(WordArg(text="open"))
            if action.tile is not None:
                args.append(CardsArg(cards=[action.tile]))
            return Event(seat=action.seat, verb="riichi", args=args)
        if action.verb in ("dora", "ura"):
            return Event(verb=action.verb, args=[CardsArg(cards=list(action.tiles))])
        if action.verb == "win" and action.tiles:  # 赤五萬 6: 'win ron 0m as=5p'
            return Event(seat=action.seat, verb="win", args=[WordArg(text="ron"), CardsArg(cards=[action.tile or ""]),
                                                              OptionArg(key="as", value=action.tiles[0])])
        return super().event_for(state, action)

    # -- views ----------------------------------------------------------------------------
    def view(self, state: MahjongState, seat: str | None) -> TableView:
        out = super().view(state, seat)
        play = _play(state)
        for sv in out.seats:
            s = sv.seat
            sv.labels = [x for x in sv.labels if x]
            sv.labels.insert(1 if "dealer" in sv.labels else 0, "ESW"[seat_wind(state, s)])
            r = play.riichi.get(s)
            if r is not None:
                sv.labels.append({"riichi": "立直", "double": "ダブル立直", "open": "オープン立直", "double_open": "ダブルオープン立直"}[r.kind])
                if r.open and seat is not None and seat != s:
                    h = state.hands[s]
                    sv.zones[0] = Zone("hand", T.sort_codes(h.cards()), hidden=h.unseen, layout="row")
            if play.nuki[s]:
                sv.zones.insert(2, Zone("nuki", list(play.nuki[s]), layout="row"))
        out.center.insert(1, Zone("dora", list(play.indicators), layout="row"))
        if state.over and any(w.seat in play.riichi for w in state.wins):
            if state.wall.tiles is not None:
                ura = [state.wall.ura(k) for k in range(len(play.indicators))]  # type: ignore[attr-defined]
            else:
                ura = list(play.ura or [])
            if ura:
                out.center.insert(2, Zone("ura", ura, layout="row"))
        out.info["honba"] = str(play.honba)
        out.info["pot"] = str(play.pot + sum(RIICHI_STICK for r in play.riichi.values() if r.established))
        out.info["round"] = "東南西"[play.round_wind]
        return out

    # -- selfplay -------------------------------------------------------------------------
    def choose(self, seen: Seen, legal: list[Move], rng: random.Random) -> Move:
        """Toward a win: win at once, extract every North, riichi (mostly open: two han
        whatever the wait, rule 21) when ready; pon only a dragon with another dragon pair
        in hand (an open hand needs two han from yaku, rule 18); kongs that keep the hand
        as near a win."""
        for m in legal:
            if m.verb == "win":
                return m
        for m in legal:
            # extract every North; the red 5m only half the time (赤五萬 8: its extractor pays a
            # mangan unless he wins), else it is kept as a North or discarded
            if m.verb == "draw" or (m.verb == "nuki" and (m.tile != aka5m.RED_5M or rng.random() < 0.5)):
                return m
        discards = [m for m in legal if m.verb == "discard"]
        if not discards:
            # a claim or rob window: pon a dragon when another dragon pair or pung is held
            # (two 役牌 make rule 18's two han); kong a discard that keeps the hand; else pass
            for m in legal:
                k = seen.kind(m.tile) if m.tile else -1
                if m.verb == "pon" and k in DRAGON_KINDS and any(seen.counts[d] >= 2 for d in DRAGON_KINDS if d != k):
                    after = _minus(seen.counts, k, 2)
                    best = min(self.shanten_of(seen, _minus(after, j), seen.melds + 1) for j in range(34) if after[j])
                    if best <= self.shanten_of(seen, seen.counts, seen.melds):
                        return m
            kong = next((m for m in legal if m.verb == "kong" and seen.counts[seen.kind(m.tile)] == 3 and rng.random() < 0.5), None)  # type: ignore[arg-type]
            if kong is not None and self.shanten_of(seen, _minus(seen.counts, seen.kind(kong.tile), 3), seen.melds + 1) <= self.shanten_of(seen, seen.counts, seen.melds):  # type: ignore[arg-type]
                return kong
            return next((m for m in legal if m.verb == "pass"), legal[0])
        kong = choose_kong(seen, legal, self.shanten_of)
        if kong is not None:
            return kong
        pick = best_discard(seen, discards, self.shanten_of)
        riichis = [m for m in legal if m.verb == "riichi" and m.tile == pick.tile]
        if riichis:
            open_ = [m for m in riichis if m.how == "open"]
            if open_ and rng.random() < 0.7:
                return open_[0]
            return next((m for m in riichis if m.how is None), riichis[0])
        return pick

    def shanten_of(self, seen: Seen, counts: list[int], melds: int) -> int:
        return T.shanten(counts, melds, seven_pairs=melds == 0, thirteen_orphans=melds == 0)

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str):
        """``paifu selfplay --aim YAKU``: a deal stacked toward the yaku (aim.py)."""
        return aiming.stacked(self, match, number, rng, aim) or super().aim_deal(match, number, rng, aim)

    def aim_choose(self, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
        """``paifu selfplay --aim YAKU``: the yaku's plan among the legal actions (aim.py)."""
        return aiming.steer(self, state, legal, rng, aim) or super().aim_choose(state, legal, rng, aim)


DRAGON_KINDS = (31, 32, 33)
MANE = (8000, 12000, 16000, 24000, 32000)  # 満貫 跳満 倍満 三倍満 役満, a non-dealer's ron


def mane_amount(turns: int) -> int:
    """真似満 for ``turns`` identical discards (「真似満は五巡から二巡エブリ」): 5 満貫, 7 跳満,
    9 倍満, 11 三倍満, 13 役満, then one more 役満 every two turns; 0 under five.

    >>> [mane_amount(n) for n in (4, 5, 6, 7, 9, 11, 13, 15)]
    [0, 8000, 8000, 12000, 16000, 24000, 32000, 64000]
    """
    if turns < 5:
        return 0
    step = (turns - 5) // 2
    if step < len(MANE):
        return MANE[step]
    return 32000 * (1 + step - (len(MANE) - 1))


def _minus(counts: list[int], j: int, n: int = 1) -> list[int]:
    out = list(counts)
    out[j] -= n
    return out


ENGINE = Sanma()
