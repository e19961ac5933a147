"""paifu's notation: text <-> record model. Knows spelling and syntax, nothing of rules.

    >>> from paifu.notation import parse, write_record
    >>> record = parse('[Game "bigtwo"]\\n\\nhand 1 dealer=D\\nA: 3C\\n')
    >>> record.hands[0].events[0].cards()
    ['3C']
    >>> write_record(record).splitlines()[-1]
    'A: 3C'
"""

from .cards import GAME_FAMILY, SPELLINGS, UNKNOWN, spelling_for_game
from .diagnostics import CODES, Diagnostic, diag
from .model import (
    Arg,
    CardsArg,
    Event,
    Hand,
    NumArg,
    OptionArg,
    Pos,
    Record,
    SeatArg,
    Tag,
    Variation,
    WordArg,
    content,
    same_content,
    walk_events,
)
from .reader import ParseError, ReadResult, iter_paths, parse, parse_all, parse_chunk, read_path, read_stream, read_text
from .writer import write_event, write_record, write_records

__all__ = [
    "GAME_FAMILY", "SPELLINGS", "UNKNOWN", "spelling_for_game", "CODES", "Diagnostic", "diag",
    "Arg", "CardsArg", "Event", "Hand", "NumArg", "OptionArg", "Pos", "Record", "SeatArg", "Tag",
    "Variation", "WordArg", "content", "same_content", "walk_events", "ParseError", "ReadResult",
    "iter_paths", "parse", "parse_all", "parse_chunk", "read_path", "read_stream", "read_text",
    "write_event", "write_record", "write_records",
]
