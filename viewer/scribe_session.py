"""The scribe's record: a game written live, one legal action at a time (``paifu view --scribe``).

Pure Python, no Flask: the blueprint in :mod:`viewer.scribe` is a thin layer over it.
Nothing here knows a rule. The record on disk is the only state: every request names the
line being written (a *path* into the last hand: ``[[event, variation], ...]``, empty for
the main line) and the version of the file it saw; the state is replayed from the file
through the game's engine, the engine lists the legal actions (``legal_actions``) and
writes them (``event_for``), and the record is saved as canonical text after every change
(a temporary file in the same folder, then a rename). So a restarted server resumes where
the file stops, and a page that saw an older version is refused (:class:`Stale`).

Two tabs on one record are refused by :class:`Locks`: the first tab's token holds the
record until it is released or taken over explicitly.
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import os
import random
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paifu.files import Refused, within, write_whole
from paifu.notation import parse, write_record
from paifu.notation.cards import spelling_for_game
from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, Record, Tag, Variation, WordArg, forget_source
from paifu.notation.reader import ParseError
from paifu.notation.writer import write_arg, write_event
from paifu.replay import games
from paifu.replay.engine import Engine, HandHeader, HandState, Match, Rules, Settlement, Violation

from .steps import plain
from paifu.replay.selfplay import score_event
from paifu.replay.validate import IRREGULARITY_VERB, SCORE_VERBS, validate

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # new lines, tabs, NUL, escapes...
LIMITS = {"the Event": 200, "a player's name": 60, "an option's value": 60, "the result": 200,
          "a comment": 1000, "an event": 300, "the set-up lines": 20_000}
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
Path_ = list[list[int]]  # a line: [[event index, variation index], ...] from the main line


class ScribeError(Exception):
    """A request the scribe refuses, with the HTTP status the page gets."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Stale(ScribeError):
    """The page saw an older version of the file: it must reload before writing."""

    status = 409


class Locked(ScribeError):
    """Another tab holds the record."""

    status = 423


class NotFound(ScribeError):
    status = 404


class Outside(ScribeError):
    """A record that is a link leading out of the folder (or to nothing): never read nor written."""

    status = 403


def record_name(name: str) -> str:
    """A record's file name inside the scribe's folder: a plain name, ``.paifu`` added."""
    name = name.strip()
    if name.endswith(".paifu"):
        name = name[: -len(".paifu")]
    if not NAME_RE.match(name) or ".." in name:
        raise ScribeError("a record's name is letters, digits, '.', '_' or '-' (no folder, no '..')")
    return name + ".paifu"


def checked_field(value: str, what: str, lines: bool = False) -> str:
    """``value`` when it may be written into the record as ``what`` (a key of ``LIMITS``): no
    control character (with ``lines``, new lines and tabs are allowed) and not too long."""
    limit = LIMITS[what]
    if len(value) > limit:
        raise ScribeError(f"{what} is at most {limit} characters; this one has {len(value)}")
    found = CONTROL.search(value.replace("\n", "").replace("\r", "").replace("\t", "") if lines else value)
    if found:
        verb = "hold" if what.endswith("lines") else "holds"
        raise ScribeError(f"{what} {verb} a control character (U+{ord(found.group()):04X}: a new line, a tab...): "
                          "write it on one line")
    return value


def rereads(text: str, game: str | None) -> str:
    """``text`` when it reads back as the very record written (parsed, written again the same,
    of the same game); otherwise the save is refused and the file left as it was."""
    try:
        again = parse(text)
    except ParseError as err:
        raise ScribeError(f"this change would not read back ({err}): not saved, the file is unchanged") from None
    if again.game != game or write_record(again) != text:
        raise ScribeError("this change would not read back as written: not saved, the file is unchanged")
    return text


