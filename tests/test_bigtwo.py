"""Big Two (鋤大D / 大老二): an independent referee and scorer, written from the rule text
「中華圏の大富豪BIG2(大老二・鋤大D)」 (seed 004_4a517c4c696f89f5.txt, §2015年08月17日) and
RULINGS §bigtwo, compared with the engine over random deals, random legal play and selfplay.

Nothing here imports the engine's rules helpers: the combinations, their order and the
settlement are written again from the text's own lists (□札の出し方, ※ストレートの強弱,
◆失点の罰則, □特殊例).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings, strategies as st

from paifu.notation import parse, write_record
from paifu.replay.cards.bigtwo import ENGINE, Pass, Play
from paifu.replay.engine import HandHeader, Rules
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate

SEATS = ["A", "B", "C", "D"]  # in the order of play (進行方向…反時計回り)

# -- the rule text's tables ---------------------------------------------------------------
# ●札の強弱…3<4<5<6<7<8<9<10<J<Q<K<A<2   ●スートの強弱…スペード>ハート>ダイヤ>クラブ
RANKS = "3456789TJQKA2"
SUITS = "CDHS"
PACK = [r + s for r in RANKS for s in SUITS]  # ジョーカーを抜いたトランプ52枚

# ※ストレートの強弱: 2・3・4・5・6>10・J・Q・K・A>9・10・J・Q・K>8・9・10・J・Q>…A・2・3・4・5(最弱)
SEED_STRAIGHTS = ["23456", "TJQKA", "9TJQK", "89TJQ", "789TJ", "6789T", "56789", "45678", "34567", "A2345"]

# 順子(ストレート)<同花(フラッシュ)<葫蘆(フルハウス)<鉄支(4カード+1)<同花順(ストレートフラッシュ)
FIVE_ORDER = ["順子", "同花", "葫蘆", "鉄支", "同花順"]

DEFAULTS = {"straight_order": "seed", "jqka2": "no", "flush": "seed", "five_card": "cross",
            "twos": "2n", "eight_plus": "2", "no_play": "4", "bust": "none"}


def strength(card: str) -> tuple[int, int]:
    """A single card's place: its number first, then its suit (同じ数字の札でも、スートの強さが上回っていれば勝つ)."""
    return RANKS.index(card[0]), SUITS.index(card[1])


def top(cards) -> str:
    return max(cards, key=strength)


def straights(opts: dict[str, str]) -> list[str]:
    """The straights, strongest first, under the options."""
    order = list(SEED_STRAIGHTS)
    if opts["jqka2"] == "allowed":  # RULINGS: JQKA2 ranks between 23456 and TJQKA
        order.insert(1, "JQKA2")
    if opts["straight_order"] == "a2345_top":  # 「A・2・3・4・5」を最強として、「2・3・4・5・6」が次に強い
        order.remove("A2345")
        order.insert(0, "A2345")
    return order


def straight_place(cards, opts) -> int | None:
    """The straight's place in the list (0 strongest), or None: not a straight."""
    ranks = {c[0] for c in cards}
    if len(ranks) != 5:
        return None
    return next((i for i, s in enumerate(straights(opts)) if set(s) == ranks), None)


def seed_kind(cards, opts) -> str | None:
    """煉丹 一対 三條, or one of the five-card hands; None for anything else."""
    n = len(cards)
    ranks = Counter(c[0] for c in cards)
    if n in (1, 2, 3):
        return {1: "煉丹", 2: "一対", 3: "三條"}[n] if len(ranks) == 1 else None
    if n != 5:
        return None
    one_suit = len({c[1] for c in cards}) == 1
    straight = straight_place(cards, opts) is not None
    if straight and one_suit:
        return "同花順"
    if straight:
        return "順子"
    if one_suit:
        return "同花"
    if sorted(ranks.values()) == [2, 3]:
        return "葫蘆"
    if sorted(ranks.values()) == [1, 4]:
        return "鉄支"
    return None


