"""Mutation testing per game: single-event mutants of selfplay records, and whether the validator rejects them.

Issue 18 (Robustness), §Systematic testing. For every game of ``replay.games`` and every
selfplay record (seeds 0..N-1, one hand each), one mutant of each class:

- ``card``: one card or tile of an action (a play, a claim, a deal or wall line) replaced by
  another card of the same record;
- ``seat``: an action given to another seat;
- ``order``: an action swapped with the next one;
- ``drop``: an action deleted;
- ``duplicate``: an action written twice;
- ``score``: one figure of the score line changed (by -3, -1, +1, +2 or +10).

An action is every event but the score lines (``score``, ``total``, ``final``). Each mutant is
written as text, read back and validated, as ``paifu validate`` does. It is

- ``killed`` when the validator gives an error of the right kind: a legality code (``L3xx``)
  or a score code (``S40x``) at or after the mutated line (for ``score``: ``S40x`` at the
  mutated line itself);
- ``wrong code`` when it is rejected with another code (a reading error, an ``X901``...);
- ``equivalent`` when it is accepted and :func:`equivalent` shows, by a rule of the
  notation and not by the engine's verdict, that the mutant says what the original says (a
  pass line where passes may be left out, set-up lines swapped, a set-up line dropped whose
  cards are the set's rest);
- ``same settlement`` when it is accepted with no note, and replayed it settles every hand
  as the original does (each seat's gain or loss, every scoring item, the running totals)
  with the original's written scores: a different legal play with the same outcome (say, a
  discard of another tile the seat holds, which nobody claims). This is the issue's
  "equivalent" judged by replaying, as the survivors' list in docs/robustness.md shows; a
  score mutant is never one;
- ``survivor`` otherwise: accepted, though it changes legality or a score (or accepted
  with a note that a score could not be checked): a miss.

The kill rate is killed / (all - equivalent - same settlement); the strict rate counts the
"same settlement" mutants as misses too.

Run: ``python tests/mutation.py [--records N] [--games g1,g2] [--json FILE]`` (the long
profile is 1,000 records a game); ``tests/test_mutation.py`` runs a sample in CI and the
long profile with ``PAIFU_MUTATION=long``. The figures are in docs/robustness.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paifu.notation import parse, write_record  # noqa: E402
from paifu.notation.model import CardsArg, Event, NumArg, Record  # noqa: E402
from paifu.replay import games, validate  # noqa: E402
from paifu.replay.selfplay import selfplay_record  # noqa: E402
from paifu.replay.validate import SCORE_VERBS  # noqa: E402

CLASSES = ("card", "seat", "order", "drop", "duplicate", "score")
SCORE_DELTAS = (-3, -1, 1, 2, 10)


@dataclass
class Mutant:
    game: str
    seed: int
    kind: str
    line: int  # 1-based line of the mutated event in the mutant's text
    before: str  # the original event (or events) as text
    after: str  # the mutant's event (or events) as text
    text: str  # the whole mutant record
    setup: bool = False  # a set-up line (deal, wall...) was mutated
    notes: list[str] = field(default_factory=list)  # the notes the validator gave the mutant


@dataclass
class Outcome:
    mutant: Mutant
    verdict: str  # killed, wrong code, equivalent, survivor
    codes: list[str] = field(default_factory=list)  # "CODE@line" of the errors
    reason: str = ""


def _is_action(ev: Event) -> bool:
    return not (ev.seat is None and ev.verb in SCORE_VERBS)


def _event_text(ev: Event) -> str:
    """An event as one line of text (the writer's form, comments and variations left out)."""
    head = f"{ev.seat}:" if ev.seat else ""
    parts = [head] if head else []
    if ev.verb:
        parts.append(ev.verb)
    for a in ev.args:
        parts.append(_arg_text(a))
    return " ".join(parts)


def _arg_text(a) -> str:
    if isinstance(a, CardsArg):
        return " ".join(a.cards) if len(a.cards) < 6 else "".join(a.cards[:6]) + "..."
    if isinstance(a, NumArg):
        return f"{a.value:+d}" if a.signed else str(a.value)
    return getattr(a, "text", None) or (f"{a.key}={a.value}" if hasattr(a, "key") else getattr(a, "seat", "?"))


def original(game: str, seed: int) -> Record:
    return selfplay_record(games.engine(game), seed, hands=1)


def mutate(game: str, seed: int, record: Record, kind: str, rnd: random.Random) -> Mutant | None:
    """One mutant of this class, or None when the record offers no place for it."""
    rec = record.model_copy(deep=True)
    hand_index = rnd.randrange(len(rec.hands))
    events = rec.hands[hand_index].events
    actions = [i for i, ev in enumerate(events) if _is_action(ev)]
    seats = sorted({ev.seat for ev in events if ev.seat})
    if kind == "card":
        spots = [(i, k, j) for i in actions for k, a in enumerate(events[i].args) if isinstance(a, CardsArg)
                 for j, c in enumerate(a.cards) if c != "*"]
        universe = sorted({c for i in actions for a in events[i].args if isinstance(a, CardsArg) for c in a.cards if c != "*"})
        if not spots or len(universe) < 2:
            return None
        i, k, j = rnd.choice(spots)
        touched = [events[i]]
        before = _event_text(events[i])
        old = events[i].args[k].cards[j]
        events[i].args[k].cards[j] = rnd.choice([c for c in universe if c != old])
        target, after = i, _event_text(events[i])
    elif kind == "seat":
        spots = [i for i in actions if events[i].seat]
        if not spots or len(seats) < 2:
            return None
        i = rnd.choice(spots)
        touched = [events[i]]
        before = _event_text(events[i])
        events[i].seat = rnd.choice([s for s in seats if s != events[i].seat])
        target, after = i, _event_text(events[i])
    elif kind == "order":
        spots = [i for i in actions if i + 1 in actions and _event_text(events[i]) != _event_text(events[i + 1])]
        if not spots:
            return None
        i = rnd.choice(spots)
        touched = [events[i], events[i + 1]]
        before = _event_text(events[i]) + " / " + _event_text(events[i + 1])
        events[i], events[i + 1] = events[i + 1], events[i]
        target, after = i, _event_text(events[i]) + " / " + _event_text(events[i + 1])
    elif kind == "drop":
        if not actions:
            return None
        i = rnd.choice(actions)
        touched = [events[i]]
        before, after = _event_text(events[i]), "(dropped)"
        del events[i]
        target = i
    elif kind == "duplicate":
        if not actions:
            return None
        i = rnd.choice(actions)
        touched = [events[i]]
        before = _event_text(events[i])
        events.insert(i + 1, events[i].model_copy(deep=True))
        target, after = i + 1, before + " (twice)"
    elif kind == "score":
        spots = [(i, k) for i, ev in enumerate(events) if not _is_action(ev)
                 for k, a in enumerate(ev.args) if isinstance(a, NumArg)]
        if not spots:
            return None
        i, k = rnd.choice(spots)
        touched = [events[i]]
        before = _event_text(events[i])
        arg = events[i].args[k]
        value = arg.value + rnd.choice(SCORE_DELTAS)
        events[i].args[k] = NumArg(value=value, signed=value != 0)
        target, after = i, _event_text(events[i])
    else:
        raise ValueError(kind)
    text = write_record(rec)
    again = parse(text)
    hand = again.hands[hand_index]
    if target < len(hand.events):
        line = hand.events[target].at.line
    else:  # a dropped last event: the error is due at the hand's end
        line = (hand.events[-1].at.line + 1) if hand.events else hand.at.line + 1
    setup = any(_is_setup(game, ev) for ev in touched)
    return Mutant(game, seed, kind, line, before, after, text, setup)


def _is_setup(game: str, ev: Event) -> bool:
    return ev.seat is None and ev.verb in games.engine(game).setup_verbs


# Games where a pass may be left out: the next event shows that nobody claimed or spoke
# (docs/notation.md §Events: "Passing on a claim is implicit in mahjong and the paper-card
# games"; docs/games/ninetynine.md: "A: pass ... may be left out"). In Big Two and Piquet a
# pass is a move.
IMPLICIT_PASS = frozenset({"kawuxing", "paomazai", "sanma", "wuhan", "yichang", "paohuzi", "jiuzhi", "ninetynine"})


# Lines the players write together, in any order (docs/rulings.md: §ninetynine "the three
# `bid` lines may come in any order"; §yichang "each seat writes `A: exchange 456s` ... in
# any order").
SIMULTANEOUS = {"ninetynine": frozenset({"bid"}), "yichang": frozenset({"exchange"})}


def _texts(hand, skip_passes: bool = False) -> list[str]:
    return [_event_text(e) for e in hand.events if not (skip_passes and e.verb == "pass" and not e.args)]


def _cards(ev: Event) -> list[str]:
    return [c for a in ev.args if isinstance(a, CardsArg) for c in a.cards]


def equivalent(mutant: Mutant, base: Record, mutated: Record) -> str:
    """Why an accepted mutant is as legal as the original and keeps its scores, by a rule of the notation; "" when none applies.

    Each reason holds by the notation's rules alone, whatever the engine says.
    """
    if write_record(base) == write_record(mutated):
        return "the mutant is the original record"
    changed = [(h0, h1) for h0, h1 in zip(base.hands, mutated.hands) if _texts(h0) != _texts(h1)]
    if len(changed) != 1:
        return ""
    h0, h1 = changed[0]
    if mutant.game in IMPLICIT_PASS and _texts(h0, True) == _texts(h1, True):
        return "only a pass line differs, and in this game a pass may be left out (the next event shows it)"
    a, b = h0.events, h1.events
    if mutant.kind == "order":
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if _event_text(x) != _event_text(y)]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and all(_is_setup(mutant.game, a[i]) for i in diff):
            return "two set-up lines swapped: a deal does not depend on the order its lines are written in"
        together = SIMULTANEOUS.get(mutant.game, frozenset())
        if len(diff) == 2 and diff[1] == diff[0] + 1 and all(a[i].seat and a[i].verb in together for i in diff):
            return f"two '{a[diff[0]].verb}' lines swapped: the players lay them down together, in any order"
    if mutant.kind == "drop" and len(a) == len(b) + 1:
        i = next((k for k, (x, y) in enumerate(zip(a, b)) if _event_text(x) != _event_text(y)), len(b))
        if _is_setup(mutant.game, a[i]) and _cards(a[i]):
            setup = Counter(c for e in a if _is_setup(mutant.game, e) for c in _cards(e))
            # every set-up line names cards of one set; with the line dropped, its cards are
            # exactly the set's cards no other set-up line names
            if "*" not in setup and not mutant.notes:
                return "a set-up line dropped whose cards are the ones no other set-up line names (the set's complement)"
    return ""


