"""The steps of a record as plain data: every event, the table as each perspective sees it.

A page for one seat (``seat=``, or a quiz) carries that seat's tables only, and its text is
the text that seat may read: each line as the engine's ``seen_event`` writes it for the seat
(another seat's deal or draw, a face-down bid, as ``*``), and a comment, a message or a
settlement's words that name a card the seat does not see at that step (not on its table
there, nor in the line as it reads it) are left out; the record's own comments and tags, a
card it never sees. Nothing hidden is sent.

Nothing here knows a rule. ``replay.replay`` replays the record and calls back after
every event; the callback asks the engine for its :class:`~replay.engine.TableView` from
every perspective (everything, then each seat) while the state is still that step's, and
keeps plain data. The record's events are then walked in text order (main line and
variations) so every event gets an entry in the move list: the ones replayed point at
their table; a score line, or an event after the replay stopped, points at the table of
the event before it.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from paifu.notation.cards import spelling_for_game
from paifu.notation.diagnostics import Diagnostic
from paifu.notation.model import CardsArg, Event, Hand, Record, SeatArg
from paifu.notation.writer import write_arg
from paifu.replay import games, replay
from paifu.replay.engine import hidden_cards
from paifu.replay.report import RecordReport
from paifu.replay.validate import SCORE_VERBS, Step, read_written

EVERYONE = ""  # the perspective that sees everything (``view(state, None)``)


@dataclass
class Replayed:
    """What the callback kept of one replayed event."""

    views: dict[str, int]  # perspective ("" for everything) -> index into the shared parts
    diagnostics: list[Diagnostic]
    settlement: int | None  # index into the shared parts
    seats: list[str]
    choices: list[dict[str, Any]] | None = None  # quiz: the quiz seat's legal moves (``text``, ``key``: move_key)
    seen: dict[tuple[Any, ...], Counter] | None = None  # a seat's page: the cards of each zone the seat sees


@dataclass
class _Collector:
    """The ``on_step`` callback: views from every perspective, deduplicated."""

    parts: list[Any] = field(default_factory=list)  # views, seats, zones, settlements: each once
    index: dict[str, int] = field(default_factory=dict)
    by_node: dict[int, Replayed] = field(default_factory=dict)  # id(event or hand) -> what it showed
    quiz: str | None = None  # a seat: keep its legal moves where it is to act on the main line
    spelling: Any = None
    only_hands: range | None = None  # keep the tables of these hands only (pages of a long record)
    seat: str | None = None  # a seat's page: only that seat's tables are kept

    def __post_init__(self) -> None:
        if self.quiz:
            self.seat = self.quiz  # the quiz sees what its seat sees

    def intern(self, part: Any) -> int:
        """The index of ``part`` in the shared list of parts, added once."""
        text = repr(part)  # plain data (dicts, lists, strings, numbers): equal parts, equal text
        if text not in self.index:
            self.index[text] = len(self.parts)
            self.parts.append(part)
        return self.index[text]

    def keep(self, view: dict[str, Any]) -> int:
        """A view stored as parts: each zone and each seat is kept once, shared by the views that repeat it."""
        if "seats" in view:
            seats = [dict(s, zones=[self.intern(z) for z in s.get("zones", [])]) for s in view["seats"]]
            center = [self.intern(z) for z in view.get("center", [])]
            view = dict(view, seats=[self.intern(s) for s in seats], center=center)
        return self.intern(view)

    def __call__(self, step: Step) -> None:
        seats = list(step.state.match.seats)
        if self.only_hands is not None and step.hand_index not in self.only_hands:  # replayed, not shown
            self.by_node[id(step.event)] = Replayed({}, list(step.diagnostics), None, seats)
            return
        views: dict[str, int] = {}
        seen = None
        mine = self.seat if self.seat in seats else None  # a seat the record does not have: everything
        for seat in [mine]:
            try:
                view: Any = plain(step.engine.view(step.state, seat))
            except Exception as exc:  # noqa: BLE001 - an engine bug must not break the page
                view = {"error": f"{type(exc).__name__}: {exc}"}
            if mine is None:
                views[EVERYONE] = self.keep(view)
            else:
                seen = zone_cards(view)
                views[seat] = self.keep(view)
        found = step.settlement
        if found is None and isinstance(step.event, Hand):  # a hand over at its deal (a dragon...)
            try:
                found = step.engine.settle(step.state) if step.engine.hand_over(step.state) else None
            except Exception:  # noqa: BLE001 - the replay reports it at the score line
                found = None
        settlement = self.intern(plain(found)) if found is not None else None
        self.by_node[id(step.event)] = Replayed(views, list(step.diagnostics), settlement, seats, self.choices(step),
                                                seen)

    def choices(self, step: Step) -> list[dict[str, Any]] | None:
        """The quiz seat's legal moves at this step (main line only), every one of them, as
        event text (the page narrows them by the cards clicked, read from the text);
        None where the seat has no choice (one legal move: a draw) or is not to act."""
        if not self.quiz or step.path:
            return None
        try:
            if step.engine.hand_over(step.state) or step.engine.to_act(step.state) != self.quiz:
                return None
            events = [step.engine.event_for(step.state, a) for a in step.engine.legal_actions(step.state)]
        except Exception:  # noqa: BLE001 - no choices rather than a broken page
            return None
        out: dict[Any, dict[str, Any]] = {}
        for ev in events:
            key = move_key(ev)
            out.setdefault(key, {"text": event_text(ev, self.spelling), "key": key})
        return list(out.values()) if len(out) > 1 else None


def move_key(event: Event) -> tuple[Any, ...]:
    """What makes two written moves the same move: the seat, the verb, the cards in any
    order, the other arguments (``bid QD AD AH`` is ``bid AD AH QD``)."""
    words = tuple(a.seat if isinstance(a, SeatArg) else getattr(a, "text", getattr(a, "value", None))
                  for a in event.args if not isinstance(a, CardsArg))
    return event.seat, event.verb or "", tuple(sorted(event.cards())), words


def zone_cards(view: dict[str, Any]) -> dict[tuple[Any, ...], Counter]:
    """The face-up cards of a plain table view, zone by zone (each seat's, the centre's, the
    last trick): the cards a perspective sees, where they lie."""
    out: dict[tuple[Any, ...], Counter] = {}

    def zone(key: tuple[Any, ...], z: Any) -> None:
        if isinstance(z, dict):
            groups = z.get("groups")
            found = [c for g in groups for c in g] if groups else list(z.get("cards") or [])
            out[key] = Counter(c for c in found if isinstance(c, str) and c != "*")

    for s in view.get("seats") or []:
        for k, z in enumerate(s.get("zones") or []):
            zone(("seat", s.get("seat"), k, z.get("name") if isinstance(z, dict) else None), z)
    for k, z in enumerate(view.get("center") or []):
        zone(("center", k, z.get("name") if isinstance(z, dict) else None), z)
    trick = view.get("last_trick")
    if isinstance(trick, dict):
        out[("last_trick", trick.get("number"))] = Counter(p[1] for p in trick.get("plays") or [])
    return out


def moved_in_sight(before: dict[tuple[Any, ...], Counter] | None, after: dict[tuple[Any, ...], Counter] | None) -> Counter:
    """The cards a step moved where a perspective sees them, from one table to the next: what
    each zone shows that it did not (a card come into sight, or moved from one face-up place
    to another), and what a zone showed and no longer does (a face-up card taken away, as a
    discard won on: it was in sight when it went)."""
    out: Counter = Counter()
    before, after = before or {}, after or {}
    for key, cards in after.items():
        out += cards - before.get(key, Counter())
    for key, cards in before.items():
        out += cards - after.get(key, Counter())
    return out


_WORD = re.compile(r"[^\s,;:.!?()\[\]{}<>\"'`/=+|]+")


def cards_named(text: str, spelling: Any) -> list[str]:
    """The cards a text (a comment, a message) names in the game's spelling."""
    if spelling is None:
        return []
    out: list[str] = []
    for word in _WORD.findall(text):
        out.extend(c for c in spelling.read(word) or [] if c != "*")
    return out


