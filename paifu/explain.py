"""The settlement of each hand, for people: what ``paifu validate --explain`` prints.

A pure function of the report (:class:`paifu.replay.report.RecordReport`, with its hands):
:func:`explain` turns it into rows: each scoring item with its value in the game's own
terms, who pays whom, each seat's written and computed figure and running total, and,
where the written line differs, the seats it differs for with the items and payments that
make up their figures. The command line only lays the rows out (a table on a terminal,
plain columns when piped).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from paifu.notation.diagnostics import Diagnostic
from paifu.replay.report import HandReport, PaymentOut, RecordReport, ScoreItemOut

SCORE_CODES = ("S401", "S405")
"""The codes of a written score line that differs (its line is the one shown)."""


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One scoring item: the seat it counts for, its name in the rule text's terms and in
    English, its value and how the rules state it (``2 飜``, ``20 fu``, ``6 胡息``, ``×2``)."""

    seat: str
    item: str
    value: int
    detail: str
    differs: bool = False  # it counts for a seat whose written figure differs


@dataclass(frozen=True, slots=True)
class PaymentRow:
    payer: str
    payee: str
    amount: int
    reason: str
    differs: bool = False  # payer or payee is a seat whose written figure differs


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat's figure for the hand as written and as the rules give it, and its running
    total after the hand (None: not known, hidden cards)."""

    seat: str
    name: str
    written: int | None
    computed: int | None
    total: int | None
    unknown: bool = False  # hidden cards leave the computed figure unknown: it is not checked
    total_unknown: bool = False  # and the running total, from the first such hand on

    @property
    def differs(self) -> bool:
        return (not self.unknown and self.written is not None and self.computed is not None
                and self.written != self.computed)


@dataclass(frozen=True, slots=True)
class Difference:
    """A seat whose written figure is not the computed one, and what its figure is made of."""

    seat: str
    written: int
    computed: int
    items: tuple[ItemRow, ...]
    payments: tuple[PaymentRow, ...]

    def lines(self) -> list[str]:
        """``B: written -36, computed -72 (36 more than the rules give), from:`` then one line
        per item and payment that goes into the seat's figure."""
        gap = self.written - self.computed
        made = [f"{r.item}: {r.detail or r.value}" for r in self.items]
        made += [f"{r.payer} pays {r.payee} {r.amount}" + (f" ({r.reason})" if r.reason and r.reason != str(r.amount) else "")
                 for r in self.payments]
        head = (f"{self.seat}: written {signed(self.written)}, computed {signed(self.computed)} "
                f"({abs(gap)} {'more' if gap > 0 else 'less'} than the rules give)")
        return [head + (", from:" if made else ""), *("  " + m for m in made)]


@dataclass(frozen=True, slots=True)
class HandExplanation:
    number: int | None
    line: int
    over: bool
    items: tuple[ItemRow, ...]
    payments: tuple[PaymentRow, ...]
    seats: tuple[SeatRow, ...]
    score_line: int  # the written score line's line where it differs (0: it agrees, or no line)
    differences: tuple[Difference, ...]
    diagnostics: tuple[Diagnostic, ...]  # the hand's errors (and notes), in order
    final: tuple[SeatRow, ...] = ()  # the final settlement after the game's last hand
    final_items: tuple[ItemRow, ...] = ()

    @property
    def agrees(self) -> bool:
        return not self.differences


@dataclass(frozen=True, slots=True)
class RecordExplanation:
    path: str
    line: int
    index: int
    game: str | None
    players: dict[str, str]
    valid: bool
    hands: tuple[HandExplanation, ...]
    diagnostics: tuple[Diagnostic, ...] = field(default=())  # the record's own, before its first hand


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def item_name(item: ScoreItemOut) -> str:
    """An item as the rule text names it, then in English: ``開口 open``."""
    if item.term and item.term != item.name:
        return f"{item.term} {item.name}" if item.name else item.term
    return item.name or item.term


def _item_rows(items: list[ScoreItemOut], differing: set[str]) -> tuple[ItemRow, ...]:
    return tuple(ItemRow(i.seat, item_name(i), i.value, i.detail, i.seat in differing) for i in items)


def _payment_rows(payments: list[PaymentOut], differing: set[str]) -> tuple[PaymentRow, ...]:
    return tuple(PaymentRow(p.payer, p.payee, p.amount, p.reason, bool({p.payer, p.payee} & differing)) for p in payments)


def _seat_rows(seats: list[str], names: dict[str, str], written: dict[str, int] | None,
               computed: dict[str, int] | None, totals: dict[str, int], unknown: set[str] = frozenset(),  # type: ignore[assignment]
               totals_unknown: set[str] = frozenset()) -> tuple[SeatRow, ...]:  # type: ignore[assignment]
    return tuple(SeatRow(s, names.get(s, ""), (written or {}).get(s), (computed or {}).get(s), totals.get(s),
                         s in unknown, s in totals_unknown) for s in seats)


def _seats_of(report: RecordReport, hand: HandReport) -> list[str]:
    seen = [*report.players, *(hand.computed or {}), *(hand.written or {}), *hand.totals]
    return sorted(dict.fromkeys(seen))


def explain_hand(report: RecordReport, hand: HandReport, diagnostics: list[Diagnostic],
                 totals_unknown: set[str] = frozenset()) -> HandExplanation:  # type: ignore[assignment]
    """One hand's rows; ``totals_unknown``: the seats whose running total hidden cards left
    unknown in a hand before (this hand's ``unknown`` seats join them)."""
    seats = _seats_of(report, hand)
    rows = _seat_rows(seats, report.players, hand.written, hand.computed, hand.totals, set(hand.unknown),
                      set(totals_unknown) | set(hand.unknown))
    differing = {r.seat for r in rows if r.differs}
    items = _item_rows(hand.items, differing)
    payments = _payment_rows(hand.payments, differing)
    differences = tuple(
        Difference(r.seat, r.written, r.computed, tuple(i for i in items if i.seat == r.seat),  # type: ignore[arg-type]
                   tuple(p for p in payments if r.seat in (p.payer, p.payee)))
        for r in rows if r.differs)
    score_line = next((d.line for d in diagnostics if d.code in SCORE_CODES), 0) if differences else 0
    final = _seat_rows(seats, report.players, None, hand.final, {}) if hand.final is not None else ()
    return HandExplanation(hand.number, hand.line, hand.over, items, payments, rows, score_line, differences,
                           tuple(diagnostics), final, _item_rows(hand.final_items, set()))


def explain(report: RecordReport, hand: int | None = None) -> RecordExplanation:
    """The rows of every hand of a report (only hand number ``hand`` when given), each with
    the diagnostics located between its hand line and the next one."""
    starts = [h.line for h in report.hands]
    ahead: list[Diagnostic] = []
    by_hand: list[list[Diagnostic]] = [[] for _ in report.hands]
    for d in report.diagnostics:
        k = _hand_at(starts, d.line)
        (ahead if k < 0 else by_hand[k]).append(d)
    hands = []
    unknown: set[str] = set()
    for k, h in enumerate(report.hands):
        if hand is None or h.number == hand:
            hands.append(explain_hand(report, h, by_hand[k], unknown))
        unknown |= set(h.unknown)
    return RecordExplanation(report.path, report.line, report.index, report.game, dict(report.players),
                             report.valid, tuple(hands), tuple(ahead))


def _hand_at(starts: list[int], line: int) -> int:
    """The index of the hand whose text holds ``line`` (-1: before the first hand)."""
    return bisect_right(starts, line) - 1
