"""Test settings shared by every test module.

Hypothesis runs with no deadline (timing flakes on shared machines). Under CI (the CI
environment variable is set) it is derandomized, so a run is reproducible from the commit
alone; locally it explores new examples each run.
"""

import os

from hypothesis import settings

settings.register_profile("paifu", deadline=None, print_blob=True)
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "paifu")
