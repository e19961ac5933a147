#!/usr/bin/env bash
# Set everything up and run the whole test suite. CI (.ci/run) calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive Debian's chromium; tiles and paper cards need a CJK font.
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  if ! command -v chromium >/dev/null || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; }; then
      echo "WARNING: could not install chromium and fonts-noto-cjk: the browser tests will be skipped" >&2
    fi
  fi
fi

python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e ".[test,bench]"

set +e
# One worker per core; a module's tests stay on one worker (they share its fixtures).
.venv/bin/python -m pytest -q -n auto --dist loadfile "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure" >&2
  exit 1
fi
exit "$rc"
