"""宜昌 血流成河 Yichang: the Hubei mahjong where play goes on after a win.

Seed 003_3d526110ac5f85e4.txt, 「湖北宜昌の「血流成河」麻雀」 (2015-09-05); defaults from
RULINGS §yichang. Four players, 108 tiles (the three suits only), one die. After the deal
each player puts out three tiles of one suit and takes the three of another player
(換三張, the die gives the direction). A win needs four sets and a pair and lacks one suit
(欠門); no chi. A winner does not leave the hand (血流成河): the winning tile is set aside,
his hand is locked (an added kong, or a concealed kong that keeps the wait, only), and he
may win again, on the first win's pattern and at its value. Play goes on to the last tile
of the wall; then every player who is not ready pays every ready player (winners
included), and a player holding all three suits (花猪) pays double.

Fan are added (番は足し算): the pattern (none 1, 碰碰胡 3, 清一色 6, 清碰 9), 門前自摸 +1, and
each kong of the winner and of the payer (槓進槓出): 明槓 +1, 暗槓 +2. A discard win is paid
by the discarder, a self-draw by each of the three others.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg

from . import tiles as T
from ..engine import HandHeader, Match, Payment, RuleOption, ScoreItem, Settlement, Violation, WholeNumber, Zone
from .core import (
    UNSEEN,
    MahjongEngine,
    MahjongState,
    Meld,
    Move,
    Seen,
    Win,
    choose_toward_win,
    kind,
    table_aim_choose,
)

TITLE = "湖北宜昌の「血流成河」麻雀"
SEED = f"「{TITLE}」"  # seed 003_3d526110ac5f85e4.txt
RULING = "docs/rulings.md §yichang"


def section(heading: str, words: str = "") -> str:
    """A citation of the rule text: its title, a section heading and the words quoted."""
    return f"「{TITLE}」 §{heading}" + (f" ({words})" if words else "")


OPTIONS = (
    RuleOption("kong_out", "on", ("on", "off"),
               "on: 槓進槓出, the payer's own kongs add to what he pays; off: 槓進槓不出, only the winner's kongs count",
               section("手の役と点数", "払う人のカンは加算しない人もいます")),
    RuleOption("flower_pig", "2", ("2", "3"),
               "花猪 (all three suits at the end) pays this many times each ready player's best value",
               section("欠門できなかった場合(花猪)の罰", "3倍にする人もいます")),
    RuleOption("self_draw", "closed", ("closed", "no_pon"),
               "門前自摸 +1: closed, on a self-draw by a winner who claimed no discard (no pon, no direct kong; "
               "concealed kongs allowed); no_pon, only a pon breaks it (the rule text's words)",
               section("手の役と点数", "一度もポンしないでツモ上がりしたら")),
    RuleOption("repeat_pay", "pattern", ("pattern", "full"),
               "a seat's later win is paid: pattern, the first win's pattern fan only (no 門前自摸, no kongs); "
               "full, the first win's pattern fan with this win's 門前自摸 and kongs (槓進槓出) added",
               section("上がり", "1度目の上がりの役の点しかもらえません")),
    WholeNumber("hands", "none", ("none",), "the game's length in hands (none: as many as the record holds)", RULING,
                least=1, what="a number of hands, at least 1"),
)

SUIT_NAMES = {0: "萬子 m", 1: "筒子 p", 2: "索子 s"}


@dataclass(frozen=True)
class Item:
    """One named scoring item of the rule text (seed term, English name, value, condition)."""

    key: str
    term: str
    name: str
    fan: int
    condition: str


ITEMS: dict[str, Item] = {i.key: i for i in (
    Item("plain", "何もない手", "no pattern", 1, "a winning hand with none of the patterns below"),
    Item("all_pungs", "碰碰胡", "all pungs", 3, "頭以外は刻子と槓子しかない手"),
    Item("one_suit", "清一色", "one suit", 6, "1種類の牌だけの手"),
    Item("pure_pungs", "清碰", "one-suit all pungs", 9, "清一色の碰碰胡"),
    Item("self_draw", "門前自摸", "concealed self-draw", 1, "一度もポンしないでツモ上がり (no pon, no direct kong)"),
    Item("open_kong", "明槓", "open kong", 1, "each direct or added kong of the winner, and of the payer (槓進槓出)"),
    Item("closed_kong", "暗槓", "concealed kong", 2, "each concealed kong of the winner, and of the payer (槓進槓出)"),
    Item("noten", "聴牌できなかった場合の罰", "not ready at the end", 1,
         "×1 a ready player's best value, to each ready player (winners included)"),
    Item("flower_pig", "花猪", "flower pig", 2, "all three suits at the end: ×2 (option ×3) to each ready player"),
)}
PATTERNS = ("plain", "all_pungs", "one_suit", "pure_pungs")
# which patterns hold a first win's pattern (「1度目の役に他の役が複合した形の上がりは認められます」)
HOLDS = {
    "plain": set(PATTERNS),
    "all_pungs": {"all_pungs", "pure_pungs"},
    "one_suit": {"one_suit", "pure_pungs"},
    "pure_pungs": {"pure_pungs"},
}
MULTI_WORDS = "winners on one discard"
EXCHANGE_FROM = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # die -> take from the seat this many places on (下家, 対面, 上家)


# -- pure scoring helpers -------------------------------------------------------------------
def suits_of(concealed: Sequence[int], melds: Sequence[Meld]) -> set[int]:
    """The suits (0 m, 1 p, 2 s) among concealed counts and melds."""
    return {i // 9 for i in range(27) if concealed[i]} | {kind(m.tile) // 9 for m in melds}


def pattern_of(concealed: Sequence[int], melds: Sequence[Meld]) -> str | None:
    """The best pattern of a complete hand (``concealed`` holds the winning tile), or None."""
    readings = T.decompositions(concealed, len(melds))
    if not readings:
        return None
    pungs = any(not d.runs() for d in readings)
    one = len(suits_of(concealed, melds)) == 1
    return "pure_pungs" if pungs and one else "one_suit" if one else "all_pungs" if pungs else "plain"


def kong_fan(melds: Sequence[Meld]) -> list[tuple[str, int]]:
    """The kong items of a seat's melds: ('open_kong', n) and ('closed_kong', n), where n > 0."""
    opened = sum(1 for m in melds if m.kind in ("kong_direct", "kong_added"))
    closed = sum(1 for m in melds if m.kind == "kong_concealed")
    return [(k, n) for k, n in (("open_kong", opened), ("closed_kong", closed)) if n]


