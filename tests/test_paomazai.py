"""Paomazai: selfplay records validate; mutations are rejected with the right code."""

from __future__ import annotations


from hypothesis import assume, example, given, settings, strategies as st

from paifu.notation.model import CardsArg, NumArg
from paifu.notation.writer import write_records
from paifu.notation import parse
from paifu.replay.mahjong import tiles as T
from paifu.replay.games import engine
from paifu.replay.mahjong.paomazai import horse_matches
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate

ENGINE = engine("paomazai")


def _codes(report):
    return [(d.code, d.line) for d in report.diagnostics if d.severity == "error"]


def test_horse_table_follows_the_seed():
    # ●奨馬 東…東・1・5・9 南…南・中・2・6 西…西・發・3・7 北…北・白・4・8
    wants = {0: "1z 1m 5p 9s", 1: "2z 7z 2m 6s", 2: "3z 6z 3p 7m", 3: "4z 5z 4s 8p"}
    for wind, tiles in wants.items():
        for t in tiles.split():
            assert horse_matches(wind, t)
            assert sum(horse_matches(w, t) for w in range(4)) == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed, hands=1)
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_changed_score_is_rejected(seed):
    record = selfplay_record(ENGINE, seed, hands=1)
    text = write_records([record])
    record = parse(text)
    score = next(e for e in record.hands[0].events if e.verb == "score")
    num = score.args[1]
    assert isinstance(num, NumArg)
    num.value += 100
    report = validate(parse(write_records([record])))
    assert ("S401", score.at.line) in _codes(report)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_discard_not_held_is_rejected(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    hand = record.hands[0]
    deal_a = next(e for e in hand.events if e.verb == "deal" and e.args[0].seat == "A")
    held = set(deal_a.cards())
    first = next((e for e in hand.events if e.seat == "A" and e.verb == "discard"), None)
    assume(first is not None)  # A may win or kong before any discard of his
    missing = next(c for c in T.CODES if c not in held)
    first.args[0] = CardsArg(cards=[missing], at=first.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L303", first.at.line) in _codes(report)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_draw_against_the_written_wall(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    hand = record.hands[0]
    draw = next((e for e in hand.events if e.verb == "draw"), None)
    if draw is None:
        return
    tile = draw.cards()[0]
    other = "1z" if tile != "1z" else "2z"
    draw.args[0] = CardsArg(cards=[other], at=draw.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L301", draw.at.line) in _codes(report)


def test_selfplay_wins_at_least_half_its_hands():
    won = hands = 0
    for seed in range(8):
        record = parse(write_records([selfplay_record(ENGINE, seed, hands=2)]))
        for hand in record.hands:
            hands += 1
            won += any(e.verb == "win" for e in hand.events)
    assert won * 2 >= hands


def test_selfplay_robs_an_added_kong():
    """Over these fixed seeds (measured), a ready hand robs an added kong (搶槓糊)."""
    terms: set[str] = set()
    for seed in range(135, 155):
        report = validate(parse(write_records([selfplay_record(ENGINE, seed)])))
        assert report.valid
        for out in report.hands:
            terms.update(i.term for i in out.items)
    assert "搶槓糊" in terms


def test_horse_count_message_quotes_the_seed_and_says_the_count_outside():
    """■奨馬の規則: 「自模上がりした人が、自模上がった牌の次の牌から5枚引く」. With horses=3 the
    message must quote the seed's 5枚 and give the computed 3 outside the quotation."""
    text = """[Game "paomazai"]
[Option "horses=3"]

hand 1 dealer=A
deal A: 123m456p789s11122z
deal B: *************
deal C: *************
deal D: *************
A: win tsumo 2z
horses 1m2m
"""
    report = validate(parse(text))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [("L301", 10)]
    message = errors[0].message
    assert "「自模上がった牌の次の牌から5枚引く」" in message
    assert message.startswith("3 horses are drawn here, not 2")
    quoted = message[message.index("「"):message.index("」")]
    assert "3" not in quoted


# -- an independent scorer, written from the seed's tables (not from the engine) ----------
# ■得点一覧: 暗槓 200 from each; 明槓 300 from the discarder; 加槓 100 from each; 食糊 300 from
# the discarder (the dealer's too); 自模 200 from each; 搶槓糊 600 from the konger.
# ●奨馬: 東 1z 1 5 9; 南 2z 中7z 2 6; 西 3z 發6z 3 7; 北 4z 白5z 4 8 (100 from each per tile).
SEED_HORSES = {0: ({"1z"}, {1, 5, 9}), 1: ({"2z", "7z"}, {2, 6}), 2: ({"3z", "6z"}, {3, 7}), 3: ({"4z", "5z"}, {4, 8})}


def _seed_score(hand, dealer: str, horses_rule: str, replacement_rule: str) -> tuple[dict[str, int], list[str], list[str]]:
    """The hand's deltas, the winners, and the horses the wall gives, from its events alone."""
    seats = ["A", "B", "C", "D"]
    delta = dict.fromkeys(seats, 0)

    def pay(payer: str, payee: str, amount: int) -> None:
        delta[payer] -= amount
        delta[payee] += amount

    wall = next(e.cards() for e in hand.events if e.verb == "wall")
    head = tail = 0
    pons: dict[str, set[str]] = {s: set() for s in seats}
    last_discard: tuple[str, str] | None = None
    pending_added: tuple[str, str] | None = None  # an added kong not yet paid (it may be robbed)
    robbed: tuple[str, str] | None = None  # the added kong robbed (several may rob it: each is paid)
    after_kong = False  # the next draw of the konger is a replacement
    won_on_replacement = False
    winners: list[str] = []
    written_horses: list[str] = []
    events = [e for e in hand.events if e.verb not in ("deal", "wall", "dice", "score", "total")]
    for i, e in enumerate(events):
        if e.verb == "pass":
            continue
        if pending_added is not None and not (e.verb == "win" and e.args[0].text == "rob"):
            seat, _ = pending_added
            for p in seats:
                if p != seat:
                    pay(p, seat, 100)  # 加槓, not robbed
            pending_added = None
        if e.verb == "draw":
            if after_kong:
                tail += 1
            else:
                head += 1
            won_on_replacement = after_kong
            after_kong = False
        elif e.verb == "discard":
            last_discard = (e.seat, e.cards()[0])
        elif e.verb == "pon":
            pons[e.seat].add(e.cards()[0])
            last_discard = None
        elif e.verb == "kong":
            tile = e.cards()[0]
            after_kong = True
            if last_discard is not None and last_discard[1] == tile and last_discard[0] != e.seat:
                pay(last_discard[0], e.seat, 300)  # 明槓
            elif tile in pons[e.seat]:
                pending_added = (e.seat, tile)
            else:
                for p in seats:
                    if p != e.seat:
                        pay(p, e.seat, 200)  # 暗槓
            last_discard = None
        elif e.verb == "win":
            how = e.args[0].text
            winners.append(e.seat)
            if how == "ron":
                pay(last_discard[0], e.seat, 300)
            elif how == "rob":
                pay(pending_added[0], e.seat, 600)  # 搶槓糊; the robbed kong is no kong: it earns nothing
                robbed = pending_added
            else:
                for p in seats:
                    if p != e.seat:
                        pay(p, e.seat, 200)
        elif e.verb == "horses":
            written_horses = e.cards()
    if pending_added is not None and pending_added != robbed:
        seat, _ = pending_added
        for p in seats:
            if p != seat:
                pay(p, seat, 100)
    due: list[str] = []
    tsumo = [e for e in events if e.verb == "win" and e.args[0].text == "tsumo"]
    if tsumo and horses_rule != "none":
        winner = tsumo[0].seat
        left = wall[head:len(wall) - tail]
        n = min(int(horses_rule), len(left))
        due = list(reversed(left))[:n] if won_on_replacement and replacement_rule == "tail" else left[:n]
        honours, ranks = SEED_HORSES[(seats.index(winner) - seats.index(dealer)) % 4]
        good = [t for t in written_horses if t in honours or (not t.endswith("z") and int(t[0]) in ranks)]
        for p in seats:
            if p != winner:
                pay(p, winner, 100 * len(good))
    return delta, winners, due


RULE_SETS = [{}, {"horses": "3"}, {"horses": "none"}, {"replacement_horses": "tail"}, {"draw_dealer": "pass"},
             {"multi_ron": "head_bump", "horses": "8"}]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(RULE_SETS))
@example(20, {})  # hand 3: B robs D's added kong of 2m: 600 from D, and the robbed kong earns nothing
def test_settlements_agree_with_a_scorer_written_from_the_seed(seed, options):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=3, options=options)]))
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    rules = {"horses": "5", "replacement_horses": "head", "draw_dealer": "stay", **options}
    dealer = None
    for hand, out in zip(record.hands, report.hands):
        written = next(a.value for a in hand.args if getattr(a, "key", None) == "dealer")
        assert dealer is None or written == dealer  # 荘で勝てば連荘; else the next seat deals
        deltas, winners, due = _seed_score(hand, written, rules["horses"], rules["replacement_horses"])
        assert out.computed == deltas
        horses = next((e.cards() for e in hand.events if e.verb == "horses"), [])
        assert horses == due  # 自模上がった牌の次の牌から N 枚
        seats = "ABCD"
        if written in winners or (not winners and rules["draw_dealer"] == "stay"):
            dealer = written
        else:
            dealer = seats[(seats.index(written) + 1) % 4]