def _same_settlement(r0, r1) -> bool:
    """Every hand of the mutant settles as the original's (deltas and scoring items) and writes the original's (right) scores."""
    return len(r0.hands) == len(r1.hands) and all(
        h0.computed == h1.computed and h0.written == h1.written and h0.totals == h1.totals
        and [(i.seat, i.name, i.value) for i in h0.items] == [(i.seat, i.name, i.value) for i in h1.items]
        for h0, h1 in zip(r0.hands, r1.hands))


def judge(mutant: Mutant, base: Record, base_report=None) -> Outcome:
    mutated = parse(mutant.text)
    report = validate(mutated)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    mutant.notes = [f"{d.code}@{d.line}" for d in report.diagnostics if d.severity != "error"]
    codes = [f"{d.code}@{d.line}" for d in errors]
    if errors:
        if mutant.kind == "score":
            right = any(d.code.startswith("S40") and d.line == mutant.line for d in errors)
        else:
            first_line = mutated.hands[0].at.line if mutated.hands and mutated.hands[0].at else 1
            floor = first_line if mutant.setup else mutant.line
            right = all(d.code[0] in "LS" for d in errors) and errors[0].line >= floor
        return Outcome(mutant, "killed" if right else "wrong code", codes)
    reason = equivalent(mutant, base, mutated)
    if reason:
        return Outcome(mutant, "equivalent", codes, reason)
    base_report = base_report or validate(base)
    if mutant.kind != "score" and not mutant.notes and _same_settlement(base_report, report):
        return Outcome(mutant, "same settlement", codes,
                       "accepted with no note; every hand's settlement (deltas and scoring items) is the original's")
    return Outcome(mutant, "survivor", codes + mutant.notes)


