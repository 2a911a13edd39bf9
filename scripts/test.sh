#!/usr/bin/env bash
# Set up .venv and headless Chromium, then run ruff, mypy, the docs site build (strict: a broken
# link, anchor or page fails it) and the whole test suite, soak tests
# included (CI's .ci/run runs exactly this; what it costs: docs/results/test-suite.md).
# While working, the quick suite:
#   .venv/bin/pytest -m "not soak and not slow" -n 2
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The 9 HTML replay viewer tests (tests/play/test_html_chromium.py) need headless Chromium and skip
# without it: install Debian's package when we are root, else say so.
if ! command -v chromium >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing Debian's chromium for the HTML viewer tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "test.sh: chromium is missing and installing it needs root, so the 9 HTML viewer tests" \
         "will be skipped (to run them: sudo apt-get install -y chromium)" >&2
  fi
fi
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/mkdocs build --strict --quiet
.venv/bin/pytest -n 2 --dist worksteal -q "$@"
