"""Piquet: properties of the engine over random legal games, and the match rules the
record files cannot show in score lines (the Rubicon game score).

Record tests (tests/records/piquet/) hold the worked hands; here selfplay records must
validate, and mutated ones must be rejected with the right code at the right line.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from notation import parse, write_records
from notation.reader import read_text
from replay.games import engine
from replay.piquet import ENGINE, Spec, assign, candidates, point_score, sequence_score
from replay.engine import Rules
from replay.selfplay import selfplay_record
from replay.validate import validate

RECORDS = Path(__file__).parent / "records" / "piquet"
OPTION_SETS = [
    {},
    {"scoring": "old"},
    {"rules": "parlett"},
    {"deck": "36"},
    {"partie": "rubicon"},
    {"target": "40"},
    {"blanche_procedure": "simple", "extra_combos": "any"},
]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _record_text(seed: int, options: dict[str, str], hands: int = 2) -> str:
    return write_records([selfplay_record(ENGINE, seed, hands, options)])


def _codes(text: str) -> set[tuple[str, int]]:
    out = set()
    for result in read_text(text):
        assert result.record is not None, [d.format() for d in result.diagnostics]
        report = validate(result.record)
        out |= {(d.code, d.line) for d in report.diagnostics}
    return out


def _rules(**kw: str) -> Rules:
    rules = Rules({o.name: o.default for o in ENGINE.options})
    rules.update(kw)
    return rules


def test_registered():
    assert engine("piquet") is ENGINE


@SETTINGS
@given(seed=st.integers(0, 10**6), which=st.integers(0, len(OPTION_SETS) - 1))
def test_selfplay_validates(seed, which):
    text = _record_text(seed, OPTION_SETS[which])
    record = parse(text)
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    # the written text reads back to the same record
    assert write_records([record]) == text


@SETTINGS
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_card_not_held_is_rejected(seed, pick):
    """A follower who plays the card just led does not hold it: L303 at that line."""
    lines = _record_text(seed, {}, hands=1).split("\n")
    follows = [i for i, line in enumerate(lines) if re.match(r"^[AB]: follow ", line) and re.match(r"^[AB]: lead ", lines[i - 1])]
    assume(follows)  # a deal stopped at the target during the declarations has no trick
    i = follows[pick % len(follows)]
    led = lines[i - 1].split()[-1]
    lines[i] = lines[i].rsplit(" ", 1)[0] + " " + led
    assert ("L303", i + 1) in _codes("\n".join(lines))


@SETTINGS
@given(seed=st.integers(0, 10**6), delta=st.sampled_from([-2, -1, 1, 3]))
def test_changed_score_is_rejected(seed, delta):
    lines = _record_text(seed, {}, hands=1).split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith("score "))
    parts = lines[i].split()
    value = int(parts[2]) + delta
    parts[2] = f"{value:+d}" if value else "0"
    lines[i] = " ".join(parts)
    assert ("S401", i + 1) in _codes("\n".join(lines))


@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_overstated_point_is_rejected(seed):
    """Elder declares his longest suit; three cards more is a declaration he cannot make."""
    lines = _record_text(seed, {}, hands=1).split("\n")
    i = next(k for k, line in enumerate(lines) if re.match(r"^[AB]: point \d+$", line))
    head, n = lines[i].rsplit(" ", 1)
    lines[i] = f"{head} {int(n) + 3}"
    assert ("L301", i + 1) in _codes("\n".join(lines))


@SETTINGS
@given(seed=st.integers(0, 10**6), cut=st.integers(1, 400), junk=st.sampled_from(["A: sets 3", "B: making Q", "A: exchange", "B: follow 6S", "A: point", "A: sequence 12 to Z", "A: not bad", "C: lead AS", "score A x"]))
def test_bad_input_never_crashes(seed, cut, junk):
    lines = _record_text(seed, {}, hands=1).split("\n")
    body = [i for i, line in enumerate(lines) if re.match(r"^[AB]: ", line)]
    i = body[cut % len(body)]
    lines.insert(i, junk)
    codes = _codes("\n".join(lines))
    assert not any(code == "X901" for code, _ in codes)


def test_policy_plays_to_win():
    """The selfplay policy beats a random one: over 30 deals it scores more than half."""
    import random

    from replay.engine import HandHeader

    wins = 0
    for seed in range(30):
        rng = random.Random(seed)
        match = ENGINE.start_match(_rules(), ["A", "B"])
        hand = ENGINE.deal_hand(match, 1, rng)
        state = ENGINE.start_hand(match, HandHeader(1, "B", {}), hand.events)
        while not ENGINE.hand_over(state):
            seat = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state)
            action = ENGINE.choose(ENGINE.seat_view(state, seat), legal, rng) if seat == "A" else rng.choice(legal)
            ENGINE.apply(state, action)
        deltas = ENGINE.settle(state).deltas
        wins += deltas["A"] > deltas["B"]
    assert wins > 20


def test_sequences_and_sinking():
    rules = _rules()
    cards = ["AS", "KS", "QS", "JS", "TS", "7H", "8H", "9H"]
    seqs = {(c.size, c.rank) for c in candidates("sequence", cards, rules)}
    assert (5, "A") in seqs and (4, "K") in seqs and (3, "9") in seqs
    # a quint and a tierce can be declared together, not two overlapping runs
    assert assign([Spec("sequence", (5, 8)), Spec("sequence", (3, 3))], cards, rules) is not None
    assert assign([Spec("sequence", (5, 8)), Spec("sequence", (4, 7))], cards, rules) is None
    assert [sequence_score(n) for n in range(3, 10)] == [3, 4, 15, 16, 17, 18, 19]


def _rubicon_items(path: Path, index: int) -> list:
    results = list(read_text(path.read_text()))
    report = validate(results[index].record)
    return [(i.seat, i.name, i.value) for h in report.hands for i in h.items if i.name == "rubicon game"]


def test_rubicon_game_score():
    """ルビコン: the winner scores the sum + 100 when the loser is under 100, else the difference + 100."""
    assert _rubicon_items(RECORDS / "rubicon.paifu", 0) == [("A", "rubicon game", 343 - 229 + 100)]
    assert _rubicon_items(RECORDS / "rubicon.paifu", 1) == [("A", "rubicon game", 172 + 58 + 100)]


def test_options_listed():
    names = {o.name for o in ENGINE.options}
    assert {"scoring", "rules", "deck", "partie", "target", "match", "extra_combos", "younger_min", "last_trick_ten", "capot_last_trick", "blanche_procedure"} <= names


def test_old_point_rounds_half_up():
    """古いルール: 点数の 1 の桁を四捨五入し 10 で割った値を得点します (45 -> 5)."""
    old = _rules(scoring="old")
    assert [point_score((v,), old) for v in (44, 45, 49, 50, 81)] == [4, 5, 5, 5, 8]
    assert point_score((5, 45), _rules()) == 5  # modern: the count