def win_items(pattern: str, win: Win, rules) -> list[tuple[str, int]]:  # noqa: ANN001 - the rules in force
    """The winner's side of a win (番は足し算): the pattern's fan, 門前自摸 +1 on a concealed
    self-draw, and each of the winner's kongs (明槓 +1, 暗槓 +2)."""
    items = [(pattern, ITEMS[pattern].fan)]
    if win.how == "tsumo" and concealed_self_draw(win.melds, rules["self_draw"]):
        items.append(("self_draw", 1))
    return items + [(k, n * ITEMS[k].fan) for k, n in kong_fan(win.melds)]


def payer_items(melds: Sequence[Meld]) -> list[tuple[str, int]]:
    """A payer's own additions (槓出, kong_out=on): each of his kongs, 明槓 +1, 暗槓 +2."""
    return [(k, n * ITEMS[k].fan) for k, n in kong_fan(melds)]


@dataclass
class OneHand:
    """``paifu score yichang``: a seat's first win of the hand scored without a record. The
    winner is A; on a ron or a rob B is the discarder (or the robbed konger); C and D the others."""

    problems: list[str]
    complete: bool = False
    refusal: str | None = None
    items: list[tuple[str, int]] = field(default_factory=list)
    payer_items: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    amounts: dict[str, int] = field(default_factory=dict)  # what each payer pays


def score_one(concealed: list[str], melds: list[Meld], tile: str, how: str, options: dict[str, str] | None = None,
              payer_kongs: dict[str, tuple[int, int]] | None = None) -> OneHand:
    """A first win scored by the validator's :func:`win_items` and :func:`payer_items`:
    ``payer_kongs`` gives a payer's (open, concealed) kongs (槓出: kong_out=on adds them to
    what he pays)."""
    rules = {o.name: o.default for o in OPTIONS} | dict(options or {})
    every = [*concealed, *(c for m in melds for c in m.codes())]
    problems = []
    foreign = sorted({c for c in every if c.endswith("z") or c.startswith("0")})
    if foreign:
        problems.append(f"{', '.join(foreign)}: not yichang tiles (the three suits only, no honours, no red fives)")
    over = sorted({c for c in every if every.count(c) > 4})
    if over:
        problems.append(f"more than four of {', '.join(over)}")
    want = 14 - 3 * len(melds)
    if len(concealed) != want:
        sets = f" beside {len(melds)} declared set(s)" if melds else ""
        problems.append(f"{len(concealed)} concealed tiles{sets}: a winning hand holds {want}, the winning tile included")
    if tile not in concealed:
        problems.append(f"the winning tile {tile} is not among the concealed tiles")
    if how not in ("tsumo", "ron", "rob"):
        problems.append("a win is tsumo, ron or rob")
    payers = ["B"] if how != "tsumo" else ["B", "C", "D"]
    bad = sorted(set(payer_kongs or {}) - set(payers))
    if bad:
        problems.append(f"{', '.join(bad)} does not pay this win (A wins; B is the discarder, C and D pay a self-draw)")
    if problems:
        return OneHand(problems)
    counts = T.counts_of(concealed)
    pattern = pattern_of(counts, melds)
    if pattern is None:
        return OneHand([])
    win = Win("A", how, tile, None if how == "tsumo" else "B", counts, list(melds))
    refusal = None
    if len(suits_of(counts, melds)) > 2:
        refusal = "the hand holds all three suits: a win lacks one suit (欠門でないと,上がれない)"
    items = win_items(pattern, win, rules)
    own: dict[str, list[tuple[str, int]]] = {}
    for p in payers:
        opened, closed = (payer_kongs or {}).get(p, (0, 0))
        kongs = [Meld("kong_direct", "1m")] * opened + [Meld("kong_concealed", "1m")] * closed
        own[p] = payer_items(kongs) if rules["kong_out"] == "on" else []
    amounts = {p: sum(f for _, f in items) + sum(f for _, f in own[p]) for p in payers}
    return OneHand([], True, refusal, items, own, amounts)


def own_copies(concealed: Sequence[int], melds: Sequence[Meld], k: int) -> int:
    """How many tiles of kind ``k`` a seat holds: in his hand and in his pons and kongs."""
    return concealed[k] + sum(len(m.codes()) for m in melds if kind(m.tile) == k)


def concealed_self_draw(melds: Sequence[Meld], rule: str) -> bool:
    """門前自摸 (一度もポンしないでツモ上がり): no claimed set among the winner's melds, a concealed
    kong apart (``self_draw=closed``); or no pon, an added kong being a pon too (``no_pon``)."""
    if rule == "no_pon":
        return not any(m.kind in ("pon", "kong_added") for m in melds)
    return all(m.kind == "kong_concealed" for m in melds)


