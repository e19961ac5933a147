"""The validator: replay a record through its game's engine and report every problem.

``validate(record)`` returns a :class:`RecordReport`; ``replay(record, on_step=...)``
does the same and calls ``on_step`` after every replayed event, which is how the viewer
collects the table at each step without knowing any rules.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

from paifu.notation.diagnostics import Diagnostic, diag, internal_error
from paifu.notation.model import Arg, CardsArg, Event, Hand, NumArg, OptionArg, Pos, Record, SeatArg, Tag, WordArg, players_problems

from .deals import card_place
from .engine import POT, Engine, HandHeader, HandState, Match, Rules, Settlement, Violation
from .games import ALL_GAMES, engine as engine_for
from .report import HandReport, PaymentOut, RecordReport, ScoreItemOut

SCORE_VERBS = frozenset({"score", "total", "final"})  # final: the game's final settlement (Engine.final_settlement)
IRREGULARITY_VERB = "foul"  # A: foul false_win ... : an irregularity the rules may penalize


@dataclass
class Step:
    """One replayed event, for observers such as the viewer."""

    engine: Engine
    state: HandState
    event: Event | Hand
    hand_index: int
    path: tuple[int, ...]  # () on the main line; indices of the variations entered
    diagnostics: list[Diagnostic] = field(default_factory=list)
    settlement: Settlement | None = None


OnStep = Callable[[Step], None]


def _at(node: Event | Hand | None, arg: int | tuple[int, int] | None = None) -> tuple[int, int]:
    """Where a violation points: an argument of ``node``, a card of one (``(i, j)``), or the node."""
    if node is None:
        return 0, 0
    card = None
    if isinstance(arg, tuple):  # the j-th card from args[i] on: the argument that holds it
        place = card_place(node, arg[1], arg[0]) if isinstance(node, Event) else arg[0]
        arg, card = place if isinstance(place, tuple) else (place, None)
    pos = None
    if arg is not None and -len(node.args) <= arg < len(node.args):  # -1: the last argument
        found = node.args[arg]
        pos = found.card_at(card) if card is not None and isinstance(found, CardsArg) else found.at
    if pos is None:
        pos = node.at
    return (pos.line, pos.col) if pos else (0, 0)


SINGLE_TAGS = ("Game", "Players", "Result", "Start")  # tags a record gives at most once


def _who_acts(engine: Engine, state: HandState) -> str:
    """Who the hand waits for, in words (never Python's None)."""
    seat = engine.to_act(state)
    return f"{seat} is to act" if seat else "no seat is to act yet: a line the hand needs is missing"


def repeated_tags(record: Record) -> list[Diagnostic]:
    """R211 for a second Game, Players or Result tag: which one counts would be a guess."""
    out = []
    for name in SINGLE_TAGS:
        nodes = [t for t in record.tags if t.name == name]
        for extra in nodes[1:]:
            first = nodes[0]
            line, col = (extra.at.line, extra.at.col) if extra.at else (0, 0)
            where = f" on line {first.at.line}" if first.at else ""
            out.append(diag("R211", f"a second {name} tag: the record already gives {name} \"{first.value}\"{where}; give it once", line, col))
    return out


def read_rules(engine: Engine, record: Record, out: list[Diagnostic]) -> Rules:
    """The options in force: defaults, overridden by the record's ``Option`` tags."""
    rules = Rules({o.name: o.default for o in engine.options})
    known = {o.name: o for o in engine.options}
    for tag in record.option_tags():
        line, col = (tag.at.line, tag.at.col) if tag.at else (0, 0)
        key, sep, value = tag.value.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            out.append(diag("R210", f"Option tag '{tag.value}' is not key=value", line, col))
            continue
        option = known.get(key)
        if option is None:
            names = ", ".join(sorted(known)) or "none"
            out.append(diag("R203", f"{engine.id} has no option '{key}' (its options: {names}; see 'paifu rules {engine.id}')", line, col))
            continue
        problem = option.check(value)
        if problem:
            out.append(diag("R204", problem, line, col, option.source or None))
            continue
        rules[key] = value
    return rules


def read_seats(engine: Engine, record: Record, out: list[Diagnostic]) -> list[str] | None:
    tag = record.tag_node("Players")
    if tag is None:
        count = engine.seat_counts[0]
        return [chr(ord("A") + i) for i in range(count)]
    line, col = (tag.at.line, tag.at.col) if tag.at else (0, 0)
    problems = players_problems(tag.value)
    if problems:
        out.append(diag("R205", "Players: " + "; ".join(problems), line, col))
        return None
    seats = list(record.players())
    if len(seats) not in engine.seat_counts:
        counts = " or ".join(str(c) for c in engine.seat_counts)
        out.append(diag("R205", f"{engine.id} is played by {counts}; Players names {len(seats)}", line, col, engine.source))
        return None
    return seats


def read_result(value: str, seats: list[str], names: dict[str, str]) -> tuple[tuple[list[str], int | None] | None, str | None]:
    """A Result value: the winning seat(s) (letters or Players names), then optionally the
    match's score (``"B"``, ``"A C"``, ``"B 154"``); or a message saying what is wrong."""
    by_name = {n: s for s, n in names.items()}
    winners: list[str] = []
    score: int | None = None
    for word in value.split():
        if score is not None:
            return None, f"Result '{value}': the score comes last"
        if word.lstrip("+").isdigit():
            score = int(word)
        elif word in seats or word in by_name:
            winners.append(by_name.get(word, word))
        else:
            return None, (f"Result '{value}': '{word}' is no seat of this game ({' '.join(seats)}); "
                          "write the winning seat(s), then optionally the match's score, or \"*\"")
    if not winners:
        return None, f"Result '{value}' names no winning seat"
    return (winners, score), None


def read_written(event: Event, seats: list[str], out: list[Diagnostic]) -> dict[str, int] | None:
    """``score A +26 B -4`` -> {'A': 26, 'B': -4}; a malformed line is R208."""
    written: dict[str, int] = {}
    args = event.args
    i = 0
    while i < len(args):
        a = args[i]
        seat = a.text if isinstance(a, WordArg) else (a.seat if isinstance(a, SeatArg) else None)
        if seat is None or seat not in seats or i + 1 >= len(args) or not isinstance(args[i + 1], NumArg):
            line, col = _at(event, i)
            out.append(diag("R208", f"{event.verb} line: expected seat and number pairs such as 'A +4 B -4' (seats {' '.join(seats)})", line, col))
            return None
        if seat in written:
            line, col = _at(event, i)
            out.append(diag("R208", f"{event.verb} line names seat {seat} twice", line, col))
            return None
        written[seat] = args[i + 1].value  # type: ignore[union-attr]
        i += 2
    return written


_HAND_KEY_RE = re.compile(r"[a-z][a-z0-9_]*\Z")


def hand_line_problems(hand: Hand) -> list[tuple[str, Arg]]:
    """What is wrong with the shape of a hand line, each with the item at fault: a hand line
    is ``hand``, the hand's number (optional) and ``key=value`` items, each key once
    (docs/notation.md); anything else on it would be silently ignored."""
    problems: list[tuple[str, Arg]] = []
    number: NumArg | None = None
    keys: set[str] = set()
    for a in hand.args:
        if isinstance(a, NumArg):
            if number is not None:
                problems.append((f"a hand line has one number, the hand's: '{number.value}', then '{a.value}'", a))
            number = number or a
        elif isinstance(a, OptionArg):
            if not _HAND_KEY_RE.match(a.key) or not a.value or "=" in a.value:
                problems.append((f"'{a.key}={a.value}' is not key=value: a lower-case key, '=' and a value without '=' "
                                 "(as in 'dealer=A')", a))
            elif a.key in keys:
                problems.append((f"the hand line names {a.key}= twice", a))
            keys.add(a.key)
        else:
            text = a.text if isinstance(a, WordArg) else f"{a.seat}:" if isinstance(a, SeatArg) else a.written or " ".join(a.cards)
            problems.append((f"'{text}' on a hand line is neither the hand's number nor key=value (as in 'hand 1 dealer=A')", a))
    return problems


def _first_line(events: Sequence[Event], verb: str) -> Event | None:
    """A hand's (first) seat-less line of ``verb`` on its main line: its score or total line."""
    return next((ev for ev in events if ev.seat is None and ev.verb == verb), None)


def _names(seats: Sequence[str]) -> str:
    return seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} and {seats[-1]}"