def seed_beats(new, old, opts) -> bool:
    """Whether ``new`` may be played on ``old`` (both legal combinations)."""
    kn, ko = seed_kind(new, opts), seed_kind(old, opts)
    if len(new) != len(old):  # 出された同枚数のより強い札
        return False
    if kn != ko:
        if opts["five_card"] == "same_type":  # 台湾の大老二では、同じ役には別の役を出せない
            return False
        return FIVE_ORDER.index(kn) > FIVE_ORDER.index(ko)
    if kn in ("煉丹", "一対", "三條"):  # a pair: the stronger single card decides (♣3♠3 beats ♦3♥3)
        return strength(top(new)) > strength(top(old))
    if kn in ("順子", "同花順"):
        pn, po = straight_place(new, opts), straight_place(old, opts)
        if pn != po:
            return pn < po
        return strength(top(new)) > strength(top(old))  # 同数のストレートでは、一番強い数札のスート
    if kn == "同花":
        if opts["flush"] == "top_card":
            return strength(top(new)) > strength(top(old))
        # ♣<♦<♥<♠の強さで勝つ; ただし…相手の最強カード…より強い…カードが含まれていないと…勝てません
        # (docs/rulings.md: ♥A-high beats ♣A-high, the seed's own example)
        sn, so = SUITS.index(new[0][1]), SUITS.index(old[0][1])
        return sn >= so and strength(top(new)) > strength(top(old))
    counted = Counter(c[0] for c in new), Counter(c[0] for c in old)
    size = 3 if kn == "葫蘆" else 4  # 葫蘆: 3枚組の部分; 鉄支: the four
    rn = next(r for r, k in counted[0].items() if k == size)
    ro = next(r for r, k in counted[1].items() if k == size)
    return RANKS.index(rn) > RANKS.index(ro)


def seed_plays(hand, table, opening: bool, opts) -> set[frozenset[str]]:
    """Every play the text allows from ``hand`` on ``table`` (None: a free lead)."""
    out: set[frozenset[str]] = set()
    for n in (1, 2, 3, 5):
        for cards in combinations(sorted(hand), n):
            if seed_kind(cards, opts) is None:
                continue
            if opening and "3C" not in cards:  # 最初は必ず♣3を出さなければならない
                continue
            if table is None or seed_beats(cards, table, opts):
                out.add(frozenset(cards))
    return out


def dragon(cards) -> str | None:
    """□特殊例: 一條龍 (A to K, thirteen ranks) or 同花一條龍 (the same of one suit)."""
    if len({c[0] for c in cards}) != 13:
        return None
    return "同花一條龍" if len({c[1] for c in cards}) == 1 else "一條龍"


def seed_settlement(dealt: dict[str, list[str]], left: dict[str, list[str]], played: dict[str, int],
                    opts) -> dict[str, int]:
    """□勝利条件と得点計算, ◆失点の罰則, □特殊例, for one finished hand."""
    delta = dict.fromkeys(SEATS, 0)
    dragons = {s: d for s in SEATS if (d := dragon(dealt[s]))}
    if dragons:
        first = next(s for s in SEATS if "3C" in dealt[s])
        order = SEATS[SEATS.index(first):] + SEATS[:SEATS.index(first)]
        same = [s for s in order if dragons.get(s) == "同花一條龍"]
        winner = same[0] if same else next(s for s in order if s in dragons)
        times = 4 if dragons[winner] == "同花一條龍" else 3  # 各自の手札×3倍 (同花: ×4)
        for s in SEATS:
            if s != winner:
                delta[s] -= 13 * times
                delta[winner] += 13 * times
        return delta
    winner = next(s for s in SEATS if not left[s])
    for s in SEATS:
        if s == winner:
            continue
        cards = left[s]
        points = len(cards)  # 手札に残った枚数が失点
        twos = sum(1 for c in cards if c[0] == "2")
        if twos and opts["twos"] == "2n":  # 2を手に残していたら2倍負け。2枚残しで4倍、3枚で6倍、4枚で8倍
            points *= 2 * twos
        if played[s] == 0 and opts["no_play"] != "none":  # 1枚も出せずに負けた場合、4倍 (8枚以上と重複せず)
            points *= int(opts["no_play"])
        elif len(cards) >= 8 and opts["eight_plus"] != "none":  # 8枚以上手に残していたら2倍、または3倍
            points *= int(opts["eight_plus"])
        delta[s] -= points
        delta[winner] += points
    return delta


# -- the text's own examples -----------------------------------------------------------------
def test_the_seed_example_nine_cards_two_twos_pays_72():
    """「負けた時の手札が9枚で、2が2枚含まれていた場合は、9×2×2×2=72点」."""
    dealt = {s: [] for s in SEATS}
    left = {"A": [], "B": ["2C", "2D", "3C", "4C", "5C", "6C", "7C", "8C", "9C"], "C": ["3D"], "D": ["3H"]}
    delta = seed_settlement(dealt, left, {"A": 13, "B": 4, "C": 12, "D": 12}, DEFAULTS)
    assert delta == {"A": 74, "B": -72, "C": -1, "D": -1}


