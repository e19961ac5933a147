"""Paohuzi 跑胡子: the paper-card game of small and big numbers (Leshan, Sichuan).

Seed 002_34d3528b09b88dd0.txt (the whole file); defaults from RULINGS §paohuzi and
docs/rulings.md §paohuzi. Cards are ``1x``..``10x`` (小字 一..十) and ``1d``..``10d``
(大字 壹..拾), four of each: 80 cards. Seats are in the order of play (the seed's
反時計回り): the next player is the right-hand neighbour.

A hand, as this engine replays it:

- ``deal A: ...`` lines (20 cards each, 21 to the 親, ``dealer=`` on the hand line) and an
  optional ``stock ...`` line (the stock top first, its bottom card black). With four
  players the 親's left neighbour (the previous seat) shuffles and sits out.
- Dealt quads and triples go down face down at once (提, 坎).
- The 親 discards first (``A: discard 3x``); then each turn is a draw (``B: draw 5x``).
  A drawn card that makes a quad or triple with the drawer's hand or face-down triple
  goes down face down (提 / 偎) and the drawer discards (none after his second quad);
  any other drawn card is on offer to all.
- A card on offer (an exposed draw or a discard) may be won on (``C: win``), must be
  taken by a holder of three (``C: pao 5x``, 跑), may be taken with a pair (``C: pon 5x``,
  碰 or 臭偎), or made into a sequence or mixed triple (``B: chi 4x 5x 6x``) by the drawer
  or by the next player. A pass is implicit (``B: pass`` may be written). Unclaimed, it
  goes to the discards of the seat it came from and the next player draws.
- When the stock is empty and the next step would be a draw: ``exhausted`` (流局).
- Unseen cards: ``deal B: ****...`` for a hand the scribe did not see, ``B: draw *`` for
  its draw that went down face down; what such a hand does is checked against the four
  copies only, and its win is taken on trust (notes).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, SeatArg

from ..deals import StackedShuffle, card_place, deal_seat
from ..engine import (
    Engine,
    HandHeader,
    HandState,
    Match,
    Payment,
    RuleOption,
    Rules,
    ScoreItem,
    SeatView,
    Settlement,
    TableView,
    Violation,
    WholeNumber,
    Zone,
    nth_card,
)

SEED = "「跑胡子(paohuzi)」"  # seed 002_34d3528b09b88dd0.txt
RULING = "docs/rulings.md §paohuzi"
OUR_RULING = "docs/rulings.md §paohuzi"

# -- cards ------------------------------------------------------------------------------
NUMBERS = tuple(range(1, 11))
KINDS: tuple[str, ...] = tuple(f"{n}x" for n in NUMBERS) + tuple(f"{n}d" for n in NUMBERS)
INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
RED_NUMBERS = frozenset({2, 7, 10})  # 二七十 / 贰柒拾: the red cards
COPIES = 4
HAND_SIZE = 20  # 20枚ずつ
DEALER_SIZE = 21  # 親だけに追加で1枚
SETS_TO_WIN = 7


def number(card: str) -> int:
    return int(card[:-1])


def is_big(card: str) -> bool:
    """大字 (壹..拾), written ``1d``..``10d``."""
    return card.endswith("d")


def is_red(card: str) -> bool:
    return number(card) in RED_NUMBERS


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=INDEX.__getitem__)


def full_deck() -> list[str]:
    return [k for k in KINDS for _ in range(COPIES)]


# -- sets and their 胡息 ----------------------------------------------------------------
@dataclass(frozen=True)
class SetKind:
    """A kind of set, with its 胡息 when made of small / big cards (RULINGS §paohuzi)."""

    id: str
    term: str
    english: str
    small: int
    big: int


SET_KINDS: dict[str, SetKind] = {s.id: s for s in (
    SetKind("ti", "提", "concealed quad", 9, 12),
    SetKind("pao", "跑", "exposed quad", 6, 9),
    SetKind("kan", "坎", "dealt triple", 3, 6),
    SetKind("wei", "偎", "drawn triple", 3, 6),
    SetKind("chouwei", "臭偎", "pon of a passed card", 3, 6),
    SetKind("peng", "碰", "pon", 1, 3),
    SetKind("triple", "刻子", "identical triple in hand", 3, 6),
    SetKind("sequence", "一二三/二七十", "sequence 1-2-3 or 2-7-10", 3, 6),
    SetKind("run", "シークエンス", "other sequence", 0, 0),
    SetKind("mixed", "ラン", "mixed triple", 0, 0),
    SetKind("pair", "対子", "pair beside a quad", 0, 0),
)}
QUADS = frozenset({"ti", "pao"})
CONCEALED_TRIPLES = frozenset({"kan", "wei"})  # face-down triples a fourth card turns into a quad
SEQUENCE_KINDS = frozenset({"sequence", "run", "mixed"})  # the chi shapes


def chi_shape(cards: Sequence[str]) -> str | None:
    """The kind of a three-card set that is not three identical cards, or None.

    シークエンス: same suit, consecutive, or 二七十 of one suit; ラン: one number, both suits.
    """
    if len(cards) != 3:
        return None
    nums = sorted(number(c) for c in cards)
    suits = {is_big(c) for c in cards}
    if len(set(nums)) == 1:
        return "mixed" if len(suits) == 2 else None
    if len(suits) != 1:
        return None
    if nums == [2, 7, 10] or nums == [1, 2, 3]:
        return "sequence"
    if nums[1] == nums[0] + 1 and nums[2] == nums[1] + 1:
        return "run"
    return None


def set_huxi(kind: str, cards: Sequence[str]) -> int:
    spec = SET_KINDS[kind]
    return spec.big if is_big(cards[0]) else spec.small


@dataclass(frozen=True)
class Meld:
    """A set on the table (手役カード): its kind and cards; 提 坎 偎 lie face down."""

    kind: str
    cards: tuple[str, ...]

    @property
    def huxi(self) -> int:
        return set_huxi(self.kind, self.cards)

    @property
    def concealed(self) -> bool:
        return self.kind in ("ti", "kan", "wei")

    def describe(self) -> str:
        spec = SET_KINDS[self.kind]
        return f"{spec.term} {' '.join(self.cards)}: {self.huxi}"


# -- hand arrangements ------------------------------------------------------------------
Counts = tuple[int, ...]


def counts_of(cards: Iterable[str]) -> Counts:
    c = [0] * len(KINDS)
    for card in cards:
        c[INDEX[card]] += 1
    return tuple(c)


def _sets_with(counts: Counts, i: int) -> Iterator[tuple[str, tuple[int, ...]]]:
    """The three-card sets that use kind ``i`` (the lowest kind left) and kinds above it."""
    n = i % 10 + 1
    if counts[i] >= 3:
        yield "triple", (i, i, i)
    if n <= 8 and counts[i + 1] and counts[i + 2]:
        yield ("sequence" if n == 1 else "run"), (i, i + 1, i + 2)
    if n == 2 and counts[i + 5] and counts[i + 8]:
        yield "sequence", (i, i + 5, i + 8)
    if i < 10:
        j = i + 10
        if counts[i] >= 2 and counts[j] >= 1:
            yield "mixed", (i, i, j)
        if counts[j] >= 2:
            yield "mixed", (i, j, j)


@lru_cache(maxsize=200_000)
def best_arrangements(counts: Counts, pair: bool) -> dict[bool, tuple[int, tuple[tuple[str, tuple[str, ...]], ...]]]:
    """Every card of ``counts`` in three-card sets (and exactly one pair when ``pair``).

    Returns, for "has a sequence or mixed triple" False/True, the arrangement with the most
    胡息: (胡息, ((kind, cards), ...)). Empty when the cards cannot be arranged.
    """
    i = next((k for k, v in enumerate(counts) if v), None)
    if i is None:
        return {} if pair else {False: (0, ())}
    out: dict[bool, tuple[int, tuple]] = {}

    def consider(kind: str, used: tuple[int, ...], need_pair: bool) -> None:
        rest = list(counts)
        for k in used:
            rest[k] -= 1
        cards = tuple(KINDS[k] for k in used)
        hx = set_huxi(kind, cards)
        for flag, (sub_hx, sub_sets) in best_arrangements(tuple(rest), need_pair).items():
            f = flag or kind in SEQUENCE_KINDS
            cand = (hx + sub_hx, ((kind, cards),) + sub_sets)
            if f not in out or cand[0] > out[f][0]:
                out[f] = cand

    if pair and counts[i] >= 2:
        consider("pair", (i, i), False)
    for kind, used in _sets_with(counts, i):
        consider(kind, used, pair)
    return out


@lru_cache(maxsize=200_000)
def best_partial_huxi(counts: Counts) -> int:
    """The most 胡息 the complete three-card sets among these cards can give (loose cards count 0)."""
    i = next((k for k, v in enumerate(counts) if v), None)
    if i is None:
        return 0
    rest = list(counts)
    rest[i] -= 1
    best = best_partial_huxi(tuple(rest))
    for kind, used in _sets_with(counts, i):
        rest = list(counts)
        for k in used:
            rest[k] -= 1
        best = max(best, set_huxi(kind, tuple(KINDS[k] for k in used)) + best_partial_huxi(tuple(rest)))
    return best


def chi_options(hand: Counter, card: str) -> list[tuple[str, ...]]:
    """Every sequence or mixed triple ``card`` makes with two cards of ``hand`` (sorted)."""
    n, big = number(card), is_big(card)
    suit = "d" if big else "x"
    other = "x" if big else "d"
    candidates: list[tuple[str, str]] = []
    for start in range(max(1, n - 2), min(n, 8) + 1):
        run = [f"{k}{suit}" for k in range(start, start + 3)]
        run.remove(card)
        candidates.append((run[0], run[1]))
    if n in RED_NUMBERS:
        reds = [f"{k}{suit}" for k in sorted(RED_NUMBERS)]
        reds.remove(card)
        candidates.append((reds[0], reds[1]))
    same, diff = f"{n}{suit}", f"{n}{other}"
    candidates += [(same, diff), (diff, diff)]
    out: list[tuple[str, ...]] = []
    for a, b in candidates:
        need = Counter([a, b])
        if all(hand[c] >= k for c, k in need.items()):
            shape = tuple(sort_cards([card, a, b]))
            if chi_shape(shape) and shape not in out:
                out.append(shape)
    return out


# -- scoring ----------------------------------------------------------------------------
@dataclass(frozen=True)
class HandFacts:
    """What the 番 table looks at in a winning hand."""

    red: int
    big: int
    small: int
    has_sequence: bool  # any sequence or mixed triple (a chi shape), on the table or in hand


@dataclass(frozen=True)
class FanItem:
    """One line of the 番 table (RULINGS §paohuzi): id, seed term, English, value rule."""

    id: str
    term: str
    english: str

    def value(self, f: HandFacts) -> int:
        if self.id == "hong":
            return 4 + (f.red - 10) if f.red >= 10 else 0
        if self.id == "dian":
            return 6 if f.red == 1 else 0
        if self.id == "hei":
            return 8 if f.red == 0 else 0
        if self.id == "dui":
            return 0 if f.has_sequence else 8
        if self.id == "da":
            return 8 + (f.big - 18) if f.big >= 18 else 0
        if self.id == "xiao":
            return 8 + (f.small - 16) if f.small >= 16 else 0
        return 0


FAN_TABLE: tuple[FanItem, ...] = (
    FanItem("hong", "红胡", "10 or more red cards: 4 + (red - 10)"),
    FanItem("dian", "点胡", "exactly one red card: 6"),
    FanItem("hei", "黑胡", "no red card: 8"),
    FanItem("dui", "对胡", "no sequence or mixed triple (no chi shape): 8"),
    FanItem("da", "大胡", "18 or more big cards: 8 + (big - 18)"),
    FanItem("xiao", "小胡", "16 or more small cards: 8 + (small - 16)"),
)


@dataclass
class WinResult:
    """A winning hand, scored: its seven sets, 胡息, 底数 and 番."""

    seat: str
    sets: list[Meld]
    huxi: int
    self_drawn: bool
    tianhu: str | None  # None | "sets" (3 quads / 5 triples) | "dealt" | "first_discard"
    dishu: int
    fans: list[tuple[FanItem, int]]
    fan: int
    score: int
    checked: bool = True  # False: a win from an unseen hand, taken on trust


def facts_of(sets: Sequence[Meld]) -> HandFacts:
    cards = [c for s in sets for c in s.cards]
    big = sum(1 for c in cards if is_big(c))
    return HandFacts(red=sum(1 for c in cards if is_red(c)), big=big, small=len(cards) - big,
                     has_sequence=any(s.kind in SEQUENCE_KINDS for s in sets))


def dishu_of(huxi: int, self_drawn: bool, tianhu: str | None) -> int:
    """底数 = (胡息 - 12) ÷ 3 (+1 self-drawn); 天胡: (胡息 × 2 - 12) ÷ 3 (+1 on the dealt hand)."""
    if tianhu:
        return max(0, (huxi * 2 - 12) // 3) + (1 if tianhu == "dealt" else 0)
    return max(0, (huxi - 12) // 3) + (1 if self_drawn else 0)


def score_sets(seat: str, sets: list[Meld], self_drawn: bool, tianhu: str | None, rules: Rules) -> WinResult:
    huxi = sum(s.huxi for s in sets)
    dishu = dishu_of(huxi, self_drawn, tianhu)
    fans: list[tuple[FanItem, int]] = []
    if rules["fan_table"] == "rulings":
        facts = facts_of(sets)
        fans = [(item, v) for item in FAN_TABLE if (v := item.value(facts))]
    fan = sum(v for _, v in fans) or 1
    return WinResult(seat, sets, huxi, self_drawn, tianhu, dishu, fans, fan, dishu * fan)


# -- options ----------------------------------------------------------------------------
OPTIONS = (
    RuleOption("dealer_rotation", "blog", ("blog", "blog_keep", "original"),
               "blog: the 親 passes to the next player every hand; blog_keep: a 親 who wins stays; "
               "original: the winner becomes 親, a draw keeps him, three draws in a row pass it on", f"{SEED} §ディール; {RULING}"),
    RuleOption("claims_on_discard", "all", ("all", "chi_only"),
               "all: pon and pao may be made on discards too; chi_only: a discard may only be chi'd", RULING),
    WholeNumber("min_huxi", "15", (), "the fewest 胡息 a winning hand needs (天胡: 8)", f"{SEED} §上がり",
                what="a number of 胡息, 0 or more"),
    RuleOption("fan_table", "rulings", ("rulings", "plain"),
               "rulings: 红胡 点胡 黑胡 对胡 大胡 小胡 (docs/rulings.md §paohuzi); plain: 番 is always 1", RULING),
    RuleOption("second_quad", "no_discard", ("no_discard", "discard"),
               "no_discard: after his second or later quad (提 or 跑) a player does not discard", f"{SEED} §プレイ"),
    RuleOption("chouwei", "discarded", ("discarded", "off"),
               "discarded: a pon is 臭偎 (3/6 胡息) when a like card already lies in a discard pile; off: never", f"{SEED} §プレイ; {OUR_RULING}"),
)


# -- actions ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    seat: str
    card: str


@dataclass(frozen=True)
class Discard:
    seat: str
    card: str


@dataclass(frozen=True)
class Pon:
    seat: str
    card: str | None = None


@dataclass(frozen=True)
class Pao:
    seat: str
    card: str | None = None


@dataclass(frozen=True)
class Chi:
    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Win:
    seat: str
    card: str | None = None


@dataclass(frozen=True)
class Pass:
    seat: str


@dataclass(frozen=True)
class Exhausted:
    pass


Action = Draw | Discard | Pon | Pao | Chi | Win | Pass | Exhausted


# -- state ------------------------------------------------------------------------------
@dataclass
class PaohuziMatch(Match):
    draws_in_row: int = 0  # hands drawn in a row under one 親 (dealer_rotation=original)


@dataclass
class PaohuziState(HandState):
    seats: list[str] = field(default_factory=list)  # the seats in play, in turn order
    dealer: str = ""
    sitter: str | None = None  # the shuffler who sits out with four players
    hands: dict[str, Counter] = field(default_factory=dict)
    melds: dict[str, list[Meld]] = field(default_factory=dict)
    discards: dict[str, list[str]] = field(default_factory=dict)
    dealt_sets: dict[str, tuple[int, int]] = field(default_factory=dict)  # seat -> (quads, triples) dealt
    stock: list[str] | None = None  # the known stock, top first
    stock_left: int = 0
    phase: str = "opening"  # opening | draw | offer | discard | set_down | over
    turn: str = ""
    must_discard: bool | None = True  # in set_down: whether the drawer discards (None: unknown, a hidden draw)
    blind: set[str] = field(default_factory=set)  # seats whose dealt cards were not all seen (``*``)
    unseen: Counter = field(default_factory=Counter)  # about how many unseen cards each such seat holds (for views)
    offer: str | None = None
    offer_from: str | None = None
    offer_source: str | None = None  # draw | discard
    first_discard: bool = False  # the card on offer is the 親's first discard
    declined: set[str] = field(default_factory=set)
    acted: set[str] = field(default_factory=set)
    located: Counter = field(default_factory=Counter)  # copies of each kind seen somewhere
    result: WinResult | None = None
    exhausted: bool = False
    last: dict[str, str] = field(default_factory=dict)
    last_quad: str | None = None  # who just made a second quad and does not discard
    drawn: str | None = None  # the card the drawer just laid face down (提 / 偎), while he may win on it


def read_draws(header: HandHeader) -> tuple[int | None, str]:
    """A hand line's ``draws=N`` (dealer_rotation=original: the hands in a row that its 親 has
    drawn before it, 0 to 2), None when not written; and a problem ('' when it reads)."""
    written = header.attrs.get("draws")
    if written is None:
        return None, ""
    if written not in ("0", "1", "2"):
        return None, (f"draws={written[:20]}: the hands in a row the 親 has drawn before this one, 0, 1 or 2 "
                      f"(the third passes the deal on: {RULING})")
    return int(written), ""


class Paohuzi(Engine[PaohuziState, Action]):
    id = "paohuzi"
    title = "跑胡子 Paohuzi"
    family = "paohuzi"
    seat_counts = (3, 4)
    options = OPTIONS
    setup_verbs = frozenset({"deal", "stock"})
    source = SEED
    zero_sum = True  # each player who did not win pays the winner
    zero_sum_rule = f"{SEED} §支払い: 「上がれなかったプレイヤーはそれぞれ上がったプレイヤーに得点分の点数を支払います」"
    selfplay_hands = 3

    # -- match ------------------------------------------------------------------------
    def start_match(self, rules: Rules, seats: list[str]) -> PaohuziMatch:
        return PaohuziMatch(rules=rules, seats=seats, totals={s: 0 for s in seats})

    def end_hand(self, match: Match, state: PaohuziState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        match.dealer = self.next_dealer(match, state)

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the 親 as the next hand's line writes it
        (or, without dealer=, the seat its deal gives the 親's cards). With
        ``dealer_rotation=original`` the draws in a row count too: a 親 who passed the deal on
        leaves none; one who deals again won or saw a draw, which is not known."""
        assert isinstance(match, PaohuziMatch)
        if match.rules["dealer_rotation"] == "original":
            was = match.dealer or broken.dealer
            if header.dealer is None or was is None:
                return "with dealer_rotation=original the 親 follows from how the hand before ended, and the hand lines do not both write it (dealer=...)"
            draws, problem = read_draws(header)
            if problem:
                return problem
            if header.dealer == was and draws is None:
                return ("with dealer_rotation=original a 親 who deals again won or saw a draw (three draws in a row pass the deal on): "
                        "how many draws in a row is not known (the hand line may write it: draws=N)")
            match.draws_in_row = draws or 0  # a 親 who passed the deal on leaves none
        return self.resume_carried(match, broken, header, totals)  # the dealer named above, the totals

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A session written from a later hand: each seat's running total (Start, adding up to
        0: the others pay the winner), the hand's number and its 親 (dealer=, or the seat dealt
        21 cards). With ``dealer_rotation=original`` the hand line also says how many hands in a
        row this 親 has drawn (``draws=N``, 0 to 2: a third passes the deal on), as after a hand
        the replay could not finish."""
        assert isinstance(match, PaohuziMatch)
        draws, problem = read_draws(header)
        if problem:
            return problem
        if match.rules["dealer_rotation"] != "original":
            if draws is not None:
                return (f"draws= counts a 親's drawn hands in a row, which only dealer_rotation=original keeps "
                        f"(dealer_rotation={match.rules['dealer_rotation']})")
        elif draws is None and match.hands_before:
            return ("with dealer_rotation=original three drawn hands in a row pass the deal on: the first hand line says how "
                    f"many this 親 has drawn in a row before it (draws=0, 1 or 2) ({SEED} §ディール; {RULING})")
        match.draws_in_row = draws or 0
        return super().start_from(match, header, totals)

    def next_dealer(self, match: Match, state: PaohuziState) -> str:
        rotation = match.rules["dealer_rotation"]
        winner = state.result.seat if state.result else None
        passed_on = self.next_seat(match.seats, state.dealer)
        if rotation == "blog":
            return passed_on
        if rotation == "blog_keep":
            return state.dealer if winner == state.dealer else passed_on
        # original: the winner deals; a draw keeps the 親, three draws in a row pass it on
        assert isinstance(match, PaohuziMatch)
        if winner is not None:
            match.draws_in_row = 0
            return winner
        match.draws_in_row += 1
        if match.draws_in_row >= 3:
            match.draws_in_row = 0
            return passed_on
        return state.dealer

    # -- hand set-up ------------------------------------------------------------------
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> PaohuziState:
        seats = match.seats
        dealt: dict[str, tuple[Event, list[str]]] = {}
        stock_event: Event | None = None
        for ev in setup:
            if ev.verb == "stock":
                if stock_event is not None:
                    raise Violation("L304", "the stock is written twice", event=ev)
                stock_event = ev
                continue
            seat = deal_seat(ev, seats, dealt, "1x 2x")
            try:
                dealt[seat] = (ev, _event_cards(ev, 1, allow_unseen=True))
            except Violation as v:
                v.event = ev
                raise
        first = setup[0] if setup else None
        dealer = header.dealer
        if dealer is None:
            dealer = next((s for s, (_, cs) in dealt.items() if len(cs) == DEALER_SIZE), None) or match.dealer
        if dealer is None:
            raise Violation("R206", "name the 親 on the hand line: 'hand 1 dealer=A'", RULING)  # located at the hand line
        if match.dealer is not None and dealer != match.dealer:
            raise Violation("R206", f"the 親 of hand {header.number} is {match.dealer} (dealer_rotation={match.rules['dealer_rotation']}), not {dealer}",
                            f"{SEED} §ディール; {RULING}", event=None if header.dealer is not None else dealt[dealer][0])
        shuffler = self.next_seat(seats, dealer, -1)  # ディーラー: the 親's left neighbour
        written = header.attrs.get("shuffler")
        if written is not None and written != shuffler:
            raise Violation("R206", f"the shuffler is the 親's left neighbour, {shuffler}, not {written} (親の左隣が最初のディーラー)",
                            f"{SEED} §ディール; {RULING}")  # located at the hand line
        sitter = shuffler if len(seats) == 4 else None
        in_play = [s for s in seats if s != sitter]
        # play starts with the 親; the seats keep their order of play
        state = PaohuziState(match=match, header=header, seats=in_play, dealer=dealer, sitter=sitter, turn=dealer)
        if sitter is not None and sitter in dealt:
            raise Violation("L304", f"{sitter} shuffles and sits out this hand (the 親's left neighbour): no cards are dealt to him "
                            "(4人の場合ディーラーにカードは配りません)", f"{SEED} §ディール", arg=0, event=dealt[sitter][0])
        for seat in in_play:
            if seat not in dealt:
                raise Violation("L304", f"no deal line for {seat}: every player in the hand is dealt", f"{SEED} §ディール", event=first)
            ev, cards = dealt[seat]
            want = DEALER_SIZE if seat == dealer else HAND_SIZE
            if len(cards) != want:
                raise Violation("L304", f"{seat} is dealt {len(cards)} cards; {'the 親 gets 21' if seat == dealer else 'each player gets 20, the 親 21'} "
                                "(20枚ずつ配ります。その後、親だけに追加で1枚)", f"{SEED} §ディール", arg=0, event=ev)
        everything: Counter = Counter()
        for seat in in_play:
            ev, cards = dealt[seat]
            for k, card in enumerate(cards):
                if card == "*":
                    continue
                everything[card] += 1
                if everything[card] > COPIES:
                    raise Violation("L304", f"a fifth {card} is dealt: there are four of each card", f"{SEED} §カードの構成", arg=card_place(ev, k, 1), event=ev)
        stock_size = len(KINDS) * COPIES - sum(len(dealt[s][1]) for s in in_play)
        if stock_event is not None:
            try:
                stock = _event_cards(stock_event, 0)
            except Violation as v:
                v.event = stock_event
                raise
            for k, card in enumerate(stock):
                everything[card] += 1
                if everything[card] > COPIES:
                    raise Violation("L304", f"a fifth {card} in the stock: there are four of each card", f"{SEED} §カードの構成", arg=card_place(stock_event, k), event=stock_event)
            if len(stock) != stock_size:
                raise Violation("L304", f"the stock holds the {stock_size} cards not dealt; {len(stock)} are written", f"{SEED} §ディール", event=stock_event)
            if stock and is_red(stock[-1]):
                raise Violation("L304", f"the stock's bottom card {stock[-1]} is red: it is turned up and put on top until the bottom card is black "
                                "(一番下のカード1枚が黒字のカードになるまでこれを繰り返します)", f"{SEED} §ディール",
                                arg=card_place(stock_event, len(stock) - 1), event=stock_event)
            state.stock = list(stock)
        state.stock_left = stock_size
        for seat in in_play:
            cards = dealt[seat][1]
            state.melds[seat], state.discards[seat] = [], []
            if "*" in cards:
                # an unseen hand: its face-down sets are unknown too; nothing is laid down
                state.blind.add(seat)
                known = [c for c in cards if c != "*"]
                state.unseen[seat] = len(cards) - len(known)
                state.hands[seat] = Counter(known)
                state.dealt_sets[seat] = (0, 0)
                state.located.update(known)
                continue
            hand = Counter(cards)
            quads = triples = 0
            for card in sort_cards(hand):
                if hand[card] == 4:
                    state.melds[seat].append(Meld("ti", (card,) * 4))
                    quads += 1
                elif hand[card] == 3:
                    state.melds[seat].append(Meld("kan", (card,) * 3))
                    triples += 1
            for m in state.melds[seat]:
                del hand[m.cards[0]]
            state.hands[seat] = hand
            state.discards[seat] = []
            state.dealt_sets[seat] = (quads, triples)
            state.located.update(cards)
        return state

    # -- reading events ---------------------------------------------------------------
    def read_action(self, state: PaohuziState, event: Event) -> Action:
        seat, verb = event.seat, event.verb
        if seat is None:
            if verb == "exhausted":
                if event.args:
                    raise Violation("L306", "'exhausted' takes nothing after it", arg=0)
                return Exhausted()
            raise Violation("L306", f"'{verb}' is not a paohuzi event here: the set-up lines (deal, stock) come first; "
                            "the stock running out is written 'exhausted'")
        if seat not in state.match.seats:
            raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(state.match.seats)})")
        if seat not in state.seats:
            raise Violation("L309", f"{seat} sits out this hand (he shuffled: the 親's left neighbour)", f"{SEED} §ディール")
        if verb is None:
            raise Violation("L306", "write the verb: 'A: discard 3x', 'B: draw 5x', 'C: pon 5x', 'C: pao 5x', 'B: chi 4x 5x 6x', 'A: win'")
        cards = _event_cards(event, 0, allow_unseen=verb == "draw")
        if verb in ("draw", "discard"):
            if len(cards) != 1:
                raise Violation("L306", f"'{verb}' names one card: '{seat}: {verb} 5x'", arg=card_place(event, 1) if len(cards) > 1 else None)
            return Draw(seat, cards[0]) if verb == "draw" else Discard(seat, cards[0])
        if verb in ("pon", "pao", "win"):
            if len(cards) > 1:
                raise Violation("L306", f"'{verb}' names at most the card taken: '{seat}: {verb} 5x'", arg=card_place(event, 1))
            card = cards[0] if cards else None
            return {"pon": Pon, "pao": Pao, "win": Win}[verb](seat, card)
        if verb == "chi":
            if len(cards) not in (2, 3):  # too many: located at the fourth card
                raise Violation("L306", "'chi' names the set made: 'B: chi 4x 5x 6x' (or the two cards from the hand)",
                                arg=card_place(event, 3) if len(cards) > 3 else None)
            return Chi(seat, tuple(cards))
        if verb == "pass":
            if cards:
                raise Violation("L306", "'pass' takes nothing after it", arg=0)
            return Pass(seat)
        raise Violation("L306", f"paohuzi has no verb '{verb}' (draw, discard, pon, pao, chi, win, pass; seat-less: exhausted)")

    # -- applying actions -------------------------------------------------------------
    def apply(self, state: PaohuziState, action: Action) -> None:
        if state.phase == "over":
            raise Violation("L308", "the hand is over")
        if isinstance(action, (Draw, Discard, Pon, Pao, Chi)):
            self._check_no_dealt_win_owed(state, action.seat)
        if isinstance(action, Win):
            self._apply_win(state, action)
        elif isinstance(action, Draw):
            self._apply_draw(state, action)
        elif isinstance(action, Discard):
            self._apply_discard(state, action)
        elif isinstance(action, (Pon, Pao, Chi)):
            self._apply_claim(state, action)
        elif isinstance(action, Pass):
            self._apply_pass(state, action)
        elif isinstance(action, Exhausted):
            self._apply_exhausted(state)

    def _after(self, seat: str, state: PaohuziState) -> str:
        return self.next_seat(state.seats, seat)

    def _next_drawer(self, state: PaohuziState) -> str:
        """Who draws next: after an offer, the right-hand neighbour of the seat it came from."""
        if state.phase == "offer":
            assert state.offer_from is not None
            return self._after(state.offer_from, state)
        if state.phase == "set_down":
            return self._after(state.turn, state)
        return state.turn

    def _pao_holder(self, state: PaohuziState) -> str | None:
        """The seat that must 跑 the card on offer (必ず「パオ」): three of it in hand or face down."""
        card = state.offer
        if card is None or not self._claims_allowed(state):
            return None
        for seat in state.seats:
            if seat == state.offer_from:
                continue
            if state.hands[seat][card] >= 3 or any(m.kind in CONCEALED_TRIPLES and m.cards[0] == card for m in state.melds[seat]):
                return seat
        return None

    def _claims_allowed(self, state: PaohuziState) -> bool:
        return state.offer_source == "draw" or state.match.rules["claims_on_discard"] == "all"

    def _apply_draw(self, state: PaohuziState, action: Draw) -> None:
        seat = action.seat
        drawer = self._next_drawer(state)
        if state.phase in ("opening", "discard") or (state.phase == "set_down" and state.must_discard):
            who = state.turn
            raise Violation("L301" if seat == who else "L302", f"{who} is to discard now, not {seat} to draw", f"{SEED} §プレイ")
        state.declined = set()
        state.last_quad = None
        if seat != drawer:
            raise Violation("L302", f"{drawer} draws next (play runs {' → '.join(state.seats)}: 反時計回り), not {seat}", f"{SEED} §プレイ")
        if state.phase == "offer":
            self._check_no_pao_owed(state, "draws")
            self._offer_to_discards(state)
        if state.stock_left == 0:
            raise Violation("L301", "the stock is empty: the hand is drawn (write 'exhausted')", f"{SEED} §プレイ終了")
        card = action.card
        if card == "*":
            self._hidden_draw(state, seat)
            return
        if state.stock is not None:
            if state.stock[0] != card:
                raise Violation("L304", f"the stock's top card is {state.stock[0]}, not {card}", f"{SEED} §ディール", arg=nth_card(0))
            state.stock.pop(0)
        elif state.located[card] >= COPIES:
            raise Violation("L304", f"all four {card} are already elsewhere: {seat} cannot draw a fifth", f"{SEED} §カードの構成", arg=nth_card(0))
        state.stock_left -= 1
        state.located[card] += 1
        state.acted.add(seat)
        state.last[seat] = f"drew {card}"
        hand, melds = state.hands[seat], state.melds[seat]
        concealed = next((k for k, m in enumerate(melds) if m.kind in CONCEALED_TRIPLES and m.cards[0] == card), None)
        made: str | None = None
        if hand[card] >= 3:
            hand[card] -= 3
            melds.append(Meld("ti", (card,) * 4))
            made = "ti"
        elif concealed is not None:
            melds[concealed] = Meld("ti", (card,) * 4)
            made = "ti"
        elif hand[card] == 2:
            hand[card] -= 2
            melds.append(Meld("wei", (card,) * 3))
            made = "wei"
        _clean(hand)
        state.turn = seat
        if made:
            # 引いたカードと組み合わせて槓子、または刻子になる: face down, never shown
            state.phase, state.drawn = "set_down", card
            quads = sum(1 for m in melds if m.kind in QUADS)
            second = made == "ti" and quads >= 2 and state.match.rules["second_quad"] == "no_discard"
            # a hand left empty has nothing to discard: the turn ends (docs/rulings.md §paohuzi)
            state.must_discard = None if seat in state.blind else (not second and sum(hand.values()) > 0)
            state.last[seat] = "提 (face down)" if made == "ti" else "偎 (face down)"
        else:
            state.phase = "offer"
            state.offer, state.offer_from, state.offer_source = card, seat, "draw"
            state.first_discard = False
            state.declined = set()

    def _hidden_draw(self, state: PaohuziState, seat: str) -> None:
        """``B: draw *``: a draw the scribe did not see, so it went down face down (提 or 偎)."""
        if seat not in state.blind:
            raise Violation("L305", f"{seat}'s hand is known: name the card he drew", arg=nth_card(0))
        if state.stock is not None:
            state.located[state.stock.pop(0)] += 1
        state.stock_left -= 1
        state.acted.add(seat)
        state.phase, state.turn, state.must_discard, state.drawn = "set_down", seat, None, None
        state.last[seat] = "提 or 偎 (face down)"
        state.notes.append(f"{seat}'s draw was not shown: a face-down 提 or 偎, not checked")

    def _can_take(self, state: PaohuziState, seat: str, card: str, n: int) -> bool:
        """Whether ``seat`` can give ``n`` of ``card`` from his hand (an unseen hand: while copies remain)."""
        hidden = n - min(state.hands[seat][card], n)
        return hidden == 0 or (seat in state.blind and COPIES - state.located[card] >= hidden)

    def _take(self, state: PaohuziState, seat: str, card: str, n: int) -> None:
        hand = state.hands[seat]
        known = min(hand[card], n)
        hand[card] -= known
        _clean(hand)
        if n > known:
            state.located[card] += n - known
            state.unseen[seat] = max(0, state.unseen[seat] - (n - known))
            state.notes.append(f"{' '.join([card] * (n - known))} from {seat}'s unseen hand: not checked against the deal")

    def _offer_to_discards(self, state: PaohuziState) -> None:
        """Nobody claimed the card on offer: it goes to its seat's discards (捨て札置き場)."""
        if state.offer is not None and state.offer_from is not None:
            state.discards[state.offer_from].append(state.offer)
        state.offer = state.offer_from = state.offer_source = None
        state.first_discard = False
        state.declined = set()

    def _check_no_pao_owed(self, state: PaohuziState, doing: str) -> None:
        holder = self._pao_holder(state)
        if holder is not None:
            raise Violation("L301", f"{holder} must pao {state.offer} before anyone {doing}: he holds three of it "
                            "(自分の手札と組み合わせて槓子になる場合は、必ず「パオ」)", f"{SEED} §プレイ")

    def _apply_discard(self, state: PaohuziState, action: Discard) -> None:
        seat, card = action.seat, action.card
        discarding = state.phase in ("opening", "discard") or (state.phase == "set_down" and state.must_discard is not False)
        if not discarding:
            if state.phase == "set_down" or (state.phase == "draw" and seat == state.last_quad):
                raise Violation("L301", f"{seat} made his second quad: he does not discard (例外として2組目以上の「パオ」の場合は手札から捨て札しません)",
                                f"{SEED} §プレイ")
            raise Violation("L302" if seat != self.to_act(state) else "L301",
                            f"no discard now: {self._expecting(state)}", f"{SEED} §プレイ")
        if seat != state.turn:
            raise Violation("L302", f"{state.turn} is to discard, not {seat}", f"{SEED} §プレイ")
        if not self._can_take(state, seat, card, 1):
            face_down = any(card in m.cards for m in state.melds[seat])
            why = "it lies in one of his sets on the table" if face_down else (
                "it is not in his hand" if seat not in state.blind else "all four are elsewhere")
            raise Violation("L303", f"{seat} does not hold {card}: {why}", arg=nth_card(0))
        self._take(state, seat, card, 1)
        state.first_discard = state.phase == "opening"
        state.acted.add(seat)
        state.phase = "offer"
        state.offer, state.offer_from, state.offer_source = card, seat, "discard"
        state.declined = set()
        state.last[seat] = f"discarded {card}"

    def _apply_claim(self, state: PaohuziState, action: Pon | Pao | Chi) -> None:
        seat = action.seat
        verb = {Pon: "pon", Pao: "pao", Chi: "chi"}[type(action)]
        if state.phase != "offer" or state.offer is None:
            raise Violation("L301", f"no card is on offer to {verb}: {self._expecting(state)}", f"{SEED} §プレイ")
        card = state.offer
        if not isinstance(action, Chi) and action.card is not None and action.card != card:
            raise Violation("L301", f"the card on offer is {card}, not {action.card}", arg=nth_card(0))
        if seat in state.declined:
            raise Violation("L301", f"{seat} passed on {card} already", f"{SEED} §プレイ")
        hand, melds = state.hands[seat], state.melds[seat]
        holder = self._pao_holder(state)
        if isinstance(action, Pao) and seat in state.blind and seat != state.offer_from and self._claims_allowed(state):
            # an unseen hand: the three may be in his hand or in a face-down 坎 nobody saw
            if not self._can_take(state, seat, card, 3):
                raise Violation("L303", f"{seat} cannot hold three {card}: the other copies are elsewhere", f"{SEED} §プレイ")
            self._take(state, seat, card, 3)
            melds.append(Meld("pao", (card,) * 4))
            self._take_offer(state, seat, f"pao {card}")
            state.phase, state.must_discard = "set_down", None  # his earlier quads are unknown
            return
        if isinstance(action, Pao):
            if seat == state.offer_from or seat != holder:
                if not self._claims_allowed(state):
                    raise Violation("L301", "pao is made on drawn cards only (claims_on_discard=chi_only)", RULING)
                pon_made = any(m.kind in ("peng", "chouwei") and m.cards[0] == card for m in melds)
                why = "a pon cannot be made into a quad (「ポン」宣言で作った刻子を槓子にすることはできません)" if pon_made else f"{seat} does not hold three {card}"
                raise Violation("L301", f"{seat} cannot pao {card}: {why}", f"{SEED} §プレイ")
            concealed = next((k for k, m in enumerate(melds) if m.kind in CONCEALED_TRIPLES and m.cards[0] == card), None)
            if concealed is not None:
                melds[concealed] = Meld("pao", (card,) * 4)
            else:
                hand[card] -= 3
                melds.append(Meld("pao", (card,) * 4))
            quads = sum(1 for m in melds if m.kind in QUADS)
            no_discard = quads >= 2 and state.match.rules["second_quad"] == "no_discard"
            self._take_offer(state, seat, f"pao {card}")
            if no_discard:
                state.phase, state.turn = "draw", self._after(seat, state)
                state.last_quad = seat
            return
        if holder is not None:
            self._check_no_pao_owed(state, f"may {verb}")
        if isinstance(action, Pon):
            if not self._claims_allowed(state):
                raise Violation("L301", "pon is made on drawn cards only (claims_on_discard=chi_only)", RULING)
            if seat == state.offer_from:
                raise Violation("L301", f"{seat} cannot pon his own {'draw' if state.offer_source == 'draw' else 'discard'}", f"{SEED} §プレイ")
            if not self._can_take(state, seat, card, 2):
                raise Violation("L303", f"{seat} needs two {card} in hand to pon it; he holds {hand[card]}", f"{SEED} §プレイ")
            self._take(state, seat, card, 2)
            passed = state.match.rules["chouwei"] == "discarded" and any(card in pile for pile in state.discards.values())
            melds.append(Meld("chouwei" if passed else "peng", (card,) * 3))
            self._take_offer(state, seat, f"{'臭偎' if passed else 'pon'} {card}")
            return
        # chi
        assert isinstance(action, Chi)
        may = (state.offer_source == "draw" and seat == state.offer_from) or seat == self._after(state.offer_from or seat, state)
        if not may:
            nxt = self._after(state.offer_from or seat, state)
            who = f"{state.offer_from} (who drew it) or {nxt}" if state.offer_source == "draw" else nxt
            raise Violation("L301", f"only {who} may chi {card} (右隣のプレイヤーは…「チー」)", f"{SEED} §プレイ")
        cards = list(action.cards)
        offer_at: int | None = None  # where the card on offer stands among the written cards
        if len(cards) == 3:
            if card not in cards:
                raise Violation("L301", f"the set must use the card on offer, {card}", f"{SEED} §プレイ")
            offer_at = cards.index(card)
            cards.remove(card)
        shape = tuple(sort_cards(cards + [card]))
        if not chi_shape(shape):
            raise Violation("L301", f"{' '.join(shape)} is no sequence or mixed triple (シークエンス / ラン)", f"{SEED} §セットの構成")
        need = Counter(cards)
        for c in sort_cards(need):
            if not self._can_take(state, seat, c, need[c]):
                # located at the first written copy of it that his hand lacks
                written = [k for k, x in enumerate(action.cards) if x == c and k != offer_at]
                missing = written[min(hand[c], len(written) - 1)]
                raise Violation("L303", f"{seat} does not hold {' '.join([c] * need[c])} in hand", arg=nth_card(missing))
        for c, n in need.items():
            self._take(state, seat, c, n)
        shape_kind = chi_shape(shape)
        assert shape_kind
        melds.append(Meld(shape_kind, shape))
        self._take_offer(state, seat, f"chi {' '.join(shape)}")

    def _take_offer(self, state: PaohuziState, seat: str, what: str) -> None:
        _clean(state.hands[seat])
        state.offer = state.offer_from = state.offer_source = None
        state.first_discard = False
        state.declined = set()
        state.acted.add(seat)
        state.phase, state.turn = "discard", seat
        state.last[seat] = what
        if not state.hands[seat] and seat not in state.blind:  # nothing left to discard: the turn ends (docs/rulings.md §paohuzi)
            state.phase, state.turn = "draw", self._after(seat, state)

    def _apply_pass(self, state: PaohuziState, action: Pass) -> None:
        if state.phase == "set_down" and action.seat == state.turn:
            state.declined.add(action.seat)  # the drawer lets his win go
            return
        if state.phase != "offer":
            raise Violation("L301", f"nothing to pass on: {self._expecting(state)}", f"{SEED} §プレイ")
        if self._pao_holder(state) == action.seat:
            raise Violation("L301", f"{action.seat} may not pass: he must pao {state.offer} (必ず「パオ」)", f"{SEED} §プレイ")
        state.declined.add(action.seat)

    def _apply_exhausted(self, state: PaohuziState) -> None:
        if state.stock_left > 0:
            raise Violation("L301", f"the stock still holds {state.stock_left} card(s): the hand goes on", f"{SEED} §プレイ終了")
        if state.phase in ("opening", "discard") or (state.phase == "set_down" and state.must_discard):
            raise Violation("L301", f"{state.turn} must discard first: the hand ends when his turn is over", f"{SEED} §プレイ終了")
        if state.phase == "offer":
            self._check_no_pao_owed(state, "ends the hand")
            self._offer_to_discards(state)
        state.phase, state.exhausted = "over", True

    def _apply_win(self, state: PaohuziState, action: Win) -> None:
        seat = action.seat
        self._check_win_card(state, action)
        if seat in state.blind:
            if state.phase == "offer" and state.offer_source == "discard" and seat == state.offer_from:
                raise Violation("L301", f"{seat} cannot win on his own discard", f"{SEED} §上がり")
            if not self._may_win_now(state, seat):
                raise Violation("L301", f"{seat} cannot win: there is no card to win on now ({self._expecting(state)})", f"{SEED} §上がり")
            state.result = WinResult(seat, [], 0, state.phase == "set_down", None, 0, [], 1, 0, checked=False)
            state.phase = "over"
            state.notes.append(f"{seat}'s win could not be checked or scored: his hand was not seen")
            return
        result = self.win_for(state, seat)
        if isinstance(result, str):
            raise Violation("L301", f"{seat} cannot win: {result}", f"{SEED} §上がり")
        state.result = result
        state.phase = "over"
        state.last[seat] = "胡 win"

    def _check_win_card(self, state: PaohuziState, action: Win) -> None:
        """A card written with a win is the card won on: the one on offer, or the drawer's own
        card that went down face down; a dealt hand's win (天胡) names none."""
        if action.card is None:
            return
        if state.phase == "offer":
            if action.card != state.offer:
                raise Violation("L301", f"the card on offer is {state.offer}, not {action.card}", arg=nth_card(0))
        elif state.phase == "set_down" and action.seat == state.turn:
            if state.drawn is not None and action.card != state.drawn:
                raise Violation("L301", f"{action.seat} drew {state.drawn}, not {action.card}", arg=nth_card(0))
        elif (state.phase == "opening" and action.seat == state.dealer) or self._dealt_win_sets(state, action.seat):
            raise Violation("L306", f"a win on the dealt hand (天胡) names no card: '{action.seat}: win'", arg=nth_card(0))

    def _may_win_now(self, state: PaohuziState, seat: str) -> bool:
        """Whether there is something ``seat`` could win on now (上がる場合は、次のいずれかの状況で上がれます):
        a card on offer, his own draw gone face down, or his dealt hand before he has acted."""
        if state.phase == "offer":
            return seat not in state.declined or seat not in state.acted
        if state.phase == "set_down":
            return seat == state.turn and seat not in state.declined
        if state.phase == "opening":
            return seat == state.dealer
        return seat not in state.acted and seat == self.to_act(state)

    # -- winning ----------------------------------------------------------------------
    def win_for(self, state: PaohuziState, seat: str) -> WinResult | str:
        """The best scoring of ``seat``'s win now, or why it is no win."""
        if seat in state.blind:
            return f"{seat}'s hand was not seen"
        rules = state.match.rules
        minimum = int(rules["min_huxi"])
        minimum_words = "セットの点数の合計が15点未満の場合は、上がることはできません" + ("" if minimum == 15 else f"; min_huxi={minimum}")
        hand = Counter(state.hands[seat])
        melds = list(state.melds[seat])
        tianhu = self._tianhu_sets(state, seat)
        if state.phase == "offer":
            card = state.offer
            assert card is not None
            if state.offer_source == "discard" and seat == state.offer_from:
                return "a player cannot win on his own discard"
            if seat in state.declined:
                # a pass lets the card go, not the dealt hand's win at his turn (その時点で上がり)
                return tianhu or f"{seat} passed on {card}"
            self_drawn = state.offer_source == "draw" and seat == state.offer_from
            first = state.first_discard
            concealed = next((k for k, m in enumerate(melds) if m.kind in CONCEALED_TRIPLES and m.cards[0] == card), None)
            # the winning card that makes a quad or triple must be used so (必ず槓子、または刻子にして)
            forced = "quad" if concealed is not None or hand[card] >= 3 else ("triple" if hand[card] == 2 else None)
            if concealed is not None:
                melds[concealed] = Meld("pao", (card,) * 4)
            elif hand[card] >= 3:
                hand[card] -= 3
                melds.append(Meld("pao", (card,) * 4))
            elif hand[card] == 2:
                hand[card] -= 2
                passed = rules["chouwei"] == "discarded" and any(card in pile for pile in state.discards.values())
                melds.append(Meld("chouwei" if passed else "peng", (card,) * 3))
            else:
                hand[card] += 1
            result = self._arrange(seat, hand, melds, self_drawn, "first_discard" if first else None, rules)
            need = 8 if first else minimum
            words = "天胡: 親が最初に捨てたカードで胡息が8以上あり、上がれる場合" if first else minimum_words
            if isinstance(result, str) and forced:
                result = (f"{card} must make a {forced} with his {card} (上がりの1枚で槓子、または刻子になる…必ず槓子、"
                          f"または刻子にして上がらなければなりません), and then {result}")
        elif state.phase == "set_down" and seat == state.turn:
            if seat in state.declined:
                return f"{seat} let this win go"
            result = self._arrange(seat, hand, melds, True, None, rules)
            need, words = minimum, minimum_words
        elif state.phase == "opening" and seat == state.dealer:
            result = self._arrange(seat, hand, melds, False, "dealt", rules)
            need, words = 8, "天胡: 親が最初の手札で全てがセットになっていて、胡息が8以上ある場合"
            if isinstance(result, str) and tianhu:
                return tianhu
        elif tianhu and seat not in state.acted and seat == self.to_act(state):
            return tianhu
        else:
            return f"there is no card to win on now ({self._expecting(state)})"
        if isinstance(result, str):
            if tianhu and seat not in state.acted:
                return tianhu
            return result
        if result.huxi < need:
            if tianhu and seat not in state.acted:
                return tianhu
            return f"{result.huxi} 胡息, fewer than {need} ({words})"
        return result

    def _check_no_dealt_win_owed(self, state: PaohuziState, seat: str) -> None:
        """A player dealt three quads or five triples wins at his turn; he plays no card first
        (自分の手番の時、手札に槓子が3組以上、また刻子が5組以上ある場合、その時点で上がりになりプレイ終了)."""
        sets = self._dealt_win_sets(state, seat)
        if sets is not None:
            raise Violation("L301", f"{seat} was dealt {sets}: at his turn the hand is won at once, write '{seat}: win' "
                            "(自分の手番の時、手札に槓子が3組以上、また刻子が5組以上ある場合、その時点で上がりになりプレイ終了)",
                            f"{SEED} §プレイ")

    def _dealt_win_sets(self, state: PaohuziState, seat: str) -> str | None:
        """What makes ``seat``'s dealt hand a win (three quads, or five triples with a quad counting
        as one) while he has not acted, or None."""
        if seat in state.acted or seat in state.blind or state.phase == "over":
            return None
        quads, triples = state.dealt_sets.get(seat, (0, 0))
        if quads >= 3:
            return f"{quads} quads"
        if quads + triples >= 5:
            return f"{quads + triples} triples" + (" (a quad counts as one)" if quads else "")
        return None

    def _tianhu_sets(self, state: PaohuziState, seat: str) -> WinResult | None:
        """天胡 by the dealt hand: three or more quads, or five or more triples (quads count)."""
        if self._dealt_win_sets(state, seat) is None:
            return None
        dealt = [m for m in state.melds[seat] if m.kind in ("ti", "kan")]
        loose = list(state.hands[seat].elements())
        # the loose cards' best sets add their 胡息; the 番 look at every card held, and
        # 对胡 needs every card in the dealt quads and triples (docs/rulings.md §paohuzi)
        huxi = sum(m.huxi for m in dealt) + best_partial_huxi(counts_of(loose))
        dishu = dishu_of(huxi, False, "sets")
        fans: list[tuple[FanItem, int]] = []
        if state.match.rules["fan_table"] == "rulings":
            cards = [c for m in dealt for c in m.cards] + loose
            big = sum(1 for c in cards if is_big(c))
            facts = HandFacts(red=sum(1 for c in cards if is_red(c)), big=big, small=len(cards) - big, has_sequence=bool(loose))
            fans = [(item, v) for item in FAN_TABLE if (v := item.value(facts))]
        fan = sum(v for _, v in fans) or 1
        return WinResult(seat, dealt, huxi, False, "sets", dishu, fans, fan, dishu * fan)

    def _arrange(self, seat: str, hand: Counter, melds: list[Meld], self_drawn: bool, tianhu: str | None, rules: Rules) -> WinResult | str:
        cards = list(hand.elements())
        n = len(cards)
        has_quad = any(m.kind in QUADS for m in melds)
        if n % 3 == 1:
            return f"{len(melds)} sets on the table and {n} cards in hand cannot make seven sets"
        pair = n % 3 == 2
        if pair and not has_quad:
            return "a pair is allowed only beside a quad (1組以上の槓子、1組の対子を含む7組)"
        sets_in_hand = n // 3 + (1 if pair else 0)
        if len(melds) + sets_in_hand != SETS_TO_WIN:
            return f"{len(melds) + sets_in_hand} sets, not seven"
        options = best_arrangements(counts_of(cards), pair)
        if not options:
            return f"{' '.join(sort_cards(cards))} do not all fall into sets"
        best: WinResult | None = None
        for _, (_, sets) in options.items():
            all_sets = melds + [Meld(kind, cs) for kind, cs in sets]
            result = score_sets(seat, all_sets, self_drawn, tianhu, rules)
            if best is None or (result.score, result.huxi) > (best.score, best.huxi):
                best = result
        assert best is not None
        return best

    # -- what may happen next -----------------------------------------------------------
    def _expecting(self, state: PaohuziState) -> str:
        if state.phase == "over":
            return "the hand is over"
        if state.phase == "opening":
            return f"the 親 {state.dealer} discards first"
        if state.phase == "discard" or (state.phase == "set_down" and state.must_discard):
            return f"{state.turn} is to discard"
        if state.phase == "set_down" and state.must_discard is None:  # an unseen hand's face-down set
            return f"{state.turn} is to discard, or {self._next_drawer(state)} to draw"
        if state.phase == "offer":
            return f"{state.offer} from {state.offer_from} is on offer"
        return f"{self._next_drawer(state)} is to draw"

    def claim_options(self, state: PaohuziState, seat: str) -> list[Action]:
        """What ``seat`` may do with the card on offer (its pass aside)."""
        if state.phase != "offer" or state.offer is None or seat in state.declined:
            return []
        card = state.offer
        out: list[Action] = []
        if not isinstance(self.win_for(state, seat), str):
            out.append(Win(seat))
        if self._dealt_win_sets(state, seat) is not None:
            return out  # a claim would start his turn, where his dealt hand wins at once
        holder = self._pao_holder(state)
        if holder is not None:
            if seat == holder:
                out.append(Pao(seat, card))
            return out
        hand = state.hands[seat]
        if seat != state.offer_from and self._claims_allowed(state) and hand[card] == 2:
            out.append(Pon(seat, card))
        nxt = self._after(state.offer_from or seat, state)
        if (state.offer_source == "draw" and seat == state.offer_from) or seat == nxt:
            out += [Chi(seat, shape) for shape in chi_options(hand, card)]
        return out

    def _claimers(self, state: PaohuziState) -> list[str]:
        """Seats with a claim on the card on offer, in the order they are asked: wins
        (the drawer first, then in turn order), pao, pon, the drawer's chi, the next chi."""
        assert state.offer_from is not None
        start = state.offer_from
        order = [self.next_seat(state.seats, start, k) for k in range(len(state.seats))]
        if state.offer_source == "discard":
            order = order[1:]
        options = {s: self.claim_options(state, s) for s in order}
        ranked: list[str] = []
        for kinds in ((Win,), (Pao,), (Pon,), (Chi,)):
            for s in order:
                if s not in ranked and any(isinstance(a, kinds) for a in options[s]):
                    ranked.append(s)
        return ranked

    def to_act(self, state: PaohuziState) -> str | None:
        if state.phase == "over":
            return None
        if state.phase == "offer":
            claimers = self._claimers(state)
            return claimers[0] if claimers else self._next_drawer(state)
        if state.phase == "set_down" and not state.must_discard:
            return state.turn if not isinstance(self.win_for(state, state.turn), str) and state.turn not in state.declined else self._next_drawer(state)
        return state.turn

    def legal_actions(self, state: PaohuziState) -> list[Action]:
        seat = self.to_act(state)
        if seat is None or state.blind:
            return []  # unseen hands: their plays cannot be listed
        if self._dealt_win_sets(state, seat) is not None:
            return [Win(seat)]  # その時点で上がり
        out: list[Action] = []
        if state.phase == "offer":
            claimers = self._claimers(state)
            if claimers:
                out = self.claim_options(state, seat)
                if not any(isinstance(a, Pao) for a in out):
                    out.append(Pass(seat))
                return out
            return self._draws(state, seat)
        win = self.win_for(state, seat)
        if not isinstance(win, str):
            out.append(Win(seat))
        if state.phase in ("opening", "discard") or (state.phase == "set_down" and state.must_discard):
            out += [Discard(seat, c) for c in sort_cards(state.hands[seat])]
            return out
        if state.phase == "set_down" and seat == state.turn:
            out.append(Pass(seat))  # a drawer passing on his win after his second quad
            return out
        return out + self._draws(state, seat)

    def _draws(self, state: PaohuziState, seat: str) -> list[Action]:
        if state.stock_left == 0:
            return [Exhausted()]
        if state.stock is not None:
            return [Draw(seat, state.stock[0])]
        return [Draw(seat, k) for k in KINDS if state.located[k] < COPIES]

    def hand_over(self, state: PaohuziState) -> bool:
        return state.phase == "over"

    # -- settlement -------------------------------------------------------------------
    def settle(self, state: PaohuziState) -> Settlement:
        deltas = {s: 0 for s in state.match.seats}
        out = Settlement(deltas)
        result = state.result
        if result is None:
            out.items.append(ScoreItem(state.dealer, "drawn hand", 0, "流局", "the stock ran out: no payments"))
            return out
        seat = result.seat
        if not result.checked:
            out.unknown.update(state.seats)
            out.items.append(ScoreItem(seat, "win", 0, "胡", "not scored: the winner's hand was not seen"))
            return out
        for meld in result.sets:
            spec = SET_KINDS[meld.kind]
            out.items.append(ScoreItem(seat, spec.english, meld.huxi, spec.term, f"{' '.join(meld.cards)}: {meld.huxi} 胡息"))
        if result.tianhu == "sets":
            out.items.append(ScoreItem(seat, "loose cards' sets", result.huxi - sum(m.huxi for m in result.sets), "胡息",
                                       "best sets of the cards beside the dealt quads and triples"))
        out.items.append(ScoreItem(seat, "hu xi", result.huxi, "胡息", "total"))
        if result.tianhu:
            plus = " + 1 (dealt hand)" if result.tianhu == "dealt" else ""
            detail = f"({result.huxi} × 2 - 12) ÷ 3{plus} = {result.dishu}"
            out.items.append(ScoreItem(seat, "heavenly hand", result.dishu, "天胡", detail))
        else:
            plus = " + 1 (self-drawn)" if result.self_drawn else ""
            out.items.append(ScoreItem(seat, "base", result.dishu, "底数", f"({result.huxi} - 12) ÷ 3{plus} = {result.dishu}"))
        for item, value in result.fans:
            out.items.append(ScoreItem(seat, item.english.split(":")[0], value, item.term, "番"))
        out.items.append(ScoreItem(seat, "fan", result.fan, "番数", "sum of the 番 items, 1 if none"))
        out.items.append(ScoreItem(seat, "score", result.score, "得点", f"{result.dishu} × {result.fan}"))
        for loser in state.seats:
            if loser == seat:
                continue
            deltas[loser] -= result.score
            deltas[seat] += result.score
            out.payments.append(Payment(loser, seat, result.score, "得点"))
        return out

    # -- views ------------------------------------------------------------------------
    def view(self, state: PaohuziState, seat: str | None) -> TableView:
        seats: list[SeatView] = []
        for s in state.match.seats:
            if s == state.sitter:
                seats.append(SeatView(s, [], score=state.match.totals.get(s, 0), labels=["shuffler, sits out"]))
                continue
            hand = sort_cards(state.hands[s].elements())
            mine = seat is None or seat == s
            hidden = state.unseen[s]
            zones = [Zone("hand", hand if mine else [], hidden=hidden if mine else len(hand) + hidden, layout="fan")]
            groups = [list(m.cards) if mine or not m.concealed else (["*"] * (len(m.cards) - 1) + [m.cards[0]] if m.kind == "ti" else ["*"] * len(m.cards))
                      for m in state.melds[s]]
            zones.append(Zone("sets", [c for g in groups for c in g], groups=groups, layout="melds"))
            zones.append(Zone("discards", list(state.discards[s]), layout="row"))
            labels = []
            if s == state.dealer:
                labels.append("親 dealer")
            if s in state.last:
                labels.append(state.last[s])
            if state.result and state.result.seat == s:
                labels.append("胡")
            seats.append(SeatView(s, zones, score=state.match.totals.get(s, 0), to_act=s == self.to_act(state), labels=labels))
        center = [Zone("stock", [], hidden=state.stock_left, layout="count")]
        if state.offer is not None:
            center.append(Zone("on offer", [state.offer], layout="row"))
        info = {"stock": str(state.stock_left), "to do": self._expecting(state)}
        return TableView("paohuzi", seats, center, info)

    def seat_view(self, state: PaohuziState, seat: str) -> "Seen":
        return Seen(
            seat=seat,
            phase=state.phase,
            hand=Counter(state.hands[seat]),
            melds=tuple(state.melds[seat]),
            offer=state.offer,
            offer_from=state.offer_from,
            offer_source=state.offer_source,
            stock_left=state.stock_left,
            discards={s: tuple(p) for s, p in state.discards.items()},
            others_open={s: tuple(m for m in ms if not m.concealed) for s, ms in state.melds.items() if s != seat},
        )

    def event_for(self, state: PaohuziState, action: Action) -> Event:
        if isinstance(action, Exhausted):
            return Event(verb="exhausted")
        if isinstance(action, Draw):
            return Event(seat=action.seat, verb="draw", args=[CardsArg(cards=[action.card])])
        if isinstance(action, Discard):
            return Event(seat=action.seat, verb="discard", args=[CardsArg(cards=[action.card])])
        if isinstance(action, (Pon, Pao)):
            card = action.card or state.offer
            verb = "pon" if isinstance(action, Pon) else "pao"
            return Event(seat=action.seat, verb=verb, args=[CardsArg(cards=[card])] if card else [])
        if isinstance(action, Chi):
            return Event(seat=action.seat, verb="chi", args=[CardsArg(cards=list(action.cards))])
        if isinstance(action, Win):
            return Event(seat=action.seat, verb="win")
        return Event(seat=action.seat, verb="pass")

    # -- selfplay ---------------------------------------------------------------------
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        dealer = match.dealer or match.seats[0]
        sitter = self.next_seat(match.seats, dealer, -1) if len(match.seats) == 4 else None
        deck = full_deck()
        rng.shuffle(deck)
        events: list[Event] = []
        pos = 0
        for seat in match.seats:
            if seat == sitter:
                continue
            size = DEALER_SIZE if seat == dealer else HAND_SIZE
            cards = sort_cards(deck[pos:pos + size])
            pos += size
            events.append(Event(verb="deal", args=[SeatArg(seat=seat), CardsArg(cards=cards)]))
        stock = deck[pos:]
        for _ in range(len(stock)):  # the bottom card is turned up and put on top until it is black
            if not is_red(stock[-1]):
                break
            stock.insert(0, stock.pop())
        events.append(Event(verb="stock", args=[CardsArg(cards=stock)]))
        return Hand(args=[NumArg(value=number), OptionArg(key="dealer", value=dealer)], events=events)

    def chouwei_deal(self, match: Match, number: int, rng: random.Random) -> Hand:
        """臭偎 (``chouwei_plan``) stacked into an ordinary shuffle, dealt by ``deal_hand``."""
        dealer = match.dealer or match.seats[0]
        sitter = self.next_seat(match.seats, dealer, -1) if len(match.seats) == 4 else None
        playing = [s for s in match.seats if s != sitter]
        nxt = self.next_seat(playing, dealer)
        hands, stock = chouwei_plan(rng)

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            rest = list(pack)
            for c in [c for h in hands for c in h] + [c for c in stock if c is not None]:
                rest.remove(c)
            out: list[str] = []
            for s in playing:
                given = hands[0] if s == dealer else hands[1] if s == nxt else []
                out += given + [rest.pop() for _ in range((DEALER_SIZE if s == dealer else HAND_SIZE) - len(given))]
            out += [c if c is not None else rest.pop() for c in stock]
            if is_red(rest[-1]):  # the stock's bottom card black: the stock is not turned
                k = next(i for i, c in enumerate(rest) if not is_red(c))
                rest[-1], rest[k] = rest[k], rest[-1]
            return out + rest

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """天胡 (``heavenly hand``) by the dealt hand: the 親 is dealt five triples, stacked into an
        ordinary shuffle (a triple may meet its fourth card: three quads or five sets then).
        The 番 items come the same way, the 親's 21 cards chosen for them: 黑胡 (no red card),
        点胡 (one red), 大胡 (all big), 小胡 (all small), 对胡 (seven triples)."""
        wanted = aim.casefold()
        if wanted in AIM_CHOUWEI:
            return self.chouwei_deal(match, number, rng)
        fan_aims: dict[str, tuple[Callable[[str], bool], int, int]] = {
            # aim: (which cards, triples, red cards among the rest)
            "天胡": (lambda c: True, 5, -1), "heavenly hand": (lambda c: True, 5, -1),
            "黑胡": (lambda c: not is_red(c), 5, 0), "no red card": (lambda c: not is_red(c), 5, 0),
            "点胡": (lambda c: not is_red(c), 5, 1), "exactly one red card": (lambda c: not is_red(c), 5, 1),
            "大胡": (is_big, 5, -1), "18 or more big cards": (is_big, 5, -1),
            "小胡": (lambda c: not is_big(c), 5, -1), "16 or more small cards": (lambda c: not is_big(c), 5, -1),
            "对胡": (lambda c: True, 7, -1), "no sequence or mixed triple (no chi shape)": (lambda c: True, 7, -1),
        }
        if wanted not in fan_aims:
            return None
        fits, count, reds = fan_aims[wanted]
        size = 3
        dealer = match.dealer or match.seats[0]
        sitter = self.next_seat(match.seats, dealer, -1) if len(match.seats) == 4 else None
        playing = [s for s in match.seats if s != sitter]
        at = sum(DEALER_SIZE if s == dealer else HAND_SIZE for s in playing[:playing.index(dealer)])

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            kinds = r.sample(sorted({c for c in pack if fits(c)}), count)
            chosen = [k for k in kinds for _ in range(size)]
            rest = list(pack)
            for c in chosen:
                rest.remove(c)
            if reds == 1:
                red = next(c for c in rest if is_red(c))
                rest.remove(red)
                chosen.append(red)
            extra = [c for c in rest if fits(c) and c not in kinds][:DEALER_SIZE - len(chosen)]
            for c in extra:
                rest.remove(c)
            chosen += extra
            return rest[:at] + chosen + rest[at:]

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_choose(self, state: PaohuziState, legal: list[Action], rng: random.Random, aim: str) -> Action | None:
        """臭偎 (``chouwei_plan``): the 親 discards the card the next seat holds a pair of; the
        next seat lets that discard go by, then pons the next one on offer (a like card lies
        in a discard pile)."""
        if aim.casefold() not in AIM_CHOUWEI or state.blind:
            return None
        nxt = self._after(state.dealer, state)
        pair = [c for c, n in state.hands[nxt].items() if n == 2]
        if state.phase == "opening":
            return next((a for a in legal if isinstance(a, Discard) and a.card in pair), None)
        if state.phase == "offer" and self.to_act(state) == nxt and pair:  # until its 臭偎, the next seat only waits
            passed = state.offer in pair and any(state.offer in pile for pile in state.discards.values())
            return next((a for a in legal if isinstance(a, Pon if passed else Pass)), None)
        return None

    def choose(self, seen: "Seen", legal: list[Action], rng: random.Random) -> Action:
        return choose_action(seen, legal, rng)


