"""The registry of games: id -> the module that holds its engine, imported on first use."""

from __future__ import annotations

import importlib
from functools import cache

from .engine import Engine

# The ten games: id -> title.
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

# id -> the module whose ``ENGINE`` is the game's engine, in its family's folder.
GAME_MODULES: dict[str, str] = {
    "piquet": "paifu.replay.cards.piquet",
    "ninetynine": "paifu.replay.cards.ninetynine",
    "wuhan": "paifu.replay.mahjong.wuhan",
    "kawuxing": "paifu.replay.mahjong.kawuxing",
    "sanma": "paifu.replay.mahjong.sanma",
    "paohuzi": "paifu.replay.paper.paohuzi",
    "yichang": "paifu.replay.mahjong.yichang",
    "paomazai": "paifu.replay.mahjong.paomazai",
    "jiuzhi": "paifu.replay.paper.jiuzhi",
    "bigtwo": "paifu.replay.cards.bigtwo",
}


class EngineUnavailable(Exception):
    """A game paifu has, whose engine fails to import: a broken or partial installation,
    never a game "not written yet". The command line reports it and exits 2."""

    def __init__(self, game: str, module: str, error: BaseException):
        self.game, self.module, self.error = game, module, error
        super().__init__(f"the engine of '{game}' ({module}) cannot be imported: {type(error).__name__}: {error}"
                         " (reinstall paifu)")

    def __reduce__(self):  # raised in a worker process, re-raised in the parent
        return type(self), (self.game, self.module, self.error)


@cache
def engine(game: str) -> Engine | None:
    """The engine of a game id; None for an id that is not one of the ten games.

    Raises :class:`EngineUnavailable` when the game's module fails to import."""
    module = GAME_MODULES.get(game)
    if module is None:
        return None
    try:
        return importlib.import_module(module).ENGINE
    except Exception as exc:  # noqa: BLE001 - named to the user, whatever it is
        raise EngineUnavailable(game, module, exc) from exc


def game_ids() -> list[str]:
    """The ten games' ids, sorted."""
    return sorted(GAME_MODULES)
