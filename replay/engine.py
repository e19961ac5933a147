"""The engine protocol every game implements, and the data it shares with the validator.

An engine is one object per game (see ``replay/games.py`` for the registry). The
validator drives it through a record:

1. ``start_match(rules, seats)``: the state that carries across hands (totals, dealer...).
2. ``start_hand(match, header, setup)``: a hand from the match state, its opening line and
   its leading set-up events (``deal``, ``talon``, ``wall``, ``dice``...), unknown cards
   (``*``) kept as unknowns.
3. For every further event: ``read_action(state, event)`` turns the event into the game's
   action, ``apply(state, action)`` plays it. Either raises :class:`Violation`, which names
   the code, the rule and, where it helps, the seed's words.
4. ``hand_over(state)`` then ``settle(state)``: the itemized :class:`Settlement`.
5. ``end_hand(match, state, settlement)``: totals, next dealer; ``match_over(match)``.

``legal_actions(state)`` lists every legal action of the seat to act; where the record has
not shown a seat's cards, ``candidate_actions(state)`` adds the actions its unseen cards could
make (``unseen_actions``, for the scribe); ``view(state, seat)``
derives what one seat sees (None: everything) for the viewer and for selfplay policies,
which see nothing else; ``seen_event(event, seat, shown)`` the line of the record that seat
may read. ``event_for(action)`` writes an action back as a model event.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Sequence, TypeVar

from paifu.notation.cards import UNKNOWN, spelling_for_game, write_cards
from paifu.notation.model import CardsArg, Event, Hand, SeatArg


class Violation(Exception):
    """An action the rules forbid, or an event the game cannot read.

    ``code`` is a stable diagnostic code (L3xx); ``rule`` names the seed section or ruling;
    ``arg`` optionally points at the event argument at fault: its index in ``event.args``
    (``-1`` the last), or ``(i, j)`` for the j-th card named from ``event.args[i]`` on
    (``(0, k)``: the event's k-th card), wherever it stands in a run or group of cards (see
    :func:`replay.deals.card_place`).
    """

    def __init__(self, code: str, message: str, rule: str | None = None, arg: int | tuple[int, int] | None = None,
                 event: Event | None = None, at_hand: bool = False):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.arg = arg
        self.event = event  # the set-up event at fault, where it is not the one being applied
        self.at_hand = at_hand  # the hand line itself is at fault (its dealer): no set-up event takes it


def no_verb(game: str, event: Event, verbs: Sequence[str], verb: str = "discard") -> Violation:
    """L306 for a seat event that names no verb in a game whose seats always name one
    (``A: 7z``: the verb forgotten), showing the line with ``verb`` put in, rather than
    calling what follows the seat a verb."""
    cards = next((a.cards for a in event.args if isinstance(a, CardsArg)), None)
    example = f"{event.seat}: {verb} {write_cards(spelling_for_game(game), cards)}" if cards else f"{event.seat}: {verb} ..."
    return Violation("L306", f"'{event.seat}:' is followed by no verb: a {game} event names what the seat does, as in "
                             f"'{example}' (verbs: {', '.join(verbs)})", arg=0 if event.args else None)


def nth_card(k: int) -> tuple[int, int]:
    """Where a violation points at the k-th card an event names (from 0, counted over all its
    card items: a run ``3C 4C 5D`` or a tile group ``123m`` holds several). For the checks
    made applying an action, which no longer see the event it was read from."""
    return 0, k


@dataclass(frozen=True)
class RuleOption:
    """A named rules option: ``[Option "name=value"]`` in a record."""

    name: str
    default: str
    choices: tuple[str, ...] = ()
    help: str = ""
    source: str = ""
    integer: bool = False  # any whole number (or a value in ``choices``)

    def check(self, value: str) -> str | None:
        """None when ``value`` is allowed, else a message saying what is."""
        if value in self.choices:
            return None
        if self.integer and len(value) <= MAX_OPTION_DIGITS + 1:
            try:
                int(value)
                return None
            except ValueError:
                pass
        allowed = list(self.choices) + (["a whole number"] if self.integer else [])
        return f"option {self.name} takes {', '.join(allowed)}; not '{value}'"


MAX_OPTION_DIGITS = 1000  # as the reader's numbers (P113): past Python's 4300 digits int() fails


@dataclass(frozen=True)
class WholeNumber(RuleOption):
    """A whole number in ASCII digits, from ``least`` to ``most`` (and a multiple of ``multiple_of``),
    or one of ``choices``' words (``bust=none``): not ``-1``, ``+3``, ``٣`` or ``3.5``.
    ``what`` says what it counts in the message (``a number of points above 0``)."""

    integer: bool = True
    least: int = 0
    most: int | None = None
    multiple_of: int = 1
    what: str = ""

    def check(self, value: str) -> str | None:
        if value in self.choices:
            return None
        if value.isascii() and value.isdigit() and len(value) <= MAX_OPTION_DIGITS:
            n = int(value)
            if n >= self.least and (self.most is None or n <= self.most) and n % self.multiple_of == 0:
                return None
        shown = value if len(value) <= 40 else f"{value[:20]}... ({len(value)} characters)"
        words = "".join(f"{c} or " for c in self.choices)
        what = self.what or f"a whole number of at least {self.least}"
        return f"option {self.name} takes {words}{what}, in digits (at most {MAX_OPTION_DIGITS}); not '{shown}'"


def hidden_cards(event: Event, sees: Callable[[str], bool]) -> Event:
    """``event`` with every card ``sees`` refuses written ``*`` (a copy: ``event`` is unchanged)."""
    args = [copy.copy(a) for a in event.args]
    for a in args:
        if isinstance(a, CardsArg):
            a.cards = [c if sees(c) else UNKNOWN for c in a.cards]
            a.written = None
    masked = copy.copy(event)
    masked.args = args
    return masked


class Rules(dict):
    """The options in force: every option of the game, defaults filled in."""

    def int(self, name: str) -> int | None:
        value = self[name]
        return None if value in ("none", "off") else int(value)


@dataclass
class HandHeader:
    number: int | None
    dealer: str | None
    attrs: dict[str, str]


@dataclass
class ScoreItem:
    """One scoring item of a settlement: who, what (English and the seed's term), how much."""

    seat: str
    name: str
    value: int
    term: str = ""
    detail: str = ""


@dataclass
class Payment:
    payer: str
    payee: str
    amount: int
    reason: str = ""


POT = "pot"  # the payer or payee of a payment into or out of the table's pot (riichi sticks, fines)


@dataclass
class Settlement:
    """How a hand is scored: each seat's gain or loss, and why."""

    deltas: dict[str, int]
    items: list[ScoreItem] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    unknown: set[str] = field(default_factory=set)  # seats whose score hidden cards hide

    def pot_flow(self) -> int:
        """What the pot gives the seats (payments from :data:`POT`) less what it takes from
        them (payments to it): what the seats' gains and losses add up to when they otherwise
        only pay each other."""
        return sum(p.amount if p.payer == POT else -p.amount for p in self.payments if POT in (p.payer, p.payee))


@dataclass
class Match:
    """What carries across hands. Games subclass it for their own carried state."""

    rules: Rules
    seats: list[str]
    totals: dict[str, int]
    hands_played: int = 0
    dealer: str | None = None
    over: bool = False
    # hands played before the record's first one, for a record that starts from a written
    # position ([Start "..."]: docs/notation.md §Starting from a position)
    hands_before: int = 0

    @property
    def hands_done(self) -> int:
        """The hands of the match played so far, those before the record's first hand included:
        the number of the hand that was played last."""
        return self.hands_before + self.hands_played


@dataclass
class MatchResult:
    """Who won the match (several seats share a first place), and a score where the game
    gives the match one (Piquet's rubicon game)."""

    winners: list[str]
    score: int | None = None
    how: str = ""


@dataclass
class HandState:
    """The full state of a hand. Games subclass it; ``notes`` collects what could not be checked."""

    match: Match
    header: HandHeader
    notes: list[str] = field(default_factory=list)


@dataclass
class Zone:
    """A pile of cards in a table view: a hand, melds, discards, tricks, the current play.

    When ``groups`` is given (melds, tricks), the viewer draws the groups and ignores
    ``cards``; engines may still list the same cards flat in ``cards`` for counting.
    ``hidden`` counts face-down cards drawn beside the visible ones.
    """

    name: str
    cards: list[str] = field(default_factory=list)
    hidden: int = 0  # face-down cards beside the visible ones
    groups: list[list[str]] | None = None  # melds, tricks: cards shown together
    layout: str = "row"  # row | fan | stack | melds | count


@dataclass
class SeatView:
    seat: str
    zones: list[Zone]
    score: int = 0
    to_act: bool = False
    labels: list[str] = field(default_factory=list)  # dealer, wind, passed...


@dataclass
class TrickView:
    """The last trick taken, for viewers: its number in the hand, its plays in order, its winner."""

    number: int
    plays: list[tuple[str, str]]  # (seat, card as written)
    winner: str


@dataclass
class TableView:
    """What one perspective sees of a state, laid out in generic zones the viewer draws."""

    family: str
    seats: list[SeatView]
    center: list[Zone] = field(default_factory=list)
    info: dict[str, str] = field(default_factory=dict)
    last_trick: TrickView | None = None  # trick-taking games: the trick taken last (None before the first)


S = TypeVar("S", bound=HandState)
A = TypeVar("A")


class Engine(ABC, Generic[S, A]):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    id: str = ""
    title: str = ""
    family: str = ""
    seat_counts: tuple[int, ...] = (4,)
    options: tuple[RuleOption, ...] = ()
    setup_verbs: frozenset[str] = frozenset({"deal"})
    source: str = ""  # the seed file and section
    selfplay_hands: int = 1  # hands in one selfplay record
    # Whether a hand's settlement only moves points between the seats (and the pot): every
    # point one seat gains, another seat (or the pot) pays. Then a hand's scores add up to
    # what :meth:`settlement_sum` says, whatever cards are unseen. False where each side
    # scores points of its own (Piquet, 99). ``zero_sum_rule`` cites the rule text's words.
    zero_sum: bool = False
    zero_sum_rule: str = ""

    # -- match -------------------------------------------------------------------------
    def start_match(self, rules: Rules, seats: list[str]) -> Match:
        return Match(rules=rules, seats=seats, totals={s: 0 for s in seats})

    def end_hand(self, match: Match, state: S, settlement: Settlement) -> None:
        for seat, delta in settlement.deltas.items():
            match.totals[seat] += delta
        match.hands_played += 1

    def match_over(self, match: Match) -> bool:
        return match.over

    def has_end(self, match: Match) -> bool:
        """Whether the match has an end of its own (a length, a target, a bust): then a record
        that starts from a written position and stops before it gets note N506. False by
        default: a session of hands that goes on as long as the players like."""
        return False

    def final_settlement(self, match: Match) -> Settlement | None:
        """The game's final settlement once ``match_over``: each seat's final points (placings,
        prizes) that a ``final`` line is checked against. None (the default): the running
        totals are the result."""
        return None

    def match_result(self, match: Match) -> MatchResult | None:
        """The match's outcome after the record's last hand, for the ``Result`` tag; None when
        the record's end decides nothing (a match that has an end and has not reached it).

        By default the seats with the highest running total win (equal totals share the
        place); games whose match ends by its own rule (Piquet, 99) override this."""
        best = max(match.totals.values())
        return MatchResult([s for s in match.seats if match.totals[s] == best], how="the highest total")

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish (an illegal action, a hand that does not
        end): bring ``match``, a copy of the match as it was at that hand's start, to the
        start of the next hand from what the record writes: ``broken`` (the unfinished hand's
        line), ``header`` (the next hand's line: its dealer and attributes such as ``honba=``)
        and ``totals`` (the running totals the record writes after the broken hand, None when
        it writes none: they are then unknown from here on). Returns None when done, else why
        the next hand's start cannot be known (the replay stops there and says so).

        By default (:meth:`resume_carried`): the dealer as the hand line writes it, the
        written totals, one more hand played. A game whose match carries more (its own
        ``Match`` subclass: honba, trumps, games won...) cannot resume unless it overrides
        this, since what it carries depends on how the broken hand ended."""
        if type(match) is not Match:
            return (f"{self.title} carries more than the scores and the dealer from one hand to the next, "
                    "and that depends on how the hand before ended")
        return self.resume_carried(match, broken, header, totals)

    def resume_carried(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """What every game carries, rebuilt for :meth:`resume_match`: the dealer (from the hand
        line; needed once the match keeps one), the totals, the hands played."""
        if header.dealer is None and match.dealer is not None:
            return "its dealer follows from how the hand before ended, and its hand line writes none (dealer=...)"
        self.set_position(match, header, totals)
        match.hands_played += 1
        match.over = False
        return None

    @staticmethod
    def set_position(match: Match, header: HandHeader, totals: dict[str, int] | None) -> None:
        """The one path by which a match is put at a written position: the dealer the hand
        line names, the running totals (None: kept). Used after a broken hand
        (:meth:`resume_carried`) and for a record that starts from a position
        (:meth:`start_from`)."""
        if header.dealer is not None:
            match.dealer = header.dealer
        if totals is not None:
            match.totals = dict(totals)

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A record that starts from a written position ([Start "A 47000 B 36000 C 7000"] and
        its first hand line: docs/notation.md §Starting from a position): ``match``, just
        started, is put at it as if the earlier hands had been played. Returns None when done,
        else why the position is one the game cannot reach (R214 at the tag). By default: the
        totals must add up to what the game's scores always add up to (:meth:`start_sum`);
        then :meth:`set_position`. A game whose match carries more reads it from the first hand
        line in its own ``start_hand`` (sanma's round, kyoku, honba and pot)."""
        want = self.start_sum(match, header)
        got = sum(totals.values())
        if want is not None and got != want:
            return (f"the scores add up to {got}; in {self.title} they always add up to {want} "
                    f"({self.zero_sum_rule or 'every point one seat gains, another pays'})")
        self.set_position(match, header, totals)
        return None

    def start_sum(self, match: Match, header: HandHeader) -> int | None:
        """What the running totals add up to at any hand's start (None: no such rule). By
        default, in a ``zero_sum`` game, what they add up to at the match's start."""
        return sum(match.totals.values()) if self.zero_sum else None

    # -- hand --------------------------------------------------------------------------
    @abstractmethod
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> S: ...

    @abstractmethod
    def read_action(self, state: S, event: Event) -> A: ...

    @abstractmethod
    def apply(self, state: S, action: A) -> None: ...

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]: ...

    @abstractmethod
    def to_act(self, state: S) -> str | None: ...

    @abstractmethod
    def hand_over(self, state: S) -> bool: ...

    @abstractmethod
    def settle(self, state: S) -> Settlement: ...

    def settlement_sum(self, state: S, settlement: Settlement) -> int | None:
        """What the seats' gains and losses in this hand add up to by the rules, whatever
        cards the record leaves unseen: in a ``zero_sum`` game what the pot gives less what it
        takes (0 without a pot); None where the rules fix no sum. The validator holds a
        written score line, and the running totals, to it."""
        return settlement.pot_flow() if self.zero_sum else None

    def check_written(self, state: S, settlement: Settlement, events: list[Event]) -> list[tuple[Event, str, str]]:
        """Figures a record keeps in comment commands (e.g. an imported log's own results) that
        disagree with the settlement: (the event that holds them, what differs, the rules
        cited). None by default."""
        return []

    def rule_tables(self) -> list[tuple[str, tuple[str, ...], list[tuple[str, ...]]]]:
        """Tables ``paifu rules GAME`` prints after the options (title, columns, rows): a
        game's scoring table. None by default."""
        return []

    def irregularity(self, state: S, event: Event) -> None:
        """Apply an irregularity written as ``A: foul KIND ...`` (a false win, a forbidden call,
        a revoke) by the game's penalty rule. Games whose rules penalize irregularities
        override this; by default the record is rejected with L310."""
        raise Violation("L310", f"{self.id} has no penalty rule for irregularities: the record cannot continue after one")

    def end_reason(self, state: S) -> str | None:
        """Why the hand is over, in words, for the message about events written after its end."""
        return None

    def accepts_after_end(self, state: S, event: Event) -> bool:
        """Whether an event written after the hand ended still belongs to it (a declaration of
        what ended it, such as a dealt dragon). By default none does."""
        return False

    @abstractmethod
    def view(self, state: S, seat: str | None) -> TableView: ...

    @abstractmethod
    def event_for(self, state: S, action: A) -> Event: ...

    def seen_event(self, event: Event, seat: str, shown: Counter) -> Event:
        """The event as ``seat`` may read it when it is played (a seat's page in the viewer):
        each card the seat does not see written ``*``. ``shown`` holds the cards the event moved
        in sight of ``seat``, zone by zone of the seat's table view (the viewer takes it from
        :meth:`view`): what a zone shows after it and did not before, and what a zone showed
        and no longer does (a discard won on); the cards matched are taken from it.

        By default a seat reads its own events whole; a ``deal S:`` line only S; a set-up line
        without a seat (a wall, a talon, an indicator) whole when every card it names is
        shown, else not at all; another seat's line card by card, as they are shown (a
        discard, a meld, a revealed hand, a card played to a trick; not a draw, a face-down
        bid or exchange). A game whose rules show more or less overrides this."""
        items = [a for a in event.args if isinstance(a, CardsArg)]
        if not items or event.seat == seat:
            return event
        named = Counter(c for a in items for c in a.cards if c != UNKNOWN)
        if event.seat is None:
            dealt = next((a.seat for a in event.args if isinstance(a, SeatArg)), None)
            whole = dealt == seat or (dealt is None and not named - shown)
            if whole:
                shown.subtract(named)
                shown += Counter()  # drop the used up
                return event
            return hidden_cards(event, lambda card: False)

        def sees(card: str) -> bool:
            if card != UNKNOWN and shown[card] > 0:
                shown[card] -= 1
                return True
            return False
        return hidden_cards(event, sees)

    # -- unseen cards (the scribe) -----------------------------------------------------
    def unseen_candidates(self, state: S, seat: str) -> Counter:
        """The cards or tiles that could be among ``seat``'s unseen ones, with how many copies:
        every card of the game's set not known to be elsewhere (in a seen hand, played, at a
        known place of the wall or stock). Empty when the seat holds no unseen card, or when the
        game cannot say (the default)."""
        return Counter()

    def unseen_actions(self, state: S) -> list[A]:
        """The actions ``legal_actions`` leaves out because the cards that would make them are
        unseen: for a seat whose hand the record has not (wholly) shown, the actions of the shapes
        a seen hand is offered (a play, a discard, a claim, a pass) whose cards could be among
        its unseen ones (``unseen_candidates``). Candidates, not certainties: ``apply`` still
        decides, as it does for a typed event. None by default: the scribe types the event."""
        return []

    def candidate_actions(self, state: S) -> list[A]:
        """What a scribe may record here: ``legal_actions``, then each ``unseen_actions`` the
        engine's ``apply`` accepts, without repeats."""
        out = list(self.legal_actions(state))
        for action in self.unseen_actions(state):
            if action not in out and self.accepts(state, action):
                out.append(action)
        return out

    def accepts(self, state: S, action: A) -> bool:
        """Whether ``apply`` accepts ``action`` here (tried on a copy: ``state`` is unchanged)."""
        trial = copy.deepcopy(state)
        try:
            self.apply(trial, action)
        except Violation:
            return False
        return True

    # -- selfplay ----------------------------------------------------------------------
    @abstractmethod
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        """A new hand for selfplay: its opening line and set-up events from a shuffled deck."""

    @abstractmethod
    def choose(self, seen: Any, legal: list[A], rng: random.Random) -> A:
        """The selfplay policy: pick one of ``legal`` from ``seen``, what the acting seat sees."""

    def default_seats(self, rules: Rules) -> int:
        """How many play a selfplay record when not told: the game's usual number (a variant
        may say otherwise, e.g. Wuhan's three-player Jingzhou)."""
        return self.seat_counts[0]

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """``paifu selfplay --aim``: a deal stacked toward the named item (a permutation of the
        game's set, dealt as the rules deal it), or None for an ordinary shuffle."""
        return None

    def aim_choose(self, state: S, legal: list[A], rng: random.Random, aim: str) -> A | None:
        """``paifu selfplay --aim``: one of ``legal`` that steers toward the named item, or None
        to leave the choice to the policy. It sees the whole state: a scribe arranging an
        example, not a player; it only ever picks a legal action."""
        return None

    def seat_view(self, state: S, seat: str) -> Any:
        """What the selfplay policy of ``seat`` may see; by default its table view."""
        return self.view(state, seat)

    # -- helpers -----------------------------------------------------------------------
    def next_seat(self, seats: list[str], seat: str, step: int = 1) -> str:
        return seats[(seats.index(seat) + step) % len(seats)]
