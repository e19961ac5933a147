"""Jiuzhi (四色牌 九支十仔): scoring table, helpers, and selfplay property tests.

The rules themselves are checked by the records under tests/records/jiuzhi/; these tests
check that random legal play always validates, that mutations are rejected with the right
code, that the selfplay policy reaches a scored win in most hands, and that the engine's
settlements agree with a scorer written from the rule text's own tables (「四色牌の九支十仔」,
◆得点計算 / ◆抽五張 / ◆上がり), over plain and aimed selfplay and the rules options.
"""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paifu.notation import parse, write_record
from paifu.notation.model import CardsArg, Event, NumArg, same_content
from paifu.replay.engine import Rules
from paifu.replay.games import engine as engine_for
from paifu.replay.paper.jiuzhi import (
    ENGINE,
    OPTIONS,
    Chi,
    Discard,
    Draw,
    Win,
    deck,
    kaijiao_quads,
    least_colour_cards,
    score_hand,
    selection_strength,
)
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate

RULES = Rules({o.name: o.default for o in OPTIONS})


def rules(**over: str) -> Rules:
    r = Rules(RULES)
    r.update(over)
    return r


def total(items) -> int:
    return sum(i.value for i in items)


# -- the deck and helpers ------------------------------------------------------------------
def test_deck_is_112_cards_four_of_each():
    cards = deck()
    assert len(cards) == 112
    assert set(Counter(cards).values()) == {4}
    assert len(set(cards)) == 28


def test_registered():
    assert engine_for("jiuzhi") is ENGINE


def test_selection_order_piece_then_colour():
    # 帥 (YK) > 帥 (RK) > 將 (GK) > 將 (WK) > 仕 (YA) ... > 卒 (WS)
    order = sorted(["WS", "YA", "GK", "RK", "YK", "WK", "YS"], key=selection_strength)
    assert order == ["YK", "RK", "GK", "WK", "YA", "YS", "WS"]


def test_least_colour_cards():
    assert least_colour_cards(["YH", "RS", "RH", "GC", "GS", "GK"]) == ["YH"]
    assert sorted(least_colour_cards(["YH", "YK", "RS", "RH", "GC", "GS", "GK"])) == ["RH", "RS", "YH", "YK"]
    assert least_colour_cards([]) == []


# -- scoring (values from the seed's 得点計算) -------------------------------------------------
def test_colour_counts():
    one = ["YK", "YK", "YA", "YA", "YE", "YE", "YR", "YR", "YH", "YH"]
    assert total(score_hand(one, "YH", "ron", None, RULES)) == 4 + 1  # 一色胡 + 無兵卒
    four = ["YK", "YK", "RA", "RA", "GS", "GS", "WR", "WR", "YH", "YH"]
    assert total(score_hand(four, "YH", "ron", None, RULES)) == 1  # 四色胡


def test_self_draw_and_draw_five():
    hand = ["YK", "YK", "RA", "RA", "GE", "GE", "WR", "WR", "YC", "YC"]
    five = ["YC", "GE", "WS", "RK", "YK"]
    # 四色 1 + 無兵卒 1 + 自模 1 + 抽五張 (1 + 1 + bottom 2)
    assert total(score_hand(hand, "YC", "zimo", five, RULES)) == 7
    assert total(score_hand(hand, "YC", "hu", five, RULES)) == 2  # 抽五張 is for 自模 only
    assert total(score_hand(hand, "YC", "zimo", five, rules(draw_five_count="hand"))) == 3 + 2 + 2 + 4


def test_kaijiao():
    hand = ["YS"] * 4 + ["RS"] * 4 + ["GS"] * 2
    assert kaijiao_quads(Counter(hand), "RS", RULES) == ("YS", "RS")
    assert kaijiao_quads(Counter(hand), "GS", RULES) == ()  # not won on a quad card
    mixed = ["YS"] * 4 + ["GS"] * 4 + ["RS"] * 2
    assert kaijiao_quads(Counter(mixed), "GS", RULES) == ()
    assert kaijiao_quads(Counter(mixed), "GS", rules(kaijiao="same_piece")) == ("YS", "GS")
    assert total(score_hand(hand, "RS", "ron", None, RULES)) == 5 + 2 + 1


