"""Field fuzz in the suite (issue 15): a sample of `fieldfuzz`'s long run.

Every mutant of a number, an id or a list of ids of a recorded or random action
is refused with a reason, or it is another legal move on a field that is the
player's own choice, or it leaves the same position; none of a field the
engine can compute changes the outcome (``trusted``), and none crashes.
The long run: ``.venv/bin/python tests/golden/fieldfuzz.py --stride 5 --random 50``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import fieldfuzz  # noqa: E402

FILES = sorted(fieldfuzz.FIXTURES.glob("*/*.json"))


def _check(tally: fieldfuzz.Tally) -> None:
    assert tally.counts["crashed"] == 0, tally.examples["crashed"]
    assert tally.counts["trusted"] == 0, tally.examples["trusted"]
    assert tally.tried > 20
    assert tally.counts["refused"] > 0


def test_fixtures_are_present() -> None:
    assert len(FILES) >= 6, f"the recorded games are missing from {fieldfuzz.FIXTURES}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_recorded_actions(path: Path) -> None:
    _check(fieldfuzz.fuzz_export(path, stride=97, carry_stride=7))


@pytest.mark.parametrize("title_id", sorted(fieldfuzz.TITLES))
def test_random_game_actions(title_id: str) -> None:
    _check(fieldfuzz.fuzz_random(title_id, 1000, actions=300, stride=15))