_SCALARS = (str, int, float, bool, type(None))


_EXACT_SCALARS = frozenset(_SCALARS)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, looked up once


def plain(value: Any) -> Any:
    """Dataclasses, lists, tuples, sets and dicts as JSON-ready data (``dataclasses.asdict``
    without its deep copies, which cost more than the replay itself)."""
    kind = type(value)
    if kind in _EXACT_SCALARS:
        return value
    if kind is list or kind is tuple:
        return [v if type(v) in _EXACT_SCALARS else plain(v) for v in value]
    names = _FIELD_NAMES.get(kind)
    if names is None and dataclasses.is_dataclass(kind):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, _SCALARS):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return str(value)


def diag_data(d: Diagnostic) -> dict[str, Any]:
    return {"code": d.code, "severity": d.severity, "message": d.message, "line": d.line, "col": d.col,
            "rule": d.rule or ""}


def event_text(event: Event | Hand, spelling: Any) -> str:
    """The event as written, without its glyphs, comments and variations."""
    if isinstance(event, Hand):
        return " ".join(["hand"] + [write_arg(a, spelling) for a in event.args])
    parts = [f"{event.seat}:"] if event.seat else []
    if event.verb:
        parts.append(event.verb)
    parts.extend(write_arg(a, spelling) for a in event.args)
    return " ".join(parts)