def _unchecked_sum(written: dict[str, int], computed: dict[str, int], unknown: set[str], seats: list[str], expected: int,
                   what: str) -> str | None:
    """None when a line's figures add up to ``expected``, or would with the ``computed``
    figures of the seats not ``unknown`` (a wrong one of those is an S401 or S402 of its own);
    else what the line adds up to, in words (``what``: the line's name)."""
    as_written = sum(written.get(s, 0) for s in seats)
    corrected = sum(written.get(s, 0) if s in unknown else computed.get(s, 0) for s in seats)
    if expected in (as_written, corrected):
        return None
    words = f"the {what} add up to {_signed(as_written)}"
    if corrected != as_written:
        known = [s for s in seats if s not in unknown]
        words += f" ({_signed(corrected)} with the computed figures of {_names(known)})"
    return words


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _sum_reason(engine: Engine, settlement: Settlement | None, expected: int | None = None) -> str:
    """Why a hand's scores (``settlement``'s, adding up to ``expected``) or the running totals
    (no settlement) add up to what they do, in words."""
    if settlement is None:
        return f"in {engine.title} the seats pay each other"
    into = sum(p.amount for p in settlement.payments if p.payee == POT)
    out = sum(p.amount for p in settlement.payments if p.payer == POT)
    pot = f" and the pot: {into} into it and {out} out of it" if into or out else ""
    return f"this hand's scores add up to {_signed(expected or 0)}: in {engine.title} the seats pay each other{pot}"


