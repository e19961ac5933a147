"""``paifu selfplay sanma --aim YAKU``: deals and choices steered toward each yaku of
「三人麻雀」のルール ver. 1.3 §認められる役 (issue 19).

Each yaku has a :class:`Plan`: the tiles one seat (the *target*, by its seat wind: 0 the
dealer, 1 South, 2 West) is dealt (``keep``: the hand it holds ready, one or two tiles
from the pattern; the rest of its deal is junk it throws away), the winning tile(s) put
where that seat draws them (``head``: an index of the live wall, drawn in seat order from
the dealer's right when nobody calls; ``tail``: the replacement tiles, the wall's last tile
first), and what the seats do (riichi, kong, nuki, pon, a discard fed to the target) and
when the target may win (self-draw, ron, the last tile, a rob, a replacement tile).

The deal is still a permutation of the 108 tiles (``replay.deals.StackedShuffle``) dealt by
the engine's own ``deal_hand``, and every choice is one of the legal actions, so the record
is an ordinary hand that validates. The other seats never win, call or riichi unless the
plan says so, and never throw the target's winning tiles unless they are the plan's feeder.
"""

from __future__ import annotations

import random
from functools import cache
from dataclasses import dataclass, field
from typing import Callable

from notation.model import Hand

from .. import tiles as T
from ..deals import StackedShuffle
from ..engine import HandHeader, Match
from ..mahjong import MahjongState, Move, kind

NORTH = "4z"


@dataclass(frozen=True)
class Plan:
    """How one yaku is steered toward (see the module's docstring)."""

    keep: str  # the target's ready hand (compact tiles: "234p567p"); its deal is keep + junk
    wins: str  # the kinds the target waits on (protected: the others never throw them)
    target: int = 0  # the target's seat wind: 0 dealer (East), 1 South, 2 West
    head: dict[int, str] = field(default_factory=dict)  # live-wall index (0: first draw) -> tile
    tail: str = ""  # replacement tiles, the first replacement first
    how: str = "tsumo"  # when the target wins: tsumo ron rob last replacement any
    riichi: tuple[int, str | None] | None = None  # (the target's n-th discard, None or "open")
    kong: bool = False  # the target makes every kong offered after its first discard
    nuki: bool = False  # the target extracts a North after its first discard
    pon: str = ""  # kinds the target pons
    dealt: dict[int, str] = field(default_factory=dict)  # other seats' dealt tiles (by seat wind)
    feed: dict[int, str] = field(default_factory=dict)  # a seat (by wind) throws this tile ...
    feed_when: str = "always"  # ... always / once the target is in riichi / after a replacement / at the last tile
    calls: dict[int, str] = field(default_factory=dict)  # a seat's planned calls: "pon" "kong" "nuki" words
    avoid: bool = False  # keep the winning kinds out of the target's own draws (a planned ron or last tile)
    honba: int = 0  # the first hand's 積み棒 (八連荘 reads honba >= 8)

    @property
    def win_kinds(self) -> frozenset[int]:
        return _kinds(self.wins)

    @property
    def keep_counts(self) -> list[int]:
        return _counts(self.keep)


@cache
def _kinds(text: str) -> frozenset[int]:
    return frozenset(T.tile_index(c) for c in T.parse_tiles(text))


@cache
def _counts(text: str) -> list[int]:
    return T.counts_of(T.parse_tiles(text))


TANYAO = "234p567p345s678s8p"  # ready for 8p alone (tanki); 断么九 on every wait
WHITE = "555z234p678p345s9s"  # ready for 9s alone; 役牌 (白) on every wait


def _tsumo(keep: str, wins: str, at: int = 2, **kw) -> Plan:
    """The dealer holds ``keep`` and a junk tile, throws the junk, and draws the winning
    tile at live-wall index ``at`` (2: his first draw)."""
    return Plan(keep, wins, head={at: T.parse_tiles(wins)[0]}, **kw)


