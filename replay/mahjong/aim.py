"""Aimed deals and choices for the mahjong family (``paifu selfplay GAME --aim ITEM``, issue 19):
a :class:`Plan` per scoring item, which a game's ``aim_deal`` stacks into an ordinary shuffle
and its ``aim_choose`` follows among the legal actions.

A plan names one seat, the *target*, by its wind (0 the dealer, 1 his right, ...): the tiles
it is dealt (``keep``: a hand one or two tiles from the pattern; the rest of its deal is junk
it throws away), the winning tile(s) put where that seat draws them (``head``: an index of
the live wall, drawn in turn from the dealer's right when nobody calls; ``tail``: the
replacement tiles, the wall's last tile first; ``before``: tiles turned up before the first
draw, as Wuhan's 頼子 indicator), what the seats do (riichi, kong, nuki, pon, tiles fed to
the target) and when the target may win (self-draw, ron, the last tile, a rob, a
replacement tile).

The deal is still a permutation of the game's tiles (``replay.deals.StackedShuffle``) dealt by
the engine's own ``deal_hand``, and every choice is one of the legal actions, so the record
is an ordinary hand that validates. The other seats never win, call or riichi unless the
plan says so, and never throw the target's winning or pon tiles unless they feed them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Callable

from paifu.notation.model import Hand

from . import tiles as T
from ..deals import StackedShuffle
from ..engine import HandHeader, Match
from .core import MahjongState, Move, kind


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
    calls: dict[int, str] = field(default_factory=dict)  # a seat's calls: "pon:2s kong:2s nuki" ("pon": a winning kind)
    avoid: bool = False  # keep the winning kinds out of the target's own draws (a planned ron or last tile)
    honba: int = 0  # the first hand's 積み棒 (sanma's 八連荘 reads honba >= 8)
    before: str = ""  # tiles at the wall's head before the first draw (Wuhan's 頼子 indicator)
    tile_kong: str = ""  # kinds the target konges one tile at a time whenever offered (Wuhan's 中)
    late: dict[int, str] = field(default_factory=dict)  # a seat throws these once the target has four melds
    draws: int | None = None  # with ``avoid``: the target draws live indices i with i % seats == draws (calls shift them)

    @property
    def win_kinds(self) -> frozenset[int]:
        return _kinds(self.wins)

    @property
    def guarded(self) -> frozenset[int]:
        """Kinds the other seats keep unless they feed them: the winning and the pon kinds."""
        return _kinds(self.wins) | _kinds(self.pon)

    @property
    def keep_counts(self) -> list[int]:
        return _counts(self.keep)


@cache
def _kinds(text: str) -> frozenset[int]:
    return frozenset(T.tile_index(c) for c in T.parse_tiles(text))


@cache
def _counts(text: str) -> list[int]:
    return T.counts_of(T.parse_tiles(text))


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


def stacked(engine, match: Match, number: int, rng: random.Random, plan: Plan,
            dealt_wins: Callable[[list[str]], bool] = lambda tiles: False, no_junk: frozenset[str] = frozenset()) -> Hand:
    """A deal for ``plan``, through the engine's own ``deal_hand`` (``dealt_wins``: whether
    a dealt hand is already a win, which the junk must not make; ``no_junk``: tiles never
    given as junk)."""
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
        before = [_take(pool, T.tile_index(c), r) for c in T.parse_tiles(plan.before)]
        junk_ok = [t for t in pool if _kind_of(t) not in near and _kind_of(t) not in plan.guarded and t not in no_junk]
        r.shuffle(junk_ok)
        while len(held[target]) < size[target]:
            # junk that would make the dealt hand a win (十三不塔) is no junk, when there is other
            t = next((t for t in junk_ok if len(held[target]) + 1 < 14 or not dealt_wins(held[target] + [t])), junk_ok[0])
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
        n_wall = len(pack) - sum(size.values()) - len(before)
        live = n_wall - dead
        wall: list[str | None] = [None] * n_wall
        for i, t in head.items():
            wall[i] = t
        for j, t in enumerate(tail):
            wall[n_wall - 1 - j] = t
        # the target's own draws (no calls: live index i goes to the seat of wind (i + 1) % 3)
        n = len(seats)
        mine = {i for i in range(live) if (i % n == plan.draws if plan.draws is not None else (i + 1) % n == plan.target)}
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
        return out + before + [t for t in wall if t is not None]

    return engine.deal_hand(match, number, StackedShuffle(rng, arrange))


# --------------------------------------------------------------------------- the choices


def _wind(state: MahjongState, seat: str) -> int:
    return (state.seats.index(seat) - state.seats.index(state.dealer)) % len(state.seats)


def steer(engine, state: MahjongState, legal: list[Move], rng: random.Random, plan: Plan) -> Move | None:
    """The plan's choice among ``legal`` (None: the policy's)."""
    if not legal or legal[0].seat is None:
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


def _riichi(state: MahjongState, seat: str):
    """The seat's riichi, in a game that has one (sanma's ``state.play.riichi``), else None."""
    play = getattr(state, "play", None)
    return getattr(play, "riichi", {}).get(seat)


def _discards_made(state: MahjongState, seat: str) -> int:
    """Discards the seat has made, claimed ones too (sanma's river), else the core's river."""
    play = getattr(state, "play", None)
    river = getattr(play, "river", None)
    return len((river if river is not None else state.discards).get(seat, []))


def _target(engine, state, plan: Plan, seat: str, w: int, legal: list[Move], rng) -> Move | None:
    r = _riichi(state, seat)
    for m in legal:
        dealt_win = sum(plan.keep_counts) == 14  # 天和: the dealt hand itself
        if m.verb == "win" and ((_may_win(state, plan, m) and (dealt_win or kind(m.tile) in plan.win_kinds))
                                or (r is not None and r.open and m.how == "ron")):
            return m
    draw = _first(legal, lambda m: m.verb == "draw")
    if draw is not None:
        return draw
    started = _discards_made(state, seat) > 0
    tile_kong = _first(legal, lambda m: m.verb == "kong" and kind(m.tile) in _kinds(plan.tile_kong))
    if tile_kong is not None:
        return tile_kong
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
    if plan.riichi is not None and _discards_made(state, seat) == plan.riichi[0]:
        riichi = _first(legal, lambda m: m.verb == "riichi" and m.tile == pick.tile and m.how == plan.riichi[1])
        if riichi is not None:
            return riichi
    return pick


def _feeding(state, plan: Plan) -> bool:
    target = next(s for s in state.seats if _wind(state, s) == plan.target)
    when = plan.feed_when
    if when == "riichi":
        return _riichi(state, target) is not None
    if when == "replacement":
        return state.from_replacement
    if when == "last":
        return state.wall.live == 0
    return True


def _other(engine, state, plan: Plan, seat: str, w: int, legal: list[Move], rng) -> Move | None:
    feeds = []
    if plan.feed.get(w) and _feeding(state, plan):
        feeds += T.parse_tiles(plan.feed[w])
    target = next(s for s in state.seats if _wind(state, s) == plan.target)
    if plan.late.get(w) and len(state.melds[target]) >= 4:
        feeds += T.parse_tiles(plan.late[w])
    for tile in feeds:
        m = _first(legal, lambda m: m.verb == "discard" and kind(m.tile) == T.tile_index(tile))
        if m is not None:
            return m
    for call in plan.calls.get(w, "").split():
        verb, _, tile = call.partition(":")
        kinds = _kinds(tile) if tile else plan.win_kinds
        m = _first(legal, lambda m: m.verb == verb and (verb == "nuki" or kind(m.tile) in kinds))
        if m is not None:
            return m
    allowed = [m for m in legal if m.verb in ("draw", "pass", "discard")]
    safe = [m for m in allowed if not (m.verb == "discard" and kind(m.tile) in plan.guarded)]
    if any(m.verb == "discard" for m in safe):
        allowed = safe
    if not allowed or len(allowed) == len(legal):
        return None
    for m in allowed:
        if m.verb in ("draw", "pass"):
            return m
    # the others only keep the hand going: the tile drawn, else any tile allowed
    drawn = [m for m in allowed if state.drawn is not None and m.tile == state.drawn]
    return drawn[0] if drawn else rng.choice(allowed)
