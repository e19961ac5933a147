"""Reading paifu text: split a stream into records, read each by the notation's grammar.

A file is read line by line and cut into records (a record starts at a tag line that
follows a body), so an archive of any size is read one record at a time and bad bytes
in one record never stop the next.

The grammar (``paifu.lark``, LALR) defines the notation. A record is read by a token walk
whose scanner is built from the grammar's own terminals: the terminals that can follow
one another are told apart by their first character, so a scan that matches a terminal
at every position gives the tokens Lark's lexer gives, and the walk over them builds the
record model as it goes (no parse tree, no per-token parser state). Where the scan or the
walk meets anything the grammar may reject (a character no terminal matches, a ``)``
that closes nothing, a record that ends inside a variation, a malformed tag) the record
is parsed again by Lark itself, whose error becomes the located message: the fast walk
only ever reads what the grammar accepts, and Lark says what is wrong with the rest.
Both feed the same :class:`_Builder`, which classifies each item with the card spelling
of the record's game. Problems become located :class:`Diagnostic` objects.
"""

from __future__ import annotations

import errno
import gc
import io
import os
import re
import stat
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from .cards import Spelling, read_unknowns, spelling_for_game
from .diagnostics import Diagnostic, diag
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
)

MAX_RECORD_BYTES = 8 * 1024 * 1024
MAX_VARIATION_DEPTH = 100  # variations inside variations: deeper nesting is refused (P112)
MAX_NUMBER_DIGITS = 1000  # a longer number is refused (P113); Python reads at most 4300
MAX_LINE_BYTES = 1024 * 1024
SNIFF_BYTES = 8192

_VERB_RE = re.compile(r"^[a-z][a-z0-9_\-]*$")
_NUM_RE = re.compile(r"^[+-]?[0-9]+$")
_TAG_LINE_RE = re.compile(r"^\s*\[")
_PART_RE = re.compile(r"\S+")
_KIND_CACHE: dict[str, dict[str, tuple[int, Any]]] = {}
_CARDS_CACHE: dict[str, dict[str, list[str]]] = {}
_SINGLE_CACHE: dict[str, dict[str, str]] = {}
_LINE_CACHE: dict[str, dict[str, tuple]] = {}
_CACHE_LIMIT = 50_000  # entries per cache: an archive of odd words must not grow it forever
_CACHED_NUMBER = 6  # numbers this short recur (scores, totals); a cache of longer ones would only grow
_CACHED_LINE = 16  # event lines this short recur ("B: pass", "A: discard 5p") and are cached whole
_pos = tuple.__new__  # Pos(line, col) without NamedTuple's Python-level __new__

# what an item is: its kind code and payload (cached per spelling family)
_CARDS, _WORD, _NUM, _BIGNUM, _OPTION, _SEAT = range(6)


@dataclass
class Chunk:
    """The text of one record and where it starts in its file."""

    text: str
    line: int
    diagnostics: list[Diagnostic] = field(default_factory=list)
    offset: int = 0  # the byte offset of its first line in the stream


@dataclass
class ReadResult:
    """One record as read: the model (None when the text could not be parsed) and problems."""

    record: Record | None
    diagnostics: list[Diagnostic]
    line: int
    path: str = ""

    @property
    def ok(self) -> bool:
        return self.record is not None and not any(d.severity == "error" for d in self.diagnostics)


# -- the grammar: Lark's parser (the definition, and the reader of what the walk refuses) --
class _Raw:
    __slots__ = ("kind", "items", "line", "col")

    def __init__(self, kind: str, items: list, line: int, col: int):
        self.kind, self.items, self.line, self.col = kind, items, line, col


class _ToRaw(Transformer):
    """Builds light tuples during Lark's parse (no tree): tags, and the body's tokens with
    variations as :class:`_Raw` lists; :func:`_feed_lark` hands them to the builder."""

    def tag(self, children: list[Token]) -> tuple[str, str, int, int]:
        name, value = children
        return str(name), _unquote(str(value)), name.line, name.column - 1

    def variation(self, children: list) -> _Raw:
        lpar = children[0]  # where the '(' stands: an empty variation is located by it
        return _Raw("variation", children[1:], lpar.line, lpar.column)

    def body(self, children: list) -> list:
        return children

    def start(self, children: list) -> tuple[list[tuple[str, str, int, int]], list]:
        """The tags, and the body's tokens after the comments among and after the tags (the
        record's own comments, as the body's comments before its first event are)."""
        body = children[-1] if children and isinstance(children[-1], list) else []
        return [c for c in children if isinstance(c, tuple)], [c for c in children if isinstance(c, Token)] + body


_UNQUOTE_RE = re.compile(r"\\(.)")


def _unquote(s: str) -> str:
    inner = s[1:-1]
    return _UNQUOTE_RE.sub(r"\1", inner) if "\\" in inner else inner


_GRAMMAR = (Path(__file__).with_name("paifu.lark")).read_text(encoding="utf-8")
_PARSER = Lark(_GRAMMAR, parser="lalr", lexer="contextual", transformer=_ToRaw())

# -- the walk's scanner, built from the grammar's terminals ------------------------------
_TERMINALS = {t.name: t.pattern.to_regexp() for t in _PARSER.terminals}
_IGNORE = "|".join(_TERMINALS[name] for name in _PARSER.ignore_tokens)
# A body's terminals; each begins with characters no other one begins with (EVENT never
# with whitespace or {}()[]"!?), so the first that matches is the one Lark's lexer takes.
_BODY_RE = re.compile("|".join(f"(?P<{name}>{_TERMINALS[name]})" for name in ("EVENT", "_NL", "COMMENT", "GLYPH", "LPAR", "RPAR"))
                      + f"|(?P<IGNORE>{_IGNORE})|(?P<OTHER>.)", re.S)
_TAG_RE = re.compile(r"{lsqb}(?:{ws})?(?P<name>{name})(?:{ws})?(?P<value>{string})(?:{ws})?{rsqb}".format(
    lsqb=_TERMINALS["LSQB"], rsqb=_TERMINALS["RSQB"], ws=_IGNORE, name=_TERMINALS["TAG_NAME"], string=_TERMINALS["STRING"]))
_HEAD_SKIP_RE = re.compile(f"(?:{_TERMINALS['_NL']}|{_IGNORE})*")
_COMMENT_RE = re.compile(_TERMINALS["COMMENT"])
# A line inside a comment that reads as a hand line (hand, then a number or key=value items)
# or as a tag line: the comment was left open (P114).
_SWALLOWED_RE = re.compile(r"[ \t\u3000]*(?:(?P<hand>hand(?:[ \t\u3000]+(?:[+-]?[0-9]+|[a-z][a-z0-9_]*=\S*))+[ \t\u3000]*$)"
                           r"|(?P<tag>\[[A-Za-z][A-Za-z0-9_]*[ \t\u3000]*\"))")
