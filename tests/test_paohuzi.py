"""Paohuzi 跑胡子: property tests over selfplay records, mutations, and the scoring tables.

The rules themselves are checked by the record tests under tests/records/paohuzi/.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from notation import read_text
from notation.model import CardsArg, NumArg, Record, Tag
from notation.writer import write_record
from paifu_cli import _report_for
from replay import paohuzi as ph
from replay.engine import HandHeader, Rules
from replay.selfplay import score_event, selfplay_record
from replay.validate import validate

ENGINE = ph.ENGINE
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _report(text: str):
    results = list(read_text(text))
    assert len(results) == 1
    return _report_for(results[0], 1)


def _codes(report) -> set[tuple[str, int]]:
    return {(d.code, d.line) for d in report.diagnostics if d.severity == "error"}


# -- selfplay ---------------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed)
    report = _report(write_record(record))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert all(h.over for h in report.hands)


@settings(max_examples=10, deadline=None)
@given(SEEDS, st.sampled_from(["blog_keep", "original"]), st.sampled_from(["all", "chi_only"]))
def test_selfplay_with_options_validates(seed, rotation, claims):
    record = selfplay_record(ENGINE, seed, options={"dealer_rotation": rotation, "claims_on_discard": claims})
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_four_player_selfplay_validates(seed):
    """With four players the shuffler sits out; selfplay deals around him."""
    rng = random.Random(seed)
    rules = Rules({o.name: o.default for o in ENGINE.options})
    match = ENGINE.start_match(rules, list("ABCD"))
    record = Record(tags=[Tag(name="Game", value="paohuzi"), Tag(name="Players", value="A: a; B: b; C: c; D: d")])
    for number in (1, 2, 3):
        hand = ENGINE.deal_hand(match, number, rng)
        state = ENGINE.start_hand(match, HandHeader(number, hand.attr("dealer").value, {}), hand.events)
        assert state.sitter is not None and state.sitter not in state.hands
        while not ENGINE.hand_over(state):
            seat = ENGINE.to_act(state)
            action = ENGINE.choose(ENGINE.seat_view(state, seat), ENGINE.legal_actions(state), rng)
            hand.events.append(ENGINE.event_for(state, action))
            ENGINE.apply(state, action)
        settlement = ENGINE.settle(state)
        assert settlement.deltas[state.sitter] == 0
        hand.events.append(score_event("score", match.seats, settlement.deltas))
        ENGINE.end_hand(match, state, settlement)
        record.hands.append(hand)
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]


def test_selfplay_wins_at_least_half_the_hands():
    wins = hands = 0
    for seed in range(20):
        record = selfplay_record(ENGINE, seed)
        for hand in record.hands:
            hands += 1
            wins += any(ev.verb == "win" for ev in hand.events)
    assert wins * 2 >= hands, f"{wins} wins in {hands} hands"


def test_selfplay_policy_sees_only_its_seat():
    record = selfplay_record(ENGINE, 5, hands=1)
    hand = record.hands[0]
    match = ENGINE.start_match(Rules({o.name: o.default for o in ENGINE.options}), list("ABC"))
    state = ENGINE.start_hand(match, HandHeader(1, "A", {}), hand.events[:4])
    seen = ENGINE.seat_view(state, "B")
    assert seen.hand == state.hands["B"]
    assert not hasattr(seen, "hands") and not hasattr(seen, "stock")
    assert all(not m.concealed for ms in seen.others_open.values() for m in ms)


# -- mutations --------------------------------------------------------------------------
def _replay_to(record: Record, hand_index: int, event_index: int):
    """The engine state just before event ``event_index`` of hand ``hand_index``."""
    rules = Rules({o.name: o.default for o in ENGINE.options})
    match = ENGINE.start_match(rules, list("ABC"))
    for h, hand in enumerate(record.hands):
        n_setup = sum(1 for ev in hand.events if ev.seat is None and ev.verb in ENGINE.setup_verbs)
        state = ENGINE.start_hand(match, HandHeader(h + 1, hand.attr("dealer").value, {}), hand.events[:n_setup])
        for i, ev in enumerate(hand.events[n_setup:], n_setup):
            if h == hand_index and i == event_index:
                return state
            if ev.verb in ("score", "total"):
                continue
            ENGINE.apply(state, ENGINE.read_action(state, ev))
        ENGINE.end_hand(match, state, ENGINE.settle(state))
    raise AssertionError("event not found")


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.randoms(use_true_random=False))
def test_discarding_a_card_not_held_is_l303(seed, rnd):
    record = selfplay_record(ENGINE, seed, hands=1)
    hand = record.hands[0]
    discards = [i for i, ev in enumerate(hand.events) if ev.verb == "discard"]
    assume(discards)  # a hand may end at once (天胡) with no discard
    i = rnd.choice(discards)
    state = _replay_to(record, 0, i)
    seat = hand.events[i].seat
    missing = [k for k in ph.KINDS if state.hands[seat][k] == 0]
    assume(missing)
    mutated = copy.deepcopy(record)
    mutated.hands[0].events[i].args = [CardsArg(cards=[rnd.choice(missing)])]
    text = write_record(mutated)
    line = _line_of(text, i) + 1
    report = _report(text)
    assert ("L303", line) in _codes(report), [d.format() for d in report.diagnostics]


def _line_of(text: str, event_index: int) -> int:
    """The 0-based line of event ``event_index`` of the first hand in canonical text."""
    lines = text.split("\n")
    start = next(k for k, l in enumerate(lines) if l.startswith("hand "))
    return start + 1 + event_index


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.integers(min_value=1, max_value=9))
def test_a_changed_score_is_s401(seed, delta):
    record = selfplay_record(ENGINE, seed, hands=1)
    hand = record.hands[0]
    i = next(k for k, ev in enumerate(hand.events) if ev.verb == "score")
    score = hand.events[i]
    score.args[1] = NumArg(value=score.args[1].value + delta, signed=True)
    text = write_record(record)
    report = _report(text)
    assert ("S401", _line_of(text, i) + 1) in _codes(report)


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_skipping_a_compulsory_pao_or_a_draw_is_rejected(seed):
    """Dropping a pao, or a draw, leaves an illegal line behind it."""
    record = selfplay_record(ENGINE, seed, hands=1)
    hand = record.hands[0]
    targets = [k for k, ev in enumerate(hand.events) if ev.verb == "pao"] or \
              [k for k, ev in enumerate(hand.events) if ev.verb == "draw"]
    assume(targets)  # a hand won on the dealt cards has neither
    del hand.events[targets[0]]
    report = _report(write_record(record))
    assert not report.valid
    assert {d.code for d in report.diagnostics if d.severity == "error"} <= {"L301", "L302", "L303", "L304", "L307"}


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=10_000), st.sampled_from(["7z", "11x", "*", "draw", "win", "pao", "+3", "D:", "(", "{", "x=y"]))
def test_bad_input_never_crashes(seed, pos, token):
    text = write_record(selfplay_record(ENGINE, seed, hands=1))
    words = text.split(" ")
    k = pos % len(words)
    words[k] = token
    for index, result in enumerate(read_text(" ".join(words)), 1):
        report = _report_for(result, index)
        assert not any(d.code == "X901" for d in report.diagnostics), [d.format() for d in report.diagnostics]


# -- the tables -------------------------------------------------------------------------
def test_chi_shapes():
    assert ph.chi_shape(["1x", "2x", "3x"]) == "sequence"
    assert ph.chi_shape(["2d", "7d", "10d"]) == "sequence"
    assert ph.chi_shape(["4d", "5d", "6d"]) == "run"
    assert ph.chi_shape(["5x", "5x", "5d"]) == "mixed"
    assert ph.chi_shape(["5x", "5x", "5x"]) is None
    assert ph.chi_shape(["2x", "7x", "10d"]) is None
    assert ph.chi_shape(["8x", "9x", "10x"]) == "run"


def test_chi_options_use_the_hand():
    hand = Counter({"2x": 1, "3x": 1, "7x": 1, "10x": 1, "4d": 2})
    assert set(ph.chi_options(hand, "4x")) == {("2x", "3x", "4x"), ("4x", "4d", "4d")}
    assert ("2x", "7x", "10x") in ph.chi_options(hand, "2x")
    assert ("4x", "4d", "4d") in ph.chi_options(hand, "4x")


def test_dishu_formula():
    assert ph.dishu_of(15, False, None) == 1
    assert ph.dishu_of(26, False, None) == 4
    assert ph.dishu_of(24, True, None) == 5
    assert ph.dishu_of(12, False, "dealt") == 5
    assert ph.dishu_of(9, False, "first_discard") == 2


def test_fan_table():
    facts = ph.HandFacts(red=16, big=9, small=12, has_sequence=True)
    assert {i.id: v for i in ph.FAN_TABLE if (v := i.value(facts))} == {"hong": 10}
    facts = ph.HandFacts(red=0, big=12, small=9, has_sequence=False)
    assert {i.id: v for i in ph.FAN_TABLE if (v := i.value(facts))} == {"hei": 8, "dui": 8}
    facts = ph.HandFacts(red=1, big=19, small=2, has_sequence=True)
    assert {i.id: v for i in ph.FAN_TABLE if (v := i.value(facts))} == {"dian": 6, "da": 9}


def test_best_arrangement_prefers_huxi():
    counts = ph.counts_of("1x 2x 3x 2x 7x 10x".split())
    options = ph.best_arrangements(counts, False)
    assert max(hx for hx, _ in options.values()) == 6
    assert ph.best_arrangements(ph.counts_of("1x 2x 4x".split()), False) == {}
