"""Parlett's 99: three players, 36 cards, three bid cards, declaring and revealing.

Seed 000_d19ded950c7752da.txt, §99 (2018-10-20); defaults and options from RULINGS
§ninetynine and docs/rulings.md §ninetynine. Seats A, B, C are in the order of play
(the seed's 時計回り, clockwise): the dealer's left is the seat after the dealer.

A hand is written::

    hand 1 dealer=A trump=D      {trump= is optional; when written it is checked}
    deal A: ...12 cards...
    deal B: ...
    deal C: ...
    B: bid 7D 8D 6D              {three bid cards face down (目標): clubs 3, hearts 2, spades 1, diamonds 0}
    C: bid ...
    A: bid ...
    B: declare                   {目標公開: +30; or 'reveal' (手札公開): +60; or 'pass'}
    B: AH                        {a play: the card alone}
    ...
    score A +13 B +16 C +10      {10 each when all three make their targets, plus 1 per trick}

The early version (``version=early``) adds the joker, written ``JK``, and a set-up line
``turn 7H`` for the 37th card turned up for trump.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, SeatArg, WordArg

from . import french
from ..deals import card_place, deal_seat, fill_unseen
from ..engine import (
    Engine,
    HandHeader,
    HandState,
    Match,
    MatchResult,
    RuleOption,
    Rules,
    ScoreItem,
    SeatView,
    Settlement,
    TableView,
    TrickView,
    Violation,
    WholeNumber,
    Zone,
    nth_card,
)
from ..holding import Holding

SEED = "「99」 (2018-10-20)"  # seed 000_d19ded950c7752da.txt
RULING = "docs/rulings.md §ninetynine"
PAIFU_RULING = "docs/rulings.md §ninetynine"

RANK_ORDER = "6789TJQKA"  # カードの強さ: A,K,Q,J,10,9,8,7,6 (strongest first)
SUITS = "CDHS"
JOKER = "JK"  # the early version's joker, written as the word JK
HAND_SIZE = 12  # ひとり 12 枚
BID_CARDS = 3  # 手札から 3 枚のカードを選んで伏せて捨て
UNSEEN_BIDS = 220  # an unseen hand's bids are listed while they are at most as many as a seen hand's (12 cards: 220)
TRICKS = 9  # 9 回のカード勝負

# 目標: clubs 3, hearts 2, spades 1, diamonds 0.
BID_VALUE = {"C": 3, "H": 2, "S": 1, "D": 0}
# 切札: the suit matching how many players succeeded in the previous hand.
TRUMP_FOR_SUCCESSES = {0: "D", 1: "S", 2: "H", 3: "C"}
# 成功した人が 3 人なら 10 点ずつ, 2 人なら 20 点ずつ, 1 人なら 30 点.
SUCCESS_POINTS = {3: 10, 2: 20, 1: 30, 0: 0}
# 目標公開 30 点, 手札公開 60 点.
ANNOUNCE_BONUS = {"declare": 30, "reveal": 60}
ANNOUNCE_RANK = {"declare": 1, "reveal": 2}  # 手札公開は目標公開に勝ち
ANNOUNCE_TERM = {"declare": "目標公開", "reveal": "手札公開"}


OPTIONS = (
    WholeNumber("hands", "9", (), "format=hands: the game is this many hands, a multiple of 9",
                f"{SEED}, 得点計算 (9 手あるいは事前に決めた 9 の倍数の手数)", least=9, multiple_of=9,
                what="a multiple of 9 (9, 18, 27...)"),
    RuleOption("format", "hands", ("hands", "three_wins"),
               "hands: most points after the hands wins; three_wins: games to 100 points, first to win three games wins "
               "(trumps start from diamonds in each game)", f"{SEED}, 得点計算; {RULING}"),
    WholeNumber("target", "100", (), "format=three_wins: the points that win one game (1 勝を 100 点先取)",
                f"{SEED}, 得点計算", least=1, what="a number of points above 0"),
    RuleOption("version", "standard", ("standard", "early"),
               "early: 37 cards with the joker (JK); the 37th card is turned up for trump", f"{SEED}, 初期バージョンのルール"),
    RuleOption("early_no_trump", "no_trump", ("no_trump", "all_trumps"),
               "version=early, joker or 9 turned: no trump, or the author's proposal that all cards are trumps "
               "(highest rank wins, the first of equals)", f"{SEED}, 初期バージョンのルール; {RULING}"),
    RuleOption("announce", "in_turn", ("in_turn", "priority"),
               "in_turn: declaring/revealing is offered once to each seat in turn from the dealer's left (passes may be "
               "left out); a later declaration is refused, a reveal overrides an earlier declaration; priority: each seat "
               "says pass/declare/reveal once in any order and the rule text's priority picks the one announcement",
               f"{SEED}, 宣言; {PAIFU_RULING}"),
)


# -- cards ------------------------------------------------------------------------------
def deck(early: bool) -> list[str]:
    """The 36 cards A..6 of four suits, and the joker in the early version."""
    cards = french.deck(RANK_ORDER, SUITS)
    return cards + [JOKER] if early else cards


DECK36 = frozenset(deck(False))


def rank_value(card: str) -> int:
    return RANK_ORDER.index(card[0])


def identity(card: str, joker_as: str | None) -> str:
    """The card a played card counts as: the joker stands for the turned-up card."""
    if card == JOKER:
        return joker_as or JOKER
    return card


def suit_of(card: str, joker_as: str | None) -> str | None:
    ident = identity(card, joker_as)
    return None if ident == JOKER else ident[1]


def bid_target(cards: Sequence[str], joker_as: str | None) -> int:
    """目標: the sum of the bid cards' suit values."""
    return sum(BID_VALUE.get(suit_of(c, joker_as) or "", 0) for c in cards)


