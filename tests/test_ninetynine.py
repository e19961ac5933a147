"""Parlett's 99: unit tests of the rules helpers, and property tests over selfplay records.

Selfplay records must validate; a mutation that breaks a rule or a score must be rejected
with the right code at the right line.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paifu.notation import parse, read_text, write_record
from paifu.replay.validate import validate_read
from paifu.replay.cards.ninetynine import (
    BID_VALUE,
    ENGINE,
    JOKER,
    TRUMP_FOR_SUCCESSES,
    bid_target,
    deck,
    trick_winner,
)
from paifu.replay.selfplay import selfplay_record

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**31)


def report_of(text: str):
    results = list(read_text(text))
    assert len(results) == 1
    return validate_read(results[0], 1)


def codes(report) -> set[tuple[str, int]]:
    return {(d.code, d.line) for d in report.diagnostics if d.severity == "error"}


def selfplay_text(seed: int, hands: int = 2, options: dict[str, str] | None = None) -> str:
    return write_record(selfplay_record(ENGINE, seed, hands, options))


# -- the rules helpers -----------------------------------------------------------------------
def test_deck_sizes():
    assert len(deck(False)) == 36 and len(set(deck(False))) == 36
    assert len(deck(True)) == 37 and JOKER in deck(True)
    assert not any(c[0] in "2345" for c in deck(False))


def test_bid_values_and_trump_table():
    # 目標: clubs 3, hearts 2, spades 1, diamonds 0; the trump follows the number of successes
    assert BID_VALUE == {"C": 3, "H": 2, "S": 1, "D": 0}
    assert bid_target(["6C", "7C", "8C"], None) == 9
    assert bid_target(["6D", "7D", "8D"], None) == 0
    assert bid_target([JOKER, "QS", "8D"], "9H") == 3
    assert TRUMP_FOR_SUCCESSES == {0: "D", 1: "S", 2: "H", 3: "C"}


def test_trick_winner():
    assert trick_winner([("A", "AH"), ("B", "6D"), ("C", "KH")], "D", False) == "B"
    assert trick_winner([("A", "AH"), ("B", "6S"), ("C", "KH")], "D", False) == "A"
    assert trick_winner([("A", "7H"), ("B", "6D"), ("C", "QD")], "D", False) == "C"
    assert trick_winner([("A", "7H"), ("B", "AS"), ("C", "8H")], None, False) == "C"
    # all trumps: the highest rank, the first of equals
    assert trick_winner([("A", "8C"), ("B", "8H"), ("C", "7C")], None, True) == "A"
    assert trick_winner([("A", "6C"), ("B", "AH"), ("C", "9C")], None, True) == "B"


def test_rules_listed():
    names = {o.name for o in ENGINE.options}
    assert {"hands", "format", "target", "version", "early_no_trump", "announce"} <= names
    hands = next(o for o in ENGINE.options if o.name == "hands")
    assert hands.check("18") is None and hands.check("10") and hands.check("x") and hands.check("0")
    target = next(o for o in ENGINE.options if o.name == "target")
    assert target.check("100") is None and target.check("0") and target.check("-5")
    assert target.check("9" * 5000) and target.check("٣") and target.check("00")  # an option error, never a crash


def test_a_target_of_thousands_of_digits_is_an_option_error():
    text = '[Game "ninetynine"]\n[Option "format=three_wins"]\n[Option "target=' + "9" * 5000 + '"]\n\nhand 1 dealer=A\n'
    report = report_of(text)
    assert [(d.code, d.line) for d in report.diagnostics if d.severity == "error"] == [("R204", 3)]


# -- selfplay --------------------------------------------------------------------------------
@SETTINGS
@given(SEEDS)
def test_selfplay_validates(seed):
    text = selfplay_text(seed)
    report = report_of(text)
    assert report.valid, [d.format() for d in report.diagnostics]
    assert not report.diagnostics
    assert parse(write_record(parse(text))) == parse(text) or write_record(parse(text)) == text


@settings(max_examples=10, deadline=None)
@given(SEEDS, st.sampled_from([{"version": "early"}, {"version": "early", "early_no_trump": "all_trumps"},
                               {"format": "three_wins", "target": "40"}, {"announce": "priority"}]))
def test_selfplay_variants_validate(seed, options):
    report = report_of(selfplay_text(seed, 4, options))
    assert report.valid, [d.format() for d in report.diagnostics]


def test_selfplay_plays_toward_targets():
    """The policy makes its target far more often than random legal play would (about 1 in 7)."""
    made = total = 0
    for seed in range(12):
        record = selfplay_record(ENGINE, seed, 1)
        report = report_of(write_record(record))
        hand = report.hands[0]
        made += sum(1 for item in hand.items if item.name == "bid made")
        total += 3
    assert made / total > 0.3


# -- mutations -------------------------------------------------------------------------------
def lines_of(text: str) -> list[str]:
    return text.split("\n")


def first_hand_lines(lines: list[str]) -> range:
    start = next(i for i, l in enumerate(lines) if l.startswith("hand 1"))
    end = next((i for i, l in enumerate(lines) if l.startswith("hand 2")), len(lines))
    return range(start, end)


def is_play(line: str) -> bool:
    parts = line.split()
    return len(parts) == 2 and parts[0].endswith(":") and not parts[1][0].islower()


@SETTINGS
@given(SEEDS, st.integers(min_value=0, max_value=2), st.integers(min_value=1, max_value=30))
def test_changed_score_is_rejected(seed, which, delta):
    lines = lines_of(selfplay_text(seed, 1))
    k = next(i for i, l in enumerate(lines) if l.startswith("score "))
    parts = lines[k].split()
    value = int(parts[2 + 2 * which]) + delta
    parts[2 + 2 * which] = f"{value:+d}"
    lines[k] = " ".join(parts)
    report = report_of("\n".join(lines))
    assert codes(report) == {("S401", k + 1)}
    lines[k + 1] = lines[k + 1].replace("total A", f"total A {delta} A", 1).replace(f"A {delta} A ", "A ", 1)
    t = lines[k + 1].split()
    t[2 + 2 * which] = f"{int(t[2 + 2 * which]) + delta:+d}"
    lines[k + 1] = " ".join(t)
    assert ("S402", k + 2) in codes(report_of("\n".join(lines)))


@SETTINGS
@given(SEEDS, st.data())
def test_playing_a_bid_card_is_rejected(seed, data):
    """Bid cards are out of play: playing one is 'card not held'."""
    lines = lines_of(selfplay_text(seed, 1))
    bids = {l.split(":")[0]: l.split()[2:] for l in lines if " bid " in l}
    plays = [i for i in first_hand_lines(lines) if is_play(lines[i])]
    k = data.draw(st.sampled_from(plays))
    seat = lines[k].split(":")[0]
    lines[k] = f"{seat}: {data.draw(st.sampled_from(bids[seat]))}"
    report = report_of("\n".join(lines))
    assert codes(report) == {("L303", k + 1)}


@SETTINGS
@given(SEEDS, st.data())
def test_out_of_turn_is_rejected(seed, data):
    """Swapping two plays of one trick puts a seat out of turn."""
    lines = lines_of(selfplay_text(seed, 1))
    plays = [i for i in first_hand_lines(lines) if is_play(lines[i])]
    first = plays[0]
    t = data.draw(st.integers(min_value=0, max_value=8))
    i, j = first + 3 * t, first + 3 * t + 1
    lines[i], lines[j] = lines[j], lines[i]
    report = report_of("\n".join(lines))
    assert codes(report) == {("L302", i + 1)}


@SETTINGS
@given(SEEDS, st.data())
def test_bid_of_a_card_held_elsewhere_is_rejected(seed, data):
    lines = lines_of(selfplay_text(seed, 1))
    deals = {l.split()[1][0]: l.split()[2:] for l in lines if l.startswith("deal ")}
    k = next(i for i, l in enumerate(lines) if " bid " in l)
    seat = lines[k].split(":")[0]
    other = data.draw(st.sampled_from([s for s in "ABC" if s != seat]))
    parts = lines[k].split()
    parts[2] = data.draw(st.sampled_from(deals[other]))
    lines[k] = " ".join(parts)
    report = report_of("\n".join(lines))
    assert codes(report) == {("L303", k + 1)}


@SETTINGS
@given(SEEDS)
def test_a_second_announcement_is_rejected(seed):
    """Only one player may declare: a declaration after a declaration or a reveal is refused."""
    lines = lines_of(selfplay_text(seed, 1))
    k = next((i for i, l in enumerate(lines) if l.endswith(": declare") or l.endswith(": reveal")), None)
    if k is None:
        k = next(i for i, l in enumerate(lines) if l.endswith(": pass"))
        lines[k] = lines[k].replace("pass", "declare")
    announcer = lines[k].split(":")[0]
    # let every seat after the announcer try to declare too
    later = [i for i in range(k + 1, k + 3) if lines[i].endswith(": pass")]
    if not later:  # the announcer spoke last, or revealed: a seat that spoke before tries again
        first = next(l for l in lines if l.endswith(": pass") or l.endswith(": declare") or l.endswith(": reveal"))
        lines.insert(k + 1, first.split(":")[0] + ": declare")
        report = report_of("\n".join(lines))
        assert len(codes(report)) == 1 and codes(report) <= {("L301", k + 2), ("L302", k + 2)}
        return
    lines[later[0]] = lines[later[0]].replace("pass", "declare")
    report = report_of("\n".join(lines))
    assert codes(report) == {("L301", later[0] + 1)}, (announcer, [d.format() for d in report.diagnostics])


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.data())
def test_bad_input_never_crashes(seed, data):
    """Any line replaced by a scrap of another line, or deleted, gives located messages, never X901."""
    lines = lines_of(selfplay_text(seed, 1))
    body = [i for i, l in enumerate(lines) if l and not l.startswith("[")]
    k = data.draw(st.sampled_from(body))
    action = data.draw(st.sampled_from(["delete", "scramble", "duplicate"]))
    if action == "delete":
        del lines[k]
    elif action == "duplicate":
        lines.insert(k, lines[k])
    else:
        rng = random.Random(seed)
        words = lines[k].split()
        rng.shuffle(words)
        lines[k] = " ".join(words)
    results = list(read_text("\n".join(lines)))
    for index, result in enumerate(results, 1):
        report = validate_read(result, index)
        assert not any(d.code == "X901" for d in report.diagnostics), [d.format() for d in report.diagnostics]


@pytest.mark.parametrize("text", [
    '[Game "ninetynine"]\n\nhand 1 dealer=A\ndeal A: JK\n',
    '[Game "ninetynine"]\n[Option "version=early"]\n\nhand 1 dealer=A\nturn\n',
    '[Game "ninetynine"]\n[Option "version=early"]\n\nhand 1 dealer=A\nturn 7S 8S\n',
    '[Game "ninetynine"]\n[Option "version=early"]\n\nhand 1 dealer=A\nturn 7S\nturn 8S\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\nA: bid\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\nA: declare\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\nA: pass now\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\nB: \n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\nwhatever 3\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A trump=X\nA: bid 6C 7C 8C 3 4\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\ndeal\n',
    '[Game "ninetynine"]\n\nhand 1 dealer=A\ndeal A: 6C x=y\n',
])
def test_malformed_records_give_located_errors(text):
    results = list(read_text(text))
    for index, result in enumerate(results, 1):
        report = validate_read(result, index)
        assert not report.valid
        assert not any(d.code == "X901" for d in report.diagnostics), [d.format() for d in report.diagnostics]
        assert all(d.line > 0 for d in report.diagnostics if d.severity == "error"), [d.format() for d in report.diagnostics]


# -- what a seat sees ----------------------------------------------------------------------------
DEAL_TEXT = """[Game "ninetynine"]
[Result "*"]

