"""Differential test: sanma scoring under ``scoring=standard`` against the ``mahjong`` package.

Many winning sanma hands (108 tiles: no 2m..8m), drawn by a seeded generator so the run is
the same everywhere, are scored by replay.sanma.points.score with the standard-riichi option
set and by ``mahjong`` (PyPI, pinned in the ``test`` extra) with
``OptionalRules(is_three_player=True, has_open_tanyao=True)``. Yaku, han and fu are compared
(not the payments, whose rules differ: 「三人麻雀」のルール ver. 1.3 §基本ルール 11–13).

Every disagreement is either a bug (fixed) or listed in :data:`ALLOWED` with its reason
(also in docs/rulings.md §sanma scoring).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

mahjong = pytest.importorskip("mahjong")
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules  # noqa: E402
from mahjong.meld import Meld as PMeld  # noqa: E402

from paifu.replay.mahjong import tiles as T  # noqa: E402
from paifu.replay.mahjong.core import Meld  # noqa: E402
from paifu.replay.mahjong.sanma.hand import ScoringRules, WinContext  # noqa: E402
from paifu.replay.mahjong.sanma.points import SANMA_KINDS, score  # noqa: E402

STANDARD = ScoringRules(scoring="standard")
HANDS = 6000

# package yaku name -> our key
NAMES = {
    "Menzen Tsumo": "menzen_tsumo", "Riichi": "riichi", "Double Riichi": "double_riichi",
    "Open Riichi": "open_riichi", "Double Open Riichi": "double_open_riichi",
    "Ippatsu": "ippatsu", "Chankan": "chankan", "Rinshan Kaihou": "rinshan",
    "Haitei Raoyue": "haitei", "Houtei Raoyui": "houtei", "Pinfu": "pinfu", "Tanyao": "tanyao",
    "Iipeiko": "iipeikou", "Yakuhai (haku)": "yakuhai_white", "Yakuhai (hatsu)": "yakuhai_green",
    "Yakuhai (chun)": "yakuhai_red", "Ittsu": "ittsu", "Chantai": "chanta", "Honroutou": "honroutou",
    "Toitoi": "toitoi", "San Ankou": "sanankou", "San Kantsu": "sankantsu",
    "Sanshoku Doukou": "sanshoku_doukou", "Chiitoitsu": "chiitoitsu", "Shou Sangen": "shousangen",
    "Honitsu": "honitsu", "Junchan": "junchan", "Ryanpeikou": "ryanpeikou", "Chinitsu": "chinitsu",
    "Kokushi Musou": "kokushi", "Chuuren Poutou": "chuuren", "Suu Ankou": "suuankou",
    "Daisangen": "daisangen", "Shousuushii": "suushii", "Dai Suushii": "daisuushii",
    "Ryuuiisou": "ryuuiisou", "Suu Kantsu": "suukantsu", "Tsuu Iisou": "tsuuiisou",
    "Chinroutou": "chinroutou", "Kokushi Musou Juusanmen Matchi": "kokushi13",
    "Suu Ankou Tanki": "suuankou_tanki", "Daburu Chuuren Poutou": "chuuren9",
}
THEMES = [
    frozenset(SANMA_KINDS), frozenset(SANMA_KINDS),
    frozenset(range(9, 18)) | frozenset(range(27, 34)),  # pin and honours
    frozenset(range(18, 27)) | frozenset(range(27, 34)),  # sou and honours
    frozenset((0, 8)) | frozenset(range(27, 34)),  # man and honours
    frozenset(range(9, 18)), frozenset(range(18, 27)),
    frozenset(T.ORPHANS), frozenset((0, 8, 9, 17, 18, 26)), frozenset(range(27, 34)),
    frozenset((19, 20, 21, 23, 25, 32)),  # greens
    frozenset(range(27, 31)) | frozenset(range(9, 27)),  # winds
    frozenset(range(31, 34)) | frozenset(range(9, 27)),  # dragons
]

ALLOWED: dict[str, Callable[[set[str], set[str], int, int], bool]] = {
    # reason -> predicate over (our yaku keys, their yaku keys, our han, their han).
    # Empty: every disagreement found so far was ours to fix (21.1 and rule 22.2 are
    # seed-only; 大四喜 is a double yakuman under scoring=standard, as in the package).
}


def _key(name: str) -> str:
    if name.startswith("Yakuhai (seat wind"):
        return "yakuhai_seat"
    if name.startswith("Yakuhai (round wind"):
        return "yakuhai_round"
    return NAMES.get(name, name)


def _gen_hand(rng: random.Random):
    """A random complete sanma hand: (concealed counts, our melds, win kind, form)."""
    while True:
        counts = [0] * 34
        form = rng.choices(["standard", "seven_pairs", "orphans"], [30, 4, 1])[0]
        if form == "orphans":
            for k in T.ORPHANS:
                counts[k] += 1
            counts[rng.choice(T.ORPHANS)] += 1
            return counts, [], rng.choice([k for k in T.ORPHANS]), form
        if form == "seven_pairs":
            kinds = rng.sample(SANMA_KINDS, 7)
            for k in kinds:
                counts[k] += 2
            return counts, [], rng.choice(kinds), form
        # themes make the rarer yaku occur: flushes, terminals, honours, greens, winds
        theme = rng.choice(THEMES)
        pool = [k for k in SANMA_KINDS if k in theme and rng.random() < 0.8]
        if len(pool) < 5:
            continue
        whole = [0] * 34
        sets: list[tuple[str, int]] = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.5:
                starts = [k for k in pool if 9 <= k < 27 and k % 9 <= 6]
                if not starts:
                    ok = False
                    break
                k = rng.choice(starts)
                sets.append(("run", k))
                for j in range(3):
                    whole[k + j] += 1
            else:
                k = rng.choice(pool)
                sets.append(("pung", k))
                whole[k] += 3
        pair = rng.choice(pool)
        whole[pair] += 2
        if not ok or max(whole) > 4:
            continue
        melds: list[Meld] = []
        concealed = list(whole)
        for kind, k in sets:
            if kind == "pung" and rng.random() < 0.3 and whole[k] == 3:
                mk = rng.choice(["pon", "pon", "kong_direct", "kong_concealed", "kong_added"])
                melds.append(Meld(mk, T.tile_code(k), None if mk == "kong_concealed" else "x"))
                concealed[k] -= 3
        win = rng.choice([k for k in range(34) if concealed[k]])
        return concealed, melds, win, form


def _package_melds(melds: list[Meld]):
    out, tiles136 = [], []
    for m in melds:
        k = T.tile_index(m.tile)
        n = 4 if m.is_kong else 3
        t = [k * 4 + i for i in range(n)]
        tiles136 += t
        kind = PMeld.PON if m.kind == "pon" else PMeld.SHOUMINKAN if m.kind == "kong_added" else PMeld.KAN
        out.append(PMeld(meld_type=kind, tiles=t, opened=m.kind != "kong_concealed"))
    return out, tiles136


def _compare(rng: random.Random):
    concealed, melds, win, form = _gen_hand(rng)
    seat, round_ = rng.randrange(3), rng.randrange(2)
    closed = all(m.kind == "kong_concealed" for m in melds)
    tsumo = rng.random() < 0.5
    riichi = rng.choice(["riichi", "double", "open", "double_open"]) if closed and rng.random() < 0.4 else "none"
    ippatsu = riichi != "none" and rng.random() < 0.2
    last = rng.random() < 0.1
    rinshan = tsumo and not last and any(m.is_kong for m in melds) and rng.random() < 0.3
    chankan = not tsumo and not last and concealed[win] == 1 and rng.random() < 0.1
    how = "tsumo" if tsumo else "rob_added" if chankan else "ron"
    whole = list(concealed)
    for m in melds:
        whole[T.tile_index(m.tile)] += 4 if m.is_kong else 3
    nuki = rng.randrange(0, 5 - whole[30]) if rng.random() < 0.3 else 0
    dora = [rng.choice(SANMA_KINDS) for _ in range(rng.choice([0, 1, 1, 2]))]
    ura = [rng.choice(SANMA_KINDS)] if riichi != "none" and rng.random() < 0.5 else []
    reds = (whole[13] > 0) + (whole[22] > 0)  # the first 5p and 5s ids are the red ones
    ctx = WinContext(tuple(concealed), tuple(melds), T.tile_code(win), how, seat_wind=seat,
                     round_wind=round_, riichi=riichi, ippatsu=ippatsu, last_tile=last,
                     replacement=rinshan, nuki=nuki, reds=reds,
                     dora_indicators=tuple(T.tile_code(k) for k in dora),
                     ura_indicators=tuple(T.tile_code(k) for k in ura))
    return _both(ctx)


def _both(ctx: WinContext):
    """(ctx, our score, the package's answer), or None when the hand is not complete."""
    ours = score(ctx, STANDARD)
    if ours is None:
        return None
    melds = list(ctx.melds)
    concealed = ctx.concealed
    win = T.tile_index(ctx.win_tile)
    tsumo, riichi, how = ctx.is_tsumo, ctx.riichi, ctx.how
    pmelds, tiles136 = _package_melds(melds)
    used = Counter()
    for m in melds:
        used[T.tile_index(m.tile)] += 4 if m.is_kong else 3
    for k in range(34):
        for i in range(concealed[k]):
            tiles136.append(k * 4 + used[k] + i)
    win136 = win * 4 + used[win] + concealed[win] - 1
    cfg = HandConfig(is_tsumo=tsumo, is_riichi=riichi in ("riichi", "open"),
                     is_daburu_riichi=riichi in ("double", "double_open"),
                     is_open_riichi=riichi in ("open", "double_open"), is_ippatsu=ctx.ippatsu,
                     is_haitei=tsumo and ctx.last_tile, is_houtei=how == "ron" and ctx.last_tile,
                     is_rinshan=ctx.replacement, is_chankan=how == "rob_added",
                     player_wind=27 + ctx.seat_wind, round_wind=27 + ctx.round_wind,
                     num_nuki_dora=ctx.nuki,
                     options=OptionalRules(is_three_player=True, has_open_tanyao=True, has_aka_dora=True))
    ind = [T.tile_index(t) * 4 + 3 for t in ctx.dora_indicators]
    ura = [T.tile_index(t) * 4 + 3 for t in ctx.ura_indicators]
    theirs = HandCalculator.estimate_hand_value(tiles136, win136, melds=pmelds, config=cfg,
                                                dora_indicators=ind, ura_dora_indicators=ura)
    return ctx, ours, theirs


def _fixed(hand: str, win: str, melds: str = "", **kw) -> WinContext:
    ms = []
    for part in filter(None, (p.strip() for p in melds.split(","))):
        kind, tile = part.split()
        ms.append(Meld(kind, tile, None if kind == "kong_concealed" else "x"))
    kw.setdefault("seat_wind", 1)
    kw.setdefault("how", "ron")
    counts = T.counts_of(hand)
    whole = [counts[k] + sum(4 if m.is_kong else 3 for m in ms if T.tile_index(m.tile) == k)
             for k in range(34)]
    kw["reds"] = (whole[13] > 0) + (whole[22] > 0)  # the package's first 5p and 5s are red
    return WinContext(tuple(counts), tuple(ms), win, **kw)


# Hands the generator rarely or never makes: every yakuman of standard riichi that sanma
# tiles allow, and the shapes where readings compete.
FIXED = [
    _fixed("11123456788999p", "9p"), _fixed("11123456789999p", "9p"),
    _fixed("999p111s999s11m", "1m", "pon 1p"), _fixed("99s", "9s", "kong_concealed 1p, kong_direct 9p, kong_added 5z, kong_direct 4z"),
    _fixed("111z222z333z44z", "4z", "pon 5z"), _fixed("111z222z333z44z555z", "5z"),
    _fixed("111z222z333z55z", "5z", "pon 4z"), _fixed("111z222z44z123p", "3p", "pon 3z"), _fixed("111m111p111s789p99s", "9p"),
    _fixed("666z777z123p99s", "3p", "pon 5z"), _fixed("22334455667788p", "8p", how="tsumo"),
    _fixed("112233p445566s99s", "1p"), _fixed("111222333p789s11z", "3p"),
    _fixed("19m19p19s12345677z", "7z"), _fixed("234s234s666s88s666z", "8s", how="tsumo"),
    _fixed("555z666z77z123p789s", "3p"), _fixed("123p456p789p55s", "5s", "pon 4z"),
]


@pytest.mark.parametrize("index", range(len(FIXED)))
def test_fixed_hands_against_the_mahjong_package(index):
    ctx, ours, theirs = _both(FIXED[index])
    assert not theirs.error, theirs.error
    ok = _ours_keys(ours)
    tk = sorted({_key(y.name) for y in theirs.yaku if y.name not in ("Dora", "Aka Dora", "Ura Dora")})
    assert (ok, ours.han) == (tk, theirs.han)
    assert ours.fu == theirs.fu or ours.yaku_han >= 13


def _ours_keys(s) -> list[str]:
    from paifu.replay.mahjong.sanma.yaku import YAKU
    by_term = {y.term: y.key for y in YAKU}
    return sorted(by_term[i.term] for i in s.yaku)


def test_differential_against_the_mahjong_package():
    """Seeded hands; every disagreement is explained by :data:`ALLOWED` or fails."""
    rng = random.Random(20261124)
    compared = agreed = 0
    explained: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    unexplained = []
    for _ in range(HANDS):
        got = _compare(rng)
        if got is None:
            continue
        ctx, ours, theirs = got
        if theirs.error:
            # the package refuses a hand without yaku; ours scores it with no yaku
            assert ours.yaku_han == 0, (ctx, theirs.error, ours)
            continue
        compared += 1
        ok = _ours_keys(ours)
        seen.update(ok)
        tk = sorted({_key(y.name) for y in theirs.yaku if y.name not in ("Dora", "Aka Dora", "Ura Dora")})
        fu_ok = ours.fu == theirs.fu or ours.yaku_han >= 13
        if ok == tk and ours.han == theirs.han and fu_ok:
            agreed += 1
            continue
        for reason, test in ALLOWED.items():
            if test(set(ok), set(tk), ours.han, theirs.han):
                explained[reason] += 1
                break
        else:
            unexplained.append((ctx, ours.reading, ok, ours.han, ours.fu, tk, theirs.han, theirs.fu))
    print(f"\ncompared {compared}, agreed {agreed}, explained {dict(explained)}")
    print(dict(seen.most_common()))
    assert compared > HANDS // 2
    assert not unexplained, "\n".join(map(str, unexplained[:10]))
