#!/usr/bin/env bash
# Set up (first time only) and launch desk18xx. Arguments go to the app.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
exec "$root/.venv/bin/python" -m desk18xx "$@"