@dataclass
class _Builder:
    record: Record
    collected: _Collector
    spelling: Any
    setup_verbs: frozenset[str]
    entries: dict[int, dict[str, Any]] = field(default_factory=dict)  # by step number
    nodes: dict[int, Event | Hand] = field(default_factory=dict)  # by step number
    counter: int = 0  # the next step's number
    positions: list[tuple[int, int, int]] = field(default_factory=list)  # (line, col, entry)
    seen: dict[int, dict[tuple[Any, ...], Counter] | None] = field(default_factory=dict)  # a seat's page, by step

    def add(self, node: Event | Hand, kind: str, hand: int, depth: int, prev: int | None) -> dict[str, Any]:
        done = self.collected.by_node.get(id(node))
        entry: dict[str, Any] = {
            "i": self.counter, "kind": kind, "text": event_text(node, self.spelling),
            "seat": getattr(node, "seat", None), "glyphs": list(node.glyphs), "comments": list(node.comments),
            "hand": hand, "depth": depth, "prev": prev, "next": None, "vars": [], "parent": None,
            "line": node.at.line if node.at else 0, "replayed": done is not None, "diags": [],
            "views": done.views if done else None, "settlement": done.settlement if done else None,
            "written": None,
        }
        if done is not None and done.choices is not None:
            entry["choices"] = done.choices
        before = self.entries.get(prev) if prev is not None else None
        self.seen[entry["i"]] = done.seen if done else None
        if done is None and before is not None and before["hand"] == hand:  # show the table as it was before this line
            entry["views"] = before["views"]
            self.seen[entry["i"]] = self.seen[prev]  # type: ignore[index]
            if "choices" in before and kind == "setup":  # the state is still the one after the deal
                entry["choices"] = before["choices"]
            if kind == "score":
                entry["settlement"] = before["settlement"]
        if done:
            entry["diags"] = [diag_data(d) for d in done.diagnostics]
        if before is not None and before["next"] is None:
            before["next"] = entry["i"]
        self.entries[entry["i"]] = entry
        self.nodes[entry["i"]] = node
        self.counter += 1
        if node.at:
            self.positions.append((node.at.line, node.at.col, entry["i"]))
        return entry

    def build(self, seats: list[str], hands: list[tuple[int, Hand, int, int | None]] | None = None) -> None:
        """The entries of the record's hands; or, with ``hands`` ((index, hand, number of its
        first step, the step before it)), of those hands only (a long record's page)."""
        last_main: int | None = None
        for h, hand, first, before in hands or [(h, hand, -1, None) for h, hand in enumerate(self.record.hands)]:
            if first >= 0:
                self.counter, last_main = first, before
            head = self.add(hand, "hand", h, 0, last_main)
            # set-up lines (deal, wall, dice...) come before the first play: they show the hand's start
            events = hand.events
            n_setup = 0
            while n_setup < len(events) and events[n_setup].seat is None and events[n_setup].verb in self.setup_verbs:
                n_setup += 1
            opening = [head["i"]]
            for ev in events[:n_setup]:
                opening.append(self.add(ev, "setup", h, 0, opening[-1])["i"])
            line = self.line(events[n_setup:], h, 0, opening[-1], seats)
            self.attach_written(opening + line, seats)  # a hand may be over at its deal
            last_main = line[-1] if line else opening[-1]

    def line(self, events: list[Event], hand: int, depth: int, prev: int | None, seats: list[str]) -> list[int]:
        """Add a line of events (and, depth first, its variations); returns the line's entries."""
        out: list[int] = []
        for ev in events:
            branch_from = prev
            kind = "score" if ev.seat is None and ev.verb in SCORE_VERBS else "event"
            entry = self.add(ev, kind, hand, depth, prev)
            out.append(entry["i"])
            for var in ev.variations:
                inner = self.line(var.events, hand, depth + 1, branch_from, seats)
                if inner:
                    first = self.entries[inner[0]]
                    first["parent"] = entry["i"]
                    first["var_comments"] = list(var.comments)
                    entry["vars"].append(inner[0])
            prev = entry["i"]
        self.attach_written(out, seats)
        return out

    def attach_written(self, line: list[int], seats: list[str]) -> None:
        """The written score of a line, beside the settlement computed where the hand ended."""
        score = next((i for i in line if self.entries[i]["kind"] == "score" and self.nodes[i].verb == "score"), None)
        if score is None:
            return
        written = read_written(self.nodes[score], seats, []) if seats else None  # type: ignore[arg-type]
        for i in line:
            if self.entries[i]["settlement"] is not None:
                self.entries[i]["written"] = written or None

    def played_among_choices(self, quiz: str) -> None:
        """Where the quiz asks, the move the record plays next is one of the choices, written
        as the record writes it: the record's line is what the quiz checks against. A move
        the engine does not list is a pass the record leaves unwritten (a claim declined,
        then the seat's draw: ``A: draw 9m`` where the engine lists ``pon 9p`` and ``pass``):
        it stands for the pass; where there is no pass it is added."""
        for entry in self.entries.values():
            choices = entry.get("choices")
            if not choices:
                continue
            texts = [c["text"] for c in choices]  # sent as text: the page reads the cards from it
            nxt = self.entries.get(entry["next"]) if entry["next"] is not None else None
            if nxt is None or nxt["seat"] != quiz or nxt["kind"] != "event" or nxt["depth"]:
                del entry["choices"]  # the seat is to act, but the record goes on otherwise: no question
                continue
            played = self.nodes[nxt["i"]]
            key, text = move_key(played), event_text(played, self.spelling)  # type: ignore[arg-type]
            keys = [c["key"] for c in choices]
            found = next((k for k, c in enumerate(texts) if c == text or keys[k] == key), None)
            if found is None:  # an unwritten pass
                found = next((k for k, c in enumerate(keys) if c[1] == "pass" and not c[2]), None)
            if found is None:
                texts.append(text)
            else:
                texts[found] = text
            entry["choices"] = texts

    def for_seat(self, seat: str, engine: Any) -> Counter:
        """Make every entry's text what ``seat`` may read (see the module's docstring); returns
        the cards the seat sees at some step, for the record's own text."""
        pools: dict[int, Counter] = {}  # each hand's set-up lines share what its deal showed the seat
        seen_ever: Counter = Counter()
        for i in sorted(self.entries):
            entry, node = self.entries[i], self.nodes[i]
            after = self.seen.get(i)
            if entry["kind"] == "setup":
                shown = pools.setdefault(entry["hand"], moved_in_sight(None, after))
            else:
                prev = entry["prev"]
                before = self.seen.get(prev) if prev in self.entries and self.entries[prev]["hand"] == entry["hand"] else None
                shown = moved_in_sight(before, after) if entry["replayed"] else Counter()
            if isinstance(node, Event) and engine is not None:
                try:
                    node = engine.seen_event(node, seat, shown)
                except Exception:  # noqa: BLE001 - an engine bug hides the line's cards rather than show them
                    node = hidden_cards(node, lambda card: False)
                entry["text"] = event_text(node, self.spelling)
            elif isinstance(node, Event):
                entry["text"] = event_text(hidden_cards(node, lambda card: False), self.spelling)
            sees = sum((after or {}).values(), Counter()) + Counter(c for c in node.cards() if c != "*") \
                if isinstance(node, Event) else sum((after or {}).values(), Counter())
            seen_ever |= sees
            entry["comments"] = [self.withhold(c, sees, seat) for c in entry["comments"]]
            if "var_comments" in entry:
                entry["var_comments"] = [self.withhold(c, sees, seat) for c in entry["var_comments"]]
            for d in entry["diags"]:
                d["message"] = self.withhold(d["message"], sees, seat)
            entry["sees"] = sees  # for the settlement, then dropped
        return seen_ever

    def withhold(self, text: str, sees: Counter, seat: str) -> str:
        """``text``, or a note in its place when it names a card that is not in ``sees``."""
        if any(not sees[c] for c in cards_named(text, self.spelling)):
            return f"(left out: it names a card seat {seat} does not see here)"
        return text

    def place(self, d: Diagnostic) -> int | None:
        """The entry a diagnostic belongs to: the last one starting at or before it on its line."""
        on_line = [(col, i) for line, col, i in self.positions if line == d.line]
        if not on_line:
            return None
        before = [p for p in on_line if p[0] <= max(d.col, 1)]
        return max(before)[1] if before else min(on_line)[1]