# -- selfplay ----------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed)
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    assert not report.diagnostics


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([
    {"everyone_pays": "on"}, {"draw_five": "bottom"}, {"draw_five_count": "hand"},
    {"kaijiao": "same_piece"}, {"duanzhang": "live"},
]))
def test_selfplay_with_options_validates(seed, options):
    record = selfplay_record(ENGINE, seed, options=options)
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_selfplay_round_trips_through_text(seed):
    record = selfplay_record(ENGINE, seed, hands=1)
    assert same_content(parse(write_record(record)), record)


def test_selfplay_reaches_a_scored_win_in_most_hands():
    hands = wins = 0
    for seed in range(40):
        for hand in selfplay_record(ENGINE, seed).hands:
            hands += 1
            wins += any(e.verb == "win" for e in hand.events)
    assert wins >= hands / 2, f"{wins} wins in {hands} hands"


def test_policy_sees_only_its_seat():
    record = selfplay_record(ENGINE, 7, hands=1)
    match = ENGINE.start_match(RULES, ["A", "B", "C", "D"])
    from paifu.replay.engine import HandHeader

    hand = record.hands[0]
    setup = [e for e in hand.events if e.seat is None and e.verb in ENGINE.setup_verbs]
    state = ENGINE.start_hand(match, HandHeader(1, "A" if hand.attr("dealer") is None else hand.attr("dealer").value,
                                               {a.key: a.value for a in hand.args if hasattr(a, "key")}), setup)
    seen = ENGINE.seat_view(state, "B")
    assert Counter(seen.hand) == state.hands["B"].known
    assert sum(seen.visible.values()) <= sum(len(d) for d in state.discards.values()) + 2 * len(state.pairs["B"]) + 1


# -- mutations ---------------------------------------------------------------------------
def _play_events(record):
    """(hand index, event index, event, state before it) for each play of the first hand."""
    from paifu.replay.engine import HandHeader

    match = ENGINE.start_match(RULES, ["A", "B", "C", "D"])
    hand = record.hands[0]
    n_setup = sum(1 for e in hand.events if e.seat is None and e.verb in ENGINE.setup_verbs)
    dealer = hand.attr("dealer").value
    attrs = {a.key: a.value for a in hand.args if hasattr(a, "key")}
    state = ENGINE.start_hand(match, HandHeader(1, dealer, attrs), hand.events[:n_setup])
    for i, ev in enumerate(hand.events[n_setup:], n_setup):
        if ev.seat is None:
            break
        yield i, ev, copy.deepcopy(state)
        ENGINE.apply(state, ENGINE.read_action(state, ev))


def _codes(record) -> set[str]:
    return {d.code for d in validate(record).diagnostics if d.severity == "error"}


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_changed_score_is_rejected(seed, data):
    record = selfplay_record(ENGINE, seed, hands=1)
    score = next(e for e in record.hands[0].events if e.verb == "score")
    k = data.draw(st.integers(min_value=0, max_value=3))
    arg = score.args[2 * k + 1]
    assert isinstance(arg, NumArg)
    arg.value += data.draw(st.sampled_from([-2, -1, 1, 3]))
    assert "S401" in _codes(record)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_discard_of_a_card_not_held_is_l303(seed, data):
    record = selfplay_record(ENGINE, seed, hands=1)
    candidates = [(i, ev, s) for i, ev, s in _play_events(record) if ev.verb == "discard" and not s.dead[ev.seat]]
    i, ev, state = data.draw(st.sampled_from(candidates))
    held = set(state.hands[ev.seat].cards())
    missing = sorted(c for c in set(deck()) if c not in held)
    card = data.draw(st.sampled_from(missing))
    record.hands[0].events[i] = Event(seat=ev.seat, verb="discard", args=[CardsArg(cards=[card])])
    assert _codes(record) == {"L303"}


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_skipped_claim_is_rejected(seed, data):
    """Claims are compulsory: dropping a claim (and what follows it) leaves a claim unmade."""
    record = selfplay_record(ENGINE, seed, hands=1)
    events = list(_play_events(record))
    claims = [k for k, (i, ev, s) in enumerate(events) if ev.verb in ("chi", "win") and k + 1 < len(events)]
    if not claims:
        return
    k = data.draw(st.sampled_from(claims))
    i, ev, _ = events[k]
    hand = record.hands[0]
    # the claim is replaced by the next draw the record would otherwise show
    nxt = next((e for _, e, _ in events[k + 1:] if e.verb == "draw"), None)
    if nxt is None:
        return
    hand.events[i:] = [nxt]
    assert _codes(record) & {"L301", "L302"}


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_discard_outside_the_least_colour_is_l301(seed, data):
    record = selfplay_record(ENGINE, seed, hands=1)
    candidates = []
    for i, ev, s in _play_events(record):
        if ev.verb == "discard" and not s.dead[ev.seat]:
            cards = s.hands[ev.seat].cards()
            others = sorted(set(cards) - set(least_colour_cards(cards)))
            if others:
                candidates.append((i, ev, others))
    if not candidates:
        return
    i, ev, others = data.draw(st.sampled_from(candidates))
    record.hands[0].events[i] = Event(seat=ev.seat, verb="discard", args=[CardsArg(cards=[data.draw(st.sampled_from(others))])])
    assert _codes(record) == {"L301"}


