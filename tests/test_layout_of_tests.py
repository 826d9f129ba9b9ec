"""The suite's own layout: pytest imports test modules by their base name (no packages
under tests/), so two `test_x.py` in different folders stop the whole run at collection
(stop 21's first CI run: two `test_offers_all.py`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_name() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert not [n for n, c in names.items() if c > 1]
    assert len(names) > 100  # the suite was found
