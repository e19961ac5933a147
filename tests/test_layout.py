"""The design is the layout: imports follow the data flow (DESIGN.md §Layout).

One import package, ``paifu``: ``paifu/`` (the API, the command line, the machinery the
command line, the viewer and the archive share) and the repository's folders installed
inside it (setup.py). notation/ knows text and nothing of rules; replay/ knows rules and
never reads text; replay/ shows the families (the protocol at its root, one folder per
family with its core and its games); a game imports its family's core and the protocol,
never another game or another family; nothing imports the command line; and no module
imports another that imports it back, at any depth, lazily or not.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from paifu.replay.games import GAME_MODULES

ROOT = Path(__file__).parent.parent
OLD_NAMES = {"notation", "replay", "viewer", "schemas", "paifu_cli", "paifu_archive", "paifu_bench", "paifu_bench_tiles"}
FAMILIES = {"cards", "mahjong", "paper"}


def folders() -> dict[str, str]:
    """setup.py's package -> folder mapping, read from its text (importing it would run setup)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FOLDERS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no FOLDERS mapping")


@cache
def modules() -> dict[str, Path]:
    """Every module of the installed package, by its dotted name, from the tree."""
    found: dict[str, Path] = {}
    for package, folder in folders().items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            found[".".join((package, *rel))] = path
    return found


def is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def imports_of(path: Path, name: str | None) -> set[str]:
    """The modules a file imports (absolute names), at module level or inside functions.

    ``from X import y`` counts as an import of ``X.y`` where that is a module, else of ``X``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (name if is_package(name) else name.rpartition(".")[0]) if name else ""
    known = modules()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return found


def ours(found: set[str]) -> set[str]:
    return {m for m in found if m == "paifu" or m.startswith("paifu.")}


ALL = sorted(modules())


def test_the_package_is_the_tree():
    """The names the tests use exist, and the families stand where the registry says."""
    names = modules()
    assert {"paifu", "paifu.cli", "paifu.batch", "paifu.inputs", "paifu.archive", "paifu.notation", "paifu.replay",
            "paifu.viewer", "paifu.schemas", "paifu.bench"} <= set(names)
    for game, module in GAME_MODULES.items():
        assert module in names, f"{game}: {module} is not in the tree"
        assert module.split(".")[2] in FAMILIES, f"{game} is not in a family's folder"


@pytest.mark.parametrize("path", sorted(set(ROOT.glob("tests/**/*.py")) | {p for p in modules().values()}),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_imports_the_old_top_level_names(path):
    found = imports_of(path, None) if "tests" in path.parts else imports_of(path, next(n for n, p in modules().items() if p == path))
    bad = {m for m in found if m.split(".")[0] in OLD_NAMES}
    assert not bad, f"{path.name} imports {bad}: say paifu.{sorted(bad)[0]}"


@pytest.mark.parametrize("name", [m for m in ALL if m.startswith("paifu.notation")])
def test_notation_knows_no_rules(name):
    bad = {m for m in ours(imports_of(modules()[name], name)) if not m.startswith("paifu.notation")}
    assert not bad, f"{name} imports {bad}"


def game_of(name: str) -> str | None:
    """The game module (or package) a replay module belongs to, if any."""
    return next((g for g in GAME_MODULES.values() if name == g or name.startswith(g + ".")), None)


@pytest.mark.parametrize("name", [m for m in ALL if m.startswith("paifu.replay")])
def test_replay_reads_no_text_and_games_stay_apart(name):
    found = ours(imports_of(modules()[name], name))
    outside = {m for m in found if not m.startswith(("paifu.replay", "paifu.notation"))}
    assert not outside, f"{name} imports {outside}: replay/ is below the viewer, the archive and the command line"
    text = {m for m in found if m.startswith(("paifu.notation.reader", "paifu.notation.writer", "paifu.notation.tenhou",
                                               "paifu.notation.jsonform"))}
    assert not text, f"{name} reads or writes text: {text}"
    parts = name.split(".")
    family = parts[2] if len(parts) > 2 and parts[2] in FAMILIES else None
    game = game_of(name)
    for m in found:
        mparts = m.split(".")
        if not m.startswith("paifu.replay.") or len(mparts) < 3 or mparts[2] not in FAMILIES:
            continue  # the protocol (replay/'s root) and the record model may be imported by all
        other_game = game_of(m)
        if family is None:
            raise AssertionError(f"{name} (the protocol) imports a family's module {m}: go through the registry")
        assert mparts[2] == family, f"{name} imports {m}, of another family"
        assert other_game is None or other_game == game, f"{name} imports another game: {m}"


@pytest.mark.parametrize("name", ALL)
def test_nothing_imports_the_command_line(name):
    found = ours(imports_of(modules()[name], name))
    if name != "paifu.__main__" and not name.startswith("paifu.cli"):
        assert not {m for m in found if m == "paifu.cli" or m.startswith("paifu.cli.")}, f"{name} imports the command line"
    if not name.startswith(("paifu.cli", "paifu.bench")):
        assert not {m for m in found if m.startswith("paifu.bench")}, f"{name} imports the benchmarks"
    if name.startswith("paifu.viewer") or name in ("paifu.inputs", "paifu.batch", "paifu.files", "paifu.archive"):
        assert not {m for m in found if m.startswith("paifu.viewer")} or name.startswith("paifu.viewer"), f"{name} imports the viewer"


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import circle of the graph (module -> the modules it imports), or None."""
    for start in graph:
        stack = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    return trail + [start]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    return None


def test_the_circle_finder_finds_a_circle_at_any_depth():
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle():
    """Every module's imports, followed at any depth, never lead back to it."""
    graph = {name: ours(imports_of(path, name)) & set(modules()) - {name} for name, path in modules().items()}
    found = circle(graph)
    assert found is None, "import circle: " + " -> ".join(found or [])