@cache
def plans(round_wind: int) -> dict[str, Plan]:
    """Every yaku's plan, by its English name (``round_wind``: 0 East, 1 South)."""
    rw = f"{round_wind + 1}z"
    kongs3 = Plan("2222p6666p7777s8p", "5s", head={2: "8p"}, tail="3s4s5s", kong=True, how="replacement")
    kongs4 = Plan("2222p6666p7777s8p", "9p", head={2: "8p"}, tail="8p8p9p9p", kong=True, how="replacement")
    pungs = Plan("222p888p333s99s7s", "7s", head={0: "9s", 3: "7s"}, pon="9s", feed={1: "9s"})
    dragons = Plan("55z666z77z234p67s", "8s", head={0: "5z", 3: "8s"}, pon="5z", feed={1: "5z"})
    four_winds = _tsumo("111z222z333z44z55z", "4z")
    return {
        "Fully concealed self-draw": _tsumo(TANYAO, "8p"),
        "Riichi": _tsumo(TANYAO, "8p", at=8, riichi=(1, None)),
        "Open riichi": _tsumo(TANYAO, "8p", at=8, riichi=(1, "open")),
        "Double riichi": _tsumo(TANYAO, "8p", at=5, riichi=(0, None)),
        "Double open riichi": _tsumo(TANYAO, "8p", at=5, riichi=(0, "open")),
        "Ippatsu": _tsumo(TANYAO, "8p", at=5, riichi=(1, None)),
        # rule 21.1: a player without riichi throws the open riichi's winning tile
        "Open riichi won on a non-riichi player": Plan(TANYAO, "8p", head={3: "8p"}, riichi=(1, "open"), how="ron",
                                                     feed={1: "8p"}, feed_when="riichi", avoid=True),
        "Double open riichi won on a non-riichi player": Plan(TANYAO, "8p", head={0: "8p"}, riichi=(0, "open"), how="ron",
                                                            feed={1: "8p"}, feed_when="riichi", avoid=True),
        # 嶺上開花: a North drawn on the second turn, extracted; the replacement wins
        "After a kong or nuki": Plan(TANYAO, "8p", head={2: NORTH}, tail="8p", nuki=True, how="replacement"),
        # 樌振り: South extracts a North and throws the replacement tile, the dealer's 役牌 hand wins on it
        "Won on the discard after a replacement draw": Plan(WHITE, "9s", head={0: NORTH}, tail="9s", how="ron",
                                                           calls={1: "nuki"}, feed={1: "9s"}, feed_when="replacement",
                                                           avoid=True),
        # the last live tile (index 49 of 50) is West's draw when nobody calls
        "Last tile self-drawn": Plan(TANYAO, "8p", target=2, head={49: "8p"}, how="last", avoid=True),
        "Last discard": Plan(WHITE, "9s", head={49: "9s"}, how="last", feed={2: "9s"}, feed_when="last", avoid=True),
        # South pons the dealer's 2s, draws the fourth and adds it; West, ready on 2s alone, robs
        "Robbing a kong": Plan("555z234p678p99s13s", "2s", target=2, head={0: "9s", 2: "2s"}, how="rob",
                               dealt={0: "2s", 1: "2s2s"}, feed={0: "2s"}, calls={1: "pon kong"}, avoid=True),
        "Blessing of man": Plan(TANYAO, "8p", target=1, how="ron", dealt={0: "8p"}, feed={0: "8p"}, avoid=True),
        "Eight consecutive dealerships": _tsumo(TANYAO, "8p", honba=8),
        "Thirteen unconnected": Plan("1m9m1p4p7p1s4s7s1z2z3z5z6z", "6z", target=1, head={0: "6z"}),
        "Blessing of heaven": Plan(TANYAO + "8p", "8p"),
        "Blessing of earth": Plan(TANYAO, "8p", target=1, head={0: "8p"}),
        "Value tile: white dragon": _tsumo(WHITE, "9s"),
        "Value tile: green dragon": _tsumo("666z234p678p345s9s", "9s"),
        "Value tile: red dragon": _tsumo("777z234p678p345s9s", "9s"),
        "Value tile: seat wind": _tsumo("111z234p678p345s9s", "9s"),
        "Value tile: round wind": _tsumo(f"{rw}{rw}{rw}234p678p345s9s", "9s"),
        "Pinfu": _tsumo("234p567p345s99p78s", "6s9s"),
        "All simples": _tsumo(TANYAO, "8p"),
        "Pure double run": _tsumo("223344p567s345p8s", "8s"),
        "Pure straight": _tsumo("123456789p234s8s", "8s"),
        "Seven pairs": _tsumo("22p44p66p33s88s55z9s", "9s"),
        "All pungs": pungs,
        "Half outside hand": _tsumo("123p789p123s999s5z", "5z"),
        "All terminals and honours": _tsumo("11p99p11s99s11z22z5z", "5z"),
        "Three concealed pungs": _tsumo("222p444p666s345s8p", "8p"),
        "Three kongs": kongs3,
        "Three consecutive pungs": _tsumo("222p333p444p678s9s", "9s"),
        "Little three dragons": dragons,
        "Half flush": _tsumo("123p567p999p666z4p", "4p"),
        "Fully outside hand": _tsumo("123p789p123s789s9p", "9p"),
        "Twice pure double run": _tsumo("223344p667788s5p", "5p"),
        "Full flush": _tsumo("123p456p789p333p5p", "5p"),
        "Little wheels (half-flush seven pairs)": _tsumo("11p33p44p77p99p11z2z", "2z"),
        "Triple pung": _tsumo("111m111p111s234p9s", "9s"),
        "Big wheels": _tsumo("2334455667788p", "2p"),
        "Four consecutive pungs": _tsumo("222p333p444p555p6p", "6p"),
        "Thirteen orphans": _tsumo("119m19p19s123456z", "7z"),
        "Four concealed pungs": _tsumo("222p444p666s88s99s", "8s9s"),
        "Big three dragons": _tsumo("555z666z777z234p9s", "9s"),
        "All honours": _tsumo("111z222z333z55z66z", "5z6z"),
        "Four winds": four_winds,
        "Big four winds (scoring=standard only)": four_winds,
        "All green": _tsumo("223344s666s888s6z", "6z"),
        "All terminals": _tsumo("111p999p111s999s1m", "1m"),
        "Four kongs": kongs4,
        "Nine gates": _tsumo("1111234678999p", "5p"),
        "Four concealed pungs, single wait": _tsumo("222p444p666s888s9s", "9s"),
        "Thirteen orphans, 13-sided wait": _tsumo("19m19p19s1234567z", "1p"),
        "Nine gates, 9-sided wait": _tsumo("1112345678999p", "5p"),
        "Red peacock": _tsumo("111s555s777s777z9s", "9s"),
        "Half flush in characters": _tsumo("111m999m111z222z5z", "5z"),
    }


