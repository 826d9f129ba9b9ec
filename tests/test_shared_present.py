"""The recorded games in ../shared are the acceptance test of the rules: a run
without them must fail, never pass on skipped tests (STYLE.md §8)."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"


def test_the_recorded_games_are_there() -> None:
    found = sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/*.json"))
    assert len(found) >= 6, f"expected the 18xx.games fixtures in {FIXTURES}, found {found}"
    for title in ("1867", "1822CA", "1822CAERS", "1822CAWRS"):
        assert any(f.startswith(f"{title}/") for f in found), title
