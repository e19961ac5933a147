"""Sanma (「三人麻雀」のルール ver. 1.3): selfplay records validate, mutations are rejected
with the right code, and the engine's tables follow the rule text.

Record tests for each play rule are in tests/records/sanma/ (run by tests/test_records.py).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from paifu.notation import parse
from paifu.notation.model import CardsArg, NumArg
from paifu.notation.writer import write_records
from paifu.replay.engine import HandHeader, Rules
from paifu.replay.games import engine
from paifu.replay.mahjong.sanma.wall import DEAD, REPLACEMENTS, SanmaWall, dora_of, replacement_problem
from paifu.replay.selfplay import selfplay_record
from paifu.replay.validate import validate

ENGINE = engine("sanma")
RULES = Rules({o.name: o.default for o in ENGINE.options})


def _codes(report):
    return [(d.code, d.line) for d in report.diagnostics if d.severity == "error"]


def test_tile_set():
    # §基本ルール 1: 萬子の二〜八を除いて (136 - 7 × 4 = 108); 3: one red 5p, one red 5s
    tiles = ENGINE.tile_set(RULES)
    assert len(tiles) == 108
    assert not {"2m", "5m", "8m"} & set(tiles)
    assert tiles.count("0p") == 1 and tiles.count("5p") == 3 and tiles.count("0s") == 1


def test_dead_wall_leaves_fifty_live_draws():
    # §基本ルール 2: eight replacement tiles, the indicator is the 9th; RULINGS: 18 tiles fixed.
    # 108 - 13 × 3 - 1 = 68 tiles after the deal; 68 - 18 = 50 live draws (+ the dealer's 14th = 51)
    assert (REPLACEMENTS, DEAD) == (8, 18)
    hand = selfplay_record(ENGINE, 3, hands=1).hands[0]
    match = ENGINE.start_match(RULES, ["A", "B", "C"])
    state = ENGINE.start_hand(match, HandHeader(1, "A", {}), [e for e in hand.events if e.verb in ("deal", "wall")])
    assert state.wall.size == 68 and state.wall.live == 50
    # the first indicator is the 9th tile counted from the tail (the first replacement tile)
    wall = next(e for e in hand.events if e.verb == "wall").cards()
    assert state.play.indicators == [wall[-9]] and state.wall.ura(0) == wall[-10]


def test_replacement_tiles_at_the_end_of_the_wall():
    # rule 2 (RULINGS: 18 tiles, fixed): the eight replacement tiles are apart from the live
    # wall; rules=tenhou: 14 tiles replenished from the live wall, none once it is empty
    seed = SanmaWall(68, dead=DEAD)
    seed.head = 50  # the last live tile drawn (海底)
    assert seed.live == 0 and replacement_problem(seed) is None
    for _ in range(REPLACEMENTS):
        seed.take("tail")
    assert seed.live == 0 and "replacement tiles" in (replacement_problem(seed) or "")
    tenhou = SanmaWall(68, dead=14, replenish=True)
    tenhou.head = 53  # one live tile left
    assert tenhou.live == 1 and replacement_problem(tenhou) is None
    tenhou.take("tail")  # a kong's replacement: the live wall is empty
    assert tenhou.live == 0 and "live wall is empty" in (replacement_problem(tenhou) or "")
    assert not tenhou.can_replace()


def test_dora_order():
    # RULINGS §sanma: 1m→9m, 9m→1m, N→E (winds), dragons cycle; suits 9→1; a red 5 shows the 6
    assert [dora_of(t) for t in ("1m", "9m", "9p", "4s", "0s", "4z", "1z", "7z", "5z")] == \
        ["9m", "1m", "1p", "5s", "6s", "1z", "2z", "5z", "6z"]


@pytest.mark.parametrize("seed", [110])
def test_tenhou_selfplay_makes_no_kong_or_nuki_on_an_empty_live_wall(seed):
    # this half-game once extracted a North on the last live tile under rules=tenhou: the
    # live wall went to -1 and nobody could draw or end the hand
    record = selfplay_record(ENGINE, seed, options={"rules": "tenhou"})
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_selfplay_records_validate(seed):
    record = selfplay_record(ENGINE, seed)
    report = validate(parse(write_records([record])))
    assert report.valid, [d.format() for d in report.diagnostics]
    # §基本ルール 9: 30,000 each; what is missing is riichi sticks waiting in the pot
    missing = 3 * 30000 - sum(report.totals.values())
    assert missing >= 0 and missing % 1000 == 0


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_changed_score_is_rejected(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    score = next(e for e in record.hands[0].events if e.verb == "score")
    num = score.args[1]
    assert isinstance(num, NumArg)
    num.value += 1000
    report = validate(parse(write_records([record])))
    assert ("S401", score.at.line) in _codes(report)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_discard_not_held_is_rejected(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    hand = record.hands[0]
    deal_a = next(e for e in hand.events if e.verb == "deal" and e.args[0].seat == "A")
    held = set(deal_a.cards())
    first = next((e for e in hand.events if e.seat == "A" and e.verb == "discard"), None)
    assume(first is not None and first is next(e for e in hand.events if e.seat == "A"))
    missing = next(c for c in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "7z") if c not in held)
    first.args[0] = CardsArg(cards=[missing], at=first.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L303", first.at.line) in _codes(report)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_draw_against_the_written_wall(seed):
    record = parse(write_records([selfplay_record(ENGINE, seed, hands=1)]))
    draw = next((e for e in record.hands[0].events if e.verb == "draw"), None)
    assume(draw is not None)
    tile = draw.cards()[0]
    draw.args[0] = CardsArg(cards=["1z" if tile != "1z" else "2z"], at=draw.args[0].at)
    report = validate(parse(write_records([record])))
    assert ("L301", draw.at.line) in _codes(report)


def test_selfplay_wins_at_least_half_its_hands():
    won = hands = 0
    for seed in range(6):
        for hand in selfplay_record(ENGINE, seed).hands:
            hands += 1
            won += any(e.verb == "win" for e in hand.events)
    assert won * 2 >= hands


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_play_out_of_turn_is_rejected_at_its_line(seed, rnd):
    lines = write_records([selfplay_record(ENGINE, seed, hands=1)]).split("\n")
    plays = [i for i, line in enumerate(lines) if line[:3] in ("A: ", "B: ", "C: ") and line.split()[1] in ("draw", "discard")]
    i = rnd.choice(plays)
    lines[i] = rnd.choice([s for s in "ABC" if s != lines[i][0]]) + lines[i][1:]
    report = validate(parse("\n".join(lines)))
    assert ("L302", i + 1) in _codes(report)


def test_selfplay_shows_riichi_open_riichi_nuki_kongs_and_double_ron():
    """Over these fixed seeds (measured on whole half-games: an added kong is rare, about one
    half-game in a hundred), every play the issue names occurs."""
    names: set[str] = set()
    for seed in (136, 145, 197):
        report = validate(parse(write_records([selfplay_record(ENGINE, seed)])))
        assert report.valid
        for hand in report.hands:
            names.update(i.name for i in hand.items)
    assert {"riichi stick", "open riichi stick", "nuki", "closed kong", "open kong", "added kong", "double ron"} <= names


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_round_trips_text_model_text_and_json(seed):
    import json

    from paifu.notation import same_content, write_record
    from paifu.notation.model import Record

    text = write_record(selfplay_record(ENGINE, seed, hands=1))
    record = parse(text)
    assert write_record(record) == text
    again = Record.model_validate(json.loads(record.model_dump_json()))
    assert same_content(again, record) and write_record(again) == text


def test_rules_lists_the_options_and_the_seed_yaku_table(capsys):
    import paifu.cli as paifu_cli

    assert paifu_cli.main(["rules", "sanma"]) == 0
    out = capsys.readouterr().out
    assert "riichi_draws" in out and "yakuman_stack" in out
    # 認められる役: 「紅孔雀 二十(二十)」, 「対々和 無(二)」
    assert "紅孔雀" in out and "対々和" in out


def test_selfplay_through_the_command_line_validates():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parent.parent
    exe = [sys.executable, "-m", "paifu"]
    out = subprocess.run(exe + ["selfplay", "sanma", "-n", "5", "--seed", "3"], capture_output=True, check=True, cwd=root)
    val = subprocess.run(exe + ["validate", "-"], input=out.stdout, capture_output=True, cwd=root)
    assert val.returncode == 0 and b"5 record(s): 5 valid" in val.stdout, val.stdout.decode()


def test_mane_amounts_follow_rule_34():
    # §基本ルール 34.1: 五巡・七巡・九巡・十一巡・十三巡 → 満貫・跳満・倍満・三倍満・役満 (「五巡から二巡エブリ」),
    # paid as a non-dealer's ron (RULINGS §sanma): 8000, 12000, 16000, 24000, 32000
    from paifu.replay.mahjong.sanma.engine import mane_amount

    assert [mane_amount(n) for n in (4, 5, 6, 7, 8, 9, 11, 13)] == [0, 8000, 8000, 12000, 12000, 16000, 24000, 32000]


def test_legal_actions_offer_claims_with_a_red_five():
    # RULINGS §sanma (a red five claims as its plain five): C holds 0p 5p and A discards 5p
    import copy
    from pathlib import Path

    from paifu.replay.validate import replay

    text = (Path(__file__).parent / "records" / "sanma" / "red-fives.paifu").read_text(encoding="utf-8")
    states = []
    replay(parse(text), on_step=lambda st: states.append((getattr(st.event, "verb", None), copy.deepcopy(st.state))))
    after_discard = next(state for verb, state in states if verb == "discard")
    moves = ENGINE.legal_actions(after_discard)
    assert any(m.seat == "C" and m.verb == "pon" and m.tile == "5p" for m in moves)


# -- 「三人麻雀」のルール ver. 1.3 §選択ルール「赤五萬」ver 1.2 4–8 in selfplay (aka5m=on) ----------
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_aka5m_selfplay_half_games_validate(seed):
    record = selfplay_record(ENGINE, seed, options={"aka5m": "on"})
    text = write_records([record])
    report = validate(parse(text))
    assert report.valid, [d.format() for d in report.diagnostics]
    assert "\nfinal " in text  # a whole half-game: its final settlement is written and checked


def test_aka5m_selfplay_puts_the_red_5m_in_play():
    # over a few half-games the red 5m reaches hands (4), is extracted (5) and discarded (6);
    # each record validates
    seen = {"nuki": 0, "discard": 0}
    for seed in range(4):
        record = selfplay_record(ENGINE, seed, options={"aka5m": "on"})
        report = validate(parse(write_records([record])))
        assert report.valid, [d.format() for d in report.diagnostics]
        for hand in record.hands:
            for e in hand.events:
                if e.verb in seen and "0m" in e.cards():
                    seen[e.verb] += 1
    assert seen["nuki"] > 0 and seen["discard"] > 0


# -- an independent scorer, written from the rule text's own words (not from the engine) -----
# 「三人麻雀」のルール ver. 1.3 §基本ルール 2 (indicators), 3 (赤入り), 7 (連荘), 9–17 (points,
# 丘, 順位馬, rounding, 積み棒, tsumo, ダブロン, 飛び, rule 17's order), 22 (抜きドラ), 29–34
# (流し役満, 役満祝儀, 役満は十五翻から五翻エブリ, 真似満), the yaku table §認められる役, and
# §選択ルール「赤五萬」ver 1.2 2, 4–8. Where the text is silent, RULINGS §sanma. The yaku a
# hand holds are read from the settlement's items (tests/test_sanma_differential.py checks
# them against the `mahjong` package); their han, the dora, every payment, the dealer, the
# 積み棒, the pot, the tenpai at a draw, 流し役満, 真似満, 飛び and the final points are this
# scorer's own.

# §認められる役: term -> (closed han, open han); None is 「無」.
SEED_YAKU: dict[str, tuple[int | None, int | None]] = {
    "門前清自模和": (1, None), "立直": (1, None), "ダブル立直": (2, None), "オープン立直": (2, None),
    "一発": (1, None), "嶺上開花": (1, 1), "樌振り": (1, 1), "海底撈月": (1, 1), "河底撈魚": (1, 1),
    "槍槓": (1, 1), "人和": (8, None), "八連荘": (15, 15), "十三不塔": (15, 15), "天和": (15, None),
    "地和": (15, None), "役牌 (白)": (1, 1), "役牌 (發)": (1, 1), "役牌 (中)": (1, 1),
    "役牌 (自風)": (1, 1), "役牌 (場風)": (1, 1), "平和": (1, None), "断么九": (1, 1),
    "一盃口": (1, None), "一気通貫": (2, 1), "七対子": (2, 2), "対々和": (None, 2), "混全帯么九": (1, 1),
    "混老頭": (2, 2), "三暗刻": (2, None), "三樌子": (2, 2), "三連刻": (2, 2), "小三元": (None, 2),
    "混一色": (3, 2), "純全帯么九": (3, 2), "二盃口": (3, None), "清一色": (6, 5), "小車輪": (6, None),
    "三色同刻": (15, 15), "大車輪": (15, None), "四連刻": (15, 15), "國士無双": (15, None),
    "四暗刻": (15, None), "大三元": (15, 15), "字一色": (15, 15), "四喜和": (15, 15), "緑一色": (15, 15),
    "清老頭": (15, 15), "四樌子": (15, 15), "九蓮宝燈": (15, None), "単騎待ち四暗刻": (20, 20),
    "十三面待ち國士無双": (20, 20), "九面待ち九蓮宝燈": (20, 20), "紅孔雀": (20, 20),
    "萬子を使用した混一色": (15, 15),  # rule 38
    # rule 21.1: 15 han in place of オープン立直's 2; a double open riichi is 2 + 1 (RULINGS §sanma)
    "オープン立直 (立直を成立させていない競技者からの栄和)": (15, None),
    "ダブル立直・オープン立直": (3, None),
    "ダブル立直・オープン立直 (立直を成立させていない競技者からの栄和)": (16, None),
}
DORA_NAMES = {"Dora", "Ura dora", "Red fives", "Norths extracted", "Red 5m read as a five"}
SEATS = ["A", "B", "C"]


def _kind(tile: str, aka5m: bool) -> str:
    """A tile's kind: a red five is its five; under 赤五萬 the red 5m in a hand is a North (4)."""
    if tile == "0m":
        return "4z" if aka5m else "5m"
    return "5" + tile[1] if tile[0] == "0" else tile