def _header_of(hand: Hand) -> HandHeader:
    """A hand line as written (its number, dealer and attributes), unchecked."""
    attrs = {a.key: a.value for a in hand.args if isinstance(a, OptionArg)}
    dealer_arg = hand.attr("dealer")
    return HandHeader(number=hand.number, dealer=dealer_arg.value if dealer_arg else None, attrs=attrs)


def written_totals(hand: Hand, before: Match) -> dict[str, int] | None:
    """The running totals a record writes after ``hand`` (its main line's ``total`` line, or
    the totals before it plus its ``score`` line), when they name every seat; else None."""
    seats = before.seats
    for verb in ("total", "score"):
        for ev in hand.events:
            if ev.seat is None and ev.verb == verb:
                written = read_written(ev, seats, [])
                if written is not None and set(written) == set(seats):
                    return written if verb == "total" else {s: before.totals[s] + written[s] for s in seats}
    return None


class _Lookahead:
    """An iterator of hands that can tell whether another one follows (read one at a time)."""

    def __init__(self, items: Iterable[Hand]):
        self.items = iter(items)
        self.next: list[Hand] = []

    def peek(self) -> Hand | None:
        if not self.next:
            for item in self.items:
                self.next.append(item)
                break
        return self.next[0] if self.next else None

    def empty(self) -> bool:
        return self.peek() is None

    def __iter__(self) -> "_Lookahead":
        return self

    def __next__(self) -> Hand:
        if self.peek() is None:
            raise StopIteration
        return self.next.pop()