_EVENT_GROUP = _BODY_RE.groupindex["EVENT"]
# A body with none of these is one EVENT token per line that is not blank (_walk_lines).
_NOT_SPACE_OR_NL_RE = re.compile(r"[^\S \n]")
_ASCII_OTHER_SPACES = "\t\r\x0b\x0c\x1c\x1d\x1e\x1f"  # ASCII white space but ' ' and '\n'
_NOT_PLAIN = '{}()[]"!?'


def _spaces_only(text: str, pos: int) -> bool:
    """Whether the text from ``pos`` on has no white space but spaces and line breaks (an
    ASCII text is searched for each character by str.find, many times faster than a regex
    matching a set at every character)."""
    if text.isascii():
        return not any(text.find(c, pos) >= 0 for c in _ASCII_OTHER_SPACES)
    return _NOT_SPACE_OR_NL_RE.search(text, pos) is None


class _Refused(Exception):
    """The walk met text the grammar may reject: Lark reads the record instead."""


class _Frame:
    """A line being built: the record's body (its hands) or a variation's."""

    __slots__ = ("events", "hands", "owner_comments", "depth", "last", "variation", "skip")

    def __init__(self, events: list, hands: list | None, owner_comments: list | None, depth: int,
                 variation: Variation | None = None, skip: bool = False):
        self.events, self.hands, self.owner_comments, self.depth = events, hands, owner_comments, depth
        self.last: Event | Hand | None = None
        self.variation, self.skip = variation, skip