def test_horse_problems_are_located_at_their_tile():
    """A horse tile beyond the set's four copies: the error points at that argument."""
    text = """[Game "paomazai"]

hand 1 dealer=A
deal A: 123m456p789s11122z
deal B: *************
deal C: *************
deal D: *************
A: win tsumo 2z
horses 1m 5p 1z 3s 1z
"""
    report = validate(parse(text))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert [(d.code, d.line, d.col) for d in errors] == [("L301", 9, len("horses 1m 5p 1z 3s ") + 1)]
    assert "horse 5 cannot be 1z" in errors[0].message


def test_horses_option_takes_digits_only():
    from paifu.replay.mahjong.paomazai import OPTIONS
    option = next(o for o in OPTIONS if o.name == "horses")
    for good in ("none", "0", "5", "12"):
        assert option.check(good) is None
    for bad in ("-1", "+3", "3.5", "٣", "５", "five", ""):
        assert option.check(bad) is not None


def test_a_late_winner_is_in_the_computed_settlement():
    """RULINGS §paomazai: several players may win on one discard, each is paid, also one whose
    hand the scribe did not see (its win is taken on trust)."""
    text = """[Game "paomazai"]

hand 1 dealer=A
deal A: 2468m2468p2468s77z
deal B: 123m456p789s1117z
deal C: *************
deal D: *************
A: discard 7z
B: win ron 7z
C: pass
D: win ron 7z
"""
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.hands[0].computed == {"A": -600, "B": 300, "C": 0, "D": 300}
    assert [(i.seat, i.term, i.value) for i in report.hands[0].items] == [("B", "食糊", 300), ("D", "食糊", 300)]


def test_rules_table_lists_the_horses():
    rows = ENGINE.rule_tables()[0][2]
    assert rows == [("東 (E)", "1z", "1 5 9"), ("南 (S)", "2z 7z", "2 6"), ("西 (W)", "3z 6z", "3 7"), ("北 (N)", "4z 5z", "4 8")]