def _take(concealed: list[str], kind: str, n: int, aka5m: bool) -> list[str]:
    """Take ``n`` tiles of a kind from a hand (red fives are their fives), as written."""
    taken = [t for t in concealed if _kind(t, aka5m) == kind][:n]
    for t in taken:
        concealed.remove(t)
    return taken


def _dora_of(indicator: str) -> str:
    """RULINGS §sanma: 1m→9m, 9m→1m; 9→1 in pinzu and souzu; E→S→W→N→E; dragons cycle."""
    n, s = int(indicator[0]), indicator[1]
    if s == "m":
        return "9m" if n == 1 else "1m"
    if s in "ps":
        return f"{n % 9 + 1}{s}"
    return f"{n % 4 + 1}z" if n <= 4 else f"{(n - 5 + 1) % 3 + 5}z"


KINDS = ["1m", "9m"] + [f"{n}{s}" for s in "ps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def _complete(counts: dict[str, int]) -> bool:
    """Sets and one pair (standard shape), seven distinct pairs, or thirteen orphans."""
    tiles = sum(counts.values())
    if tiles == 14 and all(v in (0, 2) for v in counts.values()) and sum(v == 2 for v in counts.values()) == 7:
        return True
    orphans = [k for k in KINDS if k[1] == "z" or k[0] in "19"]
    if tiles == 14 and all(counts.get(k, 0) >= 1 for k in orphans) and sum(counts.get(k, 0) for k in orphans) == 14:
        return True

    def sets(c: dict[str, int]) -> bool:
        k = next((k for k in KINDS if c.get(k, 0)), None)
        if k is None:
            return True
        if c[k] >= 3:
            c[k] -= 3
            ok = sets(c)
            c[k] += 3
            if ok:
                return True
        n, s = int(k[0]), k[1]
        if s in "ps" and n <= 7 and c.get(f"{n + 1}{s}", 0) and c.get(f"{n + 2}{s}", 0):
            for t in (k, f"{n + 1}{s}", f"{n + 2}{s}"):
                c[t] -= 1
            ok = sets(c)
            for t in (k, f"{n + 1}{s}", f"{n + 2}{s}"):
                c[t] += 1
            return ok
        return False

    for pair in KINDS:
        if counts.get(pair, 0) >= 2:
            c = dict(counts)
            c[pair] -= 2
            if sets(c):
                return True
    return False


def _tenpai(concealed: list[str], melded: list[str]) -> bool:
    """RULINGS §sanma: ready on some tile that is not one the seat holds all four of."""
    counts: dict[str, int] = {}
    for t in concealed:
        counts[t] = counts.get(t, 0) + 1
    for k in KINDS:
        if counts.get(k, 0) + melded.count(k) >= 4:
            continue
        counts[k] = counts.get(k, 0) + 1
        done = _complete(counts)
        counts[k] -= 1
        if done:
            return True
    return False


def _limit_base(han: int, fu: int) -> int:
    """Rule 33 (役満 15–19, one more every 5 han); 満貫..三倍満 standard (RULINGS §sanma)."""
    if han >= 15:
        return 8000 * (1 + (han - 15) // 5)
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    return min(2000, fu * 2 ** (han + 2))


def _up(points: int) -> int:
    """Rule 11: 点数は百点の位を切り上げる."""
    return -(-points // 1000) * 1000


def _after(seat: str, n: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + n) % 3]


def _right_first(seat: str, others: list[str]) -> list[str]:
    """Rule 17: 自分の右隣の競技者との遣り取りを完了したのちに、次にその次の競技者と."""
    return sorted(others, key=lambda o: (SEATS.index(o) - SEATS.index(seat)) % 3)


class _SeedHalfGame:
    """A half-game scored from the record's events and the rule text alone."""

    def __init__(self, options: dict[str, str]) -> None:
        self.aka5m = options.get("aka5m") == "on"
        self.extracted_red_five = options.get("aka5m_extracted", "north") == "red_five"
        self.total_bonus = options.get("tsumo_bonus") == "total"
        self.score = dict.fromkeys(SEATS, 30000)  # rule 9
        self.pot = 0
        self.honba = 0
        self.dealer = "A"
        self.first_dealer = "A"
        self.passes = 0  # rule 6: 東南戦; the deal passes six times in a half-game
        self.over = False
        self.prizes: list[tuple[str, str, int]] = []  # (from, to, points): 飛び賞, ダブル飛び, 役満祝儀
        self.busted: dict[str, int] = dict.fromkeys(SEATS, 0)  # levels reached (rule 16.3)
        self.crossers: dict[str, set[str]] = {s: set() for s in SEATS}

    # ----------------------------------------------------------------- one payment at a time
    def pay(self, payer: str, payee: str, amount: int) -> None:
        """Rule 15.1: the moment a score goes below zero (each 30000 lower one more level,
        16.3) is a bust; its 飛び賞 to whoever received that payment (16.1)."""
        if payer == "pot":
            self.pot -= amount
        else:
            self.score[payer] -= amount
        if payee == "pot":
            self.pot += amount
        else:
            self.score[payee] += amount
        if payer in self.score:
            while self.score[payer] < -30000 * self.busted[payer]:
                self.busted[payer] += 1
                if payee in self.score:
                    self.prizes.append((payer, payee, 10))
                    self.crossers[payee].add(payer)

    def hand(self, hand, items) -> dict[str, int]:
        """One hand's deltas; ``items``: the engine's settlement items, for the yaku it names."""
        self._items = items
        self.tenpai: set[str] = set()
        before = dict(self.score)
        self.crossers = {s: set() for s in SEATS}
        busted_before = dict(self.busted)
        header = {a.key: a.value for a in hand.args if getattr(a, "key", None)}
        assert header["dealer"] == self.dealer, (hand.number, header, self.dealer)
        assert int(header.get("honba", 0)) == self.honba
        self._play(hand)
        # rule 16.2 (RULINGS: 10 from each): one seat takes both others below zero in one hand
        for s in SEATS:
            others = [o for o in SEATS if o != s]
            fresh = [o for o in others if busted_before[o] == 0 and self.busted[o] > 0]
            if len(fresh) == 2 and all(o in self.crossers[s] for o in others):
                self.prizes += [(o, s, 10) for o in others]
        if any(self.busted.values()):
            self.over = True
        return {s: self.score[s] - before[s] for s in SEATS}

    # ----------------------------------------------------------------- the events of a hand
    def _play(self, hand) -> None:
        aka = self.aka5m
        conc: dict[str, list[str]] = {s: [] for s in SEATS}
        melds: dict[str, list[list[str]]] = {s: [] for s in SEATS}
        pons: dict[str, list[str]] = {s: [] for s in SEATS}
        opened = dict.fromkeys(SEATS, False)
        nuki: dict[str, list[str]] = {s: [] for s in SEATS}
        river: dict[str, list[str]] = {s: [] for s in SEATS}
        claimed = dict.fromkeys(SEATS, False)  # rule 31 (ii): 自分の捨て牌が鳴かれておらず
        north_out = dict.fromkeys(SEATS, False)  # rule 31 (iii)
        riichi: dict[str, str] = {}
        double = dict.fromkeys(SEATS, False)
        wall: list[str] = []
        turned = 1  # indicators face up (rule 2; a kong adds one)
        pending_kong: str | None = None  # an open or added kong: its indicator after the discard
        last: tuple[str, str] | None = None  # the last discard, while it can be claimed
        rob: tuple[str, str] | None = None  # (seat, kind) of a kong or nuki that may be robbed
        stick: str | None = None  # a riichi discard not yet passed
        first_go = True
        wins: list = []
        foul = False
        events = [e for e in hand.events if e.verb not in ("score", "total", "final", "pass", "dora", "ura")]
        for e in events:
            v = e.verb
            if v == "deal":
                seat = next(a.seat for a in e.args if a.kind == "seat")
                conc[seat] = e.cards()
                continue
            if v == "wall":
                wall = e.cards()
                continue
            if v == "foul":
                foul = True
                break
            if stick is not None and v != "win":
                self.pay(stick, "pot", 1000)  # the riichi discard passed
                stick = None
            if v != "win":
                rob = None
            if v == "draw":
                conc[e.seat] += e.cards()
                last = None
            elif v in ("discard", "riichi"):
                tiles = e.cards()
                words = [a.text for a in e.args if a.kind == "word"]
                if v == "riichi":
                    if not riichi.get(e.seat):
                        if not river[e.seat] and first_go:
                            double[e.seat] = True
                    riichi[e.seat] = "open" if "open" in words else "normal"
                    if not tiles:
                        continue  # 裁定 8.1: a normal riichi made open
                    stick = e.seat
                tile = tiles[0]
                conc[e.seat].remove(tile)
                river[e.seat].append(tile)
                if _kind(tile, False) == "4z" or tile == "0m":
                    north_out[e.seat] = True
                last = (e.seat, tile)
                if pending_kong == e.seat:
                    turned += 1
                    pending_kong = None
            elif v == "nuki":
                tile = e.cards()[0]
                conc[e.seat].remove(tile)
                nuki[e.seat].append(tile)
                rob = (e.seat, "4z")
                last = None
            elif v == "pon":
                tile = e.cards()[0]
                discarder, thrown = last
                melds[e.seat].append([thrown] + _take(conc[e.seat], _kind(thrown, aka), 2, aka))
                pons[e.seat].append(_kind(thrown, aka))
                opened[e.seat] = True
                claimed[discarder] = True
                first_go = False
                last = None
            elif v == "kong":
                k = _kind(e.cards()[0], aka)
                if last is not None and last[0] != e.seat and _kind(last[1], aka) == k:
                    melds[e.seat].append([last[1]] + _take(conc[e.seat], k, 3, aka))
                    claimed[last[0]] = True
                    opened[e.seat] = True
                    first_go = False
                    if pending_kong:
                        turned += 1
                    pending_kong = e.seat
                elif k in pons[e.seat]:
                    melds[e.seat].append(_take(conc[e.seat], k, 1, aka))
                    first_go = False
                    if pending_kong:
                        turned += 1
                    pending_kong = e.seat
                    rob = (e.seat, k)
                else:
                    melds[e.seat].append(_take(conc[e.seat], k, 4, aka))
                    if pending_kong:
                        turned += 1
                        pending_kong = None
                    turned += 1
                    rob = (e.seat, k)
                last = None
            elif v == "win":
                wins.append(e)
        if foul:
            return self._foul(hand)
        if stick is not None and not wins:
            self.pay(stick, "pot", 1000)
        ctx = dict(conc=conc, melds=melds, opened=opened, nuki=nuki, riichi=riichi, wall=wall,
                   turned=turned, pending=pending_kong, last=last, rob=rob)
        if wins:
            self._wins(hand, wins, ctx)
        else:
            self._draw(conc, melds, nuki, river, claimed, north_out, double)
        self._mane(river)
        holder = next((s for s in SEATS if "0m" in nuki[s]), None) if aka else None
        if holder is not None and holder not in [w.seat for w in wins]:
            each = 6000 if holder == self.dealer else 4000  # 赤五萬 8, 裁定 1.3
            for o in _right_first(holder, [s for s in SEATS if s != holder]):
                self.pay(holder, o, each)
        self._next_dealer(bool(wins), self.dealer in [w.seat for w in wins], ctx)

    def _foul(self, hand) -> None:
        raise NotImplementedError("selfplay makes no fouls")

    # ----------------------------------------------------------------- a win
    def _wins(self, hand, wins, ctx) -> None:
        out_items = self._items
        how = wins[0].args[0].text
        if how == "tsumo":
            payer = None
        elif how == "ron":
            payer = ctx["last"][0]
        else:
            payer = ctx["rob"][0]
        order = sorted(wins, key=lambda w: (SEATS.index(w.seat) - SEATS.index(payer)) % 3) if payer else wins
        for n, w in enumerate(order):
            seat = w.seat
            items = [i for i in out_items if i.seat == seat]
            tile = w.cards()[0]
            reading = next((a.value for a in w.args if getattr(a, "key", None) == "as"), None)
            hand_tiles = list(ctx["conc"][seat]) + ([tile] if how != "tsumo" else [])
            melded = [t for m in ctx["melds"][seat] for t in m]
            yaku_han = 0
            for i in items:
                if i.detail.endswith(" han") and i.name not in DORA_NAMES:
                    closed, open_ = SEED_YAKU[i.term]
                    han = open_ if ctx["opened"][seat] else closed
                    assert han is not None, (i.term, "「無」 is no yaku")
                    yaku_han += han
                    assert i.value == han, (i.term, i.value, han)
            # dora (rule 2: the 9th tile from the first replacement tile, ura beneath; a kong one more)
            wall = ctx["wall"]
            indicators = [wall[-(9 + 2 * k)] for k in range(ctx["turned"] + (1 if how == "ron" and ctx["pending"] == payer else 0))]
            uras = [wall[-(10 + 2 * k)] for k in range(len(indicators))]
            kinds = [_kind(t, self.aka5m) for t in hand_tiles + melded] + ["4z"] * len(ctx["nuki"][seat])
            if reading is not None:  # 赤五萬 6: the discarded red 5m as the winner reads it
                kinds[len(ctx["conc"][seat])] = reading
            dora = sum(kinds.count(_dora_of(_kind(i, self.aka5m))) for i in indicators)
            ura = sum(kinds.count(_dora_of(_kind(i, self.aka5m))) for i in uras) if seat in ctx["riichi"] else 0
            reds = sum(t in ("0p", "0s") for t in hand_tiles + melded) + (1 if reading in ("5p", "5s") else 0)
            if self.extracted_red_five:  # aka5m_extracted=red_five: 赤五萬であると同時に北, read as a red five too
                reds += ctx["nuki"][seat].count("0m")
            nukis = len(ctx["nuki"][seat])
            extra = 8 if nukis == 4 else nukis  # rule 22.2: ドラ八
            extra += 2 if reading in ("5p", "5s") else 0  # 赤五萬 6.1: 通常の翻数に二を増して
            if "0m" in indicators + uras:
                mine = {i.name: i.value for i in items if i.name in DORA_NAMES}
                dora, ura = mine.get("Dora", 0), mine.get("Ura dora", 0)  # 9: the winner's choice
            got = {i.name: i.value for i in items if i.name in DORA_NAMES}
            assert got.get("Dora", 0) == dora, (hand.number, seat, indicators, got, dora)
            assert got.get("Ura dora", 0) == ura, (hand.number, seat, uras, got, ura)
            assert got.get("Red fives", 0) == reds, (hand.number, seat, got, reds)
            han = yaku_han + dora + ura + reds + extra
            fu_items = [i.value for i in items if i.detail.endswith(" fu") and i.name not in ("hand",)]
            fu = 25 if "七対子" in [i.term for i in items] else -(-sum(fu_items) // 10) * 10
            base = _limit_base(han, fu)
            dealer_win = seat == self.dealer
            double_it = 2 if self.aka5m and "0m" in ctx["nuki"][seat] else 1  # 赤五萬 8
            if han >= 15:  # rule 32: 役満祝儀 (20 points fixed on a ron, 10 from each on a tsumo)
                times = 1 + (han - 15) // 5
                if payer:
                    self.prizes.append((payer, seat, 20 * times))
                else:
                    self.prizes += [(o, seat, 10 * times) for o in SEATS if o != seat]
            if payer:
                self.pay(payer, seat, double_it * (_up((6 if dealer_win else 4) * base) + 1000 * self.honba))
            else:
                for o in _right_first(seat, [s for s in SEATS if s != seat]):
                    share = _up((2 if dealer_win or o == self.dealer else 1) * base)
                    bonus = 500 if self.total_bonus else 1000  # rule 13
                    self.pay(o, seat, double_it * (share + bonus + 1000 * self.honba))
            if n == 0 and self.pot:
                self.pay("pot", seat, self.pot)  # rule 14.1: 供託の点数は、栄和した競技者の一人目が受け取る

    # ----------------------------------------------------------------- an exhaustive draw
    def _draw(self, conc, melds, nuki, river, claimed, north_out, double) -> None:
        nagashi = [s for s in SEATS if river[s] and not claimed[s]
                   and all(_kind(t, False)[1] == "z" or _kind(t, False)[0] in "19" or t == "0m" for t in river[s])
                   and (self.aka5m or not north_out[s])]
        self.tenpai = {s for s in SEATS if _tenpai([_kind(t, self.aka5m) for t in conc[s]],
                                                     [_kind(t, self.aka5m) for m in melds[s] for t in m]
                                                     + ["4z"] * len(nuki[s]))}  # his extracted Norths are his
        if nagashi:  # rules 29–31: paid as a self-drawn 役満, no 積み棒, no tenpai payments
            for s in sorted(nagashi, key=lambda s: (SEATS.index(s) - SEATS.index(self.dealer)) % 3):
                times = 2 if double[s] else 1
                self.prizes += [(o, s, 10 * times) for o in SEATS if o != s]
                for o in _right_first(s, [x for x in SEATS if x != s]):
                    self.pay(o, s, _up((2 if s == self.dealer or o == self.dealer else 1) * 8000 * times) + 1000)
            return
        if 0 < len(self.tenpai) < 3:  # rule 17.1: each noten seat pays each tenpai seat 1000
            for s in SEATS:
                if s not in self.tenpai:
                    for o in _right_first(s, sorted(self.tenpai)):
                        self.pay(s, o, 1000)

    # ----------------------------------------------------------------- 真似満 (rule 34)
    def _mane(self, river) -> None:
        order = [_after(self.dealer, n) for n in range(3)]
        for i, copier in enumerate(order):
            for model in order[:i]:
                turns = 0
                while turns < min(len(river[copier]), len(river[model])) and river[copier][turns] == river[model][turns]:
                    turns += 1
                if turns < 5:
                    continue
                k = (turns - 5) // 2  # 満貫・跳満・倍満・三倍満・役満・… every two turns
                amount = [8000, 12000, 16000, 24000][k] if k < 4 else 32000 * (k - 3)
                self.pay(model, copier, amount)

    # ----------------------------------------------------------------- rule 7 and the round
    def _next_dealer(self, won: bool, dealer_won: bool, ctx) -> None:
        south = self.passes >= 3
        if dealer_won or (not won and (south or self.dealer in self.tenpai)):
            self.honba += 1
        else:
            self.honba = 0 if won else self.honba + 1
            self.dealer = _after(self.dealer)
            self.passes += 1
            if self.passes >= 6:
                self.over = True

    def final(self) -> dict[str, int]:
        """Rules 9, 10, 16, 32: (score − 40000) / 1000, 丘 30 and 順位馬 10 to first (from
        third); ties by seat from the first dealer; a pot left goes to first; then prizes."""
        order = sorted(SEATS, key=lambda s: (-self.score[s], (SEATS.index(s) - SEATS.index(self.first_dealer)) % 3))
        score = dict(self.score)
        score[order[0]] += self.pot
        points = {s: (score[s] - 40000) // 1000 for s in SEATS}
        points[order[0]] += sum((score[s] - 40000) % 1000 for s in SEATS) // 1000  # half thousands: the balance to first
        points[order[0]] += 30 + 10
        points[order[2]] -= 10
        for payer, payee, p in self.prizes:
            points[payer] -= p
            points[payee] += p
        return points


SEED_OPTION_SETS = [{}, {"aka5m": "on"}, {"tsumo_bonus": "total"}, {"riichi_draws": "3"},
                    {"aka5m": "on", "tsumo_bonus": "total"}, {"aka5m": "on", "aka5m_extracted": "red_five"}]


def _check_record(record, options: dict[str, str]) -> _SeedHalfGame:
    """Every hand's computed deltas against the scorer's; the final points once it is over."""
    report = validate(record)
    assert report.valid, [d.format() for d in report.diagnostics]
    game = _SeedHalfGame(options)
    header = {a.key: a.value for a in record.hands[0].args if getattr(a, "key", None)}
    game.honba, game.pot = int(header.get("honba", 0)), int(header.get("pot", 0))
    for hand, out in zip(record.hands, report.hands):
        assert not game.over
        deltas = game.hand(hand, out.items)
        assert out.computed == deltas, (options, hand.number, out.computed, deltas)
    if game.over and report.hands[-1].final is not None:  # an aimed record writes no final line
        assert report.hands[-1].final == game.final(), (options, report.hands[-1].final, game.final())
    return game


def _check_half_game(seed: int, options: dict[str, str]) -> None:
    record = parse(write_records([selfplay_record(ENGINE, seed, options=options)]))
    assert _check_record(record, options).over
    assert validate(record).hands[-1].final is not None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(SEED_OPTION_SETS))
def test_half_games_agree_with_a_scorer_written_from_the_rule_text(seed, options):
    """「三人麻雀」のルール ver. 1.3 (§基本ルール, §認められる役, §選択ルール「赤五萬」): every hand's
    payments and the final points, as the scorer above works them out from the events."""
    _check_half_game(seed, options)


def _aims() -> list[str]:
    from paifu.replay.mahjong.sanma.aim import plans

    return [name for name in plans(0) if "standard only" not in name]


@pytest.mark.parametrize("aim", _aims())
def test_aimed_yaku_agree_with_the_scorer_written_from_the_rule_text(aim):
    """§認められる役, every row (rare 役 included, aimed at by ``selfplay --aim``): its han as
    the table gives it (closed or open), and the hand's payments, as the scorer works them out."""
    for seed in (0, 1):
        _check_record(parse(write_records([selfplay_record(ENGINE, seed, hands=2, aim=aim)])), {})


@pytest.mark.parametrize("value, ok", [("0", True), ("1", True), ("3", True), ("58", True), ("59", False),
                                       ("-1", False), ("+3", False), ("０", False), ("1_0", False), ("", False),
                                       ("9" * 5000, False)])
def test_riichi_draws_takes_a_count_of_draws(value, ok):
    """docs/rulings.md §sanma play: riichi_draws is a count of live-wall draws (0 to 58); the
    core's whole-number option took any int() (negative, full-width digits, thousands of digits)."""
    option = next(o for o in ENGINE.options if o.name == "riichi_draws")
    assert (option.check(value) is None) is ok
    assert len(option.check(value) or "") < 200


def test_a_non_dealers_tsumo_is_paid_in_rule_17s_order():
    """「三人麻雀」のルール ver. 1.3 §基本ルール 17 (必ず自分の右隣の競技者との遣り取りを完了したのちに,
    次にその次の競技者と): B (South, A the dealer) wins by tsumo and settles with C, his right-hand
    neighbour, first, then with the dealer A. The figures are the record's, worked by hand
    (tests/records/sanma/aka5m-red5m.paifu, the default reading of an extracted red 5m): 倍満, C
    4000 + 1000 = 5000, A 2 × 4000 + 1000 = 9000, both doubled for the red 5m's extractor."""
    from pathlib import Path

    from paifu.notation import read_path

    path = Path(__file__).parent / "records" / "sanma" / "aka5m-red5m.paifu"
    record = next(r.record for r in read_path(path)
                  if r.record is not None and "the default aka5m_extracted=north" in (r.record.tag("Rule") or ""))
    hand = validate(record).hands[0]
    assert [(p.payer, p.payee, p.amount) for p in hand.payments if "pot" not in (p.payer, p.payee)] == [("C", "B", 10000), ("A", "B", 18000)]
