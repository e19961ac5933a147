"""The design is the layout: imports follow the data flow (DESIGN.md §Layout).

notation/ imports neither replay/ nor viewer/; replay/ never imports viewer/ and never
reads text (no notation.reader or notation.writer); no game module imports another.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from replay.games import GAME_MODULES

ROOT = Path(__file__).parent.parent
GAME_FILES = {m.split(".")[1] for m in GAME_MODULES.values()}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = path.parent.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package if node.level == 1 else ""
                mod = f"{base}.{node.module}" if node.module else base
                found.add(mod)
                found.update(f"{base}.{a.name}" for a in node.names)
            elif node.module:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "notation").glob("*.py")), ids=lambda p: p.name)
def test_notation_knows_no_rules(path):
    bad = {m for m in imports(path) if m.split(".")[0] in ("replay", "viewer")}
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "replay").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT / "replay")))
def test_replay_reads_no_text_and_games_stay_apart(path):
    found = imports(path)
    assert not {m for m in found if m.split(".")[0] == "viewer"}, f"{path.name} imports the viewer"
    assert not {m for m in found if m.startswith(("notation.reader", "notation.writer"))}, f"{path.name} reads or writes text"
    if path.stem in GAME_FILES:
        others = {m for m in found if m.startswith("replay.") and m.split(".")[1] in GAME_FILES - {path.stem}}
        assert not others, f"{path.name} imports another game: {others}"
