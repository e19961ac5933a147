"""Set-up lines every family shares: the seat a deal line names, and where its cards stand.

``deal A: 3C 4C ...`` reads the same in every game; what is dealt, and how many, is each
game's own business.
"""

from __future__ import annotations

import random
from typing import Callable, Container

from paifu.notation.model import CardsArg, Event, SeatArg, WordArg

from .engine import Violation


def deal_seat(ev: Event, seats: list[str], dealt: Container[str], example: str) -> str:
    """The seat a deal line names; a missing, unknown or twice-dealt seat is a violation.

    ``example`` shows the family's cards in the message (``"3C 4C"``, ``"123m456p"``).
    """
    if not ev.args or not isinstance(ev.args[0], SeatArg):
        raise Violation("L306", f"a deal line names its seat: 'deal A: {example} ...'", arg=0, event=ev)
    seat = ev.args[0].seat
    if seat not in seats:
        raise Violation("L309", f"no seat {seat} in this game (seats {' '.join(seats)})", arg=0, event=ev)
    if seat in dealt:
        raise Violation("L304", f"seat {seat} is dealt twice", arg=0, event=ev)
    return seat


def card_place(ev: Event, k: int, start: int = 0) -> int | tuple[int, int]:
    """Where the k-th card an event names from ``ev.args[start]`` on stands, as a
    :class:`Violation` points at it: ``(i, j)``, the j-th card of ``ev.args[i]`` (a run of
    cards, ``3C 4C 5D``, or a tile group, ``123m``), or ``i`` for a word standing for a card
    (99's ``JK``)."""
    n = 0
    for i, arg in enumerate(ev.args[start:], start):
        if isinstance(arg, CardsArg):
            if k < n + len(arg.cards):
                return i, k - n
            n += len(arg.cards)
        elif isinstance(arg, WordArg):
            if k == n:
                return i
            n += 1
    return start


def fill_unseen(cards_of: dict[str, list[str]], full: list[str]) -> None:
    """When one seat alone holds unseen cards (``*``), they are the cards nobody else holds.

    ``full`` is every card that can be dealt; seats' lists are completed in place.
    """
    hidden = [s for s, cs in cards_of.items() if "*" in cs]
    if len(hidden) == 1:
        seat = hidden[0]
        known = {c for cs in cards_of.values() for c in cs}
        rest = [c for c in full if c not in known]
        if len(rest) == cards_of[seat].count("*"):
            cards_of[seat] = [c for c in cards_of[seat] if c != "*"] + rest


class StackedShuffle(random.Random):
    """A random source for a stacked deal (``paifu selfplay --aim``): its first shuffle is
    an ordinary one, then ``arrange`` reorders the result (a permutation of the same cards,
    checked), so the game's own ``deal_hand`` deals the stacked pack as the rules deal."""

    def __init__(self, rng: random.Random, arrange: Callable[[list[str], random.Random], list[str]]):
        super().__init__(rng.getrandbits(64))
        self.arrange = arrange
        self.used = False

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        super().shuffle(x)
        if not self.used:
            self.used = True
            stacked = self.arrange(list(x), self)
            if sorted(stacked) != sorted(x):
                raise ValueError("a stacked deal must be a permutation of the pack")
            x[:] = stacked


def put_first(cards: list[str], chosen: list[str]) -> list[str]:
    """The pack with ``chosen`` (each taken once) first, the rest after in their order."""
    rest = list(cards)
    for c in chosen:
        rest.remove(c)
    return list(chosen) + rest
