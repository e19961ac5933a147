"""The mahjong family core: what Paomazai, Kawuxing (and later Sanma, Wuhan, Yichang) share.

A hand is played on one :class:`MahjongState`: each seat's concealed tiles (a
:class:`~replay.holding.Holding`, so unseen ``*`` tiles are allowed), its melds (pon,
kongs: direct 明槓, added 加槓, concealed 暗槓), its discards, and the live wall. The wall
may be written (``wall`` set-up line: the tiles left after the deal, in draw order; a
normal draw takes the head, a kong replacement the tail); then every draw is checked
against it. Without it, draws are asserted by the record and checked against the tile
counts of the game's set.

The turn runs through phases:

- ``act``: the seat to play holds 14 - 3×melds tiles: it discards, declares a kong
  (concealed or added), wins on its own draw (``win tsumo``), or makes a game's
  declaration (Kawuxing's 亮倒 ``disclose``).
- ``claim``: a tile was just discarded; any other seat may win on it (``win ron``), pon it,
  or kong it (direct). A claim nobody makes is implicit: the next seat's ``draw`` shows
  that nobody claimed. ``pass`` may be written (selfplay writes it for a declined claim).
- ``rob``: an added kong was declared; others may rob it (``win rob``); the konger's
  replacement ``draw`` shows nobody did.
- ``draw`` / ``replace``: the seat to play draws from the head / the kong replacement end.
- ``wins``: a discard (or a robbed kong) has been won on and, with several winners allowed,
  other seats that can still win on it must ``win`` or ``pass``.
- after the hand's natural end (the last discard, or a won tile, that no seen hand can win
  on), a seat with unseen tiles may still write its ``win`` there until the score line
  (``late_claimants``, ``accepts_after_end``).
- ``horses`` (Paomazai): after a self-draw the ``horses`` line shows the tiles drawn.

A claim window closes on its own when nobody can claim any more (the hand then ends when
the wall is empty). Claim priority (win over kong/pon) follows from the record: a pon
written while another seat could have won means that seat passed.

Games subclass :class:`MahjongEngine` and fill in the hooks (tile set, winning shapes,
what a win is worth, kong payments, restrictions).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from paifu.notation.model import CardsArg, Event, Hand, NumArg, OptionArg, SeatArg, WordArg

from . import tiles as T
from ..deals import StackedShuffle, card_place, deal_seat
from ..engine import (
    Engine,
    HandHeader,
    HandState,
    Match,
    Payment,
    Rules,
    ScoreItem,
    SeatView,
    Settlement,
    TableView,
    Violation,
    Zone,
    no_verb,
)
from ..holding import Holding

UNSEEN = "*"
RULING = "docs/rulings.md §mahjong family"

VERBS = ("draw", "discard", "chi", "pon", "kong", "win", "pass", "disclose")


# -- small pure helpers ------------------------------------------------------------------
kind = T.tile_index  # a tile code's kind 0..33 (ValueError for anything else)


def counts_of_holding(holding: Holding, identity: dict[str, str] | None = None,
                      _index: dict[str, int] = T.KIND_OF_CODE) -> bytearray:
    """34 counts of the known tiles, one a byte: the form the tile core's win checks read
    fastest (a list would be packed into one at every check). ``identity`` maps a tile to
    the tile it counts as (:meth:`MahjongEngine.tile_identity`)."""
    counts = bytearray(34)
    try:  # one dictionary look-up per kind held (replay asks this at every discard)
        if identity:
            for code, n in holding.known.items():
                counts[_index[identity.get(code, code)]] += n
        else:
            for code, n in holding.known.items():
                counts[_index[code]] += n
    except KeyError:
        raise ValueError(f"not a tile code: {code!r}") from None
    return counts


def wind_of(seats: list[str], dealer: str, seat: str) -> int:
    """Seat wind 0..3 (East South West North) counted from the dealer in turn order."""
    return (seats.index(seat) - seats.index(dealer)) % len(seats)


# -- melds, wins, actions ----------------------------------------------------------------
@dataclass
class Meld:
    """A declared set: ``chi``, ``pon``, ``kong_direct`` (明槓), ``kong_added`` (加槓), ``kong_concealed`` (暗槓)."""

    kind: str
    tile: str  # the tile of a pon or kong; the lowest tile of a chi
    source: str | None = None  # the seat whose discard was claimed
    run: tuple[str, ...] = ()  # a chi's three tiles

    @property
    def is_kong(self) -> bool:
        return self.kind.startswith("kong")

    def codes(self) -> list[str]:
        if self.kind == "chi":
            return list(self.run)
        return [self.tile] * (4 if self.is_kong else 3)


@dataclass
class Win:
    """A win as it happened: who, how (tsumo, ron, rob), on what, and the circumstances."""

    seat: str
    how: str
    tile: str
    payer: str | None  # the discarder or the robbed konger; None on a self-draw
    concealed: Sequence[int]  # 34 counts of the concealed hand, the winning tile included (a bytearray from the state)
    melds: list[Meld]
    known: bool = True  # False when unseen tiles hide the hand
    replacement: bool = False  # won on a kong replacement tile (杠上开花 / 嶺上開花)
    turn_kongs: int = 0  # kongs the winner made in this turn before the win
    after_kong: bool = False  # won on a discard made right after the discarder's kong (杠上炮)
    last_tile: bool = False  # won on the last tile of the wall
    first_turn: bool = False  # the dealer's dealt hand (no draw yet)
    disclosed: bool = False


class Refusal(str):
    """Why a win is refused (what ``may_win`` returns), with the section of the rule text it
    cites where the game names one (the game's title otherwise)."""

    rule: str | None

    def __new__(cls, text: str, rule: str | None = None) -> "Refusal":
        refusal = super().__new__(cls, text)
        refusal.rule = rule
        return refusal


@dataclass(frozen=True)
class Move:
    """One action: a seat's ``verb`` with its tile(s); ``how`` for ``win`` (tsumo, ron, rob)."""

    seat: str | None
    verb: str
    tile: str | None = None
    how: str | None = None
    tiles: tuple[str, ...] = ()


@dataclass(frozen=True)
class MissedWinRule:
    """A game's missed-win rule (見逃し, furiten): the parameters of the core's one mechanism.

    A seat that could have won on a tile open to it (a discard, a kong open to robbing) and
    did not has *missed* that win. The miss is recorded when the window on the tile closes
    without his win: the next draw, a pon, chi or kong (his own included), a written pass,
    and for a kong open to robbing the konger's replacement draw. From then on he may not
    win on a discard or by robbing (self-draws stay allowed) until the restriction ends:

    - ``ends_at_own_draw``: at any draw on his own turn, a kong replacement included;
    - ``ends_when_skipped``: when a pon or kong passes over his turn (Kawuxing);
    - never, while the game says the miss lasts for the hand (``missed_lasts``: riichi).

    ``unless_higher``: a hand worth more than the missed one (the game's ``missed_value``)
    may still win (Kawuxing). ``unit`` names that value in messages.
    """

    source: str
    ends_at_own_draw: bool = True
    ends_when_skipped: bool = False
    unless_higher: bool = False
    unit: str = ""


@dataclass
class Wall:
    """The wall after the deal: its tiles in draw order when the record wrote them.

    Normal draws take the head. Kong replacements take the tail: from the live wall itself
    (``dead=0``: Paomazai, Kawuxing), or from a dead wall of ``dead`` replacement tiles kept
    apart at the tail, either not replenished (the live wall keeps its length; sanma's
    ruling) or replenished (``replenish``: each replacement shortens the live wall).
    """

    size: int
    tiles: list[str] | None = None
    head: int = 0
    tail: int = 0
    dead: int = 0
    replenish: bool = False
    replace_at_head: bool = False  # kong replacements come from the next draw position (Yichang)

    def __post_init__(self) -> None:
        self.tail = self.size
        self._dead_wall = self.dead > 0

    @property
    def live(self) -> int:
        """Tiles left to draw from the head."""
        return self.tail - self.head - self.dead

    def can_replace(self) -> bool:
        """Whether a kong replacement tile is left."""
        if not self._dead_wall:
            return self.live > 0
        return self.dead > 0 and (not self.replenish or self.live > 0)

    def take(self, end: str) -> str:
        """Take one tile from ``head`` or ``tail``: its code, or ``*`` when not written."""
        if end == "head" or self.replace_at_head:
            i = self.head
            self.head += 1
        else:
            self.tail -= 1
            i = self.tail
            if self._dead_wall and not self.replenish:
                self.dead -= 1
        return self.tiles[i] if self.tiles is not None else UNSEEN

    def untake(self, end: str) -> None:
        """Put back the tile just taken (a draw the record got wrong)."""
        if end == "head" or self.replace_at_head:
            self.head -= 1
        else:
            self.tail += 1
            if self._dead_wall and not self.replenish:
                self.dead += 1

    def peek(self, end: str, n: int = 1) -> list[str]:
        if self.replace_at_head:
            end = "head"
        n = min(n, self.live if end == "head" else (self.dead if self._dead_wall else self.live))
        if self.tiles is None:
            return [UNSEEN] * n
        if end == "head":
            return self.tiles[self.head:self.head + n]
        return self.tiles[self.tail - n:self.tail][::-1]


@dataclass
class MahjongState(HandState):
    seats: list[str] = field(default_factory=list)
    dealer: str = "A"
    hands: dict[str, Holding] = field(default_factory=dict)
    melds: dict[str, list[Meld]] = field(default_factory=dict)
    discards: dict[str, list[str]] = field(default_factory=dict)
    wall: Wall = field(default_factory=lambda: Wall(0))
    copies: Counter = field(default_factory=Counter)  # the game's tile set, kind code -> copies
    located: Counter = field(default_factory=Counter)  # tiles known to be somewhere
    phase: str = "act"
    turn: str = "A"
    drawn: str | None = None  # the tile drawn this turn (``*`` unseen); None after a claim
    can_tsumo: bool = True
    from_replacement: bool = False  # the current tile came from a kong replacement
    after_pon: bool = False  # this turn began with the seat's own pon
    turn_kongs: int = 0  # kongs by the seat to play in this turn
    chain: int = 0  # unbroken kongs so far in the current kong chain
    discard: str | None = None
    discarder: str | None = None
    discard_after_kong: bool = False
    discard_chain: int = 0
    pending_kong: Meld | None = None  # an added kong waiting for robbers
    pending_kong_seat: str | None = None
    passed: set[str] = field(default_factory=set)
    wins: list[Win] = field(default_factory=list)
    kong_payments: list[Payment] = field(default_factory=list)
    kong_items: list[ScoreItem] = field(default_factory=list)
    horses: list[str] | None = None
    disclosed: dict[str, int] = field(default_factory=dict)  # seat -> order of disclosure
    missed: dict[str, int] = field(default_factory=dict)  # seat -> value of the missed win (MissedWinRule)
    missed_for_hand: set[str] = field(default_factory=set)  # seats whose miss lasts the hand
    first_turn: bool = True
    over: bool = False
    score_written: bool = False  # the hand's score line has been read: no late win belongs to the hand after it
    log: list[str] = field(default_factory=list)  # scoring items seen, for stats
    identity: dict[str, str] = field(default_factory=dict)  # tile -> the tile it is equal to (tile_identity)

    def concealed_counts(self, seat: str) -> bytearray:
        return counts_of_holding(self.hands[seat], self.identity)

    def kind_of(self, code: str) -> int:
        """The kind a tile counts as in hands and claims (its identity, else its own kind)."""
        return T.tile_index(self.identity.get(code, code))

    def same(self, code: str) -> list[str]:
        """The codes equal to ``code`` for claims and kongs, ``code`` first: only ``code``
        itself unless the game's :meth:`MahjongEngine.tile_identity` makes others equal to it
        (a red five and its plain five)."""
        if not self.identity:
            return [code]
        me = self.identity.get(code, code)
        return [code] + sorted(c for c in self.copies if c != code and self.identity.get(c, c) == me)

    def meld_tile(self, code: str) -> str:
        """The tile a meld of ``code`` is written with: ``code``, unless the game makes it equal
        to a tile of another kind (赤五萬: a red 5m is a North), then that tile."""
        plain = self.identity.get(code, code)
        return code if T.tile_index(plain) == T.tile_index(code) else plain

    def hand_known(self, seat: str) -> bool:
        return self.hands[seat].unseen == 0

    def others(self, seat: str) -> list[str]:
        return [s for s in self.seats if s != seat]

    def win_parties(self, win: Win) -> list[str]:
        """The winner and who pays him for this win: everyone else on a self-draw, else the
        discarder (or robbed konger). An unseen winning hand leaves these seats' scores
        unknown, and no one else's."""
        return [win.seat, *(self.others(win.seat) if win.how == "tsumo" or win.payer is None else [win.payer])]

    def order_from(self, seat: str) -> list[str]:
        """The other seats in turn order starting after ``seat``."""
        i = self.seats.index(seat)
        n = len(self.seats)
        return [self.seats[(i + k) % n] for k in range(1, n)]

    def next_seat(self, seat: str) -> str:
        return self.order_from(seat)[0]


# -- the seat's view for selfplay policies ------------------------------------------------
@dataclass
class Seen:
    """What one seat knows: its own concealed tiles, every meld, every discard, the wall count."""

    seat: str
    counts: bytearray  # the seat's concealed counts (MahjongState.concealed_counts)
    melds: int
    visible: bytearray  # counts of what this seat sees (own hand, all melds, all discards)
    live: int
    disclosed: bool
    kinds: list[int]  # the kinds of the game's tile set
    rules: dict
    others_pons: tuple[int, ...] = ()  # kinds other seats hold as open pons (public)
    identity: dict[str, str] = field(default_factory=dict)  # the game's tile_identity

    def kind(self, code: str) -> int:
        """The kind ``code`` counts as in this seat's hand (MahjongState.kind_of)."""
        return T.tile_index(self.identity.get(code, code))


def _tile_arg(event: Event, index: int, what: str = "a tile", allow_unseen: bool = False) -> str:
    if index >= len(event.args):  # the line as written, the tile put in: 'win tsumo 5p'
        written = [a.text for a in event.args[:index] if isinstance(a, WordArg)]
        example = " ".join([event.verb or "", *written, "5p"])
        raise Violation("L306", f"'{' '.join([event.verb or '', *written])}' needs {what} after it, e.g. '{example}'",
                        arg=index - 1 if index else None)
    arg = event.args[index]
    if not isinstance(arg, CardsArg):
        text = getattr(arg, "text", None) or getattr(arg, "value", None) or getattr(arg, "seat", None) or arg.kind
        raise Violation("L305", f"'{text}' is not a tile (tiles are written 1-9m 1-9p 1-9s 1-7z)", arg=index)
    if len(arg.cards) != 1:
        raise Violation("L306", f"'{event.verb}' takes one tile, not {len(arg.cards)}", arg=index)
    code = arg.cards[0]
    if code == UNSEEN and not allow_unseen:
        raise Violation("L305", f"an unseen tile '*' cannot be named in '{event.verb}' here: name the tile", arg=index)
    return code


def _tiles_args(event: Event, start: int) -> tuple[list[str], list[int]]:
    codes: list[str] = []
    where: list[int] = []
    for i, arg in enumerate(event.args[start:], start):
        if not isinstance(arg, CardsArg):
            text = getattr(arg, "text", None) or getattr(arg, "value", None) or arg.kind
            raise Violation("L305", f"'{text}' is not a tile (tiles are written 1-9m 1-9p 1-9s 1-7z)", arg=i)
        codes.extend(arg.cards)
        where.extend([i] * len(arg.cards))
    return codes, where


class MahjongEngine(Engine[MahjongState, Move]):
    """The shared engine of the mahjong family. Games set the attributes and fill the hooks."""

    family = "tiles"
    setup_verbs = frozenset({"deal", "wall", "dice"})
    hand_size = 13
    seed_rule = ""  # the seed section cited by violations of the play
    multi_ron_option = "multi_ron"
    pon_on_last = False  # may a pon be made when the live wall is empty
    may_chi = False  # chi on the discard of the player before (上家)
    no_chi_rule = ""  # the seed's words when chi is not allowed
    disclose_rule = ""  # the rule of a game with a disclosed (亮倒) hand
    dice_count = 2  # dice on a ``dice`` set-up line
    replace_at_head = False  # kong replacements from the next draw position, not the tail
    state_class: type[MahjongState] = MahjongState  # games may carry more per hand
    set_aside = 0  # tiles turned out of play after the deal (Wuhan's 頼子 indicator)

    # -- hooks -----------------------------------------------------------------------
    def tile_set(self, rules) -> list[str]:
        return T.tile_set("136")

    def tile_identity(self, rules) -> dict[str, str]:
        """What a tile is equal to in hands, claims and kongs, for a game whose red fives are
        their plain fives (``{"0p": "5p"}``) or something else (赤五萬: ``{"0m": "4z"}``).
        Empty by default: tiles compare by their exact codes."""
        return {}

    def dead_wall(self, rules) -> tuple[int, bool]:
        """Replacement tiles kept apart at the tail (0: kongs draw from the live wall), and
        whether the dead wall is replenished from the live wall."""
        return 0, False

    def active_seats(self, match: Match, header: HandHeader) -> list[str]:
        return list(match.seats)

    def expected_dealer(self, match: Match) -> str | None:
        return match.dealer

    def is_winning(self, state: MahjongState, seat: str, counts: Sequence[int]) -> bool:
        """Whether concealed ``counts`` (the winning tile included) with the seat's melds win."""
        return T.is_complete(counts, len(state.melds[seat]))

    def may_win(self, state: MahjongState, win: Win) -> str | None:
        """None when the (complete) hand may win this way, else why not (a :class:`Refusal`
        where the reason cites a section of the rule text)."""
        return None

    def missed_rule(self, rules) -> MissedWinRule | None:
        """The game's missed-win rule under these options; None: a missed win restricts nothing."""
        return None

    def missed_value(self, state: MahjongState, win: Win) -> int | None:
        """What a win is worth for ``unless_higher`` (None: the hand could not win this way anyway)."""
        return 1

    def missed_lasts(self, state: MahjongState, seat: str) -> bool:
        """Whether a miss by ``seat`` now lasts for the rest of the hand (sanma's riichi furiten)."""
        return False

    def may_pon(self, state: MahjongState, seat: str, tile: str) -> str | None:
        return None

    def may_kong(self, state: MahjongState, seat: str, meld_kind: str, tile: str) -> str | None:
        return None

    def may_chi_run(self, state: MahjongState, seat: str, run: tuple[str, ...]) -> str | None:
        """None when ``seat`` may chi the discard into ``run``, else why not (Wuhan: no 頼子)."""
        return None

    def must_claim(self, state: MahjongState) -> tuple[str, str] | None:
        """A seat that must claim the current discard (Kawuxing's forced kong): (seat, why)."""
        return None

    def on_kong(self, state: MahjongState, seat: str, meld: Meld, chain: int) -> None:
        """Kong payments on the spot: append to ``state.kong_payments`` / ``kong_items``."""

    def after_win(self, state: MahjongState, win: Win) -> None:
        """Called after each win is applied (Paomazai opens the horses phase)."""

    def on_disclose(self, state: MahjongState, seat: str, move: Move) -> None:
        raise Violation("L306", f"{self.id} has no 'disclose' (亮倒)", self.seed_rule)

    def settle_hand(self, state: MahjongState) -> Settlement:
        raise NotImplementedError

    def read_extra(self, state: MahjongState, event: Event) -> Move | None:
        """Game-specific seat-less events (``horses``); None when not one."""
        return None

    def apply_extra(self, state: MahjongState, move: Move) -> bool:
        return False

    # -- hand ------------------------------------------------------------------------
    def start_hand(self, match: Match, header: HandHeader, setup: Sequence[Event]) -> MahjongState:
        rules = match.rules
        seats = self.active_seats(match, header)
        expected = self.expected_dealer(match)
        dealer = header.dealer or expected or seats[0]
        if expected is not None and header.dealer is not None and header.dealer != expected:
            raise Violation("L301", f"the dealer of this hand is {expected}, not {header.dealer}", self.dealer_rule,
                            at_hand=True)
        if dealer not in seats:
            raise Violation("L309", f"dealer {dealer} does not play this hand (seats {' '.join(seats)})", self.seed_rule,
                            at_hand=True)
        full = self.tile_set(rules)
        copies = Counter(full)
        deals: dict[str, tuple[Event, list[str]]] = {}
        wall_tiles: list[str] | None = None
        wall_event: Event | None = None
        dice_event: Event | None = None
        for ev in setup:
            if ev.verb == "deal":
                seat = deal_seat(ev, match.seats, deals, "123m456p")
                if seat not in seats:
                    raise Violation("L304", f"seat {seat} does not play this hand", arg=0, event=ev)
                try:
                    codes, _ = _tiles_args(ev, 1)
                except Violation as v:
                    v.event = ev
                    raise
                deals[seat] = (ev, codes)
            elif ev.verb == "wall":
                if wall_tiles is not None:
                    raise Violation("L306", "the wall is written twice", event=ev)
                try:
                    wall_tiles, _ = _tiles_args(ev, 0)
                except Violation as v:
                    v.event = ev
                    raise
                if UNSEEN in wall_tiles:
                    raise Violation("L305", "a written wall names every tile ('*' is not allowed in it)", arg=0, event=ev)
                wall_event = ev
            elif ev.verb == "dice":
                if dice_event is not None:
                    raise Violation("L306", "the dice are written twice", event=ev)
                dice_event = ev
                nums = [a for a in ev.args if isinstance(a, NumArg)]
                if len(nums) != self.dice_count or len(ev.args) != self.dice_count or not all(1 <= n.value <= 6 for n in nums):
                    example = " ".join(["3", "5", "2"][:self.dice_count])
                    raise Violation("L306", f"a dice line gives {'one die' if self.dice_count == 1 else f'{self.dice_count} dice, each'} 1 to 6: 'dice {example}'", arg=0, event=ev)
        located: Counter = Counter()
        for seat, (ev, codes) in deals.items():
            size = self.hand_size + (1 if seat == dealer else 0)
            if len(codes) != size:
                raise Violation("L304", f"{seat} is dealt {len(codes)} tiles; {'the dealer takes' if seat == dealer else 'each player takes'} {size}",
                                self.seed_rule, arg=0, event=ev)
            for k, code in enumerate(codes):
                if code == UNSEEN:
                    continue
                if copies[code] == 0:
                    raise Violation("L304", f"{code} is not in this game's tiles", self.seed_rule, arg=card_place(ev, k), event=ev)
                located[code] += 1
                if located[code] > copies[code]:
                    raise Violation("L304", f"more than {copies[code]} {code} in the deal", self.seed_rule, arg=card_place(ev, k), event=ev)
        dealt = self.hand_size * len(seats) + 1
        dead, replenish = self.dead_wall(rules)
        wall = Wall(len(full) - dealt - self.set_aside, dead=dead, replenish=replenish, replace_at_head=self.replace_at_head)
        if wall_tiles is not None:
            assert wall_event is not None
            if len(wall_tiles) != wall.size:
                raise Violation("L304", f"the written wall has {len(wall_tiles)} tiles; after the deal {wall.size} are left", self.seed_rule, arg=0, event=wall_event)
            total = located + Counter(wall_tiles)
            for code, n in total.items():
                if n > copies[code]:
                    raise Violation("L304", f"{n} {code} in the deal and the wall; the set has {copies[code]}", self.seed_rule, arg=0, event=wall_event)
            wall.tiles = list(wall_tiles)
        state = self.state_class(match=match, header=header, seats=seats, dealer=dealer)
        state.copies = copies
        state.located = located
        state.identity = dict(self.tile_identity(rules))
        state.wall = wall
        for seat in seats:
            size = self.hand_size + (1 if seat == dealer else 0)
            codes = deals[seat][1] if seat in deals else [UNSEEN] * size
            state.hands[seat] = Holding.of(codes)
            state.melds[seat] = []
            state.discards[seat] = []
        if wall_tiles is not None and any(h.unseen for h in state.hands.values()):
            # with the wall written, the unseen hands hold what is neither dealt nor in the wall
            hidden = [s for s in seats if state.hands[s].unseen]
            if len(hidden) == 1:
                rest = Counter(full) - located - Counter(wall_tiles)
                h = state.hands[hidden[0]]
                for code in rest.elements():
                    h.add(code)
                    located[code] += 1
                h.unseen = 0
        state.turn = dealer
        state.phase = "act"
        state.drawn = None
        state.can_tsumo = True
        return state

    dealer_rule = RULING


    # -- reading ---------------------------------------------------------------------
    def read_action(self, state: MahjongState, event: Event) -> Move:
        if event.seat is None:
            extra = self.read_extra(state, event)
            if extra is not None:
                return extra
            raise Violation("L306", f"'{event.verb}' is not a {self.id} event here: seats act as 'A: discard 7z'; "
                            f"set-up lines (deal, wall, dice) come first")
        seat = event.seat
        if seat not in state.match.seats:
            raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(state.match.seats)})")
        if seat not in state.seats:
            raise Violation("L309", f"seat {seat} does not play this hand (seats {' '.join(state.seats)})")
        verb = event.verb
        if verb is None:
            raise no_verb(self.id, event, VERBS)
        if verb not in VERBS:
            raise Violation("L306", f"{self.id} has no verb '{verb}': verbs are {', '.join(VERBS)} (e.g. 'A: discard 7z')")
        if verb == "pass":
            if event.args:
                raise Violation("L306", "'pass' takes nothing after it", arg=0)
            return Move(seat, "pass")
        if verb == "win":
            how = None
            idx = 0
            if event.args and isinstance(event.args[0], WordArg):
                how = event.args[0].text
                if how not in ("tsumo", "ron", "rob"):
                    raise Violation("L306", f"a win is 'win tsumo T', 'win ron T' or 'win rob T'; not '{how}'", arg=0)
                idx = 1
            tile = _tile_arg(event, idx, "the winning tile", allow_unseen=False)
            if len(event.args) > idx + 1:
                raise Violation("L306", "'win' takes how and one tile: 'win ron 5p'", arg=idx + 1)
            self._check_in_set(state, tile, idx)
            return Move(seat, "win", tile, how)
        if verb == "chi":
            codes, where = _tiles_args(event, 0)
            if len(codes) != 3 or UNSEEN in codes or len(event.args) != 1:
                raise Violation("L306", "a chi names its run, the claimed tile included: 'chi 123m'", arg=0)
            for k, c in enumerate(codes):
                self._check_in_set(state, c, where[k])
            return Move(seat, "chi", None, None, tuple(codes))
        if verb == "disclose":
            codes, where = _tiles_args(event, 0)
            if not codes:
                raise Violation("L306", "'disclose' names the discard made with it: 'disclose 9s'", arg=0)
            for k, c in enumerate(codes):
                if c == UNSEEN:
                    raise Violation("L305", "an unseen tile '*' cannot be disclosed", arg=where[k])
                self._check_in_set(state, c, where[k])
            return Move(seat, "disclose", codes[0], None, tuple(codes[1:]))
        tile = _tile_arg(event, 0, allow_unseen=verb == "draw")
        if len(event.args) > 1:
            raise Violation("L306", f"'{verb}' takes one tile", arg=1)
        if tile != UNSEEN:
            self._check_in_set(state, tile, 0)
        return Move(seat, verb, tile)

    def _check_in_set(self, state: MahjongState, tile: str, arg: int) -> None:
        if state.copies[tile] == 0:
            raise Violation("L305", f"{tile} is not one of this game's tiles", self.seed_rule, arg=arg)

    # -- legality helpers --------------------------------------------------------------
    def _locate(self, state: MahjongState, tile: str, arg: int | None = 0) -> None:
        """A tile becomes known somewhere: more copies than the set has is impossible."""
        state.located[tile] += 1
        if state.located[tile] > state.copies[tile]:
            state.located[tile] -= 1
            raise Violation("L301", f"all {state.copies[tile]} {tile} are already accounted for: this tile cannot be here", self.seed_rule, arg=arg)

    def _take(self, state: MahjongState, seat: str, tile: str, arg: int | None = 0) -> None:
        h = state.hands[seat]
        if h.has(tile):
            h.take(tile)
            return
        if h.unseen and state.located[tile] < state.copies[tile]:
            self._locate(state, tile, arg)
            h.take(tile)
            state.notes.append(f"{seat}'s {tile} is taken from {seat}'s unseen tiles: not checked against the deal")
            return
        raise Violation("L303", f"{seat} does not hold {tile}", self.seed_rule, arg=arg)

    def _holds(self, state: MahjongState, seat: str, tile: str, n: int) -> bool:
        """Whether ``seat`` holds (or may hold, among unseen tiles) ``n`` tiles equal to ``tile``."""
        h = state.hands[seat]
        same = state.same(tile)
        have = sum(h.known[c] for c in same)
        if have >= n:
            return True
        free = sum(state.copies[c] - state.located[c] for c in same)
        return have + min(h.unseen, free) >= n

    def _take_same(self, state: MahjongState, seat: str, tile: str, arg: int | None = 0) -> str:
        """Take a tile equal to ``tile`` for a pon or kong (``tile`` itself when held): the code taken."""
        h = state.hands[seat]
        code = next((c for c in state.same(tile) if h.has(c)), tile)
        self._take(state, seat, code, arg)
        return code

    def _known_same(self, state: MahjongState, seat: str, tile: str) -> int:
        return sum(state.hands[seat].known[c] for c in state.same(tile))

    def could_win_on(self, state: MahjongState, seat: str, tile: str, how: str) -> Win | None:
        """The win ``seat`` could make on ``tile`` now (its hand fully known), else None."""
        if not state.hand_known(seat):
            return None
        counts = state.concealed_counts(seat)
        counts[self.claim_kind(state, seat, tile)] += 1
        if not self.is_winning(state, seat, counts):
            return None
        win = self._make_win(state, seat, how, tile, counts)
        if self.may_win(state, win) is not None or self.missed_reason(state, win) is not None:
            return None
        return win

    def claim_kind(self, state: MahjongState, seat: str, tile: str) -> int:
        """The kind ``tile``, open to a win (a discard, a kong), counts as for ``seat``: its
        identity by default; a game may let a seat read a tile otherwise (赤五萬 6)."""
        return state.kind_of(tile)

    def _make_win(self, state: MahjongState, seat: str, how: str, tile: str, counts: Sequence[int]) -> Win:
        payer = None
        if how == "ron":
            payer = state.discarder
        elif how == "rob":
            payer = state.pending_kong_seat
        win = Win(seat, how, tile, payer, counts, list(state.melds[seat]), known=state.hand_known(seat))
        win.disclosed = seat in state.disclosed
        if how == "tsumo":
            win.replacement = state.from_replacement
            win.turn_kongs = state.turn_kongs
            win.last_tile = state.wall.live == 0 and state.drawn is not None
            win.first_turn = state.first_turn and state.drawn is None
        elif how == "ron":
            win.after_kong = state.discard_after_kong
        return win

    def claim_candidates(self, state: MahjongState) -> list[str]:
        """Seats that can still act on the open discard or kong (known hands), priority first."""
        if state.phase == "claim":
            tile = state.discard
            assert tile is not None and state.discarder is not None
            order = [s for s in state.order_from(state.discarder) if s not in state.passed]
            wins = [s for s in order if self.could_win_on(state, s, tile, "ron")]
            out = list(wins)
            if state.wall.live > 0 or self.pon_on_last:
                for s in order:
                    if s in out or not state.hand_known(s):
                        continue
                    if self._pon_ok(state, s, tile) or self._direct_kong_ok(state, s, tile) or self._chi_runs(state, s, tile):
                        out.append(s)
            return out
        if state.phase in ("rob", "wins"):
            if state.phase == "rob":
                tile, how = (state.pending_kong.tile if state.pending_kong else None), "rob"
            else:
                tile, how = state.wins[0].tile, state.wins[0].how
            start = state.pending_kong_seat if how == "rob" else state.discarder
            assert tile is not None and start is not None
            done = {w.seat for w in state.wins}
            return [s for s in state.order_from(start)
                    if s not in state.passed and s not in done and self.could_win_on(state, s, tile, how)]
        return []

    def _chi_runs(self, state: MahjongState, seat: str, tile: str) -> list[tuple[str, ...]]:
        """The runs ``seat`` could chi with the discard (only the next player, where chi is allowed)."""
        if (not self.may_chi or state.discarder is None or seat != state.next_seat(state.discarder)
                or not state.hand_known(seat) or seat in state.disclosed):
            return []
        k = kind(tile)
        if k >= 27:
            return []
        held = state.hands[seat].known
        out = []
        for low in (k - 2, k - 1, k):
            if low < 0 or low // 9 != k // 9 or (low + 2) // 9 != k // 9:
                continue
            run = [T.tile_code(j) for j in (low, low + 1, low + 2)]
            if all(held[c] > 0 for c in run if c != T.tile_code(k)):
                full = tuple(tile if c == T.tile_code(k) else c for c in run)
                if self.may_chi_run(state, seat, full) is None:
                    out.append(full)
        return out

    def _pon_ok(self, state: MahjongState, seat: str, tile: str) -> bool:
        return (seat != state.discarder and state.hand_known(seat) and self._known_same(state, seat, tile) >= 2
                and seat not in state.disclosed and self.may_pon(state, seat, tile) is None)

    def _direct_kong_ok(self, state: MahjongState, seat: str, tile: str) -> bool:
        return (seat != state.discarder and state.hand_known(seat) and self._known_same(state, seat, tile) >= 3
                and state.wall.can_replace() and seat not in state.disclosed
                and self.may_kong(state, seat, "kong_direct", tile) is None)

    # -- applying --------------------------------------------------------------------
    def apply(self, state: MahjongState, move: Move) -> None:
        if move.seat is None:
            if not self.apply_extra(state, move):
                raise Violation("L306", f"'{move.verb}' is not expected here")
            return
        verb = move.verb
        if state.phase == "done" and verb in ("win", "pass") and move.seat in self.late_claimants(state):
            self._apply_late(state, move)
        elif verb == "pass":
            self._apply_pass(state, move)
        elif verb == "draw":
            self._apply_draw(state, move)
        elif verb == "discard":
            self._apply_discard(state, move)
        elif verb == "disclose":
            self._require_act(state, move)
            self.on_disclose(state, move.seat, move)
        elif verb == "pon":
            self._apply_pon(state, move)
        elif verb == "chi":
            self._apply_chi(state, move)
        elif verb == "kong":
            self._apply_kong(state, move)
        elif verb == "win":
            self._apply_win(state, move)
        else:  # pragma: no cover - read_action guards
            raise Violation("L306", f"unknown verb {verb}")

    def _who(self, state: MahjongState) -> str:
        return self.to_act(state) or "nobody"

    def _require_act(self, state: MahjongState, move: Move) -> None:
        if state.phase != "act" or move.seat != state.turn:
            if state.phase == "wins" and state.wins:
                raise Violation("L302", f"{move.seat} cannot {move.verb} now: {state.wins[0].seat} has won on {state.wins[0].tile}, and the others may still win on it", self.seed_rule)
            if state.phase in ("claim", "rob"):
                raise Violation("L302", f"{move.seat} cannot {move.verb} now: a claim on {state.discard or (state.pending_kong.tile if state.pending_kong else '')} is open and {state.turn if state.phase != 'claim' else state.next_seat(state.discarder or state.turn)} draws next", self.seed_rule)
            raise Violation("L302", f"it is {self._who(state)}'s turn to {self._phase_word(state)}, not {move.seat}'s to {move.verb}", self.seed_rule)

    @staticmethod
    def _phase_word(state: MahjongState) -> str:
        return {"act": "discard", "draw": "draw", "replace": "draw a replacement tile", "horses": "draw horses"}.get(state.phase, "act")

    # -- missed wins (見逃し, furiten): one mechanism, the game's MissedWinRule as parameters --
    def _close_claims(self, state: MahjongState) -> None:
        """The claim window on a discard closes (a draw, a pon, chi or kong): every seat but the
        discarder that could have won on it and did not has missed it, the claimer included."""
        if state.phase == "claim" and state.discard is not None:
            for s in state.order_from(state.discarder or state.turn):
                if s not in state.passed:
                    self._note_missed(state, s, state.discard, "ron")
        state.passed = set()

    def _close_rob(self, state: MahjongState) -> None:
        """The konger's replacement draw closes the window on his added kong: who could have
        robbed it and did not has missed that win (a written pass recorded it already)."""
        assert state.pending_kong is not None and state.pending_kong_seat is not None
        for s in state.order_from(state.pending_kong_seat):
            if s not in state.passed:
                self._note_missed(state, s, state.pending_kong.tile, "rob")

    def _note_missed(self, state: MahjongState, seat: str, tile: str, how: str) -> None:
        if self.missed_rule(state.match.rules) is None:  # no missed-win rule: nothing to look for
            return
        win = self.could_win_on(state, seat, tile, how)
        if win is not None:
            self.missed_win(state, seat, win)

    def missed_win(self, state: MahjongState, seat: str, win: Win) -> None:
        """``seat`` let ``win`` go by: the restriction starts (or rises to the higher value)."""
        if self.missed_rule(state.match.rules) is None:
            return
        value = self.missed_value(state, win)
        if value is not None:
            state.missed[seat] = max(state.missed.get(seat, value), value)
            if self.missed_lasts(state, seat):
                state.missed_for_hand.add(seat)

    def clear_missed(self, state: MahjongState, seat: str, why: str) -> None:
        """The restriction on ``seat`` ends, if the rule says so: ``why`` is ``draw`` (any draw
        on his own turn, a replacement included) or ``skip`` (a pon or kong passed over him)."""
        rule = self.missed_rule(state.match.rules)
        if rule is None or seat in state.missed_for_hand:
            return
        if (why == "draw" and rule.ends_at_own_draw) or (why == "skip" and rule.ends_when_skipped):
            state.missed.pop(seat, None)

    def missed_reason(self, state: MahjongState, win: Win) -> str | None:
        """Why a missed win forbids this one (None: it does not). Self-draws are never barred."""
        if win.how == "tsumo" or win.seat not in state.missed:
            return None
        rule = self.missed_rule(state.match.rules)
        if rule is None:
            return None
        missed = state.missed[win.seat]
        if rule.unless_higher:
            value = self.missed_value(state, win)
            if value is not None and value > missed:
                return None
            until = "for the rest of the hand" if win.seat in state.missed_for_hand else "and has not drawn since"
            return (f"{win.seat} let a win go by (worth {missed} {rule.unit}) {until}: only a hand scoring more may win "
                    f"(this one: {value})")
        until = "for the rest of the hand" if win.seat in state.missed_for_hand else "since his last draw"
        return f"{win.seat} let a win go by {until}: no win on a discard or a kong until then"

    def _skip_turns(self, state: MahjongState, from_seat: str, to_seat: str) -> None:
        """A pon or kong from ``from_seat``'s discard by ``to_seat`` skips the seats between."""
        for s in state.order_from(from_seat):
            if s == to_seat:
                break
            self.clear_missed(state, s, "skip")

    def _apply_pass(self, state: MahjongState, move: Move) -> None:
        seat = move.seat
        assert seat is not None
        if state.phase not in ("claim", "rob", "wins"):
            raise Violation("L301", f"{seat} has nothing to pass on: no discard or kong is open to claims", self.seed_rule)
        if seat == state.discarder and state.phase == "claim" or (state.phase == "rob" and seat == state.pending_kong_seat):
            raise Violation("L301", f"{seat} cannot pass on its own tile", self.seed_rule)
        must = self.must_claim(state) if state.phase == "claim" else None
        if must and must[0] == seat:
            raise Violation("L301", must[1], self.seed_rule)
        tile = state.discard if state.phase != "rob" else state.pending_kong.tile  # type: ignore[union-attr]
        how = "rob" if state.phase == "rob" else "ron"
        if state.phase == "wins" and state.wins and state.wins[0].how == "rob":
            how = "rob"
        assert tile is not None
        self._note_missed(state, seat, tile, how)
        state.passed.add(seat)
        if state.phase == "wins":
            self._maybe_finish_wins(state)

    def _apply_draw(self, state: MahjongState, move: Move) -> None:
        seat = move.seat
        assert seat is not None and move.tile is not None
        if state.phase == "claim":
            assert state.discarder is not None
            nxt = state.next_seat(state.discarder)
            if seat != nxt:
                raise Violation("L302", f"{nxt} draws next, not {seat}", self.seed_rule)
            must = self.must_claim(state)
            if must:
                raise Violation("L301", must[1], self.seed_rule)
            if state.wall.live == 0:
                raise Violation("L301", "the wall is empty: there is nothing to draw (the hand is drawn)", self.seed_rule)
            self._close_claims(state)
            state.turn = seat
            end = "head"
        elif state.phase == "rob":
            if seat != state.pending_kong_seat:
                raise Violation("L302", f"{state.pending_kong_seat} draws the kong replacement tile, not {seat}", self.seed_rule)
            self._close_rob(state)
            self._commit_added_kong(state)
            end = "tail"
        elif state.phase in ("draw", "replace"):
            if seat != state.turn:
                raise Violation("L302", f"it is {state.turn}'s turn to draw, not {seat}'s", self.seed_rule)
            end = "head" if state.phase == "draw" else "tail"
        else:
            raise Violation("L302" if seat != state.turn else "L301",
                            f"{seat} cannot draw now: {self._who(state)} is to {self._phase_word(state)}", self.seed_rule)
        if (state.wall.live == 0) if end == "head" else not state.wall.can_replace():
            raise Violation("L301", "the wall is empty: there is nothing to draw", self.seed_rule)
        expected = state.wall.take(end)
        tile = move.tile
        if expected != UNSEEN:
            if tile != UNSEEN and tile != expected:
                state.wall.untake(end)
                raise Violation("L301", f"the wall gives {seat} {expected} here, not {tile}", RULING)
            tile = expected
            state.hands[seat].add(tile)
            state.located[tile] += 1  # the written wall's tiles are checked at the start
        else:
            if tile != UNSEEN:
                self._locate(state, tile)
            state.hands[seat].add(tile)
        self.clear_missed(state, seat, "draw")
        if end == "head":
            state.turn_kongs = 0
            state.chain = 0
            state.from_replacement = False
        else:
            state.from_replacement = True
        state.drawn = tile
        state.can_tsumo = True
        state.after_pon = False
        state.first_turn = False
        state.phase = "act"
        state.turn = seat

    def _apply_discard(self, state: MahjongState, move: Move) -> None:
        self._require_act(state, move)
        seat, tile = move.seat, move.tile
        assert seat is not None and tile is not None
        self.check_discard(state, seat, tile)
        self._take(state, seat, tile)
        self._discard_done(state, seat, tile)

    def check_discard(self, state: MahjongState, seat: str, tile: str) -> None:
        """Game restrictions on a discard (Kawuxing's locked disclosed hand)."""

    def _discard_done(self, state: MahjongState, seat: str, tile: str) -> None:
        state.discards[seat].append(tile)
        state.discard = tile
        state.discarder = seat
        state.discard_after_kong = state.turn_kongs > 0
        state.discard_chain = state.chain if state.turn_kongs > 0 else 0
        state.phase = "claim"
        state.passed = set()
        state.drawn = None
        state.first_turn = False

    def _claim_checks(self, state: MahjongState, move: Move) -> str:
        seat, tile = move.seat, move.tile
        assert seat is not None and tile is not None
        if state.phase != "claim":
            raise Violation("L301", f"{seat} cannot {move.verb} {tile}: no discard is open to claims", self.seed_rule)
        if seat == state.discarder:
            raise Violation("L301", f"{seat} cannot claim its own discard", self.seed_rule)
        if tile != state.discard:
            raise Violation("L301", f"the discard is {state.discard}, not {tile}", self.seed_rule)
        if seat in state.passed:
            raise Violation("L301", f"{seat} passed on this discard", self.seed_rule)
        if seat in state.disclosed:
            raise Violation("L301", f"{seat}'s hand is disclosed (亮倒): it may only win", self.seed_rule)
        return seat

    def _apply_pon(self, state: MahjongState, move: Move) -> None:
        seat = self._claim_checks(state, move)
        tile = move.tile
        assert tile is not None and state.discarder is not None
        if state.wall.live == 0 and not self.pon_on_last:
            raise Violation("L301", "no pon on the last discard: the wall is empty", RULING)
        if not self._holds(state, seat, tile, 2):
            raise Violation("L303", f"{seat} does not hold two {tile} to pon", self.seed_rule)
        why = self.may_pon(state, seat, tile)
        if why:
            raise Violation("L301", why, self.seed_rule)
        must = self.must_claim(state)
        if must and must[0] != seat:
            raise Violation("L301", must[1], self.seed_rule)
        self._close_claims(state)
        self._take_same(state, seat, tile)
        self._take_same(state, seat, tile)
        state.discards[state.discarder].pop()
        state.melds[seat].append(Meld("pon", state.meld_tile(tile), state.discarder))
        self._skip_turns(state, state.discarder, seat)
        self._claimer_to_act(state, seat)

    @staticmethod
    def _claimer_to_act(state: MahjongState, seat: str) -> None:
        """After a pon or chi the claimer discards next, without a draw (a turn begun by a claim)."""
        state.turn = seat
        state.phase = "act"
        state.drawn = None
        state.can_tsumo = False
        state.after_pon = True
        state.turn_kongs = 0
        state.chain = 0
        state.from_replacement = False

    def _apply_chi(self, state: MahjongState, move: Move) -> None:
        seat = move.seat
        assert seat is not None
        if not self.may_chi:
            raise Violation("L301", f"{self.id} has no chi: only pon and kong claim a discard", self.no_chi_rule or self.seed_rule)
        tile = state.discard
        if state.phase != "claim" or tile is None:
            raise Violation("L301", f"{seat} cannot chi: no discard is open to claims", self.seed_rule)
        self._claim_checks(state, Move(seat, "chi", tile))
        assert tile is not None and state.discarder is not None
        if seat != state.next_seat(state.discarder):
            raise Violation("L301", f"only {state.next_seat(state.discarder)}, the next player, may chi {state.discarder}'s discard", self.seed_rule)
        run = sorted(move.tiles, key=kind)
        ks = [kind(t) for t in run]
        if ks[0] >= 27 or ks[0] // 9 != ks[2] // 9 or ks != [ks[0], ks[0] + 1, ks[0] + 2]:
            raise Violation("L301", f"{''.join(move.tiles)} is not a run of one suit", self.seed_rule, arg=0)
        if tile not in run:
            raise Violation("L301", f"the chi must use the discard {tile}", self.seed_rule, arg=0)
        if state.wall.live == 0 and not self.pon_on_last:
            raise Violation("L301", "no chi on the last discard: the wall is empty", RULING)
        rest = list(run)
        rest.remove(tile)
        for t in rest:
            if not self._holds(state, seat, t, 1):
                raise Violation("L303", f"{seat} does not hold {t} for the chi", self.seed_rule, arg=0)
        why = self.may_chi_run(state, seat, tuple(run))
        if why:
            raise Violation("L301", why, self.seed_rule, arg=0)
        self._close_claims(state)
        for t in rest:
            self._take(state, seat, t)
        state.discards[state.discarder].pop()
        state.melds[seat].append(Meld("chi", run[0], state.discarder, tuple(run)))
        self._claimer_to_act(state, seat)

    def _apply_kong(self, state: MahjongState, move: Move) -> None:
        seat, tile = move.seat, move.tile
        assert seat is not None and tile is not None
        if state.phase == "claim":
            self._claim_checks(state, move)
            assert state.discarder is not None
            if not self._holds(state, seat, tile, 3):
                raise Violation("L303", f"{seat} does not hold three {tile} to kong the discard", self.seed_rule)
            self._kong_room(state)
            why = self.may_kong(state, seat, "kong_direct", tile)
            if why:
                raise Violation("L301", why, self.seed_rule)
            chain = state.discard_chain + 1 if state.discard_after_kong else 1
            self._close_claims(state)
            for _ in range(3):
                self._take_same(state, seat, tile)
            discarder = state.discarder
            state.discards[discarder].pop()
            meld = Meld("kong_direct", state.meld_tile(tile), discarder)
            state.melds[seat].append(meld)
            self._skip_turns(state, discarder, seat)
            state.turn = seat
            state.turn_kongs = 1
            state.chain = chain
            state.after_pon = False
            self.on_kong(state, seat, meld, chain)
            state.phase = "replace"
            return
        self._require_act(state, move)
        if seat in state.disclosed:
            raise Violation("L301", f"{seat}'s hand is disclosed (亮倒): no kong afterwards", self.disclose_rule)
        self._kong_room(state)
        chain = state.chain + 1 if state.turn_kongs > 0 else 1
        pon = next((m for m in state.melds[seat] if m.kind == "pon" and m.tile in state.same(tile)), None)
        if pon is not None:
            if not self._holds(state, seat, tile, 1):
                raise Violation("L303", f"{seat} does not hold the fourth {tile} to add to the pon", self.seed_rule)
            why = self.may_kong(state, seat, "kong_added", pon.tile)
            if why:
                raise Violation("L301", why, self.seed_rule)
            self._take_same(state, seat, tile)
            state.pending_kong = pon
            state.pending_kong_seat = seat
            state.discard = None
            state.phase = "rob"
            state.passed = set()
            state.turn_kongs += 1
            state.chain = chain
            state.can_tsumo = False
            return
        if not self._holds(state, seat, tile, 4):
            raise Violation("L303", f"{seat} does not hold four {tile} for a concealed kong (nor a pon of it)", self.seed_rule)
        why = self.may_kong(state, seat, "kong_concealed", tile)
        if why:
            raise Violation("L301", why, self.seed_rule)
        for _ in range(4):
            self._take_same(state, seat, tile)
        meld = Meld("kong_concealed", state.meld_tile(tile), None)
        state.melds[seat].append(meld)
        state.turn_kongs += 1
        state.chain = chain
        self.on_kong(state, seat, meld, chain)
        state.phase = "replace"
        state.can_tsumo = False

    def _kong_room(self, state: MahjongState) -> None:
        if not state.wall.can_replace():
            raise Violation("L301", "no kong without a replacement tile: the wall is empty", self.seed_rule)

    def _commit_added_kong(self, state: MahjongState) -> None:
        meld = state.pending_kong
        seat = state.pending_kong_seat
        assert meld is not None and seat is not None
        meld.kind = "kong_added"
        state.pending_kong = None
        state.pending_kong_seat = None
        state.passed = set()
        self.on_kong(state, seat, meld, state.chain)

    def _apply_win(self, state: MahjongState, move: Move) -> None:
        seat, tile, how = move.seat, move.tile, move.how
        assert seat is not None and tile is not None
        if state.phase == "act":
            self._require_act(state, move)  # another seat's turn (a pon took the discard): out of turn
            if how not in (None, "tsumo"):
                raise Violation("L301", f"{seat} wins on its own draw here: 'win tsumo {tile}'", self.seed_rule)
            if not state.can_tsumo:
                raise Violation("L301", f"{seat} has drawn no tile this turn: a win by self-draw is not possible", self.seed_rule)
            if state.drawn not in (None, UNSEEN) and tile != state.drawn:
                raise Violation("L301", f"{seat} drew {state.drawn}: a self-drawn win is on the tile drawn, not {tile}", self.seed_rule)
            h = state.hands[seat]
            if state.drawn == UNSEEN and h.unseen:
                # the unseen tile just drawn is the winning tile
                self._locate(state, tile)
                h.unseen -= 1
                h.known[tile] += 1
                state.drawn = tile
            elif not h.has(tile):
                if h.unseen and state.located[tile] < state.copies[tile]:
                    self._locate(state, tile)
                    h.take(tile)
                    h.add(tile)
                    state.notes.append(f"{seat}'s winning {tile} was not seen: not checked")
                else:
                    raise Violation("L303", f"{seat} does not hold {tile}", self.seed_rule)
            counts = state.concealed_counts(seat)
            win = self._make_win(state, seat, "tsumo", tile, counts)
        else:
            if state.phase == "claim":
                expected_how, open_tile = "ron", state.discard
                if seat == state.discarder:
                    raise Violation("L301", f"{seat} cannot win on its own discard", self.seed_rule)
            elif state.phase == "rob":
                expected_how, open_tile = "rob", state.pending_kong.tile if state.pending_kong else None
                if seat == state.pending_kong_seat:
                    raise Violation("L301", f"{seat} cannot rob its own kong", self.seed_rule)
            elif state.phase == "wins":
                expected_how = state.wins[0].how
                open_tile = state.wins[0].tile
                if seat in {w.seat for w in state.wins} or seat == state.wins[0].payer:
                    raise Violation("L301", f"{seat} cannot win again on {open_tile}", self.seed_rule)
            elif (state.phase == "replace" and state.turn_kongs and state.melds[state.turn]
                  and state.melds[state.turn][-1].kind == "kong_concealed" and state.melds[state.turn][-1].tile == tile):
                raise Violation("L301", self.concealed_rob_words(state), self.seed_rule)
            else:
                raise Violation("L302", f"{seat} cannot win now: {self._who(state)} is to {self._phase_word(state)}", self.seed_rule)
            if how not in (None, expected_how):
                raise Violation("L301", f"this win is 'win {expected_how} {open_tile}', not 'win {how}'", self.seed_rule)
            if tile != open_tile:
                raise Violation("L301", f"the tile open to a win is {open_tile}, not {tile}", self.seed_rule)
            if seat in state.passed:
                raise Violation("L301", f"{seat} passed on {tile}", self.seed_rule)
            counts = state.concealed_counts(seat)
            counts[self.claim_kind(state, seat, tile)] += 1
            win = self._make_win(state, seat, expected_how, tile, counts)
        if win.known:
            if not self.is_winning(state, seat, win.concealed):
                raise Violation("L301", f"{seat}'s hand with {tile} is not a winning hand ({self.shape_words})", self.seed_rule)
            why = self.may_win(state, win)
            if why:
                raise Violation("L301", why, getattr(why, "rule", None) or self.seed_rule)
            why = self.missed_reason(state, win)
            if why:
                rule = self.missed_rule(state.match.rules)
                raise Violation("L301", why, rule.source if rule else self.seed_rule)
        else:
            state.notes.append(f"{seat}'s winning hand was not seen: the win is taken on trust")
        if state.phase == "claim":
            self._skip_turns(state, state.discarder or seat, seat)
            state.discards[state.discarder].pop()  # type: ignore[index]
            state.phase = "wins"
            state.passed = set()
        elif state.phase == "rob":
            state.phase = "wins"
            state.passed = set()
            # the kong is robbed: it is not a kong (the pon stays a pon)
        state.wins.append(win)
        state.turn = seat
        if win.how == "tsumo":
            state.phase = "done"
            state.over = True
            self.after_win(state, win)
            return
        self.after_win(state, win)
        self._maybe_finish_wins(state)

    shape_words = "four sets and a pair"

    def concealed_rob_words(self, state: MahjongState) -> str:
        """Why a concealed kong cannot be robbed (only an added kong can)."""
        return f"{state.turn}'s concealed kong cannot be robbed: only a kong added to a pon can"

    def _maybe_finish_wins(self, state: MahjongState) -> None:
        rules = state.match.rules
        if rules.get(self.multi_ron_option, "all") == "head_bump" or not self.claim_candidates(state):
            state.phase = "done"
            state.over = True

    # -- after the hand's natural end: late wins by hands the scribe did not see ----------
    def several_winners(self, state: MahjongState) -> bool:
        """Whether more than one seat may win on one discard or robbed kong (not head-bump)."""
        return state.match.rules.get(self.multi_ron_option, "all") != "head_bump"

    def late_claimants(self, state: MahjongState) -> list[str]:
        """The seats, in turn order from the discarder (or konger), that may still write a win
        or a pass on the tile the hand ended on: the replay ends a hand when no hand it sees
        can win on the last discard, or on a won discard or robbed kong, but a hand with unseen
        tiles may win there too (taken on trust) until the hand's score line. On a tile
        already won on only where the game lets several win on one tile (not head-bump)."""
        if state.score_written:
            return []
        if state.phase == "claim" and not state.over and state.wall.live == 0 and state.discarder is not None:
            start, won = state.discarder, set()  # the last discard, nobody seen able to win on it
        elif ((state.phase == "wins" and not state.over) or (state.phase == "done" and state.over)) \
                and state.wins and state.wins[0].how != "tsumo" and state.wins[0].payer is not None \
                and self.several_winners(state):
            start, won = state.wins[0].payer, {w.seat for w in state.wins}
        else:
            return []
        return [s for s in state.order_from(start) if s not in won and s not in state.passed and not state.hand_known(s)]

    def accepts_after_end(self, state: MahjongState, event: Event) -> bool:
        """A win or a pass written after the hand's natural end by a seat the replay did not
        wait for (``late_claimants``)."""
        return event.verb in ("win", "pass") and event.seat is not None and event.seat in self.late_claimants(state)

    def _apply_late(self, state: MahjongState, move: Move) -> None:
        """A late win or pass on a tile whose wins had closed: the wins phase opens again for
        it and closes as before (on an error the hand stays as it was)."""
        state.phase, state.over = "wins", False
        try:
            if move.verb == "win":
                self._apply_win(state, move)
            else:
                self._apply_pass(state, move)
        except Violation:
            state.phase, state.over = "done", True
            raise

    def check_written(self, state: MahjongState, settlement: Settlement, events: list[Event]) -> list[tuple[Event, str, str]]:
        """Called at the hand's score line: no late win belongs to the hand after it."""
        state.score_written = True
        return []

    # -- state queries -----------------------------------------------------------------
    def _auto_closed(self, state: MahjongState) -> bool:
        """A claim window on the last discard with nobody able to claim: the hand is drawn."""
        if state.phase == "claim" and state.wall.live == 0:
            return not self.claim_candidates(state)
        if state.phase == "wins":
            return not self.claim_candidates(state)
        return False

    def hand_over(self, state: MahjongState) -> bool:
        return state.over or self._auto_closed(state)

    def exhausted(self, state: MahjongState) -> bool:
        return not state.wins and self.hand_over(state)

    def to_act(self, state: MahjongState) -> str | None:
        if self.hand_over(state):
            return None
        if state.phase == "claim":
            cands = self.claim_candidates(state)  # wins first, then pon and kong
            if cands:
                return cands[0]
            must = self.must_claim(state)
            if must:
                return must[0]
            assert state.discarder is not None
            return state.next_seat(state.discarder)
        if state.phase in ("rob", "wins"):
            cands = self.claim_candidates(state)
            if cands:
                return cands[0]
            return state.pending_kong_seat if state.phase == "rob" else None
        return state.turn

    def settle(self, state: MahjongState) -> Settlement:
        if not self.hand_over(state):
            raise Violation("L307", "the hand is not over")
        return self.settle_hand(state)

    # -- legal actions -------------------------------------------------------------------
    def legal_actions(self, state: MahjongState) -> list[Move]:
        if self.hand_over(state):
            return []
        if state.phase == "horses":
            return self.horses_actions(state)
        seat = self.to_act(state)
        if seat is None:
            return []
        if state.phase == "claim":
            return self._claim_actions(state, seat)
        if state.phase in ("rob", "wins"):
            cands = self.claim_candidates(state)
            if cands and cands[0] == seat:
                tile = state.pending_kong.tile if state.phase == "rob" and state.pending_kong else state.wins[0].tile if state.wins else state.discard
                how = "rob" if state.phase == "rob" else state.wins[0].how
                return [Move(seat, "win", tile, how), Move(seat, "pass")]
            return [Move(seat, "draw", self._next_tile(state, "tail"))]
        if state.phase in ("draw", "replace"):
            return [Move(seat, "draw", self._next_tile(state, "head" if state.phase == "draw" else "tail"))]
        return self._act_actions(state, seat)

    def horses_actions(self, state: MahjongState) -> list[Move]:
        return []

    def _next_tile(self, state: MahjongState, end: str) -> str:
        got = state.wall.peek(end, 1)
        return got[0] if got else UNSEEN

    def _claim_actions(self, state: MahjongState, seat: str) -> list[Move]:
        tile = state.discard
        assert tile is not None and state.discarder is not None
        nxt = state.next_seat(state.discarder)
        must = self.must_claim(state)
        out: list[Move] = []
        cands = self.claim_candidates(state)
        if seat in cands or (must and must[0] == seat):
            if self.could_win_on(state, seat, tile, "ron"):
                out.append(Move(seat, "win", tile, "ron"))
            if self._direct_kong_ok(state, seat, tile):
                out.append(Move(seat, "kong", tile))
            if self._pon_ok(state, seat, tile) and (state.wall.live > 0 or self.pon_on_last):
                out.append(Move(seat, "pon", tile))
            if state.wall.live > 0 or self.pon_on_last:
                out.extend(Move(seat, "chi", tile, None, run) for run in self._chi_runs(state, seat, tile))
            if not (must and must[0] == seat):
                out.append(Move(seat, "pass"))
            return out
        if state.wall.live > 0:
            return [Move(nxt, "draw", self._next_tile(state, "head"))]
        return []

    def _act_actions(self, state: MahjongState, seat: str) -> list[Move]:
        h = state.hands[seat]
        if h.unseen:
            return []
        out: list[Move] = []
        counts = state.concealed_counts(seat)
        if state.can_tsumo and self.is_winning(state, seat, counts):
            tile = state.drawn if state.drawn not in (None, UNSEEN) else None
            candidates = [tile] if tile else sorted(set(h.cards()))
            for t in candidates:
                win = self._make_win(state, seat, "tsumo", t, counts)
                if self.may_win(state, win) is None:
                    out.append(Move(seat, "win", t, "tsumo"))
                    break
        if seat not in state.disclosed and state.wall.can_replace():
            offered: set[str] = set()
            for code in sorted(set(h.cards())):
                same = state.same(code)
                if any(c in offered for c in same):
                    continue  # a red five and its plain five: one kong
                n = self._known_same(state, seat, code)
                plain = min(same, key=lambda c: (T.is_red(c), c))  # the plain tile names the kong
                if n == 4 and self.may_kong(state, seat, "kong_concealed", plain) is None:
                    out.append(Move(seat, "kong", plain))
                    offered.add(plain)
                pon = next((m for m in state.melds[seat] if m.kind == "pon" and m.tile in same), None)
                if pon is not None and self.may_kong(state, seat, "kong_added", pon.tile) is None:
                    out.append(Move(seat, "kong", pon.tile))
                    offered.add(pon.tile)
        out.extend(self.discard_actions(state, seat))
        return out

    def discard_actions(self, state: MahjongState, seat: str) -> list[Move]:
        return [Move(seat, "discard", c) for c in T.sort_codes(set(state.hands[seat].cards()))]

    # -- unseen tiles (the scribe) ---------------------------------------------------------
    def unseen_candidates(self, state: MahjongState, seat: str) -> Counter:
        """Every tile of the set not known to be somewhere (a seen hand, a meld, a discard, a
        known place of the wall), as many times as copies are left."""
        if not state.hands[seat].unseen:
            return Counter()
        return Counter({t: n - state.located[t] for t, n in state.copies.items() if n > state.located[t]})

    def unseen_actions(self, state: MahjongState) -> list[Move]:
        """For hands not wholly seen: the seat to play discards any tile it could hold, makes a
        concealed or added kong it could make, or wins by self-draw (on the drawn tile, or on
        any tile it could have drawn unseen); on an open discard or added kong, every such seat
        that has not passed may claim what it could hold (win, kong, pon, chi). A game's own
        declarations (riichi, 亮倒, nuki, ...) are not guessed: the scribe writes them."""
        if self.hand_over(state) or state.phase == "horses":
            return []
        out: list[Move] = []
        drawer = self._unseen_drawer(state)
        if drawer is not None:  # the next wall tile is unseen: the scribe may name what was drawn
            wall = Counter({t: n - state.located[t] for t, n in state.copies.items() if n > state.located[t]})
            out += [Move(drawer, "draw", t) for t in T.sort_codes(wall)]
        if state.phase == "act" and not state.hand_known(state.turn):
            seat = state.turn
            h = state.hands[seat]
            could = T.sort_codes(set(h.cards()) | set(self.unseen_candidates(state, seat)))
            out += [Move(seat, "discard", t) for t in could]
            if seat not in state.disclosed and state.wall.can_replace():
                out += [Move(seat, "kong", t) for t in could if self._holds(state, seat, t, 4)]
                out += [Move(seat, "kong", m.tile) for m in state.melds[seat]
                        if m.kind == "pon" and self._holds(state, seat, m.tile, 1)]
            if state.can_tsumo:
                drawn = state.drawn
                tiles = [drawn] if drawn not in (None, UNSEEN) else T.sort_codes(self.unseen_candidates(state, seat))
                out += [Move(seat, "win", t, "tsumo") for t in tiles if t is not None]
        elif state.phase == "claim" and state.discard is not None and state.discarder is not None:
            tile = state.discard
            room = state.wall.live > 0 or self.pon_on_last
            for seat in state.order_from(state.discarder):
                if seat in state.passed or state.hand_known(seat):
                    continue
                out.append(Move(seat, "win", tile, "ron"))
                if seat in state.disclosed:
                    continue
                if state.wall.can_replace() and self._holds(state, seat, tile, 3):
                    out.append(Move(seat, "kong", tile))
                if room and self._holds(state, seat, tile, 2):
                    out.append(Move(seat, "pon", tile))
                if room and self.may_chi and seat == state.next_seat(state.discarder):
                    out += [Move(seat, "chi", tile, None, run) for run in self._unseen_chi_runs(state, seat, tile)]
        elif state.phase == "rob" and state.pending_kong is not None and state.pending_kong_seat is not None:
            out += [Move(seat, "win", state.pending_kong.tile, "rob") for seat in state.order_from(state.pending_kong_seat)
                    if seat not in state.passed and not state.hand_known(seat)]
        return out

    def _unseen_drawer(self, state: MahjongState) -> str | None:
        """The seat whose draw ``legal_actions`` offers from an unseen place of the wall."""
        draws = [m for m in self.legal_actions(state) if m.verb == "draw" and m.tile == UNSEEN]
        return draws[0].seat if draws else None

    def _unseen_chi_runs(self, state: MahjongState, seat: str, tile: str) -> list[tuple[str, ...]]:
        """The runs through ``tile`` whose two other tiles ``seat`` could hold."""
        k = kind(tile)
        if k >= 27:
            return []
        out = []
        for low in (k - 2, k - 1, k):
            if low < 0 or low // 9 != k // 9 or (low + 2) // 9 != k // 9:
                continue
            run = tuple(tile if j == k else T.tile_code(j) for j in (low, low + 1, low + 2))
            if all(self._holds(state, seat, t, 1) for t in run if t != tile):
                out.append(run)
        return out

    # -- events ----------------------------------------------------------------------
    def event_for(self, state: MahjongState, action: Move) -> Event:
        if action.seat is None:
            return Event(verb=action.verb, args=[CardsArg(cards=list(action.tiles))] if action.tiles else [])
        args: list = []
        if action.verb == "win":
            args.append(WordArg(text=action.how or "tsumo"))
        if action.tile is not None and action.verb != "chi":
            args.append(CardsArg(cards=[action.tile]))
        if action.tiles:
            args.append(CardsArg(cards=list(action.tiles)))
        return Event(seat=action.seat, verb=action.verb, args=args)

    # -- views -----------------------------------------------------------------------
    def view(self, state: MahjongState, seat: str | None) -> TableView:
        seats = []
        for s in state.seats:
            h = state.hands[s]
            show = seat is None or seat == s or s in state.disclosed or (state.over and any(w.seat == s for w in state.wins))
            if show:
                hand = Zone("hand", T.sort_codes(h.cards()), hidden=h.unseen, layout="row")
            else:
                hand = Zone("hand", [], hidden=len(h), layout="row")
            melds = []
            for m in state.melds[s]:
                if m.kind == "kong_concealed" and not (seat is None or seat == s or state.over):
                    melds.append([UNSEEN, m.tile, m.tile, UNSEEN])
                else:
                    melds.append(m.codes())
            zones = [hand, Zone("melds", [c for g in melds for c in g], groups=melds, layout="melds"),
                     Zone("discards", list(state.discards[s]), layout="row")]
            labels = []
            if s == state.dealer:
                labels.append("dealer")
            labels.append("ESWN"[wind_of(state.seats, state.dealer, s)] if len(state.seats) == 4 else "")
            if s in state.disclosed:
                labels.append("亮倒")
            if any(w.seat == s for w in state.wins):
                labels.append("win")
            seats.append(SeatView(s, zones, score=state.match.totals.get(s, 0), to_act=s == self.to_act(state),
                                  labels=[x for x in labels if x]))
        center = [Zone("wall", [], hidden=state.wall.live, layout="count")]
        if state.discard and state.phase == "claim":
            center.append(Zone("discard", [state.discard], layout="row"))
        if state.horses:
            center.append(Zone("horses", list(state.horses), layout="row"))
        info = {"wall": str(state.wall.live), "phase": state.phase}
        return TableView("tiles", seats, center, info)

    def seat_view(self, state: MahjongState, seat: str) -> Seen:
        visible = state.concealed_counts(seat)
        for s in state.seats:
            for m in state.melds[s]:
                if m.kind != "kong_concealed" or s == seat:
                    visible[state.kind_of(m.tile)] += 4 if m.is_kong else 3
            for d in state.discards[s]:
                visible[state.kind_of(d)] += 1
        kinds = sorted({state.kind_of(c) for c in state.copies})
        others_pons = tuple(sorted({state.kind_of(m.tile) for s in state.others(seat) for m in state.melds[s] if m.kind == "pon"}))
        return Seen(seat, state.concealed_counts(seat), len(state.melds[seat]), visible, state.wall.live,
                    seat in state.disclosed, kinds, dict(state.match.rules), others_pons, dict(state.identity))

    # -- selfplay --------------------------------------------------------------------
    def deal_hand(self, match: Match, number: int, rng: random.Random) -> Hand:
        header = HandHeader(number, None, {})
        seats = self.active_seats(match, header)
        dealer = self.expected_dealer(match) or seats[0]
        full = self.tile_set(match.rules)
        rng.shuffle(full)
        events: list[Event] = []
        pos = 0
        for s in seats:
            n = self.hand_size + (1 if s == dealer else 0)
            events.append(Event(verb="deal", args=[SeatArg(seat=s), CardsArg(cards=T.sort_codes(full[pos:pos + n]))]))
            pos += n
        events.append(Event(verb="wall", args=[CardsArg(cards=full[pos:])]))
        return Hand(args=[NumArg(value=number), OptionArg(key="dealer", value=dealer), *self.hand_line_extra(match, header)],
                    events=events)

    def hand_line_extra(self, match: Match, header: HandHeader) -> list:
        return []

    def choose(self, seen: Seen, legal: list[Move], rng: random.Random) -> Move:
        return choose_toward_win(seen, legal, rng, self.shanten_of)

    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """``paifu selfplay --aim``: the game's ``aim_hand`` (the dealer's dealt tiles toward
        a hand pattern) stacked into an ordinary shuffle: the same tile set, dealt as usual."""
        tiles = self.aim_hand(match.rules, aim, rng)
        if tiles is None:
            return None
        tail = self.aim_tail(match.rules, aim, tiles)
        seats = self.active_seats(match, HandHeader(number, None, {}))
        dealer = self.expected_dealer(match) or seats[0]
        at = sum(self.hand_size + (1 if s == dealer else 0) for s in seats[:seats.index(dealer)])

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            rest = list(pack)
            for t in list(tiles) + tail:
                rest.remove(t)
            return rest[:at] + list(tiles) + rest[at:] + tail

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_stack(self, match: Match, number: int, rng: random.Random, hands: Sequence[Sequence[str]],
                  wall: Sequence[str | None] = ()) -> Hand:
        """A deal stacked for ``paifu selfplay --aim`` at a whole table: ``hands[i]`` (some of)
        the tiles of the i-th seat in turn order from the dealer, ``wall`` the live wall's
        first tiles in drawing order (None: any tile); the rest of an ordinary shuffle fills
        around them, and the game's own ``deal_hand`` deals the pack."""
        seats = self.active_seats(match, HandHeader(number, None, {}))
        dealer = self.expected_dealer(match) or seats[0]
        turn = seats[seats.index(dealer):] + seats[:seats.index(dealer)]
        given = {s: list(hands[i]) if i < len(hands) else [] for i, s in enumerate(turn)}

        def arrange(pack: list[str], r: random.Random) -> list[str]:
            rest = list(pack)
            for t in [t for h in given.values() for t in h] + [t for t in wall if t is not None]:
                rest.remove(t)
            out: list[str] = []
            for s in seats:
                n = self.hand_size + (1 if s == dealer else 0)
                out += given[s] + [rest.pop() for _ in range(n - len(given[s]))]
            out += [t if t is not None else rest.pop() for t in wall]
            return out + rest

        return self.deal_hand(match, number, StackedShuffle(rng, arrange))

    def aim_hand(self, rules: Rules, aim: str, rng: random.Random) -> list[str] | None:
        """Tiles (at most the dealer's count) to deal the dealer toward the named item, or None."""
        return None

    def aim_tail(self, rules: Rules, aim: str, dealt: list[str]) -> list[str]:
        """Tiles to put at the end of the wall with ``aim_hand``'s deal (a kong replacement), or none."""
        return []

    def aim_choose(self, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
        """``paifu selfplay --aim``, for every mahjong game: toward a drawn hand nobody wins;
        toward a last-tile win (海底) nobody wins while the wall has tiles; toward a kong
        item every kong is made. The rest is the policy's choice among what is left."""
        wanted = aim.casefold()
        keep = legal
        if wanted in AIM_DRAWN:
            keep = [m for m in legal if m.verb != "win"]
        elif wanted in AIM_LAST_TILE and state.wall.live > 0:
            keep = [m for m in legal if m.verb != "win"]
        elif wanted in AIM_KONG or "kong" in wanted or "杠" in wanted or "槓" in wanted:
            kongs = [m for m in legal if m.verb == "kong"]
            return rng.choice(kongs) if kongs else None
        if not keep or len(keep) == len(legal):
            return None
        seat = self.to_act(state)
        return self.choose(self.seat_view(state, seat), keep, rng) if seat else rng.choice(keep)

    def shanten_of(self, seen: Seen, counts: Sequence[int], melds: int) -> int:
        return T.shanten(counts, melds)


# Aims (``paifu selfplay --aim``) the mahjong core steers toward, as the games' settlements name them.
AIM_DRAWN = frozenset({"drawn hand", "draw", "exhaustive draw", "流局", "荒庄", "荒牌", "no win"})
AIM_LAST_TILE = frozenset({"海底捞", "海底撈", "海底捞月", "fishing the bottom", "last tiles", "last tile", "haitei",
                           "win on the last tile", "海底摸月", "河底撈魚"})
AIM_KONG = frozenset({"kong chain"})


def table_aim_choose(engine: MahjongEngine, state: MahjongState, legal: list[Move], rng: random.Random,
                     mode: str) -> Move | None:
    """``paifu selfplay --aim`` at an item of the dealer's, from a deal stacked at the whole
    table (``aim_stack``); ``mode`` says which:

    - ``rob`` (搶槓): the dealer pons and kongs, never wins; the seat after it keeps its ready
      hand (discards what it draws) and wins only by robbing;
    - ``kong_discard`` (槓上炮): the dealer kongs, then discards a tile another seat wins on;
      the seat after it keeps its ready hand;
    - ``lone`` (four calls, one tile): the dealer pons, kongs and wins;
    - ``open_four`` (a pon's fourth tile): the dealer pons a tile between its neighbours, wins;
    - ``feed``: the dealer wins.

    The others claim nothing and never win; they discard the tiles the dealer holds a pair
    of or wins on. The dealer discards singles only (its pairs wait for pons)."""
    seat = engine.to_act(state)
    if seat is None or not state.hand_known(state.dealer):
        return None
    verbs = {m.verb for m in legal}

    def first(verb: str) -> Move | None:
        return next((m for m in legal if m.verb == verb), None)

    def wins_on(s: str, tile: str) -> bool:
        c = state.concealed_counts(s)
        c[kind(tile)] += 1
        return engine.is_winning(state, s, c)

    if seat == state.dealer:
        counts = state.concealed_counts(seat)
        wanted = {"rob": ("kong", "pon"), "kong_discard": ("kong",), "lone": ("win", "pon", "kong"),
                  "open_four": ("win", "pon"), "feed": ("win",)}[mode]
        for verb in wanted:
            moves = [m for m in legal if m.verb == verb]
            if verb == "pon" and mode == "open_four":  # the pon between its neighbours, the fourth awaited
                moves = [m for m in moves if _between(counts, kind(m.tile))]  # type: ignore[arg-type]
            if moves:
                return moves[0]
        discards = [m for m in legal if m.verb == "discard"]
        if mode == "kong_discard" and state.turn_kongs and discards:
            fed = [m for m in discards if any(wins_on(s, m.tile) for s in state.others(seat))]  # type: ignore[arg-type]
            if fed:
                return fed[0]
        singles = [m for m in discards if counts[kind(m.tile)] == 1]  # type: ignore[arg-type]
        if mode == "kong_discard":
            keep = [m for m in singles if not any(wins_on(s, m.tile) for s in state.others(seat))]  # type: ignore[arg-type]
            singles = keep or singles
        if singles:
            return engine.choose(engine.seat_view(state, seat), singles, rng)
        return first("pass") or first("draw") or (discards[0] if discards else None)
    keeper = mode in ("rob", "kong_discard") and seat == state.next_seat(state.dealer)
    win = first("win")
    if win is not None and keeper and win.how == ("rob" if mode == "rob" else "ron"):
        return win
    for verb in ("draw", "pass"):
        if verb in verbs:
            return first(verb)
    discards = [m for m in legal if m.verb == "discard"]
    if not discards:
        return None
    if keeper and state.drawn is not None:
        return next((m for m in discards if m.tile == state.drawn), None)
    dealer = state.concealed_counts(state.dealer)
    for m in discards:
        k = kind(m.tile)  # type: ignore[arg-type]
        if dealer[k] in (2, 3) and mode in ("rob", "lone", "open_four"):
            return m
        if mode in ("lone", "open_four", "feed") and wins_on(state.dealer, m.tile):  # type: ignore[arg-type]
            return m
    return engine.choose(engine.seat_view(state, seat), discards, rng)


def rob_plan(kinds: list[str], rng: random.Random, seats: int) -> tuple[list[list[str]], list[str | None]]:
    """A table stacked toward robbing a kong (``table_aim_choose``'s ``rob``), in turn order
    from the dealer: the dealer holds a pair of X and twelve other kinds, the seat after it
    is ready on X (1-2 waiting for 3) with no pattern beyond a plain hand, the third seat
    holds one X (discarded to the dealer's pon), and the dealer's first draw after its pon
    (the wall's draw number ``seats + 1``, counted from 0) is the fourth X: an added kong."""
    a, b = rng.sample(sorted({k[-1] for k in kinds if k[-1] != "z"}), 2)
    x = f"3{a}"
    ready = [f"1{a}", f"2{a}", f"4{b}", f"5{b}", f"6{b}", f"7{b}", f"8{b}", f"9{b}", f"4{a}", f"5{a}", f"6{a}",
             f"7{b}", f"7{b}"]
    others = rng.sample([k for k in kinds if k != x], 12)
    return [[x, x] + others, ready, [x]], [None] * (seats + 1) + [x]


KONG_AIMS = {"concealed kong": "concealed", "closed kong": "concealed", "暗槓": "concealed", "暗杠": "concealed",
             "direct kong": "direct", "明槓": "direct", "明杠": "direct",
             "added kong": "added", "growing kong": "added", "加槓": "added", "加杠": "added"}


def kong_plan(kinds: list[str], rng: random.Random, seats: int, aim: str) -> tuple[list[list[str]], list[str | None]] | None:
    """A table stacked toward a kind of kong (``KONG_AIMS``), steered by ``table_aim_choose``'s
    ``rob`` mode (nobody ready to rob): the dealer dealt four of a kind (concealed), three of
    a kind with the fourth held by the third seat and discarded to it (direct), or
    ``rob_plan``'s pair, pon and fourth tile drawn (added)."""
    which = KONG_AIMS.get(aim)
    if which is None:
        return None
    x = rng.choice(kinds)
    if which == "concealed":
        return [[x] * 4], []
    if which == "direct":
        return [[x] * 3, [], [x]], []
    hands, wall = rob_plan(kinds, rng, seats)
    return [hands[0], [], hands[2]], wall


def _between(counts: Sequence[int], k: int) -> bool:
    """Whether a hand holds both suit neighbours of tile kind k (4 and 6 around a 5)."""
    return k < 27 and 0 < k % 9 < 8 and counts[k - 1] > 0 and counts[k + 1] > 0


def choose_toward_win(seen: Seen, legal: list[Move], rng: random.Random, shanten_of) -> Move:
    """A policy that plays toward a win: win at once; kong (``choose_kong``); pon when it
    brings the hand no further from a win (a pon saves a draw, and its fourth tile may
    come as a kong); discard the tile that leaves the fewest steps to ready, then the most
    tiles still to come that would improve it (a ready hand counting the last copy of an
    opponent's pon more: ``ROB_WEIGHT``)."""
    for m in legal:
        if m.verb == "win":
            return m
    for m in legal:
        if m.verb == "draw":
            return m
    counts = seen.counts
    melds = seen.melds
    claims = [m for m in legal if m.verb in ("pon", "kong", "chi")]
    discards = [m for m in legal if m.verb in ("discard", "disclose")]
    if claims and not discards:
        # a claim window: compare the hand before and after the claim
        now = shanten_of(seen, counts, melds)
        for m in claims:
            after = list(counts)
            if m.verb == "chi":
                rest = list(m.tiles)
                rest.remove(m.tile)  # type: ignore[arg-type]
                for t in rest:
                    after[seen.kind(t)] -= 1
                best = min(shanten_of(seen, _minus(after, j), melds + 1) for j in range(34) if after[j])
                if best < now:
                    return m
                continue
            k = seen.kind(m.tile)  # type: ignore[arg-type]
            if m.verb == "kong":
                after[k] -= 3
                if shanten_of(seen, after, melds + 1) <= now:
                    return m
                continue
            after[k] -= 2
            best = min(shanten_of(seen, _minus(after, j), melds + 1) for j in range(34) if after[j])
            # a pon that leaves the hand as near a win saves a draw, unless the hand was
            # nearer only as seven pairs (a pon gives those up)
            if best < now or best == now == T.shanten(counts, melds):
                return m
        return next((m for m in legal if m.verb == "pass"), legal[0])
    kong = choose_kong(seen, legal, shanten_of)
    if kong is not None:
        return kong
    if not discards:
        return legal[0]
    return best_discard(seen, discards, shanten_of)


def choose_kong(seen: Seen, legal: list[Move], shanten_of) -> Move | None:
    """The kong to make on the seat's own turn, if any: kongs are paid on the spot, so a
    kong is made whenever it leaves the hand no further from a win than the best discard
    (holding a fourth tile back gains nothing). An added kong (the fourth tile of one's
    own pon) first: it uses the tile just drawn, and a concealed kong after its
    replacement draw continues the chain."""
    counts = seen.counts
    melds = seen.melds
    kongs = [m for m in legal if m.verb == "kong"]
    if not kongs:
        return None
    base = min(shanten_of(seen, _minus(counts, j), melds) for j in range(34) if counts[j])
    kongs.sort(key=lambda m: counts[seen.kind(m.tile)] == 4)  # type: ignore[arg-type]
    for m in kongs:
        k = seen.kind(m.tile)  # type: ignore[arg-type]
        after = list(counts)
        if counts[k] == 4:  # concealed: four tiles become a meld
            after[k] -= 4
            now = shanten_of(seen, after, melds + 1)
        else:  # added to a pon: the meld count stays
            after[k] -= 1
            now = shanten_of(seen, after, melds)
        if now <= base:
            return m
    return None


def _minus(counts: Sequence[int], j: int) -> list[int]:
    out = list(counts)
    out[j] -= 1
    return out


# A ready hand counts the last copy of a tile an opponent has ponned as this many tiles:
# its ponner adds it to a kong when he draws it (and the kong can be robbed), and anyone
# else who draws it has no use for it and lets it go, so it comes out more surely than a
# tile the others may be keeping.
ROB_WEIGHT = 3


def best_discard(seen: Seen, discards: list[Move], shanten_of) -> Move:
    counts = seen.counts
    melds = seen.melds
    scored = []
    for m in discards:
        k = seen.kind(m.tile)  # type: ignore[arg-type]
        after = _minus(counts, k)
        scored.append((shanten_of(seen, after, melds), m, after))
    best = min(s for s, _, _ in scored)
    tied = [(m, after) for s, m, after in scored if s == best]
    if len(tied) == 1:
        return tied[0][0]
    top: tuple[int, int, Move] | None = None
    for m, after in tied:
        ukeire = 0
        for j in seen.kinds:
            left = 4 - seen.visible[j]
            if left <= 0:
                continue
            after[j] += 1
            if shanten_of(seen, after, melds) < best:
                ukeire += left * ROB_WEIGHT if best == 0 and j in seen.others_pons else left
            after[j] -= 1
        k = seen.kind(m.tile)  # type: ignore[arg-type]
        isolation = 1 if T.is_honour(k) else (0 if T.rank_of(k) in (1, 9) else -1)
        key = (ukeire, isolation)
        if top is None or key > top[:2]:
            top = (ukeire, isolation, m)
    assert top is not None
    return top[2]


def selfplay_stats(engine: MahjongEngine, records: int, seed: int = 0, hands: int | None = None) -> dict[str, Any]:
    """Play ``records`` selfplay records and count what happened: hands, hands won (with a
    settlement), and how often each scoring item (by its seed term) appeared. Meant for
    ``paifu selfplay --stats``; the issue asks that at least half the hands be won.

    >>> from replay.games import engine  # doctest: +SKIP
    >>> selfplay_stats(engine("paomazai"), 5)["share_won"] >= 0.5  # doctest: +SKIP
    True
    """
    from ..selfplay import selfplay_record

    counts: Counter = Counter()
    played = won = 0
    original = engine.settle_hand

    def counting(state: MahjongState) -> Settlement:
        nonlocal played, won
        out = original(state)
        played += 1
        won += bool(state.wins)
        for item in out.items:
            counts[item.term or item.name] += 1
            if "kong chain" in item.detail:
                counts["kong chain"] += 1
        for w in state.wins:
            counts[f"win {w.how}"] += 1
        return out

    engine.settle_hand = counting  # type: ignore[method-assign]
    try:
        for i in range(records):
            selfplay_record(engine, seed + i, hands)
    finally:
        del engine.settle_hand
    return {"hands": played, "won": won, "share_won": won / played if played else 0.0, "items": dict(counts.most_common())}