def version_of(text: str) -> str:
    """The version of a file's text: a page writes only over the version it saw."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def save_text(path: Path, text: str) -> None:
    """Write ``text`` as a whole (``paifu.files.write_whole``: a temporary file in the same
    folder, flushed, then renamed), keeping the mode of the file it replaces; a new file
    gets what the umask gives, as any file the user creates."""
    problem = write_whole(path, text)
    if problem:
        raise ScribeError(f"{path.name}: {problem}")


def rules_of(engine: Engine, record: Record) -> Rules:
    rules = Rules({o.name: o.default for o in engine.options})
    for tag in record.option_tags():
        key, _, value = tag.value.partition("=")
        rules[key.strip()] = value.strip()
    return rules


def create(folder: Path, name: str, game: str, options: dict[str, str] | None = None,
           players: list[str] | None = None, event: str = "", date: str | None = None) -> Path:
    """A new record file: its tags (``Result "*"`` while it is written), no hand yet.

    ``players`` names the seats in order (an empty name stays the seat letter); its length
    is the number of seats, which the game must allow.
    """
    engine = games.engine(game)
    if engine is None:
        raise ScribeError(f"no engine for the game '{game}' (games: {', '.join(games.game_ids())})")
    path = folder / record_name(name)
    if os.path.lexists(path):  # a link too, even one leading nowhere: never written through
        raise ScribeError(f"{path.name} already exists: open it to continue, or choose another name")
    known = {o.name: o for o in engine.options}
    chosen: dict[str, str] = {}
    for key, value in (options or {}).items():
        checked_field(value, "an option's value")
        option = known.get(key)
        if option is None:
            raise ScribeError(f"{game} has no option '{key}' (see 'paifu rules {game}')")
        if value == option.default:
            continue
        problem = option.check(value)
        if problem:
            raise ScribeError(problem)
        chosen[key] = value
    rules = Rules({o.name: o.default for o in engine.options})
    rules.update(chosen)
    count = len(players) if players else engine.default_seats(rules)
    if count not in engine.seat_counts:
        raise ScribeError(f"{game} is played by {' or '.join(str(c) for c in engine.seat_counts)}; not {count}")
    names = [(p or "").strip() or chr(ord("A") + i) for i, p in enumerate(players or [""] * count)]
    for n in names:
        checked_field(n, "a player's name")
        if any(c in n for c in ';"\\{}'):
            raise ScribeError(f"a player's name holds no ; \" \\ {{ }} and is at most 60 characters: '{n}'")
    checked_field(event, "the Event")
    tags = [Tag(name="Game", value=game)]
    if event.strip():
        tags.append(Tag(name="Event", value=event.strip().replace('"', "'")))
    tags.append(Tag(name="Date", value=date or datetime.date.today().strftime("%Y.%m.%d")))
    if any((p or "").strip() for p in players or []) or count != engine.seat_counts[0]:
        tags.append(Tag(name="Players", value="; ".join(f"{chr(ord('A') + i)}: {n}" for i, n in enumerate(names))))
    tags += [Tag(name="Option", value=f"{k}={v}") for k, v in chosen.items()]
    tags.append(Tag(name="Result", value="*"))
    save_text(path, rereads(write_record(Record(tags=tags)), game))
    return path


def list_records(folder: Path) -> list[dict[str, str]]:
    """The records in the scribe's folder (not below it), newest first. A link leading out of
    the folder, or to nothing, is listed with its problem and never read."""
    out = []
    for p in sorted(folder.glob("*.paifu"), key=_mtime, reverse=True):
        if not NAME_RE.match(p.stem):
            continue
        game = problem = ""
        try:
            head = read_text(within(folder, p), 400)
            found = re.search(r'^\[Game "([^"]*)"\]', head, re.M)
            game = found.group(1) if found else ""
        except Refused as err:
            problem = err.message
        except (OSError, UnicodeDecodeError) as err:
            problem = f"cannot be read: {getattr(err, 'strerror', None) or err}"
        out.append({"name": p.name, "game": game, "problem": problem})
    return out


def read_text(path: Path, limit: int = -1) -> str:
    """The text of a record already resolved inside the folder (:func:`record_path`), opened
    without following a link: one put in its place since is refused, never read through."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit)
    return data.decode("utf-8", errors="ignore" if limit >= 0 else "strict")


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def record_path(folder: Path, name: str) -> Path:
    """The real path of the record ``name`` in the folder; refused (403) when it is a link
    leading out of the folder or to nothing, 404 when there is no such record."""
    path = folder / record_name(name)
    try:
        real = within(folder, path)
    except Refused as err:
        if not os.path.lexists(path):
            raise NotFound(f"no record {path.name} here") from None
        raise Outside(f"{path.name}: {err.message}") from None
    if not real.is_file():
        raise NotFound(f"no record {path.name} here")
    return real