def sort_key(card: str) -> tuple[int, int]:
    if card == JOKER:
        return (9, 9)
    return (SUITS.index(card[1]), rank_value(card))


def trick_winner(plays: Sequence[tuple[str, str]], trump: str | None, all_trumps: bool) -> str:
    """The seat that wins a trick of (seat, card-identity) plays, in the order played.

    一番強い切札, 切札がないときは, 先手と同じ印で一番強いカード; with all trumps (the early
    version's proposal), the highest rank whatever the suit, the first of equals.
    """
    if all_trumps:
        best = plays[0]
        for p in plays[1:]:
            if rank_value(p[1]) > rank_value(best[1]):
                best = p
        return best[0]
    led = plays[0][1][1]

    def strength(card: str) -> tuple[int, int]:
        if trump is not None and card[1] == trump:
            return (2, rank_value(card))
        if card[1] == led:
            return (1, rank_value(card))
        return (0, -1)

    return max(plays, key=lambda p: strength(p[1]))[0]


# -- actions --------------------------------------------------------------------------
@dataclass(frozen=True)
class Bid:
    seat: str
    cards: tuple[str, ...]
    written_target: int | None = None


@dataclass(frozen=True)
class Announce:
    """'declare' (目標公開) or 'reveal' (手札公開) or 'pass'."""

    seat: str
    kind: str
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Play:
    seat: str
    card: str


Action = Bid | Announce | Play


# -- state ----------------------------------------------------------------------------
@dataclass
class NinetyNineMatch(Match):
    trump: str | None = "D"  # the trump of the next hand (standard version)
    game: int = 1  # format=three_wins: the game being played
    wins: dict[str, int] = field(default_factory=dict)
    game_ended: bool = False  # a three_wins game ended with the last hand: totals restart
    winners: list[str] = field(default_factory=list)  # of the last finished game


@dataclass
class NinetyNineState(HandState):
    seats: list[str] = field(default_factory=list)
    dealer: str = "A"
    order: list[str] = field(default_factory=list)  # from the dealer's left, clockwise
    hands: dict[str, Holding] = field(default_factory=dict)
    located: set[str] = field(default_factory=set)  # cards known to be somewhere
    trump: str | None = "D"
    all_trumps: bool = False
    turned: str | None = None
    joker_as: str | None = None
    bids: dict[str, tuple[str, ...]] = field(default_factory=dict)
    phase: str = "bid"  # bid | announce | play | over
    speaker: int = 0  # announce: index in order of the seat whose chance comes next
    announcer: str | None = None
    announcement: str | None = None  # declare | reveal
    overridden: list[str] = field(default_factory=list)  # announcements that lost on priority
    wishes: dict[str, str] = field(default_factory=dict)  # announce=priority: what each seat said
    leader: str = "A"
    turn: str = "A"
    trick: list[tuple[str, str]] = field(default_factory=list)  # (seat, card as written)
    tricks: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)  # (winner, plays)
    won: dict[str, int] = field(default_factory=dict)
    voids: dict[str, set[str]] = field(default_factory=dict)  # suits a seat has shown out of

    def target(self, seat: str) -> int | None:
        bid = self.bids.get(seat)
        return None if bid is None else bid_target(bid, self.joker_as)


@dataclass(frozen=True)
class Seen:
    """What the selfplay policy of one seat knows: its own cards and what is on the table."""

    seat: str
    phase: str
    cards: tuple[str, ...]
    joker_as: str | None
    trump: str | None
    all_trumps: bool
    target: int | None
    won: int
    tricks_left: int
    trick: tuple[tuple[str, str], ...]  # (seat, identity) of the trick so far
    can_declare: bool
    can_reveal: bool


