"""Paohuzi 跑胡子: property tests over selfplay records, mutations, and the scoring tables.

The rules themselves are checked by the record tests under tests/records/paohuzi/.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paifu.notation import read_text
from paifu.notation.model import CardsArg, NumArg, Record, Tag
from paifu.notation.writer import write_record
from paifu.replay.validate import validate_read
from paifu.replay.paper import paohuzi as ph
from paifu.replay.engine import HandHeader, Rules
from paifu.replay.selfplay import score_event, selfplay_record
from paifu.replay.validate import validate

ENGINE = ph.ENGINE
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _report(text: str):
    results = list(read_text(text))
    assert len(results) == 1
    return validate_read(results[0], 1)


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
        report = validate_read(result, index)
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


# -- an independent scorer, written from the rule text and RULINGS' tables (not the engine) --
# 「跑胡子(paohuzi)」 §得点: 底数 = (胡息 - 12) ÷ 3 (端数切り捨て); 得点 = 底数 × 番数; +1 to 底数 on a
# self-drawn win (自分の手番で山札から引いたカードで上がった場合); 天胡: 底数 = (胡息 × 2 - 12) ÷ 3, +1 for
# the 親's dealt hand all in sets; §支払い: every player who did not win pays the 得点.
# RULINGS §paohuzi: 胡息 per set (small / big) and the 番 table.
SEED_HUXI = {  # set -> (small, big)
    "提": (9, 12), "跑": (6, 9), "坎": (3, 6), "偎": (3, 6), "臭偎": (3, 6), "碰": (1, 3),
    "刻子": (3, 6), "一二三": (3, 6), "二七十": (3, 6), "シークエンス": (0, 0), "ラン": (0, 0), "対子": (0, 0),
}
SEED_RED = {2, 7, 10}  # 「二」、「七」、「十」、「弐」、「柴」、「拾」
CHI_SETS = {"一二三", "二七十", "シークエンス", "ラン"}


def _card(text: str) -> tuple[int, bool]:
    """``5x`` -> (5, small); ``5d`` -> (5, big)."""
    return int(text[:-1]), text.endswith("d")


def _shape(cards: list[tuple[int, bool]]) -> str:
    """The name of a three-card set that is not three identical cards (§セットの構成, §シークエンス)."""
    nums = sorted(n for n, _ in cards)
    suits = {b for _, b in cards}
    if len(set(nums)) == 1:
        assert len(suits) == 2
        return "ラン"
    assert len(suits) == 1
    if nums == [1, 2, 3]:
        return "一二三"
    if nums == [2, 7, 10]:
        return "二七十"
    assert nums[2] - nums[0] == 2 and len(set(nums)) == 3
    return "シークエンス"


def _huxi(kind: str, cards: list[tuple[int, bool]]) -> int:
    small, big = SEED_HUXI[kind]
    return big if cards[0][1] else small


@lru_cache(maxsize=None)
def _ways(cards: tuple[tuple[int, bool], ...], pair: bool) -> frozenset[tuple[int, bool]]:
    """Every (胡息, holds a chi shape) that ``cards`` (sorted: small first, then by number) give
    when laid out in three-card sets, plus one pair when ``pair``."""
    if not cards:
        return frozenset() if pair else frozenset({(0, False)})
    first, rest = cards[0], list(cards[1:])
    out: set[tuple[int, bool]] = set()

    def take(*others: tuple[int, bool]) -> tuple[tuple[int, bool], ...] | None:
        left = list(rest)
        for o in others:
            if o not in left:
                return None
            left.remove(o)
        return tuple(left)

    n, big = first
    tries: list[tuple[str, tuple[tuple[int, bool], ...]]] = [("刻子", (first, first)), ("seq", ((n + 1, big), (n + 2, big)))]
    if n == 2:
        tries.append(("seq", ((7, big), (10, big))))
    if not big:
        tries += [("ラン", (first, (n, True))), ("ラン", ((n, True), (n, True)))]
    for kind, others in tries:
        left = take(*others)
        if left is None:
            continue
        meld = [first, *others]
        if kind == "seq":
            kind = _shape(meld)
        hx = _huxi(kind, meld)
        for sub_hx, sub_chi in _ways(left, pair):
            out.add((hx + sub_hx, sub_chi or kind in CHI_SETS))
    if pair:
        left = take(first)
        if left is not None:
            out |= _ways(left, False)
    return frozenset(out)


def _best_partial(cards: tuple[tuple[int, bool], ...]) -> int:
    """The most 胡息 some of ``cards`` give in complete sets, the rest left loose."""
    best = 0
    for k in range(len(cards) + 1):
        for subset in itertools.combinations(range(len(cards)), k):
            chosen = tuple(sorted(cards[i] for i in subset))
            if len(chosen) % 3 == 0:
                best = max([best] + [hx for hx, _ in _ways(chosen, False)])
    return best


def _seed_fan(cards: list[tuple[int, bool]], chi: bool, table: str) -> int:
    """RULINGS §paohuzi: 红胡 点胡 黑胡 对胡 大胡 小胡, added; 1 if none."""
    if table == "plain":
        return 1
    red = sum(1 for n, _ in cards if n in SEED_RED)
    big = sum(1 for _, b in cards if b)
    small = len(cards) - big
    fan = 0
    fan += 4 + (red - 10) if red >= 10 else 0
    fan += 6 if red == 1 else 0
    fan += 8 if red == 0 else 0
    fan += 8 if not chi else 0
    fan += 8 + (big - 18) if big >= 18 else 0
    fan += 8 + (small - 16) if small >= 16 else 0
    return fan or 1


def _seed_dishu(huxi: int, self_drawn: bool, tianhu: str | None) -> int:
    if tianhu:
        return max(0, (huxi * 2 - 12) // 3) + (1 if tianhu == "dealt" else 0)
    return max(0, (huxi - 12) // 3) + (1 if self_drawn else 0)


def _seed_hand_score(hand, rules: dict[str, str]) -> tuple[dict[str, int], str | None]:
    """A hand's payments and its winner, replayed from its events alone."""
    held: dict[str, Counter] = {}
    table: dict[str, list[tuple[str, tuple[int, bool]]]] = {}  # seat -> (set name, card) per set; card counts by name
    piles: dict[str, list[tuple[int, bool]]] = {}
    dealt_sets: dict[str, tuple[int, int]] = {}
    order: list[str] = []
    for e in hand.events:
        if e.verb == "deal":
            seat = e.args[0].seat
            order.append(seat)
            got = Counter(_card(c) for c in e.cards())
            held[seat], table[seat], piles[seat] = Counter(), [], []
            for c, k in sorted(got.items()):
                if k >= 3:
                    table[seat].append(("提" if k == 4 else "坎", c))
                else:
                    held[seat][c] = k
            dealt_sets[seat] = (sum(1 for s, _ in table[seat] if s == "提"), len(table[seat]))
    chis: dict[str, list[list[tuple[int, bool]]]] = {s: [] for s in order}
    offer: tuple[tuple[int, bool], str, str, bool] | None = None  # card, from, draw|discard, 親's first discard
    set_down_by: str | None = None
    acted: set[str] = set()
    opening = True
    deltas = dict.fromkeys(order, 0)

    def concealed(seat: str, c) -> int | None:
        return next((k for k, (s, x) in enumerate(table[seat]) if x == c and s in ("坎", "偎")), None)

    for e in hand.events:
        if e.verb in ("deal", "stock", "score", "total", "pass"):
            continue
        if e.verb == "exhausted":
            return deltas, None
        seat = e.seat
        if e.verb == "win":
            break
        if e.verb == "draw":
            if offer is not None:
                piles[offer[1]].append(offer[0])
                offer = None
            c = _card(e.cards()[0])
            k = concealed(seat, c)
            set_down_by = seat
            if held[seat][c] == 3:
                held[seat][c] = 0
                table[seat].append(("提", c))
            elif k is not None:
                table[seat][k] = ("提", c)
            elif held[seat][c] == 2:
                held[seat][c] = 0
                table[seat].append(("偎", c))
            else:
                set_down_by = None
                offer = (c, seat, "draw", False)
        elif e.verb == "discard":
            c = _card(e.cards()[0])
            held[seat][c] -= 1
            offer = (c, seat, "discard", opening)
            set_down_by = None
        elif e.verb == "pao":
            c = offer[0]
            k = concealed(seat, c)
            if k is not None:
                table[seat][k] = ("跑", c)
            else:
                held[seat][c] -= 3
                table[seat].append(("跑", c))
            offer = None
        elif e.verb == "pon":
            c = offer[0]
            held[seat][c] -= 2
            passed = rules["chouwei"] == "discarded" and any(c in p for p in piles.values())
            table[seat].append(("臭偎" if passed else "碰", c))
            offer = None
        elif e.verb == "chi":
            cs = [_card(x) for x in e.cards()]
            if len(cs) == 3:
                cs.remove(offer[0])
            for c in cs:
                held[seat][c] -= 1
            chis[seat].append(sorted(cs + [offer[0]]))
            offer = None
        opening = False
        acted.add(seat)
    else:
        raise AssertionError("the hand has no end")
    # the win
    winner = e.seat
    hand_cards = Counter(held[winner])
    sets = list(table[winner])
    self_drawn, tianhu, need = False, None, int(rules["min_huxi"])
    if offer is not None:
        c, source_seat, source, first = offer
        self_drawn = source == "draw" and source_seat == winner
        k = concealed(winner, c)
        if k is not None:  # 上がりの1枚で槓子、または刻子になる: 必ず槓子、または刻子にして
            sets[k] = ("跑", c)
        elif hand_cards[c] >= 3:
            hand_cards[c] -= 3
            sets.append(("跑", c))
        elif hand_cards[c] == 2:
            hand_cards[c] -= 2
            passed = rules["chouwei"] == "discarded" and any(c in p for p in piles.values())
            sets.append(("臭偎" if passed else "碰", c))
        else:
            hand_cards[c] += 1
        if first:
            tianhu, need = "first", 8
    elif set_down_by == winner:
        self_drawn = True
    else:
        assert winner not in acted
        tianhu, need = "dealt", 8
    loose = tuple(sorted(hand_cards.elements(), key=lambda c: (c[1], c[0])))
    size = {"提": 4, "跑": 4}
    all_cards = [c for s, c in sets for _ in range(size.get(s, 3))] + [c for ch in chis[winner] for c in ch] + list(loose)
    table_hx = sum(_huxi(s, [c]) for s, c in sets) + sum(_huxi(_shape(ch), ch) for ch in chis[winner])
    has_quad = any(s in ("提", "跑") for s, _ in sets)
    n_sets = len(sets) + len(chis[winner])
    best = None
    if len(loose) % 3 != 1 and (len(loose) % 3 == 0 or has_quad) and n_sets + (len(loose) + 1) // 3 == 7:
        for hx, chi in _ways(loose, len(loose) % 3 == 2):
            total = table_hx + hx
            if total < need:
                continue
            score = _seed_dishu(total, self_drawn, tianhu) * _seed_fan(all_cards, chi or bool(chis[winner]), rules["fan_table"])
            best = score if best is None else max(best, score)
    if best is None:
        # 天胡 by the dealt hand: 槓子が3組以上、また刻子が5組以上 (a quad counts as a triple)
        quads, triples = dealt_sets[winner]
        assert winner not in acted and (quads >= 3 or triples >= 5), "no win"
        dealt = [(s, c) for s, c in table[winner] if s in ("提", "坎")]
        hx = sum(_huxi(s, [c]) for s, c in dealt) + _best_partial(loose)
        cards = [c for s, c in dealt for _ in range(size.get(s, 3))] + list(loose)
        best = _seed_dishu(hx, False, "sets") * _seed_fan(cards, bool(loose), rules["fan_table"])
    for s in order:
        if s != winner:
            deltas[s] -= best
            deltas[winner] += best
    return deltas, winner