class _Builder:
    """Turns the body's tokens into the record model, collecting structural problems.

    Fed token by token (by the walk or by Lark's output): events, comments, glyphs, and
    the '(' and ')' of variations. At top level, ``hand`` lines open hands.
    """

    def __init__(self, spelling: Spelling | None, line_offset: int, owner_comments: list[str] | None):
        self.spelling = spelling
        self.offset = line_offset
        self.problems: list[Diagnostic] = []
        family = spelling.family if spelling else ""
        self.kinds = _KIND_CACHE.setdefault(family, {})
        self.cards = _CARDS_CACHE.setdefault(family, {})  # the card items among them: text -> codes
        self.single = _SINGLE_CACHE.setdefault(family, {})  # the one-card items: text -> code
        self.lines = _LINE_CACHE.setdefault(family, {})
        if len(self.kinds) > _CACHE_LIMIT:
            self.kinds.clear()
            self.cards.clear()
            self.single.clear()
        if len(self.lines) > _CACHE_LIMIT:
            self.lines.clear()
        self.apart = bool(spelling and spelling.apart)  # adjacent card tokens make one run
        self.hands: list[Hand] = []
        self.spaced = False  # whether the body's items are separated by spaces only (see spaced_event)
        self.frame = _Frame([], self.hands, owner_comments, 0)
        self.stack: list[_Frame] = []

    # -- items -------------------------------------------------------------------------
    def classify(self, text: str) -> tuple[int, Any]:
        """What an item is, by its text alone (cached: the same items recur on every line)."""
        kind = self.kinds.get(text)
        if kind is not None:
            return kind
        spelling = self.spelling
        if len(text) == 2 and text[1] == ":" and "A" <= text[0] <= "Z":
            kind = _SEAT, text[0]
        elif "=" in text and not text.startswith("="):
            key, _, value = text.partition("=")
            kind = _OPTION, (key, value)
        else:
            cards = spelling.read(text) if spelling is not None else None
            if cards is None:
                cards = read_unknowns(text)
            if cards is not None:
                kind = _CARDS, cards
            elif _NUM_RE.match(text):
                kind = (_BIGNUM, None) if len(text.lstrip("+-")) > MAX_NUMBER_DIGITS else (_NUM, (int(text), text[0] in "+-"))
            else:
                kind = _WORD, text
        # only short items recur; a long one would pin its text in the cache, and so would
        # the numbers of score and total lines, which seldom come twice
        if len(text) <= 32 and (kind[0] != _NUM or len(text) <= _CACHED_NUMBER):
            self.kinds[text] = kind
            if kind[0] == _CARDS:
                self.cards[text] = kind[1]
                if len(kind[1]) == 1:
                    self.single[text] = kind[1][0]
        return kind

    def template(self, s: str) -> tuple | None:
        """An event line (stripped) as (seat, verb, items, ok): each item its kind, payload,
        column offset and text; ok is false when the line cannot start an event (P108)."""
        parts = s.split()
        if parts == s.split(" "):  # single spaces: columns by arithmetic
            offsets = []
            at = 0
            for p in parts:
                offsets.append(at)
                at += len(p) + 1
        else:
            parts, offsets = [], []
            for m in _PART_RE.finditer(s):
                parts.append(m.group())
                offsets.append(m.start())
        head = parts[0]
        seat = verb = None
        start = 1
        if len(head) >= 2 and head[1] == ":" and "A" <= head[0] <= "Z":
            seat = head[0]
            if len(head) > 2:  # "A:3C" written without a space
                parts[0], offsets[0] = head[2:], offsets[0] + 2
                start = 0
        items = []
        for i in range(start, len(parts)):
            kind, payload = self.classify(parts[i])
            items.append((kind, payload, offsets[i], parts[i]))
        # a card item's last field is its run as written (none: one token), others' their text
        items = _runs(items, s) if self.apart else [(k, p, dx, None if k == _CARDS else w) for k, p, dx, w in items]
        if seat is not None:
            if items and items[0][0] == _WORD and _VERB_RE.match(items[0][1]):
                verb = items[0][1]
                del items[0]
        elif _VERB_RE.match(head):
            verb = head
        else:
            return None, None, tuple(items), False
        return seat, verb, tuple(items), True

    def bad_head(self, s: str, line: int, col: int) -> None:
        head = s.split()[0]
        if len(head) == 1 and "A" <= head <= "Z":
            hint = f"a seat is followed by ':', as in '{head}: {s[1:].strip()}'"
        elif len(head) >= 2 and head[1] == ":" and "a" <= head[0] <= "z":
            hint = f"seats are capital letters, as in '{head[0].upper()}: {s[2:].strip()}'"
        else:
            hint = f"write 'A: {s}' for a seat's play, or start with a lower-case verb"
        self.problems.append(diag("P108", f"'{head}' cannot start an event: {hint}", line, col))

    # -- the body's tokens ---------------------------------------------------------------
    def on_event(self, text: str, line: int, col: int) -> None:
        """An EVENT token (its text may end in line breaks and indentation)."""
        if not self.frame.skip:
            self.event(text.rstrip(), line, col)

    def event(self, s: str, line: int, col: int) -> None:
        """One event line, stripped, starting at (line, col): the hot path."""
        tpl = self.lines.get(s)
        if tpl is None:
            if len(s) > _CACHED_LINE:
                if self.spaced and "  " not in s:
                    self.spaced_event(s, line, col)
                    return
                tpl = self.template(s)
            else:
                tpl = self.lines[s] = self.template(s)
        self.build(tpl, s, line, col)

    def build(self, tpl: tuple, s: str, line: int, col: int) -> None:
        """The event of a line's template (see :meth:`template`)."""
        seat, verb, items, ok = tpl
        args: list[Arg] = []
        append = args.append
        for kind, payload, dx, written in items:
            if kind == _CARDS:
                append(CardsArg(payload[:], _pos(Pos, (line, col + dx)), written))
            else:
                append(self.arg(kind, payload, written, line, col + dx))
        if not ok:
            self.bad_head(s, line, col)
            return
        self.attach(seat, verb, args, line, col)

    def attach(self, seat: str | None, verb: str | None, args: list[Arg], line: int, col: int) -> None:
        """A read event (or hand line) joins the line being built."""
        frame = self.frame
        at = _pos(Pos, (line, col))
        if (verb != "hand" or seat is not None) and (frame.hands is None or frame.hands):  # an event in a hand
            frame.last = ev = Event(seat, verb, args, [], [], [], at)
            frame.events.append(ev)
            return
        if seat is None and verb == "hand":
            if frame.hands is None:
                self.problems.append(diag("P109", "a variation cannot open a new hand; close it with ')' first", line, col))
                return
            hand = Hand(args, [], [], [], at)
            frame.hands.append(hand)
            frame.events = hand.events
            frame.last = hand
            return
        if frame.hands is not None and not frame.hands:
            self.problems.append(diag("P107", "this event comes before the first hand line ('hand 1 dealer=A')", line, col))
            return
        ev = Event(seat, verb, args, [], [], [], at)
        frame.events.append(ev)
        frame.last = ev

    def spaced_event(self, s: str, line: int, col: int) -> None:
        """An event line whose items are separated by single spaces (no other white space):
        what :meth:`template` and :meth:`build` do, in one pass without the template."""
        parts = s.split(" ")
        head = parts[0]
        seat = verb = None
        if len(head) >= 2 and head[1] == ":" and "A" <= head[0] <= "Z":
            seat = head[0]
            if len(head) > 2:  # "A:3C" written without a space
                parts[0] = head[2:]
                at = col + 2
            else:
                del parts[0]
                at = col + 3
            if parts and parts[0] not in self.cards:
                first = parts[0]
                if self.classify(first)[0] == _WORD and _VERB_RE.match(first):
                    verb = first
                    at += len(first) + 1
                    del parts[0]
        elif _VERB_RE.match(head):
            verb = head
            del parts[0]
            at = col + len(head) + 1
        else:  # not an event's head: the general path says why (P108)
            self.build(self.template(s), s, line, col)
            return
        cards_of = self.cards.get
        kind_of = self.kinds.get
        args: list[Arg] = []
        append = args.append
        if not self.apart:
            for part in parts:
                cards = cards_of(part)
                if cards is not None:
                    append(CardsArg(cards[:], _pos(Pos, (line, at))))
                else:
                    code, payload = kind_of(part) or self.classify(part)
                    append(self.arg(code, payload, part, line, at))
                at += len(part) + 1
            self.attach(seat, verb, args, line, col)
            return
        # cards written apart: each run of adjacent card tokens is one item. The lines that
        # carry most cards (deal and stock lines, plays) are one run, after at most one other
        # item (the seat a deal line names): those are read by C-level list operations.
        codes = list(map(self.single.get, parts))  # the code of each one-card token
        nones = codes.count(None)
        if nones == 0 or (nones == 1 and codes[0] is None):
            if nones:
                part = parts[0]
                code, payload = kind_of(part) or self.classify(part)
                if code == _CARDS:  # several cards (``***``) then single ones
                    self.apart_event(parts, seat, verb, s, line, col, at)
                    return
                append(self.arg(code, payload, part, line, at))
                at += len(part) + 1
                del codes[0]
            if len(codes) > 1:
                append(CardsArg(codes, _pos(Pos, (line, at)), s[at - col:]))
            elif codes:
                append(CardsArg(codes, _pos(Pos, (line, at))))
            self.attach(seat, verb, args, line, col)
            return
        self.apart_event(parts, seat, verb, s, line, col, at)

    def apart_event(self, parts: list[str], seat: str | None, verb: str | None, s: str,
                    line: int, col: int, at: int) -> None:
        """The items ``parts`` of a line ``s`` written with single spaces, starting at column
        ``at``, where cards are written apart: each run of adjacent card tokens is one item."""
        cards_of = self.cards.get
        kind_of = self.kinds.get
        args: list[Arg] = []
        append = args.append
        run: list[str] | None = None  # the cards of the run being read
        first = at  # its column
        tokens = 0  # its tokens
        for part in parts:
            cards = cards_of(part)
            if cards is None:
                code, payload = kind_of(part) or self.classify(part)
                if code == _CARDS:  # a card token too long for the cache (a run of stars)
                    cards = payload
            if cards is not None:
                if run is None:
                    run = cards[:]
                    append(CardsArg(run, _pos(Pos, (line, at))))
                    first, tokens = at, 1
                else:
                    run += cards
                    tokens += 1
            else:
                if tokens > 1:
                    args[-1].written = s[first - col:at - col - 1]  # type: ignore[union-attr]
                run, tokens = None, 0
                append(self.arg(code, payload, part, line, at))
            at += len(part) + 1
        if tokens > 1:
            args[-1].written = s[first - col:]  # type: ignore[union-attr]
        self.attach(seat, verb, args, line, col)

    def arg(self, kind: int, payload: Any, written: str, line: int, col: int) -> Arg:
        """The argument of a classified item (cards are built inline by the callers, the hot case)."""
        at = _pos(Pos, (line, col))
        if kind == _WORD:
            return WordArg(payload, at)
        if kind == _NUM:
            return NumArg(payload[0], payload[1], at)
        if kind == _CARDS:
            return CardsArg(payload[:], at)
        if kind == _OPTION:
            return OptionArg(payload[0], payload[1], at)
        if kind == _SEAT:
            return SeatArg(payload, at)
        digits = len(written.lstrip("+-"))  # a number too long to read
        self.problems.append(diag("P113", f"a number of {digits} digits: paifu reads numbers of at most {MAX_NUMBER_DIGITS} digits", line, col))
        return WordArg(written, at)

    def on_comment(self, text: str, line: int, col: int) -> None:
        """A COMMENT token (braces included) whose '{' stands at (line, col)."""
        frame = self.frame
        if frame.skip:
            return
        if "\n" in text:
            self.swallowed(text, line, col)
        if frame.last is not None:
            frame.last.comments.append(text[1:-1])
        elif frame.owner_comments is not None:
            frame.owner_comments.append(text[1:-1])

    def swallowed(self, text: str, line: int, col: int) -> None:
        """P114 when a comment runs over a line that reads as a hand line or a tag line: a '{'
        left unclosed has taken in the lines after it up to the next '}', which would
        otherwise be reported far away (or not at all), as the lines it swallowed."""
        lines = text[:-1].split("\n")
        for k in range(1, len(lines)):
            found = _SWALLOWED_RE.match(lines[k])
            if found:
                what = "a hand line" if found.lastgroup == "hand" else "a tag line (the next record's)"
                end = line + len(lines) - 1
                self.problems.append(diag("P114", f"this comment is not closed before line {line + k}, which reads as {what}: "
                                                  f"'{lines[k].strip()}'; close it with '}}' (it now runs on to line {end})", line, col))
                return

    def on_glyph(self, text: str, line: int, col: int) -> None:
        frame = self.frame
        if frame.skip:
            return
        if frame.last is None:
            self.problems.append(diag("P101", f"glyph '{text}' must follow an event", line, col))
        else:
            frame.last.glyphs.append(text)

    def on_lpar(self, line: int, col: int) -> None:
        frame = self.frame
        self.stack.append(frame)
        if frame.skip:
            self.frame = _Frame([], None, None, frame.depth + 1, skip=True)
            return
        last = frame.last
        if not isinstance(last, Event):
            self.problems.append(diag("P101", "a variation '(' must follow the event it is an alternative to", line, col))
            self.frame = _Frame([], None, None, frame.depth + 1, skip=True)
            return
        if frame.depth >= MAX_VARIATION_DEPTH:
            self.problems.append(diag("P112", f"variations nested more than {MAX_VARIATION_DEPTH} deep: paifu does not read deeper nesting", line, col))
            self.frame = _Frame([], None, None, frame.depth + 1, skip=True)
            return
        var = Variation()
        last.variations.append(var)
        self.frame = _Frame(var.events, None, var.comments, frame.depth + 1, var)

    def on_rpar(self) -> bool:
        """Close a variation; False when none is open."""
        if not self.stack:
            return False
        var = self.frame.variation
        if var is not None and var.events:
            var.at = var.events[0].at
        self.frame = self.stack.pop()
        return True