def stopped_at(entries: list[dict[str, Any]], diagnostics: list[Diagnostic],
               heads: dict[int, int] | None = None) -> dict[str, Any] | None:
    """Where the replay gave up on the rest of the record: the first hand it could not
    start (the validator's N502 at that hand's line says why), and the first error before
    it; None when every hand was replayed (each from its own deal, N505)."""
    if heads is None:
        heads = {e["line"]: e["hand"] for e in entries if e["kind"] == "hand" and e["depth"] == 0}
    why = next((d for d in diagnostics if d.code == "N502" and d.line in heads), None)
    if why is None:
        return None
    stop = next((d for d in diagnostics if d.severity == "error" and d.line < why.line), None)
    out = {"hand": heads[why.line], "why": why.message, "at": why.line}
    if stop is not None:
        out.update(line=stop.line, code=stop.code, message=stop.message)
    return out


def count_steps(record: Record) -> int:
    """How many steps (lines of the move list) a record makes, without replaying it."""
    def line(events: list[Event]) -> int:
        return sum(1 + sum(line(v.events) for v in ev.variations) for ev in events)
    return sum(1 + line(h.events) for h in record.hands)


def build_steps(record: Record, path: str = "", index: int = 1,
                read_problems: list[Diagnostic] | None = None, quiz: str | None = None,
                only_hands: range | None = None, seat: str | None = None) -> dict[str, Any]:
    """Everything the record page needs, as plain data (it is embedded as JSON); with ``seat``,
    only what that seat sees (the module's docstring); with ``quiz`` (a seat, then also the
    seat), the steps where that seat is to act carry its legal moves; with ``only_hands``
    (0-based), only those hands' steps carry tables (the others are replayed, not drawn)."""
    collected = _Collector(quiz=quiz or None, spelling=spelling_for_game(record.game), only_hands=only_hands,
                           seat=seat or None)
    report: RecordReport
    errors = [d for d in (read_problems or []) if d.severity == "error"]
    if errors:
        report = RecordReport(path=path, index=index, game=record.game, players=record.players(),
                              result=record.tag("Result"), diagnostics=list(read_problems or []))
    else:
        try:
            report = replay(record, path, on_step=collected, index=index)
        except Exception as exc:  # noqa: BLE001 - the page shows the failure instead of a 500
            report = RecordReport(path=path, index=index, game=record.game, players=record.players())
            report.diagnostics.append(Diagnostic(code="X901", severity="error", message=f"{type(exc).__name__}: {exc}"))
        report.diagnostics = list(read_problems or []) + report.diagnostics
        report.valid = not any(d.severity == "error" for d in report.diagnostics)
    return assemble(record, report, collected, quiz)


