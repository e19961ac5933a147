"""The figures a Tenhou or Mahjong Soul log writes for a win, as strings: each yaku
(``"立直(1飜)"``, ``"国士無双(役満)"``) and the points (``"30符4飜2000-3900点"``, ``"満貫4000点∀"``).

The importers keep them in ``[%tenhou ...]`` comment commands; the sanma rules
(``replay/mahjong/sanma/tenhou.py``) compare them with the replay, the mjai writer reads the
han and fu from them. Pure functions of a string, like :func:`.model.comment_commands`.
"""

from __future__ import annotations

import re

_YAKU_RE = re.compile(r"^(?P<name>.+)\((?P<han>\d+)飜\)$|^(?P<yname>.+)\(役満\)$")
_POINTS_RE = re.compile(r"^(?:(?P<fu>\d+)符(?P<han>\d+)飜|(?P<limit>満貫|跳満|倍満|三倍満|役満|数え役満|\d*倍役満))"
                        r"(?P<pts>[\d-]+)点(?P<all>∀?)$")


def read_yaku(entry: str) -> tuple[str, int] | None:
    """``"立直(1飜)"`` -> ("立直", 1); ``"国士無双(役満)"`` -> ("国士無双", 13); None if unreadable."""
    m = _YAKU_RE.match(entry.strip())
    if not m:
        return None
    if m.group("yname"):
        return m.group("yname"), 13
    return m.group("name"), int(m.group("han"))


def read_points(text: str) -> dict[str, object] | None:
    """``"30符4飜2000-3900点"`` -> fu 30, han 4, points (2000, 3900); limits have no fu."""
    m = _POINTS_RE.match(text.strip())
    if not m:
        return None
    pts = tuple(int(x) for x in m.group("pts").split("-") if x)
    return {"fu": int(m.group("fu")) if m.group("fu") else None,
            "han": int(m.group("han")) if m.group("han") else None,
            "limit": m.group("limit") or "", "points": pts, "all": bool(m.group("all"))}


__all__ = ["read_points", "read_yaku"]
