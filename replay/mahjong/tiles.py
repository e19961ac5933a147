"""The mahjong tile core shared by the mahjong family: tiles, tile sets, hand shapes.

Pure and rules-free: nothing here knows about a game's yaku, fan, claims or payments.

Tiles are written ``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``, ``1z``..``7z`` (East South
West North, white green red) and ``0m 0p 0s`` for red fives. A red five is a five for every
shape question; only scoring cares that it is red (:func:`is_red`).

In the core a tile *kind* is an index 0..33 (0-8 man, 9-17 pin, 18-26 sou, 27-33 honours
E S W N white green red) and a hand is 34 counts ("counts": a list, a tuple, or a
``bytearray`` or ``bytes`` of one count a byte), as in the ``mahjong`` package's 34-format.

Win detection is table driven. A group (one suit's nine counts, or the seven honour counts)
is read as a ``bytes`` key; two tables built once at import (45 822 suit keys, 2 887 honour
keys, about 0.03 s) give every group of some winning form its value: ``8 * sets + pairs``
when it splits into sets and at most one pair, else 64 (a group of all pairs, or of all
orphans). A hand is complete in the standard form when its four values add up to
``8 * (4 - melds) + 1``: at most four dictionary look-ups, no search, the honours first (a
lone honour, in most random hands, ends the check after one). Seven pairs and thirteen
orphans are looked at only for the few hands whose every group has some form
(:func:`is_winning_shape`; the standard form alone: :func:`is_complete`).
Counts held in a ``bytearray`` or ``bytes`` (which every function here accepts, and the
engines hold) skip a conversion and check about three times as fast as a list. A rule that
asks at every discard whether the discard wins for someone is better served still by
computing that player's :func:`waits` once per change of hand.

The wildcard, shanten and decomposition questions use per-group tables filled lazily
(memoized), so that each suit pattern is worked out once per process.

Counts are not capped at four: the tables answer for any counts (within four sets and a
pair per group), which keeps brute-force cross-checks simple. Callers who care about a
fifth copy say so (:func:`waits` never offers a tile whose four copies are in the hand).

    >>> is_complete(counts_of("123m456p789s11122z"))
    True
    >>> [tile_code(t) for t in waits(counts_of("1112345678999m"))]
    ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

import operator
import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "SUITS", "HONOURS", "CODES", "KIND_OF_CODE", "ORPHANS", "DRAGONS", "WINDS",
    "tile_index", "tile_code", "is_red", "is_honour", "suit_of", "rank_of",
    "parse_tiles", "counts_of", "codes_of", "sort_codes", "tile_set", "TILE_SET_PRESETS",
    "is_complete", "is_winning_shape", "is_seven_pairs", "is_thirteen_orphans",
    "Decomposition", "decompositions",
    "wild_needs", "is_complete_with_wild",
    "waits", "shanten",
]

# --------------------------------------------------------------------------- tiles

SUITS = "mps"
"""The three numbered suits, in canonical order: man, pin, sou."""

HONOURS = "1234567"
"""Honour ranks: East South West North, white green red."""

CODES: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in range(1, 10)) + tuple(
    f"{r}z" for r in range(1, 8))
"""The plain code of each kind, by index (``CODES[4] == "5m"``)."""

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The thirteen terminal and honour kinds."""

WINDS: tuple[int, ...] = (27, 28, 29, 30)
DRAGONS: tuple[int, ...] = (31, 32, 33)

_INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
_INDEX.update({"0m": 4, "0p": 13, "0s": 22})
KIND_OF_CODE: dict[str, int] = _INDEX
"""Every tile code (red fives included) to its kind: :func:`tile_index` as a dictionary, for
hot loops. Read only."""
_SUIT_ORDER = {"m": 0, "p": 1, "s": 2, "z": 3}


def tile_index(code: str) -> int:
    """The kind index 0..33 of a tile code; a red five is its suit's five.

    >>> tile_index("1m"), tile_index("0p"), tile_index("5p"), tile_index("7z")
    (0, 13, 13, 33)
    """
    try:
        return _INDEX[code]
    except (KeyError, TypeError):
        raise ValueError(f"not a tile code: {code!r}") from None


def tile_code(index: int) -> str:
    """The plain code of kind ``index`` (never a red five): ``tile_code(4) == "5m"``."""
    if not 0 <= index < 34:
        raise ValueError(f"not a tile index: {index!r}")
    return CODES[index]