def test_legal_actions_are_forced_claims_or_a_choice_of_discards():
    record = selfplay_record(ENGINE, 3, hands=1)
    for _, ev, state in _play_events(record):
        legal = ENGINE.legal_actions(state)
        assert legal
        kinds = {type(a) for a in legal}
        if kinds & {Chi, Win, Draw}:
            assert len(legal) == 1  # a claim or a draw is never a choice
        else:
            assert kinds == {Discard}


def test_table_view_hides_other_hands_and_face_down_pairs():
    from paifu.notation import parse as parse_record
    from paifu.replay.validate import replay as replay_record

    text = open("examples/jiuzhi-basics.paifu", encoding="utf-8").read()
    states = []
    replay_record(parse_record(text), on_step=lambda step: states.append(copy.deepcopy(step.state)))
    first = states[0]  # after the deal: B's four pairs are face down
    view_a = ENGINE.view(first, "A")
    b = next(s for s in view_a.seats if s.seat == "B")
    zones = {z.name: z for z in b.zones}
    assert zones["hand"].cards == [] and zones["hand"].hidden == 1
    assert zones["pairs"].cards == [] and zones["pairs"].hidden == 8
    own = {z.name: z for z in next(s for s in ENGINE.view(first, "B").seats if s.seat == "B").zones}
    assert own["hand"].cards == ["YC"] and len(own["pairs"].groups) == 4
    assert ENGINE.view(first, None).family == "fourcolour"


def test_a_deal_line_left_out_is_the_sets_rest_when_every_other_card_is_written():
    # Issue 18 (mutation testing): a jiuzhi record with one deal line left out was read as
    # that seat's unseen cards and its scores went unchecked (N501), though the 112 cards
    # (「各4枚ずつ」: 4 colours x 7 pieces x 4) less the other deals, the stock and the five
    # set aside leave exactly that seat's 9 (or the dealer's 10) cards.
    text = write_record(selfplay_record(ENGINE, 6, hands=1))
    lines = text.split("\n")
    deal = next(i for i, line in enumerate(lines) if line.startswith("deal D:"))
    original = validate(parse(text))
    left_out = validate(parse("\n".join(lines[:deal] + lines[deal + 1:])))
    assert left_out.valid and not [d.format() for d in left_out.diagnostics]  # no N501: every score checked
    assert [h.computed for h in left_out.hands] == [h.computed for h in original.hands]
    # without the stock the rest is not known: the seat's cards stay unseen, as before
    no_stock = [line for k, line in enumerate(lines) if k != deal and not line.startswith("stock ")]
    assert any(d.code == "N501" for d in validate(parse("\n".join(no_stock))).diagnostics)


# -- an independent scorer, written from the rule text's tables (not from the engine) ---------
# 「四色牌の九支十仔」 ◆得点計算: 一色胡 4, 二色胡 3, 三色胡 2, 四色胡 1; 無兵卒 1; 無将帥 1; 自模 1;
# 抽五張 (自模の時のみ): 1 per turned card matching a card of the winning hand, 2 for the bottom
# one (◆抽五張: 最も海底の牌…は2頭); 開交胡 5 (同種同字4枚が2組+同種, 4枚部分で上がる);
# 開交対子 1 per four identical cards. ◆上がり: ツモと胡はそれぞれから、ロンはその人から.
# The winner's ten cards are worked out from the record's lines alone: what he was dealt, plus
# what he claimed, less what he discarded.
SEED_COLOURS = {1: 4, 2: 3, 3: 2, 4: 1}
SEATS = "ABCD"