def _seed_next_dealer(seats: list[str], dealer: str, winner: str | None, rotation: str, draws: int) -> tuple[str, int]:
    passed_on = seats[(seats.index(dealer) + 1) % len(seats)]
    if rotation == "blog":
        return passed_on, 0
    if rotation == "blog_keep":
        return (dealer if winner == dealer else passed_on), 0
    if winner is not None:
        return winner, 0
    return (passed_on, 0) if draws + 1 >= 3 else (dealer, draws + 1)


SCORER_RULES = [{}, {"chouwei": "off"}, {"fan_table": "plain"}, {"claims_on_discard": "chi_only"},
                {"second_quad": "discard"}, {"min_huxi": "12"}, {"dealer_rotation": "blog_keep"},
                {"dealer_rotation": "original"}, {"min_huxi": "9", "chouwei": "off"}]


def _check_against_seed_scorer(record, options: dict[str, str]) -> None:
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    rules = {o.name: o.default for o in ENGINE.options} | options
    seats = [t.value for t in record.tags if t.name == "Players"]
    letters = [p.split(":")[0].strip() for p in seats[0].split(";")] if seats else list("ABC")
    dealer, draws = None, 0
    for hand, out in zip(record.hands, report.hands):
        written = hand.attr("dealer").value
        assert dealer is None or written == dealer, (dealer, written)
        deltas, winner = _seed_hand_score(hand, rules)
        computed = {s: v for s, v in out.computed.items() if s in deltas}
        assert computed == deltas, (hand.args, out.items)
        assert all(v == 0 for s, v in out.computed.items() if s not in deltas)
        dealer, draws = _seed_next_dealer(letters, written, winner, rules["dealer_rotation"], draws)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.sampled_from(SCORER_RULES))