class Locks:
    """Which tab writes which record: one token per record, kept while the server runs.

    A tab that is closed without releasing its record is taken over with ``force``.
    """

    def __init__(self) -> None:
        self._held: dict[str, str] = {}
        self._mutex = threading.Lock()

    def acquire(self, name: str, token: str, force: bool = False) -> None:
        if not token or len(token) > 100:
            raise ScribeError("a tab token is required")
        with self._mutex:
            holder = self._held.get(name)
            if holder is not None and holder != token and not force:
                raise Locked(f"{name} is open for writing in another tab; close it there, or take it over here")
            self._held[name] = token

    def check(self, name: str, token: str) -> None:
        with self._mutex:
            holder = self._held.get(name)
            if holder is None:  # the server restarted: the first tab to write holds it again
                self._held[name] = token
            elif holder != token:
                raise Locked(f"{name} was taken over by another tab; this tab can no longer write it")

    def release(self, name: str, token: str) -> None:
        with self._mutex:
            if self._held.get(name) == token:
                del self._held[name]


@dataclass
class Position:
    """The state at the end of a line, and how it was reached."""

    engine: Engine
    match: Match
    state: HandState | None  # None before the first hand
    line: list[Event]  # the events of the line being written (set-up lines excluded)
    n_setup: int
    settlement: Settlement | None


