"""Big Two: 鋤大D (Hong Kong, Macau; cross-type five-card beating) and 大老二 (Taiwan).

Seed 004_4a517c4c696f89f5.txt, §中華圏の大富豪BIG2(大老二・鋤大D); defaults and options
from RULINGS §bigtwo. Seats A..D are in the order of play (the seed's 反時計回り).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

from paifu.notation.model import Event, Hand, NumArg, OptionArg, SeatArg

from . import french
from ..deals import StackedShuffle, fill_unseen
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
from ..holding import Holding

SEED = "「中華圏の大富豪BIG2(大老二・鋤大D)」 (2015-08-17)"  # seed 004_4a517c4c696f89f5.txt
RULING = "docs/rulings.md §bigtwo"
S_ORDER = f"{SEED}, □手順"  # 開始…クラブの3を持っている人から開始する; 進行方向…反時計回り
S_PLAYS = f"{SEED}, □札の出し方"  # 1~3枚出し, 5枚の役, and what beats what
S_SPECIAL = f"{SEED}, □特殊例"  # 一條龍, 同花一條龍
S_HAND = f"{SEED}, ●手札…各自13枚"

RANK_ORDER = "3456789TJQKA2"  # 札の強弱 3<4<...<A<2
SUIT_ORDER = "CDHS"  # スートの強弱 ♣<♦<♥<♠
OPENING_CARD = "3C"
HAND_SIZE = 13
UNSEEN_FIVES = 16  # an unseen hand's five-card plays are listed while at most this many cards could be there

# Five-card types, weakest first: 順子 < 同花 < 葫蘆 < 鉄支 < 同花順.
FIVE_TYPES = ("straight", "flush", "full_house", "four_of_a_kind", "straight_flush")
COMBO_TERMS = {
    "single": "煉丹", "pair": "一対", "triple": "三條", "straight": "順子", "flush": "同花",
    "full_house": "葫蘆", "four_of_a_kind": "鉄支", "straight_flush": "同花順",
}


OPTIONS = (
    RuleOption("straight_order", "seed", ("seed", "a2345_top"),
               "seed: the rule text's order, 23456 highest, then TJQKA...A2345 lowest; a2345_top: A2345 highest, then 23456", f"{SEED}, ※ストレートの強弱"),
    RuleOption("jqka2", "no", ("no", "allowed"), "JQKA2 as a straight, ranked between 23456 and TJQKA", RULING),
    RuleOption("flush", "seed", ("seed", "top_card"),
               "seed: the rule text's rule, a flush beats another only with a higher suit and a higher top card; top_card: top card by rank, then suit", SEED),
    RuleOption("five_card", "cross", ("cross", "same_type"),
               "cross: a higher five-card type beats a lower one (鋤大D); same_type: only the same type (大老二)", SEED),
    RuleOption("twos", "2n", ("2n", "none"), "a loser holding n twos pays ×2n", f"{SEED}, ◆失点の罰則"),
    RuleOption("eight_plus", "2", ("2", "3", "none"), "a loser holding 8 or more cards pays ×2 (or ×3)", f"{SEED}, ◆失点の罰則"),
    RuleOption("no_play", "4", ("4", "none"), "a loser who played no card pays ×4 instead of the 8+ factor", f"{SEED}, ◆失点の罰則"),
    WholeNumber("bust", "none", ("none",), "the game ends when a total falls to -N (a whole number above 0)", RULING,
                least=1, what="a whole number above 0 (the game ends when a total falls to -N)"),
)


def card_value(card: str) -> int:
    """Total order of single cards: rank first, then suit (♣3 lowest, ♠2 highest)."""
    return RANK_ORDER.index(card[0]) * 4 + SUIT_ORDER.index(card[1])


def rank_value(card: str) -> int:
    return RANK_ORDER.index(card[0])


def straight_table(rules: Rules) -> dict[frozenset[str], int]:
    """Rank sets that make a straight -> strength (higher beats lower)."""
    runs = ["A2345"] + ["3456789TJQKA"[i:i + 5] for i in range(8)]  # A2345, 34567 ... TJQKA
    if rules["jqka2"] == "allowed":
        runs.append("JQKA2")
    runs.append("23456")
    if rules["straight_order"] == "a2345_top":
        runs.append(runs.pop(0))
    return {frozenset(r): i for i, r in enumerate(runs)}


@dataclass(frozen=True)
class Combo:
    """A legal combination of cards and its strength within its kind."""

    kind: str
    cards: tuple[str, ...]
    key: tuple[int, ...]

    @property
    def top(self) -> str:
        return max(self.cards, key=card_value)


def classify(cards: Sequence[str], rules: Rules) -> Combo | None:
    """The combination these cards make, or None when they make none (4 cards, a broken pair...)."""
    cards = tuple(sorted(cards, key=card_value))
    n = len(cards)
    ranks = [c[0] for c in cards]
    top = card_value(cards[-1])
    if n == 1:
        return Combo("single", cards, (top,))
    if n in (2, 3):
        if len(set(ranks)) != 1:
            return None
        return Combo("pair" if n == 2 else "triple", cards, (top,))
    if n != 5:
        return None
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    strength = straight_table(rules).get(frozenset(ranks)) if counts == [1, 1, 1, 1, 1] else None
    if strength is not None:
        return Combo("straight_flush" if flush else "straight", cards, (strength, top))
    if flush:
        return Combo("flush", cards, (top,))
    by_count = {ranks.count(r): r for r in set(ranks)}
    if counts == [3, 2]:
        return Combo("full_house", cards, (RANK_ORDER.index(by_count[3]),))
    if counts == [4, 1]:
        return Combo("four_of_a_kind", cards, (RANK_ORDER.index(by_count[4]),))
    return None


def beats(new: Combo, old: Combo, rules: Rules) -> bool:
    """Whether ``new`` may be played on ``old``."""
    if len(new.cards) != len(old.cards):
        return False
    if new.kind != old.kind:
        if len(new.cards) != 5 or rules["five_card"] == "same_type":
            return False
        return FIVE_TYPES.index(new.kind) > FIVE_TYPES.index(old.kind)
    if new.kind == "flush" and rules["flush"] == "seed":
        # 同花: a higher suit wins only with a higher top card. The seed's example: ♥3456K
        # cannot beat ♣TJQKA, "♥A" or "♥2" can; so ♥A outranks ♣A (card order, rank then suit).
        new_top, old_top = new.top, old.top
        return SUIT_ORDER.index(new_top[1]) >= SUIT_ORDER.index(old_top[1]) and card_value(new_top) > card_value(old_top)
    return new.key > old.key


def dragon_of(cards: list[str]) -> str | None:
    """一條龍 (all thirteen ranks) or 同花一條龍 (all thirteen of one suit) in a dealt hand."""
    if len(cards) != HAND_SIZE or "*" in cards or len({c[0] for c in cards}) != HAND_SIZE:
        return None
    return "same_suit" if len({c[1] for c in cards}) == 1 else "plain"


# -- actions --------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Pass:
    seat: str


@dataclass(frozen=True)
class DeclareDragon:
    seat: str


Action = Play | Pass | DeclareDragon


@dataclass
class BigTwoState(HandState):
    seats: list[str] = field(default_factory=list)
    hands: dict[str, Holding] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)  # cards each seat has played
    located: set[str] = field(default_factory=set)  # cards known to be somewhere (hands, table)
    turn: str | None = None  # None before the first play when the ♣3 holder is unseen
    current: Combo | None = None
    current_by: str | None = None
    passes: int = 0
    opening: bool = True
    winner: str | None = None
    dragons: dict[str, str] = field(default_factory=dict)  # seat -> plain / same_suit
    trusted: str | None = None  # a seat whose dragon was written but not seen (taken on trust)
    named: bool = False  # the record names the winning dragon ('A: dragon')
    last: dict[str, str] = field(default_factory=dict)  # seat -> what it did last this round
    unchecked: set[str] = field(default_factory=set)  # seats already noted as playing unseen cards
    table: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # plays this round


class BigTwo(Engine[BigTwoState, Action]):
    id = "bigtwo"
    selfplay_hands = 4
    title = "鋤大D / 大老二 Big Two"
    family = "french"
    seat_counts = (4,)
    options = OPTIONS
    source = SEED
    zero_sum = True  # the losers pay the winner (a dealt dragon: each other seat pays)
    zero_sum_rule = f"{SEED} §勝利条件と得点計算: 「敗者となった残り3人は、残った手札ぶんの失点を勝者に支払います」"

    # -- match --------------------------------------------------------------------------
    def end_hand(self, match: Match, state: BigTwoState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        bust = match.rules.int("bust")
        if bust is not None and any(t <= -bust for t in match.totals.values()):
            match.over = True

    def has_end(self, match: Match) -> bool:
        """A game played to a bust (``bust=N``) ends there; without it, a session of hands."""
        return match.rules.int("bust") is not None

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A session started mid-way: each seat's running total (Start; they add up to 0, as
        every loser pays the winner); under ``bust=N`` no total at -N or below, since the game
        ended with it. The ♣3's holder leads each hand and the dealer is recorded, not ruled:
        nothing else carries across hands."""
        bust = match.rules.int("bust")
        out = [s for s in match.seats if bust is not None and totals[s] <= -bust]
        if out:
            return (f"{' '.join(out)} {'is' if len(out) == 1 else 'are'} at -{bust} or below: with bust={bust} "
                    f"the game ended there ({RULING}: bust=N ends the game when a total falls to -N)")
        return super().start_from(match, header, totals)

    # -- hand ---------------------------------------------------------------------------
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> BigTwoState:
        seats = match.seats
        for ev in setup:
            if ev.verb != "deal":
                raise Violation("L306", f"Big Two has no '{ev.verb}' line (only 'deal')", event=ev)
        dealt = french.deal_lines(list(setup), seats)
        deck = french.deck()
        french.check_distinct(dealt, deck)
        for seat, (ev, cards) in dealt.items():
            if len(cards) != HAND_SIZE:
                raise Violation("L304", f"{seat} is dealt {len(cards)} cards; Big Two deals 13 each (各自13枚)", S_HAND, arg=0, event=ev)
        cards_of = {s: dealt[s][1] if s in dealt else ["*"] * HAND_SIZE for s in seats}
        fill_unseen(cards_of, deck)
        state = BigTwoState(match=match, header=header, seats=list(seats))
        state.hands = {s: Holding.of(cards_of[s]) for s in seats}
        state.played = {s: 0 for s in seats}
        state.located = {c for cs in cards_of.values() for c in cs if c != "*"}
        state.turn = next((s for s in seats if state.hands[s].has(OPENING_CARD)), None)
        state.dragons = {s: d for s in seats if (d := dragon_of(cards_of[s]))}
        if state.dragons:
            state.winner = self._dragon_winner(state)
        return state

    def _dragon_winner(self, state: BigTwoState) -> str:
        """Two dragons: a same-suit one wins, else the first in play order from the ♣3 holder."""
        start = state.turn or state.seats[0]
        order = [self.next_seat(state.seats, start, k) for k in range(len(state.seats))]
        same = [s for s in order if state.dragons.get(s) == "same_suit"]
        return same[0] if same else next(s for s in order if s in state.dragons)

    def read_action(self, state: BigTwoState, event: Event) -> Action:
        seat = event.seat
        if seat is None:
            raise Violation("L306", f"'{event.verb}' is not a Big Two event: write 'A: 3C', 'B: pass' or 'deal A: ...' before the first play")
        if seat not in state.seats:
            raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(state.seats)})")
        if event.verb is None:
            cards = tuple(french.event_cards(event))
            if not cards:
                raise Violation("L306", f"{seat} plays nothing: a play names its cards ('{seat}: 3C 3D'), a pass is '{seat}: pass'")
            return Play(seat, cards)
        if event.verb == "pass":
            if event.args:
                raise Violation("L306", "'pass' takes nothing after it", arg=0)
            return Pass(seat)
        if event.verb == "dragon":
            if event.args:
                raise Violation("L306", "'dragon' takes nothing after it: the dealt hand shows the dragon (一條龍)", S_SPECIAL, arg=0)
            return DeclareDragon(seat)
        raise Violation("L306", f"Big Two has no verb '{event.verb}': a play is written 'A: 3C 3D', a pass 'A: pass'")

    def apply(self, state: BigTwoState, action: Action) -> None:
        if isinstance(action, DeclareDragon):
            self._apply_dragon(state, action)
            return
        seat = action.seat
        if state.turn is not None and seat != state.turn:
            raise Violation("L302", f"it is {state.turn}'s turn, not {seat}'s (play runs A, B, C, D: 反時計回り)", S_ORDER)
        if isinstance(action, Pass):
            if state.current is None:
                what = "the opening lead" if state.opening else "a new lead"
                raise Violation("L301", f"{seat} may not pass on {what}: the seat leading must play", RULING)
            state.passes += 1
            state.last[seat] = "pass"
            state.turn = self.next_seat(state.seats, seat)
            if state.passes == len(state.seats) - 1:  # everyone else passed: a new lead
                state.current, state.passes = None, 0
                state.table, state.last = [], {}
                state.turn = state.current_by
            return
        self._apply_play(state, action)

    def _apply_dragon(self, state: BigTwoState, action: DeclareDragon) -> None:
        if action.seat not in state.seats:
            raise Violation("L309", f"no seat {action.seat} in this game")
        if not state.opening:
            raise Violation("L301", "a dragon (一條龍) wins on the dealt hand, before the first play", S_SPECIAL)
        seat = action.seat
        holding = state.hands[seat]
        if seat in state.dragons:
            if seat != state.winner and not self._order_unknown(state, seat):
                raise Violation("L301", f"{state.winner}'s dragon wins this hand, not {seat}'s", RULING)
            if seat != state.winner:
                state.notes.append(f"{seat}'s dragon is taken to win: the ♣3 was not seen, so the play order is not known")
            state.winner, state.named = seat, True
            return
        if state.trusted is not None:
            raise Violation("L301", f"{state.trusted}'s dragon has ended this hand (即勝利)", S_SPECIAL)
        known = holding.cards()
        if holding.unseen == 0 or len({c[0] for c in known}) != len(known):
            raise Violation("L301", f"{seat}'s dealt hand is not a dragon (A to K, all thirteen ranks)", S_SPECIAL)
        kind = self._trusted_dragon(state, seat)
        if kind is None:
            raise Violation("L301", f"{state.winner}'s dragon wins this hand, not {seat}'s", RULING)
        state.notes.append(f"{seat}'s dragon could not be checked: the dealt hand was not seen")
        state.dragons = {seat: kind}
        state.trusted = state.winner = seat

    def _trusted_dragon(self, state: BigTwoState, seat: str) -> str | None:
        """The dragon an unseen hand must hold to win over the dragons seen (plain when either
        could), or None when no dragon it could hold wins (two dragons: a same-suit one wins,
        else the first in play order from the ♣3 holder)."""
        if not state.dragons:
            return "plain"
        if state.dragons[state.winner] == "same_suit":
            return None
        if state.turn is None or self._before(state, seat, state.winner):
            return "plain"
        return "same_suit" if same_suit_possible(state, seat) else None

    @staticmethod
    def _order_unknown(state: BigTwoState, seat: str) -> bool:
        """Two seen 一條龍 and the ♣3 in an unseen hand: which comes first in play order from
        the ♣3 holder is not known, so either may be written as the winner."""
        return (state.turn is None and state.trusted is None and state.dragons.get(seat) == "plain"
                and "same_suit" not in state.dragons.values())

    def _before(self, state: BigTwoState, seat: str, other: str) -> bool:
        assert state.turn is not None
        order = [self.next_seat(state.seats, state.turn, k) for k in range(len(state.seats))]
        return order.index(seat) < order.index(other)

    def _apply_play(self, state: BigTwoState, action: Play) -> None:
        seat, cards = action.seat, action.cards
        twice = next((k for k, card in enumerate(cards) if card in cards[:k]), None)
        if twice is not None:
            raise Violation("L301", f"the same card twice in one play: {' '.join(cards)}", arg=nth_card(twice))
        holding = state.hands[seat]
        for k, card in enumerate(cards):
            if not holding.has(card) and (card in state.located or holding.unseen == 0):
                where = "was played already" if card in state.located and not any(h.has(card) for h in state.hands.values()) else "is not in that hand"
                raise Violation("L303", f"{seat} does not hold {card}: it {where}", arg=nth_card(k))
        combo = classify(cards, state.match.rules)
        if combo is None:
            raise Violation("L301", f"{' '.join(cards)} is no Big Two combination (1, 2 or 3 of a rank, or a five-card hand)", S_PLAYS)
        if state.opening:
            if OPENING_CARD not in cards:
                raise Violation("L301", "the first play of a hand must include ♣3 (最初は必ず♣3を出さなければならない)", S_ORDER)
        elif state.current is not None and not beats(combo, state.current, state.match.rules):
            raise Violation("L301", self._why_not(combo, state.current, state.match.rules), S_PLAYS)
        unseen_used = 0
        for card in cards:
            if not holding.take(card):
                unseen_used += 1
            state.located.add(card)
        if unseen_used and seat not in state.unchecked:
            state.unchecked.add(seat)
            state.notes.append(f"{seat}'s hand was not seen: its plays are not checked against the deal")
        state.opening = False
        state.played[seat] += len(cards)
        state.current, state.current_by, state.passes = combo, seat, 0
        state.table.append((seat, cards))
        state.last[seat] = " ".join(cards)
        state.turn = self.next_seat(state.seats, seat)
        if len(holding) == 0:
            state.winner = seat

    @staticmethod
    def _why_not(new: Combo, old: Combo, rules: Rules) -> str:
        if len(new.cards) != len(old.cards):
            return f"a {old.kind.replace('_', ' ')} ({len(old.cards)} card(s)) is to beat: {len(new.cards)} card(s) cannot beat it"
        if new.kind != old.kind:
            if rules["five_card"] == "same_type":
                return f"only a {old.kind.replace('_', ' ')} beats a {old.kind.replace('_', ' ')} (five_card=same_type)"
            return f"a {new.kind.replace('_', ' ')} ranks below a {old.kind.replace('_', ' ')} (順子<同花<葫蘆<鉄支<同花順)"
        if new.kind == "flush" and rules["flush"] == "seed":
            return f"{' '.join(new.cards)} does not beat {' '.join(old.cards)}: a flush needs a higher suit and a higher top card"
        return f"{' '.join(new.cards)} does not beat {' '.join(old.cards)}"

    def legal_actions(self, state: BigTwoState) -> list[Action]:
        if self.hand_over(state):
            return []
        seat = state.turn
        if seat is None:
            return []
        holding = state.hands[seat]
        if holding.unseen:
            return []  # an unseen hand: its plays cannot be listed
        rules = state.match.rules
        options: list[Action] = []
        for combo in all_combos(holding.cards(), rules):
            if state.opening and OPENING_CARD not in combo.cards:
                continue
            if state.current is None or beats(combo, state.current, rules):
                options.append(Play(seat, combo.cards))
        if state.current is not None:
            options.append(Pass(seat))
        return options

    def unseen_candidates(self, state: BigTwoState, seat: str) -> Counter:
        """Every card of the pack nobody is known to hold and nobody has played."""
        if not state.hands[seat].unseen:
            return Counter()
        return Counter(c for c in french.deck() if c not in state.located)

    def unseen_actions(self, state: BigTwoState) -> list[Action]:
        """For a hand not (wholly) seen: the plays its known and possible cards could make, at
        most as many unseen cards as it holds, under the same rules as ``legal_actions`` (♣3
        first, beat the play on the table), and the pass. Five-card hands only while at most
        ``UNSEEN_FIVES`` cards could be there (a whole unseen hand could make some 20,000):
        select cards, or write the event. When the ♣3's holder is unseen, any unseen hand
        may open."""
        if self.hand_over(state):
            return []
        seats = [state.turn] if state.turn is not None else [s for s in state.seats if state.hands[s].unseen]
        rules = state.match.rules
        out: list[Action] = []
        for seat in seats:
            holding = state.hands[seat]
            if not holding.unseen:
                continue
            could = sorted(set(holding.cards()) | set(self.unseen_candidates(state, seat)), key=card_value)
            if len(could) <= UNSEEN_FIVES:
                combos = all_combos(could, rules)
            else:  # the five-card hands of its known cards alone, and the smaller plays of all it could hold
                combos = all_combos(holding.cards(), rules) + small_combos(could, rules)
                combos = list({c.cards: c for c in combos}.values())
            for combo in combos:
                if sum(1 for c in combo.cards if not holding.has(c)) > holding.unseen:
                    continue
                if state.opening and OPENING_CARD not in combo.cards:
                    continue
                if state.current is None or beats(combo, state.current, rules):
                    out.append(Play(seat, combo.cards))
            if state.current is not None:
                out.append(Pass(seat))
        return out

    def to_act(self, state: BigTwoState) -> str | None:
        return None if self.hand_over(state) else state.turn

    def hand_over(self, state: BigTwoState) -> bool:
        return state.winner is not None

    def end_reason(self, state: BigTwoState) -> str | None:
        if state.winner is None:
            return None
        if state.dragons:
            return f"{state.winner}'s dealt dragon (一條龍) wins at once (即勝利)"
        return f"{state.winner} has played every card"

    def accepts_after_end(self, state: BigTwoState, event: Event) -> bool:
        return event.verb == "dragon" and bool(state.dragons) and state.opening

    def settle(self, state: BigTwoState) -> Settlement:
        winner = state.winner
        if winner is None:
            raise Violation("L307", "the hand is not over")
        if state.dragons:
            return self._settle_dragon(state, winner)
        rules = state.match.rules
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        unseen_pool = set(french.deck()) - state.located
        twos_hidden = any(c[0] == "2" for c in unseen_pool)
        for seat in state.seats:
            if seat == winner:
                continue
            holding = state.hands[seat]
            left = len(holding)
            if holding.unseen and twos_hidden and rules["twos"] != "none":
                out.unknown.update({seat, winner})
            twos = sum(1 for c in holding.cards() if c[0] == "2")
            factor = 1
            out.items.append(ScoreItem(seat, "cards left", -left, "失点", f"{left} card(s)"))
            if rules["twos"] == "2n" and twos:
                factor *= 2 * twos
                out.items.append(ScoreItem(seat, "twos held", 2 * twos, "2を手に残していたら2倍負け", f"{twos} two(s): ×{2 * twos}"))
            if state.played[seat] == 0 and rules["no_play"] != "none":
                factor *= int(rules["no_play"])
                out.items.append(ScoreItem(seat, "no card played", int(rules["no_play"]), "1枚も出せずに負けた場合", f"×{rules['no_play']}"))
            elif left >= 8 and rules["eight_plus"] != "none":
                factor *= int(rules["eight_plus"])
                out.items.append(ScoreItem(seat, "eight or more cards", int(rules["eight_plus"]), "8枚以上手に残していたら", f"×{rules['eight_plus']}"))
            loss = left * factor
            deltas[seat] -= loss
            deltas[winner] += loss
            out.payments.append(Payment(seat, winner, loss, f"{left} × {factor}"))
        out.items.append(ScoreItem(winner, "went out", deltas[winner], "勝利者", "collects every loser's points"))
        return out

    def _settle_dragon(self, state: BigTwoState, winner: str) -> Settlement:
        kind = state.dragons[winner]
        factor = 4 if kind == "same_suit" else 3
        name, term = ("same-suit dragon", "同花一條龍") if kind == "same_suit" else ("dragon", "一條龍")
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        if winner == state.trusted and kind == "plain" and same_suit_possible(state, winner):
            out.unknown.update(state.seats)  # an unseen dragon: 一條龍 ×3 or 同花一條龍 ×4
        if len(state.dragons) > 1 and not state.named and self._order_unknown(state, winner):
            out.unknown.update(state.seats)  # two 一條龍, the ♣3 unseen: which one wins is not known
        for seat in state.seats:
            if seat != winner:
                loss = HAND_SIZE * factor
                deltas[seat] -= loss
                deltas[winner] += loss
                out.payments.append(Payment(seat, winner, loss, f"13 × {factor}"))
        out.items.append(ScoreItem(winner, name, deltas[winner], term, f"each other seat pays 13 × {factor}"))
        return out

    # -- what a seat sees ---------------------------------------------------------------
    def view(self, state: BigTwoState, seat: str | None) -> TableView:
        seats = []
        for s in state.seats:
            holding = state.hands[s]
            cards = sorted(holding.cards(), key=card_value)
            if seat is None or seat == s:
                hand = Zone("hand", cards, hidden=holding.unseen, layout="fan")
            else:
                hand = Zone("hand", [], hidden=len(holding), layout="fan")
            labels = []
            if s == state.match.dealer or s == state.header.dealer:
                labels.append("dealer")
            if s in state.last:
                labels.append("passed" if state.last[s] == "pass" else "played")
            if s == state.winner:
                labels.append("out" if not state.dragons else COMBO_TERMS.get("dragon", "一條龍"))
            zones = [hand, Zone("played", list(state.last[s].split()) if state.last.get(s, "pass") != "pass" else [], layout="row")]
            seats.append(SeatView(s, zones, score=state.match.totals.get(s, 0), to_act=s == self.to_act(state), labels=labels))
        center = [Zone("to beat", list(state.current.cards) if state.current else [], layout="row")]
        info = {"to beat": COMBO_TERMS[state.current.kind] + " " + state.current.kind.replace("_", " ") if state.current else "new lead"}
        return TableView("french", seats, center, info)

    def event_for(self, state: BigTwoState, action: Action) -> Event:
        if isinstance(action, Play):
            return Event(seat=action.seat, args=french.card_args(list(action.cards)))
        if isinstance(action, Pass):
            return Event(seat=action.seat, verb="pass")
        return Event(seat=action.seat, verb="dragon")

    # -- selfplay -----------------------------------------------------------------------
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        deck = french.shuffled(french.deck(), rng)
        dealer = match.seats[(number - 1) % len(match.seats)]
        events = []
        for i, seat in enumerate(match.seats):
            cards = sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE], key=card_value)
            events.append(Event(verb="deal", args=[SeatArg(seat=seat), *french.card_args(cards)]))
        return Hand(args=[NumArg(value=number), OptionArg(key="dealer", value=dealer)], events=events)

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """A dealt dragon (一條龍: one card of each rank; 同花一條龍: one suit) for a random seat."""
        if aim.casefold() not in ("dragon", "一條龍", "same-suit dragon", "同花一條龍"):
            return None
        same_suit = aim.casefold() in ("same-suit dragon", "同花一條龍")
        seat_index = rng.randrange(len(match.seats))

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            suit = r.choice("CDHS")
            ranks = sorted({c[0] for c in pack})
            chosen = [rank + suit if same_suit else r.choice([c for c in pack if c[0] == rank]) for rank in ranks]
            rest = [c for c in pack if c not in chosen]
            at = seat_index * HAND_SIZE
            return rest[:at] + chosen + rest[at:]

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_choose(self, state: BigTwoState, legal: list[Action], rng: random.Random, aim: str) -> Action | None:
        """Toward ``no card played`` (1枚も出せずに負けた場合): every seat passes when it may, and a
        leader plays its biggest combination, so one seat may go out before the others play."""
        if aim.casefold() not in ("no card played", "1枚も出せずに負けた場合"):
            return None
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]
        plays = [a for a in legal if isinstance(a, Play)]
        return max(plays, key=lambda p: len(p.cards)) if plays else None

    def seat_view(self, state: BigTwoState, seat: str) -> "Seen":
        return Seen(seat, len(state.hands[seat]), state.current, {s: len(h) for s, h in state.hands.items()}, state.match.rules)

    def choose(self, seen: "Seen", legal: list[Action], rng: random.Random) -> Action:
        """Go out when possible; lead with the most cards, cheapest first; follow as low as possible."""
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        left = seen.left
        for p in plays:
            if len(p.cards) == left:
                return p
        rules = seen.rules

        def cost(p: Play) -> tuple:
            combo = classify(p.cards, rules)
            assert combo is not None
            return (FIVE_TYPES.index(combo.kind) if combo.kind in FIVE_TYPES else 0, combo.key)

        if seen.current is None:
            most = max(len(p.cards) for p in plays)
            return min((p for p in plays if len(p.cards) == most), key=cost)
        cheapest = min(plays, key=cost)
        # hold back twos while the others still have many cards, now and then
        if any(c[0] == "2" for c in cheapest.cards) and rng.random() < 0.5 and left > 4:
            return next((a for a in legal if isinstance(a, Pass)), cheapest)
        return cheapest


