"""The French-card core: what Big Two, Piquet and 99 share.

Cards are the notation's codes: rank ``23456789TJQKA`` then suit ``CDHS`` (``TD`` is the
ten of diamonds). Each game orders ranks and suits its own way; this module holds the
deck, the code helpers and the reading of cards out of model events.
"""

from __future__ import annotations

import random

from paifu.notation.model import CardsArg, Event

from ..deals import card_place, deal_seat
from ..engine import Violation

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def deck(ranks: str = RANKS, suits: str = SUITS) -> list[str]:
    """Every card of the given ranks and suits, suit by suit."""
    return [r + s for s in suits for r in ranks]


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    out = list(cards)
    rng.shuffle(out)
    return out


def event_cards(event: Event, start: int = 0, allow_unseen: bool = False) -> list[str]:
    """The cards named by ``event.args[start:]``; any other argument is a located violation."""
    cards: list[str] = []
    for i, arg in enumerate(event.args[start:], start):
        if not isinstance(arg, CardsArg):
            text = getattr(arg, "text", None) or getattr(arg, "value", None) or arg.kind
            raise Violation("L305", f"'{text}' is not a card (cards are written like 3C, TD, AS)", arg=i)
        if not allow_unseen and "*" in arg.cards:
            raise Violation("L305", "an unseen card '*' cannot be played: name the card", arg=(i, arg.cards.index("*")))
        cards.extend(arg.cards)
    return cards


def deal_lines(setup: list[Event], seats: list[str]) -> dict[str, tuple[Event, list[str]]]:
    """``deal A: ...`` events -> seat -> (event, cards). Seats dealt twice or unknown are violations."""
    dealt: dict[str, tuple[Event, list[str]]] = {}
    for ev in setup:
        if ev.verb != "deal":
            continue
        seat = deal_seat(ev, seats, dealt, "3C 4C")
        try:
            cards = event_cards(ev, 1, allow_unseen=True)
        except Violation as v:
            v.event = ev
            raise
        dealt[seat] = (ev, cards)
    return dealt


def check_distinct(dealt: dict[str, tuple[Event, list[str]]], full_deck: list[str]) -> None:
    """Every dealt card is in the deck and dealt once (unseen ``*`` aside)."""
    valid = set(full_deck)
    seen: dict[str, str] = {}
    for seat, (ev, cards) in dealt.items():
        for k, card in enumerate(cards):
            if card == "*":
                continue
            if card not in valid:
                raise Violation("L304", f"{card} is not in this game's deck", arg=card_place(ev, k), event=ev)
            if card in seen:
                raise Violation("L304", f"{card} is dealt twice (also to {seen[card]})", arg=card_place(ev, k), event=ev)
            seen[card] = seat


def card_args(cards: list[str]) -> list[CardsArg]:
    """The arguments naming these cards: one item, the run ``3C 4C`` (none for no cards)."""
    return [CardsArg(cards=list(cards))] if cards else []
