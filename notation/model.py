"""The record model: what a paifu record says, with the place in the text of every node.

A record is tag pairs, optional opening comments, then hands; a hand is its opening line
(``hand 1 dealer=B``) and its events, one per line. An event is an optional seat, a verb
and arguments, with the comments, glyphs and variations written after it. A variation is
an alternative to the event it follows: it is replayed from the state before that event.

Positions (``at``, and a run's text as ``written``) are where a node starts in the source;
they take no part in :func:`same_content`, so a record read back from its canonical text
is the same record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Iterator, Literal, NamedTuple, Union

from .boundary import Node

if TYPE_CHECKING:  # what the annotations name; bound for pydantic by _Node.prepare_adapter
    from pydantic import Field, Strict

    Int = Annotated[int, Strict()]
    Str = Annotated[str, Strict()]
    Seat = Annotated[str, Strict()]
    Comment = Annotated[str, Strict()]
    At = Union["Pos", None]

SEAT_LETTERS = "ABCDEFGH"


class Pos(NamedTuple):
    """A place in a source text: 1-based line and column (in JSON: ``[line, col]``)."""

    line: Int
    col: Int


# What the text can hold, as the JSON Schema says it (a JSON record outside these patterns
# could not be written as text that reads back the same). Each mirrors the reader: the
# grammar's terminals (notation/paifu.lark) and how notation/reader.py splits an event line
# into items (at white space, Python's str.split: the Unicode spaces and \x1c-\x1f).
_NOT_ITEM = r'\s\x1c-\x1f{}()\[\]"!?'  # what no item of an event line holds
SEAT_PATTERN = r"^[A-Z]$"
VERB_PATTERN = r"^[a-z][a-z0-9_\-]*$"
WORD_PATTERN = f"^[^{_NOT_ITEM}]+$"
KEY_PATTERN = f"^[^={_NOT_ITEM}]+$"
VALUE_PATTERN = f"^[^{_NOT_ITEM}]*$"
TAG_NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_]*$"
TAG_NAME_TEXT = ("the tag's name. The validator reads Game, Players, Option (one key=value each), Result and Start "
                 "(a record that starts from a written position: each seat's score or points there, \"A 47000 B 36000 C 7000\", "
                 "with the first hand line's number, dealer= and the game's own keys; docs/notation.md, Starting from a position); "
                 "any other tag is kept as written")
TAG_VALUE_PATTERN = r"^[^\r\n]*$"
COMMENT_PATTERN = r"^[^}]*$"
Glyph = Literal["!!", "??", "!?", "?!", "!", "?"]
_AT = "where the node starts in the source"


class _Node(Node):
    """What every node of the record shares: a plain slotted dataclass inside, whose JSON
    form pydantic reads, writes and describes (:class:`paifu.notation.boundary.Node`), with
    no field beyond the model's."""

    __slots__ = ()
    __pydantic_config__: ClassVar[dict] = {"extra": "forbid"}

    @classmethod
    def prepare_adapter(cls) -> None:
        """Bind the pydantic markers the annotations name (``Strict``, ``Field`` and the types
        built from them) in this module, for pydantic to read the annotations with."""
        names = globals()
        if "Strict" in names:
            return
        from pydantic import Field, Strict

        names.update(
            Field=Field, Strict=Strict,
            Int=Annotated[int, Strict()],  # JSON's 9, never "9" nor 9.0 nor true
            Str=Annotated[str, Strict()],
            Seat=Annotated[str, Strict(), Field(pattern=SEAT_PATTERN, description="a seat letter")],
            Comment=Annotated[str, Strict(), Field(pattern=COMMENT_PATTERN,
                                                   description="a comment's text, without its braces (it cannot hold '}')")],
            At=Annotated[Union[Pos, None], Field(description=_AT)],
            Arg=Annotated[Union[CardsArg, NumArg, WordArg, OptionArg, SeatArg], Field(discriminator="kind")],
        )


_TOKEN_RE = re.compile(r"\S+")

# Field order puts what the reader gives first, so it builds nodes with positional arguments
# (the fastest call); everyone else names the fields.


