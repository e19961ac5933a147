"""``paifu selfplay sanma --aim YAKU``: deals and choices steered toward each yaku of
「三人麻雀」のルール ver. 1.3 §認められる役 (issue 19).

Each yaku has a :class:`~replay.mahjong_aim.Plan` (the mahjong family's aimed deals and
choices, ``replay/mahjong/aim.py``): the ready hand one seat is dealt, where its winning
tile is drawn, and what the seats do (riichi, open riichi, kong, nuki, pon, a tile fed).
Sanma's live wall holds 50 tiles: with no call, index ``i`` is drawn by the seat of wind
``(i + 1) % 3``, so the dealer draws 2, 5, 8, ..., and West the last tile (49).
"""

from __future__ import annotations

import random
from functools import cache

from paifu.notation.model import Hand

from .. import aim as core
from .. import tiles as T
from ...engine import Match
from ..core import MahjongState, Move
from ..aim import Plan
from .yaku import YAKU, is_unconnected

NORTH = "4z"


# Rule 18.4: with five or more 積み棒 a win needs 3 han from yaku, and an aimed record whose
# dealer keeps winning soon has them: every hand below holds 3 han or more where it wins.
TANYAO = "223344p345s678s8p"  # ready for 8p alone (tanki); 断么九 and 一盃口 on every wait
WHITE = "555z666z234p678p9s"  # ready for 9s alone; 役牌 (白) and 役牌 (發) on every wait


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
    pungs = Plan("222p888p555z99s7s", "7s", head={0: "9s", 3: "7s"}, pon="9s", feed={1: "9s"})
    dragons = Plan("55z666z77z234p67s", "8s", head={0: "5z", 3: "8s"}, pon="5z", feed={1: "5z"})
    nuki = Plan(TANYAO, "8p", head={2: NORTH}, tail="8p", nuki=True, how="replacement")
    ready = Plan(TANYAO, "8p", how="never", avoid=True)
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
        "After a kong or nuki": nuki,
        # 樌振り: South extracts a North and throws the replacement tile, the dealer's 役牌 hand wins on it
        "Won on the discard after a replacement draw": Plan(WHITE, "9s", head={0: NORTH}, tail="9s", how="ron",
                                                           calls={1: "nuki"}, feed={1: "9s"}, feed_when="replacement",
                                                           avoid=True),
        # the last live tile (index 49 of 50) is West's draw when nobody calls
        "Last tile self-drawn": Plan(TANYAO, "8p", target=2, head={49: "8p"}, how="last", avoid=True),
        "Last discard": Plan(WHITE, "9s", head={49: "9s"}, how="last", feed={2: "9s"}, feed_when="last", avoid=True),
        # South pons the dealer's 2s, draws the fourth and adds it; West, ready on 2s alone, robs
        "Robbing a kong": Plan("555z666z234p99s13s", "2s", target=2, head={0: "9s", 2: "2s"}, how="rob",
                               dealt={0: "2s", 1: "2s2s"}, feed={0: "2s"}, calls={1: "pon:2s kong:2s"}, avoid=True),
        "Blessing of man": Plan(TANYAO, "8p", target=1, how="ron", dealt={0: "8p"}, feed={0: "8p"}, avoid=True),
        "Eight consecutive dealerships": _tsumo(TANYAO, "8p", honba=8),
        "Thirteen unconnected": Plan("1m9m1p4p7p1s4s7s1z2z3z5z6z", "6z", target=1, head={0: "6z"}),
        "Blessing of heaven": Plan(TANYAO + "8p", "8p"),
        "Blessing of earth": Plan(TANYAO, "8p", target=1, head={0: "8p"}),
        "Value tile: white dragon": _tsumo("555z111z234p678p9s", "9s"),
        "Value tile: green dragon": _tsumo("666z111z234p678p9s", "9s"),
        "Value tile: red dragon": _tsumo("777z111z234p678p9s", "9s"),
        "Value tile: seat wind": _tsumo("111z555z234p678p9s", "9s"),
        "Value tile: round wind": _tsumo(f"{rw}{rw}{rw}555z234p678p9s", "9s"),
        "Pinfu": _tsumo("234p567p345s88p78s", "6s9s"),  # 平和 断么九 on 6s
        "All simples": _tsumo(TANYAO, "8p"),
        "Pure double run": _tsumo("223344p567s345p8s", "8s"),
        "Pure straight": _tsumo("123456789p234s8s", "8s"),
        "Seven pairs": _tsumo("22p44p66p33s88s55z9s", "9s"),
        "All pungs": pungs,
        "Half outside hand": _tsumo("123p789p123s555z9s", "9s"),
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
        # the settlement's other items: an extracted North (dora too), a self-draw, and an
        # exhaustive draw with the dealer ready (聴牌) and his winning tiles kept from him
        "nuki": nuki,
        "Dora": nuki,
        "Self-draw": _tsumo(TANYAO, "8p"),
        "exhaustive draw": ready,
        "tenpai": ready,
        "noten": ready,
    }


def _names() -> dict[str, str]:
    """Aim words (English name or the seed's term, casefolded) -> the plan's name."""
    out = {w.casefold(): w for w in ("nuki", "Dora", "Self-draw", "exhaustive draw", "tenpai", "noten")}
    for y in YAKU:
        out[y.name.casefold()] = y.name
        out[y.term.casefold()] = y.name
    return out


_NAMES = _names()


@cache
def plan_for(aim: str, round_wind: int) -> Plan | None:
    name = _NAMES.get(aim.casefold())
    return plans(round_wind).get(name) if name else None


# --------------------------------------------------------------------------- the hooks


def _wins(tiles: list[str]) -> bool:
    """A dealt hand that is already a win (十三不塔 too): the junk must not make one."""
    c = T.counts_of(tiles)
    return T.is_complete(c, 0) or T.is_seven_pairs(c) or T.is_thirteen_orphans(c) or is_unconnected(c)


def stacked(engine, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
    """The engine's ``aim_deal``: the yaku's plan stacked into an ordinary shuffle."""
    plan = plan_for(aim, getattr(match, "round_wind", 0))
    if plan is None:
        return None
    if plan.honba and match.hands_played == 0:
        match.honba = plan.honba  # type: ignore[attr-defined]  # the record begins at this 積み棒 (its first hand says so)
    return core.stacked(engine, match, number, rng, plan, _wins, frozenset({NORTH}))


def steer(engine, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
    """The engine's ``aim_choose``: the yaku's plan among the legal actions."""
    plan = plan_for(aim, state.play.round_wind)  # type: ignore[attr-defined]
    return core.steer(engine, state, legal, rng, plan) if plan is not None else None