# -- the selfplay policy ----------------------------------------------------------------
@dataclass(frozen=True)
class Seen:
    """What one seat knows: its hand and sets, the card on offer, the open table."""

    seat: str
    phase: str
    hand: Counter
    melds: tuple[Meld, ...]
    offer: str | None
    offer_from: str | None
    offer_source: str | None
    stock_left: int
    discards: dict[str, tuple[str, ...]]
    others_open: dict[str, tuple[Meld, ...]]


SET_WEIGHT = 12  # a complete set in hand
PARTIAL_WEIGHT = 4  # two cards that one more card makes a set


def _partials(counts: Counts, i: int) -> Iterator[tuple[int, ...]]:
    """Two-card pieces with kind ``i``: a pair, neighbours, a gap, a mixed pair, 2-7 / 2-10 / 7-10."""
    n = i % 10 + 1
    if counts[i] >= 2:
        yield (i, i)
    if n <= 9 and counts[i + 1]:
        yield (i, i + 1)
    if n <= 8 and counts[i + 2]:
        yield (i, i + 2)
    if n == 2 and counts[i + 5]:
        yield (i, i + 5)
    if n == 2 and counts[i + 8]:
        yield (i, i + 8)
    if n == 7 and counts[i + 3]:
        yield (i, i + 3)
    if i < 10 and counts[i + 10]:
        yield (i, i + 10)