def _seed_hand_score(cards: list[str], won_on: str | None, kind: str, five: list[str], options: dict[str, str]) -> int:
    counts = Counter(cards)
    total = SEED_COLOURS[len({c[0] for c in cards})]
    total += not any(c[1] == "S" for c in cards)  # 無兵卒: no 兵 / 卒
    total += not any(c[1] == "K" for c in cards)  # 無将帥: no 帥 / 将
    if kind == "zimo":
        total += 1  # 自模
        if options.get("draw_five_count", "aside") == "aside":
            total += sum((2 if i == len(five) - 1 else 1) for i, c in enumerate(five) if c in counts)
        else:  # each card of the hand once: 2 when it matches the bottom card
            total += sum((2 if five and c == five[-1] else 1) * n for c, n in counts.items() if c in five)
    quads = [c for c, n in counts.items() if n == 4]
    kaijiao: list[str] = []
    if len({c[1] for c in cards}) == 1 and len(quads) == 2 and won_on in quads:
        same_character = {quads[0][0], quads[1][0]} in ({"Y", "R"}, {"G", "W"})
        if same_character or options.get("kaijiao") == "same_piece":
            kaijiao = quads
            total += 5  # 開交胡
    total += sum(1 for q in quads if q not in kaijiao)  # 開交対子
    return total


def _seed_settle(hand, options: dict[str, str]) -> tuple[dict[str, int], str | None]:
    """The hand's deltas and its winner, from the record's lines and the rule text's tables."""
    delta = dict.fromkeys(SEATS, 0)
    dealer = next(a.value for a in hand.args if getattr(a, "key", None) == "dealer")
    held = {s: Counter() for s in SEATS}
    aside: list[str] = []
    stock: list[str] = []
    for e in hand.events:
        if e.verb == "deal":
            held[e.args[0].seat].update(e.cards())
        elif e.verb == "aside":
            aside = e.cards()
        elif e.verb == "stock":
            stock = e.cards()
    plays = [e for e in hand.events if e.seat is not None]
    draws = sum(1 for e in plays if e.verb == "draw")
    if not plays:  # the dealer was dealt five pairs: a win with no card won on, paid by all
        cards = list(held[dealer].elements())
        assert len(cards) == 10 and all(n % 2 == 0 for n in held[dealer].values())
        if options.get("dealt_five_pairs", "win") == "redeal":
            return delta, None
        points = _seed_hand_score(cards, None, "dealt", [], options)
        for s in SEATS:
            if s != dealer:
                delta[s] -= points
                delta[dealer] += points
        return delta, dealer
    winner = None
    last: tuple[str, str] | None = None  # (verb, seat) of the last draw or discard
    for e in plays:
        card = e.cards()[-1] if e.cards() else None
        if e.verb == "discard":
            held[e.seat][card] -= 1
            last = ("discard", e.seat)
        elif e.verb == "draw":
            last = ("draw", e.seat)
        elif e.verb in ("chi", "win"):
            held[e.seat][card] += 1
            if e.verb == "win":
                winner, won_on, source = e.seat, card, last
    if winner is None:
        assert draws == len(stock), "no win: the stock must be used up (流局)"
        return delta, None
    cards = list(held[winner].elements())
    assert len(cards) == 10 and all(n % 2 == 0 for n in held[winner].values()), cards
    assert source is not None
    how, frm = source
    kind = "ron" if how == "discard" else ("zimo" if frm == winner else "hu")
    five = aside if options.get("draw_five", "setaside") == "setaside" else stock[draws:][-5:]
    points = _seed_hand_score(cards, won_on, kind, five, options)
    payers = [frm] if kind == "ron" and options.get("everyone_pays", "off") == "off" else [s for s in SEATS if s != winner]
    for p in payers:
        delta[p] -= points
        delta[winner] += points
    return delta, winner


SCORER_RULE_SETS = [{}, {"everyone_pays": "on"}, {"draw_five": "bottom"}, {"draw_five_count": "hand"},
                    {"kaijiao": "same_piece"}, {"duanzhang": "live"}, {"dealt_five_pairs": "redeal"},
                    {"draw_five": "bottom", "draw_five_count": "hand", "everyone_pays": "on"}]