class NinetyNine(Engine[NinetyNineState, Action]):
    id = "ninetynine"
    title = "Parlett's 99"
    family = "french"
    seat_counts = (3,)
    options = OPTIONS
    setup_verbs = frozenset({"deal", "turn"})
    source = SEED
    zero_sum = False  # §得点計算: each player scores his tricks and the bonuses; nobody pays another
    selfplay_hands = 9

    # -- match --------------------------------------------------------------------------
    def start_match(self, rules: Rules, seats: list[str]) -> NinetyNineMatch:
        return NinetyNineMatch(rules=rules, seats=seats, totals={s: 0 for s in seats}, wins={s: 0 for s in seats})

    def end_hand(self, match: Match, state: NinetyNineState, settlement: Settlement) -> None:
        assert isinstance(match, NinetyNineMatch)
        super().end_hand(match, state, settlement)
        match.trump = TRUMP_FOR_SUCCESSES[len(successes(state))]
        rules = match.rules
        if rules["format"] == "three_wins":
            target = int(rules["target"])
            best = max(match.totals.values())
            if best >= target:
                match.winners = [s for s in match.seats if match.totals[s] == best]  # equal totals share the place
                for s in match.winners:
                    match.wins[s] += 1
                match.game_ended = True
                if max(match.wins.values()) >= 3:
                    match.over = True
        elif match.hands_done >= int(rules["hands"]):
            best = max(match.totals.values())
            match.winners = [s for s in match.seats if match.totals[s] == best]
            match.over = True

    def match_result(self, match: Match) -> MatchResult | None:
        """The game's winners: the highest total after the game's hands (同点なら同順位), or,
        with format=three_wins, whoever won three 100-point games."""
        if not isinstance(match, NinetyNineMatch) or not match.over:
            return None
        if match.rules["format"] == "three_wins":
            best = max(match.wins.values())
            return MatchResult([s for s in match.seats if match.wins[s] == best], how="three games won")
        return MatchResult(list(match.winners), how=f"the highest total after {match.hands_done} hands")

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the deal passes in turn as ever; the
        trumps (standard version) as the next hand's line writes them (trump=), since they
        follow from how many made their bids (切札は…以後は直前の手で目標どおりに勝った人数に対応する印)."""
        assert isinstance(match, NinetyNineMatch)
        rules = match.rules
        if rules["format"] == "three_wins":
            return "with format=three_wins, whether the hand before ended a game (and the totals restart) depends on how it ended"
        problem = self.carried_trump(match, header)
        if problem:
            return problem
        match.dealer = (broken.dealer if broken.dealer in match.seats else None) or (self.next_seat(match.seats, match.dealer) if match.dealer else match.seats[0])
        if totals is not None:
            match.totals = dict(totals)
        match.hands_played += 1
        match.over = False
        return None

    @staticmethod
    def carried_trump(match: NinetyNineMatch, header: HandHeader) -> str | None:
        """The standard version's trumps for a hand whose predecessor the replay did not play
        (after a broken hand, or the first hand of a record that starts from a position): as
        its hand line writes them (trump=), since they follow from how many made their bids
        (切札は…直前の手で目標どおりに勝った人数に対応する印). None when set, else why not."""
        if match.rules["version"] == "early":
            return None  # the turned card gives each hand its trump
        written = header.attrs.get("trump")
        if written is None:
            return ("its trumps follow from how many made their bids in the hand before it "
                    "(切札は…直前の手で目標どおりに勝った人数に対応する印), and its hand line writes none (trump=...)")
        if written not in TRUMP_FOR_SUCCESSES.values():
            return f"trump={written}: the standard version's trumps are D, S, H or C"
        match.trump = written
        return None

    def has_end(self, match: Match) -> bool:
        """The game is its hands (9, or a multiple of 9), or three 100-point games won."""
        return True

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A game written from a later hand (docs/notation.md §Starting from a position): each
        player's score (Start), the hand's number, dealer= (any seat: the deal passes in turn
        from there) and trump= (from the hand before's successes; the early version turns a
        card instead). The scores are never below 0, and after N hands they add up to 9 N (a
        point a trick, nine tricks a hand) plus bonuses of multiples of 10 (§得点計算: 10, 20 or
        30 for successes, 30 or 60 for a declaration or reveal); no hand past the game's length
        (9 手あるいは事前に決めた 9 の倍数の手数). With ``format=three_wins`` the scores are the
        current game's, each under the target, and ``wins=A1,C1`` gives the games won so far."""
        assert isinstance(match, NinetyNineMatch)
        rules = match.rules
        before = match.hands_before
        below = [s for s in match.seats if totals[s] < 0]
        if below:
            return (f"{' '.join(below)} {'has' if len(below) == 1 else 'have'} a score below 0; in 99 each player scores his "
                    f"tricks and bonuses and loses nothing ({SEED} §得点計算)")
        if rules["format"] == "three_wins":
            target = int(rules["target"])
            over = [s for s in match.seats if totals[s] >= target]
            if over:
                return (f"{' '.join(over)} {'has' if len(over) == 1 else 'have'} {target} or more: that game ended there "
                        f"(1 勝を {target} 点先取), and the next one starts from 0 ({SEED} §得点計算)")
            wins, problem = read_wins(header.attrs.get("wins"), match.seats)
            if problem:
                return problem
            done = [s for s in match.seats if wins[s] >= 3]
            if done:
                return f"wins={header.attrs['wins']}: {' '.join(done)} won three games, and the match ended (最初に 3 勝した人が勝ち)"
            match.wins = wins
            match.game = 1 + max(wins.values())  # at least: a game won by two tied seats counts for both
        else:
            if "wins" in header.attrs:
                return "wins= is for format=three_wins (the games won so far); this game is its hands"
            hands = int(rules["hands"])
            if before >= hands:
                return (f"hand {before + 1} is past the game's end: the game is {hands} hands "
                        f"(hands={hands}; 9 手あるいは事前に決めた 9 の倍数の手数, {SEED} §得点計算)")
            got = sum(totals.values())
            if got < 9 * before or (got - 9 * before) % 10:
                return (f"the scores add up to {got}; after {before} hands they add up to {9 * before} (a point for each of "
                        f"a hand's nine tricks: カード勝負 1 勝あたり 1 点) plus bonuses that are multiples of 10 "
                        f"(10, 20 or 30 for successes, 30 or 60 for a declaration or reveal: {SEED} §得点計算)")
        if before:
            problem = self.carried_trump(match, header)
            if problem:
                return problem
        match.totals = dict(totals)  # match.dealer stays unknown: the hand line's dealer deals this hand
        return None

    # -- hand ---------------------------------------------------------------------------
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> NinetyNineState:
        assert isinstance(match, NinetyNineMatch)
        rules = match.rules
        early = rules["version"] == "early"
        seats = match.seats
        first = setup[0] if setup else None
        if match.game_ended:  # a new 100-point game: totals restart, trumps from diamonds again
            match.totals = {s: 0 for s in seats}
            match.trump = "D"
            match.game += 1
            match.game_ended = False
        expected = self.next_seat(seats, match.dealer) if match.dealer else None
        dealer = header.dealer or expected or seats[0]
        if expected is not None and dealer != expected:
            raise Violation("R206", f"the deal passes in turn (そのあとは順番に交代します): {match.dealer} dealt the last hand, "
                                    f"so {expected} deals, not {dealer}", SEED)  # at the hand line
        match.dealer = dealer
        dealt, turned, turn_event = read_setup(setup, seats, early)
        full = deck(early)
        check_distinct(list(dealt.items()) + ([("turn", (turn_event, [turned]))] if turn_event and turned else []), full, early)
        cards_of = {s: dealt[s][1] if s in dealt else ["*"] * HAND_SIZE for s in seats}
        known = {c for cs in cards_of.values() for c in cs if c != "*"}
        if early and turned is None:
            rest = [c for c in full if c not in known]
            if len(rest) != 1:
                raise Violation("L306", "the early version turns up the 37th card for trump: write it after the deal, 'turn 7H'",
                                SEED, event=first)
            turned = rest[0]
        state = NinetyNineState(match=match, header=header, seats=list(seats), dealer=dealer)
        state.order = [self.next_seat(seats, dealer, k) for k in range(1, len(seats) + 1)]
        fill_unseen(cards_of, [c for c in full if c != turned])
        state.hands = {s: Holding.of(cards_of[s]) for s in seats}
        state.located = {c for cs in cards_of.values() for c in cs if c != "*"}
        if turned is not None:
            state.located.add(turned)
        state.won = {s: 0 for s in seats}
        state.voids = {s: set() for s in seats}
        state.turned = turned
        state.joker_as = turned if turned not in (None, JOKER) else None
        state.trump, state.all_trumps = hand_trump(rules, match.trump, turned)
        written = header.attrs.get("trump")
        if written is not None:
            shown = "none" if state.trump is None else state.trump
            if state.all_trumps:
                shown = "all"
            if written != shown:
                raise Violation("R206", f"the hand line says trump={written}, but this hand's trump is {describe_trump(state)}",
                                SEED)  # at the hand line
        state.leader = state.turn = state.order[0]  # 1 回目は, 配り手の左隣
        return state

    def read_action(self, state: NinetyNineState, event: Event) -> Action:
        seat = event.seat
        if seat is None:
            raise Violation("L306", f"'{event.verb}' is not a 99 event here: write 'A: bid 6D 7C 8H', 'A: declare', "
                                    "'A: reveal', 'A: pass' or a play 'A: TH' (deal and turn lines come first)")
        if seat not in state.seats:
            raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(state.seats)})")
        early = state.match.rules["version"] == "early"
        verb = event.verb
        if verb is None:
            cards = read_cards(event, 0, early, allow_unseen=False)
            if len(cards) != 1:
                raise Violation("L306", f"a play is one card ('{seat}: TH'); {len(cards)} named", arg=nth_card(1) if cards else None)
            return Play(seat, cards[0])
        if verb == "bid":
            args = list(event.args)
            written: int | None = None
            if args and isinstance(args[-1], NumArg):
                written = args[-1].value
                args = args[:-1]
            cards = read_cards(Event(seat=seat, args=args), 0, early, allow_unseen=False)
            if len(cards) != BID_CARDS:
                raise Violation("L306", f"a bid is three cards laid face down ('{seat}: bid 6D 7C 8H'); {len(cards)} named",
                                SEED, arg=0)
            return Bid(seat, tuple(cards), written)
        if verb in ("declare", "reveal", "pass"):
            if verb == "pass" and event.args:
                raise Violation("L306", "'pass' takes nothing after it", arg=0)
            cards = read_cards(event, 0, early, allow_unseen=False) if event.args else []
            return Announce(seat, verb, tuple(cards))
        raise Violation("L306", f"99 has no verb '{verb}': its verbs are bid, declare, reveal, pass, and plays written as the card alone")

    def apply(self, state: NinetyNineState, action: Action) -> None:
        if state.phase == "over":
            raise Violation("L308", "the hand is over")
        if isinstance(action, Bid):
            self._apply_bid(state, action)
        elif isinstance(action, Announce):
            self._apply_announce(state, action)
        else:
            self._apply_play(state, action)

    def _check_held(self, state: NinetyNineState, seat: str, cards: Sequence[str]) -> None:
        """Raise 'card not held' unless the seat holds the cards (or may, among unseen ones)."""
        holding = state.hands[seat]
        for k, card in enumerate(cards):
            if not holding.has(card) and (card in state.located or holding.unseen == 0):
                if state.turned is not None and card == state.turned:
                    where = "it is the card turned up for trump"
                elif card in state.located and not any(h.has(card) for h in state.hands.values()):
                    where = "it was played or bid already"
                else:
                    where = "it is not in that hand"
                raise Violation("L303", f"{seat} does not hold {card}: {where}", arg=nth_card(k))

    def _take(self, state: NinetyNineState, seat: str, cards: Sequence[str], what: str) -> None:
        """Take cards from a seat's hand, checking it holds them."""
        self._check_held(state, seat, cards)
        holding = state.hands[seat]
        spent = 0
        for card in cards:
            if not holding.take(card):
                spent += 1
            state.located.add(card)
        if spent:
            state.notes.append(f"{seat} {what} {spent} card(s) from an unseen hand: not checked against the deal")

    def _apply_bid(self, state: NinetyNineState, action: Bid) -> None:
        seat = action.seat
        if state.phase != "bid":
            raise Violation("L301", f"the bids are made before the play; {seat} has bid already" if seat in state.bids
                            else "the bids are made before the play", SEED)
        if seat in state.bids:
            raise Violation("L301", f"{seat} has bid already: each player lays down three cards once", SEED)
        for k, card in enumerate(action.cards):
            if card != JOKER and card not in DECK36:
                raise Violation("L305", f"{card} is not a card of 99 (A, K, Q, J, 10, 9, 8, 7, 6 of four suits)", SEED, arg=nth_card(k))
        twice = next((k for k, card in enumerate(action.cards) if card in action.cards[:k]), None)
        if twice is not None:
            raise Violation("L301", f"the same card twice in one bid: {' '.join(action.cards)}", arg=nth_card(twice))
        self._take(state, seat, action.cards, "bid")
        state.bids[seat] = action.cards
        target = bid_target(action.cards, state.joker_as)
        if action.written_target is not None and action.written_target != target:
            raise Violation("L301", f"{' '.join(action.cards)} make a target of {target}, not {action.written_target} "
                                    "(clubs 3, hearts 2, spades 1, diamonds 0)", SEED, arg=-1)  # the number, last
        if len(state.bids) == len(state.seats):
            state.phase = "announce"
            state.speaker = 0

    def _apply_announce(self, state: NinetyNineState, action: Announce) -> None:
        seat, kind = action.seat, action.kind
        if state.phase == "bid":
            raise Violation("L301", f"'{kind}' comes after all three players have laid down their bid cards", SEED)
        no_card_yet = not state.tricks and not state.trick
        if state.phase == "play" and no_card_yet and kind == "pass" and state.order.index(seat) >= state.speaker:
            state.speaker = state.order.index(seat) + 1  # a pass after a reveal: nothing is left to say
            return
        if state.phase == "play" and no_card_yet and state.announcement == "reveal":
            raise Violation("L301", f"{state.announcer} has revealed: only one player may declare or reveal (公開は 1 人しか"
                                    "できません; 手札公開は目標公開に勝ち, the first from the dealer's left has priority)", SEED)
        if state.phase == "play" and no_card_yet:
            raise Violation("L302", f"every seat has had its chance to declare or reveal ({' '.join(state.order)})", PAIFU_RULING)
        if state.phase != "announce":
            raise Violation("L301", f"'{kind}' is made before the first card is played (カード勝負の前に)", SEED)
        if action.cards and sorted(action.cards) != sorted(state.bids[seat]):
            raise Violation("L301", f"{seat} declares the bid cards laid down: {' '.join(state.bids[seat])}", SEED, arg=0)
        if state.match.rules["announce"] == "priority":
            self._apply_wish(state, action)
            return
        index = state.order.index(seat)
        if index < state.speaker:
            raise Violation("L302", f"{seat}'s chance to declare or reveal has passed: the chance goes once round from the "
                                    f"dealer's left ({' '.join(state.order)}), and a later seat has spoken", PAIFU_RULING)
        if kind == "declare" and state.announcement is not None:
            other = state.announcer
            raise Violation("L301", f"{other} has {'revealed' if state.announcement == 'reveal' else 'declared'}: only one player "
                                    "may declare or reveal (公開は 1 人しかできません)", SEED)
        if kind == "reveal" and state.announcement == "reveal":
            raise Violation("L301", f"{state.announcer} has revealed: only one player may reveal (公開は 1 人しかできません; "
                                    "the first from the dealer's left has priority)", SEED)
        if kind != "pass":
            if state.announcement == "declare" and state.announcer is not None:
                state.overridden.append(state.announcer)  # 手札公開は目標公開に勝ち
            state.announcer, state.announcement = seat, kind
        state.speaker = index + 1
        if state.speaker >= len(state.order) or state.announcement == "reveal":
            state.phase = "play"

    @staticmethod
    def _apply_wish(state: NinetyNineState, action: Announce) -> None:
        """announce=priority: each seat says once, in any order; the seed's priority decides."""
        if action.seat in state.wishes:
            raise Violation("L301", f"{action.seat} has already said '{state.wishes[action.seat]}'", PAIFU_RULING)
        state.wishes[action.seat] = action.kind
        wanted = [(ANNOUNCE_RANK[k], -state.order.index(s), s) for s, k in state.wishes.items() if k != "pass"]
        if wanted:
            _, _, best = max(wanted)
            state.announcer, state.announcement = best, state.wishes[best]
            state.overridden = [s for _, _, s in wanted if s != best]
        state.speaker = next((i for i, s in enumerate(state.order) if s not in state.wishes), len(state.order))
        if state.speaker >= len(state.order):
            state.phase = "play"

    def _apply_play(self, state: NinetyNineState, action: Play) -> None:
        seat, card = action.seat, action.card
        if state.phase == "bid":
            missing = [s for s in state.order if s not in state.bids]
            raise Violation("L301", f"the play starts after the bids: {' '.join(missing)} must still lay down three cards", SEED)
        if state.phase == "announce":
            if seat != state.leader:
                raise Violation("L302", f"{state.leader} leads the first trick (配り手の左隣), not {seat}", SEED)
            state.phase = "play"  # the chances left to declare are passed
        if seat != state.turn:
            why = "the winner of the last trick leads" if not state.trick else "play goes clockwise"
            raise Violation("L302", f"it is {state.turn}'s turn, not {seat}'s ({why})", SEED)
        if card != JOKER and card not in DECK36:
            raise Violation("L305", f"{card} is not a card of 99 (A, K, Q, J, 10, 9, 8, 7, 6 of four suits)", SEED, arg=0)
        if card == JOKER and state.joker_as is None:
            raise Violation("L303", f"{seat} does not hold the joker: it is the card turned up for trump", arg=0)
        self._check_held(state, seat, [card])
        led = led_suit(state)
        check_follows(state, seat, card, led)
        self._take(state, seat, [card], "played")
        if led is not None and identity(card, state.joker_as)[1] != led:
            if state.hands[seat].unseen:
                state.notes.append(f"{seat} did not follow suit: the unseen cards of {seat} cannot be checked for "
                                   f"{french.SUIT_SYMBOL[led]}")
            state.voids[seat].add(led)
        state.trick.append((seat, card))
        if len(state.trick) < len(state.seats):
            state.turn = self.next_seat(state.seats, seat)
        else:
            finish_trick(state)

    def legal_actions(self, state: NinetyNineState) -> list[Action]:
        seat = self.to_act(state)
        if seat is None:
            return []
        holding = state.hands[seat]
        if state.phase == "bid":
            if holding.unseen:
                return []
            cards = sorted(holding.cards(), key=sort_key)
            return [Bid(seat, combo) for combo in combinations(cards, BID_CARDS)]
        if state.phase == "announce":
            if state.match.rules["announce"] == "priority":
                return [Announce(seat, k) for k in ("pass", "declare", "reveal")]
            out: list[Action] = [Announce(seat, "pass")]
            if state.announcement is None:
                out.append(Announce(seat, "declare"))
            if state.announcement != "reveal":
                out.append(Announce(seat, "reveal"))
            return out
        return list(self._plays(state, seat))

    def _plays(self, state: NinetyNineState, seat: str) -> list[Play]:
        holding = state.hands[seat]
        if holding.unseen:
            return []
        cards = sorted(holding.cards(), key=sort_key)
        if state.trick:
            led = identity(state.trick[0][1], state.joker_as)[1]
            same = [c for c in cards if identity(c, state.joker_as)[1] == led]
            if same:
                cards = same
        return [Play(seat, c) for c in cards]

    def unseen_candidates(self, state: NinetyNineState, seat: str) -> Counter:
        """Every card of the pack not known to be somewhere (a seen hand, bid, played, turned up)."""
        if not state.hands[seat].unseen:
            return Counter()
        return Counter(c for c in deck(state.match.rules["version"] == "early") if c not in state.located)

    def unseen_actions(self, state: NinetyNineState) -> list[Action]:
        """For a hand not wholly seen: a play of any card it could hold (whether it follows suit
        cannot be checked), and its bids of three such cards while there are at most
        ``UNSEEN_BIDS`` of them (two unseen hands could bid some 2,000 ways: write the bid)."""
        seat = self.to_act(state)
        if seat is None or state.phase not in ("bid", "play"):
            return []
        holding = state.hands[seat]
        if not holding.unseen:
            return []
        could = sorted(set(holding.cards()) | set(self.unseen_candidates(state, seat)), key=sort_key)
        if state.phase == "play":
            return [Play(seat, c) for c in could]
        if len(list(combinations(could, BID_CARDS))) > UNSEEN_BIDS:
            return []
        return [Bid(seat, combo) for combo in combinations(could, BID_CARDS)
                if sum(1 for c in combo if not holding.has(c)) <= holding.unseen]

    def to_act(self, state: NinetyNineState) -> str | None:
        if state.phase == "bid":
            return next(s for s in state.order if s not in state.bids)
        if state.phase == "announce":
            return state.order[state.speaker]
        if state.phase == "play":
            return state.turn
        return None

    def hand_over(self, state: NinetyNineState) -> bool:
        return state.phase == "over"

    def settle(self, state: NinetyNineState) -> Settlement:
        if state.phase != "over":
            raise Violation("L307", "the hand is not over")
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        made = successes(state)
        for s in state.seats:
            if state.won[s]:
                deltas[s] += state.won[s]
                out.items.append(ScoreItem(s, "tricks", state.won[s], "カード勝負 1 勝あたり 1 点", f"{state.won[s]} trick(s)"))
        each = SUCCESS_POINTS[len(made)]
        for s in made:
            deltas[s] += each
            out.items.append(ScoreItem(s, "bid made", each, "成功", f"target {state.target(s)} made; {len(made)} succeeded"))
        if state.announcer is not None and state.announcement is not None:
            bonus = ANNOUNCE_BONUS[state.announcement]
            term = ANNOUNCE_TERM[state.announcement]
            who = state.announcer
            if who in made:
                deltas[who] += bonus
                out.items.append(ScoreItem(who, f"{state.announcement} bonus", bonus, term, "the announcer succeeded"))
            else:
                for s in state.seats:
                    if s != who:
                        deltas[s] += bonus
                        out.items.append(ScoreItem(s, f"{state.announcement} bonus", bonus, term, f"{who} failed"))
        return out

    # -- what a seat sees ---------------------------------------------------------------
    def view(self, state: NinetyNineState, seat: str | None) -> TableView:
        seats = []
        over = state.phase == "over"
        for s in state.seats:
            holding = state.hands[s]
            open_hand = seat is None or seat == s or (state.announcer == s and state.announcement == "reveal")
            cards = sorted(holding.cards(), key=sort_key)
            hand = Zone("hand", cards, hidden=holding.unseen, layout="fan") if open_hand else \
                Zone("hand", [], hidden=len(holding), layout="fan")
            bid = state.bids.get(s)
            bid_open = bid is not None and (seat is None or seat == s or over or state.announcer == s)
            zones = [hand, Zone("bid", list(bid) if bid_open and bid else [], hidden=0 if bid_open or not bid else len(bid)),
                     Zone("tricks", [], hidden=state.won[s], layout="count")]
            played = [c for p, c in state.trick if p == s]
            zones.append(Zone("played", played))
            labels = []
            if s == state.dealer:
                labels.append("dealer")
            if state.announcer == s:
                labels.append("revealed" if state.announcement == "reveal" else "declared")
            target = state.target(s)
            if target is not None and bid_open:
                labels.append(f"target {target}")
            seats.append(SeatView(s, zones, score=state.match.totals.get(s, 0), to_act=s == self.to_act(state), labels=labels))
        center = [Zone("trick", [c for _, c in state.trick])]
        if state.turned:
            center.append(Zone("turned", [state.turned]))
        info = {"trump": describe_trump(state), "tricks": str(len(state.tricks)), "phase": state.phase}
        if state.turned:
            info["turned"] = state.turned
        match = state.match
        if isinstance(match, NinetyNineMatch) and match.rules["format"] == "three_wins":
            info["game"] = str(match.game)
            info["wins"] = " ".join(f"{s} {match.wins[s]}" for s in match.seats)
        last = None
        if state.tricks:
            winner, plays = state.tricks[-1]
            last = TrickView(len(state.tricks), [(p, c) for p, c in plays], winner)
        return TableView("french", seats, center, info, last_trick=last)

    def event_for(self, state: NinetyNineState, action: Action) -> Event:
        if isinstance(action, Bid):
            return Event(seat=action.seat, verb="bid", args=[card_arg(c) for c in action.cards])
        if isinstance(action, Announce):
            return Event(seat=action.seat, verb=action.kind)
        return Event(seat=action.seat, args=[card_arg(action.card)])

    # -- selfplay -----------------------------------------------------------------------
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        early = match.rules["version"] == "early"
        cards = french.shuffled(deck(early), rng)
        dealer = self.next_seat(match.seats, match.dealer) if match.dealer else match.seats[0]
        events = []
        for i, seat in enumerate(match.seats):
            hand = sorted(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE], key=sort_key)
            events.append(Event(verb="deal", args=[SeatArg(seat=seat), *[card_arg(c) for c in hand]]))
        if early:
            events.append(Event(verb="turn", args=[card_arg(cards[-1])]))
        return Hand(args=[NumArg(value=number), OptionArg(key="dealer", value=dealer)], events=events)

    def seat_view(self, state: NinetyNineState, seat: str) -> Seen:
        trick = tuple((s, identity(c, state.joker_as)) for s, c in state.trick)
        return Seen(
            seat=seat, phase=state.phase, cards=tuple(state.hands[seat].cards()), joker_as=state.joker_as,
            trump=state.trump, all_trumps=state.all_trumps, target=state.target(seat), won=state.won[seat],
            tricks_left=TRICKS - len(state.tricks), trick=trick,
            can_declare=state.phase == "announce" and state.announcement is None,
            can_reveal=state.phase == "announce" and state.announcement != "reveal",
        )

    def choose(self, seen: Seen, legal: list[Action], rng: random.Random) -> Action:
        """Bid what the hand can make; declare when the plan is sound; win tricks until the target, then lose."""
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            return choose_bid(seen, bids, rng)
        plays = [a for a in legal if isinstance(a, Play)]
        if seen.phase == "announce":
            gap = abs(estimate(seen.cards, seen) - (seen.target or 0))
            if gap < 0.3 and seen.can_reveal and rng.random() < 0.08:
                return Announce(seen.seat, "reveal")
            if gap < 0.5 and seen.can_declare and rng.random() < 0.3:
                return Announce(seen.seat, "declare")
            return Announce(seen.seat, "pass")
        return choose_play(seen, plays, rng)