@lru_cache(maxsize=400_000)
def hand_value(counts: Counts) -> int:
    """How close these cards are to sets: complete sets (weighted by their 胡息) and pieces."""
    i = next((k for k, v in enumerate(counts) if v), None)
    if i is None:
        return 0
    rest = list(counts)
    rest[i] -= 1
    best = hand_value(tuple(rest))
    for kind, used in _sets_with(counts, i):
        rest = list(counts)
        for k in used:
            rest[k] -= 1
        best = max(best, SET_WEIGHT + 2 * set_huxi(kind, tuple(KINDS[k] for k in used)) + hand_value(tuple(rest)))
    for used in _partials(counts, i):
        rest = list(counts)
        for k in used:
            rest[k] -= 1
        bonus = 2 if used[0] == used[1] else 0  # a pair may be pon'd or turned into a 偎
        best = max(best, PARTIAL_WEIGHT + bonus + hand_value(tuple(rest)))
    return best


def _after_discard_value(hand: Counter) -> int:
    """The hand's value after its best discard."""
    counts = list(counts_of(hand.elements()))
    best = None
    for k, v in enumerate(counts):
        if v:
            counts[k] -= 1
            value = hand_value(tuple(counts))
            counts[k] += 1
            best = value if best is None else max(best, value)
    return best if best is not None else 0


