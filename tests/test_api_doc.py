"""docs/api.md: every example on the page runs, from the repository's root (issue 34)."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_the_api_page_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # the page reads examples/ as a user in a checkout would
    result = doctest.testfile(str(ROOT / "docs/api.md"), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 40
    assert result.failed == 0, f"{result.failed} example(s) of docs/api.md failed (printed above)"
