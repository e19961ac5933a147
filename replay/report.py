"""The validation report: the JSON document ``paifu validate --json`` prints.

Its JSON Schema is generated from these models (``paifu schema report``) and checked in
as ``schemas/report.schema.json``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from paifu.notation.cards import GAME_FAMILY
from paifu.notation.diagnostics import Diagnostic


class ScoreItemOut(BaseModel):
    seat: str
    name: str
    value: int
    term: str = ""
    detail: str = ""


class PaymentOut(BaseModel):
    payer: str
    payee: str
    amount: int
    reason: str = ""


class HandReport(BaseModel):
    """One hand: the computed settlement beside the written score, and running totals."""

    number: int | None = None
    line: int = 0
    over: bool = False
    computed: dict[str, int] | None = Field(default=None, description="each seat's gain or loss as the rules give it")
    written: dict[str, int] | None = Field(default=None, description="the record's score line")
    unknown: list[str] = Field(default_factory=list, description="seats whose figure in 'computed' hidden cards leave unknown: "
                               "not checked against the score line (their running totals are unknown from this hand on)")
    items: list[ScoreItemOut] = Field(default_factory=list)
    payments: list[PaymentOut] = Field(default_factory=list)
    totals: dict[str, int] = Field(default_factory=dict, description="running totals after this hand")
    final: dict[str, int] | None = Field(default=None, description="the final settlement checked by a 'final' line after the game's last hand")
    final_items: list[ScoreItemOut] = Field(default_factory=list)


class RecordReport(BaseModel):
    path: str = ""
    line: int = 0
    index: int = Field(default=0, description="1-based position of the record in its file")
    game: str | None = None
    players: dict[str, str] = Field(default_factory=dict)
    result: str | None = None
    valid: bool = False
    actions: int = Field(default=0, description="actions replayed (main line and variations)")
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    hands: list[HandReport] = Field(default_factory=list)
    totals: dict[str, int] = Field(default_factory=dict)


class Summary(BaseModel):
    records: int = 0
    valid: int = 0
    invalid: int = 0
    errors: int = 0
    notes: int = 0


class Report(BaseModel):
    """Everything ``paifu validate`` found, record by record."""

    records: list[RecordReport] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)


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
