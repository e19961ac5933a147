"""paifu (牌譜): notation, validator and replay viewer for recorded card and tile games.

    >>> import paifu
    >>> record = paifu.parse('[Game "bigtwo"]\\n\\nhand 1 dealer=D\\nA: 3C\\n')
    >>> paifu.write_record(record).splitlines()[-1]
    'A: 3C'
    >>> report = paifu.validate(next(paifu.read_path("examples/bigtwo-club-night.paifu")).record)  # doctest: +SKIP

docs/api.md documents the library: reading, writing, the report, the engine protocol.

The subpackages follow the data flow: :mod:`paifu.notation` (text <-> record model),
:mod:`paifu.replay` (the rules: engines by family, the validator), :mod:`paifu.viewer`
(the Flask viewer and the scribe), :mod:`paifu.schemas` (the JSON Schemas). Below the
command line, :mod:`paifu.inputs`, :mod:`paifu.batch`, :mod:`paifu.files` and
:mod:`paifu.archive` hold what the command line, the viewer and the archive share.

The names below are loaded on first use, so ``import paifu.notation`` does not load the
rules and ``import paifu`` loads nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"  # the distribution's version too (pyproject.toml reads it)

# public name -> the module that defines it
_API: dict[str, str] = {
    **dict.fromkeys(("parse", "parse_all", "read_path", "read_stream", "read_text", "write_record", "write_records",
                     "Record", "Hand", "Event", "Diagnostic", "same_content"), "paifu.notation"),
    **dict.fromkeys(("validate", "engine", "game_ids", "ALL_GAMES", "Report", "RecordReport", "Violation",
                     "EngineUnavailable"), "paifu.replay"),
}

__all__ = [
    "ALL_GAMES", "Diagnostic", "EngineUnavailable", "Event", "Hand", "Record", "RecordReport", "Report", "Violation",
    "__version__", "engine", "game_ids", "parse", "parse_all", "read_path", "read_stream", "read_text", "same_content",
    "validate", "write_record", "write_records",
]  # what _API loads, and the version (tests/test_wheel.py checks they agree)

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from paifu.notation import (Diagnostic, Event, Hand, Record, parse, parse_all, read_path, read_stream, read_text,
                                same_content, write_record, write_records)
    from paifu.replay import ALL_GAMES, EngineUnavailable, RecordReport, Report, Violation, engine, game_ids, validate


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'paifu' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