def _names() -> dict[str, str]:
    """Aim words (English name or the seed's term, casefolded) -> the English name."""
    from .yaku import YAKU

    out = {}
    for y in YAKU:
        out[y.name.casefold()] = y.name
        out[y.term.casefold()] = y.name
    return out


_NAMES = _names()


@cache
def plan_for(aim: str, round_wind: int) -> Plan | None:
    name = _NAMES.get(aim.casefold())
    return plans(round_wind).get(name) if name else None


# --------------------------------------------------------------------------- the deal


def _kind_of(code: str) -> int:
    return T.tile_index(code)


def _take(pool: list[str], k: int, rng: random.Random) -> str:
    """A tile of kind ``k`` from the pool (a plain five before a red one)."""
    found = [t for t in pool if _kind_of(t) == k]
    if not found:
        raise LookupError(T.tile_code(k))
    plain = [t for t in found if not T.is_red(t)]
    tile = (plain or found)[0]
    pool.remove(tile)
    return tile


def _wins(tiles: list[str]) -> bool:
    from .yaku import is_unconnected

    c = T.counts_of(tiles)
    return T.is_complete(c, 0) or T.is_seven_pairs(c) or T.is_thirteen_orphans(c) or is_unconnected(c)


def stacked(engine, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
    """The engine's ``aim_deal`` for sanma: the plan's tiles stacked into an ordinary shuffle."""
    plan = plan_for(aim, getattr(match, "round_wind", 0))
    if plan is None:
        return None
    if plan.honba and match.hands_played == 0:
        match.honba = plan.honba  # type: ignore[attr-defined]  # the record begins at this 積み棒 (its first hand says so)
    header = HandHeader(number, None, {})
    seats = engine.active_seats(match, header)
    dealer = engine.expected_dealer(match) or seats[0]
    d = seats.index(dealer)
    by_wind = {w: seats[(d + w) % len(seats)] for w in range(len(seats))}
    size = {s: engine.hand_size + (1 if s == dealer else 0) for s in seats}
    dead, _ = engine.dead_wall(match.rules)

    def arrange(pack: list[str], r: random.Random) -> list[str]:
        pool = list(pack)
        wins = plan.win_kinds
        keep = [T.tile_index(c) for c in T.parse_tiles(plan.keep)]
        held: dict[str, list[str]] = {s: [] for s in seats}
        target = by_wind[plan.target]
        held[target] = [_take(pool, k, r) for k in keep]
        for w, text in plan.dealt.items():
            held[by_wind[w]] += [_take(pool, T.tile_index(c), r) for c in T.parse_tiles(text)]
        head = {i: _take(pool, T.tile_index(c), r) for i, c in plan.head.items()}
        tail = [_take(pool, T.tile_index(c), r) for c in T.parse_tiles(plan.tail)]
        # junk for the target: kinds far from its hand, never a winning kind or a North
        near = {k + dk for k in keep for dk in (-2, -1, 0, 1, 2) if k < 27 and 0 <= k + dk < 27
                and (k + dk) // 9 == k // 9} | set(keep)
        junk_ok = [t for t in pool if _kind_of(t) not in near and _kind_of(t) not in wins and t != NORTH]
        r.shuffle(junk_ok)
        while len(held[target]) < size[target]:
            # junk that would make the dealt hand a win (十三不塔) is no junk, when there is other
            t = next((t for t in junk_ok if len(held[target]) + 1 < 14 or not _wins(held[target] + [t])), junk_ok[0])
            junk_ok.remove(t)
            pool.remove(t)
            held[target].append(t)
        r.shuffle(pool)
        # the others' hands: anything but the winning kinds when those are kept from the target
        for s in seats:
            while len(held[s]) < size[s]:
                pick = next((t for t in pool if not (plan.avoid and _kind_of(t) in wins)), pool[0])
                pool.remove(pick)
                held[s].append(pick)
        n_wall = len(pack) - sum(size.values())
        live = n_wall - dead
        wall: list[str | None] = [None] * n_wall
        for i, t in head.items():
            wall[i] = t
        for j, t in enumerate(tail):
            wall[n_wall - 1 - j] = t
        # the target's own draws (no calls: live index i goes to the seat of wind (i + 1) % 3)
        mine = {i for i in range(live) if (i + 1) % len(seats) == plan.target}
        rest = [t for t in pool]
        if plan.avoid:
            safe = [t for t in rest if _kind_of(t) not in wins]
            risky = [t for t in rest if _kind_of(t) in wins]
            rest = safe
            spots = [i for i in range(n_wall) if wall[i] is None and i not in mine]
            r.shuffle(spots)
            for t in risky:  # to the others' draws or the dead wall
                wall[spots.pop()] = t
        for i in range(n_wall):
            if wall[i] is None:
                wall[i] = rest.pop()
        out: list[str] = []
        for s in seats:
            out += held[s]
        return out + [t for t in wall if t is not None]

    return engine.deal_hand(match, number, StackedShuffle(rng, arrange))


# --------------------------------------------------------------------------- the choices


def _wind(state: MahjongState, seat: str) -> int:
    return (state.seats.index(seat) - state.seats.index(state.dealer)) % len(state.seats)


def steer(engine, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
    """The engine's ``aim_choose`` for sanma: the plan's choices, among ``legal`` only."""
    play = state.play  # type: ignore[attr-defined]
    plan = plan_for(aim, play.round_wind)
    if plan is None or not legal or legal[0].seat is None:
        return None
    seat = legal[0].seat
    w = _wind(state, seat)
    choose = _target if w == plan.target else _other
    return choose(engine, state, plan, seat, w, legal, rng)


def _first(legal: list[Move], test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in legal if test(m)), None)


def _may_win(state: MahjongState, plan: Plan, m: Move) -> bool:
    how = plan.how
    if how == "any":
        return True
    if how == "last":
        return state.wall.live == 0
    if how == "replacement":
        return m.how == "tsumo" and state.from_replacement
    return m.how == how


def _target(engine, state, plan: Plan, seat: str, w: int, legal: list[Move], rng) -> Move | None:
    play = state.play
    r = play.riichi.get(seat)
    for m in legal:
        dealt_win = sum(plan.keep_counts) == 14  # 天和: the dealt hand itself
        if m.verb == "win" and ((_may_win(state, plan, m) and (dealt_win or kind(m.tile) in plan.win_kinds))
                                or (r is not None and r.open and m.how == "ron")):
            return m
    draw = _first(legal, lambda m: m.verb == "draw")
    if draw is not None:
        return draw
    started = seat in play.discarded
    pon = _first(legal, lambda m: m.verb == "pon" and kind(m.tile) in _kinds(plan.pon))
    if pon is not None:
        return pon
    if plan.kong and started:
        kong = _first(legal, lambda m: m.verb == "kong")
        if kong is not None:
            return kong
    if plan.nuki and started:
        nuki = _first(legal, lambda m: m.verb == "nuki")
        if nuki is not None:
            return nuki
    discards = [m for m in legal if m.verb == "discard"]
    if not discards:
        return _first(legal, lambda m: m.verb == "pass")
    counts = state.concealed_counts(seat)
    keep = plan.keep_counts
    excess = [m for m in discards if counts[kind(m.tile)] > keep[kind(m.tile)]]
    drawn = [m for m in (excess or discards) if state.drawn is not None and m.tile == state.drawn]
    pick = (drawn or excess or discards)[0]
    if plan.riichi is not None and len(play.river.get(seat, [])) == plan.riichi[0]:
        riichi = _first(legal, lambda m: m.verb == "riichi" and m.tile == pick.tile and m.how == plan.riichi[1])
        if riichi is not None:
            return riichi
    return pick


def _feeding(state, plan: Plan) -> bool:
    target = next(s for s in state.seats if _wind(state, s) == plan.target)
    when = plan.feed_when
    if when == "riichi":
        return target in state.play.riichi
    if when == "replacement":
        return state.from_replacement
    if when == "last":
        return state.wall.live == 0
    return True


def _other(engine, state, plan: Plan, seat: str, w: int, legal: list[Move], rng) -> Move | None:
    calls = plan.calls.get(w, "").split()
    feed = plan.feed.get(w)
    if feed and _feeding(state, plan):
        m = _first(legal, lambda m: m.verb == "discard" and kind(m.tile) == T.tile_index(feed))
        if m is not None:
            return m
    for verb in ("pon", "kong", "nuki"):
        if verb in calls:
            m = _first(legal, lambda m: m.verb == verb and (verb == "nuki" or kind(m.tile) in plan.win_kinds))
            if m is not None:
                return m
    allowed = [m for m in legal if m.verb in ("draw", "pass", "discard")]
    safe = [m for m in allowed if not (m.verb == "discard" and kind(m.tile) in plan.win_kinds)]
    if any(m.verb == "discard" for m in safe):
        allowed = safe
    if not allowed:
        return None
    if len(allowed) == len(legal):
        return None
    for m in allowed:
        if m.verb in ("draw", "pass"):
            return m
    # the others only keep the hand going: the tile drawn, else any tile allowed
    drawn = [m for m in allowed if state.drawn is not None and m.tile == state.drawn]
    return drawn[0] if drawn else rng.choice(allowed)
