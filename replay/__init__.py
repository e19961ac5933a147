"""paifu's rules: engines, the validator, selfplay. Reads the record model, never text.

    >>> from paifu.notation import parse
    >>> from paifu.replay import validate
    >>> report = validate(parse(open("examples/bigtwo-club-night.paifu").read()))  # doctest: +SKIP
"""

from .engine import Engine, HandState, Match, RuleOption, Rules, Settlement, TableView, Violation
from .games import ALL_GAMES, EngineUnavailable, engine, game_ids
from .report import RecordReport, Report
from .validate import Step, replay, validate

__all__ = [
    "Engine", "HandState", "Match", "RuleOption", "Rules", "Settlement", "TableView", "Violation",
    "ALL_GAMES", "EngineUnavailable", "engine", "game_ids", "RecordReport", "Report", "Step", "replay", "validate",
]
