"""卡五星 Kawuxing: the three-player mahjong of northwestern Hubei.

Seed 000_d19ded950c7752da.txt, the English §New Three-Player Mahjong of Northwestern Hubei
(2018-10-05) and the Japanese §卡五星 (2018-10-02); they agree. Defaults from RULINGS
§kawuxing. 84 tiles: two suits (the removed one is the ``suits`` option) and the three
dragons; three players (four with a resting player); no chi, but a discard may complete a
run to win. Kongs are paid on the spot, doubled along unbroken kong chains and never
cancelled. A win is paid unit × 2^doubles (cap ×8), by the discarder (or the robbed
konger), or by each other player on a self-draw; a hand with no doubling pattern (平胡)
wins by self-draw only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Sequence

from paifu.notation.model import Event, Hand, OptionArg

from . import tiles as T
from ..deals import card_place
from ..engine import HandHeader, Match, Payment, RuleOption, Rules, ScoreItem, Settlement, Violation
from .core import (
    UNSEEN,
    MahjongEngine,
    MahjongState,
    Meld,
    MissedWinRule,
    Move,
    Seen,
    Win,
    KONG_AIMS,
    best_discard,
    kong_plan,
    rob_plan,
    table_aim_choose,
    choose_kong,
    choose_toward_win,
    kind,
)

EN = "“New Three-Player Mahjong of Northwestern Hubei” (2018-10-05)"  # seed 000_d19ded950c7752da.txt
JA = "「卡五星 (湖北省北西部の麻雀)」 (2018-10-02)"
SEED = f"{EN} / {JA}"
RULING = "docs/rulings.md §kawuxing"
DISCLOSURE = f"{EN}, One Double (x2), Disclosure (亮倒)"
LOCKED = f"{JA}, 1飜(×2), 亮倒 (公開後は,待ちを変えることもツモった牌と手牌を入れ替えることもできない)"
RESTING = f"{EN}, Preliminaries (Winner of previous hand is taken over by resting player when four play)"

OPTIONS = (
    RuleOption("suits", "ps", ("ps", "mp", "ms"), "the two suits kept (one of characters m, dots p, bamboos s is removed)",
               f"{EN}, Preliminaries (remove one of Characters, Bams or Dots)"),
    RuleOption("cap_exception", "none", ("none", "double_dragon"),
               "double_dragon: 双龙七对 pays ×16 (four doubles) beyond the ×8 cap", f"{EN}, Pay out scheme"),
    RuleOption("disclose", "wait", ("wait", "all"), "亮倒 shows the waiting part (wait) or the whole hand (all)",
               f"{EN}, One Double (x2) (Disclosure (亮倒): Some players disclose all of his/her tiles, while some do only "
               "calling part)"),
    RuleOption("multi_ron", "all", ("all", "head_bump"), "two players may win on one discard or robbed kong (all)", f"{EN}, Winning a Hand"),
    RuleOption("pinghu", "self_draw", ("self_draw", "any"), "平胡 (no doubling pattern) wins by self-draw only", f"{JA}, 上がり"),
)

CAP = 3

# Missed win: until his own next draw (a replacement included) or until a pon or kong passes
# over his turn, only a hand scoring more than the missed one may win (RULINGS §kawuxing).
MISSED_WIN = MissedWinRule(
    f"{EN}, Winning a Hand (If a player missed a winning tile, he/she must wait until his/her own turn "
    "or it is passed by a pung or a kong, unless his/her hand scores higher than win by the missed tile)",
    ends_at_own_draw=True, ends_when_skipped=True, unless_higher=True, unit="double(s)")


@dataclass(frozen=True)
class Pattern:
    """One doubling pattern of the seed's table: its key, seed term, English name, doubles."""

    key: str
    term: str
    name: str
    doubles: int
    section: str


PATTERNS = {p.key: p for p in (
    Pattern("all_pung", "碰碰胡", "All Pung", 1, "One Double (x2)"),
    Pattern("fit_five", "卡五星", "Fit Five", 1, "One Double (x2)"),
    Pattern("open_four", "明四归一", "Open Four in One", 1, "One Double (x2)"),
    Pattern("bloom", "杠上开花", "Bloom on Kong", 1, "One Double (x2)"),
    Pattern("kong_discard", "杠上炮", "Claimed on Kong", 1, "One Double (x2)"),
    Pattern("rob", "抢杠胡", "Robbing a Kong", 1, "One Double (x2)"),
    Pattern("disclosure", "亮倒", "Disclosure", 1, "One Double (x2)"),
    Pattern("bottom", "海底捞", "Fishing the Bottom", 1, "One Double (x2)"),
    Pattern("one_suit", "清一色", "Pure One Suit", 2, "Two Doubles (x4)"),
    Pattern("seven_pairs", "七对", "Seven Pairs", 2, "Two Doubles (x4)"),
    Pattern("lone_tile", "手抓一", "Lone Tile", 2, "Two Doubles (x4)"),
    Pattern("lesser_dragons", "小三元", "Lesser Three Elements", 2, "Two Doubles (x4)"),
    Pattern("closed_four", "暗四归一", "Closed Four in One", 2, "Two Doubles (x4)"),
    Pattern("greater_dragons", "大三元", "Greater Three Elements", 3, "Three Doubles (x8)"),
    Pattern("dragon_pairs", "龙七对", "Dragon Seven Pairs", 3, "Three Doubles (x8)"),
    Pattern("double_dragon_pairs", "双龙七对", "Double Dragon Seven Pairs", 4, "Four Doubles (x16)"),
)}