def test_seed_kinds_and_order_follow_the_text():
    o = DEFAULTS
    assert not seed_beats(["3D", "3H"], ["3C", "3S"], o)
    assert seed_beats(["3C", "3S"], ["3D", "3H"], o)  # 相手の♦3♥3に対し、♣3♠3で勝つ
    assert seed_beats(["3C", "4H", "5C", "6C", "7S"], ["3H", "4S", "5D", "6H", "7H"], o)
    # ♣10・J・Q・K・A is a straight flush under these straights; the flush point with ♣9JQKA:
    assert not seed_beats(["3H", "4H", "5H", "6H", "KH"], ["9C", "JC", "QC", "KC", "AC"], o)
    assert seed_beats(["3H", "4H", "5H", "6H", "AH"], ["9C", "JC", "QC", "KC", "AC"], o)
    assert seed_beats(["3H", "4H", "5H", "6H", "2H"], ["9C", "JC", "QC", "KC", "AC"], o)
    assert seed_beats(["4C", "4D", "8C", "8D", "8H"], ["5C", "5D", "7C", "7D", "7H"], o)  # 55・777に対して、44・888
    assert seed_beats(["2C", "3D", "4H", "5S", "6C"], ["TC", "JD", "QH", "KS", "AC"], o)
    assert seed_beats(["AC", "2D", "3H", "4S", "5C"], ["2C", "3D", "4H", "5S", "6D"], {**o, "straight_order": "a2345_top"})
    assert seed_kind(["JC", "QD", "KH", "AS", "2C"], o) is None
    assert seed_kind(["JC", "QD", "KH", "AS", "2C"], {**o, "jqka2": "allowed"}) == "順子"


# -- random deals, random legal play: the engine's legal plays and settlement ----------------
def _engine_state(dealt: dict[str, list[str]], rules: Rules):
    text = '[Game "bigtwo"]\n\nhand 1 dealer=D\n' + "".join(f"deal {s}: {' '.join(dealt[s])}\n" for s in SEATS)
    hand = parse(text).hands[0]
    match = ENGINE.start_match(rules, list(SEATS))
    return ENGINE.start_hand(match, HandHeader(1, "D", {}), hand.events)


def _random_hand(rng: random.Random, opts: dict[str, str], dealt: dict[str, list[str]] | None = None):
    """Deal, then play at random among the text's legal plays, checking the engine's list of
    legal actions against the text's at every turn. Returns the record text with the text's
    own score line, and the text's settlement."""
    if dealt is None:
        pack = list(PACK)
        rng.shuffle(pack)
        dealt = {s: sorted(pack[i * 13:(i + 1) * 13], key=strength) for i, s in enumerate(SEATS)}
    rules = Rules({**DEFAULTS, **opts})
    state = _engine_state(dealt, rules)
    hands = {s: set(dealt[s]) for s in SEATS}
    played = dict.fromkeys(SEATS, 0)
    lines: list[str] = []
    shy = {s: rng.choice([0.0, 0.3, 0.6, 0.95]) for s in SEATS}  # how often a seat passes when it may
    if not any(dragon(dealt[s]) for s in SEATS):
        turn = next(s for s in SEATS if "3C" in hands[s])  # クラブの3を持っている人から開始する
        table, by, passes, opening = None, None, 0, True
        while True:
            allowed = seed_plays(hands[turn], table, opening, opts_of(rules))
            engine_allowed = {frozenset(a.cards) for a in ENGINE.legal_actions(state) if isinstance(a, Play)}
            assert engine_allowed == allowed, (turn, table, sorted(allowed ^ engine_allowed, key=sorted))
            may_pass = table is not None  # a player starting a new lead may not pass
            assert any(isinstance(a, Pass) for a in ENGINE.legal_actions(state)) == may_pass
            if may_pass and (not allowed or rng.random() < shy[turn]):
                lines.append(f"{turn}: pass")
                ENGINE.apply(state, Pass(turn))
                passes += 1
                turn = SEATS[(SEATS.index(turn) + 1) % 4]
                if passes == 3:  # 場に一番強い札を出した人が、次に札を出す権利を得る
                    table, passes, turn = None, 0, by
                continue
            choice = sorted(rng.choice(sorted(allowed, key=sorted)), key=strength)
            lines.append(f"{turn}: {' '.join(choice)}")
            ENGINE.apply(state, Play(turn, tuple(choice)))
            hands[turn] -= set(choice)
            played[turn] += len(choice)
            table, by, passes, opening = choice, turn, 0, False
            if not hands[turn]:
                break
            turn = SEATS[(SEATS.index(turn) + 1) % 4]
    assert ENGINE.hand_over(state)
    left = {s: sorted(hands[s]) for s in SEATS}
    delta = seed_settlement(dealt, left, played, opts_of(rules))
    assert ENGINE.settle(state).deltas == delta
    score = "score " + " ".join(f"{s} {delta[s]:+d}" if delta[s] else f"{s} 0" for s in SEATS)
    options = "".join(f'[Option "{k}={v}"]\n' for k, v in opts.items())
    text = ('[Game "bigtwo"]\n' + options + "\nhand 1 dealer=D\n"
            + "".join(f"deal {s}: {' '.join(dealt[s])}\n" for s in SEATS) + "\n".join(lines + [score]) + "\n")
    return text, delta


