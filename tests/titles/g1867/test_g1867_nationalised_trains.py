"""A nationalised major's trains (issue 16).

The card: "Its money goes to the bank and the rest to the CN" (which never runs):
the trains leave play.  18xx.games resets the major to a new corporation object;
the old one keeps its trains, which other companies may then buy from it at any
price from $1 (``Depot#other_trains``), the money leaving play with it.  A recorded
game may hold such a purchase, so ``compat_18xxgames`` allows it.
"""

from __future__ import annotations

import pytest
from conftest import make_game
from g1867_helpers import finish_auction, give_major

from desk18xx.engine.state import DEPOT
from desk18xx.titles.g1867.game import G1867
from desk18xx.titles.g1867.steps.trains import BuyTrainStep


def _two_majors(compat: bool) -> tuple[G1867, str]:
    game = make_game(3, *(("compat_18xxgames",) if compat else ()))
    finish_auction(game)
    give_major(game, "CPR", "1", 60, (0, 10))
    give_major(game, "GTR", "2", 60, (0, 10))
    game.cash["CPR"] = 500
    game.cash["GTR"] = 500
    game.cash["bank"] -= 1000
    tid = next(t.id for t in game.trains.values() if t.owner == DEPOT and t.name == "2")
    game.buy_train("CPR", tid, 100)
    return game, tid


@pytest.mark.parametrize(("compat", "offered"), [(False, False), (True, True)])
def test_a_nationalised_majors_train(compat: bool, offered: bool) -> None:
    game, tid = _two_majors(compat)
    total = sum(game.cash.values())
    game.nationalize("CPR", move_on=False)
    assert not game.corps["CPR"].trains
    assert game.round is not None
    step = BuyTrainStep(game.round)
    assert (tid in step.other_trains(game, "GTR")) is offered
    if offered:
        game.buy_train("GTR", tid, 1)
        assert game.trains[tid].owner == "GTR"
        assert game.cash["GTR"] == 499
    assert sum(game.cash.values()) == total


def test_rusted_it_is_not_offered() -> None:
    game, tid = _two_majors(True)
    game.nationalize("CPR", move_on=False)
    game.rust_on("4")
    assert game.round is not None
    assert tid not in BuyTrainStep(game.round).other_trains(game, "GTR")