# -- the selfplay policy ----------------------------------------------------------------
def estimate(cards: Sequence[str], seen: Seen) -> float:
    """Tricks a 9-card hand may expect to win: a rough count of its sure and likely winners."""
    idents = [identity(c, seen.joker_as) for c in cards if identity(c, seen.joker_as) != JOKER]
    total = 0.0
    by_suit: dict[str, int] = {}
    for c in idents:
        by_suit[c[1]] = by_suit.get(c[1], 0) + 1
    for c in idents:
        r = c[0]
        if seen.all_trumps:
            total += {"A": 0.95, "K": 0.7, "Q": 0.4, "J": 0.2}.get(r, 0.0)
        elif seen.trump is not None and c[1] == seen.trump:
            total += {"A": 1.0, "K": 0.9, "Q": 0.75, "J": 0.6, "T": 0.45}.get(r, 0.35)
        else:
            length = by_suit[c[1]]
            total += {"A": 0.85, "K": 0.55 if length >= 2 else 0.3, "Q": 0.25 if length >= 3 else 0.1}.get(r, 0.0)
    if seen.trump is not None and not seen.all_trumps:
        total += max(0, by_suit.get(seen.trump, 0) - 3) * 0.3
    return total


def choose_bid(seen: Seen, bids: list[Bid], rng: random.Random) -> Bid:
    best: list[tuple[float, Bid]] = []
    for bid in bids:
        keep = list(seen.cards)
        for c in bid.cards:
            keep.remove(c)
        gap = abs(estimate(keep, seen) - bid_target(bid.cards, seen.joker_as)) + rng.random() * 0.2
        best.append((gap, bid))
    best.sort(key=lambda t: t[0])
    return best[0][1]


