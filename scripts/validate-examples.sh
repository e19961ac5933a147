#!/usr/bin/env bash
# Set everything up and run the main job: validate the bundled examples (all must be valid).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e .
.venv/bin/paifu validate examples/*.paifu
