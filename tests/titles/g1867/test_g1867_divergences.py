"""Divergences from 18xx.games found by differential testing (docs/divergences.md).

Each position is reached through our own actions: a recorded 18xx.games game
replayed to a point, then moves of our choosing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from g1867_helpers import replay_prefix

from desk18xx.engine.actions import (
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    LayTile,
    Pass,
    PlaceToken,
    SellShares,
)
from desk18xx.engine.digest import state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import LegalActions
from desk18xx.titles.g1867.game import G1867
from desk18xx.titles.g1867.steps.operating import RouteStep


def _turn(game: G1867, player: str) -> None:
    assert game.legal_actions().entity == player


def _buy(game: G1867, player: str, share: str) -> None:
    _turn(game, player)
    game.process(BuyShares(entity=player, shares=(share,), percent=10))


def _sell(game: G1867, player: str, *shares: str) -> None:
    _turn(game, player)
    game.process(SellShares(entity=player, shares=shares, percent=10 * len(shares)))


def _pass(game: G1867, player: str) -> None:
    _turn(game, player)
    game.process(Pass(entity=player))


def _drive(game: G1867, stop: Callable[[LegalActions], bool], buyer: str) -> None:
    """Pass wherever possible (``buyer`` buys a train instead), else make the first
    move offered that is not a private purchase, until ``stop``."""
    rng = random.Random(0)
    while not stop(la := game.legal_actions()):
        assert la.entity is not None
        moves = game.legal_moves(rng)
        if la.entity == buyer and "buy_train" in la.types:
            game.process(next(m for m in moves if isinstance(m, BuyTrain)))
        elif "pass" in la.types:
            game.process(Pass(entity=la.entity))
        else:
            game.process(next(m for m in moves if not isinstance(m, BuyCompany)))


def test_d1_run_routes_is_skipped_when_no_token_reaches_another_stop() -> None:
    game = replay_prefix("21268.json", 205)
    _drive(game, lambda la: la.types == ("bid", "pass"), "BBG")
    game.process(Bid(entity="949", corporation="BBG", price=100))
    game.process(PlaceToken(entity="BBG", city="D8-0-0", slot=0))  # no track at D8
    _drive(game, lambda la: la.entity == "BBG" and bool(game.corps["BBG"].trains)
           and "lay_tile" in la.types, "BBG")
    game.process(Pass(entity="BBG"))  # lays no track: still nothing to run to
    # 18xx step/route.rb: no action without can_run_route?; the step is skipped
    assert "run_routes" not in game.legal_actions().types
    assert game.round is not None
    assert not isinstance(game.round.active_step(game), RouteStep)


def test_d2_an_upgrade_must_keep_the_old_paths_not_just_the_exits() -> None:
    # 21268.json action 142: CA lays track; N8 holds tile 7 (a sharp curve) at rotation 1.
    game = replay_prefix("21268.json", 142)
    assert game.board is not None and game.board.hex("N8").tile.name == "7"
    # tile 20 (two straights) at rotation 4 covers the curve's exits but not its path
    # (18xx upgrades_to?: "7 is not upgradeable to 20")
    with pytest.raises(IllegalAction, match="keep the track"):
        game.process(LayTile(entity="CA", hex="N8", tile="20-0", rotation=4))
    game.process(LayTile(entity="CA", hex="N8", tile="29-0", rotation=1))  # keeps the curve
    assert game.board.hex("N8").tile.name == "29"


def test_d6_a_walk_does_not_turn_back_at_a_stop() -> None:
    # 21268.json action 246: NO lays track. N8 holds tile 27 (a straight and a sharp
    # curve sharing an edge); NO's track enters it on the straight, runs to a stop and
    # ends there. Turning back at that stop and taking the curve reached N8's edge 2;
    # 18xx Node#walk leaves a stop only by its other paths, so M7 is not reached there.
    game = replay_prefix("21268.json", 246)
    assert game.board is not None and game.board.hex("N8").tile.name == "27"
    with pytest.raises(IllegalAction, match="cannot reach M7"):
        game.process(LayTile(entity="NO", hex="M7", tile="7-0", rotation=4))
    game.process(LayTile(entity="NO", hex="M7", tile="7-0", rotation=0))
    assert game.board.hex("M7").tile.name == "7"


def test_d4_a_tie_after_a_sale_keeps_the_sitting_president() -> None:
    # 21268.json, start of the SR at action 537: seats 4661, 488, 949, 4440;
    # 4440 is CNR's president with 50%, the rest in CNR's treasury.
    game = replay_prefix("21268.json", 537)
    _buy(game, "4661", "CNR_4")
    _buy(game, "488", "CNR_5")
    _pass(game, "949")
    _sell(game, "4440", "CNR_1", "CNR_2", "CNR_3")  # keeps only the 20% certificate
    _pass(game, "4440")
    _pass(game, "4661")
    _buy(game, "488", "CNR_6")  # 488 ties the president at 20%
    _pass(game, "949")
    _pass(game, "4440")
    _sell(game, "4661", "CNR_4")
    # 18xx share_pool.rb: a tie never moves the presidency away from the sitting one
    assert game.president("CNR") == "4440"
    assert game.shares["CNR_0"].owner == "4440"
    assert {game.shares[s].owner for s in ("CNR_5", "CNR_6")} == {"488"}


def test_d5_a_partial_presidency_sale_returns_the_longest_pooled_certificate() -> None:
    game = replay_prefix("21268.json", 537)  # as in the D4 test
    _buy(game, "4661", "CNR_4")
    _buy(game, "488", "CNR_6")
    _pass(game, "949")
    _sell(game, "4440", "CNR_3", "CNR_2", "CNR_1")  # the pool holds CNR_3, CNR_2, CNR_1
    _pass(game, "4440")
    _pass(game, "4661")
    _buy(game, "488", "CNR_5")  # 488 holds CNR_6, then CNR_5
    _pass(game, "949")
    _turn(game, "4440")
    game.process(SellShares(entity="4440", shares=("CNR_0",), percent=10))
    # 18xx share_pool.rb: CNR_0 to the pool, 488's certificates to the pool in holding
    # order, CNR_0 to 488, and the pool's first certificate back to the seller
    assert game.president("CNR") == "488"
    assert [s.id for s in game.shares_of("4440", "CNR")] == ["CNR_3"]
    assert [s.id for s in game.shares_in_arrival_order("pool", "CNR")] == [
        "CNR_2", "CNR_1", "CNR_6", "CNR_5"]


def test_d12_par_keeps_the_turn_open_from_twice_the_lowest_start_price() -> None:
    # 18xx g_1867 can_ipo_any?: the president's certificate of an unstarted major costs
    # two shares at the lowest start price of any kind ($50, a minor's): $100
    game = replay_prefix("21268.json", 426)
    la = game.legal_actions()
    assert la.entity == "949" and game.cash["949"] == 116
    assert "par" in la.types
    game = replay_prefix("21268.json", 427)
    la = game.legal_actions()
    assert la.entity == "4440" and game.cash["4440"] == 81
    assert "par" not in la.types


def test_d10_only_the_first_discarded_copy_of_a_pool_train_is_offered() -> None:
    # 21268.json action 85: CV buys a 2 from the depot; CS holds 2-2 and 2-1.
    game = replay_prefix("21268.json", 85)
    assert game.legal_actions().entity == "CV"
    game.discard_train("CS", "2-2")
    game.discard_train("CS", "2-1")
    # 18xx depot.rb depot_trains: upcoming trains + @discarded.uniq(&:name)
    assert [t.id for t in game.pool_trains()] == ["2-2", "2-1"]
    assert [t.id for t in game.depot_trains()] == ["2-3", "2-2"]
    later = BuyTrain(entity="CV", train="2-1", price=100)
    assert game.why_illegal(later) is not None
    game.process(BuyTrain(entity="CV", train="2-2", price=100))
    assert game.trains["2-2"].owner == "CV"
    assert [t.id for t in game.depot_trains()] == ["2-3", "2-1"]


def test_a_presidency_sale_the_pool_cannot_settle_is_refused_unchanged() -> None:
    # Field fuzz (1867 seed 1010): 4440 holds CNR_0 and 30% more and names only CNR_0
    # for a 10% sale.  488's 20% go to 4440 (who keeps 20% and more), so nothing in the
    # pool can come back: refused with the reason, the position unchanged (was IndexError).
    game = replay_prefix("21268.json", 537)
    _buy(game, "4661", "CNR_4")
    _buy(game, "488", "CNR_6")
    _pass(game, "949")
    _pass(game, "4440")
    _pass(game, "4661")
    _buy(game, "488", "CNR_5")
    _pass(game, "949")
    _turn(game, "4440")
    assert game.president("CNR") == "4440" and game.percent_of("4440", "CNR") == 50
    assert game.shares_in_arrival_order("pool", "CNR") == []
    before = state_digest(game)
    with pytest.raises(IllegalAction, match="with the president's certificate: sell CNR's"):
        game.process(SellShares(entity="4440", shares=("CNR_0",), percent=10))
    assert state_digest(game) == before