def choose_play(seen: Seen, plays: list[Play], rng: random.Random) -> Play:
    need = (seen.target or 0) - seen.won
    trump = None if seen.all_trumps else seen.trump

    def key(p: Play) -> tuple[int, int]:
        ident = identity(p.card, seen.joker_as)
        return (1 if trump is not None and ident[1] == trump else 0, rank_value(ident))

    def wins(p: Play) -> bool:
        ident = identity(p.card, seen.joker_as)
        plays_now = list(seen.trick) + [(seen.seat, ident)]
        return trick_winner(plays_now, seen.trump, seen.all_trumps) == seen.seat

    ordered = sorted(plays, key=key)
    if not seen.trick:
        if need > 0:
            return ordered[-1]
        return ordered[0]
    winning = [p for p in ordered if wins(p)]
    losing = [p for p in ordered if not wins(p)]
    if need > 0:
        if winning:
            # the last to play wins cheaply; earlier seats play high
            return winning[0] if len(seen.trick) == 2 else winning[-1]
        return ordered[0]
    if losing:
        return losing[-1]
    return ordered[0]


# -- reading and writing cards ------------------------------------------------------------
def read_cards(ev: Event, start: int, early: bool, allow_unseen: bool, event: Event | None = None) -> list[str]:
    """The cards named by ``ev.args[start:]``; ``JK`` is the joker in the early version."""
    cards: list[str] = []
    for i, arg in enumerate(ev.args[start:], start):
        if isinstance(arg, CardsArg):
            if not allow_unseen and "*" in arg.cards:
                raise Violation("L305", "an unseen card '*' cannot be played or bid: name the card",
                                arg=(i, arg.cards.index("*")), event=event)
            if JOKER in arg.cards and not early:
                raise Violation("L305", "JK (the joker) is only in the early version ([Option \"version=early\"])", SEED,
                                arg=(i, arg.cards.index(JOKER)), event=event)
            cards.extend(arg.cards)
        elif isinstance(arg, WordArg) and arg.text == JOKER:  # a model built by hand
            if not early:
                raise Violation("L305", "JK (the joker) is only in the early version ([Option \"version=early\"])", SEED,
                                arg=i, event=event)
            cards.append(JOKER)
        else:
            text = getattr(arg, "text", None) or getattr(arg, "value", None) or getattr(arg, "seat", None) or arg.kind
            raise Violation("L305", f"'{text}' is not a card (cards are written like 6C, TD, AS{', JK' if early else ''})",
                            arg=i, event=event)
    return cards



