"""Benchmark of the mahjong tile core's win check against the ``mahjong`` package's.

Both libraries answer the same question on the same hands in the same representation:
``paifu.replay.mahjong.tiles.is_winning_shape`` (standard form, seven pairs, thirteen orphans) against
``mahjong.agari.Agari.is_agari``, which answers exactly that. The headline figures are on
hands held as 34-count ``bytearray`` objects, the form the mahjong engines hold
(``paifu.replay.mahjong.core.counts_of_holding``) and pass to the check at their call sites; the same
figures follow on 34-count lists (``*_list``), where paifu packs each list into a
``bytearray`` inside its timing. paifu's standard-form check alone (``is_complete``) is an
extra.

Each repetition times every check once over all the hands, in an order that rotates from
one repetition to the next, so that a change in the machine's load touches all of them
alike; the figures are medians over the repetitions (of the rates, and of the per-
repetition ratios). Nothing is cached between passes: every pass does every check (the
only thing built ahead is each library's fixed tables). The load average before the run
is part of the result.

    >>> from paifu.bench.tiles import bench_win_checks
    >>> bench_win_checks(2000)  # doctest: +SKIP
    {'representation': 'bytearray', 'paifu_checks_per_s': ..., 'ratio': ..., 'ratio_list': ..., ...}

Run as a script for a one-line report: ``python -m paifu.bench.tiles [N]``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from paifu.replay.mahjong.tiles import is_complete, is_winning_shape, tile_index, tile_set

__all__ = ["bench_win_checks", "make_hands"]


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


def _pass(check: Callable[[Any], bool], hands: Sequence[Any]) -> tuple[float, list[bool]]:
    start = time.perf_counter()
    answers = [check(h) for h in hands]
    return time.perf_counter() - start, answers


def _compare(checks: dict[str, Callable[[Any], bool]], hands: Sequence[Any], repeat: int
             ) -> tuple[dict[str, list[float]], dict[str, list[bool]]]:
    """Seconds per pass of each check, ``repeat`` passes each, interleaved, and the answers."""
    names = list(checks)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    answers: dict[str, list[bool]] = {}
    for _ in range(2):  # warm-up passes (tables, caches), not timed
        for name in names:
            answers[name] = _pass(checks[name], hands)[1]
    for r in range(max(1, repeat)):
        for name in names[r % len(names):] + names[:r % len(names)]:
            seconds[name].append(_pass(checks[name], hands)[0])
    return seconds, answers


def _figures(checks: dict[str, Callable[[Any], bool]], hands: Sequence[Any], repeat: int,
             suffix: str) -> dict[str, Any]:
    """Rates, median ratios and agreement of the checks on one representation of the hands."""
    seconds, answers = _compare(checks, hands, repeat)

    def rate(name: str) -> int:
        return round(len(hands) / statistics.median(seconds[name]))

    def ratio(name: str) -> float:
        return round(statistics.median(p / o for p, o in zip(seconds["pkg"], seconds[name])), 2)

    out: dict[str, Any] = {f"paifu{suffix}_checks_per_s": rate("paifu"),
                           f"paifu_standard{suffix}_checks_per_s": rate("paifu_standard")}
    has_pkg = "pkg" in checks
    out[f"mahjong_pkg{suffix}_checks_per_s"] = rate("pkg") if has_pkg else None
    out[f"ratio{suffix}"] = ratio("paifu") if has_pkg else None
    out[f"ratio_standard{suffix}"] = ratio("paifu_standard") if has_pkg else None
    out[f"agree{suffix}"] = answers["pkg"] == answers["paifu"] if has_pkg else None
    return out


def bench_win_checks(n_hands: int = 20000, seed: int = 1, repeat: int = 7) -> dict[str, Any]:
    """Time paifu's win checks and ``mahjong``'s ``Agari.is_agari`` on the same hands.

    Returns, on the hands as ``bytearray`` (the engines' form): checks per second (median
    of ``repeat`` passes) of paifu's check of every form (``paifu_checks_per_s``), of its
    standard-form check alone, and of the package's; the median per-pass ratio paifu /
    package (``ratio``, None when the ``mahjong`` package is missing) and whether the two
    libraries agreed on every hand (``agree``). The same figures on the hands as lists
    carry the suffix ``_list``; ``ratio_vs_best`` sets paifu on bytearrays against the package
    on whichever form it checks faster. ``complete_hands`` counts the complete hands; ``load`` is
    the load average (1, 5 and 15 minutes) before the run.
    """
    load = [round(x, 2) for x in os.getloadavg()]
    hands = make_hands(n_hands, seed)
    checks: dict[str, Callable[[Any], bool]] = {"paifu": is_winning_shape, "paifu_standard": is_complete}
    try:
        from mahjong.agari import Agari
    except ImportError:
        Agari = None  # type: ignore[assignment,misc]
    if Agari is not None:
        checks["pkg"] = Agari().is_agari
    result: dict[str, Any] = {"n_hands": n_hands, "repeat": repeat, "representation": "bytearray", "load": load,
                              "complete_hands": sum(map(is_winning_shape, hands))}
    result.update(_figures(checks, [bytearray(h) for h in hands], repeat, ""))
    result.update(_figures(checks, hands, repeat, "_list"))
    # the strictest comparison: paifu on its engines' form against the package on whichever
    # form it checks faster (its own lists, as a rule), rates' medians
    pkg_best = max(result.get("mahjong_pkg_checks_per_s") or 0, result.get("mahjong_pkg_list_checks_per_s") or 0)
    result["ratio_vs_best"] = round(result["paifu_checks_per_s"] / pkg_best, 2) if pkg_best else None
    return result


if __name__ == "__main__":
    print(bench_win_checks(int(sys.argv[1]) if len(sys.argv) > 1 else 20000))
