#!/usr/bin/env bash
# Set up (first time only) and run the whole test suite: lint, types, tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
cd "$root"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
.venv/bin/python -m ruff check .
.venv/bin/python -m mypy
.venv/bin/lint-imports --no-cache  # the layers (.importlinter)
exec .venv/bin/python -m pytest -q "$@"
