#!/usr/bin/env bash
# Set up .venv and run the whole test suite, soak tests included (CI runs exactly this).
# Developers: `.venv/bin/pytest -m "not soak and not slow" -n 2` is the quick suite (under 5 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/pytest -n 2 --dist worksteal -q "$@"