class _Replayer:
    def __init__(self, record: Record, path: str, on_step: OnStep | None, hands: Iterable[Hand] | None = None):
        self.hands = hands  # when given, the record's hands, read one at a time (the record has none)
        self.record = record
        self.path = path
        self.on_step = on_step
        self.diagnostics: list[Diagnostic] = []
        self.actions = 0
        self.unknown_totals: set[str] = set()
        self.engine: Engine | None = None
        self.broken = False  # a hand could not be finished: the Result tag is not checked
        self.stop_reason = ""
        self.keep_starts = False  # keep every hand's starting match (the viewer replays hands on demand)
        self.starts: dict[int, tuple[Match, frozenset[str]]] = {}
        self.final_hand = -1  # the record's last hand, once read
        # What the running totals add up to by the rules (a zero-sum game's: the start, plus
        # what each hand's settlement adds up to), None where that is not fixed; and each
        # seat's running total as best known: computed, or where hidden cards hide it, as
        # the record writes it (a total line, or the total before plus the score line).
        self.total_sum: int | None = None
        self.believed: dict[str, int] = {}

    def emit(self, d: Diagnostic) -> Diagnostic:
        d.path = self.path
        self.diagnostics.append(d)
        return d

    def run(self, report: RecordReport) -> None:
        for _ in self.play(report):
            pass

    def play(self, report: RecordReport) -> Iterator[int]:
        """Replay the record, yielding each hand's index once it is replayed (or given up)."""
        record = self.record
        game = record.game
        first = record.at or Pos(line=1, col=1)
        repeated = repeated_tags(record)
        for d in repeated:
            self.emit(d)
        if repeated:
            return
        if game is None:
            self.emit(diag("R201", 'the record has no [Game "..."] tag', first.line, first.col))
            return
        engine = engine_for(game)
        if engine is None:
            tag = record.tag_node("Game")
            line, col = (tag.at.line, tag.at.col) if tag and tag.at else (first.line, first.col)
            self.emit(diag("R202", f"unknown game '{game}' (games: {', '.join(sorted(ALL_GAMES))})", line, col))
            return
        problems: list[Diagnostic] = []
        rules = read_rules(engine, record, problems)
        seats = read_seats(engine, record, problems)
        for d in problems:
            self.emit(d)
        if problems or seats is None:
            return
        hands = _Lookahead(self.hands if self.hands is not None else record.hands)
        if hands.empty():
            self.emit(diag("R207", "the record has no hand ('hand 1 dealer=A' opens one)", first.line, first.col))
            return
        match = engine.start_match(rules, seats)
        started = record.tag_node("Start")
        if started is not None and not self.start_from(engine, match, started, hands.peek()):
            return
        self.engine = engine
        self.total_sum = sum(match.totals.values()) if engine.zero_sum else None
        self.believed = dict(match.totals)
        unfinished_ok = record.tag("Result") == "*"
        for index, hand in enumerate(hands):
            last = hands.empty()
            if last:
                self.final_hand = index
            if engine.match_over(match):
                line, col = _at(hand)
                self.emit(diag("R209", f"the match was over after hand {match.hands_done} (the game, or the games it is played to, had ended); this hand cannot be played", line, col, engine.source))
                return
            before = copy.deepcopy(match)  # the start of this hand, should the next one have to resume without it
            if self.keep_starts:
                self.starts[index] = (copy.deepcopy(match), frozenset(self.unknown_totals))
            hand_report = HandReport(number=hand.number, line=hand.at.line if hand.at else 0)
            report.hands.append(hand_report)
            ok = self.play_hand(engine, match, hand, index, hand_report, unfinished_ok and last)
            report.totals = dict(match.totals)
            if not ok:
                self.broken = True
                following = hands.peek()
                if following is None:
                    yield index
                    return
                resumed = self.resume(engine, before, hand, following)
                if resumed is None:
                    line, col = _at(following)
                    later = sum(1 for _ in hands) - 1
                    which = f"hand {following.number or index + 2}" + (f" and the {later} hand(s) after it are" if later else " is")
                    self.emit(diag("N502", f"{which} not replayed: {self.stop_reason}", line, col))
                    yield index
                    return
                match = resumed
            yield index
        if not self.broken:
            self.check_result(engine, match)
            if started is not None and engine.has_end(match) and not engine.match_over(match) and record.tag("Result") != "*":
                self.emit(diag("N506", f"the record starts from a written position and stops after hand "
                                       f"{match.hands_done}, before the match is over: valid; "
                                       "what its end would settle (placings, prizes, a final line) is not checked",
                               *_at(hand)))

    def start_from(self, engine: Engine, match: Match, tag: Tag, first: Hand | None) -> bool:
        """A record that starts from a written position: ``[Start "A 47000 B 36000 C 7000"]``,
        each seat's running total at the start of the record's first hand, with that hand's
        line (its number, dealer= and the game's own keys: docs/notation.md §Starting from a
        position). False, with R214 at the tag, when it cannot be read or the game cannot
        reach it."""
        line, col = (tag.at.line, tag.at.col) if tag.at else (0, 0)
        words = tag.value.split()
        totals: dict[str, int] = {}
        problem = ""
        if len(words) % 2 or not words:
            problem = f"Start gives each seat's score at the start, seat and number pairs such as \"{' '.join(f'{s} 0' for s in match.seats)}\""
        for seat, number in zip(words[::2], words[1::2]):
            if problem:
                break
            if seat not in match.seats:
                problem = f"Start names {seat}, not a seat of this game ({' '.join(match.seats)})"
            elif seat in totals:
                problem = f"Start names {seat} twice"
            elif not re.fullmatch(r"[+-]?[0-9]{1,9}", number):
                problem = f"Start gives {seat} '{number[:20]}': a whole number is expected"
            else:
                totals[seat] = int(number)
        if not problem and set(totals) != set(match.seats):
            problem = f"Start names no score for {' '.join(s for s in match.seats if s not in totals)}: it gives every seat's"
        if not problem and first is not None:
            number = next((a.value for a in first.args if isinstance(a, NumArg)), None)
            match.hands_before = max(0, int(number) - 1) if isinstance(number, int) else 0
            header = self.header(engine, match, first)
            if header is None:
                return False
            problem = engine.start_from(match, header, totals) or ""
        if problem:
            self.emit(diag("R214", problem, line, col, engine.source))
            return False
        return True

    def resume(self, engine: Engine, before: Match, broken: Hand, following: Hand) -> Match | None:
        """The match at the start of ``following``, the hand after one the replay could not
        finish: ``before`` (the match at the broken hand's start) brought on by the engine
        from what the record writes (the next hand's line, the totals written after the
        broken hand). None when the engine cannot say; ``stop_reason`` says why."""
        seats = before.seats
        totals = written_totals(broken, before)
        match = copy.deepcopy(before)
        try:
            reason = engine.resume_match(match, _header_of(broken), _header_of(following), totals)
        except Exception as exc:  # noqa: BLE001 - a bug in the hook: say so, do not guess
            reason = f"the engine could not rebuild its start ({type(exc).__name__}: {exc})"
        if reason is not None:
            self.stop_reason = reason
            return None
        if match.hands_played != before.hands_played + 1:
            match.hands_played = before.hands_played + 1
        number = broken.number or before.hands_done + 1
        line, col = _at(following)
        self.total_sum = sum(match.totals.values()) if totals is not None and engine.zero_sum else None
        self.believed = dict(match.totals) if totals is not None else {}
        if totals is None:
            self.unknown_totals |= set(seats)
            how = (f"the record writes no running totals after hand {number}, so the totals from here on are not known "
                   "(total lines are not checked)")
        else:
            how = f"from the running totals the record writes after hand {number} (not checked)"
        self.emit(diag("N505", f"hand {following.number or number + 1} is replayed from its own deal after hand {number} could not be "
                               f"finished: {how}", line, col))
        return match

    def check_result(self, engine: Engine, match: Match) -> None:
        """The ``Result`` tag against the match's outcome (docs/notation.md §Result)."""
        tag = self.record.tag_node("Result")
        if tag is None or tag.value.strip() in ("*", ""):
            return
        line, col = (tag.at.line, tag.at.col) if tag.at else (0, 0)
        written, problem = read_result(tag.value, match.seats, self.record.players())
        if problem:
            self.emit(diag("R212", problem, line, col))
            return
        assert written is not None
        seats, score = written
        if self.unknown_totals:
            self.emit(diag("N504", f"Result not checked: hidden cards hide the totals of {' '.join(sorted(self.unknown_totals))}", line, col))
            return
        outcome = engine.match_result(match)
        if outcome is None:
            self.emit(diag("R212", f"Result names {' '.join(seats)}, but the match is not over after hand {match.hands_done}: "
                                   "its outcome is not known (write Result \"*\")", line, col, engine.source))
            return
        if sorted(seats) != sorted(outcome.winners):
            self.emit(diag("R212", f"Result names {' '.join(seats)}; the match was won by {' '.join(outcome.winners)} "
                                   f"({outcome.how})", line, col, engine.source))
        elif score is not None and score != outcome.score:
            known = f"{outcome.score}" if outcome.score is not None else "none (this game gives its match no score)"
            self.emit(diag("R212", f"Result gives the score {score}; the match's score is {known} ({outcome.how})",
                           line, col, engine.source))

    def header(self, engine: Engine, match: Match, hand: Hand) -> HandHeader | None:
        number = hand.number
        expected = match.hands_done + 1
        line, col = _at(hand)
        shape = hand_line_problems(hand)
        for problem, arg in shape:
            at = arg.at or hand.at
            self.emit(diag("R206", problem, at.line if at else line, at.col if at else col))
        if shape:
            return None
        if number is not None and number != expected:
            self.emit(diag("R206", f"hand {number} follows {match.hands_done} hands: expected hand {expected}", line, col))
            return None
        dealer_arg = hand.attr("dealer")
        dealer = dealer_arg.value if dealer_arg else None
        if dealer is not None and dealer not in match.seats:
            pos = dealer_arg.at
            self.emit(diag("R206", f"dealer={dealer} is not a seat of this game ({' '.join(match.seats)})", pos.line if pos else line, pos.col if pos else col))
            return None
        attrs = {a.key: a.value for a in hand.args if isinstance(a, OptionArg)}
        return HandHeader(number=number if number is not None else expected, dealer=dealer, attrs=attrs)

    def play_hand(self, engine: Engine, match: Match, hand: Hand, index: int, hand_report: HandReport, may_stop: bool) -> bool:
        header = self.header(engine, match, hand)
        if header is None:
            return False
        events = hand.events
        n_setup = 0
        while n_setup < len(events) and events[n_setup].seat is None and events[n_setup].verb in engine.setup_verbs:
            n_setup += 1
        setup = events[:n_setup]
        try:
            state = engine.start_hand(match, header, setup)
        except Violation as v:
            node = v.event or hand
            line, col = _at(node, v.arg)
            self.emit(diag(v.code, v.message, line, col, v.rule))
            return False
        except Exception as exc:  # noqa: BLE001 - a bug must still be a located message
            line, col = _at(hand)
            self.emit(internal_error(exc, line, col))
            return False
        self.drain_notes(state, setup[-1] if setup else hand)
        if self.on_step:
            over = self.settlement_now(engine, state)  # a hand may end at its deal (a dealt dragon)
            self.on_step(Step(engine, state, hand, index, (), settlement=over))
        end = self.play_line(engine, state, events[n_setup:], index, (), hand_report)
        if end is None:
            return False
        state, settlement = end
        if settlement is None:
            if not engine.hand_over(state):
                node = events[-1] if events else hand
                line, col = _at(node)
                if may_stop:
                    self.emit(diag("N503", "the record stops here, before the hand is over (Result \"*\")", line, col))
                    return True
                self.emit(diag("L307", f"hand {header.number} ends here but the hand is not over ({_who_acts(engine, state)})", line, col, engine.source))
                return False
            settlement = self.settle(engine, state, hand)
            if settlement is None:
                return False
        self.fill_hand_report(hand_report, settlement)
        engine.end_hand(match, state, settlement)
        hand_report.totals = dict(match.totals)
        # running totals written after the score line are checked against the match now;
        # a seat whose score some hand could not compute has an unknown total from then on
        self.unknown_totals |= settlement.unknown
        hand_sum = engine.settlement_sum(state, settlement)
        total_sum = None if self.total_sum is None or hand_sum is None else self.total_sum + hand_sum
        score_line = _first_line(events[n_setup:], "score")
        total_line = _first_line(events[n_setup:], "total")
        scores = read_written(score_line, match.seats, []) if score_line else None
        if total_line is not None:
            self.compare(total_line, match.totals, self.unknown_totals, "S402", "running total", match.seats)
            self.check_totals(engine, total_line, match, settlement, scores, total_sum)
        self.carry_totals(match, settlement, scores, read_written(total_line, match.seats, []) if total_line else None)
        self.total_sum = total_sum
        final_line = _first_line(events[n_setup:], "final")  # a second one is R213 (play_line)
        if final_line is not None:
            self.check_final(engine, match, [final_line], hand_report)
        return True

    def check_final(self, engine: Engine, match: Match, finals: list[Event], hand_report: HandReport) -> None:
        """A ``final`` line: the game's final settlement (placings, prizes) after the game's last hand."""
        final = engine.final_settlement(match) if engine.match_over(match) else None
        for ev in finals:
            line, col = _at(ev)
            if self.broken:  # the final points add up the whole match (prizes, busts...)
                self.emit(diag("N501", "final points cannot be checked: a hand before could not be finished", line, col))
                continue
            if not engine.match_over(match):
                self.emit(diag("S403", f"'final' line, but the game is not over after this hand ({match.hands_done} played)", line, col, engine.source))
            elif final is None:
                self.emit(diag("S403", f"{engine.id} has no final settlement beyond its running totals: write 'total' instead", line, col, engine.source))
            else:
                hand_report.final = dict(final.deltas)
                hand_report.final_items = [ScoreItemOut(seat=i.seat, name=i.name, value=i.value, term=i.term, detail=i.detail) for i in final.items]
                self.compare(ev, final.deltas, self.unknown_totals, "S403", "final points", match.seats)

    def settle(self, engine: Engine, state: HandState, node: Event | Hand) -> Settlement | None:
        try:
            return engine.settle(state)
        except Violation as v:
            line, col = _at(node, v.arg)
            self.emit(diag(v.code, v.message, line, col, v.rule))
        except Exception as exc:  # noqa: BLE001
            line, col = _at(node)
            self.emit(internal_error(exc, line, col))
        return None

    @staticmethod
    def settlement_now(engine: Engine, state: HandState) -> Settlement | None:
        """The settlement when the hand is over, for observers; problems are the main flow's to report."""
        if not engine.hand_over(state):
            return None
        try:
            return engine.settle(state)
        except Exception:  # noqa: BLE001 - reported by the main flow
            return None

    def fill_hand_report(self, hand_report: HandReport, settlement: Settlement) -> None:
        hand_report.over = True
        hand_report.computed = dict(settlement.deltas)
        hand_report.unknown = sorted(settlement.unknown)
        hand_report.items = [ScoreItemOut(seat=i.seat, name=i.name, value=i.value, term=i.term, detail=i.detail) for i in settlement.items]
        hand_report.payments = [PaymentOut(payer=p.payer, payee=p.payee, amount=p.amount, reason=p.reason) for p in settlement.payments]

    def compare(self, event: Event, computed: dict[str, int], unknown: set[str], code: str, what: str, seats: list[str]) -> None:
        problems: list[Diagnostic] = []
        written = read_written(event, seats, problems)
        for d in problems:
            self.emit(d)
        if written is None:
            return
        for i, (seat, value) in enumerate(written.items()):
            line, col = _at(event, 2 * i + 1)
            if seat in unknown:
                self.emit(diag("N501", f"{what} of {seat} cannot be checked: it depends on cards the record does not show", line, col))
            elif computed.get(seat) != value:
                self.emit(diag(code, f"{what} of {seat}: written {value:+d}, computed {computed.get(seat, 0):+d}", line, col))
        # a seat left out of the line stands for 0: a payment it leaves out is a wrong score
        for seat in seats:
            if seat not in written and seat not in unknown and computed.get(seat, 0) != 0:
                line, col = _at(event)
                self.emit(diag(code, f"{what} of {seat}: not written (so 0), computed {computed[seat]:+d}", line, col))

    def check_score_sum(self, engine: Engine, state: HandState, settlement: Settlement, event: Event, seats: list[str]) -> None:
        """A score line's figures that hidden cards leave unchecked must still add up, with the
        computed ones, to what the game's settlement adds up to (0 where the seats only pay
        each other): S405."""
        if not settlement.unknown:
            return  # every figure is compared with the computed one
        expected = engine.settlement_sum(state, settlement)
        written = read_written(event, seats, [])
        if expected is None or written is None:
            return
        problem = _unchecked_sum(written, settlement.deltas, settlement.unknown, seats, expected, "score line's figures")
        if problem:
            line, col = _at(event)
            self.emit(diag("S405", f"{problem}, but {_sum_reason(engine, settlement, expected)}", line, col,
                           engine.zero_sum_rule or engine.source))

    def check_totals(self, engine: Engine, event: Event, match: Match, settlement: Settlement,
                     scores: dict[str, int] | None, total_sum: int | None) -> None:
        """The running totals of seats that hidden cards leave unchecked, against what the
        record writes: with the computed ones they add up to what the totals add up to by the
        rules (S405), and each is its total before this hand plus its score in it (S406)."""
        unknown = self.unknown_totals
        written = read_written(event, match.seats, [])
        if not unknown or written is None:
            return  # every figure is compared with the computed one (or the line is R208)
        problem = None if total_sum is None else _unchecked_sum(written, match.totals, unknown, match.seats, total_sum, "running totals")
        if problem:
            line, col = _at(event)
            self.emit(diag("S405", f"{problem}, but by the rules they add up to {_signed(total_sum or 0)}: the totals the game "
                                   f"started from plus what each hand's scores add up to ({_sum_reason(engine, None)})",
                           line, col, engine.zero_sum_rule or engine.source))
        for seat in match.seats:
            before = self.believed.get(seat)
            if seat not in unknown or before is None:
                continue
            if seat in settlement.unknown:
                if scores is None:
                    continue
                delta, what = scores.get(seat, 0), "the score line gives it"
            else:
                delta, what = settlement.deltas.get(seat, 0), "it scores"
            value = written.get(seat, 0)
            if value != before + delta:
                index = list(written).index(seat) if seat in written else None
                line, col = _at(event, 2 * index + 1 if index is not None else None)
                self.emit(diag("S406", f"running total of {seat}: written {_signed(value)}, but its total before this hand is "
                                       f"{_signed(before)} and {what} {_signed(delta)} in it: {_signed(before + delta)}", line, col))

    def carry_totals(self, match: Match, settlement: Settlement, scores: dict[str, int] | None,
                     totals: dict[str, int] | None) -> None:
        """Each seat's running total as best known after a hand (see ``believed``)."""
        for seat in match.seats:
            if seat not in self.unknown_totals:
                self.believed[seat] = match.totals[seat]
            elif totals is not None:
                self.believed[seat] = totals.get(seat, 0)
            elif seat in self.believed and seat not in settlement.unknown:
                self.believed[seat] += settlement.deltas.get(seat, 0)
            elif seat in self.believed and scores is not None:
                self.believed[seat] += scores.get(seat, 0)
            else:
                self.believed.pop(seat, None)

    def drain_notes(self, state: HandState, node: Event | Hand) -> None:
        if state.notes:
            line, col = _at(node)
            for note in dict.fromkeys(state.notes):  # once each: a pon's two tiles from unseen tiles make one note
                self.emit(diag("N501", note, line, col))
            state.notes.clear()

    def play_line(self, engine: Engine, state: HandState, events: Sequence[Event], hand_index: int,
                  path: tuple[int, ...], hand_report: HandReport | None) -> tuple[HandState, Settlement | None] | None:
        """Replay a line of events; None when it stopped at an illegal one."""
        settlement: Settlement | None = None
        match = state.match
        written_lines: dict[str, Event] = {}  # the score, total and final lines of this line, by verb
        for position, ev in enumerate(events):
            if ev.seat is None and ev.verb in SCORE_VERBS:
                score_diags_start = len(self.diagnostics)
                if not engine.hand_over(state):
                    line, col = _at(ev)
                    self.emit(diag("L307", f"'{ev.verb}' line before the hand is over ({_who_acts(engine, state)})", line, col, engine.source))
                    return None
                if settlement is None:
                    settlement = self.settle(engine, state, ev)
                    if settlement is None:
                        return None
                first = written_lines.setdefault(ev.verb, ev)
                if first is not ev:
                    line, col = _at(ev)
                    where = f" on line {first.at.line}" if first.at else ""
                    self.emit(diag("R213", f"a second '{ev.verb}' line in this hand: the hand's {ev.verb} is written{where}; "
                                           "write it once", line, col))
                elif ev.verb == "score":
                    if hand_report is not None:
                        hand_report.written = read_written(ev, match.seats, []) or None
                    self.compare(ev, settlement.deltas, settlement.unknown, "S401", "score", match.seats)
                    self.check_score_sum(engine, state, settlement, ev, match.seats)
                    for where, problem, rule in engine.check_written(state, settlement, list(events[:position])):
                        line, col = _at(where)  # a written figure (an imported log's result) that disagrees
                        self.emit(diag("S404", problem, line, col, rule))
                elif ev.verb == "final":
                    pass  # checked after the hand (check_final), when the game's end is known
                elif path:  # in a variation, a total is the match total plus this outcome
                    totals = {s: match.totals[s] + settlement.deltas.get(s, 0) for s in match.seats}
                    self.compare(ev, totals, settlement.unknown | self.unknown_totals, "S402", "running total", match.seats)
                if self.on_step:
                    self.on_step(Step(engine, state, ev, hand_index, path, self.diagnostics[score_diags_start:], settlement))
                continue
            if settlement is not None or engine.hand_over(state):
                if not engine.accepts_after_end(state, ev):
                    line, col = _at(ev)
                    reason = engine.end_reason(state)
                    self.emit(diag("L308", f"the hand is already over{': ' + reason if reason else ''}; nothing more can be played in it", line, col, engine.source))
                    return None
                settlement = None  # a line the hand still accepts (a late win) may change it: settled again when asked
            before = copy.deepcopy(state) if ev.variations else None
            step_diags_start = len(self.diagnostics)
            try:
                if ev.verb == IRREGULARITY_VERB and ev.seat is not None:
                    engine.irregularity(state, ev)
                else:
                    action = engine.read_action(state, ev)
                    engine.apply(state, action)
            except Violation as v:
                line, col = _at(ev, v.arg)
                self.emit(diag(v.code, v.message, line, col, v.rule))
                if self.on_step:
                    self.on_step(Step(engine, state, ev, hand_index, path, self.diagnostics[step_diags_start:]))
                rest = len(events) - position - 1
                if rest and not path:
                    self.emit(diag("N502", f"replay stops here: the {rest} later event(s) of this hand are not checked", line, col))
                return None
            except Exception as exc:  # noqa: BLE001 - a bug must still be a located message
                line, col = _at(ev)
                self.emit(internal_error(exc, line, col))
                return None
            self.actions += 1
            self.drain_notes(state, ev)
            if self.on_step:
                self.on_step(Step(engine, state, ev, hand_index, path, self.diagnostics[step_diags_start:], self.settlement_now(engine, state)))
            for k, var in enumerate(ev.variations):
                assert before is not None
                self.play_line(engine, copy.deepcopy(before), var.events, hand_index, path + (k,), None)
        return state, settlement