def ready_value(concealed: Sequence[int], melds: Sequence[Meld]) -> int | None:
    """A ready hand's best value as a discard win (pattern fan only), None when not ready.

    Only waits that keep the hand lacking a suit count (a three-suit hand cannot win), and
    only tiles that can still come: a wait whose four copies the seat holds himself, in his
    hand or his melds (a kong of 5p and 46p waiting on 5p), is no wait (docs/rulings.md)."""
    best = None
    for t in T.waits(concealed, len(melds), allowed=range(27)):
        if own_copies(concealed, melds, t) >= 4:
            continue
        c = bytearray(concealed)  # the tile core's fastest form
        c[t] += 1
        if len(suits_of(c, melds)) > 2:
            continue
        p = pattern_of(c, melds)
        if p is not None and (best is None or ITEMS[p].fan > best):
            best = ITEMS[p].fan
    return best


@dataclass
class WinScore:
    """A win as paid: the pattern, the winner's items, and each payer's amount with his own additions."""

    win: Win
    pattern: str | None  # None: the hand was not seen
    repeat: bool  # a later win of the same seat: paid the first win's pattern only
    items: list[tuple[str, int]]  # (item key, fan) on the winner's side
    payers: dict[str, list[tuple[str, int]]]  # payer -> his own kong items (槓出)
    group: int = 0  # wins on one discard share a group

    def amount(self, payer: str) -> int:
        return sum(f for _, f in self.items) + sum(f for _, f in self.payers.get(payer, []))


@dataclass
class YichangMatch(Match):
    dealer_why: str = ""  # why match.dealer deals the next hand, in the rule text's words


# the rule text's words for each way the next dealer follows (§席決め・親決め・配牌)
NEXT_DEALER = {
    "first": "2手目以降は,前の手で最初に上がった人が親です",
    "discarder": "前の手の最初の上がりが2人以上同時の振り込みだった場合は,それに振りこんだ人が親です",
    "stays": "誰も上がらないで流局したときは,前の手の親が引き続き親です",
}


@dataclass
class YichangState(MahjongState):
    gave: dict[str, list[str]] = field(default_factory=dict)  # 換三張: the three tiles each seat put out
    won_tiles: dict[str, list[str]] = field(default_factory=dict)  # winning tiles set aside, beside each winner
    first: dict[str, str] = field(default_factory=dict)  # seat -> the pattern of its first win
    scores: list[WinScore] = field(default_factory=list)  # every win of the hand, in order
    groups: int = 0


def next_dealer(state: YichangState) -> tuple[str, str]:
    """Who deals the next hand, and which rule says so (a key of NEXT_DEALER): the first winner;
    the discarder when the first win was two or three players on one discard (or robbed kong);
    the same dealer when nobody won."""
    if not state.scores:
        return state.dealer, "stays"
    first = state.scores[0]
    together = sum(1 for s in state.scores if s.group == first.group)
    if together > 1 and first.win.payer is not None:
        return first.win.payer, "discarder"
    return first.win.seat, "first"


# ``paifu selfplay --aim`` at a pattern through the exchange of three (``exchange_plan``).
EXCHANGE_AIMS = ("all pungs", "碰碰胡", "one suit", "清一色", "one-suit all pungs", "清碰")


def exchange_plan(aim: str, rng: random.Random) -> list[list[str]] | None:
    """Tiles for the dealer and the seat after it (turn order): the dealer's hand of the
    pattern but three tiles of one suit, which the next seat holds, and three tiles of a third
    suit (the only suit of which the dealer holds three) to give away. The dealer may not win
    on the dealt hand: 清一色 is complete and discards a tile to wait; 碰碰胡 and 清碰 are three
    pungs, two pairs and a lone tile, which goes first: a wait on either pair."""
    if aim not in EXCHANGE_AIMS:
        return None
    a, b, c = rng.sample("mps", 3)
    if aim in ("one suit", "清一色"):
        dealer = [f"{n}{a}" for n in "11134688899"]  # 111 234 567 888 99 without 2, 5, 7
        missing = [f"{n}{a}" for n in "257"]
    else:  # three pungs, two pairs (a wait on either) and a lone tile, discarded first
        pure = aim in ("one-suit all pungs", "清碰")
        ranks = rng.sample("123456789", 6)
        kinds = [f"{n}{s}" for n, s in zip(ranks, [a, a, a] + [a if pure else b] * 3)]
        dealer = [k for k in kinds[:3] for _ in range(2)] + [kinds[3]] * 2 + [kinds[4]] * 2 + [kinds[5]]
        missing = kinds[:3]
    give = [f"{n}{c}" for n in rng.sample("123456789", 3)]
    return [dealer + give, missing]