def card_arg(card: str) -> CardsArg | WordArg:
    return CardsArg(cards=[card])  # the joker too: JK is a card of 99's spelling


def read_setup(setup: Sequence[Event], seats: list[str], early: bool
               ) -> tuple[dict[str, tuple[Event, list[str]]], str | None, Event | None]:
    """The deal lines (seat -> (event, cards)) and the turned card of the early version."""
    dealt: dict[str, tuple[Event, list[str]]] = {}
    turned: str | None = None
    turn_event: Event | None = None
    for ev in setup:
        if ev.verb == "turn":
            if not early:
                raise Violation("L306", "no card is turned up in 99 (only in the early version: [Option \"version=early\"])",
                                SEED, event=ev)
            if turn_event is not None:
                raise Violation("L306", "the card for trump is turned up once", SEED, arg=0, event=ev)
            cards = read_cards(ev, 0, early, allow_unseen=False, event=ev)
            if len(cards) != 1:
                raise Violation("L306", "'turn' names the one card left after the deal: 'turn 7H'", SEED, arg=0, event=ev)
            turned, turn_event = cards[0], ev
            continue
        seat = deal_seat(ev, seats, dealt, "6C 7C")
        cards = read_cards(ev, 1, early, allow_unseen=True, event=ev)
        if len(cards) != HAND_SIZE:
            raise Violation("L304", f"{seat} is dealt {len(cards)} cards; 99 deals 12 each (ひとり 12 枚)", SEED, arg=0, event=ev)
        dealt[seat] = (ev, cards)
    return dealt, turned, turn_event