def replay(record: Record, path: str = "", on_step: OnStep | None = None, index: int = 1,
           hands: Iterable[Hand] | None = None) -> RecordReport:
    """Replay a record; report every problem, each hand's settlement and the totals.

    With ``hands``, the record holds only its tags and opening comments, and its hands come
    from ``hands`` one at a time: a record of any number of hands is replayed holding only
    the hand being played (see :func:`notation.reader.read_chunk_by_hand`).
    """
    report = RecordReport(path=path, line=record.at.line if record.at else 0, index=index, game=record.game,
                          players=record.players(), result=record.tag("Result"))
    replayer = _Replayer(record, path, on_step, hands)
    replayer.run(report)
    report.diagnostics = replayer.diagnostics
    report.actions = replayer.actions
    report.valid = not any(d.severity == "error" for d in report.diagnostics)
    return report


def validate(record: Record, path: str = "", index: int = 1, hands: Iterable[Hand] | None = None) -> RecordReport:
    """Validate one record (see :func:`replay`)."""
    return replay(record, path, None, index, hands)


def validate_read(result, index: int = 1) -> RecordReport:
    """Replay a record as the reader gave it (``notation.reader.ReadResult``), or report why
    it could not be read: the reader's diagnostics come first, and they alone decide when
    the record could not be built."""
    if result.record is None or any(d.severity == "error" for d in result.diagnostics):
        rep = RecordReport(path=result.path, line=result.line, index=index, valid=False, diagnostics=result.diagnostics)
        if result.record is not None:
            rep.game = result.record.game
            rep.players = result.record.players()
        return rep
    rep = validate(result.record, result.path, index)
    rep.diagnostics = result.diagnostics + rep.diagnostics
    rep.valid = not any(d.severity == "error" for d in rep.diagnostics)
    return rep


