#!/usr/bin/env bash
# Make (or reuse) the project's virtual environment in .venv with everything installed.
# torch comes first and pinned: 2.13.0 is a CPU build; an unpinned torch pulls a CUDA build of several GB.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0
.venv/bin/python -m pip install --quiet -e ".[train,dev,bench,ray,interop,analysis,fast]"
