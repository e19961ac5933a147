"""Jiuzhi: 四色牌 九支十仔 (four-colour cards, "nine cards, ten to win").

Seed 004_4a517c4c696f89f5.txt, §四色牌の九支十仔 (2015-08-19); defaults and options from
RULINGS §jiuzhi and docs/rulings.md §jiuzhi. Seats A..D are in the order of play (the
seed's 反時計回り): the seat after X is X's right-hand neighbour (右隣, 下家).

Cards are colour Y R G W (黄 紅 緑 白) + piece K A E R H C S; yellow and red spell the
pieces 帥仕相俥傌炮兵, green and white 將士象車馬砲卒. Four copies of each: 112 cards. A pair
(対子) is two identical cards. A hand is won with five pairs (ten cards).

The flow of a hand, as the record writes it::

    hand 1 dealer=A draws=GS,YK,RE,WC   {dealer selection: A..D each drew a card}
    aside YK RS GA WC YE               {抽五張: the five cards the dealer set aside}
    deal A: ... (10)   deal B: ... (9) ...
    stock ...                          {optional: the stock in drawing order}
    A: discard WS                      {the dealer's first discard}
    B: draw RS                         {drawn and shown to all (公開)}
    C: chi RS                          {C pairs it (チー) ...}
    C: discard GE                      {... and discards; D draws next}
    D: win RS                          {a win: zimo, hu or ron, from who claimed what}

Pairs in the dealt hands are laid down face down at once (裏返して自分の前に出す); claims
are compulsory and the engine knows who must claim, so a record that skips a claim, or
where a seat without priority claims, is rejected.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, SeatArg, WordArg

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
    Zone,
    no_verb,
    nth_card,
)
from ..holding import Holding

SEED = "「四色牌の九支十仔」 (2015-08-19)"  # seed 004_4a517c4c696f89f5.txt
RULING = "docs/rulings.md §jiuzhi"
DOCS = "docs/rulings.md §jiuzhi"

COLOURS = "YRGW"  # 黄 紅 緑 白; also the tie order of dealer selection
PIECES = "KAERHCS"  # 帥將 仕士 相象 俥車 傌馬 炮砲 兵卒, strongest first
COLOUR_NAMES = {"Y": "yellow", "R": "red", "G": "green", "W": "white"}
COLOUR_TERMS = {"Y": "黄", "R": "紅", "G": "緑", "W": "白"}
CHARACTERS = {  # the character printed on a card: yellow/red vs green/white
    "YR": dict(zip(PIECES, "帥仕相俥傌炮兵")),
    "GW": dict(zip(PIECES, "將士象車馬砲卒")),
}
COPIES = 4
DECK_SIZE = len(COLOURS) * len(PIECES) * COPIES  # 112
ASIDE = 5  # 抽五張
DEALER_CARDS = 10
OTHER_CARDS = 9
WIN_PAIRS = 5
SEATS = 4

OPTIONS = (
    RuleOption("draw_five", "setaside", ("setaside", "bottom"),
               "抽五張: setaside, the five cards the dealer set aside (the fifth is the bottom one); "
               "bottom, no cards set aside: the five bottom cards of the stock at the win", RULING),
    RuleOption("draw_five_count", "aside", ("aside", "hand"),
               "抽五張 counts: aside, 1 per turned card matching a card of the winning hand (その中に…1枚につき); "
               "hand, 1 per card of the winning hand matching a turned card", DOCS),
    RuleOption("everyone_pays", "off", ("off", "on"),
               "off: a ron is paid by the discarder alone; on: all three others pay whatever the win "
               "(上がりに関係無く、全員から得点を受け取る)", RULING),
    RuleOption("kaijiao", "same_character", ("same_character", "same_piece"),
               "開交胡: the two quads are one character in two colours (both examples of the rule text); "
               "same_piece: any two colours of the piece", RULING),
    RuleOption("dealt_five_pairs", "win", ("win", "redeal"),
               "a dealer dealt five pairs has nothing to discard: win, he wins at once (paid by all, no 自模); "
               "redeal, the hand is void and he deals again", DOCS),
    RuleOption("duanzhang", "dead", ("dead", "live"),
               "断張: dead, the exposed card can no longer be paired; live, it may still pair (and is then no longer owed)", DOCS),
)


# -- cards ----------------------------------------------------------------------------
def colour(card: str) -> str:
    return card[0]


def piece(card: str) -> str:
    return card[1]


def character(card: str) -> str:
    """The Chinese character on the card (帥 for YK, 將 for GK...)."""
    return CHARACTERS["YR" if card[0] in "YR" else "GW"][card[1]]


def describe(card: str) -> str:
    return f"{COLOUR_TERMS[card[0]]}{character(card)}"


def deck() -> list[str]:
    return [c + p for c in COLOURS for p in PIECES for _ in range(COPIES)]


def card_order(card: str) -> tuple[int, int]:
    """Sort order for writing hands: colour, then piece strongest first."""
    return COLOURS.index(card[0]), PIECES.index(card[1])


def selection_strength(card: str) -> tuple[int, int]:
    """Dealer selection: 帥>將>仕>士>…>兵>卒, ties yellow > red > green > white (smaller is stronger)."""
    return PIECES.index(card[1]), COLOURS.index(card[0])


def strongest(seats: list[str], picks: list[str]) -> tuple[list[str], str]:
    """The seats that drew the strongest card (several when they drew the same card), and that card."""
    best = min(picks, key=selection_strength)
    return [s for s, p in zip(seats, picks) if p == best], best


def arg_text(arg: object) -> str:
    """An item as the record wrote it, for messages: '3', '+3', 'x=1', 'A:', a word."""
    if isinstance(arg, NumArg):
        return f"{arg.value:+d}" if arg.signed else str(arg.value)
    if isinstance(arg, OptionArg):
        return f"{arg.key}={arg.value}"
    if isinstance(arg, SeatArg):
        return f"{arg.seat}:"
    return str(getattr(arg, "text", None) or getattr(arg, "kind", "?"))


def is_card(code: str) -> bool:
    return len(code) == 2 and code[0] in COLOURS and code[1] in PIECES


# -- scoring table ---------------------------------------------------------------------
@dataclass(frozen=True)
class ScoringItem:
    """One named scoring item (得点計算) of the seed: its term, English name and 頭 value."""

    key: str
    term: str
    name: str
    value: int
    note: str = ""


SCORING = (
    ScoringItem("one_colour", "一色胡", "one colour", 4),
    ScoringItem("two_colours", "二色胡", "two colours", 3),
    ScoringItem("three_colours", "三色胡", "three colours", 2),
    ScoringItem("four_colours", "四色胡", "four colours", 1),
    ScoringItem("no_soldiers", "無兵卒", "no soldier (兵卒)", 1),
    ScoringItem("no_generals", "無將帥", "no general (將帥)", 1),
    ScoringItem("self_draw", "自模", "self-draw", 1),
    ScoringItem("draw_five", "抽五張", "five turned cards", 1, "self-draw only; 2 for the bottom card"),
    ScoringItem("kaijiao_win", "開交胡", "two quads of one piece and its pair, won on a quad", 5),
    ScoringItem("kaijiao_pair", "開交対子", "four identical cards", 1, "each"),
)
ITEM = {i.key: i for i in SCORING}
COLOUR_ITEMS = {1: "one_colour", 2: "two_colours", 3: "three_colours", 4: "four_colours"}


@dataclass(frozen=True)
class Scored:
    key: str
    value: int
    detail: str = ""


def score_hand(cards: Sequence[str], win_card: str | None, kind: str, five: Sequence[str] | None, rules: Rules) -> list[Scored]:
    """The 頭 items of a winning hand of ten cards (five pairs) won on ``win_card`` (None for
    a dealer dealt five pairs: no card was won on).

    ``kind`` is zimo, hu, ron or dealt; ``five`` the turned 抽五張 cards (bottom one last),
    used on a self-draw only.
    """
    out: list[Scored] = []
    colours = sorted({colour(c) for c in cards}, key=COLOURS.index)
    key = COLOUR_ITEMS[len(colours)]
    out.append(Scored(key, ITEM[key].value, "".join(COLOUR_TERMS[c] for c in colours)))
    if not any(piece(c) == "S" for c in cards):
        out.append(Scored("no_soldiers", 1))
    if not any(piece(c) == "K" for c in cards):
        out.append(Scored("no_generals", 1))
    if kind == "zimo":
        out.append(Scored("self_draw", 1))
        if five is not None:
            value, detail = draw_five_value(cards, five, rules)
            if value:
                out.append(Scored("draw_five", value, detail))
    counts = Counter(cards)
    quads = sorted((c for c, n in counts.items() if n == 4), key=card_order)
    kaijiao = kaijiao_quads(counts, win_card, rules)
    if kaijiao:
        out.append(Scored("kaijiao_win", ITEM["kaijiao_win"].value, " ".join(kaijiao)))
    for q in quads:
        if q not in kaijiao:
            out.append(Scored("kaijiao_pair", 1, q))
    return out


def draw_five_value(cards: Sequence[str], five: Sequence[str], rules: Rules) -> tuple[int, str]:
    """抽五張: 1 頭 per match, 2 for the bottom (last) card of the five.

    ``draw_five_count=aside`` counts the turned cards (each once); ``hand`` counts the
    winning hand's cards, each once: 2 when it matches the bottom card, else 1 when it
    matches one of the other four."""
    held = set(cards)
    total, parts = 0, []
    if rules["draw_five_count"] == "hand":
        bottom = five[-1] if five else None
        for c in sorted(held & set(five), key=card_order):
            n = sum(1 for x in cards if x == c)
            each = 2 if c == bottom else 1
            total += n * each
            parts.append(f"{c}×{n}" + (" (bottom ×2)" if each == 2 else ""))
        return total, " ".join(parts)
    for i, c in enumerate(five):
        if c in held:
            each = 2 if i == len(five) - 1 else 1
            total += each
            parts.append(c + (" (bottom, 2)" if each == 2 else ""))
    return total, " ".join(parts)


def kaijiao_quads(counts: Counter, win_card: str | None, rules: Rules) -> tuple[str, ...]:
    """開交胡: two quads of one piece (one character in two colours) and a pair of that piece, won on a quad card."""
    pieces = {piece(c) for c in counts}
    if len(pieces) != 1:
        return ()
    quads = sorted((c for c, n in counts.items() if n == 4), key=card_order)
    pairs = [c for c, n in counts.items() if n == 2]
    if len(quads) != 2 or len(pairs) != 1 or win_card not in quads:
        return ()
    if rules["kaijiao"] == "same_character" and (quads[0][0] in "YR") != (quads[1][0] in "YR"):
        return ()
    return tuple(quads)


# -- actions --------------------------------------------------------------------------
@dataclass(frozen=True)
class Discard:
    seat: str
    card: str


@dataclass(frozen=True)
class Draw:
    seat: str
    card: str


@dataclass(frozen=True)
class Chi:
    """チー: the seat takes the shown card and lays down the pair it makes."""

    seat: str
    card: str


@dataclass(frozen=True)
class Win:
    seat: str
    card: str
    kind: str | None = None  # zimo | hu | ron; None when the record does not say


@dataclass(frozen=True)
class Reveal:
    """The winner of a self-draw turns the five 抽五張 cards, where the record had not shown them."""

    seat: str
    cards: tuple[str, ...]


Action = Discard | Draw | Chi | Win | Reveal

WIN_KINDS = {"zimo": "自模", "hu": "胡", "ron": "ロン(放槍胡)"}
DEALT_WIN = "dealt five pairs"


@dataclass(frozen=True)
class Shown:
    """A card waiting for claims: drawn and shown (公開) or discarded."""

    card: str
    seat: str
    source: str  # draw | discard


@dataclass
class JiuzhiState(HandState):
    seats: list[str] = field(default_factory=list)
    dealer: str = ""
    hands: dict[str, Holding] = field(default_factory=dict)  # singles held (断張 cards apart)
    dead: dict[str, list[str]] = field(default_factory=dict)  # 断張: exposed, owed as the next discard
    pairs: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)  # (card, face down)
    discards: dict[str, list[str]] = field(default_factory=dict)
    aside: list[str] = field(default_factory=list)  # 抽五張 cards, bottom one last; may hold '*'
    stock: list[str] | None = None  # the stock in drawing order, when the record gives it
    stock_size: int = 0
    drawn: int = 0  # cards drawn from the stock so far
    copies: Counter = field(default_factory=Counter)  # cards known to be somewhere
    phase: str = "discard"  # discard | draw | claim
    turn: str = ""  # the seat to discard, or to draw next
    shown: Shown | None = None
    dropped: Shown | None = None  # the last shown card nobody claimed
    winner: str | None = None
    win_kind: str | None = None
    win_card: str | None = None
    win_from: str | None = None  # the seat whose drawn or discarded card was won on
    five: list[str] | None = None  # 抽五張 as turned
    awaiting_reveal: bool = False
    revealed: bool = False  # a reveal line was written (once: also where the five were already known)
    exhausted: bool = False


class Jiuzhi(Engine[JiuzhiState, Action]):
    id = "jiuzhi"
    title = "四色牌 九支十仔 Jiuzhi"
    family = "fourcolour"
    seat_counts = (SEATS,)
    options = OPTIONS
    setup_verbs = frozenset({"deal", "aside", "stock"})
    source = SEED
    zero_sum = True  # the others (a ron: the discarder) pay the winner
    zero_sum_rule = f"{SEED} §上がり: 「ツモと胡はそれぞれから、ロンはその人から点数をもらう」"
    selfplay_hands = 4

    # -- match ----------------------------------------------------------------------------
    def end_hand(self, match: Match, state: JiuzhiState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        # the winner deals next; a drawn hand keeps the dealer (RULINGS §jiuzhi)
        match.dealer = state.winner or state.dealer

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A session written from a later hand: each seat's running total (Start, adding up to
        0: the others, or the discarder, pay the winner), the hand's number and its dealer
        (dealer=, required: the dealer is drawn for, draws=, only before the game's first hand;
        then the winner deals)."""
        if match.hands_before and ("draws" in header.attrs or "redraw" in header.attrs):
            return (f"the dealer is drawn for (draws=, redraw=) only before the game's first hand; hand "
                    f"{match.hands_before + 1} names its dealer (dealer=A): the winner of the hand before deals ({RULING})")
        return super().start_from(match, header, totals)

    # -- hand -----------------------------------------------------------------------------
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> JiuzhiState:
        seats = match.seats
        rules = match.rules
        dealer = self._dealer(match, header)  # its violations are located at the hand line
        state = JiuzhiState(match=match, header=header, seats=list(seats), dealer=dealer)
        state.hands = {s: Holding() for s in seats}
        state.dead = {s: [] for s in seats}
        state.pairs = {s: [] for s in seats}
        state.discards = {s: [] for s in seats}
        setaside = rules["draw_five"] == "setaside"
        state.stock_size = DECK_SIZE - DEALER_CARDS - OTHER_CARDS * (SEATS - 1) - (ASIDE if setaside else 0)
        dealt: dict[str, list[str]] = {}
        for ev in setup:
            if ev.verb == "deal":
                seat, cards = self._deal_line(ev, seats, dealt)
                want = DEALER_CARDS if seat == dealer else OTHER_CARDS
                if len(cards) != want:
                    raise Violation("L304", f"{seat} is dealt {len(cards)} cards; the dealer (親) takes 10, the others (子) 9 "
                                    "(親は10枚、子は9枚)", SEED, arg=0, event=ev)
                self._locate(state, cards, ev, 1)
                dealt[seat] = cards
            elif ev.verb == "aside":
                if not setaside:
                    raise Violation("L306", "with draw_five=bottom no cards are set aside: the five are the bottom of the stock", RULING, event=ev)
                if state.aside:
                    raise Violation("L304", "the five cards are set aside once", SEED, event=ev)
                cards = self._cards(ev, 0, allow_unseen=True, event=ev)
                if len(cards) != ASIDE:
                    raise Violation("L304", f"the dealer sets aside 5 cards (親が5枚の牌を取って横に置いておく), not {len(cards)}", SEED,
                                    arg=nth_card(ASIDE) if len(cards) > ASIDE else None, event=ev)  # at the sixth
                self._locate(state, cards, ev, 0)
                state.aside = cards
            elif ev.verb == "stock":
                if state.stock is not None:
                    raise Violation("L304", "the stock is given twice", event=ev)
                cards = self._cards(ev, 0, allow_unseen=True, event=ev)
                if len(cards) != state.stock_size:
                    raise Violation("L304", f"the stock holds {state.stock_size} cards after the deal, not {len(cards)}", SEED,
                                    arg=nth_card(state.stock_size) if len(cards) > state.stock_size else None, event=ev)
                self._locate(state, cards, ev, 0)
                state.stock = cards
        self._complete_deal(state, dealt, dealer, setaside)
        if setaside and not state.aside:
            state.aside = ["*"] * ASIDE
        for seat in seats:
            cards = dealt.get(seat, ["*"] * (DEALER_CARDS if seat == dealer else OTHER_CARDS))
            self._lay_down_dealt_pairs(state, seat, cards)
        state.phase, state.turn = "discard", dealer
        if not len(state.hands[dealer]) and not state.dead[dealer]:
            # the dealer was dealt five pairs: a win before any play, or a void hand (docs/rulings.md §jiuzhi)
            if rules["dealt_five_pairs"] == "win":
                state.winner, state.win_kind = dealer, "dealt"
            else:
                state.exhausted = True
        return state

    def _dealer(self, match: Match, header: HandHeader) -> str:
        """Who deals this hand; a wrong dealer=, draws= or redraw= is R206 at the hand line."""
        draws = header.attrs.get("draws")
        if match.hands_played:
            expected = match.dealer
            if draws is not None:
                raise Violation("R206", "the dealer is drawn for (draws=) only before the first hand; then the winner deals", RULING)
            if "redraw" in header.attrs:
                raise Violation("R206", "the dealer draw's redraw (redraw=) is written only on the first hand, with its draws=; "
                                "then the winner deals", RULING)
            if expected is None:  # the hand before could not be finished: its winner is not known
                if header.dealer is None:
                    raise Violation("R206", "who deals this hand is not known (the hand before it was not finished): "
                                    "write it on the hand line (dealer=B)", RULING)
                return header.dealer
            if header.dealer is not None and header.dealer != expected:
                raise Violation("R206", f"dealer={header.dealer}, but {expected} deals this hand: the winner of the last hand deals, "
                                "a drawn hand keeps the dealer", RULING)
            assert expected is not None
            return expected
        if draws is None:
            if "redraw" in header.attrs:
                raise Violation("R206", "a redraw (redraw=) follows the dealer draw's tie: write the draws (draws=YK,GS,RE,WC) "
                                "before it", RULING)
            if header.dealer is None and match.hands_before:
                raise Violation("R206", f"a record that starts from hand {match.hands_before + 1} names its dealer (dealer=A): "
                                "the dealer is drawn for only before the game's first hand", RULING)
            if header.dealer is None:
                raise Violation("R206", "the first hand names its dealer (dealer=A) or the dealer-selection draws (draws=YK,GS,RE,WC)", SEED)
            return header.dealer
        picks = draws.split(",")
        if len(picks) != len(match.seats) or not all(is_card(p) for p in picks):
            raise Violation("R206", f"draws= gives one card per seat in seat order, e.g. draws=YK,GS,RE,WC; not '{draws}'", SEED)
        top, shown = strongest(match.seats, picks)
        for number, round_ in enumerate(header.attrs["redraw"].split("/") if "redraw" in header.attrs else [], 1):
            again = round_.split(",")
            if len(top) == 1:
                raise Violation("R206", f"redraw round {number}: nobody is tied ({top[0]} drew the strongest card), so nobody draws again",
                                RULING)
            if len(again) != len(top) or not all(is_card(p) for p in again):
                raise Violation("R206", f"redraw round {number} gives one card for each tied seat ({' '.join(top)}) in seat order, "
                                f"e.g. redraw={','.join(['RS'] * len(top))}; not '{round_}'", RULING)
            top, shown = strongest(top, again)
        if header.dealer is None:
            if len(top) > 1:
                raise Violation("R206", f"{' and '.join(top)} drew the same card: write their redraw (redraw=RS,GK; rounds "
                                "separated by /) or name the dealer (dealer=)", RULING)
            return top[0]
        if header.dealer not in top:
            raise Violation("R206", f"{top[0]} drew the strongest card ({describe(shown)}) and deals, not {header.dealer} "
                            "(帥>将>仕>士>相>象>俥>車>傌>馬>炮>砲>兵>卒)", SEED)
        return header.dealer

    @staticmethod
    def _cards(ev: Event, start: int, allow_unseen: bool, event: Event | None = None) -> list[str]:
        cards: list[str] = []
        for i, arg in enumerate(ev.args[start:], start):
            if not isinstance(arg, CardsArg):
                raise Violation("L305", f"'{arg_text(arg)}' is not a four-colour card (colour Y R G W + piece K A E R H C S, e.g. YK, WS)", arg=i, event=event)
            if not allow_unseen and "*" in arg.cards:
                raise Violation("L305", "an unseen card '*' cannot be played here: name the card",
                                arg=(i, arg.cards.index("*")), event=event)
            cards.extend(arg.cards)
        return cards

    def _deal_line(self, ev: Event, seats: list[str], dealt: dict[str, list[str]]) -> tuple[str, list[str]]:
        seat = deal_seat(ev, seats, dealt, "YK YK RS")
        return seat, self._cards(ev, 1, allow_unseen=True, event=ev)

    @staticmethod
    def _complete_deal(state: JiuzhiState, dealt: dict[str, list[str]], dealer: str, setaside: bool) -> None:
        """One seat's deal line left out, every other card written (deals, stock, the five set
        aside): that seat holds the 112 cards' rest, as a deal line would say."""
        missing = [s for s in state.seats if s not in dealt]
        known = state.stock is not None and "*" not in state.stock and all("*" not in cs for cs in dealt.values())
        if len(missing) != 1 or not known or (setaside and (len(state.aside) != ASIDE or "*" in state.aside)):
            return
        rest = Counter(deck()) - state.copies
        seat = missing[0]
        if sum(rest.values()) == (DEALER_CARDS if seat == dealer else OTHER_CARDS):
            dealt[seat] = sorted(rest.elements(), key=card_order)
            state.copies.update(rest)

    @staticmethod
    def _locate(state: JiuzhiState, cards: list[str], ev: Event, start: int) -> None:
        for k, card in enumerate(cards):
            if card == "*":
                continue
            state.copies[card] += 1
            if state.copies[card] > COPIES:
                raise Violation("L304", f"a fifth {card} ({describe(card)}): there are four of each card", SEED,
                                arg=card_place(ev, k, start), event=ev)

    @staticmethod
    def _lay_down_dealt_pairs(state: JiuzhiState, seat: str, cards: list[str]) -> None:
        """配られた手牌に対子があったら、裏返して自分の前に出す: every dealt pair goes face down."""
        holding = Holding.of(cards)
        for card, n in sorted(holding.known.items(), key=lambda kv: card_order(kv[0])):
            for _ in range(n // 2):
                state.pairs[seat].append((card, True))
            holding.known[card] = n % 2
        holding.known = +holding.known
        state.hands[seat] = holding

    # -- reading events -------------------------------------------------------------------
    def read_action(self, state: JiuzhiState, event: Event) -> Action:
        seat = event.seat
        if seat is None:
            raise Violation("L306", f"'{event.verb}' is not a Jiuzhi event here: plays are 'A: discard YK', 'B: draw RS', "
                            "'C: chi RS', 'D: win RS' (set-up lines deal, aside, stock come first)")
        if seat not in state.seats:
            raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(state.seats)})")
        verb = event.verb
        if verb in ("discard", "draw", "chi"):
            card = self._one_card(event, 0)
            return {"discard": Discard, "draw": Draw, "chi": Chi}[verb](seat, card)
        if verb == "win":
            kind = None
            start = 0
            if event.args and isinstance(event.args[0], WordArg):
                kind = event.args[0].text
                if kind not in WIN_KINDS:
                    if len(event.args) == 1:
                        raise Violation("L305", f"'{kind}' is not a four-colour card (colour Y R G W + piece K A E R H C S, e.g. YK, WS)", arg=0)
                    raise Violation("L306", f"a win is 'win RS' or 'win zimo|hu|ron RS'; not '{kind}'", arg=0)
                start = 1
            return Win(seat, self._one_card(event, start), kind)
        if verb == "reveal":
            return Reveal(seat, tuple(self._cards(event, 0, allow_unseen=False)))
        if verb is None:
            raise no_verb(self.id, event, ("discard", "draw", "chi", "win", "reveal"))
        raise Violation("L306", f"Jiuzhi has no verb '{verb}': the verbs are discard, draw, chi, win (and reveal)")

    def _one_card(self, event: Event, start: int) -> str:
        """The one card a discard, draw, chi or win names; a second card is pointed at (none: the line)."""
        cards = self._cards(event, start, allow_unseen=False)
        if len(cards) != 1:
            said = " ".join([event.verb or "", *(a.text for a in event.args[:start] if isinstance(a, WordArg))])
            raise Violation("L306", f"'{said}' names one card, e.g. '{event.seat}: {said} YK'",
                            arg=card_place(event, 1, start) if cards else (start - 1 if start else None))
        return cards[0]

    # -- who must claim -------------------------------------------------------------------
    def _live(self, state: JiuzhiState, seat: str) -> list[str]:
        """Cards in hand that can still make a pair (断張 cards only with duanzhang=live)."""
        cards = state.hands[seat].cards()
        if state.match.rules["duanzhang"] == "live":
            cards += state.dead[seat]
        return cards

    def _in_hand(self, state: JiuzhiState, seat: str) -> int:
        return len(state.hands[seat]) + len(state.dead[seat])

    def _known(self, state: JiuzhiState, seat: str) -> bool:
        return state.hands[seat].unseen == 0

    def can_win(self, state: JiuzhiState, seat: str, card: str) -> bool:
        """Four pairs down and one single, ``card``, left in hand: this card makes the fifth pair."""
        return self._known(state, seat) and self._in_hand(state, seat) == 1 and self._live(state, seat) == [card]

    def can_pair(self, state: JiuzhiState, seat: str, card: str) -> bool:
        return self._known(state, seat) and self._in_hand(state, seat) > 1 and card in self._live(state, seat)

    def win_order(self, state: JiuzhiState, shown: Shown) -> list[str]:
        """Who may win on a shown card, in priority order: the drawer first, then by turn order."""
        start = 0 if shown.source == "draw" else 1
        return [self.next_seat(state.seats, shown.seat, k) for k in range(start, len(state.seats))]

    def pair_order(self, state: JiuzhiState, shown: Shown) -> list[str]:
        """Who may pair it: anyone, drawer first, for a drawn card; only the next seat for a discard."""
        if shown.source == "draw":
            return [self.next_seat(state.seats, shown.seat, k) for k in range(len(state.seats))]
        return [self.next_seat(state.seats, shown.seat)]

    def owed_claim(self, state: JiuzhiState) -> tuple[str, str] | None:
        """The claim the rules force on the shown card, among seats whose hands are known."""
        shown = state.shown
        if shown is None:
            return None
        for seat in self.win_order(state, shown):
            if self.can_win(state, seat, shown.card):
                return seat, "win"
        for seat in self.pair_order(state, shown):
            if self.can_pair(state, seat, shown.card):
                return seat, "chi"
        return None

    def next_drawer(self, state: JiuzhiState) -> str:
        return self.next_seat(state.seats, state.shown.seat) if state.shown else state.turn

    # -- applying -------------------------------------------------------------------------
    def apply(self, state: JiuzhiState, action: Action) -> None:
        if isinstance(action, Reveal):
            self._reveal(state, action)
        elif isinstance(action, Discard):
            self._discard(state, action)
        elif isinstance(action, Draw):
            self._draw(state, action)
        elif isinstance(action, (Chi, Win)):
            self._claim(state, action)

    def _discard(self, state: JiuzhiState, action: Discard) -> None:
        seat, card = action.seat, action.card
        if state.phase != "discard":
            who = self.to_act(state)
            raise Violation("L302" if seat != who else "L301",
                            f"nobody discards now: {who} is to {'draw' if state.shown is None else 'claim or draw'}", SEED)
        if seat != state.turn:
            raise Violation("L302", f"it is {state.turn}'s discard, not {seat}'s", SEED)
        holding = state.hands[seat]
        dead = state.dead[seat]
        if dead:
            if card not in dead:
                raise Violation("L301", f"{seat} must first discard the 断張 card {' or '.join(dead)} "
                                "(鳴いた時にその牌を最初の捨て牌にしなければならない)", SEED, arg=0)
            dead.remove(card)
        else:
            if not holding.has(card):
                if holding.unseen == 0 or state.copies[card] >= COPIES:
                    raise Violation("L303", f"{seat} holds no {card} ({describe(card)}) in hand", arg=0)
                self._spend_unseen(state, seat, card)
            elif holding.unseen == 0:
                allowed = least_colour_cards(holding.cards())
                if card not in allowed:
                    least = sorted({colour(c) for c in allowed}, key=COLOURS.index)
                    raise Violation("L301", f"{card} is not of the colour {seat} holds least ({'/'.join(COLOUR_NAMES[c] for c in least)}): "
                                    "捨て牌は、手の中で一番種類の少ない牌を選ぶ", SEED, arg=0)
                holding.take(card)
            else:
                holding.take(card)
                state.notes.append(f"{seat}'s discard of {card} could not be checked against the least-held colour: hidden cards")
        state.dropped = None
        state.shown = Shown(card, seat, "discard")
        state.phase = "claim"
        self._settle_shown(state)

    def _spend_unseen(self, state: JiuzhiState, seat: str, card: str) -> None:
        state.hands[seat].take(card)
        state.copies[card] += 1
        state.notes.append(f"{seat} used {card} from cards the record did not show")

    def _draw(self, state: JiuzhiState, action: Draw) -> None:
        seat, card = action.seat, action.card
        if state.phase == "discard":
            raise Violation("L302" if seat != state.turn else "L301", f"{state.turn} is to discard first", SEED)
        drawer = self.next_drawer(state)
        owed = self.owed_claim(state)
        if owed is not None:
            claimant, how = owed
            shown = state.shown
            assert shown is not None
            what = f"win on {shown.card}" if how == "win" else f"pair {shown.card} (chi)"
            raise Violation("L301", f"{claimant} must {what} before the next draw: claims are compulsory "
                            "(鳴ける時は必ず鳴かなければならない)", SEED)
        if seat != drawer:
            raise Violation("L302", f"it is {drawer}'s draw, not {seat}'s (play runs A, B, C, D: 反時計回り)", SEED)
        self._drop_shown(state)
        if state.drawn >= state.stock_size:
            raise Violation("L301", "the stock is empty: the hand is drawn", RULING)
        if state.stock is not None and state.stock[state.drawn] != "*":
            expected = state.stock[state.drawn]
            if card != expected:
                raise Violation("L301", f"the next card of the stock is {expected}, not {card}", arg=0)
        else:
            state.copies[card] += 1
            if state.copies[card] > COPIES:
                raise Violation("L304", f"a fifth {card} ({describe(card)}): all four are elsewhere", SEED, arg=0)
        state.drawn += 1
        state.dropped = None
        state.shown = Shown(card, seat, "draw")
        state.phase = "claim"
        self._settle_shown(state)

    def _drop_shown(self, state: JiuzhiState) -> None:
        """An unclaimed shown card goes to its seat's discards; the next seat draws."""
        if state.shown is not None:
            state.dropped = state.shown
            state.discards[state.shown.seat].append(state.shown.card)
            state.turn = self.next_seat(state.seats, state.shown.seat)
            state.shown = None
        state.phase = "draw"

    def _settle_shown(self, state: JiuzhiState) -> None:
        """When nobody can claim the shown card (all hands known), it goes to the discards at once."""
        if state.shown is None or self.owed_claim(state) is not None:
            return
        if any(not self._known(state, s) for s in state.seats):
            return  # a hidden hand might claim: wait for the record's next line
        self._drop_shown(state)
        if state.drawn >= state.stock_size:
            state.exhausted = True

    def _claim(self, state: JiuzhiState, action: Chi | Win) -> None:
        card = action.card
        shown = state.shown
        card_arg = 1 if isinstance(action, Win) and action.kind is not None else 0
        if shown is None:
            dropped = state.dropped
            if dropped is not None and dropped.card == card and state.phase == "draw":
                # nobody could claim it, so it went to the discards: say why this seat could not
                check = copy.deepcopy(state)
                check.shown = dropped
                (self._win if isinstance(action, Win) else self._pair)(check, action, dropped, card_arg)  # type: ignore[arg-type]
            raise Violation("L301", "no shown card to claim: claims are on a drawn (公開) or discarded card", SEED)
        if card != shown.card:
            raise Violation("L301", f"the card to claim is {shown.card}, not {card}", arg=card_arg)
        if isinstance(action, Win):
            self._win(state, action, shown, card_arg)
        else:
            self._pair(state, action, shown, card_arg)

    def _win(self, state: JiuzhiState, action: Win, shown: Shown, card_arg: int) -> None:
        seat, card = action.seat, action.card
        order = self.win_order(state, shown)
        if seat not in order:
            raise Violation("L301", f"{seat} cannot win on its own discard", SEED)
        kind = self._kind(state, seat)
        if action.kind is not None and action.kind != kind:
            raise Violation("L306", f"this win is {kind} ({WIN_KINDS[kind]}), not {action.kind}", SEED, arg=0)
        hidden = False
        if not self.can_win(state, seat, card):
            if not self._known(state, seat) and state.copies[card] < COPIES:
                hidden = True  # face-down pairs of an unseen hand are unseen too: taken on trust
            else:
                raise Violation("L301", f"{seat} cannot win on {card}: {self._why_no_win(state, seat, card)}", SEED, arg=card_arg)
        for other in order[:order.index(seat)]:
            if self.can_win(state, other, card):
                if shown.source == "draw":
                    raise Violation("L302", f"{other} wins on {card} first: the drawer, then the nearest in turn order "
                                    "(胡が2人いた場合は自摸した人に優先権がある)", SEED)
                raise Violation("L302", f"{other} wins on {card} first: the nearest to the discarder in turn order", RULING)
        if hidden:
            state.copies[card] += 1
            state.notes.append(f"{seat}'s win on {card} could not be checked: the record did not show {seat}'s cards")
        else:
            self._take(state, seat, card)
        state.pairs[seat].append((card, False))
        state.winner, state.win_kind, state.win_card, state.win_from = seat, kind, card, shown.seat
        state.shown = None
        if kind == "zimo":
            self._turn_five(state)

    def _pair(self, state: JiuzhiState, action: Chi, shown: Shown, card_arg: int) -> None:
        seat, card = action.seat, action.card
        order = self.pair_order(state, shown)
        if seat not in order:
            raise Violation("L301", f"only {order[0]} may pair {shown.seat}'s discard (上家の捨て牌で対子ができる場合)", SEED)
        if self.can_win(state, seat, card):
            raise Violation("L301", f"{card} completes {seat}'s five pairs: that is a win, not a pair (胡>対子)", SEED)
        hidden = False
        if card not in self._live(state, seat):
            if card in state.dead[seat]:
                raise Violation("L301", f"{seat}'s {card} is 断張 (shown after the 上家's claim): it no longer makes a pair", DOCS, arg=card_arg)
            holding = state.hands[seat]
            if holding.unseen == 0 or state.copies[card] >= COPIES:
                raise Violation("L303", f"{seat} holds no {card} ({describe(card)}) to pair with", arg=card_arg)
            hidden = True
        elif self._in_hand(state, seat) < 2:
            raise Violation("L301", f"{seat} has no card left to discard after a pair", SEED)
        for other in self.win_order(state, shown):
            if other != seat and self.can_win(state, other, card):
                raise Violation("L302", f"{other} must win on {card}: a win comes before a pair (優先順序は胡>対子)", SEED)
        for other in order[:order.index(seat)]:
            if self.can_pair(state, other, card):
                raise Violation("L302", f"{other} pairs {card} first: the drawer first, then the nearest in turn order "
                                "(チーは自模した人が最優先され、次は自模した人に近い位置の人に優先権がある)", SEED)
        if hidden:
            self._spend_unseen(state, seat, card)
        else:
            self._take(state, seat, card)
        state.pairs[seat].append((card, False))
        state.shown = None
        state.phase, state.turn = "discard", seat
        # 断張: the claimer's 下家 holding the same card shows it and owes it as his next discard
        after = self.next_seat(state.seats, seat)
        if state.hands[after].has(card):
            state.hands[after].take(card)
            state.dead[after].append(card)

    def _take(self, state: JiuzhiState, seat: str, card: str) -> None:
        if state.hands[seat].has(card):
            state.hands[seat].take(card)
        else:
            state.dead[seat].remove(card)

    def _why_no_win(self, state: JiuzhiState, seat: str, card: str) -> str:
        singles = self._in_hand(state, seat)
        if card in state.dead[seat] and state.match.rules["duanzhang"] == "dead":
            return f"its {card} is 断張"
        if singles > 1:
            return f"{singles} cards are still unpaired (全て対子: five pairs of ten cards)"
        return f"{seat} holds no {card}"

    def _turn_five(self, state: JiuzhiState) -> None:
        """抽五張 on a self-draw: the set-aside cards, or the bottom five of the stock."""
        if state.match.rules["draw_five"] == "setaside":
            five = list(state.aside)
        else:
            left = state.stock[state.drawn:] if state.stock is not None else ["*"] * (state.stock_size - state.drawn)
            five = list(left[-ASIDE:])
        state.five = five
        state.awaiting_reveal = "*" in five

    def _reveal(self, state: JiuzhiState, action: Reveal) -> None:
        if not state.awaiting_reveal and not self._reveal_may_repeat(state):
            raise Violation("L301", "nothing to reveal: the five 抽五張 cards are turned only after a self-draw, when the record has not shown them", SEED)
        if action.seat != state.winner:
            raise Violation("L302", f"the winner {state.winner} turns the five cards (自模上がりした人がめくり)", SEED)
        five = state.five or []
        if len(action.cards) != len(five):
            raise Violation("L306", f"reveal names the {len(five)} turned cards, bottom one last",
                            arg=nth_card(len(five)) if len(action.cards) > len(five) else None)
        for k, (known, card) in enumerate(zip(five, action.cards)):
            if known != "*" and known != card:
                raise Violation("L301", f"card {k + 1} of the five is {known}, not {card}", arg=nth_card(k))
            if known == "*":
                state.copies[card] += 1
                if state.copies[card] > COPIES:
                    raise Violation("L304", f"a fifth {card}: all four are elsewhere", SEED, arg=nth_card(k))
        state.five = list(action.cards)
        state.awaiting_reveal = False
        state.revealed = True

    @staticmethod
    def _reveal_may_repeat(state: JiuzhiState) -> bool:
        """The five 抽五張 cards were known already (a written set-aside or stock): a reveal
        line may still say them, once, as the winner turned them; it is checked card by card."""
        return state.winner is not None and bool(state.five) and "*" not in (state.five or []) and not state.revealed

    # -- state questions ------------------------------------------------------------------
    def legal_actions(self, state: JiuzhiState) -> list[Action]:
        if self.hand_over(state):
            return []
        if state.awaiting_reveal:
            return []  # the five cards come from the record
        if state.phase == "discard":
            seat = state.turn
            if state.dead[seat]:
                return [Discard(seat, c) for c in sorted(set(state.dead[seat]), key=card_order)]
            holding = state.hands[seat]
            if holding.unseen:
                return []
            return [Discard(seat, c) for c in sorted(set(least_colour_cards(holding.cards())), key=card_order)]
        owed = self.owed_claim(state)
        if owed is not None:
            seat, how = owed
            assert state.shown is not None
            return [Win(seat, state.shown.card, self._kind(state, seat)) if how == "win" else Chi(seat, state.shown.card)]
        if state.stock is None or state.drawn >= state.stock_size or state.stock[state.drawn] == "*":
            return []
        return [Draw(self.next_drawer(state), state.stock[state.drawn])]

    def unseen_candidates(self, state: JiuzhiState, seat: str) -> Counter:
        """Every card of the 112 not known to be somewhere, as many times as copies are left."""
        if not state.hands[seat].unseen:
            return Counter()
        return self._unplaced(state)

    @staticmethod
    def _unplaced(state: JiuzhiState) -> Counter:
        return Counter({c: COPIES - state.copies[c] for c in deck() if state.copies[c] < COPIES})

    def unseen_actions(self, state: JiuzhiState) -> list[Action]:
        """For hands not wholly seen: the seat to discard discards any card it could hold (the
        least-held colour cannot be checked); on a shown card, every such seat that could
        claim it may win or pair it (claims are compulsory only for known hands); the next
        card of an unseen stock is drawn as any card not known elsewhere. The five 抽五張 cards
        of an unseen set-aside are written by the scribe (a reveal of five named cards)."""
        if self.hand_over(state) or state.awaiting_reveal:
            return []
        out: list[Action] = []
        if state.phase == "discard":
            seat = state.turn
            holding = state.hands[seat]
            if holding.unseen and not state.dead[seat]:
                could = set(holding.cards()) | set(self.unseen_candidates(state, seat))
                out += [Discard(seat, c) for c in sorted(could, key=card_order)]
            return out
        if state.drawn < state.stock_size and (state.stock is None or state.stock[state.drawn] == "*"):
            drawer = self.next_drawer(state)
            out += [Draw(drawer, c) for c in sorted(self._unplaced(state), key=card_order)]
        shown = state.shown
        if shown is not None and state.copies[shown.card] < COPIES:
            out += [Chi(seat, shown.card) for seat in self.pair_order(state, shown) if not self._known(state, seat)]
            out += [Win(seat, shown.card, self._kind(state, seat)) for seat in self.win_order(state, shown)
                    if not self._known(state, seat)]
        return out

    def _kind(self, state: JiuzhiState, seat: str) -> str:
        shown = state.shown
        assert shown is not None
        return "ron" if shown.source == "discard" else ("zimo" if seat == shown.seat else "hu")

    def to_act(self, state: JiuzhiState) -> str | None:
        if self.hand_over(state):
            return None
        if state.awaiting_reveal:
            return state.winner
        if state.phase == "discard":
            return state.turn
        owed = self.owed_claim(state)
        return owed[0] if owed else self.next_drawer(state)

    def hand_over(self, state: JiuzhiState) -> bool:
        if state.winner is not None:
            return not state.awaiting_reveal
        if state.exhausted:
            return True
        # a shown card nobody is known to claim, with the stock empty: the hand is drawn
        return state.phase != "discard" and state.drawn >= state.stock_size and self.owed_claim(state) is None

    def accepts_after_end(self, state: JiuzhiState, event: Event) -> bool:
        """A claim on the last shown card, with the stock used up, by a seat whose cards the
        record does not show: the replay could not know it would claim, so it took the hand
        for drawn (流局); the claim line says otherwise and is replayed (on trust, N501). And
        the winner's reveal of five 抽五張 cards the record had shown already (checked)."""
        if event.verb == "reveal":
            return event.seat == state.winner and self._reveal_may_repeat(state)
        shown = state.shown
        if state.winner is not None or shown is None or event.seat not in state.seats or event.verb not in ("win", "chi"):
            return False
        claimants = self.win_order(state, shown) if event.verb == "win" else self.pair_order(state, shown)
        return event.seat in claimants and not self._known(state, event.seat)

    def end_reason(self, state: JiuzhiState) -> str | None:
        if state.winner is not None:
            return f"{state.winner} won ({WIN_KINDS.get(state.win_kind or '', DEALT_WIN)})"
        if state.drawn >= state.stock_size:
            return "the stock is used up and no claim is left: a drawn hand (流局)"
        if state.exhausted:
            return "the dealer was dealt five pairs: the hand is void (dealt_five_pairs=redeal)"
        return None

    def settle(self, state: JiuzhiState) -> Settlement:
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        winner = state.winner
        if winner is None:
            if not self.hand_over(state):
                raise Violation("L307", "the hand is not over")
            why = "the stock ran out" if state.drawn >= state.stock_size else "the dealer was dealt five pairs (dealt_five_pairs=redeal)"
            out.items.append(ScoreItem(state.dealer, "drawn hand", 0, "流局", f"{why}; the dealer deals again"))
            return out
        rules = state.match.rules
        cards = [c for c, _ in state.pairs[winner] for _ in range(2)]
        if len(cards) != 2 * WIN_PAIRS or "*" in cards or state.hands[winner].unseen:
            out.unknown.update(state.seats)
            out.items.append(ScoreItem(winner, "win", 0, WIN_KINDS.get(state.win_kind or "", ""), "hidden cards: not scored"))
            return out
        five = state.five if state.win_kind == "zimo" else None
        if five is not None and "*" in five:
            out.unknown.update(state.seats)
            five = None
        # a dealer dealt five pairs won on no card: nothing is won on a quad, so no 開交胡
        scored = score_hand(cards, state.win_card, state.win_kind or "zimo", five, rules)
        total = sum(s.value for s in scored)
        for s in scored:
            item = ITEM[s.key]
            out.items.append(ScoreItem(winner, item.name, s.value, item.term, s.detail))
        kind = state.win_kind
        if kind == "ron" and rules["everyone_pays"] == "off":
            payers = [state.win_from] if state.win_from else []
        else:
            payers = [s for s in state.seats if s != winner]
        for payer in payers:
            deltas[payer] -= total
            deltas[winner] += total
            out.payments.append(Payment(payer, winner, total, f"{total} 頭 ({WIN_KINDS.get(kind or '', DEALT_WIN)})"))
        return out

    # -- views ----------------------------------------------------------------------------
    def view(self, state: JiuzhiState, seat: str | None) -> TableView:
        seats = []
        for s in state.seats:
            holding = state.hands[s]
            mine = seat is None or seat == s
            hand = Zone("hand", sorted(holding.cards(), key=card_order) if mine else [],
                        hidden=holding.unseen if mine else len(holding), layout="fan")
            dead = Zone("断張", list(state.dead[s]), layout="row")
            face_up = [[c, c] for c, down in state.pairs[s] if not down or mine]
            down = sum(1 for _, d in state.pairs[s] if d and not mine)
            pairs = Zone("pairs", [c for g in face_up for c in g], hidden=2 * down, groups=face_up, layout="melds")
            discards = Zone("discards", list(state.discards[s]), layout="row")
            labels = []
            if s == state.dealer:
                labels.append("dealer")
            if s == state.winner:
                labels.append(WIN_KINDS.get(state.win_kind or "", "win"))
            seats.append(SeatView(s, [hand, dead, pairs, discards], score=state.match.totals.get(s, 0),
                                  to_act=s == self.to_act(state), labels=labels))
        center = [Zone("stock", [], hidden=state.stock_size - state.drawn, layout="count")]
        if state.shown is not None:
            center.append(Zone("shown", [state.shown.card], layout="row"))
        if state.five is not None:
            center.append(Zone("抽五張", list(state.five), layout="row"))
        else:
            center.append(Zone("aside", [], hidden=len(state.aside), layout="row"))
        info = {"stock": str(state.stock_size - state.drawn)}
        if state.shown is not None:
            info["shown"] = f"{state.shown.card} {'drawn' if state.shown.source == 'draw' else 'discarded'} by {state.shown.seat}"
        return TableView("fourcolour", seats, center, info)

    def event_for(self, state: JiuzhiState, action: Action) -> Event:
        if isinstance(action, Reveal):
            return Event(seat=action.seat, verb="reveal", args=[CardsArg(cards=list(action.cards))])
        if isinstance(action, Win):
            kind = action.kind or self._kind(state, action.seat)
            return Event(seat=action.seat, verb="win", args=[WordArg(text=kind), CardsArg(cards=[action.card])])
        verb = {Discard: "discard", Draw: "draw", Chi: "chi"}[type(action)]
        return Event(seat=action.seat, verb=verb, args=[CardsArg(cards=[action.card])])

    # -- selfplay -------------------------------------------------------------------------
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        args: list = [NumArg(value=number)]
        if match.hands_played == 0:
            while True:
                picks = rng.sample(deck(), len(match.seats))
                strengths = sorted(selection_strength(p) for p in picks)
                if strengths[0] != strengths[1]:
                    break
            dealer = min(zip(match.seats, picks), key=lambda sp: selection_strength(sp[1]))[0]
            args += [OptionArg(key="dealer", value=dealer), OptionArg(key="draws", value=",".join(picks))]
        else:
            dealer = match.dealer or match.seats[0]
            args.append(OptionArg(key="dealer", value=dealer))
        cards = deck()
        rng.shuffle(cards)
        events: list[Event] = []
        if match.rules["draw_five"] == "setaside":
            events.append(Event(verb="aside", args=[CardsArg(cards=cards[:ASIDE])]))
            cards = cards[ASIDE:]
        # one card at a time from the dealer counter-clockwise: 10 to the dealer, 9 to the others
        order = [self.next_seat(match.seats, dealer, k) for k in range(len(match.seats))]
        hands: dict[str, list[str]] = {s: [] for s in order}
        pos = 0
        for rnd in range(DEALER_CARDS):
            for s in order:
                if rnd < (DEALER_CARDS if s == dealer else OTHER_CARDS):
                    hands[s].append(cards[pos])
                    pos += 1
        for s in match.seats:
            events.append(Event(verb="deal", args=[SeatArg(seat=s), CardsArg(cards=sorted(hands[s], key=card_order))]))
        events.append(Event(verb="stock", args=[CardsArg(cards=cards[pos:])]))
        return Hand(args=args, events=events)

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """``paifu selfplay --aim``: a stacked deal (``aim_plan``) dealt by ``deal_hand``."""
        if match.rules["draw_five"] != "setaside" or aim.casefold() not in AIMS:
            return None
        plan = aim_plan(AIMS[aim.casefold()], rng, match.rules["kaijiao"])

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            return stacked_pack(pack, *plan, seats=len(match.seats))

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_choose(self, state: JiuzhiState, legal: list[Action], rng: random.Random, aim: str) -> Action | None:
        """The dealer's first discard keeps the single the stock's next card pairs (its win)."""
        if aim.casefold() not in AIMS or state.stock is None or state.drawn >= state.stock_size:
            return None
        keep = state.stock[state.drawn]
        others = [a for a in legal if isinstance(a, Discard) and a.card != keep]
        if others and any(isinstance(a, Discard) and a.card == keep for a in legal):
            return others[0]
        return None

    def seat_view(self, state: JiuzhiState, seat: str) -> "Seen":
        visible: Counter = Counter()
        for s in state.seats:
            for c, down in state.pairs[s]:
                if not down or s == seat:
                    visible[c] += 2
            visible.update(state.discards[s])
            visible.update(state.dead[s])
        if state.shown is not None:
            visible[state.shown.card] += 1
        return Seen(seat, tuple(state.hands[seat].cards()), visible)

    def choose(self, seen: "Seen", legal: list[Action], rng: random.Random) -> Action:
        """Take every win and claim (they are forced anyway); discard the card least likely to pair.

        A single pairs when another copy shows up: keep the singles with the most copies not
        yet seen, give up first the ones whose copies are already on the table.
        """
        if len(legal) == 1:
            return legal[0]
        wins = [a for a in legal if isinstance(a, Win)]
        if wins:
            return wins[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return legal[0]
        held = Counter(seen.hand)

        def live(card: str) -> int:
            return COPIES - held[card] - seen.visible[card]

        fewest = min(live(a.card) for a in discards)
        return rng.choice([a for a in discards if live(a.card) == fewest])


@dataclass(frozen=True)
class Seen:
    """What one seat's policy knows: its hand and every card it can see on the table."""

    seat: str
    hand: tuple[str, ...]
    visible: Counter


# -- paifu selfplay --aim -----------------------------------------------------------------
AIMS = {"one colour": "one_colour", "一色胡": "one_colour",
        "two quads of one piece and its pair, won on a quad": "kaijiao_win", "開交胡": "kaijiao_win",
        "four identical cards": "kaijiao_pair", "開交対子": "kaijiao_pair",
        "drawn hand": "drawn", "流局": "drawn", "draw": "drawn", "exhaustive draw": "drawn"}

Plan = tuple[list[str], list[list[str]], list[str]]  # the aside, hands from the dealer on, the stock's first cards


def aim_plan(aim: str, rng: random.Random, kaijiao: str) -> Plan:
    """Cards stacked toward an item (the rest of the deck fills in):

    - 一色胡, 開交対子, 開交胡: the dealer is dealt four pairs (laid down at once) and two
      singles; it discards one (``aim_choose``) and the stock's first card pairs the other,
      a win whoever draws it (胡 before a pair). 一色胡: the pairs and the kept single of one
      colour; 開交対子: one of the pairs twice (four identical cards); 開交胡: four of one
      card, three of its other colour (帥 yellow and red, or 將 green and white) and a pair
      of a third colour, the fourth of the three drawn;
    - 流局: the stock holds only kinds nobody holds (all four copies in the stock, or two in
      the stock and two set aside) and the seat after the dealer holds none of the dealer's
      kinds: the dealer's discard is unclaimed, so is every drawn card, and the stock runs
      out with nobody able to claim (claims are compulsory: no choice steers)."""
    kinds = [c + p for c in COLOURS for p in PIECES]
    if aim == "drawn":
        rng.shuffle(kinds)
        spare, held, stocked = kinds[0], kinds[1:11], kinds[11:]
        mine, theirs = held[:6], held[6:]
        pool_a = [k for k in mine for _ in range(COPIES)]
        rng.shuffle(pool_a)
        dealer = pool_a[:DEALER_CARDS]
        if len(set(dealer)) <= WIN_PAIRS and all(dealer.count(k) % 2 == 0 for k in dealer):
            dealer = pool_a[1:DEALER_CARDS + 1]  # never five dealt pairs (a dealt win)
        pool_b = [k for k in theirs for _ in range(COPIES)]
        rng.shuffle(pool_b)
        nxt = pool_b[:OTHER_CARDS]
        rest = pool_a + pool_b
        for c in dealer + nxt:
            rest.remove(c)
        rng.shuffle(rest)
        others = rest[:2 * OTHER_CARDS]
        aside = rest[2 * OTHER_CARDS:] + [spare, spare]
        stock = [k for k in stocked for _ in range(COPIES)] + [spare, spare]
        rng.shuffle(stock)
        return aside, [dealer, nxt, others[:OTHER_CARDS], others[OTHER_CARDS:]], stock
    if aim == "kaijiao_win":
        p = rng.choice(PIECES)
        two = rng.choice(["YR", "GW"]) if kaijiao == "same_character" else "".join(rng.sample(COLOURS, 2))
        quad, three = rng.sample([c + p for c in two], 2)
        pair = rng.choice([c + p for c in COLOURS if c not in two])
        junk = rng.choice([k for k in kinds if piece(k) != p])
        return [], [[quad] * 4 + [three] * 3 + [pair] * 2 + [junk]], [three]
    col = rng.choice(COLOURS)
    mine = [col + p for p in PIECES]
    rng.shuffle(mine)
    pairs, single = mine[:4], mine[4]
    if aim == "kaijiao_pair":
        pairs[1] = pairs[0]  # four identical cards
        single = rng.choice([k for k in kinds if k not in pairs])
    junk = rng.choice([k for k in kinds if colour(k) != colour(single) and k not in pairs and k != single])
    return [], [[k for k in pairs for _ in range(2)] + [single, junk]], [single]


def stacked_pack(pack: list[str], aside: list[str], hands: list[list[str]], stock: list[str], seats: int) -> list[str]:
    """The deck in ``deal_hand``'s order (the five set aside, then one card at a time from the
    dealer round the table, then the stock), with the planned cards in place, the rest of the
    shuffled ``pack`` filling the gaps in its order."""
    rest = list(pack)
    for c in aside + [c for h in hands for c in h] + stock:
        rest.remove(c)
    rest.reverse()
    aside = aside + [rest.pop() for _ in range(ASIDE - len(aside))]
    full = [h + [rest.pop() for _ in range((DEALER_CARDS if i == 0 else OTHER_CARDS) - len(h))]
            for i, h in enumerate(hands + [[] for _ in range(seats - len(hands))])]
    dealt = [full[i][rnd] for rnd in range(DEALER_CARDS) for i in range(seats) if rnd < len(full[i])]
    return aside + dealt + stock + rest[::-1]


def least_colour_cards(cards: list[str]) -> list[str]:
    """The cards of the colour(s) least held (手牌にある最も少ない色の牌); colours not held do not count."""
    counts = Counter(colour(c) for c in cards)
    if not counts:
        return []
    least = min(counts.values())
    return [c for c in cards if counts[colour(c)] == least]


ENGINE = Jiuzhi()