def _agree_with_the_seed_scorer(record, options: dict[str, str]) -> None:
    record = parse(write_record(record))
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    dealer = None
    for hand, out in zip(record.hands, report.hands):
        written = next(a.value for a in hand.args if getattr(a, "key", None) == "dealer")
        assert dealer is None or written == dealer  # the winner deals next; a drawn hand keeps the dealer
        deltas, winner = _seed_settle(hand, options)
        assert out.computed == deltas, (hand.number, out.items)
        dealer = winner or written


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(SCORER_RULE_SETS))
def test_settlements_agree_with_a_scorer_written_from_the_rule_text(seed, options):
    _agree_with_the_seed_scorer(selfplay_record(ENGINE, seed, options=options), options)


AIMED = ["one colour", "two quads of one piece and its pair, won on a quad", "four identical cards", "drawn hand",
         "self-draw", "five turned cards"]


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(AIMED),
       st.sampled_from([{}, {"kaijiao": "same_piece"}, {"draw_five_count": "hand"}, {"everyone_pays": "on"}]))
def test_aimed_settlements_agree_with_the_seed_scorer(seed, aim, options):
    """The rare items (一色胡, 開交胡, 開交対子, 流局) through aimed selfplay, scored both ways."""
    _agree_with_the_seed_scorer(selfplay_record(ENGINE, seed, hands=2, options=options, aim=aim), options)


