"""Speed figures of the viewer (``python -m paifu.bench.viewer [--old MODULE_FILE]``).

Makes a corpus under a temporary folder (selfplay Big Two records: 500 one-record files,
one file of 200 records, one record of many hands), then times through Flask's test client:
the index of the 500 files (first scan, then again once every record is read), record 200
of the 200-record file and a 404 past its end, and the record page of the long record (its
size and the time to build it). With ``--old FILE`` the index and record figures are also
taken with another ``library.py`` (e.g. the one before the offset index), for comparison.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable


def make_corpus(root: Path, files: int = 500, records: int = 200, long_hands: int = 200) -> None:
    from paifu.notation import write_record
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    engine = games.engine("bigtwo")
    (root / "many").mkdir(parents=True, exist_ok=True)
    texts = [write_record(selfplay_record(engine, seed, 1)) for seed in range(max(files, records))]
    for k in range(files):
        (root / "many" / f"r{k:04}.paifu").write_text(texts[k], encoding="utf-8")
    (root / "one").mkdir(exist_ok=True)
    (root / "one" / "club.paifu").write_text("\n".join(texts[:records]), encoding="utf-8")
    (root / "long").mkdir(exist_ok=True)
    (root / "long" / "long.paifu").write_text(write_record(selfplay_record(engine, 1, long_hands)), encoding="utf-8")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def with_library(module_file: str | None):  # type: ignore[no-untyped-def]
    """create_app, with viewer.library swapped for another file's Library when asked."""
    import paifu.viewer as viewer
    import paifu.viewer.library as current

    if module_file is None:
        return viewer.create_app, current.Library
    spec = importlib.util.spec_from_file_location("viewer_library_old", module_file)
    assert spec and spec.loader
    old = importlib.util.module_from_spec(spec)
    sys.modules["viewer_library_old"] = old
    spec.loader.exec_module(old)
    old.Library.stamp = current.Library.stamp  # the routes' cache key; reads nothing

    def create(path: Path):  # type: ignore[no-untyped-def]
        app = viewer.create_app(path)
        app.config["LIBRARY"] = old.Library.at(path)
        return app
    return create, old.Library


def run(root: Path, module_file: str | None, label: str) -> dict[str, float]:
    create, _ = with_library(module_file)
    out: dict[str, float] = {}
    client = create(root / "many").test_client()
    out["index of 500 files, first scan (s)"], _ = timed(lambda: client.get("/"))
    out["index of 500 files, all read (s)"], _ = timed(lambda: client.get("/"))
    client = create(root / "one").test_client()
    client.get("/record/club.paifu?n=1")
    from paifu.viewer import routes

    routes._built.clear()  # built records are kept: time reading and building this one
    out["record 200 of 200 (s)"], r = timed(lambda: client.get("/api/record/club.paifu?n=200"))
    assert r.status_code == 200
    out["record 201 of 200, a 404 (s)"], r = timed(lambda: client.get("/record/club.paifu?n=201"))
    assert r.status_code == 404
    lib = client.application.config["LIBRARY"]
    out["record 200 of 200, read only (s)"], _ = timed(lambda: lib.record("club.paifu", 200))
    out["record 100 of 200, read only (s)"], _ = timed(lambda: lib.record("club.paifu", 100))
    for k, v in out.items():
        print(f"{label:>6}  {k:<36} {v:8.3f}")
    return out


def run_wide(root: Path, copies: int) -> None:
    """The index of ``copies`` x 500 files once every record is read."""
    import shutil

    from paifu.viewer import create_app

    wide = root / f"wide{copies}"
    if not wide.exists():
        for c in range(copies):
            shutil.copytree(root / "many", wide / f"c{c:02}")
    client = create_app(wide).test_client()
    t, _ = timed(lambda: client.get("/"))
    print(f"{'new':>6}  {f'index of {copies * 500} files, first scan (s)':<36} {t:8.3f}")
    t, r = timed(lambda: client.get("/"))
    print(f"{'new':>6}  {f'index of {copies * 500} files, all read (s)':<36} {t:8.3f}   {len(r.data) / 1e6:.2f} MB")


def run_long(root: Path) -> None:
    """A long record's pages: the first one (read and replayed as far as hand 1 only), a hand
    far from it, the hand after that, going back to hand 2, the last hand."""
    from paifu.viewer import create_app

    from paifu.viewer import routes

    routes._built.clear()
    routes._lazy.clear()
    client = create_app(root / "long").test_client()
    hands = (root / "long" / "long.paifu").read_text(encoding="utf-8").count("\nhand ")
    far = max(hands // 2, 1)
    for label, url in (("long record page (s)", "/record/long.paifu"),
                       (f"hand {far} of {hands} (s)", f"/record/long.paifu?hand={far}"),
                       (f"hand {far + 1}, the next (s)", f"/record/long.paifu?hand={far + 1}"),
                       ("hand 2, going back (s)", "/record/long.paifu?hand=2"),
                       (f"hand {hands}, the last (s)", f"/record/long.paifu?hand={hands}")):
        t, r = timed(lambda: client.get(url))
        assert r.status_code == 200
        print(f"{'new':>6}  {label:<36} {t:8.3f}   {len(r.data) / 1e6:.2f} MB")
    from paifu.viewer.steps import build_steps

    lib = client.application.config["LIBRARY"]

    def whole_way() -> None:  # the first page before this pass: read whole, replayed whole, 12 hands drawn
        result = lib.record("long.paifu", 1)
        build_steps(result.record, "long.paifu", 1, result.diagnostics, only_hands=range(0, 12))
    t, _ = timed(whole_way)
    print(f"{'old':>6}  {'long record page, whole replay (s)':<36} {t:8.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m viewer.bench")
    parser.add_argument("--old", metavar="FILE", help="another copy of viewer/library.py to compare with")
    parser.add_argument("--dir", metavar="DIR", help="the corpus folder (made when empty, kept)")
    parser.add_argument("--long-hands", type=int, default=200)
    parser.add_argument("--wide", type=int, default=0, metavar="K", help="also the index of K x 500 files")
    parser.add_argument("--long-only", action="store_true", help="time the long record's pages only")
    args = parser.parse_args(argv)
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="paifu-viewer-bench-"))
    if not (root / "many").exists() and not (args.long_only and (root / "long" / "long.paifu").exists()):
        t, _ = timed(lambda: make_corpus(root, long_hands=args.long_hands))
        print(f"corpus made in {t:.1f} s under {root}")
    if args.long_only:
        run_long(root)
        return 0
    if args.old:
        run(root, args.old, "old")
    run(root, None, "new")
    run_long(root)
    if args.wide:
        run_wide(root, args.wide)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