def opts_of(rules: Rules) -> dict[str, str]:
    return {k: rules[k] for k in DEFAULTS}


OPTION_SETS = [
    {}, {"straight_order": "a2345_top"}, {"jqka2": "allowed"}, {"flush": "top_card"}, {"five_card": "same_type"},
    {"twos": "none", "eight_plus": "3"}, {"no_play": "none"}, {"eight_plus": "none", "no_play": "none"},
    {"straight_order": "a2345_top", "jqka2": "allowed", "flush": "top_card", "five_card": "same_type"},
]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(OPTION_SETS))
def test_random_play_agrees_with_the_text(seed, opts):
    text, _ = _random_hand(random.Random(seed), opts)
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics] + [text]


def _stacked(rng: random.Random, kinds: list[str]) -> dict[str, list[str]]:
    """A deal with dragons for the first seats: 'plain' or 'same' (same suit)."""
    pack = list(PACK)
    rng.shuffle(pack)
    suits = rng.sample(SUITS, 4)
    dealt: dict[str, list[str]] = {}
    for i, kind in enumerate(sorted(kinds, key=lambda k: k != "same")):  # same-suit ones first
        if kind == "same":
            cards = [r + suits[i] for r in RANKS]
        else:
            cards = [next(c for c in pack if c[0] == r) for r in RANKS]
        for c in cards:
            pack.remove(c)
        dealt[SEATS[i]] = cards
    seats = [s for s in SEATS if s not in dealt]
    for i, s in enumerate(seats):
        dealt[s] = pack[i * 13:(i + 1) * 13]
    order = rng.sample(SEATS, 4)
    return {new: sorted(dealt[old], key=strength) for new, old in zip(SEATS, order)}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([["plain"], ["same"], ["plain", "plain"], ["plain", "same"],
                                               ["same", "same"], ["plain", "plain", "plain"]]))
def test_dealt_dragons_agree_with_the_text(seed, kinds):
    rng = random.Random(seed)
    text, delta = _random_hand(rng, {}, _stacked(rng, kinds))
    assert sorted(delta.values())[:3] == [-39, -39, -39] or sorted(delta.values())[:3] == [-52, -52, -52]
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics] + [text]


# -- selfplay: the engine's own records, scored again by the text ------------------------------
def _replay_left(hand) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, int]]:
    dealt = {e.args[0].seat: e.cards() for e in hand.events if e.verb == "deal"}
    left = {s: list(dealt[s]) for s in SEATS}
    played = dict.fromkeys(SEATS, 0)
    for e in hand.events:
        if e.verb is None and e.seat:
            for c in e.cards():
                left[e.seat].remove(c)
            played[e.seat] += len(e.cards())
    return dealt, left, played


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(OPTION_SETS))
def test_selfplay_settlements_agree_with_the_text(seed, opts):
    record = parse(write_record(selfplay_record(ENGINE, seed, 4, opts)))
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    for hand, out in zip(record.hands, report.hands):
        dealt, left, played = _replay_left(hand)
        assert out.computed == seed_settlement(dealt, left, played, {**DEFAULTS, **opts})


def test_aimed_selfplay_reaches_the_rare_items_and_agrees():
    """同花一條龍, 一條龍 and 1枚も出せずに負けた場合, through aimed selfplay."""
    for aim in ("dragon", "same-suit dragon", "no card played"):
        record = parse(write_record(selfplay_record(ENGINE, 7, 2, aim=aim)))
        report = validate(record)
        assert report.valid, [d.format() for d in report.diagnostics]
        for hand, out in zip(record.hands, report.hands):
            dealt, left, played = _replay_left(hand)
            assert out.computed == seed_settlement(dealt, left, played, DEFAULTS)


