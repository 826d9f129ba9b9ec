#!/usr/bin/env bash
# Create .venv beside the project and install desk18xx with what it needs.
# Re-installs only when pyproject.toml changed since the last install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${PYTHON:-python3}"
if [[ ! -x .venv/bin/python ]]; then
    "$py" -m venv .venv || {
        echo "desk18xx: could not create a virtual environment." >&2
        echo "On Debian/Ubuntu: sudo apt-get install python3-venv" >&2
        exit 1
    }
fi
stamp=.venv/.desk18xx-installed
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [[ ! -f $stamp || "$(cat "$stamp")" != "$want" ]]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]"
    echo "$want" > "$stamp"
fi