def _runs(items: list[tuple], s: str) -> list[tuple]:
    """A line's items (see :meth:`_Builder.template`) with each run of adjacent card tokens
    made one item: its codes, and its text in the line ``s``."""
    out: list[tuple] = []
    i, n = 0, len(items)
    while i < n:
        kind, payload, dx, written = items[i]
        if kind != _CARDS:
            out.append(items[i])
            i += 1
            continue
        if i + 1 == n or items[i + 1][0] != _CARDS:
            out.append((kind, payload, dx, None))
            i += 1
            continue
        cards: list[str] = []
        while i < n and items[i][0] == _CARDS:
            _, codes, end, written = items[i]
            cards += codes
            i += 1
        out.append((_CARDS, cards, dx, s[dx:end + len(written)]))
    return out


def _walk(text: str, offset: int, owner_comments: list[str] | None, game_spelling: bool = True,
          spelling: Spelling | None = None) -> tuple[list[Tag], _Builder]:
    """Read one record's text by the grammar's terminals; raise :class:`_Refused` where the
    grammar may reject it (Lark then reads it and says what is wrong)."""
    tags: list[Tag] = []
    head_comments: list[tuple[str, int, int]] = []  # the record's comments among and after its tags, placed
    pos = _HEAD_SKIP_RE.match(text).end()
    n = len(text)
    line = text.count("\n", 0, pos) + 1
    line_start = text.rfind("\n", 0, pos) + 1
    while pos < n and text[pos] in "[{":
        if text[pos] == "{":
            m = _COMMENT_RE.match(text, pos)
            if m is None:
                raise _Refused
            head_comments.append((m.group(), line + offset, pos - line_start + 1))
        else:
            m = _TAG_RE.match(text, pos)
            if m is None:
                raise _Refused
            name_at = m.start("name")
            tags.append(Tag(m.group("name"), _unquote(m.group("value")), _pos(Pos, (line + offset, name_at - line_start))))
        pos = _HEAD_SKIP_RE.match(text, m.end()).end()
        newlines = text.count("\n", m.start(), pos)  # a comment may span lines
        if newlines:
            line += newlines
            line_start = text.rfind("\n", 0, pos) + 1
    if game_spelling:
        spelling = spelling_for_game(next((t.value for t in tags if t.name == "Game"), None))
    builder = _Builder(spelling, offset, owner_comments)
    for comment in head_comments:
        builder.on_comment(*comment)
    line += offset
    builder.spaced = _spaces_only(text, pos)
    if builder.spaced and not any(text.find(c, pos) >= 0 for c in _NOT_PLAIN):
        _walk_lines(text, pos, line, pos - line_start + 1, builder)
        return tags, builder
    on_event = builder.on_event
    for m in _BODY_RE.finditer(text, pos):
        if m.lastindex == _EVENT_GROUP:
            tok = m.group()
            start = m.start()
            on_event(tok, line, start - line_start + 1)
            if tok[-1] in "\n \t\f\u3000":  # the token takes in the line ends after it
                newlines = tok.count("\n")
                if newlines:
                    line += newlines
                    line_start = start + tok.rindex("\n") + 1
            continue
        kind = m.lastgroup
        if kind == "_NL":
            tok = m.group()
            line += tok.count("\n")
            line_start = m.end()
        elif kind == "IGNORE":
            continue
        elif kind == "COMMENT":
            tok = m.group()
            builder.on_comment(tok, line, m.start() - line_start + 1)
            newlines = tok.count("\n")
            if newlines:
                line += newlines
                line_start = m.start() + tok.rindex("\n") + 1
        elif kind == "GLYPH":
            builder.on_glyph(m.group(), line, m.start() - line_start + 1)
        elif kind == "LPAR":
            builder.on_lpar(line, m.start() - line_start + 1)
        elif kind == "RPAR":
            if not builder.on_rpar():
                raise _Refused
        else:
            raise _Refused
    if builder.stack:
        raise _Refused  # the record ends inside a variation
    return tags, builder


def _walk_lines(text: str, pos: int, line: int, col: int, builder: _Builder) -> None:
    """The walk of a body with no comment, glyph, variation or bracket, whose white space is
    spaces and line breaks: each line that is not blank is one EVENT token."""
    event, build, known = builder.event, builder.build, builder.lines.get
    for raw in text[pos:].split("\n"):
        s = raw.strip()
        if s:
            if raw[0] == " ":
                col = len(raw) - len(raw.lstrip()) + 1
            if s[0] == ":":  # no terminal starts so: Lark says what is wrong
                raise _Refused
            tpl = known(s)
            if tpl is None:
                event(s, line, col)
            else:
                build(tpl, s, line, col)
        line += 1
        col = 1