def test_settlements_agree_with_a_scorer_written_from_the_rule_text(seed, options):
    """002_34d3528b09b88dd0.txt §上がり, §得点, §支払い and RULINGS §paohuzi's tables, against the
    engine's settlements and its 親 rotation (§ディール)."""
    record = read_text(write_record(selfplay_record(ENGINE, seed, hands=4, options=options)))
    _check_against_seed_scorer(next(iter(record)).record, options)


@settings(max_examples=15, deadline=None)
@given(SEEDS, st.sampled_from(SCORER_RULES))
def test_four_player_settlements_agree_with_the_scorer(seed, options):
    """Four players: the shuffler sits out and pays nothing (4人の場合、ディーラーはゲームに参加しません)."""
    record = read_text(write_record(selfplay_record(ENGINE, seed, hands=4, options=options, seats=4)))
    _check_against_seed_scorer(next(iter(record)).record, options)


RARE_ITEMS = ["heavenly hand", "pon of a passed card", "no red card", "exactly one red card", "18 or more big cards",
              "16 or more small cards", "no sequence or mixed triple (no chi shape)", "10 or more red cards"]


@pytest.mark.parametrize("aim", RARE_ITEMS)
def test_rare_items_agree_with_the_scorer(aim):
    """The rare scoring items, reached by aimed selfplay (天胡, 臭偎 and the 番 table)."""
    for seed in range(3):
        record = read_text(write_record(selfplay_record(ENGINE, seed, hands=2, aim=aim)))
        _check_against_seed_scorer(next(iter(record)).record, {})