def choose_action(seen: Seen, legal: list[Action], rng: random.Random) -> Action:
    """Take every win; claim a card when the set it makes is worth more than the cards it
    breaks; discard the card whose loss hurts the hand least (loose cards first)."""
    for a in legal:
        if isinstance(a, Win):
            return a
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if isinstance(a, Pao):
            return a
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        counts = list(counts_of(seen.hand.elements()))

        def after(a: Discard) -> tuple[int, float]:
            k = INDEX[a.card]
            counts[k] -= 1
            value = hand_value(tuple(counts))
            counts[k] += 1
            return (value, rng.random())

        return max(discards, key=after)
    claims = [a for a in legal if isinstance(a, (Pon, Chi))]
    passing = next((a for a in legal if isinstance(a, Pass)), None)
    if not claims:
        return passing or legal[0]
    keep = _after_discard_value(seen.hand) if seen.offer_source == "draw" and seen.offer_from == seen.seat else hand_value(counts_of(seen.hand.elements()))
    best, best_value = passing, keep
    for a in claims:
        hand = Counter(seen.hand)
        if isinstance(a, Pon):
            assert seen.offer is not None
            hand[seen.offer] -= 2
            made = ("peng", (seen.offer,) * 3)
        else:
            cards = list(a.cards)
            assert seen.offer is not None
            cards.remove(seen.offer)
            for c in cards:
                hand[c] -= 1
            kind = chi_shape(a.cards)
            assert kind is not None
            made = (kind, a.cards)
        value = SET_WEIGHT + 2 * set_huxi(made[0], made[1]) + _after_discard_value(+hand)
        if value > best_value:
            best, best_value = a, value
    return best or legal[0]