class Progressive:
    """A record replayed a hand at a time, on demand (the viewer's long records).

    ``advance(n)`` replays the record (without observers) until its first ``n`` hands are
    replayed or the record ends; every hand's starting match is kept, so
    ``replay_hand(k, on_step)`` replays hand ``k`` again from its own start for an observer,
    without the hands before it. ``report()`` is the report of what was replayed so far;
    ``done`` tells whether that is the whole record. ``hands`` may be read one at a time.
    """

    def __init__(self, record: Record, path: str = "", index: int = 1, hands: Iterable[Hand] | None = None):
        self.record = record
        self.path = path
        self.index = index
        self.seen: list[Hand] = []  # the hands read so far, in order
        source = record.hands if hands is None else hands
        self._report = RecordReport(path=path, line=record.at.line if record.at else 0, index=index, game=record.game,
                                    players=record.players(), result=record.tag("Result"))
        self._replayer = _Replayer(record, path, None, self._read(source) if hands is not None else None)
        if hands is None:
            self.seen = list(record.hands)
        self._replayer.keep_starts = True
        self._hands = self._replayer.play(self._report)
        self.replayed = 0  # hands replayed so far (or given up)
        self.done = False

    def _read(self, hands: Iterable[Hand]) -> Iterator[Hand]:
        for hand in hands:
            self.seen.append(hand)
            yield hand

    def advance(self, upto: int) -> None:
        """Replay until ``upto`` hands are replayed (the whole record when it has no more)."""
        while not self.done and (self.replayed < upto or self._replayer.final_hand == self.replayed - 1):
            try:
                self.replayed = next(self._hands) + 1
            except StopIteration:
                self.done = True

    def finish(self) -> None:
        """Replay the rest of the record."""
        while not self.done:
            self.advance(self.replayed + 1_000_000)

    def report(self) -> RecordReport:
        report = copy.copy(self._report)
        report.hands = list(self._report.hands)
        report.diagnostics = list(self._replayer.diagnostics)
        report.actions = self._replayer.actions
        report.valid = not any(d.severity == "error" for d in report.diagnostics)
        return report

    def replay_hand(self, k: int, on_step: OnStep) -> bool:
        """Replay hand ``k`` (0-based) from its own start, calling ``on_step`` after every
        event; False when the replay never started it."""
        start = self._replayer.starts.get(k)
        engine = self._replayer.engine
        if start is None or engine is None or k >= len(self.seen):
            return False
        match, unknown = copy.deepcopy(start[0]), set(start[1])
        again = _Replayer(self.record, self.path, on_step)
        again.unknown_totals = unknown
        hand = self.seen[k]
        last = k == self._replayer.final_hand
        hand_report = HandReport(number=hand.number, line=hand.at.line if hand.at else 0)
        again.play_hand(engine, match, hand, k, hand_report, self.record.tag("Result") == "*" and last)
        return True