def same_suit_possible(state: BigTwoState, seat: str) -> bool:
    """Whether a partly unseen hand could hold a 同花一條龍: all thirteen of one suit, none
    of them known to be elsewhere."""
    known = set(state.hands[seat].cards())
    suits = {c[1] for c in known} or set(SUIT_ORDER)
    if len(suits) != 1 and known:
        return False
    return any(all(r + suit in known or r + suit not in state.located for r in RANK_ORDER) for suit in suits)


@dataclass(frozen=True)
class Seen:
    """What the selfplay policy of one seat knows beside its legal plays."""

    seat: str
    left: int
    current: Combo | None
    counts: dict[str, int]
    rules: Rules


def small_combos(cards: list[str], rules: Rules) -> list[Combo]:
    """The singles, pairs and triples among ``cards`` (no five-card hands)."""
    by_rank: dict[str, list[str]] = {}
    for c in sorted(cards, key=card_value):
        by_rank.setdefault(c[0], []).append(c)
    groups = [(c,) for c in sorted(cards, key=card_value)]
    groups += [g for same in by_rank.values() for size in (2, 3) for g in combinations(same, size)]
    return [combo for g in groups if (combo := classify(g, rules)) is not None]


def all_combos(cards: list[str], rules: Rules) -> list[Combo]:
    """Every combination a hand can play, built by kind (not by trying all 5-card subsets)."""
    by_rank: dict[str, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for c in sorted(cards, key=card_value):
        by_rank.setdefault(c[0], []).append(c)
        by_suit.setdefault(c[1], []).append(c)
    out: list[Combo] = []
    seen: set[tuple[str, ...]] = set()

    def add(group: Sequence[str]) -> None:
        key = tuple(sorted(group, key=card_value))
        if key in seen:
            return
        combo = classify(key, rules)
        if combo is not None:
            seen.add(key)
            out.append(combo)

    for c in cards:
        add([c])
    for same in by_rank.values():
        for size in (2, 3):
            for group in combinations(same, size):
                add(group)
    for run in straight_table(rules):
        if all(r in by_rank for r in run):
            pools = [by_rank[r] for r in run]
            for pick in _product(pools):
                add(pick)
    for same_suit in by_suit.values():
        if len(same_suit) >= 5:
            for group in combinations(same_suit, 5):
                add(group)
    triples = [g for same in by_rank.values() for g in combinations(same, 3)]
    pairs = [g for same in by_rank.values() for g in combinations(same, 2)]
    for t in triples:
        for p in pairs:
            if p[0][0] != t[0][0]:
                add(t + p)
    for same in by_rank.values():
        if len(same) == 4:
            for c in cards:
                if c[0] != same[0][0]:
                    add(tuple(same) + (c,))
    return out


def _product(pools: list[list[str]]) -> list[tuple[str, ...]]:
    result: list[tuple[str, ...]] = [()]
    for pool in pools:
        result = [r + (c,) for r in result for c in pool]
    return result


ENGINE = BigTwo()
