"""Piquet: two players, 32 cards, exchanges, declarations (point, sequence, sets) and 12 tricks.

Seed 000_d19ded950c7752da.txt, §ピケ(piquet) (2018-10-23); defaults and options from
RULINGS §piquet. The dealer is named on the hand line; his opponent is elder (1 番手) and
leads; the dealer is younger (2 番手). The record is mostly talk::

    A: exchange 8C 7C 9D 8D 7D        {elder discards five and takes the top five}
    B: exchange 7S 9H 7H
    A: point 5                        {ポアン: a suit of five}
    B: equal
    A: making 49
    B: good
    A: sequence 4 to A                {セカンス: a quart to the ace}
    B: not good
    A: sets 3 J                       {トロワ of jacks}
    B: good
    A: lead AH
    B: sequence 5 to K                {younger's claim, before his first card}
    B: follow TH

Scores enter in the seed's order (carte blanche, point, sequence, sets, play) whatever the
order of the talk, which is how pic, repic and the mid-hand target stop are judged.
"""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, SeatArg, WordArg

from . import french
from ..deals import StackedShuffle, card_place
from ..engine import (
    Engine,
    HandHeader,
    HandState,
    Match,
    MatchResult,
    RuleOption,
    Rules,
    ScoreItem,
    SeatView,
    Settlement,
    TableView,
    TrickView,
    Violation,
    WholeNumber,
    Zone,
    nth_card,
)
from ..holding import Holding

SEED_FILE = "「ピケ(piquet)」 (2018-10-23)"  # seed 000_d19ded950c7752da.txt
SEED = SEED_FILE
RULING = "docs/rulings.md §piquet"


def section(heading: str) -> str:
    """A section of the rule text: ``「ピケ(piquet)」 (2018-10-23) §手札交換``."""
    return f"{SEED_FILE} §{heading}"


S_DEAL = section("カードを配る")
S_ORDER = section("順番決め")
S_BLANCHE = section("絵札なし(カルト・ブランシュ,cartes blanches)")
S_EXCHANGE = section("手札交換")
S_DECLARE = section("手役の宣言")
S_POINT = section("手役 1:点 (ポアン, point)")
S_SEQUENCE = section("手役 2:続き (セカンス, séquence)")
S_SETS = section("手役 3:組 (トロワとカトルズ, trois et quatorze)")
S_PLAY = section("カード勝負")
S_TRICK_POINTS = section("カード勝負の点")
S_PIC = section("ルピック (repic) とピック (pic)")
S_SCORING = section("得点計算")
S_36 = section("17 世紀のピケ")
S_RUBICON = section("ルビコン")

FACE_RANKS = "KQJ"  # 絵札
SET_RANKS = "TJQKA"  # 9 以下の組は,この役になりません
ORDER = "6789TJQKA"  # 強い順に A, K, Q, J, 10, 9, 8, 7 (6 in the 36-card game)
SUIT_WORDS = {"C": "C", "D": "D", "H": "H", "S": "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S"}
KINDS = ("point", "sequence", "sets")
KIND_TERMS = {"point": "点(ポアン)", "sequence": "続き(セカンス)", "sets": "組(トロワとカトルズ)"}
SEQUENCE_NAMES = {3: "tierce", 4: "quatrième", 5: "quinte", 6: "sixième", 7: "septième", 8: "huitième", 9: "neuvième"}


OPTIONS = (
    RuleOption("scoring", "modern", ("modern", "old"),
               "modern: point scores its card count, 1 per lead and per trick won on the opponent's lead; "
               "old (to the mid-19th century): point declared by value, scoring value/10 rounded half up, leads and wins score with a ten or higher",
               section("手役 1:点 (ポアン, point)")),
    RuleOption("last_trick_ten", "off", ("off", "on"), "old scoring: the last-trick point also needs a ten or higher (the 1620 German rule)", S_TRICK_POINTS),
    RuleOption("capot_last_trick", "on", ("on", "off"), "the last trick of a capot still scores 1 (off: 'some do not allow it')", S_TRICK_POINTS),
    RuleOption("younger_min", "1", ("0", "1"), "the fewest cards younger must exchange (rules=parlett: 0)", S_EXCHANGE),
    RuleOption("extra_combos", "french", ("french", "any"),
               "french: the winner of a class also scores his other combinations that do not beat the winning one; any: no limit (Parlett)", S_DECLARE),
    RuleOption("blanche_procedure", "seed", ("seed", "simple"),
               "seed: elder's carte blanche follows the rule text's five-step procedure (he names how many he will exchange, younger discards first); simple: declared and exchanged as usual",
               S_BLANCHE),
    RuleOption("rules", "standard", ("standard", "parlett"),
               "parlett: younger may exchange none and may not look at the rest alone, declarations by count then top card, no limit on extra combinations",
               S_EXCHANGE),
    RuleOption("deck", "32", ("32", "36"), "36: the 17th-century game (6s in; talon 12; elder exchanges 1-8; nine-card sequence 19; old scoring)", S_36),
    # 合計点が目標に先に到達した人が勝ち; 100 点が伝統的な目標です. 150 点,200 点などを使う人もいます
    WholeNumber("target", "100", ("none",), "game target (100 traditional; 150, 200...); a whole number above 0", S_SCORING,
                least=1, what="a number of points above 0 (100 traditional; 150, 200...)"),
    RuleOption("match", "best_of_3", ("best_of_3", "single"), "best_of_3: two games of the target, a third on one win each; single: one game", S_SCORING),
    RuleOption("partie", "target", ("target", "rubicon"), "rubicon: six deals (two more on a tie), winner scores the sum (or difference) + 100", S_RUBICON),
)


# -- rules helpers -----------------------------------------------------------------------
def parlett(rules: Rules) -> bool:
    return rules["rules"] == "parlett"


def deck_ranks(rules: Rules) -> str:
    return ORDER if rules["deck"] == "36" else ORDER[1:]


def old_scoring(rules: Rules) -> bool:
    return rules["scoring"] == "old" or rules["deck"] == "36"


def talon_size(rules: Rules) -> int:
    return 12 if rules["deck"] == "36" else 8


def elder_max(rules: Rules) -> int:
    return 8 if rules["deck"] == "36" else 5


def younger_min(rules: Rules) -> int:
    return 0 if parlett(rules) else int(rules["younger_min"])


def extras_unlimited(rules: Rules) -> bool:
    return parlett(rules) or rules["extra_combos"] == "any"


def rank_index(rank: str) -> int:
    return ORDER.index(rank)


def pip(card: str) -> int:
    """A=11, K Q J=10, others their face value (10 for the ten)."""
    r = card[0]
    if r == "A":
        return 11
    if r in "KQJT":
        return 10
    return int(r)


def sequence_score(length: int) -> int:
    """ティエルス 3, カトリエーム 4, カント 15, セジエーム 16 ... (nine cards 19 in the 36-card game)."""
    return length if length < 5 else 10 + length


def set_score(count: int) -> int:
    return 14 if count == 4 else 3


def point_score(comps: tuple[int, ...], rules: Rules) -> int:
    if old_scoring(rules):
        return (comps[0] + 5) // 10  # 1 の桁を四捨五入し 10 で割る (45 -> 5)
    return comps[0]


def levels(kind: str, rules: Rules) -> tuple[int, ...]:
    """How many key components each step of the dialogue reveals: (1, 2) = count, then the rest."""
    if kind == "point":
        return (1,) if old_scoring(rules) else (1, 2)
    return (1, 2) if parlett(rules) else (2,)


# -- combinations ------------------------------------------------------------------------
@dataclass(frozen=True)
class Combo:
    """A combination held: point (size = count), sequence (size = length, rank = top), sets."""

    kind: str
    size: int
    rank: str
    value: int
    cards: tuple[str, ...]

    def key(self, rules: Rules) -> tuple[int, ...]:
        if self.kind == "point":
            return (self.value,) if old_scoring(rules) else (self.size, self.value)
        return (self.size, rank_index(self.rank))


def points_of(cards: list[str]) -> list[Combo]:
    out = []
    for s in "CDHS":
        mine = tuple(c for c in cards if c[1] == s)
        if mine:
            out.append(Combo("point", len(mine), "", sum(pip(c) for c in mine), mine))
    return out


def sequences_of(cards: list[str], ranks: str) -> list[Combo]:
    """Every run of three or more of one suit, and every shorter run inside a longer one (sinking)."""
    out = []
    held = set(cards)
    for s in "CDHS":
        present = [r + s in held for r in ranks]
        i = 0
        while i < len(ranks):
            if not present[i]:
                i += 1
                continue
            j = i
            while j + 1 < len(ranks) and present[j + 1]:
                j += 1
            for lo in range(i, j + 1):
                for hi in range(lo + 2, j + 1):
                    run = tuple(ranks[k] + s for k in range(hi, lo - 1, -1))
                    out.append(Combo("sequence", len(run), ranks[hi], 0, run))
            i = j + 1
    return out


def sets_of(cards: list[str]) -> list[Combo]:
    out = []
    for r in SET_RANKS:
        mine = tuple(c for c in cards if c[0] == r)
        if len(mine) >= 3:
            out.append(Combo("sets", len(mine), r, 0, mine))
        if len(mine) == 4:
            out.append(Combo("sets", 3, r, 0, mine[:3]))
    return out


def candidates(kind: str, cards: list[str], rules: Rules) -> list[Combo]:
    if kind == "point":
        return points_of(cards)
    if kind == "sequence":
        return sequences_of(cards, deck_ranks(rules))
    return sets_of(cards)


@dataclass(frozen=True)
class Spec:
    """A combination as said aloud: its key components so far (count, then value or top), a suit if named."""

    kind: str
    comps: tuple[int, ...]
    suit: str | None = None

    def matches(self, combo: Combo, rules: Rules) -> bool:
        if combo.kind != self.kind or combo.key(rules)[:len(self.comps)] != self.comps:
            return False
        return self.suit is None or all(c[1] == self.suit for c in combo.cards)

    def score(self, rules: Rules) -> int:
        if self.kind == "point":
            return point_score(self.comps, rules)
        if self.kind == "sequence":
            return sequence_score(self.comps[0])
        return set_score(self.comps[0])


def assign(specs: Sequence[Spec], cards: list[str], rules: Rules) -> list[Combo] | None:
    """Combinations of ``cards`` matching every spec, no card used twice; None when impossible."""
    pools = [[c for c in candidates(s.kind, cards, rules) if s.matches(c, rules)] for s in specs]

    def search(i: int, used: frozenset[str]) -> list[Combo] | None:
        if i == len(pools):
            return []
        for combo in pools[i]:
            if used.isdisjoint(combo.cards):
                rest = search(i + 1, used | set(combo.cards))
                if rest is not None:
                    return [combo] + rest
        return None

    return search(0, frozenset())


def spec_of(combo: Combo, rules: Rules, depth: int | None = None) -> Spec:
    key = combo.key(rules)
    return Spec(combo.kind, key if depth is None else key[:depth])


