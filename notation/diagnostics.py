"""Diagnostics: located, coded messages, and the table of stable codes.

Every problem paifu reports is a :class:`Diagnostic` with a code from :data:`CODES`.
Codes are stable: tests and users match on them. ``docs/errors.md`` lists them all (a
test keeps it in step with this table). An ``error`` makes a record invalid; a ``note``
(what could not be checked, such as a play from an unseen hand) does not.

Code families: P parse and text, R record (tags, options, seats, structure), L legality
(an action the rules forbid), S score (written versus computed), N notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .boundary import Node, described

Severity = Literal["error", "note"]

CODES: dict[str, tuple[Severity, str]] = {
    # text
    "P101": ("error", "syntax error: the text does not follow the notation"),
    "P102": ("error", "unterminated comment, variation or tag: the text ends inside it"),
    "P103": ("error", "not UTF-8 text"),
    "P104": ("error", "binary file (NUL byte)"),
    "P105": ("error", "record too large to read"),
    "P106": ("error", "no record in the file"),
    "P107": ("error", "event before the first hand line"),
    "P108": ("error", "an event must start with a seat (A:) or a lower-case verb"),
    "P109": ("error", "a hand line inside a variation"),
    "P110": ("error", "unreadable path, or not a regular file (a FIFO, socket, device or dangling link: not read, or skipped in a folder)"),
    "P111": ("error", "JSON record does not match the record schema"),
    "P112": ("error", "variations nested too deeply (more than 100 levels)"),
    "P113": ("error", "number too long (more than 1000 digits)"),
    "P114": ("error", "a comment runs over a hand or tag line: a '{' left unclosed"),
    "P117": ("error", "a JSON key written twice in one object"),
    "P118": ("error", "half a surrogate pair in a JSON string (no character; UTF-8 cannot write it)"),
    "P119": ("error", "a JSON record whose text would not read back as the same record"),
    # record
    "R201": ("error", "missing Game tag"),
    "R202": ("error", "unknown game"),
    "R203": ("error", "unknown rules option"),
    "R204": ("error", "bad value for a rules option"),
    "R205": ("error", "malformed Players tag or wrong number of seats"),
    "R206": ("error", "malformed hand line (number, dealer)"),
    "R207": ("error", "record has no hand"),
    "R208": ("error", "malformed score or total line"),
    "R209": ("error", "event after the game ended"),
    "R210": ("error", "malformed Option tag (not key=value)"),
    "R211": ("error", "a Game, Players, Result or Start tag given twice"),
    "R212": ("error", "the Result tag differs from the match's outcome"),
    "R213": ("error", "a second score, total or final line in one hand"),
    "R214": ("error", "a Start tag the game cannot start from (malformed, a seat missing, a sum or state the game forbids)"),
    # legality
    "L301": ("error", "illegal action: the rules forbid it here"),
    "L302": ("error", "out of turn: another seat is to act"),
    "L303": ("error", "card not held: the seat does not hold that card"),
    "L304": ("error", "impossible deal: wrong count, duplicate or unknown card"),
    "L305": ("error", "unknown card or tile token"),
    "L306": ("error", "unknown verb or malformed arguments for this game"),
    "L307": ("error", "the hand is not over where the record says it is"),
    "L308": ("error", "event after the hand ended"),
    "L309": ("error", "unknown seat for this game"),
    "L310": ("error", "irregularity the rules do not provide for"),
    # scores
    "S401": ("error", "written score differs from the computed one"),
    "S402": ("error", "written running total differs from the computed one"),
    "S403": ("error", "written final points differ from the computed ones, or a final line where the game is not over"),
    "I601": ("error", "an imported log's entry cannot be read or mapped (paifu import)"),
    "I602": ("error", "a record cannot be written in the export format (paifu export)"),
    "S404": ("error", "a figure the record keeps (an imported log's yaku, han, fu, points) differs from the replay"),
    "S405": ("error", "written scores or running totals do not add up to what the game's settlement adds up to (0 where the seats only pay each other), whatever cards are unseen"),
    "S406": ("error", "a running total hidden cards leave unchecked is not its total before plus the hand's written score"),
    # notes
    "N501": ("note", "could not be checked: hidden cards"),
    "N502": ("note", "replay stopped after an illegal action; later events not checked (at a later hand: its start cannot be known, and why)"),
    "N503": ("note", "record unfinished (Result \"*\"): the last hand is not over"),
    "N504": ("note", "the Result tag could not be checked: hidden cards hide the totals"),
    "N505": ("note", "a hand replayed from its own deal after a hand that could not be finished"),
    "N506": ("note", "a record that starts from a position stops before the match is over: its end is not checked"),
}


@dataclass(slots=True)
class Diagnostic(Node):
    """One located message: ``path:line:col: CODE message``."""

    code: str
    severity: Severity
    message: str
    path: str = ""
    line: int = 0
    col: int = 0
    rule: str | None = described("the rule text's section (its title and heading) or the ruling (docs/rulings.md) behind it",
                                 default=None)

    def format(self) -> str:
        where = f"{self.path or '<input>'}:{self.line}:{self.col}"
        text = f"{where}: {self.code} {self.message}"
        if self.rule:
            text += f" [{self.rule}]"
        return text


def diag(code: str, message: str, line: int = 0, col: int = 0, rule: str | None = None) -> Diagnostic:
    severity, _ = CODES[code]
    return Diagnostic(code=code, severity=severity, message=message, line=line, col=col, rule=rule)
CODES["X901"] = ("error", "internal error in paifu (a bug: please report it with the record)")


REPORT_BUG = "this is a bug in paifu: please report it with this record"


def internal_error(exc: BaseException, line: int = 0, col: int = 0, path: str = "", what: str = "checking this record") -> Diagnostic:
    """An unexpected exception as the X901 diagnostic of the record (or file) it happened in."""
    d = diag("X901", f"internal error while {what} ({type(exc).__name__}: {str(exc)[:200]}); {REPORT_BUG}", line, col)
    d.path = path
    return d