# -- illegal plays are located at the card that is wrong ---------------------------------
LOCATED_DEAL = """[Game "paohuzi"]
[Result "*"]

hand 1 dealer=A
deal A: 1x 2x 3x 5x 6x 7x 7x 8x 8x 9x 9x 10x 1d 1d 2d 2d 3d 4d 5d 6d 7d
deal B: 2x 3x 4x 5x 6x 7x 8x 9x 1d 2d 3d 8d 8d 8d 9d 9d 9d 10d 10d 10d
deal C: 1x 1x 2x 3x 4x 4x 5x 6x 10x 10x 4d 4d 5d 5d 5d 6d 6d 6d 7d 7d
"""


def _located(text: str) -> list[tuple[str, int, int]]:
    report = _report(text)
    return [(d.code, d.line, d.col) for d in report.diagnostics if d.severity == "error"]


def test_illegal_plays_are_located_at_the_wrong_card():
    """002_34d3528b09b88dd0.txt §プレイ (chi, pon, discard), §上がり (the card won on), §カードの構成
    (four of each card): each error points at the card that is wrong."""
    # line 9 is the first play; columns count from 1
    assert _located(LOCATED_DEAL + "A: discard 9x\nB: chi 9x 9x 9d\n") == [("L303", 9, len("B: chi 9x 9x ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 9x\nB: chi 9d 9x 9x\n") == [("L303", 9, len("B: chi ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 4x\n") == [("L303", 8, len("A: discard ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 9x\nC: pon 8x\n") == [("L301", 9, len("C: pon ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 9x\nB: draw 2x\nC: draw 1x\nC: win 4x\n") == [("L301", 11, len("C: win ") + 1)]
    fifth = LOCATED_DEAL.replace("deal C: 1x 1x 2x", "deal C: 5d 1x 2x")  # A holds one 5d, C four: the last is the fifth
    line = fifth.split("\n")[6]
    assert _located(fifth) == [("L304", 7, line.rindex("5d") + 1)]


# the 19 cards LOCATED_DEAL leaves, small then big, by number: its bottom card, 10d, is red
LOCATED_STOCK = "stock 1x 2x 3x 4x 5x 6x 7x 8x 9x 10x 1d 2d 3d 3d 4d 7d 8d 9d 10d"


def test_set_up_errors_are_located_at_the_card_in_its_run():
    """002_34d3528b09b88dd0.txt §カードの構成 (four of each card) and §ディール (the bottom card is
    turned up until it is black), RULINGS §paohuzi (unseen cards stand in a deal line): a deal or
    stock line is one run of cards, and each error points at the card in it that is wrong."""
    # line 8 is the stock line; B holds three 8d, so the stock's second 8d is the fifth
    assert _located(LOCATED_DEAL + "stock 8d 2x 8d\n") == [("L304", 8, len("stock 8d 2x ") + 1)]
    assert _located(LOCATED_DEAL + LOCATED_STOCK + "\n") == [
        ("L304", 8, len("stock 1x 2x 3x 4x 5x 6x 7x 8x 9x 10x 1d 2d 3d 3d 4d 7d 8d 9d ") + 1)]
    unseen = LOCATED_STOCK.replace(" 5x ", " * ")
    assert _located(LOCATED_DEAL + unseen + "\n") == [("L305", 8, len("stock 1x 2x 3x 4x ") + 1)]
    word = LOCATED_DEAL.replace("deal C: 1x 1x 2x", "deal C: 1x 1x 11x")  # 11x is no card: a word between two runs
    assert _located(word) == [("L305", 7, len("deal C: 1x 1x ") + 1)]


def test_plays_naming_too_many_cards_are_located_at_the_card_too_many():
    """002_34d3528b09b88dd0.txt §プレイ (a draw and a discard are one card; a pon takes the one card
    on offer), RULINGS §paohuzi (`B: draw *` is the only unseen card in play): the error points at
    the first card that should not be there, inside the run of cards the play names."""
    assert _located(LOCATED_DEAL + "A: discard 9x 10x\n") == [("L306", 8, len("A: discard 9x ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 9x\nB: draw 3x 4x\n") == [("L306", 9, len("B: draw 3x ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 9x\nC: pon 9x 9x\n") == [("L306", 9, len("C: pon 9x ") + 1)]
    assert _located(LOCATED_DEAL + "A: discard 9x\nB: chi 8x * 10x\n") == [("L305", 9, len("B: chi 8x ") + 1)]
    # a chi names its set of three (or the two from the hand): a fourth card is one too many
    assert _located(LOCATED_DEAL + "A: discard 9x\nB: chi 8x 9x 10x 7x\n") == [("L306", 9, len("B: chi 8x 9x 10x ") + 1)]


def test_a_wrong_dealer_is_located_at_the_hand_line():
    """002_34d3528b09b88dd0.txt §ディール, RULINGS §paohuzi (dealer_rotation): dealer= names the 親
    the rotation does not give: the hand line is wrong, not its deal."""
    deals = LOCATED_DEAL.split("\n\n", 1)[1].split("\n", 1)[1]
    text = ('[Game "paohuzi"]\n\nhand 1 dealer=A\n' + deals + "A: discard 9x\nB: draw 9x\nC: draw 3x\nC: chi 2x 3x 4x\n"
            "C: discard 4x\nB: win\nscore A -4 B +8 C -4\n\nhand 2 dealer=C\n" + deals)
    lines = text.split("\n")
    assert _located(text) == [("R206", lines.index("hand 2 dealer=C") + 1, 1)]