def say(spec: Spec) -> str:
    """A spec as written: ``point 5 49``, ``4 to A``, ``3 K``."""
    if spec.kind == "point":
        return " ".join(str(c) for c in spec.comps)
    head = str(spec.comps[0])
    if len(spec.comps) > 1:
        head += (" to " if spec.kind == "sequence" else " ") + ORDER[spec.comps[1]]
    return head


# -- actions ------------------------------------------------------------------------------
# Where a violation points in the line read: an argument, or ``(i, j)``, the j-th card named
# from ``event.args[i]`` on (a run of cards is one argument; see deals.card_place).
Place = int | tuple[int, int]


@dataclass(frozen=True)
class CarteBlanche:
    seat: str
    count: int | None = None  # elder's announced exchange under the seed's procedure (its last argument)


@dataclass(frozen=True)
class Exchange:
    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Peek:
    seat: str


@dataclass(frozen=True)
class Show:
    """Cards shown to the opponent when scoring (点の役と続き役のカードは,得点するときに相手に見せます)."""

    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Expose:
    seat: str
    suit: str


@dataclass(frozen=True)
class Declare:
    """A declaration (elder) or claim (younger); ``specs`` empty = 'none'."""

    seat: str
    kind: str
    specs: tuple[Spec, ...]


@dataclass(frozen=True)
class Making:
    seat: str
    comp: int


@dataclass(frozen=True)
class Answer:
    seat: str
    answer: str  # good | not good | equal


@dataclass(frozen=True)
class Play:
    seat: str
    card: str
    verb: str | None = None  # as written: lead / follow / play / None


Action = CarteBlanche | Exchange | Peek | Expose | Show | Declare | Making | Answer | Play


@dataclass
class ClassTalk:
    """One class of declarations (point, sequence or sets) as the talk left it."""

    kind: str
    specs: list[Spec] = field(default_factory=list)  # elder's, the first is the one answered
    answer: str | None = None  # the last answer
    status: str = "open"  # open | asked | making | elder | younger | tie | undeclared
    extras_done: bool = False
    claim: list[Spec] | None = None  # younger's claim
    closed: bool = False  # elder moved on: his points in this class are final

    @property
    def revealed(self) -> tuple[int, ...]:
        return self.specs[0].comps if self.specs else ()


@dataclass
class PiquetMatch(Match):
    games_won: dict[str, int] = field(default_factory=dict)
    game_over: bool = False  # the current game ended; the next hand starts a new one
    game_number: int = 1
    hands_in_game: int = 0
    results: list[str] = field(default_factory=list)  # game winners, in order


@dataclass
class PiquetState(HandState):
    seats: list[str] = field(default_factory=list)
    elder: str = "A"
    younger: str = "B"
    hands: dict[str, Holding] = field(default_factory=dict)
    dealt: dict[str, list[str]] = field(default_factory=dict)
    talon: list[str] = field(default_factory=list)  # what is left, top first; '*' unseen
    discards: dict[str, list[str]] = field(default_factory=dict)
    located: set[str] = field(default_factory=set)
    stage: str = "elder_exchange"  # elder_exchange | blanche_younger_discard | blanche_elder_exchange | younger_exchange | declare | play | over
    blanche: dict[str, bool] = field(default_factory=dict)
    blanche_count: int | None = None
    younger_discard: list[str] | None = None  # under the blanche procedure, before he takes
    elder_took: int = 0
    unused: list[str] = field(default_factory=list)  # the part of elder's five he left
    peeked: bool = False
    looked: bool = False
    exposed_suit: str | None = None
    talk: list[ClassTalk] = field(default_factory=list)
    at_class: int = 0  # the class elder is at
    claimed_upto: int = 0  # younger's claims so far cover classes below this
    tricks: list[list[tuple[str, str]]] = field(default_factory=list)
    trick: list[tuple[str, str]] = field(default_factory=list)
    leader: str = "A"
    won: dict[str, int] = field(default_factory=dict)
    play_log: list[tuple[str, int, str]] = field(default_factory=list)  # (seat, points, what), in play order
    stopped: bool = False  # the game's target was reached during the declarations
    stop_cleared: bool = False  # the declarations are final and fell short of the target

    @property
    def rules(self) -> Rules:
        return self.match.rules


# -- the ledger: scores in the seed's order ---------------------------------------------------
@dataclass
class Entry:
    phase: int  # 0 carte blanche, 1 point, 2 sequence, 3 sets, 4 play, 5 cards
    seat: str
    points: int
    name: str
    term: str
    detail: str = ""


def class_entries(state: PiquetState, k: int) -> list[Entry] | None:
    """The entries of class k, or None while they are not known yet."""
    talk = state.talk[k]
    rules = state.rules
    kind = talk.kind
    if talk.status == "elder":
        specs = talk.specs
        seat = state.elder
    elif talk.status in ("younger", "undeclared"):
        if talk.claim is None:
            return None if not claims_closed(state, k) else []
        specs = talk.claim
        seat = state.younger
    elif talk.status == "tie":
        return []
    else:
        return None
    out = []
    for spec in specs:
        out.append(Entry(k + 1, seat, spec.score(rules), describe(spec, rules), KIND_TERMS[kind], f"{kind} {say(spec)}"))
    return out


def claims_closed(state: PiquetState, k: int) -> bool:
    """Younger can no longer claim class k: he claimed a later class or played his first card."""
    return state.claimed_upto > k or bool(state.tricks) or state.stage == "over" or any(s == state.younger for s, _ in state.trick)


def describe(spec: Spec, rules: Rules) -> str:
    if spec.kind == "point":
        return "point"
    if spec.kind == "sequence":
        return SEQUENCE_NAMES.get(spec.comps[0], "sequence")
    return "quatorze" if spec.comps[0] == 4 else "trio"


def class_settled(state: PiquetState, k: int) -> bool:
    talk = state.talk[k]
    if talk.status == "tie":
        return True
    if talk.status == "elder":
        return talk.closed
    if talk.status in ("younger", "undeclared"):
        return talk.claim is not None or claims_closed(state, k)
    return False


def ledger(state: PiquetState, stop_check: bool = False) -> tuple[list[Entry], bool]:
    """Every entry in the seed's order, pic and repic included; True when the target stopped the hand.

    With ``stop_check`` only the settled prefix of the declarations is read (for the mid-hand stop).
    """
    rules = state.rules
    seats = (state.elder, state.younger)
    target = game_target(state.match)
    base = dict(state.match.totals)
    out: list[Entry] = []
    running = {s: 0 for s in seats}
    bonus = {s: None for s in seats}  # 'repic' / 'pic'
    stopped = False
    scored: dict[str, int] = {}  # the points of every entry in ``out``, by seat

    def put(e: Entry) -> None:
        out.append(e)
        scored[e.seat] = scored.get(e.seat, 0) + e.points

    def add(entries: list[Entry], phase: int) -> bool:
        """Add entries; False when the target stops the hand here."""
        for e in entries:
            put(e)
            if e.phase <= 4:
                running[e.seat] += e.points
        for s in seats:
            other = state.younger if s == state.elder else state.elder
            if any(bonus.values()) or running[other] != 0 or running[s] < 30:
                continue
            if phase <= 3:
                bonus[s] = "repic"
                put(Entry(phase, s, 60, "repic", "ルピック", "30 from carte blanche and declarations before the opponent scored"))
            elif phase == 4:
                bonus[s] = "pic"
                put(Entry(phase, s, 30, "pic", "ピック", "30 before the opponent scored"))
        if target is not None and phase <= 3:
            for s in seats:
                if reaches(s, scored.get(s, 0)):
                    return False
        return True

    def reaches(s: str, points: int) -> bool:
        """The target is reached during this hand (手の途中で,目標に到達したら): a seat already
        past it before the deal (an extra deal after equal totals) does not stop the hand."""
        return target is not None and base.get(s, 0) < target <= base.get(s, 0) + points

    blanche = [Entry(0, s, 10, "carte blanche", "絵札なし(カルト・ブランシュ)") for s in seats if state.blanche.get(s)]
    if not add(blanche, 0):
        return out, True
    for k in range(3):
        settled = class_settled(state, k)
        entries = class_entries(state, k)
        if stop_check and not settled:
            # an unsettled class stops the reading, unless what is known already reaches the target
            talk = state.talk[k]
            if talk.status == "elder" and entries is not None and target is not None:
                trial = out + entries
                if reaches(state.elder, sum(e.points for e in trial if e.seat == state.elder)):
                    add(entries, k + 1)
                    return out, True
            return out, False
        if entries is None:
            entries = []
        if not add(entries, k + 1):
            return out, True
    if stop_check:
        return out, stopped
    play = [Entry(4, s, p, what, TRICK_TERMS.get(what, what)) for s, p, what in state.play_log]
    capot = any(n == 12 for n in state.won.values())
    if capot and rules["capot_last_trick"] == "off" and not old_scoring(rules):
        play = [e for e in play if e.name != "last trick"]
    for e in play:
        add([e], 4)
    if len(state.tricks) == 12:
        a, b = state.won[state.elder], state.won[state.younger]
        if a != b:
            winner = state.elder if a > b else state.younger
            n = max(a, b)
            if n == 12:
                out.append(Entry(5, winner, 40, "capot", "12回全勝", "all twelve tricks"))
            else:
                out.append(Entry(5, winner, 10, "cards", "勝ち数が多い", f"{n} tricks to {12 - n}"))
    return out, stopped


TRICK_TERMS = {"lead": "先手の点", "win": "相手の先手に勝った点", "last trick": "12回目の勝ち"}


def rubicon_value(win: int, lose: int) -> tuple[int, str]:
    """The rubicon game's score (§ルビコン): sum + 100 when the loser is under 100, else difference + 100."""
    if lose < 100:
        return win + lose + 100, f"{win} + {lose} + 100 (the loser is under 100: ルビコン)"
    return win - lose + 100, f"{win} - {lose} + 100"


def new_game(match: PiquetMatch) -> None:
    """The next game of the match (普通は,100 点の勝負を 2 回行い): totals from 0, a free first deal."""
    match.totals = {s: 0 for s in match.seats}
    match.game_over = False
    match.game_number += 1
    match.hands_in_game = 0


def as_dealt(state: PiquetState, seat: str) -> bool:
    """The seat has not drawn from the talon yet: its hand is its dealt cards less discards."""
    if seat == state.elder:
        return state.stage in ("elder_exchange", "blanche_younger_discard", "blanche_elder_exchange")
    return state.stage in ("elder_exchange", "younger_exchange", "blanche_younger_discard", "blanche_elder_exchange")


def game_target(match: Match) -> int | None:
    if match.rules["partie"] == "rubicon":
        return None
    return match.rules.int("target")


