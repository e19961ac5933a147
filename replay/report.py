"""The validation report: the JSON document ``paifu validate --json`` prints.

Its JSON Schema is generated from these models (``paifu schema report``) and checked in
as ``schemas/report.schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paifu.notation.boundary import Node, described
from paifu.notation.cards import GAME_FAMILY
from paifu.notation.diagnostics import Diagnostic


@dataclass(slots=True)
class ScoreItemOut(Node):
    seat: str
    name: str
    value: int
    term: str = ""
    detail: str = ""


@dataclass(slots=True)
class PaymentOut(Node):
    payer: str
    payee: str
    amount: int
    reason: str = ""


@dataclass(slots=True)
class HandReport(Node):
    """One hand: the computed settlement beside the written score, and running totals."""

    number: int | None = None
    line: int = 0
    over: bool = False
    computed: dict[str, int] | None = described("each seat's gain or loss as the rules give it", default=None)
    written: dict[str, int] | None = described("the record's score line", default=None)
    unknown: list[str] = described("seats whose figure in 'computed' hidden cards leave unknown: not checked against the "
                                   "score line (their running totals are unknown from this hand on)", default_factory=list)
    items: list[ScoreItemOut] = field(default_factory=list)
    payments: list[PaymentOut] = field(default_factory=list)
    totals: dict[str, int] = described("running totals after this hand", default_factory=dict)
    final: dict[str, int] | None = described("the final settlement checked by a 'final' line after the game's last hand",
                                             default=None)
    final_items: list[ScoreItemOut] = field(default_factory=list)


@dataclass(slots=True)
class RecordReport(Node):
    path: str = ""
    line: int = 0
    index: int = described("1-based position of the record in its file", default=0)
    game: str | None = None
    players: dict[str, str] = field(default_factory=dict)
    result: str | None = None
    valid: bool = False
    actions: int = described("actions replayed (main line and variations)", default=0)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    hands: list[HandReport] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Summary(Node):
    records: int = 0
    valid: int = 0
    invalid: int = 0
    errors: int = 0
    notes: int = 0


@dataclass(slots=True)
class Report(Node):
    """Everything ``paifu validate`` found, record by record."""

    records: list[RecordReport] = field(default_factory=list)
    summary: Summary = field(default_factory=Summary)


def summarize(records: list[RecordReport]) -> Summary:
    """Counts over the reports; an unreadable path (index 0) counts its error, not a record."""
    s = Summary(records=sum(1 for r in records if r.index))
    for r in records:
        if r.index:
            s.valid += r.valid
            s.invalid += not r.valid
        s.errors += sum(d.severity == "error" for d in r.diagnostics)
        s.notes += sum(d.severity == "note" for d in r.diagnostics)
    return s


NOTE_KINDS: dict[str, str] = {
    "N501": "unseen {pieces} taken on trust",
    "N502": "events not replayed after an illegal action",
    "N503": "record unfinished",
    "N504": "Result not checked: hidden {pieces} hide the totals",
    "N505": "hand replayed from its own deal",
}
"""What each note code says, in the one line that sums up a record's notes."""


def notes_summary(report: RecordReport) -> str:
    """One line for a record's notes, '' when it has none: ``12 notes: unseen tiles taken on
    trust (N501)``, or per kind where there are several (``3 notes: 2 unseen cards taken on
    trust (N501), 1 record unfinished (N503)``)."""
    counts: dict[str, int] = {}
    for d in report.diagnostics:
        if d.severity == "note":
            counts[d.code] = counts.get(d.code, 0) + 1
    if not counts:
        return ""
    pieces = "tiles" if GAME_FAMILY.get(report.game or "") == "tiles" else "cards"
    total = sum(counts.values())

    def kind(code: str) -> str:
        return NOTE_KINDS.get(code, "could not be checked").format(pieces=pieces) + f" ({code})"

    head = f"{total} note{'s' if total != 1 else ''}: "
    if len(counts) == 1:
        return head + kind(next(iter(counts)))
    return head + ", ".join(f"{n} {kind(code)}" for code, n in counts.items())
