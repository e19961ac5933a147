"""Wuhan 紅中頼子槓 (and Jingzhou): the 頼子 successor, hand readings, the scoring table,
payments worked out by hand, selfplay, mutations.

Seed 000_d19ded950c7752da.txt §武漢の「紅中頼子槓」麻雀 (its dated change log overrides
older text) and §荆州?麻雀(紅中頼子槓の三麻); RULINGS §wuhan. Rule-by-rule record tests
live in tests/records/wuhan/.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume, given, settings, strategies as st

from notation import parse
from notation.writer import write_records
from replay import tiles as T
from replay.games import engine
from replay.selfplay import selfplay_record
from replay.validate import validate
from replay.wuhan import ITEMS, Reading, cash, dice_break, readings, successor, predecessor

ENGINE = engine("wuhan")
ALL = set(T.tile_set("136"))
JZ = set(T.tile_set(suits="mp", honours="234567"))


def test_laizi_successor_follows_the_rulings_order():
    # §配牌: numbers +1 (9 → 1); honours 東南西北中發白, 中 never a 頼子 (北 → 發)
    assert successor("3m", ALL, {"7z"}) == "4m"
    assert successor("9p", ALL, {"7z"}) == "1p"
    assert successor("1z", ALL, {"7z"}) == "2z"  # 東 → 南
    assert successor("4z", ALL, {"7z"}) == "6z"  # 北 → 發 (中は決して頼子になれない)
    assert successor("7z", ALL, {"7z"}) == "6z"  # 中 → 發
    assert successor("6z", ALL, {"7z"}) == "5z"  # 發 → 白
    assert successor("5z", ALL, {"7z"}) == "1z"  # 白 → 東
    # RULINGS §wuhan: 紅中發財 also skips 發; 荊州 (no 東): 白 → 南
    assert successor("4z", ALL, {"7z", "6z"}) == "5z"
    assert successor("5z", JZ, {"7z"}) == "2z"


def test_pizi_are_the_indicator_and_the_tile_below():
    # §バリエーション 皮子: 頼子表示牌と1つ下の牌 (七皮四頼)
    assert predecessor("1s", ALL, {"7z"}) == "9s"
    assert predecessor("6z", ALL, {"7z"}) == "4z"  # 發 ← 北 (中 skipped)


def test_dice_pick_the_wall_by_the_sum_and_split_by_the_smaller_die():
    # §配牌: 2-5 → the sum 7 is the dealer's opposite; split after 2 stacks
    assert dice_break((2, 5), list("ABCD"), "A") == "2-5: C's wall (sum 7), split after 2 stack(s) from its right"


def _c(text: str) -> list[int]:
    return T.counts_of(text)


def test_two_laizi_pair_only_at_face_value():
    # 頼子 = 5m (a 5): two of them make a 258 pair; 頼子 = 4m: not a 258 pair
    rs = readings(_c("123p456p789p123s55m"), T.tile_index("5m"), 0)
    assert any(r.pair == T.tile_index("5m") and r.pair258 for r in rs)
    # 頼子 = 4m, the rest triplets of 1, 4, 7: no reading has a 2/5/8 pair
    rs = readings(_c("111p444p777p111s44m"), T.tile_index("4m"), 0)
    assert rs and not any(r.pair258 for r in rs)


def test_single_laizi_pairs_any_258():
    # one 頼子 (1z) with a 5s: the pair 5s+頼子 (頼子1枚の単騎で,任意の2,5,8を待つ)
    rs = readings(_c("123p456p789p123s5s1z"), T.tile_index("1z"), 0)
    assert Reading(T.tile_index("5s"), True, False, False) in rs


def test_scoring_table_names_every_item_of_the_seed():
    terms = {i.term for i in ITEMS.values()}
    for term in ("碰碰胡", "風一色", "将一色", "清一色", "海底撈", "槓上開", "搶槓", "全求人",
                 "開口", "暗槓", "頼子槓", "明槓", "紅中槓", "荘家", "硬胡", "ツモ", "放銃者", "封頂", "金頂", "陽光頂", "三陽", "包"):
        assert term in terms


def test_cash_rounds_half_to_even():
    # §点数計算: 一分なら10分の1,五厘なら20分の1し,小数点以下を四捨六入
    assert cash(16, 10) == 2  # 1.6 → 2
    assert cash(64, 10) == 6  # 6.4 → 6
    assert cash(15, 10) == 2  # 1.5 → 2 (even)
    assert cash(25, 10) == 2  # 2.5 → 2 (even)
    assert cash(96, 20) == 5  # 4.8 → 5
    assert Fraction(13, 20) > Fraction(1, 2) and cash(13, 20) == 1


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed, hands=2)
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert all(sum(h.computed.values()) == 0 for h in report.hands if h.computed)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_jingzhou_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed, hands=2, options={"variant": "jingzhou"}, seats=3)
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]


def _lines(seed: int) -> list[str]:
    return write_records([selfplay_record(ENGINE, seed, hands=1)]).split("\n")


def _errors(lines: list[str]) -> set[tuple[str, int]]:
    report = validate(parse("\n".join(lines)))
    return {(d.code, d.line) for d in report.diagnostics if d.severity == "error"}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_discard_out_of_turn_is_rejected_at_its_line(seed, rnd):
    lines = _lines(seed)
    discards = [i for i, l in enumerate(lines) if ": discard " in l]
    assume(discards)
    i = rnd.choice(discards)
    lines[i] = rnd.choice([s for s in "ABCD" if s != lines[i][0]]) + lines[i][1:]
    assert ("L302", i + 1) in _errors(lines)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_changed_score_is_rejected_at_its_line(seed, rnd):
    lines = _lines(seed)
    i = next(k for k, l in enumerate(lines) if l.startswith("score"))
    parts = lines[i].split()
    k = rnd.randrange(4)
    value = int(parts[2 + 2 * k]) + rnd.choice([-3, -1, 1, 2, 10])
    parts[2 + 2 * k] = f"{value:+d}" if value else "0"
    lines[i] = " ".join(parts)
    assert ("S401", i + 1) in _errors(lines)


def test_selfplay_wins_at_least_half_the_hands():
    from replay.mahjong import selfplay_stats
    stats = selfplay_stats(ENGINE, 20, seed=7)
    assert stats["share_won"] >= 0.5, stats


def _settle(text: str, hand: int = 0):
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics]
    return report.hands[hand]


RECORDS = __import__("pathlib").Path(__file__).parent / "records" / "wuhan"


def test_cash_conversion_is_shown_in_the_settlement():
    # §点数計算: 一分(点0.1)なら10分の1 ... 四捨六入. The worked example: 16 → 2, 16 → 2, 64 → 6
    text = (RECORDS / "example.paifu").read_text().replace('[Expect "valid"]', '[Option "cash=10"]\n[Expect "valid"]')
    hand = _settle(text)
    cash_items = sorted((i.seat, i.value) for i in hand.items if i.term == "現金")
    assert cash_items == [("A", 2), ("B", 2), ("C", 6)]
    assert hand.computed == {"A": -16, "B": -16, "C": -64, "D": 96}  # points are settled, cash is shown


def test_jingzhou_set_has_96_tiles_without_east_and_one_suit():
    # §荆州: 数牌1種類の1〜9と東を除いた96枚
    from replay.engine import Rules
    tiles = ENGINE.tile_set(Rules({"variant": "jingzhou", "suits": "mp"}))
    assert len(tiles) == 96 and "1z" not in tiles and not any(t.endswith("s") for t in tiles)


def test_a_game_is_four_rounds_of_the_deal():
    # §進行: 1回のゲームは,親4周. Four players: the deal passes 16 times
    from replay.engine import Rules, Settlement
    from replay.mahjong import Win
    match = ENGINE.start_match(Rules({o.name: o.default for o in ENGINE.options}), list("ABCD"))
    dealer = "A"
    for n in range(16):
        assert not ENGINE.match_over(match)
        state = ENGINE.state_class(match=match, header=None, seats=list("ABCD"), dealer=dealer)
        winner = state.next_seat(dealer)
        state.wins = [Win(winner, "tsumo", "1m", None, [0] * 34, [])]
        ENGINE.end_hand(match, state, Settlement({s: 0 for s in "ABCD"}))
        assert match.dealer == winner  # a non-dealer win passes the deal to the dealer's 下家
        dealer = winner
    assert ENGINE.match_over(match)


def test_view_shows_the_laizi_and_one_tile_kongs():
    from replay.engine import HandHeader
    text = (RECORDS / "example.paifu").read_text()
    record = parse(text)
    hand = record.hands[0]
    match = ENGINE.start_match(__import__("replay.engine", fromlist=["Rules"]).Rules({o.name: o.default for o in ENGINE.options}), list("ABCD"))
    setup = [e for e in hand.events if e.seat is None and e.verb in ENGINE.setup_verbs]
    state = ENGINE.start_hand(match, HandHeader(1, "A", {}), setup)
    for ev in hand.events[len(setup):]:
        if ev.seat is None:
            break
        ENGINE.apply(state, ENGINE.read_action(state, ev))
    view = ENGINE.view(state, None)
    assert view.info["頼子"] == "2z (indicator 1z)"
    c = next(s for s in view.seats if s.seat == "C")
    assert ["7z"] in c.zones[1].groups and ["2z"] in c.zones[1].groups


def test_rules_command_lists_the_scoring_items(capsys):
    from paifu_cli import main
    assert main(["rules", "wuhan"]) == 0
    out = capsys.readouterr().out
    for it in ITEMS.values():
        assert it.term.split(" ")[0] in out


def test_jingzhou_refuses_four_players_and_koukou():
    base = (RECORDS / "variants.paifu").read_text().split("\n\n[Game")[0]
    four = base.replace('[Players "A: a; B: b; C: c"]\n', "")
    report = validate(parse(four))
    assert any(d.code == "L309" for d in report.diagnostics)
    koukou = base.replace('[Option "variant=jingzhou"]', '[Option "variant=jingzhou"]\n[Option "kaikou=each"]')
    report = validate(parse(koukou))
    assert any(d.code == "L301" and "口口飜" in d.message for d in report.diagnostics)


def test_jingzhou_selfplay_seats_three_and_a_refused_seat_count_is_a_message(capsys):
    from paifu_cli import main
    assert main(["selfplay", "wuhan", "-n", "1", "--seed", "4", "--option", "variant=jingzhou"]) == 0
    out = capsys.readouterr().out
    assert '[Players "A: A; B: B; C: C"]' in out and validate(parse(out)).valid
    assert main(["selfplay", "wuhan", "-n", "1", "--option", "variant=jingzhou", "--seats", "4"]) == 2
    assert "荊州 is played by three players" in capsys.readouterr().err