def _feed_lark(items: list, builder: _Builder) -> None:
    """Hand Lark's output (tokens, variations as :class:`_Raw`) to the builder, in order."""
    stack: list[Iterator] = [iter(items)]
    while stack:
        el = next(stack[-1], None)
        if el is None:
            stack.pop()
            if stack:
                builder.on_rpar()
            continue
        if isinstance(el, _Raw):
            builder.on_lpar(el.line + builder.offset, el.col)
            stack.append(iter(el.items))
        elif el.type == "EVENT":
            builder.on_event(str(el), el.line + builder.offset, el.column)
        elif el.type == "COMMENT":
            builder.on_comment(str(el), el.line + builder.offset, el.column)
        elif el.type == "GLYPH":
            builder.on_glyph(str(el), el.line + builder.offset, el.column)


def _read_with_lark(text: str, offset: int, owner_comments: list[str] | None, game_spelling: bool = True,
                    spelling: Spelling | None = None) -> tuple[list[Tag], _Builder]:
    """Lark's reading of a record: raises ``UnexpectedInput`` with where the grammar rejects it."""
    raw_tags, body = _PARSER.parse(text)
    tags = [Tag(name, value, _pos(Pos, (line + offset, col))) for name, value, line, col in raw_tags]
    if game_spelling:
        spelling = spelling_for_game(next((t.value for t in tags if t.name == "Game"), None))
    builder = _Builder(spelling, offset, owner_comments)
    _feed_lark(body, builder)
    return tags, builder


def _read(text: str, offset: int, owner_comments: list[str] | None, game_spelling: bool = True,
          spelling: Spelling | None = None) -> tuple[list[Tag], _Builder]:
    # The walk makes no reference cycles, so the cycle collector has nothing to find while
    # it runs; left on, it would sweep the young nodes every 700 allocations (half the time).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _walk(text, offset, owner_comments, game_spelling, spelling)
    except _Refused:
        return _read_with_lark(text, offset, owner_comments, game_spelling, spelling)
    finally:
        if collecting:
            gc.enable()


def parse_chunk(text: str, line: int = 1, lark: bool = False) -> ReadResult:
    """Parse the text of one record whose first line is ``line`` of its file (``lark``: by
    Lark's parser alone, as the tests compare)."""
    offset = line - 1
    comments: list[str] = []
    try:
        tags, builder = (_read_with_lark if lark else _read)(text, offset, comments)
    except UnexpectedInput as err:
        return ReadResult(None, [_syntax_diagnostic(err, text, offset)], line)
    except VisitError as err:  # a bug in the transformer must still be a located message
        return ReadResult(None, [diag("P101", f"cannot read this record: {err.orig_exc}", line, 1)], line)
    hands = builder.hands
    record = Record(tags, comments, hands)
    record.at = tags[0].at if tags else (hands[0].at if hands else _pos(Pos, (line, 1)))
    return ReadResult(record, builder.problems, line)


_HAND_LINE_RE = re.compile(r"[ \t\u3000]*hand(?:[ \t\u3000]|$)")
_NESTING_RE = re.compile(r"[{}()]")


def hand_starts(text: str) -> list[tuple[int, int, int]]:
    """Where the hands of one record's text begin: (offset, line, column) of each ``hand``
    line outside comments and variations. Tag lines (the record's head) are skipped."""
    starts: list[tuple[int, int, int]] = []
    in_comment = False
    depth = 0
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        if not in_comment and depth == 0:
            if _HAND_LINE_RE.match(line):
                starts.append((offset, number, len(line) - len(line.lstrip(" \t\u3000")) + 1))
            elif not starts and _TAG_LINE_RE.match(line):
                offset += len(line) + 1
                continue
        for m in _NESTING_RE.finditer(line):
            ch = m.group()
            if in_comment:
                in_comment = ch != "}"
            elif ch == "{":
                in_comment = True
            elif ch == "(":
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
        offset += len(line) + 1
    return starts


_SCAN_RE = re.compile(
    r"(?P<comment>\{[^}]*\})|(?P<glyph>!!|\?\?|!\?|\?!|!|\?)|(?P<open>\()|(?P<close>\))"
    r"|(?P<event>(?:[A-Z]:|[^\s{}()\[\]\"!?:]+)(?:[ \t\u3000]*[^\s{}()\[\]\"!?][^\r\n{}()\[\]\"!?]*)?(?:\r?\n[ \t\f\u3000]*)*)"
    r"|(?P<space>[ \t\f\u3000\r\n]+)")


def scan_events(text: str) -> tuple[int, int] | None:
    """How many events one hand's text holds (its ``hand`` line, every event of its main
    line and variations), and the position among them of its last main-line event, found
    with the grammar's own tokens but without parsing (a long record's steps are numbered
    before its hands are read). None when the text is not plain tokens: parse it then."""
    events = last_main = depth = position = 0
    while position < len(text):
        m = _SCAN_RE.match(text, position)
        if m is None or m.end() == position:
            return None
        kind = m.lastgroup
        if kind == "event":
            if depth == 0:
                last_main = events
            events += 1
        elif kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:
                return None
            depth -= 1
        position = m.end()
    return (events, last_main) if depth == 0 and events else None


class HandStream:
    """The hands of one record's text, parsed one at a time as they are iterated.

    ``failed`` turns true when a hand's text has a problem of its own (a syntax error or a
    structural one): the caller then reads the record whole instead, so what is reported
    never depends on how the record was read.
    """

    def __init__(self, text: str, starts: list[tuple[int, int, int]], first_line: int, game: str | None):
        self.text = text
        self.starts = starts
        self.first_line = first_line
        self.spelling = spelling_for_game(game)
        self.failed = False
        self.position = 0

    def __iter__(self) -> Iterator[Hand]:
        while self.position < len(self.starts) and not self.failed:
            offset, line, _ = self.starts[self.position]
            end = self.starts[self.position + 1][0] if self.position + 1 < len(self.starts) else len(self.text)
            self.position += 1
            hands = self._parse(self.text[offset:end], self.first_line + line - 1)
            if hands is None:
                self.failed = True
                return
            yield from hands

    def drain(self) -> None:
        for _ in self:
            pass

    def _parse(self, text: str, line: int) -> list[Hand] | None:
        try:
            tags, builder = _read(text, line - 1, None, False, self.spelling)
        except (UnexpectedInput, VisitError):
            return None
        hands = builder.hands
        if tags or builder.problems or len(hands) != 1:
            return None
        return hands


