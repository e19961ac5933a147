"""Benchmark of the tile core's win check against the ``mahjong`` package's.

    >>> from replay.tiles_bench import bench_win_checks
    >>> bench_win_checks(2000)  # doctest: +SKIP
    {'paifu_checks_per_s': ..., 'mahjong_pkg_checks_per_s': ..., 'ratio': ..., ...}

Run as a script for a one-line report: ``python -m replay.tiles_bench [N]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from .tiles import is_complete, is_seven_pairs, is_thirteen_orphans, tile_index, tile_set


def _random_hand(rng: random.Random, wall: list[int]) -> list[int]:
    rng.shuffle(wall)
    counts = [0] * 34
    for t in wall[:14]:
        counts[t] += 1
    return counts


def _complete_hand(rng: random.Random) -> list[int]:
    """Four sets (runs or triplets, at random) and a pair, never a fifth copy."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                start = 9 * rng.randrange(3) + rng.randrange(7)
                for t in range(start, start + 3):
                    counts[t] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def make_hands(n_hands: int, seed: int = 1) -> list[list[int]]:
    """``n_hands`` 14-tile count lists: half dealt from a shuffled 136 set, half complete."""
    rng = random.Random(seed)
    wall = [tile_index(code) for code in tile_set("136")]
    hands = [_complete_hand(rng) if i % 2 else _random_hand(rng, wall) for i in range(n_hands)]
    rng.shuffle(hands)
    return hands


def _rate(check: Callable[[Any], bool], hands: Sequence[Any], repeat: int = 3
          ) -> tuple[float, list[bool]]:
    """Checks per second over ``hands``, best of ``repeat`` passes (machines are shared)."""
    best = float("inf")
    answers: list[bool] = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        answers = [check(h) for h in hands]
        best = min(best, time.perf_counter() - start)
    return len(hands) / best, answers


def bench_win_checks(n_hands: int = 20000, seed: int = 1, repeat: int = 3) -> dict[str, Any]:
    """Time ``is_complete`` and ``mahjong``'s ``Agari().is_agari`` on the same hands.

    Each timing is the best of ``repeat`` passes over all the hands (nothing is cached
    between passes: every pass does every check).

    Returns checks per second for each, their ratio (paifu / mahjong, None when the
    ``mahjong`` package is missing), and as extras: the rate of paifu's check of every form
    (standard, seven pairs, thirteen orphans: what ``is_agari`` answers), whether the two
    agreed on every hand, how many hands were complete, and the same timings with the hands
    held as ``bytearray`` (a representation both libraries accept; it is paifu's fast path).
    """
    hands = make_hands(n_hands, seed)
    paifu_rate, _ = _rate(is_complete, hands, repeat)

    def any_form(counts: Sequence[int]) -> bool:
        return is_complete(counts) or is_seven_pairs(counts) or is_thirteen_orphans(counts)

    any_rate, any_answers = _rate(any_form, hands, repeat)
    packed = [bytearray(h) for h in hands]
    paifu_packed_rate, _ = _rate(is_complete, packed, repeat)
    result: dict[str, Any] = {
        "n_hands": n_hands,
        "complete_hands": sum(any_answers),
        "paifu_checks_per_s": round(paifu_rate),
        "paifu_all_forms_checks_per_s": round(any_rate),
        "paifu_bytearray_checks_per_s": round(paifu_packed_rate),
        "mahjong_pkg_checks_per_s": None,
        "ratio": None,
        "ratio_bytearray": None,
        "agree": None,
    }
    try:
        from mahjong.agari import Agari
    except ImportError:
        return result
    agari = Agari()
    pkg_rate, pkg_answers = _rate(agari.is_agari, hands, repeat)
    pkg_packed_rate, _ = _rate(agari.is_agari, packed, repeat)
    result.update({
        "mahjong_pkg_checks_per_s": round(pkg_rate),
        "mahjong_pkg_bytearray_checks_per_s": round(pkg_packed_rate),
        "ratio": round(paifu_rate / pkg_rate, 2),
        "ratio_bytearray": round(paifu_packed_rate / pkg_packed_rate, 2),
        "agree": pkg_answers == any_answers,
    })
    return result


if __name__ == "__main__":
    print(bench_win_checks(int(sys.argv[1]) if len(sys.argv) > 1 else 20000))
