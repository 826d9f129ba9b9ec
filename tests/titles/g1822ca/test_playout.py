"""Random legal 1822CA-family games run to the end with every invariant checked.

The invariants include the title's own (bid boxes, bidding tokens, loans,
purses; ``G1822CA.title_violations``) after every action.
"""

from __future__ import annotations

import pytest

from desk18xx.commands.playout import play_one


@pytest.mark.slow
@pytest.mark.parametrize(("title", "seed"), [("1822CA-ERS", 1), ("1822CA-WRS", 2)])
def test_random_scenario_game_finishes_with_invariants_intact(title: str, seed: int) -> None:
    result = play_one(title, seed, None, ())
    assert result.error is None, f"{title} seed {seed}: {result.error}"
    assert result.finished and result.end_reason in {"bank", "stock_market"}


@pytest.mark.slow
def test_random_full_game_by_18xx_games_rules_with_two_players() -> None:
    result = play_one("1822CA", 3, 2, ("compat_18xxgames",))
    assert result.error is None, result.error
    assert result.finished