def _key(d: Diagnostic) -> tuple[str, int, int, str]:
    return d.code, d.line, d.col, d.message


def assemble(record: Record, report: RecordReport, collected: _Collector, quiz: str | None,
             hands_built: list[tuple[int, Hand, int, int | None]] | None = None,
             heads: dict[int, int] | None = None) -> dict[str, Any]:
    """The page data from a replay's report and what its observer collected: every hand's
    steps; or, with ``hands_built`` (see :meth:`_Builder.build`), those hands' steps only,
    ``heads`` then giving the hand line of every hand (line -> hand index)."""
    seats = next((r.seats for r in collected.by_node.values()), None) or sorted(record.players()) or []
    try:
        engine = games.engine(record.game or "")
    except Exception:  # noqa: BLE001 - an engine that does not import: the replay reports it
        engine = None
    setup_verbs = engine.setup_verbs if engine else frozenset({"deal"})
    builder = _Builder(record, collected, spelling_for_game(record.game), setup_verbs)
    builder.build(seats, hands_built)
    entries = list(builder.entries.values())
    in_steps = {_key(d) for r in collected.by_node.values() for d in r.diagnostics}
    lines = {e["line"] for e in entries}
    first_hand = min(heads) if heads else None
    general: list[dict[str, Any]] = []
    for d in report.diagnostics:
        if _key(d) in in_steps:
            continue
        if hands_built is not None and d.line not in lines and not (first_hand is None or d.line < first_hand):
            continue  # another hand's: shown on its own page
        where = builder.place(d)
        (builder.entries[where]["diags"] if where is not None else general).append(diag_data(d))
    hands = [{"number": h.number, "over": h.over, "computed": h.computed, "written": h.written,
              "totals": h.totals} for h in report.hands]
    for entry in entries:  # main-line hand ends carry the running totals after the hand
        if entry["depth"] == 0 and entry["hand"] < len(hands) and hands[entry["hand"]]["over"] and (
                entry["kind"] == "score" or entry["settlement"] is not None):
            entry["after"] = hands[entry["hand"]]["totals"]
    seat = collected.seat if collected.seat in seats else None
    if quiz and quiz in seats:
        builder.played_among_choices(quiz)
    if seat is not None:
        seen_ever = builder.for_seat(seat, engine)
    stopped = stopped_at(entries, report.diagnostics, heads)
    parts = collected.parts
    tags = [[t.name, t.value] for t in record.tags]
    comments = list(record.comments)
    all_diagnostics = [diag_data(d) for d in report.diagnostics]
    if seat is not None:  # the settlements' words, the record's own text, as the seat may read them
        parts = list(parts)
        for entry in entries:
            sees = entry.pop("sees", Counter())
            k = entry["settlement"]
            if k is not None:
                parts[k] = _withhold_all(parts[k], lambda t, w=sees: builder.withhold(t, w, seat))
        record_text = lambda t: builder.withhold(t, seen_ever, seat)  # noqa: E731
        tags = [[name, record_text(value)] for name, value in tags]
        comments = [record_text(c) for c in comments]
        for d in general + all_diagnostics:
            d["message"] = record_text(d["message"])
        if stopped is not None:
            stopped = _withhold_all(stopped, record_text)
    return {
        "game": record.game or "",
        "family": next((v["family"] for v in collected.parts if isinstance(v, dict) and isinstance(v.get("family"), str)), ""),
        "seats": seats,
        "players": record.players(),
        "tags": tags,
        "comments": comments,
        "valid": report.valid,
        "diagnostics": general,
        "all_diagnostics": all_diagnostics,
        "hands": hands,
        "totals": report.totals,
        "parts": parts,
        "steps": entries,
        "stopped": stopped,
        "quiz": quiz if quiz in seats else "",
        "seat": seat or "",
    }


def _withhold_all(value: Any, text: Any) -> Any:
    """A plain value with every string passed through ``text`` (a copy)."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [_withhold_all(v, text) for v in value]
    if isinstance(value, dict):
        return {k: _withhold_all(v, text) for k, v in value.items()}
    return value
