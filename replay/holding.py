"""A seat's holding when some of its cards may be unseen (``*`` in the record).

Shared by every family: a multiset of known cards plus a count of unseen ones. Taking a
card that is not among the known ones spends an unseen card, when the card could be there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Holding:
    known: Counter = field(default_factory=Counter)
    unseen: int = 0

    @classmethod
    def of(cls, cards: list[str]) -> "Holding":
        return cls(Counter(c for c in cards if c != "*"), sum(1 for c in cards if c == "*"))

    def __len__(self) -> int:
        return sum(self.known.values()) + self.unseen

    def has(self, card: str) -> bool:
        return self.known[card] > 0

    def take(self, card: str) -> bool:
        """Remove ``card``; True when it was known to be here, False when an unseen card was spent.

        The caller checks first that the card may be unseen here (not located elsewhere).
        """
        if self.known[card] > 0:
            self.known[card] -= 1
            if not self.known[card]:
                del self.known[card]
            return True
        if self.unseen <= 0:
            raise ValueError(card)
        self.unseen -= 1
        return False

    def add(self, card: str) -> None:
        if card == "*":
            self.unseen += 1
        else:
            self.known[card] += 1

    def cards(self) -> list[str]:
        return list(self.known.elements())