class Yichang(MahjongEngine):
    id = "yichang"
    title = "宜昌 血流成河 Yichang"
    seat_counts = (4,)
    options = OPTIONS
    source = SEED
    zero_sum = True  # every win, and the end of the hand's tenpai payments, are paid by the others
    zero_sum_rule = f"{SEED} §上がりの点数授受: 「振り込み上がりは,上がり牌を捨てた人が,上がった人に手の点数を払います」"
    seed_rule = SEED
    dealer_rule = section("席決め・親決め・配牌", "2手目以降は,前の手で最初に上がった人が親です")
    no_chi_rule = section("手の進行", "なお,チーはありません")
    shape_words = "four sets and a pair"
    selfplay_hands = 2
    dice_count = 1
    replace_at_head = True  # 「牌の山の末尾ではなく,次のツモ位置から1枚手に補充し」
    state_class = YichangState
    scoring_items = ITEMS

    def tile_set(self, rules) -> list[str]:
        return T.tile_set(suits="mps", honours="")

    # -- match -----------------------------------------------------------------------------
    def start_match(self, rules, seats: list[str]) -> Match:
        return YichangMatch(rules=rules, seats=seats, totals={s: 0 for s in seats})

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the next dealer as its hand line writes it
        (no rule chose him, so none is quoted), the written totals."""
        if isinstance(match, YichangMatch):
            match.dealer_why = ""
        return self.resume_carried(match, broken, header, totals)

    def has_end(self, match: Match) -> bool:
        """A game of ``hands=N`` ends after its N-th hand; without it, a session of hands."""
        return match.rules.int("hands") is not None

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A game written from a later hand: each seat's running total (Start, adding up to 0:
        every win and every ready-hand payment is paid by the others), the hand's number (within
        ``hands=N``) and its dealer, written on the hand line since no rule chose him here."""
        n = match.rules.int("hands")
        if n is not None and match.hands_before >= n:
            return (f"hand {match.hands_before + 1} is past the game's end: it is {n} hands (hands={n}, "
                    f"{RULING})")
        if isinstance(match, YichangMatch):
            match.dealer_why = ""
        return super().start_from(match, header, totals)

    def end_hand(self, match: Match, state: MahjongState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        assert isinstance(state, YichangState)
        match.dealer, why = next_dealer(state)
        if isinstance(match, YichangMatch):
            match.dealer_why = why
        n = match.rules.int("hands")
        if n is not None and match.hands_done >= n:
            match.over = True

    # -- the hand's opening: the exchange of three ------------------------------------------------
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> MahjongState:
        try:
            state = super().start_hand(match, header, setup)
        except Violation as v:
            if v.event is None and setup and not v.at_hand:
                v.event = setup[0]
            why = getattr(match, "dealer_why", "")
            if why and v.message.startswith("the dealer of this hand is"):
                v.rule = section("席決め・親決め・配牌", NEXT_DEALER[why])
            raise
        assert isinstance(state, YichangState)
        state.phase = "exchange"
        state.won_tiles = {s: [] for s in state.seats}
        return state

    def read_action(self, state: MahjongState, event: Event) -> Move:
        if event.seat is not None and event.verb == "exchange":
            if event.seat not in state.seats:
                return super().read_action(state, event)
            codes: list[str] = []
            for i, arg in enumerate(event.args):
                if not isinstance(arg, CardsArg):
                    raise Violation("L305", "'exchange' names three tiles of one suit: 'exchange 129m' (or '***' unseen)", arg=i)
                codes.extend(arg.cards)
            if len(codes) != 3:
                raise Violation("L306", f"換三張 puts out three tiles, not {len(codes)}: 'exchange 129m'",
                                section("換三張", "同じ種類の牌3枚を伏せて自分の前に出します"), arg=0)
            known = [c for c in codes if c != UNSEEN]
            if known and len(known) != 3:
                raise Violation("L305", "the three tiles are all named or all unseen ('***')", arg=0)
            for c in known:
                self._check_in_set(state, c, 0)
            return Move(event.seat, "exchange", None, None, tuple(codes))
        return super().read_action(state, event)

    def read_extra(self, state: MahjongState, event: Event) -> Move | None:
        if event.verb != "dice":
            return None
        nums = [a for a in event.args if isinstance(a, NumArg)]
        if len(nums) != 1 or len(event.args) != 1 or not 1 <= nums[0].value <= 6:
            raise Violation("L306", "the die of the exchange is one number 1 to 6: 'dice 3'", section("換三張"), arg=0)
        return Move(None, "dice", None, str(nums[0].value))

    def apply(self, state: MahjongState, move: Move) -> None:
        assert isinstance(state, YichangState)
        if move.verb == "exchange":
            self._apply_exchange(state, move)
            return
        if state.phase == "exchange" and move.verb != "dice":
            who = self.to_act(state)
            raise Violation("L302", f"the exchange of three (換三張) comes first: {who} is to "
                            f"{'put out three tiles' if len(state.gave) < 4 else 'roll the die'}, not {move.seat or ''} to {move.verb}",
                            section("換三張", "配牌を見たら,同じ種類(萬子,索子,筒子)の牌3枚を伏せて自分の前に出します"))
        if state.phase == "wins" and move.verb in ("pon", "kong", "discard"):
            self._after_wins_only(state, move)
        if move.verb == "draw" and state.phase == "wins":
            nxt = self._next_after_wins(state)
            if move.seat != nxt:
                raise Violation("L302", f"it is {nxt}'s turn to draw, not {move.seat}'s (after wins on one discard, the 下家 of "
                                f"the winner farthest from the discarder draws)", section("上がり", "上がったら,次の順番は,上がった人の下家(右隣)です"))
            self._close_wins(state)
        if move.verb == "win" and self._dealt_hand(state, move.seat):
            # checked before the hand is read: an unseen dealer's win is not taken on trust either
            raise Violation("L301", f"{move.seat} cannot win on the dealt hand: the dealer's first action is a discard "
                            f"(上がりの条件を満たす手でも,1枚捨てなければなりません)",
                            section("上がり", "親は3枚交換直後の配牌で上がることは,認められません"))
        super().apply(state, move)

    def _after_wins_only(self, state: YichangState, move: Move) -> None:
        """After wins on a discard (or a robbed kong) only more wins on the tile, or the next
        seat's draw, may follow: a pon or kong of it is too late (上がりが優先されます)."""
        tile = state.wins[0].tile
        won = " and ".join(w.seat for w in state.wins)
        nxt = self._next_after_wins(state)
        if move.verb in ("pon", "kong") and move.tile == tile:
            words = "ポンと上がりが同時にあったときは" if move.verb == "pon" else "カンと上がりが同時にあったときは"
            raise Violation("L301", f"{won} won on {tile}: a win comes before a {move.verb} (上がりが優先されます), "
                            f"and the tile is the winner's; {nxt} draws next",
                            section("手の進行", f"{words},上がりが優先されます"))
        raise Violation("L302", f"{move.seat} cannot {move.verb} now: {won} won on {tile}, and {nxt} draws next "
                        f"(上がったら,次の順番は,上がった人の下家(右隣)です)", section("上がり"))

    @staticmethod
    def _dealt_hand(state: MahjongState, seat: str | None) -> bool:
        """Whether ``seat`` is the dealer holding his dealt hand, before his first discard."""
        return state.phase == "act" and state.first_turn and state.drawn is None and seat == state.turn

    def apply_extra(self, state: MahjongState, move: Move) -> bool:
        if move.verb != "dice":
            return False
        assert isinstance(state, YichangState)
        if state.phase != "exchange" or len(state.gave) < 4:
            raise Violation("L301", "the die of the exchange is rolled after all four put out three tiles "
                            "(a 'dice' line before the deal is the die of the wall's break)", section("換三張", "親がサイコロ1つを振ります"))
        die = int(move.how or 0)
        step = EXCHANGE_FROM[die]
        n = len(state.seats)
        for i, seat in enumerate(state.seats):
            source = state.seats[(i + step) % n]
            for c in state.gave[source]:
                state.hands[seat].add(c)
        state.phase = "act"
        state.turn = state.dealer
        state.drawn = None
        state.can_tsumo = True
        state.first_turn = True
        return True

    def _apply_exchange(self, state: YichangState, move: Move) -> None:
        seat = move.seat
        assert seat is not None
        rule = section("換三張", "同じ種類の牌を3枚出さなければならない")
        if state.phase != "exchange":
            raise Violation("L301", "the exchange of three (換三張) is made once, right after the deal", rule)
        if seat in state.gave:
            raise Violation("L301", f"{seat} has already put out three tiles", rule)
        tiles = list(move.tiles)
        known = [t for t in tiles if t != UNSEEN]
        if known and len({kind(t) // 9 for t in known}) != 1:
            raise Violation("L301", f"{' '.join(tiles)} are not of one suit: three tiles of the same suit are put out", rule, arg=0)
        h = state.hands[seat]
        if not known:
            if h.unseen < 3:
                raise Violation("L305", f"{seat}'s hand is known: name the three tiles it puts out", rule, arg=0)
            for _ in range(3):
                h.take(UNSEEN)
        else:
            for t in sorted(set(known)):
                if not self._holds(state, seat, t, known.count(t)):
                    raise Violation("L303", f"{seat} does not hold {'three' if known.count(t) == 3 else 'two' if known.count(t) == 2 else ''} {t} to put out".replace("  ", " "), rule, arg=0)
            for t in known:
                self._take(state, seat, t)
        state.gave[seat] = tiles

    # -- turns ----------------------------------------------------------------------------------
    def _next_after_wins(self, state: YichangState) -> str:
        """「二人以上同時に上がったときは,振り込んだ人から順番が一番遠い人の下家」."""
        winners = [w.seat for w in state.wins]
        payer = state.wins[0].payer
        if payer is None:
            return state.next_seat(winners[0])
        order = state.order_from(payer)
        farthest = max(winners, key=order.index)
        return state.next_seat(farthest)

    def _close_wins(self, state: YichangState) -> None:
        """The wins on one discard (or robbed kong) are over: the next seat draws."""
        state.turn = self._next_after_wins(state)
        state.wins = []
        state.pending_kong = None
        state.pending_kong_seat = None
        state.discard = None
        state.passed = set()
        state.phase = "draw"

    def _maybe_finish_wins(self, state: MahjongState) -> None:
        """Play goes on: the wins phase stays open until the next seat draws."""

    def to_act(self, state: MahjongState) -> str | None:
        assert isinstance(state, YichangState)
        if self.hand_over(state):
            return None
        if state.phase == "exchange":
            for s in [state.dealer] + state.order_from(state.dealer):
                if s not in state.gave:
                    return s
            return state.dealer
        if state.phase == "wins":
            cands = self.claim_candidates(state)
            return cands[0] if cands else self._next_after_wins(state)
        return super().to_act(state)

    def hand_over(self, state: MahjongState) -> bool:
        if state.over:
            return True
        if state.wall.live > 0 or state.phase in ("exchange", "act", "rob", "replace"):
            return False
        if state.phase in ("claim", "wins"):
            return not self.claim_candidates(state)
        return True  # the next seat would draw from an empty wall

    def end_reason(self, state: MahjongState) -> str | None:
        return "the wall is used to the last tile (牌の山がなくなるまで打ち続けます)"

    # -- restrictions -----------------------------------------------------------------------------
    def may_win(self, state: MahjongState, win: Win) -> str | None:
        assert isinstance(state, YichangState)
        if win.first_turn:
            return (f"{win.seat} cannot win on the dealt hand: the dealer's first action is a discard "
                    f"(親は3枚交換直後の配牌で上がることは,認められません)")
        if len(suits_of(win.concealed, win.melds)) > 2:
            return f"{win.seat}'s hand holds all three suits: a win lacks one suit (欠門でないと,上がれない)"
        first = state.first.get(win.seat)
        if first is not None:
            p = pattern_of(win.concealed, win.melds)
            if p is not None and p not in HOLDS[first]:
                return (f"{win.seat} first won with {ITEMS[first].term}: a later win must hold it "
                        f"(1度目の上がりと違う役では上がれません), and this hand is {ITEMS[p].term}")
        return None

    def may_pon(self, state: MahjongState, seat: str, tile: str) -> str | None:
        assert isinstance(state, YichangState)
        if seat in state.first:
            return f"{seat} has won: the hand is not changed any more (補槓と聴牌形を変えない暗槓以外は手を変えることはできません)"
        return None

    def may_kong(self, state: MahjongState, seat: str, meld_kind: str, tile: str) -> str | None:
        assert isinstance(state, YichangState)
        locked = seat in state.first
        if meld_kind == "kong_direct":
            return self.may_pon(state, seat, tile)
        if state.first_turn and state.drawn is None:
            return "the dealer's first action is a discard (上がりの条件を満たす手でも,1枚捨てなければなりません): no kong"
        if meld_kind == "kong_added":
            if state.drawn not in (tile, UNSEEN):
                return f"an added kong uses the tile just drawn (すでに自分がポンしている牌と同じ牌を山から引いたとき); {seat} drew {state.drawn or 'nothing'}"
            return None
        if locked:
            if state.drawn not in (tile, UNSEEN):
                return f"{seat} has won: a concealed kong must be of the tile just drawn ({state.drawn or 'none'}), the hand being locked"
            if state.hand_known(seat):
                before = state.concealed_counts(seat)
                before[kind(tile)] -= 1  # the locked hand without the drawn tile
                after = list(before)
                after[kind(tile)] -= 3
                melds = len(state.melds[seat])
                if T.waits(before, melds, allowed=range(27)) != T.waits(after, melds + 1, allowed=range(27)):
                    return f"{seat} has won: this concealed kong changes the wait (聴牌形を変えない暗槓以外は…できません)"
        return None

    def check_discard(self, state: MahjongState, seat: str, tile: str) -> None:
        assert isinstance(state, YichangState)
        if seat not in state.first:
            return
        h = state.hands[seat]
        if state.drawn == UNSEEN and h.unseen and not h.has(tile):
            self._locate(state, tile)
            h.unseen -= 1
            h.known[tile] += 1
            state.drawn = tile
        if state.drawn not in (None, UNSEEN) and tile != state.drawn:
            raise Violation("L301", f"{seat} has won: the hand is locked and the drawn {state.drawn} is discarded, not {tile} "
                            f"(一度上がった人は…手を変えることはできません)", section("上がり"))

    def discard_actions(self, state: MahjongState, seat: str) -> list[Move]:
        assert isinstance(state, YichangState)
        if seat in state.first:
            return [Move(seat, "discard", state.drawn)] if state.drawn not in (None, UNSEEN) else []
        return super().discard_actions(state, seat)

    # -- wins --------------------------------------------------------------------------------
    def after_win(self, state: MahjongState, win: Win) -> None:
        assert isinstance(state, YichangState)
        if len(state.wins) == 1:
            state.groups += 1
        state.scores.append(self._score_win(state, win))
        if win.seat not in state.first and win.known:
            p = pattern_of(win.concealed, win.melds)
            if p is not None:
                state.first[win.seat] = p
        elif win.seat not in state.first:
            state.first[win.seat] = "plain"  # an unseen hand: its pattern is unknown, any later win holds "none"
        state.won_tiles[win.seat].append(win.tile)
        if win.how == "tsumo":
            self._take(state, win.seat, win.tile)
            state.over = False
            state.turn_kongs = 0
            state.chain = 0
            self._close_wins(state)
            state.phase = "draw"
            if state.wall.live == 0:
                state.over = True
        elif win.how == "rob":
            pass  # 搶槓されたカンは成立していない: the pon stays a pon, the tile is the robber's

    def _score_win(self, state: YichangState, win: Win) -> WinScore:
        payers = [win.payer] if win.payer is not None else state.others(win.seat)
        first = state.first.get(win.seat)
        group = state.groups
        if not win.known:
            return WinScore(win, None, first is not None, [], {}, group)
        pattern = pattern_of(win.concealed, win.melds) or "plain"
        rules = state.match.rules
        if first is not None:  # 1度目の上がりの役の点しかもらえません
            if rules["repeat_pay"] == "pattern":
                return WinScore(win, pattern, True, [(first, ITEMS[first].fan)], {}, group)
        paid = first or pattern  # repeat_pay=full: the first win's pattern, with this win's additions
        items = win_items(paid, win, rules)
        out: dict[str, list[tuple[str, int]]] = {}
        if rules["kong_out"] == "on":
            for p in payers:
                assert p is not None
                out[p] = payer_items(state.melds[p])
        return WinScore(win, pattern, first is not None, items, out, group)

    # -- settlement ----------------------------------------------------------------------------
    def settle_hand(self, state: MahjongState) -> Settlement:
        assert isinstance(state, YichangState)
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        payments: list[Payment] = []
        group_size = {g: sum(1 for w in state.scores if w.group == g) for g in {w.group for w in state.scores}}
        for n, ws in enumerate(state.scores, 1):
            win = ws.win
            payers = [win.payer] if win.payer is not None else state.others(win.seat)
            how = {"tsumo": "自摸", "ron": "点炮", "rob": "搶槓"}[win.how]
            if ws.pattern is None:
                out.unknown.update(state.seats)
                out.items.append(ScoreItem(win.seat, f"win {n} (hand unseen)", 0, how, f"{win.tile}: not scored"))
                continue
            label = f"win {n}, {how} {win.tile}"
            if group_size[ws.group] > 1:
                label += f", one of {group_size[ws.group]} {MULTI_WORDS}"
            if ws.repeat:
                label += " (repeat: the first win's pattern" + (" only)" if len(ws.items) == 1 and not ws.payers else ")")
            for key, fan in ws.items:
                item = ITEMS[key]
                out.items.append(ScoreItem(win.seat, item.name, fan, item.term, label))
            state.log.extend(ITEMS[k].term for k, _ in ws.items)
            for p in payers:
                assert p is not None
                own = ws.payers.get(p, [])
                for key, fan in own:
                    out.items.append(ScoreItem(win.seat, f"payer's {ITEMS[key].name}", fan, f"槓出 {ITEMS[key].term}", f"{label}: {p}'s kongs"))
                amount = ws.amount(p)
                extra = f" + {sum(f for _, f in own)} for {p}'s kongs" if own else ""
                payments.append(Payment(p, win.seat, amount, f"{label}: {sum(f for _, f in ws.items)}{extra}"))
        payments += self._end_payments(state, out)
        if not state.scores:
            out.items.append(ScoreItem(state.dealer, "no win", 0, "流局", "the dealer stays"))
        for p in payments:
            deltas[p.payer] -= p.amount
            deltas[p.payee] += p.amount
        out.payments = payments
        return out

    def _end_payments(self, state: YichangState, out: Settlement) -> list[Payment]:
        """聴牌できなかった場合の罰 and 花猪: at the end every hand is shown."""
        if any(not state.hand_known(s) for s in state.seats):
            if state.wall.live == 0:
                out.unknown.update(state.seats)
                out.items.append(ScoreItem(state.dealer, "ready-hand payments", 0, "聴牌",
                                           "not scored: some hands at the end were not seen"))
            return []
        pig = int(state.match.rules["flower_pig"])
        ready: dict[str, int] = {}
        pigs: list[str] = []
        for s in state.seats:
            counts = state.concealed_counts(s)
            melds = state.melds[s]
            if len(suits_of(counts, melds)) == 3:
                pigs.append(s)
                continue
            if s in state.first:
                ready[s] = ITEMS[state.first[s]].fan  # a winner: his first win's value
                continue
            value = ready_value(counts, melds)
            if value is not None:
                ready[s] = value
        payments = []
        for s in state.seats:
            if s in ready:
                continue
            times = pig if s in pigs else 1
            key = "flower_pig" if s in pigs else "noten"
            for r, value in ready.items():
                payments.append(Payment(s, r, value * times, f"{ITEMS[key].term}: {value}" + (f" × {times}" if times > 1 else "")))
                out.items.append(ScoreItem(r, ITEMS[key].name, value * times, ITEMS[key].term,
                                           f"from {s}: {r}'s best value {value}" + (f" × {times}" if times > 1 else "")))
            if ready:
                state.log.append(ITEMS[key].term)
        return payments

    # -- legal actions and events --------------------------------------------------------------
    def legal_actions(self, state: MahjongState) -> list[Move]:
        assert isinstance(state, YichangState)
        if self.hand_over(state):
            return []
        if state.phase == "exchange":
            seat = self.to_act(state)
            if len(state.gave) == 4:
                return [Move(None, "dice", None, str(d)) for d in range(1, 7)]
            assert seat is not None
            h = state.hands[seat]
            if h.unseen:
                return [Move(seat, "exchange", None, None, (UNSEEN,) * 3)] if h.unseen >= 3 else []
            out = []
            for suit in range(3):
                tiles = T.sort_codes(t for t in h.cards() if kind(t) // 9 == suit)
                for combo in sorted(set(itertools.combinations(tiles, 3))):
                    out.append(Move(seat, "exchange", None, None, combo))
            return out
        if state.phase == "wins":
            cands = self.claim_candidates(state)
            if cands:
                return [Move(cands[0], "win", state.wins[0].tile, state.wins[0].how), Move(cands[0], "pass")]
            if state.wall.live > 0:
                return [Move(self._next_after_wins(state), "draw", self._next_tile(state, "head"))]
            return []
        return super().legal_actions(state)

    def event_for(self, state: MahjongState, action: Move) -> Event:
        if action.verb == "dice":
            return Event(verb="dice", args=[NumArg(value=int(action.how or 1))])
        if action.verb == "exchange":
            return Event(seat=action.seat, verb="exchange", args=[CardsArg(cards=list(action.tiles))])
        return super().event_for(state, action)

    def view(self, state: MahjongState, seat: str | None):
        assert isinstance(state, YichangState)
        table = super().view(state, seat)
        for sv in table.seats:
            if state.phase == "exchange" and sv.seat in state.gave:
                sv.zones.append(Zone("exchange", [], hidden=3, layout="row"))  # 換三張: put out face down
            aside = state.won_tiles.get(sv.seat, [])
            if aside:
                sv.zones.append(Zone("won", list(aside), layout="row"))
            if sv.seat in state.first and "win" not in sv.labels:
                sv.labels.append("win")
        return table

    # -- selfplay ------------------------------------------------------------------------------
    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """``paifu selfplay --aim`` at 碰碰胡, 清一色, 清碰: the dealer is dealt eleven tiles of the
        complete hand and three of a suit it holds nothing else of (its 換三張); the seat after
        it the three missing tiles, of one suit (its 換三張); the die takes from the 下家, so the
        dealer holds the complete hand before its first discard (``aim_choose``)."""
        plan = exchange_plan(aim.casefold(), rng)
        if plan is None:
            return super().aim_deal(match, number, rng, aim)
        return self.aim_stack(match, number, rng, plan)

    def aim_choose(self, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
        if aim.casefold() not in EXCHANGE_AIMS or not state.hand_known(state.dealer):
            return super().aim_choose(state, legal, rng, aim)
        if state.phase != "exchange":  # the dealer discards first (no win on the dealt hand), then is fed its wait
            return table_aim_choose(self, state, legal, rng, "feed")
        dice = [m for m in legal if m.verb == "dice"]
        if dice:
            return next(m for m in dice if EXCHANGE_FROM[int(m.how or 0)] == 1)
        seat = self.to_act(state)
        dealer = state.concealed_counts(state.dealer)
        suits = [sum(dealer[s * 9:s * 9 + 9]) for s in range(3)]
        if seat == state.dealer:
            junk = suits.index(3) if 3 in suits else -1
            return next((m for m in legal if m.verb == "exchange" and all(kind(t) // 9 == junk for t in m.tiles)), None)
        if seat != state.next_seat(state.dealer):
            return None
        if state.dealer not in state.gave and 3 in suits:  # the dealer's three to give away
            junk = suits.index(3)
            for k in range(junk * 9, junk * 9 + 9):
                dealer[k] = 0

        def after(m: Move) -> tuple[int, int]:  # the dealer's steps from a win with these three, pungs first
            counts = list(dealer)
            for t in m.tiles:
                counts[kind(t)] += 1
            return T.shanten(counts, 0), -sum(1 for t in m.tiles if counts[kind(t)] == 3)

        exchanges = [m for m in legal if m.verb == "exchange"]
        return min(exchanges, key=after) if exchanges else None

    def selfplay_summary(self, hands: list) -> list[str]:
        """Lines for ``paifu selfplay yichang --stats``: wins per hand, repeated wins, several
        winners on one discard, 花猪 cases (read from each hand's settlement items)."""
        names = {ITEMS[k].name for k in PATTERNS}
        per_hand, multi, pigs, pig_players = [], 0, 0, 0
        for hand in hands:
            wins = [i for i in hand.items if i.name in names and i.detail.startswith("win ")]
            per_hand.append(len(wins))
            multi += any(MULTI_WORDS in i.detail for i in wins)
            pig = {i.detail.split(":")[0] for i in hand.items if i.term == ITEMS["flower_pig"].term}
            pigs += bool(pig)
            pig_players += len(pig)
        n = len(per_hand) or 1
        return [
            f"wins per hand: {sum(per_hand) / n:.2f} (most {max(per_hand, default=0)}); hands without a win: {per_hand.count(0)}",
            f"hands with 2+ wins: {sum(1 for w in per_hand if w >= 2)} of {len(per_hand)}",
            f"hands with several winners on one discard: {multi}",
            f"hands with a 花猪 (flower pig): {pigs} ({pig_players} player(s) in all)",
        ]

    def deal_hand(self, match: Match, number: int, rng: random.Random):
        hand = super().deal_hand(match, number, rng)
        hand.events.insert(0, Event(verb="dice", args=[NumArg(value=rng.randint(1, 6))]))
        return hand

    def seat_view(self, state: MahjongState, seat: str) -> Seen:
        seen = super().seat_view(state, seat)
        held = [sum(seen.counts[s * 9:(s + 1) * 9]) for s in range(3)]
        melded = {kind(m.tile) // 9 for m in state.melds[seat]}
        free = [s for s in range(3) if s not in melded]
        void = min(free, key=lambda s: (held[s], -s)) if free else -1
        return YichangSeen(**seen.__dict__, void=void)

    def shanten_of(self, seen: Seen, counts: Sequence[int], melds: int) -> int:
        void = getattr(seen, "void", -1)
        if void < 0:
            return T.shanten(counts, melds)
        kept = list(counts)
        extra = sum(kept[void * 9:(void + 1) * 9])
        if extra > VOID_PATIENCE:
            return T.shanten(counts, melds)  # too many to give up yet: a careless player, a 花猪 in the making
        kept[void * 9:(void + 1) * 9] = [0] * 9
        return T.shanten(kept, melds) + extra

    def choose(self, seen: Seen, legal: list[Move], rng: random.Random) -> Move:
        if legal and legal[0].verb == "dice":
            return rng.choice(legal)
        exchanges = [m for m in legal if m.verb == "exchange"]
        if exchanges:
            return choose_exchange(seen, exchanges)
        return choose_toward_win(seen, legal, rng, self.shanten_of)


# The selfplay policy plays toward 欠門 only once the suit to give up is down to this many
# tiles; before that it plays the hand's plain shape, so that some players end as 花猪.
VOID_PATIENCE = 3


@dataclass
class YichangSeen(Seen):
    void: int = -1  # the suit the policy means to give up (欠門)


def choose_exchange(seen: Seen, exchanges: list[Move]) -> Move:
    """Put out three tiles of the shortest suit (the one to give up), keeping the best shape."""
    held = [sum(seen.counts[s * 9:(s + 1) * 9]) for s in range(3)]

    def key(m: Move) -> tuple[int, int, list[str]]:
        suit = kind(m.tiles[0]) // 9
        after = list(seen.counts)
        for t in m.tiles:
            after[kind(t)] -= 1
        return (held[suit], T.shanten(after, 0), list(m.tiles))

    return min(exchanges, key=key)


ENGINE = Yichang()
