"""Card and tile spellings: one canonical spelling per family, aliases read but never written.

A family's spelling turns one whitespace-separated token into card codes (``read``) and a
list of codes back into one token (``write``). Which family a record uses follows from its
``Game`` tag (:data:`GAME_FAMILY`). A run of ``*`` is that many unseen cards in every family.
Families register themselves in :data:`SPELLINGS`; a game module's family adds its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

UNKNOWN = "*"


class Spelling(Protocol):
    family: str
    # whether cards are written one to a token, apart (``3C 4C 5D``): then a line's adjacent
    # card tokens are read as one item, a run; tiles are grouped inside a token (``123m``)
    apart: bool

    def read(self, token: str) -> list[str] | None:
        """The canonical codes a token spells, or None when it is not a card token."""

    def write(self, cards: list[str]) -> str:
        """The canonical token for codes that one token can hold."""


# French cards: rank 2-9 T J Q K A, suit C D H S. Aliases: 10 for T, suit symbols.
FRENCH_RANKS = "23456789TJQKA"
FRENCH_SUITS = "CDHS"
_FRENCH_SUIT_ALIASES = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_FRENCH_RE = re.compile(r"^(10|[2-9TJQKA])([CDHS♣♦♥♠♧♢♡♤])$")


@dataclass(frozen=True)
class FrenchSpelling:
    family: str = "french"
    apart: bool = True

    def read(self, token: str) -> list[str] | None:
        m = _FRENCH_RE.match(token)
        if not m:
            return None
        rank, suit = m.groups()
        return [("T" if rank == "10" else rank) + _FRENCH_SUIT_ALIASES.get(suit, suit)]

    def write(self, cards: list[str]) -> str:
        return " ".join(cards)


# Mahjong tiles: 1-9 m p s, 1-7 z (E S W N white green red), 0 m/p/s for a red five.
# A token groups digits before their suit letter: 123m55p7z.
_TILE_GROUP_RE = re.compile(r"([0-9]+)([mps])|([1-7]+)(z)")
_TILE_TOKEN_RE = re.compile(r"^(?:[0-9]+[mps]|[1-7]+z)+$")


@dataclass(frozen=True)
class TileSpelling:
    family: str = "tiles"
    apart: bool = False

    def read(self, token: str) -> list[str] | None:
        if not _TILE_TOKEN_RE.match(token):
            return None
        tiles: list[str] = []
        for m in _TILE_GROUP_RE.finditer(token):
            digits, suit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            tiles.extend(d + suit for d in digits)
        return tiles

    def write(self, cards: list[str]) -> str:
        out: list[str] = []
        run_suit = ""
        for code in cards:
            if code == UNKNOWN:
                if run_suit:
                    out.append(run_suit)
                    run_suit = ""
                out.append(UNKNOWN)
                continue
            digit, suit = code[:-1], code[-1]
            if run_suit and suit != run_suit:
                out.append(run_suit)
            out.append(digit)
            run_suit = suit
        if run_suit:
            out.append(run_suit)
        return "".join(out)


# Paohuzi's paper cards: 1x..10x small (小字 一..十), 1d..10d big (大字 壹..拾).
_PAOHUZI_RE = re.compile(r"^(10|[1-9])([xd])$")


@dataclass(frozen=True)
class PaohuziSpelling:
    family: str = "paohuzi"
    apart: bool = True

    def read(self, token: str) -> list[str] | None:
        return [token] if _PAOHUZI_RE.match(token) else None

    def write(self, cards: list[str]) -> str:
        return " ".join(cards)


# Four-colour cards (四色牌): colour Y R G W + piece K A E R H C S
# (帥將 仕士 相象 俥車 傌馬 炮砲 兵卒), e.g. YK yellow 帥, WS white 卒.
_FOURCOLOUR_RE = re.compile(r"^[YRGW][KAERHCS]$")


@dataclass(frozen=True)
class FourColourSpelling:
    family: str = "fourcolour"
    apart: bool = True

    def read(self, token: str) -> list[str] | None:
        return [token] if _FOURCOLOUR_RE.match(token) else None

    def write(self, cards: list[str]) -> str:
        return " ".join(cards)


@dataclass(frozen=True)
class FrenchJokerSpelling(FrenchSpelling):
    """French cards and the joker ``JK`` (99's early version): one card, in text and JSON alike."""

    def read(self, token: str) -> list[str] | None:
        return ["JK"] if token == "JK" else FrenchSpelling.read(self, token)


SPELLINGS: dict[str, Spelling] = {
    "french": FrenchSpelling(),
    "tiles": TileSpelling(),
    "paohuzi": PaohuziSpelling(),
    "fourcolour": FourColourSpelling(),
}

# Which family each game's records are spelled in. Text knowledge only: no rules here.
GAME_FAMILY: dict[str, str] = {
    "bigtwo": "french",
    "piquet": "french",
    "ninetynine": "french",
    "sanma": "tiles",
    "kawuxing": "tiles",
    "wuhan": "tiles",
    "yichang": "tiles",
    "paomazai": "tiles",
    "paohuzi": "paohuzi",
    "jiuzhi": "fourcolour",
}


# Games whose spelling adds a card to their family's (the family stays the same).
GAME_SPELLING: dict[str, Spelling] = {"ninetynine": FrenchJokerSpelling()}


def spelling_for_game(game: str | None) -> Spelling | None:
    if game in GAME_SPELLING:
        return GAME_SPELLING[game]
    family = GAME_FAMILY.get(game or "")
    return SPELLINGS.get(family) if family else None


def read_unknowns(token: str) -> list[str] | None:
    """``***`` -> three unseen cards; None when the token is not all stars."""
    if token and token.strip(UNKNOWN) == "":
        return [UNKNOWN] * len(token)
    return None


def write_cards(spelling: Spelling | None, cards: list[str]) -> str:
    if all(c == UNKNOWN for c in cards):
        return UNKNOWN * len(cards)
    if spelling is None:
        return " ".join(cards)
    return spelling.write(cards)