def read_chunk_by_hand(chunk: Chunk, path: str = "") -> tuple[ReadResult, HandStream] | None:
    """A record read hand by hand: its head (tags, opening comments) and a :class:`HandStream`.

    None when the record cannot be read so (unreadable bytes, no hand, a problem in its
    head): :func:`read_chunk` reads it whole then.
    """
    if not chunk.text or chunk.diagnostics:
        return None
    starts = hand_starts(chunk.text)
    if not starts:
        return None
    head = parse_chunk(chunk.text[: starts[0][0]], chunk.line)
    if head.record is None or head.diagnostics:
        return None
    record = head.record
    if not record.tags:
        record.at = Pos(line=chunk.line + starts[0][1] - 1, col=starts[0][2])
    head.path = path
    return head, HandStream(chunk.text, starts, chunk.line, record.game)


def _syntax_diagnostic(err: UnexpectedInput, text: str, offset: int) -> Diagnostic:
    line = (getattr(err, "line", 0) or 0)
    col = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        opened = _open_paren(text)
        if opened:
            return diag("P102", "the record ends inside the variation '(' opened here", opened[0] + offset, opened[1])
        last_line = text.count("\n") + 1
        return diag("P102", "the record ends in the middle of a tag or event", last_line + offset, 1)
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        if ch == "{":
            return diag("P102", "comment '{' is never closed with '}'", line + offset, col)
        if ch == "}":
            return diag("P101", "'}' closes no comment", line + offset, col)
        if ch == '"':
            return diag("P102", "tag value's '\"' is never closed on its line", line + offset, col)
        if ch == "[":
            return diag("P101", "a tag '[' inside a record's body: tags come before the first hand", line + offset, col)
        return diag("P101", f"unexpected character {ch!r}", line + offset, col)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "RPAR":
            return diag("P101", "')' closes no variation", line + offset, col)
        if tok.type == "LSQB":
            return diag("P101", "a tag '[' inside a record's body: tags come before the first hand", line + offset, col)
        if "STRING" in err.expected:
            return diag("P101", f"a tag's value is written in double quotes: [Name \"{tok}\"]", line + offset, col)
        if "RSQB" in err.expected:
            return diag("P101", "a tag is closed with ']' on its line: [Name \"value\"]", line + offset, col)
        if tok.type in ("STRING", "TAG_NAME") or "tag" in str(err.expected):
            return diag("P101", f"malformed tag near {str(tok)!r}: write [Name \"value\"]", line + offset, col)
        return diag("P101", f"unexpected {str(tok)!r}", line + offset, col)
    return diag("P101", str(err).splitlines()[0], line + offset, col)


def _open_paren(text: str) -> tuple[int, int] | None:
    """Where the innermost '(' left open at the end of the text stands (comments skipped)."""
    stack: list[tuple[int, int]] = []
    line, col, in_comment = 1, 0, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif in_comment:
            in_comment = ch != "}"
        elif ch == "{":
            in_comment = True
        elif ch == "(":
            stack.append((line, col))
        elif ch == ")" and stack:
            stack.pop()
    return stack[-1] if stack else None


def _outside_comments(text: str, in_comment: bool) -> tuple[bool, bool]:
    """Whether a line that began in (or out of) a comment holds text outside comments (not
    white space: a body line), and whether a comment is still open at its end."""
    pos = 0
    body = False
    while True:
        if in_comment:
            pos = text.find("}", pos) + 1
            if not pos:
                return body, True
            in_comment = False
        else:
            opened = text.find("{", pos)
            body = body or _NON_BLANK_RE.search(text, pos, len(text) if opened < 0 else opened) is not None
            if opened < 0:
                return body, False
            pos, in_comment = opened + 1, True


class _Prefixed:
    """A stream whose first bytes were already read (to sniff for binary data)."""

    def __init__(self, head: bytes, rest: BinaryIO):
        self.head = io.BytesIO(head)
        self.rest = rest

    def readline(self, limit: int) -> bytes:
        line = self.head.readline(limit)
        if line.endswith(b"\n") or len(line) >= limit:
            return line
        return line + self.rest.readline(limit - len(line))


