"""The mahjong tile core (replay/mahjong/tiles.py): hand-worked cases, then properties checked
against brute force and against the ``mahjong`` package (``Agari``, ``Shanten``)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paifu.replay.mahjong.tiles import (
    CODES,
    ORPHANS,
    Decomposition,
    codes_of,
    counts_of,
    decompositions,
    is_complete,
    is_complete_with_wild,
    is_red,
    is_seven_pairs,
    is_thirteen_orphans,
    is_winning_shape,
    parse_tiles,
    shanten,
    sort_codes,
    tile_code,
    tile_index,
    tile_set,
    waits,
    wild_needs,
)
from paifu.bench.tiles import bench_win_checks, make_hands

try:  # the reference implementation (an optional "bench" dependency)
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten
except ImportError:  # pragma: no cover
    Agari = Shanten = None  # type: ignore[assignment,misc]

needs_mahjong = pytest.mark.skipif(Agari is None, reason="the mahjong package is not installed")


def hand(text: str) -> list[int]:
    return counts_of(text)


def codes(indices: list[int]) -> list[str]:
    return [tile_code(t) for t in indices]


def plus(counts: list[int], *tiles: int) -> list[int]:
    out = list(counts)
    for t in tiles:
        out[t] += 1
    return out


# A slow, obviously right checker, independent of the tables: take the lowest tile, try it
# as the pair (once), a triplet, or the start of a run.
def naive_splits(counts: list[int], sets: int, pair_left: bool = True) -> list[tuple]:
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        return [()] if sets == 0 and not pair_left else []
    found = []
    c = list(counts)
    if pair_left and c[i] >= 2:
        c[i] -= 2
        found += [(("pair", i),) + rest for rest in naive_splits(c, sets, False)]
        c[i] += 2
    if sets and c[i] >= 3:
        c[i] -= 3
        found += [(("pung", i),) + rest for rest in naive_splits(c, sets - 1, pair_left)]
        c[i] += 3
    if sets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        found += [(("run", i),) + rest for rest in naive_splits(c, sets - 1, pair_left)]
    return found


def naive_complete(counts: list[int], melds_done: int = 0) -> bool:
    return bool(naive_splits(counts, 4 - melds_done))


# ---------------------------------------------------------------------- strategies

WALL_136 = [tile_index(code) for code in tile_set("136")]


@st.composite
def dealt(draw: st.DrawFn, size: int = 14) -> list[int]:
    """``size`` tiles from a shuffled 136 set, as counts."""
    order = draw(st.permutations(range(136)))
    return counts_of(CODES[WALL_136[k]] for k in order[:size])


RUNS = [9 * suit + start for suit in range(3) for start in range(7)]


@st.composite
def complete_hands(draw: st.DrawFn, melds_done: int = 0) -> list[int]:
    """A complete concealed hand of ``4 - melds_done`` sets and a pair, no fifth copy.

    A set or pair that would make a fifth copy moves to the next kind (or run) that fits,
    so nothing is filtered out.
    """
    counts = [0] * 34
    for _ in range(4 - melds_done):
        if draw(st.booleans()):
            k = draw(st.integers(0, len(RUNS) - 1))
            while max(counts[RUNS[k]:RUNS[k] + 3]) >= 4:
                k = (k + 1) % len(RUNS)
            for t in range(RUNS[k], RUNS[k] + 3):
                counts[t] += 1
        else:
            t = draw(st.integers(0, 33))
            while counts[t] > 1:
                t = (t + 1) % 34
            counts[t] += 3
    t = draw(st.integers(0, 33))
    while counts[t] > 2:
        t = (t + 1) % 34
    counts[t] += 2
    return counts


# ---------------------------------------------------------------------- tiles and sets


def test_codes_and_indices():
    assert [tile_index(c) for c in ("1m", "9m", "1p", "5p", "0p", "9s", "1z", "7z")] == [
        0, 8, 9, 13, 13, 26, 27, 33]
    assert tile_index("0m") == tile_index("5m") == 4 and tile_index("0s") == 22
    assert all(tile_index(tile_code(i)) == i for i in range(34))
    assert tile_code(31) == "5z"
    assert is_red("0m") and is_red("0s") and not is_red("5m") and not is_red("1z")
    for bad in ("0z", "8z", "10m", "m", "", "5x"):
        with pytest.raises(ValueError):
            tile_index(bad)
    with pytest.raises(ValueError):
        tile_code(34)


def test_parse_counts_and_sort():
    assert parse_tiles("123m 0p 11z") == ["1m", "2m", "3m", "0p", "1z", "1z"]
    assert parse_tiles("1m 2m 3m") == parse_tiles("123m")
    with pytest.raises(ValueError):
        parse_tiles("123")
    c = counts_of(["0p", "5p", "1z"])
    assert c[13] == 2 and c[27] == 1 and sum(c) == 3
    assert codes_of(hand("321m11z")) == ["1m", "2m", "3m", "1z", "1z"]
    assert sort_codes(["1z", "5p", "9s", "0p", "1m", "5m", "0m", "4p"]) == [
        "1m", "0m", "5m", "4p", "0p", "5p", "9s", "1z"]


def test_tile_sets():
    full = tile_set("136")
    assert len(full) == 136 and Counter(full) == {c: 4 for c in CODES}
    assert len(tile_set()) == 136

    sanma = tile_set("108")
    assert len(sanma) == 108 and tile_set("sanma") == sanma
    counts = Counter(sanma)
    assert counts["1m"] == counts["9m"] == 4 and not any(counts[f"{r}m"] for r in range(2, 9))
    assert counts["0p"] == counts["0s"] == 1 and counts["5p"] == counts["5s"] == 3
    assert sanma == sort_codes(sanma)
    assert Counter(tile_set("108", reds=()))["0p"] == 0
    # 赤五萬 option: a red 5m in place of a North, and all 5p/5s red
    aka = Counter(tile_set("108", reds=("0m",) + ("0p",) * 4 + ("0s",) * 4))
    assert aka["0m"] == 1 and aka["4z"] == 3 and aka["0p"] == aka["0s"] == 4 and aka["5p"] == 0
    assert sum(aka.values()) == 108

    kawuxing = Counter(tile_set("84", suits="ps"))
    assert sum(kawuxing.values()) == 84
    assert set(kawuxing) == {f"{r}{s}" for s in "ps" for r in range(1, 10)} | {"5z", "6z", "7z"}
    with pytest.raises(ValueError):
        tile_set("84")

    three_suits = tile_set(suits="mps", honours="")
    assert len(three_suits) == 108 and not any(c.endswith("z") for c in three_suits)
    assert len(tile_set(suits="mps", honours="567")) == 120
    assert Counter(tile_set("136", reds=("0m", "0p", "0s")))["5m"] == 3
    with pytest.raises(ValueError):
        tile_set("99")
    with pytest.raises(ValueError):
        tile_set(suits="mq")


# ---------------------------------------------------------------------- win shapes


def test_complete_examples():
    assert is_complete(hand("123m456p789s111z22z"))
    assert is_complete(tuple(hand("123m456p789s111z22z")))
    assert is_complete(bytearray(hand("123m456p789s111z22z")))
    assert not is_complete(hand("123m456p789s111z23z"))
    assert not is_complete(hand("123m456p789s11z22z"))  # 13 tiles
    assert is_complete(hand("11122233344455m"))
    assert is_complete(hand("11m"), melds_done=4)
    assert is_complete(hand("234s55z"), melds_done=3)
    assert not is_complete(hand("234s55z"), melds_done=2)
    assert not is_complete(hand("123m456p789s111z22z"), melds_done=1)
    assert not is_complete(hand("1111m"), melds_done=3)  # a quad is no set + pair
    assert not is_complete(hand("11223344556677z"))  # honours make no runs
    assert not is_complete(hand("89m1p123456789s11z"))  # no run across suits
    # every function takes counts as a list, a tuple or a bytearray alike
    ready = hand("1112345678999m")
    for form in (ready, tuple(ready), bytearray(ready)):
        assert len(waits(form)) == 9 and shanten(form) == 0
        assert is_complete_with_wild(form, 1) and decompositions(plus(list(form), 4))


@pytest.mark.parametrize("extra", range(9))
def test_nine_gates(extra):
    gates = hand("1112345678999m")
    assert is_complete(plus(gates, extra))
    assert shanten(gates) == 0


def test_seven_pairs_and_orphans():
    pairs = hand("1133m5577p99s1122z")
    assert is_seven_pairs(pairs) and not is_complete(pairs)
    quad = hand("1111m5577p99s1122z")
    assert not is_seven_pairs(quad)
    assert is_seven_pairs(quad, quad_as_two_pairs=True)
    assert not is_seven_pairs(hand("1133m5577p99s112z"))
    orphans = hand("19m19p19s12345677z")
    assert is_thirteen_orphans(orphans) and not is_seven_pairs(orphans)
    assert not is_thirteen_orphans(hand("19m19p19s1234567z5m"))  # no second orphan
    assert not is_thirteen_orphans(hand("119m19p19s1234566z"))  # no 7z, two pairs
    assert not is_thirteen_orphans(hand("19m19p19s1234567z"))  # 13 tiles


def test_winning_shape_examples():
    # every form is_agari knows, and only closed for seven pairs and thirteen orphans
    assert is_winning_shape(hand("123m456p789s111z22z"))
    assert is_winning_shape(hand("234s55z"), 3) and not is_winning_shape(hand("234s55z"), 2)
    pairs, orphans = hand("1133m5577p99s1122z"), hand("19m19p19s12345677z")
    for form in (list, tuple, bytearray, bytes):
        assert is_winning_shape(form(pairs)) and is_winning_shape(form(orphans))
        assert not is_winning_shape(form(pairs), 1) and not is_winning_shape(form(orphans), 1)
    assert not is_winning_shape(hand("1111m5577p99s1122z"))  # a quad is not two pairs here
    assert not is_winning_shape(hand("119m19p19s1234566z"))  # no 7z, two doubled orphans
    assert not is_winning_shape(hand("19m19p19s12345677z1m"))  # 15 tiles
    assert not is_winning_shape(hand("1133m5577p99s1122z1m"))  # 15 tiles
    assert not is_winning_shape(hand("123m456p789s111z23z"))
    # seven pairs whose every group also splits into sets and a pair (2 sets + 4 pairs: not
    # the standard form), and thirteen orphans, in every form of counts
    for text in ("11223344m55p66s77z", "11m22p33s44556677z", "19m19p19s12345677z", "1199m19p19s123456z"):
        for form in (list, tuple, bytearray, bytes):
            assert is_winning_shape(form(hand(text))) == (text != "1199m19p19s123456z"), (text, form)
            assert not is_complete(form(hand(text)))


@st.composite
def near_special(draw: st.DrawFn) -> list[int]:
    """Seven pairs or thirteen orphans, then up to two tiles moved to any kind."""
    if draw(st.booleans()):
        kinds = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True))
        counts = [2 if k in kinds else 0 for k in range(34)]
    else:
        counts = [1 if k in ORPHANS else 0 for k in range(34)]
        counts[draw(st.sampled_from(ORPHANS))] += 1
    for _ in range(draw(st.integers(0, 2))):
        out = draw(st.sampled_from([k for k in range(34) if counts[k]]))
        counts[out] -= 1
        counts[draw(st.integers(0, 33))] += 1
    return counts


@settings(deadline=None, max_examples=400)
@given(st.one_of(dealt(), near_special(), complete_hands()), st.integers(0, 1),
       st.sampled_from([list, tuple, bytearray, bytes]))
def test_winning_shape_is_every_form(counts, melds_done, form):
    expected = is_complete(counts, melds_done) or (
        melds_done == 0 and (is_seven_pairs(counts) or is_thirteen_orphans(counts)))
    assert is_winning_shape(form(counts), melds_done) == expected
    assert is_complete(form(counts), melds_done) == naive_complete(counts, melds_done)
    if Agari is not None and melds_done == 0 and max(counts) <= 4:
        assert is_winning_shape(counts) == Agari().is_agari(counts)


@st.composite
def lumpy(draw: st.DrawFn) -> list[int]:
    """2 to 17 tiles among one to six kinds: many complete groups and copies beyond four."""
    kinds = draw(st.lists(st.integers(0, 33), min_size=1, max_size=6))
    counts = [0] * 34
    for k in draw(st.lists(st.sampled_from(kinds), min_size=2, max_size=17)):
        counts[k] += 1
    return counts


@st.composite
def moved(draw: st.DrawFn, counts: list[int]) -> list[int]:
    """``counts`` with up to two tiles moved to any kind."""
    counts = list(counts)
    for _ in range(draw(st.integers(0, 2))):
        out = draw(st.sampled_from([k for k in range(34) if counts[k]]))
        counts[out] -= 1
        counts[draw(st.integers(0, 33))] += 1
    return counts


def brute_seven_pairs(counts: list[int]) -> bool:
    return sorted(counts) == [0] * 27 + [2] * 7


def brute_thirteen_orphans(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(counts[k] in (1, 2) for k in ORPHANS) and sum(counts[k] for k in ORPHANS) == 14


@settings(deadline=None, max_examples=1500)
@given(st.one_of(lumpy(), dealt(), near_special(), complete_hands().flatmap(moved),
                 st.integers(1, 4).flatmap(lambda k: complete_hands(k)).flatmap(moved)),
       st.integers(0, 4))
def test_win_checks_read_every_form_of_counts_alike(counts, melds_done):
    """The buffer path (bytearray, bytes: the engines' form), the list path and the tuple
    path all answer as a brute-force split and the definitions of the two special forms."""
    standard = naive_complete(counts, melds_done)
    winning = standard or (melds_done == 0 and (brute_seven_pairs(counts) or brute_thirteen_orphans(counts)))
    for form in (bytearray, bytes, list, tuple):
        assert is_complete(form(counts), melds_done) == standard, form
        assert is_winning_shape(form(counts), melds_done) == winning, form


@settings(deadline=None, max_examples=300)
@given(st.one_of(dealt(), near_special()), st.integers(0, 2))
def test_seven_pairs_with_quads_is_its_definition(counts, quads):
    for k in range(quads):  # make some pairs into quads, keeping 14 tiles when it can
        doubled = [t for t in range(34) if counts[t] == 2]
        singles = [t for t in range(34) if counts[t] == 1]
        if len(doubled) > k and len(singles) >= 2:
            counts = list(counts)
            counts[doubled[k]] += 2
            counts[singles[0]] -= 1
            counts[singles[1]] -= 1
    for form in (list, tuple, bytearray):
        assert is_seven_pairs(form(counts), quad_as_two_pairs=True) == (
            sum(counts) == 14 and all(c in (0, 2, 4) for c in counts))


def test_waits_examples():
    gates = hand("1112345678999m")
    assert codes(waits(gates)) == [f"{r}m" for r in range(1, 10)]
    assert codes(waits(hand("123m456p789s1122z"))) == ["1z", "2z"]
    assert codes(waits(hand("123m456p789s11z45s"))) == ["3s", "6s"]
    kawuxing = tile_set("84", suits="ps")
    assert codes(waits(hand("123m456p789s11z45s"), allowed=kawuxing)) == ["3s", "6s"]
    assert codes(waits(hand("123m456p789s11z45s"), allowed=["3s"])) == ["3s"]
    assert codes(waits(hand("123m456p789s11z45s"), allowed=[tile_index("6s")])) == ["6s"]
    assert codes(waits(hand("1z"), melds_done=4)) == ["1z"]
    # all four 1m are in the hand: 1m (a fifth copy) is no wait, though it would complete
    quad = hand("1111m234p567s789s")
    assert waits(quad) == []
    assert is_complete(plus(quad, 0))
    assert codes(waits(hand("11112m234p567s99s"))) == ["3m"]
    assert codes(waits(hand("1111m23m567p789s5z"))) == ["5z"]
    # seven pairs and thirteen orphans only when asked
    six = hand("1133m5577p99s112z")
    assert waits(six) == [] and codes(waits(six, seven_pairs=True)) == ["2z"]
    assert waits(hand("1133m5577p99s111z"), seven_pairs=True) == []  # no pair of 1z twice
    thirteen = hand("19m19p19s1234567z")
    assert waits(thirteen) == []
    assert waits(thirteen, thirteen_orphans=True) == list(ORPHANS)
    assert codes(waits(hand("19m19p19s1234566z"), thirteen_orphans=True)) == ["7z"]


def test_decompositions_examples():
    ds = decompositions(hand("111222333m789p44s"))
    assert [d.describe() for d in ds] == ["111m 222m 333m 789p 44s", "123m 123m 123m 789p 44s"]
    assert ds[0] == Decomposition(
        pair=21, sets=(("pung", 0), ("pung", 1), ("pung", 2), ("run", 15)))
    assert ds[1].runs() == [0, 0, 0, 15] and ds[1].pungs() == []
    assert decompositions(hand("111222333m44m"), melds_done=1) == [
        Decomposition(0, (("run", 0), ("run", 1), ("run", 1))),  # 11 123 234 234
        Decomposition(3, (("pung", 0), ("pung", 1), ("pung", 2))),
        Decomposition(3, (("run", 0), ("run", 0), ("run", 0))),
    ]
    assert decompositions(hand("123m456p789s11z23z")) == []
    # 卡五星: some reading puts the winning 5 between 4 and 6
    ds = decompositions(hand("456p111222s33s789p"))
    assert any(("run", tile_index("4p")) in d.sets for d in ds)
    assert [d.describe() for d in decompositions(hand("11123455678999m"))] == [
        "111m 234m 55m 678m 999m"]
    assert {d.pair for d in decompositions(hand("11223344556677m"))} == {0, 3, 6}


def test_wild_examples():
    # one wildcard: 1112z + W: 111z and the pair 2z+W
    assert is_complete_with_wild(hand("123m456p789s1112z"), 1)
    # 11z 2z + W: either two pairs or a lone tile: no
    assert not is_complete_with_wild(hand("123m456p789s11z2z"), 1)
    # two wildcards fill two gaps: 1W3m, 4W6p
    assert is_complete_with_wild(hand("13m46p789s111z22z"), 2)
    assert not is_complete_with_wild(hand("13m47p789s111z22z"), 2)
    # wildcards in a run's lower end: W89m
    assert is_complete_with_wild(hand("89m123p456p789s1z"), 2)
    # all wild, and a lone tile with four wildcards after three melds
    assert is_complete_with_wild([0] * 34, 14)
    assert is_complete_with_wild(hand("1m"), 4, melds_done=3)
    assert not is_complete_with_wild(hand("1m"), 3, melds_done=3)  # 5 tiles would be 4
    # wild 0 is is_complete; the count must be right
    assert is_complete_with_wild(hand("123m456p789s11122z"), 0)
    assert not is_complete_with_wild(hand("123m456p789s1122z"), 0)
    assert not is_complete_with_wild(hand("123m456p789s1122z"), 2)
    # the per-group needs: 13m needs one for sets, and two for sets and a pair (13m+W+11)
    assert wild_needs(hand("13m"))[0] == (1, 3)
    assert wild_needs(hand("13m"))[3] == (0, 2)
    assert wild_needs(hand("1z"))[3] == (2, 1)


def test_shanten_examples():
    assert shanten(hand("123m456p789s11122z")) == -1
    assert shanten(hand("123m456p789s1122z")) == 0
    assert shanten(hand("123m456p789s11z45s")) == 0
    assert shanten(hand("123m456p789s1123z")) == 1
    assert shanten(hand("123m456p789s1357z")) == 2
    assert shanten(hand("19m19p19s1234567z")) == 8
    assert shanten(hand("19m19p19s1234567z"), thirteen_orphans=True) == 0
    assert shanten(hand("1133m5577p99s112z"), seven_pairs=True) == 0
    assert shanten(hand("11z"), melds_done=4) == -1
    assert shanten(hand("1z"), melds_done=4) == 0
    assert shanten(hand("15m"), melds_done=4) == 0
    assert shanten(hand("159m19p"), melds_done=3) == 2


# ---------------------------------------------------------------------- properties


@needs_mahjong
@settings(deadline=None, max_examples=400)
@given(dealt())
def test_is_complete_agrees_with_mahjong_package(counts):
    agari = Agari()
    ours = is_complete(counts) or is_seven_pairs(counts) or is_thirteen_orphans(counts)
    assert agari.is_agari(counts) == ours
    assert is_complete(counts) == naive_complete(counts)


@settings(deadline=None, max_examples=200)
@given(st.integers(0, 4).flatmap(lambda k: st.tuples(st.just(k), complete_hands(k))),
       st.integers(0, 13), st.integers(1, 33))
def test_complete_hands_and_near_misses(spec, pick, step):
    melds_done, counts = spec
    assert is_complete(counts, melds_done)
    assert shanten(counts, melds_done) == -1
    tiles = [t for t in range(34) for _ in range(counts[t])]
    out = tiles[pick % len(tiles)]
    into = (out + step) % 34
    while into == out or counts[into] >= 4:  # no fifth copy: the package rejects those
        into = (into + 1) % 34
    changed = list(counts)
    changed[out] -= 1
    changed[into] += 1
    assert is_complete(changed, melds_done) == naive_complete(changed, melds_done)
    if Agari is not None:
        assert Agari().is_agari(counts)
        assert is_complete(changed, melds_done) == Agari().is_agari(changed)
    assert (shanten(changed, melds_done) == -1) == is_complete(changed, melds_done)


@settings(deadline=None, max_examples=150)
@given(complete_hands())
def test_decompositions_agree_with_naive(counts):
    ours = decompositions(counts)
    assert ours and len(ours) == len(set(ours))
    naive = {
        Decomposition(next(t for k, t in split if k == "pair"),
                      tuple(sorted(s for s in split if s[0] != "pair")))
        for split in naive_splits(counts, 4)
    }
    assert set(ours) == naive
    for d in ours:
        rebuilt = [0] * 34
        rebuilt[d.pair] += 2
        for kind, t in d.sets:
            for k in ((t, t + 1, t + 2) if kind == "run" else (t, t, t)):
                rebuilt[k] += 1
        assert rebuilt == counts


@settings(deadline=None, max_examples=300)
@given(st.integers(0, 4).flatmap(lambda k: st.tuples(st.just(k), dealt(13 - 3 * k))))
def test_waits_agree_with_brute_force(spec):
    melds_done, counts = spec
    brute = [t for t in range(34) if counts[t] < 4 and naive_complete(plus(counts, t), melds_done)]
    assert waits(counts, melds_done) == brute
    s = shanten(counts, melds_done)
    assert (s == 0) == any(naive_complete(plus(counts, t), melds_done) for t in range(34))
    if melds_done == 0:
        with_forms = [t for t in range(34) if counts[t] < 4 and (
            naive_complete(plus(counts, t)) or is_seven_pairs(plus(counts, t))
            or is_thirteen_orphans(plus(counts, t)))]
        assert waits(counts, seven_pairs=True, thirteen_orphans=True) == with_forms


@needs_mahjong
@settings(deadline=None, max_examples=300)
@given(st.integers(0, 4).flatmap(
    lambda k: st.tuples(st.just(k), st.sampled_from([13, 14]).flatmap(lambda n: dealt(n - 3 * k)))))
def test_shanten_agrees_with_mahjong_package(spec):
    melds_done, counts = spec
    s = shanten(counts, melds_done)
    assert (s == -1) == is_complete(counts, melds_done)
    # the package adds its own corrections for four copies of a kind; compare without them
    if max(counts) < 4:
        regular = Shanten.calculate_shanten_for_regular_hand(counts)
        assert s == regular
    if melds_done == 0 and max(counts) < 4:
        ours = shanten(counts, seven_pairs=True, thirteen_orphans=True)
        assert ours == Shanten.calculate_shanten(counts)


@settings(deadline=None, max_examples=40)
@given(dealt(13))
def test_shanten_is_a_distance(counts):
    """One exchange (draw any kind, discard any tile) brings a hand at most one step nearer,
    and some exchange does: so shanten counts the exchanges to ready."""
    s = shanten(counts)
    best = 99
    for t in range(34):
        drawn = plus(counts, t)
        for d in range(34):
            if drawn[d]:
                drawn[d] -= 1
                best = min(best, shanten(drawn))
                drawn[d] += 1
    assert best == max(s - 1, 0)


def brute_wild(counts: list[int], wild: int, melds_done: int) -> bool:
    return any(is_complete(plus(counts, *combo), melds_done)
               for combo in itertools.combinations_with_replacement(range(34), wild))


@settings(deadline=None, max_examples=200)
@given(st.integers(1, 3), st.integers(0, 3), st.data())
def test_wild_agrees_with_brute_force(wild, melds_done, data):
    size = 14 - 3 * melds_done - wild
    assume(size >= 0)
    counts = data.draw(dealt(size))
    assert is_complete_with_wild(counts, wild, melds_done) == brute_wild(counts, wild, melds_done)


@settings(deadline=None, max_examples=200)
@given(st.integers(0, 3).flatmap(lambda k: st.tuples(st.just(k), complete_hands(k))),
       st.integers(1, 4), st.randoms(use_true_random=False), st.integers(0, 33))
def test_wild_replacing_tiles(spec, wild, rng, other):
    """Tiles of a complete hand turned into wildcards leave it complete; then one more real
    tile swapped for another kind agrees with brute force."""
    melds_done, counts = spec
    tiles = [t for t in range(34) for _ in range(counts[t])]
    assume(len(tiles) >= wild)
    rng.shuffle(tiles)
    rest = counts_of(CODES[t] for t in tiles[wild:])
    assert is_complete_with_wild(rest, wild, melds_done)
    if wild <= 3 and tiles[wild:]:
        rest[tiles[wild]] -= 1
        rest[other] += 1
        assert is_complete_with_wild(rest, wild, melds_done) == brute_wild(rest, wild, melds_done)


def test_benchmark_runs():
    """The benchmark runs and both libraries agree on its hands, held as bytearrays (the
    headline: the engines' form) and as lists (no timing assertions)."""
    result = bench_win_checks(400, seed=3)
    assert result["representation"] == "bytearray" and len(result["load"]) == 3
    assert result["paifu_checks_per_s"] > 0 and result["paifu_list_checks_per_s"] > 0
    assert result["complete_hands"] >= 150
    if result["mahjong_pkg_checks_per_s"] is not None:
        assert result["agree"] is True and result["agree_list"] is True
        assert result["ratio"] > 0 and result["ratio_list"] > 0
    hands = make_hands(10, seed=3)
    assert len(hands) == 10 and all(sum(h) == 14 and max(h) <= 4 for h in hands)
