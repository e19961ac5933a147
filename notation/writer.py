"""Writing records as canonical text.

Canonical text: tags one per line in their order, a blank line, the opening comments,
then each hand (a blank line between hands), one event per line as
``SEAT: verb args glyphs {comments}``, each variation on its own lines after its event,
indented two spaces per depth. Reading canonical text and writing it again gives the same
text; writing a record and reading it back gives the same record (all but positions).
"""

from __future__ import annotations

from typing import Iterable

from .cards import Spelling, spelling_for_game, write_cards
from .model import Arg, CardsArg, Event, Hand, NumArg, OptionArg, Record, SeatArg, Variation, WordArg


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_arg(arg: Arg, spelling: Spelling | None) -> str:
    if isinstance(arg, CardsArg):
        return write_cards(spelling, arg.cards)
    if isinstance(arg, NumArg):
        return f"{arg.value:+d}" if arg.signed else str(arg.value)
    if isinstance(arg, WordArg):
        return arg.text
    if isinstance(arg, OptionArg):
        return f"{arg.key}={arg.value}"
    if isinstance(arg, SeatArg):
        return f"{arg.seat}:"
    raise TypeError(f"not an argument: {arg!r}")


def _annotations(glyphs: list[str], comments: list[str]) -> list[str]:
    return list(glyphs) + ["{" + c + "}" for c in comments]


def write_event(event: Event, spelling: Spelling | None) -> str:
    """One event on one line, without its variations."""
    parts = [f"{event.seat}:"] if event.seat else []
    if event.verb:
        parts.append(event.verb)
    parts.extend(write_arg(a, spelling) for a in event.args)
    parts.extend(_annotations(event.glyphs, event.comments))
    return " ".join(parts)


def _write_line(events: list[Event], spelling: Spelling | None, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    for event in events:
        out.append(pad + write_event(event, spelling))
        for var in event.variations:
            _write_variation(var, spelling, depth + 1, out)


def _write_variation(var: Variation, spelling: Spelling | None, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    inner: list[str] = []
    if var.comments:
        inner.append(pad + "  " + " ".join("{" + c + "}" for c in var.comments))
    _write_line(var.events, spelling, depth, inner)
    if not inner:
        out.append(pad + "( )")
        return
    first = inner[0].lstrip()
    inner[0] = pad + "( " + first
    for i in range(1, len(inner)):
        inner[i] = "  " + inner[i]
    inner[-1] += " )"
    out.extend(inner)


def write_hand(hand: Hand, spelling: Spelling | None) -> list[str]:
    head = ["hand"] + [write_arg(a, spelling) for a in hand.args] + _annotations(hand.glyphs, hand.comments)
    out = [" ".join(head)]
    _write_line(hand.events, spelling, 0, out)
    return out


def write_record(record: Record) -> str:
    """The canonical text of one record, ending with a newline."""
    spelling = spelling_for_game(record.game)
    lines = [f"[{t.name} {_quote(t.value)}]" for t in record.tags]
    body: list[str] = ["{" + c + "}" for c in record.comments]
    for i, hand in enumerate(record.hands):
        if i or body:
            body.append("")
        body.extend(write_hand(hand, spelling))
    if lines and body:
        lines.append("")
    lines.extend(body)
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record]) -> str:
    """Several records, a blank line between them."""
    return "\n".join(write_record(r) for r in records)
