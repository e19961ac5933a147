"""Sanma: 「三人麻雀」のルール ver. 1.3, three-player riichi mahjong (issue 9)."""

from .engine import ENGINE

__all__ = ["ENGINE"]
