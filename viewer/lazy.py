"""A long record's pages, a hand at a time, without reading or replaying the whole record first.

The record's text is cut at its ``hand`` lines (``notation.reader.hand_starts``) and every
hand's steps are counted from its tokens (``scan_events``), so the steps are numbered and
the hand list is complete before any hand is parsed. A hand is parsed when it is first
needed; the replay (``replay.validate.Progressive``) goes on, without drawing, only as far
as the hand asked for, keeping every hand's start; the asked hand is then replayed again
from its start to draw its tables. Going back is one hand's replay; going on replays only
the hands not replayed yet. The report (the chart, the per-hand summary, the validity)
covers the hands replayed so far and fills in as the reader goes on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterator

from paifu.notation.cards import spelling_for_game
from paifu.notation.model import Hand
from paifu.notation.reader import Chunk, read_chunk_by_hand, scan_events
from paifu.replay.validate import Progressive

from .steps import _Collector, assemble

AHEAD = 0  # hands replayed beyond the one asked for
_PARSING = threading.Lock()  # the reader's parser keeps the line offset of the text it parses: one hand at a time


@dataclass
class Skeleton:
    """Where each hand starts in the text, its first line, how many steps it makes and
    which of them is its last main-line step: enough to number every step."""

    offsets: list[int]
    lines: list[int]
    counts: list[int]
    last_main: list[int]

    @property
    def firsts(self) -> list[int]:
        out, at = [], 0
        for n in self.counts:
            out.append(at)
            at += n
        return out


class LazyRecord:
    """One long record served a hand at a time (see the module's docstring)."""

    def __init__(self, chunk: Chunk, path: str, index: int):
        found = read_chunk_by_hand(chunk, path)
        if found is None:
            raise ValueError("the record cannot be read hand by hand")
        self.head, self.stream = found
        self.record = self.head.record
        assert self.record is not None
        self.path, self.index = path, index
        self.lock = threading.Lock()
        self.parsed: dict[int, Hand] = {}
        self.failed = False  # a hand's text has a problem of its own: the caller reads the record whole
        self.skeleton = self._skeleton(chunk)
        self.firsts = self.skeleton.firsts
        self.total = sum(self.skeleton.counts)
        self.progress = Progressive(self.record, path, index, self._hands())
        self.pages: "OrderedDict[tuple[int, str], dict[str, Any]]" = OrderedDict()

    def _text(self, k: int) -> tuple[str, int]:
        starts = self.stream.starts
        offset, line, _ = starts[k]
        end = starts[k + 1][0] if k + 1 < len(starts) else len(self.stream.text)
        return self.stream.text[offset:end], self.stream.first_line + line - 1

    def _skeleton(self, chunk: Chunk) -> Skeleton:
        starts = self.stream.starts
        counts, last_main = [], []
        for k in range(len(starts)):
            text, _ = self._text(k)
            scanned = scan_events(text)
            if scanned is None:  # not plain tokens: parse this hand to count its steps
                hand = self.hand(k)
                if hand is None:
                    raise ValueError(f"hand {k + 1} cannot be read alone")
                scanned = _count(hand)
            counts.append(scanned[0])
            last_main.append(scanned[1])
        return Skeleton([s[0] for s in starts], [self.stream.first_line + s[1] - 1 for s in starts], counts, last_main)

    def hand(self, k: int) -> Hand | None:
        """Hand ``k`` (0-based), parsed once."""
        if k not in self.parsed:
            text, line = self._text(k)
            with _PARSING:
                hands = self.stream._parse(text, line)
            if hands is None:
                self.failed = True
                return None
            self.parsed[k] = hands[0]
        return self.parsed[k]

    def _hands(self) -> Iterator[Hand]:
        for k in range(len(self.stream.starts)):
            hand = self.hand(k)
            if hand is None:
                return
            yield hand

    @property
    def hand_count(self) -> int:
        return len(self.stream.starts)

    def page(self, k: int, quiz: str | None, seat: str | None = None) -> dict[str, Any]:
        """The page data of hand ``k`` (0-based): its steps and tables, the numbering of every
        hand, and the report of the hands replayed so far."""
        k = min(max(k, 0), self.hand_count - 1)
        with self.lock:
            key = (k, quiz or "", seat or "")
            if key in self.pages and self.pages[key]["replayed_hands"] >= min(k + 1 + AHEAD, self.hand_count):
                self.pages.move_to_end(key)
                return self.pages[key]
            self.progress.advance(k + 1 + AHEAD)
            if self.failed:
                raise ValueError(f"a hand of {self.path} cannot be read alone")
            collected = _Collector(quiz=quiz or None, spelling=spelling_for_game(self.record.game), seat=seat or None)
            self.progress.replay_hand(k, collected)
            report = self.progress.report()
            hand = self.hand(k)
            assert hand is not None
            before = None
            if k > 0:
                before = self.firsts[k - 1] + self.skeleton.last_main[k - 1]
            heads = {line: h for h, line in enumerate(self.skeleton.lines)}
            data = assemble(self.record, report, collected, quiz, [(k, hand, self.firsts[k], before)], heads)
            last = self.firsts[k] + self.skeleton.last_main[k]
            steps = {e["i"]: e for e in data["steps"]}
            if k + 1 < self.hand_count and last in steps and steps[last]["next"] is None:
                steps[last]["next"] = self.firsts[k + 1]  # the main line goes on in the next hand
            data["parts"] = {str(i): part for i, part in enumerate(data["parts"])}
            data["paged"] = {"hand": k, "total": self.total, "starts": list(self.firsts),
                             "ends": [f + n - 1 for f, n in zip(self.firsts, self.skeleton.counts)]}
            data["replayed_hands"] = self.progress.replayed
            data["hand_count"] = self.hand_count
            data["complete"] = self.progress.done
            data["unreadable"] = False
            self.pages[key] = data
            while len(self.pages) > 24:
                self.pages.popitem(last=False)
            return data


def _count(hand: Hand) -> tuple[int, int]:
    """A parsed hand's steps (its line, every event and variation event) and the position
    of its last main-line event among them."""
    def line(events: list) -> int:
        return sum(1 + sum(line(v.events) for v in ev.variations) for ev in events)
    total, last = 1, 0
    for ev in hand.events:
        last = total
        total += 1 + sum(line(v.events) for v in ev.variations)
    return total, last