def check_stop(state: PiquetState) -> None:
    """The seed: 手の途中で,目標に到達したら,その時点で終わりにします (before the play proper)."""
    if state.stopped or state.stop_cleared or game_target(state.match) is None:
        return
    _, stopped = ledger(state, stop_check=True)
    if stopped:
        state.stopped = True
        state.stage = "over"
    elif state.tricks and all(class_settled(state, k) for k in range(3)):
        # once a trick is played every class is settled for good: the reading above is the
        # last one that could stop the hand, so the play does not read it again at each card
        state.stop_cleared = True


# -- reading events ---------------------------------------------------------------------------
def _word(arg: Any) -> str | None:
    return arg.text if isinstance(arg, WordArg) else None


def said_items(args: Sequence[Any]) -> list[tuple[Any, Place]]:
    """What a line says after its verb, thing by thing, each with where it is written: each
    card of a run (``AH KH``) on its own, as its code; any other argument as it is."""
    out: list[tuple[Any, Place]] = []
    for i, arg in enumerate(args):
        if isinstance(arg, CardsArg):
            out += [(card, (i, j)) for j, card in enumerate(arg.cards)]
        else:
            out.append((arg, i))
    return out


def _rank_of(item: Any) -> tuple[str, str | None] | None:
    """A rank said: A K Q J T (10), a number 6-10, or a card's code (rank and suit)."""
    if isinstance(item, WordArg):
        t = item.text.upper()
        if t in ("A", "K", "Q", "J", "T"):
            return t, None
        return None
    if isinstance(item, NumArg) and not item.signed and 6 <= item.value <= 10:
        return ("T" if item.value == 10 else str(item.value)), None
    if isinstance(item, str) and item != "*":
        return item[0], item[1]
    return None


def read_specs(kind: str, said: list[tuple[Any, Place]], rules: Rules) -> tuple[Spec, ...]:
    """``4 to A 3 J`` (sequences), ``4 A 3 K`` or ``14 A`` (sets), ``5`` / ``5 49`` / ``49`` (point),
    from :func:`said_items`: a violation points at the number, word or card at fault."""
    items = [item for item, _ in said]
    if len(items) == 1 and _word(items[0]) in ("none", "no", "nothing"):
        return ()
    if not items:
        raise Violation("L306", f"'{kind}' needs what is declared, e.g. {EXAMPLES[kind]} (or '{kind} none')")
    if kind == "point":
        nums = []
        most = 1 if old_scoring(rules) else 2
        for a, at in said:
            if _word(a) in ("making", "of"):
                continue
            if not isinstance(a, NumArg) or a.signed:
                raise Violation("L306", f"a point is said in numbers: {EXAMPLES['point']}", arg=at)
            if len(nums) == most:  # located at the first number too many
                raise Violation("L306", f"too many numbers for a point: {'point 49 (old scoring: the value)' if old_scoring(rules) else EXAMPLES['point']}",
                                arg=at)
            nums.append(a.value)
        return (Spec("point", tuple(nums)),)
    specs: list[Spec] = []
    i = 0
    while i < len(items):
        a, at = said[i]
        if not isinstance(a, NumArg) or a.signed:
            raise Violation("L306", f"expected a count here: {EXAMPLES[kind]}", arg=at)
        size = a.value
        if kind == "sets" and size == 14:
            size = 4  # カトルズ: 'sets 14 A' reads the quatorze
        if kind == "sequence" and not 3 <= size <= 9 or kind == "sets" and size not in (3, 4):
            raise Violation("L306", f"no {kind} of {a.value} cards: {EXAMPLES[kind]}", arg=at)
        i += 1
        if i < len(items) and _word(items[i]) in ("to", "of"):
            i += 1
            if i >= len(items) or _rank_of(items[i]) is None:
                raise Violation("L306", f"'to' is followed by the top card: {EXAMPLES[kind]}",
                                arg=said[i][1] if i < len(items) else said[i - 1][1])  # at what follows 'to', or at 'to' itself
        top = _rank_of(items[i]) if i < len(items) else None
        if top is not None:
            rank, suit = top
            if kind == "sets" and rank not in SET_RANKS:
                raise Violation("L301", f"sets of {rank} score nothing: only A K Q J 10 make sets (9 以下の組は,この役になりません)", S_SETS, arg=said[i][1])
            if rank not in deck_ranks(rules):
                raise Violation("L306", f"no rank {rank} in this deck", arg=said[i][1])
            specs.append(Spec(kind, (size, rank_index(rank)), suit))
            i += 1
        else:
            specs.append(Spec(kind, (size,)))
    return tuple(specs)


EXAMPLES = {"point": "'point 5' or 'point 5 49'", "sequence": "'sequence 4 to A' or 'sequence 5 to K 3 to J'", "sets": "'sets 4 A 3 K' (or 14 A)"}


# -- the engine ---------------------------------------------------------------------------------
AIM_CAPOT = ("capot", "12回全勝")


def capot_pack(pack: list[str], rng: random.Random) -> list[str]:
    """Capot (12回全勝) stacked: elder's twelve are A K Q J of three suits, the talon's first
    card the ten of one of them. Elder gives up one jack (``aim_choose``) and takes the ten:
    younger holds nothing above it in those suits, and elder leads every trick."""
    suits = rng.sample("CDHS", 3)
    elder = [r + s for s in suits for r in "AKQJ"]
    ten = "T" + suits[0]
    rest = [c for c in pack if c not in elder and c != ten]
    return elder + rest[:12] + [ten] + rest[12:]