hand 1 dealer=A
deal A: AS KS QS JS TS 9S 8S 7S 6S AD KD QD
deal B: AH KH QH JH TH 9H 8H 7H 6H JD TD 9D
deal C: AC KC QC JC TC 9C 8C 7C 6C 8D 7D 6D
B: bid 6H 7H 8H
C: bid 8D 7D 6D
A: bid 6S 7S 8S
"""


def located(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.col) for d in report_of(text).diagnostics if d.severity == "error"]


def test_errors_point_at_the_card_in_a_run_of_cards():
    """000_d19ded950c7752da.txt 「99」 §宣言 (three cards laid down; clubs 3, hearts 2, spades 1,
    diamonds 0), §カード勝負 (one card a play), §人数とカード (36 cards): cards written side by
    side are one item, and an error still points at the card at fault. Lines 5-7 deal, line 8
    on are the bids and plays."""
    # B holds 6H 7H 8H, not 6S: the second card of the bid, column len("B: bid 6H ") + 1
    assert located(DEAL_TEXT.replace("B: bid 6H 7H 8H", "B: bid 6H 6S 8H")) == [("L303", 8, 11)]
    # the same card twice: the second copy
    assert located(DEAL_TEXT.replace("B: bid 6H 7H 8H", "B: bid 6H 7H 6H")) == [("L301", 8, len("B: bid 6H 7H ") + 1)]
    # a written target that is not the cards' sum (hearts 2 each: 6) points at the number
    assert located(DEAL_TEXT.replace("B: bid 6H 7H 8H", "B: bid 6H 7H 8H 5")) == [("L301", 8, len("B: bid 6H 7H 8H ") + 1)]
    # an unseen card in a bid: at the star
    assert located(DEAL_TEXT.replace("B: bid 6H 7H 8H", "B: bid 6H * 8H")) == [("L305", 8, len("B: bid 6H ") + 1)]
    # a play of two cards: at the second
    played = DEAL_TEXT + "B: pass\nC: pass\nA: pass\nB: AH KH\n"
    assert located(played) == [("L306", 14, len("B: AH ") + 1)]
    # a card dealt twice, written with 10 for T before it: at that card (B's 9D is also C's)
    twice = DEAL_TEXT.replace("deal C: AC KC QC JC TC 9C", "deal C: AC KC QC JC 10C 9D")
    assert located(twice) == [("L304", 7, len("deal C: AC KC QC JC 10C ") + 1)]
    # the joker outside the early version
    joker = DEAL_TEXT.replace("deal A: AS KS QS", "deal A: AS JK QS")
    assert located(joker) == [("L305", 5, len("deal A: AS ") + 1)]


def state_after(lines: str):
    record = parse(DEAL_TEXT + lines)
    from paifu.replay.engine import HandHeader, Rules

    rules = Rules({o.name: o.default for o in ENGINE.options})
    match = ENGINE.start_match(rules, ["A", "B", "C"])
    events = record.hands[0].events
    state = ENGINE.start_hand(match, HandHeader(1, "A", {}), events[:3])
    for ev in events[3:]:
        ENGINE.apply(state, ENGINE.read_action(state, ev))
    return state


def zone(view, seat, name):
    return next(z for z in next(s for s in view.seats if s.seat == seat).zones if z.name == name)


def test_views_hide_what_a_seat_cannot_see():
    state = state_after("")
    view = ENGINE.view(state, "B")
    assert zone(view, "A", "hand").cards == [] and zone(view, "A", "hand").hidden == 9
    assert zone(view, "A", "bid").cards == [] and zone(view, "A", "bid").hidden == 3
    assert len(zone(view, "B", "hand").cards) == 9 and zone(view, "B", "bid").cards == ["6H", "7H", "8H"]
    seen = ENGINE.seat_view(state, "C")
    assert set(seen.cards) == {"AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"}
    assert seen.target == 0


def test_a_declaration_shows_the_bid_and_a_reveal_the_hand():
    declared = state_after("B: declare\n")
    assert sorted(zone(ENGINE.view(declared, "C"), "B", "bid").cards) == ["6H", "7H", "8H"]
    assert zone(ENGINE.view(declared, "C"), "B", "hand").cards == []
    revealed = state_after("B: pass\nC: reveal\n")
    view = ENGINE.view(revealed, "A")
    assert len(zone(view, "C", "hand").cards) == 9  # 手札公開: played face up
    assert "revealed" in next(s for s in view.seats if s.seat == "C").labels


def test_joker_is_a_card_in_the_json_form():
    """「99」 §初期バージョンのルール: the joker is the 37th card; written JK, it is a card in
    the record model (and so in `paifu convert --to json`), not a word."""
    from paifu.notation.model import CardsArg
    record = parse('[Game "ninetynine"]\n[Option "version=early"]\n[Result "*"]\n\nhand 1 dealer=A\ndeal A: JK 6C\n')
    deal = record.hands[0].events[0]
    assert [type(a).__name__ for a in deal.args[1:]] == ["CardsArg"]  # the run JK 6C: one item
    assert isinstance(deal.args[1], CardsArg) and deal.args[1].cards == ["JK", "6C"]
    assert "\"JK\"" in deal.args[1].model_dump_json() and "word" not in deal.args[1].model_dump_json()
    # and back: the text form writes it as JK
    assert "deal A: JK 6C" in write_record(record)


# -- an independent scorer, written from the rule text (「99」 §カード勝負, §得点計算) -----------------
# Nothing below imports the engine's helpers: the trick, the targets and the points are
# worked again from the text, then compared with the engine's settlements over selfplay.
SEED_RANKS = "AKQJT9876"  # カードの強さ: 強い順に, A,K,Q,J,10,9,8,7,6
SEED_BID = {"C": 3, "H": 2, "S": 1, "D": 0}  # クラブは 3,ハートは 2,スペードは 1,ダイヤは 0
SEED_TRUMP = {0: "D", 1: "S", 2: "H", 3: "C"}  # 直前の手で目標どおりに勝った人数(0〜3)に対応する印
SEED_SUCCESS = {3: 10, 2: 20, 1: 30, 0: 0}  # 3 人なら 10 点ずつ, 2 人なら 20 点ずつ, 1 人なら 30 点
SEED_BONUS = {"declare": 30, "reveal": 60}  # 目標を公開すると 30 点, 目標のカードと手札を公開すると 60 点


def _seed_trick(plays, trump, all_trumps):
    """一番強い切札, 切札がないときは, 先手と同じ印で一番強いカードを出した人が勝つ; all
    trumps: 印を無視して1番強いカード, 同じ強さなら先に出たカード."""
    if all_trumps:
        best = min(range(len(plays)), key=lambda i: (SEED_RANKS.index(plays[i][1][0]), i))
        return plays[best][0]
    trumps = [p for p in plays if trump and p[1][1] == trump]
    pool = trumps or [p for p in plays if p[1][1] == plays[0][1][1]]
    return min(pool, key=lambda p: SEED_RANKS.index(p[1][0]))[0]


def _seed_hand(hand, seats, trump, opts):
    """The hand's points for each seat and how many made their targets."""
    turned = next((e.cards()[0] for e in hand.events if e.verb == "turn"), None)
    all_trumps = False
    if opts.get("version") == "early":  # このカードの印を切札; ジョーカーか9のときは切札なし
        trump = None if turned in (None, "JK") or turned[0] == "9" else turned[1]
        all_trumps = trump is None and opts.get("early_no_trump") == "all_trumps"

    def ident(card):
        return turned if card == "JK" else card  # 表向きになったカードと同じカードとして扱います

    dealer = next(a.value for a in hand.args if getattr(a, "key", None) == "dealer")
    order = [seats[(seats.index(dealer) + k) % 3] for k in (1, 2, 3)]  # 配り手の左隣を 1 番
    target, said, won, trick = {}, [], dict.fromkeys(seats, 0), []
    leader = order[0]  # 1 回目は, 配り手の左隣
    for e in hand.events:
        if e.verb == "bid":
            target[e.seat] = sum(SEED_BID[ident(c)[1]] for c in e.cards())
        elif e.verb in ("declare", "reveal"):
            said.append((e.seat, e.verb))
        elif e.verb is None and e.seat:
            if not trick:
                assert e.seat == leader  # 2 回目以降は直前の回の勝者が, 先手
            trick.append((e.seat, ident(e.cards()[0])))
            if len(trick) == 3:
                leader = _seed_trick(trick, trump, all_trumps)
                won[leader] += 1
                trick = []
    made = [s for s in seats if won[s] == target[s]]  # 目標と勝ち数が同じなら成功
    points = {s: won[s] + (SEED_SUCCESS[len(made)] if s in made else 0) for s in seats}
    if said:  # 手札公開は目標公開に勝ち, 同じ公開なら配り手の左隣を 1 番として時計回り順に優先
        who, kind = min(said, key=lambda w: (w[1] != "reveal", order.index(w[0])))
        for s in ([who] if who in made else [s for s in seats if s != who]):
            points[s] += SEED_BONUS[kind]
    return points, len(made)


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.sampled_from([{}, {"version": "early"}, {"version": "early", "early_no_trump": "all_trumps"},
                               {"format": "three_wins", "target": "60"}, {"announce": "priority"}, {"hands": "18"}]))
def test_settlements_agree_with_a_scorer_written_from_the_seed(seed, opts):
    record = parse(selfplay_text(seed, 12, opts))
    report = report_of(write_record(record))
    assert report.valid, [d.format() for d in report.diagnostics]
    seats = ["A", "B", "C"]
    trump, totals, dealer = "D", dict.fromkeys(seats, 0), None  # 切札は, 最初の手は 0 (ダイヤ)
    for hand, out in zip(record.hands, report.hands):
        written = next(a.value for a in hand.args if getattr(a, "key", None) == "dealer")
        assert dealer is None or written == seats[(seats.index(dealer) + 1) % 3]  # 順番に交代 (to the left)
        dealer = written
        points, made = _seed_hand(hand, seats, trump, opts)
        assert out.computed == points
        trump = SEED_TRUMP[made]
        totals = {s: totals[s] + points[s] for s in seats}
        if opts.get("format") == "three_wins" and max(totals.values()) >= int(opts["target"]):
            trump, totals = "D", dict.fromkeys(seats, 0)  # a new game: diamonds again (RULINGS)