# "Pure One Suit or higher": the hand patterns worth two doubles or more (RULINGS §kawuxing),
# 暗四归一 included (it opens 明四归一's relaxation; its own relaxation needs one of the others).
BIG = ("one_suit", "seven_pairs", "lone_tile", "lesser_dragons", "closed_four", "greater_dragons", "dragon_pairs",
       "double_dragon_pairs")
DRAGONS = (31, 32, 33)

KONG_BASE = {"kong_direct": 2, "kong_added": 1, "kong_concealed": 2}
KONG_TERMS = {"kong_direct": "明杠 (direct kong)", "kong_added": "加杠 (growing kong)", "kong_concealed": "暗杠 (closed kong)"}


@dataclass
class Score:
    """A winning hand's value: the patterns counted and the doubles they give, capped."""

    patterns: list[tuple[str, int]]  # (key, doubles)
    raw: int
    capped: int
    reading: str = ""

    @property
    def multiplier(self) -> int:
        return 2 ** self.capped


def _one_suit(concealed: Sequence[int], melds: Sequence[Meld]) -> bool:
    suits = {i // 9 for i in range(27) if concealed[i]} | {kind(m.tile) // 9 for m in melds}
    honours = any(concealed[i] for i in range(27, 34)) or any(kind(m.tile) >= 27 for m in melds)
    return len(suits) == 1 and not honours


def _situational(win: Win) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    if win.how == "tsumo" and win.replacement:
        out.append(("bloom", max(1, win.turn_kongs)))
    if win.how == "ron" and win.after_kong:
        out.append(("kong_discard", 1))
    if win.how == "rob":
        out.append(("rob", 1))
    if win.disclosed:
        out.append(("disclosure", 1))
    if win.how == "tsumo" and win.last_tile:
        out.append(("bottom", 1))
    return out


def hand_score(win: Win, cap_exception: str = "none") -> Score | None:
    """The best reading of a winning hand (None when it is not complete)."""
    c = win.concealed
    melds = win.melds
    w = kind(win.tile)
    readings: list[tuple[list[tuple[str, int]], str]] = []
    one_suit = _one_suit(c, melds)
    meld_pungs = [kind(m.tile) for m in melds]
    pons = [kind(m.tile) for m in melds if m.kind == "pon"]
    for d in T.decompositions(c, len(melds)):
        pats: list[tuple[str, int]] = []
        runs = d.runs()
        pungs = d.pungs() + meld_pungs
        if not runs:
            pats.append(("all_pung", 1))
        if w < 27 and T.rank_of(w) == 5 and (w - 1) in runs:
            pats.append(("fit_five", 1))
        if one_suit:
            pats.append(("one_suit", 2))
        if len(melds) == 4:
            pats.append(("lone_tile", 2))
        dragon_sets = sum(1 for k in pungs if k in DRAGONS)
        if dragon_sets == 3:
            pats.append(("greater_dragons", 3))
        elif dragon_sets == 2 and d.pair in DRAGONS:
            pats.append(("lesser_dragons", 2))
        big = any(k in BIG for k, _ in pats)
        if c[w] == 4 or (big and any(x == 4 for x in c)):
            pats.append(("closed_four", 2))
            big = True
        if w in pons or (big and any(c[k] >= 1 for k in pons)):
            pats.append(("open_four", 1))
        readings.append((pats, d.describe()))
    if not melds and T.is_seven_pairs(c, quad_as_two_pairs=True):
        quads = sum(1 for x in c if x == 4)
        pats = [("seven_pairs", 2)] if quads == 0 else [("dragon_pairs", 3)] if quads == 1 else [("double_dragon_pairs", 4)]
        if one_suit:
            pats.append(("one_suit", 2))
        readings.append((pats, "seven pairs"))
    if not readings:
        return None
    extra = _situational(win)
    best: Score | None = None
    for pats, text in readings:
        allp = pats + extra
        raw = sum(n for _, n in allp)
        cap = CAP
        if cap_exception == "double_dragon" and any(k == "double_dragon_pairs" for k, _ in allp):
            cap = 4
        score = Score(allp, raw, min(raw, cap), text)
        if best is None or (score.capped, score.raw) > (best.capped, best.raw):
            best = score
    return best


def win_payments(win: Win, score: Score, others: Sequence[str]) -> list[Payment]:
    """Who pays a win (Pay out scheme): unit × 2^doubles, capped, by the discarder (or the
    robbed konger), by each other player on a self-draw, or for all by the discarder into a
    disclosed (亮倒) hand."""
    amount = score.multiplier
    capped = f" (capped from {score.raw})" if score.raw > score.capped else ""
    if win.how == "tsumo":
        return [Payment(p, win.seat, amount, f"×{amount}{capped}, self-draw") for p in others]
    assert win.payer is not None
    if win.disclosed:
        return [Payment(win.payer, win.seat, amount * len(others),
                        f"×{amount}{capped} as a self-draw, paid for all by the discarder into a disclosed hand")]
    return [Payment(win.payer, win.seat, amount, f"×{amount}{capped}")]


@dataclass
class OneHand:
    """``paifu score kawuxing``: a hand scored without a record. The winner is A; on a ron or
    a rob B is the discarder (or the robbed konger) and C the third player."""

    problems: list[str]
    score: Score | None = None
    payments: list[Payment] = field(default_factory=list)
    refusal: str | None = None  # why this complete hand may not win as asked


def score_one(concealed: Sequence[str], melds: Sequence[Meld], tile: str, how: str, options: dict[str, str] | None = None,
              *, replacement: bool = False, turn_kongs: int = 0, after_kong: bool = False, last_tile: bool = False,
              disclosed: bool = False) -> OneHand:
    """One winning hand, scored by the validator's own :func:`hand_score` and
    :func:`win_payments` under the record options ``options`` (defaults for the rest)."""
    rules = {o.name: o.default for o in OPTIONS} | dict(options or {})
    kinds = set(T.tile_set("84", suits=rules["suits"]))
    every = [*concealed, *(c for m in melds for c in m.codes())]
    problems = []
    foreign = sorted({c for c in every if c not in kinds})
    if foreign:
        problems.append(f"{', '.join(foreign)}: not kawuxing tiles (two suits, {rules['suits']}, and the three dragons 567z)")
    over = sorted({c for c in every if every.count(c) > 4})
    if over:
        problems.append(f"more than four of {', '.join(over)}")
    want = 14 - 3 * len(melds)
    if len(concealed) != want:
        sets = f" beside {len(melds)} declared set(s)" if melds else ""
        problems.append(f"{len(concealed)} concealed tiles{sets}: a winning hand holds {want}, the winning tile included")
    if tile not in concealed:
        problems.append(f"the winning tile {tile} is not among the concealed tiles")
    if how not in ("tsumo", "ron", "rob"):
        problems.append("a win is tsumo, ron or rob")
    if problems:
        return OneHand(problems)
    win = Win("A", how, tile, None if how == "tsumo" else "B", T.counts_of(concealed), list(melds), replacement=replacement,
              turn_kongs=turn_kongs, after_kong=after_kong, last_tile=last_tile, disclosed=disclosed)
    score = hand_score(win, rules["cap_exception"])
    if score is None:
        return OneHand([])
    refusal = None
    if how != "tsumo" and score.raw == 0 and rules["pinghu"] == "self_draw":
        refusal = ("the hand has no doubling pattern (平胡): it wins by self-draw only (Winning a Hand: either it contains "
                   "at least one of doubling patterns or it is won by a tile drawn from the wall)")
    return OneHand([], score, win_payments(win, score, ["B", "C"]), refusal)


# Aims stacked at the whole table (``paifu selfplay --aim``): the mahjong core's steering mode.
TABLE_AIMS = {"robbing a kong": "rob", "抢杠胡": "rob", "lone tile": "lone", "手抓一": "lone",
              "open four in one": "open_four", "明四归一": "open_four", "claimed on kong": "kong_discard",
              "杠上炮": "kong_discard", "fit five": "feed", "卡五星": "feed"}


def table_plan(rules: Rules, wanted: str, rng: random.Random, kinds: list[str]) -> tuple[list[list[str]], list[str | None]] | None:
    """Tiles per seat in turn order from the dealer, and the wall's first draws, toward:

    - 抢杠胡: the core's ``rob_plan``: the seat after the dealer is ready on X with no
      doubling pattern (平胡: it may not win on the discarded X, only by robbing the kong);
    - 手抓一: the dealer holds four pairs, the others one of each (fed to four pons);
    - 明四归一: the dealer holds a pair of 5, 4 and 6, two runs and a pair; the third seat
      one 5 (fed to the pon), the wall's fourth draw the last 5 (fed to the dealer's wait);
    - 杠上炮: the dealer holds four of a kind and the seat after it is ready on 3 with no
      doubling pattern: the dealer's kong, then its discard of the 3 it holds;
    - 卡五星: the dealer holds 4 and 6 around the missing 5 in a ready hand, the others the 5s."""
    suits = sorted({k[-1] for k in kinds if k[-1] != "z"})
    rng.shuffle(suits)
    a, b = suits

    def distinct(n: int, used: list[str]) -> list[str]:
        return rng.sample([k for k in kinds if k not in used], n)

    kongs = kong_plan(kinds, rng, 3, wanted)
    if kongs is not None:
        return kongs
    mode = TABLE_AIMS.get(wanted)
    x = f"3{a}"
    ready = [f"1{a}", f"2{a}", f"4{b}", f"5{b}", f"6{b}", f"7{b}", f"8{b}", f"9{b}", f"4{a}", f"5{a}", f"6{a}",
             f"7{b}", f"7{b}"]  # ready on 3 (1-2 waiting), no doubling pattern
    if mode == "rob":
        return rob_plan(kinds, rng, 3)
    if mode == "kong_discard":
        four = rng.choice([k for k in kinds if k[-1] in "z" + b and k not in ready])
        return [[four] * 4 + [x] + distinct(9, [x, four]), ready], []
    if mode == "feed":
        five = f"5{a}"
        return [[f"4{a}", f"6{a}", f"1{b}", f"2{b}", f"3{b}", f"7{b}", f"8{b}", f"9{b}", f"7{a}", f"8{a}", f"9{a}",
                 f"2{b}", f"2{b}", rng.choice(["5z", "6z", "7z"])], [five, five], [five]], []
    if mode == "lone":
        pairs = distinct(5, [])
        return [[k for k in pairs[:4] for _ in range(2)] + [pairs[4]] + distinct(5, pairs),
                pairs[:2] + [pairs[4]], pairs[2:4] + [pairs[4]]], []
    if mode == "open_four":
        x = f"5{a}"
        dealer = [x, x, f"4{a}", f"6{a}", f"1{b}", f"2{b}", f"3{b}", f"7{b}", f"8{b}", f"9{b}", f"2{a}", f"2{a}"]
        return [dealer + distinct(2, [f"{n}{c}" for n in "123456789" for c in (a, b)]), [], [x]], [None, None, None, x]
    return None


@dataclass
class KawuxingState(MahjongState):
    disclose_args: tuple[int | tuple[int, int], ...] = field(default=())  # where each tile a 'disclose' names


@dataclass
class KawuxingMatch(Match):
    positions: list[str] | None = None  # the three seats at the table, in turn order (four players)
    resting: str | None = None


def read_table(header: HandHeader, seats: list[str], rest: str, default: list[str]) -> tuple[list[str], str]:
    """With four players, the three seats at the table in turn order as a hand line writes
    them (``table=ADC``), else ``default``; and a problem ('' when it reads)."""
    written = header.attrs.get("table")
    if written is None:
        return default, ""
    table = list(written)
    if len(table) != 3 or len(set(table)) != 3 or rest in table or any(t not in seats for t in table):
        return default, (f"table={written[:20]} names the three seats at the table in turn order, each once and not the one "
                         f"resting (rest={rest}), e.g. table={''.join(s for s in seats if s != rest)} ({RESTING})")
    return table, ""


class Kawuxing(MahjongEngine):
    id = "kawuxing"
    title = "卡五星 Kawuxing"
    seat_counts = (3, 4)
    options = OPTIONS
    source = SEED
    zero_sum = True  # kongs and wins are paid by the other players
    zero_sum_rule = (f"{EN} §Kong payment, §Pay out scheme: \"the player who discarded the tile ... pays the amount to the winner. If it is won by a tile from the walls ..., each of the other two players pays the amount\"")
    seed_rule = SEED
    dealer_rule = (f"{EN}, Deal (winner of previous hand is the banker, or the loser when there are two winners. "
                   "The banker stays if a hand ends in a draw)")
    shape_words = "four sets and a pair, or seven pairs"
    no_chi_rule = f"{JA}, 手の進行 (チーはできません)"
    disclose_rule = RULING
    selfplay_hands = 2
    state_class = KawuxingState

    # -- match and seats -------------------------------------------------------------
    def start_match(self, rules: Rules, seats: list[str]) -> Match:
        return KawuxingMatch(rules=rules, seats=seats, totals={s: 0 for s in seats})

    def tile_set(self, rules) -> list[str]:
        return T.tile_set("84", suits=rules["suits"])

    def aim_hand(self, rules: Rules, aim: str, rng: random.Random) -> list[str] | None:
        """The dealer's dealt tiles toward a pattern: seven pairs (七对, 龙七对, 双龙七对: one or two
        of them four alike), or a complete hand of 碰碰胡, 清一色, 大三元, 小三元 or 暗四归一."""
        wanted = aim.casefold()
        kinds_all = sorted(set(self.tile_set(rules)))
        suits = sorted({k[-1] for k in kinds_all if k[-1] != "z"})
        suit = rng.choice(suits)
        other = next(x for x in suits if x != suit)
        quads = {"seven pairs": 0, "七对": 0, "dragon seven pairs": 1, "龙七对": 1,
                 "double dragon seven pairs": 2, "双龙七对": 2}.get(wanted)
        if quads is not None:
            kinds = rng.sample(kinds_all, 7 - quads)
            return [k for k in kinds[:quads] for _ in range(4)] + [k for k in kinds[quads:] for _ in range(2)]
        # complete hands of four sets and a pair, dealt to the dealer (who may win at once)
        if wanted in ("all pung", "碰碰胡"):  # four pungs and a pair
            kinds = rng.sample(kinds_all, 5)
            return [k for k in kinds[:4] for _ in range(3)] + [kinds[4]] * 2
        one_suit = [f"{n}{suit}" for n in "11123456788899"]  # 清一色: 111 234 567 888 99
        dragons_big = ["5z"] * 3 + ["6z"] * 3 + ["7z"] * 3 + [f"2{suit}", f"3{suit}", f"4{suit}"] + [f"9{other}"] * 2
        dragons_small = ["5z"] * 3 + ["6z"] * 3 + ["7z"] * 2 + [f"1{suit}", f"2{suit}", f"3{suit}", f"4{other}", f"5{other}", f"6{other}"]
        closed_four = [f"1{suit}"] * 4 + [f"2{suit}", f"3{suit}", f"4{other}", f"5{other}", f"6{other}",
                                           f"7{other}", f"8{other}", f"9{other}"] + [f"9{suit}"] * 2
        # 杠上开花: a concealed kong of 1, three sets and a single 9 waiting for its pair, which
        # aim_tail puts at the wall's end, where the kong's replacement is drawn
        bloom = [f"1{suit}"] * 4 + [f"{n}{suit}" for n in "234567"] + [f"{n}{other}" for n in "789"] + [f"9{suit}"]
        stacked = {"bloom on kong": bloom, "杠上开花": bloom, "pure one suit": one_suit, "清一色": one_suit, "greater three elements": dragons_big, "大三元": dragons_big,
                   "lesser three elements": dragons_small, "小三元": dragons_small,
                   "closed four in one": closed_four, "暗四归一": closed_four}
        return stacked.get(wanted)

    def aim_tail(self, rules: Rules, aim: str, dealt: list[str]) -> list[str]:
        """杠上开花: the single tile's pair is the kong's replacement (the live wall's last tile)."""
        return [dealt[-1]] if aim.casefold() in ("bloom on kong", "杠上开花") else []

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """A whole table stacked toward 抢杠胡, 手抓一 or 明四归一 (``table_plan``); the dealer's
        tiles alone toward the other patterns (``aim_hand``)."""
        plan = table_plan(match.rules, aim.casefold(), rng, sorted(set(self.tile_set(match.rules))))
        if plan is None:
            return super().aim_deal(match, number, rng, aim)
        return self.aim_stack(match, number, rng, *plan)

    def aim_choose(self, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
        """Toward a whole-table plan (``table_plan``): the mahjong core's ``table_aim_choose``."""
        mode = "rob" if aim.casefold() in KONG_AIMS else TABLE_AIMS.get(aim.casefold())
        if mode is None:
            return super().aim_choose(state, legal, rng, aim)
        return table_aim_choose(self, state, legal, rng, mode)

    def active_seats(self, match: Match, header: HandHeader) -> list[str]:
        if len(match.seats) == 3:
            return list(match.seats)
        assert isinstance(match, KawuxingMatch)
        rest = header.attrs.get("rest")
        if match.positions is None:
            rest = rest or match.seats[-1]
            if rest not in match.seats:
                raise Violation("L309", f"rest={rest} is not a seat of this game", RESTING)
            return [s for s in match.seats if s != rest]
        if rest is not None and rest != match.resting:
            raise Violation("L301", f"{match.resting} rests this hand, not {rest} (the winner of the last hand rests)", RESTING)
        return list(match.positions)

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A session written from a later hand: each seat's running total (Start, adding up to
        0), the hand's number and its banker (dealer=). With four players also the seat resting
        (rest=, by default D as in a first hand) and the three at the table in turn order
        (``table=ADC``: a resting winner's place goes to the seat that rested, so after a few
        hands the turn need not run in seat order; by default the other three in seat order)."""
        if len(match.seats) == 4:
            assert isinstance(match, KawuxingMatch)
            rest = header.attrs.get("rest", match.seats[-1])
            if rest not in match.seats:
                return f"rest={rest} is not a seat of this game ({' '.join(match.seats)})"
            table, problem = read_table(header, match.seats, rest, [s for s in match.seats if s != rest])
            if problem:
                return problem
            match.positions, match.resting = table, rest
        elif "table" in header.attrs or "rest" in header.attrs:
            return "rest= and table= are for four players (one rests each hand); three play every hand"
        return super().start_from(match, header, totals)

    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the dealer, and with four players the seat
        resting, as the next hand's line writes them (rest=); a winner who rests gives his
        place at the table to the seat that rested (RULINGS §kawuxing)."""
        assert isinstance(match, KawuxingMatch)
        if header.dealer is None:
            return "its dealer follows from how the hand before ended, and its hand line writes none (dealer=...)"
        if len(match.seats) == 4:
            rest = header.attrs.get("rest")
            if rest is None or rest not in match.seats:
                return "the seat resting follows from how the hand before ended, and its hand line writes none (rest=...)"
            rested = match.resting or broken.attrs.get("rest") or match.seats[-1]
            positions = list(match.positions or [s for s in match.seats if s != rested])
            if rest != rested:
                positions[positions.index(rest)] = rested
            positions, problem = read_table(header, match.seats, rest, positions)  # a written table= is taken as written
            if problem:
                return problem
            match.positions, match.resting = positions, rest
        return self.resume_carried(match, broken, header, totals)  # the dealer named above, the totals

    def hand_line_extra(self, match: Match, header: HandHeader) -> list:
        if len(match.seats) == 4:
            assert isinstance(match, KawuxingMatch)
            rest = match.resting or match.seats[-1]
            return [OptionArg(key="rest", value=rest)]
        return []

    def end_hand(self, match: Match, state: MahjongState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        assert isinstance(match, KawuxingMatch)
        winners = [w.seat for w in state.wins]
        if not winners:
            match.dealer = state.dealer
            if len(match.seats) == 4:
                match.positions = list(state.seats)
                match.resting = next(s for s in match.seats if s not in state.seats)
            return
        if len(winners) == 1:
            banker = winners[0]
        else:
            banker = state.wins[0].payer or state.dealer
        if len(match.seats) == 3:
            match.dealer = banker
            return
        resting = next(s for s in match.seats if s not in state.seats)
        payer = state.wins[0].payer
        order = state.order_from(payer) if payer else list(state.seats)
        leaver = next(s for s in order if s in winners)  # the first winner in turn order from the discarder rests
        positions = list(state.seats)
        positions[positions.index(leaver)] = resting
        match.positions = positions
        match.resting = leaver
        match.dealer = resting if len(winners) == 1 else banker

    def rule_tables(self) -> list[tuple[str, tuple[str, ...], list[tuple[str, ...]]]]:
        """The doubling patterns and the kong payments, for ``paifu rules kawuxing``."""
        patterns = [(p.section, p.term, p.name) for p in PATTERNS.values()]
        kongs = [(KONG_TERMS[k], str(n), "the discarder" if k == "kong_direct" else "each other player")
                 for k, n in KONG_BASE.items()]
        return [(f"{self.title} — doubling patterns: unit × 2^doubles, at most ×8 (Pay out scheme)",
                 ("doubles", "term", "pattern"), patterns),
                (f"{self.title} — kong payments, ×2 per kong before it in an unbroken chain (Kong payment)",
                 ("kong", "units", "from"), kongs)]

    def end_reason(self, state: MahjongState) -> str | None:
        """How the hand ended, for an event written after it (L308)."""
        if not state.wins:
            return ("the wall is used and nobody won on the last discard: the hand is drawn (If there is no winner when "
                    "all the tiles in the walls are used, it is a draw; no kong without a supplement tile, no pung)")
        win = state.wins[0]
        winners = " and ".join(w.seat for w in state.wins)
        if win.how == "tsumo":
            return f"{winners} won by self-draw"
        if win.how == "rob":
            return f"{winners} won by robbing {win.payer}'s kong"
        return f"{winners} won on {win.payer}'s discard"

    # -- shapes and restrictions -------------------------------------------------------
    def is_winning(self, state: MahjongState, seat: str, counts: Sequence[int]) -> bool:
        melds = len(state.melds[seat])
        if T.is_complete(counts, melds):
            return True
        return melds == 0 and T.is_seven_pairs(counts, quad_as_two_pairs=True)

    def score(self, state: MahjongState, win: Win) -> Score | None:
        return hand_score(win, state.match.rules["cap_exception"])

    def may_win(self, state: MahjongState, win: Win) -> str | None:
        if win.how == "tsumo":
            return None
        score = self.score(state, win)
        if score is None:
            return None
        if score.raw == 0 and state.match.rules["pinghu"] == "self_draw":
            return (f"{win.seat}'s hand has no doubling pattern (平胡): it wins by self-draw only (Winning a Hand: "
                    f"either it contains at least one of doubling patterns or it is won by a tile drawn from the wall)")
        return None

    def missed_rule(self, rules) -> MissedWinRule:
        return MISSED_WIN

    def missed_value(self, state: MahjongState, win: Win) -> int | None:
        score = self.score(state, win)
        return None if score is None else score.capped

    def may_pon(self, state: MahjongState, seat: str, tile: str) -> str | None:
        if state.hands[seat].known[tile] >= 3:
            return (f"{seat} holds three {tile}: the fourth must be konged, never ponged (Kong: when a player has three "
                    f"identical tiles, he/she must do a direct kong; he/she cannot do a pung and save the other tile to do "
                    f"a growing kong later)")
        return None

    def may_kong(self, state: MahjongState, seat: str, meld_kind: str, tile: str) -> str | None:
        if meld_kind == "kong_added" and state.drawn != tile:
            return (f"a growing kong uses the tile just drawn only ({seat} drew {state.drawn or 'nothing'} this turn; "
                    f"Kong, b) growing kong: If a player has a pung and draws a same tile from the wall)")
        if meld_kind == "kong_concealed" and state.after_pon:
            return ("a player cannot do a closed kong during a turn started by his/her own pung (Kong; 手の進行: "
                    "ポンして捨て牌する間には暗槓できません)")
        return None

    def must_claim(self, state: MahjongState) -> tuple[str, str] | None:
        tile = state.discard
        if state.phase != "claim" or tile is None or not state.wall.can_replace():
            return None
        for s in state.order_from(state.discarder or state.turn):
            if s in state.disclosed:
                continue
            if state.hands[s].known[tile] >= 3:  # three seen: unseen tiles beside them change nothing
                return s, (f"{s} holds three {tile} and must kong the discarded fourth at once, unless someone wins on it "
                           f"(Kong: when a player has three identical tiles, he/she must do a direct kong; 手の進行: "
                           f"手に暗刻があるときは捨て牌で直ちに明槓しなければなりません)")
        return None

    # -- disclosure (亮倒) ---------------------------------------------------------------
    def read_action(self, state: MahjongState, event: Event) -> Move:
        move = super().read_action(state, event)
        if move.verb == "disclose":
            assert isinstance(state, KawuxingState)
            state.disclose_args = tuple(card_place(event, k) for k in range(1 + len(move.tiles)))
        return move

    def on_disclose(self, state: MahjongState, seat: str, move: Move) -> None:
        assert isinstance(state, KawuxingState)
        written, state.disclose_args = state.disclose_args, ()

        def at(k: int) -> int | tuple[int, int] | None:  # where the k-th tile is named (none for a move not read from a record)
            return written[k] if k < len(written) else None

        if seat in state.disclosed:
            raise Violation("L301", f"{seat}'s hand is already disclosed", RULING)
        tile = move.tile
        assert tile is not None
        self._take(state, seat, tile, at(0))
        h = state.hands[seat]
        if h.unseen == 0:
            counts = state.concealed_counts(seat)
            melds = len(state.melds[seat])
            if not T.waits(counts, melds, seven_pairs=melds == 0, quad_as_two_pairs=True):
                h.add(tile)
                raise Violation("L301", f"{seat} is not ready after discarding {tile}: only a ready hand is disclosed "
                                f"(after he/she was ready (one turn away from winning))", DISCLOSURE, arg=at(0))
            shown = list(move.tiles)
            have = h.known.copy()
            for i, t in enumerate(shown):
                if have[t] <= 0:
                    h.add(tile)
                    raise Violation("L303", f"{seat} shows {t} but does not hold it", RULING, arg=at(1 + i))
                have[t] -= 1
            if state.match.rules["disclose"] == "all" and shown and sorted(shown) != sorted(h.cards()):
                h.add(tile)
                raise Violation("L301", "disclose=all: the whole hand is laid open", RULING, arg=at(1))
        else:
            state.notes.append(f"{seat}'s disclosed hand was not seen: its readiness is not checked")
        state.disclosed[seat] = len(state.disclosed) + 1
        state.log.append("亮倒")
        self._discard_done(state, seat, tile)

    def check_discard(self, state: MahjongState, seat: str, tile: str) -> None:
        h = state.hands[seat]
        if seat in state.disclosed and state.drawn == UNSEEN and h.unseen:
            # a locked hand discards the tile it drew: the unseen draw was this tile
            self._locate(state, tile)
            h.unseen -= 1
            h.known[tile] += 1
            state.drawn = tile
        if seat in state.disclosed and state.drawn not in (None, UNSEEN) and tile != state.drawn:
            raise Violation("L301", f"{seat}'s hand is disclosed (亮倒): the drawn tile {state.drawn} is discarded unless it wins "
                            f"(A player cannot discard tiles from his/her hand after disclosing it)", LOCKED, arg=0)

    def discard_actions(self, state: MahjongState, seat: str) -> list[Move]:
        if seat in state.disclosed:
            return [Move(seat, "discard", state.drawn)] if state.drawn not in (None, UNSEEN) else []
        out = super().discard_actions(state, seat)
        counts = state.concealed_counts(seat)
        melds = len(state.melds[seat])
        for m in list(out):
            k = kind(m.tile)  # type: ignore[arg-type]
            counts[k] -= 1
            if T.waits(counts, melds, seven_pairs=melds == 0, quad_as_two_pairs=True):
                out.append(Move(seat, "disclose", m.tile))
            counts[k] += 1
        return out

    # -- kong payments ---------------------------------------------------------------
    def on_kong(self, state: MahjongState, seat: str, meld: Meld, chain: int) -> None:
        base = KONG_BASE[meld.kind]
        amount = base * 2 ** (chain - 1)
        payers = [meld.source] if meld.kind == "kong_direct" else state.others(seat)
        for p in payers:
            assert p is not None
            state.kong_payments.append(Payment(p, seat, amount, f"{KONG_TERMS[meld.kind]} {meld.tile}"))
        detail = f"{meld.tile}: {base}" + (f" × 2^{chain - 1} (kong chain of {chain})" if chain > 1 else "") + \
            (" from the discarder" if meld.kind == "kong_direct" else " from each")
        name = KONG_TERMS[meld.kind].split(" ", 1)[1].strip("()") + (" in a kong chain" if chain > 1 else "")
        state.kong_items.append(ScoreItem(seat, name, amount * len(payers),
                                          KONG_TERMS[meld.kind].split(" ")[0], detail))
        state.log.append("kong chain" if chain > 1 else "kong")

    # -- settlement ------------------------------------------------------------------
    def settle_hand(self, state: MahjongState) -> Settlement:
        deltas = {s: 0 for s in state.match.seats}
        out = Settlement(deltas)
        out.items.extend(state.kong_items)
        payments = list(state.kong_payments)
        for win in state.wins:
            score = self.score(state, win) if win.known else None
            if score is None:  # an unseen hand: what it is paid is not known, by whom it is
                out.unknown.update(state.win_parties(win))
                continue
            for key, n in score.patterns:
                p = PATTERNS[key]
                out.items.append(ScoreItem(win.seat, p.name, n, p.term, f"{n} double(s)"))
                state.log.append(p.term)
            if not score.patterns:
                out.items.append(ScoreItem(win.seat, "plain win", 0, "平胡", "no doubling pattern: self-draw only"))
                state.log.append("平胡")
            amount = score.multiplier
            capped = f" (capped from {score.raw})" if score.raw > score.capped else ""
            payments.extend(win_payments(win, score, state.others(win.seat)))
            out.items.append(ScoreItem(win.seat, "hand value", amount, "", f"{score.reading}: {score.raw} double(s){capped} → ×{amount}"))
        if not state.wins and state.disclosed:
            first = min(state.disclosed, key=lambda s: state.disclosed[s])
            for p in state.others(first):
                payments.append(Payment(first, p, 1, "亮倒 draw penalty"))
            out.items.append(ScoreItem(first, "first discloser pays on a draw", -(len(state.seats) - 1), "亮倒",
                                       "one unit to each other player"))
            state.log.append("亮倒 penalty")
        if not state.wins:
            out.items.append(ScoreItem(state.dealer, "draw", 0, "流局", "kong payments stand"))
        for p in payments:
            deltas[p.payer] -= p.amount
            deltas[p.payee] += p.amount
        out.payments = payments
        return out

    # -- selfplay --------------------------------------------------------------------
    def shanten_of(self, seen: Seen, counts: Sequence[int], melds: int) -> int:
        return T.shanten(counts, melds, seven_pairs=melds == 0)

    def choose(self, seen: Seen, legal: list[Move], rng: random.Random) -> Move:
        discloses = [m for m in legal if m.verb == "disclose"]
        if discloses and not any(m.verb == "win" for m in legal):
            kong = choose_kong(seen, legal, self.shanten_of)
            if kong is not None:
                return kong
            plain = [m for m in legal if m.verb == "discard"]
            pick = best_discard(seen, plain, self.shanten_of)
            after = list(seen.counts)
            after[kind(pick.tile)] -= 1  # type: ignore[arg-type]
            ready = self.shanten_of(seen, after, seen.melds) == 0
            if ready and rng.random() < 0.35:
                return next((m for m in discloses if m.tile == pick.tile), pick)
            return pick
        return choose_toward_win(seen, [m for m in legal if m.verb != "disclose"] or legal, rng, self.shanten_of)


ENGINE = Kawuxing()