class Piquet(Engine[PiquetState, Action]):
    id = "piquet"
    title = "Piquet"
    family = "french"
    seat_counts = (2,)
    options = OPTIONS
    setup_verbs = frozenset({"deal", "talon"})
    source = SEED
    zero_sum = False  # §カード勝負の点 and the declarations: each player scores points of his own; nobody pays
    selfplay_hands = 6

    # -- match ------------------------------------------------------------------------------------
    def start_match(self, rules: Rules, seats: list[str]) -> PiquetMatch:
        return PiquetMatch(rules=rules, seats=seats, totals={s: 0 for s in seats}, games_won={s: 0 for s in seats})

    def end_hand(self, match: PiquetMatch, state: PiquetState, settlement: Settlement) -> None:  # type: ignore[override]
        super().end_hand(match, state, settlement)
        match.hands_in_game += 1
        match.dealer = state.header.dealer
        rules = match.rules
        totals = match.totals
        a, b = match.seats
        winner: str | None = None
        if rules["partie"] == "rubicon":
            if match.hands_in_game >= 6 and match.hands_in_game % 2 == 0 and totals[a] != totals[b]:
                winner = a if totals[a] > totals[b] else b
        else:
            target = rules.int("target")
            if target is not None and max(totals.values()) >= target and totals[a] != totals[b]:
                winner = a if totals[a] > totals[b] else b
        if winner is None:
            return
        match.games_won[winner] = match.games_won.get(winner, 0) + 1
        match.results.append(winner)
        match.game_over = True
        if rules["match"] == "single" or rules["partie"] == "rubicon" or match.games_won[winner] >= 2:
            match.over = True

    def has_end(self, match: Match) -> bool:
        """The game ends at its target (or after the rubicon partie's six deals), the match
        with its games."""
        return True

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A game written from a later deal (docs/notation.md §Starting from a position): each
        player's score in the current game (Start: none below 0, since piquet only adds
        points), the deal's number, dealer= (either: the deal alternates from there) and, in a
        match of two games of three, the earlier games' winners in order (``won=A``). The
        game must not be over at that score: a rubicon partie ends after its sixth deal, or
        after an even one past it, when the scores differ (ゲームは 6 手…同点の場合,2 手延長
        します); a game to a target ends when a player reaches it ahead of the other."""
        assert isinstance(match, PiquetMatch)
        rules = match.rules
        a, b = match.seats
        before = match.hands_before
        below = [s for s in match.seats if totals[s] < 0]
        if below:
            return (f"{' '.join(below)} {'has' if len(below) == 1 else 'have'} a score below 0: in piquet a player only "
                    f"adds the points he makes ({S_SCORING})")
        won = header.attrs.get("won")
        if rules["partie"] == "rubicon":
            if won is not None:
                return "won= gives the games won in a match of two games of three; the rubicon game is a single partie"
            if before >= 6 and before % 2 == 0 and totals[a] != totals[b]:
                return (f"the partie ended after deal {before}, with the scores {totals[a]} to {totals[b]}: it is six deals, "
                        f"and two more only on a tie ({S_RUBICON}: ゲームは 6 手で,合計点が大きい方が勝ちです.同点の場合,2 手延長します)")
            match.hands_in_game = before
        else:
            target = rules.int("target")
            if target is not None and max(totals.values()) >= target and totals[a] != totals[b]:
                ahead = a if totals[a] > totals[b] else b
                return (f"{ahead} has reached {target} ahead of the other: the game is over at that score "
                        f"({S_SCORING}: 合計点が目標に先に到達した人が勝ちです)")
            winners = list(won or "")
            if winners and rules["match"] == "single":
                return "won= gives the games won in a match of two games of three; with match=single the match is one game"
            wrong = [w for w in winners if w not in match.seats]
            if wrong:
                return f"won={won}: {wrong[0]} is not a seat of this game ({a} {b}); won= lists each earlier game's winner, e.g. won={a}"
            for seat in match.seats:
                match.games_won[seat] = winners.count(seat)
            if max(match.games_won.values(), default=0) >= 2:
                return (f"won={won}: {max(match.seats, key=lambda s: match.games_won[s])} has won two games, and the match "
                        f"with them ({S_SCORING}: 普通は,100 点の勝負を 2 回行い,1 勝 1 敗なら,もう 1 勝負します)")
            match.results = winners
            match.game_number = len(winners) + 1
        match.totals = dict(totals)  # match.dealer stays unknown: the hand line's dealer deals this deal
        return None

    # -- hand -------------------------------------------------------------------------------------
    def resume_match(self, match: Match, broken: HandHeader, header: HandHeader, totals: dict[str, int] | None) -> str | None:
        """After a hand the replay could not finish: the hand ends the partie's deal as any
        other, with the scores the record writes after it; whether it ended the game (a partie
        of six deals, or the target reached) follows from those totals as it does after a
        replayed hand (``end_hand``)."""
        assert isinstance(match, PiquetMatch)
        if totals is None:
            return "whether the hand before ended the game depends on its scores, and the record writes no total after it"
        first_of_game = match.hands_played == 0 or match.game_over
        if match.game_over:  # the broken hand opened a new game: its written totals are the new game's
            new_game(match)
        deltas = {s: totals[s] - match.totals[s] for s in match.seats}
        dealer = self._broken_dealer(match, broken, header, first_of_game)
        stand_in = SimpleNamespace(header=HandHeader(number=broken.number, dealer=dealer, attrs=broken.attrs))
        self.end_hand(match, stand_in, Settlement(deltas))  # type: ignore[arg-type]
        return None

    def _broken_dealer(self, match: PiquetMatch, broken: HandHeader, header: HandHeader, first_of_game: bool) -> str:
        """Who dealt a hand the replay could not finish: its hand line's dealer; without one,
        the dealer ``start_hand`` gives; with one that names no seat (R206), the hand was never
        dealt: the next hand's line is taken as written (the deal alternates)."""
        seats = match.seats
        if broken.dealer in seats:
            return broken.dealer
        if broken.dealer is not None and header.dealer in seats:
            return self.next_seat(seats, header.dealer)
        return seats[1] if first_of_game else self.next_seat(seats, match.dealer or seats[1])

    def start_hand(self, match: PiquetMatch, header: HandHeader, setup: Sequence[Event]) -> PiquetState:  # type: ignore[override]
        rules = match.rules
        seats = match.seats
        first_of_game = match.hands_played == 0 or match.game_over
        if match.game_over:
            new_game(match)
        expected = None if first_of_game else self.next_seat(seats, match.dealer or seats[1])
        dealer = header.dealer or expected or seats[1]
        if expected is not None and dealer != expected:
            raise Violation("L301", f"{expected} deals this hand: the deal alternates (以後の手では,ゲームの終了まで,交互に配り手をつとめます)",
                            S_ORDER, event=setup[0] if setup else None)
        header.dealer = dealer
        younger, elder = dealer, self.next_seat(seats, dealer)
        ranks = deck_ranks(rules)
        full = french.deck(ranks)
        dealt = french.deal_lines([e for e in setup if e.verb == "deal"], seats)
        talon_ev = None
        talon: list[str] | None = None
        for ev in setup:
            if ev.verb == "talon":
                if talon_ev is not None:
                    raise Violation("L304", "the talon is written twice", event=ev)
                talon_ev = ev
                try:
                    talon = french.event_cards(ev, 0, allow_unseen=True)
                except Violation as v:
                    v.event = ev
                    raise
        for seat, (ev, cards) in dealt.items():
            if len(cards) != 12:
                raise Violation("L304", f"{seat} is dealt {len(cards)} cards; piquet deals 12 each (12 枚の手札を配り)", S_DEAL, arg=0, event=ev)
        size = talon_size(rules)
        if talon is not None and len(talon) != size:
            raise Violation("L304", f"the talon has {len(talon)} cards; it holds the other {size} (残り {size} 枚を山札)", S_DEAL, event=talon_ev)
        everything = dict(dealt)
        if talon_ev is not None and talon is not None:
            everything["talon"] = (talon_ev, talon)
        french.check_distinct(everything, full)
        cards_of = {s: dealt[s][1] if s in dealt else ["*"] * 12 for s in seats}
        talon = talon if talon is not None else ["*"] * size
        known = {c for cs in list(cards_of.values()) + [talon] for c in cs if c != "*"}
        rest = [c for c in full if c not in known]
        hidden_hands = [s for s in seats if "*" in cards_of[s]]
        if len(hidden_hands) == 1 and "*" not in talon and len(rest) == cards_of[hidden_hands[0]].count("*"):
            s = hidden_hands[0]
            cards_of[s] = [c for c in cards_of[s] if c != "*"] + rest
        state = PiquetState(match=match, header=header, seats=list(seats), elder=elder, younger=younger)
        state.hands = {s: Holding.of(cards_of[s]) for s in seats}
        state.dealt = {s: list(cards_of[s]) for s in seats}
        state.talon = list(talon)
        state.discards = {s: [] for s in seats}
        state.located = {c for cs in cards_of.values() for c in cs if c != "*"}
        state.talk = [ClassTalk(k) for k in KINDS]
        state.leader = elder
        state.won = {s: 0 for s in seats}
        return state

    def read_action(self, state: PiquetState, event: Event) -> Action:
        seat = event.seat
        if seat is None:
            raise Violation("L306", f"'{event.verb}' is not a piquet event here: deal and talon lines come first; then 'A: exchange ...', 'A: point 5', 'B: good', 'A: lead AH'")
        if seat not in state.seats:
            raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(state.seats)})")
        verb = event.verb
        args = list(event.args)
        rules = state.rules
        if verb is None or verb in ("lead", "follow", "play"):
            cards = french.event_cards(event)
            if len(cards) != 1:  # located at the second card, the one too many
                raise Violation("L306", "one card per play: 'A: lead AH', 'B: follow TH'", arg=card_place(event, 1) if cards else None)
            return Play(seat, cards[0], verb)
        if verb in ("carte", "blanche"):
            if verb == "carte":
                if not args or _word(args[0]) != "blanche":
                    raise Violation("L306", "write 'A: carte blanche' (elder adds how many he will exchange: 'A: carte blanche 3')", arg=0 if args else None)
                args = args[1:]
            count_ok = bool(args) and isinstance(args[0], NumArg) and not args[0].signed  # type: ignore[union-attr]
            if len(args) > 1 or args and not count_ok:  # located at the count, or at what follows a good one
                raise Violation("L306", "carte blanche takes at most the number of cards to exchange: 'A: carte blanche 3'",
                                arg=len(event.args) - len(args) + (1 if count_ok else 0))  # 'carte blanche 3' or 'blanche 3'
            return CarteBlanche(seat, args[0].value if args else None)  # type: ignore[union-attr]
        if verb == "exchange":
            if len(args) == 1 and _word(args[0]) in ("none", "0") or len(args) == 1 and isinstance(args[0], NumArg) and args[0].value == 0:
                return Exchange(seat, ())
            return Exchange(seat, tuple(french.event_cards(event, allow_unseen=True)))
        if verb in ("peek", "look"):
            if args:
                raise Violation("L306", f"'{verb}' takes nothing after it", arg=0)
            return Peek(seat)
        if verb == "show":
            return Show(seat, tuple(french.event_cards(event)))
        if verb == "expose":
            if len(args) != 1 or _word(args[0]) is None or args[0].text.upper() not in SUIT_WORDS:  # type: ignore[union-attr]
                raise Violation("L306", "name the suit of the first lead: 'A: expose H'", arg=0 if args else None)
            return Expose(seat, SUIT_WORDS[args[0].text.upper()])  # type: ignore[union-attr]
        if verb in KINDS or verb == "set":
            kind = "sets" if verb == "set" else verb
            return Declare(seat, kind, read_specs(kind, said_items(args), rules))
        if verb == "making":
            said = said_items(args)
            if len(said) != 1:  # located at the second thing said, the one too many
                raise Violation("L306", "'making' names one thing: the point's value (making 49) or the top card (making A)",
                                arg=said[1][1] if said else None)
            return Making(seat, self._making_comp(state, *said[0]))
        if verb in ("good", "equal", "what", "better", "mieux", "bon", "egal", "not"):
            if verb == "not":
                if len(args) != 1 or _word(args[0]) != "good":  # located at the word that is not 'good', or after it
                    raise Violation("L306", "younger answers 'good', 'not good' or 'equal'",
                                    arg=(1 if _word(args[0]) == "good" else 0) if args else None)
                return Answer(seat, "not good")
            if args:
                raise Violation("L306", f"'{verb}' takes nothing after it", arg=0)
            return Answer(seat, {"better": "not good", "mieux": "not good", "bon": "good", "egal": "equal", "what": "equal"}.get(verb, verb))
        raise Violation("L306", f"piquet has no verb '{verb}' (verbs: exchange, carte blanche, peek, look, expose, point, sequence, sets, making, good, not good, equal, show, lead, follow)")

    def _making_comp(self, state: PiquetState, item: Any, at: Place) -> int:
        """What 'making' says (a value, or a top card's rank), written at ``at``."""
        k = state.at_class - 1
        talk = state.talk[k] if 0 <= k < 3 else None
        if talk is not None and talk.kind != "point":
            r = _rank_of(item)
            if r is None:
                raise Violation("L306", "the top card or the rank: 'making A'", arg=at)
            return rank_index(r[0])
        if not isinstance(item, NumArg) or item.signed:
            raise Violation("L306", "the point's value: 'making 49'", arg=at)
        return item.value

    # -- apply ------------------------------------------------------------------------------------
    def apply(self, state: PiquetState, action: Action) -> None:
        if state.stage == "over":
            raise Violation("L308", "the hand is over", SEED)
        if isinstance(action, CarteBlanche):
            self._blanche(state, action)
        elif isinstance(action, Exchange):
            self._exchange(state, action)
        elif isinstance(action, Peek):
            self._peek(state, action)
        elif isinstance(action, Expose):
            self._expose(state, action)
        elif isinstance(action, Show):
            self._show(state, action)
        elif isinstance(action, Declare):
            if action.seat == state.younger:
                self._claim(state, action)
            else:
                self._declare(state, action)
        elif isinstance(action, Making):
            self._making(state, action)
        elif isinstance(action, Answer):
            self._answer(state, action)
        else:
            self._play(state, action)
        check_stop(state)

    def _turn(self, state: PiquetState, seat: str, what: str, rule: str = SEED) -> None:
        actor = self.to_act(state)
        if actor != seat:
            raise Violation("L302", f"it is {actor}'s turn, not {seat}'s ({what})", rule)

    # carte blanche
    def _blanche(self, state: PiquetState, action: CarteBlanche) -> None:
        seat, rules = action.seat, state.rules
        if state.blanche.get(seat):
            raise Violation("L301", f"{seat} has declared carte blanche already", S_BLANCHE)
        if seat == state.elder:
            if state.stage != "elder_exchange":
                raise Violation("L301", "elder declares carte blanche before his exchange (1 番手は自らの手札交換の前に)", S_BLANCHE)
            if rules["blanche_procedure"] == "seed":
                if action.count is None:
                    raise Violation("L306", "elder's carte blanche names how many cards he will exchange: 'A: carte blanche 3' "
                                    "(1 番手は,絵札なしを宣言するとともに,交換する手札の枚数を 2 番手に告げる)", S_BLANCHE)
                if not 1 <= action.count <= min(elder_max(rules), len(state.talon)):
                    raise Violation("L301", f"elder exchanges 1 to {elder_max(rules)} cards, not {action.count}", S_EXCHANGE, arg=-1)
            elif action.count is not None:  # the number belongs to the five steps only
                raise Violation("L306", "under blanche_procedure=simple carte blanche takes no number: 'A: carte blanche'",
                                S_BLANCHE, arg=-1)
        else:
            ok_stage = state.stage == "younger_exchange" or state.stage == "blanche_younger_discard"
            if not ok_stage:
                raise Violation("L301", "younger declares carte blanche after elder's exchange, before his own (2 番手は 1 番手の手札交換の後,自らの手札交換の前に)", S_BLANCHE)
            if action.count is not None:
                raise Violation("L306", "younger's carte blanche takes no number", S_BLANCHE, arg=-1)
        dealt = state.dealt[seat]
        faces = [c for c in dealt if c != "*" and c[0] in FACE_RANKS]
        if faces:
            raise Violation("L301", f"{seat}'s hand as dealt holds {' '.join(faces)}: carte blanche is a hand without K, Q or J (絵札が 1 枚もない)", S_BLANCHE)
        if "*" in dealt:
            state.notes.append(f"{seat}'s carte blanche could not be checked: the dealt hand was not seen")
        other = state.younger if seat == state.elder else state.elder
        if state.blanche.get(other) and rules["deck"] != "36":
            raise Violation("L301", "both players cannot hold carte blanche in the 32-card game", S_36)
        state.blanche[seat] = True
        if seat == state.elder and action.count is not None and rules["blanche_procedure"] == "seed":
            state.blanche_count = action.count
            state.stage = "blanche_younger_discard"

    # exchanges
    def _take(self, holding: Holding, seat: str, state: PiquetState, card: str, at: Place, rule: str) -> None:
        """``card`` leaves ``seat``'s hand (written at ``at``): he must hold it, or unseen cards."""
        if not holding.has(card) and (card in state.located or holding.unseen == 0):
            raise Violation("L303", f"{seat} does not hold {card}", rule, arg=at)
        if not holding.take(card):
            state.notes.append(f"{seat} used {card} from unseen cards: not checked against the deal")
        state.located.add(card)

    def _discard(self, state: PiquetState, seat: str, cards: tuple[str, ...]) -> None:
        for k, card in enumerate(cards):
            if card != "*" and card in cards[:k]:
                raise Violation("L301", f"{card} is discarded twice", S_EXCHANGE, arg=nth_card(k))
        holding = state.hands[seat]
        if cards.count("*") > holding.unseen:
            raise Violation("L303", f"{seat} has {holding.unseen} unseen card(s), not {cards.count('*')}")
        for k, card in enumerate(cards):
            if card != "*" and not holding.has(card) and (card in state.located or holding.unseen - cards.count("*") <= 0):
                raise Violation("L303", f"{seat} does not hold {card}: he discards from his hand", S_EXCHANGE, arg=nth_card(k))
        for k, card in enumerate(cards):
            if card == "*":
                holding.unseen -= 1  # a discard the scribe did not see
            else:
                self._take(holding, seat, state, card, nth_card(k), S_EXCHANGE)
        state.discards[seat].extend(cards)

    def _draw(self, state: PiquetState, seat: str, n: int) -> None:
        drawn, state.talon = state.talon[:n], state.talon[n:]
        for c in drawn:
            state.hands[seat].add(c)

    def _exchange(self, state: PiquetState, action: Exchange) -> None:
        seat, rules, n = action.seat, state.rules, len(action.cards)
        if seat == state.elder:
            if state.stage == "blanche_younger_discard":
                raise Violation("L302", "under carte blanche younger discards first ((2) 2 番手は手札交換で交換する手札を捨てる)", S_BLANCHE)
            if state.stage not in ("elder_exchange", "blanche_elder_exchange"):
                raise Violation("L301", "elder exchanges once, first (1 番手は,手札を少なくとも 1 枚,最大で 5 枚)", S_EXCHANGE)
            most = min(elder_max(rules), len(state.talon))
            if not 1 <= n <= most:  # too many: located at the first card too many
                raise Violation("L301", f"elder exchanges at least 1 and at most {most} cards, not {n}", S_EXCHANGE,
                                arg=nth_card(most) if n > most else None)
            if state.stage == "blanche_elder_exchange" and n != state.blanche_count:
                raise Violation("L301", f"elder announced {state.blanche_count} cards with his carte blanche; he exchanges {n} "
                                "((4) 1 番手は告げた枚数の手札を捨て)", S_BLANCHE)
            self._discard(state, seat, action.cards)
            state.unused = state.talon[n:most]
            self._draw(state, seat, n)
            state.elder_took = n
            if state.stage == "blanche_elder_exchange":
                assert state.younger_discard is not None
                self._draw(state, state.younger, len(state.younger_discard))  # (5) 2 番手は,自分が捨てた枚数の山札を取る
                state.stage = "declare"
            else:
                state.stage = "younger_exchange"
            return
        if state.stage not in ("younger_exchange", "blanche_younger_discard"):
            early = state.stage in ("elder_exchange", "blanche_elder_exchange")
            self._turn(state, seat, "elder exchanges first" if early else "younger has exchanged already", S_EXCHANGE)
            raise Violation("L301", "younger has exchanged already", S_EXCHANGE)
        rest = len(state.talon) - (state.blanche_count or 0 if state.stage == "blanche_younger_discard" else 0)
        low = younger_min(rules)
        if not low <= n <= rest:  # too many: located at the first card too many
            raise Violation("L301", f"younger exchanges {low} to {rest} cards (the rest of the talon), not {n} "
                            "(2 番手は,1 番手の後に,手札を少なくとも 1 枚,最大で山札の残りだけ捨て)", S_EXCHANGE,
                            arg=nth_card(rest) if n > rest else None)
        self._discard(state, seat, action.cards)
        if state.stage == "blanche_younger_discard":
            state.younger_discard = list(action.cards)
            state.stage = "blanche_elder_exchange"
            return
        self._draw(state, seat, n)
        state.stage = "declare"

    def _peek(self, state: PiquetState, action: Peek) -> None:
        seat, rules = action.seat, state.rules
        if seat == state.elder:
            if state.stage in ("elder_exchange", "blanche_younger_discard", "blanche_elder_exchange"):
                raise Violation("L301", "elder may look at the unused part of his five after his exchange", S_EXCHANGE)
            if not state.unused:
                raise Violation("L301", "elder took all the cards he could: there is nothing left of his five to look at "
                                "(手札を 5 枚交換しない場合,5 枚交換で手にできた山札をのぞき見できます)", S_EXCHANGE)
            if state.tricks or state.trick:
                raise Violation("L301", "the look at the unused cards comes before the play", S_EXCHANGE)
            state.peeked = True
            return
        if state.stage in ("elder_exchange", "younger_exchange", "blanche_younger_discard", "blanche_elder_exchange"):
            raise Violation("L301", "younger looks at the rest of the talon after his exchange (2 番手は,残りの山札をのぞき見できます)", S_EXCHANGE)
        if not state.talon:
            raise Violation("L301", "no card is left in the talon", S_EXCHANGE)
        state.looked = True
        if parlett(rules):
            state.exposed_suit = state.exposed_suit or ""  # Parlett: he must show it to both

    def _expose(self, state: PiquetState, action: Expose) -> None:
        if action.seat != state.elder:
            raise Violation("L301", "only elder may have the rest exposed, by naming the suit of his first lead", S_EXCHANGE)
        if state.stage != "declare":
            raise Violation("L301", "the rest is exposed after the exchanges, before elder's first lead", S_EXCHANGE)
        if not state.talon:
            raise Violation("L301", "no card is left in the talon", S_EXCHANGE)
        holding = state.hands[state.elder]
        if holding.unseen == 0 and not any(c[1] == action.suit for c in holding.cards()):
            raise Violation("L301", f"elder holds no {french.SUIT_SYMBOL[action.suit]}: he names the suit he will lead", S_EXCHANGE)
        state.exposed_suit = action.suit

    def _show(self, state: PiquetState, action: Show) -> None:
        """Cards shown: when scoring a declaration (点の役と続き役のカードは,得点するときに相手に見せます),
        or a carte blanche before its holder draws (手札をすばやく 1 枚ずつ表向きに重ねて置き,
        絵札がないことを相手に示します)."""
        seat = action.seat
        blanche = bool(state.blanche.get(seat)) and as_dealt(state, seat)
        if not blanche and (state.stage not in ("declare", "play") or len(state.tricks) > 1):
            raise Violation("L301", "cards are shown when the declarations are scored, before the play goes on "
                            "(or when a carte blanche is shown)", S_DECLARE)
        holding = state.hands[seat]
        for k, card in enumerate(action.cards):
            if blanche and card[0] in FACE_RANKS:
                raise Violation("L301", f"{card} is a face card: {seat}'s carte blanche is false (絵札が 1 枚もない)", S_BLANCHE,
                                arg=nth_card(k))
            if holding.has(card):
                continue
            if card in state.located or holding.unseen == 0:
                raise Violation("L303", f"{seat} does not hold {card}", S_BLANCHE if blanche else S_DECLARE, arg=nth_card(k))
            holding.unseen -= 1  # an unseen card is now known
            holding.known[card] += 1
            state.located.add(card)

    # declarations
    def _check_held(self, state: PiquetState, seat: str, specs: Sequence[Spec], what: str) -> list[Combo] | None:
        holding = state.hands[seat]
        combos = assign(specs, holding.cards(), state.rules)
        if combos is None and holding.unseen:
            state.notes.append(f"{seat}'s {what} could not be checked: cards of {seat} were not seen")
            return None
        if combos is None:
            said = " ".join(say(s) for s in specs)
            raise Violation("L301", f"{seat} cannot declare {specs[0].kind} {said}: the hand does not hold it", self._rule(specs[0].kind))
        return combos

    @staticmethod
    def _rule(kind: str) -> str:
        return {"point": S_POINT, "sequence": S_SEQUENCE, "sets": S_SETS}[kind]

    def _check_form(self, state: PiquetState, specs: Sequence[Spec], first_partial_ok: bool) -> None:
        rules = state.rules
        for i, spec in enumerate(specs):
            full = levels(spec.kind, rules)[-1]
            if len(spec.comps) > full:
                raise Violation("L306", f"too much said for a {spec.kind}: {EXAMPLES[spec.kind]}")
            if len(spec.comps) < full and spec.kind != "point" and not (parlett(rules) and i == 0 and first_partial_ok):
                raise Violation("L306", f"a {spec.kind} is declared with its count and top card together: {EXAMPLES[spec.kind]} "
                                "(枚数とその中で最強のカードをまとめて宣言)", self._rule(spec.kind))
        if specs and specs[0].kind == "point" and len(specs) > 1:
            raise Violation("L306", "one point only", S_POINT)

    def _declare(self, state: PiquetState, action: Declare) -> None:
        seat, kind = action.seat, action.kind
        k = KINDS.index(kind)
        if state.stage != "declare":
            if state.stage in ("play",):
                raise Violation("L301", "elder's declarations come before his first lead", S_DECLARE)
            self._turn(state, seat, "the exchanges come first", S_EXCHANGE)
            raise Violation("L301", "the exchanges come first", S_EXCHANGE)
        self._turn(state, seat, "younger answers first", S_DECLARE)
        self._no_making_pending(state)
        at = state.at_class
        # extras: a second declaration of the class he won
        if k == at - 1 and state.talk[k].status == "elder" and not state.talk[k].closed and not state.talk[k].extras_done:
            self._extras(state, action)
            return
        if k < at:
            raise Violation("L301", f"{kind} was declared already: elder declares point, sequence, sets in that order (点,続き,組の順)", S_DECLARE)
        if k > 0 and at == 0:
            raise Violation("L301", "elder declares his point first: he may not pass it (1 番手は点の手役を宣言しないことはできない)", S_DECLARE)
        self._close_before(state, k)
        talk = state.talk[k]
        if not action.specs:
            if kind == "point":
                raise Violation("L301", "elder must declare his point (1 番手は点の手役を宣言しないことはできない)", S_DECLARE)
            talk.status = "undeclared"
            state.at_class = k + 1
            return
        self._check_form(state, action.specs, first_partial_ok=True)
        specs = sorted(action.specs, key=lambda s: s.comps, reverse=True) if kind != "point" else list(action.specs)
        if len(specs) > 1 and len(specs[0].comps) < levels(kind, state.rules)[-1]:
            raise Violation("L306", f"extra {kind}s go with a full declaration: {EXAMPLES[kind]}")
        self._check_held(state, seat, specs, kind)
        talk.specs = list(specs)
        talk.status = "asked"
        state.at_class = k + 1

    def _no_making_pending(self, state: PiquetState) -> None:
        k = state.at_class - 1
        if 0 <= k and state.talk[k].status == "making":
            what = "the value of his point: 'making 49'" if state.talk[k].kind == "point" else "the top card: 'making A'"
            raise Violation("L301", f"younger said 'equal': elder now says {what} (同点なら...宣言します)", S_DECLARE)

    def _close_before(self, state: PiquetState, k: int) -> None:
        """Elder moves on to class k: earlier classes he skipped are undeclared, his won classes closed."""
        for j in range(k):
            talk = state.talk[j]
            if talk.status == "open":
                talk.status = "undeclared"
            talk.closed = True

    def _extras(self, state: PiquetState, action: Declare) -> None:
        k = KINDS.index(action.kind)
        talk = state.talk[k]
        rules = state.rules
        if action.kind == "point":
            raise Violation("L301", "a point is one suit: nothing more to add", S_POINT)
        if not action.specs:
            talk.closed = True
            return
        self._check_form(state, action.specs, first_partial_ok=False)
        main = talk.specs[0]
        if not extras_unlimited(rules):
            for spec in action.specs:
                if spec.comps[:len(main.comps)] > main.comps:
                    raise Violation("L301", f"{action.kind} {say(spec)} beats the declared {say(main)}: only combinations that cannot beat it score "
                                    "(宣言に勝った続き役に勝てない続き役)", S_DECLARE)
        self._check_held(state, action.seat, talk.specs + list(action.specs), action.kind)
        talk.specs = talk.specs + list(action.specs)
        talk.extras_done = True

    def _making(self, state: PiquetState, action: Making) -> None:
        seat = action.seat
        k = state.at_class - 1
        talk = state.talk[k] if 0 <= k < 3 else None
        if talk is None or talk.status != "making":
            self._turn(state, seat, "nothing was asked", S_DECLARE)
            raise Violation("L301", "'making' answers younger's 'equal': nothing was asked", S_DECLARE)
        self._turn(state, seat, "elder says what his declaration makes", S_DECLARE)
        spec = talk.specs[0]
        new = Spec(spec.kind, spec.comps + (action.comp,), spec.suit)
        self._check_held(state, seat, [new], spec.kind)
        talk.specs[0] = new
        talk.status = "asked"

    def _answer(self, state: PiquetState, action: Answer) -> None:
        seat = action.seat
        k = state.at_class - 1
        talk = state.talk[k] if 0 <= k < 3 else None
        if talk is None or talk.status != "asked":
            self._turn(state, seat, "nothing to answer", S_DECLARE)
            raise Violation("L301", "nothing to answer: elder has not declared", S_DECLARE)
        self._turn(state, seat, "elder declares", S_DECLARE)
        rules = state.rules
        revealed = talk.revealed
        full = levels(talk.kind, rules)[-1]
        holding = state.hands[seat]
        if action.answer != "good":
            keys = [c.key(rules)[:len(revealed)] for c in candidates(talk.kind, holding.cards(), rules)]
            shown = any(key > revealed for key in keys) if action.answer == "not good" else revealed in keys
            if not shown and holding.unseen:
                state.notes.append(f"{seat}'s '{action.answer}' could not be checked: cards of {seat} were not seen")
            else:
                if action.answer == "not good" and not any(key > revealed for key in keys):
                    raise Violation("L301", f"'not good' is false: {seat} holds no {talk.kind} better than {say(talk.specs[0])} "
                                    "(2 番手は,1 番手の宣言に勝てる手役があれば宣言を拒み)", self._rule(talk.kind))
                if action.answer == "equal" and revealed not in keys:
                    raise Violation("L301", f"'equal' is false: {seat} holds no {talk.kind} equal to {say(talk.specs[0])} "
                                    "(同じ手役があれば同点とします)", self._rule(talk.kind))
        talk.answer = action.answer
        if action.answer == "good":
            talk.status = "elder"
            talk.closed = talk.kind == "point"  # a point is one suit: nothing to add
        elif action.answer == "not good":
            talk.status = "younger"
            talk.closed = True
        elif len(revealed) < full:
            talk.status = "making"
        else:
            talk.status = "tie"
            talk.closed = True

    def _claim(self, state: PiquetState, action: Declare) -> None:
        seat, kind = action.seat, action.kind
        k = KINDS.index(kind)
        first_trick = state.stage == "play" and not state.tricks and len(state.trick) == 1
        if not first_trick:
            raise Violation("L301", "younger claims after elder's first lead and before his own first card "
                            "(1 番手が最初に手札を出した後,自分が最初の手札を出す前に,申告して得ます)", S_DECLARE)
        talk = state.talk[k]
        if talk.status not in ("younger", "undeclared"):
            why = {"elder": "he answered 'good'", "tie": "the class was equal: nobody scores it"}.get(talk.status, "")
            raise Violation("L301", f"younger cannot score {kind}: {why} (2 番手は,拒んだ手役と 1 番手が宣言しなかった手役を申告して得ます)", S_DECLARE)
        if k < state.claimed_upto:
            raise Violation("L301", f"{kind} comes before the class claimed already: claims go point, sequence, sets", S_DECLARE)
        if not action.specs:
            talk.claim = []
            state.claimed_upto = k + 1
            return
        self._check_form(state, action.specs, first_partial_ok=True)
        specs = sorted(action.specs, key=lambda s: s.comps, reverse=True) if kind != "point" else list(action.specs)
        main = specs[0]
        if talk.status == "younger":
            revealed = talk.revealed
            if main.comps[:len(revealed)] <= revealed:
                raise Violation("L301", f"younger's {kind} {say(main)} does not beat elder's {say(talk.specs[0])}", self._rule(kind))
        self._check_held(state, seat, specs, kind)
        talk.claim = specs
        state.claimed_upto = k + 1

    # play
    def _play(self, state: PiquetState, action: Play) -> None:
        seat, card, rules = action.seat, action.card, state.rules
        if state.stage in ("elder_exchange", "younger_exchange", "blanche_younger_discard", "blanche_elder_exchange"):
            self._turn(state, seat, "the exchanges come first", S_EXCHANGE)
            raise Violation("L301", "the exchanges come first", S_EXCHANGE)
        if state.stage == "declare":
            k = state.at_class - 1
            if 0 <= k and state.talk[k].status in ("asked", "making"):
                self._turn(state, seat, "the declaration is not answered", S_DECLARE)
                self._no_making_pending(state)
            if state.at_class == 0:
                raise Violation("L301", "elder declares his point before he leads (1 番手は点の手役を宣言しないことはできない)", S_DECLARE)
            if seat != state.elder:
                raise Violation("L302", f"elder ({state.elder}) leads the first trick (1 回目は 1 番手)", S_PLAY)
            self._close_before(state, 3)
            state.at_class = 3
            state.stage = "play"
        self._turn(state, seat, "the leader plays first, then the other", S_PLAY)
        leading = not state.trick
        if action.verb == "lead" and not leading:
            raise Violation("L306", f"a trick is led already: write '{seat}: follow {card}'")
        if action.verb == "follow" and leading:
            raise Violation("L306", f"{seat} leads this trick: write '{seat}: lead {card}'")
        holding = state.hands[seat]
        if not holding.has(card) and (card in state.located or holding.unseen == 0):
            raise Violation("L303", f"{seat} does not hold {card}", S_PLAY, arg=nth_card(0))
        if leading and not state.tricks and state.exposed_suit and card[1] != state.exposed_suit:
            raise Violation("L301", f"elder named {french.SUIT_SYMBOL[state.exposed_suit]} for his first lead when the rest was exposed "
                            "(最初のカード勝負に出す手札の印を告げれば)", S_EXCHANGE, arg=nth_card(0))
        if not leading:
            led = state.trick[0][1]
            if card[1] != led[1]:
                if any(c[1] == led[1] for c in holding.cards()):
                    raise Violation("L301", f"{seat} must follow {french.SUIT_SYMBOL[led[1]]} (先手と同じ印の手札があればそれを)", S_PLAY, arg=nth_card(0))
                if holding.unseen:
                    state.notes.append(f"{seat} did not follow suit with unseen cards in hand: not checked")
        self._take(holding, seat, state, card, nth_card(0), S_PLAY)
        old = old_scoring(rules)
        if leading:
            state.leader = seat
            state.trick = [(seat, card)]
            if not old or rank_index(card[0]) >= rank_index("T"):
                state.play_log.append((seat, 1, "lead"))
            return
        state.trick.append((seat, card))
        (lseat, lcard), (fseat, fcard) = state.trick
        winner, wcard = (fseat, fcard) if fcard[1] == lcard[1] and rank_index(fcard[0]) > rank_index(lcard[0]) else (lseat, lcard)
        if winner != lseat and (not old or rank_index(wcard[0]) >= rank_index("T")):
            state.play_log.append((winner, 1, "win"))
        state.won[winner] += 1
        state.tricks.append(state.trick)
        state.trick = []
        state.leader = winner
        if len(state.tricks) == 12:
            if not (old and rules["last_trick_ten"] == "on" and rank_index(wcard[0]) < rank_index("T")):
                state.play_log.append((winner, 1, "last trick"))
            state.stage = "over"

    # -- turn and end --------------------------------------------------------------------------------
    def to_act(self, state: PiquetState) -> str | None:
        st = state.stage
        if st == "over":
            return None
        if st == "elder_exchange" or st == "blanche_elder_exchange":
            return state.elder
        if st in ("younger_exchange", "blanche_younger_discard"):
            return state.younger
        if st == "declare":
            k = state.at_class - 1
            if k >= 0 and state.talk[k].status == "asked":
                return state.younger
            return state.elder
        if state.trick:
            return state.younger if state.trick[0][0] == state.elder else state.elder
        return state.leader

    def hand_over(self, state: PiquetState) -> bool:
        return state.stage == "over"

    def settle(self, state: PiquetState) -> Settlement:
        entries, _ = ledger(state)
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        for e in entries:
            deltas[e.seat] += e.points
        # one item per name and seat, in the seed's order
        merged: dict[tuple[str, str], ScoreItem] = {}
        for e in entries:
            key = (e.seat, e.name)
            if key in merged:
                merged[key].value += e.points
                if e.detail:
                    merged[key].detail = (merged[key].detail + ", " + e.detail).strip(", ")
            else:
                merged[key] = ScoreItem(e.seat, e.name, e.points, e.term, e.detail)
                out.items.append(merged[key])
        if state.stopped:
            out.items.append(ScoreItem(state.elder, "target reached", 0, "目標に到達", "the hand stopped during the declarations"))
        match = state.match
        if match.rules["partie"] == "rubicon" and isinstance(match, PiquetMatch):
            self._rubicon_items(state, out)
        return out

    def _rubicon_items(self, state: PiquetState, out: Settlement) -> None:
        match = state.match
        totals = {s: match.totals[s] + out.deltas[s] for s in state.seats}
        hands = match.hands_in_game + 1  # the deals of the partie, those before a written start included
        a, b = state.seats
        if hands >= 6 and hands % 2 == 0 and totals[a] != totals[b]:
            win, lose = (a, b) if totals[a] > totals[b] else (b, a)
            value, how = rubicon_value(totals[win], totals[lose])
            out.items.append(ScoreItem(win, "rubicon game", value, "ルビコン", how))

    def match_result(self, match: Match) -> MatchResult | None:
        """The match winner (the single game's, or two games of three); with partie=rubicon
        the game's score too (負けた方が 100 点未満なら,2 人の点の合計+100 点...)."""
        if not isinstance(match, PiquetMatch) or not match.over:
            return None
        winner = max(match.seats, key=lambda s: match.games_won.get(s, 0))
        games = " ".join(match.results)
        if match.rules["partie"] == "rubicon":
            loser = next(s for s in match.seats if s != winner)
            value, how = rubicon_value(match.totals[winner], match.totals[loser])
            return MatchResult([winner], value, f"the rubicon game: {how}")
        return MatchResult([winner], None, f"games won by {games}")

    # -- views -----------------------------------------------------------------------------------------
    def view(self, state: PiquetState, seat: str | None) -> TableView:
        seats = []
        for s in state.seats:
            holding = state.hands[s]
            cards = sorted(holding.cards(), key=lambda c: ("CDHS".index(c[1]), rank_index(c[0])))
            mine = seat is None or seat == s
            hand = Zone("hand", cards if mine else [], hidden=holding.unseen if mine else len(holding), layout="fan")
            # discards lie face down; Parlett lets a player look at his own (自分が捨てたカードはいつでも見てよい)
            open_discards = seat is None or mine and parlett(state.rules)
            disc = Zone("discards", list(state.discards[s]) if open_discards else [], hidden=0 if open_discards else len(state.discards[s]), layout="stack")
            tricks = Zone("tricks", [], hidden=state.won[s], layout="count")
            labels = ["elder" if s == state.elder else "younger (dealer)"]
            if state.blanche.get(s):
                labels.append("carte blanche")
            seats.append(SeatView(s, [hand, disc, tricks], score=state.match.totals.get(s, 0), to_act=s == self.to_act(state), labels=labels))
        rest_seen = seat is None or state.exposed_suit is not None or (seat == state.younger and state.looked)
        talon = Zone("talon", [c for c in state.talon] if rest_seen else [], hidden=0 if rest_seen else len(state.talon), layout="stack")
        center = [talon, Zone("trick", [c for _, c in state.trick], layout="row")]
        if seat == state.elder and state.peeked:
            center.append(Zone("unused (peeked)", list(state.unused), layout="row"))
        info = {"stage": state.stage, "tricks": f"{state.won[state.elder]}-{state.won[state.younger]}"}
        for talk in state.talk:
            if talk.specs or talk.status not in ("open",):
                said = ", ".join(say(s) for s in talk.specs) or "none"
                info[talk.kind] = f"{said}: {talk.status}" + (f" (younger: {', '.join(say(s) for s in talk.claim)})" if talk.claim else "")
        entries, _ = ledger(state)
        running = {s: sum(e.points for e in entries if e.seat == s) for s in state.seats}
        info["this hand"] = " ".join(f"{s} {running[s]}" for s in state.seats)
        last = None
        if state.tricks:  # the winner of a trick leads the next (state.leader)
            last = TrickView(len(state.tricks), [(p, c) for p, c in state.tricks[-1]], state.leader)
        return TableView("french", seats, center, info, last_trick=last)

    def event_for(self, state: PiquetState, action: Action) -> Event:
        s = action.seat
        if isinstance(action, CarteBlanche):
            args: list = [WordArg(text="blanche")] + ([NumArg(value=action.count)] if action.count is not None else [])
            return Event(seat=s, verb="carte", args=args)
        if isinstance(action, Exchange):
            return Event(seat=s, verb="exchange", args=french.card_args(list(action.cards)) if action.cards else [WordArg(text="none")])
        if isinstance(action, Peek):
            return Event(seat=s, verb="peek" if s == state.elder else "look")
        if isinstance(action, Expose):
            return Event(seat=s, verb="expose", args=[WordArg(text=action.suit)])
        if isinstance(action, Show):
            return Event(seat=s, verb="show", args=french.card_args(list(action.cards)))
        if isinstance(action, Declare):
            return Event(seat=s, verb=action.kind, args=spec_args(action.specs) if action.specs else [WordArg(text="none")])
        if isinstance(action, Making):
            talk = state.talk[state.at_class - 1]
            arg: Any = NumArg(value=action.comp) if talk.kind == "point" else rank_arg(action.comp)
            return Event(seat=s, verb="making", args=[arg])
        if isinstance(action, Answer):
            if action.answer == "not good":
                return Event(seat=s, verb="not", args=[WordArg(text="good")])
            return Event(seat=s, verb=action.answer)
        verb = "lead" if not state.trick else "follow"
        return Event(seat=s, verb=verb, args=french.card_args([action.card]))

    # -- legal actions ------------------------------------------------------------------------------------
    def legal_actions(self, state: PiquetState) -> list[Action]:
        seat = self.to_act(state)
        if seat is None:
            return []
        holding = state.hands[seat]
        if holding.unseen:
            return []
        rules = state.rules
        cards = sorted(holding.cards())
        out: list[Action] = []
        st = state.stage
        if st in ("elder_exchange", "blanche_elder_exchange"):
            if st == "elder_exchange" and self._may_blanche(state, seat):
                if rules["blanche_procedure"] == "seed":
                    out += [CarteBlanche(seat, n) for n in range(1, min(elder_max(rules), len(state.talon)) + 1)]
                else:
                    out.append(CarteBlanche(seat))
            sizes = [state.blanche_count] if st == "blanche_elder_exchange" else range(1, min(elder_max(rules), len(state.talon)) + 1)
            for n in sizes:
                out += [Exchange(seat, c) for c in combinations(cards, n)]  # type: ignore[arg-type]
            return out
        if st in ("younger_exchange", "blanche_younger_discard"):
            if self._may_blanche(state, seat):
                out.append(CarteBlanche(seat))
            rest = len(state.talon) - (state.blanche_count or 0 if st == "blanche_younger_discard" else 0)
            for n in range(younger_min(rules), rest + 1):
                out += [Exchange(seat, c) for c in combinations(cards, n)]
            return out
        if st == "declare":
            return self._legal_talk(state, seat, cards)
        # play
        if seat == state.younger and not state.tricks and len(state.trick) == 1:
            for k in range(state.claimed_upto, 3):
                talk = state.talk[k]
                if talk.status in ("younger", "undeclared") and talk.claim is None:
                    for specs in self._claims(state, k, cards):
                        out.append(Declare(seat, KINDS[k], specs))
        out += [Play(seat, c) for c in self._playable(state, seat, cards)]
        return out

    def unseen_candidates(self, state: PiquetState, seat: str) -> Counter:
        """Every card of the pack not known to be somewhere (a seen hand or talon card, a
        discard, a card played)."""
        if not state.hands[seat].unseen:
            return Counter()
        known = set(state.located) | {c for t in state.talon for c in [t] if c != "*"}
        known |= {c for s in state.seats if s != seat for c in state.hands[s].cards()}
        known |= {c for cs in state.discards.values() for c in cs if c != "*"}
        return Counter(c for c in french.deck(deck_ranks(state.rules)) if c not in known)

    def unseen_actions(self, state: PiquetState) -> list[Action]:
        """For a hand not wholly seen, in the play: a play of any card it could hold (whether it
        follows suit cannot be checked). Its exchange (any 1 to 5 of some 20 cards: over 20,000
        ways) and its declarations are written by the scribe."""
        seat = self.to_act(state)
        if seat is None or state.stage != "play" or not state.hands[seat].unseen:
            return []
        holding = state.hands[seat]
        could = sorted(set(holding.cards()) | set(self.unseen_candidates(state, seat)))
        return [Play(seat, c) for c in could]

    def _may_blanche(self, state: PiquetState, seat: str) -> bool:
        if state.blanche.get(seat):
            return False
        dealt = state.dealt[seat]
        if "*" in dealt or any(c[0] in FACE_RANKS for c in dealt):
            return False
        other = state.younger if seat == state.elder else state.elder
        return not state.blanche.get(other) or state.rules["deck"] == "36"

    def _playable(self, state: PiquetState, seat: str, cards: list[str]) -> list[str]:
        if not state.trick:
            if not state.tricks and state.exposed_suit:
                return [c for c in cards if c[1] == state.exposed_suit]
            return cards
        led = state.trick[0][1][1]
        same = [c for c in cards if c[1] == led]
        return same or cards

    def _legal_talk(self, state: PiquetState, seat: str, cards: list[str]) -> list[Action]:
        rules = state.rules
        k = state.at_class - 1
        out: list[Action] = []
        if seat == state.younger:
            talk = state.talk[k]
            revealed = talk.revealed
            keys = [c.key(rules)[:len(revealed)] for c in candidates(talk.kind, cards, rules)]
            out.append(Answer(seat, "good"))
            if any(key > revealed for key in keys):
                out.append(Answer(seat, "not good"))
            if revealed in keys:
                out.append(Answer(seat, "equal"))
            return out
        if k >= 0 and state.talk[k].status == "making":
            talk = state.talk[k]
            revealed = talk.revealed
            comps = {c.key(rules)[len(revealed)] for c in candidates(talk.kind, cards, rules) if c.key(rules)[:len(revealed)] == revealed}
            return [Making(seat, c) for c in sorted(comps)]
        at = state.at_class
        if at == 0:
            for combo in points_of(cards):
                out.append(Declare(seat, "point", (spec_of(combo, rules, 1),)))
            return out
        # extras of the class he won
        if k >= 0 and state.talk[k].status == "elder" and not state.talk[k].closed and not state.talk[k].extras_done and KINDS[k] != "point":
            extra = self._extras_for(state, k, cards)
            if extra:
                out.append(Declare(seat, KINDS[k], tuple(extra)))
        for j in range(at, 3):
            kind = KINDS[j]
            seen = set()
            for combo in candidates(kind, cards, rules):
                spec = spec_of(combo, rules, levels(kind, rules)[0])
                if spec not in seen:
                    seen.add(spec)
                    out.append(Declare(seat, kind, (spec,)))
            out.append(Declare(seat, kind, ()))
        for c in self._playable(state, seat, cards):
            out.append(Play(seat, c))
        if state.talon and state.exposed_suit is None:
            out += [Expose(seat, s) for s in sorted({c[1] for c in cards})]
        return out

    def _extras_for(self, state: PiquetState, k: int, cards: list[str]) -> list[Spec]:
        """Greedy: the elder's or younger's further combinations of class k that may be added."""
        rules = state.rules
        talk = state.talk[k]
        base = list(talk.specs)
        extra: list[Spec] = []
        main = base[0]
        for combo in sorted(candidates(KINDS[k], cards, rules), key=lambda c: c.key(rules), reverse=True):
            spec = spec_of(combo, rules)
            if not extras_unlimited(rules) and spec.comps[:len(main.comps)] > main.comps:
                continue
            if assign(base + extra + [spec], cards, rules) is not None and spec not in base + extra:
                trial = base + extra + [spec]
                if KINDS[k] == "sets" and len({s.comps[1] for s in trial if len(s.comps) > 1}) < len([s for s in trial if len(s.comps) > 1]):
                    continue
                extra.append(spec)
        return extra

    def _claims(self, state: PiquetState, k: int, cards: list[str]) -> list[tuple[Spec, ...]]:
        rules = state.rules
        talk = state.talk[k]
        kind = KINDS[k]
        revealed = talk.revealed if talk.status == "younger" else ()
        out: list[tuple[Spec, ...]] = [()]
        combos = sorted(candidates(kind, cards, rules), key=lambda c: c.key(rules), reverse=True)
        for main in combos:
            if revealed and main.key(rules)[:len(revealed)] <= revealed:
                continue
            spec = spec_of(main, rules)
            if kind == "point" and not old_scoring(rules):
                short = spec_of(main, rules, 1)
                if short.comps[:len(revealed)] > revealed:
                    spec = short  # 'point 6' says enough when six beats five
            out.append((spec,))
            if kind == "point":
                continue
            extras = []
            for other in combos:
                o = spec_of(other, rules)
                if other is main or o == spec:
                    continue
                if not extras_unlimited(rules) and o.comps > spec.comps:
                    continue
                trial = [spec] + extras + [o]
                if kind == "sets" and len({s.comps[1] for s in trial}) < len(trial):
                    continue
                if assign(trial, cards, rules) is not None:
                    extras.append(o)
            if extras:
                out.append(tuple([spec] + extras))
        return out

    # -- selfplay ----------------------------------------------------------------------------------------
    def deal_hand(self, match: PiquetMatch, number: int, rng: random.Random) -> Hand:  # type: ignore[override]
        rules = match.rules
        deck = french.shuffled(french.deck(deck_ranks(rules)), rng)
        seats = match.seats
        if match.hands_played == 0:
            dealer = seats[1]
        else:
            dealer = self.next_seat(seats, match.dealer or seats[1])
        elder = self.next_seat(seats, dealer)

        def order(c: str) -> tuple[int, int]:
            return "CDHS".index(c[1]), rank_index(c[0])

        hands = {elder: sorted(deck[:12], key=order), dealer: sorted(deck[12:24], key=order)}
        events = [Event(verb="deal", args=[SeatArg(seat=s), *french.card_args(hands[s])]) for s in seats]
        events.append(Event(verb="talon", args=french.card_args(deck[24:])))
        return Hand(args=[NumArg(value=number), OptionArg(key="dealer", value=dealer)], events=events)

    def aim_deal(self, match: PiquetMatch, number: int, rng: random.Random, aim: str) -> Hand | None:  # type: ignore[override]
        """Carte blanche (絵札なし): twelve cards without K, Q or J for elder or younger; a long
        sequence (``sixième`` .. ``huitième``): that many cards in a row of one suit for elder."""
        wanted = aim.casefold()
        runs = {name: n for n, name in SEQUENCE_NAMES.items()}
        if wanted in AIM_CAPOT:
            return self.deal_hand(match, number, StackedShuffle(rng, capot_pack))
        if wanted not in ("carte blanche", "絵札なし(カルト・ブランシュ)") and wanted not in runs:
            return None
        if wanted in runs and runs[wanted] > len(deck_ranks(match.rules)):
            return None  # a neuvième needs the 36-card game (9 枚続きは 19 点): none can be dealt
        first = rng.random() < 0.5 or wanted in runs  # the elder's twelve come first in the pack, the dealer's next
        ranks = deck_ranks(match.rules)

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            if wanted in runs:
                n = runs[wanted]
                top = r.randrange(n - 1, len(ranks))
                suit = r.choice("CDHS")
                run = [ranks[i] + suit for i in range(top - n + 1, top + 1)]
                chosen = run + r.sample([c for c in pack if c not in run], 12 - n)
            else:
                chosen = r.sample([c for c in pack if c[0] not in "KQJ"], 12)
            rest = [c for c in pack if c not in chosen]
            return chosen + rest if first else rest[:12] + chosen + rest[12:]

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_choose(self, state: PiquetState, legal: list[Action], rng: random.Random, aim: str) -> Action | None:
        """Toward a long sequence: an exchange that keeps every card of the aimed run in hand
        (the least cards given up; the policy chooses otherwise)."""
        runs = {name: n for n, name in SEQUENCE_NAMES.items()}
        n = runs.get(aim.casefold())
        exchanges = [a for a in legal if isinstance(a, Exchange)]
        if aim.casefold() in AIM_CAPOT and exchanges and exchanges[0].seat == state.elder:  # one jack for the ten
            return next((a for a in exchanges if len(a.cards) == 1 and a.cards[0][0] == "J"), None)
        if n is None or not exchanges:
            return None
        held = set(state.hands[exchanges[0].seat].cards())
        ranks = deck_ranks(state.rules)
        for suit in "CDHS":
            for top in range(n - 1, len(ranks)):
                run = {ranks[i] + suit for i in range(top - n + 1, top + 1)}
                if run <= held:
                    keep = [a for a in exchanges if not run & set(a.cards) and a.cards]
                    return min(keep, key=lambda a: len(a.cards)) if keep else None
        return None

    def seat_view(self, state: PiquetState, seat: str) -> "Seen":
        holding = state.hands[seat]
        return Seen(seat=seat, elder=seat == state.elder, stage=state.stage, hand=tuple(sorted(holding.cards())),
                    trick=tuple(c for _, c in state.trick), played=frozenset(c for t in state.tricks for _, c in t) | {c for _, c in state.trick},
                    rules=state.rules)

    def choose(self, seen: "Seen", legal: list[Action], rng: random.Random) -> Action:
        """Play to win: carte blanche when held; discard the weakest cards; declare and answer truly;
        claim everything; win tricks cheaply, lead from strength."""
        rules = seen.rules
        for a in legal:
            if isinstance(a, CarteBlanche):
                return a
        exchanges = [a for a in legal if isinstance(a, Exchange)]
        if exchanges:
            most = max(len(a.cards) for a in exchanges)
            n = most if seen.elder else min(most, max(len(a.cards) for a in exchanges))
            discard = tuple(sorted(weakest(list(seen.hand), n, rules)))
            for a in exchanges:
                if a.cards == discard:
                    return a
            return next(a for a in exchanges if len(a.cards) == n)
        answers = [a for a in legal if isinstance(a, Answer)]
        if answers:
            for word in ("not good", "equal", "good"):
                for a in answers:
                    if a.answer == word:
                        return a
        makings = [a for a in legal if isinstance(a, Making)]
        if makings:
            return max(makings, key=lambda a: a.comp)
        declares = [a for a in legal if isinstance(a, Declare) and (a.specs or seen.stage == "declare")]
        if declares:
            # the next class in order, the best combination, everything it may add
            kind_rank = min(KINDS.index(a.kind) for a in declares)
            same = [a for a in declares if KINDS.index(a.kind) == kind_rank]
            return max(same, key=lambda a: (sum(s.score(rules) for s in a.specs), tuple(s.comps for s in a.specs)))
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return choose_card(seen, plays, rng)
        return legal[0]