def is_red(code: str) -> bool:
    """Whether ``code`` is a red five (``0m``, ``0p``, ``0s``)."""
    tile_index(code)
    return code[0] == "0"


def is_honour(index: int) -> bool:
    """Whether kind ``index`` is an honour (wind or dragon)."""
    return index >= 27


def suit_of(index: int) -> str:
    """The suit letter of kind ``index``: ``m``, ``p``, ``s`` or ``z``."""
    return "mpsz"[index // 9] if index < 27 else "z"


def rank_of(index: int) -> int:
    """The rank of kind ``index``: 1..9 in a suit, 1..7 for honours."""
    return index % 9 + 1 if index < 27 else index - 26


_COMPACT = re.compile(r"([0-9]+)([mpsz])")


def parse_tiles(text: str) -> list[str]:
    """Tile codes from text, compact (``123m406p11z``) or spaced (``1m 2m 3m``) or mixed.

    >>> parse_tiles("12m 0p 77z")
    ['1m', '2m', '0p', '7z', '7z']
    """
    out: list[str] = []
    for word in text.split():
        pos = 0
        for m in _COMPACT.finditer(word):
            if m.start() != pos:
                break
            for digit in m.group(1):
                code = digit + m.group(2)
                tile_index(code)
                out.append(code)
            pos = m.end()
        if pos != len(word):
            raise ValueError(f"not a tile list: {word!r}")
    return out


def counts_of(codes: Iterable[str] | str) -> list[int]:
    """The 34 counts of some tiles (codes, or text for :func:`parse_tiles`)."""
    if isinstance(codes, str):
        codes = parse_tiles(codes)
    counts = [0] * 34
    for code in codes:
        counts[tile_index(code)] += 1
    return counts


def codes_of(counts: Sequence[int]) -> list[str]:
    """Plain codes of a count vector, in canonical order (the inverse of :func:`counts_of`)."""
    return [CODES[i] for i in range(34) for _ in range(counts[i])]


def _sort_key(code: str) -> tuple[int, int, int]:
    tile_index(code)
    rank = int(code[0])
    return (_SUIT_ORDER[code[1]], rank or 5, 0 if rank == 0 else 1)


def sort_codes(codes: Iterable[str]) -> list[str]:
    """Codes in canonical hand order: m, p, s, z by rank; a red five just before a plain five.

    >>> sort_codes(["5p", "1z", "0p", "9m", "5p"])
    ['9m', '0p', '5p', '5p', '1z']
    """
    return sorted(codes, key=_sort_key)


# --------------------------------------------------------------------------- tile sets

TILE_SET_PRESETS: dict[str, str] = {
    "136": "all 34 kinds x4 (reds: pass e.g. reds=('0m','0p','0s'))",
    "108": "sanma: 1m 9m, pin, sou, honours x4; one red 5p and one red 5s by default",
    "sanma": "same as 108",
    "84": "kawuxing: two suits (suits='ps' etc.) and the dragons 5z 6z 7z, x4",
    "kawuxing": "same as 84",
}


def tile_set(kind: str | None = None, *, suits: str | None = None, honours: str | None = None,
             copies: int = 4, reds: Sequence[str] | None = None,
             exclude: Iterable[str] = ()) -> list[str]:
    """The codes of a game's full set of tiles, in canonical order.

    Generally: ``copies`` of every rank of each suit in ``suits`` and of each honour rank in
    ``honours`` ("1234567" all, "567" the dragons, "" none), less the kinds in ``exclude``;
    then each code of ``reds`` (repeat one for several) replaces one plain five of its suit.
    Presets by ``kind`` fill in the defaults (explicit arguments win):

    - ``"136"``: suits "mps", all honours, no reds.
    - ``"108"`` / ``"sanma"``: 2m..8m excluded, all honours, reds ("0p", "0s"). A ``0m``
      in ``reds`` (the 赤五萬 option) has no plain 5m to replace, so it replaces a North
      (4z), as the option's rule 1 says; which tile it counts as is for the rules.
    - ``"84"`` / ``"kawuxing"``: the two suits of ``suits`` (required, e.g. "ps") and the
      dragons "567".

    >>> len(tile_set("136")), len(tile_set("108")), len(tile_set("84", suits="ps"))
    (136, 108, 84)
    >>> len(tile_set(suits="mps", honours="")), tile_set("108").count("0p")
    (108, 1)
    """
    if kind is None or kind == "136":
        suits = "mps" if suits is None else suits
        honours = HONOURS if honours is None else honours
        reds = () if reds is None else reds
    elif kind in ("108", "sanma"):
        suits = "mps" if suits is None else suits
        honours = HONOURS if honours is None else honours
        reds = ("0p", "0s") if reds is None else reds
        exclude = tuple(exclude) + tuple(f"{r}m" for r in range(2, 9))
    elif kind in ("84", "kawuxing"):
        if suits is None or len(suits) != 2:
            raise ValueError("the 84-tile set needs two suits, e.g. suits='ps'")
        honours = "567" if honours is None else honours
        reds = () if reds is None else reds
    else:
        raise ValueError(f"unknown tile set {kind!r}; presets: {', '.join(TILE_SET_PRESETS)}")
    if any(s not in SUITS for s in suits) or len(set(suits)) != len(suits):
        raise ValueError(f"bad suits {suits!r}: letters from 'mps', each once")
    if any(h not in HONOURS for h in honours) or len(set(honours)) != len(honours):
        raise ValueError(f"bad honours {honours!r}: digits from '1234567', each once")
    excluded = {tile_index(code) for code in exclude}
    kinds = sorted({_INDEX[f"{r}{s}"] for s in suits for r in range(1, 10)}
                   | {_INDEX[f"{h}z"] for h in honours})
    tiles = [CODES[i] for i in kinds if i not in excluded for _ in range(copies)]
    for red in reds:
        if not is_red(red):
            raise ValueError(f"not a red five: {red!r}")
        plain = "5" + red[1]
        if plain in tiles:
            tiles[tiles.index(plain)] = red
        elif kind in ("108", "sanma") and red == "0m" and "4z" in tiles:
            tiles[tiles.index("4z")] = red
        else:
            raise ValueError(f"no plain {plain} left for the red five {red}")
    return sort_codes(tiles)


# --------------------------------------------------------------------------- win tables


def _group_table(size: int, runs: bool) -> dict[bytes, int]:
    """Every group pattern made of at most four sets and at most one pair.

    Value: ``8 * sets + pairs``, so that a hand's four values add up to
    ``8 * (4 - melds_done) + 1`` exactly when it is complete.
    """
    shapes: list[tuple[int, ...]] = []
    for i in range(size):
        shapes.append(tuple(3 if j == i else 0 for j in range(size)))
    if runs:
        for i in range(size - 2):
            shapes.append(tuple(1 if i <= j <= i + 2 else 0 for j in range(size)))
    level = {tuple([0] * size)}
    sets_only: dict[tuple[int, ...], int] = {tuple([0] * size): 0}
    for n in range(1, 5):
        level = {tuple(a + b for a, b in zip(pattern, shape))
                 for pattern in level for shape in shapes}
        for pattern in level:
            sets_only[pattern] = n
    table: dict[bytes, int] = {}
    for pattern, n in sets_only.items():
        table[bytes(pattern)] = 8 * n
        for i in range(size):
            with_pair = list(pattern)
            with_pair[i] += 2
            table[bytes(with_pair)] = 8 * n + 1
    return table


# A group's value is 8 * sets + pairs, so that a hand is standard-complete when its four
# values add up to exactly 8 * (4 - melds_done) + 1. A group with no standard reading but
# another form (all pairs, or all orphans: seven pairs and thirteen orphans are made of
# such groups) is worth 64, more than any target; a group of no form at all is missing, and
# ends the check. A hand's sum stays at most 4 * 64 = 256: one of CPython's cached small
# ints, so that adding allocates nothing.
_NO_STANDARD = 64
_TARGETS = (33, 25, 17, 9, 1)  # by melds_done


def _group_values(size: int, runs: bool) -> dict[bytes, int]:
    """Every group pattern of some winning form, with its value (see above)."""
    values = _group_table(size, runs)
    for mask in range(1 << size):  # all pairs
        values.setdefault(bytes(2 if mask >> i & 1 else 0 for i in range(size)), _NO_STANDARD)
    orphans = range(size) if size == 7 else (0, 8)  # every honour; a suit's terminals
    for mask in range(1 << len(orphans)):  # all orphans, once or twice each
        doubled = {k for bit, k in enumerate(orphans) if mask >> bit & 1}
        values.setdefault(bytes(2 if i in doubled else 1 if i in orphans else 0 for i in range(size)),
                          _NO_STANDARD)
    return values


_SUIT_VALUES: dict[bytes, int] = _group_values(9, True)  # 45 822 keys
_HONOUR_VALUES: dict[bytes, int] = _group_values(7, False)  # 2 887 keys: stays in the cache

# What a check touches is module-level (cheaper per call than closure cells). struct reads
# the group keys out of a buffer (bytes, bytearray) without a copy of the counts: the
# honours alone first, since a lone honour (most random hands, and most of the hands a rule
# asks about at a discard) ends the check after one look-up of a small key; then the three
# suits, one at a time. A list is packed with bytearray() first, the quickest conversion.
_honours_of = struct.Struct("27x7s").unpack  # raises struct.error unless there are 34 counts
_suits_of = struct.Struct("9s9s9s").unpack_from
_honour_value = _HONOUR_VALUES.get
_suit_value = _SUIT_VALUES.get


# The two checks repeat their first lines rather than share a helper: a call would cost a
# tenth of a check.
def is_complete(counts: Sequence[int], melds_done: int = 0) -> bool:
    """Whether the concealed ``counts`` split into ``4 - melds_done`` sets and one pair.

    Sets are runs (three consecutive ranks of one suit) and triplets (any kind).
    Standard form only: see :func:`is_winning_shape` for every form. ``counts`` is 34
    counts: a list, tuple, or (fastest) a ``bytearray`` or ``bytes``; ``melds_done`` is
    0..4, the sets already declared (a kong counts as one).

    >>> is_complete(counts_of("123m456p789s11122z")), is_complete(counts_of("11m"), 4)
    (True, True)
    >>> is_complete(counts_of("123m456p789s11123z"))
    False
    """
    if counts.__class__ is list:
        if 1 in counts[27:]:  # a lone honour fits no set and no pair: most random hands
            return False
        counts = bytearray(counts)
    try:
        honours, = _honours_of(counts)
    except TypeError:  # a tuple, or another sequence
        counts = bytearray(counts)
        honours, = _honours_of(counts)
    total = _honour_value(honours)
    if total is None:
        return False
    man, pin, sou = _suits_of(counts)
    value = _suit_value(man)
    if value is None:
        return False
    total += value
    value = _suit_value(pin)
    if value is None:
        return False
    total += value
    value = _suit_value(sou)
    return value is not None and total + value == _TARGETS[melds_done]


def is_winning_shape(counts: Sequence[int], melds_done: int = 0) -> bool:
    """Whether ``counts`` are complete in any form: the standard form of
    :func:`is_complete`, or (only with ``melds_done == 0``) seven pairs of seven
    distinct kinds (:func:`is_seven_pairs`) or thirteen orphans
    (:func:`is_thirteen_orphans`). The question ``mahjong``'s ``Agari.is_agari`` answers.
    ``counts`` as for :func:`is_complete`.

    >>> is_winning_shape(counts_of("1199m1188p2255s77z")), is_winning_shape(counts_of("19m19p19s12345677z"))
    (True, True)
    >>> is_winning_shape(counts_of("1199m1188p2255s77z"), 1)
    False
    """
    if counts.__class__ is list:
        z = counts[27:]
        if 1 in z and 0 in z:  # a lone honour and a missing one: no form at all
            return False
        counts = bytearray(counts)
    try:
        honours, = _honours_of(counts)
    except TypeError:
        counts = bytearray(counts)
        honours, = _honours_of(counts)
    total = _honour_value(honours)
    if total is None:
        return False
    man, pin, sou = _suits_of(counts)
    value = _suit_value(man)
    if value is None:
        return False
    total += value
    value = _suit_value(pin)
    if value is None:
        return False
    total += value
    value = _suit_value(sou)
    if value is None:
        return False
    if total + value == _TARGETS[melds_done]:
        return True
    # seven pairs holds no single tile, thirteen orphans every honour
    if melds_done or (1 in counts and 0 in honours):
        return False
    return is_seven_pairs(counts) or is_thirteen_orphans(counts)


def is_seven_pairs(counts: Sequence[int], quad_as_two_pairs: bool = False) -> bool:
    """Whether 14 concealed tiles are seven pairs: seven distinct kinds twice each, or, with
    ``quad_as_two_pairs``, four of a kind may count as two of the pairs."""
    if 1 in counts:  # a single tile: most hands (and one scan, where a bytearray's count() is slow)
        return False
    if quad_as_two_pairs:  # three scans in C rather than a generator over 34 counts
        return counts.count(0) + counts.count(2) + counts.count(4) == 34 and sum(counts) == 14
    return counts.count(2) == 7 and counts.count(0) == 27


_orphan_counts = operator.itemgetter(*ORPHANS)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """Whether 14 concealed tiles are one of each terminal and honour plus a second of one."""
    held = _orphan_counts(counts)
    return 0 not in held and held.count(2) == 1 and held.count(1) == 12 and sum(counts) == 14


# --------------------------------------------------------------------------- decompositions


@dataclass(frozen=True, order=True)
class Decomposition:
    """One reading of a complete hand: the pair's kind and the sets.

    ``sets`` is sorted; each is ``("run", lowest kind)`` or ``("pung", kind)``.
    """

    pair: int
    sets: tuple[tuple[str, int], ...]

    def runs(self) -> list[int]:
        """The lowest kind of each run."""
        return [t for k, t in self.sets if k == "run"]

    def pungs(self) -> list[int]:
        """The kind of each triplet."""
        return [t for k, t in self.sets if k == "pung"]

    def describe(self) -> str:
        """A short text in tile order, e.g. ``123m 44p 789s 777z``."""
        parts = []
        for t, kind in sorted((t, kind) for kind, t in self.sets):
            if kind == "run":
                parts.append(f"{rank_of(t)}{rank_of(t) + 1}{rank_of(t) + 2}{suit_of(t)}")
            else:
                parts.append(f"{rank_of(t)}" * 3 + suit_of(t))
        pair = f"{rank_of(self.pair)}" * 2 + suit_of(self.pair)
        at = sum(1 for t, _ in sorted((t, k) for k, t in self.sets) if t <= self.pair)
        parts.insert(at, pair)
        return " ".join(parts)


def _set_splits(c: list[int], start: int) -> Iterable[list[tuple[str, int]]]:
    """Every canonical split of ``c`` (modified in place, restored) into sets only."""
    i = start
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        yield []
        return
    n = c[i]
    can_run = i < 27 and i % 9 <= 6
    for pungs in range(n // 3, -1, -1):
        runs = n - 3 * pungs
        if runs and not (can_run and c[i + 1] >= runs and c[i + 2] >= runs):
            continue
        c[i] -= n
        if runs:
            c[i + 1] -= runs
            c[i + 2] -= runs
        here = [("pung", i)] * pungs + [("run", i)] * runs
        for rest in _set_splits(c, i + 1):
            yield here + rest
        c[i] += n
        if runs:
            c[i + 1] += runs
            c[i + 2] += runs


def decompositions(counts: Sequence[int], melds_done: int = 0) -> list[Decomposition]:
    """Every way to read complete concealed ``counts`` as sets plus a pair (standard form).

    Empty when the hand is not complete. Each reading appears once; the list is sorted.

    >>> [d.describe() for d in decompositions(counts_of("111222333m789p44s"))]
    ['111m 222m 333m 789p 44s', '123m 123m 123m 789p 44s']
    """
    if not is_complete(counts, melds_done):
        return []
    c = list(counts)
    found: dict[Decomposition, None] = {}
    for p in range(34):
        if c[p] < 2:
            continue
        c[p] -= 2
        for sets in _set_splits(c, 0):
            if len(sets) == 4 - melds_done:
                found[Decomposition(p, tuple(sorted(sets)))] = None
        c[p] += 2
    return sorted(found)


# --------------------------------------------------------------------------- wildcards

_INF = 99
_WILD: dict[tuple[bytes, bool], tuple[int, int]] = {}


def _wild_need(key: bytes, runs: bool) -> tuple[int, int]:
    """(wildcards to make the group sets only, wildcards to make it sets + one pair)."""
    memo = _WILD.get((key, runs))
    if memo is not None:
        return memo
    c = list(key)
    size = len(c)
    i = 0
    while i < size and c[i] == 0:
        i += 1
    if i == size:
        result = (0, 2)
        _WILD[(key, runs)] = result
        return result
    best_s = best_p = _INF

    def take(used: list[int], cost: int, pair: bool = False) -> None:
        nonlocal best_s, best_p
        for j, k in enumerate(used):
            c[j] -= k
        sub_s, sub_p = _wild_need(bytes(c), runs)
        for j, k in enumerate(used):
            c[j] += k
        if pair:
            best_p = min(best_p, cost + sub_s)
        else:
            best_s = min(best_s, cost + sub_s)
            best_p = min(best_p, cost + sub_p)

    zero = [0] * size
    # a triplet holding k real copies of i
    for k in range(1, min(c[i], 3) + 1):
        used = zero[:]
        used[i] = k
        take(used, 3 - k)
    # a run holding a real i; lower places are wild (they hold no real tile), higher ones
    # take a real tile or a wildcard
    if runs:
        for s in (i - 2, i - 1, i):
            if s < 0 or s > size - 3:
                continue
            higher = [j for j in range(i + 1, s + 3) if c[j] > 0]
            for mask in range(1 << len(higher)):
                used = zero[:]
                used[i] = 1
                for bit, j in enumerate(higher):
                    if mask >> bit & 1:
                        used[j] = 1
                take(used, 3 - sum(used))
    # the pair holding real i
    for k in range(1, min(c[i], 2) + 1):
        used = zero[:]
        used[i] = k
        take(used, 2 - k, pair=True)
    result = (best_s, best_p)
    _WILD[(key, runs)] = result
    return result


def wild_needs(counts: Sequence[int]) -> list[tuple[int, int]]:
    """Per group (man, pin, sou, honours): wildcards needed to make it sets only, and to make
    it sets plus one pair (two wildcards alone can always be the pair)."""
    b = bytes(counts)
    return [_wild_need(b[:9], True), _wild_need(b[9:18], True), _wild_need(b[18:27], True),
            _wild_need(b[27:], False)]


def is_complete_with_wild(counts: Sequence[int], wild: int, melds_done: int = 0) -> bool:
    """Whether ``counts`` plus ``wild`` wildcards (removed from ``counts``, each free to
    stand for any kind) split into ``4 - melds_done`` sets and a pair.

    A wildcard may stand for a kind whose four real copies are all in the hand (the
    tables do not cap counts); spare wildcards make triplets, two make the pair.

    >>> is_complete_with_wild(counts_of("123m456p789s1z"), 1, melds_done=1)
    True
    >>> is_complete_with_wild(counts_of("13m45p79s11z"), 3, melds_done=1)
    True
    >>> is_complete_with_wild(counts_of("13m47p79s11z"), 3, melds_done=1)
    False
    """
    if wild == 0:
        return is_complete(counts, melds_done)
    if wild < 0 or sum(counts) + wild != 14 - 3 * melds_done:
        return False
    (m, mp), (p, pp), (s, sp), (z, zp) = wild_needs(counts)  # (sets only, sets + pair) each
    return m + p + s + z + min(mp - m, pp - p, sp - s, zp - z) <= wild


# --------------------------------------------------------------------------- waits


def _kinds(allowed: Iterable[int | str] | None) -> Iterable[int]:
    if allowed is None:
        return range(34)
    return sorted({a if isinstance(a, int) else tile_index(a) for a in allowed})


def waits(counts: Sequence[int], melds_done: int = 0, allowed: Iterable[int | str] | None = None,
          *, seven_pairs: bool = False, thirteen_orphans: bool = False,
          quad_as_two_pairs: bool = False) -> list[int]:
    """The kinds that complete a hand of ``13 - 3 * melds_done`` concealed tiles.

    A kind whose four copies are all in the hand is not a wait. ``allowed`` restricts the
    answer to a game's kinds (indices or codes, e.g. ``tile_set("108")``). Seven pairs and
    thirteen orphans count when their flags say so (only with ``melds_done == 0``).

    >>> [tile_code(t) for t in waits(counts_of("123m456p789s1122z"))]
    ['1z', '2z']
    """
    c = bytearray(counts)
    closed = melds_done == 0
    out = []
    for t in _kinds(allowed):
        if c[t] >= 4:
            continue
        c[t] += 1
        if (is_complete(c, melds_done)
                or (seven_pairs and closed and is_seven_pairs(c, quad_as_two_pairs))
                or (thirteen_orphans and closed and is_thirteen_orphans(c))):
            out.append(t)
        c[t] -= 1
    return out


# --------------------------------------------------------------------------- shanten

# A group's profile: the (pair, sets, partial sets) triples it can be read as, keeping for
# each (pair, sets) the most partial sets (capped at 4). Partial sets are two tiles that a
# third would make a set: a pair, two neighbours, two with a gap.
_PROFILES: dict[bytes, tuple[tuple[int, int, int], ...]] = {}


def _profile(key: bytes, runs: bool) -> tuple[tuple[int, int, int], ...]:
    memo = _PROFILES.get(key)
    if memo is not None:
        return memo
    c = list(key)
    size = len(c)
    i = 0
    while i < size and c[i] == 0:
        i += 1
    if i == size:
        _PROFILES[key] = ((0, 0, 0),)
        return _PROFILES[key]
    best: dict[tuple[int, int], int] = {}

    def option(used: Sequence[tuple[int, int]], dp: int, dm: int, dt: int) -> None:
        for j, k in used:
            c[j] -= k
        sub = _profile(bytes(c), runs)
        for j, k in used:
            c[j] += k
        for p, m, t in sub:
            p2, m2 = p + dp, m + dm
            if p2 > 1 or m2 > 4:
                continue
            t2 = min(t + dt, 4)
            if best.get((p2, m2), -1) < t2:
                best[(p2, m2)] = t2

    option([(i, 1)], 0, 0, 0)  # one copy of i left on its own
    if c[i] >= 3:
        option([(i, 3)], 0, 1, 0)
    if c[i] >= 2:
        option([(i, 2)], 1, 0, 0)  # the pair
        option([(i, 2)], 0, 0, 1)  # a partial triplet
    if runs and i + 2 < size and c[i + 1] and c[i + 2]:
        option([(i, 1), (i + 1, 1), (i + 2, 1)], 0, 1, 0)
    if runs and i + 1 < size and c[i + 1]:
        option([(i, 1), (i + 1, 1)], 0, 0, 1)
    if runs and i + 2 < size and c[i + 2]:
        option([(i, 1), (i + 2, 1)], 0, 0, 1)
    result = tuple((p, m, t) for (p, m), t in sorted(best.items()))
    _PROFILES[key] = result
    return result


def _combine(a: tuple[tuple[int, int, int], ...], b: tuple[tuple[int, int, int], ...],
             max_sets: int) -> tuple[tuple[int, int, int], ...]:
    best: dict[tuple[int, int], int] = {}
    for pa, ma, ta in a:
        for pb, mb, tb in b:
            p, m = pa + pb, ma + mb
            if p > 1 or m > max_sets:
                continue
            t = ta + tb
            if best.get((p, m), -1) < t:
                best[(p, m)] = t
    return tuple((p, m, t) for (p, m), t in best.items())


def shanten(counts: Sequence[int], melds_done: int = 0, *, seven_pairs: bool = False,
            thirteen_orphans: bool = False) -> int:
    """How many tiles away from ready (0) a hand is; -1 when it is complete.

    Standard form: ``8 - 2*sets - partial sets - pair`` at best over every reading, with
    sets counting ``melds_done`` and partial sets limited to the free places. Counts of
    ``13 - 3k`` or ``14 - 3k`` tiles are the usual; copies are not limited to four, so a
    hand waiting only on a fifth copy counts as ready. ``seven_pairs`` and
    ``thirteen_orphans`` also consider those forms (closed hands only).

    >>> shanten(counts_of("123m456p789s1122z")), shanten(counts_of("123m456p789s11122z"))
    (0, -1)
    """
    b = bytes(counts)
    room = 4 - melds_done
    acc = _combine(_profile(b[:9], True), _profile(b[9:18], True), room)
    acc = _combine(acc, _profile(b[18:27], True), room)
    acc = _combine(acc, _profile(b[27:], False), room)
    best = 8
    for p, m, t in acc:
        sets = m + melds_done
        value = 8 - 2 * sets - min(t, 4 - sets) - p
        if value < best:
            best = value
    if melds_done == 0 and seven_pairs:
        pairs = sum(1 for x in counts if x >= 2)
        kinds = sum(1 for x in counts if x >= 1)
        best = min(best, 6 - pairs + max(0, 7 - kinds))
    if melds_done == 0 and thirteen_orphans:
        present = sum(1 for i in ORPHANS if counts[i])
        paired = any(counts[i] >= 2 for i in ORPHANS)
        best = min(best, 13 - present - (1 if paired else 0))
    return best