def _wide_encoding(head: bytes) -> str | None:
    """'UTF-16' or 'UTF-32' when the first bytes are such text (by its mark, or by its zero bytes)."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    sample = head[:512]
    if len(sample) >= 8:
        if sample[1::4].count(0) == sample[2::4].count(0) == sample[3::4].count(0) == len(sample) // 4 and 0 not in sample[0::4]:
            return "UTF-32"
        if sample[1::2].count(0) == len(sample) // 2 and 0 not in sample[0::2]:
            return "UTF-16"
        if sample[0::2].count(0) == len(sample) // 2 and 0 not in sample[1::2]:
            return "UTF-16"
    return None


READ_BLOCK = 256 * 1024  # bytes read at a time; records are cut a block of whole lines at a time
_BOM = b"\xef\xbb\xbf"
# What decides where records start: a tag line's '[' (a line whose first non-blank character
# is '['), and comment braces. Only lines that are not blank and not tag lines are body lines.
# (Patterns that start with a line break let the regex engine skip ahead to the next one.)
_TAG_HERE_RE = re.compile(r"[^\S\n]*\[")
_TAG_NEXT_RE = re.compile(r"\n[^\S\n]*\[")
_TAG_OR_BRACE_RE = re.compile(r"(\n[^\S\n]*\[)|[{}]")
_NON_BLANK_RE = re.compile(r"\S")
# A Game tag line: after a comment among or after the tags (no body yet) it starts the next
# record, whose text that comment cannot be part of (a record whose body is a comment alone).
_GAME_TAG_RE = re.compile(r"[^\S\n]*\[[ \t\f\u3000]*Game(?![A-Za-z0-9_])")


class _Cutter:
    """Cuts a byte stream into records. Blocks of whole lines that are plain UTF-8 (no NUL, no
    carriage return) are cut with a few scans in C: only tag lines and braces can change the
    state. Any other block is cut line by line (:meth:`line`), which says where its bytes are
    bad; a line too long to hold (over the record limit without a line break) is read by
    :meth:`lines_from` in bounded pieces, as the limits in docs/robustness.md say.

    The state is the record being gathered: its text so far, its size in bytes, where it
    starts (line, byte offset), whether a body line was seen (a tag line after one starts the
    next record; text in comments is none: comments among the tags are the record's own) and
    whether a comment is open.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.size = 0
        self.start = 1
        self.start_offset = 0
        self.has_body = False
        self.commented = False  # a comment was seen (outside tag lines): a Game tag line after it starts the next record
        self.in_comment = False
        self.bad: list[Diagnostic] = []
        self.too_large = False
        self.line_no = 0  # lines read so far
        self.offset = 0  # bytes read so far
        self.first = True  # the next line is the file's first (a BOM is dropped there)
        self.stopped = False  # binary data met: nothing more is read

    # -- records ---------------------------------------------------------------------------
    def flush(self) -> Chunk | None:
        if not self.lines and not self.bad and not self.too_large:
            return None
        if self.too_large:
            return Chunk("", self.start, [diag("P105", f"record is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB; not read", self.start, 1)],
                         self.start_offset)
        return Chunk("".join(self.lines), self.start, list(self.bad), self.start_offset)

    def begin(self, line: int, offset: int) -> None:
        """A new record starts at this line."""
        self.lines, self.size, self.start, self.start_offset = [], 0, line, offset
        self.has_body, self.commented, self.bad, self.too_large = False, False, [], False

    def add(self, text: str, nbytes: int) -> None:
        self.size += nbytes
        if self.size > MAX_RECORD_BYTES:
            self.too_large = True
            self.lines = []
        elif not self.too_large:
            self.lines.append(text)

    def finish(self) -> Iterator[Chunk]:
        if self.stopped:
            return
        chunk = self.flush()
        if chunk and (chunk.text.strip() or chunk.diagnostics):
            yield chunk

    # -- line by line ----------------------------------------------------------------------
    def line(self, raw: bytes) -> Iterator[Chunk]:
        """One line as read (with its line break, if any)."""
        at = self.offset
        self.offset += len(raw)
        self.line_no += 1
        line_no = self.line_no
        if self.first:
            self.first = False
            if raw.startswith(_BOM):
                raw = raw[3:]
        nul = raw.find(b"\0")
        if nul >= 0:
            chunk = self.flush()
            if chunk and chunk.text.strip():
                yield chunk
            yield Chunk("", line_no, [diag("P104", "binary data (a NUL byte): this is not a paifu text file", line_no, nul + 1)], at)
            self.stopped = True
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            col = len(raw[: err.start].decode("utf-8", errors="replace")) + 1
            self.bad.append(diag("P103", f"byte 0x{raw[err.start]:02x} is not UTF-8 (save the file as UTF-8)", line_no, col))
            text = raw.decode("utf-8", errors="replace")
        if text.endswith("\r\n"):  # CRLF, and any run of CRs before the LF ("\r\r\n")
            text = text[:-1].rstrip("\r") + "\n"
        stripped = text.strip()
        tag_line = not self.in_comment and _TAG_LINE_RE.match(text) is not None
        if tag_line and (self.has_body or (self.commented and _GAME_TAG_RE.match(text) is not None)):
            chunk = self.flush()
            if chunk:
                yield chunk
            self.begin(line_no, at)
        if not stripped and not self.lines and not self.too_large:  # blank lines before a record
            self.start, self.start_offset = line_no + 1, self.offset
            return
        if not tag_line:  # braces inside tag values do not open comments
            if self.in_comment or "{" in text or "}" in text:
                self.commented = self.commented or self.in_comment or "{" in text
                body, self.in_comment = _outside_comments(text, self.in_comment)
                self.has_body = self.has_body or body
            elif stripped:
                self.has_body = True
        self.add(text, len(raw))

    def lines_from(self, stream: Any) -> Iterator[Chunk]:
        """The rest of a stream line by line, a line too long to hold read in pieces."""
        pending = b""
        while not self.stopped:
            raw = stream.readline(MAX_LINE_BYTES)
            if not raw:
                break
            if not raw.endswith(b"\n") and len(raw) >= MAX_LINE_BYTES:
                pending += raw  # a very long line: keep reading it, the size cap bounds memory
                if len(pending) <= MAX_RECORD_BYTES:
                    continue
                raw, pending = pending, b""
            elif pending:
                raw, pending = pending + raw, b""
            yield from self.line(raw)
        if pending and not self.stopped:
            yield from self.line(pending)

    # -- a block at a time -----------------------------------------------------------------
    def block(self, data: bytes) -> Iterator[Chunk]:
        """Whole lines (the last may lack its line break at the end of the stream)."""
        if self.first:
            self.first = False
            if data.startswith(_BOM):
                data = data[3:]
                self.offset += 3
        text = None
        if b"\0" not in data and b"\r" not in data:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
        if text is None:  # bad bytes, line ends to normalize: line by line says where
            pos = 0
            while pos < len(data) and not self.stopped:
                end = data.find(b"\n", pos) + 1 or len(data)
                yield from self.line(data[pos:end])
                pos = end
            return
        yield from self.plain(text, len(data) == len(text))

    def plain(self, text: str, ascii: bool) -> Iterator[Chunk]:
        """Whole lines of plain text: only tag lines and braces are looked at one by one."""
        n = len(text)
        # where line numbers and byte offsets were last counted (counted onward from there)
        seen_pos, seen_line, seen_offset = 0, self.line_no, self.offset

        def place(p: int) -> tuple[int, int]:
            """The line number and byte offset of the line starting at text[p]."""
            nonlocal seen_pos, seen_line, seen_offset
            seen_line += text.count("\n", seen_pos, p)
            seen_offset += p - seen_pos if ascii else len(text[seen_pos:p].encode("utf-8"))
            seen_pos = p
            return seen_line + 1, seen_offset if seen_line else 0  # line 1 starts at byte 0, before a BOM

        def size(a: int, b: int) -> int:
            return b - a if ascii else len(text[a:b].encode("utf-8"))

        pos = 0
        if not self.lines and not self.too_large:  # blank lines before a record are skipped
            m = _NON_BLANK_RE.search(text)
            pos = n if m is None else text.rfind("\n", 0, m.start()) + 1
            self.start, self.start_offset = place(pos)
        piece = seg = pos  # this block's part of the record starts at piece; seg: not yet looked at
        skip_until = 0  # braces on a tag line are part of its value
        in_comment, has_body, commented = self.in_comment, self.has_body, self.commented
        cut_re = _TAG_OR_BRACE_RE if "{" in text or "}" in text else _TAG_NEXT_RE
        found = chain([(pos - 1, True)] if _TAG_HERE_RE.match(text, pos) else [],
                      ((m.start(), m.lastindex == 1 or m.re is _TAG_NEXT_RE) for m in cut_re.finditer(text, pos)))
        for p, tag in found:
            if tag:  # a line starting with '[' (p is the line break before it)
                p += 1
                if in_comment:  # inside a comment: part of it, whose braces follow
                    continue
                if not has_body and _NON_BLANK_RE.search(text, seg, p):
                    has_body = True
                if has_body or (commented and _GAME_TAG_RE.match(text, p)):  # the next record starts here
                    self.add(text[piece:p], size(piece, p))
                    chunk = self.flush()
                    if chunk:
                        yield chunk
                    self.begin(*place(p))
                    has_body = commented = False
                    piece = p
                skip_until = seg = text.find("\n", p) + 1 or n
            elif p >= skip_until:  # a brace outside a tag line: a comment is no body text
                if in_comment:
                    if text[p] == "}":
                        in_comment = False
                        seg = p + 1
                elif text[p] == "{":
                    if not has_body and _NON_BLANK_RE.search(text, seg, p):
                        has_body = True
                    in_comment = commented = True
                else:  # a '}' that closes no comment
                    has_body = True
        if not has_body and not in_comment and _NON_BLANK_RE.search(text, seg):
            has_body = True
        self.in_comment, self.has_body, self.commented = in_comment, has_body, commented
        if piece < n:
            self.add(text[piece:], size(piece, n))
        place(n)
        self.line_no = seen_line + (n > 0 and text[-1] != "\n")
        self.offset = seen_offset


def split_records(stream: BinaryIO) -> Iterator[Chunk]:
    """Cut a byte stream into record texts, one at a time, with file-level problems attached.

    A record starts at a tag line (outside a comment) after a body line. Bytes that are
    not UTF-8 are reported at their line and column; the record holding them is not
    parsed. A NUL byte marks a binary file: reported once, and the file is not read on.
    Each chunk knows the byte offset of its first line (``Chunk.offset``).
    """
    head = stream.read(SNIFF_BYTES)
    wide = _wide_encoding(head)
    if wide:  # UTF-16 or UTF-32: readable text, but not the UTF-8 paifu reads
        yield Chunk("", 1, [diag("P103", f"the file is {wide} text: save it as UTF-8", 1, 1)])
        return
    nul = head.find(b"\0")
    if nul >= 0:  # a binary file: one message, not one per line of garbage
        line = head.count(b"\n", 0, nul) + 1
        line_start = head.rfind(b"\n", 0, nul) + 1
        yield Chunk("", line, [diag("P104", "binary data (a NUL byte): this is not a paifu text file", line, nul - line_start + 1)], line_start)
        return
    cutter = _Cutter()
    rest = head  # bytes read after the last whole line
    while not cutter.stopped:
        block = stream.read(READ_BLOCK)
        if not block:
            if rest:
                yield from cutter.block(rest)
            break
        data = rest + block
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            rest = data
            if len(rest) > MAX_RECORD_BYTES:  # a line too long to hold: read it in pieces
                yield from cutter.lines_from(_Prefixed(rest, stream))
                break
            continue
        rest = data[cut:]
        yield from cutter.block(data[:cut])
    yield from cutter.finish()


UNREADABLE = ("P103", "P104", "P105", "P106", "P110")  # codes of text that is not parsed at all


def read_chunk(chunk: Chunk, path: str = "") -> ReadResult:
    """Parse one record's text as :func:`split_records` cut it (unless its bytes were bad)."""
    if not chunk.text or any(d.code in UNREADABLE for d in chunk.diagnostics):
        result = ReadResult(None, chunk.diagnostics, chunk.line)
    else:
        result = parse_chunk(chunk.text, chunk.line)
        result.diagnostics = chunk.diagnostics + result.diagnostics
    result.path = path
    for d in result.diagnostics:
        d.path = path
    return result


def read_stream(stream: BinaryIO, path: str = "") -> Iterator[ReadResult]:
    """Every record of a byte stream, parsed one at a time; an empty stream yields one P106."""
    any_record = False
    for chunk in split_records(stream):
        any_record = True
        yield read_chunk(chunk, path)
    if not any_record:
        empty = diag("P106", "no record in this file (it is empty)", 1, 1)
        empty.path = path
        yield ReadResult(None, [empty], 1, path)


def read_path(path: str | Path) -> Iterator[ReadResult]:
    """Every record of a file; an unreadable path yields one P110 diagnostic."""
    try:
        handle = open(path, "rb")
    except OSError as err:
        d = diag("P110", f"cannot read: {err.strerror or err}", 0, 0)
        d.path = str(path)
        yield ReadResult(None, [d], 0, str(path))
        return
    with handle:
        yield from read_stream(handle, str(path))


def read_text(text: str, path: str = "") -> Iterator[ReadResult]:
    """Every record of a text held in memory."""
    return read_stream(io.BytesIO(text.encode("utf-8")), path)


class ParseError(ValueError):
    """Raised by :func:`parse` when the text is not one well-formed record."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))


def parse(text: str) -> Record:
    """Parse a text holding exactly one record; raise :class:`ParseError` otherwise."""
    results = list(read_text(text))
    problems = [d for r in results for d in r.diagnostics if d.severity == "error"]
    if problems:
        raise ParseError(problems)
    if len(results) != 1 or results[0].record is None:
        raise ParseError([diag("P101", f"expected one record, found {len(results)}", 1, 1)])
    return results[0].record


def parse_all(text: str) -> list[Record]:
    """Parse a text of any number of records; raise :class:`ParseError` on the first bad one."""
    records = []
    for r in read_text(text):
        errors = [d for d in r.diagnostics if d.severity == "error"]
        if errors or r.record is None:
            raise ParseError(errors)
        records.append(r.record)
    return records


def not_regular(path: str | Path) -> str | None:
    """Why ``path`` is no regular file paifu reads, in words (a FIFO, a socket, a device, a
    symbolic link to nothing, a loop of links); None for a regular file (or a folder)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "a loop of symbolic links"
        if os.path.islink(path):
            return "a symbolic link to a missing file"
        return err.strerror or str(err)
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return f"{special_kind(mode)}, not a regular file"


def special_kind(mode: int) -> str:
    """What a file that is not a regular file is, by its mode."""
    for test, kind in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return kind
    return "a special file"


def iter_paths(paths: Iterable[str | Path], problems: list[tuple[Path, OSError]] | None = None,
               skipped: list[tuple[Path, str]] | None = None) -> Iterator[Path]:
    """Expand directories into the ``.paifu`` files under them, sorted; other paths as given.

    A folder that cannot be listed (permission denied...) is skipped; with ``problems``
    given, it is appended there with its error, so a caller can name it. Only regular files
    are listed: a ``.paifu`` name under a folder that is a FIFO, a socket, a device or a
    symbolic link to nothing is left out; with ``skipped`` given, it is appended there with
    the reason, in words.
    """
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found: list[Path] = []
            left: list[tuple[Path, str]] = []

            def failed(err: OSError) -> None:
                if problems is not None:
                    problems.append((Path(err.filename) if err.filename else p, err))

            for folder, _dirs, names in os.walk(p, onerror=failed):
                for name in names:
                    if name.endswith(".paifu"):
                        q = Path(folder) / name
                        if q.is_file():
                            found.append(q)
                        else:
                            left.append((q, not_regular(q) or "not a regular file"))
            yield from sorted(found)
            if skipped is not None:
                skipped.extend(sorted(left))
        else:
            yield p