@dataclass(frozen=True)
class Seen:
    """What one seat's policy knows beside its legal actions: its own cards and the table."""

    seat: str
    elder: bool
    stage: str
    hand: tuple[str, ...]
    trick: tuple[str, ...]
    played: frozenset[str]
    rules: Rules


def keep_value(card: str, hand: list[str], rules: Rules) -> float:
    """How much a card is worth keeping: high cards, long suits, sets and sequences."""
    r = rank_index(card[0])
    suit_len = sum(1 for c in hand if c[1] == card[1])
    same_rank = sum(1 for c in hand if c[0] == card[0])
    value = r * 2 + suit_len * 1.5
    if card[0] in SET_RANKS and same_rank >= 2:
        value += same_rank * 2
    ranks = deck_ranks(rules)
    i = ranks.index(card[0])
    neighbours = sum(1 for j in (i - 1, i + 1) if 0 <= j < len(ranks) and ranks[j] + card[1] in hand)
    return value + neighbours * 2


def weakest(hand: list[str], n: int, rules: Rules) -> list[str]:
    return sorted(hand, key=lambda c: (keep_value(c, hand, rules), c))[:n]


def choose_card(seen: Seen, plays: list[Play], rng: random.Random) -> Play:
    cards = [p.card for p in plays]
    if seen.trick:
        led = seen.trick[0]
        winners = [c for c in cards if c[1] == led[1] and rank_index(c[0]) > rank_index(led[0])]
        pick = min(winners, key=lambda c: rank_index(c[0])) if winners else min(cards, key=lambda c: (c[1] == led[1], rank_index(c[0])))
    else:
        hand = list(seen.hand)
        ranks = deck_ranks(seen.rules)

        def master(c: str) -> bool:
            higher = [r + c[1] for r in ranks[ranks.index(c[0]) + 1:]]
            return all(h in seen.played or h in hand for h in higher)

        masters = [c for c in cards if master(c)]
        if masters:
            pick = max(masters, key=lambda c: (sum(1 for h in hand if h[1] == c[1]), rank_index(c[0])))
        else:
            pick = min(cards, key=lambda c: (rank_index(c[0]), -sum(1 for h in hand if h[1] == c[1])))
    return next(p for p in plays if p.card == pick)


def rank_arg(index: int) -> Any:
    """A rank as written: A K Q J T as words, 9 8 7 6 as numbers."""
    rank = ORDER[index]
    return NumArg(value=int(rank)) if rank.isdigit() else WordArg(text=rank)


def spec_args(specs: Sequence[Spec]) -> list:
    args: list = []
    for spec in specs:
        if spec.kind == "point":
            args += [NumArg(value=c) for c in spec.comps]
            continue
        args.append(NumArg(value=spec.comps[0]))
        if len(spec.comps) > 1:
            if spec.kind == "sequence":
                args.append(WordArg(text="to"))
            args.append(rank_arg(spec.comps[1]))
    return args


ENGINE = Piquet()