def run(game: str, seeds: range, classes: tuple[str, ...] = CLASSES) -> list[Outcome]:
    """The outcomes of one mutant of each class for each seed's selfplay record."""
    out = []
    for seed in seeds:
        base = original(game, seed)
        base_report = validate(parse(write_record(base)))
        for kind in classes:
            rnd = random.Random(f"{game}/{seed}/{kind}")
            mutant = mutate(game, seed, base, kind, rnd)
            if mutant is not None:
                out.append(judge(mutant, base, base_report))
    return out


def summary(outcomes: list[Outcome]) -> dict[str, dict[str, int]]:
    """Per class: how many mutants were killed, rejected with a wrong code, equivalent, survivors."""
    table: dict[str, Counter] = {}
    for o in outcomes:
        table.setdefault(o.mutant.kind, Counter())[o.verdict] += 1
    return {k: dict(v) for k, v in table.items()}


def kill_rate(outcomes: list[Outcome], strict: bool = False) -> float:
    """Killed among the mutants that change legality or a score (all but the equivalent ones;
    ``strict``: the "same settlement" ones count as changing it)."""
    kept = ("equivalent",) if strict else ("equivalent", "same settlement")
    relevant = [o for o in outcomes if o.verdict not in kept]
    return sum(o.verdict == "killed" for o in relevant) / len(relevant) if relevant else 1.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=1000, help="selfplay records a game (seeds 0..N-1)")
    ap.add_argument("--first", type=int, default=0, help="first seed")
    ap.add_argument("--games", default=",".join(games.game_ids()))
    ap.add_argument("--json", help="write every non-killed outcome and the figures to this file")
    args = ap.parse_args(argv)
    doc: dict = {"games": {}}
    for game in args.games.split(","):
        started = time.process_time()
        outcomes = run(game, range(args.first, args.first + args.records))
        cpu = time.process_time() - started
        figures = {"mutants": len(outcomes), "classes": summary(outcomes), "kill_rate": round(kill_rate(outcomes), 5),
                   "strict_kill_rate": round(kill_rate(outcomes, strict=True), 5),
                   "cpu_seconds": round(cpu, 1),
                   "not_killed": [{"seed": o.mutant.seed, "kind": o.mutant.kind, "verdict": o.verdict, "line": o.mutant.line,
                                   "before": o.mutant.before, "after": o.mutant.after, "codes": o.codes, "notes": o.mutant.notes, "reason": o.reason}
                                  for o in outcomes if o.verdict != "killed"]}
        doc["games"][game] = figures
        print(f"{game}: {len(outcomes)} mutants, kill rate {figures['kill_rate']:.4f} (strict {figures['strict_kill_rate']:.4f}), {figures['classes']}, {cpu:.0f} s CPU", flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