@dataclass(slots=True)
class CardsArg(_Node):
    """One item of cards or tiles, in the family's canonical codes; ``*`` is one unseen card.

    An item is one token (``123m``, ``3C``, ``***``) or, where cards are written apart
    (French, paper and four-colour cards), a run of the card tokens that stand side by side
    in a line (``3C 4C 5D`` is one item of three cards)."""

    cards: list[Str]
    at: At = None
    written: Annotated[Union[Str, None], Field(
        description="a run of several tokens as the source wrote it, from its first card to its "
                    "last: where each card stands follows from it")] = None
    kind: Literal["cards"] = "cards"

    def card_at(self, j: int) -> Pos | None:
        """Where the ``j``-th card starts: its own token's column in a run, else the item's
        (a token of several cards, ``***``, gives each star its column)."""
        at = self.at
        if at is None or self.written is None:
            return at
        k = 0
        for m in _TOKEN_RE.finditer(self.written):
            token = m.group()
            n = len(token) if token.strip("*") == "" else 1
            if j < k + n:
                return Pos(at.line, at.col + m.start() + (j - k if n > 1 else 0))
            k += n
        return at


@dataclass(slots=True)
class NumArg(_Node):
    """A whole number; ``signed`` keeps an explicit ``+`` or ``-`` as written (``+26``)."""

    value: Int
    signed: Annotated[bool, Strict()] = False
    at: At = None
    kind: Literal["num"] = "num"


@dataclass(slots=True)
class WordArg(_Node):
    """A word: a verb's argument such as ``tsumo``, ``good`` or a rank ``Q``."""

    text: Annotated[str, Strict(), Field(pattern=WORD_PATTERN)]
    at: At = None
    kind: Literal["word"] = "word"


@dataclass(slots=True)
class OptionArg(_Node):
    """``key=value`` inside an event, as in ``hand 1 dealer=B``."""

    key: Annotated[str, Strict(), Field(pattern=KEY_PATTERN)]
    value: Annotated[str, Strict(), Field(pattern=VALUE_PATTERN)]
    at: At = None
    kind: Literal["kv"] = "kv"


@dataclass(slots=True)
class SeatArg(_Node):
    """A seat named inside an event, as in ``deal A: ...``."""

    seat: Seat
    at: At = None
    kind: Literal["seat"] = "seat"


Arg = Union[CardsArg, NumArg, WordArg, OptionArg, SeatArg]  # for pydantic, told apart by ``kind`` (prepare_adapter)


@dataclass(slots=True)
class Variation(_Node):
    """An alternative line: replayed from the state before the event it is attached to."""

    comments: Annotated[list[Comment], Field(description="comments before its first event")] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    at: At = None


@dataclass(slots=True)
class Event(_Node):
    """One line of play: ``A: discard 7z``, ``B: pass``, ``deal C: ...``, ``score A +4 B -4``."""

    seat: Annotated[Union[Seat, None], Field(description="the acting seat; none for seat-less events")] = None
    verb: Annotated[Union[Annotated[str, Strict(), Field(pattern=VERB_PATTERN)], None],
                    Field(description="none where the game's default verb is meant (a play)")] = None
    args: list[Arg] = field(default_factory=list)
    glyphs: list[Glyph] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    variations: list[Variation] = field(default_factory=list)
    at: At = None

    def cards(self) -> list[str]:
        """All card codes in the arguments, in order."""
        return [c for a in self.args if a.kind == "cards" for c in a.cards]


@dataclass(slots=True)
class Hand(_Node):
    """A hand (deal, round): its opening line's arguments, then its events."""

    args: list[Arg] = field(default_factory=list)
    glyphs: list[Glyph] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    at: At = None

    @property
    def number(self) -> int | None:
        for a in self.args:
            if isinstance(a, NumArg):
                return a.value
        return None

    def attr(self, key: str) -> OptionArg | None:
        for a in self.args:
            if isinstance(a, OptionArg) and a.key == key:
                return a
        return None


@dataclass(slots=True)
class Tag(_Node):  # a tag pair, [Name "value"] (no docstring: the schema keeps its text)
    name: Annotated[str, Strict(), Field(pattern=TAG_NAME_PATTERN, description=TAG_NAME_TEXT)]
    value: Annotated[str, Strict(), Field(pattern=TAG_VALUE_PATTERN, description="a value on one line")]
    at: At = None