# -- paifu selfplay --aim ---------------------------------------------------------------
AIM_CHOUWEI = ("臭偎", "pon of a passed card")


def chouwei_plan(rng: random.Random) -> tuple[list[list[str]], list[str | None]]:
    """臭偎, a pon of a card a like one of which lies in a discard pile, in a winning hand: the
    親 holds one big X (its first discard, let go by); the next seat holds a pair of X, two
    big triples (坎, 6 胡息 each) and three sequences, one short of a win; the stock's second
    card is the last X, drawn by the third seat and on offer: the next seat's 臭偎 (6 胡息,
    18 in all, over the 15 a win needs), then it waits on its two loose cards."""
    x, t1, t2 = rng.sample([f"{n}d" for n in NUMBERS if n not in (4, 5, 6, 10)], 3)
    runs = [["1x", "2x", "3x"], ["7x", "8x", "9x"], ["4d", "5d", "6d"]]
    loose = ["4x", "5x", "10x"]
    nxt = [x, x, t1, t1, t1, t2, t2, t2] + [c for r in runs for c in r] + loose
    return [[x], nxt], [None, x]


# -- helpers ----------------------------------------------------------------------------
def _clean(hand: Counter) -> None:
    for card in [c for c, n in hand.items() if n <= 0]:
        del hand[card]


def _event_cards(event: Event, start: int, allow_unseen: bool = False) -> list[str]:
    """The cards ``event`` names from ``event.args[start]`` on; a word among them, or an
    unseen card ``*`` where none may stand, is a violation at it."""
    cards: list[str] = []
    for i, arg in enumerate(event.args[start:], start):
        if not isinstance(arg, CardsArg):
            text = getattr(arg, "text", None) or getattr(arg, "value", None) or arg.kind
            raise Violation("L305", f"'{text}' is not a paohuzi card (1x..10x small 小字, 1d..10d big 大字)", arg=i, event=None)
        if "*" in arg.cards and not allow_unseen:
            raise Violation("L305", "an unseen card '*' stands only in a deal line or a draw that went down face down ('B: draw *')",
                            arg=(i, arg.cards.index("*")))
        cards.extend(arg.cards)
    return cards


ENGINE = Paohuzi()