def check_distinct(lines: list[tuple[str, tuple[Event | None, list[str | None]]]], full: list[str], early: bool) -> None:
    """Every card dealt or turned is in the deck, and only once (unseen ``*`` aside)."""
    seen: dict[str, str] = {}
    for who, (ev, cards) in lines:
        for k, card in enumerate(cards):
            if card is None or card == "*" or ev is None:
                continue
            if card not in full:
                raise Violation("L304", f"{card} is not in this game's deck (A..6 of four suits{', and JK' if early else ''})",
                                SEED, arg=card_place(ev, k), event=ev)
            if card in seen:
                raise Violation("L304", f"{card} is dealt twice (also to {seen[card]})", arg=card_place(ev, k), event=ev)
            seen[card] = who


def hand_trump(rules: Rules, carried: str | None, turned: str | None) -> tuple[str | None, bool]:
    """This hand's trump suit (None: no trump) and whether every card is a trump.

    Standard: the trump carried from the last hand (diamonds first). Early version: the turned
    card's suit; 表になったカードがジョーカーか9のときは切札なし, or all trumps by the option.
    """
    if rules["version"] != "early":
        return carried, False
    if turned is None or turned == JOKER or turned[0] == "9":
        return None, rules["early_no_trump"] == "all_trumps"
    return turned[1], False