class Scribe:
    """One record file being written. Every method that writes takes the version the page saw."""

    def __init__(self, folder: Path, name: str):
        self.folder = folder
        self.name = record_name(name)
        self.path = record_path(folder, self.name)  # a link inside the folder: its target is written
        try:
            self.text = read_text(self.path)
        except (OSError, UnicodeDecodeError) as err:
            raise ScribeError(f"{self.name} cannot be read: {err}") from None
        self.version = version_of(self.text)
        try:
            self.record = parse(self.text)
        except ParseError as err:
            raise ScribeError(f"{self.name} cannot be read: {err}") from None
        engine = games.engine(self.record.game or "")
        if engine is None:
            raise ScribeError(f"{self.name}: no engine for the game '{self.record.game}'")
        self.engine: Engine = engine
        self.seats = list(self.record.players()) or [chr(ord("A") + i) for i in range(engine.seat_counts[0])]
        self.spelling = spelling_for_game(self.record.game)

    # -- reading ---------------------------------------------------------------------------
    def _setup_count(self, hand: Hand) -> int:
        n = 0
        while n < len(hand.events) and hand.events[n].seat is None and hand.events[n].verb in self.engine.setup_verbs:
            n += 1
        return n

    def _header(self, hand: Hand, match: Match) -> HandHeader:
        dealer = hand.attr("dealer")
        attrs = {a.key: a.value for a in hand.args if isinstance(a, OptionArg)}
        return HandHeader(hand.number or match.hands_played + 1, dealer.value if dealer else None, attrs)

    def _play(self, state: HandState, events: list[Event]) -> None:
        for ev in events:
            if ev.seat is None and ev.verb in SCORE_VERBS:
                continue
            if ev.verb == IRREGULARITY_VERB and ev.seat is not None:
                self.engine.irregularity(state, ev)
            else:
                self.engine.apply(state, self.engine.read_action(state, ev))

    def position(self, path: Path_ | None = None, create_var: bool = False) -> Position:
        """Replay the record to the end of the line ``path`` of its last hand."""
        engine = self.engine
        match = engine.start_match(rules_of(engine, self.record), self.seats)
        try:
            for hand in self.record.hands[:-1]:
                n = self._setup_count(hand)
                state = engine.start_hand(match, self._header(hand, match), hand.events[:n])
                self._play(state, hand.events[n:])
                engine.end_hand(match, state, engine.settle(state))
            if not self.record.hands:
                return Position(engine, match, None, [], 0, None)
            hand = self.record.hands[-1]
            n = self._setup_count(hand)
            state = engine.start_hand(match, self._header(hand, match), hand.events[:n])
            line = hand.events
            start = n
            for k, (at, var) in enumerate(path or []):
                if not (start <= at < len(line)) or line[at].seat is None and line[at].verb in SCORE_VERBS:
                    raise ScribeError("no such line in this hand")
                self._play(state, line[start:at])
                variations = line[at].variations
                pending = var == len(variations) and k == len(path or []) - 1
                if pending and create_var:  # a new variation is written with its first event
                    variations.append(Variation())
                elif pending:
                    line, start = [], 0  # a variation not written yet: no event so far
                    continue
                if not (0 <= var < len(variations)):
                    raise ScribeError("no such variation in this hand")
                line, start = variations[var].events, 0
            self._play(state, line[start:])
        except Violation as v:
            raise ScribeError(f"the record cannot be replayed here: {v.code} {v.message}") from None
        settlement = engine.settle(state) if engine.hand_over(state) else None
        return Position(engine, match, state, line, start, settlement)

    def phase(self, pos: Position, path: Path_) -> str:
        """``deal`` (a hand to deal), ``play``, ``score`` (the hand is over, its score line
        not written yet), ``scored`` (written: next hand or finish), ``over`` (the match is)."""
        if pos.state is None:
            return "deal"
        if not self.engine.hand_over(pos.state):
            return "play"
        if not any(e.seat is None and e.verb == "score" for e in pos.line):
            return "score"
        if path:
            return "scored"
        match = self._after(pos)
        return "over" if self.engine.match_over(match) else "scored"

    def _after(self, pos: Position) -> Match:
        """The match after the current (finished) hand, for the totals and the next deal."""
        match = copy.deepcopy(pos.match)
        state = copy.deepcopy(pos.state)
        assert pos.settlement is not None and state is not None
        state.match = match
        self.engine.end_hand(match, state, pos.settlement)
        return match

    def legal(self, pos: Position) -> list[Event]:
        """The actions offered: the engine's legal actions, then those that cards the record has
        not shown could make (``candidate_actions``)."""
        return [ev for ev, _ in self.offered(pos)]

    def offered(self, pos: Position) -> list[tuple[Event, bool]]:
        """Each offered action as an event, and whether it rests on unseen cards (offered by
        ``unseen_actions`` rather than ``legal_actions``)."""
        if pos.state is None or self.engine.hand_over(pos.state):
            return []
        state = pos.state
        n_legal = len(self.engine.legal_actions(state))
        return [(self.engine.event_for(state, a), k >= n_legal) for k, a in enumerate(self.engine.candidate_actions(state))]

    def late_wins(self, pos: Position) -> list[Event]:
        """After the hand's natural end, before its score line: the wins a hand the scribe did
        not see may still declare on the tile the hand ended on (the engine's
        ``late_claimants``: the last discard nobody seen could win on, or a discard already won
        on where several may win), taken on trust as the validator takes them."""
        state = pos.state
        claimants = getattr(self.engine, "late_claimants", None)
        if state is None or claimants is None or not self.engine.hand_over(state):
            return []
        if any(e.seat is None and e.verb == "score" for e in pos.line):
            return []
        wins = getattr(state, "wins", None)
        how, tile = (wins[0].how, wins[0].tile) if wins else ("ron", getattr(state, "discard", None))
        if tile is None:
            return []
        return [self._parse_event(f"{seat}: win {how} {tile}") for seat in claimants(state)]

    def text_of(self, event: Event) -> str:
        return write_event(event, self.spelling)

    def snapshot(self, path: Path_ | None = None) -> dict[str, Any]:
        """Everything the page shows: the table, whose turn, the legal actions, the line, the score."""
        path = path or []
        pos = self.position(path)
        phase = self.phase(pos, path)
        data: dict[str, Any] = {
            "name": self.name, "version": self.version, "game": self.record.game, "seats": self.seats,
            "players": self.record.players(), "path": path, "phase": phase, "family": self.engine.family,
            "title": games.ALL_GAMES.get(self.record.game or "", self.record.game),
            "hands": len(self.record.hands), "text": self.text, "totals": dict(pos.match.totals),
            "to_act": None, "actions": [], "could": [], "view": None, "line": [], "settlement": None, "score": None,
            "late": [], "finish": None,
        }
        if pos.state is None:
            return data
        if phase in ("scored", "over") and not path:
            data["finish"] = self.proposed_result(pos)
        data["view"] = plain(self.engine.view(pos.state, None))
        data["to_act"] = self.engine.to_act(pos.state) if phase == "play" else None
        if phase == "play":
            data["actions"] = [{"i": i, "text": self.text_of(ev), "seat": ev.seat, "verb": ev.verb or "",
                                "cards": ev.cards(), "args": " ".join(write_arg(a, self.spelling) for a in ev.args),
                                "unseen": unseen}
                               for i, (ev, unseen) in enumerate(self.offered(pos))]
            # the cards of the actions that rest on unseen cards, in the engine's order: the page
            # lets the scribe pick among them to narrow the actions, as with a seen hand's cards
            data["could"] = list(dict.fromkeys(c for a in data["actions"] if a["unseen"] for c in a["cards"] if c != "*"))
        if phase == "score":
            data["late"] = [{"i": i, "text": self.text_of(ev), "seat": ev.seat} for i, ev in enumerate(self.late_wins(pos))]
        data["line"] = [{"i": pos.n_setup + k, "text": self.text_of(dataclasses_copy(ev)),
                         "glyphs": list(ev.glyphs), "comments": list(ev.comments),
                         "variations": len(ev.variations), "score": ev.seat is None and ev.verb in SCORE_VERBS}
                        for k, ev in enumerate(pos.line[pos.n_setup:])]
        if pos.settlement is not None:
            data["settlement"] = plain(pos.settlement)
            written = next((e for e in pos.line if e.seat is None and e.verb == "score"), None)
            computed = {s: pos.settlement.deltas.get(s, 0) for s in self.seats}
            score: dict[str, Any] = {"computed": computed, "written": None, "disagree": []}
            if written is not None:
                values = _values(written)
                score["written"] = values
                score["disagree"] = [s for s in self.seats if values.get(s) != computed[s] and s not in pos.settlement.unknown]
            if not path:
                score["totals"] = dict(self._after(pos).totals)
            data["score"] = score
        return data

    # -- writing ---------------------------------------------------------------------------
    def _check(self, version: str) -> None:
        try:
            current = read_text(self.path)
        except (OSError, UnicodeDecodeError) as err:
            raise Stale(f"{self.name} cannot be read again ({err}): reload") from None
        if version != version_of(current):
            raise Stale(f"{self.name} changed since this page was loaded (reload to see it)")

    def _save(self) -> str:
        text = rereads(write_record(self.record), self.record.game)
        save_text(self.path, text)
        self.text = text
        self.version = version_of(self.text)
        return self.version

    def act(self, version: str, path: Path_, index: int, text: str | None = None) -> str:
        """Write the ``index``-th legal action (``text``, when given, must be what the page showed)."""
        self._check(version)
        pos = self.position(path, create_var=True)
        phase = self.phase(pos, path)
        legal = self.legal(pos) if phase == "play" else self.late_wins(pos) if phase == "score" else []
        if phase != "play" and not legal:  # after the hand's end only the offered late wins
            raise ScribeError("the hand is over: nothing more can be played in it")
        if not legal:
            raise ScribeError(f"the engine lists no legal action for {self.engine.to_act(pos.state)} here: write the event")
        if not (0 <= index < len(legal)):
            raise Stale("that action is no longer offered (reload)")
        event = legal[index]
        if text is not None and text != self.text_of(event):
            raise Stale(f"the actions changed: '{text}' is no longer the offered action {index} (reload)")
        pos.line.append(event)
        return self._save()

    def write(self, version: str, path: Path_, text: str) -> str:
        """Write an event typed by the scribe (``B: discard *``); the engine decides whether it is legal."""
        self._check(version)
        pos = self.position(path, create_var=True)
        phase = self.phase(pos, path)
        event = self._parse_event(text)
        late = phase == "score" and pos.state is not None and self.engine.accepts_after_end(pos.state, event)
        if phase != "play" and not late:
            raise ScribeError("the hand is over: nothing more can be played in it")
        if event.seat is None and event.verb in SCORE_VERBS:
            raise ScribeError("the score line is written when the hand is over")
        try:
            self._play(pos.state, [event])  # type: ignore[arg-type]
        except Violation as v:
            raise ScribeError(f"{v.code} {v.message}" + (f" [{v.rule}]" if v.rule else "")) from None
        pos.line.append(event)
        return self._save()

    def _parse_event(self, text: str) -> Event:
        text = checked_field(text, "an event").strip()
        if not text or "(" in text:
            raise ScribeError("write one event on one line, such as 'B: discard 3m'")
        try:
            record = parse(f'[Game "{self.record.game}"]\n\nhand 1\n{text}\n')
        except ParseError as err:
            raise ScribeError(f"cannot read '{text}': {err}") from None
        events = record.hands[0].events if record.hands else []
        if len(events) != 1:
            raise ScribeError(f"write one event, such as 'B: discard 3m'; not '{text}'")
        event = events[0]
        forget_source(event)
        return event

    def undo(self, version: str, path: Path_, steps: int = 1) -> tuple[str, Path_]:
        """Take back the last ``steps`` events of the line (a variation emptied is removed, and
        the line goes on from the event it varied). Returns the new version and line."""
        self._check(version)
        path = [list(p) for p in path]
        for _ in range(max(steps, 1)):
            pos = self.position(path)
            if len(pos.line) > pos.n_setup:
                last = pos.line.pop()
                if last.seat is None and last.verb == "total" and pos.line and pos.line[-1].verb == "score":
                    pos.line.pop()  # the score line and its totals go together
            elif path:  # an empty variation: remove it, go back to its parent line
                at, var = path.pop()
                del self.position(path).line[at].variations[var]
            elif self.record.hands:  # nothing left of the hand's play: take back its deal
                self.record.hands.pop()
            else:
                raise ScribeError("nothing to take back")
        return self._save(), path

    def annotate(self, version: str, path: Path_, index: int, comment: str | None, glyphs: list[str]) -> str:
        """Set the glyphs and the comment of an event of the line (index as the page lists it)."""
        self._check(version)
        pos = self.position(path)
        line, at = pos.line, index
        if not (pos.n_setup <= at < len(line)):
            raise ScribeError("no such event to annotate")
        for g in glyphs:
            if g not in GLYPHS:
                raise ScribeError(f"glyphs are {' '.join(GLYPHS)}; not '{g}'")
        if comment is not None:
            checked_field(comment, "a comment")
        if comment is not None and ("{" in comment or "}" in comment):
            raise ScribeError("a comment holds no { or }")
        event = line[at]
        event.glyphs = list(glyphs)
        event.comments = [comment.strip()] if comment and comment.strip() else []
        return self._save()

    def vary(self, path: Path_, at: int) -> Path_:
        """The line of a new variation replacing event ``at`` of the line ``path`` (created by
        its first action; nothing is written before)."""
        pos = self.position(path)
        line = pos.line
        if not (pos.n_setup <= at < len(line)) or line[at].seat is None and line[at].verb in SCORE_VERBS:
            raise ScribeError("a variation replaces an event of the line")
        return [list(p) for p in path] + [[at, len(line[at].variations)]]

    def score(self, version: str, path: Path_, written: dict[str, int] | None = None) -> str:
        """Write the hand's score line: the computed one, or the scribe's (kept as written; the
        validator will show the disagreement); on the main line the running totals follow."""
        self._check(version)
        pos = self.position(path)
        if self.phase(pos, path) != "score":
            raise ScribeError("the score line is written once, when the hand is over")
        assert pos.settlement is not None
        computed = {s: pos.settlement.deltas.get(s, 0) for s in self.seats}
        values = dict(computed)
        for seat, value in (written or {}).items():
            if seat not in self.seats:
                raise ScribeError(f"no seat {seat}")
            values[seat] = int(value)
        pos.line.append(score_event("score", self.seats, values))
        if not path:
            pos.line.append(score_event("total", self.seats, self._after(pos).totals))
        return self._save()

    def deal(self, version: str, seed: int | None = None, setup: str | None = None) -> str:
        """Open the next hand: a practice deal shuffled by the engine (``seed``), or the set-up
        lines the scribe entered (``*`` for each unseen card), checked by the engine."""
        self._check(version)
        pos = self.position([])
        if pos.state is not None and self.phase(pos, []) not in ("scored",):
            raise ScribeError("the current hand is not over and scored yet")
        match = self._after(pos) if pos.state is not None else pos.match
        number = match.hands_played + 1
        rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(2**32))
        hand = self.engine.deal_hand(match, number, rng)
        if setup is not None:
            head, hand.events = self._parse_setup(setup)
            if head is not None:  # the hand's own line, as entered (its dealer, its dealer draws)
                if head.number not in (None, number):
                    raise ScribeError(f"this is hand {number}, not hand {head.number}")
                hand.args = [a for a in head.args if not isinstance(a, NumArg)]
                hand.args.insert(0, NumArg(value=number))
            while True:
                try:
                    self.engine.start_hand(match, self._header(hand, match), hand.events)
                    break
                except Violation as v:
                    # a line left wholly unseen (a wall nobody saw) that the game wants named or
                    # not written at all: it says nothing, so it is left out
                    if v.event in hand.events and v.event.verb != "deal" and set(v.event.cards()) == {"*"}:
                        hand.events.remove(v.event)
                        continue
                    raise ScribeError(f"{v.code} {v.message}" + (f" [{v.rule}]" if v.rule else "")) from None
        self.record.hands.append(hand)
        return self._save()

    def template(self) -> str:
        """The next hand's line (its number, the dealer the engine expects) and its set-up lines
        with every card unseen: the form the scribe fills in."""
        pos = self.position([])
        if pos.state is not None and self.phase(pos, []) != "scored":
            return ""
        match = self._after(pos) if pos.state is not None else pos.match
        hand = self.engine.deal_hand(match, match.hands_played + 1, random.Random(0))
        lines = [" ".join(["hand"] + [write_arg(a, self.spelling) for a in hand.args])]
        for ev in hand.events:
            parts = [" ".join(["*"] * len(a.cards)) if isinstance(a, CardsArg) else write_arg(a, self.spelling) for a in ev.args]
            lines.append(" ".join(([ev.seat + ":"] if ev.seat else []) + [ev.verb or ""] + parts).strip())
        return "\n".join(lines)

    def palette(self) -> list[str]:
        """Every card or tile code of the game once, for the deal form: the codes of a
        practice deal (the engine's), in a stable order."""
        pos = self.position([])
        hand = self.engine.deal_hand(pos.match, pos.match.hands_played + 1, random.Random(0))
        codes = {c for ev in hand.events for c in ev.cards() if c != "*"}
        return sorted(codes, key=_card_key)

    def _parse_setup(self, text: str) -> tuple[Hand | None, list[Event]]:
        """The set-up lines entered, after the hand's own line when it is given (``hand 1
        dealer=B``): that line (None when not given) and the set-up events."""
        checked_field(text, "the set-up lines", lines=True)
        body = "\n".join(line.strip() for line in text.strip().splitlines() if line.strip())
        if "(" in body or "{" in body:
            raise ScribeError("set-up lines hold no variation and no comment")
        given = body.startswith("hand ") or body == "hand"
        try:
            record = parse(f'[Game "{self.record.game}"]\n\n' + (body if given else f"hand 1\n{body}") + "\n")
        except ParseError as err:
            raise ScribeError(f"cannot read the set-up lines: {err}") from None
        if len(record.hands) != 1:
            raise ScribeError("one hand's line at most, first, then its set-up lines")
        events = record.hands[0].events
        bad = [e for e in events if e.seat is not None or e.verb not in self.engine.setup_verbs]
        if bad or not events:
            raise ScribeError(f"set-up lines only ({', '.join(sorted(self.engine.setup_verbs))}), such as 'deal A: ...'")
        for e in events:
            forget_source(e)
        head = record.hands[0] if given else None
        if head is not None:
            forget_source(head)
        return head, events

    def proposed_result(self, pos: Position | None = None) -> dict[str, str]:
        """The Finish box's proposal, from the totals after the last hand scored: the match's
        outcome as the engine gives it (``match_result``: the winning seats, then the match's
        score where the game gives one) and how it was decided; an empty result when the
        record's end decides nothing (a match that has an end and has not reached it)."""
        pos = pos or self.position([])
        if pos.state is None or self.phase(pos, []) not in ("scored", "over"):
            return {"result": "", "how": "no hand is scored yet"}
        match = self._after(pos)
        outcome = self.engine.match_result(match)
        if outcome is None:
            return {"result": "", "how": f"the match is not over after hand {match.hands_played}: its outcome is not "
                                         "known, so the record is finished without a result"}
        text = " ".join(outcome.winners) + (f" {outcome.score}" if outcome.score is not None else "")
        return {"result": text, "how": outcome.how}

    def finish(self, version: str, result: str) -> str:
        """Close the record: its Result tag, accepted only when the validator agrees with it
        (the proposal, :meth:`proposed_result`, or the same outcome written with the players'
        names); empty writes no result."""
        self._check(version)
        result = " ".join(checked_field(result, "the result").split())
        if result == "*":
            raise ScribeError("'*' marks a record still being written")
        record = copy.deepcopy(self.record)
        record.tags = [t for t in record.tags if t.name != "Result"]
        if result:
            record.tags.append(Tag(name="Result", value=result))
        text = rereads(write_record(record), record.game)
        wrong = [d for d in validate(parse(text)).diagnostics if d.code in ("R211", "R212")]
        if wrong:
            proposed = self.proposed_result()
            hint = f"; the totals give '{proposed['result']}' ({proposed['how']})" if proposed["result"] else f"; {proposed['how']}"
            raise ScribeError(f"{wrong[0].code} {wrong[0].message}{hint}")
        self.record = record
        return self._save()


def dataclasses_copy(ev: Event) -> Event:
    """The event without its annotations and variations, for its one-line text."""
    return Event(seat=ev.seat, verb=ev.verb, args=ev.args)


_RANKS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def _card_key(code: str) -> tuple[str, int, str]:
    """Suit (the last letter) first, then the rank: 1m..9m, 3C..AC; anything else by its text."""
    head, tail = code[:-1], code[-1]
    rank = int(head) if head.isdigit() else _RANKS.get(head, 99)
    return (tail, rank, head)


def _values(event: Event) -> dict[str, int]:
    out: dict[str, int] = {}
    args = event.args
    for i in range(0, len(args) - 1, 2):
        if isinstance(args[i], WordArg) and isinstance(args[i + 1], NumArg):
            out[args[i].text] = args[i + 1].value  # type: ignore[union-attr]
    return out
