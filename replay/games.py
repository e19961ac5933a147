"""The registry of games: id -> the module that holds its engine, imported on first use."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from .engine import Engine

# id -> module under replay/ whose ``ENGINE`` is the game's engine.
GAME_MODULES: dict[str, str] = {
    "bigtwo": "replay.bigtwo",
    "piquet": "replay.piquet",
    "ninetynine": "replay.ninetynine",
    "kawuxing": "replay.kawuxing",
    "paomazai": "replay.paomazai",
    "paohuzi": "replay.paohuzi",
    "jiuzhi": "replay.jiuzhi",
    "yichang": "replay.yichang",
    "wuhan": "replay.wuhan",
    "sanma": "replay.sanma",
}

# The ten games of the design; those without a module yet are listed as planned.
ALL_GAMES: dict[str, str] = {
    "piquet": "Piquet",
    "ninetynine": "Parlett's 99",
    "wuhan": "紅中頼子槓 Hongzhong Laizi Gang",
    "kawuxing": "卡五星 Kawuxing",
    "sanma": "三人麻雀 Sanma",
    "paohuzi": "跑胡子 Paohuzi",
    "yichang": "宜昌 血流成河 Yichang",
    "paomazai": "跑馬仔 Paomazai",
    "jiuzhi": "四色牌 九支十仔 Jiuzhi",
    "bigtwo": "鋤大D / 大老二 Big Two",
}


@cache
def engine(game: str) -> Engine | None:
    """The engine of a game id, or None when paifu has no engine for it."""
    module = GAME_MODULES.get(game)
    if module is None or importlib.util.find_spec(module) is None:
        return None
    return importlib.import_module(module).ENGINE


def available() -> list[str]:
    """Ids of the games whose engine is installed."""
    return sorted(g for g in GAME_MODULES if engine(g) is not None)
