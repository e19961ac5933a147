"""Test settings and fixtures shared by every test module.

Hypothesis runs with no deadline (timing flakes on shared machines). Under CI (the CI
environment variable is set) it is derandomized, so a run is reproducible from the commit
alone; locally it explores new examples each run.

``browser``: one headless chromium (Debian's, driven by Playwright) per browser test module;
the modules skip themselves when Playwright or chromium is missing.
"""

import os
from typing import Iterator

import pytest
from hypothesis import settings

CHROMIUM = "/usr/bin/chromium"

settings.register_profile("paifu", deadline=None, print_blob=True)
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "paifu")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install 'playwright~=1.64')")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            yield b
        finally:
            b.close()