@dataclass(slots=True)
class Record(_Node):
    """One recorded game (or match): tags, opening comments, hands."""

    tags: list[Tag] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    at: At = None

    def tag(self, name: str) -> str | None:
        for t in self.tags:
            if t.name == name:
                return t.value
        return None

    def tag_node(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None

    @property
    def game(self) -> str | None:
        return self.tag("Game")

    def option_tags(self) -> list[Tag]:
        return [t for t in self.tags if t.name == "Option"]

    def players(self) -> dict[str, str]:
        """Seat letter -> name from the ``Players`` tag (``"A: Li; B: Wang"``)."""
        return parse_players(self.tag("Players") or "")


_COMMAND_RE = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*)\s*([^\]]*)\]")


def comment_commands(comment: str) -> list[tuple[str, str]]:
    """The ``[%name args]`` commands inside a comment: ``[%clk 0:10]`` -> ``[("clk", "0:10")]``."""
    return [(m.group(1), m.group(2).strip()) for m in _COMMAND_RE.finditer(comment)]


def parse_players(text: str) -> dict[str, str]:
    """Read ``"A: Li; B: Wang"``; a part without ``X:`` is skipped (see :func:`players_problems`)."""
    seats: dict[str, str] = {}
    for part in text.split(";"):
        seat, sep, name = part.strip().partition(":")
        seat = seat.strip()
        if sep and len(seat) == 1 and seat in SEAT_LETTERS:
            seats[seat] = name.strip()
    return seats


def players_problems(text: str) -> list[str]:
    """What is wrong with a ``Players`` value, in words; empty when it is well formed."""
    problems = []
    seen: list[str] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        seat, sep, _ = part.partition(":")
        seat = seat.strip()
        if not sep or len(seat) != 1 or seat not in SEAT_LETTERS:
            problems.append(f"'{part}' is not 'SEAT: name' with a seat letter A..H")
        elif seat in seen:
            problems.append(f"seat {seat} is named twice")
        else:
            seen.append(seat)
    if seen and seen != [SEAT_LETTERS[i] for i in range(len(seen))]:
        problems.append(f"seats must be named in order A, B, C...; found {', '.join(seen)}")
    return problems


_POSITION_KEYS = frozenset({"at", "written"})


def _strip_positions(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_positions(v) for k, v in value.items() if k not in _POSITION_KEYS}
    if isinstance(value, list):
        return [_strip_positions(v) for v in value]
    return value


def forget_source(node: Event | Hand) -> None:
    """Drop where an event or hand line and its arguments stood in their source (their ``at``
    and runs' ``written``): for a line taken from one text into another record."""
    node.at = None
    for a in node.args:
        a.at = None
        if isinstance(a, CardsArg):
            a.written = None


def content(node: _Node) -> Any:
    """The node as plain data without source positions: what two equal records share."""
    return _strip_positions(node.model_dump(mode="json"))


def same_content(a: _Node, b: _Node) -> bool:
    """Whether two nodes say the same thing, wherever they stood in their sources."""
    return content(a) == content(b)


def walk_events(events: list[Event]) -> Iterator[Event]:
    """Every event of a line and of its variations, depth first, in text order (no recursion)."""
    stack: list[Iterator[Event]] = [iter(events)]
    while stack:
        e = next(stack[-1], None)
        if e is None:
            stack.pop()
            continue
        yield e
        if e.variations:
            stack.append(iter([ev for v in e.variations for ev in v.events]))


def variation_depth(record: Record) -> int:
    """How deeply the record's variations nest (0 without any), counted without recursion."""
    deepest = 0
    stack: list[tuple[list[Event], int]] = [(h.events, 0) for h in record.hands]
    while stack:
        events, depth = stack.pop()
        deepest = max(deepest, depth)
        for e in events:
            stack.extend((v.events, depth + 1) for v in e.variations)
    return deepest


def _compact(value: Any, positions: bool) -> Any:
    if isinstance(value, dict):
        return {k: _compact(v, positions) for k, v in value.items()
                if not (v is None or v is False or v == [] or (k in _POSITION_KEYS and not positions))}
    if isinstance(value, list):
        return [_compact(v, positions) for v in value]
    return value


def record_json_data(record: Record, positions: bool = False) -> Any:
    """The record as JSON data, loss-free and small: fields at their defaults (none, false, an
    empty list) are left out, and source positions unless ``positions``. ``Record.model_validate``
    reads it back to the same content."""
    return _compact(record.model_dump(mode="json"), positions)