# -- bad input: located errors -----------------------------------------------------------------
def _errors(text: str) -> list[tuple[str, int, int]]:
    report = validate(parse(text))
    return [(d.code, d.line, d.col) for d in report.diagnostics if d.severity == "error"]


HEAD = '[Game "bigtwo"]\n[Result "*"]\n\nhand 1 dealer=D\ndeal A: 3C 3D 6C 6D 7C 8C 9C TC JC QC QD QH AS\n'


def test_a_card_twice_in_one_play_is_located_at_the_second_copy():
    assert _errors(HEAD + "A: 3C 3D 3C\n") == [("L301", 6, len("A: 3C 3D ") + 1)]


def test_a_dragon_line_names_no_cards():
    text = '[Game "bigtwo"]\n[Result "*"]\n\nhand 1 dealer=D\ndeal A: 3C 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D\nA: dragon 3C\n'
    assert _errors(text) == [("L306", 6, len("A: dragon ") + 1)]


def test_bust_takes_a_whole_number_above_zero():
    from paifu.replay.cards.bigtwo import OPTIONS
    bust = next(o for o in OPTIONS if o.name == "bust")
    for good in ("none", "1", "300"):
        assert bust.check(good) is None
    for bad in ("0", "-300", "+3", "3.5", "٣", "x", ""):
        assert bust.check(bad) is not None


def test_a_card_not_held_and_a_non_card_are_located_at_the_card():
    assert _errors(HEAD + "A: 3C 4C\n") == [("L303", 6, len("A: 3C ") + 1)]
    assert _errors(HEAD + "A: 3C foo\n") == [("L305", 6, len("A: 3C ") + 1)]
    assert _errors(HEAD + "A: 3C *\n") == [("L305", 6, len("A: 3C ") + 1)]


def test_a_bad_card_in_a_deal_line_is_located_at_that_card():
    """004_4a517c4c696f89f5.txt 「中華圏の大富豪BIG2」 ●使用枚数…ジョーカーを抜いたトランプ52枚 (each
    card once: a card dealt twice is L304). A deal line's cards are one item, a run: the error
    still points at the card itself, however the cards before it were written (10 for T, a
    suit symbol, two spaces, stars)."""
    twice = HEAD.replace("QH AS\n", "QH AS\ndeal B: 4C 10D 3♦ 5C\n")  # 3♦ is A's 3D
    assert _errors(twice) == [("L304", 6, len("deal B: 4C 10D ") + 1)]
    spaced = HEAD.replace("QH AS\n", "QH AS\ndeal B: 4C  5C QH\n")
    assert _errors(spaced) == [("L304", 6, len("deal B: 4C  5C ") + 1)]
    stars = HEAD.replace("QH AS\n", "QH AS\ndeal B: 4C *** AS\n")
    assert _errors(stars) == [("L304", 6, len("deal B: 4C *** ") + 1)]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(OPTION_SETS), st.sets(st.sampled_from(SEATS), min_size=1, max_size=4))
def test_unseen_hands_give_notes_never_errors(seed, opts, hidden):
    """The same random hands with some deals written '*************': the plays are taken on
    trust, the scores the hidden cards decide are notes (N501), the others still checked."""
    text, delta = _random_hand(random.Random(seed), opts)
    lines = [f"deal {l[5]}: {'*' * 13}" if l.startswith("deal ") and l[5] in hidden else l for l in text.split("\n")]
    report = validate(parse("\n".join(lines)))
    assert report.valid, [d.format() for d in report.diagnostics]
    if len(hidden) == 1:  # the one unseen hand is the 13 cards nobody else was dealt
        assert not report.diagnostics, [d.format() for d in report.diagnostics]
    noted = {d.col for d in report.diagnostics if d.code == "N501" and "score of" in d.message}
    assert noted or report.hands[0].computed == delta


def test_a_bust_of_thousands_of_digits_is_an_option_error_not_a_crash():
    text = '[Game "bigtwo"]\n[Option "bust=' + "9" * 5000 + '"]\n\nhand 1 dealer=D\n' \
           'deal A: 3C 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D\nscore A +117 B -39 C -39 D -39\n'
    assert _errors(text) == [("R204", 2, 1)]
