"""Rulebook mode against ``compat_18xxgames`` (docs/rules-notes.md, 1822CA table)."""

from __future__ import annotations

import pytest

from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import DEPOT
from desk18xx.titles.g1822ca.game import G1822CA

SEED = 337421161


def _game(title: str, compat: bool) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    options = ("compat_18xxgames",) if compat else ()
    return G1822CA(GameSetup(title, ids, SEED, options))


def _depot_sevens(game: G1822CA) -> list[str]:
    return [tid for tid in game.depot if game.train_base[tid] == "7"]


@pytest.mark.parametrize("title", ["1822CA-ERS", "1822CA-WRS"])
@pytest.mark.parametrize("compat", [False, True])
def test_scenario_seven_e_supply(title: str, compat: bool) -> None:
    """RB §9: unlimited 7/E-trains; 18xx.games stocks 20 (row 9)."""
    game = _game(title, compat)
    bought = 0
    while _depot_sevens(game) and bought < 30:
        game.give_train(game.trains[_depot_sevens(game)[0]], "CPR")
        bought += 1
    if compat:
        assert bought == 20 and not _depot_sevens(game)
    else:
        assert bought == 30 and len(_depot_sevens(game)) == 1
        assert all(game.trains[t].owner == "CPR" for t in game.corps["CPR"].trains)
        assert len(set(game.corps["CPR"].trains)) == 30


def test_a_removed_depot_seven_is_replaced_in_rulebook_mode() -> None:
    game = _game("1822CA-ERS", False)
    first = _depot_sevens(game)[0]
    game.remove_train(game.trains[first])
    assert game.trains[first].owner != DEPOT
    assert len(_depot_sevens(game)) == 1 and _depot_sevens(game)[0] != first