def test_an_item_that_is_no_card_is_quoted_as_written():
    text = "\n".join(['[Game "jiuzhi"]', "", "hand 1 dealer=A", "deal A: YH RS RH GC GS GK WE WA WH x=1"])
    messages = [d.message for d in validate(parse(text)).diagnostics if d.code == "L305"]
    assert messages and messages[0].startswith("'x=1' is not a four-colour card")


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_a_wrong_win_kind_is_l306_at_the_kind(seed, data):
    """自模 (one's own draw), 胡 (another's draw), ロン (a discard): the kind written is checked."""
    record = parse(write_record(selfplay_record(ENGINE, seed, hands=1)))
    hand = record.hands[0]
    win = next((e for e in hand.events if e.verb == "win"), None)
    if win is None:
        return
    kind = win.args[0]
    kind.text = data.draw(st.sampled_from(sorted({"zimo", "hu", "ron"} - {kind.text})))
    errors = [d for d in validate(record).diagnostics if d.severity == "error"]
    assert [(d.code, d.line, d.col) for d in errors] == [("L306", kind.at.line, kind.at.col)]


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.data())
def test_a_draw_by_the_wrong_seat_is_l302_at_its_line(seed, data):
    record = parse(write_record(selfplay_record(ENGINE, seed, hands=1)))
    hand = record.hands[0]
    draws = [e for e in hand.events if e.verb == "draw"]
    ev = data.draw(st.sampled_from(draws))
    ev.seat = data.draw(st.sampled_from(sorted(set("ABCD") - {ev.seat})))
    errors = [d for d in validate(record).diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [("L302", ev.at.line)]  # 反時計回り: the next seat draws


# -- bad input: located at the card, in a run of cards --------------------------------------------
# Cards side by side are one item (a run); an error about one card of it points at that card's
# column. Columns are counted from the text: len(what precedes the card) + 1.
def _errors(text: str) -> list[tuple[str, int, int]]:
    report = validate(parse(text))
    return [(d.code, d.line, d.col) for d in report.diagnostics if d.severity == "error"]


HEAD = '[Game "jiuzhi"]\n[Result "*"]\n\nhand 1 dealer=A\n'  # the hand line is line 4
DEALS = ("deal A: YH RS RH GC GS GK WE WA WH WK\n"
         "deal B: YK YK RA RA GE GE WR WR YC\n"
         "deal C: YA YE YR RK RE RR RC GA GR\n"
         "deal D: GH GA WS WC WH YS RE RA YR\n")


def _self_draw(reveal: str | None = None, draw: str = "B: draw YC", win: str = "B: win zimo YC") -> str:
    """B's four dealt pairs go face down and his YC pairs the YC he draws: a 自模, then the
    reveal of the five set aside, three of them seen (aside line 5, deals 6-9, the discard 10,
    the draw 11, the win 12, the reveal 13)."""
    plays = ["A: discard YH", draw, win] + ([reveal] if reveal else [])
    return HEAD + "aside YC * WS * YK\n" + DEALS + "".join(line + "\n" for line in plays)


def test_the_located_records_are_valid_as_written():
    assert _errors(_self_draw("B: reveal YC GE WS RK YK")) == []
    assert _errors(HEAD + DEALS + "A: discard YH\n") == []


def test_a_wrong_card_of_the_reveal_is_located_at_that_card():
    """□手順: the five set aside 「自模上がりした人がめくり」; the third was seen as WS."""
    assert _errors(_self_draw("B: reveal YC GE RS RK YK")) == [("L301", 13, len("B: reveal YC GE ") + 1)]


def test_a_fifth_copy_turned_in_the_reveal_is_located_at_it():
    """●使用枚数…四色牌112枚, four of each: YC set aside, dealt to B and drawn by B is three;
    the second card turned makes four, the fourth would be a fifth."""
    assert _errors(_self_draw("B: reveal YC YC WS YC YK")) == [("L304", 13, len("B: reveal YC YC WS ") + 1)]


def test_a_reveal_of_six_cards_is_located_at_the_sixth():
    """◆抽五張: 海底牌を5枚 — five cards, not six."""
    assert _errors(_self_draw("B: reveal YC GE WS RK YK YA")) == [("L306", 13, len("B: reveal YC GE WS RK YK ") + 1)]


def test_an_unseen_card_in_a_reveal_or_a_play_is_located_at_the_star():
    """□手順: the winner turns the five (めくり), so each is named; a discard names the card shown."""
    assert _errors(_self_draw("B: reveal YC GE WS * YK")) == [("L305", 13, len("B: reveal YC GE WS ") + 1)]
    assert _errors(_self_draw("B: reveal YC ** WS YK")) == [("L305", 13, len("B: reveal YC ") + 1)]
    assert _errors(HEAD + DEALS + "A: discard *\n") == [("L305", 9, len("A: discard ") + 1)]


def test_a_word_among_cards_is_located_at_the_word():
    """●使用枚数…四色牌112枚: every card is a colour and a piece; a word splits the run."""
    assert _errors(_self_draw("B: reveal YC GE x RK YK")) == [("L305", 13, len("B: reveal YC GE ") + 1)]
    deal = "deal A: YH RS RH GC GS xx GK WE WA WH WK\n"
    assert _errors(HEAD + deal + DEALS.split("\n", 1)[1]) == [("L305", 5, len("deal A: YH RS RH GC GS ") + 1)]


def test_a_draw_or_a_win_of_two_cards_is_located_at_the_second():
    """◆開始: 子が牌山から1枚ツモして公開し — one card drawn, and one card claimed to win on."""
    assert _errors(_self_draw(draw="B: draw YC RS")) == [("L306", 11, len("B: draw YC ") + 1)]
    assert _errors(_self_draw(win="B: win zimo YC YC")) == [("L306", 12, len("B: win zimo YC ") + 1)]


def test_a_fifth_copy_dealt_or_set_aside_is_located_at_it():
    """●使用枚数…四色牌112枚, four of each: A's two YK and B's third is the fifth; five YK set aside."""
    deals = ("deal A: YK YK RS RH GC GS GK WE WA WH\n"
             "deal B: YK YK YK RA RA GE GE WR WR\n") + DEALS.split("\n", 2)[2]
    assert _errors(HEAD + deals) == [("L304", 6, len("deal B: YK YK ") + 1)]
    assert _errors(HEAD + "aside YK YK YK YK YK\n" + DEALS) == [("L304", 5, len("aside YK YK YK YK ") + 1)]


def test_a_sixth_card_set_aside_is_located_at_it():
    """004_4a517c4c696f89f5.txt 「四色牌の九支十仔」 ◆抽五張: 親が5枚の牌を取って横に置いておく —
    five, so the sixth is one too many; four are too few and have no card to point at (the
    line)."""
    assert _errors(HEAD + "aside YC * WS * YK RS\n" + DEALS) == [("L304", 5, len("aside YC * WS * YK ") + 1)]
    assert _errors(HEAD + "aside YC * WS *\n" + DEALS) == [("L304", 5, 1)]


def test_a_card_too_many_in_the_stock_is_located_at_it():
    """004_4a517c4c696f89f5.txt 「四色牌の九支十仔」 ●使用枚数…四色牌112枚: after the deal
    (10 + 9 + 9 + 9) and the five set aside the stock holds 70 cards; a 71st is one too many
    (the stock line's own text locates it)."""
    text = write_record(selfplay_record(ENGINE, 3, hands=1))
    lines = text.split("\n")
    n = next(i for i, line in enumerate(lines) if line.startswith("stock "))
    assert len(lines[n].split()) == 1 + 70
    lines[n] += " YK"
    assert _errors("\n".join(lines)) == [("L304", n + 1, len(lines[n]) - 1)]