def led_suit(state: NinetyNineState) -> str | None:
    """The suit of the card led to the current trick; None before the lead."""
    return identity(state.trick[0][1], state.joker_as)[1] if state.trick else None


def check_follows(state: NinetyNineState, seat: str, card: str, led: str | None) -> None:
    """先手と同じ印の手札があるなら, 出さなければなりません; and no card of a suit the seat showed out of."""
    suit = identity(card, state.joker_as)[1]
    if led is not None and suit != led:
        same = [c for c in state.hands[seat].cards() if c != card and identity(c, state.joker_as)[1] == led]
        if same:
            raise Violation("L301", f"{seat} must follow suit to {french.SUIT_SYMBOL[led]} (先手と同じ印の手札があるなら, "
                                    f"出さなければなりません): holds {' '.join(sorted(same, key=sort_key))}", SEED, arg=0)
    if suit in state.voids[seat]:
        raise Violation("L301", f"{seat} showed out of {french.SUIT_SYMBOL[suit]} earlier and cannot hold {card} (a revoke)",
                        SEED, arg=0)


def finish_trick(state: NinetyNineState) -> None:
    """The trick's winner takes it and leads the next (2 回目以降は直前の回の勝者が, 先手)."""
    plays = [(s, identity(c, state.joker_as)) for s, c in state.trick]
    winner = trick_winner(plays, state.trump, state.all_trumps)
    state.won[winner] += 1
    state.tricks.append((winner, list(state.trick)))
    state.trick = []
    state.leader = state.turn = winner
    if len(state.tricks) == TRICKS:
        state.phase = "over"


def read_wins(text: str | None, seats: list[str]) -> tuple[dict[str, int], str]:
    """``wins=A1,C1`` (format=three_wins: the games each seat has won; a seat not named has
    won none) as counts, and a problem ('' when it reads)."""
    wins = {s: 0 for s in seats}
    named: set[str] = set()
    for item in text.split(",") if text else []:
        seat, count = item[:1], item[1:]
        if seat not in seats or seat in named or not count.isdigit() or len(count) > 2:
            return wins, f"wins= gives the games each seat has won, each seat once, e.g. wins=A1,C1; not '{text}'"
        named.add(seat)
        wins[seat] = int(count)
    return wins, ""


def successes(state: NinetyNineState) -> list[str]:
    """The seats whose tricks equal their target (目標と勝ち数が同じなら成功)."""
    return [s for s in state.seats if state.target(s) == state.won[s]]


def describe_trump(state: NinetyNineState) -> str:
    if state.all_trumps:
        return "all trumps"
    if state.trump is None:
        return "no trump"
    return french.SUIT_SYMBOL[state.trump] + " " + {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[state.trump]


ENGINE = NinetyNine()
